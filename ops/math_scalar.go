package ops

import (
	"fmt"
	"math"

	"github.com/sdgo/sdgo/ndarray"
)

// SameDiff's legacy scalar ops: what Java writes for x.add(2.0), x.rsub(1.0),
// sd.math().scalarMax(x, 0.5), x.gt(0.0) and the like. Each has one input,
// x; the number is float arg 0 (a file keeps it in FlatNode.scalar, in x's
// dtype) and is taken in x's dtype, as libnd4j takes it. The numbers are the
// ones Java writes and its LegacyOpMapper resolves (libnd4j's SCALAR and
// SCALAR_BOOL tables, but for lessthanorequal_scalar, which Java numbers 11).

// scalarOf returns an op's number (float arg 0) as a scalar of dt.
func scalarOf(name string, dt ndarray.DType, a *Args) (*ndarray.Array, error) {
	if a == nil || len(a.F) == 0 {
		return nil, fmt.Errorf("%s: no scalar (float arg 0)", name)
	}
	return ndarray.ScalarOf(dt, a.F[0])
}

// scalarDef defines a legacy scalar op computing x op s, or s op x when
// reverse is set.
func scalarDef(name string, num int64, op ndarray.BinaryOp, reverse bool, doc string, grad GradFunc) *Def {
	return &Def{
		Name: name, Type: Scalar, Num: num, MinIn: 1, MaxIn: 1, Doc: doc, Grad: grad,
		Infer: func(in []Info, a *Args) ([]Info, error) {
			if err := needNumeric(name, in[0]); err != nil {
				return nil, err
			}
			if len(a.F) == 0 {
				return nil, fmt.Errorf("%s: no scalar (float arg 0)", name)
			}
			return infos(same(in[0])), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			x := in[0]
			s, err := scalarOf(name, x.DType(), a)
			if err != nil {
				return nil, err
			}
			l, r := x, s
			if reverse {
				l, r = s, x
			}
			out := c.Alloc(x.DType(), x.Shape())
			return one(out, ndarray.BinaryInto(op, out, l, r))
		},
	}
}

// scalarCompareDef defines a legacy scalar comparison x op s, giving bools.
func scalarCompareDef(name string, num int64, op ndarray.CompareOp, doc string) *Def {
	return &Def{
		Name: name, Type: ScalarBool, Num: num, MinIn: 1, MaxIn: 1, Doc: doc,
		Infer: func(in []Info, a *Args) ([]Info, error) {
			if err := needNumeric(name, in[0]); err != nil {
				return nil, err
			}
			if len(a.F) == 0 {
				return nil, fmt.Errorf("%s: no scalar (float arg 0)", name)
			}
			o := same(in[0])
			o.DType = ndarray.Bool
			return infos(o), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			s, err := scalarOf(name, in[0].DType(), a)
			if err != nil {
				return nil, err
			}
			return one(compareFor(c, op, in[0], s))
		},
	}
}

// scalarArgs are the forward op's scalar, for a gradient op of the same
// family.
func scalarArgs(n GradNode) Args { return Args{F: []float64{n.Args.Float(0, 0)}} }

// scalarMaskGrad is the gradient of max_scalar or scalar_min: the output
// gradient where x was kept (cmp, a scalar comparison, is true), else 0.
func scalarMaskGrad(cmp string) GradFunc {
	return func(b GradBuilder, n GradNode, d []Value) []Value {
		x := n.In[0]
		m := op1(b, "cast", Args{D: []ndarray.DType{x.Info().DType}}, op1(b, cmp, scalarArgs(n), x))
		return []Value{mul(b, d[0], m)}
	}
}

var (
	addScalarOp = Register(scalarDef("add_scalar", 0, ndarray.Add, false, "x + s",
		func(b GradBuilder, n GradNode, d []Value) []Value { return []Value{d[0]} }))
	subScalarOp = Register(scalarDef("sub_scalar", 1, ndarray.Sub, false, "x - s",
		func(b GradBuilder, n GradNode, d []Value) []Value { return []Value{d[0]} }))
	mulScalarOp = Register(scalarDef("mul_scalar", 2, ndarray.Mul, false, "x · s",
		func(b GradBuilder, n GradNode, d []Value) []Value {
			return []Value{op1(b, "mul_scalar", scalarArgs(n), d[0])}
		}))
	divScalarOp = Register(scalarDef("div_scalar", 3, ndarray.Div, false, "x / s (integers truncate; integer division by zero is an error)",
		func(b GradBuilder, n GradNode, d []Value) []Value {
			return []Value{op1(b, "div_scalar", scalarArgs(n), d[0])}
		}))
	rdivScalarOp = Register(scalarDef("rdiv_scalar", 4, ndarray.Div, true, "s / x (integers truncate; integer division by zero is an error)",
		func(b GradBuilder, n GradNode, d []Value) []Value {
			// d(s/x)/dx = -s/x² = -y/x.
			return []Value{neg(b, mul(b, d[0], div(b, n.Out[0], n.In[0])))}
		}))
	rsubScalarOp = Register(scalarDef("rsub_scalar", 5, ndarray.Sub, true, "s - x",
		func(b GradBuilder, n GradNode, d []Value) []Value { return []Value{neg(b, d[0])} }))
	maxScalarOp = Register(scalarDef("max_scalar", 6, ndarray.Maximum, false, "the larger of x and s (NaN wins)",
		scalarMaskGrad("greaterthanorequal_scalar"))) // ties go to x, as maximum's
	minScalarOp = Register(scalarDef("scalar_min", 13, ndarray.Minimum, false, "the smaller of x and s (NaN wins)",
		scalarMaskGrad("lessthanorequal_scalar")))

	equalsScalarOp       = Register(scalarCompareDef("equals_scalar", 0, ndarray.Eq, "x == s"))
	greaterScalarOp      = Register(scalarCompareDef("greaterthan_scalar", 1, ndarray.Gt, "x > s"))
	lessScalarOp         = Register(scalarCompareDef("lessthan_scalar", 2, ndarray.Lt, "x < s"))
	greaterEqualScalarOp = Register(scalarCompareDef("greaterthanorequal_scalar", 4, ndarray.Ge, "x >= s"))
	notEqualsScalarOp    = Register(scalarCompareDef("notequals_scalar", 6, ndarray.Ne, "x != s"))
	lessEqualScalarOp    = Register(scalarCompareDef("lessthanorequal_scalar", 11, ndarray.Le, "x <= s"))
)

// scalarFloatDef defines a legacy scalar op of a float x computing f(x, s)
// elementwise, s float arg 0 taken in x's dtype (rounded to float32 for a
// float32 x).
func scalarFloatDef(name string, num int64, doc string, f func(x, s float64) float64, grad GradFunc) *Def {
	return &Def{
		Name: name, Type: Scalar, Num: num, MinIn: 1, MaxIn: 1, Doc: doc, Grad: grad,
		Infer: func(in []Info, a *Args) ([]Info, error) {
			if err := needFloat(name, in[0]); err != nil {
				return nil, err
			}
			if len(a.F) == 0 {
				return nil, fmt.Errorf("%s: no scalar (float arg 0)", name)
			}
			return infos(same(in[0])), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			if a == nil || len(a.F) == 0 {
				return nil, fmt.Errorf("%s: no scalar (float arg 0)", name)
			}
			s := a.F[0]
			if in[0].DType() == ndarray.Float32 {
				s = float64(float32(s))
			}
			f32, f64 := mathFuncs(func(x float64) float64 { return f(x, s) })
			out := c.Alloc(in[0].DType(), in[0].Shape())
			return one(out, ndarray.MapFloatInto(out, in[0], f32, f64))
		},
	}
}

// intScalarInto writes f(x, s) into out (a fresh packed array of x's
// integer dtype) for every element of x; f's false is an error.
func intScalarInto[T int32 | int64](out, x *ndarray.Array, s T, f func(a, b T) (T, bool)) bool {
	d := ndarray.Raw[T](out)[out.Offset() : out.Offset()+out.Size()]
	for i, v := range ndarray.Values[T](x) {
		r, ok := f(v, s)
		if !ok {
			return false
		}
		d[i] = r
	}
	return true
}

var (
	// logXOp is log base s of x: ln x / ln s (SDMath log(x, base)).
	logXOp = Register(scalarFloatDef("log_x", 38, "log base s of x, ln x / ln s; s is float arg 0",
		func(x, s float64) float64 { return math.Log(x) / math.Log(s) },
		func(b GradBuilder, n GradNode, d []Value) []Value {
			// d/dx = 1/(x ln s).
			x := n.In[0]
			return []Value{div(b, d[0], mul(b, x, scalarLike(b, x, math.Log(n.Args.Float(0, math.E)))))}
		}))

	// stepOp is 1 where x > s, else 0, in x's dtype (libnd4j's Step).
	stepOp = Register(&Def{
		Name: "step", Type: Scalar, Num: 41, MinIn: 1, MaxIn: 1, Doc: "1 where x > s, else 0, in x's dtype; s is float arg 0",
		Infer: func(in []Info, a *Args) ([]Info, error) {
			if err := needNumeric("step", in[0]); err != nil {
				return nil, err
			}
			if len(a.F) == 0 {
				return nil, fmt.Errorf("step: no scalar (float arg 0)")
			}
			return infos(same(in[0])), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			s, err := scalarOf("step", in[0].DType(), a)
			if err != nil {
				return nil, err
			}
			m, err := compareFor(c, ndarray.Gt, in[0], s)
			if err != nil {
				return nil, fmt.Errorf("step: %w", err)
			}
			defer c.Release(m)
			out := c.Alloc(in[0].DType(), in[0].Shape())
			return one(out, ndarray.CastInto(out, m))
		},
		Grad: zeroGrad,
	})

	// fmodScalarOp is C's fmod(x, s): x - trunc(x/s)·s, with the sign of
	// x (SDMath floorMod(x, s) writes it, despite its name).
	fmodScalarOp = Register(&Def{
		Name: "fmod_scalar", Type: Scalar, Num: 18, MinIn: 1, MaxIn: 1,
		Doc: "fmod(x, s) = x - trunc(x/s)·s, with the sign of x (C's fmod; integers: x % s, s = 0 an error); s is float arg 0",
		Infer: func(in []Info, a *Args) ([]Info, error) {
			if err := needNumeric("fmod_scalar", in[0]); err != nil {
				return nil, err
			}
			if len(a.F) == 0 {
				return nil, fmt.Errorf("fmod_scalar: no scalar (float arg 0)")
			}
			return infos(same(in[0])), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			x := in[0]
			if a == nil || len(a.F) == 0 {
				return nil, fmt.Errorf("fmod_scalar: no scalar (float arg 0)")
			}
			s := a.F[0]
			out := c.Alloc(x.DType(), x.Shape())
			ok := true
			switch x.DType() {
			case ndarray.Float32:
				// fmod is exact, so fmod of float32 values taken in
				// float64 is the float32 fmod.
				s32 := float64(float32(s))
				return one(out, ndarray.MapFloatInto(out, x, func(d, v []float32) {
					for i, e := range v {
						d[i] = float32(math.Mod(float64(e), s32))
					}
				}, nil))
			case ndarray.Float64:
				return one(out, ndarray.MapFloatInto(out, x, nil, func(d, v []float64) {
					for i, e := range v {
						d[i] = math.Mod(e, s)
					}
				}))
			case ndarray.Int32:
				ok = intScalarInto(out, x, int32(s), intMod[int32])
			case ndarray.Int64:
				ok = intScalarInto(out, x, int64(s), intMod[int64])
			default:
				return nil, fmt.Errorf("fmod_scalar needs a numeric input, not %v", x.DType())
			}
			if !ok {
				return nil, fmt.Errorf("fmod_scalar: integer division by zero (the scalar %v is 0 in %v)", s, x.DType())
			}
			return one(out, nil)
		},
		// fmod(x, s) - x is piecewise constant: ∂/∂x = 1 away from the jumps.
		Grad: func(b GradBuilder, n GradNode, d []Value) []Value { return []Value{d[0]} },
	})
)
