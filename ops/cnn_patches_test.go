package ops_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// extract_image_patches reads strided inputs as packed ones, infers exact
// sizes with an unknown batch, and its gradient gives back the input's
// sum over patches: for x of ones, <patches(x), g> = <x, bp(g)>.
func TestExtractImagePatches(t *testing.T) {
	args := ops.Args{I: []int64{3, 2, 2, 1, 1, 2, 1}}
	x := arangeF64(2, 5, 4, 3)
	want := runOp(t, "extract_image_patches", args, x)[0]
	if got := runOp(t, "extract_image_patches", args, stepped(t, x))[0]; !ndarray.Equal(got, want) {
		t.Errorf("strided input: %v, want %v", got, want)
	}
	d, _ := ops.Lookup("extract_image_patches")
	out, err := d.Infer([]ops.Info{{DType: ndarray.Float32, Shape: []int{-1, 5, 4, 3}}}, &args)
	if err != nil || !slices.Equal(out[0].Shape, []int{-1, 3, 4, 18}) {
		t.Errorf("infer with an unknown batch: %v, %v; want [-1 3 4 18]", out, err)
	}
	// The adjoint identity <patches(x), g> = <x, patches_bp(g)>.
	g := arangeF64(want.Shape()...)
	dx := runOp(t, "extract_image_patches_bp", args, x, g)[0]
	dot := func(a, b *ndarray.Array) float64 {
		s := 0.0
		av, bv := a.Float64s(), b.Float64s()
		for i := range av {
			s += av[i] * bv[i]
		}
		return s
	}
	if l, r := dot(want, g), dot(x, dx); l != r {
		t.Errorf("<patches(x), g> = %v, <x, bp(g)> = %v", l, r)
	}
}

// Bad arguments and shapes are errors naming the op, the argument and the
// shapes.
func TestExtractImagePatchesErrors(t *testing.T) {
	cases := []struct {
		args []int64
		x    []int
		want string
	}{
		{[]int64{2, 2, 0, 1, 1, 1, 0}, []int{1, 4, 4, 1}, "strides [0 1]"},
		{[]int64{2, 2, 1, 1, 1, 0, 0}, []int{1, 4, 4, 1}, "rates [1 0]"},
		{[]int64{0, 2, 1, 1, 1, 1, 0}, []int{1, 4, 4, 1}, "kernel [0 2]"},
		{[]int64{3, 3, 1, 1, 2, 2, 0}, []int{1, 4, 4, 1}, "kernel 3x3 with rates 2x2 spans 5x5 cells, more than input [1 4 4 1]"},
		{[]int64{2, 2, 1, 1, 1, 1, 2}, []int{1, 4, 4, 1}, "padding mode 2"},
		{[]int64{2, 2, 1, 1, 1, 1}, []int{1, 4, 4, 1}, "needs 7 int args"},
		{[]int64{2, 2, 1, 1, 1, 1, 0}, []int{4, 4, 1}, "rank 4 (NHWC), not shape [4 4 1]"},
	}
	d, _ := ops.Lookup("extract_image_patches")
	for _, c := range cases {
		x := ndarray.Must(ndarray.Zeros(ndarray.Float32, c.x...))
		a := &ops.Args{I: c.args}
		_, err := d.Infer([]ops.Info{infoOf(x)}, a)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "extract_image_patches") {
			t.Errorf("infer %v on %v: %v, want an error saying %q", c.args, c.x, err, c.want)
		}
		_, err = d.Run(nil, []*ndarray.Array{x}, a)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "extract_image_patches") {
			t.Errorf("run %v on %v: %v, want an error saying %q", c.args, c.x, err, c.want)
		}
	}
	bp, _ := ops.Lookup("extract_image_patches_bp")
	x := ndarray.Must(ndarray.Zeros(ndarray.Float64, 1, 4, 4, 1))
	g := ndarray.Must(ndarray.Zeros(ndarray.Float64, 1, 3, 3, 3))
	if _, err := bp.Run(nil, []*ndarray.Array{x, g}, &ops.Args{I: []int64{2, 2, 1, 1, 1, 1, 0}}); err == nil || !strings.Contains(err.Error(), "extract_image_patches_bp: gradient of shape [1 3 3 3] for the patches [1 3 3 4]") {
		t.Errorf("extract_image_patches_bp with a wrong gradient: %v", err)
	}
}
