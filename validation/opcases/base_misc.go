package opcases

import (
	"math"
	"math/rand/v2"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Cases of dot, tensordot and the small base ops of ops/base_misc.go,
// worked out by hand:
//   - [1 2 3]·[4 5 6] = 32; row by row, [[1 2] [3 4]]·[[5 6] [7 8]] is
//     [1·5+2·6, 3·7+4·8] = [17 53].
//   - a = [[1 2 3] [4 5 6]], b = [[1 2] [3 4] [5 6]]: contracting a's axis 1
//     with b's axis 0 is the matrix product [[22 28] [49 64]]; a's axis 0
//     with b's axis 1 gives out[i j] = a[0 i]·b[j 0] + a[1 i]·b[j 1] =
//     [[9 19 29] [12 26 40] [15 33 51]]; a with itself over both axes is
//     1+4+9+16+25+36 = 91.
//   - tensormmul_bp of that product with gradO all ones: dA = G·bᵀ has
//     b's row sums [3 7 11] in every row, dB = aᵀ·G a's column sums
//     [5 7 9] in every column.
//   - batched_gemm: [[1 2] [3 4]]·[[5 6] [7 8]] = [[19 22] [43 50]]; with A
//     transposed, [[1 3] [2 4]]·[[5 6] [7 8]] = [[26 30] [38 44]], times
//     alpha 2; [1 2]·[[1 2 3] [4 5 6]] = [9 12 15]. Its gradient with G all
//     ones: dA = G·Bᵀ holds B's row sums [11 15], dB = Aᵀ·G A's column
//     sums [4 6].
//   - car replaces x by y where the condition holds for x (mode 2: x < 0);
//     cas alone sets the value where it holds for x, cas with y takes y
//     where it holds for y.
//   - compat_sparse_to_dense puts values 5 and 7 at [0 1] and [2 0] of a
//     3×2 array of the default (0, or -1 when given).
//   - min_max_datatype gives libnd4j's DataTypeUtils::min/max: for floats
//     the smallest positive normal number (1.175494e-38 as float32,
//     2.2250738585072014e-308), the largest finite one (3.402823e+38 as
//     float32, 1.7976931348623157e308); for integers their range's ends.

func init() {
	none := ops.Args{}
	I := func(v ...int64) ops.Args { return ops.Args{I: v} }
	s := func(sh ...int) []int { return sh }
	a, b := counting(1, 2, 3), counting(1, 3, 2)
	for _, c := range []fwd{
		{"dot", "dot", none, arrays(f64(s(3), 1, 2, 3), f64(s(3), 4, 5, 6)), arrays(f64(nil, 32)), 0},
		{"dot rows", "dot", ops.Args{Dims: []int{1}}, arrays(f64(s(2, 2), 1, 2, 3, 4), f64(s(2, 2), 5, 6, 7, 8)),
			arrays(f64(s(2), 17, 53)), 0},
		{"dot rows keepDims float32", "dot", ops.Args{Dims: []int{-1}, B: []bool{true}},
			arrays(f32(s(2, 2), 1, 2, 3, 4), f32(s(2, 2), 5, 6, 7, 8)), arrays(f32(s(2, 1), 17, 53)), 0},
		{"dot int32", "dot", none, arrays(i32(s(2), 1, 2), i32(s(2), 3, 4)), arrays(i32(nil, 11)), 0},
		{"reduce_dot_bp", "reduce_dot_bp", ops.Args{Dims: []int{1}},
			arrays(f64(s(2, 2), 1, 2, 3, 4), f64(s(2, 2), 5, 6, 7, 8), f64(s(2), 1, -1)),
			arrays(f64(s(2, 2), 5, 6, -7, -8), f64(s(2, 2), 1, 2, -3, -4)), 0},
		{"tensordot matrix product", "tensordot", I(1, 1, 1, 0), arrays(a, b), arrays(f64(s(2, 2), 22, 28, 49, 64)), 0},
		{"tensordot float32", "tensordot", I(1, 1, 1, 0),
			arrays(f32(s(2, 3), 1, 2, 3, 4, 5, 6), f32(s(3, 2), 1, 2, 3, 4, 5, 6)), arrays(f32(s(2, 2), 22, 28, 49, 64)), 0},
		{"tensordot transposed axes", "tensordot", I(1, 0, 1, -1), arrays(a, b),
			arrays(f64(s(3, 3), 9, 19, 29, 12, 26, 40, 15, 33, 51)), 0},
		{"tensordot full contraction", "tensordot", I(2, 0, 1, 2, 0, 1), arrays(a, a), arrays(f64(nil, 91)), 0},
		{"tensordot outer product", "tensordot", I(0, 0), arrays(f64(s(2), 1, 2), f64(s(2), 3, 4)),
			arrays(f64(s(2, 2), 3, 4, 6, 8)), 0},
		{"tensormmul_bp", "tensormmul_bp", I(1, 1, 1, 0), arrays(a, b, f64(s(2, 2), 1, 1, 1, 1)),
			arrays(f64(s(2, 3), 3, 7, 11, 3, 7, 11), f64(s(3, 2), 5, 5, 7, 7, 9, 9)), 0},
		{"create", "create", I('c', int64(ndarray.Float32)), arrays(i64(s(2), 2, 3)), arrays(f32(s(2, 3), 0, 0, 0, 0, 0, 0)), 0},
		{"create f order int32", "create", I('f', int64(ndarray.Int32)), arrays(i32(s(1), 3)), arrays(i32(s(3), 0, 0, 0)), 0},
		{"create default dtype", "create", none, arrays(i64(s(2), 1, 2)), arrays(f32(s(1, 2), 0, 0)), 0},
		{"set_scalar", "set_scalar", ops.Args{F: []float64{2.5}}, arrays(f64(s(2), 1, -1)), arrays(f64(s(2), 2.5, 2.5)), 0},
		{"set_scalar float32", "set_scalar", ops.Args{F: []float64{-1}}, arrays(f32(s(2, 1), 3, 4)), arrays(f32(s(2, 1), -1, -1)), 0},
		{"set_scalar int32", "set_scalar", ops.Args{F: []float64{7}}, arrays(i32(s(3), 1, 2, 3)), arrays(i32(s(3), 7, 7, 7)), 0},
		{"set_shape", "set_shape", none, arrays(a, i64(s(2), 3, 2)), arrays(f64(s(3, 2), 1, 2, 3, 4, 5, 6)), 0},
		{"set_shape to a vector", "set_shape", none, arrays(i32(s(2, 2), 1, 2, 3, 4), i64(s(1), 4)), arrays(i32(s(4), 1, 2, 3, 4)), 0},
		{"is_numeric_tensor float32", "is_numeric_tensor", none, arrays(f32(s(2), 1, 2)), arrays(bools(nil, true)), 0},
		{"is_numeric_tensor int64", "is_numeric_tensor", none, arrays(i64(s(1), 1)), arrays(bools(nil, true)), 0},
		{"is_numeric_tensor bool", "is_numeric_tensor", none, arrays(bools(s(1), true)), arrays(bools(nil, false)), 0},
		{"is_numeric_tensor utf8", "is_numeric_tensor", none, arrays(ndarray.Must(ndarray.FromStrings([]string{"a"}, 1))),
			arrays(bools(nil, false)), 0},
		{"batched_gemm", "batched_gemm", I(0, 0, 2, 2, 2, 2, 2, 2, 2),
			arrays(f64(s(1), 1), f64(s(1), 0), f64(s(2, 2), 1, 2, 3, 4), f64(s(2, 2), 1, 0, 0, 1), f64(s(2, 2), 5, 6, 7, 8), f64(s(2, 2), 2, 3, 4, 5)),
			arrays(f64(s(2, 2), 19, 22, 43, 50), f64(s(2, 2), 2, 3, 4, 5)), 0},
		{"batched_gemm transA, alpha per member", "batched_gemm", I(1, 0, 2, 2, 2, 2, 2, 2, 2),
			arrays(f64(s(2), 2, 0.5), f64(s(2), 0, 0), f64(s(2, 2), 1, 2, 3, 4), f64(s(2, 2), 1, 0, 0, 1), f64(s(2, 2), 5, 6, 7, 8), f64(s(2, 2), 2, 3, 4, 5)),
			arrays(f64(s(2, 2), 52, 60, 76, 88), f64(s(2, 2), 1, 1.5, 2, 2.5)), 0},
		{"batched_gemm float32 1×3", "batched_gemm", I(0, 0, 1, 3, 2, 1, 2, 1, 1),
			arrays(f32(nil, 1), f32(nil, 0), f32(s(1, 2), 1, 2), f32(s(2, 3), 1, 2, 3, 4, 5, 6)), arrays(f32(s(1, 3), 9, 12, 15)), 0},
		{"batched_gemm_bp", "batched_gemm_bp", I(0, 0, 2, 2, 2, 2, 2, 2, 1),
			arrays(f64(s(1), 1), f64(s(1), 0), f64(s(2, 2), 1, 2, 3, 4), f64(s(2, 2), 5, 6, 7, 8), f64(s(2, 2), 1, 1, 1, 1)),
			arrays(f64(s(2, 2), 11, 15, 11, 15), f64(s(2, 2), 4, 4, 6, 6)), 0},
		{"car x < 0", "car", ops.Args{F: []float64{0, 0, 0, 2}}, arrays(f64(s(4), 1, -2, 3, -4), f64(s(4), 10, 20, 30, 40)),
			arrays(f64(s(4), 1, 20, 3, 40)), 0},
		{"car |x - 1| <= eps float32", "car", ops.Args{F: []float64{1, 0, 1e-3, 0}}, arrays(f32(s(3), 1, 2, 1.0001), f32(s(3), 7, 8, 9)),
			arrays(f32(s(3), 7, 2, 9)), 0},
		{"car isnan", "car", ops.Args{F: []float64{0, 0, 0, 9}}, arrays(f64(s(2), math.NaN(), 1), f64(s(2), 0, 5)), arrays(f64(s(2), 0, 1)), 0},
		{"cas x > 0 set 9", "cas", ops.Args{F: []float64{0, 9, 0, 3}}, arrays(f64(s(3), 1, -2, 3)), arrays(f64(s(3), 9, -2, 9)), 0},
		{"cas with y, y < 0", "cas", ops.Args{F: []float64{0, 0, 0, 2}}, arrays(f64(s(3), 1, 2, 3), f64(s(3), -1, 5, -3)),
			arrays(f64(s(3), -1, 2, -3)), 0},
		{"cas |x| >= 2 float32", "cas", ops.Args{F: []float64{2, -1, 0, 12}}, arrays(f32(s(3), 1, -2, 3)), arrays(f32(s(3), 1, -1, -1)), 0},
		{"compat_sparse_to_dense", "compat_sparse_to_dense", none, arrays(i64(s(2, 2), 0, 1, 2, 0), i64(s(2), 3, 2), f64(s(2), 5, 7)),
			arrays(f64(s(3, 2), 0, 5, 0, 0, 7, 0)), 0},
		{"compat_sparse_to_dense with default float32", "compat_sparse_to_dense", none,
			arrays(i32(s(2, 2), 0, 1, 2, 0), i32(s(2), 3, 2), f32(s(2), 5, 7), f32(nil, -1)), arrays(f32(s(3, 2), -1, 5, -1, -1, 7, -1)), 0},
		{"compat_sparse_to_dense vector, one value", "compat_sparse_to_dense", none, arrays(i64(s(2), 1, 3), i64(s(1), 4), f64(nil, 2.5)),
			arrays(f64(s(4), 0, 2.5, 0, 2.5)), 0},
		{"compat_sparse_to_dense int32", "compat_sparse_to_dense", none, arrays(i64(s(1, 2), 1, 1), i64(s(2), 2, 2), i32(s(1), 9)),
			arrays(i32(s(2, 2), 0, 0, 0, 9)), 0},
		{"min_max_datatype float32 min", "min_max_datatype", I(5, 0), nil, arrays(f32(nil, 1.175494e-38)), 0},
		{"min_max_datatype float32 max", "min_max_datatype", I(5, 1), nil, arrays(f32(nil, 3.402823e+38)), 0},
		{"min_max_datatype float64 min", "min_max_datatype", I(6, 0), nil, arrays(f64(nil, 2.2250738585072014e-308)), 0},
		{"min_max_datatype float64 max", "min_max_datatype", I(6, 1), nil, arrays(f64(nil, math.MaxFloat64)), 0},
		{"min_max_datatype int32 min", "min_max_datatype", I(9, 0), nil, arrays(i32(nil, math.MinInt32)), 0},
		{"min_max_datatype int64 max", "min_max_datatype", I(10, 1), nil, arrays(i64(nil, math.MaxInt64)), 0},
		{"min_max_datatype bool max", "min_max_datatype", I(1, 1), nil, arrays(bools(nil, true)), 0},
	} {
		forward(c.name, c.op, c.args, c.in, c.want, c.tol)
	}
	rng := rand.New(rand.NewPCG(26, 12))
	r := func(sh ...int) input { return in(randn(rng, sh...)) }
	for _, c := range []grd{
		{"dot", "dot", none, []input{r(2, 3), r(2, 3)}},
		{"dot over axis 1", "dot", ops.Args{Dims: []int{1}}, []input{r(2, 3), r(2, 3)}},
		{"dot keepDims", "dot", ops.Args{Dims: []int{0}, B: []bool{true}}, []input{r(3, 2), r(3, 2)}},
		{"tensordot", "tensordot", I(1, 1, 1, 0), []input{r(2, 3), r(3, 4)}},
		{"tensordot two axes", "tensordot", I(2, 1, 2, 2, 1, 0), []input{r(2, 3, 4), r(4, 3, 2)}},
		{"set_scalar", "set_scalar", ops.Args{F: []float64{1.5}}, []input{r(2, 2)}},
		{"batched_gemm", "batched_gemm", I(0, 1, 2, 3, 4, 2, 3, 2, 2),
			[]input{fixed(f64(s(2), 1.5, -0.5)), fixed(f64(s(1), 0)), r(2, 4), r(2, 4), r(3, 4), r(3, 4)}},
		{"batched_gemm transA", "batched_gemm", I(1, 0, 3, 2, 2, 2, 2, 3, 1),
			[]input{fixed(f64(nil, 2)), fixed(f64(nil, 1)), r(2, 3), r(2, 2)}},
		{"set_shape", "set_shape", none, []input{r(2, 3), fixed(ints(3, 2))}},
		{"car", "car", ops.Args{F: []float64{0, 0, 0, 3}}, []input{in(f64(s(2, 3), 0.5, -1, 2, -0.3, 0.7, -2)), r(2, 3)}},
	} {
		gradient(c.name, c.op, c.args, c.in)
	}
}
