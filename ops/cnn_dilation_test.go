package ops_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// dilation2d infers exact sizes with an unknown batch (libnd4j's
// Test_Dilation2D_Again_1 shapes), reads strided inputs, and gives a
// window with no cell inside the image the lowest finite value and no
// gradient.
func TestDilation2D(t *testing.T) {
	d, _ := ops.Lookup("dilation2d")
	out, err := d.Infer([]ops.Info{{DType: ndarray.Float32, Shape: []int{-1, 128, 128, 4}}, {DType: ndarray.Float32, Shape: []int{4, 5, 4}}},
		&ops.Args{I: []int64{1, 1, 5, 7, 1, 1, 2, 3, 1}})
	if err != nil || !slices.Equal(out[0].Shape, []int{-1, 64, 43, 4}) {
		t.Errorf("infer: %v, %v; want [-1 64 43 4]", out, err)
	}
	args := ops.Args{I: []int64{1, 1, 2, 1, 1, 1, 1, 2, 1}}
	x, w := arangeF64(2, 5, 4, 3), arangeF64(2, 3, 3)
	want := runOp(t, "dilation2d", args, x, w)[0]
	if got := runOp(t, "dilation2d", args, stepped(t, x), stepped(t, w))[0]; !ndarray.Equal(got, want) {
		t.Errorf("strided inputs: %v, want %v", got, want)
	}
	// A 1x2 kernel at rate 5 over a 1x1 image, SAME: the cells are at
	// columns -2 and 3, both outside.
	x1 := f32([]int{1, 1, 1, 1}, 7)
	w1 := f32([]int{1, 2, 1}, 1, 2)
	a1 := ops.Args{I: []int64{1, 1, 1, 5, 1, 1, 1, 1, 1}}
	y := runOp(t, "dilation2d", a1, x1, w1)[0]
	if v := y.Float64s()[0]; v != -3.4028234663852886e38 {
		t.Errorf("dilation2d with no cell inside: %v, want the lowest float32", v)
	}
	g := runOp(t, "dilation2d_bp", a1, x1, w1, f32([]int{1, 1, 1, 1}, 1))
	if g[0].Float64s()[0] != 0 || g[1].Float64s()[0] != 0 || g[1].Float64s()[1] != 0 {
		t.Errorf("dilation2d_bp with no cell inside: %v %v, want zeros", g[0], g[1])
	}
}

// Bad arguments and shapes are errors naming the op, the argument and the
// shapes.
func TestDilation2DErrors(t *testing.T) {
	x := ndarray.Must(ndarray.Zeros(ndarray.Float64, 1, 4, 4, 2))
	w := ndarray.Must(ndarray.Zeros(ndarray.Float64, 2, 2, 2))
	ok := []int64{0, 1, 1, 1, 1, 1, 1, 1, 1}
	cases := []struct {
		args []int64
		in   []*ndarray.Array
		want string
	}{
		{[]int64{0, 1, 1, 1, 1, 1, 0, 1, 1}, []*ndarray.Array{x, w}, "strides [1 0 1 1] must be positive"},
		{[]int64{0, 1, 1, 0, 1, 1, 1, 1, 1}, []*ndarray.Array{x, w}, "rates [1 1 0 1]"},
		{[]int64{2, 1, 1, 1, 1, 1, 1, 1, 1}, []*ndarray.Array{x, w}, "padding mode 2"},
		{[]int64{0, 1, 1}, []*ndarray.Array{x, w}, "got 3 int args"},
		{ok, []*ndarray.Array{x, ndarray.Must(ndarray.Zeros(ndarray.Float64, 2, 2, 3))}, "x [1 4 4 2] has 2 channels, w [2 2 3] 3"},
		{ok, []*ndarray.Array{x, ndarray.Must(ndarray.Zeros(ndarray.Float64, 5, 1, 2))}, "w [5 1 2] with rates [1 1] spans 5x1 cells, more than x [1 4 4 2] holds"},
		{ok, []*ndarray.Array{ndarray.Must(ndarray.Zeros(ndarray.Float64, 4, 4, 2)), w}, "x must have rank 4 (NHWC) and w rank 3"},
		{ok, []*ndarray.Array{x, w, i64([]int{4}, 1, 1, 1, 1)}, "3 inputs"},
		{[]int64{0}, []*ndarray.Array{x, w, i64([]int{2}, 1, 1), i64([]int{4}, 1, 1, 1, 1)}, "rates [1 1] and strides [1 1 1 1] must have 4 values"},
		{ok, []*ndarray.Array{x, ndarray.Must(ndarray.Zeros(ndarray.Float32, 2, 2, 2))}, "input 1 is float32"},
	}
	d, _ := ops.Lookup("dilation2d")
	for _, c := range cases {
		info := make([]ops.Info, len(c.in))
		for i, a := range c.in {
			info[i] = infoOf(a)
		}
		a := &ops.Args{I: c.args}
		_, err := d.Infer(info, a)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "dilation2d") {
			t.Errorf("infer %v: %v, want an error saying %q", c.args, err, c.want)
		}
		if _, err = d.Run(nil, c.in, a); err == nil || !strings.HasPrefix(err.Error(), "dilation2d") {
			t.Errorf("run %v: %v, want an error", c.args, err)
		}
	}
	bp, _ := ops.Lookup("dilation2d_bp")
	g := ndarray.Must(ndarray.Zeros(ndarray.Float64, 1, 4, 4, 2))
	if _, err := bp.Run(nil, []*ndarray.Array{x, w, g}, &ops.Args{I: ok}); err == nil || !strings.Contains(err.Error(), "dilation2d_bp: gradient of shape [1 4 4 2] for the output [1 3 3 2]") {
		t.Errorf("dilation2d_bp with a wrong gradient: %v", err)
	}
	if _, err := bp.Infer([]ops.Info{infoOf(x), infoOf(w), infoOf(g)}, &ops.Args{I: ok}); err == nil || !strings.Contains(err.Error(), "dilation2d_bp: gradient of shape [1 4 4 2] for the output [1 3 3 2]") {
		t.Errorf("dilation2d_bp infer with a wrong gradient: %v", err)
	}
}
