package opcases

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ops"
)

// Cases of the resizes (ops/image_resize.go). The 2x3 two-channel image x
// is resized by a /usr/bin/python3 (numpy 1.24) script written from
// TensorFlow's documented sampling rules, with Keys' cubic kernel in
// closed form (the offsets below fall on TensorFlow's 1/1024 table):
//
//	def taps_lin(i_n, o_n, align, half):
//	    sc = (i_n-1)/(o_n-1) if align and o_n>1 else i_n/o_n
//	    s = (i+0.5)*sc-0.5 if half else i*sc; f = floor(s)
//	    return (max(f,0), min(ceil(s), i_n-1), s-f)     # for each output i
//	top = x[:,lo,l2]*(1-u)+x[:,lo,h2]*u; bot = x[:,hi,l2]*(1-u)+x[:,hi,h2]*u
//	y[:,a,b] = top*(1-t)+bot*t
//	def keys(s, A): s=abs(s); 0 if s>=2 else ((A*s-5*A)*s+8*A)*s-4*A if s>=1 else ((A+2)*s-(A+3))*s*s+1
//	# bicubic: taps f-1..f+2 clamped, weight keys(s-j, A), 0 outside when
//	# excluding, then divided by their sum; y = sum wy[i]*wx[j]*x[:,iy[i],ix[j]]
//
// resize_bicubic's legacy case (1x3x4x3 image 1, 2, ..., 36 to 6x8) is
// libnd4j's ImageResizeBicubic_Test4 (DeclarableOpsTests11.cpp).

func init() {
	x := f64([]int{1, 2, 3, 2}, 1, 2, 4, 8, 3, 5, 9, 0, 6, 7, 2, 3)
	bl := func(name string, b []bool, h, w int64, want ...float64) {
		forward("resize_bilinear "+name, "resize_bilinear", ops.Args{B: b}, arrays(x, i64([]int{2}, h, w)),
			arrays(f64([]int{1, int(h), int(w), 2}, want...)), 1e-9)
	}
	bl("3x4", nil, 3, 4, 1, 2, 3.25, 6.5, 3.5, 6.5, 3, 5, 6.333333333, 0.6666666667, 5.583333333, 5.666666667, 3.833333333, 5.5, 2.333333333, 3.666666667, 9, 0, 6.75, 5.25, 4, 5, 2, 3)
	bl("3x4 align corners", []bool{true}, 3, 4, 1, 2, 3, 6, 3.666666667, 7, 3, 5, 5, 1, 5, 5.333333333, 4.166666667, 6.333333333, 2.5, 4, 9, 0, 7, 4.666666667, 4.666666667, 5.666666667, 2, 3)
	half := []float64{1, 2, 2.875, 5.75, 3.625, 6.875, 3, 5, 5, 1, 5, 5.0625, 4.0625, 6.1875, 2.5, 4, 9, 0, 7.125, 4.375, 4.5, 5.5, 2, 3}
	bl("3x4 half pixel", []bool{false, true}, 3, 4, half...)
	bl("1x2 half pixel, shrinking", []bool{false, true}, 1, 2, 5, 2.625, 3.125, 4.875)
	forward("resize_bilinear size as int args, rank 3, float32", "resize_bilinear", ops.Args{I: []int64{3, 4}, B: []bool{false, true}},
		arrays(to32(f64([]int{2, 3, 2}, 1, 2, 4, 8, 3, 5, 9, 0, 6, 7, 2, 3))), arrays(to32(f64([]int{3, 4, 2}, half...))), 1e-6)
	forward("image_resize bilinear", "image_resize", ops.Args{I: []int64{0}}, arrays(x, i64([]int{2}, 3, 4)),
		arrays(to32(f64([]int{1, 3, 4, 2}, half...))), 1e-6)

	// resize_bilinear_bp: a 2x2 image enlarged to 3x3 with aligned corners
	// reads rows (and columns) with weights W = [[1,0],[.5,.5],[0,1]]; the
	// gradient of D = 1..9 is WᵀDW = [[5.25, 8.25], [14.25, 17.25]].
	forward("resize_bilinear_bp 2x2 to 3x3 aligned", "resize_bilinear_bp", ops.Args{B: []bool{true}},
		arrays(counting(0, 1, 2, 2, 1), counting(1, 1, 3, 3, 1)), arrays(f64([]int{1, 2, 2, 1}, 5.25, 8.25, 14.25, 17.25)), 1e-12)

	cubicHalf := []float64{-0.01730103806, 1.654844291, 0.9800343495, 3.362172606, 3.09272564, 6.979568927, 3.903233049, 7.849797934, 3.305066552, 5.858522971, 3.023356401, 4.919550173, 2.50210084, 1.03802521, 3.026120959, 2.833941606, 4.136695747, 6.639094875, 4.17606325, 7.509323882, 3.139051095, 5.330291971, 2.649789916, 4.302731092, 7.49789916, -0.1850840336, 7.083368092, 1.78649635, 6.206815703, 5.963958561, 4.717066521, 6.834187568, 2.809854015, 4.282846715, 1.909033613, 3.079621849, 10.01730104, -0.8019031142, 9.129454702, 1.25826535, 7.250785811, 5.623484508, 4.989896722, 6.493713516, 2.643838557, 3.754615715, 1.535467128, 2.462802768}
	forward("resize_bicubic half pixel", "resize_bicubic", ops.Args{B: []bool{false, true}}, arrays(x, i32([]int{2}, 4, 6)),
		arrays(f64([]int{1, 4, 6, 2}, cubicHalf...)), 1e-9)
	forward("image_resize bicubic", "image_resize", ops.Args{I: []int64{2}}, arrays(x, i32([]int{2}, 4, 6)),
		arrays(to32(f64([]int{1, 4, 6, 2}, cubicHalf...))), 1e-5)
	forward("resize_bicubic libnd4j Test4", "resize_bicubic", ops.Args{}, arrays(counting(1, 1, 3, 4, 3), i32([]int{2}, 6, 8)),
		arrays(f64([]int{1, 6, 8, 3},
			1, 2, 3, 2.21875, 3.21875, 4.21875, 4, 5, 6, 5.5, 6.5, 7.5, 7, 8, 9, 8.78125, 9.78125, 10.78125,
			10, 11, 12, 10.28125, 11.28125, 12.28125, 5.875, 6.875, 7.875, 7.09375, 8.09375, 9.09375, 8.875, 9.875, 10.875, 10.375, 11.375, 12.375,
			11.875, 12.875, 13.875, 13.65625, 14.65625, 15.65625, 14.875, 15.875, 16.875, 15.15625, 16.15625, 17.15625, 13, 14, 15, 14.21875, 15.21875, 16.21875,
			16, 17, 18, 17.5, 18.5, 19.5, 19, 20, 21, 20.78125, 21.78125, 22.78125, 22, 23, 24, 22.28125, 23.28125, 24.28125,
			20.125, 21.125, 22.125, 21.34375, 22.34375, 23.34375, 23.125, 24.125, 25.125, 24.625, 25.625, 26.625, 26.125, 27.125, 28.125, 27.90625, 28.90625, 29.90625,
			29.125, 30.125, 31.125, 29.40625, 30.40625, 31.40625, 25, 26, 27, 26.21875, 27.21875, 28.21875, 28, 29, 30, 29.5, 30.5, 31.5,
			31, 32, 33, 32.78125, 33.78125, 34.78125, 34, 35, 36, 34.28125, 35.28125, 36.28125, 26.125, 27.125, 28.125, 27.34375, 28.34375, 29.34375,
			29.125, 30.125, 31.125, 30.625, 31.625, 32.625, 32.125, 33.125, 34.125, 33.90625, 34.90625, 35.90625, 35.125, 36.125, 37.125, 35.40625, 36.40625, 37.40625)), 1e-6)

	// Nearest neighbours (half pixel, floor): rows (i+0.5)·2/3 -> 0 1 1,
	// columns (i+0.5)·3/4 -> 0 1 1 2; integers stay integers.
	xi := i64([]int{1, 2, 3, 2}, 1, 2, 4, 8, 3, 5, 9, 0, 6, 7, 2, 3)
	forward("image_resize nearest int64", "image_resize", ops.Args{I: []int64{1}}, arrays(xi, i64([]int{2}, 3, 4)),
		arrays(i64([]int{1, 3, 4, 2}, 1, 2, 4, 8, 4, 8, 3, 5, 9, 0, 6, 7, 6, 7, 2, 3, 9, 0, 6, 7, 6, 7, 2, 3)), 0)
	// Asymmetric, ceil: rows ceil(i·2/3) = 0 1 2 -> clamped 0 1 1; columns
	// ceil(i·3/4) = 0 1 2 3 -> 0 1 2 2.
	forward("image_resize nearest asymmetric ceil", "image_resize", ops.Args{I: []int64{1, 0, 3}}, arrays(x, i64([]int{2}, 3, 4)),
		arrays(f64([]int{1, 3, 4, 2}, 1, 2, 4, 8, 3, 5, 3, 5, 9, 0, 6, 7, 2, 3, 2, 3, 9, 0, 6, 7, 2, 3, 2, 3)), 0)

	r := rand.New(rand.NewPCG(24, 5))
	gradient("resize_bilinear", "resize_bilinear", ops.Args{}, []input{in(randn(r, 2, 3, 4, 2)), fixed(i64([]int{2}, 5, 3))})
	gradient("resize_bilinear align corners", "resize_bilinear", ops.Args{B: []bool{true}}, []input{in(randn(r, 1, 3, 3, 2)), fixed(i64([]int{2}, 4, 5))})
	gradient("resize_bilinear half pixel rank 3", "resize_bilinear", ops.Args{I: []int64{2, 5}, B: []bool{false, true}}, []input{in(randn(r, 4, 3, 1))})
}
