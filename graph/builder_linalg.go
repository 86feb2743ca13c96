package graph

import (
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// SameDiff's SDLinalg namespace: factorizations, solves and band ops
// (ops/linalg_factor.go, linalg_solve.go, linalg_band.go), each over the
// leading (batch) axes of its matrices. The diagonal ops, trace, eye and
// cross are on g.Math() (builder_linalg_diag.go), as SameDiff's SDMath
// has them, and matmul is Variable.MatMul.

// Linalg returns the linear-algebra namespace.
func (g *Graph) Linalg() Linalg { return Linalg{g} }

// Linalg is the namespace of linear-algebra functions (SameDiff's
// SDLinalg).
type Linalg struct{ g *Graph }

// Inverse is the inverse of each square matrix of x[..., n, n] (op
// matrix_inverse); a singular matrix is a run-time error.
func (l Linalg) Inverse(x *Variable) *Variable { return l.g.Apply("matrix_inverse", ops.Args{}, x) }

// Det is the determinant of each square matrix of x[..., n, n], of shape
// [...] (op matrix_determinant).
func (l Linalg) Det(x *Variable) *Variable { return l.g.Apply("matrix_determinant", ops.Args{}, x) }

// LogDet is log det of each symmetric positive definite matrix of
// x[..., n, n], of shape [...] (op logdet); NaN for a matrix that is not
// positive definite, as libnd4j.
func (l Linalg) LogDet(x *Variable) *Variable { return l.g.Apply("logdet", ops.Args{}, x) }

// Cholesky is the lower triangular L with L·Lᵀ = A of each symmetric
// positive definite matrix A of x[..., n, n] (op cholesky); a matrix that
// is not positive definite is a run-time error.
func (l Linalg) Cholesky(x *Variable) *Variable { return l.g.Apply("cholesky", ops.Args{}, x) }

// LU is the LU factorization with partial pivoting of each square matrix
// of x[..., n, n] (op lu): lu holds U on and above the diagonal and L's
// multipliers below (L has a unit diagonal), perm [..., n] the row
// permutation with A[perm] = L·U, of dtype permDType (int32 or int64;
// Invalid, the zero value, means int32).
func (l Linalg) LU(x *Variable, permDType ndarray.DType) (lu, perm *Variable) {
	var args ops.Args
	if permDType != ndarray.Invalid {
		args.I = []int64{int64(permDType)}
	}
	return l.g.pair("lu", args, x)
}

// QR is the QR factorization A = Q·R of each matrix of x[..., m, n] by
// Householder reflections (op qr): with full, Q [..., m, m] and R
// [..., m, n]; else Q [..., m, k] and R [..., k, n], k = min(m, n).
func (l Linalg) QR(x *Variable, full bool) (q, r *Variable) {
	return l.g.pair("qr", ops.Args{B: []bool{full}}, x)
}

// Eig is the eigendecomposition of the real square matrix x [n, n] (op
// eig): values [n, 2] and right eigenvectors [n, n, 2] (eigenvector j in
// column j, unit norm), the real and imaginary parts in the last axis; a
// complex conjugate pair comes as two consecutive eigenvalues, the positive
// imaginary part first. eig has no options, and no gradient (SameDiff
// gives it none): a loss that depends on x through it fails to
// differentiate.
func (l Linalg) Eig(x *Variable) (values, vectors *Variable) {
	return l.g.pair("eig", ops.Args{}, x)
}

// SVDConfig are SVD's options.
type SVDConfig struct {
	// FullMatrices gives U [..., m, m] and V [..., n, n] rather than
	// [..., m, k] and [..., n, k] (k = min(m, n)); false by default.
	FullMatrices bool
	// SwitchNum is libnd4j's size threshold between its two SVD
	// algorithms, stored in the file for SameDiff; sdgo ignores it. 0 (the
	// default) writes SameDiff's default, 16.
	SwitchNum int
}

// args returns svd's int args: full, compute U and V, switchNum.
func (c *SVDConfig) args(uv bool) ops.Args {
	var cfg SVDConfig
	if c != nil {
		cfg = *c
	}
	sw := cfg.SwitchNum
	if sw == 0 {
		sw = 16
	}
	return ops.Args{I: []int64{b2i(cfg.FullMatrices && uv), b2i(uv), int64(sw)}}
}

// SVD is the singular value decomposition A = U·diag(s)·Vᵀ of each matrix
// of x[..., m, n] (op svd): s [..., k] in decreasing order, U and V (not
// Vᵀ) as cfg says. A nil config is the defaults.
func (l Linalg) SVD(x *Variable, cfg *SVDConfig) (s, u, v *Variable) {
	if x != nil && x.err != nil {
		return x, x, x
	}
	outs, err := l.g.Op("svd", cfg.args(true), x)
	if err != nil {
		e := l.g.fail(err)
		return e, e, e
	}
	return outs[0], outs[1], outs[2]
}

// SingularValues is the singular values of each matrix of x[..., m, n],
// [..., min(m, n)] in decreasing order (op svd without U and V).
func (l Linalg) SingularValues(x *Variable) *Variable {
	return l.g.Apply("svd", (*SVDConfig)(nil).args(false), x)
}

// Solve is X with A·X = B, or Aᵀ·X = B when adjoint is set, for
// a[..., n, n] and b[..., n, k] of one batch shape (op solve).
func (l Linalg) Solve(a, b *Variable, adjoint bool) *Variable {
	return l.g.Apply("solve", ops.Args{B: []bool{adjoint}}, a, b)
}

// TriangularSolveConfig are TriangularSolve's options.
type TriangularSolveConfig struct {
	// Upper reads the upper triangle of a; the lower one by default.
	Upper bool
	// Adjoint solves with the triangle's transpose; false by default.
	Adjoint bool
}

// TriangularSolve is X with op(T)·X = B, T the lower (by default) or upper
// triangle of each matrix of a[..., n, n] (the other is not read), op the
// transpose when cfg.Adjoint is set (op triangular_solve). A nil config is
// the defaults.
func (l Linalg) TriangularSolve(a, b *Variable, cfg *TriangularSolveConfig) *Variable {
	var c TriangularSolveConfig
	if cfg != nil {
		c = *cfg
	}
	return l.g.Apply("triangular_solve", ops.Args{B: []bool{!c.Upper, c.Adjoint}}, a, b)
}

// LstsqConfig are Lstsq's options.
type LstsqConfig struct {
	// L2 is the l2 regularizer, >= 0; 0 by default.
	L2 float64
	// Accurate solves by QR rather than by the normal equations and
	// Cholesky (SameDiff's fast = false); false by default.
	Accurate bool
}

// Lstsq is X [..., n, k] minimizing ‖A·X - B‖² + l2·‖X‖² for a[..., m, n]
// and b[..., m, k] (the minimum-norm solution when m < n) (op lstsq). A
// nil config is the defaults.
func (l Linalg) Lstsq(a, b *Variable, cfg *LstsqConfig) *Variable {
	var c LstsqConfig
	if cfg != nil {
		c = *cfg
	}
	return l.g.Apply("lstsq", ops.Args{F: []float64{c.L2}, B: []bool{!c.Accurate}}, a, b)
}

// BandPart is x[..., m, n] with the elements more than lower below or
// upper above the diagonal zeroed; a negative count keeps the whole
// triangle (op matrix_band_part).
func (l Linalg) BandPart(x *Variable, lower, upper int) *Variable {
	return l.g.Apply("matrix_band_part", ops.Args{I: []int64{int64(lower), int64(upper)}}, x)
}

// Tril is the lower triangle of each matrix of x (matrix_band_part with
// lower -1, upper 0; SameDiff has no tril op).
func (l Linalg) Tril(x *Variable) *Variable { return l.BandPart(x, -1, 0) }

// Triu is x with the elements below the k-th diagonal zeroed (kept where
// j >= i + k); a vector of n acts as each row of an n×n matrix (op triu).
func (l Linalg) Triu(x *Variable, k int) *Variable {
	return l.g.Apply("triu", ops.Args{I: []int64{int64(k)}}, x)
}

// Tri is the rows×cols matrix of dtype dt (Invalid: float32) with ones at
// and below the k-th diagonal (j <= i + k), zeros above (op tri).
func (l Linalg) Tri(rows, cols, k int, dt ndarray.DType) *Variable {
	args := ops.Args{I: []int64{int64(rows), int64(cols), int64(k)}}
	if dt != ndarray.Invalid {
		args.D = []ndarray.DType{dt}
	}
	return l.g.Apply("tri", args)
}
