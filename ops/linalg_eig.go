package ops

import (
	"fmt"
	"math"

	"github.com/sdgo/sdgo/ndarray"
	"gonum.org/v1/gonum/mat"
)

// SDLinalg's eig: the eigenvalues and right eigenvectors of a general real
// square matrix, complex in general, returned as libnd4j returns them with
// the real and imaginary parts as a last axis of 2.
//
// The decomposition is gonum's (LAPACK's dgeev: Hessenberg reduction and
// the shifted QR algorithm), float64 only: a float32 matrix is widened for
// it and the results narrowed back, an O(n³) factorization, not an
// elementwise op. As in libnd4j (and LAPACK), a complex conjugate pair
// comes as two consecutive eigenvalues, the one with the positive
// imaginary part first, and eigenvector j (column j of the vectors output)
// has Euclidean norm 1. An eigenvector is only defined up to a factor of
// modulus 1: LAPACK makes its largest component real, libnd4j (after
// Eigen) leaves the factor its back substitution gives, so the two may
// differ by such a factor (a sign, for a real eigenvector). Nor is the
// order of the eigenvalues specified beyond the pairs: for a triangular
// matrix both give the diagonal's order; in general each gives the order
// its QR iteration deflates them in.

// eigOne decomposes the n×n row-major a (float64) with gonum; it recovers
// a panic of the library as an error.
func eigOne(a []float64, n int) (vals []complex128, vecs *mat.CDense, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	var e mat.Eigen
	if !e.Factorize(mat.NewDense(n, n, a), mat.EigenRight) {
		return nil, nil, fmt.Errorf("the QR iteration did not converge")
	}
	vecs = new(mat.CDense)
	e.VectorsTo(vecs)
	return e.Values(nil), vecs, nil
}

func eigT[T ndarray.Float](c *Ctx, x *ndarray.Array) ([]*ndarray.Array, error) {
	n := x.Shape()[0]
	src, err := packedValues[T](x)
	if err != nil {
		return nil, err
	}
	va, vo := allocT[T](c, []int{n, 2})
	ea, eo := allocT[T](c, []int{n, n, 2})
	a := make([]float64, n*n)
	finite := true
	for i, e := range src[:n*n] {
		a[i] = float64(e)
		finite = finite && !math.IsNaN(a[i]) && !math.IsInf(a[i], 0)
	}
	if n == 0 {
		return []*ndarray.Array{va, ea}, nil
	}
	if !finite { // LAPACK's iteration need not end: NaN results
		fillT(vo, T(math.NaN()))
		fillT(eo, T(math.NaN()))
		return []*ndarray.Array{va, ea}, nil
	}
	vals, vecs, err := eigOne(a, n)
	if err != nil {
		c.Release(va)
		c.Release(ea)
		return nil, fmt.Errorf("eig: the input of shape %v: %w", x.Shape(), err)
	}
	for i, v := range vals {
		vo[2*i], vo[2*i+1] = T(real(v)), T(imag(v))
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			v := vecs.At(i, j)
			eo[2*(i*n+j)], eo[2*(i*n+j)+1] = T(real(v)), T(imag(v))
		}
	}
	return []*ndarray.Array{va, ea}, nil
}

// eigCheck checks eig's input: a square float matrix (rank 2 exactly, as
// libnd4j asks).
func eigCheck(x Info) error {
	if err := needFloat("eig", x); err != nil {
		return err
	}
	if x.UnknownRank {
		return nil
	}
	if len(x.Shape) != 2 {
		return fmt.Errorf("eig: input of shape %v; it must be a matrix (rank 2)", x.Shape)
	}
	if m, n := x.Shape[0], x.Shape[1]; m >= 0 && n >= 0 && m != n {
		return fmt.Errorf("eig: input of shape %v; it must be square", x.Shape)
	}
	return nil
}

// eigOp is libnd4j's eig: the eigenvalues [n, 2] (real, imaginary parts)
// and right eigenvectors [n, n, 2] (eigenvector j in column j, unit
// Euclidean norm) of the real n×n input, with A·v_j = λ_j·v_j. No int,
// float or bool args. Not differentiable: SameDiff gives eig no gradient,
// and a loss that depends on its input through it is an error of autodiff.
var eigOp = Register(&Def{
	Name: "eig", Type: Custom, MinIn: 1, MaxIn: 1,
	Doc: "eigenvalues [n, 2] and right eigenvectors [n, n, 2] (real and imaginary parts last) of a real square matrix",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		x := in[0]
		if err := eigCheck(x); err != nil {
			return nil, err
		}
		if x.UnknownRank {
			return infos(Info{DType: x.DType, Shape: []int{-1, 2}}, Info{DType: x.DType, Shape: []int{-1, -1, 2}}), nil
		}
		n := max(x.Shape[0], x.Shape[1])
		return infos(Info{DType: x.DType, Shape: []int{n, 2}}, Info{DType: x.DType, Shape: []int{n, n, 2}}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x := in[0]
		if err := eigCheck(infoOf(x)); err != nil {
			return nil, err
		}
		return byFloat("eig", x.DType(),
			func() ([]*ndarray.Array, error) { return eigT[float32](c, x) },
			func() ([]*ndarray.Array, error) { return eigT[float64](c, x) })
	},
})
