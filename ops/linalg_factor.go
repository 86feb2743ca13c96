package ops

import (
	"fmt"
	"math"

	"github.com/sdgo/sdgo/ndarray"
	"gonum.org/v1/gonum/mat"
)

// The factorizations of SameDiff's SDLinalg namespace (and SDMath's
// matrix_inverse and matrix_determinant): matrix_inverse,
// matrix_determinant, logdet, cholesky, lu, qr and svd, each over the
// leading (batch) axes of x[..., m, n] as libnd4j does, matrix by matrix.
//
// LU with partial pivoting, Cholesky and Householder QR are small generic
// kernels below, so that float32 computes in float32. The SVD is gonum's
// (an iterative LAPACK routine, float64 only): float32 matrices are widened
// to float64 one matrix at a time for it and the results narrowed back —
// an O(mn·min(m,n)) factorization per matrix, not an elementwise op.

// ---------------------------------------------------------------- helpers

// linalgCheck checks that x is a float batch of matrices (rank >= 2),
// square when square is set, as far as its shape is known.
func linalgCheck(name string, x Info, square bool) error {
	if err := needFloat(name, x); err != nil {
		return err
	}
	if x.UnknownRank {
		return nil
	}
	r := len(x.Shape)
	if r < 2 {
		return fmt.Errorf("%s: input of shape %v; it needs rank 2 or more (a batch of matrices)", name, x.Shape)
	}
	if m, n := x.Shape[r-2], x.Shape[r-1]; square && m >= 0 && n >= 0 && m != n {
		return fmt.Errorf("%s: input of shape %v; its matrices must be square", name, x.Shape)
	}
	return nil
}

// infoOf is an array's dtype and shape.
func infoOf(x *ndarray.Array) Info { return Info{DType: x.DType(), Shape: x.Shape()} }

// matsOf returns the number of matrices, rows and columns of shape s
// (rank >= 2, sizes known).
func matsOf(s []int) (nb, m, n int) {
	return diagLen(s[:len(s)-2]), s[len(s)-2], s[len(s)-1]
}

// withLast returns s with its last two sizes replaced by m and n.
func withLast(s []int, m, n int) []int {
	out := append([]int(nil), s...)
	out[len(out)-2], out[len(out)-1] = m, n
	return out
}

// batchOnly returns s without its last two axes (a fresh slice).
func batchOnly(s []int) []int { return append([]int{}, s[:len(s)-2]...) }

// allocT allocates an output of T's dtype and returns its elements.
func allocT[T ndarray.Float](c *Ctx, shape []int) (*ndarray.Array, []T) {
	out := c.Alloc(ndarray.DTypeOf[T](), shape)
	return out, ndarray.Raw[T](out)[out.Offset() : out.Offset()+out.Size()]
}

// byFloat runs r32 or r64 by dtype.
func byFloat(name string, dt ndarray.DType, r32, r64 func() ([]*ndarray.Array, error)) ([]*ndarray.Array, error) {
	switch dt {
	case ndarray.Float32:
		return r32()
	case ndarray.Float64:
		return r64()
	}
	return nil, fmt.Errorf("%s needs a float32 or float64 input, not %v", name, dt)
}

func linSqrt[T ndarray.Float](v T) T { return T(math.Sqrt(float64(v))) }

// transposeInto writes the transpose of the m×n row-major a into dst (n×m).
func transposeInto[T ndarray.Float](dst, a []T, m, n int) {
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			dst[j*m+i] = a[i*n+j]
		}
	}
}

// ---------------------------------------------------------------- kernels

// factorStopDim is the matrix size from which a factorization asks its
// stop function as it goes: below it a whole matrix is at most a few
// million multiply-adds, and the batch loop's pacer asks between them.
const factorStopDim = 128

// stopAt reports whether a factorization of an n×n matrix must stop
// before column k: it asks stop every 8 columns of a large matrix.
func stopAt(stop func() bool, n, k int) bool {
	return stop != nil && n >= factorStopDim && k%8 == 0 && stop()
}

// factorErr is the error of a factorization of an n×n matrix that may
// have stopped early (stopAt): the run's context's, checked before the
// result is read as singular or not positive definite.
func factorErr(c *Ctx, n int) error {
	if n < factorStopDim {
		return nil
	}
	return c.Err()
}

// luFactor factors the n×n row-major a in place with partial pivoting:
// A[perm] = L·U, L unit lower (below the diagonal of a), U upper (on and
// above it). It returns the permutation's sign and false when a pivot is
// zero (A singular); the factorization then continues past that column.
func luFactor[T ndarray.Float](a []T, n int, perm []int, stop func() bool) (sign T, ok bool) {
	for i := range perm {
		perm[i] = i
	}
	sign, ok = 1, true
	for k := 0; k < n; k++ {
		if stopAt(stop, n, k) {
			return sign, false // the caller asks its context (factorErr)
		}
		p, best := k, linAbs(a[k*n+k])
		for i := k + 1; i < n; i++ {
			if v := linAbs(a[i*n+k]); v > best {
				p, best = i, v
			}
		}
		if !(best > 0) {
			ok = false
			continue
		}
		if p != k {
			rk, rp := a[k*n:(k+1)*n], a[p*n:(p+1)*n]
			for j := range rk {
				rk[j], rp[j] = rp[j], rk[j]
			}
			perm[k], perm[p] = perm[p], perm[k]
			sign = -sign
		}
		piv := a[k*n+k]
		for i := k + 1; i < n; i++ {
			f := a[i*n+k] / piv
			a[i*n+k] = f
			if f != 0 {
				ri, rk := a[i*n:(i+1)*n], a[k*n:(k+1)*n]
				for j := k + 1; j < n; j++ {
					ri[j] -= f * rk[j]
				}
			}
		}
	}
	return sign, ok
}

// luSolve writes into x (n×k) the solution of A·x = b from A's LU factors.
func luSolve[T ndarray.Float](lu []T, perm []int, n int, b []T, k int, x []T) {
	for i := 0; i < n; i++ {
		copy(x[i*k:(i+1)*k], b[perm[i]*k:(perm[i]+1)*k])
	}
	for i := 0; i < n; i++ {
		xi := x[i*k : (i+1)*k]
		for j := 0; j < i; j++ {
			if f := lu[i*n+j]; f != 0 {
				xj := x[j*k : (j+1)*k]
				for c := range xi {
					xi[c] -= f * xj[c]
				}
			}
		}
	}
	for i := n - 1; i >= 0; i-- {
		xi := x[i*k : (i+1)*k]
		for j := i + 1; j < n; j++ {
			if f := lu[i*n+j]; f != 0 {
				xj := x[j*k : (j+1)*k]
				for c := range xi {
					xi[c] -= f * xj[c]
				}
			}
		}
		d := lu[i*n+i]
		for c := range xi {
			xi[c] /= d
		}
	}
}

// cholFactor writes into l (n×n, zeros above the diagonal) the Cholesky
// factor of the symmetric part ½(A + Aᵀ) of the row-major a; false when
// that is not positive definite.
func cholFactor[T ndarray.Float](a []T, n int, l []T, stop func() bool) bool {
	for j := 0; j < n; j++ {
		if stopAt(stop, n, j) {
			return false // the caller asks its context (factorErr)
		}
		s := a[j*n+j]
		for k := 0; k < j; k++ {
			s -= l[j*n+k] * l[j*n+k]
		}
		if !(s > 0) || math.IsInf(float64(s), 0) {
			return false
		}
		d := linSqrt(s)
		l[j*n+j] = d
		for i := 0; i < j; i++ {
			l[i*n+j] = 0
		}
		for i := j + 1; i < n; i++ {
			s := (a[i*n+j] + a[j*n+i]) / 2
			for k := 0; k < j; k++ {
				s -= l[i*n+k] * l[j*n+k]
			}
			l[i*n+j] = s / d
		}
	}
	return true
}

// triSolve writes into x (n×k) the solution of op(T)·x = b, T the lower
// (lower) or upper triangle of the n×n a, op the transpose when trans; it
// returns the row of a zero on T's diagonal, or -1.
func triSolve[T ndarray.Float](a []T, n int, lower, trans bool, b []T, k int, x []T) int {
	el := func(i, j int) T {
		if trans {
			return a[j*n+i]
		}
		return a[i*n+j]
	}
	copy(x, b[:n*k])
	row := func(i, from, to int) int {
		xi := x[i*k : (i+1)*k]
		for j := from; j < to; j++ {
			if f := el(i, j); f != 0 {
				xj := x[j*k : (j+1)*k]
				for c := range xi {
					xi[c] -= f * xj[c]
				}
			}
		}
		d := el(i, i)
		if d == 0 {
			return i
		}
		for c := range xi {
			xi[c] /= d
		}
		return -1
	}
	if lower != trans { // op(T) is lower triangular: forward substitution
		for i := 0; i < n; i++ {
			if z := row(i, 0, i); z >= 0 {
				return z
			}
		}
		return -1
	}
	for i := n - 1; i >= 0; i-- {
		if z := row(i, i+1, n); z >= 0 {
			return z
		}
	}
	return -1
}

// qrFactor computes the Householder QR of the m×n row-major a (LAPACK's
// convention: R's diagonal -sign(a_kk)·norm, the last row of a wide matrix
// unreflected), writing q (m×m) and r (m×n).
func qrFactor[T ndarray.Float](a []T, m, n int, q, r []T, stop func() bool) {
	copy(r, a[:m*n])
	for i := range q[:m*m] {
		q[i] = 0
	}
	for i := 0; i < m; i++ {
		q[i*m+i] = 1
	}
	v := make([]T, m)
	for k := 0; k < min(m-1, n); k++ {
		if stopAt(stop, max(m, n), k) {
			return // the caller asks its context (factorErr)
		}
		var norm2 T
		for i := k; i < m; i++ {
			norm2 += r[i*n+k] * r[i*n+k]
		}
		if norm2 == 0 {
			continue
		}
		alpha := -linSqrt(norm2)
		if r[k*n+k] < 0 {
			alpha = -alpha
		}
		var v2 T
		for i := k; i < m; i++ {
			v[i] = r[i*n+k]
			if i == k {
				v[i] -= alpha
			}
			v2 += v[i] * v[i]
		}
		if v2 == 0 {
			continue
		}
		for j := k + 1; j < n; j++ { // R[k:, j] -= 2 v (v·R[k:, j]) / v·v
			var s T
			for i := k; i < m; i++ {
				s += v[i] * r[i*n+j]
			}
			s = 2 * s / v2
			for i := k; i < m; i++ {
				r[i*n+j] -= s * v[i]
			}
		}
		r[k*n+k] = alpha
		for i := k + 1; i < m; i++ {
			r[i*n+k] = 0
		}
		for i := 0; i < m; i++ { // Q[i, k:] -= 2 (Q[i, k:]·v) vᵀ / v·v
			var s T
			for j := k; j < m; j++ {
				s += q[i*m+j] * v[j]
			}
			s = 2 * s / v2
			for j := k; j < m; j++ {
				q[i*m+j] -= s * v[j]
			}
		}
	}
}

// ---------------------------------------------------------------- inverse, determinant

// squareInfer is the inference of an op from square matrices x[..., n, n]
// to one output: same shape (keep) or the batch shape.
func squareInfer(name string, keep bool) func(in []Info, _ *Args) ([]Info, error) {
	return func(in []Info, _ *Args) ([]Info, error) {
		x := in[0]
		if err := linalgCheck(name, x, true); err != nil {
			return nil, err
		}
		if keep || x.UnknownRank {
			return infos(same(x)), nil
		}
		return infos(Info{DType: x.DType, Shape: batchOnly(x.Shape)}), nil
	}
}

func inverseT[T ndarray.Float](c *Ctx, x *ndarray.Array) ([]*ndarray.Array, error) {
	nb, n, _ := matsOf(x.Shape())
	src, err := packedValues[T](x)
	if err != nil {
		return nil, err
	}
	// The matrices' sizes are not bounded by x's when it has no batch; then
	// nothing is computed and the result is empty.
	if err := reserve[T]("matrix_inverse", min(nb, 1), 2, n, n); err != nil {
		return nil, err
	}
	out, o := allocT[T](c, x.Shape())
	if nb == 0 {
		return one(out, nil)
	}
	a, id, perm := make([]T, n*n), make([]T, n*n), make([]int, n)
	for i := 0; i < n; i++ {
		id[i*n+i] = 1
	}
	pc := c.pace()
	for b := 0; b < nb; b++ {
		if err := pc.tick(n * n * n); err != nil {
			c.Release(out)
			return nil, err
		}
		copy(a, src[b*n*n:])
		_, ok := luFactor(a, n, perm, c.Stop())
		if err := factorErr(c, n); err != nil {
			c.Release(out)
			return nil, err
		}
		if !ok {
			c.Release(out)
			return nil, fmt.Errorf("matrix_inverse: matrix %d of the input of shape %v is singular", b, x.Shape())
		}
		luSolve(a, perm, n, id, n, o[b*n*n:(b+1)*n*n])
	}
	return one(out, nil)
}

// matrixInverseOp is libnd4j's matrix_inverse: the inverse of each square
// matrix of x[..., n, n] (float), by LU with partial pivoting; a singular
// matrix is an error. No arguments.
var matrixInverseOp = Register(&Def{
	Name: "matrix_inverse", Aliases: []string{"MatrixInverse"}, Type: Custom, MinIn: 1, MaxIn: 1,
	Doc:   "the inverse of each square matrix of x[..., n, n]",
	Infer: squareInfer("matrix_inverse", true),
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		x := in[0]
		if err := linalgCheck("matrix_inverse", infoOf(x), true); err != nil {
			return nil, err
		}
		return byFloat("matrix_inverse", x.DType(),
			func() ([]*ndarray.Array, error) { return inverseT[float32](c, x) },
			func() ([]*ndarray.Array, error) { return inverseT[float64](c, x) })
	},
	// d(A⁻¹) = -A⁻¹ dA A⁻¹, so dA = -Yᵀ G Yᵀ with Y = A⁻¹.
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		y := n.Out[0]
		yg := op1(b, "matmul", MatMulArgs(true, false), y, d[0])
		return []Value{neg(b, op1(b, "matmul", MatMulArgs(false, true), yg, y))}
	},
})

func determinantT[T ndarray.Float](c *Ctx, x *ndarray.Array, logSym bool) ([]*ndarray.Array, error) {
	nb, n, _ := matsOf(x.Shape())
	src, err := packedValues[T](x)
	if err != nil {
		return nil, err
	}
	name := "matrix_determinant"
	if logSym {
		name = "logdet"
	}
	if err := reserve[T](name, min(nb, 1), n, n); err != nil {
		return nil, err
	}
	out, o := allocT[T](c, batchOnly(x.Shape()))
	if nb == 0 {
		return one(out, nil)
	}
	a, perm := make([]T, n*n), make([]int, n)
	pc := c.pace()
	for b := 0; b < nb; b++ {
		if err := pc.tick(n * n * n); err != nil {
			c.Release(out)
			return nil, err
		}
		m := src[b*n*n : (b+1)*n*n]
		if logSym {
			ok := cholFactor(m, n, a, c.Stop())
			if err := factorErr(c, n); err != nil {
				c.Release(out)
				return nil, err
			}
			if !ok {
				o[b] = T(math.NaN())
				continue
			}
			var s T
			for i := 0; i < n; i++ {
				s += T(math.Log(float64(a[i*n+i])))
			}
			o[b] = 2 * s
			continue
		}
		copy(a, m)
		sign, _ := luFactor(a, n, perm, c.Stop())
		if err := factorErr(c, n); err != nil {
			c.Release(out)
			return nil, err
		}
		det := sign
		for i := 0; i < n; i++ {
			det *= a[i*n+i]
		}
		o[b] = det
	}
	return one(out, nil)
}

// expandLast2 gives v two trailing axes of size 1 (a batch of scalars
// against a batch of matrices).
func expandLast2(b GradBuilder, v Value) Value {
	return op1(b, "expand_dims", Args{I: []int64{-1}}, op1(b, "expand_dims", Args{I: []int64{-1}}, v))
}

// transposeLast swaps v's last two axes (by permute when v's rank is known;
// a reversal of all axes, the same for rank 2, when it is not).
func transposeLast(b GradBuilder, v Value) Value {
	inf := v.Info()
	if inf.UnknownRank || len(inf.Shape) < 2 {
		return op1(b, "transpose", Args{}, v)
	}
	p := swapLast(len(inf.Shape))
	return op1(b, "permute", Args{I: int64sOf(p)}, v)
}

func int64sOf(v []int) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}

// matrixDeterminantOp is libnd4j's matrix_determinant: the determinant of
// each square matrix of x[..., n, n] (float), of shape [...], by LU (0 for
// a singular matrix). No arguments.
var matrixDeterminantOp = Register(&Def{
	Name: "matrix_determinant", Aliases: []string{"MatrixDeterminant"}, Type: Custom, MinIn: 1, MaxIn: 1,
	Doc:   "the determinant of each square matrix of x[..., n, n], shape [...]",
	Infer: squareInfer("matrix_determinant", false),
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		x := in[0]
		if err := linalgCheck("matrix_determinant", infoOf(x), true); err != nil {
			return nil, err
		}
		return byFloat("matrix_determinant", x.DType(),
			func() ([]*ndarray.Array, error) { return determinantT[float32](c, x, false) },
			func() ([]*ndarray.Array, error) { return determinantT[float64](c, x, false) })
	},
	// d det(A) = det(A)·tr(A⁻¹ dA): dA = g·det·A⁻ᵀ (A invertible).
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		s := expandLast2(b, mul(b, d[0], n.Out[0]))
		return []Value{mul(b, s, transposeLast(b, op1(b, "matrix_inverse", Args{}, n.In[0])))}
	},
})

// logdetOp is libnd4j's logdet: log det A of each symmetric positive
// definite matrix of x[..., n, n], of shape [...], as 2·Σ log diag(L) of
// its Cholesky factor L. As in libnd4j, a matrix that is not positive
// definite gives NaN (not an error). The factor is that of the symmetric
// part ½(A + Aᵀ), which is A for the symmetric matrices the op is for
// (libnd4j reads one triangle); the gradient is then g·(½(A + Aᵀ))⁻¹.
// No arguments.
var logdetOp = Register(&Def{
	Name: "logdet", Aliases: []string{"Logdet"}, Type: Custom, MinIn: 1, MaxIn: 1,
	Doc:   "log det A of each symmetric positive definite matrix of x[..., n, n] by Cholesky, shape [...]; NaN when not positive definite",
	Infer: squareInfer("logdet", false),
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		x := in[0]
		if err := linalgCheck("logdet", infoOf(x), true); err != nil {
			return nil, err
		}
		return byFloat("logdet", x.DType(),
			func() ([]*ndarray.Array, error) { return determinantT[float32](c, x, true) },
			func() ([]*ndarray.Array, error) { return determinantT[float64](c, x, true) })
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		x := n.In[0]
		sym := mul(b, op1(b, "add", Args{}, x, transposeLast(b, x)), scalarLike(b, x, 0.5))
		return []Value{mul(b, expandLast2(b, d[0]), op1(b, "matrix_inverse", Args{}, sym))}
	},
})

// ---------------------------------------------------------------- cholesky

func choleskyT[T ndarray.Float](c *Ctx, x *ndarray.Array) ([]*ndarray.Array, error) {
	nb, n, _ := matsOf(x.Shape())
	src, err := packedValues[T](x)
	if err != nil {
		return nil, err
	}
	out, o := allocT[T](c, x.Shape())
	pc := c.pace()
	for b := 0; b < nb; b++ {
		err := pc.tick(n * n * n)
		ok := err == nil && cholFactor(src[b*n*n:(b+1)*n*n], n, o[b*n*n:(b+1)*n*n], c.Stop())
		if err == nil {
			err = factorErr(c, n)
		}
		if err != nil {
			c.Release(out)
			return nil, err
		}
		if !ok {
			c.Release(out)
			return nil, fmt.Errorf("cholesky: matrix %d of the input of shape %v is not positive definite", b, x.Shape())
		}
	}
	return one(out, nil)
}

// choleskyOp is libnd4j's cholesky: the lower triangular L with L·Lᵀ = A
// for each symmetric positive definite matrix A of x[..., n, n]. The
// factor is that of the symmetric part ½(A + Aᵀ) (A itself for the
// symmetric input the op is for); a matrix that is not positive definite
// is an error. No arguments.
var choleskyOp = Register(&Def{
	Name: "cholesky", Aliases: []string{"Cholesky"}, Type: Custom, MinIn: 1, MaxIn: 1,
	Doc:   "the lower Cholesky factor L (L·Lᵀ = A) of each symmetric positive definite matrix of x[..., n, n]",
	Infer: squareInfer("cholesky", true),
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		x := in[0]
		if err := linalgCheck("cholesky", infoOf(x), true); err != nil {
			return nil, err
		}
		return byFloat("cholesky", x.DType(),
			func() ([]*ndarray.Array, error) { return choleskyT[float32](c, x) },
			func() ([]*ndarray.Array, error) { return choleskyT[float64](c, x) })
	},
	// With Ḡ the lower part of the output gradient and Φ(S) the lower
	// triangle of S with its diagonal halved: X = L⁻ᵀ Φ(Lᵀ Ḡ) L⁻¹, and
	// dA = ½(X + Xᵀ).
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		l := n.Out[0]
		g := op1(b, "matrix_band_part", Args{I: []int64{-1, 0}}, d[0])
		s := op1(b, "matmul", MatMulArgs(true, false), l, g)
		half := scalarLike(b, l, 0.5)
		p := op1(b, "matrix_set_diag", Args{}, op1(b, "matrix_band_part", Args{I: []int64{-1, 0}}, s),
			mul(b, op1(b, "matrix_diag_part", Args{}, s), half))
		lowerAdj := Args{B: []bool{true, true}}
		z := op1(b, "triangular_solve", lowerAdj, l, p)                                     // L⁻ᵀ P
		x := transposeLast(b, op1(b, "triangular_solve", lowerAdj, l, transposeLast(b, z))) // Z L⁻¹
		return []Value{mul(b, op1(b, "add", Args{}, x, transposeLast(b, x)), half)}
	},
})

// ---------------------------------------------------------------- lu

// luDType is lu's permutation dtype: int arg 0 (a SameDiff dtype number),
// int32 by default.
func luDType(a *Args) (ndarray.DType, error) {
	if len(a.I) == 0 {
		return ndarray.Int32, nil
	}
	dt := ndarray.DType(a.I[0])
	if a.I[0] < 0 || a.I[0] > 255 || (dt != ndarray.Int32 && dt != ndarray.Int64) {
		return 0, fmt.Errorf("lu: int arg 0 (the permutation dtype) is %d; it must be int32 (%d) or int64 (%d)",
			a.I[0], ndarray.Int32, ndarray.Int64)
	}
	return dt, nil
}

func luT[T ndarray.Float](c *Ctx, x *ndarray.Array, pdt ndarray.DType) ([]*ndarray.Array, error) {
	nb, n, _ := matsOf(x.Shape())
	src, err := packedValues[T](x)
	if err != nil {
		return nil, err
	}
	out, o := allocT[T](c, x.Shape())
	ps := x.Shape()[:x.Rank()-1]
	pa := c.Alloc(pdt, ps)
	perm := make([]int, n)
	pc := c.pace()
	for b := 0; b < nb; b++ {
		if err := pc.tick(n * n * n); err != nil {
			c.Release(out)
			c.Release(pa)
			return nil, err
		}
		a := o[b*n*n : (b+1)*n*n]
		copy(a, src[b*n*n:])
		luFactor(a, n, perm, c.Stop())
		if err := factorErr(c, n); err != nil {
			c.Release(out)
			c.Release(pa)
			return nil, err
		}
		for i, v := range perm {
			if pdt == ndarray.Int32 {
				ndarray.Raw[int32](pa)[pa.Offset()+b*n+i] = int32(v)
			} else {
				ndarray.Raw[int64](pa)[pa.Offset()+b*n+i] = int64(v)
			}
		}
	}
	return []*ndarray.Array{out, pa}, nil
}

// luOp is libnd4j's lu: for each square matrix A of x[..., n, n], the LU
// factorization with partial pivoting, as TensorFlow's lu: output 0 holds
// U on and above the diagonal and the unit lower L's multipliers below,
// output 1 ([..., n]) the permutation p with A[p] = L·U (row i of L·U is
// row p[i] of A). Int arg 0: the permutation's dtype (SameDiff's number
// for int32 or int64; int32 by default). A singular matrix factors with a
// zero on U's diagonal. Not differentiable (SameDiff has no gradient).
var luOp = Register(&Def{
	Name: "lu", Aliases: []string{"Lu"}, Type: Custom, MinIn: 1, MaxIn: 1,
	Doc: "LU with partial pivoting of each square matrix: [L\\U compound, permutation p with A[p] = L·U]; int arg 0: p's dtype",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		x := in[0]
		if err := linalgCheck("lu", x, true); err != nil {
			return nil, err
		}
		pdt, err := luDType(a)
		if err != nil {
			return nil, err
		}
		if x.UnknownRank {
			return infos(same(x), Info{DType: pdt, UnknownRank: true}), nil
		}
		return infos(same(x), Info{DType: pdt, Shape: append([]int(nil), x.Shape[:len(x.Shape)-1]...)}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x := in[0]
		if err := linalgCheck("lu", infoOf(x), true); err != nil {
			return nil, err
		}
		pdt, err := luDType(a)
		if err != nil {
			return nil, err
		}
		return byFloat("lu", x.DType(),
			func() ([]*ndarray.Array, error) { return luT[float32](c, x, pdt) },
			func() ([]*ndarray.Array, error) { return luT[float64](c, x, pdt) })
	},
})

// ---------------------------------------------------------------- qr

// qrShapes returns qr's output shapes for x[..., m, n]: full, Q [..., m, m]
// and R [..., m, n]; reduced, Q [..., m, k] and R [..., k, n] with
// k = min(m, n) (libnd4j's m×n and n×n when m >= n).
func qrShapes(s []int, full bool) (q, r []int) {
	m, n := s[len(s)-2], s[len(s)-1]
	if full {
		return withLast(s, m, m), withLast(s, m, n)
	}
	k := min(m, n)
	if (m < 0 || n < 0) && m != 0 && n != 0 {
		k = -1
	}
	return withLast(s, m, k), withLast(s, k, n)
}

func qrT[T ndarray.Float](c *Ctx, x *ndarray.Array, full bool) ([]*ndarray.Array, error) {
	nb, m, n := matsOf(x.Shape())
	src, err := packedValues[T](x)
	if err != nil {
		return nil, err
	}
	if err := reserve[T]("qr", min(nb, 1), m, m+n); err != nil {
		return nil, err // q is m×m however narrow x is
	}
	qs, rs := qrShapes(x.Shape(), full)
	qa, qo := allocT[T](c, qs)
	ra, ro := allocT[T](c, rs)
	ws := min(nb, 1) // no workspace for a batch of no matrices
	q, r := make([]T, ws*m*m), make([]T, ws*m*n)
	k := min(m, n)
	pc := c.pace()
	for b := 0; b < nb; b++ {
		err := pc.tick(m * n * max(m, n))
		if qrFactor(src[b*m*n:(b+1)*m*n], m, n, q, r, c.Stop()); err == nil {
			err = factorErr(c, max(m, n))
		}
		if err != nil {
			c.Release(qa)
			c.Release(ra)
			return nil, err
		}
		if full {
			copy(qo[b*m*m:], q)
			copy(ro[b*m*n:], r)
			continue
		}
		for i := 0; i < m; i++ {
			copy(qo[b*m*k+i*k:b*m*k+(i+1)*k], q[i*m:i*m+k])
		}
		copy(ro[b*k*n:(b+1)*k*n], r[:k*n])
	}
	return []*ndarray.Array{qa, ra}, nil
}

// qrOp is libnd4j's qr: the QR factorization A = Q·R of each matrix of
// x[..., m, n] by Householder reflections (LAPACK's signs: R's diagonal is
// -sign(a_kk)·‖column‖). Bool arg 0, full matrices (default false): Q
// [..., m, m] and R [..., m, n]; else Q [..., m, k], R [..., k, n] with
// k = min(m, n). Not differentiable (SameDiff has no gradient).
var qrOp = Register(&Def{
	Name: "qr", Aliases: []string{"Qr"}, Type: Custom, MinIn: 1, MaxIn: 1,
	Doc: "QR factorization A = Q·R of each matrix of x[..., m, n]; bool arg 0: full matrices (Q m×m, R m×n) or reduced",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		x := in[0]
		if err := linalgCheck("qr", x, false); err != nil {
			return nil, err
		}
		if x.UnknownRank {
			return infos(same(x), same(x)), nil
		}
		q, r := qrShapes(x.Shape, a.Bool(0, false))
		return infos(Info{DType: x.DType, Shape: q}, Info{DType: x.DType, Shape: r}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x := in[0]
		if err := linalgCheck("qr", infoOf(x), false); err != nil {
			return nil, err
		}
		full := a.Bool(0, false)
		return byFloat("qr", x.DType(),
			func() ([]*ndarray.Array, error) { return qrT[float32](c, x, full) },
			func() ([]*ndarray.Array, error) { return qrT[float64](c, x, full) })
	},
})

// ---------------------------------------------------------------- svd

// svdShapes returns svd's output shapes for x[..., m, n] and k = min(m, n):
// s [..., k]; U [..., m, m] and V [..., n, n] (full) or U [..., m, k] and
// V [..., n, k].
func svdShapes(s []int, full bool) (sv, u, v []int) {
	m, n := s[len(s)-2], s[len(s)-1]
	k := min(m, n)
	if (m < 0 || n < 0) && m != 0 && n != 0 {
		k = -1
	}
	sv = append(batchOnly(s), k)
	if full {
		return sv, withLast(s, m, m), withLast(s, n, n)
	}
	return sv, withLast(s, m, k), withLast(s, n, k)
}

// svdArgs reads svd's int args: full U and V, compute U and V (a full
// result needs them), switchNum (libnd4j's threshold between its two
// algorithms; read and ignored: one algorithm serves every size).
func svdArgs(a *Args) (full, uv bool) {
	full, uv = a.Int(0, 0) != 0, a.Int(1, 1) != 0
	return full && uv, uv
}

// svdOne factors the m×n matrix a (float64) with gonum; it recovers a
// panic of the library as an error.
func svdOne(a []float64, m, n int, kind mat.SVDKind) (f *mat.SVD, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	f = new(mat.SVD)
	if !f.Factorize(mat.NewDense(m, n, a), kind) {
		return nil, fmt.Errorf("the iteration did not converge")
	}
	return f, nil
}

func svdT[T ndarray.Float](c *Ctx, x *ndarray.Array, full, uv bool) ([]*ndarray.Array, error) {
	nb, m, n := matsOf(x.Shape())
	src, err := packedValues[T](x)
	if err != nil {
		return nil, err
	}
	k := min(m, n)
	ss, us, vs := svdShapes(x.Shape(), full)
	sa, so := allocT[T](c, ss)
	outs := []*ndarray.Array{sa}
	var uo, vo []T
	if uv {
		var ua, va *ndarray.Array
		ua, uo = allocT[T](c, us)
		va, vo = allocT[T](c, vs)
		outs = append(outs, ua, va)
	}
	kind := mat.SVDNone
	if uv {
		kind = mat.SVDThin
		if full {
			kind = mat.SVDFull
		}
	}
	uc, vc := k, k // columns of U and V
	if full {
		uc, vc = m, n
	}
	if err := reserve[float64]("svd", min(nb, 1), m, n); err != nil {
		return nil, err
	}
	a := make([]float64, min(nb, 1)*m*n) // none for a batch of no matrices
	var u, v mat.Dense
	pc := c.pace()
	for b := 0; b < nb; b++ {
		if err := pc.tick(m * n * max(m, n)); err != nil {
			return nil, err // gonum's SVD cannot be stopped inside one matrix
		}
		if k == 0 { // nothing to factor: identities for full U and V
			if uv {
				fillEye(uo[b*m*uc:(b+1)*m*uc], m, uc)
				fillEye(vo[b*n*vc:(b+1)*n*vc], n, vc)
			}
			continue
		}
		finite := true
		for i, e := range src[b*m*n : (b+1)*m*n] {
			a[i] = float64(e)
			finite = finite && !math.IsNaN(a[i]) && !math.IsInf(a[i], 0)
		}
		if !finite { // LAPACK's iteration need not end: NaN results
			nan := T(math.NaN())
			fillT(so[b*k:(b+1)*k], nan)
			if uv {
				fillT(uo[b*m*uc:(b+1)*m*uc], nan)
				fillT(vo[b*n*vc:(b+1)*n*vc], nan)
			}
			continue
		}
		f, err := svdOne(a, m, n, kind)
		if err != nil {
			for _, o := range outs {
				c.Release(o)
			}
			return nil, fmt.Errorf("svd: matrix %d of the input of shape %v: %w", b, x.Shape(), err)
		}
		for i, e := range f.Values(nil) {
			so[b*k+i] = T(e)
		}
		if !uv {
			continue
		}
		f.UTo(&u)
		f.VTo(&v)
		copyDense(uo[b*m*uc:(b+1)*m*uc], &u)
		copyDense(vo[b*n*vc:(b+1)*n*vc], &v)
	}
	return outs, nil
}

func fillEye[T ndarray.Float](o []T, r, c int) {
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			o[i*c+j] = 0
			if i == j {
				o[i*c+j] = 1
			}
		}
	}
}

func copyDense[T ndarray.Float](o []T, d *mat.Dense) {
	r, c := d.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			o[i*c+j] = T(d.At(i, j))
		}
	}
}

// svdOp is libnd4j's svd: the singular value decomposition A = U·diag(s)·Vᵀ
// of each matrix of x[..., m, n], k = min(m, n), singular values in
// decreasing order. Int args: full U and V (default 0), compute U and V
// (default 1), switchNum (ignored; libnd4j's algorithm switch). Outputs s
// [..., k], then when U and V are computed U ([..., m, m] full, [..., m, k]
// reduced) and V (not Vᵀ: [..., n, n] or [..., n, k]); all NaN for a matrix
// with a NaN or infinite element. Computed by gonum's
// LAPACK in float64 (float32 widened per matrix). Not differentiable
// (SameDiff has no gradient).
var svdOp = Register(&Def{
	Name: "svd", Aliases: []string{"Svd"}, Type: Custom, MinIn: 1, MaxIn: 1,
	Doc: "singular values s (and U, V with A = U·diag(s)·Vᵀ) of each matrix of x[..., m, n]; int args: full UV, compute UV, switchNum",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		x := in[0]
		if err := linalgCheck("svd", x, false); err != nil {
			return nil, err
		}
		full, uv := svdArgs(a)
		n := 1
		if uv {
			n = 3
		}
		if x.UnknownRank {
			out := make([]Info, n)
			for i := range out {
				out[i] = same(x)
			}
			return out, nil
		}
		s, u, v := svdShapes(x.Shape, full)
		out := []Info{{DType: x.DType, Shape: s}, {DType: x.DType, Shape: u}, {DType: x.DType, Shape: v}}
		return out[:n], nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x := in[0]
		if err := linalgCheck("svd", infoOf(x), false); err != nil {
			return nil, err
		}
		full, uv := svdArgs(a)
		return byFloat("svd", x.DType(),
			func() ([]*ndarray.Array, error) { return svdT[float32](c, x, full, uv) },
			func() ([]*ndarray.Array, error) { return svdT[float64](c, x, full, uv) })
	},
})

func linAbs[T ndarray.Float](v T) T {
	if v < 0 {
		return -v
	}
	return v
}
