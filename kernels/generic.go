package kernels

import "math"

// generic returns a table of the portable Go kernels.
func generic[T Float]() *Table[T] {
	return &Table[T]{
		Add: AddGo[T], Sub: SubGo[T], Mul: MulGo[T], Div: DivGo[T], Max: MaxGo[T], Min: MinGo[T],
		AddScalar: AddScalarGo[T], SubScalar: SubScalarGo[T], DivScalar: DivScalarGo[T],
		MaxScalar: MaxScalarGo[T], MinScalar: MinScalarGo[T], Scale: ScaleGo[T],
		ScalarSub: ScalarSubGo[T], ScalarDiv: ScalarDivGo[T],
		Axpy: AxpyGo[T], FMA: FMAGo[T],
		Neg: NegGo[T], Abs: AbsGo[T], Sqrt: SqrtGo[T], Relu: ReluGo[T],
		Exp: ExpGo[T], Log: LogGo[T], Tanh: TanhGo[T], Sigmoid: SigmoidGo[T],
		Sum: SumGo[T], MaxReduce: MaxReduceGo[T], MinReduce: MinReduceGo[T], Dot: DotGo[T],
		Gather: GatherGo[T], Scatter: ScatterGo[T],
	}
}

// The portable kernels are exported so that tests of other implementations
// (and of other packages) can compare against them.

// AddGo is the portable Add: dst[i] = x[i] + y[i].
func AddGo[T Float](dst, x, y []T) {
	y = y[:len(dst)]
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = x[i] + y[i]
	}
}

// SubGo is the portable Sub: dst[i] = x[i] - y[i].
func SubGo[T Float](dst, x, y []T) {
	y = y[:len(dst)]
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = x[i] - y[i]
	}
}

// MulGo is the portable Mul: dst[i] = x[i] * y[i].
func MulGo[T Float](dst, x, y []T) {
	y = y[:len(dst)]
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = x[i] * y[i]
	}
}

// DivGo is the portable Div: dst[i] = x[i] / y[i].
func DivGo[T Float](dst, x, y []T) {
	y = y[:len(dst)]
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = x[i] / y[i]
	}
}

func max2[T Float](a, b T) T {
	if a != a || a > b {
		return a
	}
	return b // b is NaN, or b >= a
}

func min2[T Float](a, b T) T {
	if a != a || a < b {
		return a
	}
	return b
}

// MaxGo is the portable Max: dst[i] is the larger of x[i] and y[i], NaN
// when either is, and y[i] when they are equal (so +0 or -0 as y has it).
func MaxGo[T Float](dst, x, y []T) {
	y = y[:len(dst)]
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = max2(x[i], y[i])
	}
}

// MinGo is the portable Min: dst[i] is the smaller of x[i] and y[i], NaN
// when either is, and y[i] when they are equal.
func MinGo[T Float](dst, x, y []T) {
	y = y[:len(dst)]
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = min2(x[i], y[i])
	}
}

// AddScalarGo is the portable AddScalar: dst[i] = x[i] + s.
func AddScalarGo[T Float](dst, x []T, s T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = x[i] + s
	}
}

// SubScalarGo is the portable SubScalar: dst[i] = x[i] - s.
func SubScalarGo[T Float](dst, x []T, s T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = x[i] - s
	}
}

// DivScalarGo is the portable DivScalar: dst[i] = x[i] / s.
func DivScalarGo[T Float](dst, x []T, s T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = x[i] / s
	}
}

// MaxScalarGo is the portable MaxScalar: dst[i] is the larger of x[i] and
// s, NaN when either is, and s when they are equal.
func MaxScalarGo[T Float](dst, x []T, s T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = max2(x[i], s)
	}
}

// MinScalarGo is the portable MinScalar: dst[i] is the smaller of x[i] and
// s, NaN when either is, and s when they are equal.
func MinScalarGo[T Float](dst, x []T, s T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = min2(x[i], s)
	}
}

// ScaleGo is the portable Scale: dst[i] = x[i] * s.
func ScaleGo[T Float](dst, x []T, s T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = x[i] * s
	}
}

// ScalarSubGo is the portable ScalarSub: dst[i] = s - x[i].
func ScalarSubGo[T Float](dst []T, s T, x []T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = s - x[i]
	}
}

// ScalarDivGo is the portable ScalarDiv: dst[i] = s / x[i].
func ScalarDivGo[T Float](dst []T, s T, x []T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = s / x[i]
	}
}

// AxpyGo is the portable Axpy: dst[i] += a * x[i], a multiply and an add
// each rounded (the assembly versions fuse them).
func AxpyGo[T Float](dst []T, a T, x []T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] += a * x[i]
	}
}

// FMAGo is the portable FMA: dst[i] = x[i]*y[i] + z[i], a multiply and an
// add each rounded (the assembly versions fuse them).
func FMAGo[T Float](dst, x, y, z []T) {
	x = x[:len(dst)]
	y = y[:len(dst)]
	z = z[:len(dst)]
	for i := range dst {
		dst[i] = x[i]*y[i] + z[i]
	}
}

// NegGo is the portable Neg: dst[i] = -x[i].
func NegGo[T Float](dst, x []T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = -x[i]
	}
}

// AbsGo is the portable Abs: dst[i] = |x[i]|.
func AbsGo[T Float](dst, x []T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = T(math.Abs(float64(x[i])))
	}
}

// SqrtGo is the portable Sqrt: dst[i] = sqrt(x[i]), NaN for x[i] < 0.
func SqrtGo[T Float](dst, x []T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = T(math.Sqrt(float64(x[i])))
	}
}

// ReluGo is the portable Relu: dst[i] = 0 where x[i] < 0, else x[i], so -0
// and NaN stay as they are.
func ReluGo[T Float](dst, x []T) {
	x = x[:len(dst)]
	for i := range dst {
		v := x[i]
		if v < 0 {
			v = 0
		}
		dst[i] = v // NaN stays NaN
	}
}

// ExpGo is the portable Exp: dst[i] = e^x[i], computed in float64 with the
// fdlibm algorithm (expRef, under 1 ulp of error in float64).
func ExpGo[T Float](dst, x []T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = T(expRef(float64(x[i])))
	}
}

// LogGo is the portable Log: dst[i] = ln x[i], computed in float64 with the
// fdlibm algorithm (logRef, under 1 ulp of error in float64); NaN for
// x[i] < 0, -Inf at 0.
func LogGo[T Float](dst, x []T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = T(logRef(float64(x[i])))
	}
}

// TanhGo is the portable Tanh: dst[i] = tanh x[i], computed in float64 with
// the fdlibm algorithm (tanhRef, under 1 ulp of error in float64).
func TanhGo[T Float](dst, x []T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = T(tanhRef(float64(x[i])))
	}
}

// SigmoidGo is the portable Sigmoid: dst[i] = 1/(1+e^-x[i]), computed in
// float64 in a form that neither overflows nor loses relative precision
// for large negative x[i].
func SigmoidGo[T Float](dst, x []T) {
	x = x[:len(dst)]
	for i := range dst {
		v := float64(x[i])
		// Both branches avoid overflow of e^-v and keep full relative
		// precision for large negative v.
		if v >= 0 {
			dst[i] = T(1 / (1 + expRef(-v)))
		} else {
			e := expRef(v)
			dst[i] = T(e / (1 + e))
		}
	}
}

// SumGo is the portable Sum: x[0]+...+x[n-1], 0 for an empty x. It adds
// into four partial sums, every fourth element each, as the vector
// versions associate, so its rounding differs from a left-to-right loop.
func SumGo[T Float](x []T) T {
	// Four partial sums: fewer rounding steps in a chain, and the same
	// association the vector versions use, so results stay close.
	var s0, s1, s2, s3 T
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += x[i]
		s1 += x[i+1]
		s2 += x[i+2]
		s3 += x[i+3]
	}
	for ; i < len(x); i++ {
		s0 += x[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// MaxReduceGo is the portable MaxReduce: the largest element of x, NaN if
// any is, -Inf for an empty x; of equal elements (+0 and -0) the first.
func MaxReduceGo[T Float](x []T) T {
	m := T(math.Inf(-1))
	for _, v := range x {
		m = max2(v, m)
	}
	return m
}

// MinReduceGo is the portable MinReduce: the smallest element of x, NaN if
// any is, +Inf for an empty x; of equal elements (+0 and -0) the first.
func MinReduceGo[T Float](x []T) T {
	m := T(math.Inf(1))
	for _, v := range x {
		m = min2(v, m)
	}
	return m
}

// DotGo is the portable Dot: x[0]*y[0]+...+x[n-1]*y[n-1], 0 for an empty x,
// with four partial sums as in SumGo. y must be at least as long as x.
func DotGo[T Float](x, y []T) T {
	y = y[:len(x)]
	var s0, s1, s2, s3 T
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += x[i] * y[i]
		s1 += x[i+1] * y[i+1]
		s2 += x[i+2] * y[i+2]
		s3 += x[i+3] * y[i+3]
	}
	for ; i < len(x); i++ {
		s0 += x[i] * y[i]
	}
	return (s0 + s1) + (s2 + s3)
}
