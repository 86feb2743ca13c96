package ops_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// batch_to_space undoes space_to_batch: the round trip gives the input
// back, strided inputs and int32 data included, and with crops the
// padding's cells are gone.
func TestSpaceToBatchRoundTrip(t *testing.T) {
	for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64, ndarray.Int32} {
		x := ndarray.Must(ndarray.Cast(arangeF64(2, 3, 5, 2), dt))
		for _, e := range [][]int64{{0, 0, 1, 0}, {1, 2, 0, 1}, {0, 3, 2, 2}} {
			p := i64([]int{2, 2}, e...)
			for _, in := range []*ndarray.Array{x, stepped(t, x)} {
				b := runOp(t, "space_to_batch", ops.Args{I: []int64{3}}, in, p)[0]
				if b.Shape()[0] != 18 {
					t.Fatalf("space_to_batch %v by 3, paddings %v: shape %v", x.Shape(), e, b.Shape())
				}
				back := runOp(t, "batch_to_space", ops.Args{I: []int64{3}}, b, p)[0]
				if !ndarray.Equal(back, x) {
					t.Errorf("%v paddings %v: batch_to_space(space_to_batch(x)) = %v, want %v", dt, e, back, x)
				}
				back = runOp(t, "batch_to_space", ops.Args{I: []int64{3}}, stepped(t, b), p)[0]
				if !ndarray.Equal(back, x) {
					t.Errorf("%v paddings %v, strided batch: round trip %v, want %v", dt, e, back, x)
				}
			}
		}
	}
}

// Bad block sizes, paddings, crops and ranks are errors naming the op, the
// argument and the shapes, at build time when the sizes are known and at
// run time.
func TestSpaceToBatchErrors(t *testing.T) {
	cases := []struct {
		op    string
		bs    []int64
		x     []int
		edges *ndarray.Array
		want  string
	}{
		{"space_to_batch", []int64{0}, []int{1, 2, 2, 1}, i64([]int{2, 2}, 0, 0, 0, 0), "block size 0"},
		{"batch_to_space", []int64{-2}, []int{4, 1, 1, 1}, i64([]int{2, 2}, 0, 0, 0, 0), "block size -2"},
		{"space_to_batch", nil, []int{1, 2, 2, 1}, i64([]int{2, 2}, 0, 0, 0, 0), "needs int arg 0"},
		{"space_to_batch", []int64{2}, []int{1, 3, 2, 1}, i64([]int{2, 2}, 0, 0, 0, 0), "size 3 of axis 1 is not a multiple of the block size 2"},
		{"space_to_batch", []int64{2}, []int{1, 2, 2, 1}, i64([]int{2, 2}, 0, -1, 0, 1), "paddings [0 -1 0 1]"},
		{"space_to_batch", []int64{2}, []int{2, 2, 1}, i64([]int{2, 2}, 0, 0, 0, 0), "rank 4 (NHWC), not shape [2 2 1]"},
		{"space_to_batch", []int64{2}, []int{1, 2, 2, 1}, i64([]int{4}, 0, 0, 0, 0), "paddings have shape [4], want [2 2]"},
		{"space_to_batch", []int64{2}, []int{1, 2, 2, 1}, f64([]int{2, 2}, 0, 0, 0, 0), "integer array"},
		{"batch_to_space", []int64{2}, []int{4, 1, 2, 1}, i64([]int{2, 2}, 1, 2, 0, 0), "crops [1 2 0 0] are larger than input [4 1 2 1]'s axis 1"},
		{"batch_to_space", []int64{2}, []int{3, 1, 1, 1}, i64([]int{2, 2}, 0, 0, 0, 0), "batch of input [3 1 1 1] is not a multiple of the blocks' product 4 (blocks [2 2])"},
		{"batch_to_space", []int64{2}, []int{4, 1, 1, 1, 1}, i64([]int{2, 2}, 0, 0, 0, 0), "rank 4"},
	}
	for _, c := range cases {
		d, _ := ops.Lookup(c.op)
		x := ndarray.Must(ndarray.Zeros(ndarray.Float32, c.x...))
		a := &ops.Args{I: c.bs}
		_, err := d.Infer([]ops.Info{infoOf(x), infoOf(c.edges)}, a)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), c.op) {
			t.Errorf("infer %s %v on %v: %v, want an error saying %q", c.op, c.bs, c.x, err, c.want)
		}
		_, err = d.Run(nil, []*ndarray.Array{x, c.edges}, a)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), c.op) {
			t.Errorf("run %s %v on %v: %v, want an error saying %q", c.op, c.bs, c.x, err, c.want)
		}
	}
	// Paddings known only at run time: the batch is still exact.
	d, _ := ops.Lookup("space_to_batch")
	out, err := d.Infer([]ops.Info{{DType: ndarray.Float32, Shape: []int{3, 4, 4, 2}}, {DType: ndarray.Int64, Shape: []int{2, 2}}}, &ops.Args{I: []int64{2}})
	if err != nil || out[0].Shape[0] != 12 || out[0].Shape[1] != -1 || out[0].Shape[3] != 2 {
		t.Errorf("space_to_batch with unknown paddings: %v, %v; want [12 -1 -1 2]", out, err)
	}
}

// The _nd forms agree with space_to_batch on NHWC images, round-trip over
// three spatial axes with trailing axes, and check their block shape and
// edges.
func TestSpaceToBatchND(t *testing.T) {
	x := arangeF64(2, 4, 6, 3)
	p := i64([]int{2, 2}, 0, 2, 1, 1)
	want := runOp(t, "space_to_batch", ops.Args{I: []int64{2}}, x, p)[0]
	if got := runOp(t, "space_to_batch_nd", ops.Args{}, x, i64([]int{2}, 2, 2), p)[0]; !ndarray.Equal(got, want) {
		t.Errorf("space_to_batch_nd with blocks [2 2]: %v, want space_to_batch's %v", got, want)
	}
	x5 := ndarray.Must(ndarray.Cast(arangeF64(2, 3, 4, 2, 2, 3), ndarray.Int64))
	b := i32([]int{3}, 3, 2, 1)
	e := i32([]int{3, 2}, 1, 2, 0, 0, 1, 0)
	s := runOp(t, "space_to_batch_nd", ops.Args{}, stepped(t, x5), b, e)[0]
	if !slices.Equal(s.Shape(), []int{12, 2, 2, 3, 2, 3}) {
		t.Errorf("space_to_batch_nd of %v by blocks [3 2 1]: shape %v, want [12 2 2 3 2 3]", x5.Shape(), s.Shape())
	}
	if back := runOp(t, "batch_to_space_nd", ops.Args{}, s, b, e)[0]; !ndarray.Equal(back, x5) {
		t.Errorf("batch_to_space_nd(space_to_batch_nd(x)) = %v, want %v", back, x5)
	}
	cases := []struct {
		op   string
		x    []int
		in   []*ndarray.Array
		want string
	}{
		{"space_to_batch_nd", []int{1, 2, 2}, []*ndarray.Array{i64([]int{2}, 2, 0), i64([]int{2, 2}, 0, 0, 0, 0)}, "block sizes [2 0] must be in 1..2^20"},
		{"space_to_batch_nd", []int{1, 2, 2}, []*ndarray.Array{i64([]int{1, 2}, 2, 2), i64([]int{2, 2}, 0, 0, 0, 0)}, "block shape has shape [1 2]; it must be a vector"},
		{"space_to_batch_nd", []int{1, 2, 2}, []*ndarray.Array{i64([]int{2}, 2, 2), i64([]int{1, 2}, 0, 0)}, "paddings have shape [1 2], want [2 2]"},
		{"space_to_batch_nd", []int{1, 2}, []*ndarray.Array{i64([]int{2}, 1, 1), i64([]int{2, 2}, 0, 0, 0, 0)}, "input [1 2] has no room for 2 spatial axes"},
		{"batch_to_space_nd", []int{2, 2, 2}, []*ndarray.Array{i64([]int{2}, 2, 1), i64([]int{2, 2}, 3, 2, 0, 0)}, "crops [3 2 0 0] are larger than input [2 2 2]'s axis 1"},
		{"batch_to_space_nd", []int{4, 2, 2}, []*ndarray.Array{f64([]int{2}, 2, 2), i64([]int{2, 2}, 0, 0, 0, 0)}, "block shape must be an integer array"},
	}
	for _, c := range cases {
		d, _ := ops.Lookup(c.op)
		in := append([]*ndarray.Array{ndarray.Must(ndarray.Zeros(ndarray.Float32, c.x...))}, c.in...)
		info := make([]ops.Info, len(in))
		for i, a := range in {
			info[i] = infoOf(a)
		}
		_, err := d.Infer(info, &ops.Args{})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), c.op) {
			t.Errorf("infer %s on %v: %v, want an error saying %q", c.op, c.x, err, c.want)
		}
		_, err = d.Run(nil, in, &ops.Args{})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), c.op) {
			t.Errorf("run %s on %v: %v, want an error saying %q", c.op, c.x, err, c.want)
		}
	}
}
