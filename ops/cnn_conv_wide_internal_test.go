package ops

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
)

// conv2d_bp on wide rows without the input's gradient (the first layer's,
// which the executor does not ask for) gives the weights and bias
// gradients the full run gives, and nil for the input's.
func TestConv2DWideRowsWeightsOnly(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 8))
	x := ndarray.Must(ndarray.RandNormal(rng, ndarray.Float32, 0, 1, 3, 6, 14, 14))
	w := ndarray.Must(ndarray.RandNormal(rng, ndarray.Float32, 0, 1, 5, 5, 6, 16))
	b := ndarray.Must(ndarray.RandNormal(rng, ndarray.Float32, 0, 1, 16))
	g := ndarray.Must(ndarray.RandNormal(rng, ndarray.Float32, 0, 1, 3, 16, 10, 10))
	a := &Args{I: []int64{5, 5, 1, 1, 0, 0, 1, 1, 0, 0, 0}}
	p, err := newConv2dPlan("conv2d_bp", a, x.Shape(), w.Shape())
	if err != nil {
		t.Fatal(err)
	}
	if fg, ok := p.wideFwdGeom(); !ok || !fg.worth() {
		t.Fatalf("LeNet's second convolution does not take the wide rows: %+v", fg)
	}
	in := []*ndarray.Array{x, w, b, g}
	full, err := conv2DBpOp.Run(nil, in, a)
	if err != nil {
		t.Fatal(err)
	}
	part, err := conv2DBpOp.Run(&Ctx{needed: func(i int) bool { return i > 0 }}, in, a)
	if err != nil {
		t.Fatal(err)
	}
	if part[0] != nil {
		t.Errorf("the input's gradient was computed: %v", part[0].Shape())
	}
	for k := 1; k < 3; k++ {
		f, q := full[k].Float64s(), part[k].Float64s()
		for i := range f {
			if math.Abs(f[i]-q[i]) > 1e-5*(1+math.Abs(f[i])) {
				t.Fatalf("output %d [%d]: %v without the input's gradient, %v with it", k, i, q[i], f[i])
			}
		}
	}
}

// fillT sets every cell, at lengths around its doubling copies' steps, and
// nothing past the slice.
func TestFillT(t *testing.T) {
	for _, n := range []int{0, 1, 63, 64, 65, 127, 128, 129, 1000, 4099} {
		s := make([]float32, n+3)
		fillT(s[:n], 2.5)
		for i, v := range s {
			if want := float32(2.5); (i < n && v != want) || (i >= n && v != 0) {
				t.Fatalf("n=%d: cell %d is %v", n, i, v)
			}
		}
	}
}
