//go:build openblas && cgo

package openblas

/*
#cgo LDFLAGS: -lopenblas
#include <cblas.h>
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// SetThreads sets how many threads OpenBLAS splits a product across.
func SetThreads(n int) { C.openblas_set_num_threads(C.int(n)) }

// Version is the version and build OpenBLAS reports (openblas_get_config).
func Version() string { return C.GoString(C.openblas_get_config()) }

// Core names the kernels OpenBLAS chose for this CPU at load time, such as
// "Haswell" or "SkylakeX" (openblas_get_corename). A build with
// DYNAMIC_ARCH picks them by CPU model, which the environment variable
// OPENBLAS_CORETYPE overrides: OpenBLAS 0.3.21 runs its AVX2 Haswell kernels
// on AMD's AVX-512 CPUs unless told SkylakeX.
func Core() string { return C.GoString(C.openblas_get_corename()) }

// Sgemm computes c = a·b for row-major a (m×k, rows lda apart), b (k×n,
// rows ldb apart) and c (m×n, rows ldc apart) with cblas_sgemm, after
// checking the sizes Go cannot check once the slices are C pointers.
func Sgemm(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) error {
	if err := check(m, n, k, len(a), lda, len(b), ldb, len(c), ldc); err != nil {
		return err
	}
	C.cblas_sgemm(C.CblasRowMajor, C.CblasNoTrans, C.CblasNoTrans, C.blasint(m), C.blasint(n), C.blasint(k),
		1, (*C.float)(unsafe.Pointer(&a[0])), C.blasint(lda), (*C.float)(unsafe.Pointer(&b[0])), C.blasint(ldb),
		0, (*C.float)(unsafe.Pointer(&c[0])), C.blasint(ldc))
	return nil
}

// Dgemm is Sgemm for float64, with cblas_dgemm.
func Dgemm(m, n, k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) error {
	if err := check(m, n, k, len(a), lda, len(b), ldb, len(c), ldc); err != nil {
		return err
	}
	C.cblas_dgemm(C.CblasRowMajor, C.CblasNoTrans, C.CblasNoTrans, C.blasint(m), C.blasint(n), C.blasint(k),
		1, (*C.double)(unsafe.Pointer(&a[0])), C.blasint(lda), (*C.double)(unsafe.Pointer(&b[0])), C.blasint(ldb),
		0, (*C.double)(unsafe.Pointer(&c[0])), C.blasint(ldc))
	return nil
}

func check(m, n, k, la, lda, lb, ldb, lc, ldc int) error {
	if m <= 0 || n <= 0 || k <= 0 {
		return fmt.Errorf("openblas: empty product %d×%d×%d", m, n, k)
	}
	if lda < k || ldb < n || ldc < n || la < (m-1)*lda+k || lb < (k-1)*ldb+n || lc < (m-1)*ldc+n {
		return fmt.Errorf("openblas: %d×%d×%d product does not fit its slices (a %d, lda %d; b %d, ldb %d; c %d, ldc %d)",
			m, n, k, la, lda, lb, ldb, lc, ldc)
	}
	return nil
}
