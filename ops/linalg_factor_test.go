package ops_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Errors and properties of SDLinalg's factorizations, solves and band ops
// (linalg_factor.go, linalg_solve.go, linalg_band.go); their values are in
// validation/opcases/linalg_factor.go.

func TestLinalgFactorErrors(t *testing.T) {
	info := func(dt ndarray.DType, shape ...int) ops.Info { return ops.Info{DType: dt, Shape: shape} }
	f32, f64t := ndarray.Float32, ndarray.Float64
	for _, c := range []struct {
		op   string
		args ops.Args
		in   []ops.Info
		msg  []string
	}{
		{"matrix_inverse", ops.Args{}, []ops.Info{info(f32, 2, 3)}, []string{"matrix_inverse", "[2 3]", "square"}},
		{"matrix_inverse", ops.Args{}, []ops.Info{info(f32, 3)}, []string{"matrix_inverse", "[3]", "rank"}},
		{"matrix_determinant", ops.Args{}, []ops.Info{info(ndarray.Int32, 2, 2)}, []string{"matrix_determinant", "int32"}},
		{"logdet", ops.Args{}, []ops.Info{info(f32, 4, 3, 2)}, []string{"logdet", "[4 3 2]"}},
		{"cholesky", ops.Args{}, []ops.Info{info(f32, 1, 2)}, []string{"cholesky", "[1 2]"}},
		{"lu", ops.Args{I: []int64{5}}, []ops.Info{info(f32, 2, 2)}, []string{"lu", "int arg 0"}},
		{"qr", ops.Args{}, []ops.Info{info(f32, 2)}, []string{"qr", "[2]"}},
		{"svd", ops.Args{}, []ops.Info{info(ndarray.Int64, 2, 2)}, []string{"svd", "int64"}},
		{"solve", ops.Args{}, []ops.Info{info(f32, 3, 3), info(f32, 2, 1)}, []string{"solve", "[3 3]", "[2 1]"}},
		{"solve", ops.Args{}, []ops.Info{info(f32, 2, 3, 3), info(f32, 3, 3, 1)}, []string{"solve", "batch"}},
		{"solve", ops.Args{}, []ops.Info{info(f32, 3, 3), info(f64t, 3, 1)}, []string{"solve", "float64"}},
		{"triangular_solve", ops.Args{}, []ops.Info{info(f32, 3, 2), info(f32, 3, 1)}, []string{"triangular_solve", "square"}},
		{"lstsq", ops.Args{}, []ops.Info{info(f32, 3, 2), info(f32, 2, 1)}, []string{"lstsq", "[3 2]", "[2 1]"}},
		{"lstsq", ops.Args{F: []float64{-1}}, []ops.Info{info(f32, 3, 2), info(f32, 3, 1)}, []string{"lstsq", "l2"}},
		{"matrix_band_part", ops.Args{I: []int64{3, 0}}, []ops.Info{info(f32, 3, 3)}, []string{"matrix_band_part", "lower band count 3"}},
		{"matrix_band_part", ops.Args{I: []int64{0}}, []ops.Info{info(f32, 3, 3)}, []string{"matrix_band_part", "int args"}},
		{"matrix_band_part", ops.Args{I: []int64{0, 0}}, []ops.Info{info(f32, 3)}, []string{"matrix_band_part", "[3]"}},
		{"tri", ops.Args{}, nil, []string{"tri", "int args"}},
		{"tri", ops.Args{I: []int64{-2}}, nil, []string{"tri", "negative"}},
		{"triu", ops.Args{}, []ops.Info{info(f32)}, []string{"triu", "scalar"}},
		{"triu_bp", ops.Args{}, []ops.Info{info(f64t, 3), info(f64t, 3)}, []string{"triu_bp", "[3]"}},
	} {
		d, ok := ops.Lookup(c.op)
		if !ok {
			t.Fatalf("%s is not registered", c.op)
		}
		_, err := d.Infer(c.in, &c.args)
		if err == nil {
			t.Errorf("%s %v: no error", c.op, c.in)
			continue
		}
		for _, m := range c.msg {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("%s: error %q does not mention %q", c.op, err, m)
			}
		}
	}
}

// Singular and non-positive-definite matrices: errors naming the op and
// the matrix, or libnd4j's NaN for logdet.
func TestLinalgSingular(t *testing.T) {
	sing := f64([]int{2, 2, 2}, 1, 0, 0, 1, 1, 2, 2, 4)
	notPD := f64([]int{2, 2}, 1, 2, 2, 1)
	rhs := f64([]int{2, 2, 1}, 1, 1, 1, 1)
	for _, c := range []struct {
		op   string
		args ops.Args
		in   []*ndarray.Array
		msg  []string
	}{
		{"matrix_inverse", ops.Args{}, []*ndarray.Array{sing}, []string{"matrix_inverse", "matrix 1", "[2 2 2]", "singular"}},
		{"solve", ops.Args{}, []*ndarray.Array{sing, rhs}, []string{"solve", "matrix 1", "singular"}},
		{"cholesky", ops.Args{}, []*ndarray.Array{notPD}, []string{"cholesky", "matrix 0", "positive definite"}},
		{"triangular_solve", ops.Args{}, []*ndarray.Array{f64([]int{2, 2}, 1, 0, 3, 0), f64([]int{2, 1}, 1, 1)}, []string{"triangular_solve", "diagonal 1"}},
		{"lstsq", ops.Args{}, []*ndarray.Array{f64([]int{3, 2}, 1, 2, 1, 2, 1, 2), f64([]int{3, 1}, 1, 1, 1)}, []string{"lstsq", "rank deficient"}},
		{"lstsq", ops.Args{B: []bool{false}}, []*ndarray.Array{f64([]int{3, 2}, 1, 2, 1, 2, 1, 2), f64([]int{3, 1}, 1, 1, 1)}, []string{"lstsq", "rank deficient"}},
		{"matrix_band_part", ops.Args{}, []*ndarray.Array{notPD, i64([]int{2}, 0, 0), i64(nil, 0)}, []string{"matrix_band_part", "input 1"}},
	} {
		d, _ := ops.Lookup(c.op)
		_, err := d.Run(nil, c.in, &c.args)
		if err == nil {
			t.Errorf("%s: no error", c.op)
			continue
		}
		for _, m := range c.msg {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("%s: error %q does not mention %q", c.op, err, m)
			}
		}
	}
	ld := runOp(t, "logdet", ops.Args{}, notPD)[0]
	if v := ld.Float64s()[0]; !math.IsNaN(v) {
		t.Errorf("logdet of an indefinite matrix: %v, want NaN (libnd4j's)", v)
	}
	// A singular matrix still has an LU factorization, and determinant 0.
	outs := runOp(t, "lu", ops.Args{}, f64([]int{2, 2}, 1, 2, 2, 4))
	if got := outs[0].Float64s(); got[0] != 2 || got[3] != 0 {
		t.Errorf("lu of a singular matrix: %v", got)
	}
}

// reconstructErr is the largest difference between a (m×n) and U·diag(s)·Vᵀ.
func reconstructErr(t *testing.T, a, u, s, v []float64, m, n, k int) float64 {
	t.Helper()
	var worst float64
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var x float64
			for c := 0; c < k; c++ {
				x += u[i*k+c] * s[c] * v[j*k+c]
			}
			worst = max(worst, math.Abs(x-a[i*n+j]))
		}
	}
	return worst
}

// svd's factors of random matrices, float64 and float32, reduced: U·diag(s)·Vᵀ
// gives the matrix back and s decreases.
func TestSVDReconstructs(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 5))
	for _, sh := range [][2]int{{4, 3}, {3, 5}, {2, 2}} {
		m, n := sh[0], sh[1]
		k := min(m, n)
		for _, dt := range []ndarray.DType{ndarray.Float64, ndarray.Float32} {
			a := ndarray.Must(ndarray.RandNormal(rng, dt, 0, 1, 2, m, n))
			outs := runOp(t, "svd", ops.Args{I: []int64{0, 1, 16}}, a)
			av, sv, uv, vv := a.Float64s(), outs[0].Float64s(), outs[1].Float64s(), outs[2].Float64s()
			tol := 1e-12
			if dt == ndarray.Float32 {
				tol = 1e-5
			}
			for b := 0; b < 2; b++ {
				s := sv[b*k : (b+1)*k]
				for i := 1; i < k; i++ {
					if s[i] > s[i-1] {
						t.Errorf("%v %dx%d: singular values %v do not decrease", dt, m, n, s)
					}
				}
				if e := reconstructErr(t, av[b*m*n:], uv[b*m*k:], s, vv[b*n*k:], m, n, k); e > tol {
					t.Errorf("%v %dx%d: U·diag(s)·Vᵀ is off by %g", dt, m, n, e)
				}
			}
		}
	}
}
