package opcases

import (
	"math"
	"math/rand/v2"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Cases of the condition and index ops (ops/math_match.go) and of the
// merges, meshgrid, embedding_lookup, confusion_matrix and listdiff
// (ops/math_merge.go). Every expected value is worked by hand from the
// definitions in those files (libnd4j's MatchCondition modes, ...).

func init() {
	v := func(x ...float64) *ndarray.Array { return f64([]int{len(x)}, x...) }
	w := func(x ...float32) *ndarray.Array { return f32([]int{len(x)}, x...) }
	b := func(x ...bool) *ndarray.Array { return bools([]int{len(x)}, x...) }
	m23 := f64([]int{2, 3}, 1, 2, 3, 4, 5, 6)
	nan, inf := math.NaN(), math.Inf(1)
	odd := v(1, -2, 3, nan, inf)
	cond := func(compare, eps float64, mode int, dims ...int) ops.Args {
		return ops.Args{F: []float64{compare, eps, float64(mode)}, Dims: dims, B: []bool{false}}
	}
	none := ops.Args{}
	T, F := true, false
	cases := []fwd{
		{"match_condition_transform greater than", "match_condition_transform", cond(1.5, 0, 3), arrays(odd), arrays(b(F, F, T, F, T)), 0},
		{"match_condition_transform equals within eps", "match_condition_transform", cond(3.05, 0.1, 0), arrays(odd), arrays(b(F, F, T, F, F)), 0},
		{"match_condition_transform is NaN", "match_condition_transform", cond(0, 0, 9), arrays(odd), arrays(b(F, F, F, T, F)), 0},
		{"match_condition_transform is Inf", "match_condition_transform", cond(0, 0, 8), arrays(odd), arrays(b(F, F, F, F, T)), 0},
		{"match_condition_transform is finite", "match_condition_transform", cond(0, 0, 14), arrays(odd), arrays(b(T, T, T, F, F)), 0},
		{"match_condition_transform is Inf or NaN", "match_condition_transform", cond(0, 0, 15), arrays(odd), arrays(b(F, F, F, T, T)), 0},
		{"match_condition_transform |x| > 1.5", "match_condition_transform", cond(1.5, 0, 7), arrays(odd), arrays(b(F, T, T, F, T)), 0},
		{"match_condition_transform |x| < 2.5 int32", "match_condition_transform", cond(2.5, 0, 6), arrays(i32([]int{3}, 1, -2, 3)), arrays(b(T, T, F)), 0},
		{"match_condition_transform not equal float32", "match_condition_transform", cond(1, 0.1, 1), arrays(w(1, 1.05, 1.5)), arrays(b(F, F, T)), 0},
		{"match_condition_transform x <= 2", "match_condition_transform", cond(2, 0, 4), arrays(v(1, 2, 3)), arrays(b(T, T, F)), 0},
		{"match_condition_transform x >= 2", "match_condition_transform", cond(2, 0, 5), arrays(v(1, 2, 3)), arrays(b(F, T, T)), 0},
		{"match_condition_transform x < 2", "match_condition_transform", cond(2, 0, 2), arrays(v(1, 2, 3)), arrays(b(T, F, F)), 0},
		{"match_condition_transform exact ==", "match_condition_transform", cond(2, 5, 10), arrays(v(1, 2, 3)), arrays(b(F, T, F)), 0},
		{"match_condition_transform exact !=", "match_condition_transform", cond(2, 5, 11), arrays(v(1, 2, 3)), arrays(b(T, F, T)), 0},
		{"match_condition_transform |x| >= 2", "match_condition_transform", cond(2, 0, 12), arrays(v(-1, -2, 3)), arrays(b(F, T, T)), 0},
		{"match_condition_transform |x| <= 2", "match_condition_transform", cond(2, 0, 13), arrays(v(-1, -2, 3)), arrays(b(T, T, F)), 0},

		{"match_condition counts", "match_condition", cond(3, 0, 3), arrays(m23), arrays(ndarray.Scalar(int64(3))), 0},
		{"match_condition along axis 1", "match_condition", cond(3, 0, 3, 1), arrays(m23), arrays(i64([]int{2}, 0, 3)), 0},
		{"match_condition kept axis 0", "match_condition", ops.Args{F: []float64{3, 0, 3}, Dims: []int{0}, B: []bool{true}}, arrays(m23), arrays(i64([]int{1, 3}, 1, 1, 1)), 0},
		{"first_index along axis 1", "first_index", cond(1.5, 0, 3, 1), arrays(m23), arrays(i64([]int{2}, 1, 0)), 0},
		{"first_index of every element", "first_index", cond(1.5, 0, 3), arrays(m23), arrays(ndarray.Scalar(int64(1))), 0},
		{"first_index none is -1", "first_index", cond(10, 0, 3, ops.AllDims), arrays(m23), arrays(ndarray.Scalar(int64(-1))), 0},
		{"last_index along axis 1", "last_index", cond(4.5, 0, 2, 1), arrays(m23), arrays(i64([]int{2}, 2, 0)), 0},
		{"last_index along axis 0 float32", "last_index", cond(4, 0, 5, 0), arrays(f32([]int{2, 3}, 1, 2, 3, 4, 5, 6)), arrays(i64([]int{3}, 1, 1, 1)), 0},

		{"ismax along axis 1", "ismax", ops.Args{I: []int64{1}}, arrays(m23), arrays(f64([]int{2, 3}, 0, 0, 1, 0, 0, 1)), 0},
		{"ismax of every element", "ismax", none, arrays(m23), arrays(f64([]int{2, 3}, 0, 0, 0, 0, 0, 1)), 0},
		{"ismax marks the first tie", "ismax", none, arrays(w(3, 1, 3)), arrays(w(1, 0, 0)), 0},
		{"ismax along axis 0 int32", "ismax", ops.Args{I: []int64{0}}, arrays(i32([]int{2, 2}, 5, 1, 2, 7)), arrays(i32([]int{2, 2}, 1, 0, 0, 1)), 0},

		{"is_non_decreasing", "is_non_decreasing", none, arrays(v(1, 2, 2, 3)), arrays(ndarray.Scalar(true)), 0},
		{"is_non_decreasing false", "is_non_decreasing", none, arrays(f64([]int{3, 1}, 1, 3, 2)), arrays(ndarray.Scalar(false)), 0},
		{"is_non_decreasing empty", "is_non_decreasing", none, arrays(f64([]int{0})), arrays(ndarray.Scalar(true)), 0},
		{"is_strictly_increasing ties", "is_strictly_increasing", none, arrays(w(1, 2, 2)), arrays(ndarray.Scalar(false)), 0},
		{"is_strictly_increasing int32", "is_strictly_increasing", none, arrays(i32([]int{3}, 1, 2, 5)), arrays(ndarray.Scalar(true)), 0},
		{"is_strictly_increasing scalar", "is_strictly_increasing", none, arrays(ndarray.Scalar(4.0)), arrays(ndarray.Scalar(true)), 0},

		{"mergeavg", "mergeavg", none, arrays(v(1, 2), v(3, 6)), arrays(v(2, 4)), 0},
		{"mergeavg three float32", "mergeavg", none, arrays(w(1), w(2), w(6)), arrays(w(3)), 0},
		{"mergemax", "mergemax", none, arrays(v(1, 5), v(3, 2)), arrays(v(3, 5)), 0},
		{"mergemax int32", "mergemax", none, arrays(i32([]int{2}, 1, 5), i32([]int{2}, 3, 2), i32([]int{2}, 0, 9)), arrays(i32([]int{2}, 3, 9)), 0},
		{"mergemaxindex first tie", "mergemaxindex", none, arrays(v(1, 5, 2), v(3, 2, 2)), arrays(i32([]int{3}, 1, 0, 0)), 0},
		{"mergemaxindex int64", "mergemaxindex", ops.Args{I: []int64{int64(ndarray.Int64)}}, arrays(v(1, 5), v(3, 2), v(4, 0)), arrays(i64([]int{2}, 2, 0)), 0},
		{"mergeavg_bp", "mergeavg_bp", none, arrays(v(1, 2), v(3, 6), v(2, 4)), arrays(v(1, 2), v(1, 2)), 0},
		{"mergemax_bp", "mergemax_bp", none, arrays(v(1, 5), v(3, 2), v(10, 20)), arrays(v(0, 20), v(10, 0)), 0},

		{"meshgrid xy", "meshgrid", none, arrays(v(1, 2, 3), v(4, 5)), arrays(f64([]int{2, 3}, 1, 2, 3, 1, 2, 3), f64([]int{2, 3}, 4, 4, 4, 5, 5, 5)), 0},
		{"meshgrid ij", "meshgrid", ops.Args{I: []int64{0}}, arrays(v(1, 2, 3), v(4, 5)), arrays(f64([]int{3, 2}, 1, 1, 2, 2, 3, 3), f64([]int{3, 2}, 4, 5, 4, 5, 4, 5)), 0},
		{"meshgrid of one", "meshgrid", none, arrays(w(1, 2)), arrays(w(1, 2)), 0},

		{"embedding_lookup", "embedding_lookup", none, arrays(f64([]int{3, 2}, 1, 2, 3, 4, 5, 6), ints(2, 0, 2)), arrays(f64([]int{3, 2}, 5, 6, 1, 2, 5, 6)), 0},
		{"embedding_lookup float32 vector", "embedding_lookup", none, arrays(w(7, 8, 9), i32([]int{2}, 1, 1)), arrays(w(8, 8)), 0},

		{"confusion_matrix", "confusion_matrix", none, arrays(ints(0, 1, 2, 1), ints(0, 2, 2, 1)), arrays(i64([]int{3, 3}, 1, 0, 0, 0, 1, 1, 0, 0, 1)), 0},
		{"confusion_matrix weighted", "confusion_matrix", ops.Args{I: []int64{4}, D: []ndarray.DType{ndarray.Float64}},
			arrays(ints(0, 1, 2, 1), ints(0, 2, 2, 1), v(0.5, 1, 2, 3)),
			arrays(f64([]int{4, 4}, 0.5, 0, 0, 0, 0, 3, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0)), 0},
		{"listdiff", "listdiff", none, arrays(v(1, 2, 3, 4, 5, 6), v(1, 3, 5)), arrays(v(2, 4, 6), i64([]int{3}, 1, 3, 5)), 0},
		{"listdiff int64", "listdiff", none, arrays(ints(5, 7, 5, 9), ints(7)), arrays(ints(5, 5, 9), i64([]int{3}, 0, 2, 3)), 0},
	}
	for _, c := range cases {
		forward(c.name, c.op, c.args, c.in, c.want, c.tol)
	}

	rng := rand.New(rand.NewPCG(26, 11))
	n := func(shape ...int) input { return in(randn(rng, shape...)) }
	for _, c := range []grd{
		{"mergeavg", "mergeavg", none, []input{n(2, 3), n(2, 3), n(2, 3)}},
		{"mergemax", "mergemax", none, []input{in(v(1, -2, 3)), in(v(0.5, 4, -1))}},
		{"meshgrid", "meshgrid", none, []input{n(3), n(2), n(2)}},
		{"meshgrid ij", "meshgrid", ops.Args{I: []int64{0}}, []input{n(2), n(3)}},
		{"embedding_lookup repeats", "embedding_lookup", none, []input{n(4, 2), fixed(ints(3, 0, 3))}},
	} {
		gradient(c.name, c.op, c.args, c.in)
	}
}
