package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// Reductions take their axes from the dimensions slot, the integer
// arguments, or an optional second input (an integer array, as TensorFlow
// imports have it); no axes means every axis. Bool argument 0 is keepDims.

// ReduceArgs returns the arguments of a reduction over axes.
func ReduceArgs(keepDims bool, axes ...int) Args {
	return Args{Dims: append([]int(nil), axes...), B: []bool{keepDims}}
}

// AllDims is SameDiff's "no dimensions here" marker (Integer.MAX_VALUE) in a
// reduction's dimensions slot: the axes come from the second input, or are all.
const AllDims = 1<<31 - 1

// reduceAxesDims returns the axes args of a as Dims, the form
// reduceAxesArg reads first (AllDims for every axis).
func reduceAxesDims(a *Args) []int {
	if ax := reduceAxesArg(a); len(ax) > 0 {
		return ax
	}
	return []int{AllDims}
}

func reduceAxesArg(a *Args) []int {
	if len(a.Dims) == 1 && a.Dims[0] == AllDims {
		return nil
	}
	if len(a.Dims) > 0 {
		return a.Dims
	}
	return intsOf(a.I)
}

// reduceInfo infers a reduction's output from its input and axes (nil axes
// from an unknown second input).
func reduceInfo(name string, in []Info, a *Args) (Info, error) {
	x := in[0]
	keep := a.Bool(0, false)
	axes := reduceAxesArg(a)
	if len(in) > 1 {
		v, ok := constInts(in[1])
		if !ok {
			if keep && !x.UnknownRank {
				return Info{DType: x.DType, Shape: unknownShape(len(x.Shape))}, nil
			}
			return Info{DType: x.DType, UnknownRank: true}, nil
		}
		axes = v
	}
	if x.UnknownRank {
		return Info{DType: x.DType, UnknownRank: true}, nil
	}
	ax, err := ndarray.NormAxes(axes, len(x.Shape))
	if err != nil {
		return Info{}, fmt.Errorf("%s of shape %v: %w", name, x.Shape, err)
	}
	return Info{DType: x.DType, Shape: ndarray.ReducedShape(x.Shape, ax, keep)}, nil
}

func runAxes(in []*ndarray.Array, a *Args) ([]int, error) {
	return inputInts(in, 1, "the axes input", reduceAxesArg(a))
}

func reduceDef(name string, op ndarray.ReduceOp, doc string, grad GradFunc) *Def {
	return &Def{
		Name: name, Type: Custom, MinIn: 1, MaxIn: 2, Doc: doc, NonDiff: []int{1}, Grad: grad,
		Infer: func(in []Info, a *Args) ([]Info, error) {
			boolOut := op == ndarray.All || op == ndarray.Any
			if !boolOut || in[0].DType != ndarray.Bool {
				if err := needNumeric(name, in[0]); err != nil {
					return nil, err
				}
			}
			o, err := reduceInfo(name, in, a)
			if err != nil {
				return nil, err
			}
			if boolOut {
				o.DType = ndarray.Bool
			}
			return infos(o), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			axes, err := runAxes(in, a)
			if err != nil {
				return nil, err
			}
			ax, err := ndarray.NormAxes(axes, in[0].Rank())
			if err != nil {
				return nil, fmt.Errorf("%s of shape %v: %w", name, in[0].Shape(), err)
			}
			x := in[0]
			if (op == ndarray.All || op == ndarray.Any) && x.DType() != ndarray.Bool {
				// libnd4j's reduce-bool ops test numbers for non-zero.
				zero, err := ndarray.ScalarOf(x.DType(), 0)
				if err != nil {
					return nil, err
				}
				if x, err = compareFor(c, ndarray.Ne, x, zero); err != nil {
					return nil, err
				}
				defer c.Release(x)
			}
			out := c.Alloc(x.DType(), ndarray.ReducedShape(x.Shape(), ax, a.Bool(0, false)))
			return one(out, ndarray.ReduceInto(op, out, x, ax))
		},
	}
}

// floatOut gives a REDUCE_FLOAT op (mean, the norms, the entropies)
// libnd4j's output dtype: a floating-point input's own, for integers and
// bool libnd4j's default floating-point type FLOAT32 (DataTypeUtils::
// pickFloatingType), or dtype arg 0 when given (the output type a file's
// node declares). The input is converted to that type first, so the
// reduction computes in it as libnd4j's ReduceFloatFunction does: the mean
// of int64 [3 4 -5 7] is float32 2.25, not int64 2.
func floatOut(d *Def) *Def {
	infer, run := d.Infer, d.Run
	d.Flags |= OutDTypeArg
	d.Doc += "; integer and bool inputs give float32, or dtype arg 0 when given"
	target := func(x ndarray.DType, a *Args) ndarray.DType {
		if dt := a.DType(0, ndarray.Invalid); dt.IsFloat() && dt.Computable() {
			return dt
		}
		if x.IsFloat() || !x.Computable() {
			return x
		}
		return ndarray.Float32
	}
	d.Infer = func(in []Info, a *Args) ([]Info, error) {
		if dt := target(in[0].DType, a); dt != in[0].DType {
			x := in[0]
			x.DType = dt
			in = append([]Info{x}, in[1:]...)
		}
		return infer(in, a)
	}
	d.Run = func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		if dt := target(in[0].DType(), a); dt != in[0].DType() {
			x, err := castFor(c, in[0], dt)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", d.Name, err)
			}
			defer c.Release(x)
			in = append([]*ndarray.Array{x}, in[1:]...)
		}
		return run(c, in, a)
	}
	return d
}

var (
	reduceSumOp  = Register(legacy(reduceDef("reduce_sum", ndarray.Sum, "sum over axes", reduceGrad("reduce_sum_bp", Args.Clone)), ReduceSame, 0))
	reduceMeanOp = Register(floatOut(legacy(reduceDef("reduce_mean", ndarray.Mean, "mean over axes", reduceGrad("reduce_mean_bp", Args.Clone)), ReduceFloat, 0)))
	reduceMaxOp  = Register(legacy(reduceDef("reduce_max", ndarray.Max, "largest element over axes", reduceGrad("reduce_max_bp", Args.Clone)), ReduceSame, 1))
	reduceMinOp  = Register(legacy(reduceDef("reduce_min", ndarray.Min, "smallest element over axes", reduceGrad("reduce_min_bp", Args.Clone)), ReduceSame, 2))
	reduceProdOp = Register(legacy(reduceDef("reduce_prod", ndarray.Prod, "product over axes", reduceGrad("reduce_prod_bp", Args.Clone)), ReduceSame, 3))
	allOp        = Register(legacy(reduceDef("all", ndarray.All, "true if every element over axes is true (numbers: non-zero)", nil), ReduceBool, 1))
	anyOp        = Register(legacy(reduceDef("any", ndarray.Any, "true if some element over axes is true (numbers: non-zero)", nil), ReduceBool, 0))
)

// Index reductions: the position of the largest or smallest element along
// one axis (every axis, flattened, when none is given), as int64.

func argDef(name string, isMax bool, doc string) *Def {
	return &Def{
		Name: name, Type: Custom, MinIn: 1, MaxIn: 2, Doc: doc, NonDiff: []int{0, 1},
		Infer: func(in []Info, a *Args) ([]Info, error) {
			if err := needNumeric(name, in[0]); err != nil {
				return nil, err
			}
			o, err := reduceInfo(name, in, a)
			if err != nil {
				return nil, err
			}
			if !o.UnknownRank && len(reduceAxesArg(a)) > 1 {
				return nil, fmt.Errorf("%s takes one axis, not %v", name, reduceAxesArg(a))
			}
			o.DType = ndarray.Int64
			return infos(o), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			axes, err := runAxes(in, a)
			if err != nil {
				return nil, err
			}
			keep := a.Bool(0, false)
			x := in[0]
			switch len(axes) {
			case 0:
				flat, err := ndarray.Reshape(x, -1)
				if err != nil {
					return nil, err
				}
				r, err := argCall(isMax, flat, 0, false)
				if err != nil || !keep {
					return one(r, err)
				}
				ones := make([]int, x.Rank())
				for i := range ones {
					ones[i] = 1
				}
				return one(ndarray.Reshape(r, ones...))
			case 1:
				return one(argCall(isMax, x, axes[0], keep))
			}
			return nil, fmt.Errorf("%s takes one axis, not %v", name, axes)
		},
	}
}

func argCall(isMax bool, x *ndarray.Array, axis int, keep bool) (*ndarray.Array, error) {
	if isMax {
		return ndarray.ArgMax(x, axis, keep)
	}
	return ndarray.ArgMin(x, axis, keep)
}

var (
	argMaxOp = Register(argDef("argmax", true, "index of the largest element along an axis"))
	argMinOp = Register(argDef("argmin", false, "index of the smallest element along an axis"))
)

// ReduceToShapeOf sums its first input over the axes along which the second
// input was broadcast, giving an array of the second input's shape. Gradient
// rules use it to bring an output gradient back to a broadcast operand.
var reduceToShapeOfOp = Register(&Def{
	Name: "reduce_to_shape_of", Type: Custom, MinIn: 2, MaxIn: 2, NonDiff: []int{1},
	Doc: "x summed over the axes along which y was broadcast, giving y's shape",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		if err := needNumeric("reduce_to_shape_of", in[0]); err != nil {
			return nil, err
		}
		return infos(Info{DType: in[0].DType, Shape: in[1].Shape, UnknownRank: in[1].UnknownRank}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		return one(sumToShape(c, in[0], in[1].Shape()))
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		// The forward op summed over broadcast axes; its gradient
		// broadcasts back: ones of x's shape times d.
		return []Value{mul(b, op1(b, "ones_as", Args{}, n.In[0]), d[0]), nil}
	},
})

// SumToShape sums x over the axes along which an array of shape was
// broadcast to x's shape. It returns x itself when the shapes are equal.
func SumToShape(x *ndarray.Array, shape []int) (*ndarray.Array, error) {
	return sumToShape(nil, x, shape)
}

// sumToShape is SumToShape into a buffer from c (a nil c allocates):
// broadcast gradients are reduced every training step.
func sumToShape(c *Ctx, x *ndarray.Array, shape []int) (*ndarray.Array, error) {
	if ndarray.SameShape(x.Shape(), shape) {
		return x, nil
	}
	xs := x.Shape()
	if len(shape) > len(xs) {
		return nil, fmt.Errorf("cannot sum shape %v down to %v", xs, shape)
	}
	lead := len(xs) - len(shape)
	var axes []int
	for i := range xs {
		switch {
		case i < lead:
			axes = append(axes, i)
		case shape[i-lead] == 1 && xs[i] != 1:
			axes = append(axes, i)
		case shape[i-lead] != xs[i]:
			return nil, fmt.Errorf("cannot sum shape %v down to %v", xs, shape)
		}
	}
	if c == nil || !x.DType().IsNumeric() {
		// Reduce gives the error for other dtypes, where Alloc would
		// panic on strings.
		s, err := ndarray.Reduce(ndarray.Sum, x, axes, true)
		if err != nil {
			return nil, err
		}
		return ndarray.Reshape(s, shape...)
	}
	// The sum with kept dimensions, written through a view of the
	// output: it has shape's elements, in order, with 1s in front.
	out := c.Alloc(x.DType(), shape)
	kept, err := ndarray.Reshape(out, ndarray.ReducedShape(xs, axes, true)...)
	if err != nil {
		return nil, err
	}
	return out, ndarray.ReduceInto(ndarray.Sum, kept, x, axes)
}

// Gradients of the reductions: the output gradient spread back over the
// reduced axes (libnd4j's reduce_*_bp: inputs x, gradO and optionally the
// axes; the forward op's arguments).

// reduceGrad returns the gradient rule of a reduction: the fused op bp on
// x, the output gradient and the axes input if any, with the forward args
// as args gives them. The axes input gets no gradient.
func reduceGrad(bp string, args func(Args) Args) GradFunc {
	return func(b GradBuilder, n GradNode, dOut []Value) []Value {
		in := []Value{n.In[0], dOut[0]}
		if len(n.In) > 1 {
			in = append(in, n.In[1])
		}
		return append(b.Op(bp, args(*n.Args), in...), nil)[:len(n.In)]
	}
}

// reduceBp computes a reduction's input gradient from x, the output
// gradient with kept axes (gk) and the normalized axes.
type reduceBp = func(x, gk *ndarray.Array, ax []int) (*ndarray.Array, error)

func reduceBpDef(name string, grad reduceBp) *Def {
	return reduceBpArgsDef(name, "gradient of "+name[:len(name)-3]+" for inputs x, gradO and optionally the axes",
		func(x, gk *ndarray.Array, ax []int, _ *Args) (*ndarray.Array, error) { return grad(x, gk, ax) })
}

// reduceBpArgsDef is reduceBpDef for a gradient that also reads the op's
// arguments (the variance's bias correction).
func reduceBpArgsDef(name, doc string, grad func(x, gk *ndarray.Array, ax []int, a *Args) (*ndarray.Array, error)) *Def {
	return reduceBpCtxDef(name, doc, func(_ *Ctx, x, gk *ndarray.Array, ax []int, a *Args) (*ndarray.Array, error) {
		return grad(x, gk, ax, a)
	})
}

// reduceBpCtxDef is reduceBpArgsDef for a gradient that allocates its
// output from the run's context.
func reduceBpCtxDef(name, doc string, grad func(c *Ctx, x, gk *ndarray.Array, ax []int, a *Args) (*ndarray.Array, error)) *Def {
	return &Def{
		Name: name, Type: Custom, MinIn: 2, MaxIn: 3, NonDiff: []int{2},
		Doc: doc,
		Infer: func(in []Info, a *Args) ([]Info, error) {
			x, g := in[0], in[1]
			if err := needFloat(name, x); err != nil {
				return nil, err
			}
			if g.DType != x.DType {
				return nil, fmt.Errorf("%s: the gradient is %v, the input %v", name, g.DType, x.DType)
			}
			// The gradient has the reduction's output shape, with or
			// without kept axes (the run reshapes it): its elements must
			// be as many, where both are known.
			var axIn []Info
			if len(in) > 2 {
				axIn = in[2:]
			}
			out, err := reduceInfo(name, append([]Info{x}, axIn...), &Args{Dims: reduceAxesDims(a), B: []bool{true}})
			if err != nil {
				return nil, err
			}
			if out.ShapeKnown() && g.ShapeKnown() && (ndarray.Layout{Shape: out.Shape}).Size() != (ndarray.Layout{Shape: g.Shape}).Size() {
				return nil, fmt.Errorf("%s: gradient of shape %v for a reduction of %v to %v", name, g.Shape, x.Shape, out.Shape)
			}
			return sameInfos(in, 1), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			x, g := in[0], in[1]
			axes, err := inputInts(in, 2, "the axes input", reduceAxesArg(a))
			if err != nil {
				return nil, err
			}
			ax, err := ndarray.NormAxes(axes, x.Rank())
			if err != nil {
				return nil, fmt.Errorf("%s of shape %v: %w", name, x.Shape(), err)
			}
			// The gradient comes with or without kept axes: the same
			// elements either way.
			gk, err := ndarray.Reshape(g, ndarray.ReducedShape(x.Shape(), ax, true)...)
			if err != nil {
				return nil, fmt.Errorf("%s: gradient of shape %v for a reduction of %v over %v: %w", name, g.Shape(), x.Shape(), ax, err)
			}
			return one(grad(c, x, gk, ax, a))
		},
	}
}

var (
	reduceSumBpOp = Register(reduceBpCtxDef("reduce_sum_bp", "gradient of reduce_sum for inputs x, gradO and optionally the axes",
		func(c *Ctx, x, gk *ndarray.Array, _ []int, _ *Args) (*ndarray.Array, error) {
			return broadcastGrad(c, x, gk)
		}))
	reduceMeanBpOp = Register(reduceBpCtxDef("reduce_mean_bp", "gradient of reduce_mean for inputs x, gradO and optionally the axes",
		func(c *Ctx, x, gk *ndarray.Array, ax []int, _ *Args) (*ndarray.Array, error) {
			n := groupSize(x, ax)
			out, err := broadcastGrad(c, x, gk)
			if err != nil || n == 0 {
				return out, err
			}
			return out, ndarray.UnaryInto(ndarray.ScaleBy, out, out, 1/n)
		}))
	reduceMaxBpOp  = Register(reduceBpDef("reduce_max_bp", extremeGrad(ndarray.Max)))
	reduceMinBpOp  = Register(reduceBpDef("reduce_min_bp", extremeGrad(ndarray.Min)))
	reduceProdBpOp = Register(reduceBpDef("reduce_prod_bp", prodBp))
)

// broadcastGrad returns gk spread over x's shape in an array from the
// run's pool: the gradient of a sum over a large input (a loss) would
// otherwise take fresh pages, and fault them in, on every step.
func broadcastGrad(c *Ctx, x, gk *ndarray.Array) (*ndarray.Array, error) {
	out, err := c.TryAlloc(gk.DType(), x.Shape())
	if err != nil {
		return nil, err
	}
	if gk.Size() == 1 { // a full reduction, a loss: one value everywhere
		switch gk.DType() {
		case ndarray.Float32:
			fillT(flat[float32](out), ndarray.Raw[float32](gk)[gk.Offset()])
			return out, nil
		case ndarray.Float64:
			fillT(flat[float64](out), ndarray.Raw[float64](gk)[gk.Offset()])
			return out, nil
		}
	}
	return out, ndarray.CopyInto(out, gk)
}

// extremeGrad returns the gradient of the reduction op (max or min).
func extremeGrad(op ndarray.ReduceOp) reduceBp {
	return func(x, gk *ndarray.Array, ax []int) (*ndarray.Array, error) { return extremeBp(op, x, gk, ax) }
}

// ofAbs returns the gradient of a reduction of |x| whose gradient with
// respect to |x| is grad: grad at |x| times sign(x).
func ofAbs(grad reduceBp) reduceBp {
	return func(x, gk *ndarray.Array, ax []int) (*ndarray.Array, error) {
		ab, err := ndarray.Unary(ndarray.Abs, x, 0)
		if err != nil {
			return nil, err
		}
		d, err := grad(ab, gk, ax)
		if err != nil {
			return nil, err
		}
		return signTimes(x, d)
	}
}

// extremeBp sends the gradient to the elements equal to the max (min),
// shared equally among ties.
func extremeBp(op ndarray.ReduceOp, x, gk *ndarray.Array, ax []int) (*ndarray.Array, error) {
	m, err := ndarray.Reduce(op, x, ax, true)
	if err != nil {
		return nil, err
	}
	hit, err := mask(nil, ndarray.Eq, x, m, gk)
	if err != nil {
		return nil, err
	}
	cnt, err := ndarray.Reduce(ndarray.Sum, hit, ax, true)
	if err != nil {
		return nil, err
	}
	share, err := bin(ndarray.Div, gk, cnt)
	if err != nil {
		return nil, err
	}
	return bin(ndarray.Mul, hit, share)
}

// prodBp computes the product of the other elements of each group times the
// gradient, without dividing by zero: with no zero in a group it is
// prod/x; with exactly one zero, only that element gets the product of the
// rest; with more, every element gets 0.
func prodBp(x, gk *ndarray.Array, ax []int) (*ndarray.Array, error) {
	zero := ndarray.Must(ndarray.ScalarOf(x.DType(), 0))
	one := ndarray.Must(ndarray.ScalarOf(x.DType(), 1))
	isZero, nz, err := zeroMask(x)
	if err != nil {
		return nil, err
	}
	zc, err := ndarray.Reduce(ndarray.Sum, isZero, ax, true)
	if err != nil {
		return nil, err
	}
	pnz, err := ndarray.Reduce(ndarray.Prod, nz, ax, true)
	if err != nil {
		return nil, err
	}
	noZero, err := mask(nil, ndarray.Eq, zc, zero, x)
	if err != nil {
		return nil, err
	}
	oneZero, err := mask(nil, ndarray.Eq, zc, one, x)
	if err != nil {
		return nil, err
	}
	a, err := bin(ndarray.Div, pnz, nz)
	if err != nil {
		return nil, err
	}
	if a, err = bin(ndarray.Mul, a, noZero); err != nil {
		return nil, err
	}
	b, err := bin(ndarray.Mul, isZero, pnz)
	if err != nil {
		return nil, err
	}
	if b, err = bin(ndarray.Mul, b, oneZero); err != nil {
		return nil, err
	}
	d, err := bin(ndarray.Add, a, b)
	if err != nil {
		return nil, err
	}
	return bin(ndarray.Mul, d, gk)
}

// zeroMask returns, in x's dtype, 1 where x is 0 and 0 elsewhere (isZero),
// and x with its zeros made ones (nz): a divisor that is never 0, for
// gradients that must not divide by zero.
func zeroMask(x *ndarray.Array) (isZero, nz *ndarray.Array, err error) {
	if isZero, err = mask(nil, ndarray.Eq, x, ndarray.Must(ndarray.ScalarOf(x.DType(), 0)), x); err != nil {
		return nil, nil, err
	}
	nz, err = bin(ndarray.Add, x, isZero)
	return isZero, nz, err
}
