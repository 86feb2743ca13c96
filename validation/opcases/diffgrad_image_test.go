package opcases_test

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Random differential cases of the differentiable image ops (ops/image.go,
// ops/image_resize.go): random image shapes, channel axes and factors.

func init() {
	colour := func(r *rand.Rand) dcase {
		rank := 1 + r.IntN(4)
		sh := make([]int, rank)
		for i := range sh {
			sh[i] = 1 + r.IntN(3)
		}
		ax := r.IntN(rank)
		sh[ax] = 3
		args := ops.Args{}
		if ax != rank-1 || r.IntN(2) == 0 {
			a := int64(ax)
			if r.IntN(2) == 0 {
				a -= int64(rank)
			}
			args.I = []int64{a}
		}
		return dcase{args: args, in: []dinput{dvar(rnd(r, sh...))}}
	}
	for _, op := range []string{"rgb_to_yiq", "yiq_to_rgb", "rgb_to_yuv", "yuv_to_rgb"} {
		familyDgens[op] = colour
	}
	familyDgens["adjust_contrast_v2"] = func(r *rand.Rand) dcase {
		sh := []int{1 + r.IntN(2), 1 + r.IntN(3), 1 + r.IntN(3), 1 + r.IntN(3)}
		if r.IntN(2) == 0 {
			sh = sh[1:]
		}
		f := r.Float64()*3 - 1
		if r.IntN(2) == 0 {
			return dcase{args: ops.Args{F: []float64{f}}, in: []dinput{dvar(rnd(r, sh...))}}
		}
		fa := ndarray.Must(ndarray.FromSlice([]float64{f}))
		return dcase{in: []dinput{dvar(rnd(r, sh...)), dvar(fa)}}
	}
}

func init() {
	familyDgens["resize_bilinear"] = func(r *rand.Rand) dcase {
		sh := []int{1 + r.IntN(2), 1 + r.IntN(4), 1 + r.IntN(4), 1 + r.IntN(2)}
		if r.IntN(3) == 0 {
			sh = sh[1:]
		}
		var b []bool
		switch r.IntN(3) {
		case 1:
			b = []bool{true}
		case 2:
			b = []bool{false, true}
		}
		h, w := int64(1+r.IntN(5)), int64(1+r.IntN(5))
		if r.IntN(2) == 0 {
			return dcase{args: ops.Args{I: []int64{h, w}, B: b}, in: []dinput{dvar(rnd(r, sh...))}}
		}
		size := ndarray.Must(ndarray.FromSlice([]int64{h, w}))
		return dcase{args: ops.Args{B: b}, in: []dinput{dvar(rnd(r, sh...)), dfix(size)}}
	}
}
