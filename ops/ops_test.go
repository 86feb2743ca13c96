package ops_test

import (
	"math"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

func f64(shape []int, v ...float64) *ndarray.Array {
	return ndarray.Must(ndarray.FromSlice(v, shape...))
}
func f32(shape []int, v ...float32) *ndarray.Array {
	return ndarray.Must(ndarray.FromSlice(v, shape...))
}
func i64(shape []int, v ...int64) *ndarray.Array { return ndarray.Must(ndarray.FromSlice(v, shape...)) }
func i32(shape []int, v ...int32) *ndarray.Array { return ndarray.Must(ndarray.FromSlice(v, shape...)) }
func bools(shape []int, v ...bool) *ndarray.Array {
	return ndarray.Must(ndarray.FromSlice(v, shape...))
}

// forwardCase is one op applied to constant inputs with the expected outputs,
// worked out by hand.
type forwardCase struct {
	name string
	op   string
	args ops.Args
	in   []*ndarray.Array
	want []*ndarray.Array
	tol  float64
}

func infoOf(a *ndarray.Array) ops.Info {
	return ops.Info{DType: a.DType(), Shape: a.Shape(), Value: a}
}

// runOp infers and runs an op, and checks that the run agrees with the
// inference.
func runOp(t *testing.T, name string, args ops.Args, in ...*ndarray.Array) []*ndarray.Array {
	t.Helper()
	def, ok := ops.Lookup(name)
	if !ok {
		t.Fatalf("op %q is not registered", name)
	}
	infos := make([]ops.Info, len(in))
	for i, a := range in {
		infos[i] = infoOf(a)
	}
	want, err := def.Infer(infos, &args)
	if err != nil {
		t.Fatalf("%s: infer: %v", name, err)
	}
	got, err := def.Run(nil, in, &args)
	if err != nil {
		t.Fatalf("%s: run: %v", name, err)
	}
	if len(got) != len(want) {
		t.Fatalf("%s: %d outputs, inferred %d", name, len(got), len(want))
	}
	for i := range got {
		if got[i].DType() != want[i].DType || (!want[i].UnknownRank && !ndarray.SameShape(got[i].Shape(), want[i].Shape)) {
			t.Fatalf("%s: output %d is %v%v, inferred %v", name, i, got[i].DType(), got[i].Shape(), want[i])
		}
	}
	return got
}

var e = math.Exp

func forwardCases() []forwardCase {
	x := f64([]int{2, 3}, 1, 2, 3, 4, 5, 6)
	v := f64([]int{4}, -2, -0.5, 0.5, 2)
	sm := func(a, b, c float64) []float64 {
		z := e(a) + e(b) + e(c)
		return []float64{e(a) / z, e(b) / z, e(c) / z}
	}
	s1, s2 := sm(1, 2, 3), sm(4, 5, 6)
	lse1, lse2 := math.Log(e(1)+e(2)+e(3)), math.Log(e(4)+e(5)+e(6))
	return []forwardCase{
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

func TestForward(t *testing.T) {
	for _, c := range append(forwardCases(), gradOpCases()...) {
		t.Run(c.name, func(t *testing.T) {
			got := runOp(t, c.op, c.args, c.in...)
			for i, w := range c.want {
				if got[i].DType() != w.DType() || !ndarray.AllClose(got[i], w, c.tol, c.tol) {
					t.Fatalf("output %d = %v, want %v", i, got[i], w)
				}
			}
		})
	}
}

// Every registered op has a forward case here.
func TestEveryOpHasForwardCase(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range append(forwardCases(), gradOpCases()...) {
		seen[c.op] = true
		if d, ok := ops.Lookup(c.op); ok {
			seen[d.Name] = true
		}
	}
	for _, d := range ops.All() {
		if !seen[d.Name] {
			t.Errorf("op %q has no forward case", d.Name)
		}
	}
}

func TestInferErrors(t *testing.T) {
	info := func(dt ndarray.DType, shape ...int) ops.Info { return ops.Info{DType: dt, Shape: shape} }
	cases := []struct {
		op   string
		args ops.Args
		in   []ops.Info
		msg  []string
	}{
		{"matmul", ops.Args{}, []ops.Info{info(ndarray.Float32, 2, 3), info(ndarray.Float32, 2, 3)}, []string{"[2 3]", "inner"}},
		{"matmul", ops.Args{}, []ops.Info{info(ndarray.Float32, -1, 3), info(ndarray.Float32, 4, 5)}, []string{"[-1 3]", "[4 5]"}},
		{"add", ops.Args{}, []ops.Info{info(ndarray.Float32, 2, 3), info(ndarray.Float32, 4)}, []string{"[2 3]", "[4]"}},
		{"add", ops.Args{}, []ops.Info{info(ndarray.Float32, 2), info(ndarray.Float64, 2)}, []string{"float32", "float64"}},
		{"tanh", ops.Args{}, []ops.Info{info(ndarray.Int32, 2)}, []string{"tanh", "int32"}},
		{"reduce_sum", ops.ReduceArgs(false, 2), []ops.Info{info(ndarray.Float32, 2, 3)}, []string{"axis 2"}},
		{"reshape", ops.Args{I: []int64{4, 2}}, []ops.Info{info(ndarray.Float32, 2, 3)}, []string{"reshape"}},
		{"concat", ops.Args{I: []int64{0}}, []ops.Info{info(ndarray.Float32, 2, 3), info(ndarray.Float32, 2, 4)}, []string{"[2 3]", "[2 4]"}},
		{"softmax", ops.Args{I: []int64{3}}, []ops.Info{info(ndarray.Float32, 2, 3)}, []string{"axis 3"}},
		{"cast", ops.Args{D: []ndarray.DType{ndarray.UTF8}}, []ops.Info{info(ndarray.Float32, 2)}, []string{"utf8"}},
		{"mean_sqerr_loss", ops.Args{}, []ops.Info{info(ndarray.Float32, 2, 3), info(ndarray.Float32), info(ndarray.Float32, 2, 4)}, []string{"[2 3]", "[2 4]"}},
	}
	for _, c := range cases {
		d, _ := ops.Lookup(c.op)
		_, err := d.Infer(c.in, &c.args)
		if err == nil {
			t.Errorf("%s %v: no error", c.op, c.in)
			continue
		}
		for _, m := range c.msg {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("%s: error %q does not mention %q", c.op, err, m)
			}
		}
	}
}

// Unknown sizes flow through inference.
func TestInferUnknownSizes(t *testing.T) {
	d, _ := ops.Lookup("matmul")
	out, err := d.Infer([]ops.Info{{DType: ndarray.Float32, Shape: []int{-1, 784}}, {DType: ndarray.Float32, Shape: []int{784, 10}}}, &ops.Args{})
	if err != nil || !ndarray.SameShape(out[0].Shape, []int{-1, 10}) {
		t.Errorf("matmul [-1 784]x[784 10] = %v, %v", out, err)
	}
	d, _ = ops.Lookup("add")
	out, err = d.Infer([]ops.Info{{DType: ndarray.Float32, Shape: []int{-1, 10}}, {DType: ndarray.Float32, Shape: []int{10}}}, &ops.Args{})
	if err != nil || !ndarray.SameShape(out[0].Shape, []int{-1, 10}) {
		t.Errorf("add [-1 10]+[10] = %v, %v", out, err)
	}
	d, _ = ops.Lookup("reduce_mean")
	out, err = d.Infer([]ops.Info{{DType: ndarray.Float32, Shape: []int{-1, 10}}}, &ops.Args{B: []bool{false}, Dims: []int{1}})
	if err != nil || !ndarray.SameShape(out[0].Shape, []int{-1}) {
		t.Errorf("reduce_mean [-1 10] over 1 = %v, %v", out, err)
	}
	d, _ = ops.Lookup("reshape")
	out, err = d.Infer([]ops.Info{{DType: ndarray.Float32, Shape: []int{-1, 10}}}, &ops.Args{I: []int64{-1, 5, 2}})
	if err != nil || !ndarray.SameShape(out[0].Shape, []int{-1, 5, 2}) {
		t.Errorf("reshape = %v, %v", out, err)
	}
}

func TestRunErrorsNotPanics(t *testing.T) {
	d, _ := ops.Lookup("divide")
	if _, err := d.Run(nil, []*ndarray.Array{i32([]int{1}, 1), i32([]int{1}, 0)}, &ops.Args{}); err == nil {
		t.Error("integer division by zero did not fail")
	}
	d, _ = ops.Lookup("reshape")
	if _, err := d.Run(nil, []*ndarray.Array{f64([]int{2}, 1, 2), i64([]int{1}, 3)}, &ops.Args{}); err == nil {
		t.Error("reshape of 2 elements to [3] did not fail")
	}
	d, _ = ops.Lookup("softmax_cross_entropy_loss")
	if _, err := d.Run(nil, []*ndarray.Array{f64([]int{1, 2}, 1, 2), ndarray.Scalar(1.0), f64([]int{1, 3}, 1, 0, 0)}, &ops.Args{}); err == nil {
		t.Error("mismatched logits and labels did not fail")
	}
}

func TestReduceToShapeOf(t *testing.T) {
	x := f64([]int{2, 3}, 1, 2, 3, 4, 5, 6)
	for _, c := range []struct {
		like *ndarray.Array
		want *ndarray.Array
	}{
		{f64([]int{3}, 0, 0, 0), f64([]int{3}, 5, 7, 9)},
		{f64([]int{2, 1}, 0, 0), f64([]int{2, 1}, 6, 15)},
		{ndarray.Scalar(0.0), ndarray.Scalar(21.0)},
		{f64([]int{1, 1}, 0), f64([]int{1, 1}, 21)},
		{x, x},
	} {
		got := runOp(t, "reduce_to_shape_of", ops.Args{}, x, c.like)
		if !ndarray.Equal(got[0], c.want) {
			t.Errorf("to %v: %v, want %v", c.like.Shape(), got[0], c.want)
		}
	}
	if _, err := ops.SumToShape(x, []int{4}); err == nil {
		t.Error("[2 3] summed to [4]")
	}
}
