package ops_test

import (
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Errors of dot, tensordot and the small base ops (base_misc.go); their
// values are in validation/opcases/base_misc.go.

func TestBaseMiscErrors(t *testing.T) {
	info := func(dt ndarray.DType, shape ...int) ops.Info { return ops.Info{DType: dt, Shape: shape} }
	f32, i64 := ndarray.Float32, ndarray.Int64
	I := func(v ...int64) ops.Args { return ops.Args{I: v} }
	checkInferErrors(t, []inferErr{
		{"dot", ops.Args{}, []ops.Info{info(f32, 2, 3), info(f32, 3, 2)}, []string{"dot", "[2 3]", "[3 2]"}},
		{"dot", ops.Args{}, []ops.Info{info(f32, 2), info(ndarray.Float64, 2)}, []string{"dot", "float64"}},
		{"dot", ops.Args{Dims: []int{2}}, []ops.Info{info(f32, 2), info(f32, 2)}, []string{"dot", "[2]"}},
		{"tensordot", I(1, 1, 1, 0), []ops.Info{info(f32, 2, 3), info(f32, 4, 2)}, []string{"tensordot", "[2 3]", "[4 2]"}},
		{"tensordot", I(1, 1), []ops.Info{info(f32, 2, 3), info(f32, 3, 2)}, []string{"tensordot", "int args"}},
		{"tensordot", I(1, 0, 2, 0, 1), []ops.Info{info(f32, 2, 3), info(f32, 2, 3)}, []string{"tensordot", "as many"}},
		{"tensordot", I(1, 5, 1, 0), []ops.Info{info(f32, 2, 3), info(f32, 3, 2)}, []string{"tensordot", "out of range"}},
		{"tensordot", I(2, 0, 0, 2, 0, 1), []ops.Info{info(f32, 2, 3), info(f32, 2, 3)}, []string{"tensordot", "repeated"}},
		{"tensordot", I(1, 1, 1, 0), []ops.Info{info(ndarray.Int32, 2, 3), info(ndarray.Int32, 3, 2)}, []string{"tensordot", "int32"}},
		{"tensormmul_bp", I(1, 1, 1, 0), []ops.Info{info(f32, 2, 3), info(f32, 3, 2), info(f32, 3, 3)}, []string{"tensormmul_bp", "[3 3]", "[2 2]"}},
		{"create", I('x', 5), []ops.Info{info(i64, 2)}, []string{"create", "order"}},
		{"create", I('c', 50), []ops.Info{info(i64, 2)}, []string{"create", "dtype"}},
		{"create", I('c', 5), []ops.Info{info(f32, 2)}, []string{"create", "float32"}},
		{"set_scalar", ops.Args{}, []ops.Info{info(f32, 2)}, []string{"set_scalar", "float arg 0"}},
		{"set_scalar", ops.Args{F: []float64{1}}, []ops.Info{info(ndarray.Bool, 2)}, []string{"set_scalar", "bool"}},
		{"set_shape", ops.Args{}, []ops.Info{info(f32, 2, 3), {DType: i64, Shape: []int{2}, Value: ndarray.Must(ndarray.FromSlice([]int64{4, 2}, 2))}},
			[]string{"set_shape", "[2 3]", "[4 2]"}},
		{"set_shape", ops.Args{}, []ops.Info{info(f32, 2, 3), info(i64, 2, 2)}, []string{"set_shape", "[2 2]"}},
		{"batched_gemm", I(0, 0, 2, 2, 2, 2, 2, 2), []ops.Info{info(f32), info(f32), info(f32, 2, 2), info(f32, 2, 2)}, []string{"batched_gemm", "int args"}},
		{"batched_gemm", I(0, 0, 2, 2, 2, 2, 2, 2, 2), []ops.Info{info(f32), info(f32), info(f32, 2, 2), info(f32, 2, 2)}, []string{"batched_gemm", "6 inputs"}},
		{"batched_gemm", I(3, 0, 2, 2, 2, 2, 2, 2, 1), []ops.Info{info(f32), info(f32), info(f32, 2, 2), info(f32, 2, 2)}, []string{"batched_gemm", "transA"}},
		{"batched_gemm", I(0, 0, 2, 2, 2, 1, 2, 2, 1), []ops.Info{info(f32), info(f32), info(f32, 2, 2), info(f32, 2, 2)}, []string{"batched_gemm", "ldA"}},
		{"batched_gemm", I(0, 0, 2, 2, 3, 2, 3, 2, 1), []ops.Info{info(f32), info(f32), info(f32, 2, 2), info(f32, 3, 2)}, []string{"batched_gemm", "A 0", "[2 3]"}},
		{"batched_gemm", I(0, 0, 2, 2, 2, 2, 2, 2, 1), []ops.Info{info(f32), info(ndarray.Float64), info(f32, 2, 2), info(f32, 2, 2)}, []string{"batched_gemm", "float64"}},
		{"batched_gemm_bp", I(0, 0, 2, 2, 2, 2, 2, 2, 1), []ops.Info{info(f32), info(f32), info(f32, 2, 2), info(f32, 2, 2), info(f32, 3, 2)}, []string{"batched_gemm_bp", "[3 2]"}},
		{"car", ops.Args{F: []float64{0, 0, 0}}, []ops.Info{info(f32, 2), info(f32, 2)}, []string{"car", "float args"}},
		{"car", ops.Args{F: []float64{0, 0, 0, 16}}, []ops.Info{info(f32, 2), info(f32, 2)}, []string{"car", "mode"}},
		{"car", ops.Args{F: []float64{0, 0, 0, 2}}, []ops.Info{info(f32, 2), info(f32, 3)}, []string{"car", "[3]", "[2]"}},
		{"cas", ops.Args{F: []float64{0, 0, 0, 2}}, []ops.Info{info(ndarray.Int32, 2)}, []string{"cas", "int32"}},
		{"min_max_datatype", I(5), nil, []string{"min_max_datatype", "int args"}},
		{"min_max_datatype", I(3, 0), nil, []string{"min_max_datatype", "float16"}},
	})
}

// Sizes only run time shows are checked there.
func TestBaseMiscRunErrors(t *testing.T) {
	for _, c := range []struct {
		op   string
		args ops.Args
		in   []*ndarray.Array
		msg  string
	}{
		{"dot", ops.Args{}, []*ndarray.Array{f64([]int{2}, 1, 2), f64([]int{3}, 1, 2, 3)}, "dot"},
		{"tensordot", ops.Args{I: []int64{1, 0, 1, 0}}, []*ndarray.Array{f64([]int{2}, 1, 2), f64([]int{3}, 1, 2, 3)}, "tensordot"},
		{"set_shape", ops.Args{}, []*ndarray.Array{f64([]int{2}, 1, 2), i64([]int{1}, 3)}, "set_shape"},
		{"create", ops.Args{}, []*ndarray.Array{i64([]int{1}, -1)}, "create"},
		{"compat_sparse_to_dense", ops.Args{}, []*ndarray.Array{i64([]int{1, 2}, 3, 0), i64([]int{2}, 2, 2), f64([]int{1}, 1)}, "outside"},
		{"compat_sparse_to_dense", ops.Args{}, []*ndarray.Array{i64([]int{2, 2}, 0, 0, 1, 1), i64([]int{2}, 2, 2), f64([]int{3}, 1, 2, 3)}, "3 values"},
		{"compat_sparse_to_dense", ops.Args{}, []*ndarray.Array{i64([]int{2, 3}, 0, 0, 0, 1, 1, 1), i64([]int{2}, 2, 2), f64([]int{2}, 1, 2)}, "indices of shape"},
		{"batched_gemm", ops.Args{I: []int64{0, 0, 1, 1, 1, 1, 1, 1, 1}},
			[]*ndarray.Array{f64([]int{3}, 1, 2, 3), f64(nil, 0), f64([]int{1, 1}, 1), f64([]int{1, 1}, 1)}, "alpha"},
	} {
		d, _ := ops.Lookup(c.op)
		_, err := d.Run(nil, c.in, &c.args)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: error %v, want one mentioning %q", c.op, err, c.msg)
		}
	}
}

// tensordot of a [2 3 4] and b [4 3 2] over a's axes 1, 2 and b's 1, 0
// agrees with the sum written out, and files' tensormmul name finds it.
func TestTensorDotSum(t *testing.T) {
	a := ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.Arange(ndarray.Float64, 0, 1, 24)), 2, 3, 4))
	b := ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.Arange(ndarray.Float64, 1, 0.5, 24)), 4, 3, 2))
	got := runOp(t, "tensormmul", ops.Args{I: []int64{2, 1, 2, 2, 1, 0}}, a, b)[0]
	av, bv, gv := a.Float64s(), b.Float64s(), got.Float64s()
	for i := 0; i < 2; i++ {
		for l := 0; l < 2; l++ {
			s := 0.0
			for j := 0; j < 3; j++ {
				for k := 0; k < 4; k++ {
					s += av[i*12+j*4+k] * bv[k*6+j*2+l]
				}
			}
			if gv[i*2+l] != s {
				t.Errorf("out[%d %d] = %v, want %v", i, l, gv[i*2+l], s)
			}
		}
	}
}
