package opcases_test

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ops"
)

// Random differential cases of the convolutions (ops/cnn_conv*.go,
// ops/cnn_deconv.go, ops/cnn_im2col.go).

func init() {
	i64s := func(v ...int) []int64 {
		out := make([]int64, len(v))
		for i, x := range v {
			out[i] = int64(x)
		}
		return out
	}
	for name, g := range map[string]dgen{
		"conv1d": func(r *rand.Rand) dcase {
			kW, sW, dW, pW := 1+r.IntN(3), 1+r.IntN(2), 1+r.IntN(2), r.IntN(2)
			mode, nwc, wf := r.IntN(3), r.IntN(2), r.IntN(3)
			bS, iC, oC, iW := 1+r.IntN(2), 1+r.IntN(2), 1+r.IntN(2), (kW-1)*dW+1+r.IntN(3)
			x := []int{bS, iC, iW}
			if nwc == 1 {
				x = []int{bS, iW, iC}
			}
			w := [][]int{{kW, iC, oC}, {oC, iC, kW}, {oC, kW, iC}}[wf]
			in := []dinput{dvar(rnd(r, x...)), dvar(rnd(r, w...))}
			if r.IntN(2) == 0 {
				in = append(in, dvar(rnd(r, oC)))
			}
			return dcase{args: ops.Args{I: i64s(kW, sW, pW, dW, mode, nwc, wf)}, in: in}
		},
		"deconv2d": func(r *rand.Rand) dcase {
			kH, kW, sH, sW := 1+r.IntN(2), 1+r.IntN(3), 1+r.IntN(2), 1+r.IntN(2)
			dH, dW, same, nhwc, wf := 1+r.IntN(2), 1+r.IntN(2), r.IntN(2), r.IntN(2), r.IntN(3)
			pH, pW := 0, 0
			if same == 0 {
				pH, pW = r.IntN(kH), r.IntN(kW)
			}
			bS, iC, oC, iH, iW := 1+r.IntN(2), 1+r.IntN(2), 1+r.IntN(2), 2+r.IntN(2), 2+r.IntN(2)
			x := []int{bS, iC, iH, iW}
			if nhwc == 1 {
				x = []int{bS, iH, iW, iC}
			}
			w := [][]int{{kH, kW, oC, iC}, {iC, oC, kH, kW}, {iC, kH, kW, oC}}[wf]
			in := []dinput{dvar(rnd(r, x...)), dvar(rnd(r, w...))}
			if r.IntN(2) == 0 {
				in = append(in, dvar(rnd(r, oC)))
			}
			return dcase{args: ops.Args{I: i64s(kH, kW, sH, sW, pH, pW, dH, dW, same, nhwc, wf)}, in: in}
		},
		"depthwise_conv2d": func(r *rand.Rand) dcase {
			kH, kW, sH, sW := 1+r.IntN(2), 1+r.IntN(2), 1+r.IntN(2), 1+r.IntN(2)
			dH, dW, same, nhwc, wf := 1+r.IntN(2), 1+r.IntN(2), r.IntN(2), r.IntN(2), r.IntN(3)
			bS, iC, mC, iH, iW := 1+r.IntN(2), 1+r.IntN(2), 1+r.IntN(2), 3+r.IntN(2), 3+r.IntN(2)
			x := []int{bS, iC, iH, iW}
			if nhwc == 1 {
				x = []int{bS, iH, iW, iC}
			}
			w := [][]int{{kH, kW, iC, mC}, {mC, iC, kH, kW}, {mC, kH, kW, iC}}[wf]
			in := []dinput{dvar(rnd(r, x...)), dvar(rnd(r, w...))}
			if r.IntN(2) == 0 {
				in = append(in, dvar(rnd(r, iC*mC)))
			}
			return dcase{args: ops.Args{I: i64s(kH, kW, sH, sW, r.IntN(2), r.IntN(2), dH, dW, same, nhwc, wf)}, in: in}
		},
		"sconv2d": func(r *rand.Rand) dcase {
			kH, kW, sH, sW := 1+r.IntN(2), 1+r.IntN(2), 1+r.IntN(2), 1+r.IntN(2)
			same, nhwc, wf := r.IntN(2), r.IntN(2), r.IntN(3)
			bS, iC, mC, oC, iH, iW := 1+r.IntN(2), 1+r.IntN(2), 1+r.IntN(2), 1+r.IntN(3), 3+r.IntN(2), 3+r.IntN(2)
			x := []int{bS, iC, iH, iW}
			if nhwc == 1 {
				x = []int{bS, iH, iW, iC}
			}
			wd := [][]int{{kH, kW, iC, mC}, {mC, iC, kH, kW}, {mC, kH, kW, iC}}[wf]
			wp := [][]int{{1, 1, iC * mC, oC}, {oC, iC * mC, 1, 1}, {oC, 1, 1, iC * mC}}[wf]
			in := []dinput{dvar(rnd(r, x...)), dvar(rnd(r, wd...)), dvar(rnd(r, wp...))}
			if r.IntN(2) == 0 {
				in = append(in, dvar(rnd(r, oC)))
			}
			return dcase{args: ops.Args{I: i64s(kH, kW, sH, sW, 0, 0, 1, 1, same, nhwc, wf)}, in: in}
		},
		"conv3dnew": func(r *rand.Rand) dcase {
			var k, st, pd, dl, in [3]int
			for j := range 3 {
				k[j], st[j], pd[j], dl[j] = 1+r.IntN(2), 1+r.IntN(2), r.IntN(2), 1+r.IntN(2)
				in[j] = (k[j]-1)*dl[j] + 1 + r.IntN(2)
			}
			same, ndhwc, wf := r.IntN(2), r.IntN(2), r.IntN(3)
			bS, iC, oC := 1+r.IntN(2), 1+r.IntN(2), 1+r.IntN(2)
			x := []int{bS, iC, in[0], in[1], in[2]}
			if ndhwc == 1 {
				x = []int{bS, in[0], in[1], in[2], iC}
			}
			w := [][]int{{k[0], k[1], k[2], iC, oC}, {oC, iC, k[0], k[1], k[2]}, {oC, k[0], k[1], k[2], iC}}[wf]
			dv := []dinput{dvar(rnd(r, x...)), dvar(rnd(r, w...))}
			if r.IntN(2) == 0 {
				dv = append(dv, dvar(rnd(r, oC)))
			}
			return dcase{args: ops.Args{I: i64s(k[0], k[1], k[2], st[0], st[1], st[2], pd[0], pd[1], pd[2], dl[0], dl[1], dl[2], same, ndhwc, wf)}, in: dv}
		},
		"deconv3d": func(r *rand.Rand) dcase {
			var k, st [3]int
			for j := range 3 {
				k[j], st[j] = 1+r.IntN(2), 1+r.IntN(2)
			}
			same, ndhwc, wf := r.IntN(2), r.IntN(2), r.IntN(3)
			bS, iC, oC := 1+r.IntN(2), 1+r.IntN(2), 1+r.IntN(2)
			in := [3]int{1 + r.IntN(2), 1 + r.IntN(2), 1 + r.IntN(2)}
			x := []int{bS, iC, in[0], in[1], in[2]}
			if ndhwc == 1 {
				x = []int{bS, in[0], in[1], in[2], iC}
			}
			w := [][]int{{k[0], k[1], k[2], oC, iC}, {iC, oC, k[0], k[1], k[2]}, {iC, k[0], k[1], k[2], oC}}[wf]
			dv := []dinput{dvar(rnd(r, x...)), dvar(rnd(r, w...))}
			if r.IntN(2) == 0 {
				dv = append(dv, dvar(rnd(r, oC)))
			}
			return dcase{args: ops.Args{I: i64s(k[0], k[1], k[2], st[0], st[1], st[2], 0, 0, 0, 1, 1, 1, same, ndhwc, wf)}, in: dv}
		},
		"im2col": func(r *rand.Rand) dcase {
			kH, kW, sH, sW, dH, dW := 1+r.IntN(2), 1+r.IntN(2), 1+r.IntN(2), 1+r.IntN(2), 1+r.IntN(2), 1+r.IntN(2)
			x := []int{1 + r.IntN(2), 1 + r.IntN(2), 3 + r.IntN(2), 3 + r.IntN(2)}
			return dcase{args: ops.Args{I: i64s(kH, kW, sH, sW, r.IntN(2), r.IntN(2), dH, dW, r.IntN(2))}, in: []dinput{dvar(rnd(r, x...))}}
		},
		"col2im": func(r *rand.Rand) dcase {
			kH, kW, sH, sW, dH, dW := 1+r.IntN(2), 1+r.IntN(2), 1+r.IntN(2), 1+r.IntN(2), 1+r.IntN(2), 1+r.IntN(2)
			pH, pW, iH, iW := r.IntN(2), r.IntN(2), 3+r.IntN(2), 3+r.IntN(2)
			oH, oW := (iH+2*pH-(kH-1)*dH-1)/sH+1, (iW+2*pW-(kW-1)*dW-1)/sW+1
			col := []int{1 + r.IntN(2), 1 + r.IntN(2), kH, kW, oH, oW}
			return dcase{args: ops.Args{I: i64s(sH, sW, pH, pW, iH, iW, dH, dW)}, in: []dinput{dvar(rnd(r, col...))}}
		},
	} {
		familyDgens[name] = g
	}
}
