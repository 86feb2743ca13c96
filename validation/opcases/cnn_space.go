package opcases

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ops"
)

// Cases of space_to_depth, depth_to_space, upsampling, space_to_batch,
// batch_to_space and their _nd forms (ops/cnn_space.go),
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

	// space_to_batch and batch_to_space: libnd4j's DeclarableOpsTests5
	// Test_SpaceToBatch_3, Test_BatchToSpace_3 and Test_BatchToSpace_4.
	bs := func(n int64) ops.Args { return ops.Args{I: []int64{n}} }
	sb := counting(1, 2, 2, 4, 1)
	bsb := f64([]int{8, 1, 3, 1}, 0, 1, 3, 0, 9, 11, 0, 2, 4, 0, 10, 12, 0, 5, 7, 0, 13, 15, 0, 6, 8, 0, 14, 16)
	edges := i32([]int{2, 2}, 0, 0, 2, 0)
	forward("space_to_batch padded left", "space_to_batch", bs(2), arrays(sb, edges), arrays(bsb), 0)
	forward("batch_to_space cropped left", "batch_to_space", bs(2), arrays(bsb, edges), arrays(sb), 0)
	forward("batch_to_space float32 crops 1 2 2 3", "batch_to_space", bs(2),
		arrays(to32(counting(1, 12, 3, 4, 2)), i64([]int{2, 2}, 1, 2, 2, 3)),
		arrays(to32(f64([]int{3, 3, 3, 2}, 147, 148, 219, 220, 149, 150, 11, 12, 83, 84, 13, 14, 155, 156, 227, 228, 157, 158,
			171, 172, 243, 244, 173, 174, 35, 36, 107, 108, 37, 38, 179, 180, 251, 252, 181, 182,
			195, 196, 267, 268, 197, 198, 59, 60, 131, 132, 61, 62, 203, 204, 275, 276, 205, 206))), 0)
	// TensorFlow's documented example: [1, 2, 2, 1] 1 2 3 4 -> [4, 1, 1, 1].
	forward("space_to_batch block 2", "space_to_batch", bs(2), arrays(counting(1, 1, 2, 2, 1), i64([]int{2, 2}, 0, 0, 0, 0)),
		arrays(counting(1, 4, 1, 1, 1)), 0)
	// The _nd forms: TensorFlow's documented examples (a 4x4 image with
	// blocks [2, 2]; the padded [2, 2, 4, 1] batch is Test_SpaceToBatch_3's)
	// and a 1-D case worked by hand: rows (1 2) (3 4) (5 6) (7 8) padded by
	// one zero row on each side, blocks of 2: the even padded rows 0 (3 4)
	// (7 8), then the odd ones (1 2) (5 6) 0.
	b22 := i64([]int{2}, 2, 2)
	forward("space_to_batch_nd 4x4 blocks 2x2", "space_to_batch_nd", ops.Args{}, arrays(counting(1, 1, 4, 4, 1), b22, i32([]int{2, 2}, 0, 0, 0, 0)),
		arrays(f64([]int{4, 2, 2, 1}, 1, 3, 9, 11, 2, 4, 10, 12, 5, 7, 13, 15, 6, 8, 14, 16)), 0)
	forward("space_to_batch_nd padded left", "space_to_batch_nd", ops.Args{}, arrays(sb, b22, edges), arrays(bsb), 0)
	forward("batch_to_space_nd cropped left float32", "batch_to_space_nd", ops.Args{}, arrays(to32(bsb), b22, edges), arrays(to32(sb)), 0)
	nd1 := f64([]int{2, 3, 2}, 0, 0, 3, 4, 7, 8, 1, 2, 5, 6, 0, 0)
	forward("space_to_batch_nd 1-D padded", "space_to_batch_nd", ops.Args{}, arrays(counting(1, 1, 4, 2), i32([]int{1}, 2), i64([]int{1, 2}, 1, 1)), arrays(nd1), 0)
	forward("batch_to_space_nd 1-D cropped", "batch_to_space_nd", ops.Args{}, arrays(nd1, i32([]int{1}, 2), i64([]int{1, 2}, 1, 1)), arrays(counting(1, 1, 4, 2)), 0)
	gradient("space_to_batch_nd 3 axes", "space_to_batch_nd", ops.Args{}, []input{in(randn(r, 1, 3, 2, 2, 2)), fixed(i64([]int{3}, 2, 1, 2)), fixed(i64([]int{3, 2}, 1, 0, 0, 1, 0, 2))})
	gradient("batch_to_space_nd 1 axis", "batch_to_space_nd", ops.Args{}, []input{in(randn(r, 6, 2, 2)), fixed(i64([]int{1}, 3)), fixed(i64([]int{1, 2}, 2, 1))})
	gradient("space_to_batch padded", "space_to_batch", bs(2), []input{in(randn(r, 2, 3, 2, 2)), fixed(i64([]int{2, 2}, 1, 0, 1, 1))})
	gradient("batch_to_space cropped", "batch_to_space", bs(2), []input{in(randn(r, 8, 2, 3, 2)), fixed(i64([]int{2, 2}, 0, 1, 2, 1))})
}
