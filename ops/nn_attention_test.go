package ops_test

import (
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Errors of the attention ops (ops/nn_attention.go); their values and
// gradients are checked in validation/opcases.
func TestAttentionErrors(t *testing.T) {
	info := func(s ...int) ops.Info { return ops.Info{DType: ndarray.Float32, Shape: s} }
	mha := func(wo ops.Info) []ops.Info {
		return []ops.Info{info(2, 4, 5), info(2, 4, 6), info(2, 4, 6), info(2, 3, 4), info(2, 3, 4), info(2, 3, 4), wo}
	}
	for _, c := range []struct {
		op   string
		args ops.Args
		in   []ops.Info
		msg  string
	}{
		{"dot_product_attention", ops.Args{}, []ops.Info{info(2, 3), info(2, 3), info(2, 3)}, "rank 3"},
		{"dot_product_attention", ops.Args{}, []ops.Info{info(2, 3, 4), info(2, 4, 5), info(2, 3, 5)}, "one feature size"},
		{"dot_product_attention", ops.Args{}, []ops.Info{info(2, 3, 4), info(2, 3, 5), info(2, 3, 6)}, "timesteps"},
		{"dot_product_attention", ops.Args{}, []ops.Info{info(2, 3, 4), info(3, 3, 5), info(3, 3, 5)}, "batch"},
		{"dot_product_attention", ops.Args{}, []ops.Info{info(2, 3, 4), info(2, 3, 5), info(2, 3, 5), info(2, 4)}, "mask has shape [2 4]"},
		{"dot_product_attention", ops.Args{}, []ops.Info{info(2, 3, 4), info(2, 3, 5), {DType: ndarray.Float64, Shape: []int{2, 3, 5}}}, "one dtype"},
		{"dot_product_attention_bp", ops.Args{}, []ops.Info{info(2, 3, 4), info(2, 3, 5), info(2, 3, 5), info(2, 3, 5)}, "gradient has shape"},
		{"dot_product_attention_bp", ops.Args{I: []int64{0, 1}}, []ops.Info{info(2, 3, 4), info(2, 3, 5), info(2, 3, 5), info(2, 3, 4), info(2, 4, 4)}, "weights' gradient"},
		{"multi_head_dot_product_attention", ops.Args{}, mha(info(5, 7)), "Wo [5 7]: want Wo[0] = heads·Wv[1] = 6"},
		{"multi_head_dot_product_attention", ops.Args{}, append(mha(info(6, 7))[:3], info(2, 3, 5), info(2, 3, 4), info(2, 3, 4), info(6, 7)), "Wq [2 3 5] does not project queries"},
		{"multi_head_dot_product_attention", ops.Args{}, append(mha(info(6, 7))[:3], info(2, 3, 4), info(3, 3, 4), info(2, 3, 4), info(6, 7)), "number of heads"},
		{"multi_head_dot_product_attention", ops.Args{}, append(mha(info(6, 7)), info(2, 5)), "mask"},
	} {
		d, ok := ops.Lookup(c.op)
		if !ok {
			t.Fatalf("%s not registered", c.op)
		}
		_, err := d.Infer(c.in, &c.args)
		if err == nil || !strings.Contains(err.Error(), c.msg) || !strings.Contains(err.Error(), c.op) {
			t.Errorf("%s %v: error %v, want one naming the op and mentioning %q", c.op, c.in, err, c.msg)
		}
	}
}
