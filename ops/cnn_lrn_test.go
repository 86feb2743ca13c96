package ops_test

import (
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// lrn computes float32 in float32 close to float64, reads strided inputs,
// and with depth 0 and alpha 0 is x·bias^-beta.
func TestLRN(t *testing.T) {
	args := ops.Args{F: []float64{2, 0.5, 0.75}, I: []int64{2}}
	x := ndarray.Must(ndarray.Unary(ndarray.Sin, arangeF64(2, 3, 2, 7), 0))
	y64 := runOp(t, "lrn", args, x)[0]
	y32 := runOp(t, "lrn", args, ndarray.Must(ndarray.Cast(x, ndarray.Float32)))[0]
	if y32.DType() != ndarray.Float32 || !ndarray.AllClose(ndarray.Must(ndarray.Cast(y32, ndarray.Float64)), y64, 1e-5, 1e-6) {
		t.Errorf("float32 lrn %v, float64 %v", y32, y64)
	}
	if got := runOp(t, "lrn", args, stepped(t, x))[0]; !ndarray.Equal(got, y64) {
		t.Errorf("strided input: %v, want %v", got, y64)
	}
	g := runOp(t, "lrn_bp", args, x, ndarray.Must(ndarray.Full(ndarray.Float64, 1, x.Shape()...)))[0]
	if got := runOp(t, "lrn_bp", args, stepped(t, x), stepped(t, ndarray.Must(ndarray.Full(ndarray.Float64, 1, x.Shape()...))))[0]; !ndarray.Equal(got, g) {
		t.Errorf("lrn_bp of strided inputs: %v, want %v", got, g)
	}
	own := runOp(t, "lrn", ops.Args{F: []float64{4, 0, 0.5}, I: []int64{0}}, x)[0]
	if want := ndarray.Must(ndarray.Binary(ndarray.Mul, x, ndarray.Scalar(0.5))); !ndarray.AllClose(own, want, 1e-15, 0) {
		t.Errorf("lrn with alpha 0, bias 4, beta 0.5: %v, want x/2 %v", own, want)
	}
	if _, ok := ops.Lookup("local_response_normalization"); !ok {
		t.Errorf("libnd4j's synonym local_response_normalization is not registered")
	}
}

// Bad arguments and shapes are errors naming the op, the argument and the
// shapes.
func TestLRNErrors(t *testing.T) {
	cases := []struct {
		op   string
		args ops.Args
		in   []*ndarray.Array
		want string
	}{
		{"lrn", ops.Args{F: []float64{1, 1, 1}, I: []int64{-1}}, []*ndarray.Array{arangeF64(1, 1, 1, 3)}, "depth (int arg 0) -1"},
		{"lrn", ops.Args{F: []float64{1, 1, 1}, I: []int64{2}}, []*ndarray.Array{arangeF64(1, 1, 3)}, "rank 4, not shape [1 1 3]"},
		{"lrn", ops.Args{I: []int64{2}}, []*ndarray.Array{i64([]int{1, 1, 1, 2}, 1, 2)}, "float32 or float64"},
		{"lrn_bp", ops.Args{I: []int64{2}}, []*ndarray.Array{arangeF64(1, 1, 1, 3), arangeF64(1, 1, 1, 2)}, "shape"},
		{"lrn_bp", ops.Args{I: []int64{2}}, []*ndarray.Array{arangeF64(1, 1, 1, 3), f32([]int{1, 1, 1, 3}, 1, 2, 3)}, "float32"},
	}
	for _, c := range cases {
		d, _ := ops.Lookup(c.op)
		info := make([]ops.Info, len(c.in))
		for i, a := range c.in {
			info[i] = infoOf(a)
		}
		_, err := d.Infer(info, &c.args)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), c.op) {
			t.Errorf("infer %s %v: %v, want an error saying %q", c.op, c.args, err, c.want)
		}
		_, err = d.Run(nil, c.in, &c.args)
		if err == nil || !strings.HasPrefix(err.Error(), c.op) {
			t.Errorf("run %s %v: %v, want an error", c.op, c.args, err)
		}
	}
}
