package ops_test

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// conv2d's NCHW path shares images out over two cores (the weights
// gradient summed from each core's part), lowers SAME convolutions with
// unit strides a column row at a time (dilated too), and skips the
// lowering of 1x1 convolutions: all agree with the scalar reference.
func TestConv2DNCHWCoresAndFastPaths(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	rng := rand.New(rand.NewPCG(21, 1))
	for _, c := range []struct {
		name                 string
		bS, iC, oC, hw, k, d int
		same, pad            int
	}{
		{"3x3 SAME, two cores", 4, 8, 16, 32, 3, 1, 1, 0},
		{"1x1, two cores", 8, 32, 32, 32, 1, 1, 0, 0},
		{"3x3 SAME dilated", 2, 3, 4, 9, 3, 2, 1, 0},
		{"5x5 VALID padded 2", 2, 3, 5, 8, 5, 1, 0, 2},
	} {
		ref := newRefConv([]int{c.bS, c.hw, c.hw, c.iC}, []int{c.k, c.k, c.iC, c.oC}, [2]int{1, 1}, [2]int{c.pad, c.pad}, [2]int{c.d, c.d}, c.same == 1)
		xl := ndarray.Must(ndarray.RandNormal(rng, ndarray.Float64, 0, 1, c.bS, c.hw, c.hw, c.iC))
		wl := ndarray.Must(ndarray.RandNormal(rng, ndarray.Float64, 0, 1, c.k, c.k, c.iC, c.oC))
		gl := ndarray.Must(ndarray.RandNormal(rng, ndarray.Float64, 0, 1, c.bS, ref.oH, ref.oW, c.oC))
		a := ops.Args{I: []int64{int64(c.k), int64(c.k), 1, 1, int64(c.pad), int64(c.pad), int64(c.d), int64(c.d), int64(c.same), 0, 1}}
		checkNCHWConv(t, c.name, ref, a, 1, xl, wl, gl, nil)
	}
}

// checkNCHWConv runs conv2d and conv2d_bp on the NCHW forms of xl and gl
// (NHWC) and wl (HWIO, given to the op in weights format wf), in float64
// and float32, against ref; with bias (not nil) too, the forward pass
// again with it.
func checkNCHWConv(t *testing.T, name string, ref refConv, a ops.Args, wf int, xl, wl, gl, bias *ndarray.Array) {
	t.Helper()
	want := ref.forward(xl.Float64s(), wl.Float64s())
	wdx, wdw := ref.backward(xl.Float64s(), wl.Float64s(), gl.Float64s())
	nchw := func(v []float64, shape []int) *ndarray.Array {
		return permuted(ndarray.Must(ndarray.FromSlice(v, shape...)), 0, 3, 1, 2)
	}
	x, g := permuted(xl, 0, 3, 1, 2), permuted(gl, 0, 3, 1, 2)
	w := permuted(wl, hwioTo[wf]...)
	dw := permuted(ndarray.Must(ndarray.FromSlice(wdw, wl.Shape()...)), hwioTo[wf]...)
	for _, dt := range []ndarray.DType{ndarray.Float64, ndarray.Float32} {
		tol, cast := dtCase(dt)
		got := convRun(t, "conv2d", a, cast(x), cast(w))
		checkClose(t, name+" conv2d", a, got[0], nchw(want, gl.Shape()), tol)
		if bias != nil {
			withBias := append([]float64(nil), want...)
			bv, oC := bias.Float64s(), bias.Size()
			for i := range withBias {
				withBias[i] += bv[i%oC]
			}
			got = convRun(t, "conv2d", a, cast(x), cast(w), cast(bias))
			checkClose(t, name+" conv2d with bias", a, got[0], nchw(withBias, gl.Shape()), tol)
		}
		grads := convRun(t, "conv2d_bp", a, cast(x), cast(w), cast(g))
		checkClose(t, name+" dx", a, grads[0], nchw(wdx, xl.Shape()), tol)
		checkClose(t, name+" dw", a, grads[1], dw, tol)
	}
}

// Max and average pooling of NCHW planes with every window inside the
// input run on their own loops; they agree with windows worked out
// directly, the max's gradient going to the first maximum of a window
// (the values are small integers, so ties are common).
func TestPoolPlanesMatchWindows(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 2))
	for _, c := range []struct{ k, s, h, w int }{{2, 2, 8, 6}, {3, 2, 7, 9}, {2, 1, 5, 5}, {3, 3, 9, 7}} {
		bS, C := 2, 3
		oH, oW := (c.h-c.k)/c.s+1, (c.w-c.k)/c.s+1
		xv := make([]float64, bS*C*c.h*c.w)
		for i := range xv {
			xv[i] = float64(rng.IntN(4))
		}
		gv := make([]float64, bS*C*oH*oW)
		for i := range gv {
			gv[i] = rng.NormFloat64()
		}
		wantMax, wantAvg := make([]float64, len(gv)), make([]float64, len(gv))
		dMax, dAvg := make([]float64, len(xv)), make([]float64, len(xv))
		for pl := 0; pl < bS*C; pl++ {
			for oh := 0; oh < oH; oh++ {
				for ow := 0; ow < oW; ow++ {
					o := (pl*oH+oh)*oW + ow
					at, sum := -1, 0.0
					for kh := 0; kh < c.k; kh++ {
						for kw := 0; kw < c.k; kw++ {
							i := (pl*c.h+oh*c.s+kh)*c.w + ow*c.s + kw
							sum += xv[i]
							if at < 0 || xv[i] > xv[at] {
								at = i
							}
						}
					}
					wantMax[o], wantAvg[o] = xv[at], sum/float64(c.k*c.k)
					dMax[at] += gv[o]
					for kh := 0; kh < c.k; kh++ {
						for kw := 0; kw < c.k; kw++ {
							dAvg[(pl*c.h+oh*c.s+kh)*c.w+ow*c.s+kw] += gv[o] / float64(c.k*c.k)
						}
					}
				}
			}
		}
		for _, dt := range []ndarray.DType{ndarray.Float64, ndarray.Float32} {
			tol := 1e-12
			if dt == ndarray.Float32 {
				tol = 1e-5
			}
			x := ndarray.Must(ndarray.Cast(ndarray.Must(ndarray.FromSlice(xv, bS, C, c.h, c.w)), dt))
			g := ndarray.Must(ndarray.Cast(ndarray.Must(ndarray.FromSlice(gv, bS, C, oH, oW)), dt))
			for _, m := range []struct {
				op, bp   string
				out, dx  []float64
				divisors []int64
			}{{"maxpool2d", "maxpool2d_bp", wantMax, dMax, []int64{0}}, {"avgpool2d", "avgpool2d_bp", wantAvg, dAvg, []int64{0, 1}}} {
				for _, div := range m.divisors {
					a := ops.Args{I: []int64{int64(c.k), int64(c.k), int64(c.s), int64(c.s), 0, 0, 1, 1, 0, div, 0}}
					got := convRun(t, m.op, a, x)
					checkClose(t, m.op, a, got[0], ndarray.Must(ndarray.FromSlice(m.out, bS, C, oH, oW)), tol)
					grad := convRun(t, m.bp, a, x, g)
					checkClose(t, m.bp, a, grad[0], ndarray.Must(ndarray.FromSlice(m.dx, bS, C, c.h, c.w)), tol)
				}
			}
		}
	}
}
