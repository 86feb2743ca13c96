package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// Ops of SameDiff's base namespace that cut, flip and accumulate along
// axes: slice (with slice_bp), split, split_v, reverse (with reverse_bp),
// cumsum and cumprod (with their _bp ops).

// ---------------------------------------------------------------- slice

// sliceArgs returns slice's begin and size vectors: inputs 1 and 2 (vals)
// or int args begin..., size... (rank of each).
func sliceArgs(op string, a *Args, vals [][]int, rank int) (begin, size []int, err error) {
	switch {
	case len(vals) >= 2:
		begin, size = vals[0], vals[1]
	case len(a.I) >= 2*rank:
		begin, size = intsOf(a.I[:rank]), intsOf(a.I[rank:2*rank])
	default:
		return nil, nil, fmt.Errorf("%s of a rank-%d input needs begin and size as inputs 1 and 2 or as %d int args, got %d", op, rank, 2*rank, len(a.I))
	}
	if len(begin) != rank || len(size) != rank {
		return nil, nil, fmt.Errorf("%s of a rank-%d input: begin %v and size %v need %d entries each", op, rank, begin, size, rank)
	}
	return begin, size, nil
}

// resolveSlice checks begin and size against shape (a size of -1 runs to
// the end) and returns the slice as a strided-slice spec.
func resolveSlice(op string, shape, begin, size []int) (*ssSpec, error) {
	r := len(shape)
	sp := &ssSpec{begin: make([]int, r), step: make([]int, r), count: make([]int, r), out: make([]int, r)}
	for i, d := range shape {
		b, n := begin[i], size[i]
		if b < 0 || b > d {
			return nil, fmt.Errorf("%s: begin %d on axis %d is out of range for shape %v", op, b, i, shape)
		}
		if n == -1 {
			n = d - b
		}
		if n < 0 || n > d-b { // not b+n > d: that sum can wrap past the largest int
			return nil, fmt.Errorf("%s: size %d from %d on axis %d is out of range for shape %v", op, size[i], b, i, shape)
		}
		sp.begin[i], sp.step[i], sp.count[i], sp.out[i] = b, 1, n, n
	}
	return sp, nil
}

// sliceOp is libnd4j's slice: inputs x, [begin, size]; without inputs 1
// and 2, int args begin..., size... (one per axis). size -1 runs to the
// end of the axis; begin and size must lie within x.
var sliceOp = Register(&Def{
	Name: "slice", Type: Custom, MinIn: 1, MaxIn: 3, NonDiff: []int{1, 2},
	Doc: "the block of x from begin of the given size (size -1: to the end); inputs 1-2 or int args begin..., size...",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		x := in[0]
		if err := needNumericOrBool("slice", x); err != nil {
			return nil, err
		}
		if len(in) == 2 {
			return nil, fmt.Errorf("slice takes begin and size as inputs 1 and 2 together, got only one")
		}
		for _, v := range in[1:] {
			if err := needIntInput("slice", "begin and size", v); err != nil {
				return nil, err
			}
		}
		if x.UnknownRank {
			return infos(Info{DType: x.DType, UnknownRank: true}), nil
		}
		vals, ok := ssInferVals(in[1:])
		if !ok {
			return infos(Info{DType: x.DType, Shape: unknownShape(len(x.Shape))}), nil
		}
		begin, size, err := sliceArgs("slice", a, vals, len(x.Shape))
		if err != nil {
			return nil, err
		}
		out := make([]int, len(x.Shape))
		for i, d := range x.Shape {
			switch {
			case size[i] >= 0:
				out[i] = size[i]
			case d >= 0:
				out[i] = d - begin[i]
			default:
				out[i] = -1
			}
		}
		if x.ShapeKnown() {
			sp, err := resolveSlice("slice", x.Shape, begin, size)
			if err != nil {
				return nil, err
			}
			out = sp.out
		}
		return infos(Info{DType: x.DType, Shape: out}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x := in[0]
		vals, err := ssInputVals(in[1:])
		if err != nil {
			return nil, err
		}
		begin, size, err := sliceArgs("slice", a, vals, x.Rank())
		if err != nil {
			return nil, err
		}
		sp, err := resolveSlice("slice", x.Shape(), begin, size)
		if err != nil {
			return nil, err
		}
		return one(gatherOffsets(x, sp.offsets(x.Shape()), sp.out))
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		res := make([]Value, len(n.In))
		res[0] = bpOp("slice_bp")(b, n, d)[0]
		return res
	},
})

// sliceBpOp is slice's gradient (libnd4j slice_bp): inputs x, [begin,
// size,] gradO with slice's int args; gradO placed into zeros of x's shape.
var sliceBpOp = Register(&Def{
	Name: "slice_bp", Type: Custom, MinIn: 2, MaxIn: 4, NonDiff: []int{1, 2},
	Doc: "gradient of slice for inputs x, [begin, size,] gradO: gradO placed into zeros of x's shape",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		if len(in) == 3 {
			return nil, fmt.Errorf("slice_bp takes x, gradO or x, begin, size, gradO; got 3 inputs")
		}
		return gradInfos("slice_bp", in[len(in)-1], in[0])
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x, g := in[0], in[len(in)-1]
		vals, err := ssInputVals(in[1 : len(in)-1])
		if err != nil {
			return nil, err
		}
		begin, size, err := sliceArgs("slice_bp", a, vals, x.Rank())
		if err != nil {
			return nil, err
		}
		sp, err := resolveSlice("slice_bp", x.Shape(), begin, size)
		if err != nil {
			return nil, err
		}
		if !ndarray.SameShape(g.Shape(), sp.out) {
			return nil, fmt.Errorf("slice_bp: gradient of shape %v for a slice of shape %v", g.Shape(), sp.out)
		}
		return one(scatterAddOffsets(g, sp.offsets(x.Shape()), x.Shape()))
	},
})

// ---------------------------------------------------------------- split, split_v

// splitPieces cuts x along axis into pieces of the given sizes.
func splitPieces(op string, x *ndarray.Array, axis int, sizes []int) ([]*ndarray.Array, error) {
	s := x.Shape()
	outs := make([]*ndarray.Array, len(sizes))
	pos := 0
	for i, n := range sizes {
		begin := make([]int, len(s))
		size := append([]int(nil), s...)
		begin[axis], size[axis] = pos, n
		sp, err := resolveSlice(op, s, begin, size)
		if err != nil {
			return nil, err
		}
		if outs[i], err = gatherOffsets(x, sp.offsets(s), sp.out); err != nil {
			return nil, err
		}
		pos += n
	}
	return outs, nil
}

// splitInput returns which input of split is x and the axis input, if
// any: with two inputs the scalar one is the axis (first or second).
func splitInput(ranks []int) (xi, ai int) {
	if len(ranks) < 2 {
		return 0, -1
	}
	if ranks[0] == 0 {
		return 1, 0
	}
	return 0, 1
}

// splitAxis returns split's axis: int arg 1, else the axis input's value,
// else 0.
func splitAxis(a *Args, axisIn []int) int {
	if len(a.I) > 1 {
		return int(a.I[1])
	}
	if len(axisIn) > 0 {
		return axisIn[0]
	}
	return 0
}

// pieceGrad is split's and split_v's gradient: the output gradients
// (zeros for outputs that reach no loss) joined along the axis.
func pieceGrad(b GradBuilder, n GradNode, d []Value, axis int, xi int) []Value {
	parts := make([]Value, len(d))
	for i, g := range d {
		if g == nil {
			g = op1(b, "zeros_as", Args{}, n.Out[i])
		}
		parts[i] = g
	}
	res := make([]Value, len(n.In))
	res[xi] = op1(b, "concat", Args{I: []int64{int64(axis)}}, parts...)
	return res
}

// splitOp is libnd4j's split: inputs x, or the axis (a scalar) and x in
// either order; int args: the number of pieces, [the axis] (int arg 1
// wins over an axis input; default 0). x cut along the axis into that
// many pieces of equal size. The axis must be known when the graph is
// built (an int arg or a constant input): it sets the outputs' shapes.
var splitOp = Register(&Def{
	Name: "split", Type: Custom, MinIn: 1, MaxIn: 2,
	Doc: "x cut into int arg 0 equal pieces along the axis (int arg 1, or a scalar input beside x; default 0)",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		ranks := make([]int, len(in))
		for i, v := range in {
			ranks[i] = len(v.Shape)
			if v.UnknownRank {
				ranks[i] = -1
			}
		}
		xi, ai := splitInput(ranks)
		x := in[xi]
		if err := needNumericOrBool("split", x); err != nil {
			return nil, err
		}
		var axisIn []int
		if ai >= 0 && len(a.I) < 2 {
			v, ok := constInts(in[ai])
			if !ok {
				return nil, fmt.Errorf("split: the axis input must be a constant integer scalar (or give the axis as int arg 1)")
			}
			axisIn = v
		}
		if len(a.I) < 1 {
			return nil, fmt.Errorf("split needs the number of pieces as int arg 0")
		}
		num := int(a.I[0])
		if num <= 0 || num > maxUnstack {
			return nil, fmt.Errorf("split into %d pieces (int arg 0): want 1 to %d", num, maxUnstack)
		}
		if x.UnknownRank {
			return nil, fmt.Errorf("split of an input of unknown rank")
		}
		axis, err := normAxis("split", splitAxis(a, axisIn), len(x.Shape))
		if err != nil {
			return nil, err
		}
		s := append([]int(nil), x.Shape...)
		if s[axis] >= 0 {
			if s[axis]%num != 0 {
				return nil, fmt.Errorf("split of shape %v into %d pieces along axis %d: %d does not divide evenly", x.Shape, num, axis, s[axis])
			}
			s[axis] /= num
		}
		out := make([]Info, num)
		for i := range out {
			out[i] = Info{DType: x.DType, Shape: s}
		}
		return out, nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		ranks := make([]int, len(in))
		for i, v := range in {
			ranks[i] = v.Rank()
		}
		xi, ai := splitInput(ranks)
		x := in[xi]
		var axisIn []int
		if ai >= 0 {
			v, err := arrayInts("split: the axis", in[ai])
			if err != nil {
				return nil, err
			}
			axisIn = v
		}
		num := int(a.Int(0, 0))
		if num <= 0 || num > maxUnstack {
			return nil, fmt.Errorf("split into %d pieces (int arg 0): want 1 to %d", num, maxUnstack)
		}
		axis, err := normAxis("split", splitAxis(a, axisIn), x.Rank())
		if err != nil {
			return nil, err
		}
		d := x.Shape()[axis]
		if d%num != 0 {
			return nil, fmt.Errorf("split of shape %v into %d pieces along axis %d: %d does not divide evenly", x.Shape(), num, axis, d)
		}
		sizes := make([]int, num)
		for i := range sizes {
			sizes[i] = d / num
		}
		return splitPieces("split", x, axis, sizes)
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		ranks := make([]int, len(n.In))
		for i, v := range n.In {
			ranks[i] = len(v.Info().Shape)
		}
		xi, ai := splitInput(ranks)
		var axisIn []int
		if ai >= 0 {
			axisIn, _ = constInts(n.In[ai].Info())
		}
		axis := splitAxis(n.Args, axisIn)
		if axis < 0 {
			axis += len(n.In[xi].Info().Shape)
		}
		return pieceGrad(b, n, d, axis, xi)
	},
})

// splitVSizes resolves split_v's sizes against the size d of the axis (-1
// when unknown): at most one size may be -1, standing for what the others
// leave (TensorFlow's rule); the sizes must add up to d.
func splitVSizes(sizes []int, d int) ([]int, error) {
	out := append([]int(nil), sizes...)
	free, sum := -1, 0
	for i, n := range sizes {
		switch {
		case n == -1 && free < 0:
			free = i
		case n < 0:
			return nil, fmt.Errorf("split_v: sizes %v: only one may be -1 and none other negative", sizes)
		default:
			sum += n
		}
	}
	if d < 0 {
		return out, nil
	}
	if free >= 0 {
		if sum > d {
			return nil, fmt.Errorf("split_v: sizes %v add up to more than %d", sizes, d)
		}
		out[free] = d - sum
		return out, nil
	}
	if sum != d {
		return nil, fmt.Errorf("split_v: sizes %v add up to %d, the axis has %d", sizes, sum, d)
	}
	return out, nil
}

// splitVOp is libnd4j's split_v: inputs x, sizes (an integer vector),
// [axis]; int arg 0 the axis (wins over input 2; default 0). x cut along
// the axis into pieces of the given sizes, one output each. The number of
// sizes and the axis must be known when the graph is built.
var splitVOp = Register(&Def{
	Name: "split_v", Type: Custom, MinIn: 2, MaxIn: 3, NonDiff: []int{1, 2},
	Doc: "x cut along the axis (int arg 0 or input 2; default 0) into pieces of the sizes in input 1",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		x, sz := in[0], in[1]
		if err := needNumericOrBool("split_v", x); err != nil {
			return nil, err
		}
		for _, v := range in[1:] {
			if err := needIntInput("split_v", "the sizes and axis", v); err != nil {
				return nil, err
			}
		}
		axis := int(a.Int(0, 0))
		if len(in) > 2 && len(a.I) == 0 {
			v, ok := constInts(in[2])
			if !ok || len(v) == 0 {
				return nil, fmt.Errorf("split_v: the axis input must be a constant integer scalar (or give the axis as int arg 0)")
			}
			axis = v[0]
		}
		if sz.UnknownRank || len(sz.Shape) > 1 || (len(sz.Shape) == 1 && sz.Shape[0] < 0) {
			return nil, fmt.Errorf("split_v: the number of sizes (input 1, shape %v) must be known when the graph is built", sz.Shape)
		}
		num := 1
		if len(sz.Shape) == 1 {
			num = sz.Shape[0]
		}
		if num > maxUnstack {
			return nil, fmt.Errorf("split_v into %d pieces: at most %d", num, maxUnstack)
		}
		if x.UnknownRank {
			return nil, fmt.Errorf("split_v of an input of unknown rank")
		}
		axis, err := normAxis("split_v", axis, len(x.Shape))
		if err != nil {
			return nil, err
		}
		sizes, known := constInts(sz)
		if known {
			if sizes, err = splitVSizes(sizes, x.Shape[axis]); err != nil {
				return nil, err
			}
		}
		out := make([]Info, num)
		for i := range out {
			s := append([]int(nil), x.Shape...)
			s[axis] = -1
			if known {
				s[axis] = sizes[i]
			}
			out[i] = Info{DType: x.DType, Shape: s}
		}
		return out, nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x := in[0]
		sizes, err := arrayInts("split_v: the sizes", in[1])
		if err != nil {
			return nil, err
		}
		axis := int(a.Int(0, 0))
		if len(in) > 2 && len(a.I) == 0 {
			v, err := arrayInts("split_v: the axis", in[2])
			if err != nil {
				return nil, err
			}
			if len(v) != 1 {
				return nil, fmt.Errorf("split_v: the axis input has %d values; want 1", len(v))
			}
			axis = v[0]
		}
		if axis, err = normAxis("split_v", axis, x.Rank()); err != nil {
			return nil, err
		}
		if sizes, err = splitVSizes(sizes, x.Shape()[axis]); err != nil {
			return nil, err
		}
		return splitPieces("split_v", x, axis, sizes)
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		axis := int(n.Args.Int(0, 0))
		if len(n.In) > 2 && len(n.Args.I) == 0 {
			if v, ok := constInts(n.In[2].Info()); ok && len(v) > 0 {
				axis = v[0]
			}
		}
		if axis < 0 {
			axis += len(n.In[0].Info().Shape)
		}
		return pieceGrad(b, n, d, axis, 0)
	},
})

// ---------------------------------------------------------------- reverse

// reverseAxes returns the axes reverse flips: input 1 (vals) or the int
// args, all axes when none are given; each in range and at most once.
func reverseAxes(op string, a *Args, vals []int, rank int) ([]bool, error) {
	ax := intsOf(a.I)
	if vals != nil {
		ax = vals
	}
	flip := make([]bool, rank)
	if len(ax) == 0 {
		for i := range flip {
			flip[i] = true
		}
		return flip, nil
	}
	for _, v := range ax {
		i, err := normAxis(op, v, rank)
		if err != nil {
			return nil, err
		}
		flip[i] = true
	}
	return flip, nil
}

// reverseOffsets returns, for each element of an array of shape s in C
// order, the packed offset of the element it takes when the flipped axes
// are reversed.
func reverseOffsets(s []int, flip []bool) []int {
	spec := &ssSpec{begin: make([]int, len(s)), step: make([]int, len(s)), count: append([]int(nil), s...)}
	for i, d := range s {
		spec.step[i] = 1
		if flip[i] && d > 0 {
			spec.begin[i], spec.step[i] = d-1, -1
		}
	}
	return spec.offsets(s)
}

// runReverse flips x (in[0]) along the axes of in[1] or the int args.
func runReverse(op string, x *ndarray.Array, axesIn *ndarray.Array, a *Args) (*ndarray.Array, error) {
	var vals []int
	if axesIn != nil {
		v, err := arrayInts(op+": the axes", axesIn)
		if err != nil {
			return nil, err
		}
		vals = v
		if vals == nil {
			vals = []int{}
		}
	}
	flip, err := reverseAxes(op, a, vals, x.Rank())
	if err != nil {
		return nil, err
	}
	return gatherOffsets(x, reverseOffsets(x.Shape(), flip), x.Shape())
}

// reverseOp is libnd4j's reverse: inputs x, [axes]; int args the axes
// when there is no input 1; no axes flips every axis. x with the order of
// the elements along each axis reversed.
var reverseOp = Register(&Def{
	Name: "reverse", Type: Custom, MinIn: 1, MaxIn: 2, NonDiff: []int{1},
	Doc: "x reversed along the axes (input 1 or int args; none: all axes)",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		if err := needNumericOrBool("reverse", in[0]); err != nil {
			return nil, err
		}
		if len(in) > 1 {
			if err := needIntInput("reverse", "the axes", in[1]); err != nil {
				return nil, err
			}
		} else if !in[0].UnknownRank {
			if _, err := reverseAxes("reverse", a, nil, len(in[0].Shape)); err != nil {
				return nil, err
			}
		}
		return infos(same(in[0])), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		var ax *ndarray.Array
		if len(in) > 1 {
			ax = in[1]
		}
		return one(runReverse("reverse", in[0], ax, a))
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		res := make([]Value, len(n.In))
		res[0] = bpOp("reverse_bp")(b, n, d)[0]
		return res
	},
})

// reverseBpOp is reverse's gradient (libnd4j reverse_bp): inputs x,
// [axes,] gradO with reverse's int args; gradO reversed the same way.
var reverseBpOp = Register(&Def{
	Name: "reverse_bp", Type: Custom, MinIn: 2, MaxIn: 3, NonDiff: []int{1},
	Doc: "gradient of reverse for inputs x, [axes,] gradO: gradO reversed along the same axes",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		g := in[len(in)-1]
		if err := sameShapeGrad("reverse_bp", in[0], g); err != nil {
			return nil, err
		}
		return gradInfos("reverse_bp", g, in[0])
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		g := in[len(in)-1]
		if !ndarray.SameShape(g.Shape(), in[0].Shape()) {
			return nil, fmt.Errorf("reverse_bp: gradient of shape %v for x of shape %v", g.Shape(), in[0].Shape())
		}
		var ax *ndarray.Array
		if len(in) > 2 {
			ax = in[1]
		}
		return one(runReverse("reverse_bp", g, ax, a))
	},
})

// ---------------------------------------------------------------- cumsum, cumprod

// prefixAxis returns the single axis cumsum and cumprod accumulate along
// (-1: over all elements in C order, when no axis is given): int args 2...
// or input 1.
func prefixAxis(op string, a *Args, axesIn []int, hasIn bool, rank int) (int, error) {
	ax := []int{}
	if len(a.I) > 2 {
		ax = intsOf(a.I[2:])
	}
	if hasIn {
		ax = axesIn
	}
	switch len(ax) {
	case 0:
		return -1, nil
	case 1:
		return normAxis(op, ax[0], rank)
	}
	return 0, fmt.Errorf("%s along axes %v: sdgo accumulates along one axis", op, ax)
}

// lanes returns outer, n, inner for accumulating along axis of shape s
// (axis -1: one lane over every element).
func lanes(s []int, axis int) (outer, n, inner int) {
	size := 1
	for _, d := range s {
		size *= d
	}
	if axis < 0 {
		return 1, size, 1
	}
	outer, inner = 1, 1
	for _, d := range s[:axis] {
		outer *= d
	}
	for _, d := range s[axis+1:] {
		inner *= d
	}
	return outer, s[axis], inner
}

// prefixT accumulates x along the lanes: out[t] = x[0] ∘ ... ∘ x[t] in
// lane order (reverse: from the end), x[t] left out when exclusive; id is
// the identity of ∘.
func prefixT[T ndarray.Num](x []T, s []int, axis int, exclusive, reverse, prod bool) []T {
	out := make([]T, len(x))
	outer, n, inner := lanes(s, axis)
	var id T
	if prod {
		id = 1
	}
	for o := 0; o < outer; o++ {
		for k := 0; k < inner; k++ {
			acc := id
			for t := 0; t < n; t++ {
				p := t
				if reverse {
					p = n - 1 - t
				}
				i := (o*n+p)*inner + k
				if exclusive {
					out[i] = acc
				}
				if prod {
					acc *= x[i]
				} else {
					acc += x[i]
				}
				if !exclusive {
					out[i] = acc
				}
			}
		}
	}
	return out
}

func runPrefix(op string, x *ndarray.Array, axis int, exclusive, reverse, prod bool) (*ndarray.Array, error) {
	switch x.DType() {
	case ndarray.Float32:
		return prefixOf[float32](x, axis, exclusive, reverse, prod)
	case ndarray.Float64:
		return prefixOf[float64](x, axis, exclusive, reverse, prod)
	case ndarray.Int32:
		return prefixOf[int32](x, axis, exclusive, reverse, prod)
	case ndarray.Int64:
		return prefixOf[int64](x, axis, exclusive, reverse, prod)
	}
	return nil, fmt.Errorf("%s of %v arrays", op, x.DType())
}

func prefixOf[T ndarray.Num](x *ndarray.Array, axis int, exclusive, reverse, prod bool) (*ndarray.Array, error) {
	v, err := packedValues[T](x)
	if err != nil {
		return nil, err
	}
	return ndarray.Wrap(prefixT(v, x.Shape(), axis, exclusive, reverse, prod), x.Shape()...)
}

// prefixRunArgs reads cumsum's and cumprod's flags and axis at run time
// from inputs x, [axis, ...].
func prefixRunArgs(op string, in []*ndarray.Array, a *Args) (axis int, exclusive, reverse bool, err error) {
	var ax []int
	if len(in) > 1 {
		if ax, err = arrayInts(op+": the axis", in[1]); err != nil {
			return 0, false, false, err
		}
	}
	axis, err = prefixAxis(op, a, ax, len(in) > 1, in[0].Rank())
	return axis, a.Int(0, 0) == 1, a.Int(1, 0) == 1, err
}

func prefixInfer(op string, bp bool) func(in []Info, a *Args) ([]Info, error) {
	return func(in []Info, a *Args) ([]Info, error) {
		x := in[0]
		if err := needNumeric(op, x); err != nil {
			return nil, err
		}
		nAx := len(in) - 1
		if bp {
			nAx--
		}
		if nAx > 0 {
			if err := needIntInput(op, "the axis", in[1]); err != nil {
				return nil, err
			}
		} else if !x.UnknownRank {
			if _, err := prefixAxis(op, a, nil, false, len(x.Shape)); err != nil {
				return nil, err
			}
		}
		if !bp {
			return infos(same(x)), nil
		}
		g := in[len(in)-1]
		if err := sameShapeGrad(op, x, g); err != nil {
			return nil, err
		}
		if nAx > 0 {
			return gradInfos(op, g, x, in[1])
		}
		return gradInfos(op, g, x)
	}
}

// prefixGrad hands cumsum's or cumprod's inputs and gradient to its _bp
// op; the axis input gets no gradient.
func prefixGrad(bpName string) GradFunc {
	return func(b GradBuilder, n GradNode, d []Value) []Value {
		res := make([]Value, len(n.In))
		res[0] = bpOp(bpName)(b, n, d)[0]
		return res
	}
}

// cumsumOp is libnd4j's cumsum: inputs x, [axis]; int args: exclusive
// (1: leave each element out of its own sum), reverse (1: sum from the
// end), then the axis when there is no input 1; without an axis the sum
// runs over every element in C order. sdgo takes one axis.
var cumsumOp = Register(&Def{
	Name: "cumsum", Type: Custom, MinIn: 1, MaxIn: 2, NonDiff: []int{1},
	Doc:   "running sum along an axis; int args exclusive, reverse, then the axis (or input 1)",
	Infer: prefixInfer("cumsum", false),
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		axis, ex, rev, err := prefixRunArgs("cumsum", in, a)
		if err != nil {
			return nil, err
		}
		return one(runPrefix("cumsum", in[0], axis, ex, rev, false))
	},
	Grad: prefixGrad("cumsum_bp"),
})

// prefixBpOuts returns the _bp op's outputs: dx and, when the axis came as
// an input, a gradient of ones for it (libnd4j's convention).
func prefixBpOuts(in []*ndarray.Array, dx *ndarray.Array) ([]*ndarray.Array, error) {
	if len(in) < 3 {
		return []*ndarray.Array{dx}, nil
	}
	ones, err := ndarray.Full(dx.DType(), 1, in[1].Shape()...)
	if err != nil {
		return nil, err
	}
	return []*ndarray.Array{dx, ones}, nil
}

// cumsumBpOp is cumsum's gradient (libnd4j cumsum_bp): inputs x, [axis,]
// gradO with cumsum's int args; gradO summed the other way along the axis.
var cumsumBpOp = Register(&Def{
	Name: "cumsum_bp", Type: Custom, MinIn: 2, MaxIn: 3, NonDiff: []int{1},
	Doc:   "gradient of cumsum for inputs x, [axis,] gradO: gradO's running sum in the other direction",
	Infer: prefixInfer("cumsum_bp", true),
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		g := in[len(in)-1]
		if !ndarray.SameShape(g.Shape(), in[0].Shape()) {
			return nil, fmt.Errorf("cumsum_bp: gradient of shape %v for x of shape %v", g.Shape(), in[0].Shape())
		}
		axis, ex, rev, err := prefixRunArgs("cumsum_bp", in[:len(in)-1], a)
		if err != nil {
			return nil, err
		}
		dx, err := runPrefix("cumsum_bp", g, axis, ex, !rev, false)
		if err != nil {
			return nil, err
		}
		return prefixBpOuts(in, dx)
	},
})

// cumprodGradT is the gradient of cumprod along each lane: dx_i = Σ over
// the outputs j that take x_i of g_j · Π of their other factors. A lane
// without zeros takes it as (Σ g_j·y_j) / x_i; a lane with a zero is
// summed term by term.
func cumprodGradT[T ndarray.Float](x, g []T, s []int, axis int, exclusive, reverse bool) []T {
	out := make([]T, len(x))
	if len(x) == 0 {
		return out // the lane buffers below would be sized by a dim of any size
	}
	outer, n, inner := lanes(s, axis)
	lx, lg := make([]T, n), make([]T, n)
	for o := 0; o < outer; o++ {
		for k := 0; k < inner; k++ {
			at := func(t int) int {
				if reverse {
					t = n - 1 - t
				}
				return (o*n+t)*inner + k
			}
			zero := false
			for t := 0; t < n; t++ {
				lx[t], lg[t] = x[at(t)], g[at(t)]
				zero = zero || lx[t] == 0
			}
			first := 0 // the first output that takes x_i is i+first
			if exclusive {
				first = 1
			}
			if !zero {
				// y_j = Π_{k<j+1-first} x_k; r accumulates Σ_{j>=i+first} g_j·y_j from the end.
				var r T
				y := make([]T, n)
				p := T(1)
				for t := 0; t < n; t++ {
					if exclusive {
						y[t] = p
						p *= lx[t]
					} else {
						p *= lx[t]
						y[t] = p
					}
				}
				for t := n - 1; t >= 0; t-- {
					if t+first < n {
						r += lg[t+first] * y[t+first]
					}
					out[at(t)] = r / lx[t]
				}
				continue
			}
			pre := T(1) // Π_{k<i} x_k
			for i := 0; i < n; i++ {
				// Output j takes x_i and x_k for i < k <= j-first.
				var sum T
				p := pre
				for j := i + first; j < n; j++ {
					if j-first > i {
						p *= lx[j-first]
					}
					sum += lg[j] * p
				}
				out[at(i)] = sum
				pre *= lx[i]
			}
		}
	}
	return out
}

func cumprodGradOf[T ndarray.Float](x, g *ndarray.Array, axis int, exclusive, reverse bool) (*ndarray.Array, error) {
	xv, err := packedValues[T](x)
	if err != nil {
		return nil, err
	}
	gv, err := packedValues[T](g)
	if err != nil {
		return nil, err
	}
	return ndarray.Wrap(cumprodGradT(xv, gv, x.Shape(), axis, exclusive, reverse), x.Shape()...)
}

// cumprodOp is libnd4j's cumprod: cumsum's inputs and int args, with
// products for sums.
var cumprodOp = Register(&Def{
	Name: "cumprod", Type: Custom, MinIn: 1, MaxIn: 2, NonDiff: []int{1},
	Doc:   "running product along an axis; int args exclusive, reverse, then the axis (or input 1)",
	Infer: prefixInfer("cumprod", false),
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		axis, ex, rev, err := prefixRunArgs("cumprod", in, a)
		if err != nil {
			return nil, err
		}
		return one(runPrefix("cumprod", in[0], axis, ex, rev, true))
	},
	Grad: prefixGrad("cumprod_bp"),
})

// cumprodBpOp is cumprod's gradient (libnd4j cumprod_bp): inputs x,
// [axis,] gradO with cumprod's int args; exact where x has zeros.
var cumprodBpOp = Register(&Def{
	Name: "cumprod_bp", Type: Custom, MinIn: 2, MaxIn: 3, NonDiff: []int{1},
	Doc:   "gradient of cumprod for inputs x, [axis,] gradO",
	Infer: prefixInfer("cumprod_bp", true),
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x, g := in[0], in[len(in)-1]
		if !ndarray.SameShape(g.Shape(), x.Shape()) || g.DType() != x.DType() {
			return nil, fmt.Errorf("cumprod_bp: gradient %v%v for x %v%v", g.DType(), g.Shape(), x.DType(), x.Shape())
		}
		axis, ex, rev, err := prefixRunArgs("cumprod_bp", in[:len(in)-1], a)
		if err != nil {
			return nil, err
		}
		var dx *ndarray.Array
		switch g.DType() {
		case ndarray.Float32:
			dx, err = cumprodGradOf[float32](x, g, axis, ex, rev)
		case ndarray.Float64:
			dx, err = cumprodGradOf[float64](x, g, axis, ex, rev)
		default:
			err = fmt.Errorf("cumprod_bp of a %v gradient", g.DType())
		}
		if err != nil {
			return nil, err
		}
		return prefixBpOuts(in, dx)
	},
})
