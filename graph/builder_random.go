package graph

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Random groups the random distributions: g.Random().Normal(...).
func (g *Graph) Random() Random { return Random{g} }

// Random is the namespace of random arrays (SameDiff's SDRandom). Each op
// draws from the stream of its seed: the same seed gives the same numbers
// in every run, on every machine, and after a save and load (the seed is
// stored with the op).
type Random struct{ g *Graph }

// RandomConfig is what every distribution takes beside its parameters.
type RandomConfig struct {
	// Seed picks the stream. Two ops with the same seed and the same
	// distribution give the same numbers; give each op its own seed.
	Seed int64
	// DType is the output's dtype, float32 or float64; the zero value
	// means float32 (SameDiff's default).
	DType ndarray.DType
}

func (r Random) draw(op string, shape []int, cfg RandomConfig, params ...float64) *Variable {
	dt := cfg.DType
	if dt == ndarray.Invalid {
		dt = ndarray.Float32
	}
	s := make([]int64, len(shape))
	for i, d := range shape {
		if d < 0 {
			return r.g.fail(fmt.Errorf("%w: %s of shape %v: a size is negative", ErrBuild, op, shape))
		}
		s[i] = int64(d)
	}
	sv := r.g.Const("", ndarray.Must(ndarray.FromSlice(s, len(s))))
	return r.g.Apply(op, ops.Args{F: params, I: []int64{cfg.Seed}, D: []ndarray.DType{dt}}, sv)
}

// Uniform draws values uniform in [from, to).
func (r Random) Uniform(from, to float64, shape []int, cfg RandomConfig) *Variable {
	return r.draw("distribution_uniform", shape, cfg, from, to)
}

// Normal draws normally distributed values of the given mean and standard
// deviation.
func (r Random) Normal(mean, stddev float64, shape []int, cfg RandomConfig) *Variable {
	return r.draw("distribution_gaussian", shape, cfg, mean, stddev)
}

// TruncatedNormal draws normal values of the given mean and standard
// deviation, drawing again any that fall more than two standard deviations
// from the mean.
func (r Random) TruncatedNormal(mean, stddev float64, shape []int, cfg RandomConfig) *Variable {
	return r.draw("distribution_truncated", shape, cfg, mean, stddev)
}

// LogNormal draws e^N where N is normal with the given mean and standard
// deviation.
func (r Random) LogNormal(mean, stddev float64, shape []int, cfg RandomConfig) *Variable {
	return r.draw("distribution_lognormal", shape, cfg, mean, stddev)
}

// Bernoulli draws 1 with probability p and 0 otherwise.
func (r Random) Bernoulli(p float64, shape []int, cfg RandomConfig) *Variable {
	return r.draw("distribution_bernoulli", shape, cfg, p)
}

// Binomial draws the number of successes in trials independent trials of
// probability p (trials a whole number up to 2^20).
func (r Random) Binomial(trials int, p float64, shape []int, cfg RandomConfig) *Variable {
	return r.draw("distribution_binomial", shape, cfg, float64(trials), p)
}

// Exponential draws exponentially distributed values of rate lambda (mean
// 1/lambda).
func (r Random) Exponential(lambda float64, shape []int, cfg RandomConfig) *Variable {
	return r.draw("random_exponential", shape, cfg, lambda)
}

// DropoutConfig holds dropout's options.
type DropoutConfig struct {
	// Seed picks the mask: the same seed gives the same mask (libnd4j's
	// dropout draws it again from the seed each run, so a training loop
	// that wants a new mask each step gives each step's graph its own).
	Seed int64
	// NoiseShape, when set, is the shape of the mask, broadcast over x:
	// [N 1 H W] for x of [N C H W] drops whole channels. Nil means x's
	// shape.
	NoiseShape []int
}

// Dropout returns x with each element kept with probability keep and scaled
// by 1/keep, or set to 0 (libnd4j's inverted dropout; its gradient applies
// the same mask).
func (n NN) Dropout(x *Variable, keep float64, cfg DropoutConfig) *Variable {
	in := []*Variable{x}
	if cfg.NoiseShape != nil {
		s := make([]int64, len(cfg.NoiseShape))
		for i, d := range cfg.NoiseShape {
			s[i] = int64(d)
		}
		in = append(in, n.g.Const("", ndarray.Must(ndarray.FromSlice(s, len(s)))))
	}
	return n.g.Apply("dropout", ops.Args{F: []float64{keep}, I: []int64{cfg.Seed}}, in...)
}
