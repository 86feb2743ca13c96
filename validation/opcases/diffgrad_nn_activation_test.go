package opcases_test

import (
	"math"
	"math/rand/v2"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Random differential cases of the activations (ops/nn_activation.go).

// kinkFree returns random values in [-4, 8) at least 0.05 away from each
// of the kinks.
func kinkFree(kinks ...float64) func(r *rand.Rand, s ...int) *ndarray.Array {
	return func(r *rand.Rand, s ...int) *ndarray.Array {
		a := rnd(r, s...)
		v := a.Float64s()
		for i := range v {
		retry:
			v[i] = 12*r.Float64() - 4
			for _, k := range kinks {
				if math.Abs(v[i]-k) < 0.05 {
					goto retry
				}
			}
		}
		return ndarray.Must(ndarray.Wrap(v, s...))
	}
}

// preluCase is a prelu of rank 2 to 4 with random shared axes.
func preluCase(r *rand.Rand) dcase {
	rank := 2 + r.IntN(3)
	s := make([]int, rank)
	for i := range s {
		s[i] = 1 + r.IntN(3)
	}
	as := append([]int(nil), s[1:]...)
	var shared []int64
	for ax := 1; ax < rank; ax++ {
		if r.IntN(3) == 0 {
			as[ax-1] = 1
			shared = append(shared, int64(ax))
		}
	}
	return dcase{args: ops.Args{I: shared}, in: []dinput{dvar(kinkFree(0)(r, s...)), dvar(rnd(r, as...))}}
}

func init() {
	none := func(*rand.Rand) ops.Args { return ops.Args{} }
	f := func(v float64) func(*rand.Rand) ops.Args {
		return func(*rand.Rand) ops.Args { return ops.Args{F: []float64{v}} }
	}
	for name, g := range map[string]dgen{
		"gelu":            unary(rnd, none),
		"precise_gelu":    unary(rnd, none),
		"swish":           unary(rnd, none),
		"mish":            unary(rnd, none),
		"logsigmoid":      unary(rnd, none),
		"softsign":        unary(kinkFree(0), none),
		"rational_tanh":   unary(kinkFree(0), none),
		"cube":            unary(rnd, none),
		"selu":            unary(kinkFree(0), none),
		"hardtanh":        unary(kinkFree(-1, 1), none),
		"hard_sigmoid":    unary(kinkFree(-2.5, 2.5), none),
		"rectified_tanh":  unary(kinkFree(0), none),
		"relu6":           unary(kinkFree(0.5, 6), f(0.5)),
		"elu":             unary(kinkFree(0), f(0.7)),
		"thresholdedrelu": unary(kinkFree(0.3), f(0.3)),
		"prelu":           preluCase,
		// crelu joins along the last axis: rank 1 or more.
		"crelu": func(r *rand.Rand) dcase {
			s := append(randShape(r, 2), 1+r.IntN(3))
			return dcase{in: []dinput{dvar(kinkFree(0)(r, s...))}}
		},
	} {
		familyDgens[name] = g
	}
}
