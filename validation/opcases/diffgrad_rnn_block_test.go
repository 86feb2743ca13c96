package opcases_test

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Random differential cases of lstmBlock (ops/rnn_block.go) and sru
// (ops/rnn_sru.go).

func init() {
	familyDgens["lstmBlock"] = func(r *rand.Rand) dcase {
		sL, bS, nIn, nOut, f := 1+r.IntN(3), 1+r.IntN(2), 1+r.IntN(3), 1+r.IntN(3), r.IntN(3)
		tbs := []int{sL, bS, nIn}
		p := [3][]int{{0, 1, 2}, {1, 2, 0}, {1, 0, 2}}[f]
		x := rnd(r, tbs[p[0]], tbs[p[1]], tbs[p[2]])
		// No clipping: a clipped cell state's boundary would move under
		// the differences.
		return dcase{args: ops.Args{I: []int64{int64(r.IntN(2)), int64(f)}, F: []float64{r.Float64(), 0}},
			in: []dinput{dfix(ndarray.Scalar(int64(r.IntN(sL + 1)))), dvar(x), dvar(rnd(r, bS, nOut)), dvar(rnd(r, bS, nOut)),
				dvar(rnd(r, nIn+nOut, 4*nOut)), dvar(rnd(r, nOut)), dvar(rnd(r, nOut)), dvar(rnd(r, nOut)), dvar(rnd(r, 4*nOut))}}
	}
	familyDgens["sru"] = func(r *rand.Rand) dcase {
		bS, k, sL := 1+r.IntN(2), 1+r.IntN(3), 1+r.IntN(3)
		in := []dinput{dvar(rnd(r, bS, k, sL)), dvar(rnd(r, 3*k, k)), dvar(rnd(r, 2*k)), dvar(rnd(r, bS, k))}
		if r.IntN(2) == 0 {
			in = append(in, dvar(rnd(r, bS, k)))
		}
		return dcase{in: in}
	}
}
