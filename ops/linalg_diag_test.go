package ops_test

import (
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Errors of the diagonal ops, eye, trace and cross (linalg_diag.go); their
// values are in validation/opcases/linalg_diag.go.

func TestLinalgDiagErrors(t *testing.T) {
	info := func(dt ndarray.DType, shape ...int) ops.Info { return ops.Info{DType: dt, Shape: shape} }
	f32 := ndarray.Float32
	checkInferErrors(t, []inferErr{
		{"diag", ops.Args{}, []ops.Info{info(f32, 2, 2, 2, 2)}, []string{"diag", "[2 2 2 2]", "rank"}},
		{"diag_part", ops.Args{}, []ops.Info{info(f32, 2, 3)}, []string{"diag_part", "[2 3]"}},
		{"diag_part", ops.Args{}, []ops.Info{info(f32, 2, 2, 2)}, []string{"diag_part", "rank"}},
		{"matrix_diag_part", ops.Args{}, []ops.Info{info(f32, 3)}, []string{"matrix_diag_part", "[3]"}},
		{"matrix_set_diag", ops.Args{}, []ops.Info{info(f32, 2, 3, 4), info(f32, 2, 4)}, []string{"matrix_set_diag", "[2 4]", "[2 3]"}},
		{"matrix_set_diag", ops.Args{}, []ops.Info{info(f32, 3, 4), info(ndarray.Float64, 3)}, []string{"matrix_set_diag", "float64"}},
		{"trace", ops.Args{}, []ops.Info{info(ndarray.Int32, 2, 2)}, []string{"trace", "int32"}},
		{"trace", ops.Args{}, []ops.Info{info(f32, 4)}, []string{"trace", "[4]"}},
		{"cross", ops.Args{}, []ops.Info{info(f32, 2, 4), info(f32, 2, 4)}, []string{"cross", "[2 4]", "3"}},
		{"cross", ops.Args{}, []ops.Info{info(f32, 2, 3), info(f32, 3, 3)}, []string{"cross", "[2 3]", "[3 3]"}},
		{"cross", ops.Args{}, []ops.Info{info(ndarray.Bool, 3), info(ndarray.Bool, 3)}, []string{"cross", "bool"}},
		{"eye", ops.Args{}, nil, []string{"eye", "no size"}},
		{"eye", ops.Args{I: []int64{2, -3}}, nil, []string{"eye", "negative"}},
		{"eye", ops.Args{I: []int64{2}, F: []float64{1.5}}, nil, []string{"eye", "float arg 0"}},
		{"eye", ops.Args{I: []int64{2}, F: []float64{50}}, nil, []string{"eye", "utf8"}},
		{"eye", ops.Args{}, []ops.Info{info(f32)}, []string{"eye", "float32"}},
	})
}

// Sizes only run time shows are checked there.
func TestLinalgDiagRunErrors(t *testing.T) {
	for _, c := range []struct {
		op  string
		in  []*ndarray.Array
		msg string
	}{
		{"matrix_set_diag", []*ndarray.Array{f64([]int{2, 3}, 1, 2, 3, 4, 5, 6), f64([]int{3}, 1, 2, 3)}, "matrix_set_diag"},
		{"cross", []*ndarray.Array{f64([]int{2}, 1, 2), f64([]int{2}, 1, 2)}, "cross"},
		{"eye", []*ndarray.Array{i64([]int{1}, -2)}, "negative"},
		{"diag_part", []*ndarray.Array{f64([]int{1, 2}, 1, 2)}, "diag_part"},
	} {
		d, _ := ops.Lookup(c.op)
		_, err := d.Run(nil, c.in, &ops.Args{})
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: error %v, want one mentioning %q", c.op, err, c.msg)
		}
	}
}

// diag of a vector and diag_part of the result give the vector back, the
// shapes as inferred.
func TestDiagRoundTrip(t *testing.T) {
	x := f64([]int{1, 3}, 1, 2, 3)
	d := runOp(t, "diag", ops.Args{}, x)[0]
	p := runOp(t, "diag_part", ops.Args{}, d)[0]
	if !ndarray.Equal(p, f64([]int{3}, 1, 2, 3)) {
		t.Errorf("diag_part(diag(x)) = %v", p)
	}
}
