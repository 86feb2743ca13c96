package ops

import (
	"fmt"
	"math"

	"github.com/sdgo/sdgo/ndarray"
)

// The linear solves of SameDiff's SDLinalg namespace: solve,
// triangular_solve and lstsq, over the leading (batch) axes of a[..., m, n]
// and b[..., m, k] as libnd4j does (the batch shapes must be equal), in the
// inputs' dtype with the kernels of linalg_factor.go.

// solveCheck checks a solve's operands: float, one dtype, rank >= 2, equal
// batch shapes, a square when square, and a's rows matching b's.
func solveCheck(name string, a, b Info, square bool) error {
	if err := linalgCheck(name, a, square); err != nil {
		return err
	}
	if err := linalgCheck(name, b, false); err != nil {
		return err
	}
	if a.DType != b.DType {
		return fmt.Errorf("%s: the matrix is %v, the right-hand side %v", name, a.DType, b.DType)
	}
	if a.UnknownRank || b.UnknownRank {
		return nil
	}
	ra, rb := len(a.Shape), len(b.Shape)
	bad := ra != rb || (a.Shape[ra-2] >= 0 && b.Shape[rb-2] >= 0 && a.Shape[ra-2] != b.Shape[rb-2])
	for i := 0; !bad && i < ra-2; i++ {
		bad = a.Shape[i] >= 0 && b.Shape[i] >= 0 && a.Shape[i] != b.Shape[i]
	}
	if bad {
		return fmt.Errorf("%s: a matrix of shape %v and a right-hand side of shape %v; they need one batch shape and as many rows",
			name, a.Shape, b.Shape)
	}
	return nil
}

// solveInfer is the inference of solve and triangular_solve: b's shape.
func solveInfer(name string) func(in []Info, _ *Args) ([]Info, error) {
	return func(in []Info, _ *Args) ([]Info, error) {
		if err := solveCheck(name, in[0], in[1], true); err != nil {
			return nil, err
		}
		out := same(in[1])
		if !in[0].UnknownRank && !out.UnknownRank {
			out.Shape = append([]int(nil), out.Shape...)
			for i := 0; i < len(out.Shape)-1; i++ {
				if out.Shape[i] < 0 {
					out.Shape[i] = in[0].Shape[i]
				}
			}
		}
		return infos(out), nil
	}
}

// solveEach solves, for each matrix i of a[..., m, n] and b[..., m, k],
// with each(i, a_i, b_i, x_i), which writes matrix i of the output (of
// shape out: [..., n, k]) into x_i; an error from it ends the run.
func solveEach[T ndarray.Float](c *Ctx, am, bm *ndarray.Array, out []int, each func(i int, a, b, x []T) error) ([]*ndarray.Array, error) {
	nb, m, n := matsOf(am.Shape())
	k := bm.Shape()[bm.Rank()-1]
	as, err := packedValues[T](am)
	if err != nil {
		return nil, err
	}
	bs, err := packedValues[T](bm)
	if err != nil {
		return nil, err
	}
	res, o := allocT[T](c, out)
	nx := n * k
	pc := c.pace()
	for i := 0; i < nb; i++ {
		if err := pc.tick(max(m, n) * max(m, n) * (max(m, n) + k)); err != nil {
			c.Release(res)
			return nil, err
		}
		if err := each(i, as[i*m*n:(i+1)*m*n], bs[i*m*k:(i+1)*m*k], o[i*nx:(i+1)*nx]); err != nil {
			c.Release(res)
			return nil, err
		}
	}
	return one(res, nil)
}

func solveT[T ndarray.Float](c *Ctx, am, bm *ndarray.Array, adjoint bool) ([]*ndarray.Array, error) {
	nb, n, _ := matsOf(am.Shape())
	k := bm.Shape()[bm.Rank()-1]
	if err := reserve[T]("solve", min(nb, 1), n, n); err != nil {
		return nil, err // n is not bounded by a's size when it has no batch
	}
	ws := min(nb, 1) // no workspace for a batch of no matrices
	lu, perm := make([]T, ws*n*n), make([]int, ws*n)
	return solveEach(c, am, bm, bm.Shape(), func(i int, a, b, x []T) error {
		if adjoint {
			transposeInto(lu, a, n, n)
		} else {
			copy(lu, a)
		}
		_, ok := luFactor(lu, n, perm, c.Stop())
		if err := factorErr(c, n); err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("solve: matrix %d of the input of shape %v is singular", i, am.Shape())
		}
		luSolve(lu, perm, n, b, k, x)
		return nil
	})
}

// solveOp is libnd4j's solve (SameDiff's LinearSolve): X with A·X = B (or
// Aᵀ·X = B when bool arg 0, adjoint, is set; default false) for a[..., n, n]
// and b[..., n, k] of one batch shape, by LU with partial pivoting; a
// singular matrix is an error.
var solveOp = Register(&Def{
	Name: "solve", Aliases: []string{"LinearSolve"}, Type: Custom, MinIn: 2, MaxIn: 2,
	Doc:   "X with A·X = B (Aᵀ·X = B when bool arg 0, adjoint) for a[..., n, n], b[..., n, k]",
	Infer: solveInfer("solve"),
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		if err := solveCheck("solve", infoOf(in[0]), infoOf(in[1]), true); err != nil {
			return nil, err
		}
		adj := a.Bool(0, false)
		return byFloat("solve", in[0].DType(),
			func() ([]*ndarray.Array, error) { return solveT[float32](c, in[0], in[1], adj) },
			func() ([]*ndarray.Array, error) { return solveT[float64](c, in[0], in[1], adj) })
	},
	// X = op(A)⁻¹B: dB = op(A)⁻ᵀ G, d op(A) = -dB Xᵀ.
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		adj := n.Args.Bool(0, false)
		x := n.Out[0]
		db := op1(b, "solve", Args{B: []bool{!adj}}, n.In[0], d[0])
		if adj {
			return []Value{neg(b, op1(b, "matmul", MatMulArgs(false, true), x, db)), db}
		}
		return []Value{neg(b, op1(b, "matmul", MatMulArgs(false, true), db, x)), db}
	},
})

// triSolveArgs reads triangular_solve's bool args: lower (default true),
// adjoint (default false).
func triSolveArgs(a *Args) (lower, adj bool) { return a.Bool(0, true), a.Bool(1, false) }

func triangularSolveT[T ndarray.Float](c *Ctx, am, bm *ndarray.Array, lower, adj bool) ([]*ndarray.Array, error) {
	_, n, _ := matsOf(am.Shape())
	k := bm.Shape()[bm.Rank()-1]
	return solveEach(c, am, bm, bm.Shape(), func(i int, a, b, x []T) error {
		if z := triSolve(a, n, lower, adj, b, k, x); z >= 0 {
			return fmt.Errorf("triangular_solve: matrix %d of the input of shape %v is singular (zero at diagonal %d)", i, am.Shape(), z)
		}
		return nil
	})
}

// triangularSolveOp is libnd4j's triangular_solve: X with op(T)·X = B, T
// the lower (bool arg 0, default true) or upper triangle of each matrix of
// a[..., n, n] (the other triangle is not read), op the transpose when
// bool arg 1, adjoint, is set (default false); b[..., n, k] of a's batch
// shape. A zero on T's diagonal is an error.
var triangularSolveOp = Register(&Def{
	Name: "triangular_solve", Aliases: []string{"TriangularSolve"}, Type: Custom, MinIn: 2, MaxIn: 2,
	Doc:   "X with op(T)·X = B, T a triangle of a[..., n, n]; bool args: lower (default true), adjoint",
	Infer: solveInfer("triangular_solve"),
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		if err := solveCheck("triangular_solve", infoOf(in[0]), infoOf(in[1]), true); err != nil {
			return nil, err
		}
		lower, adj := triSolveArgs(a)
		return byFloat("triangular_solve", in[0].DType(),
			func() ([]*ndarray.Array, error) { return triangularSolveT[float32](c, in[0], in[1], lower, adj) },
			func() ([]*ndarray.Array, error) { return triangularSolveT[float64](c, in[0], in[1], lower, adj) })
	},
	// As solve's, with dA restricted to the triangle read.
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		lower, adj := triSolveArgs(n.Args)
		x := n.Out[0]
		db := op1(b, "triangular_solve", Args{B: []bool{lower, !adj}}, n.In[0], d[0])
		var dt Value
		if adj {
			dt = op1(b, "matmul", MatMulArgs(false, true), x, db)
		} else {
			dt = op1(b, "matmul", MatMulArgs(false, true), db, x)
		}
		band := []int64{0, -1}
		if lower {
			band = []int64{-1, 0}
		}
		return []Value{neg(b, op1(b, "matrix_band_part", Args{I: band}, dt)), db}
	},
})

// ---------------------------------------------------------------- lstsq

// mulAtB writes into dst (n×k) the product Aᵀ·B of the first m rows and
// n columns of a (rows lda apart) and the first m rows and k columns of b
// (rows ldb apart):
//
//	dst[i*k+j] = Σ_{r<m} a[r*lda+i] · b[r*ldb+j]
func mulAtB[T ndarray.Float](dst, a []T, lda int, b []T, ldb, m, n, k int) {
	for i := 0; i < n; i++ {
		for j := 0; j < k; j++ {
			var s T
			for r := 0; r < m; r++ {
				s += a[r*lda+i] * b[r*ldb+j]
			}
			dst[i*k+j] = s
		}
	}
}

// lstsqOne writes into x (n×k) the regularized least-squares solution
// argmin ‖A·X - B‖² + l2‖X‖² of the m×n a and m×k b (the minimum-norm one
// when m < n). fast: normal equations by Cholesky; else Householder QR of
// the matrix stacked with √l2·I. It returns false when the system is rank
// deficient.
func lstsqOne[T ndarray.Float](a []T, m, n int, b []T, k int, l2 T, fast bool, x []T) bool {
	if fast {
		if m >= n { // (AᵀA + l2 I) X = AᵀB
			g, rhs, l, y := make([]T, n*n), make([]T, n*k), make([]T, n*n), make([]T, n*k)
			mulAtB(g, a, n, a, n, m, n, n)
			mulAtB(rhs, a, n, b, k, m, n, k)
			for i := 0; i < n; i++ {
				g[i*n+i] += l2
			}
			if !cholFactor(g, n, l, nil) || triSolve(l, n, true, false, rhs, k, y) >= 0 {
				return false
			}
			return triSolve(l, n, true, true, y, k, x) < 0
		}
		// X = Aᵀ (AAᵀ + l2 I)⁻¹ B
		g, l, y, z := make([]T, m*m), make([]T, m*m), make([]T, m*k), make([]T, m*k)
		for i := 0; i < m; i++ {
			for j := 0; j < m; j++ {
				var s T
				for c := 0; c < n; c++ {
					s += a[i*n+c] * a[j*n+c]
				}
				g[i*m+j] = s
			}
			g[i*m+i] += l2
		}
		if !cholFactor(g, m, l, nil) || triSolve(l, m, true, false, b, k, y) >= 0 || triSolve(l, m, true, true, y, k, z) >= 0 {
			return false
		}
		mulAtB(x, a, n, z, k, m, n, k)
		return true
	}
	sq := linSqrt(l2)
	if m >= n { // QR of [A; √l2 I] (p×n), X = R⁻¹ (Qᵀ [B; 0])[:n]
		p := m + n
		c := make([]T, p*n)
		copy(c, a[:m*n])
		for i := 0; i < n; i++ {
			c[(m+i)*n+i] = sq
		}
		q, r, y := make([]T, p*p), make([]T, p*n), make([]T, n*k)
		qrFactor(c, p, n, q, r, nil)
		mulAtB(y, q, p, b, k, m, n, k)
		return triSolve(r, n, false, false, y, k, x) < 0 // R's top n×n block: rows of stride n
	}
	// Minimum norm: C = [A, √l2 I] (m×p), Cᵀ = QR, Y = Q R⁻ᵀ B, X = Y[:n].
	p := n + m
	ct := make([]T, p*m)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			ct[j*m+i] = a[i*n+j]
		}
		ct[(n+i)*m+i] = sq
	}
	q, r, z := make([]T, p*p), make([]T, p*m), make([]T, m*k)
	qrFactor(ct, p, m, q, r, nil)
	if triSolve(r, m, false, true, b, k, z) >= 0 {
		return false
	}
	for i := 0; i < n; i++ {
		for j := 0; j < k; j++ {
			var s T
			for t := 0; t < m; t++ {
				s += q[i*p+t] * z[t*k+j]
			}
			x[i*k+j] = s
		}
	}
	return true
}

func lstsqT[T ndarray.Float](c *Ctx, am, bm *ndarray.Array, l2 float64, fast bool) ([]*ndarray.Array, error) {
	nb, m, n := matsOf(am.Shape())
	k := bm.Shape()[bm.Rank()-1]
	// lstsqOne's temporaries for one matrix, which for QR outgrow a and b
	// (p×p for p = m+n).
	d, p := min(m, n), m+n
	need := []int{min(nb, d, 1), 2, d, d + k}
	if !fast {
		need = []int{min(nb, d, 1), p, p + 2*d + k}
	}
	if err := reserve[T]("lstsq", need...); err != nil {
		return nil, err
	}
	return solveEach(c, am, bm, withLast(bm.Shape(), n, k), func(i int, a, b, x []T) error {
		if m == 0 || n == 0 {
			clear(x)
			return nil
		}
		if !lstsqOne(a, m, n, b, k, T(l2), fast, x) {
			return fmt.Errorf("lstsq: matrix %d of the input of shape %v is rank deficient (with l2 regularizer %v)", i, am.Shape(), l2)
		}
		return nil
	})
}

// lstsqOp is libnd4j's lstsq (MatrixSolveLs): for a[..., m, n] and
// b[..., m, k] of one batch shape, X [..., n, k] minimizing
// ‖A·X - B‖² + l2·‖X‖² (float arg 0, l2, default 0; the minimum-norm
// solution when m < n). Bool arg 0, fast (default true): by the normal
// equations and Cholesky, as TensorFlow's fast path; else by Householder
// QR of A stacked with √l2·I, more accurate for ill-conditioned A. A rank
// deficient system (with l2 = 0) is an error. Not differentiable
// (SameDiff has no gradient).
var lstsqOp = Register(&Def{
	Name: "lstsq", Aliases: []string{"Lstsq", "MatrixSolveLs"}, Type: Custom, MinIn: 2, MaxIn: 2,
	Doc: "least squares X [..., n, k] minimizing ‖A·X - B‖² + l2‖X‖²; bool arg 0: fast (Cholesky; else QR); float arg 0: l2",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		if err := solveCheck("lstsq", in[0], in[1], false); err != nil {
			return nil, err
		}
		if l2 := a.Float(0, 0); l2 < 0 || math.IsNaN(l2) {
			return nil, fmt.Errorf("lstsq: float arg 0 (the l2 regularizer) is %v; it must be >= 0", l2)
		}
		if in[0].UnknownRank || in[1].UnknownRank {
			return infos(Info{DType: in[0].DType, UnknownRank: true}), nil
		}
		s := append([]int(nil), in[1].Shape...)
		for i := 0; i < len(s)-2; i++ {
			if s[i] < 0 {
				s[i] = in[0].Shape[i]
			}
		}
		s[len(s)-2] = in[0].Shape[len(s)-1]
		return infos(Info{DType: in[0].DType, Shape: s}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		if err := solveCheck("lstsq", infoOf(in[0]), infoOf(in[1]), false); err != nil {
			return nil, err
		}
		l2, fast := a.Float(0, 0), a.Bool(0, true)
		if l2 < 0 || math.IsNaN(l2) {
			return nil, fmt.Errorf("lstsq: float arg 0 (the l2 regularizer) is %v; it must be >= 0", l2)
		}
		return byFloat("lstsq", in[0].DType(),
			func() ([]*ndarray.Array, error) { return lstsqT[float32](c, in[0], in[1], l2, fast) },
			func() ([]*ndarray.Array, error) { return lstsqT[float64](c, in[0], in[1], l2, fast) })
	},
})
