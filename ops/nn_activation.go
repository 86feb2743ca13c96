package ops

import (
	"fmt"
	"math"
	"slices"

	"github.com/sdgo/sdgo/kernels"
	"github.com/sdgo/sdgo/ndarray"
)

// SameDiff's activations beyond nn.go's (SDNN, and SDMath's cube,
// rational_tanh and rectified_tanh), with the derivative ops and libnd4j's
// _bp ops that files may name.
//
// Most are libnd4j legacy transforms (TRANSFORM_STRICT: a float input, an
// output of its dtype and shape). Their formulas are libnd4j's (ops.h,
// templatemath.h), constants included: where libnd4j writes a float
// literal (1.702f, 0.2f, 1.7159f) a float64 input sees that float32
// value widened, as libnd4j's double kernels do. Where libnd4j's formula
// overflows for large |x| (e^x in swish's and mish's derivatives) sdgo
// evaluates the same function in a form that does not.
//
// The elementwise functions run on float32 data in float32 (the vector
// Exp, Tanh and Sigmoid of package kernels on blocks of elements), but for
// the few that need log1p or expm1 (elu, selu, mish, logsigmoid): those
// compute each element in float64, as Go's math has no float32 log1p or
// expm1, and round it once.

// fl is the element type of the activations.
type fl interface{ float32 | float64 }

// actBlock is the length of the blocks an activation computes at a time,
// with scratch of that length.
const actBlock = 256

// actK computes an activation (or a derivative) on a block: d[i] = f(x[i])
// with parameter p, t scratch of len(d). d may be x.
type actK[T fl] func(tab *kernels.Table[T], p T, d, x, t []T)

// actFn is an elementwise function in both float dtypes.
type actFn struct {
	f32 actK[float32]
	f64 actK[float64]
}

func fnOf(f32 actK[float32], f64 actK[float64]) actFn { return actFn{f32, f64} }

// mapBlocks adapts k to ndarray's FloatFunc: blocks of actBlock elements,
// scratch allocated on first use.
func mapBlocks[T fl](tab *kernels.Table[T], k actK[T], p T) ndarray.FloatFunc[T] {
	var t []T
	return func(d, x []T) {
		if t == nil {
			t = make([]T, actBlock)
		}
		for len(d) > 0 {
			n := min(len(d), actBlock)
			k(tab, p, d[:n], x[:n], t[:n])
			d, x = d[n:], x[n:]
		}
	}
}

// gradBlocks computes d[i] = g[i]·k(x[i]), a _bp op's gradient.
func gradBlocks[T fl](tab *kernels.Table[T], k actK[T], p T) ndarray.FloatFunc2[T] {
	var t, u []T
	return func(d, x, g []T) {
		if t == nil {
			t, u = make([]T, actBlock), make([]T, actBlock)
		}
		for len(d) > 0 {
			n := min(len(d), actBlock)
			k(tab, p, t[:n], x[:n], u[:n])
			tab.Mul(d[:n], t[:n], g[:n])
			d, x, g = d[n:], x[n:], g[n:]
		}
	}
}

// apply writes f(x) into out, x a float32 or float64 array.
func (f actFn) apply(out, x *ndarray.Array, p float64) error {
	return ndarray.MapFloatInto(out, x, mapBlocks(kernels.F32, f.f32, float32(p)), mapBlocks(kernels.F64, f.f64, p))
}

// applyGrad writes g·f(x) into out, x and g of one dtype and shape.
func (f actFn) applyGrad(out, x, g *ndarray.Array, p float64) error {
	return ndarray.MapFloat2Into(out, x, g, gradBlocks(kernels.F32, f.f32, float32(p)), gradBlocks(kernels.F64, f.f64, p))
}

// actInfer accepts one float input and gives its dtype and shape.
func actInfer(name string) func(in []Info, _ *Args) ([]Info, error) {
	return func(in []Info, _ *Args) ([]Info, error) {
		if err := needFloat(name, in[0]); err != nil {
			return nil, err
		}
		return infos(same(in[0])), nil
	}
}

// actDef defines an elementwise activation of one float input: a legacy op
// (type t, number num) or, with t Custom, a custom one. Float arg 0 is the
// parameter p (def when absent), for the ops that have one.
func actDef(name string, t OpType, num int64, doc string, f actFn, def float64, grad GradFunc) *Def {
	return &Def{
		Name: name, Type: t, Num: num, MinIn: 1, MaxIn: 1, Doc: doc, Grad: grad,
		Infer: actInfer(name),
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			x := in[0]
			if !softmaxable(x) {
				return nil, fmt.Errorf("%s needs a float32 or float64 input, not %v", name, x.DType())
			}
			out := c.Alloc(x.DType(), x.Shape())
			return one(out, f.apply(out, x, a.Float(0, def)))
		},
	}
}

// actBpDef defines a _bp op: inputs x and gradO (x's dtype and shape),
// output gradO·f'(x), f' computed by der; float arg 0 is der's parameter
// (def when absent).
func actBpDef(name, doc string, der actFn, def float64) *Def {
	return gradOfInput(bpDef(name, 1, doc, func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x, g := in[0], in[1]
		if !softmaxable(x) || x.DType() != g.DType() || !ndarray.SameShape(x.Shape(), g.Shape()) {
			return nil, fmt.Errorf("%s: input %v%v and gradient %v%v: want float32 or float64 arrays of one dtype and shape",
				name, x.DType(), x.Shape(), g.DType(), g.Shape())
		}
		out := c.Alloc(x.DType(), x.Shape())
		return one(out, der.applyGrad(out, x, g, a.Float(0, def)))
	}))
}

// derivGrad is the rule dL/dx = dL/dy · der(x), der a derivative op.
func derivGrad(der string) GradFunc {
	return func(b GradBuilder, n GradNode, d []Value) []Value {
		return []Value{mul(b, d[0], op1(b, der, Args{}, n.In[0]))}
	}
}

// ---------------------------------------------------------------- kernels

// f32c is the float32 value of a float literal libnd4j writes with an f
// suffix, in T.
func f32c[T fl](v float32) T { return T(v) }

// eachF64 computes d[i] = f(x[i]) in float64, rounding once: for the
// functions that need Go's float64-only log1p or expm1.
func eachF64[T fl](d, x []T, f func(float64) float64) {
	x = x[:len(d)]
	for i := range d {
		d[i] = T(f(float64(x[i])))
	}
}

// geluK is x·σ(1.702x) (libnd4j's GELU, the sigmoid approximation).
func geluK[T fl](tab *kernels.Table[T], _ T, d, x, t []T) {
	tab.Scale(t, x, f32c[T](1.702))
	tab.Sigmoid(t, t)
	tab.Mul(d, x, t)
}

// geluDerK is d/dx x·σ(kx) = σ(kx) + kx·σ(kx)(1-σ(kx)), k = 1.702:
// libnd4j's GELUDerivative, e^kx(1+e^kx+kx)/(1+e^kx)², without its
// overflow.
func geluDerK[T fl](tab *kernels.Table[T], _ T, d, x, t []T) {
	k := f32c[T](1.702)
	tab.Scale(t, x, k)
	tab.Sigmoid(t, t)
	x = x[:len(d)]
	for i := range d {
		s := t[i]
		d[i] = s + k*x[i]*s*(1-s)
	}
}

// The constants of precise_gelu and its derivative, as libnd4j writes them.
const (
	preciseGeluC  = 0.044715
	seluAlpha     = 1.6732632423543772848170429916717
	seluLambda    = 1.0507009873554804934193349852946
	rtanhA        = float32(1.7159)
	rtanhB        = float32(1.41645)
	hardSigSlope  = float32(0.2)
	hardSigOffset = float32(0.5)
)

// preciseGeluK is libnd4j's PreciseGELU: x/2·(1+tanh(√(2/π)·(x+(cx)³))),
// c = 0.044715. libnd4j cubes c·x, not x alone (the usual tanh form is
// x+c·x³); sdgo computes what libnd4j computes.
func preciseGeluK[T fl](tab *kernels.Table[T], _ T, d, x, t []T) {
	sp := T(math.Sqrt(2 / math.Pi))
	c := T(preciseGeluC)
	x = x[:len(d)]
	for i := range d {
		cx := c * x[i]
		t[i] = sp * (x[i] + cx*cx*cx)
	}
	tab.Tanh(t, t)
	for i := range d {
		d[i] = x[i] / 2 * (1 + t[i])
	}
}

// preciseGeluDerK is libnd4j's PreciseGELUDerivative, as it writes it:
// 0.5 + (0.398942x + (0.0535161x)³)·sech²(u) + 0.5·tanh(u) with
// u = 0.797885x + (0.0356774x)³. It is not the derivative of preciseGeluK
// (sdgo's gradient rule of precise_gelu is); files may name it, and get
// libnd4j's values.
func preciseGeluDerK[T fl](tab *kernels.Table[T], _ T, d, x, t []T) {
	x = x[:len(d)]
	for i := range d {
		a := T(0.0356774) * x[i]
		t[i] = T(0.797885)*x[i] + a*a*a
	}
	tab.Tanh(t, t)
	for i := range d {
		b := T(0.0535161) * x[i]
		d[i] = 0.5 + (T(0.398942)*x[i]+b*b*b)*(1-t[i]*t[i]) + 0.5*t[i]
	}
}

// swishK is x·σ(x).
func swishK[T fl](tab *kernels.Table[T], _ T, d, x, t []T) {
	tab.Sigmoid(t, x)
	tab.Mul(d, x, t)
}

// swishDerK is σ(x) + x·σ(x)(1-σ(x)): libnd4j's SwishDerivative
// e^x(x+e^x+1)/(e^x+1)², without its overflow.
func swishDerK[T fl](tab *kernels.Table[T], _ T, d, x, t []T) {
	tab.Sigmoid(t, x)
	x = x[:len(d)]
	for i := range d {
		s := t[i]
		d[i] = s + x[i]*s*(1-s)
	}
}

// softplus64 is ln(1+e^x), without overflow.
func softplus64(x float64) float64 { return math.Max(x, 0) + math.Log1p(math.Exp(-math.Abs(x))) }

// mishK is x·tanh(softplus(x)), in float64 per element (log1p).
func mishK[T fl](_ *kernels.Table[T], _ T, d, x, _ []T) {
	eachF64(d, x, func(v float64) float64 { return v * math.Tanh(softplus64(v)) })
}

// mishDerK is tanh(sp) + x·sech²(sp)·σ(x), sp = softplus(x): the function
// of libnd4j's MishDerivative, written without its e^3x, in float64 per
// element.
func mishDerK[T fl](_ *kernels.Table[T], _ T, d, x, _ []T) {
	eachF64(d, x, func(v float64) float64 {
		th := math.Tanh(softplus64(v))
		return th + v*(1-th*th)*sigmoid64(v)
	})
}

func sigmoid64(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// logSigmoidK is ln σ(x) = -softplus(-x) (libnd4j's log(sigmoid(x)),
// without its -Inf for large negative x), in float64 per element (log1p).
func logSigmoidK[T fl](_ *kernels.Table[T], _ T, d, x, _ []T) {
	eachF64(d, x, func(v float64) float64 { return -softplus64(-v) })
}

// eluK is x for x >= 0, else alpha·(e^x-1) (expm1: float64 per element).
func eluK[T fl](_ *kernels.Table[T], alpha T, d, x, _ []T) {
	a := float64(alpha)
	eachF64(d, x, func(v float64) float64 {
		if v >= 0 {
			return v
		}
		return a * math.Expm1(v)
	})
}

// eluDerK is 1 for x >= 0, else alpha·e^x.
func eluDerK[T fl](tab *kernels.Table[T], alpha T, d, x, t []T) {
	tab.Exp(t, x)
	x = x[:len(d)]
	for i := range d {
		if x[i] >= 0 {
			d[i] = 1
		} else {
			d[i] = alpha * t[i]
		}
	}
}

// seluK is λx for x > 0, else λα(e^x-1) (expm1: float64 per element).
func seluK[T fl](_ *kernels.Table[T], _ T, d, x, _ []T) {
	eachF64(d, x, func(v float64) float64 {
		if v > 0 {
			return float64(T(seluLambda)) * v
		}
		return float64(T(seluLambda)) * float64(T(seluAlpha)) * math.Expm1(v)
	})
}

// seluDerK is λ for x > 0, else λα·e^x.
func seluDerK[T fl](tab *kernels.Table[T], _ T, d, x, t []T) {
	tab.Exp(t, x)
	x = x[:len(d)]
	for i := range d {
		if x[i] > 0 {
			d[i] = T(seluLambda)
		} else {
			d[i] = T(seluAlpha) * T(seluLambda) * t[i]
		}
	}
}

// hardTanhK clamps x to [-1, 1] (NaN stays).
func hardTanhK[T fl](_ *kernels.Table[T], _ T, d, x, _ []T) {
	x = x[:len(d)]
	for i := range d {
		switch v := x[i]; {
		case v < -1:
			d[i] = -1
		case v > 1:
			d[i] = 1
		default:
			d[i] = v
		}
	}
}

// hardTanhDerK is 1 for -1 <= x <= 1, else 0.
func hardTanhDerK[T fl](_ *kernels.Table[T], _ T, d, x, _ []T) {
	x = x[:len(d)]
	for i := range d {
		if x[i] >= -1 && x[i] <= 1 {
			d[i] = 1
		} else {
			d[i] = 0
		}
	}
}

// hardSigmoidK is min(1, max(0, 0.2x+0.5)).
func hardSigmoidK[T fl](_ *kernels.Table[T], _ T, d, x, _ []T) {
	x = x[:len(d)]
	for i := range d {
		v := f32c[T](hardSigSlope)*x[i] + f32c[T](hardSigOffset)
		d[i] = min(1, max(0, v))
	}
}

// hardSigmoidDerK is 0 for x < -2.5 or x > 2.5, else 0.2.
func hardSigmoidDerK[T fl](_ *kernels.Table[T], _ T, d, x, _ []T) {
	x = x[:len(d)]
	for i := range d {
		if x[i] < -2.5 || x[i] > 2.5 {
			d[i] = 0
		} else {
			d[i] = f32c[T](hardSigSlope)
		}
	}
}

// softsignK is x/(1+|x|).
func softsignK[T fl](_ *kernels.Table[T], _ T, d, x, _ []T) {
	x = x[:len(d)]
	for i := range d {
		d[i] = x[i] / (1 + abs(x[i]))
	}
}

// softsignDerK is 1/(1+|x|)².
func softsignDerK[T fl](_ *kernels.Table[T], _ T, d, x, _ []T) {
	x = x[:len(d)]
	for i := range d {
		s := 1 + abs(x[i])
		d[i] = 1 / (s * s)
	}
}

func abs[T fl](v T) T {
	if v < 0 {
		return -v
	}
	return v
}

func sgn[T fl](v T) T {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// rationalTanhK is libnd4j's RationalTanh: 1.7159·sgn(z)·(1 - 1/(1+|z|+z²
// +1.41645z⁴)), z = 2x/3.
func rationalTanhK[T fl](_ *kernels.Table[T], _ T, d, x, _ []T) {
	x = x[:len(d)]
	for i := range d {
		z := T(2) / T(3) * x[i]
		z2 := z * z
		d[i] = f32c[T](rtanhA) * sgn(z) * (1 - 1/(1+abs(z)+z2+f32c[T](rtanhB)*z2*z2))
	}
}

// rationalTanhDerK is libnd4j's RationalTanhDerivative: 1.7159·(2/3)·(1 +
// sgn(z)(2z+4·1.41645z³))/a², a the denominator above.
func rationalTanhDerK[T fl](_ *kernels.Table[T], _ T, d, x, _ []T) {
	x = x[:len(d)]
	for i := range d {
		z := T(2) / T(3) * x[i]
		z2 := z * z
		a := 1 + abs(z) + z2 + f32c[T](rtanhB)*z2*z2
		d[i] = f32c[T](rtanhA) * (T(2) / T(3)) * (1 + sgn(z)*(2*z+4*f32c[T](rtanhB)*z2*z)) / (a * a)
	}
}

// rectifiedTanhK is max(0, tanh x).
func rectifiedTanhK[T fl](tab *kernels.Table[T], _ T, d, x, _ []T) {
	tab.Tanh(d, x)
	for i := range d {
		d[i] = max(0, d[i])
	}
}

// rectifiedTanhDerK is 1 - tanh²x for x > 0, else 0.
func rectifiedTanhDerK[T fl](tab *kernels.Table[T], _ T, d, x, t []T) {
	tab.Tanh(t, x)
	x = x[:len(d)]
	for i := range d {
		if x[i] > 0 {
			d[i] = 1 - t[i]*t[i]
		} else {
			d[i] = 0
		}
	}
}

// cubeDerK is 3x².
func cubeDerK[T fl](_ *kernels.Table[T], _ T, d, x, _ []T) {
	x = x[:len(d)]
	for i := range d {
		d[i] = 3 * x[i] * x[i]
	}
}

// relu6K is libnd4j's RELU6 with cutoff s: r = x < s ? s : x, then
// r < 6 ? r : 6 (so NaN gives 6, as there).
func relu6K[T fl](_ *kernels.Table[T], s T, d, x, _ []T) {
	x = x[:len(d)]
	for i := range d {
		r := x[i]
		if r < s {
			r = s
		}
		if !(r < 6) {
			r = 6
		}
		d[i] = r
	}
}

// relu6DerK is 1 for s < x < 6, else 0 (s the cutoff; libnd4j's relu6_bp
// takes no cutoff and uses 0).
func relu6DerK[T fl](_ *kernels.Table[T], s T, d, x, _ []T) {
	x = x[:len(d)]
	for i := range d {
		if x[i] > s && x[i] < 6 {
			d[i] = 1
		} else {
			d[i] = 0
		}
	}
}

// leakyReluDerK is 1 for x >= 0, else alpha.
func leakyReluDerK[T fl](_ *kernels.Table[T], alpha T, d, x, _ []T) {
	x = x[:len(d)]
	for i := range d {
		if x[i] >= 0 {
			d[i] = 1
		} else {
			d[i] = alpha
		}
	}
}

// thresholdReluK is x for x > theta, else 0.
func thresholdReluK[T fl](_ *kernels.Table[T], theta T, d, x, _ []T) {
	x = x[:len(d)]
	for i := range d {
		if x[i] > theta {
			d[i] = x[i]
		} else {
			d[i] = 0
		}
	}
}

// thresholdReluDerK is 1 for x > theta, else 0.
func thresholdReluDerK[T fl](_ *kernels.Table[T], theta T, d, x, _ []T) {
	x = x[:len(d)]
	for i := range d {
		if x[i] > theta {
			d[i] = 1
		} else {
			d[i] = 0
		}
	}
}

// ---------------------------------------------------------------- the ops

var (
	geluFn          = fnOf(geluK[float32], geluK[float64])
	geluDerFn       = fnOf(geluDerK[float32], geluDerK[float64])
	preciseGeluFn   = fnOf(preciseGeluK[float32], preciseGeluK[float64])
	preciseGeluDer  = fnOf(preciseGeluDerK[float32], preciseGeluDerK[float64])
	swishFn         = fnOf(swishK[float32], swishK[float64])
	swishDerFn      = fnOf(swishDerK[float32], swishDerK[float64])
	mishFn          = fnOf(mishK[float32], mishK[float64])
	mishDerFn       = fnOf(mishDerK[float32], mishDerK[float64])
	logSigmoidFn    = fnOf(logSigmoidK[float32], logSigmoidK[float64])
	eluFn           = fnOf(eluK[float32], eluK[float64])
	eluDerFn        = fnOf(eluDerK[float32], eluDerK[float64])
	seluFn          = fnOf(seluK[float32], seluK[float64])
	seluDerFn       = fnOf(seluDerK[float32], seluDerK[float64])
	hardTanhFn      = fnOf(hardTanhK[float32], hardTanhK[float64])
	hardTanhDerFn   = fnOf(hardTanhDerK[float32], hardTanhDerK[float64])
	hardSigmoidFn   = fnOf(hardSigmoidK[float32], hardSigmoidK[float64])
	hardSigDerFn    = fnOf(hardSigmoidDerK[float32], hardSigmoidDerK[float64])
	softsignFn      = fnOf(softsignK[float32], softsignK[float64])
	softsignDerFn   = fnOf(softsignDerK[float32], softsignDerK[float64])
	rationalTanhFn  = fnOf(rationalTanhK[float32], rationalTanhK[float64])
	rationalTanhDer = fnOf(rationalTanhDerK[float32], rationalTanhDerK[float64])
	rectTanhFn      = fnOf(rectifiedTanhK[float32], rectifiedTanhK[float64])
	rectTanhDerFn   = fnOf(rectifiedTanhDerK[float32], rectifiedTanhDerK[float64])
	cubeDerFn       = fnOf(cubeDerK[float32], cubeDerK[float64])
	relu6Fn         = fnOf(relu6K[float32], relu6K[float64])
	relu6DerFn      = fnOf(relu6DerK[float32], relu6DerK[float64])
	leakyReluDerFn  = fnOf(leakyReluDerK[float32], leakyReluDerK[float64])
	threshReluFn    = fnOf(thresholdReluK[float32], thresholdReluK[float64])
	threshReluDerFn = fnOf(thresholdReluDerK[float32], thresholdReluDerK[float64])
)

// Activations of one float input without arguments: legacy transforms.
var (
	geluOp = Register(actDef("gelu", TransformStrict, 53, "x·σ(1.702x) (GELU, sigmoid approximation)", geluFn, 0,
		derivGrad("_geluderivative")))
	preciseGeluOp = Register(actDef("precise_gelu", TransformStrict, 55,
		"x/2·(1+tanh(√(2/π)·(x+(0.044715x)³))) (libnd4j's tanh-form GELU, which cubes 0.044715x)", preciseGeluFn, 0,
		preciseGeluGrad))
	swishOp      = Register(actDef("swish", TransformStrict, 43, "x·σ(x)", swishFn, 0, derivGrad("_swishderivative")))
	mishOp       = Register(actDef("mish", TransformStrict, 57, "x·tanh(ln(1+e^x))", mishFn, 0, derivGrad("_mishderivative")))
	logSigmoidOp = Register(actDef("logsigmoid", TransformStrict, 49, "ln σ(x) = -ln(1+e^-x)", logSigmoidFn, 0,
		func(b GradBuilder, n GradNode, d []Value) []Value {
			// d/dx ln σ(x) = 1 - σ(x) = σ(-x).
			return []Value{mul(b, d[0], op1(b, "sigmoid", Args{}, neg(b, n.In[0])))}
		}))
	seluOp = Register(actDef("selu", TransformStrict, 42, "λx for x > 0, else λα(e^x-1); α = 1.6732632…, λ = 1.0507009…", seluFn, 0,
		bpOp("selu_bp")))
	hardTanhOp    = Register(actDef("hardtanh", TransformStrict, 33, "x clamped to [-1, 1]", hardTanhFn, 0, bpOp("hardtanh_bp")))
	hardSigmoidOp = Register(actDef("hard_sigmoid", TransformStrict, 36, "min(1, max(0, 0.2x+0.5))", hardSigmoidFn, 0,
		bpOp("hardsigmoid_bp")))
	softsignOp     = Register(actDef("softsign", TransformStrict, 34, "x/(1+|x|)", softsignFn, 0, bpOp("softsign_bp")))
	rationalTanhOp = Register(actDef("rational_tanh", TransformStrict, 37,
		"1.7159·sgn(z)·(1-1/(1+|z|+z²+1.41645z⁴)), z = 2x/3 (a rational approximation of 1.7159·tanh(2x/3))", rationalTanhFn, 0,
		bpOp("rationaltanh_bp")))
	rectifiedTanhOp = Register(actDef("rectified_tanh", TransformStrict, 38, "max(0, tanh x)", rectTanhFn, 0, bpOp("rectifiedtanh_bp")))
)

// preciseGeluGrad is the derivative of what precise_gelu computes (not
// libnd4j's _precise_geluderivative, which differs): with c = 0.044715³,
// s = √(2/π), t = tanh(s(x+cx³)),
// f'(x) = (1+t)/2 + x/2·(1-t²)·s·(1+3cx²).
func preciseGeluGrad(b GradBuilder, n GradNode, d []Value) []Value {
	x := n.In[0]
	c := preciseGeluC * preciseGeluC * preciseGeluC
	s := math.Sqrt(2 / math.Pi)
	sc := func(op string, v Value, k float64) Value { return op1(b, op, Args{F: []float64{k}}, v) }
	x2 := op1(b, "square", Args{}, x)
	u := sc("mul_scalar", op1(b, "add", Args{}, x, sc("mul_scalar", mul(b, x2, x), c)), s)
	t := op1(b, "tanh", Args{}, u)
	first := sc("mul_scalar", sc("add_scalar", t, 1), 0.5)
	sech2 := sc("rsub_scalar", op1(b, "square", Args{}, t), 1)
	inner := sc("add_scalar", sc("mul_scalar", x2, 3*c), 1)
	second := mul(b, mul(b, x, sech2), sc("mul_scalar", inner, s/2))
	return []Value{mul(b, d[0], op1(b, "add", Args{}, first, second))}
}

// The derivative ops files may name (legacy transforms, and leakyrelu's
// legacy scalar op): f'(x) without the output gradient. SameDiff writes
// them in gradient graphs of its own; Java's LegacyOpMapper cannot load
// mish's (TRANSFORM_STRICT 58) nor leakyreluderivative (SCALAR 36), sdgo
// runs them all. They have no gradient of their own.
var (
	geluDerOp        = Register(actDef("_geluderivative", TransformStrict, 54, "d/dx of gelu: σ(1.702x)+1.702x·σ(1.702x)(1-σ(1.702x))", geluDerFn, 0, nil))
	preciseGeluDerOp = Register(actDef("_precise_geluderivative", TransformStrict, 56,
		"libnd4j's precise-GELU derivative: 0.5+(0.398942x+(0.0535161x)³)·sech²(u)+0.5·tanh u, u = 0.797885x+(0.0356774x)³", preciseGeluDer, 0, nil))
	swishDerOp         = Register(actDef("_swishderivative", TransformStrict, 13, "d/dx of swish: σ(x)+x·σ(x)(1-σ(x))", swishDerFn, 0, nil))
	mishDerOp          = Register(actDef("_mishderivative", TransformStrict, 58, "d/dx of mish", mishDerFn, 0, nil))
	seluDerOp          = Register(actDef("seluderivative", TransformStrict, 9, "d/dx of selu: λ for x > 0, else λα·e^x", seluDerFn, 0, nil))
	hardTanhDerOp      = Register(actDef("hardtanhderivative", TransformStrict, 5, "d/dx of hardtanh: 1 for -1 <= x <= 1, else 0", hardTanhDerFn, 0, nil))
	hardSigmoidDerOp   = Register(actDef("hard_sigmoidderivative", TransformStrict, 10, "d/dx of hard_sigmoid: 0.2 for -2.5 <= x <= 2.5, else 0", hardSigDerFn, 0, nil))
	softsignDerOp      = Register(actDef("softsignderivative", TransformStrict, 7, "d/dx of softsign: 1/(1+|x|)²", softsignDerFn, 0, nil))
	rationalTanhDerOp  = Register(actDef("rational_tanh_derivative", TransformStrict, 11, "d/dx of rational_tanh", rationalTanhDer, 0, nil))
	rectifiedTanhDerOp = Register(actDef("rectified_tanh_derivative", TransformStrict, 12, "d/dx of rectified_tanh: 1-tanh²x for x > 0, else 0", rectTanhDerFn, 0, nil))
	cubeDerOp          = Register(actDef("cubederivative", TransformStrict, 21, "d/dx of cube: 3x²", cubeDerFn, 0, nil))
	leakyReluDerOp     = Register(actDef("leakyreluderivative", Scalar, 36, "d/dx of leakyrelu: 1 for x >= 0, else alpha (float arg 0, the scalar; default 0.01)", leakyReluDerFn, 0.01, nil))
)

// Activations with a parameter in float arg 0.
var (
	// relu6 is a legacy scalar op: the scalar (float arg 0) is the cutoff.
	relu6Op = Register(actDef("relu6", Scalar, 40, "min(max(x, s), 6); float arg 0 is the cutoff s (the scalar, default 0)", relu6Fn, 0, bpOp("relu6_bp")))
	// elu is a custom op: float arg 0 alpha, default 1.
	eluOp = Register(actDef("elu", Custom, 0, "x for x >= 0, else alpha·(e^x-1); float arg 0 alpha (default 1)", eluFn, 1, bpOp("elu_bp")))
	// thresholdedrelu is a custom op: float arg 0 theta, default 0.
	thresholdReluOp = Register(actDef("thresholdedrelu", Custom, 0, "x for x > theta, else 0; float arg 0 theta (default 0)", threshReluFn, 0,
		bpOp("thresholdedrelu_bp")))
)

// libnd4j's _bp ops of the activations: inputs x and gradO, output
// gradO·f'(x); the arguments are the forward op's.
var (
	eluBpOp           = Register(actBpDef("elu_bp", "gradient of elu for inputs x, gradO; float arg 0 alpha (default 1)", eluDerFn, 1))
	seluBpOp          = Register(actBpDef("selu_bp", "gradient of selu for inputs x, gradO", seluDerFn, 0))
	hardTanhBpOp      = Register(actBpDef("hardtanh_bp", "gradient of hardtanh for inputs x, gradO", hardTanhDerFn, 0))
	hardSigmoidBpOp   = Register(actBpDef("hardsigmoid_bp", "gradient of hard_sigmoid for inputs x, gradO", hardSigDerFn, 0))
	softsignBpOp      = Register(actBpDef("softsign_bp", "gradient of softsign for inputs x, gradO", softsignDerFn, 0))
	rationalTanhBpOp  = Register(actBpDef("rationaltanh_bp", "gradient of rational_tanh for inputs x, gradO", rationalTanhDer, 0))
	rectifiedTanhBpOp = Register(actBpDef("rectifiedtanh_bp", "gradient of rectified_tanh for inputs x, gradO", rectTanhDerFn, 0))
	cubeBpOp          = Register(actBpDef("cube_bp", "gradient of cube for inputs x, gradO: 3x²·gradO", cubeDerFn, 0))
	// relu6_bp: libnd4j's takes no argument and passes gradO where
	// 0 < x < 6; sdgo reads the forward op's cutoff from float arg 0
	// (default 0, libnd4j's case) so that a cutoff other than 0 gets its
	// true gradient.
	relu6BpOp         = Register(actBpDef("relu6_bp", "gradient of relu6 for inputs x, gradO: gradO where s < x < 6; float arg 0 the cutoff s (default 0)", relu6DerFn, 0))
	thresholdReluBpOp = Register(actBpDef("thresholdedrelu_bp", "gradient of thresholdedrelu for inputs x, gradO; float arg 0 theta (default 0)", threshReluDerFn, 0))
)

// cubeOp is x³ (SDMath's cube: legacy transform-same op 6, any numeric
// dtype).
var cubeOp = Register(&Def{
	Name: "cube", Type: TransformSame, Num: 6, MinIn: 1, MaxIn: 1,
	Doc: "x³",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		if err := needNumeric("cube", in[0]); err != nil {
			return nil, err
		}
		return infos(same(in[0])), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		x := in[0]
		if !x.DType().IsNumeric() {
			return nil, fmt.Errorf("cube needs a numeric input, not %v", x.DType())
		}
		out := c.Alloc(x.DType(), x.Shape())
		if err := ndarray.BinaryInto(ndarray.Mul, out, x, x); err != nil {
			return nil, err
		}
		return one(out, ndarray.BinaryInto(ndarray.Mul, out, out, x))
	},
	Grad: bpOp("cube_bp"),
})

// ---------------------------------------------------------------- prelu

// preluAlphaShape checks prelu's alpha against x and returns the shape
// alpha broadcasts in: rank(x), size 1 on axis 0 and on the shared axes
// (int args, 1..rank-1, or <= 0 counted from rank-1 as libnd4j counts
// them), x's sizes elsewhere. alpha may have that shape without the
// leading 1 or any shape of the same size, as libnd4j reshapes it.
func preluAlphaShape(name string, x, alpha []int, shared []int64) ([]int, error) {
	r := len(x)
	if r < 2 {
		return nil, fmt.Errorf("%s: the input has rank %d; it must be 2 or more", name, r)
	}
	want := append([]int{1}, x[1:]...)
	for i, ax := range shared {
		a := int(ax)
		if a <= 0 {
			a += r - 1
		}
		if a < 1 || a > r-1 {
			return nil, fmt.Errorf("%s: shared axis %d (int arg %d) is not in [1, %d]", name, ax, i, r-1)
		}
		want[a] = 1
	}
	n, m := 1, 1
	for _, d := range want {
		n *= d
	}
	for _, d := range alpha {
		m *= d
	}
	if n != m {
		return nil, fmt.Errorf("%s: alpha has shape %v; for an input of shape %v with shared axes %v it must hold %v", name, alpha, x, shared, want[1:])
	}
	return want, nil
}

// preluInputs checks prelu's and prelu_bp's x and alpha and returns alpha
// in its broadcast shape.
func preluInputs(name string, x, alpha *ndarray.Array, a *Args) (*ndarray.Array, error) {
	if !softmaxable(x) || alpha.DType() != x.DType() {
		return nil, fmt.Errorf("%s: input %v and alpha %v: want float32 or float64 arrays of one dtype", name, x.DType(), alpha.DType())
	}
	want, err := preluAlphaShape(name, x.Shape(), alpha.Shape(), a.I)
	if err != nil {
		return nil, err
	}
	return ndarray.Reshape(alpha, want...)
}

func preluK[T fl](d, x, a []T) {
	x = x[:len(d)]
	for i := range d {
		if x[i] < 0 {
			d[i] = a[i] * x[i]
		} else {
			d[i] = x[i]
		}
	}
}

// preluSlopeK is alpha where x < 0, else 1.
func preluSlopeK[T fl](d, x, a []T) {
	x = x[:len(d)]
	for i := range d {
		if x[i] < 0 {
			d[i] = a[i]
		} else {
			d[i] = 1
		}
	}
}

// preluXNegK is x where x < 0, else 0 (times gradO: alpha's gradient).
func preluXNegK[T fl](d, x, g []T) {
	x = x[:len(d)]
	for i := range d {
		if x[i] < 0 {
			d[i] = x[i] * g[i]
		} else {
			d[i] = 0
		}
	}
}

// preluInfer checks x and alpha as far as their shapes are known.
func preluInfer(name string, x, alpha Info, a *Args) error {
	if err := needFloat(name, x); err != nil {
		return err
	}
	if alpha.DType != x.DType {
		return fmt.Errorf("%s: alpha is %v, the input %v", name, alpha.DType, x.DType)
	}
	if x.ShapeKnown() && alpha.ShapeKnown() {
		_, err := preluAlphaShape(name, x.Shape, alpha.Shape, a.I)
		return err
	}
	if !x.UnknownRank && len(x.Shape) < 2 {
		return fmt.Errorf("%s: the input has rank %d; it must be 2 or more", name, len(x.Shape))
	}
	return nil
}

// preluOp is libnd4j's prelu: inputs x (rank >= 2) and alpha, output x
// where x >= 0 and alpha·x elsewhere, alpha broadcast over axis 0 and the
// shared axes (int args; alpha has x's shape without axis 0, size 1 on the
// shared axes, or any shape of that size).
var preluOp = Register(&Def{
	Name: "prelu", Type: Custom, MinIn: 2, MaxIn: 2,
	Doc: "x for x >= 0, else alpha·x, alpha broadcast over axis 0 and the shared axes (int args)",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		if err := preluInfer("prelu", in[0], in[1], a); err != nil {
			return nil, err
		}
		return infos(same(in[0])), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x := in[0]
		al, err := preluInputs("prelu", x, in[1], a)
		if err != nil {
			return nil, err
		}
		out := c.Alloc(x.DType(), x.Shape())
		return one(out, ndarray.MapFloat2Into(out, x, al, preluK[float32], preluK[float64]))
	},
	Grad: bpOp("prelu_bp"),
})

// preluBpOp is prelu's gradient: inputs x, alpha, gradO with prelu's int
// args; outputs dL/dx (gradO, times alpha where x < 0) and dL/dalpha (the
// sum of gradO·x where x < 0 over the axes alpha is broadcast along, in
// alpha's shape).
var preluBpOp = Register(&Def{
	Name: "prelu_bp", Type: Custom, MinIn: 3, MaxIn: 3,
	Doc: "gradients of prelu for inputs x, alpha, gradO; int args the shared axes",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		if err := preluInfer("prelu_bp", in[0], in[1], a); err != nil {
			return nil, err
		}
		if err := sameShapeGrad("prelu_bp", in[0], in[2]); err != nil {
			return nil, err
		}
		return sameInfos(in, 2), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x, alpha, g := in[0], in[1], in[2]
		al, err := preluInputs("prelu_bp", x, alpha, a)
		if err != nil {
			return nil, err
		}
		if g.DType() != x.DType() || !ndarray.SameShape(g.Shape(), x.Shape()) {
			return nil, fmt.Errorf("prelu_bp: the gradient is %v%v, the input %v%v: they must match", g.DType(), g.Shape(), x.DType(), x.Shape())
		}
		outs := make([]*ndarray.Array, 2)
		if c.Needed(0) {
			dx := c.Alloc(x.DType(), x.Shape())
			if err := ndarray.MapFloat2Into(dx, x, al, preluSlopeK[float32], preluSlopeK[float64]); err != nil {
				return nil, err
			}
			if err := ndarray.BinaryInto(ndarray.Mul, dx, dx, g); err != nil {
				return nil, err
			}
			outs[0] = dx
		}
		if c.Needed(1) {
			t := c.Alloc(x.DType(), x.Shape())
			defer c.Release(t)
			if err := ndarray.MapFloat2Into(t, x, g, preluXNegK[float32], preluXNegK[float64]); err != nil {
				return nil, err
			}
			var axes []int
			for i, d := range al.Shape() {
				if d == 1 { // axis 0 and the shared axes
					axes = append(axes, i)
				}
			}
			da := c.Alloc(x.DType(), al.Shape())
			if err := ndarray.ReduceInto(ndarray.Sum, da, t, axes); err != nil {
				return nil, err
			}
			if outs[1], err = ndarray.Reshape(da, alpha.Shape()...); err != nil {
				return nil, err
			}
		}
		return outs, nil
	},
})

// ---------------------------------------------------------------- crelu

// creluShape is x's shape with the last size doubled.
func creluShape(s []int) []int {
	out := slices.Clone(s)
	if n := len(out); n > 0 && out[n-1] >= 0 {
		out[n-1] *= 2
	}
	return out
}

func creluCheck(name string, x *ndarray.Array) error {
	if !softmaxable(x) || x.Rank() == 0 {
		return fmt.Errorf("%s needs a float32 or float64 input of rank 1 or more, not %v%v", name, x.DType(), x.Shape())
	}
	return nil
}

// creluOp is libnd4j's crelu: relu(x) and relu(-x) joined along the last
// axis, which doubles.
var creluOp = Register(&Def{
	Name: "crelu", Type: Custom, MinIn: 1, MaxIn: 1,
	Doc: "[relu(x), relu(-x)] joined along the last axis",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		if err := needFloat("crelu", in[0]); err != nil {
			return nil, err
		}
		if in[0].UnknownRank {
			return infos(same(in[0])), nil
		}
		if len(in[0].Shape) == 0 {
			return nil, fmt.Errorf("crelu of a scalar: it joins along the last axis")
		}
		return infos(Info{DType: in[0].DType, Shape: creluShape(in[0].Shape)}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		x := in[0]
		if err := creluCheck("crelu", x); err != nil {
			return nil, err
		}
		p := c.Alloc(x.DType(), x.Shape())
		defer c.Release(p)
		q := c.Alloc(x.DType(), x.Shape())
		defer c.Release(q)
		if err := ndarray.UnaryInto(ndarray.Relu, p, x, 0); err != nil {
			return nil, err
		}
		if err := ndarray.UnaryInto(ndarray.Neg, q, x, 0); err != nil {
			return nil, err
		}
		if err := ndarray.UnaryInto(ndarray.Relu, q, q, 0); err != nil {
			return nil, err
		}
		out := c.Alloc(x.DType(), creluShape(x.Shape()))
		return one(out, ndarray.ConcatInto(out, x.Rank()-1, p, q))
	},
	Grad: bpOp("crelu_bp"),
})

// creluBpOp is crelu's gradient: inputs x and gradO (crelu's output
// shape); output gradO's first half where x > 0 minus its second half
// where x < 0.
var creluBpOp = Register(&Def{
	Name: "crelu_bp", Type: Custom, MinIn: 2, MaxIn: 2,
	Doc: "gradient of crelu for inputs x, gradO (the last axis twice x's)",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		x, g := in[0], in[1]
		if err := needFloat("crelu_bp", x); err != nil {
			return nil, err
		}
		if g.DType != x.DType {
			return nil, fmt.Errorf("crelu_bp: the gradient is %v, the input %v", g.DType, x.DType)
		}
		if !x.UnknownRank && !g.UnknownRank && (len(x.Shape) == 0 || !Info{Shape: creluShape(x.Shape)}.Admits(g.Shape)) {
			return nil, fmt.Errorf("crelu_bp: gradient of shape %v for an input of shape %v", g.Shape, x.Shape)
		}
		return infos(same(x)), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		x, g := in[0], in[1]
		if err := creluCheck("crelu_bp", x); err != nil {
			return nil, err
		}
		if g.DType() != x.DType() || !ndarray.SameShape(g.Shape(), creluShape(x.Shape())) {
			return nil, fmt.Errorf("crelu_bp: gradient %v%v for an input %v%v", g.DType(), g.Shape(), x.DType(), x.Shape())
		}
		r, n := x.Rank(), x.Shape()[x.Rank()-1]
		begin, end := make([]int, r), slices.Clone(g.Shape())
		end[r-1] = n
		gp, err := ndarray.Slice(g, begin, end)
		if err != nil {
			return nil, err
		}
		begin[r-1], end[r-1] = n, 2*n
		gn, err := ndarray.Slice(g, begin, end)
		if err != nil {
			return nil, err
		}
		// dx = gp·[x > 0] - gn·[x < 0]
		out := c.Alloc(x.DType(), x.Shape())
		if err := ndarray.BinaryInto(ndarray.ReluGrad, out, x, gp); err != nil {
			return nil, err
		}
		nx, err := ndarray.Unary(ndarray.Neg, x, 0)
		if err != nil {
			return nil, err
		}
		if err := ndarray.BinaryInto(ndarray.ReluGrad, gn, nx, gn); err != nil {
			return nil, err
		}
		return one(out, ndarray.BinaryInto(ndarray.Sub, out, out, gn))
	},
})
