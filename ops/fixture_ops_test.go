package ops_test

import (
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Forward cases for the ops of fixture_ops.go, worked out by hand.

// fixtureCase is one op applied to constant inputs with the expected
// outputs, worked out by hand.
type fixtureCase struct {
	name string
	op   string
	args ops.Args
	in   []*ndarray.Array
	want []*ndarray.Array
	tol  float64
}

// fixtureForwardCases are the hand-checked forward cases of identity_n and
// pad (validation/opcases/fixture.go runs the same expectations through
// graphs, gradient checks and save/load round trips).
func fixtureForwardCases() []fixtureCase {
	a := f32([]int{2, 3}, 1, 2, 3, 4, 5, 6)
	b := i64([]int{2}, 7, 8)
	x := f32([]int{5}, 1, 2, 3, 4, 5)
	m := f64([]int{2, 3}, 1, 2, 3, 4, 5, 6)
	one := func(v *ndarray.Array) []*ndarray.Array { return []*ndarray.Array{v} }
	in := func(v ...*ndarray.Array) []*ndarray.Array { return v }
	return []fixtureCase{
		{"identity_n", "identity_n", ops.Args{}, in(a, b), in(a, b), 0},
		{"identity_n one", "identity_n", ops.Args{}, in(b), in(b), 0},
		// The pad_1D fixture: [1,1] around a vector with the constant 10 from input 2.
		{"pad constant input", "pad", ops.Args{I: []int64{0}}, in(x, i32([]int{1, 2}, 1, 1), ndarray.Scalar[float32](10)),
			one(f32([]int{7}, 10, 1, 2, 3, 4, 5, 10)), 0},
		{"pad constant arg", "pad", ops.Args{F: []float64{-1}}, in(x, i64([]int{1, 2}, 2, 0)),
			one(f32([]int{7}, -1, -1, 1, 2, 3, 4, 5)), 0},
		{"pad constant default 0", "pad", ops.Args{}, in(m, i32([]int{2, 2}, 1, 0, 0, 1)),
			one(f64([]int{3, 4}, 0, 0, 0, 0, 1, 2, 3, 0, 4, 5, 6, 0)), 0},
		{"pad reflect", "pad", ops.Args{I: []int64{1}}, in(x, i32([]int{1, 2}, 2, 3)),
			one(f32([]int{10}, 3, 2, 1, 2, 3, 4, 5, 4, 3, 2)), 0},
		{"pad symmetric", "pad", ops.Args{I: []int64{2}}, in(x, i32([]int{1, 2}, 2, 3)),
			one(f32([]int{10}, 2, 1, 1, 2, 3, 4, 5, 5, 4, 3)), 0},
		// TensorFlow's MirrorPad documentation example (reflect, [[1,1],[2,2]] on [[1,2,3],[4,5,6]]).
		{"pad reflect 2d", "pad", ops.Args{I: []int64{1}}, in(m, i32([]int{2, 2}, 1, 1, 2, 2)),
			one(f64([]int{4, 7},
				6, 5, 4, 5, 6, 5, 4,
				3, 2, 1, 2, 3, 2, 1,
				6, 5, 4, 5, 6, 5, 4,
				3, 2, 1, 2, 3, 2, 1)), 0},
		// ... and its symmetric example.
		{"pad symmetric 2d", "pad", ops.Args{I: []int64{2}}, in(m, i32([]int{2, 2}, 1, 1, 2, 2)),
			one(f64([]int{4, 7},
				2, 1, 1, 2, 3, 3, 2,
				2, 1, 1, 2, 3, 3, 2,
				5, 4, 4, 5, 6, 6, 5,
				5, 4, 4, 5, 6, 6, 5)), 0},
		{"pad int32 constant", "pad", ops.Args{F: []float64{7}}, in(i32([]int{2}, 1, 2), i32([]int{1, 2}, 0, 1)),
			one(i32([]int{3}, 1, 2, 7)), 0},
		{"pad bool", "pad", ops.Args{}, in(bools([]int{1}, true), i32([]int{1, 2}, 1, 1)),
			one(bools([]int{3}, false, true, false)), 0},
		{"pad rank 0", "pad", ops.Args{}, in(ndarray.Scalar(2.5), ndarray.Must(ndarray.Zeros(ndarray.Int32, 0, 2))),
			one(ndarray.Scalar(2.5)), 0},
	}
}

func TestFixtureOpsForward(t *testing.T) {
	for _, c := range fixtureForwardCases() {
		t.Run(c.name, func(t *testing.T) {
			got := runOp(t, c.op, c.args, c.in...)
			if len(got) != len(c.want) {
				t.Fatalf("%d outputs, want %d", len(got), len(c.want))
			}
			for i, w := range c.want {
				if !ndarray.Equal(got[i], w) {
					t.Fatalf("output %d = %v, want %v", i, got[i], w)
				}
			}
		})
	}
}

func TestPadErrors(t *testing.T) {
	d, _ := ops.Lookup("pad")
	info := func(a *ndarray.Array) ops.Info { return ops.Info{DType: a.DType(), Shape: a.Shape(), Value: a} }
	x := f32([]int{3}, 1, 2, 3)
	for _, c := range []struct {
		name string
		args ops.Args
		pads *ndarray.Array
		want string
	}{
		{"wrong paddings shape", ops.Args{}, i32([]int{2, 2}, 1, 1, 1, 1), "[2 2]"},
		{"negative", ops.Args{}, i32([]int{1, 2}, -1, 0), "negative"},
		{"reflect too far", ops.Args{I: []int64{1}}, i32([]int{1, 2}, 3, 0), "exceeds"},
		{"bad mode", ops.Args{I: []int64{5}}, i32([]int{1, 2}, 0, 0), "mode 5"},
	} {
		_, err := d.Infer([]ops.Info{info(x), info(c.pads)}, &c.args)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
}
