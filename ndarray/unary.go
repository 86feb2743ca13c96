package ndarray

import (
	"fmt"
	"math"
	"slices"

	"github.com/sdgo/sdgo/kernels"
)

// UnaryOp is an elementwise operation of one operand. Some take a parameter
// (LeakyRelu's slope, PowScalar's exponent), passed beside the op.
type UnaryOp uint8

// The unary operations, element by element on x: Neg -x, Abs |x|, Exp e^x,
// Log ln x, Sqrt √x, Square x², Tanh, Sigmoid 1/(1+e^-x), Relu (0 where
// x < 0, else x, so -0 and NaN stay), Sign (-1 or 1, with ±0 and NaN kept),
// Reciprocal 1/x, Floor and Ceil (rounding down and up), Sin and Cos (x in
// radians), Log1p ln(1+x), Expm1 e^x-1, and those commented below.
// FloatOnly tells which need a floating-point dtype.
const (
	Neg UnaryOp = iota
	Abs
	Exp
	Log
	Sqrt
	Square
	Tanh
	Sigmoid
	Relu
	LeakyRelu // x if x > 0, else param*x
	Sign
	Reciprocal
	Floor
	Ceil
	Round // half away from zero
	Sin
	Cos
	Softplus // ln(1+e^x)
	Rsqrt    // 1/sqrt(x)
	Log1p
	Expm1
	PowScalar   // x^param
	ScaleBy     // x*param (on integers param is first truncated to the dtype: 0.5 scales by 0)
	AddScalar   // x+param (on integers param is first truncated to the dtype)
	TanhGrad    // 1 - x² (the derivative of tanh expressed in its output)
	SigmoidGrad // x(1 - x) (the derivative of the sigmoid expressed in its output)
	Step        // 1 if x > 0, else 0 (the derivative of relu)
)

var unaryNames = [...]string{"neg", "abs", "exp", "log", "sqrt", "square", "tanh", "sigmoid", "relu", "leakyrelu",
	"sign", "reciprocal", "floor", "ceil", "round", "sin", "cos", "softplus", "rsqrt", "log1p", "expm1",
	"pow_scalar", "scale", "add_scalar", "tanh_grad", "sigmoid_grad", "step"}

// String returns the op's lower-case name, as errors give it, for example
// "leakyrelu".
func (op UnaryOp) String() string {
	if int(op) < len(unaryNames) {
		return unaryNames[op]
	}
	return fmt.Sprintf("unary(%d)", op)
}

// FloatOnly reports whether op is defined only for floating-point arrays.
func (op UnaryOp) FloatOnly() bool {
	switch op {
	case Neg, Abs, Square, Sign, Relu, ScaleBy, AddScalar, Step:
		return false
	}
	return true
}

// Unary returns op applied to every element of a.
func Unary(op UnaryOp, a *Array, param float64) (*Array, error) {
	if err := unaryCheck(op, a); err != nil {
		return nil, err
	}
	out, err := alloc(a.DType(), a.shape)
	if err != nil {
		return nil, err
	}
	return out, UnaryInto(op, out, a, param)
}

func unaryCheck(op UnaryOp, a *Array) error {
	if !a.DType().IsNumeric() {
		return fmt.Errorf("ndarray: %v needs a numeric array, not %v", op, a.DType())
	}
	if op.FloatOnly() && !a.DType().IsFloat() {
		return fmt.Errorf("ndarray: %v needs a floating-point array, not %v", op, a.DType())
	}
	return nil
}

// UnaryInto writes op(a) into dst, which has a's dtype and shape and may be a
// (or share its buffer with the same layout), but must not overlap it
// otherwise, as for BinaryInto.
func UnaryInto(op UnaryOp, dst, a *Array, param float64) error {
	if err := unaryCheck(op, a); err != nil {
		return err
	}
	if dst.DType() != a.DType() || !slices.Equal(dst.shape, a.shape) {
		return fmt.Errorf("ndarray: %v of a %v%v array into a %v%v array", op, a.DType(), a.shape, dst.DType(), dst.shape)
	}
	// the float ops of a vector kernel that takes a cycle or less an element
	minPart := partMin
	if a.DType().IsFloat() && (op == Neg || op == Abs || op == Relu || op == Square || op == ScaleBy || op == AddScalar) {
		minPart = fastPartMin
	}
	switch a.DType() {
	case Float32:
		unaryTyped(minPart, unF32[op], dst, a, param)
	case Float64:
		unaryTyped(minPart, unF64[op], dst, a, param)
	case Int32:
		unaryTyped(minPart, unI32[op], dst, a, param)
	case Int64:
		unaryTyped(minPart, unI64[op], dst, a, param)
	}
	return nil
}

// unaryFunc computes d[i] = op(x[i]) on contiguous slices; p is the op's
// parameter.
type unaryFunc[T Num] func(d, x []T, p float64)

// numUnary is the number of UnaryOps.
const numUnary = int(Step) + 1

// The kernels of every unary op for every element type, built once.
var (
	unF32 = buildUnaryTable[float32]()
	unF64 = buildUnaryTable[float64]()
	unI32 = buildUnaryTable[int32]()
	unI64 = buildUnaryTable[int64]()
)

func buildUnaryTable[T Num]() *[numUnary]unaryFunc[T] {
	var t [numUnary]unaryFunc[T]
	for op := range t {
		t[op] = unaryKernel[T](UnaryOp(op))
	}
	return &t
}

// unaryTyped computes k over a into dst, cut into parts of at least minPart
// elements for the cores (inParts) when minPart is above 0.
func unaryTyped[T Num](minPart int, k unaryFunc[T], dst, a *Array, p float64) {
	nn, ok := newNest(a.shape, 2, [3][]int{dst.strides, a.strides}, [3]int{dst.offset, a.offset})
	if !ok {
		return
	}
	d, x := Raw[T](dst), Raw[T](a)
	if minPart > 0 && splits(&nn, minPart) {
		inParts(nn, minPart, func(part *nest) { unaryRuns(k, p, d, x, part) })
		return
	}
	unaryRuns(k, p, d, x, &nn)
}

func unaryRuns[T Num](k unaryFunc[T], p float64, d, x []T, nn *nest) {
	var sc *scratch
	n, inc := nn.runOf()
	if inc[0] == 1 && inc[1] == 1 {
		// contiguous runs: a kernel call each (nest.eachAt)
		nn.eachAt(func(o0, o1, _, _, _, _ int, _ bool) {
			k(d[o0:o0+n], x[o1:o1+n], p)
		})
		return
	}
	nn.eachAt(func(o0, o1, _, _, n1, _ int, more bool) {
		off, next := [2]int{o0, o1}, [2]int{0, n1}
		if sc == nil {
			sc = getScratch()
		}
		tx, td := part[T](sc, 0), part[T](sc, 1)
		for s := 0; s < n; s += len(tx) {
			m := min(len(tx), n-s)
			prefetchChunk(x, off[1], next[1], s, len(tx), n, inc[1], more)
			gx := gather(x, off[1]+s*inc[1], m, inc[1], tx)
			dd := span(d, off[0]+s*inc[0], m, inc[0], td)
			k(dd, gx, p)
			if inc[0] != 1 {
				scatter(d, off[0]+s*inc[0], inc[0], dd)
			}
		}
	})
	if sc != nil {
		putScratch(sc)
	}
}

func floatUnaryKernel[T kernels.Float](tab *kernels.Table[T], op UnaryOp) func(d, x []T, p float64) {
	plain := func(f func(d, x []T)) func(d, x []T, p float64) { return func(d, x []T, _ float64) { f(d, x) } }
	switch op {
	case Neg:
		return plain(tab.Neg)
	case Abs:
		return plain(tab.Abs)
	case Exp:
		return plain(tab.Exp)
	case Log:
		return plain(tab.Log)
	case Sqrt:
		return plain(tab.Sqrt)
	case Square:
		return func(d, x []T, _ float64) { tab.Mul(d, x, x) }
	case Tanh:
		return plain(tab.Tanh)
	case Sigmoid:
		return plain(tab.Sigmoid)
	case Relu:
		return plain(tab.Relu)
	case ScaleBy:
		return func(d, x []T, p float64) { tab.Scale(d, x, T(p)) }
	case AddScalar:
		return func(d, x []T, p float64) { tab.AddScalar(d, x, T(p)) }
	case Reciprocal:
		return func(d, x []T, _ float64) { tab.ScalarDiv(d, 1, x) }
	}
	return nil
}

// unaryKernel returns op as a loop over contiguous slices.
func unaryKernel[T Num](op UnaryOp) unaryFunc[T] {
	var z T
	switch any(z).(type) {
	case float32:
		if k := floatUnaryKernel(kernels.F32, op); k != nil {
			return asT[func(d, x []T, p float64)](k)
		}
	case float64:
		if k := floatUnaryKernel(kernels.F64, op); k != nil {
			return asT[func(d, x []T, p float64)](k)
		}
	}
	return func(d, x []T, p float64) { unaryLoop(op, p, d, x) }
}

// unaryLoop computes d[i] = op(x[i]) for the ops without a vector kernel,
// choosing the op outside the loop.
func unaryLoop[T Num](op UnaryOp, p float64, d, x []T) {
	x = x[:len(d)]
	switch op {
	case Neg:
		for i := range d {
			d[i] = -x[i]
		}
	case Abs:
		for i := range d {
			if x[i] < 0 {
				d[i] = -x[i]
			} else {
				d[i] = x[i]
			}
		}
	case Square:
		for i := range d {
			d[i] = x[i] * x[i]
		}
	case Relu:
		for i := range d {
			if x[i] < 0 {
				d[i] = 0
			} else {
				d[i] = x[i]
			}
		}
	case LeakyRelu:
		a := T(p)
		for i := range d {
			if x[i] > 0 {
				d[i] = x[i]
			} else {
				d[i] = a * x[i]
			}
		}
	case ScaleBy:
		s := T(p)
		for i := range d {
			d[i] = x[i] * s
		}
	case AddScalar:
		s := T(p)
		for i := range d {
			d[i] = x[i] + s
		}
	case TanhGrad:
		for i := range d {
			d[i] = 1 - x[i]*x[i]
		}
	case SigmoidGrad:
		for i := range d {
			d[i] = x[i] * (1 - x[i])
		}
	case Step:
		for i := range d {
			if x[i] > 0 {
				d[i] = 1
			} else {
				d[i] = 0
			}
		}
	default:
		// Transcendental functions cost more than the call.
		f := unaryFn[T](op, p)
		for i := range d {
			d[i] = f(x[i])
		}
	}
}

// unaryFn returns op on one element.
func unaryFn[T Num](op UnaryOp, p float64) func(x T) T {
	m := func(f func(float64) float64) func(x T) T { return func(x T) T { return T(f(float64(x))) } }
	switch op {
	case Neg:
		return func(x T) T { return -x }
	case Abs:
		return func(x T) T {
			if x < 0 {
				return -x
			}
			return x
		}
	case Exp:
		return m(math.Exp)
	case Log:
		return m(math.Log)
	case Sqrt:
		return m(math.Sqrt)
	case Square:
		return func(x T) T { return x * x }
	case Tanh:
		return m(math.Tanh)
	case Sigmoid:
		return m(sigmoid)
	case Relu:
		return func(x T) T {
			if x < 0 {
				return 0
			}
			return x
		}
	case LeakyRelu:
		return m(func(x float64) float64 {
			if x > 0 {
				return x
			}
			return p * x
		})
	case Sign:
		return func(x T) T {
			switch {
			case x > 0:
				return 1
			case x < 0:
				return T(0) - 1
			}
			return x // ±0 and NaN stay
		}
	case Reciprocal:
		return m(func(x float64) float64 { return 1 / x })
	case Floor:
		return m(math.Floor)
	case Ceil:
		return m(math.Ceil)
	case Round:
		return m(math.Round)
	case Sin:
		return m(math.Sin)
	case Cos:
		return m(math.Cos)
	case Softplus:
		return m(softplus)
	case Rsqrt:
		return m(func(x float64) float64 { return 1 / math.Sqrt(x) })
	case Log1p:
		return m(math.Log1p)
	case Expm1:
		return m(math.Expm1)
	case PowScalar:
		return m(func(x float64) float64 { return math.Pow(x, p) })
	case ScaleBy:
		s := T(p)
		return func(x T) T { return x * s }
	case AddScalar:
		s := T(p)
		return func(x T) T { return x + s }
	case TanhGrad:
		return func(x T) T { return 1 - x*x }
	case SigmoidGrad:
		return func(x T) T { return x * (1 - x) }
	case Step:
		return func(x T) T {
			if x > 0 {
				return 1
			}
			return 0
		}
	}
	panic("ndarray: unknown unary op")
}

func sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// softplus computes ln(1+e^x) without overflow for large x.
func softplus(x float64) float64 {
	if x > 30 {
		return x + math.Log1p(math.Exp(-x))
	}
	return math.Log1p(math.Exp(x))
}
