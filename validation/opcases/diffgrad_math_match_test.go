package opcases_test

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Random differential cases of the merges, meshgrid and embedding_lookup
// (ops/math_merge.go); the condition and index ops are not differentiable.

func init() {
	merge := func(r *rand.Rand) dcase {
		s := randShape(r, 3)
		in := make([]dinput, 1+r.IntN(3))
		for i := range in {
			in[i] = dvar(rnd(r, s...))
		}
		return dcase{in: in}
	}
	meshgrid := func(r *rand.Rand) dcase {
		in := make([]dinput, 1+r.IntN(3))
		for i := range in {
			in[i] = dvar(rnd(r, 1+r.IntN(3)))
		}
		return dcase{args: ops.Args{I: []int64{int64(r.IntN(2))}}, in: in}
	}
	embedding := func(r *rand.Rand) dcase {
		s := randShape(r, 2)
		rows := 1 + r.IntN(3)
		ids := make([]int64, 1+r.IntN(4))
		for i := range ids {
			ids[i] = int64(r.IntN(rows))
		}
		return dcase{in: []dinput{dvar(rnd(r, append([]int{rows}, s...)...)), dfix(ndarray.Must(ndarray.FromSlice(ids, len(ids))))}}
	}
	for name, g := range map[string]dgen{
		"mergeavg":         merge,
		"mergemax":         merge,
		"meshgrid":         meshgrid,
		"embedding_lookup": embedding,
	} {
		familyDgens[name] = g
	}
}
