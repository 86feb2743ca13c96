package graph

import (
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Builder methods of the statistics, distances and clipping ops
// (ops/math_stats.go, ops/math_distance.go, ops/math_clip.go): variance and
// standard deviation on the graph (SameDiff's SDBaseOps), the rest on
// g.Math(). Axes are Go ints; none means every axis.

// StatsConfig are the options of Variance and StandardDeviation. The zero
// value is not the default: start from StatsDefaults.
type StatsConfig struct {
	// BiasCorrected divides by n-1 rather than n (default true, SameDiff's).
	BiasCorrected bool
	// KeepDims keeps the reduced axes with size 1 (default false).
	KeepDims bool
}

// StatsDefaults returns the defaults: bias-corrected, reduced axes dropped.
func StatsDefaults() StatsConfig { return StatsConfig{BiasCorrected: true} }

func statsArgs(cfg StatsConfig, axes []int) ops.Args {
	bias := 0.0
	if cfg.BiasCorrected {
		bias = 1
	}
	return ops.Args{Dims: reduceDims(axes), B: []bool{cfg.KeepDims}, F: []float64{bias}}
}

// reduceDims puts axes in the dimensions slot, SameDiff's AllDims marker
// for none.
func reduceDims(axes []int) []int {
	if len(axes) == 0 {
		return []int{ops.AllDims}
	}
	return append([]int(nil), axes...)
}

// Variance returns x's variance over axes (op var).
func (g *Graph) Variance(x *Variable, cfg StatsConfig, axes ...int) *Variable {
	return g.Apply("var", statsArgs(cfg, axes), x)
}

// StandardDeviation returns x's standard deviation over axes (op std).
func (g *Graph) StandardDeviation(x *Variable, cfg StatsConfig, axes ...int) *Variable {
	return g.Apply("std", statsArgs(cfg, axes), x)
}

// pair returns a two-output op's outputs, or two variables carrying the
// error.
func (g *Graph) pair(op string, args ops.Args, in ...*Variable) (*Variable, *Variable) {
	for _, v := range in {
		if v != nil && v.err != nil {
			return v, v
		}
	}
	outs, err := g.Op(op, args, in...)
	if err != nil {
		e := g.fail(err)
		return e, e
	}
	return outs[0], outs[1]
}

// Moments returns x's mean and (uncorrected) variance over axes (op
// moments), with the reduced axes kept when keepDims is set.
func (m Math) Moments(x *Variable, keepDims bool, axes ...int) (mean, variance *Variable) {
	return m.g.pair("moments", ops.Args{I: toInt64(axes), B: []bool{keepDims}}, x)
}

// NormalizeMoments returns the mean means/counts + shift and the variance
// variances/counts - (means/counts)² from a scalar count and the sums of
// the (shifted) data and of its squares (op normalize_moments).
func (m Math) NormalizeMoments(counts, means, variances *Variable, shift float64) (mean, variance *Variable) {
	return m.g.pair("normalize_moments", ops.Args{F: []float64{shift}}, counts, means, variances)
}

// Standardize returns (x - mean)/std over axes (at least one), with the
// uncorrected std (op standardize).
func (m Math) Standardize(x *Variable, axes ...int) *Variable {
	return m.g.Apply("standardize", ops.Args{I: toInt64(axes)}, x)
}

// ZeroFraction returns the fraction of x's elements that are zero, a
// float64 scalar (op zero_fraction).
func (m Math) ZeroFraction(x *Variable) *Variable {
	return m.g.Apply("zero_fraction", ops.Args{}, x)
}

// Entropy returns -Σ x ln x over axes (op entropy).
func (m Math) Entropy(x *Variable, axes ...int) *Variable {
	return m.g.Apply("entropy", ops.Args{Dims: reduceDims(axes), B: []bool{false}}, x)
}

// LogEntropy returns ln(-Σ x ln x) over axes (op logentropy).
func (m Math) LogEntropy(x *Variable, axes ...int) *Variable {
	return m.g.Apply("logentropy", ops.Args{Dims: reduceDims(axes), B: []bool{false}}, x)
}

// ShannonEntropy returns -Σ x log₂ x over axes (op shannonentropy).
func (m Math) ShannonEntropy(x *Variable, axes ...int) *Variable {
	return m.g.Apply("shannonentropy", ops.Args{Dims: reduceDims(axes), B: []bool{false}}, x)
}

func (m Math) distance(op string, x, y *Variable, axes []int) *Variable {
	return m.g.Apply(op, ops.Args{Dims: reduceDims(axes), B: []bool{false}}, x, y)
}

// ManhattanDistance returns Σ|x-y| over axes (op manhattan).
func (m Math) ManhattanDistance(x, y *Variable, axes ...int) *Variable {
	return m.distance("manhattan", x, y, axes)
}

// EuclideanDistance returns √Σ(x-y)² over axes (op euclidean).
func (m Math) EuclideanDistance(x, y *Variable, axes ...int) *Variable {
	return m.distance("euclidean", x, y, axes)
}

// CosineSimilarity returns Σxy/(‖x‖‖y‖) over axes (op cosinesimilarity).
func (m Math) CosineSimilarity(x, y *Variable, axes ...int) *Variable {
	return m.distance("cosinesimilarity", x, y, axes)
}

// CosineDistance returns 1 - CosineSimilarity over axes (op cosinedistance).
func (m Math) CosineDistance(x, y *Variable, axes ...int) *Variable {
	return m.distance("cosinedistance", x, y, axes)
}

// JaccardDistance returns 1 - Σmin(x,y)/Σmax(x,y) over axes (op
// jaccarddistance).
func (m Math) JaccardDistance(x, y *Variable, axes ...int) *Variable {
	return m.distance("jaccarddistance", x, y, axes)
}

// HammingDistance returns the fraction of elements where x and y differ,
// over axes (op hammingdistance).
func (m Math) HammingDistance(x, y *Variable, axes ...int) *Variable {
	return m.distance("hammingdistance", x, y, axes)
}

// ClipByValue limits x to [lo, hi] (op ClipByValue).
func (m Math) ClipByValue(x *Variable, lo, hi float64) *Variable {
	return m.g.Apply("ClipByValue", ops.Args{F: []float64{lo, hi}}, x)
}

// ClipByNorm scales x down to L2 norm clip over axes wherever its norm
// exceeds clip (op clipbynorm).
func (m Math) ClipByNorm(x *Variable, clip float64, axes ...int) *Variable {
	return m.g.Apply("clipbynorm", ops.Args{F: []float64{clip}, I: toInt64(axes)}, x)
}

// ClipByAvgNorm scales x down wherever its average L2 norm (the norm over
// axes divided by their element count) exceeds clip (op clipbyavgnorm).
func (m Math) ClipByAvgNorm(x *Variable, clip float64, axes ...int) *Variable {
	return m.g.Apply("clipbyavgnorm", ops.Args{F: []float64{clip}, I: toInt64(axes)}, x)
}

// ConditionMode is a libnd4j match-condition mode (the op's float arg 2).
type ConditionMode int

// The match-condition modes, numbered as libnd4j's MatchCondition.
const (
	EpsEquals             ConditionMode = iota // |x - value| <= eps
	EpsNotEquals                               // |x - value| > eps
	LessThan                                   // x < value
	GreaterThan                                // x > value
	LessThanOrEqual                            // x <= value
	GreaterThanOrEqual                         // x >= value
	AbsLessThan                                // |x| < value
	AbsGreaterThan                             // |x| > value
	IsInfinite                                 // x is ±Inf
	IsNaN                                      // x is NaN
	Equals                                     // x == value
	NotEquals                                  // x != value
	AbsGreaterThanOrEqual                      // |x| >= value
	AbsLessThanOrEqual                         // |x| <= value
	IsFinite                                   // x is neither Inf nor NaN
	IsInfiniteOrNaN                            // x is Inf or NaN
)

// Condition is a test of one element: Mode against Value, with Eps for the
// Eps modes.
type Condition struct {
	Mode  ConditionMode
	Value float64
	Eps   float64
}

func (c Condition) args(keepDims bool, axes []int) ops.Args {
	return ops.Args{F: []float64{c.Value, c.Eps, float64(c.Mode)}, Dims: reduceDims(axes), B: []bool{keepDims}}
}

// MatchCondition returns a bool array, true where x meets c (op
// match_condition_transform).
func (g *Graph) MatchCondition(x *Variable, c Condition) *Variable {
	a := c.args(false, nil)
	a.Dims, a.B = nil, nil
	return g.Apply("match_condition_transform", a, x)
}

// MatchConditionCount returns how many elements meet c over axes, as int64
// (op match_condition).
func (g *Graph) MatchConditionCount(x *Variable, c Condition, keepDims bool, axes ...int) *Variable {
	return g.Apply("match_condition", c.args(keepDims, axes), x)
}

// FirstIndex returns the index of the first element meeting c over axes
// (-1 where none does), as int64 (op first_index).
func (m Math) FirstIndex(x *Variable, c Condition, keepDims bool, axes ...int) *Variable {
	return m.g.Apply("first_index", c.args(keepDims, axes), x)
}

// LastIndex returns the index of the last element meeting c over axes (-1
// where none does), as int64 (op last_index).
func (m Math) LastIndex(x *Variable, c Condition, keepDims bool, axes ...int) *Variable {
	return m.g.Apply("last_index", c.args(keepDims, axes), x)
}

// IsMax returns 1 at the first largest element of x over axes and 0
// elsewhere, in x's dtype (op ismax).
func (m Math) IsMax(x *Variable, axes ...int) *Variable {
	return m.g.Apply("ismax", ops.Args{I: toInt64(axes)}, x)
}

// IsNonDecreasing returns a bool scalar: whether x's elements, in C order,
// never decrease (op is_non_decreasing).
func (m Math) IsNonDecreasing(x *Variable) *Variable {
	return m.g.Apply("is_non_decreasing", ops.Args{}, x)
}

// IsStrictlyIncreasing returns a bool scalar: whether x's elements, in C
// order, always increase (op is_strictly_increasing).
func (m Math) IsStrictlyIncreasing(x *Variable) *Variable {
	return m.g.Apply("is_strictly_increasing", ops.Args{}, x)
}

// ConfusionMatrixConfig are confusion_matrix's options; the zero value is
// the default.
type ConfusionMatrixConfig struct {
	// NumClasses is the matrix's size; 0 means the largest class seen + 1.
	NumClasses int
	// Weights, when not nil, are summed in place of counting the pairs.
	Weights *Variable
	// DType is the result's dtype; 0 (Invalid) means int64.
	DType ndarray.DType
}

// ConfusionMatrix returns the matrix whose entry (l, p) counts the pairs
// of label l and prediction p (op confusion_matrix).
func (m Math) ConfusionMatrix(labels, predictions *Variable, cfg ConfusionMatrixConfig) *Variable {
	a := ops.Args{}
	if cfg.NumClasses > 0 {
		a.I = []int64{int64(cfg.NumClasses)}
	}
	if cfg.DType != ndarray.Invalid {
		a.D = []ndarray.DType{cfg.DType}
	}
	in := []*Variable{labels, predictions}
	if cfg.Weights != nil {
		in = append(in, cfg.Weights)
	}
	return m.g.Apply("confusion_matrix", a, in...)
}

// ListDiff returns the elements of the vector x that are not in the vector
// y, and their positions in x (op listdiff).
func (m Math) ListDiff(x, y *Variable) (values, indices *Variable) {
	return m.g.pair("listdiff", ops.Args{}, x, y)
}

// MergeAvg returns the elementwise mean of the inputs (op mergeavg).
func (m Math) MergeAvg(x ...*Variable) *Variable { return m.g.Apply("mergeavg", ops.Args{}, x...) }

// MergeMax returns the elementwise largest of the inputs (op mergemax).
func (m Math) MergeMax(x ...*Variable) *Variable { return m.g.Apply("mergemax", ops.Args{}, x...) }

// MergeMaxIndex returns, elementwise, the index of the input holding the
// largest value, as int32 (op mergemaxindex).
func (m Math) MergeMaxIndex(x ...*Variable) *Variable {
	return m.g.Apply("mergemaxindex", ops.Args{}, x...)
}

// MeshGrid returns the coordinate grids of the vectors x: with cartesian
// ('xy') indexing the first two axes are swapped, as numpy's default (op
// meshgrid).
func (m Math) MeshGrid(cartesian bool, x ...*Variable) ([]*Variable, error) {
	swap := int64(0)
	if cartesian {
		swap = 1
	}
	for _, v := range x {
		if v != nil && v.err != nil {
			return nil, v.err
		}
	}
	return m.g.Op("meshgrid", ops.Args{I: []int64{swap}}, x...)
}

// EmbeddingLookup returns the rows of params at the ids, an integer vector
// (op embedding_lookup).
func (m Math) EmbeddingLookup(params, ids *Variable) *Variable {
	return m.g.Apply("embedding_lookup", ops.Args{I: []int64{0}}, params, ids)
}
