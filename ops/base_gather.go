package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// Ops of SameDiff's base namespace that gather: gather (with gather_bp),
// gather_nd, onehot, Where and sequence_mask. Every index is checked
// against the shape it indexes: one out of range is an error naming the
// op, the index and the shape, never a read outside the buffer.

// ---------------------------------------------------------------- gather

// gatherArgs returns gather's axis and, when the indices come as int args
// (no input 1), those indices and whether they are a scalar (exactly one).
// Int args: axis, then the indices; input 2, when given, holds the axis.
func gatherArgs(a *Args, axisIn []int) (axis int, idx []int, scalar bool) {
	axis = int(a.Int(0, 0))
	if axisIn != nil && len(axisIn) > 0 {
		axis = axisIn[0]
	}
	if len(a.I) > 1 {
		idx = intsOf(a.I[1:])
		scalar = len(idx) == 1
	}
	return axis, idx, scalar
}

// gatherShape returns the output shape of gathering indices of shape is
// from x of shape xs along axis (already in range).
func gatherShape(xs []int, axis int, is []int) []int {
	out := append([]int(nil), xs[:axis]...)
	out = append(out, is...)
	return append(out, xs[axis+1:]...)
}

// normAxis brings a possibly negative axis into [0, rank), or fails
// naming the op.
func normAxis(op string, axis, rank int) (int, error) {
	if axis < -rank || axis >= rank || rank == 0 {
		return 0, fmt.Errorf("%s: axis %d is out of range for rank %d", op, axis, rank)
	}
	if axis < 0 {
		axis += rank
	}
	return axis, nil
}

// gatherPlan returns the packed offsets in x (shape xs) of the elements of
// gather's output, checking every index against the size of the axis.
func gatherPlan(op string, xs []int, axis int, idx []int) ([]int, error) {
	outer, inner := 1, 1
	for _, d := range xs[:axis] {
		outer *= d
	}
	for _, d := range xs[axis+1:] {
		inner *= d
	}
	n := xs[axis]
	for j, v := range idx {
		if v < 0 || v >= n {
			return nil, fmt.Errorf("%s: index %d (position %d of the indices) is out of range for axis %d of shape %v", op, v, j, axis, xs)
		}
	}
	if err := reserve[int](op, outer, len(idx), inner); err != nil {
		return nil, err // as many as the output's elements, which idx may repeat
	}
	offs := make([]int, 0, outer*len(idx)*inner)
	for o := 0; o < outer; o++ {
		for _, v := range idx {
			base := (o*n + v) * inner
			for k := 0; k < inner; k++ {
				offs = append(offs, base+k)
			}
		}
	}
	return offs, nil
}

// gatherBlocks gathers the slices idx of x along axis into an array of
// shape (x's shape with axis replaced by the indices' shape): for each
// outer position and index, one copy of the contiguous block of inner
// elements, so that an embedding lookup moves rows at memory speed. An
// index out of range is an error that names op, the index and the shape.
func gatherBlocks(c *Ctx, op string, x *ndarray.Array, axis int, idx, shape []int) (*ndarray.Array, error) {
	xs := x.Shape()
	n := xs[axis]
	for j, v := range idx {
		if v < 0 || v >= n {
			return nil, fmt.Errorf("%s: index %d (position %d of the indices) is out of range for axis %d of shape %v", op, v, j, axis, xs)
		}
	}
	out, err := c.TryAlloc(x.DType(), shape)
	if err != nil {
		return nil, fmt.Errorf("%s into shape %v: %w", op, shape, err)
	}
	outer, inner := 1, 1
	for _, d := range xs[:axis] {
		outer *= d
	}
	for _, d := range xs[axis+1:] {
		inner *= d
	}
	switch x.DType() {
	case ndarray.Float32:
		err = gatherBlocksT[float32](out, x, outer, n, inner, idx)
	case ndarray.Float64:
		err = gatherBlocksT[float64](out, x, outer, n, inner, idx)
	case ndarray.Int32:
		err = gatherBlocksT[int32](out, x, outer, n, inner, idx)
	case ndarray.Int64:
		err = gatherBlocksT[int64](out, x, outer, n, inner, idx)
	case ndarray.Bool:
		err = gatherBlocksT[bool](out, x, outer, n, inner, idx)
	default:
		err = fmt.Errorf("%s: cannot gather from %v arrays", op, x.DType())
	}
	return out, err
}

func gatherBlocksT[T ndarray.Elem](out, x *ndarray.Array, outer, n, inner int, idx []int) error {
	src, err := packedValues[T](x)
	if err != nil {
		return err
	}
	dst := ndarray.Raw[T](out)[out.Offset():]
	k := 0
	for o := 0; o < outer; o++ {
		for _, v := range idx {
			b := (o*n + v) * inner
			copy(dst[k:k+inner], src[b:b+inner])
			k += inner
		}
	}
	return nil
}

// gatherRunArgs reads gather's axis and indices at run time, returning the
// indices' shape too.
func gatherRunArgs(op string, in []*ndarray.Array, a *Args, rank int) (axis int, idx, is []int, err error) {
	var axisIn []int
	if len(in) > 2 {
		if axisIn, err = arrayInts(op+": the axis", in[2]); err != nil {
			return 0, nil, nil, err
		}
	}
	axis, idx, scalar := gatherArgs(a, axisIn)
	if axis, err = normAxis(op, axis, rank); err != nil {
		return 0, nil, nil, err
	}
	switch {
	case len(in) > 1 && in[1] != nil:
		if idx, err = arrayInts(op+": the indices", in[1]); err != nil {
			return 0, nil, nil, err
		}
		is = in[1].Shape()
	case idx == nil:
		return 0, nil, nil, fmt.Errorf("%s needs the indices as input 1 or as int args after the axis", op)
	case scalar:
		is = []int{}
	default:
		is = []int{len(idx)}
	}
	return axis, idx, is, nil
}

// gatherOp is libnd4j's gather: inputs x, [indices, [axis]]; int args: the
// axis (default 0), then the indices when there is no input 1 (one index
// gives a scalar index: the axis is dropped). The output is x's slices at
// the indices along the axis, of shape x.shape[:axis] + indices.shape +
// x.shape[axis+1:]. Indices must be in [0, size of the axis).
var gatherOp = Register(&Def{
	Name: "gather", Type: Custom, MinIn: 1, MaxIn: 3, NonDiff: []int{1, 2},
	Doc: "x's slices at the indices (input 1 or int args after the axis) along int arg 0 (default 0)",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		x := in[0]
		if err := needNumericOrBool("gather", x); err != nil {
			return nil, err
		}
		for _, v := range in[1:] {
			if err := needIntInput("gather", "the indices and axis", v); err != nil {
				return nil, err
			}
		}
		var axisIn []int
		if len(in) > 2 {
			v, ok := constInts(in[2])
			if !ok {
				return infos(Info{DType: x.DType, UnknownRank: true}), nil
			}
			axisIn = v
		}
		axis, idx, scalar := gatherArgs(a, axisIn)
		if len(in) < 2 && idx == nil {
			return nil, fmt.Errorf("gather needs the indices as input 1 or as int args after the axis")
		}
		if x.UnknownRank {
			return infos(Info{DType: x.DType, UnknownRank: true}), nil
		}
		axis, err := normAxis("gather", axis, len(x.Shape))
		if err != nil {
			return nil, err
		}
		var is []int
		switch {
		case len(in) > 1:
			if in[1].UnknownRank {
				return infos(Info{DType: x.DType, UnknownRank: true}), nil
			}
			is = in[1].Shape
		case scalar:
			is = []int{}
		default:
			is = []int{len(idx)}
		}
		if idx != nil && len(in) < 2 && x.Shape[axis] >= 0 {
			if _, err := gatherPlan("gather", x.Shape[axis:axis+1], 0, idx); err != nil {
				return nil, fmt.Errorf("%w (x has shape %v)", err, x.Shape)
			}
		}
		return infos(Info{DType: x.DType, Shape: gatherShape(x.Shape, axis, is)}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x := in[0]
		axis, idx, is, err := gatherRunArgs("gather", in, a, x.Rank())
		if err != nil {
			return nil, err
		}
		return one(gatherBlocks(c, "gather", x, axis, idx, gatherShape(x.Shape(), axis, is)))
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		x := n.In[0]
		args := Args{I: []int64{n.Args.Int(0, 0)}}
		var idx Value
		if len(n.In) > 1 {
			idx = n.In[1]
		} else {
			v := append([]int64(nil), n.Args.I[1:]...)
			shape := []int{len(v)}
			if len(v) == 1 {
				shape = nil
			}
			idx = b.Const(ndarray.Must(ndarray.Wrap(v, shape...)))
		}
		in := []Value{op1(b, "shape_of", Args{}, x), idx, d[0]}
		if len(n.In) > 2 {
			args = Args{}
			in = append(in[:2:2], n.In[2], d[0])
		}
		res := make([]Value, len(n.In))
		res[0] = op1(b, "gather_bp", args, in...)
		return res
	},
})

// gatherBpOp is gather's gradient, as libnd4j's gather_bp: inputs the
// shape of gather's x (an integer vector), the indices, [the axis,] gradO;
// int arg 0 the axis. gradO added into zeros of that shape at the indices
// (repeated indices add up).
var gatherBpOp = Register(&Def{
	Name: "gather_bp", Type: Custom, MinIn: 3, MaxIn: 4, NonDiff: []int{0, 1, 2},
	Doc: "gradient of gather for inputs x's shape, indices, [axis,] gradO; int arg 0 the axis: gradO added at the indices into zeros",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		g := in[len(in)-1]
		if err := needFloat("gather_bp", g); err != nil {
			return nil, err
		}
		for _, v := range in[:len(in)-1] {
			if err := needIntInput("gather_bp", "the shape, indices and axis", v); err != nil {
				return nil, err
			}
		}
		if s, ok := constInts(in[0]); ok {
			return infos(Info{DType: g.DType, Shape: s}), nil
		}
		if in[0].UnknownRank || len(in[0].Shape) != 1 || in[0].Shape[0] < 0 {
			return infos(Info{DType: g.DType, UnknownRank: true}), nil
		}
		return infos(Info{DType: g.DType, Shape: unknownShape(in[0].Shape[0])}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		shape, err := arrayInts("gather_bp: the shape", in[0])
		if err != nil {
			return nil, err
		}
		for _, d := range shape {
			if d < 0 {
				return nil, fmt.Errorf("gather_bp: negative size in shape %v", shape)
			}
		}
		g := in[len(in)-1]
		fwd := []*ndarray.Array{nil, in[1]}
		if len(in) > 3 {
			fwd = append(fwd, in[2])
		}
		axis, idx, is, err := gatherRunArgs("gather_bp", fwd, a, len(shape))
		if err != nil {
			return nil, err
		}
		if want := gatherShape(shape, axis, is); !ndarray.SameShape(g.Shape(), want) {
			return nil, fmt.Errorf("gather_bp: gradient of shape %v; gather of shape %v gives %v", g.Shape(), shape, want)
		}
		offs, err := gatherPlan("gather_bp", shape, axis, idx)
		if err != nil {
			return nil, err
		}
		if err := reserveSize("gather_bp", g.DType().Size(), shape...); err != nil {
			return nil, err // the output, whose size along axis g does not bound
		}
		return one(scatterAddOffsets(g, offs, shape))
	},
})

// ---------------------------------------------------------------- gather_nd

// gatherNDPlan returns the packed offsets in x (shape xs) of gather_nd's
// output elements and the output shape: the indices' last axis holds index
// tuples into x's leading axes.
func gatherNDPlan(op string, xs []int, idx *ndarray.Array) ([]int, []int, error) {
	is := idx.Shape()
	if len(is) == 0 {
		return nil, nil, fmt.Errorf("%s: the indices are a scalar; they need a last axis of index tuples", op)
	}
	k := is[len(is)-1]
	if k > len(xs) {
		return nil, nil, fmt.Errorf("%s: index tuples of %d entries into shape %v", op, k, xs)
	}
	out := append(append([]int(nil), is[:len(is)-1]...), xs[k:]...)
	slice := 1
	for _, d := range xs[k:] {
		slice *= d
	}
	strides := ndarray.PackedStrides(xs)
	vals := idx.Int64s()
	rows := 1
	for _, d := range is[:len(is)-1] {
		rows *= d
	}
	if err := reserve[int](op, rows, slice); err != nil {
		return nil, nil, err
	}
	offs := make([]int, 0, rows*slice)
	for r := 0; r < rows; r++ {
		off := 0
		for j := 0; j < k; j++ {
			v := int(vals[r*k+j])
			if v < 0 || v >= xs[j] {
				return nil, nil, fmt.Errorf("%s: index %v (row %d of the indices) is out of range for shape %v", op, vals[r*k:r*k+k], r, xs)
			}
			off += v * strides[j]
		}
		for e := 0; e < slice; e++ {
			offs = append(offs, off+e)
		}
	}
	return offs, out, nil
}

// gatherNDOp is libnd4j's gather_nd: inputs x and indices, an integer array
// whose last axis (of length k) holds index tuples into x's first k axes;
// the output, of shape indices.shape[:-1] + x.shape[k:], holds the
// indexed elements (k = rank) or slices. Bool arg 0 (check indices) is
// accepted; indices are always checked.
var gatherNDOp = Register(&Def{
	Name: "gather_nd", Type: Custom, MinIn: 2, MaxIn: 2, NonDiff: []int{1},
	Doc: "the elements or slices of x named by the index tuples on the last axis of input 1",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		x, idx := in[0], in[1]
		if err := needNumericOrBool("gather_nd", x); err != nil {
			return nil, err
		}
		if err := needIntInput("gather_nd", "the indices", idx); err != nil {
			return nil, err
		}
		if x.UnknownRank || idx.UnknownRank {
			return infos(Info{DType: x.DType, UnknownRank: true}), nil
		}
		if len(idx.Shape) == 0 {
			return nil, fmt.Errorf("gather_nd: the indices are a scalar; they need a last axis of index tuples")
		}
		k := idx.Shape[len(idx.Shape)-1]
		if k < 0 {
			return infos(Info{DType: x.DType, UnknownRank: true}), nil
		}
		if k > len(x.Shape) {
			return nil, fmt.Errorf("gather_nd: index tuples of %d entries into shape %v", k, x.Shape)
		}
		out := append(append([]int(nil), idx.Shape[:len(idx.Shape)-1]...), x.Shape[k:]...)
		return infos(Info{DType: x.DType, Shape: out}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		offs, shape, err := gatherNDPlan("gather_nd", in[0].Shape(), in[1])
		if err != nil {
			return nil, err
		}
		return one(gatherOffsets(in[0], offs, shape))
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		// gradO added into zeros of x's shape at the index tuples.
		z := op1(b, "zeros_as", Args{}, n.In[0])
		return []Value{op1(b, "scatter_nd_add", Args{}, z, n.In[1], d[0]), nil}
	},
})

// ---------------------------------------------------------------- onehot

// onehotArgs returns onehot's axis (default -1), depth, on and off values
// from the int and float args and the optional inputs 1-3 (vals, nil
// where absent: inputs win over float args for on/off, int arg 1 wins
// over input 1 for the depth).
func onehotArgs(a *Args, depthIn []int, on, off *float64) (axis, depth int, onV, offV float64) {
	axis, depth = int(a.Int(0, -1)), -1
	if len(a.I) > 1 {
		depth = int(a.I[1])
	} else if len(depthIn) > 0 {
		depth = depthIn[0]
	}
	onV, offV = a.Float(0, 1), a.Float(1, 0)
	if on != nil {
		onV = *on
		offV = 0
		if off != nil {
			offV = *off
		}
	}
	return axis, depth, onV, offV
}

func onehotShape(op string, s []int, axis, depth int) ([]int, int, error) {
	if depth <= 0 {
		return nil, 0, fmt.Errorf("%s: depth %d; it must be positive", op, depth)
	}
	r := len(s)
	if axis < 0 {
		axis += r + 1
	}
	if axis < 0 || axis > r {
		return nil, 0, fmt.Errorf("%s: axis out of range for indices of shape %v", op, s)
	}
	out := append(append(append([]int(nil), s[:axis]...), depth), s[axis:]...)
	return out, axis, nil
}

func onehotT[T ndarray.Elem](out []T, idx []int64, outer, depth, inner int, on, off T) {
	for i := range out {
		out[i] = off
	}
	for o := 0; o < outer; o++ {
		for k := 0; k < inner; k++ {
			v := idx[o*inner+k]
			if v >= 0 && v < int64(depth) {
				out[(o*depth+int(v))*inner+k] = on
			}
		}
	}
}

// onehotOp is libnd4j's onehot: inputs indices, [depth, [on, [off]]]; int
// args: axis (default -1: a new last axis), depth; float args: on (default
// 1), off (default 0); dtype arg 0 the output dtype (default float32). The
// output has a new axis of length depth holding on at the index and off
// elsewhere; an index outside [0, depth) gives a row of off (TensorFlow's
// rule, not an error).
var onehotOp = Register(&Def{
	Name: "onehot", Type: Custom, MinIn: 1, MaxIn: 4, NonDiff: []int{0, 1, 2, 3},
	Doc: "one-hot encoding of the indices: on at the index along a new axis (int arg 0, default -1) of length depth (int arg 1 or input 1), off elsewhere",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		dt := a.DType(0, ndarray.Float32)
		if !dt.IsNumeric() && dt != ndarray.Bool {
			return nil, fmt.Errorf("onehot cannot give %v arrays", dt)
		}
		if err := needNumeric("onehot", in[0]); err != nil {
			return nil, err
		}
		var depthIn []int
		if len(in) > 1 {
			v, ok := constInts(in[1])
			if !ok && len(a.I) < 2 {
				if in[0].UnknownRank {
					return infos(Info{DType: dt, UnknownRank: true}), nil
				}
				return infos(Info{DType: dt, Shape: unknownShape(len(in[0].Shape) + 1)}), nil
			}
			depthIn = v
		}
		axis, depth, _, _ := onehotArgs(a, depthIn, nil, nil)
		if in[0].UnknownRank {
			return infos(Info{DType: dt, UnknownRank: true}), nil
		}
		out, _, err := onehotShape("onehot", in[0].Shape, axis, depth)
		if err != nil {
			return nil, err
		}
		return infos(Info{DType: dt, Shape: out}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x := in[0]
		var depthIn []int
		var on, off *float64
		if len(in) > 1 {
			v, err := arrayInts("onehot: the depth", in[1])
			if err != nil {
				return nil, err
			}
			depthIn = v
		}
		for i, p := range []**float64{&on, &off} {
			if len(in) > 2+i {
				if in[2+i].Size() != 1 {
					return nil, fmt.Errorf("onehot: input %d (the on/off value) has shape %v; want one element", 2+i, in[2+i].Shape())
				}
				v := in[2+i].Float64s()[0]
				*p = &v
			}
		}
		axis, depth, onV, offV := onehotArgs(a, depthIn, on, off)
		shape, axis, err := onehotShape("onehot", x.Shape(), axis, depth)
		if err != nil {
			return nil, err
		}
		dt := a.DType(0, ndarray.Float32)
		out, err := c.TryAlloc(dt, shape)
		if err != nil {
			return nil, err
		}
		var idx []int64
		if x.DType().IsInt() {
			idx = x.Int64s()
		} else { // float indices are truncated, as libnd4j reads them
			fv := x.Float64s()
			idx = make([]int64, len(fv))
			for i, f := range fv {
				if f != f || f < -1 || f > float64(depth) {
					idx[i] = -1
				} else {
					idx[i] = int64(f)
				}
			}
		}
		outer := 1
		for _, d := range x.Shape()[:axis] {
			outer *= d
		}
		inner := 1
		for _, d := range x.Shape()[axis:] {
			inner *= d
		}
		switch dt {
		case ndarray.Float32:
			onehotT(ndarray.Raw[float32](out)[out.Offset():out.Offset()+out.Size()], idx, outer, depth, inner, float32(onV), float32(offV))
		case ndarray.Float64:
			onehotT(ndarray.Raw[float64](out)[out.Offset():out.Offset()+out.Size()], idx, outer, depth, inner, onV, offV)
		case ndarray.Int32:
			onehotT(ndarray.Raw[int32](out)[out.Offset():out.Offset()+out.Size()], idx, outer, depth, inner, int32(onV), int32(offV))
		case ndarray.Int64:
			onehotT(ndarray.Raw[int64](out)[out.Offset():out.Offset()+out.Size()], idx, outer, depth, inner, int64(onV), int64(offV))
		case ndarray.Bool:
			onehotT(ndarray.Raw[bool](out)[out.Offset():out.Offset()+out.Size()], idx, outer, depth, inner, onV != 0, offV != 0)
		default:
			c.Release(out)
			return nil, fmt.Errorf("onehot cannot give %v arrays", dt)
		}
		return one(out, nil)
	},
})

// ---------------------------------------------------------------- Where

// truthOf returns the elements of x as booleans (non-zero is true).
func truthOf(x *ndarray.Array) []bool {
	if x.DType() == ndarray.Bool {
		v, _ := packedValues[bool](x)
		return v
	}
	fv := x.Float64s()
	out := make([]bool, len(fv))
	for i, f := range fv {
		out[i] = f != 0
	}
	return out
}

func selectT[T ndarray.Elem](cond []bool, x, y *ndarray.Array, inner int) (*ndarray.Array, error) {
	xv, err := packedValues[T](x)
	if err != nil {
		return nil, err
	}
	yv, err := packedValues[T](y)
	if err != nil {
		return nil, err
	}
	out := make([]T, len(xv))
	for i := range out {
		if cond[i/inner] {
			out[i] = xv[i]
		} else {
			out[i] = yv[i]
		}
	}
	return ndarray.Wrap(out, x.Shape()...)
}

// whereSelect is Where and where_np with three inputs: x where the
// condition holds, y elsewhere. The condition has x's shape, or is a
// vector along x's first axis (selecting whole slices).
func whereSelect(op string, cond, x, y *ndarray.Array) (*ndarray.Array, error) {
	if !ndarray.SameShape(x.Shape(), y.Shape()) || x.DType() != y.DType() {
		return nil, fmt.Errorf("%s: x is %v%v, y %v%v; they must agree", op, x.DType(), x.Shape(), y.DType(), y.Shape())
	}
	inner := 1
	switch {
	case ndarray.SameShape(cond.Shape(), x.Shape()):
	case cond.Rank() == 1 && x.Rank() >= 1 && cond.Shape()[0] == x.Shape()[0]:
		if cond.Shape()[0] > 0 {
			inner = x.Size() / cond.Shape()[0]
		}
	default:
		return nil, fmt.Errorf("%s: condition of shape %v for x of shape %v (want x's shape or [%v])", op, cond.Shape(), x.Shape(), x.Shape()[:min(1, x.Rank())])
	}
	c := truthOf(cond)
	switch x.DType() {
	case ndarray.Float32:
		return selectT[float32](c, x, y, inner)
	case ndarray.Float64:
		return selectT[float64](c, x, y, inner)
	case ndarray.Int32:
		return selectT[int32](c, x, y, inner)
	case ndarray.Int64:
		return selectT[int64](c, x, y, inner)
	case ndarray.Bool:
		return selectT[bool](c, x, y, inner)
	}
	return nil, fmt.Errorf("%s of %v arrays", op, x.DType())
}

// whereCoords returns the coordinates of the true (non-zero) elements of
// x, one row each in C order, as an int64 [n, rank] array.
func whereCoords(name string, x *ndarray.Array) (*ndarray.Array, error) {
	c := truthOf(x)
	r := x.Rank()
	s := x.Shape()
	n := 0
	for _, t := range c {
		if t {
			n++
		}
	}
	if err := reserve[int64](name, n, r); err != nil {
		return nil, err // rank int64s for each element of x, a bool one maybe
	}
	out := make([]int64, 0, n*r)
	idx := make([]int, r)
	for i, t := range c {
		if t {
			rem := i
			for j := r - 1; j >= 0; j-- {
				idx[j] = rem % s[j]
				rem /= s[j]
			}
			for _, v := range idx {
				out = append(out, int64(v))
			}
		}
	}
	return ndarray.Wrap(out, n, r)
}

func whereDef(name, doc string) *Def {
	return &Def{
		Name: name, Type: Custom, MinIn: 1, MaxIn: 3, NonDiff: []int{0}, Doc: doc,
		Infer: func(in []Info, _ *Args) ([]Info, error) {
			if err := needNumericOrBool(name, in[0]); err != nil {
				return nil, err
			}
			switch len(in) {
			case 1:
				if in[0].UnknownRank {
					return infos(Info{DType: ndarray.Int64, Shape: []int{-1, -1}}), nil
				}
				return infos(Info{DType: ndarray.Int64, Shape: []int{-1, len(in[0].Shape)}}), nil
			case 3:
				x, y := in[1], in[2]
				if x.DType != y.DType {
					return nil, fmt.Errorf("%s: x is %v, y %v", name, x.DType, y.DType)
				}
				if err := needNumericOrBool(name, x); err != nil {
					return nil, err
				}
				if !x.UnknownRank && !y.UnknownRank && (len(x.Shape) != len(y.Shape) || !x.Admits(y.Shape)) {
					return nil, fmt.Errorf("%s: x has shape %v, y %v; they must agree", name, x.Shape, y.Shape)
				}
				o := same(x)
				if o.UnknownRank {
					o = same(y)
				}
				if c := in[0]; !c.UnknownRank && !o.UnknownRank {
					full := len(c.Shape) == len(o.Shape) && o.Admits(c.Shape)
					rows := len(c.Shape) == 1 && len(o.Shape) > 1 && (Info{Shape: o.Shape[:1]}).Admits(c.Shape)
					if !full && !rows {
						return nil, fmt.Errorf("%s: condition of shape %v for x of shape %v (want x's shape or a vector along its first axis)", name, c.Shape, o.Shape)
					}
				}
				return infos(o), nil
			}
			return nil, fmt.Errorf("%s takes 1 input (coordinates) or 3 (condition, x, y), got %d", name, len(in))
		},
		Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
			if len(in) == 1 {
				return one(whereCoords(name, in[0]))
			}
			if len(in) != 3 {
				return nil, fmt.Errorf("%s takes 1 input (coordinates) or 3 (condition, x, y), got %d", name, len(in))
			}
			return one(whereSelect(name, in[0], in[1], in[2]))
		},
		Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
			if len(n.In) != 3 {
				return make([]Value, len(n.In))
			}
			z := op1(b, "zeros_as", Args{}, d[0])
			return []Value{nil, op1(b, name, Args{}, n.In[0], d[0], z), op1(b, name, Args{}, n.In[0], z, d[0])}
		},
	}
}

var (
	// whereOp is libnd4j's Where: one input gives the int64 coordinates
	// [n, rank] of its true (non-zero) elements; three inputs (condition,
	// x, y) give x where the condition holds and y elsewhere; the
	// condition has x's shape or is a vector along x's first axis.
	whereOp = Register(whereDef("Where", "coordinates of the true elements (one input), or x where the condition holds and y elsewhere (condition, x, y)"))
	// whereNpOp is libnd4j's where_np, numpy's where: the same two forms.
	whereNpOp = Register(whereDef("where_np", "numpy's where: coordinates of the true elements (one input), or x where the condition holds and y elsewhere"))
)

// ---------------------------------------------------------------- sequence_mask

// seqMaskArgs returns sequence_mask's requested width (-1 when none) and
// dtype: with input 1 (the width) int arg 0 is the dtype; without, int
// arg 0 is the width and int arg 1 the dtype; dtype arg 0 comes first.
func seqMaskArgs(a *Args, hasMaxIn bool) (width int, dt ndarray.DType) {
	dt, width = ndarray.Bool, -1
	if hasMaxIn {
		if len(a.I) > 0 {
			dt = ndarray.DType(a.I[0])
		}
	} else {
		width = int(a.Int(0, -1))
		if len(a.I) > 1 {
			dt = ndarray.DType(a.I[1])
		}
	}
	if len(a.D) > 0 {
		dt = a.D[0]
	}
	return width, dt
}

// sequenceMaskOp is libnd4j's sequence_mask: inputs lengths (integers),
// [maxlen]; the output has the lengths' shape plus a last axis of width
// max(maxlen, longest length), with element j true (1) where j <
// length. Int args as seqMaskArgs; the dtype defaults to bool.
var sequenceMaskOp = Register(&Def{
	Name: "sequence_mask", Type: Custom, MinIn: 1, MaxIn: 2, NonDiff: []int{0, 1}, Flags: NoInference,
	Doc: "mask[..., j] = j < lengths[...], of width max(maxlen, longest length); maxlen is input 1 or int arg 0",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		for _, v := range in {
			if err := needIntInput("sequence_mask", "the lengths and maximum length", v); err != nil {
				return nil, err
			}
		}
		_, dt := seqMaskArgs(a, len(in) > 1)
		if !dt.IsNumeric() && dt != ndarray.Bool {
			return nil, fmt.Errorf("sequence_mask cannot give %v arrays", dt)
		}
		if in[0].UnknownRank {
			return infos(Info{DType: dt, UnknownRank: true}), nil
		}
		return infos(Info{DType: dt, Shape: append(append([]int(nil), in[0].Shape...), -1)}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		width, dt := seqMaskArgs(a, len(in) > 1)
		if len(in) > 1 {
			if in[1].Size() != 1 {
				return nil, fmt.Errorf("sequence_mask: the maximum length has shape %v; want one element", in[1].Shape())
			}
			width = int(in[1].Int64s()[0])
		}
		lens := in[0].Int64s()
		for _, l := range lens {
			width = max(width, int(l))
		}
		width = max(width, 0)
		shape := append(append([]int(nil), in[0].Shape()...), width)
		out, err := c.TryAlloc(ndarray.Bool, shape)
		if err != nil {
			return nil, err
		}
		ov := ndarray.Raw[bool](out)[out.Offset() : out.Offset()+out.Size()]
		for i, l := range lens {
			for j := 0; j < width; j++ {
				ov[i*width+j] = int64(j) < l
			}
		}
		if dt == ndarray.Bool {
			return one(out, nil)
		}
		res, err := ndarray.Cast(out, dt)
		c.Release(out)
		return one(res, err)
	},
})
