package opcases_test

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Random differential cases of the whole-sequence recurrent ops
// (ops/rnn.go, ops/rnn_lstm.go).

func init() {
	familyDgens["gru"] = func(r *rand.Rand) dcase {
		sL, bS, nIn, nOut := 1+r.IntN(3), 1+r.IntN(2), 1+r.IntN(3), 1+r.IntN(3)
		return dcase{in: []dinput{dvar(rnd(r, sL, bS, nIn)), dvar(rnd(r, bS, nOut)), dvar(rnd(r, nIn, 3*nOut)),
			dvar(rnd(r, nOut, 3*nOut)), dvar(rnd(r, 3*nOut))}}
	}
}

func init() {
	familyDgens["lstmLayer"] = func(r *rand.Rand) dcase {
		sL, bS, nIn, nOut := 1+r.IntN(3), 1+r.IntN(2), 1+r.IntN(3), 1+r.IntN(2)
		format, mode := int64(r.IntN(3)), int64(r.IntN(5))
		if mode == 4 {
			format = 3
		}
		// Smooth activations only (tanh, sigmoid, affine, scaled tanh,
		// softsign, softplus) and no clipping: a kink or a clipping
		// boundary would move under the differences.
		smooth := []int64{0, 2, 3, 6, 9, 10}
		var acts [3]int64
		floats := []float64{0}
		for i := range acts {
			acts[i] = smooth[r.IntN(len(smooth))]
			if acts[i] == 3 || acts[i] == 6 {
				floats = append(floats, 0.5+r.Float64(), 0.5+r.Float64())
			}
		}
		var bools [8]bool
		for i := range bools {
			bools[i] = r.IntN(2) == 1
		}
		if !bools[5] && !bools[6] && !bools[7] {
			bools[5+r.IntN(3)] = true
		}
		lead := func(s ...int) []int {
			if mode >= 2 {
				return append([]int{2}, s...)
			}
			return s
		}
		w := func(s ...int) dinput {
			return dvar(ndarray.Must(ndarray.Unary(ndarray.ScaleBy, rnd(r, s...), 0.5)))
		}
		x := []int{sL, bS, nIn}
		switch format {
		case 1:
			x = []int{bS, sL, nIn}
		case 2:
			x = []int{bS, nIn, sL}
		}
		in := []dinput{w(x...), w(lead(nIn, 4*nOut)...), w(lead(nOut, 4*nOut)...)}
		if bools[0] {
			in = append(in, w(lead(4*nOut)...))
		}
		if bools[1] {
			seq := make([]int64, bS)
			for i := range seq {
				seq[i] = int64(r.IntN(sL + 1))
			}
			in = append(in, dfix(ndarray.Must(ndarray.FromSlice(seq, bS))))
		}
		for _, b := range bools[2:4] {
			if b {
				in = append(in, w(lead(bS, nOut)...))
			}
		}
		if bools[4] {
			in = append(in, w(lead(3*nOut)...))
		}
		return dcase{args: ops.Args{I: []int64{format, mode, acts[0], acts[1], acts[2]}, B: bools[:], F: floats}, in: in}
	}
}
