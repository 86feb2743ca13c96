package opcases_test

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ops"
)

// Random differential cases of dot, tensordot, set_scalar and set_shape
// (ops/base_misc.go): random shapes, axes and contraction pairs.

func init() {
	for name, g := range map[string]dgen{
		"dot": func(r *rand.Rand) dcase {
			s := nonEmpty(r, 3)
			args := ops.Args{Dims: randAxes(r, len(s)), B: []bool{r.IntN(2) == 0}}
			return dcase{args: args, in: []dinput{dvar(rnd(r, s...)), dvar(rnd(r, s...))}}
		},
		"tensordot": func(r *rand.Rand) dcase {
			// k contracted axes of sizes ck, a's free sizes fa, b's fb;
			// the contracted axes in random places and pairings.
			k := r.IntN(3)
			ck := make([]int, k)
			for i := range ck {
				ck[i] = 1 + r.IntN(3)
			}
			fa, fb := randShape(r, 2), randShape(r, 2)
			ra, rb := k+len(fa), k+len(fb)
			pa, pb := r.Perm(ra), r.Perm(rb) // pa[i] < k: contracted axis pa[i]
			as, bs := make([]int, ra), make([]int, rb)
			axA, axB := make([]int64, k), make([]int64, k)
			fi := 0
			for i, p := range pa {
				if p < k {
					as[i], axA[p] = ck[p], int64(i)
				} else {
					as[i] = fa[fi]
					fi++
				}
			}
			fi = 0
			for i, p := range pb {
				if p < k {
					bs[i], axB[p] = ck[p], int64(i)
				} else {
					bs[i] = fb[fi]
					fi++
				}
			}
			args := append(append(append([]int64{int64(k)}, axA...), int64(k)), axB...)
			return dcase{args: ops.Args{I: args}, in: []dinput{dvar(rnd(r, as...)), dvar(rnd(r, bs...))}}
		},
		"set_scalar": unary(rnd, scalarArg),
		"car": func(r *rand.Rand) dcase {
			// x away from the condition's boundary at 0.
			s := randShape(r, 3)
			mode := []float64{2, 3, 4, 5}[r.IntN(4)]
			return dcase{args: ops.Args{F: []float64{0, 0, 0, mode}}, in: []dinput{dvar(away(r, 0.1, 2, s...)), dvar(rnd(r, s...))}}
		},
		"batched_gemm": func(r *rand.Rand) dcase {
			batch, m, n, k := 1+r.IntN(3), 1+r.IntN(3), 1+r.IntN(3), 1+r.IntN(3)
			ta, tb := r.IntN(2), r.IntN(2)
			sa, sb := []int{m, k}, []int{k, n}
			if ta == 1 {
				sa = []int{k, m}
			}
			if tb == 1 {
				sb = []int{n, k}
			}
			nAlpha := 1
			if r.IntN(2) == 0 {
				nAlpha = batch
			}
			// ld args: the smallest libnd4j accepts.
			lda, ldb := m, k
			if ta == 1 {
				lda = k
			}
			if tb == 1 {
				ldb = n
			}
			args := ops.Args{I: []int64{int64(ta), int64(tb), int64(m), int64(n), int64(k), int64(lda), int64(ldb), int64(m), int64(batch)}}
			in := []dinput{dfix(rnd(r, nAlpha)), dfix(rnd(r, 1))}
			for e := 0; e < batch; e++ {
				in = append(in, dvar(rnd(r, sa...)))
			}
			for e := 0; e < batch; e++ {
				in = append(in, dvar(rnd(r, sb...)))
			}
			return dcase{args: args, in: in}
		},
		"set_shape": func(r *rand.Rand) dcase {
			s := randShape(r, 3)
			n := 1
			for _, d := range s {
				n *= d
			}
			return dcase{in: []dinput{dvar(rnd(r, s...)), dfix(i64s(int64(n)))}}
		},
	} {
		familyDgens[name] = g
	}
}
