package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// Shape ops. Where an op's result is a relabelling of its input's elements
// (identity, reshape of a packed array, expand_dims, squeeze) it returns an
// array sharing the input's buffer: values are immutable, and the executor
// tracks buffers, not arrays, so sharing is invisible.

var identityOp = Register(&Def{
	Name: "identity", Type: Custom, MinIn: 1, MaxIn: 1, Flags: AnyDType, Doc: "x",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		o := same(in[0])
		o.Value = in[0].Value
		return infos(o), nil
	},
	Run:  func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) { return one(in[0], nil) },
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value { return []Value{d[0]} },
})

// permArg returns the permutation from integer args or the optional second
// input's constant value; nil with ok=false when only run time knows it.
func permArg(in []Info, a *Args) ([]int, bool) {
	if len(in) > 1 {
		return constInts(in[1])
	}
	return intsOf(a.I), true
}

func permuteDef(name, doc string) *Def {
	return &Def{
		Name: name, Type: Custom, MinIn: 1, MaxIn: 2, Doc: doc, NonDiff: []int{1}, Grad: permGrad,
		Infer: func(in []Info, a *Args) ([]Info, error) {
			x := in[0]
			perm, ok := permArg(in, a)
			if x.UnknownRank {
				return infos(Info{DType: x.DType, UnknownRank: true}), nil
			}
			if !ok {
				return infos(Info{DType: x.DType, Shape: unknownShape(len(x.Shape))}), nil
			}
			s, err := ndarray.PermutedShape(x.Shape, perm)
			if err != nil {
				return nil, fmt.Errorf("%s of shape %v: %w", name, x.Shape, err)
			}
			return infos(Info{DType: x.DType, Shape: s}), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			perm, err := inputInts(in, 1, "the permutation input", intsOf(a.I))
			if err != nil {
				return nil, err
			}
			return one(ndarray.Permute(in[0], perm...))
		},
	}
}

var (
	transposeOp = Register(permuteDef("transpose", "axes permuted (reversed when no permutation is given)"))
	permuteOp   = Register(permuteDef("permute", "axes permuted by int args or a second input"))
)

// reshapeTarget reads the target shape: from the second input, or from the
// integer arguments, where libnd4j may put the order ('c' = 99 or 'f' = 102,
// possibly negated) first.
func reshapeTarget(a *Args) []int {
	s := a.I
	if len(s) > 0 && (s[0] == 99 || s[0] == -99 || s[0] == 102 || s[0] == -102) {
		s = s[1:]
	}
	return intsOf(s)
}

var reshapeOp = Register(&Def{
	Name: "reshape", Type: Custom, MinIn: 1, MaxIn: 2, NonDiff: []int{1},
	Doc: "x with a new shape of the same size (one size may be -1); the shape is int args or a second input",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		x := in[0]
		target := reshapeTarget(a)
		if len(in) > 1 {
			v, ok := constInts(in[1])
			if !ok {
				if !in[1].UnknownRank && len(in[1].Shape) == 1 && in[1].Shape[0] >= 0 {
					return infos(Info{DType: x.DType, Shape: unknownShape(in[1].Shape[0])}), nil
				}
				return infos(Info{DType: x.DType, UnknownRank: true}), nil
			}
			target = v
		}
		if x.ShapeKnown() {
			s, err := ndarray.ResolveShape(target, ndarray.Packed(x.Shape...).Size())
			if err != nil {
				return nil, fmt.Errorf("reshape of shape %v: %w", x.Shape, err)
			}
			return infos(Info{DType: x.DType, Shape: s}), nil
		}
		return infos(Info{DType: x.DType, Shape: append([]int(nil), target...)}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		target, err := inputInts(in, 1, "the shape input", reshapeTarget(a))
		if err != nil {
			return nil, err
		}
		return one(ndarray.Reshape(in[0], target...))
	},
	Grad: reshapeGrad,
})

func axisArg(in []Info, a *Args) (int, bool) {
	if len(in) > 1 {
		v, ok := constInts(in[1])
		if !ok || len(v) != 1 {
			return 0, false
		}
		return v[0], true
	}
	return int(a.Int(0, 0)), true
}

var expandDimsOp = Register(&Def{
	Name: "expand_dims", Type: Custom, MinIn: 1, MaxIn: 2, NonDiff: []int{1},
	Doc: "x with a size-1 axis inserted at int arg 0 (or a second input)",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		x := in[0]
		ax, ok := axisArg(in, a)
		if x.UnknownRank || !ok {
			return infos(Info{DType: x.DType, UnknownRank: true}), nil
		}
		r, given := len(x.Shape), ax
		if ax < 0 {
			ax += r + 1
		}
		if ax < 0 || ax > r {
			return nil, fmt.Errorf("expand_dims at axis %d of shape %v", given, x.Shape)
		}
		s := append(append(append([]int(nil), x.Shape[:ax]...), 1), x.Shape[ax:]...)
		return infos(Info{DType: x.DType, Shape: s}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		ax, err := inputInts(in, 1, "the axis input", []int{int(a.Int(0, 0))})
		if err != nil {
			return nil, err
		}
		if len(ax) != 1 {
			return nil, fmt.Errorf("expand_dims: the axis input has %d values", len(ax))
		}
		return one(ndarray.ExpandDims(in[0], ax[0]))
	},
	Grad: reshapeGrad,
})

var squeezeOp = Register(&Def{
	Name: "squeeze", Type: Custom, MinIn: 1, MaxIn: 1,
	Doc: "x without the size-1 axes named by int args (all of them when none are)",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		x := in[0]
		if x.UnknownRank {
			return infos(Info{DType: x.DType, UnknownRank: true}), nil
		}
		if len(a.I) == 0 && !x.ShapeKnown() {
			return infos(Info{DType: x.DType, UnknownRank: true}), nil
		}
		s, err := ndarray.SqueezedShape(x.Shape, intsOf(a.I))
		if err != nil {
			return nil, err
		}
		return infos(Info{DType: x.DType, Shape: s}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		return one(ndarray.Squeeze(in[0], intsOf(a.I)...))
	},
	Grad: reshapeGrad,
})

func sameDTypes(name string, in []Info) error {
	for i, x := range in[1:] {
		if x.DType != in[0].DType {
			return fmt.Errorf("%s: input %d is %v, input 0 is %v", name, i+1, x.DType, in[0].DType)
		}
	}
	return nil
}

var concatOp = Register(&Def{
	Name: "concat", Type: Custom, MinIn: 1, MaxIn: -1,
	Doc: "inputs joined along int arg 0",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		if err := sameDTypes("concat", in); err != nil {
			return nil, err
		}
		shapes := make([][]int, len(in))
		for i, x := range in {
			if x.UnknownRank {
				return infos(Info{DType: in[0].DType, UnknownRank: true}), nil
			}
			shapes[i] = x.Shape
		}
		s, err := ndarray.ConcatShape(int(a.Int(0, 0)), shapes...)
		if err != nil {
			return nil, err
		}
		return infos(Info{DType: in[0].DType, Shape: s}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		// Into a buffer from the executor's pool: concat's outputs are
		// often large (a state rebuilt from slices), and ndarray.Concat's
		// fresh ones are never reused.
		axis := int(a.Int(0, 0))
		dt, shape, err := ndarray.ConcatResult(axis, in...)
		if err != nil {
			return nil, err
		}
		out := c.Alloc(dt, shape)
		return one(out, ndarray.ConcatInto(out, axis, in...))
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		return b.Op("concat_bp", n.Args.Clone(), append(append([]Value(nil), n.In...), d[0])...)
	},
})

var stackOp = Register(&Def{
	Name: "stack", Aliases: []string{"pack"}, Type: Custom, MinIn: 1, MaxIn: -1,
	Doc: "inputs of one shape joined along a new axis, int arg 0",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		if err := sameDTypes("stack", in); err != nil {
			return nil, err
		}
		x := in[0]
		if x.UnknownRank {
			return infos(Info{DType: x.DType, UnknownRank: true}), nil
		}
		for i, y := range in[1:] {
			if !y.Admits(x.Shape) {
				return nil, fmt.Errorf("stack: shape %v of input %d differs from %v", y.Shape, i+1, x.Shape)
			}
		}
		ax := int(a.Int(0, 0))
		r := len(x.Shape)
		if ax < 0 {
			ax += r + 1
		}
		if ax < 0 || ax > r {
			return nil, fmt.Errorf("stack along axis %d of rank-%d inputs", a.Int(0, 0), r)
		}
		s := append(append(append([]int(nil), x.Shape[:ax]...), len(in)), x.Shape[ax:]...)
		return infos(Info{DType: x.DType, Shape: s}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		axis := int(a.Int(0, 0)) // into a pooled buffer, as concat
		dt, shape, err := ndarray.StackResult(axis, in...)
		if err != nil {
			return nil, err
		}
		out := c.Alloc(dt, shape)
		return one(out, ndarray.StackInto(out, axis, in...))
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		return b.Op("unstack", Args{I: []int64{n.Args.Int(0, 0), int64(len(n.In))}}, d[0])
	},
})

// castTarget reads the dtype from the dtype args, or from int arg 0 as a
// SameDiff dtype number.
func castTarget(a *Args) ndarray.DType {
	if len(a.D) > 0 {
		return a.D[0]
	}
	return ndarray.DType(a.Int(0, 0))
}

var castOp = Register(&Def{
	Name: "cast", Type: Custom, MinIn: 1, MaxIn: 1, Doc: "x converted to dtype arg 0",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		dt := castTarget(a)
		if !dt.Computable() {
			return nil, fmt.Errorf("cast to %v: sdgo cannot compute with that dtype", dt)
		}
		if !in[0].DType.Computable() {
			return nil, fmt.Errorf("cast from %v: sdgo cannot compute with that dtype", in[0].DType)
		}
		return infos(Info{DType: dt, Shape: in[0].Shape, UnknownRank: in[0].UnknownRank}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		return one(castFor(c, in[0], castTarget(a)))
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		dt := n.In[0].Info().DType
		if !dt.IsFloat() {
			return []Value{nil}
		}
		return []Value{op1(b, "cast", Args{D: []ndarray.DType{dt}}, d[0])}
	},
})

var shapeOfOp = Register(&Def{
	Name: "shape_of", Type: Custom, MinIn: 1, MaxIn: 1, NonDiff: []int{0},
	Doc: "the shape of x as an int64 vector",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		if in[0].UnknownRank {
			return infos(Info{DType: ndarray.Int64, Shape: []int{-1}}), nil
		}
		o := Info{DType: ndarray.Int64, Shape: []int{len(in[0].Shape)}}
		if in[0].ShapeKnown() {
			v := make([]int64, len(in[0].Shape))
			for i, d := range in[0].Shape {
				v[i] = int64(d)
			}
			o.Value, _ = ndarray.Wrap(v, len(v))
		}
		return infos(o), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		v := make([]int64, in[0].Rank())
		for i, d := range in[0].Shape() {
			v[i] = int64(d)
		}
		return one(ndarray.Wrap(v, len(v)))
	},
})

// Gradient rules of the shape ops: each routes the output gradient back to
// the input's layout.

// reshapeLike reshapes d to x's run-time shape.
func reshapeLike(b GradBuilder, d, x Value) Value {
	return op1(b, "reshape", Args{}, d, op1(b, "shape_of", Args{}, x))
}

func reshapeGrad(b GradBuilder, n GradNode, d []Value) []Value {
	return []Value{reshapeLike(b, d[0], n.In[0])}
}

func permGrad(b GradBuilder, n GradNode, d []Value) []Value {
	if len(n.In) > 1 {
		inv := op1(b, "invert_permutation", Args{}, n.In[1])
		return []Value{op1(b, "permute", Args{}, d[0], inv)}
	}
	if len(n.Args.I) == 0 {
		return []Value{op1(b, "transpose", Args{}, d[0])}
	}
	p := n.Args.I
	inv := make([]int64, len(p))
	for i, q := range p {
		if q < 0 {
			q += int64(len(p))
		}
		inv[q] = int64(i)
	}
	return []Value{op1(b, "permute", Args{I: inv}, d[0])}
}

var invertPermutationOp = Register(&Def{
	Name: "invert_permutation", Type: Custom, MinIn: 1, MaxIn: 1, NonDiff: []int{0},
	Doc: "the inverse of an integer permutation vector",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		if !in[0].DType.IsInt() {
			return nil, fmt.Errorf("invert_permutation needs an integer vector, not %v", in[0].DType)
		}
		if !in[0].UnknownRank && len(in[0].Shape) != 1 {
			return nil, fmt.Errorf("invert_permutation needs an integer vector, not shape %v", in[0].Shape)
		}
		return infos(same(in[0])), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		if in[0].Rank() != 1 {
			return nil, fmt.Errorf("invert_permutation needs an integer vector, not shape %v", in[0].Shape())
		}
		p, err := arrayInts("the permutation", in[0])
		if err != nil {
			return nil, err
		}
		inv := make([]float64, len(p))
		seen := make([]bool, len(p))
		for i, q := range p {
			if q < 0 || q >= len(p) || seen[q] {
				return nil, fmt.Errorf("%v is not a permutation", p)
			}
			seen[q] = true
			inv[q] = float64(i)
		}
		out, err := ndarray.Wrap(inv, len(inv))
		if err != nil {
			return nil, err
		}
		return one(ndarray.Cast(out, in[0].DType()))
	},
})

// concatBpOp splits the gradient of concat back into one piece per input:
// inputs are concat's inputs followed by gradO; int arg 0 the axis.
var concatBpOp = Register(&Def{
	Name: "concat_bp", Type: Custom, MinIn: 2, MaxIn: -1,
	Doc: "gradients of concat: inputs x1..xn, gradO; int arg 0 the axis",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		g := in[len(in)-1]
		if err := needFloat("concat_bp", g); err != nil {
			return nil, err
		}
		// The pieces are slices of the gradient: its dtype and rank.
		for i, x := range in[:len(in)-1] {
			if x.DType != g.DType {
				return nil, fmt.Errorf("concat_bp: input %d is %v, the gradient %v", i, x.DType, g.DType)
			}
			if !x.UnknownRank && !g.UnknownRank && len(x.Shape) != len(g.Shape) {
				return nil, fmt.Errorf("concat_bp: input %d has shape %v, the gradient %v", i, x.Shape, g.Shape)
			}
		}
		return sameInfos(in, len(in)-1), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		g := in[len(in)-1]
		ax := int(a.Int(0, 0))
		if ax < 0 {
			ax += g.Rank()
		}
		if ax < 0 || ax >= g.Rank() {
			return nil, fmt.Errorf("concat_bp: axis %d of a rank-%d gradient", a.Int(0, 0), g.Rank())
		}
		// The inputs must be what concat joined into the gradient's shape:
		// each piece is sliced from it by their sizes along the axis.
		pos := 0
		for i, x := range in[:len(in)-1] {
			xs, gs := x.Shape(), g.Shape()
			ok := len(xs) == len(gs)
			for j := 0; ok && j < len(xs); j++ {
				ok = j == ax || xs[j] == gs[j]
			}
			if !ok {
				return nil, fmt.Errorf("concat_bp: input %d of shape %v is not a piece of the gradient %v along axis %d", i, xs, gs, ax)
			}
			pos += xs[ax]
		}
		if pos != g.Shape()[ax] {
			return nil, fmt.Errorf("concat_bp: the inputs' sizes along axis %d add up to %d, the gradient %v has %d", ax, pos, g.Shape(), g.Shape()[ax])
		}
		outs := make([]*ndarray.Array, len(in)-1)
		pos = 0
		for i, x := range in[:len(in)-1] {
			begin := make([]int, g.Rank())
			end := append([]int(nil), g.Shape()...)
			begin[ax], end[ax] = pos, pos+x.Shape()[ax]
			s, err := ndarray.Slice(g, begin, end)
			if err != nil {
				return nil, err
			}
			outs[i] = s
			pos = end[ax]
		}
		return outs, nil
	},
})

// maxUnstack bounds the pieces unstack makes: each is an output of its own.
const maxUnstack = 1 << 16

// unstackOp splits x along an axis into that axis' size arrays; int arg 0
// is the axis and int arg 1, when given, the number of pieces (needed to
// build when the size is not known).
var unstackOp = Register(&Def{
	Name: "unstack", Aliases: []string{"unpack"}, Type: Custom, MinIn: 1, MaxIn: 1,
	Doc: "x split along int arg 0 into its slices",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		x := in[0]
		if x.UnknownRank {
			return nil, fmt.Errorf("unstack of an input of unknown rank")
		}
		r := len(x.Shape)
		ax := int(a.Int(0, 0))
		if ax < 0 {
			ax += r
		}
		if ax < 0 || ax >= r {
			return nil, fmt.Errorf("unstack along axis %d of shape %v", a.Int(0, 0), x.Shape)
		}
		n := int(a.Int(1, int64(x.Shape[ax])))
		if n < 0 {
			return nil, fmt.Errorf("unstack along axis %d of shape %v: the size is unknown; give the count as int arg 1", ax, x.Shape)
		}
		// A count from int arg 1 sizes the outputs made here: a hostile one
		// would end the program, not fail with an error.
		if n > maxUnstack {
			return nil, fmt.Errorf("unstack into %d pieces (int arg 1) along axis %d of shape %v: at most %d", n, ax, x.Shape, maxUnstack)
		}
		if x.Shape[ax] >= 0 && x.Shape[ax] != n {
			return nil, fmt.Errorf("unstack into %d pieces along axis %d of shape %v", n, ax, x.Shape)
		}
		s := append(append([]int(nil), x.Shape[:ax]...), x.Shape[ax+1:]...)
		out := make([]Info, n)
		for i := range out {
			out[i] = Info{DType: x.DType, Shape: s}
		}
		return out, nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x := in[0]
		ax := int(a.Int(0, 0))
		if ax < 0 {
			ax += x.Rank()
		}
		if ax < 0 || ax >= x.Rank() {
			return nil, fmt.Errorf("unstack along axis %d of shape %v", a.Int(0, 0), x.Shape())
		}
		// Inference bounds the pieces; a fed x of no elements may still
		// have any number of them.
		if n := x.Shape()[ax]; n > maxUnstack {
			return nil, fmt.Errorf("unstack into %d pieces along axis %d of shape %v: at most %d", n, ax, x.Shape(), maxUnstack)
		}
		outs := make([]*ndarray.Array, x.Shape()[ax])
		for i := range outs {
			begin := make([]int, x.Rank())
			end := append([]int(nil), x.Shape()...)
			begin[ax], end[ax] = i, i+1
			s, err := ndarray.Slice(x, begin, end)
			if err != nil {
				return nil, err
			}
			if outs[i], err = ndarray.Squeeze(s, ax); err != nil {
				return nil, err
			}
		}
		return outs, nil
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		parts := make([]Value, len(d))
		for i, g := range d {
			if g == nil {
				g = op1(b, "zeros_as", Args{}, n.Out[i])
			}
			parts[i] = g
		}
		return []Value{op1(b, "stack", Args{I: []int64{n.Args.Int(0, 0)}}, parts...)}
	},
})

// stopGradientOp passes x through and blocks its gradient.
var stopGradientOp = Register(&Def{
	Name: "stop_gradient", Type: Custom, MinIn: 1, MaxIn: 1, NonDiff: []int{0},
	Doc:   "x, treated as a constant by autodiff",
	Infer: identityOp.Infer,
	Run:   identityOp.Run,
})

// tile and identity_n. Arguments follow libnd4j's positional conventions,
// noted on each op.

// ---------------------------------------------------------------- tile

// tileReps returns the repetitions from the optional second input's
// constant value or the int args; ok is false when only run time knows them.
func tileReps(in []Info, a *Args) ([]int, bool) {
	if len(in) > 1 {
		return constInts(in[1])
	}
	return intsOf(a.I), true
}

func tileShape(shape, reps []int) ([]int, error) {
	if len(reps) != len(shape) {
		return nil, fmt.Errorf("tile of shape %v with %d repetitions %v (need one per axis)", shape, len(reps), reps)
	}
	out := make([]int, len(shape))
	for i, r := range reps {
		if r < 0 {
			return nil, fmt.Errorf("tile of shape %v: negative repetition %d on axis %d", shape, r, i)
		}
		out[i] = -1
		if shape[i] > 0 && r > ndarray.MaxBytes/shape[i] {
			return nil, fmt.Errorf("tile of shape %v: %d repetitions on axis %d are too many", shape, r, i)
		}
		if shape[i] >= 0 {
			out[i] = shape[i] * r
		}
	}
	return out, nil
}

func runTileReps(in []*ndarray.Array, a *Args) ([]int, error) {
	if len(in) > 1 && in[1] != nil {
		return arrayInts("the repetitions input", in[1])
	}
	return intsOf(a.I), nil
}

// tileOp repeats x along every axis (libnd4j tile: the repetitions are
// input 1, an integer vector with one entry per axis, or the int args).
var tileOp = Register(&Def{
	Name: "tile", Type: Custom, MinIn: 1, MaxIn: 2, NonDiff: []int{1},
	Doc: "x repeated reps[i] times along axis i; reps is input 1 or the int args",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		x := in[0]
		if len(in) > 1 {
			if err := needIntInput("tile", "the repetitions", in[1]); err != nil {
				return nil, err
			}
		}
		if x.UnknownRank {
			return infos(Info{DType: x.DType, UnknownRank: true}), nil
		}
		reps, ok := tileReps(in, a)
		if !ok {
			return infos(Info{DType: x.DType, Shape: unknownShape(len(x.Shape))}), nil
		}
		s, err := tileShape(x.Shape, reps)
		if err != nil {
			return nil, err
		}
		return infos(Info{DType: x.DType, Shape: s}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		reps, err := runTileReps(in, a)
		if err != nil {
			return nil, err
		}
		shape, err := ndarray.TileShape(in[0], reps...)
		if err != nil {
			return nil, err
		}
		// The size comes from the repetitions' values: above the
		// allocation limit, an error as ndarray.Tile gives it.
		out, err := c.TryAlloc(in[0].DType(), shape)
		if err != nil {
			return nil, err
		}
		return one(out, ndarray.TileInto(out, in[0], reps...))
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		return append(bpOp("tile_bp")(b, n, d), nil)[:len(n.In)]
	},
})

// tileBpOp is tile's gradient: inputs x, [reps,] gradO (libnd4j tile_bp);
// the output gradient summed over the tiles.
var tileBpOp = Register(&Def{
	Name: "tile_bp", Type: Custom, MinIn: 2, MaxIn: 3, NonDiff: []int{1},
	Doc: "gradient of tile for inputs x, [reps,] gradO: gradO summed over the tiles",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		return gradInfos("tile_bp", in[len(in)-1], in[0])
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x, g := in[0], in[len(in)-1]
		reps, err := runTileReps(in[:len(in)-1], a)
		if err != nil {
			return nil, err
		}
		s, err := tileShape(x.Shape(), reps)
		if err != nil {
			return nil, err
		}
		if !ndarray.SameShape(s, g.Shape()) {
			return nil, fmt.Errorf("tile_bp: gradient of shape %v for a tile of shape %v giving %v", g.Shape(), x.Shape(), s)
		}
		// View g as [r0, d0, r1, d1, ...] and sum the r axes.
		split := make([]int, 0, 2*x.Rank())
		var axes []int
		for i, d := range x.Shape() {
			axes = append(axes, 2*i)
			split = append(split, reps[i], d)
		}
		gv, err := ndarray.Reshape(g, split...)
		if err != nil {
			return nil, err
		}
		if !g.DType().IsNumeric() {
			return one(ndarray.Reduce(ndarray.Sum, gv, axes, false)) // its error
		}
		out := c.Alloc(g.DType(), x.Shape()) // pooled: a gradient, every step
		return one(out, ndarray.ReduceInto(ndarray.Sum, out, gv, axes))
	},
})

// identity_n, which the SameDiff files in testdata/samediff use (pad is in
// nn.go).

// identityNOp passes N inputs through as N outputs (TensorFlow's IdentityN).
var identityNOp = Register(&Def{
	Name: "identity_n", Type: Custom, MinIn: 1, MaxIn: -1, Doc: "every input passed through unchanged, one output each",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		out := make([]Info, len(in))
		for i, x := range in {
			out[i] = same(x)
			out[i].Value = x.Value
		}
		return out, nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		return append([]*ndarray.Array(nil), in...), nil
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		return append([]Value(nil), d...)
	},
})
