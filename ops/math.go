package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// Elementwise ops of two operands, with numpy broadcasting. Both operands
// must have the same dtype.

func binaryDef(name string, op ndarray.BinaryOp, doc string, aliases ...string) *Def {
	return &Def{
		Name: name, Aliases: aliases, Type: Custom, MinIn: 2, MaxIn: 2, Doc: doc,
		Infer: func(in []Info, _ *Args) ([]Info, error) {
			if err := needNumeric(name, in[0]); err != nil {
				return nil, err
			}
			o, err := BroadcastInfo(in[0], in[1])
			if err != nil {
				return nil, err
			}
			return infos(o), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
			shape, err := ndarray.BroadcastShapes(in[0].Shape(), in[1].Shape())
			if err != nil {
				return nil, err
			}
			out := c.Alloc(in[0].DType(), shape)
			return one(out, ndarray.BinaryInto(op, out, in[0], in[1]))
		},
	}
}

var (
	AddOp        = Register(binaryDef("add", ndarray.Add, "x + y"))
	SubOp        = Register(binaryDef("subtract", ndarray.Sub, "x - y", "sub"))
	MulOp        = Register(binaryDef("multiply", ndarray.Mul, "x * y", "mul"))
	DivOp        = Register(binaryDef("divide", ndarray.Div, "x / y (integers truncate; integer division by zero is an error)", "div", "realdiv"))
	PowOp        = Register(binaryDef("Pow", ndarray.Pow, "x raised to y", "pow_pairwise"))
	MaximumOp    = Register(binaryDef("maximum", ndarray.Maximum, "the larger of x and y (NaN wins)"))
	MinimumOp    = Register(binaryDef("minimum", ndarray.Minimum, "the smaller of x and y (NaN wins)"))
	SquaredSubOp = Register(binaryDef("squaredsubtract", ndarray.SquaredDiff, "(x - y)²", "squared_difference"))
	FloorDivOp   = Register(binaryDef("floordiv", ndarray.FloorDiv, "floor(x / y)"))
	FloorModOp   = Register(binaryDef("floormod", ndarray.FloorMod, "x - floor(x / y)*y"))
)

// Comparisons give bool arrays.

func compareDef(name string, op ndarray.CompareOp, doc string) *Def {
	return &Def{
		Name: name, Type: Custom, MinIn: 2, MaxIn: 2, Doc: doc,
		Infer: func(in []Info, _ *Args) ([]Info, error) {
			o, err := BroadcastInfo(in[0], in[1])
			if err != nil {
				return nil, err
			}
			if in[0].DType == ndarray.Bool && op != ndarray.Eq && op != ndarray.Ne {
				return nil, fmt.Errorf("%s is not defined on bool inputs", name)
			}
			o.DType = ndarray.Bool
			return infos(o), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
			return one(ndarray.Compare(op, in[0], in[1]))
		},
	}
}

var (
	EqualsOp       = Register(compareDef("equals", ndarray.Eq, "x == y"))
	NotEqualsOp    = Register(compareDef("not_equals", ndarray.Ne, "x != y"))
	LessOp         = Register(compareDef("less", ndarray.Lt, "x < y"))
	LessEqualOp    = Register(compareDef("less_equal", ndarray.Le, "x <= y"))
	GreaterOp      = Register(compareDef("greater", ndarray.Gt, "x > y"))
	GreaterEqualOp = Register(compareDef("greater_equal", ndarray.Ge, "x >= y"))
)

func logicDef(name string, op ndarray.LogicOp, doc string) *Def {
	return &Def{
		Name: name, Type: Custom, MinIn: 2, MaxIn: 2, Doc: doc,
		Infer: func(in []Info, _ *Args) ([]Info, error) {
			if in[0].DType != ndarray.Bool || in[1].DType != ndarray.Bool {
				return nil, fmt.Errorf("%s needs bool inputs, not %v and %v", name, in[0].DType, in[1].DType)
			}
			o, err := BroadcastInfo(in[0], in[1])
			if err != nil {
				return nil, err
			}
			return infos(o), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
			return one(ndarray.Logic(op, in[0], in[1]))
		},
	}
}

var (
	AndOp = Register(logicDef("boolean_and", ndarray.And, "x AND y"))
	OrOp  = Register(logicDef("boolean_or", ndarray.Or, "x OR y"))
	XorOp = Register(logicDef("boolean_xor", ndarray.Xor, "x XOR y"))
	NotOp = Register(&Def{
		Name: "boolean_not", Type: Custom, MinIn: 1, MaxIn: 1, Doc: "NOT x",
		Infer: func(in []Info, _ *Args) ([]Info, error) {
			if in[0].DType != ndarray.Bool {
				return nil, fmt.Errorf("boolean_not needs a bool input, not %v", in[0].DType)
			}
			return infos(same(in[0])), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) { return one(ndarray.Not(in[0])) },
	})
)

// Elementwise ops of one operand. paramArg >= 0 names the float argument
// that holds the op's parameter (LeakyRelu's slope), with its default.

func unaryDef(name string, op ndarray.UnaryOp, doc string, paramDefault float64, aliases ...string) *Def {
	return &Def{
		Name: name, Aliases: aliases, Type: Custom, MinIn: 1, MaxIn: 1, Doc: doc,
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
	NegOp        = Register(legacy(unaryDef("neg", ndarray.Neg, "-x", 0, "negative"), TransformSame, 3))
	AbsOp        = Register(legacy(unaryDef("abs", ndarray.Abs, "|x|", 0), TransformSame, 0))
	ExpOp        = Register(legacy(unaryDef("exp", ndarray.Exp, "e^x", 0), TransformStrict, 23))
	LogOp        = Register(legacy(unaryDef("log", ndarray.Log, "ln x", 0), TransformStrict, 24))
	SqrtOp       = Register(legacy(unaryDef("sqrt", ndarray.Sqrt, "√x", 0), TransformFloat, 1))
	SquareOp     = Register(legacy(unaryDef("square", ndarray.Square, "x²", 0), TransformSame, 12))
	TanhOp       = Register(legacy(unaryDef("tanh", ndarray.Tanh, "tanh x", 0), TransformStrict, 29))
	SigmoidOp    = Register(legacy(unaryDef("sigmoid", ndarray.Sigmoid, "1/(1+e^-x)", 0), TransformStrict, 26))
	ReluOp       = Register(legacy(unaryDef("relu", ndarray.Relu, "max(x, 0)", 0), Scalar, 39))
	LeakyReluOp  = Register(legacy(unaryDef("leakyrelu", ndarray.LeakyRelu, "x if x > 0 else alpha*x; float arg 0 is alpha (default 0.01)", 0.01), Scalar, 35))
	SignOp       = Register(legacy(unaryDef("sign", ndarray.Sign, "-1, 0 or 1", 0), TransformSame, 1))
	ReciprocalOp = Register(unaryDef("reciprocal", ndarray.Reciprocal, "1/x", 0))
	FloorOp      = Register(legacy(unaryDef("floor", ndarray.Floor, "⌊x⌋", 0), TransformSame, 18))
	CeilOp       = Register(legacy(unaryDef("ceil", ndarray.Ceil, "⌈x⌉", 0), TransformSame, 17))
	RoundOp      = Register(legacy(unaryDef("round", ndarray.Round, "x rounded half away from zero", 0), TransformSame, 4))
	SinOp        = Register(legacy(unaryDef("sin", ndarray.Sin, "sin x", 0), TransformStrict, 27))
	CosOp        = Register(legacy(unaryDef("cos", ndarray.Cos, "cos x", 0), TransformStrict, 22))
	SoftplusOp   = Register(legacy(unaryDef("softplus", ndarray.Softplus, "ln(1+e^x)", 0), TransformStrict, 28))
	RsqrtOp      = Register(legacy(unaryDef("rsqrt", ndarray.Rsqrt, "1/√x", 0), TransformFloat, 3))
	Log1pOp      = Register(legacy(unaryDef("log1p", ndarray.Log1p, "ln(1+x)", 0), TransformStrict, 44))
	Expm1Op      = Register(unaryDef("expm1", ndarray.Expm1, "e^x - 1", 0))
	PowScalarOp  = Register(legacy(unaryDef("pow", ndarray.PowScalar, "x^p; float arg 0 is p", 1), Scalar, 31))
)

// legacy marks an op that SameDiff writes as a legacy op: a type and a number
// in libnd4j's legacy tables instead of a name hash.
func legacy(d *Def, t OpType, num int64) *Def {
	d.Type, d.Num = t, num
	return d
}
