package train

import (
	"fmt"
	"math"

	"github.com/sdgo/sdgo/ndarray"
)

// Updater turns a parameter's gradient into a change of the parameter.
type Updater interface {
	// Name is the updater's name in messages ("Adam", ...).
	Name() string
	// StateKeys names the arrays of state the updater keeps per parameter,
	// each of the parameter's shape (SameDiff's keys: "M" and "V" for Adam).
	StateKeys() []string
	// LearningRate returns the learning rate at an iteration and epoch.
	LearningRate(iteration, epoch int) float64
	// apply changes param in place, given its gradient and state (one array
	// per key), at iteration it (counted from 0) and epoch ep.
	apply(param, grad *ndarray.Array, state []*ndarray.Array, it, ep int) error
	check() error
}

// SGD is plain gradient descent: p -= lr·g.
type SGD struct {
	LR Schedule
}

// NewSGD returns gradient descent with a fixed learning rate.
func NewSGD(lr float64) *SGD { return &SGD{LR: Fixed(lr)} }

func (u *SGD) Name() string                    { return "Sgd" }
func (u *SGD) StateKeys() []string             { return nil }
func (u *SGD) LearningRate(it, ep int) float64 { return u.LR.Value(it, ep) }
func (u *SGD) check() error                    { return checkSchedule("Sgd", u.LR) }

func (u *SGD) apply(p, g *ndarray.Array, _ []*ndarray.Array, it, ep int) error {
	lr := u.LearningRate(it, ep)
	return each2(p, g, func(pf, gf []float32) {
		l := float32(lr)
		for i := range pf {
			pf[i] -= l * gf[i]
		}
	}, func(pd, gd []float64) {
		for i := range pd {
			pd[i] -= lr * gd[i]
		}
	})
}

// Momentum is gradient descent with momentum: v = μ·v - lr·g; p += v. With
// Nesterov set it uses Nesterov's lookahead (DL4J's Nesterovs updater):
// p += -μ·v_prev + (1+μ)·v.
type Momentum struct {
	LR       Schedule
	Momentum float64
	Nesterov bool
}

// NewMomentum returns momentum SGD with a fixed learning rate.
func NewMomentum(lr, mu float64, nesterov bool) *Momentum {
	return &Momentum{LR: Fixed(lr), Momentum: mu, Nesterov: nesterov}
}

func (u *Momentum) Name() string {
	if u.Nesterov {
		return "Nesterovs"
	}
	return "Momentum"
}
func (u *Momentum) StateKeys() []string             { return []string{"V"} }
func (u *Momentum) LearningRate(it, ep int) float64 { return u.LR.Value(it, ep) }
func (u *Momentum) check() error {
	if u.Momentum < 0 || u.Momentum >= 1 {
		return fmt.Errorf("train: momentum %v must be in [0, 1)", u.Momentum)
	}
	return checkSchedule(u.Name(), u.LR)
}

func (u *Momentum) apply(p, g *ndarray.Array, st []*ndarray.Array, it, ep int) error {
	lr, mu := u.LearningRate(it, ep), u.Momentum
	return each3(p, g, st[0], func(p, g, v []float64) {
		for i := range p {
			prev := v[i]
			v[i] = mu*v[i] - lr*g[i]
			if u.Nesterov {
				p[i] += -mu*prev + (1+mu)*v[i]
			} else {
				p[i] += v[i]
			}
		}
	}, func(p, g, v []float32) {
		l, m := float32(lr), float32(mu)
		for i := range p {
			prev := v[i]
			v[i] = m*v[i] - l*g[i]
			if u.Nesterov {
				p[i] += -m*prev + (1+m)*v[i]
			} else {
				p[i] += v[i]
			}
		}
	})
}

// Adam is Kingma and Ba's updater; with WeightDecay it is AdamW (Loshchilov
// and Hutter): the decay p -= lr·wd·p is applied apart from the gradient.
type Adam struct {
	LR                    Schedule
	Beta1, Beta2, Epsilon float64
	// WeightDecay > 0 makes this AdamW.
	WeightDecay float64
}

// NewAdam returns Adam with the usual defaults (β1 0.9, β2 0.999, ε 1e-8).
func NewAdam(lr float64) *Adam {
	return &Adam{LR: Fixed(lr), Beta1: 0.9, Beta2: 0.999, Epsilon: 1e-8}
}

// NewAdamW returns AdamW with decoupled weight decay wd.
func NewAdamW(lr, wd float64) *Adam {
	a := NewAdam(lr)
	a.WeightDecay = wd
	return a
}

func (u *Adam) Name() string {
	if u.WeightDecay > 0 {
		return "AdamW"
	}
	return "Adam"
}
func (u *Adam) StateKeys() []string             { return []string{"M", "V"} }
func (u *Adam) LearningRate(it, ep int) float64 { return u.LR.Value(it, ep) }
func (u *Adam) check() error {
	if u.Beta1 < 0 || u.Beta1 >= 1 || u.Beta2 < 0 || u.Beta2 >= 1 {
		return fmt.Errorf("train: %s betas %v, %v must be in [0, 1)", u.Name(), u.Beta1, u.Beta2)
	}
	if !(u.Epsilon > 0) {
		return fmt.Errorf("train: %s epsilon %v must be positive", u.Name(), u.Epsilon)
	}
	if u.WeightDecay < 0 {
		return fmt.Errorf("train: weight decay %v must not be negative", u.WeightDecay)
	}
	return checkSchedule(u.Name(), u.LR)
}

func (u *Adam) apply(p, g *ndarray.Array, st []*ndarray.Array, it, ep int) error {
	lr := u.LearningRate(it, ep)
	b1, b2, eps, wd := u.Beta1, u.Beta2, u.Epsilon, u.WeightDecay
	t := float64(it + 1)
	// Bias corrections folded into the step size, as in the paper's
	// efficient form: α_t = lr·√(1-β2^t)/(1-β1^t).
	alpha := lr * math.Sqrt(1-math.Pow(b2, t)) / (1 - math.Pow(b1, t))
	epsHat := eps * math.Sqrt(1-math.Pow(b2, t))
	return each4(p, g, st[0], st[1], func(p, g, m, v []float64) {
		for i := range p {
			m[i] = b1*m[i] + (1-b1)*g[i]
			v[i] = b2*v[i] + (1-b2)*g[i]*g[i]
			p[i] -= alpha*m[i]/(math.Sqrt(v[i])+epsHat) + lr*wd*p[i]
		}
	}, func(p, g, m, v []float32) {
		fb1, fb2, fa, fe, fd := float32(b1), float32(b2), float32(alpha), float32(epsHat), float32(lr*wd)
		for i := range p {
			m[i] = fb1*m[i] + (1-fb1)*g[i]
			v[i] = fb2*v[i] + (1-fb2)*g[i]*g[i]
			p[i] -= fa*m[i]/(float32(math.Sqrt(float64(v[i])))+fe) + fd*p[i]
		}
	})
}

// The loops above run on packed arrays of one dtype; these helpers check
// that and pick the typed slices.

func packed(arrs ...*ndarray.Array) error {
	for _, a := range arrs {
		if !a.IsPacked() || a.DType() != arrs[0].DType() || !ndarray.SameShape(a.Shape(), arrs[0].Shape()) {
			return fmt.Errorf("train: updater arrays must be packed and alike: %v vs %v", a, arrs[0])
		}
	}
	return nil
}

func f64s(a *ndarray.Array) []float64 {
	return ndarray.Raw[float64](a)[a.Offset() : a.Offset()+a.Size()]
}

func f32s(a *ndarray.Array) []float32 {
	return ndarray.Raw[float32](a)[a.Offset() : a.Offset()+a.Size()]
}

func each2(p, g *ndarray.Array, f32 func(p, g []float32), f64 func(p, g []float64)) error {
	if err := packed(p, g); err != nil {
		return err
	}
	switch p.DType() {
	case ndarray.Float32:
		f32(f32s(p), f32s(g))
	case ndarray.Float64:
		f64(f64s(p), f64s(g))
	default:
		return fmt.Errorf("train: cannot update a %v parameter", p.DType())
	}
	return nil
}

func each3(p, g, a *ndarray.Array, f64 func(p, g, a []float64), f32 func(p, g, a []float32)) error {
	if err := packed(p, g, a); err != nil {
		return err
	}
	switch p.DType() {
	case ndarray.Float32:
		f32(f32s(p), f32s(g), f32s(a))
	case ndarray.Float64:
		f64(f64s(p), f64s(g), f64s(a))
	default:
		return fmt.Errorf("train: cannot update a %v parameter", p.DType())
	}
	return nil
}

func each4(p, g, a, b *ndarray.Array, f64 func(p, g, a, b []float64), f32 func(p, g, a, b []float32)) error {
	if err := packed(p, g, a, b); err != nil {
		return err
	}
	switch p.DType() {
	case ndarray.Float32:
		f32(f32s(p), f32s(g), f32s(a), f32s(b))
	case ndarray.Float64:
		f64(f64s(p), f64s(g), f64s(a), f64s(b))
	default:
		return fmt.Errorf("train: cannot update a %v parameter", p.DType())
	}
	return nil
}
