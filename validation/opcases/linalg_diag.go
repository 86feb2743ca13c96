package opcases

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Cases of the diagonal ops, eye, trace and cross (ops/linalg_diag.go),
// worked out by hand:
//   - diag of [a b c] is the 3×3 matrix with a, b, c on its diagonal; diag
//     of x of shape [2 2] has shape [2 2 2 2] with out[i j i j] = x[i j], so
//     its flat offsets 0, 5, 10, 15 hold x's elements; diag_part inverts it.
//   - counting(1, 2, 2, 3) holds [[1 2 3] [4 5 6]] and [[7 8 9] [10 11 12]]:
//     main diagonals [1 5] and [7 11].
//   - trace of counting(1, 2, 3, 3): 1+5+9 = 15 and 10+14+18 = 42.
//   - [1 2 3] × [4 5 6] = [2·6-3·5, 3·4-1·6, 1·5-2·4] = [-3 6 -3];
//     e1 × e2 = e3.

func init() {
	none := ops.Args{}
	I := func(v ...int64) ops.Args { return ops.Args{I: v} }
	s := func(sh ...int) []int { return sh }
	diag22 := make([]float64, 16)
	diag22[0], diag22[5], diag22[10], diag22[15] = 1, 2, 3, 4
	for _, c := range []fwd{
		{"diag vector", "diag", none, arrays(f64(s(3), 1, 2, 3)), arrays(f64(s(3, 3), 1, 0, 0, 0, 2, 0, 0, 0, 3)), 0},
		{"diag float32", "diag", none, arrays(f32(s(2), 1.5, -2)), arrays(f32(s(2, 2), 1.5, 0, 0, -2)), 0},
		{"diag row vector int32", "diag", none, arrays(i32(s(1, 3), 4, 5, 6)), arrays(i32(s(3, 3), 4, 0, 0, 0, 5, 0, 0, 0, 6)), 0},
		{"diag scalar", "diag", none, arrays(f64(nil, 7)), arrays(f64(s(1, 1), 7)), 0},
		{"diag matrix", "diag", none, arrays(f64(s(2, 2), 1, 2, 3, 4)), arrays(f64(s(2, 2, 2, 2), diag22...)), 0},
		{"diag_part", "diag_part", none, arrays(f64(s(3, 3), 1, 0, 0, 0, 2, 0, 0, 0, 3)), arrays(f64(s(3), 1, 2, 3)), 0},
		{"diag_part float32", "diag_part", none, arrays(f32(s(2, 2), 1, 9, 9, 4)), arrays(f32(s(2), 1, 4)), 0},
		{"diag_part rank 4", "diag_part", none, arrays(f64(s(2, 2, 2, 2), diag22...)), arrays(f64(s(2, 2), 1, 2, 3, 4)), 0},
		{"diag_part int64", "diag_part", none, arrays(i64(s(2, 2), 5, 1, 1, 6)), arrays(i64(s(2), 5, 6)), 0},
		{"matrix_diag_part", "matrix_diag_part", none, arrays(counting(1, 2, 2, 3)), arrays(f64(s(2, 2), 1, 5, 7, 11)), 0},
		{"matrix_diag_part tall", "matrix_diag_part", none, arrays(counting(1, 3, 2)), arrays(f64(s(2), 1, 4)), 0},
		{"matrix_set_diag", "matrix_set_diag", none, arrays(counting(1, 3, 2), f64(s(2), 9, 8)),
			arrays(f64(s(3, 2), 9, 2, 3, 8, 5, 6)), 0},
		{"matrix_set_diag batch float32", "matrix_set_diag", none,
			arrays(f32(s(2, 2, 2), 1, 2, 3, 4, 5, 6, 7, 8), f32(s(2, 2), -1, -2, -3, -4)),
			arrays(f32(s(2, 2, 2), -1, 2, 3, -2, -3, 6, 7, -4)), 0},
		{"matrix_set_diag int32", "matrix_set_diag", none, arrays(i32(s(2, 3), 1, 2, 3, 4, 5, 6), i32(s(2), 0, 0)),
			arrays(i32(s(2, 3), 0, 2, 3, 4, 0, 6)), 0},
		{"trace batch", "trace", none, arrays(counting(1, 2, 3, 3)), arrays(f64(s(2), 15, 42)), 0},
		{"trace wide", "trace", none, arrays(counting(1, 2, 3)), arrays(f64(nil, 6)), 0},
		{"trace float32", "trace", none, arrays(f32(s(2, 2), 0.5, 9, 9, 0.25)), arrays(f32(nil, 0.75)), 0},
		{"eye", "eye", I(2), nil, arrays(f32(s(2, 2), 1, 0, 0, 1)), 0},
		{"eye rows cols", "eye", I(2, 3), nil, arrays(f32(s(2, 3), 1, 0, 0, 0, 1, 0)), 0},
		{"eye c marker, batch", "eye", I(-99, 2, 2, 2), nil, arrays(f32(s(2, 2, 2), 1, 0, 0, 1, 1, 0, 0, 1)), 0},
		{"eye float64 by float arg", "eye", ops.Args{I: []int64{3, 2}, F: []float64{6}}, nil,
			arrays(f64(s(3, 2), 1, 0, 0, 1, 0, 0)), 0},
		{"eye int32 by dtype arg", "eye", ops.Args{I: []int64{2}, D: []ndarray.DType{ndarray.Int32}}, nil,
			arrays(i32(s(2, 2), 1, 0, 0, 1)), 0},
		{"eye from inputs", "eye", none, arrays(i32(nil, 3), i64(nil, 2)), arrays(f32(s(3, 2), 1, 0, 0, 1, 0, 0)), 0},
		{"eye from inputs with batch", "eye", none, arrays(i32(nil, 1), i32(nil, 2), i32(s(1), 2)),
			arrays(f32(s(2, 1, 2), 1, 0, 1, 0)), 0},
		{"cross", "cross", none, arrays(f64(s(3), 1, 2, 3), f64(s(3), 4, 5, 6)), arrays(f64(s(3), -3, 6, -3)), 0},
		{"cross batch float32", "cross", none, arrays(f32(s(2, 3), 1, 0, 0, 1, 2, 3), f32(s(2, 3), 0, 1, 0, 4, 5, 6)),
			arrays(f32(s(2, 3), 0, 0, 1, -3, 6, -3)), 0},
		{"cross int64", "cross", none, arrays(i64(s(3), 0, 1, 0), i64(s(3), 1, 0, 0)), arrays(i64(s(3), 0, 0, -1)), 0},
	} {
		forward(c.name, c.op, c.args, c.in, c.want, c.tol)
	}
	rng := rand.New(rand.NewPCG(26, 11))
	r := func(sh ...int) input { return in(randn(rng, sh...)) }
	for _, c := range []grd{
		{"diag vector", "diag", none, []input{r(3)}},
		{"diag matrix", "diag", none, []input{r(2, 3)}},
		{"diag column", "diag", none, []input{r(3, 1)}},
		{"diag_part", "diag_part", none, []input{r(3, 3)}},
		{"diag_part rank 4", "diag_part", none, []input{r(2, 3, 2, 3)}},
		{"matrix_diag_part", "matrix_diag_part", none, []input{r(2, 3, 2)}},
		{"matrix_set_diag", "matrix_set_diag", none, []input{r(2, 3, 4), r(2, 3)}},
		{"trace", "trace", none, []input{r(2, 3, 3)}},
		{"trace tall", "trace", none, []input{r(4, 2)}},
		{"cross", "cross", none, []input{r(4, 3), r(4, 3)}},
	} {
		gradient(c.name, c.op, c.args, c.in)
	}
}
