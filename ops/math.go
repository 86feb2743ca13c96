package ops

import (
	"fmt"
	"strings"

	"github.com/sdgo/sdgo/ndarray"
)

// Elementwise ops of two operands, with numpy broadcasting. Both operands
// must have the same dtype.

func binaryDef(name string, op ndarray.BinaryOp, doc string, grad GradFunc, aliases ...string) *Def {
	return &Def{
		Name: name, Aliases: aliases, Type: Custom, MinIn: 2, MaxIn: 2, Doc: doc + "; dtype arg 0: the output dtype (inputs may then differ)",
		Grad: grad, Flags: OutDTypeArg,
		Infer: func(in []Info, a *Args) ([]Info, error) {
			if err := needNumeric(name, in[0]); err != nil {
				return nil, err
			}
			out, mixed := a.DType(0, ndarray.Invalid), in[1]
			if out != ndarray.Invalid {
				if err := needNumeric(name, in[1]); err != nil {
					return nil, err
				}
				if !out.IsNumeric() {
					return nil, fmt.Errorf("%s: output dtype (dtype arg 0) %v is not numeric", name, out)
				}
				mixed.DType = in[0].DType // the shapes decide alone
			}
			o, err := BroadcastInfo(in[0], mixed)
			if err != nil {
				return nil, err
			}
			if out != ndarray.Invalid {
				o.DType = out
			}
			return infos(o), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			// Operands of one shape (most of a graph's) need no
			// broadcast shape built: the executor copies the shape it
			// is given.
			shape := in[0].Shape()
			if !ndarray.SameShape(shape, in[1].Shape()) {
				var err error
				if shape, err = ndarray.BroadcastShapes(shape, in[1].Shape()); err != nil {
					return nil, err
				}
			}
			dt := a.DType(0, in[0].DType())
			if dt == in[0].DType() && dt == in[1].DType() {
				out := c.Alloc(dt, shape)
				return one(out, ndarray.BinaryInto(op, out, in[0], in[1]))
			}
			return one(mixedBinary(c, name, op, dt, shape, in[0], in[1]))
		},
	}
}

// mixedBinary is a binary op on inputs of different dtypes, or with an
// output dtype (out) other than theirs, as libnd4j's pairwise ops do it:
// both inputs converted to the wider of their dtypes (a float over an
// integer, then the larger), the op computed there, the result converted
// to out (floats to integers truncating towards zero, as C++'s casts).
func mixedBinary(c *Ctx, name string, op ndarray.BinaryOp, out ndarray.DType, shape []int, x, y *ndarray.Array) (*ndarray.Array, error) {
	if !x.DType().IsNumeric() || !y.DType().IsNumeric() || !out.IsNumeric() {
		return nil, fmt.Errorf("%s: cannot compute %v and %v into %v", name, x.DType(), y.DType(), out)
	}
	wide := widerDType(x.DType(), y.DType())
	conv := func(a *ndarray.Array) (*ndarray.Array, error) {
		if a.DType() == wide {
			return a, nil
		}
		w := c.Alloc(wide, a.Shape())
		return w, ndarray.CastInto(w, a)
	}
	xw, err := conv(x)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if xw != x {
		defer c.Release(xw)
	}
	yw, err := conv(y)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if yw != y {
		defer c.Release(yw)
	}
	r := c.Alloc(wide, shape)
	if err := ndarray.BinaryInto(op, r, xw, yw); err != nil {
		c.Release(r)
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if out == wide {
		return r, nil
	}
	defer c.Release(r)
	z := c.Alloc(out, shape)
	return z, ndarray.CastInto(z, r)
}

// widerDType is the dtype two numeric dtypes compute in: a float over an
// integer, then the one with the larger elements (C++'s usual arithmetic
// conversions for the dtypes sdgo computes with).
func widerDType(a, b ndarray.DType) ndarray.DType {
	if a.IsFloat() != b.IsFloat() {
		if a.IsFloat() {
			return a
		}
		return b
	}
	if b.Size() > a.Size() {
		return b
	}
	return a
}

var (
	addOp     = Register(binaryDef("add", ndarray.Add, "x + y", bpOp("add_bp")))
	subOp     = Register(binaryDef("subtract", ndarray.Sub, "x - y", bpOp("subtract_bp"), "sub"))
	mulOp     = Register(binaryDef("multiply", ndarray.Mul, "x * y", bpOp("multiply_bp"), "mul"))
	divOp     = Register(binaryDef("divide", ndarray.Div, "x / y (integers truncate; integer division by zero is an error)", bpOp("divide_bp"), "div", "realdiv"))
	powOp     = Register(binaryDef("Pow", ndarray.Pow, "x raised to y", bpOp("Pow_bp"), "pow_pairwise"))
	maximumOp = Register(binaryDef("maximum", ndarray.Maximum, "the larger of x and y (NaN wins)", bpOp("maximum_bp")))
	minimumOp = Register(binaryDef("minimum", ndarray.Minimum, "the smaller of x and y (NaN wins)", bpOp("minimum_bp")))
	// Floor division and modulo are piecewise constant in x and y almost
	// everywhere; like TensorFlow, sdgo gives them no gradient.
	squaredSubOp = Register(binaryDef("squaredsubtract", ndarray.SquaredDiff, "(x - y)²", bpOp("squaredsubtract_bp"), "squared_difference"))
	floorDivOp   = Register(binaryDef("floordiv", ndarray.FloorDiv, "floor(x / y)", nil))
	floorModOp   = Register(binaryDef("floormod", ndarray.FloorMod, "x mod y with the sign of y, as Python's %", nil))
)

// The fused backprop ops of the binary ops: inputs x, y and the output
// gradient g; outputs dL/dx and dL/dy, each summed back over the axes along
// which its operand was broadcast (libnd4j's *_bp ops).

// binaryBp builds such an op from the two full-shape gradients. grads may
// leave out (nil) a gradient c does not need; one it returns that nobody
// needs is not summed but given back to c, as is one summed into a new
// array (grads takes its gradients and temporaries from c).
func binaryBp(name string, grads func(c *Ctx, x, y, g *ndarray.Array) (gx, gy *ndarray.Array, err error)) *Def {
	return bpDef(name, 2, "gradients of "+strings.TrimSuffix(name, "_bp")+" for inputs x, y, gradO", func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		x, y, g := in[0], in[1], in[2]
		gx, gy, err := grads(c, x, y, g)
		if err != nil {
			return nil, err
		}
		out := []*ndarray.Array{gx, gy}
		for i, shape := range [][]int{x.Shape(), y.Shape()} {
			if out[i] == nil || !c.Needed(i) {
				c.Release(out[i])
				out[i] = nil
				continue
			}
			if out[i], err = sumGrad(c, out[i], shape); err != nil {
				return nil, err
			}
		}
		return out, nil
	})
}

// mask returns 1 where op(x, y) holds and 0 elsewhere, in g's dtype, a
// temporary from c.
func mask(c *Ctx, op ndarray.CompareOp, x, y, g *ndarray.Array) (*ndarray.Array, error) {
	m, err := compareFor(c, op, x, y)
	if err != nil {
		return nil, err
	}
	mk, err := castFor(c, m, g.DType())
	if mk != m {
		c.Release(m)
	}
	return mk, err
}

var (
	addBpOp = Register(binaryBp("add_bp", func(_ *Ctx, x, y, g *ndarray.Array) (*ndarray.Array, *ndarray.Array, error) {
		return g, g, nil
	}))
	subBpOp = Register(binaryBp("subtract_bp", func(c *Ctx, x, y, g *ndarray.Array) (*ndarray.Array, *ndarray.Array, error) {
		if !c.Needed(1) {
			return g, nil, nil
		}
		ng, err := unaryFor(c, ndarray.Neg, g, 0)
		return g, ng, err
	}))
	mulBpOp = Register(binaryBp("multiply_bp", func(c *Ctx, x, y, g *ndarray.Array) (gx, gy *ndarray.Array, err error) {
		if c.Needed(0) {
			if gx, err = binFor(c, ndarray.Mul, g, y); err != nil {
				return nil, nil, err
			}
		}
		if c.Needed(1) {
			gy, err = binFor(c, ndarray.Mul, g, x)
		}
		return gx, gy, err
	}))
	divBpOp = Register(binaryBp("divide_bp", func(c *Ctx, x, y, g *ndarray.Array) (*ndarray.Array, *ndarray.Array, error) {
		// d(x/y)/dx = 1/y, d(x/y)/dy = -x/y², written over the
		// quotient x/y (binaryBp gives back what it sums).
		gx, err := binFor(c, ndarray.Div, g, y)
		if err != nil || !c.Needed(1) {
			return gx, nil, err
		}
		q, err := binFor(c, ndarray.Div, x, y)
		if err != nil {
			return nil, nil, err
		}
		gy, err := binOver(c, ndarray.Mul, gx, q, q)
		if err != nil {
			return nil, nil, err
		}
		return gx, gy, ndarray.UnaryInto(ndarray.Neg, gy, gy, 0)
	}))
	powBpOp = Register(binaryBp("Pow_bp", func(c *Ctx, x, y, g *ndarray.Array) (gx, gy *ndarray.Array, err error) {
		// d(x^y)/dx = y·x^(y-1), taken as 0 where y = 0 (x^0 is 1, and
		// 0·0^-1 would be NaN), as PyTorch does; d(x^y)/dy = x^y·ln x,
		// taken as 0 where x <= 0 (ln undefined), as TensorFlow does. Both
		// are selected, not multiplied by a 0/1 mask, since 0·Inf is NaN.
		// Each is computed only when needed (x^2 needs no dL/dy).
		zero := ndarray.Must(ndarray.ScalarOf(x.DType(), 0))
		if c.Needed(0) {
			ym1, err := unaryFor(c, ndarray.AddScalar, y, -1)
			if err != nil {
				return nil, nil, err
			}
			defer c.Release(ym1)
			p, err := binFor(c, ndarray.Pow, x, ym1)
			if err != nil {
				return nil, nil, err
			}
			defer c.Release(p)
			if p, err = binOver(c, ndarray.Mul, p, y, p); err != nil {
				return nil, nil, err
			}
			yNonZero, err := compareFor(c, ndarray.Ne, y, zero)
			if err != nil {
				return nil, nil, err
			}
			defer c.Release(yNonZero)
			if p, err = ndarray.Where(yNonZero, p, zero); err != nil {
				return nil, nil, err
			}
			if gx, err = binFor(c, ndarray.Mul, g, p); err != nil {
				return nil, nil, err
			}
		}
		if !c.Needed(1) {
			return gx, nil, nil
		}
		xy, err := binFor(c, ndarray.Pow, x, y)
		if err != nil {
			return nil, nil, err
		}
		defer c.Release(xy)
		lx, err := unaryFor(c, ndarray.Log, x, 0)
		if err != nil {
			return nil, nil, err
		}
		defer c.Release(lx)
		if xy, err = binOver(c, ndarray.Mul, xy, lx, xy); err != nil {
			return nil, nil, err
		}
		pos, err := compareFor(c, ndarray.Gt, x, zero)
		if err != nil {
			return nil, nil, err
		}
		defer c.Release(pos)
		if xy, err = ndarray.Where(pos, xy, zero); err != nil {
			return nil, nil, err
		}
		gy, err = binFor(c, ndarray.Mul, g, xy)
		return gx, gy, err
	}))
	maximumBpOp = Register(binaryBp("maximum_bp", func(c *Ctx, x, y, g *ndarray.Array) (*ndarray.Array, *ndarray.Array, error) {
		return routeBp(c, ndarray.Ge, x, y, g) // ties go to x
	}))
	minimumBpOp = Register(binaryBp("minimum_bp", func(c *Ctx, x, y, g *ndarray.Array) (*ndarray.Array, *ndarray.Array, error) {
		return routeBp(c, ndarray.Le, x, y, g)
	}))
	squaredSubBpOp = Register(binaryBp("squaredsubtract_bp", func(c *Ctx, x, y, g *ndarray.Array) (*ndarray.Array, *ndarray.Array, error) {
		d, err := binFor(c, ndarray.Sub, x, y)
		if err != nil {
			return nil, nil, err
		}
		defer c.Release(d)
		if err := ndarray.UnaryInto(ndarray.ScaleBy, d, d, 2); err != nil {
			return nil, nil, err
		}
		gx, err := binFor(c, ndarray.Mul, g, d)
		if err != nil || !c.Needed(1) {
			return gx, nil, err
		}
		gy, err := unaryFor(c, ndarray.Neg, gx, 0)
		return gx, gy, err
	}))
)

// routeBp sends g to x where op(x, y) holds and to y elsewhere, into
// arrays from c.
func routeBp(c *Ctx, op ndarray.CompareOp, x, y, g *ndarray.Array) (*ndarray.Array, *ndarray.Array, error) {
	m, err := mask(c, op, x, y, g)
	if err != nil {
		return nil, nil, err
	}
	defer c.Release(m)
	gx, err := binFor(c, ndarray.Mul, g, m)
	if err != nil || !c.Needed(1) {
		return gx, nil, err
	}
	gy, err := binFor(c, ndarray.Sub, g, gx)
	return gx, gy, err
}

// Elementwise ops of one operand. Float arg 0 is the op's parameter
// (LeakyRelu's slope, pow's exponent), paramDefault when absent.

func unaryDef(name string, op ndarray.UnaryOp, doc string, paramDefault float64, grad GradFunc, aliases ...string) *Def {
	return &Def{
		Name: name, Aliases: aliases, Type: Custom, MinIn: 1, MaxIn: 1, Doc: doc, Grad: grad,
		Infer: func(in []Info, _ *Args) ([]Info, error) {
			if op.FloatOnly() {
				if err := needFloat(name, in[0]); err != nil {
					return nil, err
				}
			} else if err := needNumeric(name, in[0]); err != nil {
				return nil, err
			}
			return infos(same(in[0])), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			out := c.Alloc(in[0].DType(), in[0].Shape())
			return one(out, ndarray.UnaryInto(op, out, in[0], a.Float(0, paramDefault)))
		},
	}
}

var (
	negOp  = Register(legacy(unaryDef("neg", ndarray.Neg, "-x", 0, func(b GradBuilder, n GradNode, d []Value) []Value { return []Value{neg(b, d[0])} }, "negative"), TransformSame, 3))
	absOp  = Register(legacy(unaryDef("abs", ndarray.Abs, "|x|", 0, fromXY(func(b GradBuilder, x, y Value) Value { return op1(b, "sign", Args{}, x) })), TransformSame, 0))
	expOp  = Register(legacy(unaryDef("exp", ndarray.Exp, "e^x", 0, fromXY(func(b GradBuilder, x, y Value) Value { return y })), TransformStrict, 23))
	logOp  = Register(legacy(unaryDef("log", ndarray.Log, "ln x", 0, func(b GradBuilder, n GradNode, d []Value) []Value { return []Value{div(b, d[0], n.In[0])} }), TransformStrict, 24))
	sqrtOp = Register(legacy(unaryDef("sqrt", ndarray.Sqrt, "√x", 0, func(b GradBuilder, n GradNode, d []Value) []Value {
		return []Value{div(b, d[0], mul(b, n.Out[0], scalarLike(b, n.Out[0], 2)))}
	}), TransformFloat, 1))
	squareOp = Register(legacy(unaryDef("square", ndarray.Square, "x²", 0, fromXY(func(b GradBuilder, x, y Value) Value { return mul(b, x, scalarLike(b, x, 2)) })), TransformSame, 12))
	tanhOp   = Register(legacy(unaryDef("tanh", ndarray.Tanh, "tanh x", 0, bpOp("tanh_bp")), TransformStrict, 29))
	signOp   = Register(legacy(unaryDef("sign", ndarray.Sign, "-1, 0 or 1", 0, zeroGrad), TransformSame, 1))
	// Reciprocal is the name and number (TRANSFORM_SAME 11) SameDiff's
	// reciprocal writes and Java resolves; "reciprocal" stays an alias.
	reciprocalOp = Register(legacy(unaryDef("Reciprocal", ndarray.Reciprocal, "1/x", 0, fromXY(func(b GradBuilder, x, y Value) Value { return neg(b, op1(b, "square", Args{}, y)) }), "reciprocal"), TransformSame, 11))
	floorOp      = Register(legacy(unaryDef("floor", ndarray.Floor, "⌊x⌋", 0, zeroGrad), TransformSame, 18))
	ceilOp       = Register(legacy(unaryDef("ceil", ndarray.Ceil, "⌈x⌉", 0, zeroGrad), TransformSame, 17))
	roundOp      = Register(legacy(unaryDef("round", ndarray.Round, "x rounded half away from zero", 0, zeroGrad), TransformSame, 4))
	sinOp        = Register(legacy(unaryDef("sin", ndarray.Sin, "sin x", 0, fromXY(func(b GradBuilder, x, y Value) Value { return op1(b, "cos", Args{}, x) })), TransformStrict, 27))
	cosOp        = Register(legacy(unaryDef("cos", ndarray.Cos, "cos x", 0, fromXY(func(b GradBuilder, x, y Value) Value { return neg(b, op1(b, "sin", Args{}, x)) })), TransformStrict, 22))
	rsqrtOp      = Register(legacy(unaryDef("rsqrt", ndarray.Rsqrt, "1/√x", 0, fromXY(func(b GradBuilder, x, y Value) Value {
		return mul(b, op1(b, "pow", Args{F: []float64{3}}, y), scalarLike(b, y, -0.5))
	})), TransformFloat, 3))
	log1pOp = Register(legacy(unaryDef("log1p", ndarray.Log1p, "ln(1+x)", 0, func(b GradBuilder, n GradNode, d []Value) []Value {
		return []Value{div(b, d[0], op1(b, "add", Args{}, n.In[0], scalarLike(b, n.In[0], 1)))}
	}), TransformStrict, 44))
	expm1Op     = Register(legacy(unaryDef("expm1", ndarray.Expm1, "e^x - 1", 0, fromXY(func(b GradBuilder, x, y Value) Value { return op1(b, "add", Args{}, y, scalarLike(b, y, 1)) })), TransformStrict, 51))
	powScalarOp = Register(legacy(unaryDef("pow", ndarray.PowScalar, "x^p; float arg 0 is p", 1, func(b GradBuilder, n GradNode, d []Value) []Value {
		p := n.Args.Float(0, 1)
		if p == 0 { // x^0 is 1: the gradient is 0, also at x = 0 where p·x^-1 is NaN
			return []Value{op1(b, "zeros_as", Args{}, d[0])}
		}
		dx := mul(b, op1(b, "pow", Args{F: []float64{p - 1}}, n.In[0]), scalarLike(b, n.In[0], p))
		return []Value{mul(b, d[0], dx)}
	}), Scalar, 31))
)

// legacy marks an op that SameDiff writes as a legacy op: a type and a number
// in libnd4j's legacy tables instead of a name hash.
func legacy(d *Def, t OpType, num int64) *Def {
	d.Type, d.Num = t, num
	return d
}

// MergeAddDeadAsZero returns mergeadd's arguments for a sum in which an
// input from a branch not taken (a dead value) counts as zero: autodiff's
// sums of gradient contributions, some of which may come through a branch
// not taken. Without them mergeadd is an ordinary op, dead when an input is:
// a mergeadd inside a branch is as dead as the branch when it is not taken.
//
// The bool is sdgo's own: libnd4j's mergeadd (OP_IMPL, no arguments) ignores
// it, and SameDiff runs an op only once every input has a value, so a saved
// gradient whose mergeadd has an input from a branch not taken (a variable
// used only inside an If's branch, read directly rather than passed in) is
// never computed by SameDiff when that branch is not taken; sdgo gives 0.
func MergeAddDeadAsZero() Args { return Args{B: []bool{true}} }

// mergeAddOp sums any number of same-shaped inputs (libnd4j's mergeadd);
// autodiff uses it to accumulate gradient contributions, with the arguments
// MergeAddDeadAsZero gives.
var mergeAddOp = Register(&Def{
	Name: "mergeadd", Aliases: []string{"add_n"}, Type: Custom, MinIn: 1, MaxIn: -1,
	Doc: "x1 + x2 + ... + xn, all of one shape; bool arg 0: inputs from a branch not taken count as zero",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		if err := needNumeric("mergeadd", in[0]); err != nil {
			return nil, err
		}
		// The run adds arrays of one shape, without broadcasting: every
		// known size must agree, and the output takes the ones known.
		o := same(in[0])
		for i, x := range in[1:] {
			if x.DType != o.DType {
				return nil, fmt.Errorf("mergeadd: input %d is %v, input 0 %v", i+1, x.DType, o.DType)
			}
			switch {
			case x.UnknownRank:
			case o.UnknownRank:
				o = same(x)
			case !o.Admits(x.Shape):
				return nil, fmt.Errorf("mergeadd: input %d has shape %v, the others %v (they must have the same shape)", i+1, x.Shape, o.Shape)
			default:
				s := append([]int(nil), o.Shape...)
				for j, d := range x.Shape {
					if s[j] < 0 {
						s[j] = d
					}
				}
				o.Shape = s
			}
		}
		return infos(o), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		for _, x := range in[1:] {
			if !ndarray.SameShape(x.Shape(), in[0].Shape()) {
				return nil, fmt.Errorf("mergeadd of shapes %v and %v", in[0].Shape(), x.Shape())
			}
		}
		out := c.Alloc(in[0].DType(), in[0].Shape())
		if len(in) == 1 {
			return one(out, ndarray.CopyInto(out, in[0]))
		}
		// The first sum goes straight into out, sparing a copy of in[0].
		if err := ndarray.BinaryInto(ndarray.Add, out, in[0], in[1]); err != nil {
			return nil, err
		}
		for _, x := range in[2:] {
			if err := ndarray.BinaryInto(ndarray.Add, out, out, x); err != nil {
				return nil, err
			}
		}
		return one(out, nil)
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		out := make([]Value, len(n.In))
		for i := range out {
			out[i] = d[0]
		}
		return out
	},
})
