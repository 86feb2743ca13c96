package opcases

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ops"
)

// Cases of dilation2d and dilation2d_bp (ops/cnn_dilation.go). The two
// [2, 6, 6, 3] cases are libnd4j's ConvolutionTests1 Test_Dilation2D_1
// (SAME) and _2 (VALID), x and w counting from 1, rates and strides 2;
// a numpy loop (/usr/bin/python3) gives the same numbers:
//
//	def dil(x, w, s, r, same):
//	    B, H, W, C = x.shape
//	    kh, kw, _ = w.shape
//	    ek = [(kh-1)*r[0]+1, (kw-1)*r[1]+1]
//	    if same:
//	        out = [-(-H // s[0]), -(-W // s[1])]
//	        pad = [max(0, (out[0]-1)*s[0]+ek[0]-H)//2, max(0, (out[1]-1)*s[1]+ek[1]-W)//2]
//	    else:
//	        out = [(H-ek[0])//s[0]+1, (W-ek[1])//s[1]+1]
//	        pad = [0, 0]
//	    y = np.full((B, out[0], out[1], C), -np.inf)
//	    for i in range(out[0]):
//	        for j in range(out[1]):
//	            for h in range(kh):
//	                for v in range(kw):
//	                    rr, cc = i*s[0]-pad[0]+h*r[0], j*s[1]-pad[1]+v*r[1]
//	                    if 0 <= rr < H and 0 <= cc < W:
//	                        y[:, i, j, :] = np.maximum(y[:, i, j, :], x[:, rr, cc, :] + w[h, v, :])
//	    return y
//
// The small case is worked by hand: x = [[0 5 1] [3 2 4] [1 0 6]], w =
// [[0 1] [2 0]], VALID, stride 1. The windows' maxima are 6 (x(0,1) +
// w(0,1)), 5 (x(0,1) + w(0,0)), 3 (three cells tie; the first, x(1,0) +
// w(0,0), takes the gradient) and 6 (x(2,2) + w(1,1)). For gradient
// 1 2 3 4: dx = [[0 3 0] [3 0 0] [0 0 4]], dw = [[5 1] [0 4]].

func init() {
	dil := func(same int64, rH, rW, sH, sW int64) ops.Args {
		return ops.Args{I: []int64{same, 1, rH, rW, 1, 1, sH, sW, 1}}
	}
	w := counting(1, 3, 2, 3)
	forward("dilation2d libnd4j Test_Dilation2D_1 SAME", "dilation2d", dil(1, 2, 2, 2, 2), arrays(counting(1, 2, 6, 6, 3), w),
		arrays(f64([]int{2, 3, 3, 3}, 77, 79, 81, 83, 85, 87, 80, 82, 84, 113, 115, 117, 119, 121, 123, 116, 118, 120,
			107, 109, 111, 113, 115, 117, 110, 112, 114, 185, 187, 189, 191, 193, 195, 188, 190, 192,
			221, 223, 225, 227, 229, 231, 224, 226, 228, 215, 217, 219, 221, 223, 225, 218, 220, 222)), 0)
	forward("dilation2d libnd4j Test_Dilation2D_2 VALID float32", "dilation2d", dil(0, 2, 2, 2, 2),
		arrays(to32(counting(1, 2, 6, 6, 3)), to32(w)),
		arrays(to32(f64([]int{2, 1, 2, 3}, 95, 97, 99, 101, 103, 105, 203, 205, 207, 209, 211, 213))), 0)
	xs := f64([]int{1, 3, 3, 1}, 0, 5, 1, 3, 2, 4, 1, 0, 6)
	ws := f64([]int{2, 2, 1}, 0, 1, 2, 0)
	forward("dilation2d by hand", "dilation2d", dil(0, 1, 1, 1, 1), arrays(xs, ws), arrays(f64([]int{1, 2, 2, 1}, 6, 5, 3, 6)), 0)
	forward("dilation2d rates and strides as inputs", "dilation2d", ops.Args{I: []int64{0}},
		arrays(xs, ws, i32([]int{4}, 1, 1, 1, 1), i64([]int{4}, 1, 1, 1, 1)), arrays(f64([]int{1, 2, 2, 1}, 6, 5, 3, 6)), 0)
	forward("dilation2d_bp by hand, a tie", "dilation2d_bp", dil(0, 1, 1, 1, 1), arrays(xs, ws, f64([]int{1, 2, 2, 1}, 1, 2, 3, 4)),
		arrays(f64([]int{1, 3, 3, 1}, 0, 3, 0, 3, 0, 0, 0, 0, 4), f64([]int{2, 2, 1}, 5, 1, 0, 4)), 0)

	r := rand.New(rand.NewPCG(21, 11))
	gradient("dilation2d SAME rate 2 stride 1x2", "dilation2d", dil(1, 2, 1, 1, 2), []input{in(randn(r, 2, 5, 4, 2)), in(randn(r, 2, 3, 2))})
	gradient("dilation2d VALID", "dilation2d", dil(0, 1, 1, 1, 1), []input{in(randn(r, 1, 4, 4, 3)), in(randn(r, 2, 2, 3))})
	gradient("dilation2d rates and strides as inputs", "dilation2d", ops.Args{I: []int64{1}},
		[]input{in(randn(r, 1, 4, 3, 2)), in(randn(r, 2, 2, 2)), fixed(i64([]int{4}, 1, 1, 2, 1)), fixed(i64([]int{4}, 1, 2, 1, 1))})
}
