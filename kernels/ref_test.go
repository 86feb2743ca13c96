package kernels

import (
	"math"
	"testing"
)

// reference returns the table im is checked against: the portable kernels
// for an assembly implementation; for the portable kernels themselves,
// loopTable, so that they are never compared with themselves.
func reference[T Float](im impl) *Table[T] {
	if im.name == "generic" {
		return loopTable[T]()
	}
	return generic[T]()
}

// loopTable computes each entry as the loop its Table comment gives, one
// element at a time, with the transcendentals from package math (see
// mathExp). Gather and Scatter are left out: testStrided checks them
// against the loops directly.
func loopTable[T Float]() *Table[T] {
	bin := func(f func(x, y T) T) func(dst, x, y []T) {
		return func(dst, x, y []T) {
			for i := range dst {
				dst[i] = f(x[i], y[i])
			}
		}
	}
	sc := func(f func(x, s T) T) func(dst, x []T, s T) {
		return func(dst, x []T, s T) {
			for i := range dst {
				dst[i] = f(x[i], s)
			}
		}
	}
	un := func(f func(x T) T) func(dst, x []T) {
		return func(dst, x []T) {
			for i := range dst {
				dst[i] = f(x[i])
			}
		}
	}
	f64 := func(f func(float64) float64) func(dst, x []T) {
		return un(func(x T) T { return T(f(float64(x))) })
	}
	maxOf := func(x, y T) T {
		if x > y || x != x {
			return x
		}
		return y
	}
	minOf := func(x, y T) T {
		if x < y || x != x {
			return x
		}
		return y
	}
	reduce := func(init T, f func(m, x T) T) func(x []T) T {
		return func(x []T) T {
			m := init
			for _, v := range x {
				m = f(v, m)
			}
			return m
		}
	}
	return &Table[T]{
		Add: bin(func(x, y T) T { return x + y }), Sub: bin(func(x, y T) T { return x - y }),
		Mul: bin(func(x, y T) T { return x * y }), Div: bin(func(x, y T) T { return x / y }),
		Max: bin(maxOf), Min: bin(minOf),
		AddScalar: sc(func(x, s T) T { return x + s }), SubScalar: sc(func(x, s T) T { return x - s }),
		DivScalar: sc(func(x, s T) T { return x / s }), Scale: sc(func(x, s T) T { return x * s }),
		MaxScalar: sc(maxOf), MinScalar: sc(minOf),
		ScalarSub: func(dst []T, s T, x []T) { sc(func(x, s T) T { return s - x })(dst, x, s) },
		ScalarDiv: func(dst []T, s T, x []T) { sc(func(x, s T) T { return s / x })(dst, x, s) },
		Axpy: func(dst []T, a T, x []T) {
			for i := range dst {
				dst[i] += a * x[i]
			}
		},
		FMA: func(dst, x, y, z []T) {
			for i := range dst {
				dst[i] = x[i]*y[i] + z[i]
			}
		},
		Neg: un(func(x T) T { return -x }), Abs: f64(math.Abs), Sqrt: f64(math.Sqrt),
		Relu: un(func(x T) T {
			if x >= 0 || x != x {
				return x
			}
			return 0
		}),
		Exp: f64(mathExp), Log: f64(mathLog), Tanh: f64(math.Tanh), Sigmoid: f64(mathSigmoid),
		Sum: reduce(0, func(x, s T) T { return s + x }),
		Dot: func(x, y []T) T {
			var s T
			for i := range x {
				s += x[i] * y[i]
			}
			return s
		},
		MaxReduce: reduce(T(math.Inf(-1)), maxOf),
		MinReduce: reduce(T(math.Inf(1)), minOf),
	}
}

// mathExp, mathLog and mathSigmoid are e^x, ln x and 1/(1+e^-x) from
// package math, around two faults of its amd64 assembly (Go 1.26):
// math.Exp gives +Inf for x in (709.4, 709.78], where e^x is finite, and
// math.Log is far off for denormals (math.Log(5e-324) = -709.09, not
// -744.44). Both detours are exact rewritings that add at most about an
// ulp.
func mathExp(x float64) float64 {
	if x > 709 {
		return math.Exp(x-1) * math.E // x-1 is exact
	}
	return math.Exp(x)
}

func mathLog(x float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		return math.Log(x*0x1p54) - 54*math.Ln2
	}
	return math.Log(x)
}

func mathSigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + mathExp(-x))
	}
	e := mathExp(x)
	return e / (1 + e)
}

// TestRef checks the fdlibm functions the portable kernels use (ref.go)
// against package math over accuracyInputs64 and around every threshold of
// their branches, where an off-by-one in a comparison would show.
func TestRef(t *testing.T) {
	edges := []float64{
		math.MaxFloat64, math.SmallestNonzeroFloat64, 0x1p-1022, 1, math.Sqrt2 / 2, math.Sqrt2,
		0x1p-28, 7.09782712893383973096e+02, 7.45133219101941108420e+02, // exp: 1+x, overflow, underflow
		709.4, 709.5, // where amd64's math.Exp overflows early
		0.625, 0.5 * 8.8029691931113054295988e+01, // tanh: the series, ±1
	}
	var x []float64
	for _, e := range edges {
		for _, v := range []float64{e, -e} {
			x = append(x, v)
			up, down := v, v
			for range 8 {
				up, down = math.Nextafter(up, math.Inf(1)), math.Nextafter(down, math.Inf(-1))
				x = append(x, up, down)
			}
		}
	}
	n := 300000
	if testing.Short() {
		n = 30000
	}
	x = append(x, accuracyInputs64(n)...)
	for _, f := range []struct {
		name      string
		ref, want func(float64) float64
		bound     float64
	}{
		{"expRef", expRef, mathExp, 2},
		{"logRef", logRef, mathLog, 1},
		{"tanhRef", tanhRef, math.Tanh, 2},
	} {
		worst, at := 0.0, 0.0
		for _, v := range x {
			got, want := f.ref(v), f.want(v)
			if isNaN(got) || isNaN(want) || math.IsInf(got, 0) || math.IsInf(want, 0) {
				if !same(got, want) {
					t.Errorf("%s(%v) = %v, math: %v", f.name, v, got, want)
				}
				continue
			}
			if u := ulps(got, want); u > worst {
				worst, at = u, v
			}
		}
		t.Logf("%s: max %.0f ulp from math (at %v) over %d inputs", f.name, worst, at, len(x))
		if worst > f.bound {
			t.Errorf("%s: %.0f ulp from math at %v, bound %v", f.name, worst, at, f.bound)
		}
	}
}
