package opcases_test

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Random differential cases of space_to_depth, depth_to_space,
// space_to_batch, batch_to_space and upsampling (ops/cnn_space.go), and of
// extract_image_patches (ops/cnn_patches.go), lrn (ops/cnn_lrn.go) and
// dilation2d (ops/cnn_dilation.go).

func init() {
	for name, g := range map[string]dgen{
		"space_to_depth": func(r *rand.Rand) dcase {
			bs, f := 1+r.IntN(2), r.IntN(2)
			sh := []int{1 + r.IntN(2), 1 + r.IntN(2), bs * (1 + r.IntN(2)), bs * (1 + r.IntN(2))}
			return dcase{args: ops.Args{I: []int64{int64(bs), int64(f)}}, in: []dinput{dvar(rnd(r, sh...))}}
		},
		"depth_to_space": func(r *rand.Rand) dcase {
			bs, f := 1+r.IntN(2), r.IntN(2)
			sh := []int{1, bs * bs * (1 + r.IntN(2)), 1 + r.IntN(2), 1 + r.IntN(2)}
			if f == 1 {
				sh = []int{1, sh[2], sh[3], sh[1]}
			}
			return dcase{args: ops.Args{I: []int64{int64(bs), int64(f)}}, in: []dinput{dvar(rnd(r, sh...))}}
		},
		"upsampling2d": func(r *rand.Rand) dcase {
			return dcase{args: ops.Args{I: []int64{int64(1 + r.IntN(2)), int64(1 + r.IntN(3)), int64(r.IntN(2))}},
				in: []dinput{dvar(rnd(r, 1+r.IntN(2), 1+r.IntN(2), 1+r.IntN(2), 1+r.IntN(2)))}}
		},
		"upsampling3d": func(r *rand.Rand) dcase {
			return dcase{args: ops.Args{I: []int64{int64(1 + r.IntN(2)), int64(1 + r.IntN(2)), int64(1 + r.IntN(2)), int64(r.IntN(2))}},
				in: []dinput{dvar(rnd(r, 1, 1+r.IntN(2), 1+r.IntN(2), 1+r.IntN(2), 1+r.IntN(2)))}}
		},
		"space_to_batch": func(r *rand.Rand) dcase {
			bs := 1 + r.IntN(3)
			e := []int64{int64(r.IntN(3)), int64(r.IntN(3)), int64(r.IntN(3)), int64(r.IntN(3))}
			h := bs*(1+r.IntN(2)) - int(e[0]+e[1])%bs
			w := bs*(1+r.IntN(2)) - int(e[2]+e[3])%bs
			return dcase{args: ops.Args{I: []int64{int64(bs)}},
				in: []dinput{dvar(rnd(r, 1+r.IntN(2), h, w, 1+r.IntN(2))), dfix(ndarray.Must(ndarray.FromSlice(e, 2, 2)))}}
		},
		"batch_to_space": func(r *rand.Rand) dcase {
			bs := 1 + r.IntN(3)
			h, w := 1+r.IntN(3), 1+r.IntN(3)
			e := []int64{int64(r.IntN(h*bs + 1)), 0, int64(r.IntN(w*bs + 1)), 0}
			e[1], e[3] = int64(r.IntN(h*bs-int(e[0])+1)), int64(r.IntN(w*bs-int(e[2])+1))
			return dcase{args: ops.Args{I: []int64{int64(bs)}},
				in: []dinput{dvar(rnd(r, bs*bs*(1+r.IntN(2)), h, w, 1+r.IntN(2))), dfix(ndarray.Must(ndarray.FromSlice(e, 2, 2)))}}
		},
		"space_to_batch_nd": func(r *rand.Rand) dcase {
			m := 1 + r.IntN(3)
			sh := []int{1 + r.IntN(2)}
			var b, e []int64
			for j := 0; j < m; j++ {
				bs, lo, hi := 1+r.IntN(3), r.IntN(3), r.IntN(3)
				sh = append(sh, bs*(1+r.IntN(2))-(lo+hi)%bs)
				b, e = append(b, int64(bs)), append(e, int64(lo), int64(hi))
			}
			for j := r.IntN(2); j > 0; j-- {
				sh = append(sh, 1+r.IntN(2))
			}
			return dcase{in: []dinput{dvar(rnd(r, sh...)), dfix(ndarray.Must(ndarray.FromSlice(b, m))), dfix(ndarray.Must(ndarray.FromSlice(e, m, 2)))}}
		},
		"batch_to_space_nd": func(r *rand.Rand) dcase {
			m := 1 + r.IntN(3)
			sh := []int{1 + r.IntN(2)}
			var b, e []int64
			for j := 0; j < m; j++ {
				bs, n := 1+r.IntN(3), 1+r.IntN(2)
				lo := r.IntN(n*bs + 1)
				sh = append(sh, n)
				sh[0] *= bs
				b, e = append(b, int64(bs)), append(e, int64(lo), int64(r.IntN(n*bs-lo+1)))
			}
			for j := r.IntN(2); j > 0; j-- {
				sh = append(sh, 1+r.IntN(2))
			}
			return dcase{in: []dinput{dvar(rnd(r, sh...)), dfix(ndarray.Must(ndarray.FromSlice(b, m))), dfix(ndarray.Must(ndarray.FromSlice(e, m, 2)))}}
		},
		"extract_image_patches": func(r *rand.Rand) dcase {
			k, st, rt := []int64{int64(1 + r.IntN(3)), int64(1 + r.IntN(3))}, []int64{int64(1 + r.IntN(2)), int64(1 + r.IntN(2))}, []int64{int64(1 + r.IntN(2)), int64(1 + r.IntN(2))}
			same := int64(r.IntN(2))
			h, w := int((k[0]-1)*rt[0]+1)+r.IntN(3), int((k[1]-1)*rt[1]+1)+r.IntN(3)
			return dcase{args: ops.Args{I: []int64{k[0], k[1], st[0], st[1], rt[0], rt[1], same}},
				in: []dinput{dvar(rnd(r, 1+r.IntN(2), h, w, 1+r.IntN(2)))}}
		},
		"lrn": func(r *rand.Rand) dcase {
			return dcase{args: ops.Args{F: []float64{1 + r.Float64(), 0.1 + r.Float64(), 0.25 + r.Float64()}, I: []int64{int64(r.IntN(4))}},
				in: []dinput{dvar(rnd(r, 1+r.IntN(2), 1+r.IntN(2), 1+r.IntN(2), 1+r.IntN(6)))}}
		},
		"dilation2d": func(r *rand.Rand) dcase {
			same, rh, rw, sh, sw := int64(r.IntN(2)), int64(1+r.IntN(2)), int64(1+r.IntN(2)), int64(1+r.IntN(2)), int64(1+r.IntN(2))
			kh, kw, c := 1+r.IntN(3), 1+r.IntN(3), 1+r.IntN(2)
			h, w := (kh-1)*int(rh)+1+r.IntN(3), (kw-1)*int(rw)+1+r.IntN(3)
			return dcase{args: ops.Args{I: []int64{same, 1, rh, rw, 1, 1, sh, sw, 1}},
				in: []dinput{dvar(rnd(r, 1+r.IntN(2), h, w, c)), dvar(rnd(r, kh, kw, c))}}
		},
	} {
		familyDgens[name] = g
	}
}
