package graph

import "github.com/sdgo/sdgo/ops"

// SDMath's trigonometric, hyperbolic and special functions, float tests,
// scalar forms and pairwise forms (ops/math_trig.go, ops/math_special.go,
// ops/math_scalar.go).

func (m Math) unary(op string, x *Variable) *Variable { return m.g.Apply(op, ops.Args{}, x) }

func (m Math) scalar(op string, x *Variable, s float64) *Variable {
	return m.g.Apply(op, ops.Args{F: []float64{s}}, x)
}

// Tan is tan x, elementwise (op tan).
func (m Math) Tan(x *Variable) *Variable { return m.unary("tan", x) }

// Asin is arcsin x, elementwise (op asin).
func (m Math) Asin(x *Variable) *Variable { return m.unary("asin", x) }

// Acos is arccos x, elementwise (op acos).
func (m Math) Acos(x *Variable) *Variable { return m.unary("acos", x) }

// Atan is arctan x, elementwise (op atan).
func (m Math) Atan(x *Variable) *Variable { return m.unary("atan", x) }

// Sinh is sinh x, elementwise (op sinh).
func (m Math) Sinh(x *Variable) *Variable { return m.unary("sinh", x) }

// Cosh is cosh x, elementwise (op cosh).
func (m Math) Cosh(x *Variable) *Variable { return m.unary("cosh", x) }

// Asinh is arsinh x, elementwise (op asinh).
func (m Math) Asinh(x *Variable) *Variable { return m.unary("asinh", x) }

// Acosh is arcosh x, elementwise (op acosh).
func (m Math) Acosh(x *Variable) *Variable { return m.unary("acosh", x) }

// Atanh is artanh x, elementwise (op atanh).
func (m Math) Atanh(x *Variable) *Variable { return m.unary("atanh", x) }

// Atan2 is atan2(y, x), the angle of the point (x, y), elementwise with
// broadcasting (op tf_atan2, which takes y first).
func (m Math) Atan2(y, x *Variable) *Variable { return m.g.Apply("tf_atan2", ops.Args{}, y, x) }

// Erf is the error function, elementwise (op erf).
func (m Math) Erf(x *Variable) *Variable { return m.unary("erf", x) }

// Erfc is 1 - erf x, elementwise (op erfc).
func (m Math) Erfc(x *Variable) *Variable { return m.unary("erfc", x) }

// Lgamma is ln|Γ(x)|, elementwise (op lgamma).
func (m Math) Lgamma(x *Variable) *Variable { return m.unary("lgamma", x) }

// Digamma is ψ(x) = Γ'(x)/Γ(x), elementwise (op digamma).
func (m Math) Digamma(x *Variable) *Variable { return m.unary("digamma", x) }

// Rint is x rounded to the nearest integer, halves to even (op rint).
func (m Math) Rint(x *Variable) *Variable { return m.unary("rint", x) }

// IsNaN is true where x is NaN (op isnan).
func (m Math) IsNaN(x *Variable) *Variable { return m.unary("isnan", x) }

// IsInfinite is true where x is +Inf or -Inf (op isinf).
func (m Math) IsInfinite(x *Variable) *Variable { return m.unary("isinf", x) }

// IsFinite is true where x is neither NaN nor infinite (op isfinite).
func (m Math) IsFinite(x *Variable) *Variable { return m.unary("isfinite", x) }

// LogBase is log base b of x, ln x / ln b, elementwise (op log_x; SameDiff's
// math().log(x, base)).
func (m Math) LogBase(x *Variable, b float64) *Variable { return m.scalar("log_x", x, b) }

// Step is 1 where x > s and 0 elsewhere, in x's dtype (op step).
func (m Math) Step(x *Variable, s float64) *Variable { return m.scalar("step", x, s) }

// FMod is C's fmod(x, s), the remainder with the sign of x (op fmod_scalar;
// SameDiff's math().floorMod(x, s) writes it).
func (m Math) FMod(x *Variable, s float64) *Variable { return m.scalar("fmod_scalar", x, s) }

// DivNoNaN is x / y, and 0 where y is 0, with broadcasting (op divide_no_nan).
func (m Math) DivNoNaN(x, y *Variable) *Variable { return m.g.Apply("divide_no_nan", ops.Args{}, x, y) }

// Mod is x - ⌊x/y⌋·y with broadcasting: floats take the sign of y,
// integers that of x (op mod).
func (m Math) Mod(x, y *Variable) *Variable { return m.g.Apply("mod", ops.Args{}, x, y) }

// RDiv is y / x with broadcasting (op reversedivide).
func (m Math) RDiv(x, y *Variable) *Variable { return m.g.Apply("reversedivide", ops.Args{}, x, y) }

// RSub is y - x with broadcasting (op reversesubtract).
func (m Math) RSub(x, y *Variable) *Variable { return m.g.Apply("reversesubtract", ops.Args{}, x, y) }

// And is true where both x and y are non-zero, with broadcasting (op and;
// the legacy pairwise bool op, which takes numbers as well as bools).
func (m Math) And(x, y *Variable) *Variable { return m.g.Apply("and", ops.Args{}, x, y) }

// Or is true where x or y is non-zero, with broadcasting (op or).
func (m Math) Or(x, y *Variable) *Variable { return m.g.Apply("or", ops.Args{}, x, y) }

// Xor is true where exactly one of x and y is non-zero, with broadcasting
// (op xor).
func (m Math) Xor(x, y *Variable) *Variable { return m.g.Apply("xor", ops.Args{}, x, y) }
