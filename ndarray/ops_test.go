package ndarray

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestBinaryKnownValues(t *testing.T) {
	a := f64(t, []int{2, 3}, 1, 2, 3, 4, 5, 6)
	row := f64(t, []int{3}, 10, 20, 30)
	col := f64(t, []int{2, 1}, 100, 200)
	cases := []struct {
		op   BinaryOp
		x, y *Array
		want []float64
	}{
		{Add, a, row, []float64{11, 22, 33, 14, 25, 36}},
		{Sub, a, col, []float64{-99, -98, -97, -196, -195, -194}},
		{Sub, col, a, []float64{99, 98, 97, 196, 195, 194}},
		{Mul, a, Scalar(2.0), []float64{2, 4, 6, 8, 10, 12}},
		{Div, Scalar(12.0), a, []float64{12, 6, 4, 3, 2.4, 2}},
		{Pow, a, Scalar(2.0), []float64{1, 4, 9, 16, 25, 36}},
		{Maximum, a, Scalar(3.5), []float64{3.5, 3.5, 3.5, 4, 5, 6}},
		{Minimum, a, Scalar(3.5), []float64{1, 2, 3, 3.5, 3.5, 3.5}},
		{SquaredDiff, a, Scalar(2.0), []float64{1, 0, 1, 4, 9, 16}},
		{FloorDiv, f64(t, []int{4}, 7, -7, 7, -7), f64(t, []int{4}, 2, 2, -2, -2), []float64{3, -4, -4, 3}},
		{FloorMod, f64(t, []int{4}, 7, -7, 7, -7), f64(t, []int{4}, 2, 2, -2, -2), []float64{1, 1, -1, -1}},
	}
	for _, c := range cases {
		got, err := Binary(c.op, c.x, c.y)
		if err != nil {
			t.Fatalf("%v: %v", c.op, err)
		}
		assertClose(t, got, c.want, 1e-15)
		// The same in float32.
		x32, _ := Cast(c.x, Float32)
		y32, _ := Cast(c.y, Float32)
		got32, err := Binary(c.op, x32, y32)
		if err != nil {
			t.Fatal(err)
		}
		assertClose(t, got32, c.want, 1e-6)
	}
	// Broadcast of a column and a row gives the outer sum.
	s, err := Binary(Add, col, row)
	if err != nil {
		t.Fatal(err)
	}
	assertShape(t, s, 2, 3)
	assertClose(t, s, []float64{110, 120, 130, 210, 220, 230}, 0)
}

func TestBinaryInts(t *testing.T) {
	x := Must(FromSlice([]int32{7, -7, 9, 2}, 4))
	y := Must(FromSlice([]int32{2, 2, -4, 5}, 4))
	for op, want := range map[BinaryOp][]float64{
		Add: {9, -5, 5, 7}, Div: {3, -3, -2, 0}, FloorDiv: {3, -4, -3, 0}, FloorMod: {1, 1, -3, 2},
		Pow: {49, 49, 0, 32}, Maximum: {7, 2, 9, 5},
	} {
		got, err := Binary(op, x, y)
		if err != nil {
			t.Fatal(op, err)
		}
		assertClose(t, got, want, 0)
	}
	_, err := Binary(Div, x, Must(FromSlice([]int32{1, 0, 1, 1})))
	if !errors.Is(err, ErrDivideByZero) {
		t.Errorf("int division by zero: %v", err)
	}
}

// Float FloorMod is Python's %: the exact remainder, with the sign of y,
// also where x/y is far above 2^53 and x - floor(x/y)*y loses all of it
// (that formula gave -32 for 2e17 mod 0.3, 0 for 1e17 mod 3 and for 1 mod
// 0.1, -256 for the float32 case). The wants are Python's, on the same
// float64 values and, for float32, on the float32 values rounded once.
func TestFloorModFloat(t *testing.T) {
	inf, nan, negZero := math.Inf(1), math.NaN(), math.Copysign(0, -1)
	cases := []struct{ x, y, want float64 }{
		{2e17, 0.3, 0.1014868308343772},
		{1e17, 3, 1},
		{-1e17, 3, 2},
		{1e30, -10, -4},
		{1, 0.1, 0.09999999999999995},
		{5.5, -2, -0.5},
		{-7, 2, 1},
		{-1e-20, 1, 1}, // 1 - 1e-20 rounds to y itself, as in Python
		// Zero remainders take y's sign.
		{6, 3, 0},
		{-6, 3, 0},
		{6, -3, negZero},
		{0, -3, negZero},
		{negZero, 3, 0},
		// An infinite y leaves x when x is zero or has y's sign, and is
		// the answer otherwise.
		{1, inf, 1},
		{-1, inf, inf},
		{1, -inf, -inf},
		{-1, -inf, -1},
		{0, -inf, negZero},
		// No remainder: a zero y (floats do not fail on it, as Div does
		// not), an infinite x, NaN.
		{1, 0, nan},
		{1, negZero, nan},
		{inf, 2, nan},
		{-inf, 2, nan},
		{nan, 2, nan},
		{2, nan, nan},
	}
	xs, ys := make([]float64, len(cases)), make([]float64, len(cases))
	for i, c := range cases {
		xs[i], ys[i] = c.x, c.y
	}
	x := f64(t, []int{len(cases)}, xs...)
	y := f64(t, []int{len(cases)}, ys...)
	// The vector path, and one pair at a time against a broadcast scalar.
	got := Must(Binary(FloorMod, x, y)).Float64s()
	for i, c := range cases {
		one := Must(Binary(FloorMod, f64(t, []int{1}, c.x), Scalar(c.y))).Float64s()[0]
		for _, g := range []float64{got[i], one} {
			if !(g == c.want && math.Signbit(g) == math.Signbit(c.want)) && !(math.IsNaN(g) && math.IsNaN(c.want)) {
				t.Errorf("float64 FloorMod(%v, %v) = %v, want %v", c.x, c.y, g, c.want)
			}
		}
	}
	cases32 := []struct{ x, y, want float32 }{
		{1.4153777e18, -2.172838, -0.34009623527526855},
		{1e17, 3, 1},
		{-1e17, 3, 2},
		{1, 0.1, 0.09999998658895493},
		{-7.5, 2, 0.5},
	}
	for _, c := range cases32 {
		g := Values[float32](Must(Binary(FloorMod, Scalar(c.x), Scalar(c.y))))[0]
		if g != c.want {
			t.Errorf("float32 FloorMod(%v, %v) = %v, want %v", c.x, c.y, g, c.want)
		}
	}
}

func TestBinaryErrors(t *testing.T) {
	a := f64(t, []int{2, 3}, 1, 2, 3, 4, 5, 6)
	if _, err := Binary(Add, a, f64(t, []int{2}, 1, 2)); err == nil {
		t.Error("shapes [2 3] and [2] broadcast")
	}
	if _, err := Binary(Add, a, f32(t, []int{3}, 1, 2, 3)); err == nil {
		t.Error("float64 + float32 accepted")
	}
	if _, err := Binary(Add, Scalar(true), Scalar(false)); err == nil {
		t.Error("bool + bool accepted")
	}
}

func TestUnaryKnownValues(t *testing.T) {
	x := f64(t, []int{5}, -2, -0.5, 0, 0.5, 2)
	cases := []struct {
		op    UnaryOp
		param float64
		want  []float64
	}{
		{Neg, 0, []float64{2, 0.5, 0, -0.5, -2}},
		{Abs, 0, []float64{2, 0.5, 0, 0.5, 2}},
		{Exp, 0, []float64{math.Exp(-2), math.Exp(-0.5), 1, math.Exp(0.5), math.Exp(2)}},
		{Square, 0, []float64{4, 0.25, 0, 0.25, 4}},
		{Tanh, 0, []float64{math.Tanh(-2), math.Tanh(-0.5), 0, math.Tanh(0.5), math.Tanh(2)}},
		{Sigmoid, 0, []float64{1 / (1 + math.Exp(2)), 1 / (1 + math.Exp(0.5)), 0.5, 1 / (1 + math.Exp(-0.5)), 1 / (1 + math.Exp(-2))}},
		{Relu, 0, []float64{0, 0, 0, 0.5, 2}},
		{LeakyRelu, 0.1, []float64{-0.2, -0.05, 0, 0.5, 2}},
		{Sign, 0, []float64{-1, -1, 0, 1, 1}},
		{ScaleBy, 3, []float64{-6, -1.5, 0, 1.5, 6}},
		{Step, 0, []float64{0, 0, 0, 1, 1}},
	}
	for _, c := range cases {
		got, err := Unary(c.op, x, c.param)
		if err != nil {
			t.Fatal(c.op, err)
		}
		assertClose(t, got, c.want, 1e-15)
	}
	pos := f64(t, []int{3}, 0.25, 1, 4)
	for op, want := range map[UnaryOp][]float64{
		Log: {math.Log(0.25), 0, math.Log(4)}, Sqrt: {0.5, 1, 2}, Reciprocal: {4, 1, 0.25}, Rsqrt: {2, 1, 0.5},
	} {
		got, err := Unary(op, pos, 0)
		if err != nil {
			t.Fatal(err)
		}
		assertClose(t, got, want, 1e-15)
	}
	if _, err := Unary(Exp, Must(FromSlice([]int32{1})), 0); err == nil {
		t.Error("exp of int32 accepted")
	}
	got, err := Unary(Abs, Must(FromSlice([]int64{-3, 4})), 0)
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, got, []float64{3, 4}, 0)
}

func TestReduceKnownValues(t *testing.T) {
	a := f64(t, []int{2, 3}, 1, 2, 3, 4, 5, 6)
	cases := []struct {
		op    ReduceOp
		axes  []int
		keep  bool
		shape []int
		want  []float64
	}{
		{Sum, nil, false, []int{}, []float64{21}},
		{Sum, []int{0}, false, []int{3}, []float64{5, 7, 9}},
		{Sum, []int{1}, true, []int{2, 1}, []float64{6, 15}},
		{Sum, []int{-1}, false, []int{2}, []float64{6, 15}},
		{Mean, []int{0, 1}, true, []int{1, 1}, []float64{3.5}},
		{Mean, []int{0}, false, []int{3}, []float64{2.5, 3.5, 4.5}},
		{Max, []int{1}, false, []int{2}, []float64{3, 6}},
		{Min, []int{0}, false, []int{3}, []float64{1, 2, 3}},
		{Prod, []int{1}, false, []int{2}, []float64{6, 120}},
	}
	for _, c := range cases {
		for _, dt := range []DType{Float64, Float32, Int32, Int64} {
			x, _ := Cast(a, dt)
			got, err := Reduce(c.op, x, c.axes, c.keep)
			if err != nil {
				t.Fatal(c.op, err)
			}
			assertShape(t, got, c.shape...)
			want := c.want
			if dt.IsInt() && c.op == Mean {
				want = make([]float64, len(c.want))
				for i, v := range c.want {
					want[i] = math.Trunc(v)
				}
			}
			assertClose(t, got, want, 1e-6)
		}
	}
	if _, err := Reduce(Sum, a, []int{2}, false); err == nil {
		t.Error("axis 2 of a matrix accepted")
	}
	if _, err := Reduce(Sum, a, []int{0, 0}, false); err == nil {
		t.Error("repeated axis accepted")
	}
	b := Must(FromSlice([]bool{true, false, true, true}, 2, 2))
	all, _ := Reduce(All, b, []int{1}, false)
	anyv, _ := Reduce(Any, b, []int{0}, true)
	assertClose(t, all, []float64{0, 1}, 0)
	assertClose(t, anyv, []float64{1, 1}, 0)
	// NaN propagates through max; an empty sum is 0 and an empty max -Inf.
	n := f64(t, []int{3}, 1, math.NaN(), 2)
	m, _ := Reduce(Max, n, nil, false)
	if !math.IsNaN(m.Float()) {
		t.Errorf("max with NaN = %v", m.Float())
	}
	e := Must(Zeros(Float64, 0, 3))
	s, _ := Reduce(Sum, e, []int{0}, false)
	assertClose(t, s, []float64{0, 0, 0}, 0)
	mx, _ := Reduce(Max, e, []int{0}, false)
	assertClose(t, mx, []float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}, 0)
}

func TestArgMax(t *testing.T) {
	a := f64(t, []int{2, 3}, 1, 5, 5, 7, 0, -1)
	got, err := ArgMax(a, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	if got.DType() != Int64 {
		t.Fatalf("argmax dtype %v", got.DType())
	}
	assertClose(t, got, []float64{1, 0}, 0) // ties: first
	got, _ = ArgMax(a, 0, true)
	assertShape(t, got, 1, 3)
	assertClose(t, got, []float64{1, 0, 0}, 0)
	got, _ = ArgMin(a, -1, false)
	assertClose(t, got, []float64{0, 2}, 0)
	got, _ = ArgMax(f64(t, []int{3}, 1, math.NaN(), 3), 0, false)
	assertClose(t, got, []float64{1}, 0)
	if _, err := ArgMax(Must(Zeros(Float64, 2, 0)), 1, false); err == nil {
		t.Error("argmax along an empty axis accepted")
	}
	// A scalar has no axes, as for Reduce: any axis is out of range (axis
	// 7 gave index 0).
	for _, axis := range []int{0, -1, 7} {
		if r, err := ArgMax(Scalar(1.0), axis, false); err == nil || !strings.Contains(err.Error(), "out of range for rank 0") {
			t.Errorf("argmax of a scalar along axis %d: %v, %v", axis, r, err)
		}
		if r, err := ArgMin(Scalar(int32(1)), axis, true); err == nil || !strings.Contains(err.Error(), "out of range for rank 0") {
			t.Errorf("argmin of a scalar along axis %d: %v, %v", axis, r, err)
		}
	}
}

func naiveMatMul(a, b []float64, m, k, n int) []float64 {
	c := make([]float64, m*n)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			for p := 0; p < k; p++ {
				c[i*n+j] += a[i*k+p] * b[p*n+j]
			}
		}
	}
	return c
}

func TestMatMul(t *testing.T) {
	a := f64(t, []int{2, 3}, 1, 2, 3, 4, 5, 6)
	b := f64(t, []int{3, 2}, 7, 8, 9, 10, 11, 12)
	c, err := MatMul(a, b, false, false)
	if err != nil {
		t.Fatal(err)
	}
	assertShape(t, c, 2, 2)
	assertClose(t, c, []float64{58, 64, 139, 154}, 0)
	// aᵀ·aᵀ... use transposes: (bᵀ)ᵀ = b.
	bt, _ := Permute(b)
	c2, _ := MatMul(a, bt, false, true)
	assertClose(t, c2, []float64{58, 64, 139, 154}, 0)
	at, _ := Permute(a)
	c3, _ := MatMul(at, b, true, false)
	assertClose(t, c3, []float64{58, 64, 139, 154}, 0)
	// Vectors: row times matrix, matrix times column, dot.
	v := f64(t, []int{3}, 1, 0, -1)
	vm, _ := MatMul(v, b, false, false)
	assertShape(t, vm, 2)
	assertClose(t, vm, []float64{-4, -4}, 0)
	mv, _ := MatMul(a, v, false, false)
	assertShape(t, mv, 2)
	assertClose(t, mv, []float64{-2, -2}, 0)
	dot, _ := MatMul(v, v, false, false)
	assertShape(t, dot)
	assertClose(t, dot, []float64{2}, 0)
	// Batched with a broadcast batch axis: x is [bx, 1, m, k], y [by, k, n]
	// (given as yᵀ when transB), z [bx, by, m, n].
	rng := rand.New(rand.NewPCG(1, 2))
	batched := func(bx, by, m, k, n int, transB bool, tol float64) {
		t.Helper()
		x := randArray(t, rng, Float64, bx, 1, m, k)
		y := randArray(t, rng, Float64, by, k, n)
		yy := y
		if transB {
			yy = Must(Contiguous(Must(Permute(y, 0, 2, 1))))
		}
		z, err := MatMul(x, yy, false, transB)
		if err != nil {
			t.Fatal(err)
		}
		assertShape(t, z, bx, by, m, n)
		xs, ys, zs := x.Float64s(), y.Float64s(), z.Float64s()
		for i := 0; i < bx; i++ {
			for j := 0; j < by; j++ {
				want := naiveMatMul(xs[i*m*k:(i+1)*m*k], ys[j*k*n:(j+1)*k*n], m, k, n)
				got := zs[(i*by+j)*m*n : (i*by+j+1)*m*n]
				for q := range want {
					if math.Abs(want[q]-got[q]) > tol {
						t.Fatalf("%d×%d batches of %d×%d×%d, transB %v, batch (%d,%d): element %d is %v, want %v",
							bx, by, m, k, n, transB, i, j, q, got[q], want[q])
					}
				}
			}
		}
	}
	batched(4, 2, 3, 5, 2, false, 1e-12)
	// big enough to run the products side by side (kernels.GemmBatch)
	batched(4, 3, 64, 64, 64, false, 1e-9)
	batched(4, 3, 64, 64, 64, true, 1e-9)
	// Integer matmul.
	ia, _ := Cast(a, Int32)
	ib, _ := Cast(b, Int32)
	ic, _ := MatMul(ia, ib, false, false)
	assertClose(t, ic, []float64{58, 64, 139, 154}, 0)
	_, err = MatMul(a, a, false, false)
	if err == nil || !contains(err.Error(), "[2 3]") {
		t.Errorf("incompatible matmul error %v does not name the shapes", err)
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func TestSoftmax(t *testing.T) {
	a := f64(t, []int{2, 3}, 1, 2, 3, 1000, 1000, 1000)
	s, err := Softmax(a, -1)
	if err != nil {
		t.Fatal(err)
	}
	e := []float64{math.Exp(-2), math.Exp(-1), 1}
	z := e[0] + e[1] + e[2]
	assertClose(t, s, []float64{e[0] / z, e[1] / z, e[2] / z, 1.0 / 3, 1.0 / 3, 1.0 / 3}, 1e-15)
	ls, _ := LogSoftmax(a, 1)
	assertClose(t, ls, []float64{-2 - math.Log(z), -1 - math.Log(z), -math.Log(z), -math.Log(3), -math.Log(3), -math.Log(3)}, 1e-14)
	s0, _ := Softmax(a, 0)
	assertClose(t, s0, []float64{0, 0, 0, 1, 1, 1}, 1e-15)
}

func TestShapeOps(t *testing.T) {
	a := f64(t, []int{2, 3}, 1, 2, 3, 4, 5, 6)
	p, _ := Permute(a, 1, 0)
	assertShape(t, p, 3, 2)
	assertClose(t, p, []float64{1, 4, 2, 5, 3, 6}, 0)
	if !p.IsPacked() {
		t.Error("permute result not packed")
	}
	r, err := Reshape(a, 3, -1)
	if err != nil {
		t.Fatal(err)
	}
	assertShape(t, r, 3, 2)
	if !r.SameBuffer(a) {
		t.Error("reshape of a packed array copied")
	}
	if _, err := Reshape(a, 4, -1); err == nil {
		t.Error("reshape of 6 to (4,-1) accepted")
	}
	c, _ := Concat(0, a, f64(t, []int{1, 3}, 7, 8, 9))
	assertShape(t, c, 3, 3)
	assertClose(t, c, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}, 0)
	c1, _ := Concat(-1, a, f64(t, []int{2, 1}, 7, 8))
	assertClose(t, c1, []float64{1, 2, 3, 7, 4, 5, 6, 8}, 0)
	if _, err := Concat(0, a, f64(t, []int{1, 2}, 7, 8)); err == nil {
		t.Error("concat of mismatched shapes accepted")
	}
	s, _ := Stack(1, f64(t, []int{2}, 1, 2), f64(t, []int{2}, 3, 4))
	assertShape(t, s, 2, 2)
	assertClose(t, s, []float64{1, 3, 2, 4}, 0)
	s0, _ := Stack(0, f64(t, []int{2}, 1, 2), f64(t, []int{2}, 3, 4))
	assertClose(t, s0, []float64{1, 2, 3, 4}, 0)
	e, _ := ExpandDims(a, -1)
	assertShape(t, e, 2, 3, 1)
	q, _ := Squeeze(e)
	assertShape(t, q, 2, 3)
	if _, err := Squeeze(a, 0); err == nil {
		t.Error("squeeze of a size-2 axis accepted")
	}
	tl, _ := Tile(f64(t, []int{1, 2}, 1, 2), 2, 2)
	assertShape(t, tl, 2, 4)
	assertClose(t, tl, []float64{1, 2, 1, 2, 1, 2, 1, 2}, 0)
	pd, _ := Pad(f64(t, []int{2}, 1, 2), []int{1}, []int{2}, 9)
	assertClose(t, pd, []float64{9, 1, 2, 9, 9}, 0)
	sl, _ := Slice(a, []int{0, 1}, []int{2, 3})
	assertClose(t, sl, []float64{2, 3, 5, 6}, 0)
}

func TestCastCompareWhere(t *testing.T) {
	a := f64(t, []int{4}, -1.7, 0, 2.5, 3)
	i, _ := Cast(a, Int32)
	assertClose(t, i, []float64{-1, 0, 2, 3}, 0)
	b, _ := Cast(a, Bool)
	assertClose(t, b, []float64{1, 0, 1, 1}, 0)
	f, _ := Cast(b, Float32)
	assertClose(t, f, []float64{1, 0, 1, 1}, 0)
	lt, _ := Compare(Lt, a, Scalar(1.0))
	assertClose(t, lt, []float64{1, 1, 0, 0}, 0)
	eq, _ := Compare(Eq, i, Must(FromSlice([]int32{-1, 1, 2, 0})))
	assertClose(t, eq, []float64{1, 0, 1, 0}, 0)
	w, _ := Where(lt, a, Scalar(100.0))
	assertClose(t, w, []float64{-1.7, 0, 100, 100}, 0)
	n, _ := Not(lt)
	assertClose(t, n, []float64{0, 0, 1, 1}, 0)
	x, _ := Logic(Xor, lt, Must(FromSlice([]bool{true, false, true, false})))
	assertClose(t, x, []float64{0, 1, 1, 0}, 0)
}

// Binary ops on two different views of one buffer: every second element
// and the ones between, every second and every element, and both starting
// at the same place with the same step on one side shifted by a row; the
// runs are gathered separately unless they are the same elements.
func TestBinaryViewsOfOneBuffer(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for _, dt := range []DType{Float32, Float64, Int32} {
		var buf *Array
		if dt == Int32 {
			buf = Must(Cast(Must(Unary(ScaleBy, randArray(t, rng, Float64, 4, 3000), 100)), Int32))
		} else {
			buf = randArray(t, rng, dt, 4, 3000)
		}
		view := func(off, step int) *Array {
			v, err := buf.WithLayout(Layout{Shape: []int{3, 1200}, Strides: []int{3000, step}, Offset: off})
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		pairs := [][2]*Array{
			{view(0, 2), view(1, 2)},
			{view(0, 2), view(0, 1)},
			{view(0, 2), view(3000, 2)},
			{view(5, 2), view(5, 2)},
		}
		for i, p := range pairs {
			for _, op := range []BinaryOp{Add, Sub} {
				got, err := Binary(op, p[0], p[1])
				if err != nil {
					t.Fatal(err)
				}
				want, _ := Binary(op, Must(Contiguous(p[0])), Must(Contiguous(p[1])))
				if !Equal(got, want) {
					t.Fatalf("%v pair %d %v: views of one buffer disagree with their copies", dt, i, op)
				}
			}
		}
	}
}

// Every function gives the same answer on packed, strided and padded
// layouts of the same values.
func TestLayoutsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	// {2, 1300}: strided runs longer than a part of the scratch (1024
	// float32, 512 float64), gathered in several parts.
	// {300, 3}, {90, 2, 4}: short rows, many of them (a row broadcast over
	// them is tiled, their sums over axis 0 grouped, when packed).
	shapes := [][]int{{}, {1}, {7}, {3, 5}, {2, 3, 4}, {4, 1, 3}, {2, 3, 1, 5}, {65}, {3, 300}, {2, 1300}, {300, 3}, {90, 2, 4}}
	for _, dt := range []DType{Float32, Float64} {
		for _, sh := range shapes {
			x := randArray(t, rng, dt, sh...)
			y := randArray(t, rng, dt, sh...)
			forms := map[string][2]*Array{
				"strided": {strided(t, x), strided(t, y)},
				"padded":  {padded(t, x), padded(t, y)},
				"mixed":   {padded(t, x), strided(t, y)},
			}
			for _, op := range []BinaryOp{Add, Sub, Mul, Div, Maximum, Minimum, Pow, SquaredDiff} {
				want, err := Binary(op, x, y)
				if err != nil {
					t.Fatal(err)
				}
				for name, f := range forms {
					got, err := Binary(op, f[0], f[1])
					if err != nil {
						t.Fatal(err)
					}
					if !Equal(got, want) {
						t.Fatalf("%v %v %v %s: %v vs %v", dt, sh, op, name, got, want)
					}
				}
				// op(a, a): the same strided runs on both sides.
				want, _ = Binary(op, x, x)
				for name, f := range forms {
					if got, _ := Binary(op, f[0], f[0]); !Equal(got, want) {
						t.Fatalf("%v %v %v %s on itself", dt, sh, op, name)
					}
				}
				// Broadcasting the last row on either side.
				if len(sh) >= 2 {
					row := randArray(t, rng, dt, sh[len(sh)-1])
					w1, _ := Binary(op, x, row)
					w2, _ := Binary(op, row, x)
					for name, f := range forms {
						g1, _ := Binary(op, f[0], row)
						g2, _ := Binary(op, padded(t, row), f[0])
						if !Equal(g1, w1) || !Equal(g2, w2) {
							t.Fatalf("%v %v %v row %s", dt, sh, op, name)
						}
					}
				}
				// Broadcasting a scalar on either side.
				s := randArray(t, rng, dt)
				w1, _ := Binary(op, x, s)
				w2, _ := Binary(op, s, x)
				for name, f := range forms {
					g1, _ := Binary(op, f[0], s)
					g2, _ := Binary(op, s, f[0])
					if !Equal(g1, w1) || !Equal(g2, w2) {
						t.Fatalf("%v %v %v scalar %s", dt, sh, op, name)
					}
				}
			}
			for _, op := range []UnaryOp{Neg, Abs, Exp, Square, Tanh, Sigmoid, Relu, LeakyRelu, Sign, Softplus} {
				want, _ := Unary(op, x, 0.2)
				for name, f := range forms {
					got, _ := Unary(op, f[0], 0.2)
					if !Equal(got, want) {
						t.Fatalf("%v %v %v %s", dt, sh, op, name)
					}
				}
			}
			// In place: dst is the (padded) input itself.
			for name, f := range forms {
				d := Must(Copy(f[0]))
				d = padded(t, d)
				if err := UnaryInto(Tanh, d, d, 0); err != nil {
					t.Fatal(err)
				}
				want, _ := Unary(Tanh, x, 0)
				if !Equal(Must(Contiguous(d)), want) {
					t.Fatalf("in-place tanh on %s", name)
				}
			}
			for _, op := range []ReduceOp{Sum, Mean, Max, Min, Prod} {
				axesList := [][]int{nil}
				for i := range sh {
					axesList = append(axesList, []int{i})
				}
				if len(sh) >= 2 {
					axesList = append(axesList, []int{0, len(sh) - 1})
				}
				for _, axes := range axesList {
					want, _ := Reduce(op, x, axes, true)
					for name, f := range forms {
						got, _ := Reduce(op, f[0], axes, true)
						if !AllClose(got, want, 1e-5, 1e-6) {
							t.Fatalf("%v %v %v axes %v %s: %v vs %v", dt, sh, op, axes, name, got, want)
						}
					}
				}
			}
			if len(sh) > 0 {
				want, _ := Softmax(x, -1)
				want0, _ := LogSoftmax(x, 0)
				wantArg, _ := ArgMax(x, 0, false)
				for name, f := range forms {
					got, _ := Softmax(f[0], -1)
					got0, _ := LogSoftmax(f[0], 0)
					gotArg, _ := ArgMax(f[0], 0, false)
					if !Equal(got, want) || !Equal(got0, want0) || !Equal(gotArg, wantArg) {
						t.Fatalf("softmax/argmax %v %v %s", dt, sh, name)
					}
				}
			}
			if len(sh) == 2 {
				yt := randArray(t, rng, dt, sh[1], 3)
				want, _ := MatMul(x, yt, false, false)
				for name, f := range forms {
					got, err := MatMul(f[0], padded(t, yt), false, false)
					if err != nil {
						t.Fatal(err)
					}
					if !AllClose(got, want, 1e-5, 1e-6) {
						t.Fatalf("matmul %v %v %s", dt, sh, name)
					}
				}
			}
			pw, _ := Permute(x)
			for name, f := range forms {
				got, _ := Permute(f[0])
				if !Equal(got, pw) {
					t.Fatalf("permute %s", name)
				}
			}
		}
	}
}

func TestConstructors(t *testing.T) {
	if _, err := FromSlice([]float32{1, 2, 3}, 2, 2); err == nil {
		t.Error("3 values for 2x2 accepted")
	}
	if _, err := Zeros(Float32, 2, -1); err == nil {
		t.Error("negative shape accepted")
	}
	l, _ := Linspace(Float64, 1, 12, 12)
	assertClose(t, l, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 1e-15)
	r, _ := Arange(Int64, 5, -2, 3)
	assertClose(t, r, []float64{5, 3, 1}, 0)
	s := f64(t, []int{2, 2}, 1, 2, 3, 4)
	if got := s.String(); got != "float64[2 2] [[1 2] [3 4]]" {
		t.Errorf("String = %q", got)
	}
	full, _ := Full(Bool, 1, 2)
	assertClose(t, full, []float64{1, 1}, 0)
}

// Maximum and Minimum of +0 and -0 give y's zero (the kernels' rule, and
// the scalar loop's) however the operands are laid out: with x a
// broadcast scalar the runs went to MaxScalar(y, x), which keeps x's zero.
func TestMaxMinZerosBroadcast(t *testing.T) {
	for _, dt := range []DType{Float32, Float64} {
		for _, op := range []BinaryOp{Maximum, Minimum} {
			for _, xv := range []float64{0, math.Copysign(0, -1)} {
				yv := -xv
				full := func(v float64, shape ...int) *Array { return Must(Full(dt, v, shape...)) }
				for name, xy := range map[string][2]*Array{
					"packed":          {full(xv, 5), full(yv, 5)},
					"x scalar":        {full(xv), full(yv, 5)},
					"y scalar":        {full(xv, 5), full(yv)},
					"both scalars":    {full(xv), full(yv)},
					"x broadcast row": {full(xv, 2, 1), full(yv, 2, 3)},
					"y broadcast row": {full(xv, 2, 3), full(yv, 2, 1)},
				} {
					got := Must(Binary(op, xy[0], xy[1]))
					for i, v := range got.Float64s() {
						if math.Signbit(v) != math.Signbit(yv) {
							t.Errorf("%v %v(%v, %v) %s: element %d is %v, want y's zero", dt, op, xv, yv, name, i, v)
						}
					}
				}
			}
		}
	}
}

// Floats beyond an integer's range saturate and NaN gives 0, the same on
// every machine (Go's own conversion gives MinInt on amd64 and saturates
// on arm64).
func TestCastFloatToIntSaturates(t *testing.T) {
	in := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e20, -1e20, 3.7, -3.7, 2147483647.5, -2147483648.9, 2147483648, 9.2e18}
	want := map[DType][]float64{
		Int32: {0, math.MaxInt32, math.MinInt32, math.MaxInt32, math.MinInt32, 3, -3, math.MaxInt32, math.MinInt32, math.MaxInt32, math.MaxInt32},
		Int64: {0, math.MaxInt64, math.MinInt64, math.MaxInt64, math.MinInt64, 3, -3, 2147483647, -2147483648, 2147483648, 9.2e18},
	}
	for _, src := range []DType{Float64, Float32} {
		x := Must(Cast(Must(FromSlice(in)), src))
		for dt, w := range want {
			c := Must(Cast(x, dt))
			for i, v := range c.Float64s() {
				wi := w[i]
				if src == Float32 && (in[i] == 2147483647.5 || in[i] == -2147483648.9 || in[i] == 9.2e18) {
					wi = math.Trunc(float64(float32(in[i]))) // float32 rounds them first
					if dt == Int32 {
						wi = max(min(wi, math.MaxInt32), math.MinInt32)
					}
				}
				if v != wi {
					t.Errorf("%v %v -> %v: %v, want %v", src, in[i], dt, v, wi)
				}
			}
		}
	}
}

// ReduceInto and MatMulInto write dst before (or while) they read their
// inputs, so a dst on an input's buffer gave wrong values silently: a sum
// over a size-1 axis into the array itself gave zeros, a product into its
// left operand read rows it had already overwritten. Both now refuse.
func TestIntoSharedBufferRefused(t *testing.T) {
	a := f64(t, []int{3, 1}, 1, 2, 3)
	if err := ReduceInto(Sum, a, a, []int{1}); err == nil {
		t.Errorf("ReduceInto a itself: no error, a = %v", a.Float64s())
	}
	whole := f64(t, []int{6}, 1, 2, 3, 4, 5, 6)
	x := Must(whole.WithLayout(Layout{Shape: []int{2, 2}, Strides: []int{2, 1}}))
	d := Must(whole.WithLayout(Layout{Shape: []int{2}, Strides: []int{1}, Offset: 4}))
	if err := ReduceInto(Max, d, x, []int{1}); err == nil {
		t.Errorf("ReduceInto a view of a's buffer: no error")
	}
	for _, dt := range []DType{Float64, Int32} {
		m := Must(Cast(f64(t, []int{2, 2}, 1, 2, 3, 4), dt))
		swap := Must(Cast(f64(t, []int{2, 2}, 0, 1, 1, 0), dt))
		if err := MatMulInto(m, m, swap, false, false); err == nil {
			t.Errorf("%v: MatMulInto its left operand: no error, got %v (want [2 1 4 3])", dt, m.Float64s())
		}
		m = Must(Cast(f64(t, []int{2, 2}, 1, 2, 3, 4), dt))
		if err := MatMulInto(m, swap, m, false, false); err == nil {
			t.Errorf("%v: MatMulInto its right operand: no error, got %v (want [3 4 1 2])", dt, m.Float64s())
		}
	}
	// Other buffers still work.
	out := Must(Zeros(Float64, 3))
	if err := ReduceInto(Sum, out, a, []int{1}); err != nil || !slices.Equal(out.Float64s(), []float64{1, 2, 3}) {
		t.Errorf("ReduceInto: %v %v", err, out.Float64s())
	}
}

// Errors name the function and the operands' shapes (and dtypes where
// they are the complaint): Logic's said "logical op" whichever op it was,
// Pad's of a string array said only "cannot compute with dtype utf8", and
// Pad's and Tile's negative sizes gave no shape.
func TestErrorsNameOpAndShape(t *testing.T) {
	b := Must(Zeros(Bool, 2, 3))
	f := Must(Zeros(Float32, 2, 3))
	s := Must(FromStrings([]string{"a", "b"}))
	_, e1 := Logic(Xor, f, b)
	_, e2 := Logic(Or, b, Must(Zeros(Bool, 4)))
	_, e3 := Pad(s, []int{1}, []int{1}, 0)
	_, e4 := Pad(f, []int{-1, 0}, []int{1, 0}, 0)
	_, e5 := Tile(f, -1, 1)
	for _, c := range []struct {
		err  error
		want []string
	}{
		{e1, []string{"xor", "float32", "[2 3]"}},
		{e2, []string{"or", "[2 3]", "[4]"}},
		{e3, []string{"pad", "utf8", "[2]"}},
		{e4, []string{"pad", "[2 3]", "-1"}},
		{e5, []string{"tile", "[2 3]", "-1"}},
	} {
		if c.err == nil {
			t.Errorf("no error, want one naming %q", c.want)
			continue
		}
		for _, w := range c.want {
			if !contains(c.err.Error(), w) {
				t.Errorf("error %q does not name %q", c.err, w)
			}
		}
	}
}

// The documented edges of the reductions and scalar ops on integers:
// sums, products and matrix products wrap around, a mean truncates the
// wrapped sum, ScaleBy and AddScalar truncate their parameter first.
func TestIntegerEdgesDocumented(t *testing.T) {
	big := Must(FromSlice([]int32{math.MaxInt32, 1, 2}))
	if got := Must(Reduce(Sum, big, nil, false)).Int64s()[0]; got != math.MinInt32+2 {
		t.Errorf("int32 sum wrapping: %d", got)
	}
	if got := Must(Reduce(Prod, big, nil, false)).Int64s()[0]; got != -2 {
		t.Errorf("int32 prod wrapping: %d", got)
	}
	if got := Must(Reduce(Mean, big, nil, false)).Int64s()[0]; got != (math.MinInt32+2)/3 {
		t.Errorf("int32 mean of the wrapped sum: %d", got)
	}
	e := Must(Zeros(Int32, 0))
	for op, want := range map[ReduceOp]int64{Sum: 0, Prod: 1, Max: math.MinInt32, Min: math.MaxInt32, Mean: 0} {
		if got := Must(Reduce(op, e, nil, false)).Int64s()[0]; got != want {
			t.Errorf("%v of an empty int32 array: %d, want %d", op, got, want)
		}
	}
	m := Must(MatMul(Must(FromSlice([]int32{math.MaxInt32, 1}, 1, 2)), Must(FromSlice([]int32{1, 1}, 2, 1)), false, false))
	if got := m.Int64s()[0]; got != math.MinInt32 {
		t.Errorf("int32 matmul wrapping: %d", got)
	}
	x := Must(FromSlice([]int64{3, -3}))
	if got := Must(Unary(ScaleBy, x, 0.5)).Int64s(); !slices.Equal(got, []int64{0, 0}) {
		t.Errorf("int64 scale by 0.5: %v", got)
	}
	if got := Must(Unary(AddScalar, x, 1.9)).Int64s(); !slices.Equal(got, []int64{4, -2}) {
		t.Errorf("int64 add 1.9: %v", got)
	}
}

// TestBinaryStridedKernels covers the runs binaryRuns gives the strided
// kernels (a contiguous output, operands with the same stride or one of
// them packed): row lengths around the vector widths, strides with and
// without a kernel, NaN and signed zeros, the last row's operands ending
// at their buffers' ends and an operand added to itself, against the
// element-at-a-time op.
func TestBinaryStridedKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	specials := []float64{math.NaN(), 0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), 1, -1}
	for _, dt := range []DType{Float32, Float64} {
		for _, inc := range []int{2, 3, 4, 5} {
			for _, cols := range []int{1, 3, 8, 15, 16, 17, 31, 32, 33, 47, 64, 100} {
				const rows = 3
				view := func(inc int) *Array {
					// rows of cols elements inc apart, the last element of
					// the last row the buffer's last
					n := (rows-1)*cols*inc + (cols-1)*inc + 1
					buf := Must(Zeros(dt, n))
					for i := 0; i < n; i++ {
						v := rng.NormFloat64()
						if rng.IntN(6) == 0 {
							v = specials[rng.IntN(len(specials))]
						}
						setAt(buf, []int{i}, v)
					}
					v, err := buf.WithLayout(Layout{Shape: []int{rows, cols}, Strides: []int{cols * inc, inc}})
					if err != nil {
						t.Fatal(err)
					}
					return v
				}
				x, y, p := view(inc), view(inc), view(1)
				for _, op := range []BinaryOp{Add, Sub, Mul, Div, Maximum, Minimum} {
					for _, pair := range [][2]*Array{{x, y}, {x, x}, {x, p}, {p, y}} {
						out := Must(Zeros(dt, rows, cols))
						if err := BinaryInto(op, out, pair[0], pair[1]); err != nil {
							t.Fatal(err)
						}
						for i := 0; i < rows*cols; i++ {
							idx := unravel(i, []int{rows, cols})
							a, b := getAt(pair[0], idx), getAt(pair[1], idx)
							want := refBinary(op, dt, a, b)
							if (op == Maximum || op == Minimum) && a == 0 && b == 0 {
								want = b // a tie keeps y's zero (TestMaxMinZerosBroadcast)
							}
							if got := getAt(out, idx); !(got == want && math.Signbit(got) == math.Signbit(want) || got != got && want != want) {
								t.Fatalf("%v %v inc %d cols %d: %v at %v = %v, want %v (of %v and %v)", dt, op, inc, cols, op, idx, got, want, a, b)
							}
						}
					}
				}
			}
		}
	}
}

// A float32 sum or mean along a contiguous run (the whole array, or its
// last axis) keeps float32's precision however long the run: the chunks'
// sums are added in float64, as a pairwise sum would bound the error. They
// were added in float32, one per 256 elements, so the error grew with the
// length: 1e7 × 0.1 summed to 1.000374e6 (3.7e-4 off).
func TestFloat32SumPrecision(t *testing.T) {
	const n = 10_000_000
	v := make([]float32, n)
	for i := range v {
		v[i] = 0.1
	}
	want := float64(float32(0.1)) * n
	a := Must(FromSlice(v, n))
	rows := Must(FromSlice(v, 4, n/4))
	for _, c := range []struct {
		name string
		got  func() []float64
		want float64
	}{
		{"sum", func() []float64 { return Must(Reduce(Sum, a, nil, false)).Float64s() }, want},
		{"mean", func() []float64 { return Must(Reduce(Mean, a, nil, false)).Float64s() }, float64(float32(0.1))},
		{"sum of rows", func() []float64 { return Must(Reduce(Sum, rows, []int{1}, false)).Float64s() }, want / 4},
	} {
		for i, g := range c.got() {
			if rel := math.Abs(g-c.want) / c.want; rel > 1e-6 {
				t.Errorf("%s[%d] = %v, want %v (relative error %.2g)", c.name, i, g, c.want, rel)
			}
		}
	}
}

// TestFloat32OuterSumPrecision sums float32 arrays over outer axes, where
// each run adds a row into the output's row (column sums, the batch axis
// of a bias gradient): added one row at a time in float32, 1e6 rows of 0.1
// came to 1.0096e5 (9.6e-3 off).
func TestFloat32OuterSumPrecision(t *testing.T) {
	const rows = 1_000_000
	v := make([]float32, rows*4)
	for i := range v {
		v[i] = 0.1
	}
	one := float64(float32(0.1))
	cols := Must(FromSlice(v, rows, 4))
	// The same elements as [rows 2 2], summed over axes 0 and 2: each run
	// of 2 collapses into one output element, which the next run leaves.
	cube := Must(FromSlice(v, rows, 2, 2))
	// A transposed view: each run gathers a column.
	tr := Must(Permute(Must(FromSlice(v, 4, rows)), 1, 0))
	for _, c := range []struct {
		name string
		got  func() []float64
		want float64
	}{
		{"column sums", func() []float64 { return Must(Reduce(Sum, cols, []int{0}, false)).Float64s() }, one * rows},
		{"column means", func() []float64 { return Must(Reduce(Mean, cols, []int{0}, true)).Float64s() }, one},
		{"sums over axes 0, 2", func() []float64 { return Must(Reduce(Sum, cube, []int{0, 2}, false)).Float64s() }, 2 * one * rows},
		{"column sums of a transposed view", func() []float64 { return Must(Reduce(Sum, tr, []int{0}, false)).Float64s() }, one * rows},
	} {
		got := c.got()
		if len(got) == 0 {
			t.Fatalf("%s: no output", c.name)
		}
		for i, g := range got {
			if rel := math.Abs(g-c.want) / c.want; rel > 1e-6 {
				t.Errorf("%s[%d] = %v, want %v (relative error %.2g)", c.name, i, g, c.want, rel)
			}
		}
	}
}

// TestOuterSumBlocks checks the blocked float sums over outer axes against
// float64 sums of the same elements: blocks that do not divide the axis,
// several outer reduced axes (blocks of one along the longest), a
// reduced inner run between them, a stepped input and a stepped dst, and
// means; float64 inputs take the same path.
func TestOuterSumBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for _, c := range []struct {
		shape []int
		axes  []int
	}{
		{[]int{1000, 3}, []int{0}},
		{[]int{2100, 3}, []int{0}},
		{[]int{130, 5}, []int{0}},
		{[]int{65, 2}, []int{0}},
		{[]int{300, 4, 70}, []int{0, 2}},
		{[]int{90, 3, 80, 2}, []int{0, 2}},
		{[]int{20, 3, 20, 2}, []int{0, 2}},
		{[]int{2, 400, 3}, []int{0, 1}},
	} {
		for _, dt := range []DType{Float32, Float64} {
			x := randArray(t, rng, dt, c.shape...)
			// The sums in float64 of the same (rounded) elements, by
			// index arithmetic (not Reduce, which takes the path tested).
			out := ReducedShape(c.shape, c.axes, true)
			want := make([]float64, shapeSize(out))
			for i, v := range x.Float64s() {
				o, rest, step := 0, i, 1
				for a := len(c.shape) - 1; a >= 0; a-- {
					if out[a] > 1 {
						o += rest % c.shape[a] * step
					}
					rest /= c.shape[a]
					step *= out[a]
				}
				want[o] += v
			}
			n := float64(x.Size() / len(want))
			tol := 1e-5
			if dt == Float64 {
				tol = 1e-12
			}
			for _, in := range []*Array{x, strided(t, x)} {
				for k, op := range []ReduceOp{Sum, Mean, Sum, Mean} {
					out := Must(Zeros(dt, out...))
					if k >= 2 {
						out = strided(t, out)
					}
					if err := ReduceInto(op, out, in, c.axes); err != nil {
						t.Fatal(err)
					}
					for i, g := range out.Float64s() {
						w := want[i]
						if op == Mean {
							w /= n
						}
						if math.Abs(g-w) > tol*math.Sqrt(n) {
							t.Errorf("%v %v of %v over %v (packed %v, into packed %v): [%d] = %v, want %v", dt, op, c.shape, c.axes, in.IsPacked(), out.IsPacked(), i, g, w)
						}
					}
				}
			}
		}
	}
}

// TestFloat32SoftmaxLongRow: softmax of a float32 row of 1e6 elements
// divided by the sum of its exponentials taken by one kernel call in
// float32 lanes, 1e-5 off, so every probability was 1e-5 off (and the
// log-probabilities 2.5e-6).
func TestFloat32SoftmaxLongRow(t *testing.T) {
	const n = 1_000_000
	rng := rand.New(rand.NewPCG(4, 4))
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(rng.NormFloat64()*3 + 80)
	}
	a := Must(FromSlice(v, 1, n))
	sm, ls := Must(Softmax(a, -1)).Float64s(), Must(LogSoftmax(a, -1)).Float64s()
	m := math.Inf(-1)
	for _, x := range v {
		m = math.Max(m, float64(x))
	}
	s := 0.0
	for _, x := range v {
		s += math.Exp(float64(x) - m)
	}
	var worst, worstLog float64
	for i, x := range v {
		want := math.Exp(float64(x)-m) / s
		worst = max(worst, math.Abs(sm[i]-want)/want)
		wl := float64(x) - m - math.Log(s)
		worstLog = max(worstLog, math.Abs(ls[i]-wl)/math.Max(1, math.Abs(wl)))
	}
	// float32 rounding of e^(x-m) and of the quotient: a few 1e-7.
	if worst > 1e-6 || worstLog > 1e-6 {
		t.Errorf("softmax of %d float32: relative error up to %.2g, log_softmax %.2g; want 1e-6", n, worst, worstLog)
	}
}

// TestFloatMeanDivides: a float mean multiplied the sum by 1/n rounded to
// the dtype, a second rounding: the float32 mean of three 0.1 was
// 0.10000001 (numpy and PyTorch divide: 0.1). It must be the sum divided
// by n, correctly rounded.
func TestFloatMeanDivides(t *testing.T) {
	for n := 1; n <= 12; n++ {
		for _, x := range []float32{0.1, 0.2, 1.1, 1.3, 2.2, 7.7, 9.9} {
			v := make([]float32, n)
			for i := range v {
				v[i] = x
			}
			for _, dt := range []DType{Float32, Float64} {
				a := Must(Cast(Must(FromSlice(v, 1, n)), dt))
				s := Must(Reduce(Sum, a, []int{1}, false)).Float64s()[0]
				m := Must(Reduce(Mean, a, []int{1}, false)).Float64s()[0]
				want := s / float64(n)
				if dt == Float32 {
					want = float64(float32(s) / float32(n))
				}
				if m != want {
					t.Errorf("%v mean of %d × %v = %v, want the sum %v / %d = %v", dt, n, x, m, s, n, want)
				}
			}
		}
	}
}
