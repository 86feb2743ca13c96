package opcases_test

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ops"
)

// Random differential cases of the diagonal ops, trace and cross
// (ops/linalg_diag.go): random batch shapes and matrix sizes.

func init() {
	size := func(r *rand.Rand) int { return 1 + r.IntN(3) }
	batch := func(r *rand.Rand) []int { return randShape(r, 2) }
	mat := func(r *rand.Rand) []int { return append(batch(r), size(r), size(r)) }
	for name, g := range map[string]dgen{
		"diag": func(r *rand.Rand) dcase {
			s := randShape(r, 3)
			return dcase{in: []dinput{dvar(rnd(r, s...))}}
		},
		"diag_part": func(r *rand.Rand) dcase {
			s := nonEmpty(r, 3)
			return dcase{in: []dinput{dvar(rnd(r, append(append([]int(nil), s...), s...)...))}}
		},
		"matrix_diag_part": func(r *rand.Rand) dcase { return dcase{in: []dinput{dvar(rnd(r, mat(r)...))}} },
		"trace":            func(r *rand.Rand) dcase { return dcase{in: []dinput{dvar(rnd(r, mat(r)...))}} },
		"matrix_set_diag": func(r *rand.Rand) dcase {
			s := mat(r)
			d := append(append([]int(nil), s[:len(s)-2]...), min(s[len(s)-2], s[len(s)-1]))
			return dcase{in: []dinput{dvar(rnd(r, s...)), dvar(rnd(r, d...))}}
		},
		"cross": func(r *rand.Rand) dcase {
			s := append(batch(r), 3)
			return dcase{args: ops.Args{}, in: []dinput{dvar(rnd(r, s...)), dvar(rnd(r, s...))}}
		},
	} {
		familyDgens[name] = g
	}
}
