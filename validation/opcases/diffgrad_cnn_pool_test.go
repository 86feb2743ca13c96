package opcases_test

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ops"
)

// Random differential cases of the pooling ops (ops/cnn_pool.go): random
// kernels, strides, paddings, dilations, SAME or VALID, both data formats.

func init() {
	// pool2 draws a 2-D pooling and its input shape; max pooling needs
	// distinct values (an argmax must not move under the differences).
	pool2 := func(r *rand.Rand, extra int64) (ops.Args, []int) {
		k, s, d := 1+r.IntN(3), 1+r.IntN(2), 1+r.IntN(2)
		p, same, nhwc := r.IntN(k), r.IntN(2), r.IntN(2)
		ek := (k-1)*d + 1
		h, w, c, b := ek+r.IntN(3), ek+r.IntN(3), 1+r.IntN(2), 1+r.IntN(2)
		shape := []int{b, c, h, w}
		if nhwc == 1 {
			shape = []int{b, h, w, c}
		}
		return ops.Args{I: []int64{int64(k), int64(k), int64(s), int64(s), int64(p), int64(p), int64(d), int64(d), int64(same), extra, int64(nhwc)}}, shape
	}
	for name, g := range map[string]dgen{
		"maxpool2d": func(r *rand.Rand) dcase {
			a, sh := pool2(r, 0)
			return dcase{args: a, in: []dinput{dvar(offGrid(r, sh...))}}
		},
		"max_pool_with_argmax": func(r *rand.Rand) dcase {
			a, sh := pool2(r, 0)
			return dcase{args: a, in: []dinput{dvar(offGrid(r, sh...))}}
		},
		"avgpool2d": func(r *rand.Rand) dcase {
			a, sh := pool2(r, int64(r.IntN(2)))
			return dcase{args: a, in: []dinput{dvar(rnd(r, sh...))}}
		},
		"pnormpool2d": func(r *rand.Rand) dcase {
			a, sh := pool2(r, int64(1+r.IntN(3)))
			// Away from 0, where |x|^p has a kink for p 1.
			return dcase{args: a, in: []dinput{dvar(pos(r, 0.5, 2, sh...))}}
		},
		"maxpool3dnew": func(r *rand.Rand) dcase {
			k, s, same, cl := 1+r.IntN(2), 1+r.IntN(2), r.IntN(2), r.IntN(2)
			sh := []int{1, 1 + r.IntN(2), k + r.IntN(2), k + r.IntN(2), k + r.IntN(2)}
			if cl == 1 {
				sh = []int{1, k + r.IntN(2), k + r.IntN(2), k + r.IntN(2), 1 + r.IntN(2)}
			}
			a := ops.Args{I: []int64{int64(k), int64(k), int64(k), int64(s), int64(s), int64(s), 0, 0, 0, 1, 1, 1, int64(same), 0, int64(cl)}}
			return dcase{args: a, in: []dinput{dvar(offGrid(r, sh...))}}
		},
	} {
		familyDgens[name] = g
	}
}
