package ops_test

import (
	"math"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Errors and edges of SDMath's trig, special, scalar and pairwise functions
// (math_trig.go, math_special.go, math_scalar.go); their values are in
// validation/opcases/math_funcs.go.

func TestMathFuncErrors(t *testing.T) {
	info := func(dt ndarray.DType, shape ...int) ops.Info { return ops.Info{DType: dt, Shape: shape} }
	f := func(v float64) ops.Args { return ops.Args{F: []float64{v}} }
	checkInferErrors(t, []inferErr{
		{"tan", ops.Args{}, []ops.Info{info(ndarray.Int32, 2)}, []string{"tan", "int32"}},
		{"lgamma", ops.Args{}, []ops.Info{info(ndarray.Int64, 2)}, []string{"lgamma", "int64"}},
		{"isnan", ops.Args{}, []ops.Info{info(ndarray.UTF8, 2)}, []string{"isnan", "utf8"}},
		{"tf_atan2", ops.Args{}, []ops.Info{info(ndarray.Float32, 2, 3), info(ndarray.Float32, 4)}, []string{"tf_atan2", "[2 3]", "[4]"}},
		{"tf_atan2", ops.Args{}, []ops.Info{info(ndarray.Float32, 2), info(ndarray.Float64, 2)}, []string{"tf_atan2", "float32", "float64"}},
		{"mod", ops.Args{}, []ops.Info{info(ndarray.Int32, 2), info(ndarray.Int64, 2)}, []string{"mod", "int32", "int64"}},
		{"divide_no_nan", ops.Args{}, []ops.Info{info(ndarray.Int32, 2), info(ndarray.Int32, 2)}, []string{"divide_no_nan", "int32"}},
		{"and", ops.Args{}, []ops.Info{info(ndarray.Float32, 3), info(ndarray.Float32, 2)}, []string{"and", "[3]", "[2]"}},
		{"log_x", ops.Args{}, []ops.Info{info(ndarray.Float32, 2)}, []string{"log_x", "float arg 0"}},
		{"log_x", f(2), []ops.Info{info(ndarray.Int32, 2)}, []string{"log_x", "int32"}},
		{"step", ops.Args{}, []ops.Info{info(ndarray.Float32, 2)}, []string{"step", "float arg 0"}},
		{"fmod_scalar", ops.Args{}, []ops.Info{info(ndarray.Float32, 2)}, []string{"fmod_scalar", "float arg 0"}},
	})
}

// Integer division by zero is a run-time error naming the op, not a panic.
func TestMathFuncIntegerDivisionByZero(t *testing.T) {
	for _, c := range []struct {
		op   string
		args ops.Args
		in   []*ndarray.Array
	}{
		{"mod", ops.Args{}, []*ndarray.Array{i32([]int{2}, 3, 4), i32([]int{2}, 2, 0)}},
		{"mod", ops.Args{}, []*ndarray.Array{i64([]int{2}, 3, 4), i64(nil, 0)}},
		{"fmod_scalar", ops.Args{F: []float64{0.5}}, []*ndarray.Array{i32([]int{2}, 3, 4)}}, // 0.5 is 0 in int32
		{"reversedivide", ops.Args{}, []*ndarray.Array{i32([]int{2}, 0, 1), i32([]int{2}, 3, 4)}},
	} {
		d, _ := ops.Lookup(c.op)
		_, err := d.Run(nil, c.in, &c.args)
		if err == nil || !strings.Contains(err.Error(), "zero") {
			t.Errorf("%s %v: error %v, want one about division by zero", c.op, c.in, err)
		}
		if c.op != "reversedivide" && (err == nil || !strings.Contains(err.Error(), c.op)) {
			t.Errorf("%s: error %v does not name the op", c.op, err)
		}
	}
}

// A float modulus by zero is NaN (as C's fmod), not an error.
func TestMathFuncFloatModByZero(t *testing.T) {
	got := runOp(t, "fmod_scalar", ops.Args{F: []float64{0}}, f64([]int{2}, 1, -2))[0].Float64s()
	if !math.IsNaN(got[0]) || !math.IsNaN(got[1]) {
		t.Errorf("fmod_scalar(x, 0) = %v, want NaN", got)
	}
	got = runOp(t, "mod", ops.Args{}, f32([]int{2}, 1, -2), f32(nil, 0))[0].Float64s()
	if !math.IsNaN(got[0]) || !math.IsNaN(got[1]) {
		t.Errorf("mod(x, 0) = %v, want NaN", got)
	}
}

// The ops read strided inputs (stepped: every other element of a buffer,
// one element in) and broadcast ones.
func TestMathFuncStridedInput(t *testing.T) {
	x := stepped(t, f64([]int{2, 3}, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6))
	got := runOp(t, "atan", ops.Args{}, x)[0].Float64s()
	for i, w := range []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6} {
		if math.Abs(got[i]-math.Atan(w)) > 1e-15 {
			t.Fatalf("atan of a stepped array = %v", got)
		}
	}
	b := runOp(t, "isfinite", ops.Args{}, stepped(t, f32([]int{2, 2}, 1, float32(math.Inf(1)), float32(math.NaN()), 2)))[0]
	if g := b.Float64s(); g[0] != 1 || g[1] != 0 || g[2] != 0 || g[3] != 1 {
		t.Errorf("isfinite of a stepped array = %v, want [1 0 0 1]", g)
	}
	m := runOp(t, "mod", ops.Args{}, stepped(t, i64([]int{2, 2}, 7, -7, 8, 9)), stepped(t, i64([]int{2}, 3, -4)))[0].Int64s()
	if want := []int64{1, -3, 2, 1}; m[0] != want[0] || m[1] != want[1] || m[2] != want[2] || m[3] != want[3] {
		t.Errorf("mod of stepped int64 arrays = %v, want %v", m, want)
	}
	fm := runOp(t, "fmod_scalar", ops.Args{F: []float64{4}}, stepped(t, i32([]int{3}, 9, -9, 4)))[0].Int64s()
	if fm[0] != 1 || fm[1] != -1 || fm[2] != 0 {
		t.Errorf("fmod_scalar of a stepped int32 array = %v, want [1 -1 0]", fm)
	}
}

// SameDiff's reciprocal is written "Reciprocal", TRANSFORM_SAME 11; the
// lower-case name sdgo used to save still finds it.
func TestReciprocalName(t *testing.T) {
	d, ok := ops.Lookup("Reciprocal")
	if !ok || d.Type != ops.TransformSame || d.Num != 11 {
		t.Fatalf("Reciprocal: %v %v", ok, d)
	}
	if a, ok := ops.Lookup("reciprocal"); !ok || a != d {
		t.Errorf("reciprocal does not name Reciprocal")
	}
}
