package ops_test

import (
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Errors of the condition, index, merge and lookup ops (math_match.go,
// math_merge.go); their values are checked in validation/opcases.

func TestMatchInferErrors(t *testing.T) {
	info := func(dt ndarray.DType, shape ...int) ops.Info { return ops.Info{DType: dt, Shape: shape} }
	f := ndarray.Float64
	cond := ops.Args{F: []float64{0, 0, 3}}
	checkInferErrors(t, []inferErr{
		{"match_condition_transform", ops.Args{F: []float64{1, 0}}, []ops.Info{info(f, 2)}, []string{"match_condition_transform", "compare, eps, mode"}},
		{"match_condition_transform", ops.Args{F: []float64{1, 0, 16}}, []ops.Info{info(f, 2)}, []string{"match_condition_transform", "mode 16"}},
		{"match_condition_transform", ops.Args{F: []float64{1, 0, 2.5}}, []ops.Info{info(f, 2)}, []string{"mode 2.5"}},
		{"match_condition", cond, []ops.Info{info(ndarray.Bool, 2)}, []string{"match_condition", "bool"}},
		{"first_index", ops.Args{F: []float64{0, 0, 3}, Dims: []int{1}}, []ops.Info{info(f, 2)}, []string{"first_index", "[2]"}},
		{"last_index", ops.Args{}, []ops.Info{info(f, 2)}, []string{"last_index", "compare"}},
		{"ismax", ops.Args{I: []int64{2}}, []ops.Info{info(f, 2, 3)}, []string{"ismax", "[2 3]"}},
		{"is_non_decreasing", ops.Args{}, []ops.Info{info(ndarray.Bool, 2)}, []string{"is_non_decreasing", "bool"}},
		{"mergeavg", ops.Args{}, []ops.Info{info(f, 2), info(f, 3)}, []string{"mergeavg", "input 1", "[3]", "[2]"}},
		{"mergeavg", ops.Args{}, []ops.Info{info(ndarray.Int32, 2)}, []string{"mergeavg", "int32"}},
		{"mergemax", ops.Args{}, []ops.Info{info(f, 2), info(ndarray.Float32, 2)}, []string{"mergemax", "float32"}},
		{"mergemaxindex", ops.Args{I: []int64{int64(ndarray.Float32)}}, []ops.Info{info(f, 2)}, []string{"mergemaxindex", "float32"}},
		{"mergemax_bp", ops.Args{}, []ops.Info{info(f, 2)}, []string{"mergemax_bp", "gradient"}},
		{"meshgrid", ops.Args{}, []ops.Info{info(f, 2), info(ndarray.Int32, 3)}, []string{"meshgrid", "int32"}},
		{"embedding_lookup", ops.Args{}, []ops.Info{info(f, 3, 2), info(f, 2)}, []string{"embedding_lookup", "ids", "float64"}},
		{"embedding_lookup", ops.Args{}, []ops.Info{info(f, 3, 2), info(ndarray.Int64, 2, 2)}, []string{"embedding_lookup", "vector", "[2 2]"}},
		{"embedding_lookup", ops.Args{}, []ops.Info{info(f), info(ndarray.Int64, 2)}, []string{"embedding_lookup", "scalar"}},
		{"confusion_matrix", ops.Args{}, []ops.Info{info(ndarray.Int64, 2, 2), info(ndarray.Int64, 2)}, []string{"confusion_matrix", "vector"}},
		{"confusion_matrix", ops.Args{}, []ops.Info{info(ndarray.Int64, 2), info(ndarray.Int64, 3)}, []string{"confusion_matrix", "[3]", "[2]"}},
		{"confusion_matrix", ops.Args{I: []int64{0}}, []ops.Info{info(ndarray.Int64, 2), info(ndarray.Int64, 2)}, []string{"confusion_matrix", "classes 0"}},
		{"listdiff", ops.Args{}, []ops.Info{info(f, 2), info(ndarray.Float32, 2)}, []string{"listdiff", "float32"}},
		{"listdiff", ops.Args{}, []ops.Info{info(f, 2, 2), info(f, 2)}, []string{"listdiff", "vector"}},
	})
}

func TestMatchRunErrors(t *testing.T) {
	v := func(x ...float64) *ndarray.Array { return ndarray.Must(ndarray.FromSlice(x, len(x))) }
	i := func(x ...int64) *ndarray.Array { return ndarray.Must(ndarray.FromSlice(x, len(x))) }
	for _, c := range []struct {
		op   string
		args ops.Args
		in   []*ndarray.Array
		msg  string
	}{
		{"embedding_lookup", ops.Args{}, []*ndarray.Array{v(1, 2), i(2)}, "out of range"},
		{"confusion_matrix", ops.Args{}, []*ndarray.Array{i(0, -1), i(0, 1)}, "negative"},
		{"confusion_matrix", ops.Args{I: []int64{2}}, []*ndarray.Array{i(0, 2), i(0, 1)}, "2 classes"},
		{"confusion_matrix", ops.Args{}, []*ndarray.Array{i(0, 1), i(0)}, "shape"},
		{"listdiff", ops.Args{}, []*ndarray.Array{v(1, 2), v(2, 1)}, "every element"},
		{"mergemax", ops.Args{}, []*ndarray.Array{v(1, 2), v(1)}, "input 1"},
		{"mergeavg_bp", ops.Args{}, []*ndarray.Array{v(1, 2), v(1)}, "input 1"},
	} {
		d, _ := ops.Lookup(c.op)
		_, err := d.Run(nil, c.in, &c.args)
		if err == nil || !strings.Contains(err.Error(), c.msg) || !strings.Contains(err.Error(), c.op) {
			t.Errorf("%s: error %v, want one naming the op and %q", c.op, err, c.msg)
		}
	}
}
