package opcases

import (
	"math"
	"math/rand/v2"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Cases of SDMath's trigonometric, hyperbolic and special functions, float
// tests, scalar and pairwise forms (ops/math_trig.go, ops/math_special.go,
// the log_x, step and fmod_scalar ops of ops/math_scalar.go).
//
// Forward values: CPython's math module (correctly rounded or close to it),
// float32 ones rounded with struct.pack('f'), by this script:
//
//	import math, struct
//	f32 = lambda v: struct.unpack('f', struct.pack('f', v))[0]
//	xs = [-0.5, 0.25, 0.75]
//	for f in (math.tan, math.asin, math.acos, math.atan, math.sinh, math.cosh,
//	          math.asinh, math.atanh, math.erf, math.erfc):
//	    print([repr(f(x)) for x in xs], [repr(f32(f(x))) for x in xs])
//	print([math.acosh(x) for x in (1, 1.5, 3)])
//	print([math.lgamma(x) for x in (0.5, 1, 3, -0.5, 10)])
//	print([math.atan2(y, x) for y, x in ((1, 1), (1, -1), (-1, -1), (0, -1), (2, 0.5))])
//	print([math.log(x) / math.log(2) for x in (1, 8, 0.5, 10)])
//	print([math.fmod(x, 1.5) for x in (4, -4, 3, -0.5, 5.25)])
//	print([x - math.floor(x / y) * y for x, y in ((4, 1.5), (-4, 1.5), (4, -1.5), (-4, -1.5), (5.5, 2))])
//
// digamma's are the closed forms ψ(1) = -γ, ψ(1/2) = -γ - 2 ln 2,
// ψ(2) = 1 - γ, ψ(3) = 3/2 - γ, ψ(-1/2) = ψ(3/2) = 2 - γ - 2 ln 2.

func init() {
	xs := []float64{-0.5, 0.25, 0.75}
	xs32 := []float32{-0.5, 0.25, 0.75}
	v := func(x ...float64) *ndarray.Array { return f64([]int{len(x)}, x...) }
	w := func(x ...float32) *ndarray.Array { return f32([]int{len(x)}, x...) }
	none := ops.Args{}
	s := func(v float64) ops.Args { return ops.Args{F: []float64{v}} }
	const tol, tol32 = 1e-15, 1e-7
	nan, inf := math.NaN(), math.Inf(1)
	T, F := true, false
	cases := []fwd{
		{"tan", "tan", none, arrays(v(xs...)), arrays(v(-0.5463024898437905, 0.25534192122103627, 0.9315964599440725)), tol},
		{"tan float32", "tan", none, arrays(w(xs32...)), arrays(w(-0.5463024973869324, 0.25534191727638245, 0.9315964579582214)), tol32},
		{"asin", "asin", none, arrays(v(xs...)), arrays(v(-0.5235987755982989, 0.25268025514207865, 0.848062078981481)), tol},
		{"asin float32", "asin", none, arrays(w(xs32...)), arrays(w(-0.5235987901687622, 0.252680242061615, 0.8480620980262756)), tol32},
		{"asin outside [-1, 1] is NaN", "asin", none, arrays(v(1, 1.5)), arrays(v(math.Pi/2, nan)), tol},
		{"acos", "acos", none, arrays(v(xs...)), arrays(v(2.0943951023931957, 1.318116071652818, 0.7227342478134157)), tol},
		{"acos float32", "acos", none, arrays(w(xs32...)), arrays(w(2.094395160675049, 1.3181160688400269, 0.722734272480011)), tol32},
		{"atan", "atan", none, arrays(v(xs...)), arrays(v(-0.4636476090008061, 0.24497866312686414, 0.6435011087932844)), tol},
		{"atan float32", "atan", none, arrays(w(xs32...)), arrays(w(-0.46364760398864746, 0.244978666305542, 0.6435011029243469)), tol32},
		{"sinh", "sinh", none, arrays(v(xs...)), arrays(v(-0.5210953054937474, 0.2526123168081683, 0.82231673193583)), tol},
		{"sinh float32", "sinh", none, arrays(w(xs32...)), arrays(w(-0.5210952758789062, 0.25261232256889343, 0.8223167061805725)), tol32},
		{"cosh", "cosh", none, arrays(v(xs...)), arrays(v(1.1276259652063807, 1.0314130998795732, 1.2946832846768448)), tol},
		{"cosh float32", "cosh", none, arrays(w(xs32...)), arrays(w(1.1276259422302246, 1.0314130783081055, 1.2946833372116089)), tol32},
		{"asinh", "asinh", none, arrays(v(xs...)), arrays(v(-0.48121182505960347, 0.24746646154726346, 0.6931471805599453)), tol},
		{"asinh float32", "asinh", none, arrays(w(xs32...)), arrays(w(-0.4812118113040924, 0.24746645987033844, 0.6931471824645996)), tol32},
		{"acosh", "acosh", none, arrays(v(1, 1.5, 3, 0.5)), arrays(v(0, 0.9624236501192069, 1.762747174039086, nan)), tol},
		{"acosh float32", "acosh", none, arrays(w(1, 1.5, 3)), arrays(w(0, 0.9624236226081848, 1.7627471685409546)), tol32},
		{"atanh", "atanh", none, arrays(v(xs...)), arrays(v(-0.5493061443340548, 0.25541281188299536, 0.9729550745276566)), tol},
		{"atanh float32", "atanh", none, arrays(w(xs32...)), arrays(w(-0.5493061542510986, 0.2554128170013428, 0.972955048084259)), tol32},
		{"atanh at ±1 and beyond", "atanh", none, arrays(v(1, -1, 2)), arrays(v(inf, -inf, nan)), 0},
		{"tf_atan2 takes y then x", "tf_atan2", none, arrays(v(1, 1, -1, 0, 2), v(1, -1, -1, -1, 0.5)),
			arrays(v(0.7853981633974483, 2.356194490192345, -2.356194490192345, 3.141592653589793, 1.3258176636680326)), tol},
		{"tf_atan2 broadcast float32", "tf_atan2", none, arrays(f32([]int{2, 1}, 1, -1), w(1, -1)),
			arrays(f32([]int{2, 2}, 0.7853981633974483, 2.356194490192345, -0.7853981633974483, -2.356194490192345)), tol32},

		{"erf", "erf", none, arrays(v(xs...)), arrays(v(-0.5204998778130465, 0.2763263901682369, 0.7111556336535151)), tol},
		{"erf float32", "erf", none, arrays(w(xs32...)), arrays(w(-0.5204998850822449, 0.27632638812065125, 0.7111556529998779)), tol32},
		{"erfc", "erfc", none, arrays(v(xs...)), arrays(v(1.5204998778130465, 0.7236736098317631, 0.28884436634648486)), tol},
		{"erfc float32", "erfc", none, arrays(w(xs32...)), arrays(w(1.5204998254776, 0.7236735820770264, 0.28884437680244446)), tol32},
		{"lgamma", "lgamma", none, arrays(v(0.5, 1, 3, -0.5, 10)), arrays(v(0.5723649429247004, 0, 0.693147180559945, 1.265512123484645, 12.801827480081467)), 1e-14},
		{"lgamma float32", "lgamma", none, arrays(w(0.5, 3, -0.5)), arrays(w(0.5723649263381958, 0.6931471824645996, 1.2655121088027954)), tol32},
		{"lgamma poles", "lgamma", none, arrays(v(0, -1)), arrays(v(inf, inf)), 0},
		{"digamma", "digamma", none, arrays(v(1, 0.5, 2, 3, -0.5)), arrays(v(-0.5772156649015329, -1.9635100260214235, 0.42278433509846713, 0.9227843350984671, 0.03648997397857652)), 1e-13},
		{"digamma float32", "digamma", none, arrays(w(1, 0.5)), arrays(w(-0.5772156649015329, -1.9635100260214235)), tol32},
		{"digamma poles are NaN", "digamma", none, arrays(v(0, -2, inf)), arrays(v(nan, nan, inf)), 0},
		{"rint rounds halves to even", "rint", none, arrays(v(0.5, 1.5, 2.5, -0.5, -1.5, 2.4, -2.6)), arrays(v(0, 2, 2, 0, -2, 2, -3)), 0},
		{"rint float32", "rint", none, arrays(w(0.5, 1.5, -2.5)), arrays(w(0, 2, -2)), 0},

		{"isnan", "isnan", none, arrays(v(1, nan, inf, -inf)), arrays(bools([]int{4}, F, T, F, F)), 0},
		{"isnan float32", "isnan", none, arrays(w(float32(nan), 0)), arrays(bools([]int{2}, T, F)), 0},
		{"isnan int32 is false", "isnan", none, arrays(i32([]int{2}, 1, 0)), arrays(bools([]int{2}, F, F)), 0},
		{"isinf", "isinf", none, arrays(v(1, nan, inf, -inf)), arrays(bools([]int{4}, F, F, T, T)), 0},
		{"isinf int64 is false", "isinf", none, arrays(i64([]int{1}, 7)), arrays(bools([]int{1}, F)), 0},
		{"isfinite", "isfinite", none, arrays(v(1, nan, inf, -inf)), arrays(bools([]int{4}, T, F, F, F)), 0},
		{"isfinite float32", "isfinite", none, arrays(w(float32(inf), -3)), arrays(bools([]int{2}, F, T)), 0},
		{"isfinite int32 is true", "isfinite", none, arrays(i32([]int{2}, 1, 0)), arrays(bools([]int{2}, T, T)), 0},

		{"log_x base 2", "log_x", s(2), arrays(v(1, 8, 0.5, 10)), arrays(v(0, 3, -1, 3.3219280948873626)), tol},
		{"log_x base 10 float32", "log_x", s(10), arrays(w(100, 0.1, 5)), arrays(w(2, -1, 0.6989700198173523)), tol32},
		{"step", "step", s(0.5), arrays(v(1, 0.5, -2, 0.75)), arrays(v(1, 0, 0, 1)), 0},
		{"step int32 truncates the scalar", "step", s(1.5), arrays(i32([]int{3}, 0, 1, 2)), arrays(i32([]int{3}, 0, 0, 1)), 0},
		{"fmod_scalar has the sign of x", "fmod_scalar", s(1.5), arrays(v(4, -4, 3, -0.5, 5.25)), arrays(v(1, -1, 0, -0.5, 0.75)), 0},
		{"fmod_scalar negative s", "fmod_scalar", s(-1.5), arrays(v(4, -4)), arrays(v(1, -1)), 0},
		{"fmod_scalar float32", "fmod_scalar", s(1.5), arrays(w(4, -4, 5.25)), arrays(w(1, -1, 0.75)), 0},
		{"fmod_scalar int64", "fmod_scalar", s(3), arrays(i64([]int{4}, 7, -7, 6, 2)), arrays(i64([]int{4}, 1, -1, 0, 2)), 0},

		{"divide_no_nan", "divide_no_nan", none, arrays(v(1, 0, -3, 5), v(2, 0, 0, -0.5)), arrays(v(0.5, 0, 0, -10)), 0},
		{"divide_no_nan broadcast float32", "divide_no_nan", none, arrays(f32([]int{2, 1}, 1, -2), w(4, 0)), arrays(f32([]int{2, 2}, 0.25, 0, -0.5, 0)), 0},
		{"mod floats take the sign of y", "mod", none, arrays(v(4, -4, 4, -4, 5.5), v(1.5, 1.5, -1.5, -1.5, 2)), arrays(v(1, 0.5, -0.5, -1, 1.5)), 1e-15},
		// DeclarableOpsTests6.TestMod_1: x 1..8, y (10, 2, 30, 4, 50, 6, 70, 8).
		{"mod DeclarableOpsTests6.TestMod_1", "mod", none, arrays(f64([]int{2, 2, 2}, 1, 2, 3, 4, 5, 6, 7, 8), f64([]int{2, 2, 2}, 10, 2, 30, 4, 50, 6, 70, 8)),
			arrays(f64([]int{2, 2, 2}, 1, 0, 3, 0, 5, 0, 7, 0)), 0},
		{"mod int32 truncates (sign of x)", "mod", none, arrays(i32([]int{4}, 7, -7, 7, -7), i32([]int{1}, 3)), arrays(i32([]int{4}, 1, -1, 1, -1)), 0},
		{"mod float32 broadcast", "mod", none, arrays(f32([]int{2, 1}, 5, -5), w(3, -3)), arrays(f32([]int{2, 2}, 2, -1, 1, -2)), 0},
		{"reversedivide", "reversedivide", none, arrays(v(2, -4, 0.5), v(1, 2, 3)), arrays(v(0.5, -0.5, 6)), 0},
		{"reversedivide int32 broadcast", "reversedivide", none, arrays(i32([]int{2}, 2, -3), i32(nil, 7)), arrays(i32([]int{2}, 3, -2)), 0},
		{"reversesubtract", "reversesubtract", none, arrays(f64([]int{2, 1}, 1, 2), v(10, 20)), arrays(f64([]int{2, 2}, 9, 19, 8, 18)), 0},
		{"reversesubtract float32", "reversesubtract", none, arrays(w(1.5, -2), w(1, 1)), arrays(w(-0.5, 3)), 0},

		{"and", "and", none, arrays(v(0, 0, 2, -1), v(0, 3, 0, 0.5)), arrays(bools([]int{4}, F, F, F, T)), 0},
		{"or", "or", none, arrays(v(0, 0, 2, -1), v(0, 3, 0, 0.5)), arrays(bools([]int{4}, F, T, T, T)), 0},
		{"xor", "xor", none, arrays(v(0, 0, 2, -1), v(0, 3, 0, 0.5)), arrays(bools([]int{4}, F, T, T, F)), 0},
		{"and int32 broadcast", "and", none, arrays(i32([]int{2, 1}, 0, 5), i32([]int{2}, 1, 0)), arrays(bools([]int{2, 2}, F, F, T, F)), 0},
		{"or bools", "or", none, arrays(bools([]int{3}, T, F, F), bools([]int{3}, F, F, T)), arrays(bools([]int{3}, T, F, T)), 0},
		{"xor with comparand 1", "xor", s(1), arrays(v(1, 1, 0, 2), v(1, 0, 0, 1)), arrays(bools([]int{4}, F, T, F, T)), 0},

		// d(y/x)/dx = -g·y/x², d(y/x)/dy = g/x, summed over y's broadcast.
		{"reversedivide_bp", "reversedivide_bp", none, arrays(v(2, -4), v(1, 2), v(1, 3)), arrays(v(-0.25, -0.375), v(0.5, -0.75)), 0},
		{"reversedivide_bp broadcast y", "reversedivide_bp", none, arrays(v(2, 4), ndarray.Scalar(6.0), v(1, 1)), arrays(v(-1.5, -0.375), ndarray.Scalar(0.75)), 0},
		{"reversesubtract_bp broadcast y", "reversesubtract_bp", none, arrays(v(1, 2), ndarray.Scalar(5.0), v(1, 3)), arrays(v(-1, -3), ndarray.Scalar(4.0)), 0},
		{"Reciprocal", "Reciprocal", none, arrays(v(4, -0.5)), arrays(v(0.25, -2)), 0},
	}
	for _, c := range cases {
		forward(c.name, c.op, c.args, c.in, c.want, c.tol)
	}

	rng := rand.New(rand.NewPCG(26, 7))
	u := func(lo, hi float64) []input { return []input{in(randu(rng, lo, hi, 2, 3))} }
	for _, c := range []grd{
		{"tan", "tan", none, u(-1.2, 1.2)},
		{"asin", "asin", none, u(-0.9, 0.9)},
		{"acos", "acos", none, u(-0.9, 0.9)},
		{"atan", "atan", none, u(-3, 3)},
		{"sinh", "sinh", none, u(-2, 2)},
		{"cosh", "cosh", none, u(-2, 2)},
		{"asinh", "asinh", none, u(-3, 3)},
		{"acosh", "acosh", none, u(1.2, 4)},
		{"atanh", "atanh", none, u(-0.9, 0.9)},
		{"tf_atan2", "tf_atan2", none, []input{in(randu(rng, 0.3, 2, 2, 3)), in(randu(rng, -2, -0.3, 3))}},
		{"erf", "erf", none, u(-2, 2)},
		{"erfc", "erfc", none, u(-2, 2)},
		{"lgamma", "lgamma", none, u(0.3, 5)},
		{"rint", "rint", none, []input{in(f64([]int{3}, 0.2, 1.3, -2.7))}},
		{"log_x", "log_x", s(3), u(0.3, 4)},
		{"step", "step", s(0.5), []input{in(f64([]int{3}, 0.2, 1.3, -2.7))}},
		{"fmod_scalar", "fmod_scalar", s(1.5), []input{in(f64([]int{4}, 0.2, 1.3, -2.7, 4.1))}},
		{"divide_no_nan", "divide_no_nan", none, []input{in(randn(rng, 2, 3)), in(f64([]int{3}, 0.7, -1.3, 2))}},
		{"divide_no_nan where y is 0", "divide_no_nan", none, []input{in(randn(rng, 2, 2)), fixed(f64([]int{2}, 0, 1.5))}},
		{"mod", "mod", none, []input{in(f64([]int{2, 2}, 4.1, -4.3, 2.2, -0.7)), in(f64([]int{2}, 1.5, -1.7))}},
		{"reversedivide", "reversedivide", none, []input{in(randu(rng, 0.5, 2, 2, 3)), in(randn(rng, 3))}},
		{"reversesubtract", "reversesubtract", none, []input{in(randn(rng, 3)), in(randn(rng, 2, 3))}},
	} {
		gradient(c.name, c.op, c.args, c.in)
	}
}
