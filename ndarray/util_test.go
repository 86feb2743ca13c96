package ndarray

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

func uintptrOf(b *Buffer) uintptr { return uintptr(unsafe.Pointer(&b.bytes[0])) }

func f64(t testing.TB, shape []int, v ...float64) *Array {
	t.Helper()
	a, err := FromSlice(v, shape...)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func f32(t testing.TB, shape []int, v ...float32) *Array {
	t.Helper()
	a, err := FromSlice(v, shape...)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func assertClose(t testing.TB, got *Array, want []float64, tol float64) {
	t.Helper()
	g := got.Float64s()
	if len(g) != len(want) {
		t.Fatalf("got %d values %v, want %d %v", len(g), g, len(want), want)
	}
	for i := range g {
		if math.IsNaN(want[i]) && math.IsNaN(g[i]) {
			continue
		}
		if g[i] != want[i] && math.Abs(g[i]-want[i]) > tol*(1+math.Abs(want[i])) {
			t.Fatalf("element %d: got %v, want %v (all: %v)", i, g[i], want[i], g)
		}
	}
}

func assertShape(t testing.TB, a *Array, shape ...int) {
	t.Helper()
	if !slices.Equal(a.Shape(), shape) {
		t.Fatalf("shape %v, want %v", a.Shape(), shape)
	}
}

// padded returns a copy of a inside a padded box: one element of padding
// before and two after on every axis, the padding filled with NaN so that a
// loop that reads it shows up.
func padded(t testing.TB, a *Array) *Array {
	t.Helper()
	r := a.Rank()
	pad, off := make([]int, r), make([]int, r)
	for i := range pad {
		pad[i], off[i] = 3, 1
	}
	p, err := NewPadded(a.DType(), a.Shape(), pad, off)
	if err != nil {
		t.Fatal(err)
	}
	if a.DType().IsFloat() {
		whole := &Array{buf: p.buf, shape: []int{p.buf.n}, strides: []int{1}}
		fillValue(whole, math.NaN())
	}
	if err := CopyInto(p, a); err != nil {
		t.Fatal(err)
	}
	return p
}

// strided returns a copy of a as a view with every axis stepping over one
// element (an interval with step 2 on each axis).
func strided(t testing.TB, a *Array) *Array {
	t.Helper()
	big := make([]int, a.Rank())
	for i, d := range a.Shape() {
		big[i] = 2 * max(d, 1)
	}
	b := Must(alloc(a.DType(), big))
	st := make([]int, a.Rank())
	for i := range st {
		st[i] = 2 * b.strides[i]
	}
	v, err := NewView(b.buf, Layout{Shape: a.Shape(), Strides: st, Offset: 0})
	if err != nil {
		t.Fatal(err)
	}
	if err := CopyInto(v, a); err != nil {
		t.Fatal(err)
	}
	return v
}

func randArray(t testing.TB, rng *rand.Rand, dt DType, shape ...int) *Array {
	t.Helper()
	a, err := RandNormal(rng, dt, 0, 1, shape...)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
