package ops_test

import (
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Errors of the statistics, distances and clipping ops (math_stats.go,
// math_distance.go, math_clip.go); their values and gradients are checked
// in validation/opcases.

func TestStatsInferErrors(t *testing.T) {
	info := func(dt ndarray.DType, shape ...int) ops.Info { return ops.Info{DType: dt, Shape: shape} }
	f := ndarray.Float64
	checkInferErrors(t, []inferErr{
		{"var", ops.Args{}, []ops.Info{info(ndarray.Int32, 2)}, []string{"var", "int32"}},
		{"std", ops.Args{Dims: []int{2}}, []ops.Info{info(f, 2, 3)}, []string{"std", "[2 3]"}},
		{"moments", ops.Args{}, []ops.Info{info(ndarray.Int64, 2)}, []string{"moments", "int64"}},
		{"normalize_moments", ops.Args{}, []ops.Info{info(f, 2), info(f, 3), info(f, 3)}, []string{"normalize_moments", "counts", "[2]"}},
		{"normalize_moments", ops.Args{}, []ops.Info{info(f), info(f, 3), info(f, 2)}, []string{"normalize_moments", "[3]", "[2]"}},
		{"normalize_moments", ops.Args{}, []ops.Info{info(f), info(f, 3), info(ndarray.Float32, 3)}, []string{"normalize_moments", "float32"}},
		{"standardize", ops.Args{}, []ops.Info{info(f, 2, 3)}, []string{"standardize", "no axes"}},
		{"standardize", ops.Args{I: []int64{3}}, []ops.Info{info(f, 2, 3)}, []string{"standardize", "[2 3]"}},
		{"standardize_bp", ops.Args{I: []int64{0}}, []ops.Info{info(f, 2, 3), info(f, 3, 2)}, []string{"standardize_bp", "[3 2]"}},
		{"zero_fraction", ops.Args{}, []ops.Info{info(ndarray.Bool, 2)}, []string{"zero_fraction", "bool"}},
		// An integer input is libnd4j's REDUCE_FLOAT case (float32 out);
		// an axis outside the shape is an error.
		{"entropy", ops.Args{Dims: []int{2}}, []ops.Info{info(ndarray.Int32, 2)}, []string{"entropy", "[2]"}},
		{"euclidean", ops.Args{}, []ops.Info{info(f, 2, 3), info(f, 3, 2)}, []string{"euclidean", "[2 3]", "[3 2]"}},
		{"manhattan", ops.Args{}, []ops.Info{info(f, 2), info(ndarray.Float32, 2)}, []string{"manhattan", "float32"}},
		{"cosinesimilarity", ops.Args{}, []ops.Info{info(ndarray.Int32, 2), info(ndarray.Int32, 2)}, []string{"cosinesimilarity", "int32"}},
		{"jaccarddistance", ops.Args{Dims: []int{1}}, []ops.Info{info(f, 2), info(f, 2)}, []string{"jaccarddistance", "[2]"}},
		{"ClipByValue", ops.Args{F: []float64{1}}, []ops.Info{info(f, 2)}, []string{"ClipByValue", "min and max"}},
		{"ClipByValue", ops.Args{F: []float64{2, 1}}, []ops.Info{info(f, 2)}, []string{"ClipByValue", "min 2", "max 1"}},
		{"ClipByValue", ops.Args{F: []float64{0, 1}}, []ops.Info{info(ndarray.Bool, 2)}, []string{"ClipByValue", "bool"}},
		{"clipbynorm", ops.Args{}, []ops.Info{info(f, 2)}, []string{"clipbynorm", "clip norm"}},
		{"clipbyavgnorm", ops.Args{F: []float64{1}, I: []int64{4}}, []ops.Info{info(f, 2)}, []string{"clipbyavgnorm", "[2]"}},
		{"clipbynorm", ops.Args{F: []float64{1}}, []ops.Info{info(ndarray.Int32, 2)}, []string{"clipbynorm", "int32"}},
		{"clipbynorm_bp", ops.Args{F: []float64{1}}, []ops.Info{info(f, 2), info(f, 3)}, []string{"clipbynorm_bp", "[3]", "[2]"}},
	})
}

// Run checks what inference could not see: sizes known only at run time.
func TestStatsRunErrors(t *testing.T) {
	v := func(x ...float64) *ndarray.Array { return ndarray.Must(ndarray.FromSlice(x, len(x))) }
	for _, c := range []struct {
		op   string
		args ops.Args
		in   []*ndarray.Array
		msg  string
	}{
		{"euclidean", ops.Args{}, []*ndarray.Array{v(1, 2), v(1, 2, 3)}, "[3]"},
		{"normalize_moments", ops.Args{}, []*ndarray.Array{v(1, 2), v(1), v(1)}, "counts"},
		{"normalize_moments", ops.Args{}, []*ndarray.Array{v(2), v(1), v(1, 2)}, "variances"},
		{"standardize", ops.Args{}, []*ndarray.Array{v(1, 2), ndarray.Must(ndarray.FromSlice([]int64{}, 0))}, "no axes"},
		{"var", ops.Args{Dims: []int{ops.AllDims}}, []*ndarray.Array{v(1, 2), ndarray.Must(ndarray.FromSlice([]int64{3}, 1))}, "var"},
		{"clipbyvalue_bp", ops.Args{F: []float64{0, 1}}, []*ndarray.Array{v(1, 2), v(1)}, "clipbyvalue_bp"},
		{"standardize_bp", ops.Args{I: []int64{0}}, []*ndarray.Array{v(1, 2), v(1)}, "standardize_bp"},
	} {
		d, _ := ops.Lookup(c.op)
		_, err := d.Run(nil, c.in, &c.args)
		if err == nil || !strings.Contains(err.Error(), c.msg) || !strings.Contains(err.Error(), strings.Split(c.op, "_bp")[0]) {
			t.Errorf("%s: error %v, want one naming the op and %q", c.op, err, c.msg)
		}
	}
}
