package opcases_test

import "math/rand/v2"

// Random differential cases of sru_bi (ops/rnn_sru_bi.go).

func init() {
	familyDgens["sru_bi"] = func(r *rand.Rand) dcase {
		sL, bS, k := 1+r.IntN(3), 1+r.IntN(2), 1+r.IntN(2)
		in := []dinput{dvar(rnd(r, sL, bS, 2*k)), dvar(rnd(r, 2*k, 6*k)), dvar(rnd(r, 4*k)), dvar(rnd(r, bS, 2*k))}
		if r.IntN(2) == 0 {
			in = append(in, dvar(rnd(r, bS, 2*k)))
		}
		return dcase{in: in}
	}
}
