//go:build openblas && cgo

package kernels

import (
	"math/rand/v2"
	"testing"

	"github.com/sdgo/sdgo/kernels/internal/openblas"
)

func init() {
	openBLASCore = openblas.Core()
	openBLASGemm = func(threads, n int, a, b, c any) func() {
		openblas.SetThreads(threads)
		return func() { _ = openBLAS(n, n, n, a, n, b, n, c, n) }
	}
}

// openBLAS calls Sgemm or Dgemm for []float32 or []float64 operands.
func openBLAS(m, n, k int, a any, lda int, b any, ldb int, c any, ldc int) error {
	if a, ok := a.([]float32); ok {
		return openblas.Sgemm(m, n, k, a, lda, b.([]float32), ldb, c.([]float32), ldc)
	}
	return openblas.Dgemm(m, n, k, a.([]float64), lda, b.([]float64), ldb, c.([]float64), ldc)
}

// TestOpenBLAS checks the benchmark peer: OpenBLAS's product through the
// wrapper must match gemmGo on row-major layouts, padded and tight, and
// write nothing outside C, or its timings would be of something else.
func TestOpenBLAS(t *testing.T) {
	t.Logf("%s, kernels %s", openblas.Version(), openblas.Core())
	testOpenBLAS[float32](t)
	testOpenBLAS[float64](t)
	if err := openblas.Sgemm(2, 2, 2, make([]float32, 3), 2, make([]float32, 4), 2, make([]float32, 4), 2); err == nil {
		t.Fatal("openblas.Sgemm took an A of 3 elements for a 2×2 operand")
	}
}

func testOpenBLAS[T Float](t *testing.T) {
	r := rand.New(rand.NewPCG(7, 1))
	for _, sh := range [][3]int{{1, 1, 1}, {3, 5, 7}, {64, 64, 64}, {130, 67, 257}} {
		m, n, k := sh[0], sh[1], sh[2]
		for _, l := range gemmLayouts(m, n, k) {
			if l.name != "NN" && l.name != "NN/tight" {
				continue // the wrapper computes row-major a·b only
			}
			checkGemmWith(t, r, "openblas", func(a, b, c []T) {
				if err := openBLAS(m, n, k, a, l.rsa, b, l.rsb, c, l.rsc); err != nil {
					t.Fatal(err)
				}
			}, m, n, k, l, 1, 0)
		}
	}
}
