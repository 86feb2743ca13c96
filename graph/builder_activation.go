package graph

import "github.com/sdgo/sdgo/ops"

// Builder methods of SameDiff's activations (ops/nn_activation.go).

func (n NN) unary(op string, x *Variable) *Variable { return n.g.Apply(op, ops.Args{}, x) }

// Gelu is x·σ(1.702x), the sigmoid approximation of GELU (op gelu).
func (n NN) Gelu(x *Variable) *Variable { return n.unary("gelu", x) }

// PreciseGelu is libnd4j's tanh form of GELU,
// x/2·(1+tanh(√(2/π)·(x+(0.044715x)³))) (op precise_gelu).
func (n NN) PreciseGelu(x *Variable) *Variable { return n.unary("precise_gelu", x) }

// Swish is x·σ(x) (op swish).
func (n NN) Swish(x *Variable) *Variable { return n.unary("swish", x) }

// Mish is x·tanh(ln(1+e^x)) (op mish; Java's SameDiff cannot load it).
func (n NN) Mish(x *Variable) *Variable { return n.unary("mish", x) }

// Selu is λx for x > 0, else λα(e^x-1), with SELU's α and λ (op selu).
func (n NN) Selu(x *Variable) *Variable { return n.unary("selu", x) }

// HardTanh is x clamped to [-1, 1] (op hardtanh).
func (n NN) HardTanh(x *Variable) *Variable { return n.unary("hardtanh", x) }

// HardSigmoid is min(1, max(0, 0.2x+0.5)) (op hard_sigmoid).
func (n NN) HardSigmoid(x *Variable) *Variable { return n.unary("hard_sigmoid", x) }

// SoftSign is x/(1+|x|) (op softsign).
func (n NN) SoftSign(x *Variable) *Variable { return n.unary("softsign", x) }

// LogSigmoid is ln σ(x) (op logsigmoid).
func (n NN) LogSigmoid(x *Variable) *Variable { return n.unary("logsigmoid", x) }

// Elu is x for x >= 0, else alpha·(e^x-1) (op elu; SameDiff's default
// alpha is 1).
func (n NN) Elu(x *Variable, alpha float64) *Variable {
	return n.g.Apply("elu", ops.Args{F: []float64{alpha}}, x)
}

// Relu6 is min(max(x, cutoff), 6) (op relu6; the usual ReLU6 has cutoff
// 0).
func (n NN) Relu6(x *Variable, cutoff float64) *Variable {
	return n.g.Apply("relu6", ops.Args{F: []float64{cutoff}}, x)
}

// ThresholdedRelu is x for x > theta, else 0 (op thresholdedrelu).
func (n NN) ThresholdedRelu(x *Variable, theta float64) *Variable {
	return n.g.Apply("thresholdedrelu", ops.Args{F: []float64{theta}}, x)
}

// PReluConfig holds prelu's options.
type PReluConfig struct {
	// SharedAxes are axes of x (1..rank-1) along which one alpha serves
	// every element, as a convolution's spatial axes; alpha has size 1
	// there. Default none: alpha has x's shape without axis 0.
	SharedAxes []int
}

// PRelu is x for x >= 0, else alpha·x, alpha broadcast over axis 0 (the
// batch) and the shared axes (op prelu; a nil cfg is the default).
func (n NN) PRelu(x, alpha *Variable, cfg *PReluConfig) *Variable {
	var a ops.Args
	if cfg != nil {
		a.I = toInt64(cfg.SharedAxes)
	}
	return n.g.Apply("prelu", a, x, alpha)
}

// CRelu joins relu(x) and relu(-x) along the last axis, which doubles
// (op crelu).
func (n NN) CRelu(x *Variable) *Variable { return n.unary("crelu", x) }

// Cube is x³, elementwise (op cube).
func (m Math) Cube(x *Variable) *Variable { return m.g.Apply("cube", ops.Args{}, x) }

// RationalTanh is libnd4j's rational approximation of 1.7159·tanh(2x/3)
// (op rational_tanh).
func (m Math) RationalTanh(x *Variable) *Variable { return m.g.Apply("rational_tanh", ops.Args{}, x) }

// RectifiedTanh is max(0, tanh x) (op rectified_tanh).
func (m Math) RectifiedTanh(x *Variable) *Variable { return m.g.Apply("rectified_tanh", ops.Args{}, x) }
