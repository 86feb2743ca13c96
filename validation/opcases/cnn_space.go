package opcases

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ops"
)

// Cases of space_to_depth, depth_to_space and upsampling (ops/cnn_space.go),
// worked out by hand. space_to_depth's channel order is the block's row,
// its column, then the channel (TensorFlow's; the 4x4 NHWC case is
// TensorFlow's documented example): NCHW channels 1 2 3 4 | 5 6 7 8 of a
// 2x2 image become the 8 channels 1 5 2 6 3 7 4 8.

func init() {
	s2d := func(bs, nhwc int64) ops.Args { return ops.Args{I: []int64{bs, nhwc}} }
	x := counting(1, 1, 4, 4, 1)
	xd := f64([]int{1, 2, 2, 4}, 1, 2, 5, 6, 3, 4, 7, 8, 9, 10, 13, 14, 11, 12, 15, 16)
	forward("space_to_depth NHWC", "space_to_depth", s2d(2, 1), arrays(x), arrays(xd), 0)
	forward("depth_to_space NHWC", "depth_to_space", s2d(2, 1), arrays(xd), arrays(x), 0)
	forward("space_to_depth NHWC float32", "space_to_depth", s2d(2, 1), arrays(to32(counting(1, 1, 2, 2, 3))), arrays(to32(counting(1, 1, 1, 1, 12))), 0)
	xc := counting(1, 1, 2, 2, 2)
	xcd := f64([]int{1, 8, 1, 1}, 1, 5, 2, 6, 3, 7, 4, 8)
	forward("space_to_depth NCHW", "space_to_depth", s2d(2, 0), arrays(xc), arrays(xcd), 0)
	forward("depth_to_space NCHW", "depth_to_space", s2d(2, 0), arrays(xcd), arrays(xc), 0)

	up := func(nhwcFlag int64, f ...int64) ops.Args { return ops.Args{I: append(f, nhwcFlag)} }
	forward("upsampling2d NHWC", "upsampling2d", up(0, 2, 2), arrays(counting(1, 1, 2, 2, 1)),
		arrays(f64([]int{1, 4, 4, 1}, 1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4)), 0)
	forward("upsampling2d NCHW 1x2 float32", "upsampling2d", up(1, 1, 2), arrays(to32(counting(1, 1, 1, 2, 2))),
		arrays(to32(f64([]int{1, 1, 2, 4}, 1, 1, 2, 2, 3, 3, 4, 4))), 0)
	forward("upsampling3d NCDHW", "upsampling3d", up(1, 2, 2, 2), arrays(f64([]int{1, 1, 1, 1, 1}, 5)),
		arrays(f64([]int{1, 1, 2, 2, 2}, 5, 5, 5, 5, 5, 5, 5, 5)), 0)
	forward("upsampling2d_bp", "upsampling2d_bp", ops.Args{I: []int64{0}}, arrays(counting(1, 1, 2, 2, 1), counting(0, 1, 4, 4, 1)),
		arrays(f64([]int{1, 2, 2, 1}, 0+1+4+5, 2+3+6+7, 8+9+12+13, 10+11+14+15)), 0)
	forward("upsampling3d_bp", "upsampling3d_bp", ops.Args{I: []int64{1}}, arrays(f64([]int{1, 1, 1, 1, 1}, 5), counting(0, 1, 1, 2, 2, 2)),
		arrays(f64([]int{1, 1, 1, 1, 1}, 28)), 0)

	r := rand.New(rand.NewPCG(21, 8))
	gradient("space_to_depth NCHW", "space_to_depth", s2d(2, 0), []input{in(randn(r, 2, 3, 4, 2))})
	gradient("depth_to_space NHWC", "depth_to_space", s2d(2, 1), []input{in(randn(r, 1, 2, 3, 8))})
	gradient("upsampling2d NCHW", "upsampling2d", up(1, 2, 3), []input{in(randn(r, 2, 2, 2, 3))})
	gradient("upsampling3d NDHWC", "upsampling3d", up(0, 2, 1, 2), []input{in(randn(r, 1, 2, 2, 2, 3))})
}
