package opcases_test

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ops"
)

// Random differential cases of the recurrent cells (ops/rnn_cell.go).

func init() {
	familyDgens["gruCell"] = func(r *rand.Rand) dcase {
		bS, nIn, nOut := 1+r.IntN(3), 1+r.IntN(3), 1+r.IntN(3)
		return dcase{in: []dinput{dvar(rnd(r, bS, nIn)), dvar(rnd(r, bS, nOut)), dvar(rnd(r, nIn+nOut, 2*nOut)),
			dvar(rnd(r, nIn+nOut, nOut)), dvar(rnd(r, 2*nOut)), dvar(rnd(r, nOut))}}
	}
}

func init() {
	familyDgens["lstmBlockCell"] = func(r *rand.Rand) dcase {
		bS, nIn, nOut := 1+r.IntN(3), 1+r.IntN(3), 1+r.IntN(3)
		// No clipping: a clipped cell state's boundary would move under
		// the differences.
		return dcase{args: ops.Args{I: []int64{int64(r.IntN(2))}, F: []float64{r.Float64(), 0}},
			in: []dinput{dvar(rnd(r, bS, nIn)), dvar(rnd(r, bS, nOut)), dvar(rnd(r, bS, nOut)), dvar(rnd(r, nIn+nOut, 4*nOut)),
				dvar(rnd(r, nOut)), dvar(rnd(r, nOut)), dvar(rnd(r, nOut)), dvar(rnd(r, 4*nOut))}}
	}
}

func init() {
	familyDgens["sruCell"] = func(r *rand.Rand) dcase {
		bS, k := 1+r.IntN(3), 1+r.IntN(3)
		return dcase{in: []dinput{dvar(rnd(r, bS, k)), dvar(rnd(r, bS, k)), dvar(rnd(r, k, 3*k)), dvar(rnd(r, 2*k))}}
	}
}
