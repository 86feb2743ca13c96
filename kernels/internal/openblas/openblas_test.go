//go:build openblas && cgo

package openblas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/kernels/internal/medtime"
)

// gemm calls Sgemm or Dgemm.
func gemm[T float32 | float64](m, n, k int, a []T, lda int, b []T, ldb int, c []T, ldc int) error {
	if a, ok := any(a).([]float32); ok {
		return Sgemm(m, n, k, a, lda, any(b).([]float32), ldb, any(c).([]float32), ldc)
	}
	return Dgemm(m, n, k, any(a).([]float64), lda, any(b).([]float64), ldb, any(c).([]float64), ldc)
}

func random[T float32 | float64](r *rand.Rand, n int) []T {
	x := make([]T, n)
	for i := range x {
		x[i] = T(r.Float64()*2 - 1)
	}
	return x
}

// TestGemm checks the benchmark peer against a float64 triple loop, with
// leading dimensions larger than the rows and guard elements after C that
// must not change, or its timings would be of something else.
func TestGemm(t *testing.T) {
	t.Logf("%s, kernels %s", Version(), Core())
	testGemm[float32](t, 1e-5)
	testGemm[float64](t, 1e-13)
	if err := Sgemm(2, 2, 2, make([]float32, 3), 2, make([]float32, 4), 2, make([]float32, 4), 2); err == nil {
		t.Fatal("Sgemm took an A of 3 elements for a 2×2 operand")
	}
}

func testGemm[T float32 | float64](t *testing.T, tol float64) {
	r := rand.New(rand.NewPCG(7, 1))
	for _, sh := range [][3]int{{1, 1, 1}, {3, 5, 7}, {64, 64, 64}, {130, 67, 257}} {
		m, n, k := sh[0], sh[1], sh[2]
		lda, ldb, ldc := k+1, n+3, n+2
		a, b := random[T](r, (m-1)*lda+k), random[T](r, (k-1)*ldb+n)
		const guard = 8
		c := random[T](r, (m-1)*ldc+n+guard)
		c0 := append([]T(nil), c...)
		if err := gemm(m, n, k, a, lda, b, ldb, c[:len(c)-guard], ldc); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < m; i++ {
			for j := 0; j < n; j++ {
				want, mag := 0.0, 0.0
				for p := 0; p < k; p++ {
					want += float64(a[i*lda+p]) * float64(b[p*ldb+j])
					mag += math.Abs(float64(a[i*lda+p]) * float64(b[p*ldb+j]))
				}
				if got := float64(c[i*ldc+j]); !(math.Abs(got-want) <= tol*mag) {
					t.Fatalf("%T %d×%d×%d: C(%d,%d) = %v, want %v", a, m, n, k, i, j, got, want)
				}
				c0[i*ldc+j] = c[i*ldc+j]
			}
		}
		for i := range c {
			if c[i] != c0[i] {
				t.Fatalf("%T %d×%d×%d: c[%d], outside C, changed", a, m, n, k, i)
			}
		}
	}
}

// BenchmarkGemm is kernels' BenchmarkGemm for OpenBLAS, with the same
// names and operands' shapes, the peer named after the kernels OpenBLAS
// chose ("openblas-haswell"; OPENBLAS_CORETYPE=SkylakeX selects its AVX-512
// ones): go test -tags openblas -bench Gemm ./kernels/... runs both.
func BenchmarkGemm(b *testing.B) {
	peer := "openblas-" + strings.ToLower(Core())
	for _, n := range []int{64, 256, 512, 1024} {
		for _, th := range []string{"t1", "tN"} {
			threads := 1
			if th == "tN" {
				threads = runtime.NumCPU()
			}
			b.Run(fmt.Sprintf("f32/%d/%s/%s", n, th, peer), func(b *testing.B) { benchGemm[float32](b, n, threads) })
			b.Run(fmt.Sprintf("f64/%d/%s/%s", n, th, peer), func(b *testing.B) { benchGemm[float64](b, n, threads) })
		}
	}
}

func benchGemm[T float32 | float64](b *testing.B, n, threads int) {
	r := rand.New(rand.NewPCG(1, 1))
	a, bb, c := random[T](r, n*n), random[T](r, n*n), make([]T, n*n)
	SetThreads(threads)
	med := medtime.Call(b, func() { _ = gemm(n, n, n, a, n, bb, n, c, n) })
	b.ReportMetric(2*float64(n)*float64(n)*float64(n)/med/1e9, "GFLOP/s")
}
