package opcases_test

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Random differential cases of SDLinalg's factorizations, solves and band
// ops (ops/linalg_factor.go, linalg_solve.go, linalg_band.go): random batch
// shapes and sizes; square matrices made well conditioned (n+1 added to
// the diagonal) or symmetric positive definite (M·Mᵀ + n·I), away from the
// singular matrices where the gradients do not exist.

// linalgMats returns random n×n matrices of the batch shape, with f
// applied to each matrix's values.
func linalgMats(r *rand.Rand, batch []int, n int, f func(m []float64)) *ndarray.Array {
	s := append(append([]int(nil), batch...), n, n)
	v := rnd(r, s...).Float64s()
	for k := 0; k < len(v); k += n * n {
		f(v[k : k+n*n])
	}
	return ndarray.Must(ndarray.Wrap(v, s...))
}

func wellCond(r *rand.Rand, batch []int, n int) *ndarray.Array {
	return linalgMats(r, batch, n, func(m []float64) {
		for i := 0; i < n; i++ {
			m[i*n+i] += float64(n) + 1
		}
	})
}

func posDef(r *rand.Rand, batch []int, n int) *ndarray.Array {
	return linalgMats(r, batch, n, func(m []float64) {
		p := make([]float64, len(m))
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				for c := 0; c < n; c++ {
					p[i*n+j] += m[i*n+c] * m[j*n+c]
				}
			}
			p[i*n+i] += float64(n)
		}
		copy(m, p)
	})
}

func init() {
	size := func(r *rand.Rand) int { return 1 + r.IntN(3) }
	batch := func(r *rand.Rand) []int { return randShape(r, 2) }
	square := func(mk func(r *rand.Rand, batch []int, n int) *ndarray.Array) dgen {
		return func(r *rand.Rand) dcase { return dcase{in: []dinput{dvar(mk(r, batch(r), size(r)))}} }
	}
	solver := func(args func(r *rand.Rand) ops.Args) dgen {
		return func(r *rand.Rand) dcase {
			b, n := batch(r), size(r)
			rhs := append(append([]int(nil), b...), n, size(r))
			return dcase{args: args(r), in: []dinput{dvar(wellCond(r, b, n)), dvar(rnd(r, rhs...))}}
		}
	}
	for name, g := range map[string]dgen{
		"matrix_inverse":     square(wellCond),
		"matrix_determinant": square(wellCond),
		"logdet":             square(posDef),
		"cholesky":           square(posDef),
		"solve":              solver(func(r *rand.Rand) ops.Args { return ops.Args{B: []bool{r.IntN(2) == 0}} }),
		"triangular_solve": solver(func(r *rand.Rand) ops.Args {
			return ops.Args{B: []bool{r.IntN(2) == 0, r.IntN(2) == 0}}
		}),
		"matrix_band_part": func(r *rand.Rand) dcase {
			m, n := size(r), size(r)
			s := append(batch(r), m, n)
			lo, up := int64(r.IntN(2*m-1)-(m-1)), int64(r.IntN(2*n-1)-(n-1))
			return dcase{args: ops.Args{I: []int64{lo, up}}, in: []dinput{dvar(rnd(r, s...))}}
		},
		"triu": func(r *rand.Rand) dcase {
			s := append(batch(r), size(r))
			return dcase{args: ops.Args{I: []int64{int64(r.IntN(5) - 2)}}, in: []dinput{dvar(rnd(r, s...))}}
		},
	} {
		familyDgens[name] = g
	}
}
