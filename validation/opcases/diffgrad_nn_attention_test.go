package opcases_test

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Random differential cases of the attention ops (ops/nn_attention.go):
// random sizes, scaled or not, with the weights output or not, with a
// random 0/1 mask that keeps at least one key per batch row.

func attnMask(r *rand.Rand, b, tv int) *ndarray.Array {
	m := make([]float64, b*tv)
	for i := range m {
		if r.IntN(3) > 0 {
			m[i] = 1
		}
	}
	for i := 0; i < b; i++ {
		m[i*tv+r.IntN(tv)] = 1
	}
	return ndarray.Must(ndarray.FromSlice(m, b, tv))
}

func init() {
	familyDgens["dot_product_attention"] = func(r *rand.Rand) dcase {
		b, dk, dv, tq, tv := 1+r.IntN(2), 1+r.IntN(3), 1+r.IntN(3), 1+r.IntN(3), 1+r.IntN(3)
		lead := []int{b}
		if r.IntN(2) == 0 {
			lead = append(lead, 1+r.IntN(2)) // heads
		}
		sh := func(s ...int) []int { return append(append([]int(nil), lead...), s...) }
		c := dcase{args: ops.Args{I: []int64{int64(r.IntN(2)), int64(r.IntN(2))}},
			in: []dinput{dvar(rnd(r, sh(dk, tq)...)), dvar(rnd(r, sh(dk, tv)...)), dvar(rnd(r, sh(dv, tv)...))}}
		if r.IntN(2) == 0 {
			c.in = append(c.in, dfix(attnMask(r, b, tv)))
		}
		return c
	}
	familyDgens["multi_head_dot_product_attention"] = func(r *rand.Rand) dcase {
		b, h, nIn, pk, pv, out, tq, tv := 1+r.IntN(2), 1+r.IntN(2), 1+r.IntN(3), 1+r.IntN(2), 1+r.IntN(2), 1+r.IntN(3), 1+r.IntN(3), 1+r.IntN(3)
		c := dcase{args: ops.Args{I: []int64{int64(r.IntN(2)), int64(r.IntN(2))}},
			in: []dinput{dvar(rnd(r, b, nIn, tq)), dvar(rnd(r, b, nIn+1, tv)), dvar(rnd(r, b, nIn, tv)),
				dvar(rnd(r, h, pk, nIn)), dvar(rnd(r, h, pk, nIn+1)), dvar(rnd(r, h, pv, nIn)), dvar(rnd(r, h*pv, out))}}
		if r.IntN(2) == 0 {
			c.in = append(c.in, dfix(attnMask(r, b, tv)))
		}
		return c
	}
}

func init() {
	// dot_product_attention_v2 without masks or the causal mask (their
	// -1e9 in the logits output would drown the central differences of a
	// loss made of every output; validation/opcases/nn_attention_v2.go
	// checks them with a loss of the attention and weights): random rank,
	// grouped heads at rank 4, scale, keys given or not.
	familyDgens["dot_product_attention_v2"] = func(r *rand.Rand) dcase {
		rank := 2 + r.IntN(3)
		b, tq, tv, kvh, grp, d, dv := 1+r.IntN(2), 1+r.IntN(3), 1+r.IntN(3), 1+r.IntN(2), 1+r.IntN(2), 1+r.IntN(3), 1+r.IntN(3)
		sh := func(t, heads, f int) []int {
			switch rank {
			case 2:
				return []int{t, f}
			case 3:
				return []int{b, t, f}
			}
			return []int{b, t, heads, f}
		}
		c := dcase{args: ops.Args{F: []float64{[]float64{1, 0.5, -1}[r.IntN(3)]}},
			in: []dinput{dvar(rnd(r, sh(tq, kvh*grp, d)...)), dvar(rnd(r, sh(tv, kvh, dv)...))}}
		if r.IntN(3) > 0 {
			c.in = append(c.in, dvar(rnd(r, sh(tv, kvh, d)...)))
		} else {
			c.in[1] = dvar(rnd(r, sh(tv, kvh, d)...)) // the keys are the values
		}
		return c
	}
}
