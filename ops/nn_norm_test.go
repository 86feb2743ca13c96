package ops_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Errors of the normalisation, layer and bitwise ops (ops/nn_norm.go,
// ops/nn_layer.go, ops/bitwise.go); their values and gradients are checked
// in validation/opcases.
func TestNormLayerBitwiseErrors(t *testing.T) {
	info := func(dt ndarray.DType, shape ...int) ops.Info { return ops.Info{DType: dt, Shape: shape} }
	f, i := ndarray.Float64, ndarray.Int32
	for _, c := range []struct {
		op   string
		args ops.Args
		in   []ops.Info
		msg  string
	}{
		{"batchnorm", ops.Args{I: []int64{1, 1, 1}}, []ops.Info{info(f, 2, 3), info(f, 3), info(f, 3), info(f, 3), info(f, 3)}, "mean has shape [3]; want [3]"},
		{"batchnorm", ops.Args{I: []int64{1, 0}}, []ops.Info{info(f, 2, 3), info(f, 3), info(f, 3)}, "want 4 inputs"},
		{"batchnorm", ops.Args{}, []ops.Info{info(f, 2, 3), info(f, 2), info(f, 3)}, "mean has shape [2]"},
		{"layer_norm", ops.Args{}, []ops.Info{info(f, 2, 3), info(f, 3)}, "axes"},
		{"layer_norm", ops.Args{I: []int64{1}}, []ops.Info{info(f, 2, 3), info(f, 2)}, "gain has shape [2]"},
		{"xw_plus_b", ops.Args{}, []ops.Info{info(f, 2, 3), info(f, 4, 5), info(f, 5)}, "inner sizes 3 and 4"},
		{"xw_plus_b", ops.Args{}, []ops.Info{info(f, 2, 3), info(f, 3, 5), info(f, 4)}, "bias"},
		{"xw_plus_b", ops.Args{I: []int64{0, 0, 1}}, []ops.Info{info(f, 2, 3), info(f, 3, 5), info(f, 5)}, "int arg 2"},
		{"top_k", ops.Args{I: []int64{5}}, []ops.Info{info(f, 2, 4)}, "k 5"},
		{"bitwise_and", ops.Args{}, []ops.Info{info(f, 2), info(f, 2)}, "int32 or int64"},
		{"shift_bits", ops.Args{}, []ops.Info{info(i, 2), info(ndarray.Int64, 2)}, "one dtype"},
		{"bits_hamming_distance", ops.Args{}, []ops.Info{info(i, 2), info(i, 3)}, "one length"},
	} {
		d, _ := ops.Lookup(c.op)
		c.in[0].Shape = append([]int(nil), c.in[0].Shape...)
		if c.op == "batchnorm" && c.msg == "mean has shape [3]; want [3]" {
			// Two axes want rank-2 parameters.
			c.args.I = append(c.args.I, 0)
			c.msg = "mean has shape [3]; want [2 3]"
		}
		_, err := d.Infer(c.in, &c.args)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s %v: error %v, want one mentioning %q", c.op, c.in, err, c.msg)
		}
	}
	// Run: a negative shift amount.
	d, _ := ops.Lookup("shift_bits")
	_, err := d.Run(nil, []*ndarray.Array{i32([]int{1}, 1), i32([]int{1}, -1)}, &ops.Args{})
	if err == nil || !strings.Contains(err.Error(), "negative") {
		t.Errorf("shift_bits by -1: error %v", err)
	}
}

// top_k ranks elements in their own type: int64 values that float64 cannot
// tell apart (above 2^53) keep their order.
func TestTopKLargeInt64(t *testing.T) {
	d, _ := ops.Lookup("top_k")
	big := int64(1) << 60
	x := ndarray.Must(ndarray.FromSlice([]int64{big, big + 1, big + 3, big + 2}, 4))
	out, err := d.Run(nil, []*ndarray.Array{x}, &ops.Args{I: []int64{2}})
	if err != nil {
		t.Fatal(err)
	}
	if got := out[1].Int64s(); got[0] != 2 || got[1] != 3 {
		t.Errorf("top 2 indices of 2^60 + [0 1 3 2]: %v, want [2 3]", got)
	}
}

// layer_norm over the last axis of a packed x runs row by row (lnRows);
// any other layout takes the general path. The two agree, forward and
// backward, in both float types, with a bias and without.
func TestLayerNormRowPath(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	fwd, _ := ops.Lookup("layer_norm")
	bp, _ := ops.Lookup("layer_norm_bp")
	a := &ops.Args{I: []int64{1}}
	for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
		tol := 1e-12
		if dt == ndarray.Float32 {
			tol = 2e-5
		}
		rnd := func(s ...int) *ndarray.Array {
			return ndarray.Must(ndarray.Cast(ndarray.Must(ndarray.RandNormal(r, ndarray.Float64, 0.5, 2, s...)), dt))
		}
		wide, gain, bias, g := rnd(6, 10), rnd(8), rnd(8), rnd(6, 8)
		view := ndarray.Must(ndarray.NewView(wide.Buffer(), ndarray.Layout{Shape: []int{6, 8}, Strides: []int{10, 1}, Offset: 1}))
		if view.IsPacked() {
			t.Fatal("the slice is packed: it would not take the general path")
		}
		packed := ndarray.Must(ndarray.Copy(view))
		for _, in := range [][]*ndarray.Array{{gain, bias}, {gain}} {
			for _, op := range []struct {
				d     *ops.Def
				extra []*ndarray.Array
			}{{fwd, nil}, {bp, []*ndarray.Array{g}}} {
				run := func(x *ndarray.Array) []*ndarray.Array {
					out, err := op.d.Run(nil, append(append([]*ndarray.Array{x}, in...), op.extra...), a)
					if err != nil {
						t.Fatal(err)
					}
					return out
				}
				rows, general := run(packed), run(view)
				for i := range general {
					got, want := rows[i].Float64s(), general[i].Float64s()
					for j := range want {
						if math.Abs(got[j]-want[j]) > tol*(1+math.Abs(want[j])) {
							t.Fatalf("%s %v, %d params, output %d[%d]: %v on the row path, %v on the general one", op.d.Name, dt, len(in), i, j, got[j], want[j])
						}
					}
				}
			}
		}
	}
}
