package opcases_test

import (
	"math/rand/v2"
)

// Random differential cases of the recurrent cells (ops/rnn_cell.go).

func init() {
	familyDgens["gruCell"] = func(r *rand.Rand) dcase {
		bS, nIn, nOut := 1+r.IntN(3), 1+r.IntN(3), 1+r.IntN(3)
		return dcase{in: []dinput{dvar(rnd(r, bS, nIn)), dvar(rnd(r, bS, nOut)), dvar(rnd(r, nIn+nOut, 2*nOut)),
			dvar(rnd(r, nIn+nOut, nOut)), dvar(rnd(r, 2*nOut)), dvar(rnd(r, nOut))}}
	}
}
