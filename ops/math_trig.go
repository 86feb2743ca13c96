package ops

import (
	"fmt"
	"math"

	"github.com/sdgo/sdgo/ndarray"
)

// SameDiff's trigonometric and hyperbolic functions (SDMath tan, asin, ...,
// atanh: libnd4j's legacy transform-strict ops, float in and float out) and
// tf_atan2. Each runs its function over contiguous runs of elements
// (ndarray.MapFloatInto), in the input's dtype.

// mathFuncs lifts a float64 function to the slice functions MapFloatInto
// takes. Go's math package has float64 functions only: a float32 element is
// converted to float64, computed and rounded back to float32 one element at
// a time inside the loop; no float64 copy of the array is made.
func mathFuncs(f func(float64) float64) (ndarray.FloatFunc[float32], ndarray.FloatFunc[float64]) {
	return func(d, x []float32) {
			for i, v := range x {
				d[i] = float32(f(float64(v)))
			}
		}, func(d, x []float64) {
			for i, v := range x {
				d[i] = f(v)
			}
		}
}

// mathFuncs2 is mathFuncs for a function of two arguments.
func mathFuncs2(f func(x, y float64) float64) (ndarray.FloatFunc2[float32], ndarray.FloatFunc2[float64]) {
	return func(d, x, y []float32) {
			for i := range d {
				d[i] = float32(f(float64(x[i]), float64(y[i])))
			}
		}, func(d, x, y []float64) {
			for i := range d {
				d[i] = f(x[i], y[i])
			}
		}
}

// floatMapDef defines an op of one float input computing f elementwise,
// with the output in the input's dtype: a legacy op of type t and number
// num, or a custom op when t is Custom (num 0: Register fills the hash).
// No arguments.
func floatMapDef(name string, t OpType, num int64, doc string, f func(float64) float64, grad GradFunc) *Def {
	f32, f64 := mathFuncs(f)
	return &Def{
		Name: name, Type: t, Num: num, MinIn: 1, MaxIn: 1, Doc: doc, Grad: grad,
		Infer: func(in []Info, _ *Args) ([]Info, error) {
			if err := needFloat(name, in[0]); err != nil {
				return nil, err
			}
			return infos(same(in[0])), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
			out := c.Alloc(in[0].DType(), in[0].Shape())
			return one(out, ndarray.MapFloatInto(out, in[0], f32, f64))
		},
	}
}

// floatMap2Def defines a custom op of two float inputs of one dtype,
// broadcast against each other (numpy's rules), computing f elementwise.
func floatMap2Def(name, doc string, f func(x, y float64) float64, grad GradFunc) *Def {
	f32, f64 := mathFuncs2(f)
	return &Def{
		Name: name, Type: Custom, MinIn: 2, MaxIn: 2, Doc: doc, Grad: grad,
		Infer: func(in []Info, _ *Args) ([]Info, error) {
			if err := needFloat(name, in[0]); err != nil {
				return nil, err
			}
			o, err := BroadcastInfo(in[0], in[1])
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			return infos(o), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
			shape, err := ndarray.BroadcastShapes(in[0].Shape(), in[1].Shape())
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			out, err := c.TryAlloc(in[0].DType(), shape)
			if err != nil {
				return nil, err
			}
			return one(out, ndarray.MapFloat2Into(out, in[0], in[1], f32, f64))
		},
	}
}

// plus and minus add and subtract values of one dtype; one is the constant
// 1 of v's dtype.
func plus(b GradBuilder, x, y Value) Value  { return op1(b, "add", Args{}, x, y) }
func minus(b GradBuilder, x, y Value) Value { return op1(b, "subtract", Args{}, x, y) }
func one1(b GradBuilder, v Value) Value     { return scalarLike(b, v, 1) }
func sq(b GradBuilder, v Value) Value       { return op1(b, "square", Args{}, v) }

var (
	tanOp = Register(floatMapDef("tan", TransformStrict, 41, "tan x", math.Tan,
		fromXY(func(b GradBuilder, x, y Value) Value { return plus(b, one1(b, y), sq(b, y)) }))) // 1 + tan²x
	asinOp = Register(floatMapDef("asin", TransformStrict, 31, "arcsin x (NaN outside [-1, 1])", math.Asin,
		fromXY(func(b GradBuilder, x, y Value) Value { // 1/√(1-x²)
			return op1(b, "rsqrt", Args{}, minus(b, one1(b, x), sq(b, x)))
		})))
	acosOp = Register(floatMapDef("acos", TransformStrict, 30, "arccos x (NaN outside [-1, 1])", math.Acos,
		fromXY(func(b GradBuilder, x, y Value) Value { // -1/√(1-x²)
			return neg(b, op1(b, "rsqrt", Args{}, minus(b, one1(b, x), sq(b, x))))
		})))
	atanOp = Register(floatMapDef("atan", TransformStrict, 32, "arctan x", math.Atan,
		fromXY(func(b GradBuilder, x, y Value) Value { // 1/(1+x²)
			return op1(b, "Reciprocal", Args{}, plus(b, one1(b, x), sq(b, x)))
		})))
	sinhOp = Register(floatMapDef("sinh", TransformStrict, 39, "sinh x", math.Sinh,
		fromXY(func(b GradBuilder, x, y Value) Value { return op1(b, "cosh", Args{}, x) })))
	coshOp = Register(floatMapDef("cosh", TransformStrict, 40, "cosh x", math.Cosh,
		fromXY(func(b GradBuilder, x, y Value) Value { return op1(b, "sinh", Args{}, x) })))
	asinhOp = Register(floatMapDef("asinh", TransformStrict, 47, "arsinh x", math.Asinh,
		fromXY(func(b GradBuilder, x, y Value) Value { // 1/√(x²+1)
			return op1(b, "rsqrt", Args{}, plus(b, sq(b, x), one1(b, x)))
		})))
	acoshOp = Register(floatMapDef("acosh", TransformStrict, 46, "arcosh x (NaN below 1)", math.Acosh,
		fromXY(func(b GradBuilder, x, y Value) Value { // 1/√(x²-1)
			return op1(b, "rsqrt", Args{}, minus(b, sq(b, x), one1(b, x)))
		})))
	atanhOp = Register(floatMapDef("atanh", TransformStrict, 52, "artanh x (NaN outside [-1, 1], ±Inf at ±1)", math.Atanh,
		fromXY(func(b GradBuilder, x, y Value) Value { // 1/(1-x²)
			return op1(b, "Reciprocal", Args{}, minus(b, one1(b, x), sq(b, x)))
		})))

	// atan2Op is TensorFlow's atan2 as libnd4j's tf_atan2 takes it: input
	// 0 is y, input 1 is x, broadcast; the angle of the point (x, y).
	atan2Op = Register(floatMap2Def("tf_atan2", "atan2(y, x) for inputs y, x (broadcast): the angle of the point (x, y) in [-π, π]", math.Atan2,
		func(b GradBuilder, n GradNode, d []Value) []Value {
			// ∂/∂y = x/(x²+y²), ∂/∂x = -y/(x²+y²).
			y, x := n.In[0], n.In[1]
			r := div(b, d[0], plus(b, sq(b, x), sq(b, y)))
			gy := op1(b, "reduce_to_shape_of", Args{}, mul(b, r, x), y)
			gx := op1(b, "reduce_to_shape_of", Args{}, neg(b, mul(b, r, y)), x)
			return []Value{gy, gx}
		}))
)
