package opcases_test

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Random differential cases of the legacy scalar ops (ops/math_scalar.go).

// scalarArg is a legacy scalar op's number, drawn from [-2, 2).
func scalarArg(r *rand.Rand) ops.Args { return ops.Args{F: []float64{4*r.Float64() - 2}} }

// zeroArg is a legacy scalar op's number 0.
func zeroArg(*rand.Rand) ops.Args { return ops.Args{F: []float64{0}} }

func init() {
	awayFrom := func(lo float64) func(r *rand.Rand, s ...int) *ndarray.Array {
		return func(r *rand.Rand, s ...int) *ndarray.Array { return away(r, lo, 2, s...) }
	}
	for name, g := range map[string]dgen{
		"add_scalar":  unary(rnd, scalarArg),
		"sub_scalar":  unary(rnd, scalarArg),
		"mul_scalar":  unary(rnd, scalarArg),
		"div_scalar":  unary(rnd, func(r *rand.Rand) ops.Args { return ops.Args{F: []float64{0.5 + r.Float64()}} }),
		"rdiv_scalar": unary(awayFrom(0.5), scalarArg),
		"rsub_scalar": unary(rnd, scalarArg),
		// x away from the kink at s = 0.
		"max_scalar": unary(awayFrom(0.1), zeroArg),
		"scalar_min": unary(awayFrom(0.1), zeroArg),
	} {
		familyDgens[name] = g
	}
}
