package ops_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// TestMixedDTypeOpErrors: without an output dtype, inputs of two dtypes
// are still refused; an output dtype that is not numeric is an error
// naming the op.
func TestMixedDTypeOpErrors(t *testing.T) {
	add, _ := ops.Lookup("add")
	i64 := ops.Info{DType: ndarray.Int64, Shape: []int{2}}
	f64 := ops.Info{DType: ndarray.Float64, Shape: []int{}}
	if _, err := add.Infer([]ops.Info{i64, f64}, &ops.Args{}); err == nil {
		t.Error("add took int64 and float64 without an output dtype")
	}
	if o, err := add.Infer([]ops.Info{i64, f64}, &ops.Args{D: []ndarray.DType{ndarray.Int64}}); err != nil ||
		o[0].DType != ndarray.Int64 || fmt.Sprint(o[0].Shape) != "[2]" {
		t.Errorf("add with output dtype int64: %v %v", o, err)
	}
	if _, err := add.Infer([]ops.Info{i64, f64}, &ops.Args{D: []ndarray.DType{ndarray.Bool}}); err == nil || !strings.Contains(err.Error(), "add") {
		t.Errorf("add with a bool output dtype: %v", err)
	}
	// Run checks the dtypes too (a caller may skip Infer).
	x := ndarray.Must(ndarray.FromSlice([]int64{1, 2}, 2))
	if _, err := add.Run(nil, []*ndarray.Array{x, ndarray.Scalar(0.5)}, &ops.Args{D: []ndarray.DType{ndarray.Bool}}); err == nil {
		t.Error("add ran into a bool output")
	}
	// float32 with float32 into float32 stays float32 (no float64 detour):
	// 0.1f + 0.2f in float32 is 0.3f exactly as float32 rounds it.
	a := ndarray.Must(ndarray.FromSlice([]float32{0.1}, 1))
	b := ndarray.Must(ndarray.FromSlice([]float32{0.2}, 1))
	r, err := add.Run(nil, []*ndarray.Array{a, b}, &ops.Args{D: []ndarray.DType{ndarray.Float32}})
	if err != nil || r[0].DType() != ndarray.Float32 || ndarray.Raw[float32](r[0])[0] != float32(0.1)+float32(0.2) {
		t.Errorf("float32 add: %v %v", r, err)
	}
}
