package train_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/train"
)

// refCase is an updater with regularization, and a plain-Go reference step
// written from the formulas (DL4J's conventions for L2, WeightDecay and
// Nesterovs; Kingma and Ba's Algorithm 1 and Loshchilov and Hutter's AdamW
// for Adam) that changes w and the state s given the gradient g at
// iteration it.
type refCase struct {
	name string
	u    func() train.Updater
	reg  func() []train.Regularization
	step func(w, g []float64, s [][]float64, it int)
}

func refCases() []refCase {
	lrAt := func(it int) float64 { return 0.1 * math.Pow(0.5, math.Floor(float64(it)/2)) } // Step{0.1, 0.5, 2}
	stepLR := func() train.Schedule { return train.Step{Initial: 0.1, Decay: 0.5, Step: 2} }
	adam := func(w, g, m, v []float64, it int, lr, wd float64) {
		b1, b2, eps := 0.9, 0.999, 1e-8
		t := float64(it + 1)
		for i := range w {
			m[i] = b1*m[i] + (1-b1)*g[i]
			v[i] = b2*v[i] + (1-b2)*g[i]*g[i]
			mh, vh := m[i]/(1-math.Pow(b1, t)), v[i]/(1-math.Pow(b2, t))
			w[i] -= lr*mh/(math.Sqrt(vh)+eps) + lr*wd*w[i]
		}
	}
	return []refCase{
		{"SGD", func() train.Updater { return &train.SGD{LR: stepLR()} }, nil,
			func(w, g []float64, _ [][]float64, it int) {
				for i := range w {
					w[i] -= lrAt(it) * g[i]
				}
			}},
		{"Momentum", func() train.Updater { return &train.Momentum{LR: stepLR(), Momentum: 0.9} }, nil,
			func(w, g []float64, s [][]float64, it int) {
				v := s[0]
				for i := range w {
					v[i] = 0.9*v[i] - lrAt(it)*g[i]
					w[i] += v[i]
				}
			}},
		{"Nesterovs", func() train.Updater { return &train.Momentum{LR: stepLR(), Momentum: 0.9, Nesterov: true} }, nil,
			// DL4J: vPrev = v; v = μv - lr·g; update = μ·vPrev - (1+μ)·v; w -= update.
			func(w, g []float64, s [][]float64, it int) {
				v := s[0]
				for i := range w {
					prev := v[i]
					v[i] = 0.9*v[i] - lrAt(it)*g[i]
					w[i] -= 0.9*prev - 1.9*v[i]
				}
			}},
		{"Adam", func() train.Updater {
			a := train.NewAdam(0.01)
			a.LR = train.Exponential{Initial: 0.01, Gamma: 0.9}
			return a
		}, nil,
			func(w, g []float64, s [][]float64, it int) {
				adam(w, g, s[0], s[1], it, 0.01*math.Pow(0.9, float64(it)), 0)
			}},
		{"AdamW", func() train.Updater { return train.NewAdamW(0.01, 0.1) }, nil,
			func(w, g []float64, s [][]float64, it int) { adam(w, g, s[0], s[1], it, 0.01, 0.1) }},
		{"SGD+L2", func() train.Updater { return train.NewSGD(0.1) }, func() []train.Regularization { return []train.Regularization{train.NewL2(0.3)} },
			func(w, g []float64, _ [][]float64, it int) {
				for i := range w {
					w[i] -= 0.1 * (g[i] + 0.3*w[i])
				}
			}},
		{"Adam+L2", func() train.Updater { return train.NewAdam(0.01) }, func() []train.Regularization { return []train.Regularization{train.NewL2(0.3)} },
			func(w, g []float64, s [][]float64, it int) {
				gl := make([]float64, len(g))
				for i := range g {
					gl[i] = g[i] + 0.3*w[i]
				}
				adam(w, gl, s[0], s[1], it, 0.01, 0)
			}},
		// DL4J's WeightDecay (POST_UPDATER): update = updater(g) + lr·coeff·w,
		// then w -= update, w being the parameter before this step.
		{"SGD+WeightDecay", func() train.Updater { return &train.SGD{LR: stepLR()} },
			func() []train.Regularization { return []train.Regularization{train.NewWeightDecay(0.3)} },
			func(w, g []float64, _ [][]float64, it int) {
				for i := range w {
					w[i] -= lrAt(it)*g[i] + lrAt(it)*0.3*w[i]
				}
			}},
		{"Nesterovs+WeightDecay", func() train.Updater { return train.NewMomentum(0.1, 0.9, true) },
			func() []train.Regularization { return []train.Regularization{train.NewWeightDecay(0.3)} },
			func(w, g []float64, s [][]float64, it int) {
				v := s[0]
				for i := range w {
					prev := v[i]
					v[i] = 0.9*v[i] - 0.1*g[i]
					w[i] -= 0.9*prev - 1.9*v[i] + 0.1*0.3*w[i]
				}
			}},
		{"Momentum+WeightDecay", func() train.Updater { return train.NewMomentum(0.1, 0.9, false) },
			func() []train.Regularization { return []train.Regularization{train.NewWeightDecay(0.3)} },
			func(w, g []float64, s [][]float64, it int) {
				v := s[0]
				for i := range w {
					v[i] = 0.9*v[i] - 0.1*g[i]
					w[i] += v[i] - 0.1*0.3*w[i]
				}
			}},
		{"Adam+WeightDecay(noLR)", func() train.Updater { return train.NewAdam(0.01) },
			func() []train.Regularization {
				return []train.Regularization{&train.WeightDecay{Coeff: train.Fixed(0.01)}}
			},
			func(w, g []float64, s [][]float64, it int) {
				w0 := append([]float64(nil), w...)
				adam(w, g, s[0], s[1], it, 0.01, 0)
				for i := range w {
					w[i] -= 0.01 * w0[i]
				}
			}},
	}
}

// Every updater, with schedules and regularization, over several steps on
// a random vector with a new target each step, against the reference, in
// both float dtypes.
func TestUpdatersAgainstReference(t *testing.T) {
	const n, steps = 7, 6
	for _, c := range refCases() {
		for _, dt := range []ndarray.DType{ndarray.Float64, ndarray.Float32} {
			t.Run(c.name+"/"+dt.String(), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(1, 2))
				w0 := make([]float64, n)
				for i := range w0 {
					w0[i] = rng.NormFloat64()
				}
				targets := make([][]float64, steps)
				for k := range targets {
					targets[k] = make([]float64, n)
					for i := range targets[k] {
						targets[k][i] = rng.NormFloat64()
					}
				}
				if dt == ndarray.Float32 {
					// Start the reference from the values float32 holds.
					for _, s := range append([][]float64{w0}, targets...) {
						for i := range s {
							s[i] = float64(float32(s[i]))
						}
					}
				}
				g := graph.New()
				x := g.Placeholder("x", dt, n)
				w := g.Var("w", ndarray.Must(ndarray.Cast(ndarray.Must(ndarray.FromSlice(append([]float64(nil), w0...))), dt)))
				g.Math().Square(w.Sub(x)).Sum().MulScalar(0.5).Named("loss")
				var reg []train.Regularization
				if c.reg != nil {
					reg = c.reg()
				}
				u := c.u()
				tr, err := train.New(g, &train.Config{Updater: u, Regularization: reg, Features: []string{"x"}, Losses: []string{"loss"}})
				if err != nil {
					t.Fatal(err)
				}
				ref := append([]float64(nil), w0...)
				state := make([][]float64, len(u.StateKeys()))
				for i := range state {
					state[i] = make([]float64, n)
				}
				tol := tolerance(dt)
				for k := 0; k < steps; k++ {
					feed := ndarray.Must(ndarray.Cast(ndarray.Must(ndarray.FromSlice(append([]float64(nil), targets[k]...))), dt))
					if _, err := tr.Step(&train.Batch{Features: []*ndarray.Array{feed}}); err != nil {
						t.Fatal(err)
					}
					grad := make([]float64, n)
					for i := range grad {
						grad[i] = ref[i] - targets[k][i]
					}
					c.step(ref, grad, state, k)
					got := w.Value().Float64s()
					for i := range ref {
						if math.Abs(got[i]-ref[i]) > tol*math.Max(1, math.Abs(ref[i])) {
							t.Fatalf("step %d: w[%d] = %.17g, reference %.17g (diff %.3g)", k, i, got[i], ref[i], got[i]-ref[i])
						}
					}
				}
			})
		}
	}
}
