package opcases

import (
	"math"

	"github.com/sdgo/sdgo/ops"
)

// Cases of all and any on numbers (ops/base_reduce.go): libnd4j's
// reduce-bool ops take any numeric input and test for non-zero (NaN is
// non-zero), giving bools; worked out by hand.
func init() {
	T, F := true, false
	for _, c := range []fwd{
		{"all of floats along axis 0", "all", ops.Args{Dims: []int{0}}, arrays(f64([]int{2, 2}, 1, 0.5, 0, 2)), arrays(bools([]int{2}, F, T)), 0},
		{"any of int32 along axis 1", "any", ops.Args{Dims: []int{1}}, arrays(i32([]int{2, 2}, 0, 0, 0, 3)), arrays(bools([]int{2}, F, T)), 0},
		{"all of float32 with NaN", "all", ops.Args{}, arrays(f32([]int{3}, float32(math.NaN()), -1, 2)), arrays(bools(nil, T)), 0},
		{"any of zeros", "any", ops.Args{}, arrays(f64([]int{3}, 0, 0, math.Copysign(0, -1))), arrays(bools(nil, F)), 0},
	} {
		forward(c.name, c.op, c.args, c.in, c.want, c.tol)
	}
}
