package opcases

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ops"
)

// Cases of extract_image_patches (ops/cnn_patches.go). The forward values
// come from this numpy script (/usr/bin/python3), an independent
// implementation by padding and strided slicing with TensorFlow's SAME
// padding; case D is TensorFlow's documented 2x2 SAME example:
//
//	import numpy as np
//	def eip(x, k, s, r, same):
//	    B, H, W, C = x.shape
//	    ek = [(k[j]-1)*r[j]+1 for j in range(2)]
//	    if same:
//	        out = [-(-[H, W][j] // s[j]) for j in range(2)]
//	        tot = [max(0, (out[j]-1)*s[j] + ek[j] - [H, W][j]) for j in range(2)]
//	        pb = [t // 2 for t in tot]
//	        xp = np.pad(x, ((0, 0), (pb[0], tot[0]-pb[0]), (pb[1], tot[1]-pb[1]), (0, 0)))
//	    else:
//	        out = [([H, W][j] - ek[j]) // s[j] + 1 for j in range(2)]
//	        xp = x
//	    y = np.zeros((B, out[0], out[1], k[0]*k[1]*C))
//	    for i in range(out[0]):
//	        for j in range(out[1]):
//	            win = xp[:, i*s[0]:i*s[0]+ek[0]:r[0], j*s[1]:j*s[1]+ek[1]:r[1], :]
//	            y[:, i, j, :] = win.reshape(B, -1)
//	    return y
//	A: eip(np.arange(1, 13.).reshape(1, 3, 4, 1), (2, 2), (1, 2), (1, 1), False)
//	B: eip(np.arange(1, 10.).reshape(1, 3, 3, 1), (2, 2), (1, 1), (2, 2), False)
//	C: eip(np.arange(1, 19.).reshape(1, 3, 3, 2), (3, 3), (2, 2), (1, 1), True)
//	D: eip(np.arange(1, 5.).reshape(1, 2, 2, 1), (2, 2), (1, 1), (1, 1), True)

func init() {
	eip := func(v ...int64) ops.Args { return ops.Args{I: v} }
	forward("extract_image_patches A 2x2 stride 1x2 VALID", "extract_image_patches", eip(2, 2, 1, 2, 1, 1, 0),
		arrays(counting(1, 1, 3, 4, 1)),
		arrays(f64([]int{1, 2, 2, 4}, 1, 2, 5, 6, 3, 4, 7, 8, 5, 6, 9, 10, 7, 8, 11, 12)), 0)
	forward("extract_image_patches B rate 2 VALID float32", "extract_image_patches", eip(2, 2, 1, 1, 2, 2, 0),
		arrays(to32(counting(1, 1, 3, 3, 1))), arrays(to32(f64([]int{1, 1, 1, 4}, 1, 3, 7, 9))), 0)
	forward("extract_image_patches C 3x3 stride 2 SAME 2 channels", "extract_image_patches", eip(3, 3, 2, 2, 1, 1, 1),
		arrays(counting(1, 1, 3, 3, 2)),
		arrays(f64([]int{1, 2, 2, 18},
			0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 0, 0, 7, 8, 9, 10,
			0, 0, 0, 0, 0, 0, 3, 4, 5, 6, 0, 0, 9, 10, 11, 12, 0, 0,
			0, 0, 7, 8, 9, 10, 0, 0, 13, 14, 15, 16, 0, 0, 0, 0, 0, 0,
			9, 10, 11, 12, 0, 0, 15, 16, 17, 18, 0, 0, 0, 0, 0, 0, 0, 0)), 0)
	forward("extract_image_patches D 2x2 SAME int32", "extract_image_patches", eip(2, 2, 1, 1, 1, 1, 1),
		arrays(i32([]int{1, 2, 2, 1}, 1, 2, 3, 4)),
		arrays(i32([]int{1, 2, 2, 4}, 1, 2, 3, 4, 2, 0, 4, 0, 3, 4, 0, 0, 4, 0, 0, 0)), 0)
	// Case A's gradient for a gradient of ones counts the patches reading
	// each cell: rows 0 and 2 are in one patch row, row 1 in two.
	forward("extract_image_patches_bp A ones", "extract_image_patches_bp", eip(2, 2, 1, 2, 1, 1, 0),
		arrays(counting(1, 1, 3, 4, 1), f64([]int{1, 2, 2, 4}, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)),
		arrays(f64([]int{1, 3, 4, 1}, 1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1)), 0)

	r := rand.New(rand.NewPCG(21, 9))
	gradient("extract_image_patches 3x2 stride 2x1 rate 1x2 SAME", "extract_image_patches", eip(3, 2, 2, 1, 1, 2, 1),
		[]input{in(randn(r, 2, 4, 5, 2))})
	gradient("extract_image_patches 2x2 overlapping VALID", "extract_image_patches", eip(2, 2, 1, 1, 1, 1, 0),
		[]input{in(randn(r, 1, 3, 3, 3))})
}
