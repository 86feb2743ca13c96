package ops_test

import (
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Errors of dynamic_partition and dynamic_stitch (base_partition.go);
// their values are in validation/opcases/base_partition.go.
func TestPartitionErrors(t *testing.T) {
	info := func(dt ndarray.DType, shape ...int) ops.Info { return ops.Info{DType: dt, Shape: shape} }
	f32, i32t := ndarray.Float32, ndarray.Int32
	n := func(k int64) ops.Args { return ops.Args{I: []int64{k}} }
	checkInferErrors(t, []inferErr{
		{"dynamic_partition", ops.Args{}, []ops.Info{info(f32, 3), info(i32t, 3)}, []string{"dynamic_partition", "int arg 0"}},
		{"dynamic_partition", n(2), []ops.Info{info(f32, 3), info(i32t, 4)}, []string{"dynamic_partition", "[4]", "[3]"}},
		{"dynamic_partition", n(2), []ops.Info{info(f32, 3), info(f32, 3)}, []string{"dynamic_partition", "float32"}},
		{"dynamic_partition", n(2), []ops.Info{info(f32, 2), {DType: i32t, Shape: []int{2}, Value: ndarray.Must(ndarray.FromSlice([]int32{0, 2}, 2))}},
			[]string{"dynamic_partition", "partition 2"}},
		{"dynamic_partition_bp", n(2), []ops.Info{info(f32, 3), info(i32t, 3), info(f32, 1)}, []string{"dynamic_partition_bp", "4 inputs"}},
		{"dynamic_stitch", ops.Args{}, []ops.Info{info(i32t, 2), info(i32t, 2), info(f32, 2)}, []string{"dynamic_stitch", "3 inputs"}},
		{"dynamic_stitch", ops.Args{}, []ops.Info{info(f32, 2), info(f32, 2)}, []string{"dynamic_stitch", "integers"}},
		{"dynamic_stitch", ops.Args{}, []ops.Info{info(i32t, 2), info(i32t, 1), info(f32, 2, 3), info(f32, 1, 4)}, []string{"dynamic_stitch", "[3]", "[4]"}},
		{"dynamic_stitch", ops.Args{}, []ops.Info{info(i32t, 2), info(i32t, 1), info(f32, 2), info(ndarray.Float64, 1)}, []string{"dynamic_stitch", "float64"}},
	})
	for _, c := range []struct {
		op   string
		args ops.Args
		in   []*ndarray.Array
		msg  string
	}{
		{"dynamic_partition", n(2), []*ndarray.Array{f64([]int{2}, 1, 2), i32([]int{2}, 0, -1)}, "partition -1"},
		{"dynamic_stitch", ops.Args{}, []*ndarray.Array{i32([]int{2}, 0, -1), f64([]int{2}, 1, 2)}, "negative"},
		{"dynamic_stitch", ops.Args{}, []*ndarray.Array{i32([]int{2}, 0, 1), f64([]int{3}, 1, 2, 3)}, "dynamic_stitch"},
	} {
		d, _ := ops.Lookup(c.op)
		_, err := d.Run(nil, c.in, &c.args)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: error %v, want one mentioning %q", c.op, err, c.msg)
		}
	}
}
