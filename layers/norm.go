package layers

import (
	"github.com/sdgo/sdgo/graph"
)

// BatchNormConfig holds a BatchNorm layer's options.
type BatchNormConfig struct {
	// ChannelsLast says the channels (features) are x's last axis. Default
	// false: axis 1, the channels of NCHW data and the features of
	// [batch, features].
	ChannelsLast bool
	// Epsilon is added to the variance before its square root. Default (0)
	// means 1e-5.
	Epsilon float64
}

// BatchNorm normalizes x [batch, channels, ...] per channel,
// (x - mean)/√(variance + ε)·gamma + beta (op batchnorm), with the
// trainable VARIABLEs name/gamma (ones) and name/beta (zeros). For
// training, mean and variance are the batch's, over every axis but the
// channels' (op moments, the variance divided by n), and are named
// name/batch_mean and name/batch_variance; for inference they are the
// CONSTANTs name/mean (zeros) and name/variance (ones), which a training
// graph holds too. Setting those (SetValue) from batch statistics after
// training is the caller's: a graph's run changes no stored value.
func (b *Builder) BatchNorm(name string, x *graph.Variable, cfg BatchNormConfig) *graph.Variable {
	l := b.layer("BatchNorm", name)
	if bad := l.input(x, "[batch, channels, ...]", 2, 3, 4, 5); bad != nil {
		return bad
	}
	axis := 1
	if cfg.ChannelsLast {
		axis = len(x.Shape()) - 1
	}
	c, bad := l.known(x, axis, "number of channels")
	if bad != nil {
		return bad
	}
	gamma := l.filled(graph.VARIABLE, "gamma", 1, c)
	beta := l.filled(graph.VARIABLE, "beta", 0, c)
	mean := l.filled(graph.CONSTANT, "mean", 0, c)
	variance := l.filled(graph.CONSTANT, "variance", 1, c)
	if bad := firstErr(gamma, beta, mean, variance); bad != nil {
		return bad
	}
	if b.training {
		var axes []int
		for i := range x.Shape() {
			if i != axis {
				axes = append(axes, i)
			}
		}
		mean, variance = b.g.Math().Moments(x, false, axes...)
		mean, variance = mean.Named(l.name+"/batch_mean"), variance.Named(l.name+"/batch_variance")
	}
	return b.g.NN().BatchNorm(x, mean, variance, gamma, beta, graph.BatchNormConfig{Epsilon: cfg.Epsilon, Axes: []int{axis}})
}

// LayerNormConfig holds a LayerNorm layer's options.
type LayerNormConfig struct {
	// NoBias leaves the bias out.
	NoBias bool
}

// LayerNorm standardizes x [..., features] over its last axis and scales
// and shifts it per feature: (x - mean)/σ·gain + bias, σ the population
// standard deviation (op layer_norm, which adds no ε: a row whose σ is 0
// becomes 0), with the VARIABLEs name/gain (ones) and name/b (zeros).
func (b *Builder) LayerNorm(name string, x *graph.Variable, cfg LayerNormConfig) *graph.Variable {
	l := b.layer("LayerNorm", name)
	if bad := l.input(x, "[batch, ..., features]", 2, 3, 4, 5); bad != nil {
		return bad
	}
	last := len(x.Shape()) - 1
	f, bad := l.known(x, last, "number of features")
	if bad != nil {
		return bad
	}
	gain := l.filled(graph.VARIABLE, "gain", 1, f)
	var bias *graph.Variable
	if !cfg.NoBias {
		bias = l.bias("b", nil, f)
	}
	if bad := firstErr(gain, bias); bad != nil {
		return bad
	}
	return b.g.NN().LayerNorm(x, gain, bias, graph.LayerNormConfig{Axes: []int{last}, ChannelsLast: true})
}
