package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// Ops of SameDiff's base namespace about sizes and layouts: size, rank,
// size_at, flatten, repeat and reverse_sequence.

// ---------------------------------------------------------------- size, rank, size_at

// scalarInfo returns a scalar Info of dtype dt, holding v when known.
func scalarInfo(dt ndarray.DType, v int64, known bool) Info {
	o := Info{DType: dt, Shape: []int{}}
	if known {
		o.Value, _ = ndarray.ScalarOf(dt, float64(v))
	}
	return o
}

// sizeOp is libnd4j's size: the number of elements of x, an int64 scalar.
var sizeOp = Register(&Def{
	Name: "size", Type: Custom, MinIn: 1, MaxIn: 1, NonDiff: []int{0}, Flags: AnyDType,
	Doc: "the number of elements of x (int64 scalar)",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		n := int64(1)
		for _, d := range in[0].Shape {
			n *= int64(d)
		}
		return infos(scalarInfo(ndarray.Int64, n, in[0].ShapeKnown())), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		return one(ndarray.ScalarOf(ndarray.Int64, float64(in[0].Size())))
	},
})

// rankOp is libnd4j's rank: the rank of x, an int32 scalar.
var rankOp = Register(&Def{
	Name: "rank", Type: Custom, MinIn: 1, MaxIn: 1, NonDiff: []int{0}, Flags: AnyDType,
	Doc: "the rank of x (int32 scalar)",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		return infos(scalarInfo(ndarray.Int32, int64(len(in[0].Shape)), !in[0].UnknownRank)), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		return one(ndarray.ScalarOf(ndarray.Int32, float64(in[0].Rank())))
	},
})

// sizeAtOp is libnd4j's size_at: the size of axis int arg 0 (negative
// counts from the end), an int64 scalar.
var sizeAtOp = Register(&Def{
	Name: "size_at", Type: Custom, MinIn: 1, MaxIn: 1, NonDiff: []int{0}, Flags: AnyDType,
	Doc: "the size of x along axis int arg 0 (int64 scalar)",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		if len(a.I) == 0 {
			return nil, fmt.Errorf("size_at needs the axis as int arg 0")
		}
		if in[0].UnknownRank {
			return infos(scalarInfo(ndarray.Int64, 0, false)), nil
		}
		ax, err := normAxis("size_at", int(a.I[0]), len(in[0].Shape))
		if err != nil {
			return nil, err
		}
		d := in[0].Shape[ax]
		return infos(scalarInfo(ndarray.Int64, int64(d), d >= 0)), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		if len(a.I) == 0 {
			return nil, fmt.Errorf("size_at needs the axis as int arg 0")
		}
		ax, err := normAxis("size_at", int(a.I[0]), in[0].Rank())
		if err != nil {
			return nil, err
		}
		return one(ndarray.ScalarOf(ndarray.Int64, float64(in[0].Shape()[ax])))
	},
})

// ---------------------------------------------------------------- flatten

// flattenOrder returns whether flatten reads in Fortran order: int arg 0
// is the order character, 'c' (99, the default) or 'f' (102).
func flattenOrder(a *Args) (bool, error) {
	switch o := a.Int(0, 'c'); o {
	case 'c', 'C':
		return false, nil
	case 'f', 'F':
		return true, nil
	default:
		return false, fmt.Errorf("flatten: order %d (int arg 0); want 'c' (99) or 'f' (102)", o)
	}
}

// reversedAxes returns the permutation that reverses r axes.
func reversedAxes(r int) []int {
	p := make([]int, r)
	for i := range p {
		p[i] = r - 1 - i
	}
	return p
}

// flattenOp is libnd4j's flatten: every input (one dtype) read in the
// order of int arg 0 ('c' = 99, row-major, the default; 'f' = 102,
// column-major) and joined into one vector.
var flattenOp = Register(&Def{
	Name: "flatten", Type: Custom, MinIn: 1, MaxIn: -1,
	Doc: "the inputs' elements, each read in order int arg 0 ('c' 99 default, 'f' 102), joined into one vector",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		if _, err := flattenOrder(a); err != nil {
			return nil, err
		}
		if err := sameDTypes("flatten", in); err != nil {
			return nil, err
		}
		if err := needNumericOrBool("flatten", in[0]); err != nil {
			return nil, err
		}
		n := 0
		for _, x := range in {
			if !x.ShapeKnown() {
				return infos(Info{DType: in[0].DType, Shape: []int{-1}}), nil
			}
			size := 1
			for _, d := range x.Shape {
				size *= d
			}
			n += size
		}
		return infos(Info{DType: in[0].DType, Shape: []int{n}}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		fort, err := flattenOrder(a)
		if err != nil {
			return nil, err
		}
		parts := make([]*ndarray.Array, len(in))
		for i, x := range in {
			if x.DType() != in[0].DType() {
				return nil, fmt.Errorf("flatten: input %d is %v, input 0 %v", i, x.DType(), in[0].DType())
			}
			if fort && x.Rank() > 1 {
				if x, err = ndarray.Permute(x, reversedAxes(x.Rank())...); err != nil {
					return nil, err
				}
			}
			cx, err := ndarray.Contiguous(x)
			if err != nil {
				return nil, err
			}
			if parts[i], err = ndarray.Reshape(cx, x.Size()); err != nil {
				return nil, err
			}
		}
		if len(parts) == 1 {
			return one(ndarray.Copy(parts[0]))
		}
		dt, shape, err := ndarray.ConcatResult(0, parts...)
		if err != nil {
			return nil, err
		}
		out := c.Alloc(dt, shape)
		return one(out, ndarray.ConcatInto(out, 0, parts...))
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		fort := n.Args.Int(0, 'c') == 'f' || n.Args.Int(0, 'c') == 'F'
		res := make([]Value, len(n.In))
		off := b.Const(ndarray.Must(ndarray.Wrap([]int64{0}, 1)))
		for i, x := range n.In {
			sz := op1(b, "reshape", Args{I: []int64{1}}, op1(b, "size", Args{}, x))
			piece := op1(b, "slice", Args{}, d[0], off, sz)
			if fort && len(x.Info().Shape) > 1 {
				p := reversedAxes(len(x.Info().Shape))
				t := op1(b, "permute", Args{I: toI64(p)}, x)
				res[i] = op1(b, "permute", Args{I: toI64(p)}, reshapeLike(b, piece, t))
			} else {
				res[i] = reshapeLike(b, piece, x)
			}
			if i+1 < len(n.In) {
				off = op1(b, "add", Args{}, off, sz)
			}
		}
		return res
	},
})

func toI64(v []int) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}

// ---------------------------------------------------------------- repeat

// repeatIndices returns, for repeats (one count for every element, or one
// per element) along an axis of size n, the source index of each output
// position.
func repeatIndices(op string, reps []int, n int) ([]int, error) {
	if len(reps) != 1 && len(reps) != n {
		return nil, fmt.Errorf("%s: %d repeat counts for an axis of size %d (want 1 or %d)", op, len(reps), n, n)
	}
	count := func(i int) int {
		if len(reps) > 1 {
			return reps[i]
		}
		return reps[0]
	}
	total := 0
	for i := 0; i < n; i++ {
		r := count(i)
		if r < 0 {
			return nil, fmt.Errorf("%s: negative repeat count %d", op, r)
		}
		if r > maxRepeat-total {
			return nil, fmt.Errorf("%s: more than %d elements along the axis", op, maxRepeat)
		}
		total += r
	}
	if err := reserve[int](op, total); err != nil {
		return nil, err
	}
	idx := make([]int, 0, total)
	for i := 0; i < n; i++ {
		for range count(i) {
			idx = append(idx, i)
		}
	}
	return idx, nil
}

// maxRepeat bounds the length of repeat's output axis: the counts are
// values, not sizes.
const maxRepeat = 1 << 26

// repeatArgs splits repeat's int args: the counts, then the axis (last).
func repeatArgs(a *Args) (reps []int, axis int, err error) {
	if len(a.I) < 2 {
		return nil, 0, fmt.Errorf("repeat needs the repeat counts and then the axis as int args, got %d", len(a.I))
	}
	return intsOf(a.I[:len(a.I)-1]), int(a.I[len(a.I)-1]), nil
}

// repeatOp is libnd4j's repeat (numpy's repeat): int args the repeat
// counts (one for every element, or one per element along the axis), then
// the axis; each element of x along the axis repeated its count of times.
var repeatOp = Register(&Def{
	Name: "repeat", Type: Custom, MinIn: 1, MaxIn: 1,
	Doc: "each element of x along the axis (last int arg) repeated by the counts (the int args before it)",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		x := in[0]
		if err := needNumericOrBool("repeat", x); err != nil {
			return nil, err
		}
		reps, axis, err := repeatArgs(a)
		if err != nil {
			return nil, err
		}
		if x.UnknownRank {
			return infos(Info{DType: x.DType, UnknownRank: true}), nil
		}
		if axis, err = normAxis("repeat", axis, len(x.Shape)); err != nil {
			return nil, err
		}
		s := append([]int(nil), x.Shape...)
		if s[axis] >= 0 || len(reps) > 1 {
			n := s[axis]
			if n < 0 {
				n = len(reps)
			}
			idx, err := repeatIndices("repeat", reps, n)
			if err != nil {
				return nil, err
			}
			s[axis] = len(idx)
		}
		return infos(Info{DType: x.DType, Shape: s}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x := in[0]
		reps, axis, err := repeatArgs(a)
		if err != nil {
			return nil, err
		}
		if axis, err = normAxis("repeat", axis, x.Rank()); err != nil {
			return nil, err
		}
		idx, err := repeatIndices("repeat", reps, x.Shape()[axis])
		if err != nil {
			return nil, err
		}
		offs, err := gatherPlan("repeat", x.Shape(), axis, idx)
		if err != nil {
			return nil, err
		}
		return one(gatherOffsets(x, offs, gatherShape(x.Shape(), axis, []int{len(idx)})))
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		x := n.In[0]
		reps, axis, _ := repeatArgs(n.Args)
		r := len(x.Info().Shape)
		if axis < 0 {
			axis += r
		}
		if len(reps) > 1 {
			// Per-element counts: repeat is a gather of known indices.
			idx, _ := repeatIndices("repeat", reps, len(reps))
			iv := ndarray.Must(ndarray.Wrap(toI64(idx), len(idx)))
			return []Value{op1(b, "gather_bp", Args{I: []int64{int64(axis)}}, op1(b, "shape_of", Args{}, x), b.Const(iv), d[0])}
		}
		// One count k: d reshaped to x.shape[:axis+1] + [k] + x.shape[axis+1:],
		// summed over the new axis.
		sv := op1(b, "shape_of", Args{}, x)
		head := op1(b, "slice", Args{I: []int64{0, int64(axis + 1)}}, sv)
		tail := op1(b, "slice", Args{I: []int64{int64(axis + 1), -1}}, sv)
		k := b.Const(ndarray.Must(ndarray.Wrap([]int64{int64(reps[0])}, 1)))
		shape := op1(b, "concat", Args{I: []int64{0}}, head, k, tail)
		return []Value{op1(b, "reduce_sum", ReduceArgs(false, axis+1), op1(b, "reshape", Args{}, d[0], shape))}
	},
})

// ---------------------------------------------------------------- reverse_sequence

// reverseSequenceOffsets returns, for x of shape s, the packed offset of
// the element each output element takes: along seqDim the first
// lens[b] elements of batch b reversed, the rest in place.
func reverseSequenceOffsets(op string, s []int, lens []int, seqDim, batchDim int) ([]int, error) {
	if len(lens) != s[batchDim] {
		return nil, fmt.Errorf("%s: %d sequence lengths for axis %d of shape %v", op, len(lens), batchDim, s)
	}
	for b, l := range lens {
		if l < 0 || l > s[seqDim] {
			return nil, fmt.Errorf("%s: sequence length %d (batch %d) is out of range for axis %d of shape %v", op, l, b, seqDim, s)
		}
	}
	st := ndarray.PackedStrides(s)
	size := 1
	for _, d := range s {
		size *= d
	}
	offs := make([]int, size)
	idx := make([]int, len(s))
	for i := range offs {
		rem := i
		for j := len(s) - 1; j >= 0; j-- {
			idx[j] = rem % s[j]
			rem /= s[j]
		}
		off := i
		if l, t := lens[idx[batchDim]], idx[seqDim]; t < l {
			off += (l - 1 - 2*t) * st[seqDim]
		}
		offs[i] = off
	}
	return offs, nil
}

// reverseSequenceOp is libnd4j's reverse_sequence: inputs x (rank >= 2)
// and the sequence lengths (an integer vector along the batch axis); int
// args: the sequence axis, the batch axis (default 0). For each batch
// entry b the first lengths[b] elements along the sequence axis are
// reversed; a length beyond the axis is an error.
var reverseSequenceOp = Register(&Def{
	Name: "reverse_sequence", Type: Custom, MinIn: 2, MaxIn: 2, NonDiff: []int{1},
	Doc: "x with the first lengths[b] elements along the sequence axis (int arg 0) of each batch entry b (axis int arg 1, default 0) reversed",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		x := in[0]
		if err := needNumericOrBool("reverse_sequence", x); err != nil {
			return nil, err
		}
		if err := needIntInput("reverse_sequence", "the sequence lengths", in[1]); err != nil {
			return nil, err
		}
		if len(a.I) == 0 {
			return nil, fmt.Errorf("reverse_sequence needs the sequence axis as int arg 0")
		}
		if !x.UnknownRank {
			if _, _, err := seqAxes(a, len(x.Shape)); err != nil {
				return nil, err
			}
		}
		return infos(same(x)), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x := in[0]
		seqDim, batchDim, err := seqAxes(a, x.Rank())
		if err != nil {
			return nil, err
		}
		lens, err := arrayInts("reverse_sequence: the sequence lengths", in[1])
		if err != nil {
			return nil, err
		}
		if in[1].Rank() != 1 {
			return nil, fmt.Errorf("reverse_sequence: the sequence lengths have shape %v; want a vector", in[1].Shape())
		}
		offs, err := reverseSequenceOffsets("reverse_sequence", x.Shape(), lens, seqDim, batchDim)
		if err != nil {
			return nil, err
		}
		return one(gatherOffsets(x, offs, x.Shape()))
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		// Reversing the same prefixes again puts every element back.
		return []Value{op1(b, "reverse_sequence", n.Args.Clone(), d[0], n.In[1]), nil}
	},
})

// seqAxes returns reverse_sequence's sequence and batch axes, checked.
func seqAxes(a *Args, rank int) (seqDim, batchDim int, err error) {
	if rank < 2 {
		return 0, 0, fmt.Errorf("reverse_sequence of a rank-%d input; want rank 2 or more", rank)
	}
	if seqDim, err = normAxis("reverse_sequence", int(a.Int(0, 0)), rank); err != nil {
		return 0, 0, err
	}
	if batchDim, err = normAxis("reverse_sequence", int(a.Int(1, 0)), rank); err != nil {
		return 0, 0, err
	}
	if seqDim == batchDim {
		return 0, 0, fmt.Errorf("reverse_sequence: the sequence and batch axes are both %d", seqDim)
	}
	return seqDim, batchDim, nil
}
