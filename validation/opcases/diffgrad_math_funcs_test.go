package opcases_test

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Random differential cases of SDMath's trigonometric, hyperbolic and
// special functions and their scalar and pairwise forms
// (ops/math_trig.go, ops/math_special.go, log_x, step and fmod_scalar).

func init() {
	within := func(lo, hi float64) func(r *rand.Rand, s ...int) *ndarray.Array {
		return func(r *rand.Rand, s ...int) *ndarray.Array { return pos(r, lo, hi, s...) }
	}
	signed := func(lo, hi float64) func(r *rand.Rand, s ...int) *ndarray.Array {
		return func(r *rand.Rand, s ...int) *ndarray.Array { return away(r, lo, hi, s...) }
	}
	// ±1: x/y is ±x, which offGrid keeps clear of mod's jumps.
	unit := signed(1, 1)
	base := func(r *rand.Rand) ops.Args {
		bs := []float64{2, 3, 0.5, 10}
		return ops.Args{F: []float64{bs[r.IntN(len(bs))]}}
	}
	one := func(*rand.Rand) ops.Args { return ops.Args{F: []float64{1}} }
	for name, g := range map[string]dgen{
		"tan":   unary(signed(0, 1.2), nil),
		"asin":  unary(signed(0, 0.9), nil),
		"acos":  unary(signed(0, 0.9), nil),
		"atan":  unary(rnd, nil),
		"sinh":  unary(rnd, nil),
		"cosh":  unary(rnd, nil),
		"asinh": unary(rnd, nil),
		"acosh": unary(within(1.2, 4), nil),
		"atanh": unary(signed(0, 0.9), nil),
		// x away from 0 keeps the point clear of the origin.
		"tf_atan2":    binary(rnd, signed(0.3, 2)),
		"erf":         unary(rnd, nil),
		"erfc":        unary(rnd, nil),
		"lgamma":      unary(within(0.3, 5), nil),
		"rint":        unary(offGrid, nil),
		"log_x":       unary(within(0.3, 3), base),
		"step":        unary(offGrid, func(*rand.Rand) ops.Args { return ops.Args{F: []float64{0}} }),
		"fmod_scalar": unary(offGrid, one),

		"divide_no_nan":   binary(rnd, signed(0.5, 2)),
		"mod":             binary(offGrid, unit),
		"reversedivide":   binary(signed(0.5, 2), rnd),
		"reversesubtract": binary(rnd, rnd),
	} {
		familyDgens[name] = g
	}
}
