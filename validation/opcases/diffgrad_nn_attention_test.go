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
