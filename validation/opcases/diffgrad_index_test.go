package opcases_test

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	"github.com/sdgo/sdgo/validation/opcases"
)

// Random differential cases of the base namespace's gathering, slicing and
// scattering ops (ops/base_gather.go, base_slice.go, base_scatter.go):
// random shapes, axes written either way, indices with repeats, arguments
// as int args or as inputs.

// nonEmpty returns a shape of rank 1..maxRank with sizes 1..3.
func nonEmpty(r *rand.Rand, maxRank int) []int {
	s := randShape(r, maxRank-1)
	return append([]int{1 + r.IntN(3)}, s...)
}

// randIdx returns an int64 array of the given shape with values in [0, n).
func randIdx(r *rand.Rand, n int, shape ...int) *ndarray.Array {
	size := 1
	for _, d := range shape {
		size *= d
	}
	v := make([]int64, size)
	for i := range v {
		v[i] = int64(r.IntN(n))
	}
	return ndarray.Must(ndarray.Wrap(v, shape...))
}

// maybeNeg writes axis a of a rank-n array negative half the time.
func maybeNeg(r *rand.Rand, a, n int) int64 {
	if r.IntN(2) == 0 {
		return int64(a - n)
	}
	return int64(a)
}

func genGather(r *rand.Rand) dcase {
	s := nonEmpty(r, 3)
	axis := r.IntN(len(s))
	x := dvar(rnd(r, s...))
	ax := maybeNeg(r, axis, len(s))
	if r.IntN(3) == 0 { // indices in the int args
		k := 1 + r.IntN(3)
		a := ops.Args{I: []int64{ax}}
		for i := 0; i < k; i++ {
			a.I = append(a.I, int64(r.IntN(s[axis])))
		}
		return dcase{args: a, in: []dinput{x}}
	}
	idx := dfix(randIdx(r, s[axis], randShape(r, 2)...))
	return dcase{args: ops.Args{I: []int64{ax}}, in: []dinput{x, idx}}
}

func genGatherND(r *rand.Rand) dcase {
	s := nonEmpty(r, 3)
	k := 1 + r.IntN(len(s))
	m := 1 + r.IntN(3)
	v := make([]int64, m*k)
	for i := range v {
		v[i] = int64(r.IntN(s[i%k]))
	}
	return dcase{in: []dinput{dvar(rnd(r, s...)), dfix(ndarray.Must(ndarray.Wrap(v, m, k)))}}
}

func genSlice(r *rand.Rand) dcase {
	s := nonEmpty(r, 3)
	var begin, size []int64
	for _, d := range s {
		b := r.IntN(d)
		n := int64(1 + r.IntN(d-b))
		if r.IntN(4) == 0 {
			n = -1
		}
		begin, size = append(begin, int64(b)), append(size, n)
	}
	x := dvar(rnd(r, s...))
	if r.IntN(2) == 0 {
		return dcase{args: ops.Args{I: append(begin, size...)}, in: []dinput{x}}
	}
	return dcase{in: []dinput{x, dfix(i64s(begin...)), dfix(i64s(size...))}}
}

func genSplit(r *rand.Rand) dcase {
	s := nonEmpty(r, 3)
	axis := r.IntN(len(s))
	num := 1 + r.IntN(3)
	s[axis] = num * (1 + r.IntN(2))
	x := dvar(rnd(r, s...))
	ax := maybeNeg(r, axis, len(s))
	switch r.IntN(3) {
	case 0:
		return dcase{args: ops.Args{I: []int64{int64(num), ax}}, in: []dinput{x}}
	case 1:
		return dcase{args: ops.Args{I: []int64{int64(num)}}, in: []dinput{dfix(ndarray.Must(ndarray.Wrap([]int64{ax}))), x}}
	}
	return dcase{args: ops.Args{I: []int64{int64(num)}}, in: []dinput{x, dfix(ndarray.Must(ndarray.Wrap([]int64{ax})))}}
}

func genSplitV(r *rand.Rand) dcase {
	s := nonEmpty(r, 3)
	axis := r.IntN(len(s))
	var sizes []int64
	total := 0
	for n := 1 + r.IntN(3); n > 0; n-- {
		k := r.IntN(3)
		sizes = append(sizes, int64(k))
		total += k
	}
	if total == 0 {
		sizes[0], total = 1, 1
	}
	s[axis] = total
	if r.IntN(3) == 0 {
		sizes[r.IntN(len(sizes))] = -1
	}
	x := dvar(rnd(r, s...))
	ax := maybeNeg(r, axis, len(s))
	if r.IntN(2) == 0 {
		return dcase{args: ops.Args{I: []int64{ax}}, in: []dinput{x, dfix(i64s(sizes...))}}
	}
	return dcase{in: []dinput{x, dfix(i64s(sizes...)), dfix(ndarray.Must(ndarray.Wrap([]int64{ax})))}}
}

func genReverse(r *rand.Rand) dcase {
	s := nonEmpty(r, 3)
	var ax []int64
	for i := range s {
		if r.IntN(2) == 0 {
			ax = append(ax, maybeNeg(r, i, len(s)))
		}
	}
	x := dvar(rnd(r, s...))
	if len(ax) > 0 && r.IntN(2) == 0 {
		return dcase{in: []dinput{x, dfix(i64s(ax...))}}
	}
	return dcase{args: ops.Args{I: ax}, in: []dinput{x}}
}

// genPrefix draws cumsum's and cumprod's flags and axis (none: every
// element), as int args or an axis input.
func genPrefix(r *rand.Rand) dcase {
	s := nonEmpty(r, 3)
	a := ops.Args{I: []int64{int64(r.IntN(2)), int64(r.IntN(2))}}
	x := dvar(rnd(r, s...))
	switch r.IntN(3) {
	case 0:
		return dcase{args: a, in: []dinput{x}}
	case 1:
		a.I = append(a.I, maybeNeg(r, r.IntN(len(s)), len(s)))
		return dcase{args: a, in: []dinput{x}}
	}
	ax := ndarray.Must(ndarray.Wrap([]int64{maybeNeg(r, r.IntN(len(s)), len(s))}))
	return dcase{args: a, in: []dinput{x, dfix(ax)}}
}

func genWhere(r *rand.Rand) dcase {
	s := nonEmpty(r, 3)
	cs := s
	if r.IntN(3) == 0 {
		cs = s[:1]
	}
	size := 1
	for _, d := range cs {
		size *= d
	}
	c := make([]bool, size)
	for i := range c {
		c[i] = r.IntN(2) == 0
	}
	cond := dfix(ndarray.Must(ndarray.Wrap(c, cs...)))
	return dcase{in: []dinput{cond, dvar(rnd(r, s...)), dvar(rnd(r, s...))}}
}

// genScatter returns a generator of first-axis scatters with ref and
// update values from vr and vu.
func genScatter(vr, vu func(r *rand.Rand, s ...int) *ndarray.Array) dgen {
	return func(r *rand.Rand) dcase {
		s := nonEmpty(r, 3)
		is := randShape(r, 2)
		us := append(append([]int(nil), is...), s[1:]...)
		return dcase{in: []dinput{dvar(vr(r, s...)), dfix(randIdx(r, s[0], is...)), dvar(vu(r, us...))}}
	}
}

func genScatterND(r *rand.Rand) dcase {
	s := nonEmpty(r, 3)
	k := 1 + r.IntN(len(s))
	m := 1 + r.IntN(3)
	v := make([]int64, m*k)
	for i := range v {
		v[i] = int64(r.IntN(s[i%k]))
	}
	us := append([]int{m}, s[k:]...)
	return dcase{in: []dinput{dvar(rnd(r, s...)), dfix(ndarray.Must(ndarray.Wrap(v, m, k))), dvar(rnd(r, us...))}}
}

func genFlatten(r *rand.Rand) dcase {
	var in []dinput
	for n := 1 + r.IntN(3); n > 0; n-- {
		in = append(in, dvar(rnd(r, randShape(r, 3)...)))
	}
	a := ops.Args{}
	switch r.IntN(3) {
	case 0:
		a.I = []int64{'f'}
	case 1:
		a.I = []int64{'c'}
	}
	return dcase{args: a, in: in}
}

func genRepeat(r *rand.Rand) dcase {
	s := nonEmpty(r, 3)
	axis := r.IntN(len(s))
	var reps []int64
	if r.IntN(2) == 0 {
		reps = []int64{int64(r.IntN(3))}
	} else {
		for i := 0; i < s[axis]; i++ {
			reps = append(reps, int64(r.IntN(3)))
		}
	}
	return dcase{args: ops.Args{I: append(reps, maybeNeg(r, axis, len(s)))}, in: []dinput{dvar(rnd(r, s...))}}
}

func genReverseSequence(r *rand.Rand) dcase {
	s := append(nonEmpty(r, 2), 1+r.IntN(3))
	p := r.Perm(len(s))
	seq, batch := p[0], p[1]
	lens := make([]int64, s[batch])
	for i := range lens {
		lens[i] = int64(r.IntN(s[seq] + 1))
	}
	return dcase{args: ops.Args{I: []int64{maybeNeg(r, seq, len(s)), int64(batch)}}, in: []dinput{dvar(rnd(r, s...)), dfix(i64s(lens...))}}
}

// genSegment returns a generator of segment reductions over rows drawn
// by vals: sorted ids (gaps allowed) or unsorted ids covering every
// segment (an empty unsorted max or min is ∓Inf), the count as int arg 0
// or an input.
func genSegment(vals func(r *rand.Rand, s ...int) *ndarray.Array, sorted bool) dgen {
	return func(r *rand.Rand) dcase {
		s := nonEmpty(r, 3)
		rows := s[0] + 1 + r.IntN(3)
		s[0] = rows
		x := dvar(vals(r, s...))
		ids := make([]int64, rows)
		if sorted {
			id := int64(0)
			for i := range ids {
				id += int64(r.IntN(3) / 2 * (1 + r.IntN(2)))
				ids[i] = id
			}
			return dcase{in: []dinput{x, dfix(i64s(ids...))}}
		}
		num := 1 + r.IntN(rows)
		for i := range ids {
			ids[i] = int64(r.IntN(num))
			if i < num {
				ids[i] = int64(i)
			}
		}
		r.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		if r.IntN(2) == 0 {
			return dcase{args: ops.Args{I: []int64{int64(num)}}, in: []dinput{x, dfix(i64s(ids...))}}
		}
		return dcase{in: []dinput{x, dfix(i64s(ids...)), dfix(ndarray.Must(ndarray.Wrap([]int64{int64(num)})))}}
	}
}

func init() {
	nonZero := func(r *rand.Rand, s ...int) *ndarray.Array { return away(r, 0.5, 2, s...) }
	for name, g := range map[string]dgen{
		"gather":           genGather,
		"gather_nd":        genGatherND,
		"slice":            genSlice,
		"split":            genSplit,
		"split_v":          genSplitV,
		"reverse":          genReverse,
		"cumsum":           genPrefix,
		"cumprod":          genPrefix,
		"Where":            genWhere,
		"where_np":         genWhere,
		"scatter_add":      genScatter(rnd, rnd),
		"scatter_sub":      genScatter(rnd, rnd),
		"scatter_mul":      genScatter(rnd, nonZero),
		"scatter_div":      genScatter(rnd, nonZero),
		"scatter_max":      genScatter(opcases.Distinct, opcases.Shifted),
		"scatter_min":      genScatter(opcases.Distinct, opcases.Shifted),
		"scatter_upd":      genScatter(rnd, rnd),
		"scatter_nd_add":   genScatterND,
		"scatter_nd_sub":   genScatterND,
		"flatten":          genFlatten,
		"repeat":           genRepeat,
		"reverse_sequence": genReverseSequence,

		"segment_sum":             genSegment(rnd, true),
		"segment_mean":            genSegment(rnd, true),
		"segment_max":             genSegment(opcases.Distinct, true),
		"segment_min":             genSegment(opcases.Distinct, true),
		"segment_prod":            genSegment(rnd, true),
		"unsorted_segment_sum":    genSegment(rnd, false),
		"unsorted_segment_mean":   genSegment(rnd, false),
		"unsorted_segment_max":    genSegment(opcases.Distinct, false),
		"unsorted_segment_min":    genSegment(opcases.Distinct, false),
		"unsorted_segment_prod":   genSegment(rnd, false),
		"unsorted_segment_sqrt_n": genSegment(rnd, false),
	} {
		familyDgens[name] = g
	}
}
