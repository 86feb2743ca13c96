package ops_test

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// NCHW convolutions with unit strides and enough channels run on wide
// rows (cnn_conv_wide.go): random geometries (SAME with even kernels, so
// the odd padding cell comes after; VALID with paddings up to and beyond
// the kernel's span, so the input gradient's pass crops; dilations;
// rectangular kernels and images), the three weight formats, with and
// without a bias, float32 and float64, on two cores, against the scalar
// reference.
func TestConv2DWideRowsMatchReference(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	rng := rand.New(rand.NewPCG(21, 7))
	for it := 0; it < 40; it++ {
		kH, kW := 1+rng.IntN(5), 3+rng.IntN(3)
		dl := [2]int{1 + rng.IntN(2), 1 + rng.IntN(2)}
		p := [2]int{rng.IntN(4), rng.IntN(4)}
		if it%5 == 0 {
			p = [2]int{(kH-1)*dl[0] + 1, (kW-1)*dl[1] + 1}
		}
		same, wf := rng.IntN(2), rng.IntN(3)
		bS, iC, oC := 1+rng.IntN(3), 6+rng.IntN(6), 6+rng.IntN(6)
		iH, iW := (kH-1)*dl[0]+4+rng.IntN(12), (kW-1)*dl[1]+4+rng.IntN(12)
		ref := newRefConv([]int{bS, iH, iW, iC}, []int{kH, kW, iC, oC}, [2]int{1, 1}, p, dl, same == 1)
		xl := ndarray.Must(ndarray.RandNormal(rng, ndarray.Float64, 0, 1, bS, iH, iW, iC))
		wl := ndarray.Must(ndarray.RandNormal(rng, ndarray.Float64, 0, 1, kH, kW, iC, oC))
		gl := ndarray.Must(ndarray.RandNormal(rng, ndarray.Float64, 0, 1, bS, ref.oH, ref.oW, oC))
		bias := ndarray.Must(ndarray.RandNormal(rng, ndarray.Float64, 0, 1, oC))
		a := ops.Args{I: []int64{int64(kH), int64(kW), 1, 1, int64(p[0]), int64(p[1]),
			int64(dl[0]), int64(dl[1]), int64(same), 0, int64(wf)}}
		checkNCHWConv(t, "wide", ref, a, wf, xl, wl, gl, bias)
	}
}
