package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdgo/sdgo/kernels/internal/medtime"
)

// stridedIncs are the strides of the strided tests; under the race
// detector 0 to 4 (the strides with assembly paths of their own), 7 and 33.
var stridedIncs = raceSubset([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 33}, func(inc int) bool { return inc <= 4 || inc == 7 || inc == 33 })

// testStrided runs Gather and Scatter of im against the loops they compute,
// on lengths 0..67 and large, strides 0..9 and a few larger, unaligned
// starts, with the strided side exactly as long as needed and longer.
func testStrided[T Float](t *testing.T, im impl) {
	r := rand.New(rand.NewPCG(11, 12))
	tab := tableOf[T](im)
	pool := input[T](r, stridedPool, 0, true, -10, 10)
	for _, n := range testLens {
		for _, inc := range stridedIncs {
			for _, extra := range []int{0, 1 + r.IntN(40)} {
				off := r.IntN(16)
				need := 0
				if n > 0 {
					need = (n-1)*inc + 1
				}
				// Gather
				src := from(pool, r, need+extra, off)
				src = src[: need+extra : need+extra]
				got := input[T](r, n, (off+3)%16, false, 0, 1)
				tab.Gather(got, src, inc)
				for i := range got {
					if !same(got[i], src[i*inc]) {
						t.Fatalf("%s Gather n=%d inc=%d off=%d extra=%d: dst[%d] = %v, want src[%d] = %v",
							im.name, n, inc, off, extra, i, got[i], i*inc, src[i*inc])
					}
				}
				// Scatter: dst gets src at i*inc, keeps everything else
				dst0 := from(pool, r, need+extra, off)
				dst0 = dst0[: need+extra : need+extra]
				want := append([]T(nil), dst0...)
				for i, v := range got {
					want[i*inc] = v
				}
				dst := append(input[T](r, 0, (off+5)%16, false, 0, 1), dst0...)
				tab.Scatter(dst, inc, got)
				for i := range want {
					if !same(dst[i], want[i]) {
						t.Fatalf("%s Scatter n=%d inc=%d off=%d extra=%d: dst[%d] = %v, want %v",
							im.name, n, inc, off, extra, i, dst[i], want[i])
					}
				}
			}
		}
	}
	// too short a strided side panics, as the portable loop does
	for _, inc := range []int{1, 2, 3, 7, 9} {
		n := 20
		short := make([]T, (n-1)*inc)
		packed := make([]T, n)
		if !panics(func() { tab.Gather(packed, short, inc) }) {
			t.Errorf("%s Gather with a short src, inc %d, does not panic", im.name, inc)
		}
		if !panics(func() { tab.Scatter(short, inc, packed) }) {
			t.Errorf("%s Scatter with a short dst, inc %d, does not panic", im.name, inc)
		}
	}
	if !panics(func() { tab.Gather(make([]T, 3), make([]T, 10), -1) }) {
		t.Errorf("%s Gather with inc -1 does not panic", im.name)
	}
	// (n-1)*inc wraps around to 4: five elements 2^62+1 apart (2^30+1 on
	// 32 bits) do not fit in ten. The assembly gathered and scattered
	// src[0:5] as if inc were 1, and ScatterGo wrote dst[0] before its
	// panic.
	huge := math.MaxInt>>1 + 2
	ten := make([]T, 10)
	if !panics(func() { tab.Gather(make([]T, 5), ten, huge) }) {
		t.Errorf("%s Gather with inc %d does not panic", im.name, huge)
	}
	if !panics(func() { tab.Scatter(ten, huge, []T{1, 2, 3, 4, 5}) }) {
		t.Errorf("%s Scatter with inc %d does not panic", im.name, huge)
	}
	for i, v := range ten {
		if v != 0 {
			t.Errorf("%s Scatter with inc %d wrote dst[%d] = %v", im.name, huge, i, v)
		}
	}
}

// stridedPool is the length of the random values (specials among them)
// the strided tests copy their strided operands from: more than the
// longest operand, (4099-1)·33+1 + 64·33 elements. Drawing each operand
// afresh took nine tenths of TestStridedBinary's time (most elements of a
// strided operand are the gaps between the ones read).
const stridedPool = 1 << 18

// from returns a copy of n consecutive elements of pool from a random
// start, in a new slice that begins off elements into its allocation (so
// the data start is unaligned, as with input).
func from[T Float](pool []T, r *rand.Rand, n, off int) []T {
	buf := make([]T, off+n)
	x := buf[off:]
	copy(x, pool[r.IntN(len(pool)-n+1):])
	return x
}

func panics(f func()) (p bool) {
	defer func() { p = recover() != nil }()
	f()
	return false
}

func TestStrided(t *testing.T) {
	for _, im := range allImpls() {
		t.Run(im.name+"/f32", func(t *testing.T) { t.Parallel(); testStrided[float32](t, im) })
		t.Run(im.name+"/f64", func(t *testing.T) { t.Parallel(); testStrided[float64](t, im) })
	}
}

// Gather and Scatter of the selected table against the portable loops, in
// GB/s counting the bytes of the packed side twice (read and written once
// each), at 256 elements (the chunk ndarray gathers at a time; in L1) and
// 1e6 (the strided side is 8 or 56 MB at stride 2 or 7).
func BenchmarkStrided(b *testing.B) {
	for _, n := range []int{256, 1000000} {
		for _, inc := range []int{2, 7} {
			for _, op := range []string{"Gather", "Scatter"} {
				for _, impl := range []string{"asm", "go"} {
					name := fmt.Sprintf("%s/%d/inc%d/%s", op, n, inc, impl)
					b.Run("f32/"+name, func(b *testing.B) { benchStrided[float32](b, n, inc, op, impl == "go") })
					b.Run("f64/"+name, func(b *testing.B) { benchStrided[float64](b, n, inc, op, impl == "go") })
				}
			}
		}
	}
}

func benchStrided[T Float](b *testing.B, n, inc int, op string, portable bool) {
	strided := make([]T, (n-1)*inc+1)
	packed := make([]T, n)
	for i := range strided {
		strided[i] = T(i)
	}
	tab := For[T]()
	gather, scatter := tab.Gather, tab.Scatter
	if portable {
		gather, scatter = GatherGo[T], ScatterGo[T]
	}
	f := func() { gather(packed, strided, inc) }
	if op == "Scatter" {
		f = func() { scatter(strided, inc, packed) }
	}
	var z T
	med := medtime.Call(b, f)
	b.ReportMetric(2*float64(n*sizeOf(z))/med/1e9, "GB/s")
}

// Prefetch is a hint: whatever the length, count and stride (counts past
// the end of the slice, strides of 0 and below), it neither panics nor
// changes anything. (A guard page cannot tell whether it stays inside the
// slice: prefetches do not fault. Prefetch clamps n to the slice.)
func testPrefetch[T any](t *testing.T, mk func(int) []T) {
	for _, l := range []int{0, 1, 2, 15, 16, 17, 100, 1000} {
		s := mk(l)
		want := append([]T(nil), s...)
		for _, inc := range []int{-3, 0, 1, 2, 3, 15, 16, 17, 100} {
			for _, n := range []int{-1, 0, 1, 2, 7, 64, 1000, 5000} {
				for _, off := range []int{0, 1, 3} {
					if off > l {
						continue
					}
					Prefetch(s[off:], n, inc)
				}
			}
		}
		for i := range s {
			if any(s[i]) != any(want[i]) {
				t.Fatalf("Prefetch changed element %d", i)
			}
		}
	}
}

func TestPrefetch(t *testing.T) {
	f32 := func(l int) []float32 {
		s := make([]float32, l)
		for i := range s {
			s[i] = float32(i)
		}
		return s
	}
	t.Run("f32", func(t *testing.T) { testPrefetch(t, f32) })
	t.Run("f64", func(t *testing.T) {
		testPrefetch(t, func(l int) []float64 {
			s := make([]float64, l)
			for i := range s {
				s[i] = float64(i)
			}
			return s
		})
	})
	t.Run("int32", func(t *testing.T) { testPrefetch(t, func(l int) []int32 { return make([]int32, l) }) })
	t.Run("bytes", func(t *testing.T) { testPrefetch(t, func(l int) []byte { return make([]byte, l) }) })
}

// stridedOps pairs each strided binary kernel with the packed kernel it
// must agree with.
func stridedOps[T Float](tab *Table[T]) []struct {
	name   string
	fused  func(dst, x []T, incx int, y []T, incy int) int
	packed func(dst, x, y []T)
} {
	return []struct {
		name   string
		fused  func(dst, x []T, incx int, y []T, incy int) int
		packed func(dst, x, y []T)
	}{
		{"Add", tab.AddStrided, tab.Add}, {"Sub", tab.SubStrided, tab.Sub}, {"Mul", tab.MulStrided, tab.Mul},
		{"Div", tab.DivStrided, tab.Div}, {"Max", tab.MaxStrided, tab.Max}, {"Min", tab.MinStrided, tab.Min},
	}
}

// testStridedBinary runs the strided binary kernels of im against Gather
// and the portable packed kernel, on the lengths and strides of
// testStrided for both operands and for one with the other packed, with x
// and y exactly as long as n elements need, longer, and of different
// lengths, special values included. They must compute a correct prefix,
// leave the rest of dst alone and, on strides 2..4 with room to spare,
// take the bulk of the run.
func testStridedBinary[T Float](t *testing.T, im impl) {
	r := rand.New(rand.NewPCG(13, 14))
	tab, ref := tableOf[T](im), generic[T]()
	refOps := stridedOps(ref)
	pool := input[T](r, stridedPool, 0, true, -10, 10)
	need := func(n, inc int) int {
		if n == 0 {
			return 0
		}
		return (n-1)*inc + 1
	}
	for oi, op := range stridedOps(tab) {
		if op.fused == nil {
			continue
		}
		for _, n := range testLens {
			for _, inc := range stridedIncs {
				for _, incs := range [][2]int{{inc, inc}, {inc, 1}, {1, inc}} {
					ix, iy := incs[0], incs[1]
					for _, extra := range [][2]int{{0, 0}, {inc, 0}, {0, 1 + r.IntN(40)}, {64 * ix, 64 * iy}} {
						x := from(pool, r, need(n, ix)+extra[0], r.IntN(16))
						y := from(pool, r, need(n, iy)+extra[1], r.IntN(16))
						x, y = x[:len(x):len(x)], y[:len(y):len(y)]
						dst := input[T](r, n, r.IntN(16), false, 0, 1)
						before := append([]T(nil), dst...)
						got := op.fused(dst, x, ix, y, iy)
						if got < 0 || got > n || got > 0 && (need(got, ix) > len(x) || need(got, iy) > len(y)) {
							t.Fatalf("%s %sStrided n=%d incs=%v len(x)=%d len(y)=%d: returned %d", im.name, op.name, n, incs, len(x), len(y), got)
						}
						if inc >= 2 && inc <= 4 && n >= 64 && extra[0] >= 64*ix && got < n-16 && (ix == iy || im.name != "neon") {
							t.Errorf("%s %sStrided n=%d incs=%v: computed only %d elements", im.name, op.name, n, incs, got)
						}
						gx, gy, want := make([]T, got), make([]T, got), make([]T, got)
						GatherGo(gx, x, ix)
						GatherGo(gy, y, iy)
						refOps[oi].packed(want, gx, gy)
						for i := range dst {
							w := before[i]
							if i < got {
								w = want[i]
							}
							if !same(dst[i], w) {
								t.Fatalf("%s %sStrided n=%d incs=%v (computed %d): dst[%d] = %v, want %v", im.name, op.name, n, incs, got, i, dst[i], w)
							}
						}
					}
				}
			}
		}
	}
}

func TestStridedBinary(t *testing.T) {
	for _, im := range allImpls() {
		t.Run(im.name+"/f32", func(t *testing.T) { t.Parallel(); testStridedBinary[float32](t, im) })
		t.Run(im.name+"/f64", func(t *testing.T) { t.Parallel(); testStridedBinary[float64](t, im) })
	}
}
