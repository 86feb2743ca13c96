package opcases

import (
	"math"

	"github.com/sdgo/sdgo/ops"
)

// Cases of SDLinalg's eig (ops/linalg_eig.go), worked by hand. Outputs:
// eigenvalues [n, 2] and eigenvectors [n, n, 2] (eigenvector j in column
// j), real and imaginary parts last. An eigenvector is defined up to a
// factor of modulus 1; the signs below are the ones LAPACK's convention
// (largest component real) gives, and each vector is checked by hand:
//   - symmetric [[2 1] [1 2]]: det(A-λI) = (2-λ)²-1, λ = 1, 3; v₁ = (-1, 1)/√2
//     (A·v₁ = (-2+1, -1+2)/√2 = v₁), v₃ = (-1, -1)/√2 (A·v₃ = 3·v₃).
//   - rotation [[0 -1] [1 0]]: λ² + 1 = 0, λ = i then -i (the pair with
//     the positive imaginary part first); v = (1, -i)/√2: A·v = (i, 1)/√2 =
//     i·v; the conjugate (1, i)/√2 for -i.
//   - upper triangular [[1 2 3] [0 4 5] [0 0 6]]: λ the diagonal 1, 4, 6 in
//     order; λ=1: (1, 0, 0); λ=4: -3x+2y+3z = 0, 5z = 0: (2, 3, 0)/√13;
//     λ=6: -2y+5z = 0, -5x+2y+3z = 0: (16, 25, 10)/√981.
//   - block diag(2, rotation): λ = i, -i, 2 (LAPACK's deflation order),
//     v = (0, 1, -i)/√2 and its conjugate, (1, 0, 0).
func init() {
	none := ops.Args{}
	s := func(sh ...int) []int { return sh }
	const tol, tol32 = 1e-12, 1e-6
	h := 1 / math.Sqrt2
	s13, s981 := math.Sqrt(13), math.Sqrt(981)
	tri := []float64{1, 2, 3, 0, 4, 5, 0, 0, 6}
	triVals := []float64{1, 0, 4, 0, 6, 0}
	triVecs := []float64{
		1, 0, 2 / s13, 0, 16 / s981, 0,
		0, 0, 3 / s13, 0, 25 / s981, 0,
		0, 0, 0, 0, 10 / s981, 0,
	}
	narrow := func(v []float64) []float32 {
		out := make([]float32, len(v))
		for i, x := range v {
			out[i] = float32(x)
		}
		return out
	}
	for _, c := range []fwd{
		{"eig symmetric", "eig", none, arrays(f64(s(2, 2), 2, 1, 1, 2)),
			arrays(f64(s(2, 2), 1, 0, 3, 0), f64(s(2, 2, 2), -h, 0, -h, 0, h, 0, -h, 0)), tol},
		{"eig rotation, complex pair", "eig", none, arrays(f64(s(2, 2), 0, -1, 1, 0)),
			arrays(f64(s(2, 2), 0, 1, 0, -1), f64(s(2, 2, 2), h, 0, h, 0, 0, -h, 0, h)), tol},
		{"eig upper triangular", "eig", none, arrays(f64(s(3, 3), tri...)),
			arrays(f64(s(3, 2), triVals...), f64(s(3, 3, 2), triVecs...)), tol},
		{"eig upper triangular float32", "eig", none, arrays(f32(s(3, 3), narrow(tri)...)),
			arrays(f32(s(3, 2), narrow(triVals)...), f32(s(3, 3, 2), narrow(triVecs)...)), tol32},
		{"eig block: complex pair and a real eigenvalue", "eig", none, arrays(f64(s(3, 3), 2, 0, 0, 0, 0, -1, 0, 1, 0)),
			arrays(f64(s(3, 2), 0, 1, 0, -1, 2, 0), f64(s(3, 3, 2), 0, 0, 0, 0, 1, 0, h, 0, h, 0, 0, 0, 0, -h, 0, h, 0, 0)), tol},
	} {
		forward(c.name, c.op, c.args, c.in, c.want, c.tol)
	}
}
