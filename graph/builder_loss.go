package graph

import "github.com/sdgo/sdgo/ops"

// The rest of SameDiff's SDLoss namespace (builder.go has MeanSquaredError,
// SoftmaxCrossEntropy and Weighted).

// Reduction is how a loss reduces its weighted per-element losses. The
// zero value is SameDiff's default, MEAN_BY_NONZERO_WEIGHT_COUNT.
type Reduction int

const (
	// ReduceDefault is SameDiff's default: ReduceMeanByNonzeroWeightCount.
	ReduceDefault Reduction = iota
	// ReduceNone keeps the weighted losses, one per element (LossReduce NONE).
	ReduceNone
	// ReduceSum sums the weighted losses (SUM).
	ReduceSum
	// ReduceMeanByWeight divides the sum by the sum of the weights
	// (MEAN_BY_WEIGHT).
	ReduceMeanByWeight
	// ReduceMeanByNonzeroWeightCount divides the sum by the number of
	// non-zero weights (MEAN_BY_NONZERO_WEIGHT_COUNT).
	ReduceMeanByNonzeroWeightCount
)

// LossReduce returns the op argument (SameDiff's LossReduce ordinal).
func (r Reduction) LossReduce() ops.LossReduce {
	switch r {
	case ReduceNone:
		return ops.LossNone
	case ReduceSum:
		return ops.LossSum
	case ReduceMeanByWeight:
		return ops.LossMeanByWeight
	case ReduceMeanByNonzeroWeightCount, ReduceDefault:
		return ops.LossMeanByNonzeroWeightCount
	}
	return ops.LossReduce(-1) // the op refuses it, naming the value
}

// LossConfig holds the options every weighted loss takes. A nil *LossConfig
// (or its zero value) means unit weights and SameDiff's default reduction.
type LossConfig struct {
	// Weights multiply the per-element losses; they broadcast to them. nil
	// means a scalar 1 (what SameDiff writes when no weights are given).
	Weights *Variable
	// Reduction says how the weighted losses are reduced; the zero value
	// is ReduceDefault (MEAN_BY_NONZERO_WEIGHT_COUNT).
	Reduction Reduction
}

// HuberConfig is the configuration of Huber.
type HuberConfig struct {
	LossConfig
	// Delta is where the loss turns from quadratic to linear; 0 means 1.
	Delta float64
}

// LogLossConfig is the configuration of LogLoss.
type LogLossConfig struct {
	LossConfig
	// Epsilon keeps the logarithms finite; 0 means 1e-7 (SameDiff's
	// default). Give a tiny positive value for practically none.
	Epsilon float64
}

// LogPoissonConfig is the configuration of LogPoisson.
type LogPoissonConfig struct {
	LossConfig
	// Full adds Stirling's approximation term labels·ln(labels) - labels +
	// ½ln(2π·labels); false (the default) leaves it out.
	Full bool
}

// CrossEntropyConfig is the configuration of SigmoidCrossEntropyWith and
// SoftmaxCrossEntropyWith.
type CrossEntropyConfig struct {
	LossConfig
	// LabelSmoothing s replaces the labels y by y·(1-s) + s/2 (sigmoid) or
	// y·(1-s) + s/numClasses (softmax); 0, the default, leaves them.
	LabelSmoothing float64
}

// mark records v, a loss built here, as a loss of the graph.
func (l Loss) mark(v *Variable) *Variable {
	if v.err != nil {
		return v
	}
	if err := l.g.AddLoss(v.Name()); err != nil {
		return l.g.fail(err)
	}
	return v
}

// configured adds the loss op opName on labels and predictions with cfg's
// weights and reduction and the extra args (float args, int args after the
// reduction).
func (l Loss) configured(opName string, labels, predictions *Variable, cfg *LossConfig, args ops.Args) *Variable {
	if cfg == nil {
		cfg = &LossConfig{}
	}
	return l.weighted(opName, labels, predictions, cfg.Weights, cfg.Reduction.LossReduce(), args)
}

// AbsoluteDifference is the loss |predictions - labels| (op
// absolute_difference_loss); cfg nil means the defaults.
func (l Loss) AbsoluteDifference(labels, predictions *Variable, cfg *LossConfig) *Variable {
	return l.configured("absolute_difference_loss", labels, predictions, cfg, ops.Args{})
}

// Hinge is the loss max(0, 1 - t·logits) with t = 2·labels - 1, labels
// being 0 or 1 (op hinge_loss); cfg nil means the defaults.
func (l Loss) Hinge(labels, logits *Variable, cfg *LossConfig) *Variable {
	return l.configured("hinge_loss", labels, logits, cfg, ops.Args{})
}

// Huber is the Huber loss of d = predictions - labels: ½d² where |d| ≤
// delta, delta·|d| - ½delta² beyond (op huber_loss); cfg nil means the
// defaults (delta 1).
func (l Loss) Huber(labels, predictions *Variable, cfg *HuberConfig) *Variable {
	if cfg == nil {
		cfg = &HuberConfig{}
	}
	delta := cfg.Delta
	if delta == 0 {
		delta = 1
	}
	return l.configured("huber_loss", labels, predictions, &cfg.LossConfig, ops.Args{F: []float64{delta}})
}

// LogLoss is the binary cross-entropy -labels·ln(p+ε) - (1-labels)·ln(1-p+ε)
// of probabilities p (op log_loss); cfg nil means the defaults (ε 1e-7).
func (l Loss) LogLoss(labels, predictions *Variable, cfg *LogLossConfig) *Variable {
	if cfg == nil {
		cfg = &LogLossConfig{}
	}
	eps := cfg.Epsilon
	if eps == 0 {
		eps = 1e-7
	}
	return l.configured("log_loss", labels, predictions, &cfg.LossConfig, ops.Args{F: []float64{eps}})
}

// LogPoisson is the Poisson loss exp(c) - labels·c of log predictions c (op
// log_poisson_loss); cfg nil means the defaults (without the full term).
func (l Loss) LogPoisson(labels, logPredictions *Variable, cfg *LogPoissonConfig) *Variable {
	if cfg == nil {
		cfg = &LogPoissonConfig{}
	}
	full := int64(0)
	if cfg.Full {
		full = 1
	}
	return l.configured("log_poisson_loss", labels, logPredictions, &cfg.LossConfig, ops.Args{I: []int64{full}})
}

// SigmoidCrossEntropy is the cross-entropy of sigmoid(logits) against
// labels in [0, 1] (op sigm_cross_entropy_loss); cfg nil means the
// defaults (no label smoothing).
func (l Loss) SigmoidCrossEntropy(labels, logits *Variable, cfg *CrossEntropyConfig) *Variable {
	if cfg == nil {
		cfg = &CrossEntropyConfig{}
	}
	return l.configured("sigm_cross_entropy_loss", labels, logits, &cfg.LossConfig, ops.Args{F: []float64{cfg.LabelSmoothing}})
}

// SoftmaxCrossEntropyWith is SoftmaxCrossEntropy with weights (one per
// example), a reduction and label smoothing (op softmax_cross_entropy_loss);
// cfg nil means the defaults.
func (l Loss) SoftmaxCrossEntropyWith(labels, logits *Variable, cfg *CrossEntropyConfig) *Variable {
	if cfg == nil {
		cfg = &CrossEntropyConfig{}
	}
	return l.configured("softmax_cross_entropy_loss", labels, logits, &cfg.LossConfig, ops.Args{F: []float64{cfg.LabelSmoothing}})
}

// SoftmaxCrossEntropyWithLogits returns the per-example cross-entropies
// -Σ labels·log softmax(logits) along classesAxis (-1 for the last), with
// no weights and no reduction (op softmax_cross_entropy_loss_with_logits).
func (l Loss) SoftmaxCrossEntropyWithLogits(labels, logits *Variable, classesAxis int) *Variable {
	return l.mark(l.g.Apply("softmax_cross_entropy_loss_with_logits", ops.Args{I: []int64{int64(classesAxis)}}, logits, labels))
}

// SparseSoftmaxCrossEntropy returns the per-example cross-entropies
// -log softmax(logits)[label] along the last axis, labels being integer
// class indices of the logits' shape without that axis (op
// sparse_softmax_cross_entropy_loss_with_logits).
func (l Loss) SparseSoftmaxCrossEntropy(labels, logits *Variable) *Variable {
	return l.mark(l.g.Apply("sparse_softmax_cross_entropy_loss_with_logits", ops.Args{}, labels, logits))
}

// WeightedCrossEntropyWithLogits returns, elementwise, the sigmoid
// cross-entropy of logits against targets with the positive examples
// weighted by posWeight (a scalar or a vector along the last axis):
// (1-t)·x + (1+(q-1)·t)·ln(1+e^-x) (op weighted_cross_entropy_with_logits).
func (l Loss) WeightedCrossEntropyWithLogits(targets, logits, posWeight *Variable) *Variable {
	return l.mark(l.g.Apply("weighted_cross_entropy_with_logits", ops.Args{}, targets, logits, posWeight))
}

// L2 is Σx²/2 over every element of x, a scalar (op l2_loss).
func (l Loss) L2(x *Variable) *Variable {
	return l.mark(l.g.Apply("l2_loss", ops.Args{}, x))
}

// CosineDistance is the loss 1 - Σ predictions·labels along dimension (one
// loss per vector, the dimension kept with size 1; the vectors are
// expected normalised), op cosine_distance_loss; cfg nil means the
// defaults. Weights broadcast to the per-vector losses.
func (l Loss) CosineDistance(labels, predictions *Variable, dimension int, cfg *LossConfig) *Variable {
	return l.configured("cosine_distance_loss", labels, predictions, cfg, ops.Args{I: []int64{int64(dimension)}})
}

// MeanPairwiseSquaredError is, per example (axis 0), the mean over pairs
// i ≠ j of ((p_i - p_j) - (y_i - y_j))² (op mean_pairwssqerr_loss); cfg nil
// means the defaults. Weights broadcast to the per-example losses, of
// shape [batch, 1, ...]; ReduceNone gives one loss per example.
func (l Loss) MeanPairwiseSquaredError(labels, predictions *Variable, cfg *LossConfig) *Variable {
	return l.configured("mean_pairwssqerr_loss", labels, predictions, cfg, ops.Args{})
}

// CTCConfig is the configuration of CTC.
type CTCConfig struct {
	// BlankIndex is the class of the blank, which separates repeated
	// labels and fills the frames between them; 0 by default.
	BlankIndex int
}

// CTC is the connectionist temporal classification loss of each example,
// [batch] (op ctc_loss): -log of the total probability of the alignments
// of labels [batch, maxLabels] (integer classes, the first labelLengths[b]
// of example b) to the frames of logProbs [batch, maxFrames, classes]
// (log-probabilities, a log-softmax's output, the first frameLengths[b]
// frames of example b). cfg nil means the defaults. The loss is registered
// as a loss of the graph.
func (l Loss) CTC(labels, logProbs, labelLengths, frameLengths *Variable, cfg *CTCConfig) *Variable {
	var c CTCConfig
	if cfg != nil {
		c = *cfg
	}
	return l.mark(l.g.Apply("ctc_loss", ops.Args{I: []int64{int64(c.BlankIndex)}}, labels, logProbs, labelLengths, frameLengths))
}
