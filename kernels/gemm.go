package kernels

// Gemm computes C = alpha*A*B + beta*C for an m×k matrix A, a k×n matrix B and
// an m×n matrix C, each given by its slice and its row and column strides in
// elements: A(i,p) is a[i*rsa+p*csa], B(p,j) is b[p*rsb+j*csb], C(i,j) is
// c[i*rsc+j*csc]. A transposed operand is the same slice with its two strides
// swapped. When beta is 0, C is only written, never read, so NaNs already in C
// do not leak into the result. threads caps the goroutines used; 0 or less
// means GOMAXPROCS.
//
// C must not overlap A or B.
func Gemm[T Float](threads int, m, n, k int, alpha T, a []T, rsa, csa int, b []T, rsb, csb int, beta T, c []T, rsc, csc int) {
	gemmGo(m, n, k, alpha, a, rsa, csa, b, rsb, csb, beta, c, rsc, csc)
}

// gemmGo is the plain loop Gemm computes; tests compare every GEMM path with it.
func gemmGo[T Float](m, n, k int, alpha T, a []T, rsa, csa int, b []T, rsb, csb int, beta T, c []T, rsc, csc int) {
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var s T
			for p := 0; p < k; p++ {
				s += a[i*rsa+p*csa] * b[p*rsb+j*csb]
			}
			ci := i*rsc + j*csc
			if beta == 0 {
				c[ci] = alpha * s
			} else {
				c[ci] = alpha*s + beta*c[ci]
			}
		}
	}
}
