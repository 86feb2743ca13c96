package opcases

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// The core ops' cases (package ops): the hand-worked forward expectations
// and the gradient cases that were ops/ops_test.go's forwardCases,
// ops/grad_ops_test.go's gradOpCases and autodiff/gradcheck_test.go's
// gradCases.

// fwd is a forward case: op applied to in gives want (exactly when tol is
// 0, else within tol).
type fwd struct {
	name string
	op   string
	args ops.Args
	in   []*ndarray.Array
	want []*ndarray.Array
	tol  float64
}

// grd is a gradient case.
type grd struct {
	name string
	op   string
	args ops.Args
	in   []input
}

func init() {
	for _, c := range append(coreForwardCases(), bpForwardCases()...) {
		forward(c.name, c.op, c.args, c.in, c.want, c.tol)
	}
	for _, c := range coreGradCases() {
		gradient(c.name, c.op, c.args, c.in)
	}
}

var e = math.Exp

func coreForwardCases() []fwd {
	x := f64([]int{2, 3}, 1, 2, 3, 4, 5, 6)
	v := f64([]int{4}, -2, -0.5, 0.5, 2)
	sm := func(a, b, c float64) []float64 {
		z := e(a) + e(b) + e(c)
		return []float64{e(a) / z, e(b) / z, e(c) / z}
	}
	s1, s2 := sm(1, 2, 3), sm(4, 5, 6)
	lse1, lse2 := math.Log(e(1)+e(2)+e(3)), math.Log(e(4)+e(5)+e(6))
	return []fwd{
		{"add broadcast", "add", ops.Args{}, []*ndarray.Array{x, f64([]int{3}, 10, 20, 30)}, []*ndarray.Array{f64([]int{2, 3}, 11, 22, 33, 14, 25, 36)}, 0},
		{"subtract column", "subtract", ops.Args{}, []*ndarray.Array{x, f64([]int{2, 1}, 1, 2)}, []*ndarray.Array{f64([]int{2, 3}, 0, 1, 2, 2, 3, 4)}, 0},
		{"multiply float32", "multiply", ops.Args{}, []*ndarray.Array{f32([]int{2}, 1.5, -2), f32([]int{2}, 2, 3)}, []*ndarray.Array{f32([]int{2}, 3, -6)}, 0},
		{"divide", "divide", ops.Args{}, []*ndarray.Array{x, ndarray.Scalar(2.0)}, []*ndarray.Array{f64([]int{2, 3}, 0.5, 1, 1.5, 2, 2.5, 3)}, 0},
		{"divide int", "divide", ops.Args{}, []*ndarray.Array{i32([]int{3}, 7, -7, 8), i32([]int{3}, 2, 2, 3)}, []*ndarray.Array{i32([]int{3}, 3, -3, 2)}, 0},
		{"Pow", "Pow", ops.Args{}, []*ndarray.Array{f64([]int{3}, 2, 3, 4), f64([]int{3}, 3, 2, 0.5)}, []*ndarray.Array{f64([]int{3}, 8, 9, 2)}, 1e-15},
		{"pow scalar", "pow", ops.Args{F: []float64{2}}, []*ndarray.Array{v}, []*ndarray.Array{f64([]int{4}, 4, 0.25, 0.25, 4)}, 1e-15},
		{"maximum", "maximum", ops.Args{}, []*ndarray.Array{v, ndarray.Scalar(0.0)}, []*ndarray.Array{f64([]int{4}, 0, 0, 0.5, 2)}, 0},
		{"minimum", "minimum", ops.Args{}, []*ndarray.Array{v, ndarray.Scalar(0.0)}, []*ndarray.Array{f64([]int{4}, -2, -0.5, 0, 0)}, 0},
		{"squaredsubtract", "squaredsubtract", ops.Args{}, []*ndarray.Array{v, ndarray.Scalar(1.0)}, []*ndarray.Array{f64([]int{4}, 9, 2.25, 0.25, 1)}, 0},
		// Mixed dtypes with an output dtype (a file's declared type, as
		// libnd4j runs it): computed in float64, then truncated to int64:
		// 1-0.5=0.5 -> 0, 2-0.5=1.5 -> 1, -7/2=-3.5 -> -3.
		{"add int64 and float64 into int64", "add", ops.Args{D: []ndarray.DType{ndarray.Int64}}, []*ndarray.Array{i64([]int{2}, 1, 2), ndarray.Scalar(-0.5)}, []*ndarray.Array{i64([]int{2}, 0, 1)}, 0},
		{"divide int64 by float64 into int64", "divide", ops.Args{D: []ndarray.DType{ndarray.Int64}}, []*ndarray.Array{i64([]int{2}, -7, 7), ndarray.Scalar(2.0)}, []*ndarray.Array{i64([]int{2}, -3, 3)}, 0},
		{"multiply float32 by int32 into float64", "multiply", ops.Args{D: []ndarray.DType{ndarray.Float64}}, []*ndarray.Array{f32([]int{2}, 1.5, -2), i32([]int{2}, 3, 4)}, []*ndarray.Array{f64([]int{2}, 4.5, -8)}, 0},
		{"floordiv", "floordiv", ops.Args{}, []*ndarray.Array{f64([]int{2}, 7, -7), ndarray.Scalar(2.0)}, []*ndarray.Array{f64([]int{2}, 3, -4)}, 0},
		{"floormod", "floormod", ops.Args{}, []*ndarray.Array{f64([]int{2}, 7, -7), ndarray.Scalar(2.0)}, []*ndarray.Array{f64([]int{2}, 1, 1)}, 0},
		{"equals", "equals", ops.Args{}, []*ndarray.Array{v, f64([]int{4}, -2, 0, 0.5, 0)}, []*ndarray.Array{bools([]int{4}, true, false, true, false)}, 0},
		{"not_equals", "not_equals", ops.Args{}, []*ndarray.Array{v, f64([]int{4}, -2, 0, 0.5, 0)}, []*ndarray.Array{bools([]int{4}, false, true, false, true)}, 0},
		{"less", "less", ops.Args{}, []*ndarray.Array{v, ndarray.Scalar(0.5)}, []*ndarray.Array{bools([]int{4}, true, true, false, false)}, 0},
		{"less_equal", "less_equal", ops.Args{}, []*ndarray.Array{v, ndarray.Scalar(0.5)}, []*ndarray.Array{bools([]int{4}, true, true, true, false)}, 0},
		{"greater", "greater", ops.Args{}, []*ndarray.Array{v, ndarray.Scalar(0.5)}, []*ndarray.Array{bools([]int{4}, false, false, false, true)}, 0},
		{"greater_equal", "greater_equal", ops.Args{}, []*ndarray.Array{v, ndarray.Scalar(0.5)}, []*ndarray.Array{bools([]int{4}, false, false, true, true)}, 0},
		{"boolean_and", "boolean_and", ops.Args{}, []*ndarray.Array{bools([]int{2}, true, false), bools([]int{2}, true, true)}, []*ndarray.Array{bools([]int{2}, true, false)}, 0},
		{"boolean_or", "boolean_or", ops.Args{}, []*ndarray.Array{bools([]int{2}, true, false), bools([]int{2}, false, false)}, []*ndarray.Array{bools([]int{2}, true, false)}, 0},
		{"boolean_xor", "boolean_xor", ops.Args{}, []*ndarray.Array{bools([]int{2}, true, false), bools([]int{2}, true, true)}, []*ndarray.Array{bools([]int{2}, false, true)}, 0},
		{"boolean_not", "boolean_not", ops.Args{}, []*ndarray.Array{bools([]int{2}, true, false)}, []*ndarray.Array{bools([]int{2}, false, true)}, 0},
		{"neg", "neg", ops.Args{}, []*ndarray.Array{v}, []*ndarray.Array{f64([]int{4}, 2, 0.5, -0.5, -2)}, 0},
		{"abs", "abs", ops.Args{}, []*ndarray.Array{v}, []*ndarray.Array{f64([]int{4}, 2, 0.5, 0.5, 2)}, 0},
		{"exp", "exp", ops.Args{}, []*ndarray.Array{v}, []*ndarray.Array{f64([]int{4}, e(-2), e(-0.5), e(0.5), e(2))}, 1e-15},
		{"log", "log", ops.Args{}, []*ndarray.Array{f64([]int{3}, 1, math.E, 0.5)}, []*ndarray.Array{f64([]int{3}, 0, 1, -math.Ln2)}, 1e-15},
		{"sqrt", "sqrt", ops.Args{}, []*ndarray.Array{f64([]int{3}, 4, 2.25, 0)}, []*ndarray.Array{f64([]int{3}, 2, 1.5, 0)}, 0},
		{"square", "square", ops.Args{}, []*ndarray.Array{v}, []*ndarray.Array{f64([]int{4}, 4, 0.25, 0.25, 4)}, 0},
		{"tanh", "tanh", ops.Args{}, []*ndarray.Array{v}, []*ndarray.Array{f64([]int{4}, math.Tanh(-2), math.Tanh(-0.5), math.Tanh(0.5), math.Tanh(2))}, 1e-15},
		{"sigmoid", "sigmoid", ops.Args{}, []*ndarray.Array{v}, []*ndarray.Array{f64([]int{4}, 1/(1+e(2)), 1/(1+e(0.5)), 1/(1+e(-0.5)), 1/(1+e(-2)))}, 1e-15},
		{"relu", "relu", ops.Args{}, []*ndarray.Array{v}, []*ndarray.Array{f64([]int{4}, 0, 0, 0.5, 2)}, 0},
		{"leakyrelu", "leakyrelu", ops.Args{F: []float64{0.2}}, []*ndarray.Array{v}, []*ndarray.Array{f64([]int{4}, -0.4, -0.1, 0.5, 2)}, 1e-15},
		{"leakyrelu default", "leakyrelu", ops.Args{}, []*ndarray.Array{v}, []*ndarray.Array{f64([]int{4}, -0.02, -0.005, 0.5, 2)}, 1e-15},
		{"sign", "sign", ops.Args{}, []*ndarray.Array{f64([]int{3}, -3, 0, 2)}, []*ndarray.Array{f64([]int{3}, -1, 0, 1)}, 0},
		{"reciprocal", "reciprocal", ops.Args{}, []*ndarray.Array{f64([]int{2}, 4, -0.5)}, []*ndarray.Array{f64([]int{2}, 0.25, -2)}, 0},
		{"floor", "floor", ops.Args{}, []*ndarray.Array{f64([]int{2}, 1.5, -1.5)}, []*ndarray.Array{f64([]int{2}, 1, -2)}, 0},
		{"ceil", "ceil", ops.Args{}, []*ndarray.Array{f64([]int{2}, 1.5, -1.5)}, []*ndarray.Array{f64([]int{2}, 2, -1)}, 0},
		{"round", "round", ops.Args{}, []*ndarray.Array{f64([]int{3}, 1.5, -1.5, 0.4)}, []*ndarray.Array{f64([]int{3}, 2, -2, 0)}, 0},
		{"sin", "sin", ops.Args{}, []*ndarray.Array{f64([]int{2}, 0, math.Pi/2)}, []*ndarray.Array{f64([]int{2}, 0, 1)}, 1e-15},
		{"cos", "cos", ops.Args{}, []*ndarray.Array{f64([]int{2}, 0, math.Pi)}, []*ndarray.Array{f64([]int{2}, 1, -1)}, 1e-15},
		{"softplus", "softplus", ops.Args{}, []*ndarray.Array{f64([]int{2}, 0, 100)}, []*ndarray.Array{f64([]int{2}, math.Ln2, 100)}, 1e-15},
		{"rsqrt", "rsqrt", ops.Args{}, []*ndarray.Array{f64([]int{2}, 4, 0.25)}, []*ndarray.Array{f64([]int{2}, 0.5, 2)}, 0},
		{"log1p", "log1p", ops.Args{}, []*ndarray.Array{f64([]int{2}, 0, math.E-1)}, []*ndarray.Array{f64([]int{2}, 0, 1)}, 1e-15},
		{"expm1", "expm1", ops.Args{}, []*ndarray.Array{f64([]int{2}, 0, 1)}, []*ndarray.Array{f64([]int{2}, 0, math.E-1)}, 1e-15},
		{"softmax", "softmax", ops.Args{}, []*ndarray.Array{x}, []*ndarray.Array{f64([]int{2, 3}, append(s1, s2...)...)}, 1e-15},
		{"softmax axis 0", "softmax", ops.Args{I: []int64{0}}, []*ndarray.Array{f64([]int{2, 1}, 0, math.Ln2)}, []*ndarray.Array{f64([]int{2, 1}, 1.0/3, 2.0/3)}, 1e-15},
		{"log_softmax", "log_softmax", ops.Args{I: []int64{-1}}, []*ndarray.Array{x}, []*ndarray.Array{f64([]int{2, 3}, 1-lse1, 2-lse1, 3-lse1, 4-lse2, 5-lse2, 6-lse2)}, 1e-14},
		{"matmul", "matmul", ops.MatMulArgs(false, false), []*ndarray.Array{x, f64([]int{3, 2}, 7, 8, 9, 10, 11, 12)}, []*ndarray.Array{f64([]int{2, 2}, 58, 64, 139, 154)}, 0},
		{"matmul transpose x", "matmul", ops.MatMulArgs(true, false), []*ndarray.Array{f64([]int{3, 2}, 1, 4, 2, 5, 3, 6), f64([]int{3, 2}, 7, 8, 9, 10, 11, 12)}, []*ndarray.Array{f64([]int{2, 2}, 58, 64, 139, 154)}, 0},
		{"matmul transpose y", "matmul", ops.MatMulArgs(false, true), []*ndarray.Array{x, f64([]int{2, 3}, 7, 9, 11, 8, 10, 12)}, []*ndarray.Array{f64([]int{2, 2}, 58, 64, 139, 154)}, 0},
		{"matmul transpose result, alpha", "matmul", ops.Args{I: []int64{0, 0, 1}, F: []float64{2}}, []*ndarray.Array{x, f64([]int{3, 2}, 7, 8, 9, 10, 11, 12)}, []*ndarray.Array{f64([]int{2, 2}, 116, 278, 128, 308)}, 0},
		{"matmul batched", "matmul", ops.Args{}, []*ndarray.Array{f64([]int{2, 1, 2}, 1, 2, 3, 4), f64([]int{2, 1}, 10, 1)}, []*ndarray.Array{f64([]int{2, 1, 1}, 12, 34)}, 0},
		{"mmul alias", "mmul", ops.Args{}, []*ndarray.Array{f64([]int{1, 2}, 1, 2), f64([]int{2, 1}, 3, 4)}, []*ndarray.Array{f64([]int{1, 1}, 11)}, 0},
		{"transpose", "transpose", ops.Args{}, []*ndarray.Array{x}, []*ndarray.Array{f64([]int{3, 2}, 1, 4, 2, 5, 3, 6)}, 0},
		{"transpose perm input", "transpose", ops.Args{}, []*ndarray.Array{x, i64([]int{2}, 1, 0)}, []*ndarray.Array{f64([]int{3, 2}, 1, 4, 2, 5, 3, 6)}, 0},
		{"permute", "permute", ops.Args{I: []int64{1, 2, 0}}, []*ndarray.Array{f64([]int{2, 1, 2}, 1, 2, 3, 4)}, []*ndarray.Array{f64([]int{1, 2, 2}, 1, 3, 2, 4)}, 0},
		{"reshape args", "reshape", ops.Args{I: []int64{3, -1}}, []*ndarray.Array{x}, []*ndarray.Array{f64([]int{3, 2}, 1, 2, 3, 4, 5, 6)}, 0},
		{"reshape order arg", "reshape", ops.Args{I: []int64{-99, 6}}, []*ndarray.Array{x}, []*ndarray.Array{f64([]int{6}, 1, 2, 3, 4, 5, 6)}, 0},
		{"reshape input", "reshape", ops.Args{}, []*ndarray.Array{x, i64([]int{3}, 1, 3, 2)}, []*ndarray.Array{f64([]int{1, 3, 2}, 1, 2, 3, 4, 5, 6)}, 0},
		{"expand_dims", "expand_dims", ops.Args{I: []int64{1}}, []*ndarray.Array{f64([]int{2}, 1, 2)}, []*ndarray.Array{f64([]int{2, 1}, 1, 2)}, 0},
		{"squeeze", "squeeze", ops.Args{}, []*ndarray.Array{f64([]int{1, 2, 1}, 1, 2)}, []*ndarray.Array{f64([]int{2}, 1, 2)}, 0},
		{"squeeze axis", "squeeze", ops.Args{I: []int64{-1}}, []*ndarray.Array{f64([]int{1, 2, 1}, 1, 2)}, []*ndarray.Array{f64([]int{1, 2}, 1, 2)}, 0},
		{"concat", "concat", ops.Args{I: []int64{1}}, []*ndarray.Array{x, f64([]int{2, 1}, 7, 8)}, []*ndarray.Array{f64([]int{2, 4}, 1, 2, 3, 7, 4, 5, 6, 8)}, 0},
		{"stack", "stack", ops.Args{I: []int64{0}}, []*ndarray.Array{f64([]int{2}, 1, 2), f64([]int{2}, 3, 4), f64([]int{2}, 5, 6)}, []*ndarray.Array{f64([]int{3, 2}, 1, 2, 3, 4, 5, 6)}, 0},
		{"stack axis 1", "stack", ops.Args{I: []int64{1}}, []*ndarray.Array{f64([]int{2}, 1, 2), f64([]int{2}, 3, 4)}, []*ndarray.Array{f64([]int{2, 2}, 1, 3, 2, 4)}, 0},
		{"reduce_sum all", "reduce_sum", ops.ReduceArgs(false), []*ndarray.Array{x}, []*ndarray.Array{ndarray.Scalar(21.0)}, 0},
		{"reduce_sum axis 0 keep", "reduce_sum", ops.ReduceArgs(true, 0), []*ndarray.Array{x}, []*ndarray.Array{f64([]int{1, 3}, 5, 7, 9)}, 0},
		{"reduce_sum axes input", "reduce_sum", ops.Args{}, []*ndarray.Array{x, i64([]int{1}, 1)}, []*ndarray.Array{f64([]int{2}, 6, 15)}, 0},
		{"reduce_mean", "reduce_mean", ops.ReduceArgs(false, 1), []*ndarray.Array{x}, []*ndarray.Array{f64([]int{2}, 2, 5)}, 0},
		{"reduce_max", "reduce_max", ops.ReduceArgs(true, -1), []*ndarray.Array{x}, []*ndarray.Array{f64([]int{2, 1}, 3, 6)}, 0},
		{"reduce_min", "reduce_min", ops.ReduceArgs(false, 0), []*ndarray.Array{x}, []*ndarray.Array{f64([]int{3}, 1, 2, 3)}, 0},
		{"reduce_prod", "reduce_prod", ops.ReduceArgs(false), []*ndarray.Array{x}, []*ndarray.Array{ndarray.Scalar(720.0)}, 0},
		{"all", "all", ops.ReduceArgs(true, 0), []*ndarray.Array{bools([]int{2, 2}, true, false, true, true)}, []*ndarray.Array{bools([]int{1, 2}, true, false)}, 0},
		{"any", "any", ops.ReduceArgs(false), []*ndarray.Array{bools([]int{2}, false, true)}, []*ndarray.Array{ndarray.Scalar(true)}, 0},
		{"argmax", "argmax", ops.ReduceArgs(false, 1), []*ndarray.Array{f64([]int{2, 3}, 1, 9, 3, 7, 5, 6)}, []*ndarray.Array{i64([]int{2}, 1, 0)}, 0},
		{"argmax flat keep", "argmax", ops.ReduceArgs(true), []*ndarray.Array{f64([]int{2, 3}, 1, 9, 3, 7, 5, 6)}, []*ndarray.Array{i64([]int{1, 1}, 1)}, 0},
		{"argmin", "argmin", ops.ReduceArgs(false, 0), []*ndarray.Array{f64([]int{2, 3}, 1, 9, 3, 7, 5, 2)}, []*ndarray.Array{i64([]int{3}, 0, 1, 1)}, 0},
		{"cast", "cast", ops.Args{D: []ndarray.DType{ndarray.Int32}}, []*ndarray.Array{f64([]int{3}, 1.7, -1.7, 0)}, []*ndarray.Array{i32([]int{3}, 1, -1, 0)}, 0},
		{"cast int arg", "cast", ops.Args{I: []int64{int64(ndarray.Bool)}}, []*ndarray.Array{f64([]int{2}, 1.7, 0)}, []*ndarray.Array{bools([]int{2}, true, false)}, 0},
		{"identity", "identity", ops.Args{}, []*ndarray.Array{x}, []*ndarray.Array{x}, 0},
		{"reduce_to_shape_of", "reduce_to_shape_of", ops.Args{}, []*ndarray.Array{x, f64([]int{1, 3}, 0, 0, 0)}, []*ndarray.Array{f64([]int{1, 3}, 5, 7, 9)}, 0},
		{"shape_of", "shape_of", ops.Args{}, []*ndarray.Array{x}, []*ndarray.Array{i64([]int{2}, 2, 3)}, 0},
		{"fill", "fill", ops.Args{F: []float64{2.5}, D: []ndarray.DType{ndarray.Float64}}, []*ndarray.Array{i64([]int{2}, 2, 1)}, []*ndarray.Array{f64([]int{2, 1}, 2.5, 2.5)}, 0},
		{"fill value input", "fill", ops.Args{}, []*ndarray.Array{i64([]int{1}, 3), ndarray.Scalar(int32(7))}, []*ndarray.Array{i32([]int{3}, 7, 7, 7)}, 0},
		{"zeros_as", "zeros_as", ops.Args{}, []*ndarray.Array{x}, []*ndarray.Array{f64([]int{2, 3}, 0, 0, 0, 0, 0, 0)}, 0},
		{"ones_as", "ones_as", ops.Args{D: []ndarray.DType{ndarray.Int64}}, []*ndarray.Array{x}, []*ndarray.Array{i64([]int{2, 3}, 1, 1, 1, 1, 1, 1)}, 0},
		// MSE: squared errors 1, 4, 0, 9 with weights 1, 1, 0, 2.
		{"mean_sqerr_loss none", "mean_sqerr_loss", ops.Args{I: []int64{0}},
			[]*ndarray.Array{f64([]int{2, 2}, 1, 2, 3, 4), f64([]int{2, 2}, 1, 1, 0, 2), f64([]int{2, 2}, 0, 0, 3, 1)},
			[]*ndarray.Array{f64([]int{2, 2}, 1, 4, 0, 18)}, 0},
		{"mean_sqerr_loss sum", "mean_sqerr_loss", ops.Args{I: []int64{1}},
			[]*ndarray.Array{f64([]int{2, 2}, 1, 2, 3, 4), f64([]int{2, 2}, 1, 1, 0, 2), f64([]int{2, 2}, 0, 0, 3, 1)},
			[]*ndarray.Array{ndarray.Scalar(23.0)}, 0},
		{"mean_sqerr_loss mean by weight", "mean_sqerr_loss", ops.Args{I: []int64{2}},
			[]*ndarray.Array{f64([]int{2, 2}, 1, 2, 3, 4), f64([]int{2, 2}, 1, 1, 0, 2), f64([]int{2, 2}, 0, 0, 3, 1)},
			[]*ndarray.Array{ndarray.Scalar(23.0 / 4)}, 0},
		{"mean_sqerr_loss mean by nonzero count", "mean_sqerr_loss", ops.Args{},
			[]*ndarray.Array{f64([]int{2, 2}, 1, 2, 3, 4), f64([]int{2, 2}, 1, 1, 0, 2), f64([]int{2, 2}, 0, 0, 3, 1)},
			[]*ndarray.Array{ndarray.Scalar(23.0 / 3)}, 1e-15},
		{"mean_sqerr_loss scalar weight", "mean_sqerr_loss", ops.Args{I: []int64{3}},
			[]*ndarray.Array{f64([]int{2}, 1, 2), ndarray.Scalar(1.0), f64([]int{2}, 0, 0)},
			[]*ndarray.Array{ndarray.Scalar(2.5)}, 0},
		// Cross-entropy of logits (1,2,3) and (4,5,6) against one-hot
		// labels 2 and 0: lse1-3 and lse2-4.
		{"softmax_cross_entropy_loss", "softmax_cross_entropy_loss", ops.Args{},
			[]*ndarray.Array{x, ndarray.Scalar(1.0), f64([]int{2, 3}, 0, 0, 1, 1, 0, 0)},
			[]*ndarray.Array{ndarray.Scalar(((lse1 - 3) + (lse2 - 4)) / 2)}, 1e-14},
		{"softmax_cross_entropy_loss none", "softmax_cross_entropy_loss", ops.Args{I: []int64{0}},
			[]*ndarray.Array{x, f64([]int{2}, 1, 2), f64([]int{2, 3}, 0, 0, 1, 1, 0, 0)},
			[]*ndarray.Array{f64([]int{2}, lse1-3, 2*(lse2-4))}, 1e-14},
		// Label smoothing 0.3 over 3 classes turns (0,0,1) into (0.1,0.1,0.8).
		{"softmax_cross_entropy_loss smoothing", "softmax_cross_entropy_loss", ops.Args{I: []int64{1}, F: []float64{0.3}},
			[]*ndarray.Array{f64([]int{1, 3}, 1, 2, 3), ndarray.Scalar(1.0), f64([]int{1, 3}, 0, 0, 1)},
			[]*ndarray.Array{ndarray.Scalar(0.1*(lse1-1) + 0.1*(lse1-2) + 0.8*(lse1-3))}, 1e-14},
	}
}

func bpForwardCases() []fwd {
	A := func(a ...*ndarray.Array) []*ndarray.Array { return a }
	s := ndarray.Scalar[float64]
	ln3 := math.Log(3)
	return []fwd{
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
		// Where x <= 0, ln x is undefined: dL/dy is 0 there (as in
		// TensorFlow), not x^y·ln(tiny); dL/dx is y·x^(y-1) as anywhere.
		{"Pow_bp non-positive base", "Pow_bp", ops.Args{}, A(f64([]int{3}, -2, 0, -0.5), f64([]int{3}, 3, 2, 2), f64([]int{3}, 1, 1, 2)),
			A(f64([]int{3}, 12, 0, -2), f64([]int{3}, 0, 0, 0)), 1e-15},
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

func coreGradCases() []grd {
	rng := rand.New(rand.NewPCG(11, 3))
	r := func(shape ...int) input { return in(randn(rng, shape...)) }
	pos := func(shape ...int) input { return in(randu(rng, 0.5, 2, shape...)) }
	onehot := func(n, k int) input {
		a := ndarray.Must(ndarray.Zeros(ndarray.Float64, n, k))
		v := ndarray.Raw[float64](a)
		for i := 0; i < n; i++ {
			v[i*k+rng.IntN(k)] = 1
		}
		return fixed(a)
	}
	var cs []grd
	for _, op := range []string{"add", "subtract", "multiply", "divide", "maximum", "minimum", "squaredsubtract"} {
		cs = append(cs,
			grd{op + " same shape", op, ops.Args{}, []input{r(2, 3), r(2, 3)}},
			grd{op + " broadcast row", op, ops.Args{}, []input{r(2, 3), r(3)}},
			grd{op + " broadcast both", op, ops.Args{}, []input{r(2, 1), r(1, 3)}},
			grd{op + " scalar left", op, ops.Args{}, []input{r(), r(2, 2)}},
		)
	}
	cs = append(cs,
		grd{"Pow", "Pow", ops.Args{}, []input{pos(2, 3), r(2, 3)}},
		grd{"Pow broadcast", "Pow", ops.Args{}, []input{pos(2, 3), pos(3)}},
		grd{"pow scalar", "pow", ops.Args{F: []float64{2.5}}, []input{pos(4)}},
		grd{"neg", "neg", ops.Args{}, []input{r(2, 2)}},
		grd{"abs", "abs", ops.Args{}, []input{r(5)}},
		grd{"exp", "exp", ops.Args{}, []input{r(5)}},
		grd{"log", "log", ops.Args{}, []input{pos(5)}},
		grd{"sqrt", "sqrt", ops.Args{}, []input{pos(5)}},
		grd{"square", "square", ops.Args{}, []input{r(5)}},
		grd{"tanh", "tanh", ops.Args{}, []input{r(2, 3)}},
		grd{"sigmoid", "sigmoid", ops.Args{}, []input{r(2, 3)}},
		grd{"relu", "relu", ops.Args{}, []input{r(2, 3)}},
		grd{"leakyrelu", "leakyrelu", ops.Args{F: []float64{0.2}}, []input{r(2, 3)}},
		grd{"sign", "sign", ops.Args{}, []input{r(4)}},
		grd{"reciprocal", "reciprocal", ops.Args{}, []input{pos(4)}},
		grd{"floor", "floor", ops.Args{}, []input{r(4)}},
		grd{"ceil", "ceil", ops.Args{}, []input{r(4)}},
		grd{"round", "round", ops.Args{}, []input{r(4)}},
		grd{"sin", "sin", ops.Args{}, []input{r(4)}},
		grd{"cos", "cos", ops.Args{}, []input{r(4)}},
		grd{"softplus", "softplus", ops.Args{}, []input{r(4)}},
		grd{"rsqrt", "rsqrt", ops.Args{}, []input{pos(4)}},
		grd{"log1p", "log1p", ops.Args{}, []input{pos(4)}},
		grd{"expm1", "expm1", ops.Args{}, []input{r(4)}},
		grd{"softmax", "softmax", ops.Args{}, []input{r(2, 4)}},
		grd{"softmax axis 0", "softmax", ops.Args{I: []int64{0}}, []input{r(3, 2)}},
		grd{"log_softmax", "log_softmax", ops.Args{}, []input{r(2, 4)}},
		grd{"log_softmax axis 0", "log_softmax", ops.Args{I: []int64{0}}, []input{r(3, 2)}},
		grd{"matmul", "matmul", ops.Args{}, []input{r(2, 3), r(3, 4)}},
		grd{"matmul transpose x", "matmul", ops.MatMulArgs(true, false), []input{r(3, 2), r(3, 4)}},
		grd{"matmul transpose y", "matmul", ops.MatMulArgs(false, true), []input{r(2, 3), r(4, 3)}},
		grd{"matmul transpose both", "matmul", ops.MatMulArgs(true, true), []input{r(3, 2), r(4, 3)}},
		grd{"matmul transpose result alpha", "matmul", ops.Args{I: []int64{0, 0, 1}, F: []float64{1.5}}, []input{r(2, 3), r(3, 4)}},
		grd{"matmul batched broadcast", "matmul", ops.Args{}, []input{r(2, 1, 2, 3), r(3, 3, 2)}},
		grd{"matmul vector-matrix", "matmul", ops.Args{}, []input{r(3), r(3, 2)}},
		grd{"matmul matrix-vector", "matmul", ops.Args{}, []input{r(2, 3), r(3)}},
		grd{"matmul dot", "matmul", ops.Args{}, []input{r(3), r(3)}},
		grd{"transpose", "transpose", ops.Args{}, []input{r(2, 3)}},
		grd{"transpose perm input", "transpose", ops.Args{}, []input{r(2, 3, 4), fixed(ints(2, 0, 1))}},
		grd{"permute", "permute", ops.Args{I: []int64{1, 2, 0}}, []input{r(2, 3, 4)}},
		grd{"reshape", "reshape", ops.Args{I: []int64{3, -1}}, []input{r(2, 3)}},
		grd{"reshape input", "reshape", ops.Args{}, []input{r(2, 3), fixed(ints(6))}},
		grd{"expand_dims", "expand_dims", ops.Args{I: []int64{1}}, []input{r(2, 3)}},
		grd{"squeeze", "squeeze", ops.Args{}, []input{r(2, 1, 3)}},
		grd{"concat", "concat", ops.Args{I: []int64{1}}, []input{r(2, 3), r(2, 1), r(2, 2)}},
		grd{"stack", "stack", ops.Args{I: []int64{1}}, []input{r(2, 3), r(2, 3)}},
		grd{"unstack", "unstack", ops.Args{I: []int64{0}}, []input{r(3, 2)}},
		grd{"identity", "identity", ops.Args{}, []input{r(3)}},
		grd{"mergeadd", "mergeadd", ops.Args{}, []input{r(2, 2), r(2, 2), r(2, 2)}},
		grd{"reduce_to_shape_of", "reduce_to_shape_of", ops.Args{}, []input{r(2, 3), fixed(randn(rng, 3))}},
		grd{"cast float64", "cast", ops.Args{D: []ndarray.DType{ndarray.Float64}}, []input{r(3)}},
	)
	for _, op := range []string{"reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod"} {
		cs = append(cs,
			grd{op + " all", op, ops.ReduceArgs(false), []input{r(2, 3)}},
			grd{op + " axis 0", op, ops.ReduceArgs(false, 0), []input{r(2, 3)}},
			grd{op + " axis -1 keep", op, ops.ReduceArgs(true, -1), []input{r(2, 3, 2)}},
			grd{op + " axes input", op, ops.Args{B: []bool{false}}, []input{r(2, 3, 2), fixed(ints(0, 2))}},
		)
	}
	// Zeros in a product: one zero, and two.
	oneZero := ndarray.Must(ndarray.FromSlice([]float64{1.5, 0, -2, 0.5, 3, 2}, 2, 3))
	twoZeros := ndarray.Must(ndarray.FromSlice([]float64{0, 0, -2, 0.5, 3, 2}, 2, 3))
	cs = append(cs,
		grd{"reduce_prod one zero", "reduce_prod", ops.ReduceArgs(false, 1), []input{in(oneZero)}},
		grd{"reduce_prod two zeros", "reduce_prod", ops.ReduceArgs(false, 1), []input{in(twoZeros)}},
	)
	for mode := 0; mode <= 3; mode++ {
		m := ops.Args{I: []int64{int64(mode)}}
		cs = append(cs,
			grd{fmt.Sprintf("mean_sqerr_loss mode %d", mode), "mean_sqerr_loss", m, []input{r(3, 2), in(randu(rng, 0, 2, 3, 2)), r(3, 2)}},
			grd{fmt.Sprintf("mean_sqerr_loss mode %d column weights", mode), "mean_sqerr_loss", m, []input{r(3, 2), in(randu(rng, 0, 2, 3, 1)), r(3, 2)}},
			grd{fmt.Sprintf("softmax_cross_entropy_loss mode %d", mode), "softmax_cross_entropy_loss", m, []input{r(3, 4), in(randu(rng, 0.5, 2, 3)), onehot(3, 4)}},
			grd{fmt.Sprintf("softmax_cross_entropy_loss mode %d soft labels", mode), "softmax_cross_entropy_loss",
				ops.Args{I: []int64{int64(mode)}, F: []float64{0.2}}, []input{r(3, 4), in(randu(rng, 0.5, 2, 3)), in(randu(rng, 0, 1, 3, 4))}},
		)
	}
	// matmul ignores a transpose flag on a vector operand; so must its
	// gradient.
	cs = append(cs,
		grd{"matmul vector-matrix, transpose flag on the vector", "matmul", ops.MatMulArgs(true, false), []input{r(3), r(3, 2)}},
		grd{"matmul matrix-vector, transpose flag on the vector", "matmul", ops.MatMulArgs(false, true), []input{r(2, 3), r(3)}},
	)
	return cs
}
