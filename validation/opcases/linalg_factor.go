package opcases

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Cases of SDLinalg's factorizations, solves and band ops
// (ops/linalg_factor.go, linalg_solve.go, linalg_band.go).
//
// By hand:
//   - [[4 3] [6 3]]: det 12-18 = -6, inverse -1/6·[[3 -3] [-6 4]] =
//     [[-0.5 0.5] [1 -2/3]]; diag(2, 4): inverse diag(0.5, 0.25), det 8.
//   - lu of [[1 2] [3 4]]: pivot row 1 first (p = [1 0]), multiplier 1/3,
//     U = [[3 4] [0 2-4/3]]: compound [[3 4] [1/3 2/3]].
//   - [[3 1] [1 2]]·X = [9 8] gives X = [2 3]; its transpose is itself, so
//     the adjoint solve of [1 2] is [0 1] (3·0+1·1 = 1, 1·0+2·1 = 2).
//   - L = [[2 0 0] [1 3 0] [4 5 6]]: L·[1 2 3] = [2 7 32].
//   - matrix_band_part, tri and triu masks of counting matrices.
//
// From libnd4j's DeclarableOpsTests9 (Cholesky_Test_1, Cholesky_Test_2):
// cholesky of [[4 12 -16] [12 37 -43] [-16 -43 98]] is
// [[2 0 0] [6 1 0] [-8 5 3]] (so logdet = 2·log(2·1·3) = log 36), and of
// [[1 1 1] [1 2 2] [1 2 6]] is [[1 0 0] [1 1 0] [1 1 2]].
//
// From numpy 1.24 (python3: import numpy as np):
//   - np.linalg.qr([[12,-51,4],[6,167,-68],[-4,24,-41]]): Q =
//     [[-6/7 69/175 58/175] [-3/7 -158/175 -6/175] [2/7 -6/35 33/35]],
//     R = [[-14 -21 14] [0 -175 70] [0 0 -35]];
//   - np.linalg.qr(B), B = [[1,2],[3,4],[5,6]], reduced and 'complete'
//     (values below);
//   - np.linalg.inv / det of [[2,1,1],[1,3,2],[1,0,0]]: [[0 0 1] [-2 1 3]
//     [3 -1 -5]], -1;
//   - np.linalg.svd(B, compute_uv=False): [9.525518091565107 0.514300580658644];
//   - np.linalg.solve(L.T, [2,7,32]): [-6.388888888888889 -6.5555555555555545
//     5.333333333333333];
//   - M = [[1,1],[1,2],[1,3]], y = [1,2,2]: np.linalg.lstsq(M, y) =
//     [2/3 1/2]; np.linalg.solve(M.T@M + 0.5*I, M.T@y) =
//     [0.44067796610169513 0.5762711864406779]; lstsq([[1,2,3]], [14]) =
//     [1 2 3] (minimum norm).

// wellConditioned returns n×n matrices (batch shape first) of random
// normal elements plus n on the diagonal.
func wellConditioned(rng *rand.Rand, batch []int, n int) *ndarray.Array {
	s := append(append([]int(nil), batch...), n, n)
	v := randn(rng, s...).Float64s()
	for k := 0; k < len(v); k += n * n {
		for i := 0; i < n; i++ {
			v[k+i*n+i] += float64(n) + 1
		}
	}
	return ndarray.Must(ndarray.Wrap(v, s...))
}

// spd returns symmetric positive definite n×n matrices M·Mᵀ + n·I.
func spd(rng *rand.Rand, batch []int, n int) *ndarray.Array {
	s := append(append([]int(nil), batch...), n, n)
	m := randn(rng, s...).Float64s()
	v := make([]float64, len(m))
	for k := 0; k < len(v); k += n * n {
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				var t float64
				for c := 0; c < n; c++ {
					t += m[k+i*n+c] * m[k+j*n+c]
				}
				v[k+i*n+j] = t
			}
			v[k+i*n+i] += float64(n)
		}
	}
	return ndarray.Must(ndarray.Wrap(v, s...))
}

func init() {
	none := ops.Args{}
	s := func(sh ...int) []int { return sh }
	I := func(v ...int64) ops.Args { return ops.Args{I: v} }
	B := func(v ...bool) ops.Args { return ops.Args{B: v} }
	const tol, tol32 = 1e-12, 1e-5
	chol1 := []float64{4, 12, -16, 12, 37, -43, -16, -43, 98}
	chol1L := []float64{2, 0, 0, 6, 1, 0, -8, 5, 3}
	qrA := []float64{12, -51, 4, 6, 167, -68, -4, 24, -41}
	qrQ := []float64{-6. / 7, 69. / 175, 58. / 175, -3. / 7, -158. / 175, -6. / 175, 2. / 7, -6. / 35, 33. / 35}
	qrR := []float64{-14, -21, 14, 0, -175, 70, 0, 0, -35}
	tall := []float64{1, 2, 3, 4, 5, 6}
	tallQ := []float64{-0.16903085094570325, 0.8970852271450607, -0.50709255283711, 0.27602622373694136, -0.8451542547285166, -0.345032779671177}
	tallR := []float64{-5.916079783099616, -7.437357441610946, 0, 0.8280786712108248}
	tallQFull := []float64{-0.16903085094570325, 0.8970852271450607, 0.40824829046386274,
		-0.50709255283711, 0.27602622373694136, -0.8164965809277261,
		-0.8451542547285166, -0.345032779671177, 0.40824829046386313}
	lowL := []float64{2, 0, 0, 1, 3, 0, 4, 5, 6}
	lowLT := []float64{2, 1, 4, 0, 3, 5, 0, 0, 6}
	lowLJunk := []float64{2, 9, 9, 1, 3, 9, 4, 5, 6} // junk above the diagonal is not read
	ls := []float64{1, 1, 1, 2, 1, 3}
	for _, c := range []fwd{
		{"matrix_inverse 2x2", "matrix_inverse", none, arrays(f64(s(2, 2), 4, 3, 6, 3)), arrays(f64(s(2, 2), -0.5, 0.5, 1, -2./3)), tol},
		{"matrix_inverse float32", "matrix_inverse", none, arrays(f32(s(2, 2), 4, 3, 6, 3)), arrays(f32(s(2, 2), -0.5, 0.5, 1, -2./3)), tol32},
		{"matrix_inverse 3x3 pivoting", "matrix_inverse", none, arrays(f64(s(3, 3), 2, 1, 1, 1, 3, 2, 1, 0, 0)),
			arrays(f64(s(3, 3), 0, 0, 1, -2, 1, 3, 3, -1, -5)), tol},
		{"matrix_inverse batch", "matrix_inverse", none, arrays(f64(s(2, 2, 2), 2, 0, 0, 4, 4, 3, 6, 3)),
			arrays(f64(s(2, 2, 2), 0.5, 0, 0, 0.25, -0.5, 0.5, 1, -2./3)), tol},
		{"matrix_determinant", "matrix_determinant", none, arrays(f64(s(2, 2), 4, 3, 6, 3)), arrays(f64(nil, -6)), tol},
		{"matrix_determinant batch", "matrix_determinant", none, arrays(f64(s(2, 3, 3), append(append([]float64(nil), chol1...), 2, 1, 1, 1, 3, 2, 1, 0, 0)...)),
			arrays(f64(s(2), 36, -1)), 1e-10},
		{"matrix_determinant singular", "matrix_determinant", none, arrays(f64(s(2, 2), 1, 2, 2, 4)), arrays(f64(nil, 0)), tol},
		{"matrix_determinant float32", "matrix_determinant", none, arrays(f32(s(1, 2, 2), 2, 0, 0, 4)), arrays(f32(s(1), 8)), tol32},
		{"logdet", "logdet", none, arrays(f64(s(3, 3), chol1...)), arrays(f64(nil, 3.58351893845611)), tol},
		{"logdet batch float32", "logdet", none, arrays(f32(s(2, 2, 2), 2, 0, 0, 8, 1, 0, 0, 1)), arrays(f32(s(2), 2.7725887, 0)), tol32},
		{"cholesky (DeclarableOpsTests9 Cholesky_Test_1)", "cholesky", none, arrays(f64(s(3, 3), chol1...)), arrays(f64(s(3, 3), chol1L...)), tol},
		{"cholesky batch (Cholesky_Test_2)", "cholesky", none,
			arrays(f64(s(2, 3, 3), append(append([]float64(nil), chol1...), 1, 1, 1, 1, 2, 2, 1, 2, 6)...)),
			arrays(f64(s(2, 3, 3), append(append([]float64(nil), chol1L...), 1, 0, 0, 1, 1, 0, 1, 1, 2)...)), tol},
		{"cholesky float32", "cholesky", none, arrays(f32(s(3, 3), 4, 12, -16, 12, 37, -43, -16, -43, 98)),
			arrays(f32(s(3, 3), 2, 0, 0, 6, 1, 0, -8, 5, 3)), tol32},
		{"lu", "lu", none, arrays(f64(s(2, 2), 1, 2, 3, 4)), arrays(f64(s(2, 2), 3, 4, 1./3, 2./3), i32(s(2), 1, 0)), tol},
		{"lu int64 permutation, batch", "lu", I(int64(ndarray.Int64)), arrays(f32(s(2, 2, 2), 1, 2, 3, 4, 2, 0, 0, 4)),
			arrays(f32(s(2, 2, 2), 3, 4, 1./3, 2./3, 2, 0, 0, 4), i64(s(2, 2), 1, 0, 0, 1)), tol32},
		{"qr square", "qr", none, arrays(f64(s(3, 3), qrA...)), arrays(f64(s(3, 3), qrQ...), f64(s(3, 3), qrR...)), 1e-12},
		{"qr square full float32", "qr", B(true), arrays(f32(s(3, 3), 12, -51, 4, 6, 167, -68, -4, 24, -41)),
			arrays(f32(s(3, 3), -6./7, 69./175, 58./175, -3./7, -158./175, -6./175, 2./7, -6./35, 33./35),
				f32(s(3, 3), -14, -21, 14, 0, -175, 70, 0, 0, -35)), 1e-4},
		{"qr tall reduced", "qr", none, arrays(f64(s(3, 2), tall...)), arrays(f64(s(3, 2), tallQ...), f64(s(2, 2), tallR...)), 1e-12},
		{"qr tall full", "qr", B(true), arrays(f64(s(3, 2), tall...)), arrays(f64(s(3, 3), tallQFull...), f64(s(3, 2), append(tallR, 0, 0)...)), 1e-12},
		{"svd values", "svd", I(0, 0, 16), arrays(f64(s(3, 2), tall...)), arrays(f64(s(2), 9.525518091565107, 0.514300580658644)), 1e-12},
		{"svd values wide batch float32", "svd", I(0, 0, 16), arrays(f32(s(2, 2, 3), 1, 3, 5, 2, 4, 6, 2, 0, 0, 0, -3, 0)),
			arrays(f32(s(2, 2), 9.525518, 0.5143006, 3, 2)), tol32},
		{"solve", "solve", none, arrays(f64(s(2, 2), 3, 1, 1, 2), f64(s(2, 1), 9, 8)), arrays(f64(s(2, 1), 2, 3)), tol},
		{"solve adjoint", "solve", B(true), arrays(f64(s(2, 2), 3, 1, 1, 2), f64(s(2, 1), 1, 2)), arrays(f64(s(2, 1), 0, 1)), tol},
		{"solve batch float32", "solve", none, arrays(f32(s(2, 2, 2), 3, 1, 1, 2, 2, 0, 0, 4), f32(s(2, 2, 2), 9, 1, 8, 2, 2, 4, 4, 8)),
			arrays(f32(s(2, 2, 2), 2, 0, 3, 1, 1, 2, 1, 2)), tol32},
		{"triangular_solve lower", "triangular_solve", none, arrays(f64(s(3, 3), lowLJunk...), f64(s(3, 1), 2, 7, 32)), arrays(f64(s(3, 1), 1, 2, 3)), tol},
		{"triangular_solve lower adjoint", "triangular_solve", B(true, true), arrays(f64(s(3, 3), lowL...), f64(s(3, 1), 2, 7, 32)),
			arrays(f64(s(3, 1), -6.388888888888889, -6.5555555555555545, 5.333333333333333)), tol},
		{"triangular_solve upper", "triangular_solve", B(false), arrays(f64(s(3, 3), lowLT...), f64(s(3, 1), 2, 7, 32)),
			arrays(f64(s(3, 1), -6.388888888888889, -6.5555555555555545, 5.333333333333333)), tol},
		{"triangular_solve upper adjoint float32", "triangular_solve", B(false, true), arrays(f32(s(1, 3, 3), 2, 1, 4, 0, 3, 5, 0, 0, 6), f32(s(1, 3, 2), 2, 4, 7, 14, 32, 64)),
			arrays(f32(s(1, 3, 2), 1, 2, 2, 4, 3, 6)), tol32},
		{"lstsq fast", "lstsq", none, arrays(f64(s(3, 2), ls...), f64(s(3, 1), 1, 2, 2)), arrays(f64(s(2, 1), 2./3, 0.5)), 1e-12},
		{"lstsq qr", "lstsq", B(false), arrays(f64(s(3, 2), ls...), f64(s(3, 1), 1, 2, 2)), arrays(f64(s(2, 1), 2./3, 0.5)), 1e-12},
		{"lstsq fast l2", "lstsq", ops.Args{F: []float64{0.5}}, arrays(f64(s(3, 2), ls...), f64(s(3, 1), 1, 2, 2)),
			arrays(f64(s(2, 1), 0.44067796610169513, 0.5762711864406779)), 1e-12},
		{"lstsq qr l2", "lstsq", ops.Args{F: []float64{0.5}, B: []bool{false}}, arrays(f64(s(3, 2), ls...), f64(s(3, 1), 1, 2, 2)),
			arrays(f64(s(2, 1), 0.44067796610169513, 0.5762711864406779)), 1e-12},
		{"lstsq wide minimum norm", "lstsq", none, arrays(f64(s(1, 3), 1, 2, 3), f64(s(1, 1), 14)), arrays(f64(s(3, 1), 1, 2, 3)), 1e-12},
		{"lstsq wide qr float32", "lstsq", B(false), arrays(f32(s(1, 1, 3), 1, 2, 3), f32(s(1, 1, 1), 14)), arrays(f32(s(1, 3, 1), 1, 2, 3)), tol32},
		{"matrix_band_part (1, 0)", "matrix_band_part", I(1, 0), arrays(counting(1, 3, 3)), arrays(f64(s(3, 3), 1, 0, 0, 4, 5, 0, 0, 8, 9)), 0},
		{"matrix_band_part lower", "matrix_band_part", I(-1, 0), arrays(counting(1, 3, 3)), arrays(f64(s(3, 3), 1, 0, 0, 4, 5, 0, 7, 8, 9)), 0},
		{"matrix_band_part upper batch", "matrix_band_part", I(0, -1), arrays(counting(1, 2, 2, 2)), arrays(f64(s(2, 2, 2), 1, 2, 0, 4, 5, 6, 0, 8)), 0},
		{"matrix_band_part from inputs, int32", "matrix_band_part", none, arrays(i32(s(2, 3), 1, 2, 3, 4, 5, 6), i64(nil, 0), i32(nil, 1)),
			arrays(i32(s(2, 3), 1, 2, 0, 0, 5, 6)), 0},
		{"tri", "tri", I(3), nil, arrays(f32(s(3, 3), 1, 0, 0, 1, 1, 0, 1, 1, 1)), 0},
		{"tri wide k=1 float64", "tri", ops.Args{I: []int64{2, 3, 1}, D: []ndarray.DType{ndarray.Float64}}, nil, arrays(f64(s(2, 3), 1, 1, 0, 1, 1, 1)), 0},
		{"tri k=-1", "tri", I(3, 2, -1), nil, arrays(f32(s(3, 2), 0, 0, 1, 0, 1, 1)), 0},
		{"triu", "triu", none, arrays(counting(1, 3, 3)), arrays(f64(s(3, 3), 1, 2, 3, 0, 5, 6, 0, 0, 9)), 0},
		{"triu k=-1 batch", "triu", I(-1), arrays(counting(1, 1, 3, 3)), arrays(f64(s(1, 3, 3), 1, 2, 3, 4, 5, 6, 0, 8, 9)), 0},
		{"triu vector k=1 float32", "triu", I(1), arrays(f32(s(3), 1, 2, 3)), arrays(f32(s(3, 3), 0, 2, 3, 0, 0, 3, 0, 0, 0)), 0},
		{"triu_bp", "triu_bp", none, arrays(f64(s(2, 2), 1, 2, 3, 4), f64(s(2, 2), 1, 1, 1, 1)), arrays(f64(s(2, 2), 1, 1, 0, 1)), 0},
		{"triu_bp vector", "triu_bp", none, arrays(f64(s(3), 1, 2, 3), counting(1, 3, 3)), arrays(f64(s(3), 1, 7, 18)), 0},
	} {
		forward(c.name, c.op, c.args, c.in, c.want, c.tol)
	}
	rng := rand.New(rand.NewPCG(24, 3))
	r := func(sh ...int) input { return in(randn(rng, sh...)) }
	wc := func(batch []int, n int) input { return in(wellConditioned(rng, batch, n)) }
	pd := func(batch []int, n int) input { return in(spd(rng, batch, n)) }
	for _, c := range []grd{
		{"matrix_inverse", "matrix_inverse", none, []input{wc(nil, 3)}},
		{"matrix_inverse batch", "matrix_inverse", none, []input{wc(s(2), 2)}},
		{"matrix_determinant", "matrix_determinant", none, []input{wc(nil, 3)}},
		{"matrix_determinant batch", "matrix_determinant", none, []input{wc(s(2, 1), 2)}},
		{"logdet", "logdet", none, []input{pd(nil, 3)}},
		{"logdet batch", "logdet", none, []input{pd(s(2), 2)}},
		{"cholesky", "cholesky", none, []input{pd(nil, 3)}},
		{"cholesky batch", "cholesky", none, []input{pd(s(2), 2)}},
		{"solve", "solve", none, []input{wc(nil, 3), r(3, 2)}},
		{"solve adjoint batch", "solve", B(true), []input{wc(s(2), 2), r(2, 2, 3)}},
		{"triangular_solve lower", "triangular_solve", none, []input{wc(nil, 3), r(3, 2)}},
		{"triangular_solve lower adjoint", "triangular_solve", B(true, true), []input{wc(nil, 3), r(3, 1)}},
		{"triangular_solve upper batch", "triangular_solve", B(false), []input{wc(s(2), 3), r(2, 3, 2)}},
		{"triangular_solve upper adjoint", "triangular_solve", B(false, true), []input{wc(nil, 2), r(2, 2)}},
		{"matrix_band_part", "matrix_band_part", I(1, 0), []input{r(2, 3, 3)}},
		{"matrix_band_part inputs", "matrix_band_part", none, []input{r(3, 4), fixed(ints(0)), fixed(ints(2))}},
		{"triu", "triu", I(1), []input{r(2, 3, 3)}},
		{"triu vector", "triu", none, []input{r(3)}},
	} {
		gradient(c.name, c.op, c.args, c.in)
	}
}
