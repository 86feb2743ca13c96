package ops_test

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// eig's errors and properties; its values on hand-worked matrices are in
// validation/opcases/linalg_factor.go.

// eigResidual is max |A·v_j - λ_j·v_j| and max ||v_j| - 1| over eig's
// eigenpairs of the n×n a.
func eigResidual(a, vals, vecs []float64, n int) (res, norm float64) {
	for j := 0; j < n; j++ {
		l := complex(vals[2*j], vals[2*j+1])
		v := func(i int) complex128 { return complex(vecs[2*(i*n+j)], vecs[2*(i*n+j)+1]) }
		var nn float64
		for i := 0; i < n; i++ {
			var s complex128
			for k := 0; k < n; k++ {
				s += complex(a[i*n+k], 0) * v(k)
			}
			res = max(res, cmplx.Abs(s-l*v(i)))
			nn += real(v(i))*real(v(i)) + imag(v(i))*imag(v(i))
		}
		norm = max(norm, math.Abs(math.Sqrt(nn)-1))
	}
	return res, norm
}

func TestEigRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, n := range []int{1, 2, 3, 5, 8} {
		a := make([]float64, n*n)
		for i := range a {
			a[i] = rng.NormFloat64()
		}
		outs := runOp(t, "eig", ops.Args{}, f64([]int{n, n}, a...))
		vals, vecs := outs[0].Float64s(), outs[1].Float64s()
		res, norm := eigResidual(a, vals, vecs, n)
		if res > 1e-12*float64(n) || norm > 1e-12 {
			t.Errorf("eig %d×%d: residual %g, norm error %g", n, n, res, norm)
		}
		// Complex eigenvalues come in conjugate pairs, positive imaginary
		// part first.
		for j := 0; j < n; j++ {
			if im := vals[2*j+1]; im > 0 {
				if j+1 == n || vals[2*j+3] != -im || vals[2*j+2] != vals[2*j] {
					t.Errorf("eig %d×%d: eigenvalue %d (%v, %v) has no conjugate after it: %v", n, n, j, vals[2*j], im, vals)
				}
				j++
			} else if im < 0 {
				t.Errorf("eig %d×%d: eigenvalue %d has a negative imaginary part first: %v", n, n, j, vals)
			}
		}
		// float32 computes the same decomposition, narrowed.
		a32 := make([]float32, len(a))
		for i, v := range a {
			a32[i] = float32(v)
		}
		o32 := runOp(t, "eig", ops.Args{}, ndarray.Must(ndarray.FromSlice(a32, n, n)))
		if o32[0].DType() != ndarray.Float32 || o32[1].DType() != ndarray.Float32 {
			t.Fatalf("eig of float32: outputs %v, %v", o32[0].DType(), o32[1].DType())
		}
		res, norm = eigResidual(a, o32[0].Float64s(), o32[1].Float64s(), n)
		if res > 1e-5*float64(n) || norm > 1e-6 {
			t.Errorf("eig float32 %d×%d: residual %g, norm error %g", n, n, res, norm)
		}
	}
}

func TestEigErrors(t *testing.T) {
	d, _ := ops.Lookup("eig")
	for _, c := range []struct {
		in  ops.Info
		msg []string
	}{
		{ops.Info{DType: ndarray.Float32, Shape: []int{2, 3}}, []string{"eig", "[2 3]", "square"}},
		{ops.Info{DType: ndarray.Float32, Shape: []int{2, 2, 2}}, []string{"eig", "[2 2 2]", "rank 2"}},
		{ops.Info{DType: ndarray.Int32, Shape: []int{2, 2}}, []string{"eig", "int32"}},
	} {
		_, err := d.Infer([]ops.Info{c.in}, &ops.Args{})
		if err == nil {
			t.Errorf("eig %v: no error", c.in)
			continue
		}
		for _, m := range c.msg {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("eig: error %q does not mention %q", err, m)
			}
		}
	}
	if _, err := d.Run(nil, []*ndarray.Array{f64([]int{3}, 1, 2, 3)}, &ops.Args{}); err == nil || !strings.Contains(err.Error(), "[3]") {
		t.Errorf("eig of a vector: %v", err)
	}
	// NaN in, NaN out (LAPACK's iteration need not end on it).
	outs := runOp(t, "eig", ops.Args{}, f64([]int{2, 2}, 1, math.NaN(), 0, 1))
	if v := outs[0].Float64s()[0]; !math.IsNaN(v) {
		t.Errorf("eig of a matrix with NaN: eigenvalue %v", v)
	}
	// An empty matrix has no eigenvalues.
	outs = runOp(t, "eig", ops.Args{}, f64([]int{0, 0}))
	if !ndarray.SameShape(outs[0].Shape(), []int{0, 2}) || !ndarray.SameShape(outs[1].Shape(), []int{0, 0, 2}) {
		t.Errorf("eig of a 0×0 matrix: shapes %v, %v", outs[0].Shape(), outs[1].Shape())
	}
}
