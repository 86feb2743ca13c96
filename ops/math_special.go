package ops

import (
	"fmt"
	"math"

	"github.com/sdgo/sdgo/ndarray"
)

// SameDiff's special functions (erf, erfc, lgamma, digamma, rint), its
// float tests (isnan, isinf, isfinite: bool outputs), the pairwise forms
// divide_no_nan, mod, reversedivide and reversesubtract, and the legacy
// pairwise bool ops and, or, xor.

// digamma is ψ(x) = Γ'(x)/Γ(x): NaN at the poles (0 and the negative
// integers), reflected below 0 (ψ(x) = ψ(1-x) - π/tan(πx)), moved up past 10
// by ψ(x) = ψ(x+1) - 1/x, then the asymptotic series
// ln x - 1/(2x) - Σ B₂ₖ/(2k x²ᵏ) to k = 5.
func digamma(x float64) float64 {
	switch {
	case math.IsNaN(x) || math.IsInf(x, -1):
		return math.NaN()
	case math.IsInf(x, 1):
		return x
	case x <= 0 && x == math.Floor(x):
		return math.NaN()
	case x < 0:
		return digamma(1-x) - math.Pi/math.Tan(math.Pi*x)
	}
	r := 0.0
	for ; x < 10; x++ {
		r -= 1 / x
	}
	f := 1 / (x * x)
	return r + math.Log(x) - 0.5/x - f*(1.0/12-f*(1.0/120-f*(1.0/252-f*(1.0/240-f/132))))
}

// lgamma is ln|Γ(x)|.
func lgamma(x float64) float64 {
	v, _ := math.Lgamma(x)
	return v
}

// sqrtPi2 is 2/√π, erf's derivative at 0.
const sqrtPi2 = 2 / math.SqrtPi

// erfSlope returns 2/√π·e^(-x²), erf's derivative, as graph ops.
func erfSlope(b GradBuilder, x Value) Value {
	return mul(b, op1(b, "exp", Args{}, neg(b, sq(b, x))), scalarLike(b, x, sqrtPi2))
}

var (
	erfOp = Register(floatMapDef("erf", TransformStrict, 45, "the error function erf x", math.Erf,
		fromXY(func(b GradBuilder, x, y Value) Value { return erfSlope(b, x) })))
	erfcOp = Register(floatMapDef("erfc", TransformStrict, 50, "the complementary error function 1 - erf x", math.Erfc,
		fromXY(func(b GradBuilder, x, y Value) Value { return neg(b, erfSlope(b, x)) })))
	// rint rounds half to even, as C's rint in the default rounding mode.
	rintOp = Register(floatMapDef("rint", TransformStrict, 48, "x rounded to the nearest integer, halves to even", math.RoundToEven, zeroGrad))
	// lgammaOp is libnd4j's custom lgamma; its derivative is digamma.
	lgammaOp = Register(floatMapDef("lgamma", Custom, 0, "ln|Γ(x)| (+Inf at the poles 0, -1, -2, ...)", lgamma,
		fromXY(func(b GradBuilder, x, y Value) Value { return op1(b, "digamma", Args{}, x) })))
	// digammaOp is libnd4j's custom digamma. SDMath does not write it (no
	// method of SameDiff's namespaces makes it; TensorFlow imports and
	// lgamma's gradient do). Its derivative, the trigamma function, is
	// libnd4j's polygamma(1, x), which sdgo does not have: no gradient.
	digammaOp = Register(floatMapDef("digamma", Custom, 0, "ψ(x) = Γ'(x)/Γ(x) (NaN at the poles 0, -1, -2, ...)", digamma, nil))
)

// floatTestDef defines a legacy transform-bool op: test of each element of a
// numeric x, giving bools; an integer element is never NaN nor infinite, so
// all of an integer x gives intVal.
func floatTestDef(name string, num int64, doc string, test func(float64) bool, intVal bool) *Def {
	return &Def{
		Name: name, Type: TransformBool, Num: num, MinIn: 1, MaxIn: 1, Doc: doc,
		Infer: func(in []Info, _ *Args) ([]Info, error) {
			if err := needNumeric(name, in[0]); err != nil {
				return nil, err
			}
			o := same(in[0])
			o.DType = ndarray.Bool
			return infos(o), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
			x := in[0]
			out := c.Alloc(ndarray.Bool, x.Shape())
			d := ndarray.Raw[bool](out)[out.Offset() : out.Offset()+out.Size()]
			switch x.DType() {
			case ndarray.Float32:
				for i, v := range ndarray.Values[float32](x) {
					d[i] = test(float64(v)) // exact: every float32 is a float64
				}
			case ndarray.Float64:
				for i, v := range ndarray.Values[float64](x) {
					d[i] = test(v)
				}
			default:
				for i := range d {
					d[i] = intVal
				}
			}
			return one(out, nil)
		},
	}
}

var (
	isNaNOp    = Register(floatTestDef("isnan", 2, "x is NaN", math.IsNaN, false))
	isInfOp    = Register(floatTestDef("isinf", 1, "x is +Inf or -Inf", func(v float64) bool { return math.IsInf(v, 0) }, false))
	isFiniteOp = Register(floatTestDef("isfinite", 3, "x is neither NaN nor infinite", func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }, true))
)

// reduceTo sums a full-shape gradient g back to the shape of the input v it
// belongs to (the axes along which v was broadcast).
func reduceTo(b GradBuilder, g, v Value) Value { return op1(b, "reduce_to_shape_of", Args{}, g, v) }

// divNoNaN is x/y, 0 where y is 0 (0/0 and x/0 included).
func divNoNaN(x, y float64) float64 {
	if y == 0 {
		return 0
	}
	return x / y
}

var divNoNaNOp = Register(floatMap2Def("divide_no_nan", "x / y, and 0 where y is 0 (inputs x, y broadcast)", divNoNaN,
	func(b GradBuilder, n GradNode, d []Value) []Value {
		// ∂/∂x = 1/y and ∂/∂y = -x/y² = -q/y with q the output, both
		// taken as 0 where y is 0, as the forward is.
		x, y, q := n.In[0], n.In[1], n.Out[0]
		gx := op1(b, "divide_no_nan", Args{}, d[0], y)
		gy := neg(b, mul(b, d[0], op1(b, "divide_no_nan", Args{}, q, y)))
		return []Value{reduceTo(b, gx, x), reduceTo(b, gy, y)}
	}))

// modFloor is libnd4j's Mod for floats: x - ⌊x/y⌋·y, with the sign of y
// (NaN where y is 0). The float32 form computes in float32 (the floor of a
// float32 value, taken in float64, is exact).
func modFloor32(d, x, y []float32) {
	for i := range d {
		q := x[i] / y[i]
		d[i] = x[i] - float32(math.Floor(float64(q)))*y[i]
	}
}

func modFloor64(d, x, y []float64) {
	for i := range d {
		d[i] = x[i] - math.Floor(x[i]/y[i])*y[i]
	}
}

// intPairs calls f on every pair of elements of x and y broadcast to out's
// shape, writing out (a fresh packed array of their dtype); f's false stops
// with the pair's flat index.
func intPairs[T int32 | int64](out, x, y *ndarray.Array, f func(a, b T) (T, bool)) (int, bool) {
	xs, err := ndarray.BroadcastTo(x, out.Shape()...)
	if err != nil {
		return 0, false
	}
	ys, err := ndarray.BroadcastTo(y, out.Shape()...)
	if err != nil {
		return 0, false
	}
	a, bs := ndarray.Values[T](xs), ndarray.Values[T](ys)
	d := ndarray.Raw[T](out)[out.Offset() : out.Offset()+out.Size()]
	for i := range d {
		v, ok := f(a[i], bs[i])
		if !ok {
			return i, false
		}
		d[i] = v
	}
	return 0, true
}

// intMod is libnd4j's Mod on integers, where x/y truncates and the floor
// does nothing: x - trunc(x/y)·y, C's and Go's %, with the sign of x.
func intMod[T int32 | int64](a, b T) (T, bool) {
	if b == 0 {
		return 0, false
	}
	return a % b, true
}

var modOp = Register(&Def{
	Name: "mod", Type: Custom, MinIn: 2, MaxIn: 2,
	Doc: "x - ⌊x/y⌋·y for inputs x, y (broadcast): floats take the sign of y; integers divide truncating, so the sign of x (C's %)",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		if err := needNumeric("mod", in[0]); err != nil {
			return nil, err
		}
		o, err := BroadcastInfo(in[0], in[1])
		if err != nil {
			return nil, fmt.Errorf("mod: %w", err)
		}
		return infos(o), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		x, y := in[0], in[1]
		if x.DType() != y.DType() {
			return nil, fmt.Errorf("mod: inputs are %v and %v; they must have one dtype", x.DType(), y.DType())
		}
		shape, err := ndarray.BroadcastShapes(x.Shape(), y.Shape())
		if err != nil {
			return nil, fmt.Errorf("mod: %w", err)
		}
		out, err := c.TryAlloc(x.DType(), shape)
		if err != nil {
			return nil, err
		}
		var at int
		ok := true
		switch x.DType() {
		case ndarray.Float32, ndarray.Float64:
			return one(out, ndarray.MapFloat2Into(out, x, y, modFloor32, modFloor64))
		case ndarray.Int32:
			at, ok = intPairs(out, x, y, intMod[int32])
		case ndarray.Int64:
			at, ok = intPairs(out, x, y, intMod[int64])
		default:
			return nil, fmt.Errorf("mod needs a numeric input, not %v", x.DType())
		}
		if !ok {
			return nil, fmt.Errorf("mod: integer division by zero (input 1, y, is 0 at flat position %d of the broadcast shape %v)", at, shape)
		}
		return one(out, nil)
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		// ∂/∂x = 1 and ∂/∂y = -⌊x/y⌋ away from the jumps. libnd4j's
		// mod_bp gives zeros for both; sdgo gives the derivative.
		x, y := n.In[0], n.In[1]
		gy := neg(b, mul(b, d[0], op1(b, "floordiv", Args{}, x, y)))
		return []Value{reduceTo(b, d[0], x), reduceTo(b, gy, y)}
	},
})

// reverseBinaryDef defines a custom op computing op(y, x) for inputs x, y
// (libnd4j's reversed pairwise ops), broadcast.
func reverseBinaryDef(name string, op ndarray.BinaryOp, doc string, grad GradFunc) *Def {
	d := binaryDef(name, op, doc, grad)
	d.Run = func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		shape, err := ndarray.BroadcastShapes(in[0].Shape(), in[1].Shape())
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if in[0].DType() != in[1].DType() {
			return nil, fmt.Errorf("%s: inputs are %v and %v; they must have one dtype", name, in[0].DType(), in[1].DType())
		}
		out := c.Alloc(in[0].DType(), shape)
		return one(out, ndarray.BinaryInto(op, out, in[1], in[0]))
	}
	return d
}

var (
	rdivOp = Register(reverseBinaryDef("reversedivide", ndarray.Div, "y / x for inputs x, y (integers truncate; integer division by zero is an error)", bpOp("reversedivide_bp")))
	rsubOp = Register(reverseBinaryDef("reversesubtract", ndarray.Sub, "y - x for inputs x, y", bpOp("reversesubtract_bp")))

	rdivBpOp = Register(binaryBp("reversedivide_bp", func(c *Ctx, x, y, g *ndarray.Array) (*ndarray.Array, *ndarray.Array, error) {
		// d(y/x)/dy = 1/x, d(y/x)/dx = -y/x², written over the
		// quotient y/x.
		gy, err := binFor(c, ndarray.Div, g, x)
		if err != nil || !c.Needed(0) {
			return nil, gy, err
		}
		q, err := binFor(c, ndarray.Div, y, x)
		if err != nil {
			return nil, nil, err
		}
		gx, err := binOver(c, ndarray.Mul, gy, q, q)
		if err != nil {
			return nil, nil, err
		}
		return gx, gy, ndarray.UnaryInto(ndarray.Neg, gx, gx, 0)
	}))
	rsubBpOp = Register(binaryBp("reversesubtract_bp", func(c *Ctx, x, y, g *ndarray.Array) (*ndarray.Array, *ndarray.Array, error) {
		if !c.Needed(0) {
			return nil, g, nil
		}
		ng, err := unaryFor(c, ndarray.Neg, g, 0)
		return ng, g, err
	}))
)

// pairwiseBoolDef defines libnd4j's legacy pairwise bool op num (and 7, or
// 8, xor 9) on x and y of one dtype, broadcast: each element counts as true
// when it differs from the comparand, float arg 0 (Java's extraArgs; 0 by
// default, so any non-zero number is true, and bools are themselves).
func pairwiseBoolDef(name string, num int64, op ndarray.LogicOp, doc string) *Def {
	return &Def{
		Name: name, Type: PairwiseBool, Num: num, MinIn: 2, MaxIn: 2, Doc: doc,
		Infer: func(in []Info, _ *Args) ([]Info, error) {
			if !in[0].DType.Computable() {
				return nil, fmt.Errorf("%s needs numeric or bool inputs, not %v", name, in[0].DType)
			}
			o, err := BroadcastInfo(in[0], in[1])
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			o.DType = ndarray.Bool
			return infos(o), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			x, y := in[0], in[1]
			if x.DType() != y.DType() {
				return nil, fmt.Errorf("%s: inputs are %v and %v; they must have one dtype", name, x.DType(), y.DType())
			}
			comp, err := ndarray.ScalarOf(x.DType(), a.Float(0, 0))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			bx, err := compareFor(c, ndarray.Ne, x, comp)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			defer c.Release(bx)
			by, err := compareFor(c, ndarray.Ne, y, comp)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			defer c.Release(by)
			out, err := ndarray.Logic(op, bx, by)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			return one(out, nil)
		},
	}
}

var (
	andPairOp = Register(pairwiseBoolDef("and", 7, ndarray.And, "x ≠ c AND y ≠ c, c float arg 0 (default 0)"))
	orPairOp  = Register(pairwiseBoolDef("or", 8, ndarray.Or, "x ≠ c OR y ≠ c, c float arg 0 (default 0)"))
	xorPairOp = Register(pairwiseBoolDef("xor", 9, ndarray.Xor, "x ≠ c XOR y ≠ c, c float arg 0 (default 0)"))
)
