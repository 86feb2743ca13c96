package ops_test

import (
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// The hand-worked forward cases of identity_n and pad are in
// validation/opcases/fixture.go, which runs them through graphs, the
// validation listener and save/load round trips.

func TestPadErrors(t *testing.T) {
	d, _ := ops.Lookup("pad")
	info := func(a *ndarray.Array) ops.Info { return ops.Info{DType: a.DType(), Shape: a.Shape(), Value: a} }
	x := f32([]int{3}, 1, 2, 3)
	for _, c := range []struct {
		name string
		args ops.Args
		pads *ndarray.Array
		want string
	}{
		{"wrong paddings shape", ops.Args{}, i32([]int{2, 2}, 1, 1, 1, 1), "[2 2]"},
		{"negative", ops.Args{}, i32([]int{1, 2}, -1, 0), "negative"},
		{"reflect too far", ops.Args{I: []int64{1}}, i32([]int{1, 2}, 3, 0), "exceeds"},
		{"bad mode", ops.Args{I: []int64{5}}, i32([]int{1, 2}, 0, 0), "mode 5"},
	} {
		_, err := d.Infer([]ops.Info{info(x), info(c.pads)}, &c.args)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
}
