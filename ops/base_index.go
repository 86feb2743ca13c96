package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// Ops of SameDiff's base namespace that index: assign, strided_slice and
// scatter_nd_update, with their backprop ops.

// ---------------------------------------------------------------- assign

// assignOp is libnd4j's assign: y broadcast to the shape of x (and of y:
// their broadcast shape) in x's dtype; with one input, a copy of x.
var assignOp = Register(&Def{
	Name: "assign", Type: Custom, MinIn: 1, MaxIn: 2,
	Doc: "y broadcast to x's shape, in x's dtype (one input: a copy of x)",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		x := in[0]
		if err := needNumericOrBool("assign", x); err != nil {
			return nil, err
		}
		if len(in) == 1 {
			return infos(same(x)), nil
		}
		y := in[1]
		if err := needNumericOrBool("assign", y); err != nil {
			return nil, err
		}
		o, err := BroadcastInfo(Info{DType: x.DType, Shape: x.Shape, UnknownRank: x.UnknownRank},
			Info{DType: x.DType, Shape: y.Shape, UnknownRank: y.UnknownRank})
		if err != nil {
			return nil, fmt.Errorf("assign: %w", err)
		}
		return infos(o), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		x := in[0]
		if len(in) == 1 {
			return one(ndarray.Copy(x))
		}
		shape, err := ndarray.BroadcastShapes(x.Shape(), in[1].Shape())
		if err != nil {
			return nil, fmt.Errorf("assign: %w", err)
		}
		y, err := ndarray.Cast(in[1], x.DType())
		if err != nil {
			return nil, err
		}
		return one(ndarray.BroadcastTo(y, shape...))
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		if len(n.In) == 1 {
			return []Value{d[0]}
		}
		// x only gives the shape and dtype: no gradient flows to it.
		dx := op1(b, "zeros_as", Args{}, n.In[0])
		y := n.In[1]
		if !y.Info().DType.IsFloat() {
			return []Value{dx, nil}
		}
		g := d[0]
		if g.Info().DType != y.Info().DType {
			g = op1(b, "cast", Args{D: []ndarray.DType{y.Info().DType}}, g)
		}
		return []Value{dx, op1(b, "reduce_to_shape_of", Args{}, g, y)}
	},
})

// ---------------------------------------------------------------- strided_slice

// Strided slice masks, in the order of libnd4j's int args 0-4.
const (
	ssBegin = iota
	ssEllipsis
	ssEnd
	ssNewAxis
	ssShrink
)

// ssSpec is a strided slice resolved against an input shape: per input
// axis the first index, the step and the count; which axes are shrunk; and
// the output shape.
type ssSpec struct {
	begin, step, count []int
	out                []int
}

// ssArgs returns the masks and the begin/end/strides vectors from the int
// args (5 masks, then begin..., end..., strides...) or from inputs 1-3
// (vals; strides default to 1).
func ssArgs(a *Args, vals [][]int) (masks [5]int, begin, end, strides []int, err error) {
	if len(a.I) < 5 {
		return masks, nil, nil, nil, fmt.Errorf("strided_slice needs the 5 masks as int args (begin, ellipsis, end, new axis, shrink), got %d", len(a.I))
	}
	for i := range masks {
		masks[i] = int(a.I[i])
	}
	switch {
	case len(a.I) > 5:
		rest := intsOf(a.I[5:])
		if len(rest)%3 != 0 {
			return masks, nil, nil, nil, fmt.Errorf("strided_slice: %d int args after the masks; want begin, end and strides of one length", len(rest))
		}
		k := len(rest) / 3
		begin, end, strides = rest[:k], rest[k:2*k], rest[2*k:]
	case len(vals) >= 2:
		begin, end = vals[0], vals[1]
		if len(vals) > 2 {
			strides = vals[2]
		} else {
			strides = make([]int, len(begin))
			for i := range strides {
				strides[i] = 1
			}
		}
		if len(end) != len(begin) || len(strides) != len(begin) {
			return masks, nil, nil, nil, fmt.Errorf("strided_slice: begin %v, end %v and strides %v differ in length", begin, end, strides)
		}
	default:
		return masks, nil, nil, nil, fmt.Errorf("strided_slice needs begin, end (and strides) as inputs 1-3 or after the masks in the int args")
	}
	return masks, begin, end, strides, nil
}

// resolveStridedSlice applies TensorFlow's strided-slice rules to shape.
func resolveStridedSlice(shape []int, masks [5]int, begin, end, strides []int) (*ssSpec, error) {
	bit := func(m, i int) bool { return m&(1<<i) != 0 }
	k := len(begin)
	ellipsis := -1
	for i := 0; i < k; i++ {
		if bit(masks[ssEllipsis], i) {
			if ellipsis >= 0 {
				return nil, fmt.Errorf("strided_slice: more than one ellipsis in mask %b", masks[ssEllipsis])
			}
			ellipsis = i
		}
	}
	// Sparse entries that consume input axes.
	real := 0
	for i := 0; i < k; i++ {
		if i != ellipsis && !bit(masks[ssNewAxis], i) {
			real++
		}
	}
	r := len(shape)
	if real > r {
		return nil, fmt.Errorf("strided_slice of shape %v: %d indexed axes", shape, real)
	}
	sp := &ssSpec{begin: make([]int, r), step: make([]int, r), count: make([]int, r)}
	axis := 0
	full := func() { // an axis taken whole
		sp.begin[axis], sp.step[axis], sp.count[axis] = 0, 1, shape[axis]
		sp.out = append(sp.out, shape[axis])
		axis++
	}
	for i := 0; i <= k; i++ {
		if i == k {
			for axis < r { // the implicit ellipsis at the end
				full()
			}
			break
		}
		switch {
		case i == ellipsis:
			for n := r - real; n > 0; n-- {
				full()
			}
		case bit(masks[ssNewAxis], i):
			sp.out = append(sp.out, 1)
		default:
			size, st := shape[axis], strides[i]
			if st == 0 {
				return nil, fmt.Errorf("strided_slice of shape %v: stride 0 at index %d", shape, i)
			}
			if bit(masks[ssShrink], i) {
				b := begin[i]
				if b < 0 {
					b += size
				}
				if b < 0 || b >= size {
					return nil, fmt.Errorf("strided_slice of shape %v: index %d is out of range on axis %d", shape, begin[i], axis)
				}
				sp.begin[axis], sp.step[axis], sp.count[axis] = b, 1, 1
				axis++
				continue
			}
			lo, hi := 0, size // the valid range for the first index
			if st < 0 {
				lo, hi = -1, size-1
			}
			canon := func(x int, masked bool, isEnd bool) int {
				if masked {
					if (st > 0) != isEnd {
						return lo
					}
					return hi
				}
				if x < 0 {
					x += size
				}
				return min(max(x, lo), hi)
			}
			b := canon(begin[i], bit(masks[ssBegin], i), false)
			e := canon(end[i], bit(masks[ssEnd], i), true)
			n := 0
			if d := e - b; (d > 0) == (st > 0) && d != 0 {
				// ⌈d/st⌉ without forming d + st, which overflows for
				// strides near the int64 limits: |d| ≤ the axis size.
				if st > 0 {
					n = (d-1)/st + 1
				} else {
					n = (d+1)/st + 1
				}
			}
			sp.begin[axis], sp.step[axis], sp.count[axis] = b, st, n
			sp.out = append(sp.out, n)
			axis++
		}
	}
	return sp, nil
}

// offsets returns, for every output element in C order, the position of
// its input element in a packed array of shape.
func (sp *ssSpec) offsets(shape []int) []int {
	strides := ndarray.PackedStrides(shape)
	n := 1
	for _, c := range sp.count {
		n *= c
	}
	out := make([]int, 0, n)
	if n == 0 {
		return out
	}
	r := len(shape)
	idx := make([]int, r)
	for {
		off := 0
		for i := 0; i < r; i++ {
			off += (sp.begin[i] + idx[i]*sp.step[i]) * strides[i]
		}
		out = append(out, off)
		i := r - 1
		for ; i >= 0; i-- {
			idx[i]++
			if idx[i] < sp.count[i] {
				break
			}
			idx[i] = 0
		}
		if i < 0 {
			return out
		}
	}
}

// ssInputVals reads begin/end/strides inputs (those of inputs 1-3 present).
func ssInputVals(in []*ndarray.Array) ([][]int, error) {
	var vals [][]int
	for i, x := range in {
		v, err := arrayInts([]string{"the begin input", "the end input", "the strides input"}[i], x)
		if err != nil {
			return nil, err
		}
		vals = append(vals, v)
	}
	return vals, nil
}

func ssInferVals(in []Info) ([][]int, bool) {
	var vals [][]int
	for _, x := range in {
		v, ok := constInts(x)
		if !ok {
			return nil, false
		}
		vals = append(vals, v)
	}
	return vals, true
}

// gatherOffsets returns x's elements at the packed offsets.
func gatherOffsets(x *ndarray.Array, offs []int, shape []int) (*ndarray.Array, error) {
	switch x.DType() {
	case ndarray.Float32:
		return gatherT[float32](x, offs, shape)
	case ndarray.Float64:
		return gatherT[float64](x, offs, shape)
	case ndarray.Int32:
		return gatherT[int32](x, offs, shape)
	case ndarray.Int64:
		return gatherT[int64](x, offs, shape)
	case ndarray.Bool:
		return gatherT[bool](x, offs, shape)
	}
	return nil, fmt.Errorf("cannot gather from %v arrays", x.DType())
}

func gatherT[T ndarray.Elem](x *ndarray.Array, offs []int, shape []int) (*ndarray.Array, error) {
	src, err := packedValues[T](x)
	if err != nil {
		return nil, err
	}
	out := make([]T, len(offs))
	for i, o := range offs {
		out[i] = src[o]
	}
	return ndarray.Wrap(out, shape...)
}

// packedValues returns a's elements in C order for reading: a's own buffer
// when a is packed, so that a packed input is not copied.
func packedValues[T ndarray.Elem](a *ndarray.Array) ([]T, error) {
	if a.Size() == 0 {
		return nil, nil
	}
	c, err := ndarray.Contiguous(a)
	if err != nil {
		return nil, err
	}
	return ndarray.Raw[T](c)[c.Offset() : c.Offset()+c.Size()], nil
}

// scatterAddOffsets returns zeros of shape with g's elements added at the
// packed offsets.
func scatterAddOffsets(g *ndarray.Array, offs []int, shape []int) (*ndarray.Array, error) {
	switch g.DType() {
	case ndarray.Float32:
		return scatterAddT[float32](g, offs, shape)
	case ndarray.Float64:
		return scatterAddT[float64](g, offs, shape)
	}
	return nil, fmt.Errorf("cannot scatter a %v gradient", g.DType())
}

func scatterAddT[T ndarray.Float](g *ndarray.Array, offs []int, shape []int) (*ndarray.Array, error) {
	src, err := packedValues[T](g)
	if err != nil {
		return nil, err
	}
	n := 1
	for _, d := range shape {
		n *= d
	}
	out := make([]T, n)
	for i, o := range offs {
		if o >= 0 {
			out[o] += src[i]
		}
	}
	return ndarray.Wrap(out, shape...)
}

// stridedSliceOp is libnd4j's strided_slice (SameDiff's stridedslice):
// int args 0-4 are the begin, ellipsis, end, new-axis and shrink-axis masks
// (bit i for index i); begin, end and strides follow in the int args, or
// come as inputs 1, 2 and 3 (strides default to 1). TensorFlow's rules:
// negative indices count from the end, out-of-range ones are clamped, a
// shrunk axis is indexed and dropped, a new axis adds a size-1 axis, the
// ellipsis stands for the axes not indexed.
var stridedSliceOp = Register(&Def{
	Name: "stridedslice", Aliases: []string{"strided_slice", "StridedSlice"}, Type: Custom, Num: Hash("strided_slice"),
	MinIn: 1, MaxIn: 4, NonDiff: []int{1, 2, 3},
	Doc: "a strided slice of x (TensorFlow's rules); int args: begin, ellipsis, end, new-axis, shrink masks, then begin..., end..., strides... unless inputs 1-3 give them",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		x := in[0]
		if err := needNumericOrBool("stridedslice", x); err != nil {
			return nil, err
		}
		for _, v := range in[1:] {
			if err := needIntInput("stridedslice", "begin, end and strides", v); err != nil {
				return nil, err
			}
		}
		vals, ok := ssInferVals(in[1:])
		if x.UnknownRank || (!ok && len(a.I) <= 5) {
			return infos(Info{DType: x.DType, UnknownRank: true}), nil
		}
		masks, begin, end, strides, err := ssArgs(a, vals)
		if err != nil {
			return nil, err
		}
		if !x.ShapeKnown() {
			return infos(Info{DType: x.DType, UnknownRank: true}), nil
		}
		sp, err := resolveStridedSlice(x.Shape, masks, begin, end, strides)
		if err != nil {
			return nil, err
		}
		return infos(Info{DType: x.DType, Shape: sp.out}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		vals, err := ssInputVals(in[1:])
		if err != nil {
			return nil, err
		}
		masks, begin, end, strides, err := ssArgs(a, vals)
		if err != nil {
			return nil, err
		}
		x := in[0]
		sp, err := resolveStridedSlice(x.Shape(), masks, begin, end, strides)
		if err != nil {
			return nil, err
		}
		return one(gatherOffsets(x, sp.offsets(x.Shape()), sp.out))
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		res := make([]Value, len(n.In))
		res[0] = bpOp("strided_slice_bp")(b, n, d)[0]
		return res
	},
})

// stridedSliceBpOp is stridedslice's gradient (libnd4j strided_slice_bp):
// inputs x, [begin, end, strides,] gradO with stridedslice's args; gradO
// scattered into zeros of x's shape.
var stridedSliceBpOp = Register(&Def{
	Name: "strided_slice_bp", Type: Custom, MinIn: 2, MaxIn: 5, NonDiff: []int{1, 2, 3},
	Doc: "gradient of stridedslice for inputs x, [begin, end, strides,] gradO: gradO scattered into zeros of x's shape",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		return gradInfos("strided_slice_bp", in[len(in)-1], in[0])
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x, g := in[0], in[len(in)-1]
		vals, err := ssInputVals(in[1 : len(in)-1])
		if err != nil {
			return nil, err
		}
		masks, begin, end, strides, err := ssArgs(a, vals)
		if err != nil {
			return nil, err
		}
		sp, err := resolveStridedSlice(x.Shape(), masks, begin, end, strides)
		if err != nil {
			return nil, err
		}
		if !ndarray.SameShape(g.Shape(), sp.out) {
			return nil, fmt.Errorf("strided_slice_bp: gradient of shape %v for a slice of shape %v", g.Shape(), sp.out)
		}
		return one(scatterAddOffsets(g, sp.offsets(x.Shape()), x.Shape()))
	},
})

// ---------------------------------------------------------------- scatter_nd_update

// scatterNDPlan checks the shapes of op (scatter_nd_update, _add or _sub)
// and returns, per update slot (a row of indices), the packed offset in ref
// of its slice, and the slice length.
func scatterNDPlan(op string, ref []int, idx *ndarray.Array, upd []int) (starts []int, slice int, err error) {
	is := idx.Shape()
	if len(is) == 0 {
		return nil, 0, fmt.Errorf("%s: the indices are a scalar; they need a last axis of index tuples", op)
	}
	k := is[len(is)-1]
	if k > len(ref) {
		return nil, 0, fmt.Errorf("%s: index tuples of %d entries into shape %v", op, k, ref)
	}
	want := append(append([]int(nil), is[:len(is)-1]...), ref[k:]...)
	if !ndarray.SameShape(want, upd) {
		return nil, 0, fmt.Errorf("%s: updates of shape %v; indices %v into shape %v need %v", op, upd, is, ref, want)
	}
	slice = 1
	for _, d := range ref[k:] {
		slice *= d
	}
	strides := ndarray.PackedStrides(ref)
	vals := idx.Int64s()
	rows := 1
	for _, d := range is[:len(is)-1] {
		rows *= d
	}
	if err := reserve[int](op, rows); err != nil {
		return nil, 0, err // the indices may have no elements, whatever their rows
	}
	starts = make([]int, rows)
	for r := 0; r < rows; r++ {
		off := 0
		for j := 0; j < k; j++ {
			v := int(vals[r*k+j])
			if v < 0 || v >= ref[j] {
				return nil, 0, fmt.Errorf("%s: index %v (row %d of the indices) is out of range for shape %v", op, vals[r*k:r*k+k], r, ref)
			}
			off += v * strides[j]
		}
		starts[r] = off
	}
	return starts, slice, nil
}

func scatterNDT[T ndarray.Elem](ref, upd *ndarray.Array, starts []int, slice int) (*ndarray.Array, error) {
	out := ndarray.Values[T](ref)
	src, err := packedValues[T](upd)
	if err != nil {
		return nil, err
	}
	for r, s := range starts {
		copy(out[s:s+slice], src[r*slice:(r+1)*slice])
	}
	return ndarray.Wrap(out, ref.Shape()...)
}

// scatterNDBpT returns scatter_nd_update's gradients in g's dtype: g with
// the replaced slices zeroed (ref's), and g's slices for the updates that
// won (the updates').
func scatterNDBpT[T ndarray.Elem](g *ndarray.Array, starts []int, slice int, updShape []int) ([]*ndarray.Array, error) {
	gv, err := packedValues[T](g)
	if err != nil {
		return nil, err
	}
	dref := append(make([]T, 0, len(gv)), gv...)
	dupd := make([]T, len(starts)*slice)
	last := map[int]int{} // slice start -> the update that wins
	for r, s := range starts {
		last[s] = r
	}
	var zero T
	for r, s := range starts {
		if last[s] == r {
			copy(dupd[r*slice:(r+1)*slice], gv[s:s+slice])
		}
		for j := s; j < s+slice; j++ {
			dref[j] = zero
		}
	}
	a, err := ndarray.Wrap(dref, g.Shape()...)
	if err != nil {
		return nil, err
	}
	u, err := ndarray.Wrap(dupd, updShape...)
	if err != nil {
		return nil, err
	}
	return []*ndarray.Array{a, u}, nil
}

// scatterNDUpdateOp is libnd4j's scatter_nd_update: inputs ref, indices (an
// integer array whose last axis holds index tuples into ref's leading axes)
// and updates (of shape indices.shape[:-1] + ref.shape[k:]); a copy of ref
// with each indexed slice replaced by its update (the last one wins where
// indices repeat). Indices out of range are an error.
var scatterNDUpdateOp = Register(&Def{
	Name: "scatter_nd_update", Type: Custom, MinIn: 3, MaxIn: 3, NonDiff: []int{1},
	Doc: "ref with the slices named by the index tuples of input 1 replaced by input 2's",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		ref, idx, upd := in[0], in[1], in[2]
		if err := needNumericOrBool("scatter_nd_update", ref); err != nil {
			return nil, err
		}
		if err := needIntInput("scatter_nd_update", "the indices", idx); err != nil {
			return nil, err
		}
		if upd.DType != ref.DType {
			return nil, fmt.Errorf("scatter_nd_update: the updates are %v, ref is %v", upd.DType, ref.DType)
		}
		return infos(same(ref)), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		ref, idx, upd := in[0], in[1], in[2]
		starts, slice, err := scatterNDPlan("scatter_nd_update", ref.Shape(), idx, upd.Shape())
		if err != nil {
			return nil, err
		}
		switch ref.DType() {
		case ndarray.Float32:
			return one(scatterNDT[float32](ref, upd, starts, slice))
		case ndarray.Float64:
			return one(scatterNDT[float64](ref, upd, starts, slice))
		case ndarray.Int32:
			return one(scatterNDT[int32](ref, upd, starts, slice))
		case ndarray.Int64:
			return one(scatterNDT[int64](ref, upd, starts, slice))
		case ndarray.Bool:
			return one(scatterNDT[bool](ref, upd, starts, slice))
		}
		return nil, fmt.Errorf("scatter_nd_update of %v arrays", ref.DType())
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		out := b.Op("scatter_nd_update_bp", Args{}, n.In[0], n.In[1], n.In[2], d[0])
		return []Value{out[0], nil, out[1]}
	},
})

// scatterNDUpdateBpOp is scatter_nd_update's gradient: inputs ref, indices,
// updates, gradO; outputs the gradients of ref (gradO, zero where a slice
// was replaced) and of the updates (gradO's slices, zero for updates a
// later one overwrote).
var scatterNDUpdateBpOp = Register(&Def{
	Name: "scatter_nd_update_bp", Type: Custom, MinIn: 4, MaxIn: 4, NonDiff: []int{1},
	Doc: "gradients of scatter_nd_update for inputs ref, indices, updates, gradO",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		return gradInfos("scatter_nd_update_bp", in[3], in[0], in[2])
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		ref, idx, upd, g := in[0], in[1], in[2], in[3]
		starts, slice, err := scatterNDPlan("scatter_nd_update", ref.Shape(), idx, upd.Shape())
		if err != nil {
			return nil, err
		}
		if !ndarray.SameShape(g.Shape(), ref.Shape()) {
			return nil, fmt.Errorf("scatter_nd_update_bp: gradient of shape %v for ref of shape %v", g.Shape(), ref.Shape())
		}
		switch g.DType() {
		case ndarray.Float32:
			return scatterNDBpT[float32](g, starts, slice, upd.Shape())
		case ndarray.Float64:
			return scatterNDBpT[float64](g, starts, slice, upd.Shape())
		case ndarray.Int32:
			return scatterNDBpT[int32](g, starts, slice, upd.Shape())
		case ndarray.Int64:
			return scatterNDBpT[int64](g, starts, slice, upd.Shape())
		case ndarray.Bool:
			return scatterNDBpT[bool](g, starts, slice, upd.Shape())
		}
		return nil, fmt.Errorf("scatter_nd_update_bp of a %v gradient", g.DType())
	},
})
