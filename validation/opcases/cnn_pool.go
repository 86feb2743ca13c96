package opcases

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Cases of the pooling ops (ops/cnn_pool.go), worked out by hand over small
// counting inputs:
//
//	4x4 input 1..16        3x3 input 1..9
//	 1  2  3  4             1 2 3
//	 5  6  7  8             4 5 6
//	 9 10 11 12             7 8 9
//	13 14 15 16
//
// A 2x2 kernel with stride 2 pools the 4x4 to max [6 8 14 16], mean
// [3.5 5.5 11.5 13.5]. SAME mode with a 2x2 kernel and stride 1 on the 3x3
// pads one cell after each axis (none before): the windows are {1,2,4,5},
// {2,3,5,6}, {3,6}, {4,5,7,8}, {5,6,8,9}, {6,9}, {7,8}, {8,9}, {9}, whose
// maxima are [5 6 6 8 9 9 8 9 9], means over the cells inside
// [3 4 4.5 6 7 7.5 7.5 8.5 9] and sums over 4 (padding included)
// [3 4 2.25 6 7 3.75 3.75 4.25 2.25]. Dilation 2 with a 2x2 kernel on the
// 4x4 takes {1,3,9,11}, {2,4,10,12}, {5,7,13,15}, {6,8,14,16}.

// pool2 is a 2-D pooling's int args.
func pool2(k, s, p, d, same, extra, nhwc int64) ops.Args {
	return ops.Args{I: []int64{k, k, s, s, p, p, d, d, same, extra, nhwc}}
}

// pool3 is a 3-D pooling's int args with a kernel kD x k x k.
func pool3(kD, k, s, same, extra, ndhwc int64) ops.Args {
	return ops.Args{I: []int64{kD, k, k, s, s, s, 0, 0, 0, 1, 1, 1, same, extra, ndhwc}}
}

func init() {
	x4 := counting(1, 1, 1, 4, 4)
	x3 := counting(1, 1, 1, 3, 3)
	o22 := []int{1, 1, 2, 2}
	o33 := []int{1, 1, 3, 3}
	forward("maxpool2d valid stride 2", "maxpool2d", pool2(2, 2, 0, 1, 0, 0, 0), arrays(x4), arrays(f64(o22, 6, 8, 14, 16)), 0)
	forward("maxpool2d float32", "maxpool2d", pool2(2, 2, 0, 1, 0, 0, 0), arrays(to32(x4)), arrays(f32(o22, 6, 8, 14, 16)), 0)
	forward("maxpool2d same", "maxpool2d", pool2(2, 1, 0, 1, 1, 0, 0), arrays(x3), arrays(f64(o33, 5, 6, 6, 8, 9, 9, 8, 9, 9)), 0)
	forward("maxpool2d dilation 2", "maxpool2d", pool2(2, 1, 0, 2, 0, 0, 0), arrays(x4), arrays(f64(o22, 11, 12, 15, 16)), 0)
	// NHWC: channel 0 is 1 2 3 4, channel 1 -1 -2 -3 -4.
	xcl := f64([]int{1, 2, 2, 2}, 1, -1, 2, -2, 3, -3, 4, -4)
	forward("maxpool2d NHWC", "maxpool2d", pool2(2, 1, 0, 1, 0, 0, 1), arrays(xcl), arrays(f64([]int{1, 1, 1, 2}, 4, -1)), 0)
	// An explicit padding of 1 around 1..4 (2x2), kernel 2, stride 2:
	// each window holds one input cell.
	forward("maxpool2d padding", "maxpool2d", pool2(2, 2, 1, 1, 0, 0, 0), arrays(counting(1, 1, 1, 2, 2)),
		arrays(f64(o22, 1, 2, 3, 4)), 0)

	forward("avgpool2d valid stride 2", "avgpool2d", pool2(2, 2, 0, 1, 0, 0, 0), arrays(x4), arrays(f64(o22, 3.5, 5.5, 11.5, 13.5)), 0)
	forward("avgpool2d float32", "avgpool2d", pool2(2, 2, 0, 1, 0, 0, 0), arrays(to32(x4)), arrays(f32(o22, 3.5, 5.5, 11.5, 13.5)), 0)
	forward("avgpool2d same exclude padding", "avgpool2d", pool2(2, 1, 0, 1, 1, 0, 0), arrays(x3),
		arrays(f64(o33, 3, 4, 4.5, 6, 7, 7.5, 7.5, 8.5, 9)), 1e-15)
	forward("avgpool2d same include padding", "avgpool2d", pool2(2, 1, 0, 1, 1, 1, 0), arrays(x3),
		arrays(f64(o33, 3, 4, 2.25, 6, 7, 3.75, 3.75, 4.25, 2.25)), 1e-15)
	forward("avgpool2d dilation 2", "avgpool2d", pool2(2, 1, 0, 2, 0, 0, 0), arrays(x4), arrays(f64(o22, 6, 7, 10, 11)), 1e-15)
	forward("avgpool2d NHWC", "avgpool2d", pool2(2, 1, 0, 1, 0, 0, 1), arrays(xcl), arrays(f64([]int{1, 1, 1, 2}, 2.5, -2.5)), 1e-15)
	forward("avgpool2d padding include", "avgpool2d", pool2(2, 2, 1, 1, 0, 1, 0), arrays(counting(1, 1, 1, 2, 2)),
		arrays(f64(o22, 0.25, 0.5, 0.75, 1)), 1e-15)

	// p-norms of one 2x2 window: p 2 of [3 4 0 0] is 5, p 1 of
	// [1 -2 3 -4] 10, p 3 of [1 2 2 0] the cube root of 17.
	one := []int{1, 1, 1, 1}
	forward("pnormpool2d p 2", "pnormpool2d", pool2(2, 1, 0, 1, 0, 2, 0), arrays(f64([]int{1, 1, 2, 2}, 3, 4, 0, 0)), arrays(f64(one, 5)), 1e-15)
	forward("pnormpool2d p 1", "pnormpool2d", pool2(2, 1, 0, 1, 0, 1, 0), arrays(f64([]int{1, 1, 2, 2}, 1, -2, 3, -4)), arrays(f64(one, 10)), 1e-15)
	forward("pnormpool2d p 3 float32", "pnormpool2d", pool2(2, 1, 0, 1, 0, 3, 0), arrays(f32([]int{1, 1, 2, 2}, 1, 2, 2, 0)),
		arrays(f32(one, 2.571281590658235)), 1e-6)

	// 3-D: 0..7 as [1,1,2,2,2]; a 1x2x2 kernel takes the max of each
	// depth slice, 3 and 7; a 2x2x2 kernel all.
	cube := counting(0, 1, 1, 2, 2, 2)
	forward("maxpool3dnew slices", "maxpool3dnew", pool3(1, 2, 1, 0, 0, 0), arrays(cube), arrays(f64([]int{1, 1, 2, 1, 1}, 3, 7)), 0)
	forward("maxpool3dnew NDHWC float32", "maxpool3dnew", pool3(2, 2, 1, 0, 0, 1), arrays(to32(counting(0, 1, 2, 2, 2, 1))),
		arrays(f32([]int{1, 1, 1, 1, 1}, 7)), 0)
	forward("maxpool3dnew same", "maxpool3dnew", pool3(2, 2, 1, 1, 0, 0), arrays(cube), arrays(f64([]int{1, 1, 2, 2, 2}, 7, 7, 7, 7, 7, 7, 7, 7)), 0)
	forward("avgpool3dnew float32 slices", "avgpool3dnew", pool3(1, 2, 1, 0, 0, 0), arrays(to32(cube)), arrays(f32([]int{1, 1, 2, 1, 1}, 1.5, 5.5)), 0)

	// max_pool_with_argmax: the maxima of the 4x4 at offsets 5 7 13 15; in
	// NHWC the maximum of channel 0 (4) is at offset 6, of channel 1 (-1)
	// at 1.
	forward("max_pool_with_argmax", "max_pool_with_argmax", pool2(2, 2, 0, 1, 0, 0, 0), arrays(x4),
		arrays(f64(o22, 6, 8, 14, 16), i64(o22, 5, 7, 13, 15)), 0)
	a32 := pool2(2, 1, 0, 1, 0, 0, 1)
	a32.D = []ndarray.DType{ndarray.Int32}
	forward("max_pool_with_argmax NHWC int32 indices", "max_pool_with_argmax", a32, arrays(xcl),
		arrays(f64([]int{1, 1, 1, 2}, 4, -1), i32([]int{1, 1, 1, 2}, 6, 1)), 0)

	// The bp ops: the 4x4 with stride-2 windows and gradO [1 2 3 4].
	gO := f64(o22, 1, 2, 3, 4)
	forward("maxpool2d_bp", "maxpool2d_bp", pool2(2, 2, 0, 1, 0, 0, 0), arrays(x4, gO),
		arrays(f64([]int{1, 1, 4, 4}, 0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 3, 0, 4)), 0)
	forward("avgpool2d_bp", "avgpool2d_bp", pool2(2, 2, 0, 1, 0, 0, 0), arrays(x4, gO),
		arrays(f64([]int{1, 1, 4, 4}, 0.25, 0.25, 0.5, 0.5, 0.25, 0.25, 0.5, 0.5, 0.75, 0.75, 1, 1, 0.75, 0.75, 1, 1)), 0)
	// p 2 of [3 4 0 0]: the gradient is x/5 times gradO 10.
	forward("pnormpool2d_bp", "pnormpool2d_bp", pool2(2, 1, 0, 1, 0, 2, 0), arrays(f64([]int{1, 1, 2, 2}, 3, 4, 0, 0), f64(one, 10)),
		arrays(f64([]int{1, 1, 2, 2}, 6, 8, 0, 0)), 1e-14)
	forward("maxpool3dnew_bp", "maxpool3dnew_bp", pool3(1, 2, 1, 0, 0, 0), arrays(cube, f64([]int{1, 1, 2, 1, 1}, 5, 6)),
		arrays(f64([]int{1, 1, 2, 2, 2}, 0, 0, 0, 5, 0, 0, 0, 6)), 0)

	// Gradient checks, float64, distinct values (max pooling's argmax must
	// not move under the differences).
	r := rand.New(rand.NewPCG(21, 7))
	gradient("maxpool2d same NCHW", "maxpool2d", pool2(2, 1, 0, 1, 1, 0, 0), []input{in(Distinct(r, 2, 2, 3, 3))})
	gradient("maxpool2d NHWC stride 2", "maxpool2d", pool2(2, 2, 0, 1, 0, 0, 1), []input{in(Distinct(r, 1, 4, 4, 3))})
	gradient("avgpool2d same exclude", "avgpool2d", pool2(3, 2, 0, 1, 1, 0, 0), []input{in(randn(r, 2, 2, 5, 4))})
	gradient("avgpool2d include dilation", "avgpool2d", pool2(2, 1, 1, 2, 0, 1, 1), []input{in(randn(r, 1, 4, 4, 2))})
	gradient("pnormpool2d p 3", "pnormpool2d", pool2(2, 1, 0, 1, 0, 3, 0), []input{in(randu(r, 0.5, 2, 1, 2, 3, 3))})
	gradient("pnormpool2d p 2 NHWC", "pnormpool2d", pool2(2, 2, 0, 1, 1, 2, 1), []input{in(Shifted(r, 1, 3, 3, 2))})
	gradient("maxpool3dnew", "maxpool3dnew", pool3(2, 2, 1, 0, 0, 0), []input{in(Distinct(r, 1, 2, 3, 3, 3))})
	gradient("maxpool3dnew NDHWC same", "maxpool3dnew", pool3(2, 2, 2, 1, 0, 1), []input{in(Distinct(r, 1, 3, 3, 3, 2))})
	gradient("max_pool_with_argmax", "max_pool_with_argmax", pool2(2, 1, 0, 1, 0, 0, 0), []input{in(Distinct(r, 1, 2, 3, 3))})
}
