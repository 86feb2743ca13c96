package ops_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Hand-worked forward cases of the shape, creation, indexing, control, NN
// and math-reduction ops (the tensor arrays need an executor:
// tensorarray_test.go).

// arangeF64 returns the packed float64 array 0, 1, ... of the given shape.
func arangeF64(shape ...int) *ndarray.Array {
	v := ndarray.Must(ndarray.Arange(ndarray.Float64, 0, 1, ndarray.Packed(shape...).Size()))
	return ndarray.Must(ndarray.Reshape(v, shape...))
}

// ssArgs builds strided_slice's int args: the masks then begin, end, strides.
func ssArgs(masks [5]int64, begin, end, strides []int64) ops.Args {
	i := append([]int64(nil), masks[:]...)
	i = append(append(append(i, begin...), end...), strides...)
	return ops.Args{I: i}
}

func newFixtureOpCases() []forwardCase {
	in := func(v ...*ndarray.Array) []*ndarray.Array { return v }
	m := f64([]int{2, 2}, 1, 2, 3, 4)
	x12 := arangeF64(3, 4) // [[0 1 2 3] [4 5 6 7] [8 9 10 11]]
	v5 := arangeF64(5)
	c := []forwardCase{
		// tile
		{"tile rows (reps input)", "tile", ops.Args{}, in(m, i32([]int{2}, 2, 1)),
			in(f64([]int{4, 2}, 1, 2, 3, 4, 1, 2, 3, 4)), 0},
		{"tile both axes (reps args)", "tile", ops.Args{I: []int64{1, 2}}, in(m),
			in(f64([]int{2, 4}, 1, 2, 1, 2, 3, 4, 3, 4)), 0},
		{"tile vector int32", "tile", ops.Args{I: []int64{3}}, in(i32([]int{2}, 7, 8)),
			in(i32([]int{6}, 7, 8, 7, 8, 7, 8)), 0},
		{"tile zero reps", "tile", ops.Args{I: []int64{0, 1}}, in(m), in(ndarray.Must(ndarray.Zeros(ndarray.Float64, 0, 2))), 0},
		// range
		{"range int32", "range", ops.Args{}, in(ndarray.Scalar(int32(0)), ndarray.Scalar(int32(5)), ndarray.Scalar(int32(1))),
			in(i32([]int{5}, 0, 1, 2, 3, 4)), 0},
		{"range mixed ints (the fixture's)", "range", ops.Args{}, in(ndarray.Scalar(int32(0)), ndarray.Scalar(int64(3)), ndarray.Scalar(int32(1))),
			in(i32([]int{3}, 0, 1, 2)), 0},
		{"range float", "range", ops.Args{}, in(ndarray.Scalar(float32(1)), ndarray.Scalar(float32(2)), ndarray.Scalar(float32(0.25))),
			in(f32([]int{4}, 1, 1.25, 1.5, 1.75)), 0},
		{"range down", "range", ops.Args{}, in(ndarray.Scalar(int64(5)), ndarray.Scalar(int64(0)), ndarray.Scalar(int64(-2))),
			in(i64([]int{3}, 5, 3, 1)), 0},
		{"range empty", "range", ops.Args{}, in(ndarray.Scalar(int64(5)), ndarray.Scalar(int64(1)), ndarray.Scalar(int64(1))),
			in(ndarray.Must(ndarray.Zeros(ndarray.Int64, 0))), 0},
		{"range limit only", "range", ops.Args{}, in(ndarray.Scalar(int64(3))), in(i64([]int{3}, 0, 1, 2)), 0},
		{"range float args", "range", ops.Args{F: []float64{0, 1, 0.5}}, nil, in(f32([]int{2}, 0, 0.5)), 0},
		{"range int args", "range", ops.Args{I: []int64{2, 8, 3}}, nil, in(i64([]int{2}, 2, 5)), 0},
		{"range dtype arg", "range", ops.Args{I: []int64{3}, D: []ndarray.DType{ndarray.Float64}}, nil, in(f64([]int{3}, 0, 1, 2)), 0},
		// linspace (both forms) and lin_space
		{"linspace inputs (cond_true's)", "linspace", ops.Args{F: []float64{1, 5}},
			in(ndarray.Scalar(float32(1)), ndarray.Scalar(float32(5)), ndarray.Scalar(int32(5))), in(f32([]int{5}, 1, 2, 3, 4, 5)), 0},
		{"linspace float64", "linspace", ops.Args{}, in(ndarray.Scalar(0.0), ndarray.Scalar(1.0), ndarray.Scalar(int64(3))),
			in(f64([]int{3}, 0, 0.5, 1)), 0},
		{"linspace args", "linspace", ops.Args{F: []float64{2, 3}, I: []int64{3}}, nil, in(f32([]int{3}, 2, 2.5, 3)), 0},
		{"linspace one value", "linspace", ops.Args{F: []float64{2, 3}, I: []int64{1}, D: []ndarray.DType{ndarray.Float64}}, nil, in(f64([]int{1}, 2)), 0},
		{"lin_space", "lin_space", ops.Args{}, in(ndarray.Scalar(-1.0), ndarray.Scalar(1.0), ndarray.Scalar(int32(5))),
			in(f64([]int{5}, -1, -0.5, 0, 0.5, 1)), 0},
		// assign
		{"assign broadcast", "assign", ops.Args{}, in(ndarray.Must(ndarray.Zeros(ndarray.Float64, 2, 2)), f64([]int{2}, 1, 2)),
			in(f64([]int{2, 2}, 1, 2, 1, 2)), 0},
		{"assign cast", "assign", ops.Args{}, in(f64([]int{2}, 5, 5), ndarray.Scalar(int32(3))), in(f64([]int{2}, 3, 3)), 0},
		{"assign copy", "assign", ops.Args{}, in(m), in(m), 0},
		// noop
		{"noop", "noop", ops.Args{}, nil, in(ndarray.Scalar(true)), 0},
		{"noop with inputs", "noop", ops.Args{}, in(m, ndarray.Scalar(false)), in(ndarray.Scalar(true)), 0},
		// Assert that holds
		{"Assert holds", "Assert", ops.Args{}, in(ndarray.Scalar(true), m), in(ndarray.Scalar(true)), 0},
		{"Assert holds elementwise", "Assert", ops.Args{}, in(bools([]int{2}, true, true)), in(bools([]int{2}, true, true)), 0},
		// stridedslice: TensorFlow's x[0:2, 1:3]
		{"stridedslice inputs", "stridedslice", ssArgs([5]int64{}, nil, nil, nil),
			in(x12, i64([]int{2}, 0, 1), i64([]int{2}, 2, 3), i64([]int{2}, 1, 1)), in(f64([]int{2, 2}, 1, 2, 5, 6)), 0},
		{"stridedslice args", "stridedslice", ssArgs([5]int64{}, []int64{0, 1}, []int64{2, 3}, []int64{1, 1}),
			in(x12), in(f64([]int{2, 2}, 1, 2, 5, 6)), 0},
		{"stridedslice no strides input", "stridedslice", ssArgs([5]int64{}, nil, nil, nil),
			in(x12, i32([]int{1}, 1), i32([]int{1}, 3)), in(f64([]int{2, 4}, 4, 5, 6, 7, 8, 9, 10, 11)), 0},
		// x[::-1]: begin and end masked, stride -1
		{"stridedslice reverse", "stridedslice", ssArgs([5]int64{1, 0, 1, 0, 0}, []int64{0}, []int64{0}, []int64{-1}),
			in(v5), in(f64([]int{5}, 4, 3, 2, 1, 0)), 0},
		// x[3:0:-1]
		{"stridedslice negative stride", "stridedslice", ssArgs([5]int64{}, []int64{3}, []int64{0}, []int64{-1}),
			in(v5), in(f64([]int{3}, 3, 2, 1)), 0},
		// x[-1:-6:-2]: negative indices count from the end
		{"stridedslice negative indices", "stridedslice", ssArgs([5]int64{}, []int64{-1}, []int64{-6}, []int64{-2}),
			in(v5), in(f64([]int{3}, 4, 2, 0)), 0},
		// x[::2]
		{"stridedslice step", "stridedslice", ssArgs([5]int64{1, 0, 1, 0, 0}, []int64{0}, []int64{0}, []int64{2}),
			in(v5), in(f64([]int{3}, 0, 2, 4)), 0},
		// x[-10:100] is clamped to the whole axis
		{"stridedslice clamp", "stridedslice", ssArgs([5]int64{}, []int64{-10}, []int64{100}, []int64{1}),
			in(v5), in(v5), 0},
		// x[1]: shrink axis 0
		{"stridedslice shrink", "stridedslice", ssArgs([5]int64{0, 0, 0, 0, 1}, []int64{1}, []int64{2}, []int64{1}),
			in(x12), in(f64([]int{4}, 4, 5, 6, 7)), 0},
		// x[-1, 2]: both axes shrunk to a scalar
		{"stridedslice shrink both", "stridedslice", ssArgs([5]int64{0, 0, 0, 0, 3}, []int64{-1, 2}, []int64{0, 3}, []int64{1, 1}),
			in(x12), in(ndarray.Scalar(10.0)), 0},
		// x[newaxis, 0:1]
		{"stridedslice new axis", "stridedslice", ssArgs([5]int64{0, 0, 0, 1, 0}, []int64{0, 0}, []int64{0, 1}, []int64{1, 1}),
			in(x12), in(f64([]int{1, 1, 4}, 0, 1, 2, 3)), 0},
		// x[..., 1]
		{"stridedslice ellipsis", "stridedslice", ssArgs([5]int64{0, 1, 0, 0, 2}, []int64{0, 1}, []int64{0, 2}, []int64{1, 1}),
			in(x12), in(f64([]int{3}, 1, 5, 9)), 0},
		// x[1:, ...] on rank 3 keeps the trailing axes
		{"stridedslice ellipsis after", "stridedslice", ssArgs([5]int64{0, 2, 0, 0, 0}, []int64{1, 0}, []int64{2, 0}, []int64{1, 1}),
			in(arangeF64(2, 2, 2)), in(f64([]int{1, 2, 2}, 4, 5, 6, 7)), 0},
		{"stridedslice int32", "stridedslice", ssArgs([5]int64{}, []int64{1}, []int64{3}, []int64{1}),
			in(i32([]int{4}, 5, 6, 7, 8)), in(i32([]int{2}, 6, 7)), 0},
		// scatter_nd_update: TensorFlow's documentation example
		{"scatter_nd_update elements", "scatter_nd_update", ops.Args{},
			in(f64([]int{8}, 1, 2, 3, 4, 5, 6, 7, 8), i64([]int{4, 1}, 4, 3, 1, 7), f64([]int{4}, 9, 10, 11, 12)),
			in(f64([]int{8}, 1, 11, 3, 10, 9, 6, 7, 12)), 0},
		{"scatter_nd_update rows", "scatter_nd_update", ops.Args{},
			in(f64([]int{3, 2}, 1, 2, 3, 4, 5, 6), i32([]int{2, 1}, 2, 0), f64([]int{2, 2}, 9, 9, 8, 8)),
			in(f64([]int{3, 2}, 8, 8, 3, 4, 9, 9)), 0},
		{"scatter_nd_update pairs", "scatter_nd_update", ops.Args{},
			in(f64([]int{3, 2}, 1, 2, 3, 4, 5, 6), i32([]int{2, 2}, 0, 1, 2, 0), f64([]int{2}, 10, 20)),
			in(f64([]int{3, 2}, 1, 10, 3, 4, 20, 6)), 0},
		{"scatter_nd_update repeated index: the last wins", "scatter_nd_update", ops.Args{},
			in(i32([]int{2}, 0, 0), i32([]int{2, 1}, 0, 0), i32([]int{2}, 1, 2)), in(i32([]int{2}, 2, 0)), 0},
		// biasadd
		{"biasadd NHWC", "biasadd", ops.Args{}, in(f64([]int{2, 3}, 1, 2, 3, 4, 5, 6), f64([]int{3}, 10, 20, 30)),
			in(f64([]int{2, 3}, 11, 22, 33, 14, 25, 36)), 0},
		{"biasadd NCHW", "biasadd", ops.Args{B: []bool{true}}, in(arangeF64(1, 2, 2, 2), f64([]int{2}, 100, 200)),
			in(f64([]int{1, 2, 2, 2}, 100, 101, 102, 103, 204, 205, 206, 207)), 0},
	}
	return c
}

func TestNewOpsForward(t *testing.T) {
	for _, c := range newFixtureOpCases() {
		t.Run(c.name, func(t *testing.T) {
			got := runOp(t, c.op, c.args, c.in...)
			if len(got) != len(c.want) {
				t.Fatalf("%d outputs, want %d", len(got), len(c.want))
			}
			for i, w := range c.want {
				if got[i].DType() != w.DType() || !ndarray.AllClose(got[i], w, 1e-6, 1e-6) {
					t.Fatalf("output %d = %v, want %v", i, got[i], w)
				}
			}
		})
	}
}

func TestNewOpsErrors(t *testing.T) {
	x12 := arangeF64(3, 4)
	for _, c := range []struct {
		name string
		op   string
		args ops.Args
		in   []*ndarray.Array
		want []string
	}{
		{"tile reps count", "tile", ops.Args{I: []int64{2}}, []*ndarray.Array{x12}, []string{"[3 4]", "1 repetitions"}},
		{"range delta 0", "range", ops.Args{}, []*ndarray.Array{ndarray.Scalar(0.0), ndarray.Scalar(1.0), ndarray.Scalar(0.0)}, []string{"delta is 0"}},
		{"linspace num 0", "linspace", ops.Args{F: []float64{0, 1}, I: []int64{0}}, nil, []string{"num"}},
		{"stridedslice shrink out of range", "stridedslice", ssArgs([5]int64{0, 0, 0, 0, 1}, []int64{3}, []int64{4}, []int64{1}),
			[]*ndarray.Array{x12}, []string{"out of range", "[3 4]"}},
		{"stridedslice stride 0", "stridedslice", ssArgs([5]int64{}, []int64{0}, []int64{1}, []int64{0}), []*ndarray.Array{x12}, []string{"stride 0"}},
		{"stridedslice no masks", "stridedslice", ops.Args{}, []*ndarray.Array{x12}, []string{"masks"}},
		{"scatter_nd_update out of range", "scatter_nd_update", ops.Args{},
			[]*ndarray.Array{f64([]int{2}, 1, 2), i32([]int{1, 1}, 2), f64([]int{1}, 5)}, []string{"out of range", "[2]"}},
		{"scatter_nd_update bad updates", "scatter_nd_update", ops.Args{},
			[]*ndarray.Array{f64([]int{2, 2}, 1, 2, 3, 4), i32([]int{1, 1}, 0), f64([]int{3}, 5, 6, 7)}, []string{"updates of shape [3]", "[1 2]"}},
		{"biasadd channels", "biasadd", ops.Args{}, []*ndarray.Array{x12, f64([]int{3}, 1, 2, 3)}, []string{"bias of shape [3]"}},
		{"conv2d args", "conv2d", ops.Args{I: []int64{2, 2}}, []*ndarray.Array{arangeF64(1, 3, 3, 1), arangeF64(2, 2, 1, 1)}, []string{"kH, kW"}},
		{"conv2d channels", "conv2d", ops.Args{I: []int64{2, 2, 1, 1, 0, 0, 1, 1, 0, 1}}, []*ndarray.Array{arangeF64(1, 3, 3, 2), arangeF64(2, 2, 1, 1)},
			[]string{"input channels"}},
		{"avgpool3dnew rank", "avgpool3dnew", ops.Args{I: []int64{1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0}}, []*ndarray.Array{arangeF64(2, 2)}, []string{"rank 5"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, ok := ops.Lookup(c.op)
			if !ok {
				t.Fatalf("no op %q", c.op)
			}
			infos := make([]ops.Info, len(c.in))
			for i, a := range c.in {
				infos[i] = infoOf(a)
			}
			_, err := d.Infer(infos, &c.args)
			if err == nil {
				_, err = d.Run(nil, c.in, &c.args)
			}
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

// A failing Assert is an error naming the node and showing the values;
// inside a graph, the executor adds the op and its inputs.
func TestAssertFails(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 3)
	y := g.Placeholder("y", ndarray.Float64, 3)
	cond := g.Apply("all", ops.ReduceArgs(false), x.Eq(y))
	out, err := g.AddOp(graph.OpSpec{Name: "check_xy", OpName: "Assert", Args: ops.Args{S: []string{"x and y differ:"}}, Inputs: []*graph.Variable{cond, x, y}})
	if err != nil {
		t.Fatal(err)
	}
	name := out.Outputs()[0].Name()
	feeds := map[string]*ndarray.Array{"x": f64([]int{3}, 1, 2, 3), "y": f64([]int{3}, 1, 2, 3)}
	res, err := exec.Output(g, feeds, name)
	if err != nil || !ndarray.Values[bool](res[name])[0] {
		t.Fatalf("holding assertion: %v, %v", res[name], err)
	}
	feeds["y"] = f64([]int{3}, 1, 2.5, 3)
	_, err = exec.Output(g, feeds, name)
	if err == nil {
		t.Fatal("a failing assertion passed")
	}
	for _, w := range []string{`"check_xy"`, "x and y differ:", "[1 2 3]", "[1 2.5 3]", "condition false"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not mention %q", err, w)
		}
	}
	// At most int arg 0 values of each array are shown.
	d, _ := ops.Lookup("Assert")
	_, err = d.Run(nil, []*ndarray.Array{ndarray.Scalar(false), arangeF64(100)}, &ops.Args{I: []int64{4}})
	if err == nil || !strings.Contains(err.Error(), "[0 1 2 3 ...]") {
		t.Errorf("summarized: %v", err)
	}
}

func TestRangeInferValue(t *testing.T) {
	d, _ := ops.Lookup("range")
	out, err := d.Infer([]ops.Info{infoOf(ndarray.Scalar(int32(2))), infoOf(ndarray.Scalar(int32(7))), infoOf(ndarray.Scalar(int32(2)))}, &ops.Args{})
	if err != nil || out[0].Value == nil || !ndarray.Equal(out[0].Value, i32([]int{3}, 2, 4, 6)) {
		t.Fatalf("range inferred %v, %v", out, err)
	}
	out, err = d.Infer([]ops.Info{{DType: ndarray.Int32, Shape: []int{}}, {DType: ndarray.Int32, Shape: []int{}}}, &ops.Args{})
	if err != nil || !ndarray.SameShape(out[0].Shape, []int{-1}) {
		t.Fatalf("range of unknown bounds inferred %v, %v", out, err)
	}
}

func TestNNOpsForward(t *testing.T) {
	in := func(v ...*ndarray.Array) []*ndarray.Array { return v }
	x33 := f64([]int{1, 3, 3, 1}, 1, 2, 3, 4, 5, 6, 7, 8, 9)
	diag := f64([]int{2, 2, 1, 1}, 1, 0, 0, 1) // out[i,j] = x[i,j] + x[i+1,j+1]
	conv := func(same, nhwc int64, s, p, d int64) ops.Args {
		return ops.Args{I: []int64{2, 2, s, s, p, p, d, d, same, nhwc}}
	}
	// x33 in NCHW, and the diagonal kernel as [oC, iC, kH, kW].
	x33c := f64([]int{1, 1, 3, 3}, 1, 2, 3, 4, 5, 6, 7, 8, 9)
	pool := func(k, s, p, same, div, ndhwc int64) ops.Args {
		return ops.Args{I: []int64{k, k, k, s, s, s, p, p, p, 1, 1, 1, same, div, ndhwc}}
	}
	cube := arangeF64(1, 1, 2, 2, 2) // NCDHW, values 0..7
	var cube2 []float64              // NDHWC with 2 channels: channel 1 = 10·channel 0
	for i := 0; i < 8; i++ {
		cube2 = append(cube2, float64(i), 10*float64(i))
	}
	for _, c := range []forwardCase{
		{"conv2d NHWC valid", "conv2d", conv(0, 1, 1, 0, 1), in(x33, diag), in(f64([]int{1, 2, 2, 1}, 6, 8, 12, 14)), 0},
		{"conv2d NHWC valid bias", "conv2d", conv(0, 1, 1, 0, 1), in(x33, diag, f64([]int{1}, 1)), in(f64([]int{1, 2, 2, 1}, 7, 9, 13, 15)), 0},
		{"conv2d NHWC same", "conv2d", conv(1, 1, 1, 0, 1), in(x33, diag), in(f64([]int{1, 3, 3, 1}, 6, 8, 3, 12, 14, 6, 7, 8, 9)), 0},
		{"conv2d NHWC stride 2", "conv2d", conv(0, 1, 2, 0, 1), in(x33, diag), in(f64([]int{1, 1, 1, 1}, 6)), 0},
		{"conv2d NHWC dilation 2", "conv2d", conv(0, 1, 1, 0, 2), in(x33, diag), in(f64([]int{1, 1, 1, 1}, 10)), 0},
		// Explicit padding 1: out[i,j] = x[i-1,j-1] + x[i,j] (zero outside).
		{"conv2d NHWC padding", "conv2d", conv(0, 1, 1, 1, 1), in(x33, diag),
			in(f64([]int{1, 4, 4, 1}, 1, 2, 3, 0, 4, 6, 8, 3, 7, 12, 14, 6, 0, 7, 8, 9)), 0},
		{"conv2d kernel size from weights", "conv2d", ops.Args{I: []int64{0, 0, 1, 1, 0, 0, 1, 1, 0, 1}}, in(x33, diag),
			in(f64([]int{1, 2, 2, 1}, 6, 8, 12, 14)), 0},
		{"conv2d NCHW default format", "conv2d", ops.Args{I: []int64{2, 2, 1, 1, 0, 0, 1, 1, 0}}, in(x33c, diag),
			in(f64([]int{1, 1, 2, 2}, 6, 8, 12, 14)), 0},
		{"conv2d weights [oC,iC,kH,kW]", "conv2d", ops.Args{I: []int64{2, 2, 1, 1, 0, 0, 1, 1, 0, 1, 1}}, in(x33, f64([]int{1, 1, 2, 2}, 1, 0, 0, 1)),
			in(f64([]int{1, 2, 2, 1}, 6, 8, 12, 14)), 0},
		// 1x1 kernel mixing 2 channels into 2: out = [x0·1 + x1·3, x0·2 + x1·4].
		{"conv2d channels", "conv2d", ops.Args{I: []int64{1, 1, 1, 1, 0, 0, 1, 1, 0, 1}}, in(f64([]int{1, 1, 1, 2}, 1, 2), f64([]int{1, 1, 2, 2}, 1, 2, 3, 4)),
			in(f64([]int{1, 1, 1, 2}, 7, 10)), 0},
		{"conv2d channels weights [oC,kH,kW,iC]", "conv2d", ops.Args{I: []int64{1, 1, 1, 1, 0, 0, 1, 1, 0, 1, 2}}, in(f64([]int{1, 1, 1, 2}, 1, 2), f64([]int{2, 1, 1, 2}, 1, 3, 2, 4)),
			in(f64([]int{1, 1, 1, 2}, 7, 10)), 0},
		{"conv2d float32", "conv2d", conv(0, 1, 1, 0, 1), in(f32([]int{1, 2, 2, 1}, 1, 2, 3, 4), f32([]int{2, 2, 1, 1}, 1, 1, 1, 1)),
			in(f32([]int{1, 1, 1, 1}, 10)), 0},
		// avgpool3dnew over 0..7
		{"avgpool3d valid", "avgpool3dnew", pool(2, 1, 0, 0, 0, 0), in(cube), in(f64([]int{1, 1, 1, 1, 1}, 3.5)), 0},
		// SAME, stride 1: the window at (1,1,1) holds one cell (7); at
		// (1,1,0) two (6, 7); divisor 0 counts the cells inside the input.
		{"avgpool3d same exclude padding", "avgpool3dnew", pool(2, 1, 0, 1, 0, 0), in(cube),
			in(f64([]int{1, 1, 2, 2, 2}, 3.5, 4, 4.5, 5, 5.5, 6, 6.5, 7)), 0},
		// divisor 1: always the kernel volume 8.
		{"avgpool3d same include padding", "avgpool3dnew", pool(2, 1, 0, 1, 1, 0), in(cube),
			in(f64([]int{1, 1, 2, 2, 2}, 28.0/8, 16.0/8, 18.0/8, 10.0/8, 22.0/8, 12.0/8, 13.0/8, 7.0/8)), 0},
		// Explicit padding 1, kernel 2, stride 2: each window holds one cell.
		{"avgpool3d padding", "avgpool3dnew", pool(2, 2, 1, 0, 0, 0), in(cube),
			in(f64([]int{1, 1, 2, 2, 2}, 0, 1, 2, 3, 4, 5, 6, 7)), 0},
		{"avgpool3d NDHWC", "avgpool3dnew", pool(2, 1, 0, 0, 0, 1), in(f64([]int{1, 2, 2, 2, 2}, cube2...)),
			in(f64([]int{1, 1, 1, 1, 2}, 3.5, 35)), 0},
		{"avgpool3d float32", "avgpool3dnew", pool(2, 1, 0, 0, 0, 0), in(f32([]int{1, 1, 2, 2, 2}, 0, 1, 2, 3, 4, 5, 6, 7)),
			in(f32([]int{1, 1, 1, 1, 1}, 3.5)), 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := runOp(t, c.op, c.args, c.in...)
			if got[0].DType() != c.want[0].DType() || !ndarray.AllClose(got[0], c.want[0], 1e-9, 1e-9) {
				t.Fatalf("got %v, want %v", got[0], c.want[0])
			}
		})
	}
}

func TestReduceOpsForward(t *testing.T) {
	in := func(v ...*ndarray.Array) []*ndarray.Array { return v }
	x := f64([]int{2, 2}, 1, -2, 3, -4)
	all := ops.Args{Dims: []int{ops.AllDims}, B: []bool{false}}
	ax := func(keep bool, axes ...int) ops.Args { return ops.ReduceArgs(keep, axes...) }
	s := func(v float64) *ndarray.Array { return ndarray.Scalar(v) }
	for _, c := range []forwardCase{
		{"norm1 all", "reduce_norm1", all, in(x), in(s(10)), 0},
		{"norm1 axis 0", "reduce_norm1", ax(false, 0), in(x), in(f64([]int{2}, 4, 6)), 0},
		{"norm1 axis 1 keep", "reduce_norm1", ax(true, 1), in(x), in(f64([]int{2, 1}, 3, 7)), 0},
		{"norm1 axes input", "reduce_norm1", all, in(x, i32([]int{1}, 1)), in(f64([]int{2}, 3, 7)), 0},
		{"norm2 all", "reduce_norm2", all, in(x), in(s(math.Sqrt(30))), 0},
		{"norm2 axis 1", "reduce_norm2", ax(false, 1), in(x), in(f64([]int{2}, math.Sqrt(5), 5)), 0},
		{"normmax", "reduce_normmax", all, in(x), in(s(4)), 0},
		{"norm_max axis 0", "reduce_norm_max", ax(false, 0), in(x), in(f64([]int{2}, 3, 4)), 0},
		{"sqnorm", "reduce_sqnorm", all, in(x), in(s(30)), 0},
		{"sqnorm axis 0", "reduce_sqnorm", ax(false, 0), in(x), in(f64([]int{2}, 10, 20)), 0},
		{"amean", "amean", all, in(x), in(s(2.5)), 0},
		{"amean axis 1", "reduce_amean", ax(false, 1), in(x), in(f64([]int{2}, 1.5, 3.5)), 0},
		{"asum int32", "asum", all, in(i32([]int{2, 2}, 1, -2, 3, -4)), in(ndarray.Scalar(int32(10))), 0},
		{"amax", "amax", all, in(x), in(s(4)), 0},
		{"amin axis 1", "amin", ax(false, 1), in(x), in(f64([]int{2}, 1, 3)), 0},
		{"logsumexp", "reduce_logsumexp", ops.Args{}, in(f64([]int{2}, 0, math.Log(3))), in(s(math.Log(4))), 0},
		{"logsumexp large values", "reduce_logsumexp", ops.Args{}, in(f64([]int{2}, 1000, 1000)), in(s(1000 + math.Ln2)), 0},
		// SameDiff's Java writes the axes as int args and keepDims as float arg 0.
		{"logsumexp axes, keepDims as float arg", "reduce_logsumexp", ops.Args{I: []int64{1}, F: []float64{1}},
			in(f64([]int{2, 2}, 0, 0, 1, 1)), in(f64([]int{2, 1}, math.Ln2, 1+math.Ln2)), 0},
		{"logsumexp -inf", "reduce_logsumexp", ops.Args{}, in(f64([]int{2}, math.Inf(-1), math.Inf(-1))), in(s(math.Inf(-1))), 0},
		{"countNonZero", "countNonZero", all, in(f64([]int{2, 2}, 0, 1, 2, 0)), in(ndarray.Scalar(int64(2))), 0},
		{"countZero axis 0", "countZero", ax(false, 0), in(i32([]int{2, 2}, 0, 1, 0, 0)), in(i64([]int{2}, 2, 1)), 0},
		{"count_nonzero bool", "count_nonzero", all, in(bools([]int{3}, true, false, true)), in(ndarray.Scalar(int64(2))), 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := runOp(t, c.op, c.args, c.in...)
			if got[0].DType() != c.want[0].DType() || !ndarray.AllClose(got[0], c.want[0], 1e-12, 1e-12) {
				t.Fatalf("got %v, want %v", got[0], c.want[0])
			}
		})
	}
}

// Strides at the int64 limits take one element, as numpy does
// (x[3:0:-2**63] is [x[3]], x[0:4:2**63-1] is [x[0]]); the step count was
// computed as (e - b + st - 1)/st, which overflowed. strided_slice_bp uses
// the same resolution.
func TestStridedSliceExtremeSteps(t *testing.T) {
	x := f64([]int{4}, 1, 2, 3, 4)
	for _, c := range []struct {
		begin, end, step int64
		want             []float64
	}{
		{3, 0, math.MinInt64, []float64{4}},
		{0, 4, math.MaxInt64, []float64{1}},
		{-1, -5, math.MinInt64 + 1, []float64{4}},
		{0, 4, math.MaxInt64 - 1, []float64{1}},
		{math.MinInt64, math.MaxInt64, 3, []float64{1, 4}},
		{math.MaxInt64, math.MinInt64, -3, []float64{4, 1}},
		{3, 0, -2, []float64{4, 2}},
	} {
		out := runOp(t, "stridedslice", ssArgs([5]int64{}, []int64{c.begin}, []int64{c.end}, []int64{c.step}), x)
		if got := out[0].Float64s(); fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("x[%d:%d:%d] = %v, want %v", c.begin, c.end, c.step, got, c.want)
		}
		g := f64([]int{len(c.want)}, []float64{10, 20}[:len(c.want)]...)
		bp := runOp(t, "strided_slice_bp", ssArgs([5]int64{}, []int64{c.begin}, []int64{c.end}, []int64{c.step}), x, g)
		sum := 0.0
		for _, v := range bp[0].Float64s() {
			sum += v
		}
		if want := map[int]float64{1: 10, 2: 30}[len(c.want)]; sum != want {
			t.Errorf("strided_slice_bp of x[%d:%d:%d]: %v", c.begin, c.end, c.step, bp[0].Float64s())
		}
	}
}
