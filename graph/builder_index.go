package graph

import (
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Builder methods of the base namespace's indexing ops: gathering,
// slicing, splitting, flipping, running sums and products, and scattering
// (ops/base_gather.go, base_slice.go, base_scatter.go). The ops keep
// libnd4j's integer argument layout; these methods take plain Go values
// and small config structs.

// Gather returns x's slices at the indices (an integer array) along axis:
// an embedding lookup is g.Gather(table, ids, 0). The result has shape
// x.shape[:axis] + indices.shape + x.shape[axis+1:]; an index out of range
// is a run-time error.
func (g *Graph) Gather(x, indices *Variable, axis int) *Variable {
	return g.Apply("gather", ops.Args{I: []int64{int64(axis)}}, x, indices)
}

// GatherND returns the elements or slices of x named by the index tuples
// on the last axis of indices.
func (g *Graph) GatherND(x, indices *Variable) *Variable {
	return g.Apply("gather_nd", ops.Args{}, x, indices)
}

// OneHotConfig are onehot's options. The zero value is not the default:
// start from OneHotDefaults.
type OneHotConfig struct {
	// Axis is where the new axis of length depth goes (default -1: last).
	Axis int
	// On and Off are the values at and away from the index (defaults 1, 0).
	On, Off float64
	// DType is the result's dtype (default float32).
	DType ndarray.DType
}

// OneHotDefaults returns onehot's defaults: a last axis, 1 and 0, float32.
func OneHotDefaults() OneHotConfig {
	return OneHotConfig{Axis: -1, On: 1, Off: 0, DType: ndarray.Float32}
}

// OneHot returns the one-hot encoding of the integer indices with
// OneHotDefaults: a new last axis of length depth, 1 at the index and 0
// elsewhere (an index outside [0, depth) gives a row of 0).
func (g *Graph) OneHot(indices *Variable, depth int) *Variable {
	return g.OneHotWith(indices, depth, OneHotDefaults())
}

// OneHotWith is OneHot with the given options.
func (g *Graph) OneHotWith(indices *Variable, depth int, cfg OneHotConfig) *Variable {
	dt := cfg.DType
	if dt == ndarray.Invalid {
		dt = ndarray.Float32
	}
	return g.Apply("onehot", ops.Args{I: []int64{int64(cfg.Axis), int64(depth)}, F: []float64{cfg.On, cfg.Off},
		D: []ndarray.DType{dt}}, indices)
}

// Where returns x where cond holds and y elsewhere; cond (bool, or numeric
// with non-zero as true) has x's shape or is a vector along x's first
// axis.
func (g *Graph) Where(cond, x, y *Variable) *Variable {
	return g.Apply("Where", ops.Args{}, cond, x, y)
}

// WhereIndices returns the coordinates of cond's true (non-zero) elements,
// one row each: an int64 [n, rank] array.
func (g *Graph) WhereIndices(cond *Variable) *Variable {
	return g.Apply("Where", ops.Args{}, cond)
}

// SequenceMask returns mask[..., j] = j < lengths[...] in dtype dt (bool
// when Invalid), of width maxLen or, when maxLen <= 0 or a length is
// longer, the longest length.
func (g *Graph) SequenceMask(lengths *Variable, maxLen int, dt ndarray.DType) *Variable {
	if dt == ndarray.Invalid {
		dt = ndarray.Bool
	}
	a := ops.Args{D: []ndarray.DType{dt}}
	if maxLen > 0 {
		a.I = []int64{int64(maxLen)}
	}
	return g.Apply("sequence_mask", a, lengths)
}

// Slice returns the block of v starting at begin with the given sizes (one
// per axis; -1 runs to the end of the axis).
func (v *Variable) Slice(begin, size []int) *Variable {
	return v.apply("slice", ops.Args{I: append(toInt64(begin), toInt64(size)...)})
}

// multi adds a multi-output op on v.
func (v *Variable) multi(opName string, args ops.Args, others ...*Variable) ([]*Variable, error) {
	if v.err != nil {
		return nil, v.err
	}
	for _, o := range others {
		if o != nil && o.err != nil {
			return nil, o.err
		}
	}
	return v.g.Op(opName, args, append([]*Variable{v}, others...)...)
}

// Split cuts v along axis into num pieces of equal size.
func (v *Variable) Split(num, axis int) ([]*Variable, error) {
	return v.multi("split", ops.Args{I: []int64{int64(num), int64(axis)}})
}

// SplitV cuts v along axis into pieces of the given sizes (one size may be
// -1: what the others leave).
func (v *Variable) SplitV(sizes []int, axis int) ([]*Variable, error) {
	if v.err != nil {
		return nil, v.err
	}
	s := v.g.Const("", ndarray.Must(ndarray.Wrap(toInt64(sizes), len(sizes))))
	return v.multi("split_v", ops.Args{I: []int64{int64(axis)}}, s)
}

// Reverse returns v with the order of its elements reversed along the
// axes (every axis when none are given).
func (v *Variable) Reverse(axes ...int) *Variable {
	return v.apply("reverse", ops.Args{I: toInt64(axes)})
}

// CumConfig are the options of CumSum and CumProd; the zero value is the
// default: inclusive, from the start of the axis.
type CumConfig struct {
	// Exclusive leaves each element out of its own sum or product.
	Exclusive bool
	// Reverse accumulates from the end of the axis.
	Reverse bool
}

func (c CumConfig) args(axis int) ops.Args {
	b2i := func(b bool) int64 {
		if b {
			return 1
		}
		return 0
	}
	return ops.Args{I: []int64{b2i(c.Exclusive), b2i(c.Reverse), int64(axis)}}
}

// CumSum returns the running sum of v along axis.
func (v *Variable) CumSum(axis int, cfg CumConfig) *Variable {
	return v.apply("cumsum", cfg.args(axis))
}

// CumProd returns the running product of v along axis.
func (v *Variable) CumProd(axis int, cfg CumConfig) *Variable {
	return v.apply("cumprod", cfg.args(axis))
}

// ScatterAdd returns ref with updates[i] added into the slice
// ref[indices[i]] along ref's first axis (repeated indices add up); the
// updates have shape indices.shape + ref.shape[1:].
func (g *Graph) ScatterAdd(ref, indices, updates *Variable) *Variable {
	return g.Apply("scatter_add", ops.Args{}, ref, indices, updates)
}

// ScatterSub is ScatterAdd subtracting the updates.
func (g *Graph) ScatterSub(ref, indices, updates *Variable) *Variable {
	return g.Apply("scatter_sub", ops.Args{}, ref, indices, updates)
}

// ScatterMul is ScatterAdd multiplying by the updates.
func (g *Graph) ScatterMul(ref, indices, updates *Variable) *Variable {
	return g.Apply("scatter_mul", ops.Args{}, ref, indices, updates)
}

// ScatterDiv is ScatterAdd dividing by the updates.
func (g *Graph) ScatterDiv(ref, indices, updates *Variable) *Variable {
	return g.Apply("scatter_div", ops.Args{}, ref, indices, updates)
}

// ScatterMax is ScatterAdd keeping the larger of each element and update.
func (g *Graph) ScatterMax(ref, indices, updates *Variable) *Variable {
	return g.Apply("scatter_max", ops.Args{}, ref, indices, updates)
}

// ScatterMin is ScatterAdd keeping the smaller of each element and update.
func (g *Graph) ScatterMin(ref, indices, updates *Variable) *Variable {
	return g.Apply("scatter_min", ops.Args{}, ref, indices, updates)
}

// ScatterUpdate is ScatterAdd replacing the slices by the updates (the
// last one wins where indices repeat).
func (g *Graph) ScatterUpdate(ref, indices, updates *Variable) *Variable {
	return g.Apply("scatter_upd", ops.Args{}, ref, indices, updates)
}

// ScatterNDAdd returns ref with the updates added at the index tuples on
// the last axis of indices.
func (g *Graph) ScatterNDAdd(ref, indices, updates *Variable) *Variable {
	return g.Apply("scatter_nd_add", ops.Args{}, ref, indices, updates)
}

// ScatterNDSub is ScatterNDAdd subtracting the updates.
func (g *Graph) ScatterNDSub(ref, indices, updates *Variable) *Variable {
	return g.Apply("scatter_nd_sub", ops.Args{}, ref, indices, updates)
}

// SizeOf returns the number of elements of x as an int64 scalar.
func (g *Graph) SizeOf(x *Variable) *Variable { return g.Apply("size", ops.Args{}, x) }

// RankOf returns the rank of x as an int32 scalar.
func (g *Graph) RankOf(x *Variable) *Variable { return g.Apply("rank", ops.Args{}, x) }

// SizeAt returns the size of x along axis as an int64 scalar.
func (g *Graph) SizeAt(x *Variable, axis int) *Variable {
	return g.Apply("size_at", ops.Args{I: []int64{int64(axis)}}, x)
}

// Flatten returns the elements of xs (of one dtype) joined into one
// vector, each read row-major, or column-major when columnMajor is set.
func (g *Graph) Flatten(columnMajor bool, xs ...*Variable) *Variable {
	order := int64('c')
	if columnMajor {
		order = 'f'
	}
	return g.Apply("flatten", ops.Args{I: []int64{order}}, xs...)
}

// Repeat returns v with each element along axis repeated count times
// (numpy's repeat).
func (v *Variable) Repeat(count, axis int) *Variable {
	return v.apply("repeat", ops.Args{I: []int64{int64(count), int64(axis)}})
}

// RepeatEach returns v with element i along axis repeated counts[i] times.
func (v *Variable) RepeatEach(counts []int, axis int) *Variable {
	return v.apply("repeat", ops.Args{I: append(toInt64(counts), int64(axis))})
}

// ReverseSequence returns x with, for each entry b along batchAxis, the
// first lengths[b] elements along seqAxis reversed (a length beyond the
// axis is a run-time error).
func (g *Graph) ReverseSequence(x, lengths *Variable, seqAxis, batchAxis int) *Variable {
	return g.Apply("reverse_sequence", ops.Args{I: []int64{int64(seqAxis), int64(batchAxis)}}, x, lengths)
}

// SegmentSum sums the rows (slices along axis 0) of x with the same id;
// ids, one per row, are sorted; the result has last id + 1 rows (empty
// segments give 0).
func (g *Graph) SegmentSum(x, ids *Variable) *Variable {
	return g.Apply("segment_sum", ops.Args{}, x, ids)
}

// SegmentMean is SegmentSum averaging.
func (g *Graph) SegmentMean(x, ids *Variable) *Variable {
	return g.Apply("segment_mean", ops.Args{}, x, ids)
}

// SegmentMax is SegmentSum taking the largest.
func (g *Graph) SegmentMax(x, ids *Variable) *Variable {
	return g.Apply("segment_max", ops.Args{}, x, ids)
}

// SegmentMin is SegmentSum taking the smallest.
func (g *Graph) SegmentMin(x, ids *Variable) *Variable {
	return g.Apply("segment_min", ops.Args{}, x, ids)
}

// SegmentProd is SegmentSum multiplying (empty segments give 1).
func (g *Graph) SegmentProd(x, ids *Variable) *Variable {
	return g.Apply("segment_prod", ops.Args{}, x, ids)
}

// UnsortedSegmentSum sums the rows of x with the same id (any order, in
// [0, num)) into num rows.
func (g *Graph) UnsortedSegmentSum(x, ids *Variable, num int) *Variable {
	return g.Apply("unsorted_segment_sum", ops.Args{I: []int64{int64(num)}}, x, ids)
}

// UnsortedSegmentMean is UnsortedSegmentSum averaging.
func (g *Graph) UnsortedSegmentMean(x, ids *Variable, num int) *Variable {
	return g.Apply("unsorted_segment_mean", ops.Args{I: []int64{int64(num)}}, x, ids)
}

// UnsortedSegmentMax is UnsortedSegmentSum taking the largest (an empty
// segment gives the dtype's lowest value, -Inf for floats).
func (g *Graph) UnsortedSegmentMax(x, ids *Variable, num int) *Variable {
	return g.Apply("unsorted_segment_max", ops.Args{I: []int64{int64(num)}}, x, ids)
}

// UnsortedSegmentMin is UnsortedSegmentSum taking the smallest (an empty
// segment gives the dtype's highest value, +Inf for floats).
func (g *Graph) UnsortedSegmentMin(x, ids *Variable, num int) *Variable {
	return g.Apply("unsorted_segment_min", ops.Args{I: []int64{int64(num)}}, x, ids)
}

// UnsortedSegmentProd is UnsortedSegmentSum multiplying.
func (g *Graph) UnsortedSegmentProd(x, ids *Variable, num int) *Variable {
	return g.Apply("unsorted_segment_prod", ops.Args{I: []int64{int64(num)}}, x, ids)
}

// UnsortedSegmentSqrtN is UnsortedSegmentSum divided by the square root of
// each segment's row count.
func (g *Graph) UnsortedSegmentSqrtN(x, ids *Variable, num int) *Variable {
	return g.Apply("unsorted_segment_sqrt_n", ops.Args{I: []int64{int64(num)}}, x, ids)
}
