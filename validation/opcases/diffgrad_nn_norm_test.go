package opcases_test

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ops"
)

// Random differential cases of the normalisation and layer ops
// (ops/nn_norm.go, ops/nn_layer.go).

func init() {
	dims := func(r *rand.Rand) (int, int, int) { return 1 + r.IntN(3), 1 + r.IntN(3), 1 + r.IntN(3) }
	linear := func(r *rand.Rand) dcase {
		n, k, m := dims(r)
		return dcase{in: []dinput{dvar(rnd(r, n, k)), dvar(rnd(r, k, m)), dvar(rnd(r, m))}}
	}
	for name, g := range map[string]dgen{
		"batchnorm": func(r *rand.Rand) dcase {
			a, c, w := dims(r)
			return dcase{args: ops.Args{I: []int64{1, 1, 1}, F: []float64{1e-3}},
				in: []dinput{dvar(rnd(r, a, c, w)), dvar(rnd(r, c)), dvar(pos(r, 0.5, 2, c)), dvar(rnd(r, c)), dvar(rnd(r, c))}}
		},
		"layer_norm": func(r *rand.Rand) dcase {
			a, c, w := dims(r)
			return dcase{args: ops.Args{I: []int64{1, 2}},
				in: []dinput{dvar(rnd(r, a, c+1, w+1)), dvar(rnd(r, c+1)), dvar(rnd(r, c+1))}}
		},
		"xw_plus_b": linear,
		// Away from relu's kink: x·w + b rarely lands within the
		// differences' step of 0 for normal inputs.
		"relu_layer": linear,
		"top_k": func(r *rand.Rand) dcase {
			a, n, _ := dims(r)
			// Distinct values: a tie would move under the differences.
			return dcase{args: ops.Args{I: []int64{int64(1 + r.IntN(n+1))}}, in: []dinput{dvar(offGrid(r, a, n+1))}}
		},
	} {
		familyDgens[name] = g
	}
}
