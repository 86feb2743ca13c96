package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// gemmLayout gives the strides of A (m×k), B (k×n) and C (m×n) and the
// lengths of their slices.
type gemmLayout struct {
	name                         string
	rsa, csa, rsb, csb, rsc, csc int
	asz, bsz, csz                int
}

// gemmLayouts: N is row-major, T stored transposed (column-major), with
// padded leading dimensions; C row-major with padded rows, column-major, or
// strided both ways.
func gemmLayouts(m, n, k int) []gemmLayout {
	lda, ldat, ldb, ldbt := k+1, m+2, n+3, k+1
	var ls []gemmLayout
	for _, ab := range []string{"NN", "TN", "NT", "TT"} {
		l := gemmLayout{name: ab}
		if ab[0] == 'N' {
			l.rsa, l.csa, l.asz = lda, 1, m*lda
		} else {
			l.rsa, l.csa, l.asz = 1, ldat, k*ldat
		}
		if ab[1] == 'N' {
			l.rsb, l.csb, l.bsz = ldb, 1, k*ldb
		} else {
			l.rsb, l.csb, l.bsz = 1, ldbt, n*ldbt
		}
		l.rsc, l.csc, l.csz = n+2, 1, m*(n+2)
		ls = append(ls, l)
	}
	nn := ls[0]
	colC := nn
	colC.name, colC.rsc, colC.csc, colC.csz = "NN/Ccol", 1, m+1, n*(m+1)
	strC := nn
	strC.name, strC.rsc, strC.csc, strC.csz = "NN/Cstrided", 2*n+1, 2, m*(2*n+1)
	tight := nn
	tight.name, tight.rsa, tight.rsb, tight.rsc = "NN/tight", k, n, n
	tight.asz, tight.bsz, tight.csz = (m-1)*k+k, (k-1)*n+n, (m-1)*n+n
	return append(ls, colC, strC, tight)
}

// checkGemm runs gemmWith on one layout and compares it with gemmGo, and
// checks that no element of c outside C changes (C is NaN when beta is 0:
// it must not be read).
func checkGemm[T Float](t *testing.T, r *rand.Rand, name string, kern *gemmKernel[T], threads, m, n, k int, l gemmLayout, alpha, beta T) {
	t.Helper()
	checkGemmThreads(t, r, name, kern, []int{threads}, m, n, k, l, alpha, beta)
}

// checkGemmThreads is checkGemm on each goroutine count of threads in
// turn, with the same operands: gemmGo, which takes most of the time of
// the GEMM tests, computes the product they are compared with once.
func checkGemmThreads[T Float](t *testing.T, r *rand.Rand, name string, kern *gemmKernel[T], threads []int, m, n, k int, l gemmLayout, alpha, beta T) {
	t.Helper()
	var runs []gemmRun[T]
	for _, th := range threads {
		runs = append(runs, gemmRun[T]{fmt.Sprintf("%s threads %d", name, th), func(a, b, c []T) {
			gemmWith(kern, th, m, n, k, alpha, a, l.rsa, l.csa, b, l.rsb, l.csb, beta, c, l.rsc, l.csc)
		}})
	}
	checkGemmRuns(t, r, runs, m, n, k, l, alpha, beta)
}

// gemmRun is one way to compute a product, named for the error messages.
type gemmRun[T Float] struct {
	name string
	run  func(a, b, c []T)
}

func checkGemmWith[T Float](t *testing.T, r *rand.Rand, name string, run func(a, b, c []T), m, n, k int, l gemmLayout, alpha, beta T) {
	t.Helper()
	checkGemmRuns(t, r, []gemmRun[T]{{name, run}}, m, n, k, l, alpha, beta)
}

// checkGemmRuns draws A, B and C once and checks every run on them.
func checkGemmRuns[T Float](t *testing.T, r *rand.Rand, runs []gemmRun[T], m, n, k int, l gemmLayout, alpha, beta T) {
	t.Helper()
	// A and B end where a page without access begins, so reading past
	// them faults; C has guard elements after it that must not change.
	a := guarded[T](t, l.asz)
	copy(a, input[T](r, l.asz, 0, false, -1, 1))
	b := guarded[T](t, l.bsz)
	copy(b, input[T](r, l.bsz, 0, false, -1, 1))
	const guard = 40
	c0 := input[T](r, l.csz+guard, r.IntN(8), false, -1, 1)
	inC := make([]bool, l.csz+guard)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			ci := i*l.rsc + j*l.csc
			inC[ci] = true
			if beta == 0 {
				c0[ci] = T(math.NaN())
			}
		}
	}
	want := append([]T(nil), c0...)
	gemmGo(m, n, k, alpha, a, l.rsa, l.csa, b, l.rsb, l.csb, beta, want[:l.csz], l.rsc, l.csc)
	tol := float64(k+2) * eps[T]() * 4 * (math.Abs(float64(alpha)) + 1) * (math.Abs(float64(beta)) + 1)
	got := make([]T, len(c0))
	for _, run := range runs {
		copy(got, c0)
		run.run(a, b, got[:l.csz])
		for i := range got {
			if !inC[i] {
				if !same(got[i], c0[i]) {
					t.Fatalf("%s m=%d n=%d k=%d %s: c[%d] outside C changed", run.name, m, n, k, l.name, i)
				}
				continue
			}
			if !(math.Abs(float64(got[i]-want[i])) <= tol) {
				t.Fatalf("%s m=%d n=%d k=%d %s alpha %v beta %v: c[%d] = %v want %v",
					run.name, m, n, k, l.name, alpha, beta, i, got[i], want[i])
			}
		}
	}
}

// TestGemmSmall covers the shapes small MLPs produce (m up to 64, n and k
// from 1 to 64, transposed operands, strided and column-major C, alpha and
// beta, NaN in C with beta 0) on the direct path, and the same shapes with
// the direct kernel switched off on the packed path. Under the race
// detector every other product of each part (sampled).
func TestGemmSmall(t *testing.T) {
	for _, im := range allImpls() {
		t.Run(im.name+"/f32", func(t *testing.T) { t.Parallel(); testGemmSmall[float32](t, im) })
		t.Run(im.name+"/f64", func(t *testing.T) { t.Parallel(); testGemmSmall[float64](t, im) })
	}
}

func testGemmSmall[T Float](t *testing.T, im impl) {
	r := rand.New(rand.NewPCG(13, 14))
	kern := gemmOf[T](im)
	packed := *kern
	packed.direct = nil
	// m from 1 to 13 meets every row count of the tiles (12 and 6 rows);
	// n every vector count and partial vector; both beta == 0 and not.
	ms := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 25, 64}
	ns := []int{1, 2, 3, 10, 16, 17, 31, 32, 33, 64}
	ks := []int{1, 2, 5, 16, 64}
	alphas := []T{1, -0.5, 2}
	betas := []T{1, -0.5}
	i := 0
	for _, m := range ms {
		for _, n := range ns {
			k := ks[i%len(ks)]
			ls := gemmLayouts(m, n, k)
			l := ls[i%len(ls)]
			alpha, beta := alphas[i%3], betas[i%2]
			i++
			for bi, b := range []T{0, beta} {
				if !sampled(i+bi, 2) {
					continue
				}
				if kern.direct != nil {
					checkGemm(t, r, im.name+"/direct", kern, 1, m, n, k, l, alpha, b)
				}
				if m*n*k > 8*8*8 && i%4 == 0 {
					checkGemm(t, r, im.name+"/packed", &packed, 1, m, n, k, l, alpha, b)
				}
			}
		}
	}
	// the direct kernel itself on every tile shape up to 13×33 (every row
	// count and lane count), beta 0 and not, B in place and copied
	if kern.direct != nil {
		for m := 1; m <= 13; m++ {
			for n := 1; n <= 2*kern.dnr+1; n++ {
				k := 1 + (m+n)%3
				ls := gemmLayouts(m, n, k)
				for j, l := range []gemmLayout{ls[(m+n)%2], ls[2+(m+n)%2]} { // NN or TN; NT or TT
					if !sampled(m+n+j, 2) {
						continue
					}
					alpha, beta := alphas[(m+j)%3], []T{0, -0.5}[(n+j)%2]
					checkGemmWith(t, r, im.name+"/kernel", func(a, b, c []T) {
						gemmDirect(kern, m, n, k, alpha, a, l.rsa, l.csa, b, l.rsb, l.csb, beta, c, l.rsc)
					}, m, n, k, l, alpha, beta)
				}
			}
		}
	}
	// every layout on the shapes of the benchmarks
	for si, sh := range [][3]int{{64, 64, 64}, {64, 2, 64}, {64, 64, 2}, {128, 10, 512}, {512, 10, 128}} {
		for j, l := range gemmLayouts(sh[0], sh[1], sh[2]) {
			if !sampled(si+j, 2) {
				continue
			}
			checkGemm(t, r, im.name, kern, 1+j%2, sh[0], sh[1], sh[2], l, alphas[j%3], []T{0, 1, -0.5}[j%3])
		}
	}
}

// TestGemmPanels runs the B-packed path (gemmPanels) on shapes that cross
// its kc and nc blocks and the tile edges, every layout, beta 0 and not;
// under the race detector every other layout of each shape, and one
// layout through gemmWith on two goroutines.
func TestGemmPanels(t *testing.T) {
	if len(archImpls()) == 0 {
		t.Skip("gemmPanels runs the direct kernel, which only assembly has")
	}
	for _, im := range archImpls() {
		t.Run(im.name+"/f32", func(t *testing.T) { t.Parallel(); testGemmPanels[float32](t, im) })
		t.Run(im.name+"/f64", func(t *testing.T) { t.Parallel(); testGemmPanels[float64](t, im) })
	}
}

func testGemmPanels[T Float](t *testing.T, im impl) {
	kern := gemmOf[T](im)
	if kern.direct == nil {
		t.Skip("no direct kernel")
	}
	r := rand.New(rand.NewPCG(15, 16))
	shapes := [][3]int{{13, kern.nc + 45, kern.kc + 19}, {kern.dmr*2 + 5, 2*kern.dnr + 3, 2*kern.kc + 1}, {1, 1, kern.kc + 1}, {37, 5, 3}}
	for si, sh := range shapes {
		m, n, k := sh[0], sh[1], sh[2]
		for j, l := range gemmLayouts(m, n, k) {
			if l.csc != 1 {
				continue // the direct kernel needs C's columns adjacent
			}
			if !sampled(si+j, 2) {
				continue
			}
			alpha, beta := []T{1, -0.5, 2}[(si+j)%3], []T{0, 1, -0.5}[(si+2*j)%3]
			checkGemmWith(t, r, im.name+"/panels", func(a, b, c []T) {
				gemmPanels(kern, m, n, k, alpha, a, l.rsa, l.csa, b, l.rsb, l.csb, beta, c, l.rsc)
			}, m, n, k, l, alpha, beta)
		}
	}
	// through gemmWith: big enough for the panels path on two goroutines
	m, n, k := 200, 300, 300
	if useDirect(m, n, k) {
		t.Fatalf("%d×%d×%d takes the direct path", m, n, k)
	}
	for j, l := range gemmLayouts(m, n, k)[:2] {
		if !sampled(j, 2) {
			continue
		}
		checkGemm(t, r, im.name+"/panels2", kern, 2, m, n, k, l, 1, 0)
	}
}

// Products on the panels path whose A lines are 4 KiB apart run on a copy
// of A (restrideA); they must give the same C, with A row-major or stored
// transposed, on every implementation and with one and two goroutines.
// Under the race detector each implementation and type runs one layout on
// two goroutines: the rows for float32, the columns for float64.
func TestGemmRestride(t *testing.T) {
	for _, im := range allImpls() {
		t.Run(im.name+"/f32", func(t *testing.T) { t.Parallel(); testGemmRestride[float32](t, im) })
		t.Run(im.name+"/f64", func(t *testing.T) { t.Parallel(); testGemmRestride[float64](t, im) })
	}
}

func testGemmRestride[T Float](t *testing.T, im impl) {
	var z T
	ld := 4096 / int(unsafe.Sizeof(z)) // elements in 4 KiB
	r := rand.New(rand.NewPCG(3, 4))
	kern := gemmOf[T](im)
	// m·n·k above directMaxFlops and n above directMaxN: the panels path
	m, n, k := 37, 1100, 500
	if m*n*k <= directMaxFlops || n <= directMaxN {
		t.Fatal("shape does not reach the panels path")
	}
	layouts := []gemmLayout{
		{name: "A rows 4 KiB apart", rsa: ld, csa: 1, asz: (m-1)*ld + k},
		{name: "A columns 4 KiB apart", rsa: 1, csa: ld, asz: (k-1)*ld + m},
	}
	for li, l := range layouts {
		l.rsb, l.csb, l.bsz = n, 1, k*n
		l.rsc, l.csc, l.csz = n, 1, m*n
		if buf, _, _, _ := restrideA(m, k, make([]T, l.asz), l.rsa, l.csa); buf == nil {
			t.Fatalf("%s: restrideA made no copy", l.name)
		}
		threads := []int{1, 2}
		if raceEnabled {
			if li != int(unsafe.Sizeof(z))/8 { // 0 for float32, 1 for float64
				continue
			}
			threads = []int{2}
		}
		checkGemmThreads(t, r, im.name+" "+l.name, kern, threads, m, n, k, l, 0.5, -1)
	}
}

// restrideA copies every element of A to where its new strides say, with
// lines 64-byte aligned and not a multiple of 1 KiB apart, and copies only
// when the lines are a multiple of 4 KiB apart.
func TestRestrideA(t *testing.T) {
	for _, c := range []struct {
		m, k, rsa, csa int
		copies         bool
	}{
		{5, 7, 1024, 1, true},     // rows 4 KiB apart
		{5, 7, 2048, 1, true},     // 8 KiB
		{5, 7, 1, 1024, true},     // stored transposed
		{5, 7, 1, 3072, true},     // 12 KiB
		{5, 7, 512, 1, false},     // 2 KiB: spread over two sets, left alone
		{5, 7, 1025, 1, false},    // not a multiple of 4 KiB
		{5, 7, 1024, 2, false},    // strided both ways
		{300, 256, 1024, 1, true}, // lines of exactly 1 KiB get 64 bytes more
	} {
		a := make([]float32, (c.m-1)*c.rsa+(c.k-1)*c.csa+1)
		for i := range a {
			a[i] = float32(i)
		}
		buf, a2, rsa2, csa2 := restrideA(c.m, c.k, a, c.rsa, c.csa)
		if (buf != nil) != c.copies {
			t.Errorf("%+v: copied %v", c, buf != nil)
			continue
		}
		if buf == nil {
			continue
		}
		ld := max(rsa2, csa2)
		if min(rsa2, csa2) != 1 || (c.csa == 1) != (csa2 == 1) {
			t.Errorf("%+v: strides %d, %d change the orientation", c, rsa2, csa2)
		}
		if ld*4%64 != 0 || ld*4%1024 == 0 || uintptr(unsafe.Pointer(&a2[0]))%64 != 0 {
			t.Errorf("%+v: new lines %d bytes apart from %p", c, ld*4, &a2[0])
		}
		for i := 0; i < c.m; i++ {
			for p := 0; p < c.k; p++ {
				if got, want := a2[i*rsa2+p*csa2], a[i*c.rsa+p*c.csa]; got != want {
					t.Fatalf("%+v: A(%d,%d) = %v, want %v", c, i, p, got, want)
				}
			}
		}
	}
	// too big to copy
	if buf, _, _, _ := restrideA(restrideMax/4096+1, 1024, make([]float32, 0), 1024, 1); buf != nil {
		t.Error("restrideA copied more than restrideMax bytes")
	}
}

// GemmBatch gives each product of the batch what Gemm gives it alone: small
// products side by side, large ones one after another, with A shared by
// every product (offset 0) or not, and C's with gaps between them that must
// stay untouched.
func TestGemmBatch(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, c := range []struct{ count, m, n, k int }{
		{1, 30, 20, 25}, {3, 30, 20, 25}, {40, 33, 17, 65}, {40, 64, 64, 64}, {3, 200, 150, 100},
	} {
		for _, shareA := range []bool{false, true} {
			for _, threads := range []int{1, 2, 0} {
				m, n, k := c.m, c.n, c.k
				a := input[float32](r, c.count*m*k, 0, false, -1, 1)
				b := input[float32](r, c.count*k*n, 0, false, -1, 1)
				ldc := m*n + 7 // a gap after each C
				got := make([]float32, c.count*ldc)
				for i := range got {
					got[i] = float32(i % 5)
				}
				want := append([]float32(nil), got...)
				offs := make([][3]int, c.count)
				for i := range offs {
					offs[i] = [3]int{i * m * k, i * k * n, i * ldc}
					if shareA {
						offs[i][0] = 0
					}
					o := offs[i]
					gemmGo(m, n, k, 0.5, a[o[0]:], k, 1, b[o[1]:], n, 1, 2, want[o[2]:], n, 1)
				}
				GemmBatch(threads, m, n, k, 0.5, a, k, 1, b, n, 1, 2, got, n, 1, offs)
				for i := range got {
					if d := math.Abs(float64(got[i] - want[i])); d > 1e-4*(1+math.Abs(float64(want[i]))) {
						t.Fatalf("%+v shareA %v threads %d: c[%d] = %v, want %v", c, shareA, threads, i, got[i], want[i])
					}
				}
			}
		}
	}
}

// TestGemmSplitSameBits runs products of the panels path (B packed a block
// at a time) on one goroutine and on two, C split along its rows (the
// product is too narrow to share its columns out) and along its columns (a
// weight gradient Xᵀ·G: more rows than columns, but enough columns), with B
// stored both ways. A goroutine computes whole tiles of C, each element
// over the same blocks of k in the same order, so the two must agree bit
// for bit: training must not give other numbers on other core counts.
func TestGemmSplitSameBits(t *testing.T) {
	t.Run("f32", func(t *testing.T) { checkSplitSameBits[float32](t) })
	t.Run("f64", func(t *testing.T) { checkSplitSameBits[float64](t) })
}

func checkSplitSameBits[T Float](t *testing.T) {
	kern := gemmKernelFor[T]()
	if kern.direct == nil {
		t.Skip("no direct kernel: the panels path is not taken")
	}
	r := rand.New(rand.NewPCG(9, 9))
	for _, s := range []struct{ m, n, k int }{{784, 512, 128}, {1500, 80, 300}, {600, 4 * 2 * kern.dnr, 400}} {
		if useDirect(s.m, s.n, s.k) {
			t.Fatalf("%v does not reach the panels path", s)
		}
		for _, transB := range []bool{false, true} {
			a := input[T](r, s.m*s.k, 0, false, -1, 1)
			b := input[T](r, s.k*s.n, 0, false, -1, 1)
			rsb, csb := s.n, 1
			if transB {
				rsb, csb = 1, s.k
			}
			var cs [2][]T
			for i, th := range []int{1, 2} {
				cs[i] = make([]T, s.m*s.n)
				// A stored transposed, as Xᵀ is.
				gemmWith(kern, th, s.m, s.n, s.k, 1, a, 1, s.m, b, rsb, csb, 0, cs[i], s.n, 1)
			}
			for i := range cs[0] {
				if cs[0][i] != cs[1][i] {
					t.Fatalf("%d×%d×%d, B transposed %v: C[%d] = %v on one goroutine, %v on two", s.m, s.n, s.k, transB, i, cs[0][i], cs[1][i])
				}
			}
		}
	}
}
