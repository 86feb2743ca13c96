package opcases_test

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Random differential cases of dynamic_partition and dynamic_stitch
// (ops/base_partition.go): random data shapes, partition numbers and
// stitch orders (each row named once, so the gradient is exact).

func init() {
	for name, g := range map[string]dgen{
		"dynamic_partition": func(r *rand.Rand) dcase {
			s := nonEmpty(r, 3)
			k := 1 + r.IntN(len(s)) // the partitions' rank
			n := 1 + r.IntN(3)
			size := 1
			for _, d := range s[:k] {
				size *= d
			}
			p := make([]int32, size)
			for i := range p {
				p[i] = int32(r.IntN(n))
			}
			idx := ndarray.Must(ndarray.Wrap(p, s[:k]...))
			return dcase{args: ops.Args{I: []int64{int64(n)}}, in: []dinput{dvar(rnd(r, s...)), dfix(idx)}}
		},
		"dynamic_stitch": func(r *rand.Rand) dcase {
			rows := 1 + r.IntN(5)
			rest := randShape(r, 2)
			perm := r.Perm(rows)
			cut := r.IntN(rows + 1)
			var idx, data []dinput
			for _, part := range [][]int{perm[:cut], perm[cut:]} {
				v := make([]int64, len(part))
				for i, x := range part {
					v[i] = int64(x)
				}
				idx = append(idx, dfix(ndarray.Must(ndarray.Wrap(v, len(v)))))
				data = append(data, dvar(rnd(r, append([]int{len(v)}, rest...)...)))
			}
			return dcase{in: append(idx, data...)}
		},
	} {
		familyDgens[name] = g
	}
}
