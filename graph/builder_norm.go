package graph

import "github.com/sdgo/sdgo/ops"

// Builder methods of SameDiff's normalisation and layer ops
// (ops/nn_norm.go, ops/nn_layer.go).

// BatchNormConfig holds batchnorm's options.
type BatchNormConfig struct {
	// Epsilon is added to the variance before its square root. Default
	// (0) means 1e-5.
	Epsilon float64
	// Axes are the axes mean, variance, gamma and beta run along. Default
	// (none) means the last axis, the channels of NHWC data; give axis 1
	// for NCHW.
	Axes []int
}

// BatchNorm is (x - mean)·gamma/√(variance + eps) + beta (op batchnorm).
// gamma and beta may be nil. The parameters have shape [C] for one axis,
// x's rank with size 1 off the axes for several.
func (n NN) BatchNorm(x, mean, variance, gamma, beta *Variable, cfg BatchNormConfig) *Variable {
	eps := cfg.Epsilon
	if eps == 0 {
		eps = 1e-5
	}
	args := ops.Args{F: []float64{eps}, I: []int64{0, 0}}
	in := []*Variable{x, mean, variance}
	if gamma != nil {
		args.I[0] = 1
		in = append(in, gamma)
	}
	if beta != nil {
		args.I[1] = 1
		in = append(in, beta)
	}
	args.I = append(args.I, toInt64(cfg.Axes)...)
	return n.g.Apply("batchnorm", args, in...)
}

// LayerNormConfig holds layer_norm's options.
type LayerNormConfig struct {
	// Axes are the axes to standardise over; required (SameDiff's usual
	// choice is every axis but 0).
	Axes []int
	// ChannelsLast puts the axis gain and bias run along last (NHWC).
	// Default false: axis 1 (NCHW, and the features of [N, C] data).
	ChannelsLast bool
}

// LayerNorm is (x - mean)/σ·gain + bias over cfg.Axes, σ the population
// standard deviation (op layer_norm). bias may be nil.
func (n NN) LayerNorm(x, gain, bias *Variable, cfg LayerNormConfig) *Variable {
	args := ops.Args{I: toInt64(cfg.Axes), B: []bool{!cfg.ChannelsLast}}
	in := []*Variable{x, gain}
	if bias != nil {
		in = append(in, bias)
	}
	return n.g.Apply("layer_norm", args, in...)
}

// LinearConfig holds xw_plus_b's options.
type LinearConfig struct {
	// TransposeX: x is given as [K, N]. Default false: [N, K].
	TransposeX bool
	// TransposeW: w is given as [M, K]. Default false: [K, M].
	TransposeW bool
}

// Linear is x·w + b for a matrix x, weights w and a bias b of M elements
// (op xw_plus_b, SameDiff's linear).
func (n NN) Linear(x, w, b *Variable, cfg LinearConfig) *Variable {
	args := ops.Args{I: []int64{b2i(cfg.TransposeX), b2i(cfg.TransposeW), 0}}
	return n.g.Apply("xw_plus_b", args, x, w, b)
}

// ReluLayer is relu(x·w + b) (op relu_layer).
func (n NN) ReluLayer(x, w, b *Variable) *Variable {
	return n.g.Apply("relu_layer", ops.Args{}, x, w, b)
}

// TopK returns the k largest values along x's last axis and their int64
// indices (op top_k): largest first when sorted, else in the order of
// their indices.
func (n NN) TopK(x *Variable, k int, sorted bool) (values, indices *Variable) {
	if x != nil && x.err != nil {
		return x, x
	}
	outs, err := n.g.Op("top_k", ops.Args{I: []int64{int64(k)}, B: []bool{sorted}}, x)
	if err != nil {
		v := n.g.fail(err)
		return v, v
	}
	return outs[0], outs[1]
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
