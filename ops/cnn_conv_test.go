package ops_test

import (
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// refConv is the scalar conv2d sdgo had before the GEMM path, kept as the
// reference the GEMM path is checked and timed against: channels-last
// float64 values, weights [kH,kW,iC,oC], one multiply-add per call.
type refConv struct {
	bS, iH, iW, iC, oH, oW, oC, kH, kW, pH, pW, sH, sW, dH, dW int
}

func newRefConv(xNHWC, wHWIO []int, s, p, dl [2]int, same bool) refConv {
	r := refConv{bS: xNHWC[0], iH: xNHWC[1], iW: xNHWC[2], iC: xNHWC[3], kH: wHWIO[0], kW: wHWIO[1], oC: wHWIO[3],
		sH: s[0], sW: s[1], dH: dl[0], dW: dl[1]}
	out := func(in, k, s, p, d int) (int, int) {
		ek := (k-1)*d + 1
		if same {
			o := (in + s - 1) / s
			return o, max(0, ((o-1)*s+ek-in)/2)
		}
		return (in+2*p-ek)/s + 1, p
	}
	r.oH, r.pH = out(r.iH, r.kH, r.sH, p[0], r.dH)
	r.oW, r.pW = out(r.iW, r.kW, r.sW, p[1], r.dW)
	return r
}

func (r refConv) walk(f func(o, i, w int)) {
	for b := 0; b < r.bS; b++ {
		for oh := 0; oh < r.oH; oh++ {
			for ow := 0; ow < r.oW; ow++ {
				obase := ((b*r.oH+oh)*r.oW + ow) * r.oC
				for kh := 0; kh < r.kH; kh++ {
					ih := oh*r.sH - r.pH + kh*r.dH
					if ih < 0 || ih >= r.iH {
						continue
					}
					for kw := 0; kw < r.kW; kw++ {
						iw := ow*r.sW - r.pW + kw*r.dW
						if iw < 0 || iw >= r.iW {
							continue
						}
						ibase := ((b*r.iH+ih)*r.iW + iw) * r.iC
						wbase := (kh*r.kW + kw) * r.iC * r.oC
						for ic := 0; ic < r.iC; ic++ {
							for oc := 0; oc < r.oC; oc++ {
								f(obase+oc, ibase+ic, wbase+ic*r.oC+oc)
							}
						}
					}
				}
			}
		}
	}
}

func (r refConv) forward(x, w []float64) []float64 {
	out := make([]float64, r.bS*r.oH*r.oW*r.oC)
	r.walk(func(o, i, k int) { out[o] += x[i] * w[k] })
	return out
}

func (r refConv) backward(x, w, g []float64) (dx, dw []float64) {
	dx, dw = make([]float64, len(x)), make([]float64, len(w))
	r.walk(func(o, i, k int) {
		dx[i] += g[o] * w[k]
		dw[k] += g[o] * x[i]
	})
	return dx, dw
}

func permuted(a *ndarray.Array, perm ...int) *ndarray.Array {
	return ndarray.Must(ndarray.Copy(ndarray.Must(ndarray.Permute(a, perm...))))
}

var (
	wToHWIO = [3][]int{{0, 1, 2, 3}, {2, 3, 1, 0}, {1, 2, 3, 0}}
	hwioTo  = [3][]int{{0, 1, 2, 3}, {3, 2, 0, 1}, {3, 0, 1, 2}}
)

func convRun(t testing.TB, name string, a ops.Args, in ...*ndarray.Array) []*ndarray.Array {
	t.Helper()
	d, _ := ops.Lookup(name)
	out, err := d.Run(nil, in, &a)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out
}

// The GEMM path against the scalar reference over random geometries, both
// data formats, the three weight formats, float32 and float64, forward and
// backward.
func TestConv2DMatchesScalarReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for it := 0; it < 60; it++ {
		kH, kW := 1+rng.IntN(3), 1+rng.IntN(3)
		s := [2]int{1 + rng.IntN(3), 1 + rng.IntN(3)}
		dl := [2]int{1 + rng.IntN(2), 1 + rng.IntN(2)}
		p := [2]int{rng.IntN(3), rng.IntN(3)}
		same, nhwc, wf := rng.IntN(2), rng.IntN(2), rng.IntN(3)
		bS, iC, oC := 1+rng.IntN(3), 1+rng.IntN(4), 1+rng.IntN(4)
		iH, iW := (kH-1)*dl[0]+1+rng.IntN(6), (kW-1)*dl[1]+1+rng.IntN(6)
		ref := newRefConv([]int{bS, iH, iW, iC}, []int{kH, kW, iC, oC}, s, p, dl, same == 1)
		xl := ndarray.Must(ndarray.RandNormal(rng, ndarray.Float64, 0, 1, bS, iH, iW, iC))
		wl := ndarray.Must(ndarray.RandNormal(rng, ndarray.Float64, 0, 1, kH, kW, iC, oC))
		gl := ndarray.Must(ndarray.RandNormal(rng, ndarray.Float64, 0, 1, bS, ref.oH, ref.oW, oC))
		want := ref.forward(xl.Float64s(), wl.Float64s())
		wdx, wdw := ref.backward(xl.Float64s(), wl.Float64s(), gl.Float64s())
		x, g, dx := xl, gl, ndarray.Must(ndarray.FromSlice(wdx, xl.Shape()...))
		out := ndarray.Must(ndarray.FromSlice(want, gl.Shape()...))
		if nhwc == 0 {
			x, g, dx, out = permuted(xl, 0, 3, 1, 2), permuted(gl, 0, 3, 1, 2), permuted(dx, 0, 3, 1, 2), permuted(out, 0, 3, 1, 2)
		}
		w := permuted(wl, hwioTo[wf]...)
		dw := permuted(ndarray.Must(ndarray.FromSlice(wdw, wl.Shape()...)), hwioTo[wf]...)
		a := ops.Args{I: []int64{int64(kH), int64(kW), int64(s[0]), int64(s[1]), int64(p[0]), int64(p[1]),
			int64(dl[0]), int64(dl[1]), int64(same), int64(nhwc), int64(wf)}}
		for _, dt := range []ndarray.DType{ndarray.Float64, ndarray.Float32} {
			tol, c := dtCase(dt)
			got := convRun(t, "conv2d", a, c(x), c(w))
			checkClose(t, "conv2d", a, got[0], out, tol)
			grads := convRun(t, "conv2d_bp", a, c(x), c(w), c(g))
			checkClose(t, "conv2d_bp dx", a, grads[0], dx, tol)
			checkClose(t, "conv2d_bp dw", a, grads[1], dw, tol)
		}
	}
}

// dtCase is a conv test's tolerance for dt and the cast of its float64
// arrays to dt.
func dtCase(dt ndarray.DType) (float64, func(*ndarray.Array) *ndarray.Array) {
	tol := 1e-10
	if dt == ndarray.Float32 {
		tol = 1e-4
	}
	return tol, func(v *ndarray.Array) *ndarray.Array { return ndarray.Must(ndarray.Cast(v, dt)) }
}

func checkClose(t *testing.T, what string, a ops.Args, got, want *ndarray.Array, tol float64) {
	t.Helper()
	if !ndarray.SameShape(got.Shape(), want.Shape()) {
		t.Fatalf("%s %v: shape %v, want %v", what, a.I, got.Shape(), want.Shape())
	}
	g, w := got.Float64s(), want.Float64s()
	for i := range g {
		if math.Abs(g[i]-w[i]) > tol*(1+math.Abs(w[i])) {
			t.Fatalf("%s %v: [%d] = %v, want %v", what, a.I, i, g[i], w[i])
		}
	}
}

// Shape inference keeps the sizes it knows: an unknown batch, or unknown
// spatial sizes, leave the other axes exact.
func TestConv2DInferUnknownBatch(t *testing.T) {
	d, _ := ops.Lookup("conv2d")
	a := ops.Args{I: []int64{3, 3, 2, 2, 0, 0, 1, 1, 1, 0, 1}}
	w := ops.Info{DType: ndarray.Float32, Shape: []int{8, 3, 3, 3}}
	for _, c := range []struct{ x, want []int }{
		{[]int{-1, 3, 32, 31}, []int{-1, 8, 16, 16}},
		{[]int{4, -1, 32, -1}, []int{4, 8, 16, -1}},
	} {
		out, err := d.Infer([]ops.Info{{DType: ndarray.Float32, Shape: c.x}, w}, &a)
		if err != nil || !equalInts(out[0].Shape, c.want) {
			t.Errorf("x %v: %v, %v; want %v", c.x, out, err, c.want)
		}
	}
	// NHWC, VALID, unknown batch: (28-5)/1+1 = 24.
	a = ops.Args{I: []int64{5, 5, 1, 1, 0, 0, 1, 1, 0, 1, 0}}
	out, err := d.Infer([]ops.Info{{DType: ndarray.Float32, Shape: []int{-1, 28, 28, 1}}, {DType: ndarray.Float32, Shape: []int{5, 5, 1, 6}}}, &a)
	if err != nil || !equalInts(out[0].Shape, []int{-1, 24, 24, 6}) {
		t.Errorf("NHWC: %v, %v", out, err)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Bad arguments are errors naming the op and what is wrong.
func TestConv2DErrors(t *testing.T) {
	x := ndarray.Must(ndarray.Zeros(ndarray.Float32, 1, 2, 4, 4))
	w := ndarray.Must(ndarray.Zeros(ndarray.Float32, 3, 3, 2, 5))
	for _, c := range []struct {
		name string
		a    []int64
		in   []*ndarray.Array
		want string
	}{
		{"kernel larger than input", []int64{3, 3, 1, 1, 0, 0, 1, 1, 0, 0}, []*ndarray.Array{ndarray.Must(ndarray.Zeros(ndarray.Float32, 1, 2, 2, 2)), w}, "too small"},
		{"channels", []int64{3, 3, 1, 1, 0, 0, 1, 1, 0, 1}, []*ndarray.Array{x, w}, "input channels"},
		{"zero stride", []int64{3, 3, 0, 1, 0, 0, 1, 1, 0, 0}, []*ndarray.Array{x, w}, "strides"},
		{"negative dilation", []int64{3, 3, 1, 1, 0, 0, -1, 1, 0, 0}, []*ndarray.Array{x, w}, "dilations"},
		{"weights format", []int64{3, 3, 1, 1, 0, 0, 1, 1, 0, 0, 3}, []*ndarray.Array{x, w}, "weights format"},
		{"bias", []int64{3, 3, 1, 1, 1, 1, 1, 1, 0, 0}, []*ndarray.Array{x, w, ndarray.Must(ndarray.Zeros(ndarray.Float32, 4))}, "bias"},
	} {
		d, _ := ops.Lookup("conv2d")
		a := ops.Args{I: c.a}
		_, err := d.Run(nil, c.in, &a)
		if err == nil || !strings.Contains(err.Error(), "conv2d") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// The benchmark of issue 21: a 3x3 conv2d (SAME) of [32,16,32,32] NCHW to
// 32 channels, forward plus backward, in float32 on one core; the scalar
// reference and gorgonia's Conv2d (im2col and BLAS matmul) in the same run:
//
//	go test ./ops -run XXX -bench Conv2D -benchtime 3x -count 2
//
// Intel Xeon @ 2.50GHz (AVX-512), GOMAXPROCS 1, shared machine (load ~4.5),
// medians per forward+backward: sdgo-gemm 72 ms (12.6 GFLOP/s),
// scalar-reference 2.07 s (29x slower), gorgonia 289 ms (4.0x slower).
const bB, bC, bH, bW, bO = 32, 16, 32, 32, 32

func oneCore(b *testing.B) {
	old := runtime.GOMAXPROCS(1)
	b.Cleanup(func() { runtime.GOMAXPROCS(old) })
}

func BenchmarkConv2D(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	x := ndarray.Must(ndarray.RandNormal(rng, ndarray.Float32, 0, 1, bB, bC, bH, bW))
	w := ndarray.Must(ndarray.RandNormal(rng, ndarray.Float32, 0, 1, bO, bC, 3, 3))
	g := ndarray.Must(ndarray.RandNormal(rng, ndarray.Float32, 0, 1, bB, bO, bH, bW))
	a := ops.Args{I: []int64{3, 3, 1, 1, 0, 0, 1, 1, 1, 0, 1}}
	flops := 2.0 * 3 * bB * bO * bH * bW * bC * 9 // forward, dx, dw
	b.Run("sdgo-gemm", func(b *testing.B) {
		oneCore(b)
		fwd, _ := ops.Lookup("conv2d")
		bp, _ := ops.Lookup("conv2d_bp")
		for b.Loop() {
			if _, err := fwd.Run(nil, []*ndarray.Array{x, w}, &a); err != nil {
				b.Fatal(err)
			}
			if _, err := bp.Run(nil, []*ndarray.Array{x, w, g}, &a); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	})
	b.Run("scalar-reference", func(b *testing.B) {
		oneCore(b)
		ref := newRefConv([]int{bB, bH, bW, bC}, []int{3, 3, bC, bO}, [2]int{1, 1}, [2]int{}, [2]int{1, 1}, true)
		for b.Loop() {
			// As the old op did: float64 channels-last copies, the walk,
			// and the results back in float32 NCHW.
			xv := ndarray.Must(ndarray.Permute(x, 0, 2, 3, 1)).Float64s()
			wv := ndarray.Must(ndarray.Permute(w, 2, 3, 1, 0)).Float64s()
			gv := ndarray.Must(ndarray.Permute(g, 0, 2, 3, 1)).Float64s()
			out := ref.forward(xv, wv)
			dx, dw := ref.backward(xv, wv, gv)
			for _, v := range [][]float64{out, dx, dw} {
				_ = ndarray.Must(ndarray.Cast(ndarray.Must(ndarray.FromSlice(v, len(v))), ndarray.Float32))
			}
		}
		b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	})
	b.Run("gorgonia", func(b *testing.B) {
		oneCore(b)
		gg := G.NewGraph()
		xt := tensor.New(tensor.WithShape(bB, bC, bH, bW), tensor.WithBacking(ndarray.Values[float32](x)))
		wt := tensor.New(tensor.WithShape(bO, bC, 3, 3), tensor.WithBacking(ndarray.Values[float32](w)))
		gt := tensor.New(tensor.WithShape(bB, bO, bH, bW), tensor.WithBacking(ndarray.Values[float32](g)))
		xn := G.NodeFromAny(gg, xt, G.WithName("x"))
		wn := G.NodeFromAny(gg, wt, G.WithName("w"))
		gn := G.NodeFromAny(gg, gt, G.WithName("g"))
		y, err := G.Conv2d(xn, wn, tensor.Shape{3, 3}, []int{1, 1}, []int{1, 1}, []int{1, 1})
		if err != nil {
			b.Fatal(err)
		}
		// loss = Σ y·g, so that the gradient reaching y is g.
		loss := G.Must(G.Sum(G.Must(G.HadamardProd(y, gn))))
		if _, err := G.Grad(loss, xn, wn); err != nil {
			b.Fatal(err)
		}
		m := G.NewTapeMachine(gg)
		defer m.Close()
		for b.Loop() {
			if err := m.RunAll(); err != nil {
				b.Fatal(err)
			}
			m.Reset()
		}
		b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	})
}

// deconv2d is conv2d's input gradient: deconv2d(x, w) equals conv2d_bp's
// dx for an input of deconv2d's output shape and gradO = x, and
// deconv2d_bp's dx is conv2d(gradO, w).
func TestDeconv2DIsConv2DTranspose(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for it := 0; it < 30; it++ {
		kH, kW, sH, sW := 1+rng.IntN(3), 1+rng.IntN(3), 1+rng.IntN(3), 1+rng.IntN(2)
		same, nhwc, wf := rng.IntN(2), rng.IntN(2), rng.IntN(3)
		pH, pW := 0, 0
		if same == 0 {
			pH, pW = rng.IntN(kH), rng.IntN(kW)
		}
		bS, iC, oC, iH, iW := 1+rng.IntN(2), 1+rng.IntN(3), 1+rng.IntN(3), 1+rng.IntN(4), 1+rng.IntN(4)
		x := []int{bS, iC, iH, iW}
		if nhwc == 1 {
			x = []int{bS, iH, iW, iC}
		}
		w := [][]int{{kH, kW, oC, iC}, {iC, oC, kH, kW}, {iC, kH, kW, oC}}[wf]
		a := ops.Args{I: []int64{int64(kH), int64(kW), int64(sH), int64(sW), int64(pH), int64(pW), 1, 1, int64(same), int64(nhwc), int64(wf)}}
		xa := ndarray.Must(ndarray.RandNormal(rng, ndarray.Float64, 0, 1, x...))
		wa := ndarray.Must(ndarray.RandNormal(rng, ndarray.Float64, 0, 1, w...))
		dd, _ := ops.Lookup("deconv2d")
		ys, err := dd.Run(nil, []*ndarray.Array{xa, wa}, &a)
		if err != nil {
			if !strings.Contains(err.Error(), "gives no output") {
				t.Fatal(err)
			}
			continue
		}
		y := ys[0]
		zero := ndarray.Must(ndarray.Zeros(ndarray.Float64, y.Shape()...))
		dx := convRun(t, "conv2d_bp", a, zero, wa, xa)[0]
		checkClose(t, "deconv2d", a, y, dx, 1e-12)
		g := ndarray.Must(ndarray.RandNormal(rng, ndarray.Float64, 0, 1, y.Shape()...))
		bp := convRun(t, "deconv2d_bp", a, xa, wa, g)
		checkClose(t, "deconv2d_bp dx", a, bp[0], convRun(t, "conv2d", a, g, wa)[0], 1e-12)
		checkClose(t, "deconv2d_bp dw", a, bp[1], convRun(t, "conv2d_bp", a, g, wa, xa)[1], 1e-12)
	}
}

// depthwise_conv2d is conv2d with block-diagonal weights (input channel ic
// feeds only outputs ic·mC..ic·mC+mC-1): forward, dx and the diagonal of
// dW agree with conv2d's over random geometries and formats.
func TestDepthwiseMatchesConv2D(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for it := 0; it < 30; it++ {
		kH, kW, sH, sW := 1+rng.IntN(3), 1+rng.IntN(3), 1+rng.IntN(2), 1+rng.IntN(2)
		same, nhwc, wf := rng.IntN(2), rng.IntN(2), rng.IntN(3)
		bS, iC, mC := 1+rng.IntN(2), 1+rng.IntN(3), 1+rng.IntN(3)
		iH, iW := kH+rng.IntN(3), kW+rng.IntN(3)
		x := []int{bS, iC, iH, iW}
		if nhwc == 1 {
			x = []int{bS, iH, iW, iC}
		}
		whwio := ndarray.Must(ndarray.RandNormal(rng, ndarray.Float64, 0, 1, kH, kW, iC, mC))
		full := make([]float64, kH*kW*iC*iC*mC)
		wv := whwio.Float64s()
		for k := 0; k < kH*kW; k++ {
			for ic := 0; ic < iC; ic++ {
				for m := 0; m < mC; m++ {
					full[(k*iC+ic)*iC*mC+ic*mC+m] = wv[(k*iC+ic)*mC+m]
				}
			}
		}
		wfull := permuted(ndarray.Must(ndarray.FromSlice(full, kH, kW, iC, iC*mC)), hwioTo[wf]...)
		w := permuted(whwio, hwioTo[wf]...)
		a := ops.Args{I: []int64{int64(kH), int64(kW), int64(sH), int64(sW), 0, 0, 1, 1, int64(same), int64(nhwc), int64(wf)}}
		for _, dt := range []ndarray.DType{ndarray.Float64, ndarray.Float32} {
			cst := func(v *ndarray.Array) *ndarray.Array { return ndarray.Must(ndarray.Cast(v, dt)) }
			xa := cst(ndarray.Must(ndarray.RandNormal(rng, ndarray.Float64, 0, 1, x...)))
			tol := 1e-12
			if dt == ndarray.Float32 {
				tol = 1e-5
			}
			want := convRun(t, "conv2d", a, xa, cst(wfull))[0]
			checkClose(t, "depthwise_conv2d", a, convRun(t, "depthwise_conv2d", a, xa, cst(w))[0], want, tol)
			g := cst(ndarray.Must(ndarray.RandNormal(rng, ndarray.Float64, 0, 1, want.Shape()...)))
			ref := convRun(t, "conv2d_bp", a, xa, cst(wfull), g)
			got := convRun(t, "depthwise_conv2d_bp", a, xa, cst(w), g)
			checkClose(t, "depthwise_conv2d_bp dx", a, got[0], ref[0], tol)
			dwFull := permuted(ref[1], wToHWIO[wf]...).Float64s()
			diag := make([]float64, kH*kW*iC*mC)
			for k := 0; k < kH*kW; k++ {
				for ic := 0; ic < iC; ic++ {
					for m := 0; m < mC; m++ {
						diag[(k*iC+ic)*mC+m] = dwFull[(k*iC+ic)*iC*mC+ic*mC+m]
					}
				}
			}
			wantDw := permuted(ndarray.Must(ndarray.FromSlice(diag, kH, kW, iC, mC)), hwioTo[wf]...)
			checkClose(t, "depthwise_conv2d_bp dw", a, got[1], wantDw, tol)
		}
	}
}

// conv3dnew over a depth of 1 with a kernel depth of 1 is conv2d:
// forward and both gradients, both data formats and weight formats.
func TestConv3DDepthOneIsConv2D(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for it := 0; it < 20; it++ {
		kH, kW, sH, sW := 1+rng.IntN(3), 1+rng.IntN(3), 1+rng.IntN(2), 1+rng.IntN(2)
		same, nhwc, wf := rng.IntN(2), rng.IntN(2), rng.IntN(3)
		bS, iC, oC, iH, iW := 1+rng.IntN(2), 1+rng.IntN(3), 1+rng.IntN(3), kH+rng.IntN(3), kW+rng.IntN(3)
		x2 := []int{bS, iC, iH, iW}
		x3 := []int{bS, iC, 1, iH, iW}
		if nhwc == 1 {
			x2, x3 = []int{bS, iH, iW, iC}, []int{bS, 1, iH, iW, iC}
		}
		w2 := [][]int{{kH, kW, iC, oC}, {oC, iC, kH, kW}, {oC, kH, kW, iC}}[wf]
		w3 := [][]int{{1, kH, kW, iC, oC}, {oC, iC, 1, kH, kW}, {oC, 1, kH, kW, iC}}[wf]
		xa := ndarray.Must(ndarray.RandNormal(rng, ndarray.Float64, 0, 1, x2...))
		wa := ndarray.Must(ndarray.RandNormal(rng, ndarray.Float64, 0, 1, w2...))
		a2 := ops.Args{I: []int64{int64(kH), int64(kW), int64(sH), int64(sW), 0, 0, 1, 1, int64(same), int64(nhwc), int64(wf)}}
		a3 := ops.Args{I: []int64{1, int64(kH), int64(kW), 1, int64(sH), int64(sW), 0, 0, 0, 1, 1, 1, int64(same), int64(nhwc), int64(wf)}}
		x3a, w3a := ndarray.Must(ndarray.Reshape(xa, x3...)), ndarray.Must(ndarray.Reshape(wa, w3...))
		y2 := convRun(t, "conv2d", a2, xa, wa)[0]
		y3 := convRun(t, "conv3dnew", a3, x3a, w3a)[0]
		checkClose(t, "conv3dnew", a3, ndarray.Must(ndarray.Reshape(y3, y2.Shape()...)), y2, 1e-12)
		g := ndarray.Must(ndarray.RandNormal(rng, ndarray.Float64, 0, 1, y2.Shape()...))
		b2 := convRun(t, "conv2d_bp", a2, xa, wa, g)
		b3 := convRun(t, "conv3dnew_bp", a3, x3a, w3a, ndarray.Must(ndarray.Reshape(g, y3.Shape()...)))
		checkClose(t, "conv3dnew_bp dx", a3, ndarray.Must(ndarray.Reshape(b3[0], x2...)), b2[0], 1e-12)
		checkClose(t, "conv3dnew_bp dw", a3, ndarray.Must(ndarray.Reshape(b3[1], w2...)), b2[1], 1e-12)
	}
}

// deconv3d is conv3dnew's input gradient, and deconv3d_bp's dx is
// conv3dnew of gradO.
func TestDeconv3DIsConv3DTranspose(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for it := 0; it < 20; it++ {
		var I []int64
		k := [3]int{1 + rng.IntN(2), 1 + rng.IntN(2), 1 + rng.IntN(3)}
		for j := range 3 {
			I = append(I, int64(k[j]))
		}
		for range 3 {
			I = append(I, int64(1+rng.IntN(2)))
		}
		I = append(I, 0, 0, 0, 1, 1, 1)
		same, ndhwc, wf := rng.IntN(2), rng.IntN(2), rng.IntN(3)
		I = append(I, int64(same), int64(ndhwc), int64(wf))
		a := ops.Args{I: I}
		bS, iC, oC := 1+rng.IntN(2), 1+rng.IntN(2), 1+rng.IntN(2)
		in := [3]int{1 + rng.IntN(3), 1 + rng.IntN(3), 1 + rng.IntN(3)}
		x := []int{bS, iC, in[0], in[1], in[2]}
		if ndhwc == 1 {
			x = []int{bS, in[0], in[1], in[2], iC}
		}
		w := [][]int{{k[0], k[1], k[2], oC, iC}, {iC, oC, k[0], k[1], k[2]}, {iC, k[0], k[1], k[2], oC}}[wf]
		xa := ndarray.Must(ndarray.RandNormal(rng, ndarray.Float64, 0, 1, x...))
		wa := ndarray.Must(ndarray.RandNormal(rng, ndarray.Float64, 0, 1, w...))
		y := convRun(t, "deconv3d", a, xa, wa)[0]
		zero := ndarray.Must(ndarray.Zeros(ndarray.Float64, y.Shape()...))
		checkClose(t, "deconv3d", a, y, convRun(t, "conv3dnew_bp", a, zero, wa, xa)[0], 1e-12)
		g := ndarray.Must(ndarray.RandNormal(rng, ndarray.Float64, 0, 1, y.Shape()...))
		bp := convRun(t, "deconv3d_bp", a, xa, wa, g)
		checkClose(t, "deconv3d_bp dx", a, bp[0], convRun(t, "conv3dnew", a, g, wa)[0], 1e-12)
		checkClose(t, "deconv3d_bp dw", a, bp[1], convRun(t, "conv3dnew_bp", a, g, wa, xa)[1], 1e-12)
	}
}
