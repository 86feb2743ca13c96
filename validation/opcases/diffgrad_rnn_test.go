package opcases_test

import (
	"math/rand/v2"
)

// Random differential cases of the whole-sequence recurrent ops
// (ops/rnn.go).

func init() {
	familyDgens["gru"] = func(r *rand.Rand) dcase {
		sL, bS, nIn, nOut := 1+r.IntN(3), 1+r.IntN(2), 1+r.IntN(3), 1+r.IntN(3)
		return dcase{in: []dinput{dvar(rnd(r, sL, bS, nIn)), dvar(rnd(r, bS, nOut)), dvar(rnd(r, nIn, 3*nOut)),
			dvar(rnd(r, nOut, 3*nOut)), dvar(rnd(r, 3*nOut))}}
	}
}
