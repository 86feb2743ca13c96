package train

import (
	"fmt"
	"math"

	"github.com/sdgo/sdgo/kernels"
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
	// prepare returns the step's update with learning rate lr at
	// iteration it (counted from 0), which changes a parameter in place
	// given its gradient and state (one array per key); it also takes
	// decay·p off each element p, p as it was before the step (the
	// regularization's weight decay). The trainer reads the learning rate
	// once a step, and checks it, for all parameters.
	prepare(lr, decay float64, it int) update
	check() error
}

// SGD is plain gradient descent: p -= lr·g.
type SGD struct {
	LR Schedule
}

// NewSGD returns gradient descent with a fixed learning rate.
func NewSGD(lr float64) *SGD { return &SGD{LR: Fixed(lr)} }

// Name returns "Sgd", DL4J's name for the updater.
func (u *SGD) Name() string { return "Sgd" }

// StateKeys returns nil: plain gradient descent keeps no state.
func (u *SGD) StateKeys() []string { return nil }

// LearningRate returns the value of u.LR at iteration it and epoch ep.
func (u *SGD) LearningRate(it, ep int) float64 { return u.LR.Value(it, ep) }

func (u *SGD) check() error { return checkSchedule("Sgd", u.LR) }

func (u *SGD) prepare(lr, decay float64, _ int) update {
	// The step reads p only for the decay: shrinking p first is the same
	// as taking decay·p off with the gradient's step.
	return update{func(x [4][]float32, _ []float32) { sgdStep(x, lr, decay) },
		func(x [4][]float64, _ []float64) { sgdStep(x, lr, decay) }}
}

// sgdStep updates x = {p, g}.
func sgdStep[T kernels.Float](x [4][]T, lr, decay float64) {
	if decay != 0 {
		kernels.For[T]().Scale(x[0], x[0], T(1-decay))
	}
	axpy(x[0], -lr, x[1])
}

// axpy is dst += a·x with the kernels.
func axpy[T kernels.Float](dst []T, a float64, x []T) { kernels.For[T]().Axpy(dst, T(a), x) }

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

// Name returns "Nesterovs" (DL4J's name) when Nesterov is set, else
// "Momentum".
func (u *Momentum) Name() string {
	if u.Nesterov {
		return "Nesterovs"
	}
	return "Momentum"
}

// StateKeys returns {"V"}: the velocity v, one array per parameter.
func (u *Momentum) StateKeys() []string { return []string{"V"} }

// LearningRate returns the value of u.LR at iteration it and epoch ep.
func (u *Momentum) LearningRate(it, ep int) float64 { return u.LR.Value(it, ep) }

func (u *Momentum) check() error {
	if !(u.Momentum >= 0 && u.Momentum < 1) { // and not NaN
		return fmt.Errorf("train: momentum %v must be in [0, 1)", u.Momentum)
	}
	return checkSchedule(u.Name(), u.LR)
}

func (u *Momentum) prepare(lr, decay float64, _ int) update {
	mu, nesterov := u.Momentum, u.Nesterov
	return update{func(x [4][]float32, s []float32) { momentumStep(x, s, lr, mu, decay, nesterov) },
		func(x [4][]float64, s []float64) { momentumStep(x, s, lr, mu, decay, nesterov) }}
}

// momentumStep updates x = {p, g, v}: momentumLoop's arithmetic, a chunk
// of scratch's length at a time on the vector kernels (see updChunk).
func momentumStep[T kernels.Float](x [4][]T, scratch []T, lr, mu, decay float64, nesterov bool) {
	k := kernels.For[T]()
	l, m, d := T(lr), T(mu), T(decay)
	for lo := 0; lo < len(x[0]); lo += len(scratch) {
		hi := min(lo+len(scratch), len(x[0]))
		p, g, v, prev := x[0][lo:hi], x[1][lo:hi], x[2][lo:hi], scratch[:hi-lo]
		if nesterov {
			copy(prev, v)
		}
		k.Scale(v, v, m)
		k.Axpy(v, -l, g)
		if d != 0 {
			k.Scale(p, p, 1-d)
		}
		if nesterov {
			k.Axpy(p, -m, prev)
			k.Axpy(p, 1+m, v)
		} else {
			k.Add(p, p, v)
		}
	}
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

// Name returns "AdamW" when WeightDecay is above 0, else "Adam".
func (u *Adam) Name() string {
	if u.WeightDecay > 0 {
		return "AdamW"
	}
	return "Adam"
}

// StateKeys returns {"M", "V"}: the moving averages of the gradient (decay
// Beta1) and of its square (decay Beta2), one array of each per parameter.
func (u *Adam) StateKeys() []string { return []string{"M", "V"} }

// LearningRate returns the value of u.LR at iteration it and epoch ep.
func (u *Adam) LearningRate(it, ep int) float64 { return u.LR.Value(it, ep) }

func (u *Adam) check() error {
	if !(u.Beta1 >= 0 && u.Beta1 < 1 && u.Beta2 >= 0 && u.Beta2 < 1) { // and not NaN
		return fmt.Errorf("train: %s betas %v, %v must be in [0, 1)", u.Name(), u.Beta1, u.Beta2)
	}
	if !(u.Epsilon > 0) || math.IsInf(u.Epsilon, 0) {
		return fmt.Errorf("train: %s epsilon %v must be a positive number", u.Name(), u.Epsilon)
	}
	if !finiteNonNeg(u.WeightDecay) {
		// NaN is not "> 0": it would make the updater Adam, and unwritten
		// to the JSON, and the parameters NaN.
		return fmt.Errorf("train: weight decay %v must be a number, not negative", u.WeightDecay)
	}
	return checkSchedule(u.Name(), u.LR)
}

func (u *Adam) prepare(lr, decay float64, it int) update {
	b1, b2, eps, wd := u.Beta1, u.Beta2, u.Epsilon, u.WeightDecay
	t := float64(it + 1)
	// Bias corrections folded into the step size, as in the paper's
	// efficient form: α_t = lr·√(1-β2^t)/(1-β1^t).
	alpha := lr * math.Sqrt(1-math.Pow(b2, t)) / (1 - math.Pow(b1, t))
	epsHat := eps * math.Sqrt(1-math.Pow(b2, t))
	c := adamCoeffs{b1: b1, b2: b2, alpha: alpha, epsHat: epsHat, decay: lr*wd + decay}
	return update{func(x [4][]float32, s []float32) { adamStep(x, s, c) }, func(x [4][]float64, s []float64) { adamStep(x, s, c) }}
}

type adamCoeffs struct{ b1, b2, alpha, epsHat, decay float64 }

// adamStep updates x = {p, g, m, v}: adamLoop's arithmetic, a chunk of
// scratch's length at a time on the vector kernels. The element loop spent
// most of its time in scalar square roots and divisions; the kernels take
// a vector of each at once, and a chunk of every array stays in the L1
// cache between the kernels, so the arrays still stream from memory once.
func adamStep[T kernels.Float](x [4][]T, scratch []T, c adamCoeffs) {
	k := kernels.For[T]()
	b1, b2, alpha, eps, decay := T(c.b1), T(c.b2), T(c.alpha), T(c.epsHat), T(c.decay)
	for lo := 0; lo < len(x[0]); lo += len(scratch) {
		hi := min(lo+len(scratch), len(x[0]))
		p, g, m, v, t := x[0][lo:hi], x[1][lo:hi], x[2][lo:hi], x[3][lo:hi], scratch[:hi-lo]
		k.Scale(m, m, b1)
		k.Axpy(m, 1-b1, g)
		k.Mul(t, g, g)
		k.Scale(v, v, b2)
		k.Axpy(v, 1-b2, t)
		k.Sqrt(t, v)
		k.AddScalar(t, t, eps)
		k.Div(t, m, t)
		if decay != 0 {
			k.Scale(p, p, 1-decay)
		}
		k.Axpy(p, -alpha, t)
	}
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

// each calls f32 or f64, by dtype, with the elements of arrays: a
// parameter, its gradient and the updater's state for it (at most four),
// all packed and alike.
func each(f32 func([4][]float32), f64 func([4][]float64), arrays ...*ndarray.Array) error {
	if err := packed(arrays...); err != nil {
		return err
	}
	switch arrays[0].DType() {
	case ndarray.Float32:
		f32(elems[float32](arrays))
	case ndarray.Float64:
		f64(elems[float64](arrays))
	default:
		return fmt.Errorf("train: cannot update a %v parameter", arrays[0].DType())
	}
	return nil
}

// elems gives the arrays' elements (up to four) in a fixed-size array: the
// callbacks take it by value, so a step allocates nothing.
func elems[T kernels.Float](arrays []*ndarray.Array) [4][]T {
	var x [4][]T
	for i, a := range arrays {
		x[i] = ndarray.Raw[T](a)[a.Offset() : a.Offset()+a.Size()]
	}
	return x
}
