package graph

import "github.com/sdgo/sdgo/ops"

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
