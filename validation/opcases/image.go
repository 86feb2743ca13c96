package opcases

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ops"
)

// Cases of the colour ops (ops/image.go). The expected values come from
// /usr/bin/python3 with numpy 1.24 and the standard library's colorsys (an
// HSV implementation independent of libnd4j's):
//
//	import numpy as np, colorsys
//	x = np.array([0.1,0.5,0.9, 0.8,0.2,0.4, 0.3,0.3,0.3, 0.9,0.7,0.1]).reshape(2,2,3)
//	yiq = np.array([[0.299,0.587,0.114],[0.59590059,-0.27455667,-0.32134392],[0.2115,-0.52273617,0.31119955]])
//	yuv = np.array([[0.299,0.587,0.114],[-0.14714119,-0.2888691,0.43601035],[0.61497538,-0.51496512,-0.10001026]])
//	x @ yiq.T; x @ yuv.T
//	iyiq = np.array([[1,0.95598634,0.6208248],[1,-0.27201283,-0.64720424],[1,-1.10674021,1.70423049]])
//	iyuv = np.array([[1,0,1.13988303],[1,-0.394642334,-0.58062185],[1,2.03206185,0]])
//	x @ iyiq.T; x @ iyuv.T    # libnd4j's inverse coefficients
//	[colorsys.rgb_to_hsv(*p) for p in x.reshape(-1,3)]    # and hsv_to_rgb
//	h,s,v = colorsys.rgb_to_hsv(*p); colorsys.hsv_to_rgb((h+d)%1.0, s, v)            # adjust_hue
//	h,s,v = colorsys.rgb_to_hsv(*p); colorsys.hsv_to_rgb(h, min(max(s*f,0),1), v)     # adjust_saturation
//	m = x.mean(axis=(0,1), keepdims=True); (x-m)*2+m                                  # adjust_contrast_v2

func init() {
	sh := []int{2, 2, 3}
	x := func() []float64 { return []float64{0.1, 0.5, 0.9, 0.8, 0.2, 0.4, 0.3, 0.3, 0.3, 0.9, 0.7, 0.1} }
	img := f64(sh, x()...)
	fwd := func(name, op string, args ops.Args, want []float64, tol float64) {
		forward(name, op, args, arrays(img), arrays(f64(sh, want...)), tol)
	}
	fwd("rgb_to_yiq", "rgb_to_yiq", ops.Args{}, []float64{0.426, -0.366897804, 0.03986151, 0.4022, 0.29327157, 0.189132586, 0.3, 0, -1.0986e-05, 0.6914, 0.31198647, -0.144445364}, 1e-9)
	fwd("yiq_to_rgb", "yiq_to_rgb", ops.Args{}, []float64{1.13673549, -0.618490231, 1.080437336, 1.239527188, 0.486715738, 1.260344154, 0.773043342, 0.024234879, 0.479247084, 1.631272918, 0.644870595, 0.295704902}, 1e-9)
	fwd("rgb_to_yuv", "rgb_to_yuv", ops.Args{}, []float64{0.426, 0.233260646, -0.285994256, 0.4022, -0.001082632, 0.348983176, 0.3, 1.8e-08, 0, 0.6914, -0.291034406, 0.183001232}, 1e-9)
	fwd("yuv_to_rgb", "yuv_to_rgb", ops.Args{}, []float64{1.125894727, -0.619880832, 1.116030925, 1.255953212, 0.4888227932, 1.20641237, 0.641964909, 0.0074207448, 0.909618555, 1.013988303, 0.5656881812, 2.322443295}, 1e-9)
	fwd("rgb_to_hsv", "rgb_to_hsv", ops.Args{}, []float64{0.5833333333, 0.8888888889, 0.9, 0.9444444444, 0.75, 0.8, 0, 0, 0.3, 0.125, 0.8888888889, 0.9}, 1e-9)
	fwd("hsv_to_rgb", "hsv_to_rgb", ops.Args{}, []float64{0.9, 0.72, 0.45, 0.384, 0.32, 0.4, 0.228, 0.3, 0.21, 0.1, 0.03, 0.072}, 1e-9)
	hue := []float64{0.9, 0.1, 0.66, 0.52, 0.8, 0.2, 0.3, 0.3, 0.3, 0.1, 0.9, 0.54}
	fwd("adjust_hue +0.3", "adjust_hue", ops.Args{F: []float64{0.3}}, hue, 1e-9)
	fwd("adjust_hue -0.7", "adjust_hue", ops.Args{F: []float64{-0.7}}, hue, 1e-9)
	forward("adjust_hue delta as input", "adjust_hue", ops.Args{}, arrays(img, f64(nil, 0.3)), arrays(f64(sh, hue...)), 1e-9)
	fwd("adjust_saturation 0.5", "adjust_saturation", ops.Args{F: []float64{0.5}}, []float64{0.5, 0.7, 0.9, 0.8, 0.5, 0.6, 0.3, 0.3, 0.3, 0.9, 0.8, 0.5}, 1e-9)
	fwd("adjust_saturation 3", "adjust_saturation", ops.Args{F: []float64{3}}, []float64{0, 0.45, 0.9, 0.8, 0, 0.2666666667, 0.3, 0.3, 0.3, 0.9, 0.675, 0}, 1e-9)
	contrast := []float64{-0.325, 0.575, 1.375, 1.075, -0.025, 0.375, 0.075, 0.175, 0.175, 1.275, 0.975, -0.225}
	fwd("adjust_contrast_v2", "adjust_contrast_v2", ops.Args{F: []float64{2}}, contrast, 1e-12)
	forward("adjust_contrast_v2 float32", "adjust_contrast_v2", ops.Args{F: []float64{2}}, arrays(to32(img)), arrays(to32(f64(sh, contrast...))), 1e-6)

	// Channels first (int arg 0): the same pixels laid out [3, 2, 2].
	cf := f64([]int{3, 2, 2}, 0.1, 0.8, 0.3, 0.9, 0.5, 0.2, 0.3, 0.7, 0.9, 0.4, 0.3, 0.1)
	forward("rgb_to_hsv channels first", "rgb_to_hsv", ops.Args{I: []int64{0}}, arrays(cf),
		arrays(f64([]int{3, 2, 2}, 0.5833333333, 0.9444444444, 0, 0.125, 0.8888888889, 0.75, 0, 0.8888888889, 0.9, 0.8, 0.3, 0.9)), 1e-9)
	forward("rgb_to_yiq float32", "rgb_to_yiq", ops.Args{}, arrays(to32(img)),
		arrays(to32(f64(sh, 0.426, -0.366897804, 0.03986151, 0.4022, 0.29327157, 0.189132586, 0.3, 0, -1.0986e-05, 0.6914, 0.31198647, -0.144445364))), 1e-6)

	r := rand.New(rand.NewPCG(24, 4))
	for _, op := range []string{"rgb_to_yiq", "yiq_to_rgb", "rgb_to_yuv", "yuv_to_rgb"} {
		gradient(op, op, ops.Args{}, []input{in(randu(r, 0, 1, 2, 3, 3))})
		gradient(op+" channel axis 1", op, ops.Args{I: []int64{1}}, []input{in(randu(r, 0, 1, 2, 3, 2))})
	}
	gradient("adjust_contrast_v2", "adjust_contrast_v2", ops.Args{F: []float64{1.7}}, []input{in(randn(r, 2, 3, 2, 3))})
	gradient("adjust_contrast_v2 factor input", "adjust_contrast_v2", ops.Args{}, []input{in(randn(r, 1, 2, 3, 2)), in(f64(nil, 0.6))})
}
