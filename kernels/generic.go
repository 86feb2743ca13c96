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

func AddGo[T Float](dst, x, y []T) {
	y = y[:len(dst)]
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = x[i] + y[i]
	}
}

func SubGo[T Float](dst, x, y []T) {
	y = y[:len(dst)]
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = x[i] - y[i]
	}
}

func MulGo[T Float](dst, x, y []T) {
	y = y[:len(dst)]
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = x[i] * y[i]
	}
}

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

func MaxGo[T Float](dst, x, y []T) {
	y = y[:len(dst)]
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = max2(x[i], y[i])
	}
}

func MinGo[T Float](dst, x, y []T) {
	y = y[:len(dst)]
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = min2(x[i], y[i])
	}
}

func AddScalarGo[T Float](dst, x []T, s T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = x[i] + s
	}
}

func SubScalarGo[T Float](dst, x []T, s T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = x[i] - s
	}
}

func DivScalarGo[T Float](dst, x []T, s T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = x[i] / s
	}
}

func MaxScalarGo[T Float](dst, x []T, s T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = max2(x[i], s)
	}
}

func MinScalarGo[T Float](dst, x []T, s T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = min2(x[i], s)
	}
}

func ScaleGo[T Float](dst, x []T, s T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = x[i] * s
	}
}

func ScalarSubGo[T Float](dst []T, s T, x []T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = s - x[i]
	}
}

func ScalarDivGo[T Float](dst []T, s T, x []T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = s / x[i]
	}
}

func AxpyGo[T Float](dst []T, a T, x []T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] += a * x[i]
	}
}

func FMAGo[T Float](dst, x, y, z []T) {
	x = x[:len(dst)]
	y = y[:len(dst)]
	z = z[:len(dst)]
	for i := range dst {
		dst[i] = x[i]*y[i] + z[i]
	}
}

func NegGo[T Float](dst, x []T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = -x[i]
	}
}

func AbsGo[T Float](dst, x []T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = T(math.Abs(float64(x[i])))
	}
}

func SqrtGo[T Float](dst, x []T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = T(math.Sqrt(float64(x[i])))
	}
}

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

func ExpGo[T Float](dst, x []T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = T(expRef(float64(x[i])))
	}
}

func LogGo[T Float](dst, x []T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = T(logRef(float64(x[i])))
	}
}

func TanhGo[T Float](dst, x []T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = T(tanhRef(float64(x[i])))
	}
}

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

func MaxReduceGo[T Float](x []T) T {
	m := T(math.Inf(-1))
	for _, v := range x {
		m = max2(v, m)
	}
	return m
}

func MinReduceGo[T Float](x []T) T {
	m := T(math.Inf(1))
	for _, v := range x {
		m = min2(v, m)
	}
	return m
}

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
