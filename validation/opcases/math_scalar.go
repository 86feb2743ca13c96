package opcases

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Cases of the legacy scalar ops (ops/math_scalar.go): x with the number in
// float arg 0. Forward values are worked out by hand; the number is taken in
// x's dtype (2.7 is 2 for an int32 x), as libnd4j takes it.

func init() {
	s := func(v float64) ops.Args { return ops.Args{F: []float64{v}} }
	x := f64([]int{2, 3}, 1, -2, 3.5, 0.25, -0.5, 4)
	sh := []int{2, 3}
	c := f64([]int{4}, 1, -2, 3.5, 0.5)
	T, F := true, false
	for _, c := range []fwd{
		{"add_scalar", "add_scalar", s(2), arrays(x), arrays(f64(sh, 3, 0, 5.5, 2.25, 1.5, 6)), 0},
		{"add_scalar float32", "add_scalar", s(0.25), arrays(f32([]int{2}, 1.5, -2)), arrays(f32([]int{2}, 1.75, -1.75)), 0},
		{"add_scalar int32 truncates the scalar", "add_scalar", s(2.7), arrays(i32([]int{2}, 1, 2)), arrays(i32([]int{2}, 3, 4)), 0},
		{"sub_scalar", "sub_scalar", s(2), arrays(x), arrays(f64(sh, -1, -4, 1.5, -1.75, -2.5, 2)), 0},
		{"mul_scalar", "mul_scalar", s(-1.5), arrays(x), arrays(f64(sh, -1.5, 3, -5.25, -0.375, 0.75, -6)), 0},
		{"div_scalar", "div_scalar", s(4), arrays(x), arrays(f64(sh, 0.25, -0.5, 0.875, 0.0625, -0.125, 1)), 0},
		{"div_scalar int32 truncates", "div_scalar", s(2), arrays(i32([]int{3}, 7, -7, 8)), arrays(i32([]int{3}, 3, -3, 4)), 0},
		{"rdiv_scalar", "rdiv_scalar", s(2), arrays(x), arrays(f64(sh, 2, -1, 2/3.5, 8, -4, 0.5)), 1e-15},
		{"rdiv_scalar int32", "rdiv_scalar", s(7), arrays(i32([]int{3}, 2, -3, 7)), arrays(i32([]int{3}, 3, -2, 1)), 0},
		{"rsub_scalar", "rsub_scalar", s(1), arrays(x), arrays(f64(sh, 0, 3, -2.5, 0.75, 1.5, -3)), 0},
		{"max_scalar", "max_scalar", s(0.5), arrays(x), arrays(f64(sh, 1, 0.5, 3.5, 0.5, 0.5, 4)), 0},
		{"scalar_min", "scalar_min", s(0.5), arrays(x), arrays(f64(sh, 0.5, -2, 0.5, 0.25, -0.5, 0.5)), 0},
		{"equals_scalar", "equals_scalar", s(0.5), arrays(c), arrays(bools([]int{4}, F, F, F, T)), 0},
		{"greaterthan_scalar", "greaterthan_scalar", s(0.5), arrays(c), arrays(bools([]int{4}, T, F, T, F)), 0},
		{"greaterthan_scalar int64 truncates the scalar", "greaterthan_scalar", s(1.5), arrays(i64([]int{3}, 1, 2, 3)), arrays(bools([]int{3}, F, T, T)), 0},
		{"lessthan_scalar", "lessthan_scalar", s(0.5), arrays(c), arrays(bools([]int{4}, F, T, F, F)), 0},
		{"greaterthanorequal_scalar", "greaterthanorequal_scalar", s(0.5), arrays(c), arrays(bools([]int{4}, T, F, T, T)), 0},
		{"notequals_scalar", "notequals_scalar", s(0.5), arrays(c), arrays(bools([]int{4}, T, T, T, F)), 0},
		{"lessthanorequal_scalar", "lessthanorequal_scalar", s(0.5), arrays(c), arrays(bools([]int{4}, F, T, F, T)), 0},
	} {
		forward(c.name, c.op, c.args, c.in, c.want, c.tol)
	}

	rng := rand.New(rand.NewPCG(26, 1))
	r := func() []input { return []input{in(randn(rng, 3, 4))} }
	for _, c := range []grd{
		{"add_scalar", "add_scalar", s(2), r()},
		{"sub_scalar", "sub_scalar", s(-1), r()},
		{"mul_scalar", "mul_scalar", s(-1.5), r()},
		{"div_scalar", "div_scalar", s(4), r()},
		{"rdiv_scalar", "rdiv_scalar", s(2), []input{in(randu(rng, 0.5, 2, 3, 4))}},
		{"rsub_scalar", "rsub_scalar", s(1), r()},
		{"max_scalar", "max_scalar", s(0.3), r()},
		{"scalar_min", "scalar_min", s(0.3), r()},
	} {
		gradient(c.name, c.op, c.args, c.in)
	}
}

// arrays lists arrays.
func arrays(a ...*ndarray.Array) []*ndarray.Array { return a }
