package train

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// Regularization adds a penalty on the parameters. L2 acts on the gradient
// before the updater; WeightDecay adds to the updater's change of the
// parameter, apart from the gradient (as in DL4J).
type Regularization interface {
	// Name is the regularization's name in messages.
	Name() string
	// coeff is the coefficient at an iteration and epoch; the trainer reads
	// it once a step, and checks it, and passes it to the others.
	coeff(it, ep int) float64
	// beforeUpdate changes the gradient (in place, when changesGradient);
	// decay is the fraction of the parameter, as it was before the step,
	// that the step takes off besides the updater's change.
	changesGradient() bool
	beforeUpdate(param, grad *ndarray.Array, c float64) error
	decay(lr, c float64) float64
	check() error
}

// checkCoeff checks a regularization's coefficient at iteration 0 (Step
// checks it at every step): given, a number, and not negative.
func checkCoeff(what string, s Schedule) error {
	if s == nil {
		return fmt.Errorf("train: no %s", what)
	}
	if err := validated(s); err != nil {
		return fmt.Errorf("train: %s: %w", what, err)
	}
	if v := s.Value(0, 0); !finiteNonNeg(v) {
		return fmt.Errorf("train: %s %v must be a number, not negative", what, v)
	}
	return nil
}

// L2 adds coeff·p to the gradient: the gradient of (coeff/2)·‖p‖².
type L2 struct{ Coeff Schedule }

// NewL2 returns L2 regularization with a fixed coefficient.
func NewL2(coeff float64) *L2 { return &L2{Coeff: Fixed(coeff)} }

// Name returns "L2".
func (r *L2) Name() string { return "L2" }

func (r *L2) check() error {
	return checkCoeff("L2 coefficient", r.Coeff)
}

func (r *L2) coeff(it, ep int) float64 { return r.Coeff.Value(it, ep) }

func (r *L2) beforeUpdate(p, g *ndarray.Array, c float64) error {
	return each(func(x [4][]float32) { axpy(x[0], c, x[1]) }, func(x [4][]float64) { axpy(x[0], c, x[1]) }, g, p)
}

func (r *L2) changesGradient() bool { return true }

func (r *L2) decay(float64, float64) float64 { return 0 }

// WeightDecay takes coeff·p off the parameter p at each step besides the
// updater's change u, times the learning rate when ApplyLR is set: p -= u +
// lr·coeff·p, p being the parameter before the step (DL4J's WeightDecay,
// which adds the term to the update after the updater has run).
type WeightDecay struct {
	Coeff   Schedule
	ApplyLR bool
}

// NewWeightDecay returns weight decay with a fixed coefficient, scaled by
// the learning rate.
func NewWeightDecay(coeff float64) *WeightDecay {
	return &WeightDecay{Coeff: Fixed(coeff), ApplyLR: true}
}

// Name returns "WeightDecay".
func (r *WeightDecay) Name() string { return "WeightDecay" }

func (r *WeightDecay) check() error {
	return checkCoeff("weight decay coefficient", r.Coeff)
}

func (r *WeightDecay) changesGradient() bool { return false }

func (r *WeightDecay) coeff(it, ep int) float64 { return r.Coeff.Value(it, ep) }

func (r *WeightDecay) beforeUpdate(*ndarray.Array, *ndarray.Array, float64) error { return nil }

func (r *WeightDecay) decay(lr, c float64) float64 {
	if r.ApplyLR {
		c *= lr
	}
	return c
}
