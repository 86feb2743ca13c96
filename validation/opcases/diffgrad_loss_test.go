package opcases_test

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Random differential cases of the loss ops (ops/loss_*.go): predictions,
// weights broadcasting to them and labels broadcasting to them, in a
// random reduction mode.

// elemLossGen draws an elementwise loss's case: preds and labels give the
// predictions' and the labels' values, args the float args.
func elemLossGen(preds, labels func(r *rand.Rand, shape ...int) *ndarray.Array, args func(r *rand.Rand) []float64) dgen {
	return func(r *rand.Rand) dcase {
		s := randShape(r, 3)
		sl := broadcastable(r, s, 3, 1)
		w := pos(r, 0.5, 2, broadcastable(r, s, 2, 3)...)
		a := ops.Args{I: []int64{int64(r.IntN(4))}}
		if args != nil {
			a.F = args(r)
		}
		return dcase{args: a, in: []dinput{dvar(preds(r, s...)), dvar(w), dvar(labels(r, sl...))}}
	}
}

func init() {
	unit := func(r *rand.Rand, s ...int) *ndarray.Array { return pos(r, 0.1, 0.9, s...) }
	for name, g := range map[string]dgen{
		"absolute_difference_loss": elemLossGen(rnd, func(r *rand.Rand, s ...int) *ndarray.Array { return away(r, 3, 4, s...) }, nil),
		"hinge_loss":               elemLossGen(func(r *rand.Rand, s ...int) *ndarray.Array { return away(r, 0.2, 0.8, s...) }, unit, nil),
		"huber_loss": elemLossGen(rnd, func(r *rand.Rand, s ...int) *ndarray.Array { return pos(r, 5, 6, s...) },
			func(r *rand.Rand) []float64 { return []float64{[]float64{1, 10}[r.IntN(2)]} }),
		"log_loss":         elemLossGen(unit, unit, func(r *rand.Rand) []float64 { return []float64{1e-7} }),
		"log_poisson_loss": elemLossGen(rnd, func(r *rand.Rand, s ...int) *ndarray.Array { return pos(r, 0.5, 3, s...) }, nil),
		"sigm_cross_entropy_loss": elemLossGen(rnd, unit, func(r *rand.Rand) []float64 {
			return []float64{0.3 * r.Float64()}
		}),
	} {
		familyDgens[name] = g
	}
}

func init() {
	for name, g := range map[string]dgen{
		"l2_loss": unary(rnd, nil),
		"softmax_cross_entropy_loss_with_logits": func(r *rand.Rand) dcase {
			s := append(randShape(r, 2), 1+r.IntN(3))
			a := ops.Args{}
			if r.IntN(2) == 0 {
				a.I = []int64{int64(r.IntN(len(s)) - r.IntN(2)*len(s))}
			}
			return dcase{args: a, in: []dinput{dvar(rnd(r, s...)), dvar(pos(r, 0, 1, s...))}}
		},
		"sparse_softmax_cross_entropy_loss_with_logits": func(r *rand.Rand) dcase {
			s := append(randShape(r, 2), 1+r.IntN(3))
			k := s[len(s)-1]
			lab := ndarray.Must(ndarray.Zeros(ndarray.Int64, s[:len(s)-1]...))
			v := ndarray.Raw[int64](lab)
			for i := range v {
				v[i] = int64(r.IntN(k))
			}
			return dcase{in: []dinput{dfix(lab), dvar(rnd(r, s...))}}
		},
		"weighted_cross_entropy_with_logits": func(r *rand.Rand) dcase {
			s := append(randShape(r, 2), 1+r.IntN(3))
			var q *ndarray.Array
			if r.IntN(2) == 0 {
				q = pos(r, 0.5, 2)
			} else {
				q = pos(r, 0.5, 2, s[len(s)-1])
			}
			return dcase{in: []dinput{dvar(pos(r, 0, 1, s...)), dvar(rnd(r, s...)), dvar(q)}}
		},
	} {
		familyDgens[name] = g
	}
}

func init() {
	familyDgens["cosine_distance_loss"] = func(r *rand.Rand) dcase {
		s := append([]int{1 + r.IntN(3)}, randShape(r, 2)...)
		d := r.IntN(len(s))
		per := append([]int{}, s...)
		per[d] = 1
		a := ops.Args{I: []int64{int64(r.IntN(4)), int64(d - r.IntN(2)*len(s))}}
		return dcase{args: a, in: []dinput{dvar(rnd(r, s...)), dvar(pos(r, 0.5, 2, broadcastable(r, per, 2, 3)...)), dvar(rnd(r, s...))}}
	}
	familyDgens["mean_pairwssqerr_loss"] = func(r *rand.Rand) dcase {
		s := append([]int{1 + r.IntN(3), 2 + r.IntN(2)}, randShape(r, 1)...)
		per := make([]int, len(s))
		for i := range per {
			per[i] = 1
		}
		per[0] = s[0]
		a := ops.Args{I: []int64{int64(r.IntN(4))}}
		return dcase{args: a, in: []dinput{dvar(rnd(r, s...)), dvar(pos(r, 0.5, 2, broadcastable(r, per, 2, 3)...)), dvar(rnd(r, s...))}}
	}
}

func init() {
	// ctc_loss: random labels (never the blank; repeats allowed) and
	// lengths that leave an alignment (labels plus repeats within the
	// frames), padding past them, a random blank.
	familyDgens["ctc_loss"] = func(r *rand.Rand) dcase {
		b, k := 1+r.IntN(2), 2+r.IntN(3)
		maxT, maxS := 1+r.IntN(5), 1+r.IntN(3)
		blank := r.IntN(k)
		lab := make([]int64, b*maxS)
		ls, lt := make([]int64, b), make([]int64, b)
		for i := 0; i < b; i++ {
			lt[i] = int64(1 + r.IntN(maxT))
			need := 0
			for s := 0; s < maxS; s++ {
				lab[i*maxS+s] = int64((blank + 1 + r.IntN(k-1)) % k)
			}
			for s := 0; s < maxS; s++ {
				rep := 0
				if s > 0 && lab[i*maxS+s] == lab[i*maxS+s-1] {
					rep = 1
				}
				if need+1+rep > int(lt[i]) {
					break
				}
				need += 1 + rep
				ls[i]++
			}
		}
		return dcase{args: ops.Args{I: []int64{int64(blank)}}, in: []dinput{
			dfix(ndarray.Must(ndarray.FromSlice(lab, b, maxS))), dvar(rnd(r, b, maxT, k)),
			dfix(ndarray.Must(ndarray.FromSlice(ls, b))), dfix(ndarray.Must(ndarray.FromSlice(lt, b)))}}
	}
}
