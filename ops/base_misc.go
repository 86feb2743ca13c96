package ops

import (
	"fmt"
	"math"

	"github.com/sdgo/sdgo/ndarray"
)

// SameDiff's base-namespace odds and ends: the dot product (legacy
// REDUCE_3 dot and its reduce_dot_bp), tensordot (libnd4j's tensormmul)
// and tensormmul_bp, create, set_scalar, set_shape, is_numeric_tensor and
// min_max_datatype.

// ---------------------------------------------------------------- dot

// dotInfer checks dot's operands (one numeric dtype, shapes that agree as
// far as known) and gives the reduction of x over the axes.
func dotInfer(name string, in []Info, a *Args) ([]Info, error) {
	x, y := in[0], in[1]
	if err := needNumeric(name, x); err != nil {
		return nil, err
	}
	if x.DType != y.DType {
		return nil, fmt.Errorf("%s of %v and %v: dtypes differ", name, x.DType, y.DType)
	}
	if !x.UnknownRank && !y.UnknownRank && !x.Admits(y.Shape) {
		return nil, fmt.Errorf("%s of shapes %v and %v: the shapes must be equal", name, x.Shape, y.Shape)
	}
	if x.UnknownRank {
		x = y
	}
	o, err := reduceInfo(name, []Info{x}, a)
	if err != nil {
		return nil, err
	}
	return infos(o), nil
}

// dotOp is SameDiff's dot (legacy REDUCE_3 op 3): Σ x·y over the axes
// (Dims, or int args; all when none), for x and y of one shape; bool arg 0
// keepDims.
var dotOp = Register(&Def{
	Name: "dot", Type: Reduce3, Num: 3, MinIn: 2, MaxIn: 2,
	Doc:   "Σ x·y over axes (dims; all when none) of two arrays of one shape; bool arg 0: keepDims",
	Infer: func(in []Info, a *Args) ([]Info, error) { return dotInfer("dot", in, a) },
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x, y := in[0], in[1]
		if !ndarray.SameShape(x.Shape(), y.Shape()) {
			return nil, fmt.Errorf("dot of shapes %v and %v: the shapes must be equal", x.Shape(), y.Shape())
		}
		ax, err := ndarray.NormAxes(reduceAxesArg(a), x.Rank())
		if err != nil {
			return nil, fmt.Errorf("dot of shape %v: %w", x.Shape(), err)
		}
		p := c.Alloc(x.DType(), x.Shape())
		if err := ndarray.BinaryInto(ndarray.Mul, p, x, y); err != nil {
			return nil, err
		}
		out := c.Alloc(x.DType(), ndarray.ReducedShape(x.Shape(), ax, a.Bool(0, false)))
		err = ndarray.ReduceInto(ndarray.Sum, out, p, ax)
		c.Release(p)
		return one(out, err)
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		return b.Op("reduce_dot_bp", n.Args.Clone(), n.In[0], n.In[1], d[0])
	},
})

// reduceDotBpOp is libnd4j's reduce_dot_bp: inputs x, y, gradO, with dot's
// arguments; gradients gradO·y and gradO·x, gradO spread over the reduced
// axes.
var reduceDotBpOp = Register(&Def{
	Name: "reduce_dot_bp", Type: Custom, MinIn: 3, MaxIn: 3,
	Doc: "gradients of dot for inputs x, y, gradO (dot's arguments)",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		if _, err := dotInfer("reduce_dot_bp", in[:2], a); err != nil {
			return nil, err
		}
		return gradInfos("reduce_dot_bp", in[2], in[0], in[1])
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x, y, g := in[0], in[1], in[2]
		if !ndarray.SameShape(x.Shape(), y.Shape()) {
			return nil, fmt.Errorf("reduce_dot_bp of shapes %v and %v: the shapes must be equal", x.Shape(), y.Shape())
		}
		// gradO spread over x's shape, as reduce_sum's gradient.
		full, err := reduceSumBpOp.Run(c, []*ndarray.Array{x, g}, a)
		if err != nil {
			return nil, err
		}
		var dx, dy *ndarray.Array
		if c.Needed(0) {
			if dx, err = binFor(c, ndarray.Mul, full[0], y); err != nil {
				return nil, err
			}
		}
		if c.Needed(1) {
			if dy, err = binFor(c, ndarray.Mul, full[0], x); err != nil {
				return nil, err
			}
		}
		c.Release(full[0])
		return []*ndarray.Array{dx, dy}, nil
	},
})

// ---------------------------------------------------------------- tensordot

// tensorDotAxes reads tensormmul's int args [nA, axesA..., nB, axesB...]
// and returns the axes, normalized for ranks ra and rb.
func tensorDotAxes(name string, a *Args, ra, rb int) (ax, bx []int, err error) {
	p := a.I
	if len(p) < 2 {
		return nil, nil, fmt.Errorf("%s: int args must be [nA, axesA..., nB, axesB...], got %v", name, p)
	}
	if p[0] < 0 || p[0] > int64(len(p)) {
		return nil, nil, fmt.Errorf("%s: int args must be [nA, axesA..., nB, axesB...], got %v", name, p)
	}
	na := int(p[0])
	if len(p) < na+2 {
		return nil, nil, fmt.Errorf("%s: int args must be [nA, axesA..., nB, axesB...], got %v", name, p)
	}
	nb := int(p[na+1])
	if nb != na || len(p) != na+nb+2 {
		return nil, nil, fmt.Errorf("%s: int args must be [n, axesA..., n, axesB...] with as many axes of a as of b, got %v", name, p)
	}
	norm := func(v []int64, r int, which string) ([]int, error) {
		out := make([]int, len(v))
		seen := map[int]bool{}
		for i, d := range v {
			x := int(d)
			if x < 0 {
				x += r
			}
			if x < 0 || x >= r || seen[x] {
				return nil, fmt.Errorf("%s: axes %v of %s (rank %d) out of range or repeated", name, v, which, r)
			}
			seen[x] = true
			out[i] = x
		}
		return out, nil
	}
	if ax, err = norm(p[1:na+1], ra, "a"); err != nil {
		return nil, nil, err
	}
	bx, err = norm(p[na+2:], rb, "b")
	return ax, bx, err
}

// freeAxes returns the axes of rank r not in contracted, in order.
func freeAxes(r int, contracted []int) []int {
	in := make([]bool, r)
	for _, a := range contracted {
		in[a] = true
	}
	var out []int
	for i := 0; i < r; i++ {
		if !in[i] {
			out = append(out, i)
		}
	}
	return out
}

// tensorDotShape checks the contracted sizes and returns the result shape:
// a's free sizes then b's.
func tensorDotShape(name string, as, bs []int, ax, bx []int) ([]int, error) {
	for i := range ax {
		da, db := as[ax[i]], bs[bx[i]]
		if da >= 0 && db >= 0 && da != db {
			return nil, fmt.Errorf("%s of shapes %v and %v: contracted axes %v and %v differ in size", name, as, bs, ax, bx)
		}
	}
	var out []int
	for _, i := range freeAxes(len(as), ax) {
		out = append(out, as[i])
	}
	for _, i := range freeAxes(len(bs), bx) {
		out = append(out, bs[i])
	}
	return out, nil
}

func prod(s []int) int {
	n := 1
	for _, d := range s {
		n *= d
	}
	return n
}

func pick(s, idx []int) []int {
	out := make([]int, len(idx))
	for i, j := range idx {
		out[i] = s[j]
	}
	return out
}

// asMatrix permutes x's axes to first ++ second and reshapes it to a
// [prod first, prod second] matrix.
func asMatrix(x *ndarray.Array, first, second []int) (*ndarray.Array, error) {
	p, err := ndarray.Permute(x, append(append([]int(nil), first...), second...)...)
	if err != nil {
		return nil, err
	}
	if p, err = ndarray.Contiguous(p); err != nil {
		return nil, err
	}
	return ndarray.Reshape(p, prod(pick(x.Shape(), first)), prod(pick(x.Shape(), second)))
}

// tensorDotInfer is tensordot's and tensormmul_bp's inference of the
// product's shape.
func tensorDotInfer(name string, a, b Info, args *Args) ([]int, bool, error) {
	if err := needFloat(name, a); err != nil {
		return nil, false, err
	}
	if a.DType != b.DType {
		return nil, false, fmt.Errorf("%s of %v and %v: dtypes differ", name, a.DType, b.DType)
	}
	if a.UnknownRank || b.UnknownRank {
		return nil, false, nil
	}
	ax, bx, err := tensorDotAxes(name, args, len(a.Shape), len(b.Shape))
	if err != nil {
		return nil, false, err
	}
	s, err := tensorDotShape(name, a.Shape, b.Shape, ax, bx)
	return s, true, err
}

// tensorDotOp is libnd4j's tensormmul, which SameDiff files name tensordot:
// the sum over pairs of axes of a and b of their products, int args [n,
// axesA..., n, axesB...]; the result has a's free axes then b's. It runs
// as one matrix product (GEMM) of a and b permuted and reshaped. Files
// store the name tensordot (Java's opName) with the hash of tensormmul,
// libnd4j's name for the op, which Java looks up.
var tensorDotOp = Register(&Def{
	Name: "tensordot", Aliases: []string{"tensormmul"}, Type: Custom, Num: Hash("tensormmul"), MinIn: 2, MaxIn: 2,
	Doc: "contraction of a and b over paired axes; int args [n, axesA..., n, axesB...]; a's free axes then b's",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		s, known, err := tensorDotInfer("tensordot", in[0], in[1], a)
		if err != nil {
			return nil, err
		}
		if !known {
			return infos(Info{DType: in[0].DType, UnknownRank: true}), nil
		}
		return infos(Info{DType: in[0].DType, Shape: s}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, args *Args) ([]*ndarray.Array, error) {
		a, b := in[0], in[1]
		ax, bx, err := tensorDotAxes("tensordot", args, a.Rank(), b.Rank())
		if err != nil {
			return nil, err
		}
		s, err := tensorDotShape("tensordot", a.Shape(), b.Shape(), ax, bx)
		if err != nil {
			return nil, err
		}
		am, err := asMatrix(a, freeAxes(a.Rank(), ax), ax)
		if err != nil {
			return nil, err
		}
		bm, err := asMatrix(b, bx, freeAxes(b.Rank(), bx))
		if err != nil {
			return nil, err
		}
		out := c.Alloc(a.DType(), s)
		o2, err := ndarray.Reshape(out, am.Shape()[0], bm.Shape()[1])
		if err != nil {
			return nil, err
		}
		return one(out, ndarray.MatMulInto(o2, am, bm, false, false))
	},
	Grad: bpOp("tensormmul_bp"),
})

// inversePerm returns the inverse of permutation p.
func inversePerm(p []int) []int {
	q := make([]int, len(p))
	for i, j := range p {
		q[j] = i
	}
	return q
}

// fromMatrix reshapes the matrix m to the sizes of x's axes first ++ second,
// puts the axes back in x's order and copies the result into an array of
// x's shape from c.
func fromMatrix(c *Ctx, m *ndarray.Array, x *ndarray.Array, first, second []int) (*ndarray.Array, error) {
	perm := append(append([]int(nil), first...), second...)
	r, err := ndarray.Reshape(m, pick(x.Shape(), perm)...)
	if err != nil {
		return nil, err
	}
	if r, err = ndarray.Permute(r, inversePerm(perm)...); err != nil {
		return nil, err
	}
	out := c.Alloc(m.DType(), x.Shape())
	return out, ndarray.CopyInto(out, r)
}

// tensorMmulBpOp is libnd4j's tensormmul_bp: inputs a, b, gradO, with
// tensordot's int args; gradients of a and b, each one GEMM.
var tensorMmulBpOp = Register(&Def{
	Name: "tensormmul_bp", Type: Custom, MinIn: 3, MaxIn: 3,
	Doc: "gradients of tensordot for inputs a, b, gradO (tensordot's int args)",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		s, known, err := tensorDotInfer("tensormmul_bp", in[0], in[1], a)
		if err != nil {
			return nil, err
		}
		if known && !in[2].UnknownRank && !(Info{Shape: s}).Admits(in[2].Shape) {
			return nil, fmt.Errorf("tensormmul_bp: the gradient has shape %v, the product %v", in[2].Shape, s)
		}
		if in[2].DType != in[0].DType {
			return nil, fmt.Errorf("tensormmul_bp: the gradient is %v, the inputs %v", in[2].DType, in[0].DType)
		}
		return sameInfos(in, 2), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, args *Args) ([]*ndarray.Array, error) {
		a, b, g := in[0], in[1], in[2]
		ax, bx, err := tensorDotAxes("tensormmul_bp", args, a.Rank(), b.Rank())
		if err != nil {
			return nil, err
		}
		s, err := tensorDotShape("tensormmul_bp", a.Shape(), b.Shape(), ax, bx)
		if err != nil {
			return nil, err
		}
		if !ndarray.SameShape(s, g.Shape()) {
			return nil, fmt.Errorf("tensormmul_bp: the gradient has shape %v, the product %v", g.Shape(), s)
		}
		fa, fb := freeAxes(a.Rank(), ax), freeAxes(b.Rank(), bx)
		gc, err := ndarray.Contiguous(g)
		if err != nil {
			return nil, err
		}
		gm, err := ndarray.Reshape(gc, prod(pick(a.Shape(), fa)), prod(pick(b.Shape(), fb)))
		if err != nil {
			return nil, err
		}
		var da, db *ndarray.Array
		if c.Needed(0) { // G [M N] · Bm [K N]ᵀ -> [M K]
			bm, err := asMatrix(b, bx, fb)
			if err != nil {
				return nil, err
			}
			m, err := ndarray.MatMul(gm, bm, false, true)
			if err != nil {
				return nil, err
			}
			if da, err = fromMatrix(c, m, a, fa, ax); err != nil {
				return nil, err
			}
		}
		if c.Needed(1) { // Am [M K]ᵀ · G [M N] -> [K N]
			am, err := asMatrix(a, fa, ax)
			if err != nil {
				return nil, err
			}
			m, err := ndarray.MatMul(am, gm, true, false)
			if err != nil {
				return nil, err
			}
			if db, err = fromMatrix(c, m, b, bx, fb); err != nil {
				return nil, err
			}
		}
		return []*ndarray.Array{da, db}, nil
	},
})

// ---------------------------------------------------------------- create

// createArgs reads create's int args: order ('c' or 'f', default 'c') and
// the dtype (SameDiff's number, default float32).
func createArgs(a *Args) (ndarray.DType, error) {
	order := a.Int(0, 'c')
	if order != 'c' && order != 'f' {
		return 0, fmt.Errorf("create: order (int arg 0) must be 'c' (99) or 'f' (102), got %d", order)
	}
	dt := ndarray.DType(a.Int(1, int64(ndarray.Float32)))
	if v := a.Int(1, int64(ndarray.Float32)); v < 0 || v > 255 || !dt.Computable() {
		return 0, fmt.Errorf("create: dtype (int arg 1) %d is not one sdgo computes with", v)
	}
	return dt, nil
}

// createOp is libnd4j's create: an array of the shape held by its integer
// input, zeros; int args: order ('c' 99 or 'f' 102; sdgo's arrays are C
// order either way, and a zero array reads the same in both), dtype as
// SameDiff numbers it (default float32); bool arg 0 init (libnd4j leaves
// the array unset when false; sdgo always writes zeros).
var createOp = Register(&Def{
	Name: "create", Type: Custom, MinIn: 1, MaxIn: 1, NonDiff: []int{0}, Flags: NoInference,
	Doc: "zeros of the shape held by the integer input; int args: order, dtype",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		dt, err := createArgs(a)
		if err != nil {
			return nil, err
		}
		s := in[0]
		if !s.DType.IsInt() {
			return nil, fmt.Errorf("create: the shape is %v; it must be integers", s.DType)
		}
		if v, ok := constInts(s); ok {
			if err := ndarray.CheckShape(v); err != nil {
				return nil, fmt.Errorf("create: shape %v: %w", v, err)
			}
			return infos(Info{DType: dt, Shape: v}), nil
		}
		if !s.UnknownRank && len(s.Shape) == 1 && s.Shape[0] >= 0 {
			return infos(Info{DType: dt, Shape: unknownShape(s.Shape[0])}), nil
		}
		return infos(Info{DType: dt, UnknownRank: true}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		dt, err := createArgs(a)
		if err != nil {
			return nil, err
		}
		if in[0].Rank() > 1 {
			return nil, fmt.Errorf("create: the shape has shape %v; it must be a vector", in[0].Shape())
		}
		s, err := arrayInts("create: the shape", in[0])
		if err != nil {
			return nil, err
		}
		if err := ndarray.CheckShape(s); err != nil {
			return nil, fmt.Errorf("create: shape %v: %w", s, err)
		}
		z, err := ndarray.ScalarOf(dt, 0)
		if err != nil {
			return nil, err
		}
		out, err := c.TryAlloc(dt, s)
		if err != nil {
			return nil, err
		}
		return one(out, ndarray.CopyInto(out, ndarray.Must(ndarray.BroadcastTo(z, s...))))
	},
})

// ---------------------------------------------------------------- set_scalar

// setScalarOp is SameDiff's set_scalar (legacy SCALAR op 14, libnd4j's
// CopyPws): every element of x replaced by the scalar, float arg 0, in x's
// dtype; x gives the shape and dtype only, so its gradient is zero.
var setScalarOp = Register(&Def{
	Name: "set_scalar", Type: Scalar, Num: 14, MinIn: 1, MaxIn: 1,
	Doc: "s everywhere, in x's shape and dtype; s is float arg 0",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		if err := needNumeric("set_scalar", in[0]); err != nil {
			return nil, err
		}
		if len(a.F) == 0 {
			return nil, fmt.Errorf("set_scalar: no scalar (float arg 0)")
		}
		return infos(same(in[0])), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x := in[0]
		s, err := scalarOf("set_scalar", x.DType(), a)
		if err != nil {
			return nil, err
		}
		b, err := ndarray.BroadcastTo(s, x.Shape()...)
		if err != nil {
			return nil, err
		}
		out := c.Alloc(x.DType(), x.Shape())
		return one(out, ndarray.CopyInto(out, b))
	},
	Grad: zeroGrad,
})

// ---------------------------------------------------------------- set_shape

// setShapeOp is libnd4j's set_shape: x's elements (in C order) in the
// shape held by the integer input (a scalar or a vector) — a reshape whose
// target is an input; the sizes must hold x's elements.
var setShapeOp = Register(&Def{
	Name: "set_shape", Type: Custom, MinIn: 2, MaxIn: 2, NonDiff: []int{1}, Flags: NoInference,
	Doc: "x's elements in the shape held by the integer input (a reshape)",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		x, s := in[0], in[1]
		if err := needComputable("set_shape", x); err != nil {
			return nil, err
		}
		if !s.DType.IsInt() {
			return nil, fmt.Errorf("set_shape: the shape is %v; it must be integers", s.DType)
		}
		if !s.UnknownRank && len(s.Shape) > 1 {
			return nil, fmt.Errorf("set_shape: the shape has shape %v; it must be a scalar or a vector", s.Shape)
		}
		if v, ok := constInts(s); ok {
			if err := ndarray.CheckShape(v); err != nil {
				return nil, fmt.Errorf("set_shape: shape %v: %w", v, err)
			}
			if n := diagLen(x.Shape); !x.UnknownRank && n >= 0 && n != prod(v) {
				return nil, fmt.Errorf("set_shape: %v elements of shape %v cannot take shape %v", n, x.Shape, v)
			}
			return infos(Info{DType: x.DType, Shape: v}), nil
		}
		if !s.UnknownRank && len(s.Shape) == 1 && s.Shape[0] >= 0 {
			return infos(Info{DType: x.DType, Shape: unknownShape(s.Shape[0])}), nil
		}
		return infos(Info{DType: x.DType, UnknownRank: true}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		x := in[0]
		if in[1].Rank() > 1 {
			return nil, fmt.Errorf("set_shape: the shape has shape %v; it must be a scalar or a vector", in[1].Shape())
		}
		s, err := arrayInts("set_shape: the shape", in[1])
		if err != nil {
			return nil, err
		}
		if err := ndarray.CheckShape(s); err != nil || prod(s) != x.Size() {
			return nil, fmt.Errorf("set_shape: %v elements of shape %v cannot take shape %v", x.Size(), x.Shape(), s)
		}
		out := c.Alloc(x.DType(), s)
		flat, err := ndarray.Reshape(out, x.Shape()...)
		if err != nil {
			return nil, err
		}
		return one(out, ndarray.CopyInto(flat, x))
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		return []Value{reshapeLike(b, d[0], n.In[0]), nil}
	},
})

// ---------------------------------------------------------------- dtype ops

// isNumericTensorOp is libnd4j's is_numeric_tensor (a boolean op): a bool
// scalar, true when x holds floating-point or integer numbers (not bools,
// not strings).
var isNumericTensorOp = Register(&Def{
	Name: "is_numeric_tensor", Type: Custom, MinIn: 1, MaxIn: 1, NonDiff: []int{0}, Flags: AnyDType,
	Doc: "true when x's dtype is a floating-point or integer one",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		v := ndarray.Scalar(isNumericDType(in[0].DType))
		return infos(Info{DType: ndarray.Bool, Shape: []int{}, Value: v}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		return one(ndarray.Scalar(isNumericDType(in[0].DType())), nil)
	},
})

// isNumericDType is libnd4j's isR() || isZ(): a floating-point or integer
// dtype, also those sdgo only stores.
func isNumericDType(dt ndarray.DType) bool {
	switch dt {
	case ndarray.Float8, ndarray.Half, ndarray.Half2, ndarray.Float32, ndarray.Float64, ndarray.BFloat16,
		ndarray.Int8, ndarray.Int16, ndarray.Int32, ndarray.Int64,
		ndarray.Uint8, ndarray.Uint16, ndarray.Uint32, ndarray.Uint64:
		return true
	}
	return false
}

// minMaxValue is libnd4j's DataTypeUtils::min or max of a dtype sdgo
// computes with. For floats libnd4j's min is the smallest positive normal
// number, not the most negative one.
func minMaxValue(dt ndarray.DType, isMax bool) (*ndarray.Array, error) {
	switch dt {
	case ndarray.Float32:
		if isMax {
			return ndarray.Scalar(float32(3.402823e+38)), nil
		}
		return ndarray.Scalar(float32(1.175494e-38)), nil
	case ndarray.Float64:
		if isMax {
			return ndarray.Scalar(1.7976931348623157e308), nil
		}
		return ndarray.Scalar(2.2250738585072014e-308), nil
	case ndarray.Int32:
		if isMax {
			return ndarray.Scalar(int32(math.MaxInt32)), nil
		}
		return ndarray.Scalar(int32(math.MinInt32)), nil
	case ndarray.Int64:
		if isMax {
			return ndarray.Scalar(int64(math.MaxInt64)), nil
		}
		return ndarray.Scalar(int64(math.MinInt64)), nil
	case ndarray.Bool:
		return ndarray.Scalar(isMax), nil
	}
	return nil, fmt.Errorf("min_max_datatype: dtype %v is not one sdgo computes with", dt)
}

// minMaxArgs reads min_max_datatype's int args: dtype, 0 (min) or 1 (max).
func minMaxArgs(a *Args) (*ndarray.Array, error) {
	if len(a.I) < 2 {
		return nil, fmt.Errorf("min_max_datatype: int args must be [dtype, 0 (min) or 1 (max)], got %v", a.I)
	}
	v := a.I[0]
	if v < 0 || v > 255 {
		return nil, fmt.Errorf("min_max_datatype: dtype (int arg 0) %d", v)
	}
	return minMaxValue(ndarray.DType(v), a.I[1] != 0)
}

// minMaxDataTypeOp is libnd4j's min_max_datatype: the scalar DataTypeUtils
// min (int arg 1 = 0) or max (otherwise) of the dtype int arg 0 (SameDiff's
// number); inputs, if any, are ignored.
var minMaxDataTypeOp = Register(&Def{
	Name: "min_max_datatype", Type: Custom, MinIn: 0, MaxIn: -1, Flags: AnyDType,
	Doc: "the smallest (int arg 1 = 0) or largest value of dtype int arg 0, as libnd4j's DataTypeUtils gives it",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		v, err := minMaxArgs(a)
		if err != nil {
			return nil, err
		}
		return infos(Info{DType: v.DType(), Shape: []int{}, Value: v}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		return one(minMaxArgs(a))
	},
})

// ---------------------------------------------------------------- batched_gemm

// gemmArgs are batched_gemm's int args.
type gemmArgs struct {
	ta, tb         bool
	m, n, k, batch int
}

// readGemmArgs reads and checks batched_gemm's int args [transA, transB,
// M, N, K, ldA, ldB, ldC, batchSize] (transposes 0/1 or BLAS's 111/112; the
// leading dimensions are checked as libnd4j checks them, column-major BLAS
// style, and not otherwise used) against nIn inputs, 2 + 2·batch (+ batch
// gradients when bp).
func readGemmArgs(name string, a *Args, nIn int, bp bool) (gemmArgs, error) {
	var g gemmArgs
	if len(a.I) < 9 {
		return g, fmt.Errorf("%s: int args must be [transA, transB, M, N, K, ldA, ldB, ldC, batchSize], got %v", name, a.I)
	}
	p := a.I
	trans := func(v int64, what string) (bool, error) {
		switch v {
		case 0, 111:
			return false, nil
		case 1, 112:
			return true, nil
		}
		return false, fmt.Errorf("%s: %s is %d; it must be 0/1 or 111/112", name, what, v)
	}
	var err error
	if g.ta, err = trans(p[0], "transA"); err != nil {
		return g, err
	}
	if g.tb, err = trans(p[1], "transB"); err != nil {
		return g, err
	}
	for _, v := range p[2:9] {
		if v <= 0 || v > 1<<31 {
			return g, fmt.Errorf("%s: M, N, K, ldA, ldB, ldC and batchSize must be positive, got %v", name, p[2:9])
		}
	}
	g.m, g.n, g.k, g.batch = int(p[2]), int(p[3]), int(p[4]), int(p[8])
	lda, ldb, ldc := int(p[5]), int(p[6]), int(p[7])
	if (!g.ta && lda < g.m) || (g.ta && lda < g.k) || (!g.tb && ldb < g.k) || (g.tb && ldb < g.n) || ldc < g.m {
		return g, fmt.Errorf("%s: leading dimensions ldA %d, ldB %d, ldC %d too small for M %d, N %d, K %d", name, lda, ldb, ldc, g.m, g.n, g.k)
	}
	want := 2 + 2*g.batch
	if bp {
		want += g.batch
	}
	if nIn != want {
		return g, fmt.Errorf("%s: batchSize %d needs %d inputs, got %d", name, g.batch, want, nIn)
	}
	return g, nil
}

// check checks the matrices' shapes: A is M×K (K×M transposed), B K×N
// (N×K transposed), as far as known.
func (g gemmArgs) check(name string, in []Info) error {
	wa, wb := []int{g.m, g.k}, []int{g.k, g.n}
	if g.ta {
		wa = []int{g.k, g.m}
	}
	if g.tb {
		wb = []int{g.n, g.k}
	}
	for e := 0; e < g.batch; e++ {
		for _, c := range []struct {
			x    Info
			want []int
			what string
		}{{in[2+e], wa, "A"}, {in[2+g.batch+e], wb, "B"}} {
			if c.x.UnknownRank {
				continue
			}
			if !(Info{Shape: c.want}).Admits(c.x.Shape) {
				return fmt.Errorf("%s: %s %d has shape %v; M, N, K and the transposes make it %v", name, c.what, e, c.x.Shape, c.want)
			}
		}
	}
	return nil
}

// gemmScale returns alpha for batch member e: alpha holds one value or
// one per member.
func gemmScale(name string, alpha *ndarray.Array, e, batch int) (float64, error) {
	v := alpha.Float64s()
	switch len(v) {
	case 1:
		return v[0], nil
	case batch:
		return v[e], nil
	}
	return 0, fmt.Errorf("%s: alpha has %d values; it must have 1 or batchSize %d", name, len(v), batch)
}

// gemmInfer checks batched_gemm's and batched_gemm_bp's inputs: all of one
// float dtype, the matrices of the shapes the int args give.
func gemmInfer(name string, in []Info, a *Args, bp bool) (gemmArgs, error) {
	g, err := readGemmArgs(name, a, len(in), bp)
	if err != nil {
		return g, err
	}
	if err := needFloat(name, in[0]); err != nil {
		return g, err
	}
	for i, x := range in {
		if x.DType != in[0].DType {
			return g, fmt.Errorf("%s: input %d is %v, alpha %v; all must have one dtype", name, i, x.DType, in[0].DType)
		}
	}
	return g, g.check(name, in)
}

// batchedGemmOp is libnd4j's batched_gemm (SameDiff's batchMmul): inputs
// alpha, beta (one value or one per member), A_0 ... A_{b-1}, B_0 ...
// B_{b-1}; int args [transA, transB, M, N, K, ldA, ldB, ldC, batchSize];
// b outputs C_e = alpha_e·op(A_e)·op(B_e), M×N. beta multiplies the output's
// earlier contents, which a new output does not have: it changes nothing.
// Each product is one GEMM.
var batchedGemmOp = Register(&Def{
	Name: "batched_gemm", Type: Custom, MinIn: 4, MaxIn: -1, NonDiff: []int{0, 1},
	Doc: "C_e = alpha·op(A_e)·op(B_e) for each of batchSize pairs; inputs alpha, beta, As, Bs; int args transA, transB, M, N, K, ldA, ldB, ldC, batchSize",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		g, err := gemmInfer("batched_gemm", in, a, false)
		if err != nil {
			return nil, err
		}
		out := make([]Info, g.batch)
		for e := range out {
			out[e] = Info{DType: in[0].DType, Shape: []int{g.m, g.n}}
		}
		return out, nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		infoIn := make([]Info, len(in))
		for i, x := range in {
			infoIn[i] = Info{DType: x.DType(), Shape: x.Shape()}
		}
		g, err := gemmInfer("batched_gemm", infoIn, a, false)
		if err != nil {
			return nil, err
		}
		outs := make([]*ndarray.Array, g.batch)
		for e := range outs {
			if !c.Needed(e) {
				continue
			}
			alpha, err := gemmScale("batched_gemm", in[0], e, g.batch)
			if err != nil {
				return nil, err
			}
			out := c.Alloc(in[0].DType(), []int{g.m, g.n})
			if err := ndarray.MatMulInto(out, in[2+e], in[2+g.batch+e], g.ta, g.tb); err != nil {
				return nil, err
			}
			if alpha != 1 {
				if err := ndarray.UnaryInto(ndarray.ScaleBy, out, out, alpha); err != nil {
					return nil, err
				}
			}
			outs[e] = out
		}
		return outs, nil
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		in := append([]Value(nil), n.In...)
		for e, g := range d {
			if g == nil { // a product that does not reach the loss
				g = op1(b, "zeros_as", Args{}, n.Out[e])
			}
			in = append(in, g)
		}
		return append([]Value{nil, nil}, b.Op("batched_gemm_bp", n.Args.Clone(), in...)...)
	},
})

// batchedGemmBpOp is libnd4j's batched_gemm_bp: inputs alpha, beta, the
// As, the Bs and the gradients of the Cs; batched_gemm's int args; outputs
// the As' gradients then the Bs'. sdgo's follows the transposes (alpha·G·
// op(B)ᵀ, transposed back when A was, and likewise for B), where
// libnd4j's kernel reads only transB for the As and transA for the Bs.
var batchedGemmBpOp = Register(&Def{
	Name: "batched_gemm_bp", Type: Custom, MinIn: 5, MaxIn: -1, NonDiff: []int{0, 1},
	Doc: "gradients of batched_gemm for inputs alpha, beta, As, Bs, gradients of the Cs; outputs the As' then the Bs'",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		g, err := gemmInfer("batched_gemm_bp", in, a, true)
		if err != nil {
			return nil, err
		}
		for e := 0; e < g.batch; e++ {
			if x := in[2+2*g.batch+e]; !x.UnknownRank && !(Info{Shape: []int{g.m, g.n}}).Admits(x.Shape) {
				return nil, fmt.Errorf("batched_gemm_bp: gradient %d has shape %v, C [%d %d]", e, x.Shape, g.m, g.n)
			}
		}
		return sameInfos(in[2:], 2*g.batch), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		infoIn := make([]Info, len(in))
		for i, x := range in {
			infoIn[i] = Info{DType: x.DType(), Shape: x.Shape()}
		}
		g, err := gemmInfer("batched_gemm_bp", infoIn, a, true)
		if err != nil {
			return nil, err
		}
		outs := make([]*ndarray.Array, 2*g.batch)
		for e := 0; e < g.batch; e++ {
			gr := in[2+2*g.batch+e]
			if !ndarray.SameShape(gr.Shape(), []int{g.m, g.n}) {
				return nil, fmt.Errorf("batched_gemm_bp: gradient %d has shape %v, C [%d %d]", e, gr.Shape(), g.m, g.n)
			}
			alpha, err := gemmScale("batched_gemm_bp", in[0], e, g.batch)
			if err != nil {
				return nil, err
			}
			// matmul_bp's rule, with this member's alpha.
			x, y := in[2+e], in[2+g.batch+e]
			if c.Needed(e) {
				if !g.ta {
					outs[e], err = matmulGrad(c, x, x.Shape(), gr, y, false, !g.tb, alpha)
				} else {
					outs[e], err = matmulGrad(c, x, x.Shape(), y, gr, g.tb, true, alpha)
				}
				if err != nil {
					return nil, err
				}
			}
			if c.Needed(g.batch + e) {
				if !g.tb {
					outs[g.batch+e], err = matmulGrad(c, y, y.Shape(), x, gr, !g.ta, false, alpha)
				} else {
					outs[g.batch+e], err = matmulGrad(c, y, y.Shape(), gr, x, true, g.ta, alpha)
				}
				if err != nil {
					return nil, err
				}
			}
		}
		return outs, nil
	},
})

// ---------------------------------------------------------------- car, cas

// condArgs reads the legacy compare ops' float args [compare, set, eps,
// mode] (Java's extraArgs; mode is a Conditions number).
func condArgs(name string, a *Args) (compare, set, eps float64, mode int, err error) {
	if len(a.F) < 4 {
		return 0, 0, 0, 0, fmt.Errorf("%s: float args must be [compare, set, eps, mode], got %v", name, a.F)
	}
	m := a.F[3]
	if m != math.Trunc(m) || m < 0 || m > 15 {
		return 0, 0, 0, 0, fmt.Errorf("%s: mode (float arg 3) %v is not a condition 0..15", name, m)
	}
	return a.F[0], a.F[1], a.F[2], int(m), nil
}

// condHolds is libnd4j's condition mode on v (abs of w for modes 12 and
// 13, isinf of w for 14: CompareAndSet reads x there while it tests y
// elsewhere; callers pass w = v when there is no such difference).
func condHolds[T float32 | float64](mode int, v, w, compare, eps T) bool {
	abs := func(x T) T {
		if x < 0 {
			return -x
		}
		return x
	}
	switch mode {
	case 0:
		return abs(v-compare) <= eps
	case 1:
		return abs(v-compare) > eps
	case 2:
		return v < compare
	case 3:
		return v > compare
	case 4:
		return v <= compare
	case 5:
		return v >= compare
	case 6:
		return abs(v) < compare
	case 7:
		return abs(v) > compare
	case 8, 15:
		return math.IsInf(float64(v), 0)
	case 9:
		return v != v
	case 10:
		return v == compare
	case 11:
		return v != compare
	case 12:
		return abs(w) >= compare
	case 13:
		return abs(w) <= compare
	case 14:
		return !math.IsInf(float64(w), 0)
	}
	return false
}

// carFunc is z = cond(x) ? y : x.
func carFunc[T float32 | float64](compare, eps float64, mode int) ndarray.FloatFunc2[T] {
	c, e := T(compare), T(eps)
	return func(d, x, y []T) {
		for i := range d {
			if condHolds(mode, x[i], x[i], c, e) {
				d[i] = y[i]
			} else {
				d[i] = x[i]
			}
		}
	}
}

// carInfer checks car's and cas's operands: floats of one dtype, y of x's
// shape.
func carInfer(name string, in []Info, a *Args) ([]Info, error) {
	if _, _, _, _, err := condArgs(name, a); err != nil {
		return nil, err
	}
	if err := needFloat(name, in[0]); err != nil {
		return nil, err
	}
	if len(in) > 1 {
		if err := sameShapeGrad(name, in[0], in[1]); err != nil {
			return nil, fmt.Errorf("%s: y must have x's dtype and shape: %w", name, err)
		}
	}
	return infos(same(in[0])), nil
}

// carOp is SameDiff's car (replaceWhere; Java's CompareAndReplace, legacy
// TRANSFORM_SAME 13, libnd4j's pairwise CompareAndReplace): z = y where the
// condition holds for x, x elsewhere. Float args [compare, set (unused),
// eps, mode], mode a Conditions number: 0 |x-c| <= eps, 1 |x-c| > eps,
// 2 x < c, 3 x > c, 4 x <= c, 5 x >= c, 6 |x| < c, 7 |x| > c, 8 and 15
// isinf, 9 isnan, 10 x == c, 11 x != c, 12 |x| >= c, 13 |x| <= c, 14 not
// inf. The gradient passes to y where the condition holds, to x elsewhere,
// with the mask car(x, 1) - car(x, 0) (so an infinite or NaN x gives NaN).
var carOp = Register(&Def{
	Name: "car", Type: TransformSame, Num: 13, MinIn: 2, MaxIn: 2,
	Doc:   "y where the condition (float args compare, set, eps, mode) holds for x, x elsewhere",
	Infer: func(in []Info, a *Args) ([]Info, error) { return carInfer("car", in, a) },
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		cmp, _, eps, mode, err := condArgs("car", a)
		if err != nil {
			return nil, err
		}
		x, y := in[0], in[1]
		if !ndarray.SameShape(x.Shape(), y.Shape()) || x.DType() != y.DType() {
			return nil, fmt.Errorf("car: y is %v%v, x %v%v; they must agree", y.DType(), y.Shape(), x.DType(), x.Shape())
		}
		out := c.Alloc(x.DType(), x.Shape())
		return one(out, ndarray.MapFloat2Into(out, x, y, carFunc[float32](cmp, eps, mode), carFunc[float64](cmp, eps, mode)))
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		x := n.In[0]
		m := op1(b, "subtract", Args{},
			op1(b, "car", n.Args.Clone(), x, op1(b, "ones_as", Args{}, x)),
			op1(b, "car", n.Args.Clone(), x, op1(b, "zeros_as", Args{}, x)))
		return []Value{mul(b, d[0], op1(b, "rsub_scalar", Args{F: []float64{1}}, m)), mul(b, d[0], m)}
	},
})

// casSetFunc is libnd4j's CompareAndSetTransform: set where the condition
// holds for x (compare itself for mode 14, as libnd4j gives it), x
// elsewhere.
func casSetFunc[T float32 | float64](compare, set, eps float64, mode int) ndarray.FloatFunc[T] {
	c, s, e := T(compare), T(set), T(eps)
	if mode == 14 {
		s = c
	}
	return func(d, x []T) {
		for i := range d {
			if condHolds(mode, x[i], x[i], c, e) {
				d[i] = s
			} else {
				d[i] = x[i]
			}
		}
	}
}

// casPairFunc is libnd4j's pairwise CompareAndSet: y where the condition
// holds for y (for |x| in modes 12 and 13, x not infinite in 14), x
// elsewhere.
func casPairFunc[T float32 | float64](compare, eps float64, mode int) ndarray.FloatFunc2[T] {
	c, e := T(compare), T(eps)
	return func(d, x, y []T) {
		for i := range d {
			if condHolds(mode, y[i], x[i], c, e) {
				d[i] = y[i]
			} else {
				d[i] = x[i]
			}
		}
	}
}

// casOp is SameDiff's cas (replaceWhere with a value; Java's
// CompareAndSet): with x alone, set where the condition holds for x, x
// elsewhere (libnd4j's CompareAndSetTransform); with x and y, y where the
// condition holds for y, x elsewhere (libnd4j's pairwise CompareAndSet).
// Float args [compare, set, eps, mode], the modes as car's. Registered as
// TRANSFORM_SAME 12: Java writes 12 or 13 by its inputs, and a 13 loads as
// car. No gradient (the condition is piecewise constant in x).
var casOp = Register(&Def{
	Name: "cas", Type: TransformSame, Num: 12, MinIn: 1, MaxIn: 2,
	Doc:   "x alone: set where the condition holds for x; with y: y where it holds for y; x elsewhere (float args compare, set, eps, mode)",
	Infer: func(in []Info, a *Args) ([]Info, error) { return carInfer("cas", in, a) },
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		cmp, set, eps, mode, err := condArgs("cas", a)
		if err != nil {
			return nil, err
		}
		x := in[0]
		out := c.Alloc(x.DType(), x.Shape())
		if len(in) == 1 {
			return one(out, ndarray.MapFloatInto(out, x, casSetFunc[float32](cmp, set, eps, mode), casSetFunc[float64](cmp, set, eps, mode)))
		}
		y := in[1]
		if !ndarray.SameShape(x.Shape(), y.Shape()) || x.DType() != y.DType() {
			c.Release(out)
			return nil, fmt.Errorf("cas: y is %v%v, x %v%v; they must agree", y.DType(), y.Shape(), x.DType(), x.Shape())
		}
		return one(out, ndarray.MapFloat2Into(out, x, y, casPairFunc[float32](cmp, eps, mode), casPairFunc[float64](cmp, eps, mode)))
	},
})
