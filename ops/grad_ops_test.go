package ops_test

import (
	"math"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Forward cases of the backprop ops and the other ops autodiff emits,
// worked out by hand.
func gradOpCases() []forwardCase {
	A := func(a ...*ndarray.Array) []*ndarray.Array { return a }
	s := ndarray.Scalar[float64]
	ln3 := math.Log(3)
	return []forwardCase{
		{"add_bp", "add_bp", ops.Args{}, A(f64([]int{2, 3}, 0, 0, 0, 0, 0, 0), f64([]int{3}, 0, 0, 0), f64([]int{2, 3}, 1, 2, 3, 4, 5, 6)),
			A(f64([]int{2, 3}, 1, 2, 3, 4, 5, 6), f64([]int{3}, 5, 7, 9)), 0},
		{"subtract_bp", "subtract_bp", ops.Args{}, A(f64([]int{1, 2}, 0, 0), s(0), f64([]int{1, 2}, 1, 2)),
			A(f64([]int{1, 2}, 1, 2), s(-3)), 0},
		{"multiply_bp", "multiply_bp", ops.Args{}, A(f64([]int{2}, 1, 2), f64([]int{2}, 3, 4), f64([]int{2}, 1, 1)),
			A(f64([]int{2}, 3, 4), f64([]int{2}, 1, 2)), 0},
		{"divide_bp", "divide_bp", ops.Args{}, A(f64([]int{2}, 1, 2), f64([]int{2}, 2, 4), f64([]int{2}, 1, 1)),
			A(f64([]int{2}, 0.5, 0.25), f64([]int{2}, -0.25, -0.125)), 0},
		{"Pow_bp", "Pow_bp", ops.Args{}, A(f64([]int{2}, 2, math.E), f64([]int{2}, 3, 1), f64([]int{2}, 1, 1)),
			A(f64([]int{2}, 12, 1), f64([]int{2}, 8*math.Ln2, math.E)), 1e-15},
		{"maximum_bp", "maximum_bp", ops.Args{}, A(f64([]int{3}, 1, 5, 3), f64([]int{3}, 2, 2, 3), f64([]int{3}, 1, 2, 3)),
			A(f64([]int{3}, 0, 2, 3), f64([]int{3}, 1, 0, 0)), 0},
		{"minimum_bp", "minimum_bp", ops.Args{}, A(f64([]int{3}, 1, 5, 3), f64([]int{3}, 2, 2, 3), f64([]int{3}, 1, 2, 3)),
			A(f64([]int{3}, 1, 0, 3), f64([]int{3}, 0, 2, 0)), 0},
		{"squaredsubtract_bp", "squaredsubtract_bp", ops.Args{}, A(f64([]int{2}, 3, 1), f64([]int{2}, 1, 1), f64([]int{2}, 1, 2)),
			A(f64([]int{2}, 4, 0), f64([]int{2}, -4, 0)), 0},
		{"tanh_bp", "tanh_bp", ops.Args{}, A(f64([]int{2}, 0, math.Atanh(0.5)), f64([]int{2}, 2, 2)), A(f64([]int{2}, 2, 1.5)), 1e-15},
		{"sigmoid_bp", "sigmoid_bp", ops.Args{}, A(f64([]int{2}, 0, ln3), f64([]int{2}, 1, 1)), A(f64([]int{2}, 0.25, 0.1875)), 1e-15},
		{"relu_bp", "relu_bp", ops.Args{}, A(f64([]int{2}, -1, 2), f64([]int{2}, 5, 5)), A(f64([]int{2}, 0, 5)), 0},
		{"lrelu_bp", "lrelu_bp", ops.Args{F: []float64{0.1}}, A(f64([]int{2}, -1, 2), f64([]int{2}, 5, 5)), A(f64([]int{2}, 0.5, 5)), 1e-15},
		{"softmax_bp", "softmax_bp", ops.Args{}, A(f64([]int{2}, 0, ln3), f64([]int{2}, 1, 0)), A(f64([]int{2}, 0.1875, -0.1875)), 1e-15},
		{"softmax_bp with output", "softmax_bp", ops.Args{}, A(f64([]int{2}, 0, ln3), f64([]int{2}, 1, 0), f64([]int{2}, 0.25, 0.75)), A(f64([]int{2}, 0.1875, -0.1875)), 1e-15},
		{"log_softmax_bp", "log_softmax_bp", ops.Args{}, A(f64([]int{2}, 0, ln3), f64([]int{2}, 1, 0)), A(f64([]int{2}, 0.75, -0.75)), 1e-15},
		{"matmul_bp", "matmul_bp", ops.Args{}, A(f64([]int{1, 2}, 1, 2), f64([]int{2, 1}, 3, 4), f64([]int{1, 1}, 1)),
			A(f64([]int{1, 2}, 3, 4), f64([]int{2, 1}, 1, 2)), 0},
		{"concat_bp", "concat_bp", ops.Args{I: []int64{1}}, A(f64([]int{2, 1}, 0, 0), f64([]int{2, 2}, 0, 0, 0, 0), f64([]int{2, 3}, 1, 2, 3, 4, 5, 6)),
			A(f64([]int{2, 1}, 1, 4), f64([]int{2, 2}, 2, 3, 5, 6)), 0},
		{"unstack", "unstack", ops.Args{I: []int64{0}}, A(f64([]int{2, 2}, 1, 2, 3, 4)), A(f64([]int{2}, 1, 2), f64([]int{2}, 3, 4)), 0},
		{"unstack axis 1", "unstack", ops.Args{I: []int64{1}}, A(f64([]int{2, 2}, 1, 2, 3, 4)), A(f64([]int{2}, 1, 3), f64([]int{2}, 2, 4)), 0},
		{"stop_gradient", "stop_gradient", ops.Args{}, A(f64([]int{2}, 1, 2)), A(f64([]int{2}, 1, 2)), 0},
		{"mergeadd", "mergeadd", ops.Args{}, A(f64([]int{2}, 1, 2), f64([]int{2}, 3, 4), f64([]int{2}, 5, 6)), A(f64([]int{2}, 9, 12)), 0},
		{"invert_permutation", "invert_permutation", ops.Args{}, A(i64([]int{3}, 2, 0, 1)), A(i64([]int{3}, 1, 2, 0)), 0},
		{"reduce_sum_bp", "reduce_sum_bp", ops.ReduceArgs(false, 1), A(f64([]int{2, 2}, 0, 0, 0, 0), f64([]int{2}, 1, 2)), A(f64([]int{2, 2}, 1, 1, 2, 2)), 0},
		{"reduce_mean_bp", "reduce_mean_bp", ops.ReduceArgs(true, 1), A(f64([]int{2, 2}, 0, 0, 0, 0), f64([]int{2, 1}, 1, 2)), A(f64([]int{2, 2}, 0.5, 0.5, 1, 1)), 0},
		{"reduce_max_bp", "reduce_max_bp", ops.ReduceArgs(false, 1), A(f64([]int{2, 2}, 1, 3, 2, 2), f64([]int{2}, 1, 4)), A(f64([]int{2, 2}, 0, 1, 2, 2)), 0},
		{"reduce_min_bp", "reduce_min_bp", ops.ReduceArgs(false, 1), A(f64([]int{2, 2}, 1, 3, 2, 2), f64([]int{2}, 1, 4)), A(f64([]int{2, 2}, 1, 0, 2, 2)), 0},
		{"reduce_prod_bp", "reduce_prod_bp", ops.ReduceArgs(false, 1), A(f64([]int{2, 2}, 2, 3, 0, 5), f64([]int{2}, 1, 1)), A(f64([]int{2, 2}, 3, 2, 5, 0)), 0},
		{"mean_sqerr_loss_grad sum", "mean_sqerr_loss_grad", ops.Args{I: []int64{1}}, A(f64([]int{2}, 1, 2), s(1), f64([]int{2}, 0, 0)),
			A(f64([]int{2}, 2, 4), s(5), f64([]int{2}, -2, -4)), 0},
		{"mean_sqerr_loss_grad mean", "mean_sqerr_loss_grad", ops.Args{I: []int64{3}}, A(f64([]int{2}, 1, 2), s(1), f64([]int{2}, 0, 0), s(2)),
			A(f64([]int{2}, 2, 4), s(5), f64([]int{2}, -2, -4)), 0},
		{"softmax_cross_entropy_loss_grad", "softmax_cross_entropy_loss_grad", ops.Args{I: []int64{1}},
			A(f64([]int{1, 2}, 0, ln3), s(1), f64([]int{1, 2}, 1, 0)),
			A(f64([]int{1, 2}, -0.75, 0.75), s(2*math.Ln2), f64([]int{1, 2}, 2*math.Ln2, -math.Log(0.75))), 1e-15},
	}
}
