package ops

import (
	"fmt"
	"math"

	"github.com/sdgo/sdgo/ndarray"
)

// SameDiff's base-namespace odds and ends: the dot product (legacy
// REDUCE_3 dot and its reduce_dot_bp), create, set_scalar, set_shape,
// is_numeric_tensor, min_max_datatype, and the legacy compare ops car and
// cas. The products tensordot and batched_gemm are in base_gemm.go.

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

// ---------------------------------------------------------------- car, cas

// replaceCondArgs reads the legacy compare ops' float args [compare, set,
// eps, mode] (Java's extraArgs; mode is a Conditions number).
func replaceCondArgs(name string, a *Args) (compare, set, eps float64, mode int, err error) {
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
	if _, _, _, _, err := replaceCondArgs(name, a); err != nil {
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
		cmp, _, eps, mode, err := replaceCondArgs("car", a)
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
		cmp, set, eps, mode, err := replaceCondArgs("cas", a)
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

// ---------------------------------------------------------------- compat_sparse_to_dense

// sparseOffsets returns the packed offsets in an array of shape of the
// sparse indices (a scalar, a vector of n indices into a vector, or an
// [n, rank] matrix).
func sparseOffsets(idx *ndarray.Array, shape []int) ([]int, error) {
	v, err := arrayInts("compat_sparse_to_dense: the indices", idx)
	if err != nil {
		return nil, err
	}
	r := len(shape)
	switch {
	case idx.Rank() <= 1 && r == 1:
	case idx.Rank() == 2 && idx.Shape()[1] == r:
	default:
		return nil, fmt.Errorf("compat_sparse_to_dense: indices of shape %v for a dense shape %v (they must be [n %d], or a vector for a vector)", idx.Shape(), shape, r)
	}
	n := len(v)
	if r > 0 {
		n = len(v) / r
	}
	strides := ndarray.PackedStrides(shape)
	offs := make([]int, n)
	for i := range offs {
		o := 0
		for j := 0; j < r; j++ {
			x := v[i*r+j]
			if x < 0 || x >= shape[j] {
				return nil, fmt.Errorf("compat_sparse_to_dense: index %v outside the dense shape %v", v[i*r:i*r+r], shape)
			}
			o += x * strides[j]
		}
		offs[i] = o
	}
	return offs, nil
}

// compatSparseToDenseOp is libnd4j's compat_sparse_to_dense (TensorFlow's
// SparseToDense): inputs indices (a scalar, a vector into a vector, or
// [n, rank]), the dense shape, values ([n], or a scalar for every index)
// and an optional scalar default (0 when absent); the dense array of the
// values' dtype holds the values at the indices and the default elsewhere
// (a repeated index takes the later value). No arguments; no gradient, as
// in SameDiff.
var compatSparseToDenseOp = Register(&Def{
	Name: "compat_sparse_to_dense", Type: Custom, MinIn: 3, MaxIn: 4, NonDiff: []int{0, 1, 2, 3}, Flags: NoInference,
	Doc: "dense array of the shape input with the values at the indices and the default (input 3, else 0) elsewhere",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		idx, sh, vals := in[0], in[1], in[2]
		if !idx.DType.IsInt() || !sh.DType.IsInt() {
			return nil, fmt.Errorf("compat_sparse_to_dense: indices %v and shape %v must be integers", idx.DType, sh.DType)
		}
		if err := needComputable("compat_sparse_to_dense", vals); err != nil {
			return nil, err
		}
		if len(in) > 3 && (in[3].DType != vals.DType || (!in[3].UnknownRank && len(in[3].Shape) != 0)) {
			return nil, fmt.Errorf("compat_sparse_to_dense: the default is %v; it must be a scalar of the values' dtype %v", in[3], vals.DType)
		}
		if v, ok := constInts(sh); ok {
			if err := ndarray.CheckShape(v); err != nil {
				return nil, fmt.Errorf("compat_sparse_to_dense: shape %v: %w", v, err)
			}
			return infos(Info{DType: vals.DType, Shape: v}), nil
		}
		if !sh.UnknownRank && len(sh.Shape) == 1 && sh.Shape[0] >= 0 {
			return infos(Info{DType: vals.DType, Shape: unknownShape(sh.Shape[0])}), nil
		}
		return infos(Info{DType: vals.DType, UnknownRank: true}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		vals := in[2]
		shape, err := arrayInts("compat_sparse_to_dense: the shape", in[1])
		if err != nil {
			return nil, err
		}
		if err := ndarray.CheckShape(shape); err != nil || in[1].Rank() > 1 {
			return nil, fmt.Errorf("compat_sparse_to_dense: bad dense shape %v", in[1].Shape())
		}
		offs, err := sparseOffsets(in[0], shape)
		if err != nil {
			return nil, err
		}
		var from []int
		switch vals.Size() {
		case len(offs):
		case 1:
			from = make([]int, len(offs))
		default:
			return nil, fmt.Errorf("compat_sparse_to_dense: %d values for %d indices", vals.Size(), len(offs))
		}
		def, err := ndarray.ScalarOf(vals.DType(), 0)
		if err != nil {
			return nil, err
		}
		if len(in) > 3 {
			if in[3].DType() != vals.DType() || in[3].Size() != 1 {
				return nil, fmt.Errorf("compat_sparse_to_dense: the default is %v%v; it must be one value of the values' dtype", in[3].DType(), in[3].Shape())
			}
			if def, err = ndarray.Reshape(in[3]); err != nil {
				return nil, err
			}
		}
		base, err := ndarray.BroadcastTo(def, shape...)
		if err != nil {
			return nil, err
		}
		return one(place(c, "compat_sparse_to_dense", vals.DType(), shape, base, vals, offs, from, len(offs)))
	},
})
