package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// allImpls is the portable implementation followed by every assembly one
// this CPU runs. The assembly tables are built from the raw routines of
// kernels/amd64 or kernels/arm64, whatever SDGO_ISA says.
func allImpls() []impl { return append([]impl{genericImpl()}, archImpls()...) }

func tableOf[T Float](im impl) *Table[T] {
	var z T
	if _, ok := any(z).(float32); ok {
		return any(im.f32).(*Table[T])
	}
	return any(im.f64).(*Table[T])
}

func gemmOf[T Float](im impl) *gemmKernel[T] {
	var z T
	if _, ok := any(z).(float32); ok {
		return any(&im.gemm32).(*gemmKernel[T])
	}
	return any(&im.gemm64).(*gemmKernel[T])
}

func isNaN[T Float](v T) bool { return v != v }

func eps[T Float]() float64 {
	var z T
	if _, ok := any(z).(float32); ok {
		return 0x1p-23
	}
	return 0x1p-52
}

// ulps is the distance in units in the last place between a and b (both
// non-NaN), counting across zero.
func ulps[T Float](a, b T) float64 {
	var z T
	if _, ok := any(z).(float32); ok {
		ord := func(v float32) int64 {
			u := int64(math.Float32bits(v))
			if u&(1<<31) != 0 {
				return -(u &^ (1 << 31))
			}
			return u
		}
		d := ord(float32(a)) - ord(float32(b))
		return math.Abs(float64(d))
	}
	ord := func(v float64) int64 {
		u := int64(math.Float64bits(v))
		if u < 0 {
			return -(u &^ (-1 << 63))
		}
		return u
	}
	d := ord(float64(a)) - ord(float64(b))
	if d < 0 {
		d = -d
	}
	return float64(d)
}

var specials = []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1),
	5e-324, -5e-324, 1e-310, 1e-40, -1e-40, 1e-45, 3.4e38, -3.4e38, 1e300, -1e300, 88.5, -103.5, 709.5, -745, 1, -1}

// input returns n values at offset off (so the data start is unaligned), with
// specials mixed in when sp is set.
func input[T Float](r *rand.Rand, n, off int, sp bool, lo, hi float64) []T {
	buf := make([]T, n+off)
	x := buf[off:]
	for i := range x {
		x[i] = T(lo + (hi-lo)*r.Float64())
		if sp && r.IntN(5) == 0 {
			x[i] = T(specials[r.IntN(len(specials))])
		}
	}
	return x
}

// fma is x*y+z with one rounding (two for float32: to float64, then float32,
// which the tolerance covers).
func fma[T Float](x, y, z T) T {
	return T(math.FMA(float64(x), float64(y), float64(z)))
}

type check int

const (
	exact  check = iota // bit for bit, any NaN for NaN
	fused               // within a rounding of a fused multiply-add
	approx              // transcendentals: within maxULP
)

// same reports whether got and want are both NaN or the same number,
// zeros of the same sign.
func same[T Float](got, want T) bool {
	if isNaN(got) || isNaN(want) {
		return isNaN(got) && isNaN(want)
	}
	if got == 0 && want == 0 {
		return math.Signbit(float64(got)) == math.Signbit(float64(want))
	}
	return got == want
}

const maxULP = 4

func close[T Float](got, want T, c check, mag float64) bool {
	switch c {
	case exact:
		return same(got, want)
	case fused:
		if isNaN(got) || isNaN(want) {
			return isNaN(got) && isNaN(want)
		}
		if math.IsInf(float64(want), 0) || math.IsInf(float64(got), 0) {
			return got == want
		}
		return math.Abs(float64(got)-float64(want)) <= 2*eps[T]()*mag
	default:
		if isNaN(got) || isNaN(want) {
			return isNaN(got) && isNaN(want)
		}
		if math.IsInf(float64(got), 0) || math.IsInf(float64(want), 0) {
			return got == want
		}
		return ulps(got, want) <= maxULP
	}
}

type elemCase[T Float] struct {
	name  string
	nin   int
	c     check
	lo    float64
	hi    float64
	run   func(t *Table[T], dst []T, in [][]T, s T)
	mag   func(in [][]T, i int, s T, dst0 T) float64
	alias bool
}

func elemCases[T Float]() []elemCase[T] {
	bin := func(name string, f func(t *Table[T]) func(dst, x, y []T)) elemCase[T] {
		return elemCase[T]{name: name, nin: 2, c: exact, lo: -10, hi: 10,
			run: func(t *Table[T], dst []T, in [][]T, s T) { f(t)(dst, in[0], in[1]) }}
	}
	sc := func(name string, f func(t *Table[T]) func(dst, x []T, s T)) elemCase[T] {
		return elemCase[T]{name: name, nin: 1, c: exact, lo: -10, hi: 10,
			run: func(t *Table[T], dst []T, in [][]T, s T) { f(t)(dst, in[0], s) }}
	}
	sc2 := func(name string, f func(t *Table[T]) func(dst []T, s T, x []T)) elemCase[T] {
		return elemCase[T]{name: name, nin: 1, c: exact, lo: -10, hi: 10,
			run: func(t *Table[T], dst []T, in [][]T, s T) { f(t)(dst, s, in[0]) }}
	}
	un := func(name string, c check, lo, hi float64, f func(t *Table[T]) func(dst, x []T)) elemCase[T] {
		return elemCase[T]{name: name, nin: 1, c: c, lo: lo, hi: hi,
			run: func(t *Table[T], dst []T, in [][]T, s T) { f(t)(dst, in[0]) }}
	}
	cs := []elemCase[T]{
		bin("Add", func(t *Table[T]) func(dst, x, y []T) { return t.Add }),
		bin("Sub", func(t *Table[T]) func(dst, x, y []T) { return t.Sub }),
		bin("Mul", func(t *Table[T]) func(dst, x, y []T) { return t.Mul }),
		bin("Div", func(t *Table[T]) func(dst, x, y []T) { return t.Div }),
		bin("Max", func(t *Table[T]) func(dst, x, y []T) { return t.Max }),
		bin("Min", func(t *Table[T]) func(dst, x, y []T) { return t.Min }),
		sc("AddScalar", func(t *Table[T]) func(dst, x []T, s T) { return t.AddScalar }),
		sc("SubScalar", func(t *Table[T]) func(dst, x []T, s T) { return t.SubScalar }),
		sc("DivScalar", func(t *Table[T]) func(dst, x []T, s T) { return t.DivScalar }),
		sc("MaxScalar", func(t *Table[T]) func(dst, x []T, s T) { return t.MaxScalar }),
		sc("MinScalar", func(t *Table[T]) func(dst, x []T, s T) { return t.MinScalar }),
		sc("Scale", func(t *Table[T]) func(dst, x []T, s T) { return t.Scale }),
		sc2("ScalarSub", func(t *Table[T]) func(dst []T, s T, x []T) { return t.ScalarSub }),
		sc2("ScalarDiv", func(t *Table[T]) func(dst []T, s T, x []T) { return t.ScalarDiv }),
		un("Neg", exact, -10, 10, func(t *Table[T]) func(dst, x []T) { return t.Neg }),
		un("Abs", exact, -10, 10, func(t *Table[T]) func(dst, x []T) { return t.Abs }),
		un("Sqrt", exact, 0, 100, func(t *Table[T]) func(dst, x []T) { return t.Sqrt }),
		un("Relu", exact, -10, 10, func(t *Table[T]) func(dst, x []T) { return t.Relu }),
		un("Exp", approx, -100, 100, func(t *Table[T]) func(dst, x []T) { return t.Exp }),
		un("Log", approx, 0, 1000, func(t *Table[T]) func(dst, x []T) { return t.Log }),
		un("Tanh", approx, -5, 5, func(t *Table[T]) func(dst, x []T) { return t.Tanh }),
		un("Sigmoid", approx, -30, 30, func(t *Table[T]) func(dst, x []T) { return t.Sigmoid }),
		{name: "Axpy", nin: 1, c: fused, lo: -10, hi: 10, alias: true,
			run: func(t *Table[T], dst []T, in [][]T, s T) { t.Axpy(dst, s, in[0]) },
			mag: func(in [][]T, i int, s T, d0 T) float64 {
				return math.Abs(float64(s)*float64(in[0][i])) + math.Abs(float64(d0))
			}},
		{name: "FMA", nin: 3, c: fused, lo: -10, hi: 10,
			run: func(t *Table[T], dst []T, in [][]T, s T) { t.FMA(dst, in[0], in[1], in[2]) },
			mag: func(in [][]T, i int, s T, d0 T) float64 {
				return math.Abs(float64(in[0][i])*float64(in[1][i])) + math.Abs(float64(in[2][i]))
			}},
	}
	return cs
}

// testLens are the lengths the elementwise, reduction and strided tests
// run on: every length from 0 to 67, then 255, 1000 and 4099. Under the
// race detector (see raceSubset): 0 to 17 (every tail of a vector of 4, 8
// or 16 lanes), the lengths next to a multiple of 16 up to 65 (a whole
// number of vectors, one more, one fewer), and 255 (the unrolled loops
// several times, then a tail).
var testLens = raceSubset(func() []int {
	l := make([]int, 0, 72)
	for n := 0; n <= 67; n++ {
		l = append(l, n)
	}
	return append(l, 255, 1000, 4099)
}(), func(n int) bool { return n <= 17 || n < 256 && (n%16 <= 1 || n%16 == 15) })

func testElementwise[T Float](t *testing.T, im impl) {
	r := rand.New(rand.NewPCG(1, 2))
	tab, ref := tableOf[T](im), reference[T](im)
	for _, c := range elemCases[T]() {
		for _, n := range testLens {
			for _, sp := range []bool{false, true} {
				off := r.IntN(16)
				in := make([][]T, c.nin)
				for j := range in {
					in[j] = input[T](r, n, off, sp, c.lo, c.hi)
				}
				s := T(c.lo + (c.hi-c.lo)*r.Float64())
				if sp && r.IntN(4) == 0 {
					s = T(specials[r.IntN(len(specials))])
				}
				if c.name == "DivScalar" && s == 0 {
					s = 3
				}
				dst0 := input[T](r, n, (off+3)%16, sp, -10, 10)
				want := append([]T(nil), dst0...)
				c.run(ref, want, in, s)
				want2 := append([]T(nil), want...)
				if c.c == fused {
					for i := range want {
						switch c.name {
						case "Axpy":
							want[i] = fma(s, in[0][i], dst0[i])
						case "FMA":
							want[i] = fma(in[0][i], in[1][i], in[2][i])
						}
					}
				}
				verify := func(how string, got []T) {
					t.Helper()
					for i := range want {
						mag := 0.0
						if c.mag != nil {
							mag = c.mag(in, i, s, dst0[i])
						}
						if !close(got[i], want[i], c.c, mag) && !same(got[i], want2[i]) {
							var args []T
							for _, x := range in {
								args = append(args, x[i])
							}
							t.Fatalf("%s %s%s n=%d off=%d: [%d] got %v want %v (in %v, s %v)", im.name, c.name, how, n, off, i, got[i], want[i], args, s)
						}
					}
				}
				got := input[T](r, n, (off+5)%16, false, 0, 1)
				copy(got, dst0)
				c.run(tab, got, in, s)
				verify("", got)
				// aliasing dst == x
				if !c.alias {
					x := append([]T(nil), in[0]...)
					c.run(tab, x, append([][]T{x}, in[1:]...), s)
					verify(" aliased", x)
				}
			}
		}
	}
}

func testReductions[T Float](t *testing.T, im impl) {
	r := rand.New(rand.NewPCG(3, 4))
	tab, ref := tableOf[T](im), reference[T](im)
	for _, n := range testLens {
		for _, sp := range []bool{false, true} {
			for rep := 0; rep < 3; rep++ {
				off := r.IntN(16)
				x := input[T](r, n, off, sp && rep == 0, -10, 10)
				y := input[T](r, n, (off+7)%16, sp && rep == 1, -10, 10)
				if sp && rep == 2 && n > 0 { // one NaN at a random place
					x[r.IntN(n)] = T(math.NaN())
				}
				abs, absxy := 0.0, 0.0
				for i := range x {
					abs += math.Abs(float64(x[i]))
					absxy += math.Abs(float64(x[i]) * float64(y[i]))
				}
				chk := func(name string, got, want T, mag float64) {
					big := math.IsInf(float64(T(mag)), 0) || isNaN(T(mag))
					if big && (isNaN(got) || math.IsInf(float64(got), 0)) && (isNaN(want) || math.IsInf(float64(want), 0)) {
						return // overflow: Inf or Inf-Inf depends on the order of the sum
					}
					t.Helper()
					ok := same(got, want) || got == want
					if !ok && !isNaN(want) && !math.IsInf(float64(want), 0) {
						ok = math.Abs(float64(got)-float64(want)) <= float64(n+4)*eps[T]()*mag
					}
					if !ok {
						t.Fatalf("%s %s n=%d sp=%v rep=%d: got %v want %v", im.name, name, n, sp, rep, got, want)
					}
				}
				chk("Sum", tab.Sum(x), ref.Sum(x), abs)
				chk("Dot", tab.Dot(x, y), ref.Dot(x, y), absxy)
				exact := func(name string, got, want T) {
					t.Helper()
					if !same(got, want) {
						t.Fatalf("%s %s n=%d sp=%v rep=%d: got %v want %v", im.name, name, n, sp, rep, got, want)
					}
				}
				exact("MaxReduce", tab.MaxReduce(x), ref.MaxReduce(x))
				exact("MinReduce", tab.MinReduce(x), ref.MinReduce(x))
			}
		}
		// Zeros of both signs, with values on one side of them: the
		// extreme is a zero, and its sign must be the first zero's, as in
		// the loop, wherever the lanes put the zeros.
		for rep := 0; rep < 20 && n > 0; rep++ {
			x := input[T](r, n, r.IntN(16), false, 0, 1)
			side := T(1 - 2*float64(rep%2)) // 1 below Max, -1 above Min
			for i := range x {
				switch r.IntN(3) {
				case 0:
					x[i] = 0
				case 1:
					x[i] = T(math.Copysign(0, -1))
				default:
					x[i] = -side * x[i]
				}
			}
			f, fref := tab.MaxReduce, ref.MaxReduce
			if side < 0 {
				f, fref = tab.MinReduce, ref.MinReduce
			}
			got, want := f(x), fref(x)
			if want == 0 && !same(got, want) {
				t.Fatalf("%s zeros n=%d side %v: got %v want %v (x %v)", im.name, n, side, got, want, x)
			}
		}
	}
	// empty reductions give the identity
	if s := tab.Sum(nil); s != 0 {
		t.Errorf("%s Sum(nil) = %v", im.name, s)
	}
	if s := tab.MaxReduce(nil); !math.IsInf(float64(s), -1) {
		t.Errorf("%s MaxReduce(nil) = %v", im.name, s)
	}
	if s := tab.MinReduce(nil); !math.IsInf(float64(s), 1) {
		t.Errorf("%s MinReduce(nil) = %v", im.name, s)
	}
}

func TestKernels(t *testing.T) {
	for _, im := range allImpls() {
		t.Run(im.name+"/f32", func(t *testing.T) {
			t.Parallel()
			testElementwise[float32](t, im)
			testReductions[float32](t, im)
		})
		t.Run(im.name+"/f64", func(t *testing.T) {
			t.Parallel()
			testElementwise[float64](t, im)
			testReductions[float64](t, im)
		})
	}
}

func TestISA(t *testing.T) {
	t.Logf("ISA %s", ISA())
	switch ISA() {
	case "avx512", "avx2", "neon", "generic":
	default:
		t.Fatalf("ISA() = %q", ISA())
	}
	l := archImpls()
	if isaCap() == "" && len(l) > 0 && l[0].name != ISA() {
		t.Errorf("ISA() = %q, best implementation %q", ISA(), l[0].name)
	}
	if For[float32]() != F32 || For[float64]() != F64 {
		t.Error("For returns the wrong table")
	}
}

// accuracy measures the largest error in ulps of each transcendental over
// samples of the whole input range (every 1009th float32 bit pattern; 300000
// float64 values: random bit patterns, [-800, 800] and [-2, 2]; and the
// specials: ±0, ±Inf, NaN, denormals, the overflow and underflow edges),
// against want (see TestAccuracy).
func accuracy[T Float](t *testing.T, im impl, name string, inputs, want []T, bound float64) {
	got := apply(tableOf[T](im), name, inputs)
	worst, at := 0.0, T(0)
	for i, x := range inputs {
		w := want[i]
		if isNaN(w) || isNaN(got[i]) {
			if isNaN(w) != isNaN(got[i]) {
				t.Fatalf("%s %s(%v) = %v, want %v", im.name, name, x, got[i], w)
			}
			continue
		}
		if math.IsInf(float64(w), 0) || math.IsInf(float64(got[i]), 0) {
			if got[i] != w {
				t.Fatalf("%s %s(%v) = %v, want %v", im.name, name, x, got[i], w)
			}
			continue
		}
		if u := ulps(got[i], w); u > worst {
			worst, at = u, x
		}
	}
	t.Logf("%s %T %s: max error %.0f ulp (at %v) over %d inputs", im.name, inputs[0], name, worst, at, len(inputs))
	if worst > bound {
		t.Errorf("%s %T %s: max error %.0f ulp at %v, bound %v", im.name, inputs[0], name, worst, at, bound)
	}
}

// apply returns the transcendental name of tab over x.
func apply[T Float](tab *Table[T], name string, x []T) []T {
	y := make([]T, len(x))
	map[string]func(dst, x []T){"Exp": tab.Exp, "Log": tab.Log, "Tanh": tab.Tanh, "Sigmoid": tab.Sigmoid}[name](y, x)
	return y
}

func accuracyInputs32(stride uint32) []float32 {
	var x []float32
	for u := uint64(0); u < 1<<32; u += uint64(stride) {
		x = append(x, math.Float32frombits(uint32(u)))
	}
	for _, s := range specials {
		x = append(x, float32(s))
	}
	return x
}

func accuracyInputs64(n int) []float64 {
	r := rand.New(rand.NewPCG(5, 6))
	x := make([]float64, 0, n+len(specials))
	for i := 0; i < n; i++ {
		switch i % 3 {
		case 0: // any bit pattern: every exponent
			x = append(x, math.Float64frombits(r.Uint64()))
		case 1: // the interesting range
			x = append(x, (r.Float64()*2-1)*800)
		default:
			x = append(x, (r.Float64()*2-1)*2)
		}
	}
	return append(x, specials...)
}

// documentedULP is the largest error, float32 and float64, that the
// package comment states for each vectorised transcendental: TestAccuracy
// holds the assembly to exactly these.
var documentedULP = map[string][2]float64{"Exp": {1, 1}, "Log": {1, 1}, "Tanh": {1, 2}, "Sigmoid": {2, 2}}

// TestAccuracy measures each assembly implementation against the portable
// kernels: the fdlibm algorithms in ref.go computed in float64 (for
// float32, rounded once more: so nearly the correctly rounded result); and
// the portable kernels against package math (loopTable), which they must
// match within 1 ulp (float32) or 3 (float64: math.Exp is itself up to 2
// ulps off on amd64, and Sigmoid adds a rounding). With -short and under
// the race detector the samples are ten times sparser.
func TestAccuracy(t *testing.T) {
	stride := uint32(1009)
	n64 := 300000
	if testing.Short() || raceEnabled {
		stride, n64 = 100003, 30000
	}
	x32 := accuracyInputs32(stride)
	x64 := accuracyInputs64(n64)
	for _, name := range []string{"Exp", "Log", "Tanh", "Sigmoid"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			accuracy(t, genericImpl(), name, x32, apply(loopTable[float32](), name, x32), 1)
			accuracy(t, genericImpl(), name, x64, apply(loopTable[float64](), name, x64), 3)
			w32, w64 := apply(generic[float32](), name, x32), apply(generic[float64](), name, x64)
			for _, im := range archImpls() {
				accuracy(t, im, name, x32, w32, documentedULP[name][0])
				accuracy(t, im, name, x64, w64, documentedULP[name][1])
			}
		})
	}
}

// gemm tests

// testGemm runs im's GEMM on every shape in six layouts, each on one and on
// two goroutines; under the race detector every third of those products
// (sampled), which still meets every shape, layout and goroutine count.
func testGemm[T Float](t *testing.T, im impl) {
	r := rand.New(rand.NewPCG(7, 8))
	kern := gemmOf[T](im)
	sizes := []int{1, 2, 3, 5, 7, 8, 11, 13, 16, 17, 23, 31, 33, 47, 64, 70}
	shapes := [][3]int{{0, 5, 5}, {5, 0, 5}, {5, 5, 0}, {70, 70, 70}, {129, 67, 300}, {13, 530, 9}, {300, 40, 520}}
	for i := 0; i < 40; i++ {
		shapes = append(shapes, [3]int{sizes[r.IntN(len(sizes))], sizes[r.IntN(len(sizes))], sizes[r.IntN(len(sizes))]})
	}
	for si, sh := range shapes {
		m, n, k := sh[0], sh[1], sh[2]
		for variant := 0; variant < 6; variant++ {
			// layouts: 0 all row-major; 1 A transposed; 2 B transposed;
			// 3 C column-major; 4 strided (padded) everything; 5 C with
			// non-unit strides both ways.
			lda, ldb, ldc := k+r.IntN(3), n+r.IntN(3), n+r.IntN(3)
			rsa, csa := lda, 1
			rsb, csb := ldb, 1
			rsc, csc := ldc, 1
			asz, bsz, csz := m*lda+k, k*ldb+n, m*ldc+n
			switch variant {
			case 1:
				rsa, csa = 1, m+1
				asz = k*(m+1) + m
			case 2:
				rsb, csb = 1, k+2
				bsz = n*(k+2) + k
			case 3:
				rsc, csc = 1, m+3
				csz = n*(m+3) + m
			case 4:
				rsa, csa = 2*k+1, 2
				rsb, csb = 3, 3*k+1
				asz, bsz = m*(2*k+1)+2*k, n*(3*k+1)+3*k
			case 5:
				rsc, csc = 2*n+1, 2
				csz = m*(2*n+1) + 2*n
			}
			l := gemmLayout{fmt.Sprint("variant ", variant), rsa, csa, rsb, csb, rsc, csc, asz, bsz, csz}
			alphas := []T{1, 0.5, -2, 0}
			betas := []T{0, 1, -0.5, 2}
			alpha, beta := alphas[(si+variant)%4], betas[(si+2*variant)%4]
			var threads []int
			for _, th := range []int{1, 2} {
				if sampled(si*13+variant*2+th-1, 3) { // rotating over the shapes
					threads = append(threads, th)
				}
			}
			if len(threads) > 0 {
				checkGemmThreads(t, r, im.name, kern, threads, m, n, k, l, alpha, beta)
			}
		}
	}
}

func TestGemm(t *testing.T) {
	for _, im := range allImpls() {
		t.Run(im.name+"/f32", func(t *testing.T) { t.Parallel(); testGemm[float32](t, im) })
		t.Run(im.name+"/f64", func(t *testing.T) { t.Parallel(); testGemm[float64](t, im) })
	}
}

func TestGemmPublic(t *testing.T) {
	// the exported entry point with the selected kernel
	m, n, k := 100, 90, 80
	r := rand.New(rand.NewPCG(9, 10))
	a := input[float32](r, m*k, 0, false, -1, 1)
	b := input[float32](r, k*n, 0, false, -1, 1)
	c := make([]float32, m*n)
	want := make([]float32, m*n)
	Gemm(0, m, n, k, 1, a, k, 1, b, n, 1, 0, c, n, 1)
	gemmGo(m, n, k, 1, a, k, 1, b, n, 1, 0, want, n, 1)
	for i := range c {
		if math.Abs(float64(c[i]-want[i])) > 1e-4 {
			t.Fatalf("c[%d] = %v want %v", i, c[i], want[i])
		}
	}
}

func TestGemmNoAlloc(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	m := 96
	a := make([]float64, m*m)
	b := make([]float64, m*m)
	c := make([]float64, m*m)
	Gemm(1, m, m, m, 1, a, m, 1, b, m, 1, 0, c, m, 1)
	allocs := testing.AllocsPerRun(10, func() {
		Gemm(1, m, m, m, 1, a, m, 1, b, m, 1, 0, c, m, 1)
	})
	if allocs > 0 {
		t.Errorf("warm Gemm allocates %v times", allocs)
	}
	// B transposed (copied on the direct path), and big enough for the
	// panels path
	for _, sh := range [][3]int{{64, 64, 64}, {200, 300, 300}} {
		m, n, k := sh[0], sh[1], sh[2]
		a, b, c := make([]float32, m*k), make([]float32, k*n), make([]float32, m*n)
		Gemm(1, m, n, k, 1, a, k, 1, b, 1, k, 0, c, n, 1)
		allocs := testing.AllocsPerRun(5, func() {
			Gemm(1, m, n, k, 1, a, k, 1, b, 1, k, 0, c, n, 1)
		})
		if allocs > 0 {
			t.Errorf("warm Gemm %d×%d×%d, B transposed, allocates %v times", m, n, k, allocs)
		}
	}
}
