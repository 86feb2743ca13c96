package opcases_test

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Random differential cases of the statistics, distances and clipping ops
// (ops/math_stats.go, ops/math_distance.go, ops/math_clip.go).

// statShape returns a shape of rank 1..3 with sizes 2..3: every group has
// two elements at least, so that a corrected variance and a standard
// deviation are defined and differentiable.
func statShape(r *rand.Rand) []int {
	s := make([]int, 1+r.IntN(3))
	for i := range s {
		s[i] = 2 + r.IntN(2)
	}
	return s
}

// axesArgs returns random axes of a rank-n array in the dimensions slot
// (nil: every axis) and a random keepDims as bool arg 0.
func axesArgs(r *rand.Rand, n int) ops.Args {
	return ops.Args{Dims: randAxes(r, n), B: []bool{r.IntN(2) == 0}}
}

func init() {
	stats := func(r *rand.Rand) dcase {
		s := statShape(r)
		a := axesArgs(r, len(s))
		a.F = []float64{float64(r.IntN(2))} // bias-corrected or not
		return dcase{args: a, in: []dinput{dvar(rnd(r, s...))}}
	}
	moments := func(r *rand.Rand) dcase {
		s := statShape(r)
		a := ops.Args{B: []bool{r.IntN(2) == 0}}
		for _, i := range randAxes(r, len(s)) {
			a.I = append(a.I, int64(i))
		}
		return dcase{args: a, in: []dinput{dvar(rnd(r, s...))}}
	}
	standardize := func(r *rand.Rand) dcase {
		s := statShape(r)
		ax := randAxes(r, len(s))
		if ax == nil {
			ax = []int{r.IntN(len(s))}
		}
		a := ops.Args{}
		for _, i := range ax {
			a.I = append(a.I, int64(i))
		}
		return dcase{args: a, in: []dinput{dvar(rnd(r, s...))}}
	}
	normMoments := func(r *rand.Rand) dcase {
		s := randShape(r, 2)
		return dcase{args: ops.Args{F: []float64{r.Float64() - 0.5}}, in: []dinput{
			dfix(ndarray.Scalar(2 + float64(r.IntN(4)))), dvar(rnd(r, s...)), dvar(pos(r, 1, 3, s...))}}
	}
	// Probabilities below 1, so that the entropy is positive (logentropy).
	probs := func(r *rand.Rand, s ...int) *ndarray.Array { return pos(r, 0.1, 0.9, s...) }
	dist := func(vals func(r *rand.Rand, shape ...int) *ndarray.Array) dgen {
		return func(r *rand.Rand) dcase {
			s := randShape(r, 3)
			return dcase{args: axesArgs(r, len(s)), in: []dinput{dvar(vals(r, s...)), dvar(vals(r, s...))}}
		}
	}
	// Cosine needs no zero vector: values away from 0.
	nonZero := func(r *rand.Rand, s ...int) *ndarray.Array { return away(r, 0.3, 2, s...) }
	clipNorm := func(r *rand.Rand) dcase {
		s := statShape(r)
		a := ops.Args{F: []float64{0.3 + 2*r.Float64()}}
		for _, i := range randAxes(r, len(s)) {
			a.I = append(a.I, int64(i))
		}
		return dcase{args: a, in: []dinput{dvar(rnd(r, s...))}}
	}
	for name, g := range map[string]dgen{
		"var":               stats,
		"std":               stats,
		"moments":           moments,
		"normalize_moments": normMoments,
		"standardize":       standardize,
		"entropy":           reduction(probs, true),
		"logentropy":        reduction(probs, true),
		"shannonentropy":    reduction(probs, true),
		"manhattan":         dist(rnd),
		"euclidean":         dist(rnd),
		"cosinesimilarity":  dist(nonZero),
		"cosinedistance":    dist(nonZero),
		"jaccarddistance":   dist(func(r *rand.Rand, s ...int) *ndarray.Array { return pos(r, 0.2, 2, s...) }),
		"ClipByValue": unary(rnd, func(r *rand.Rand) ops.Args {
			lo := -r.Float64()
			return ops.Args{F: []float64{lo, lo + 0.2 + r.Float64()}}
		}),
		"clipbynorm":    clipNorm,
		"clipbyavgnorm": clipNorm,
	} {
		familyDgens[name] = g
	}
}
