package opcases

import (
	"math"
	"math/rand/v2"

	"github.com/sdgo/sdgo/ops"
)

// Cases of the segment reductions (ops/base_segment.go), worked out by
// hand on x = [[1 2] [3 4] [5 6] [7 8]]: sorted ids [0 0 1 3] (segment 2
// empty) and unsorted ids [1 0 1 3] into 5 segments (2 and 4 empty). An
// empty segment gives 0 (1 for prod; ∓Inf for unsorted max and min, as
// TensorFlow's).

func init() {
	x := counting(1, 4, 2)
	sorted := i64([]int{4}, 0, 0, 1, 3)
	unsorted := i64([]int{4}, 1, 0, 1, 3)
	n5 := ops.Args{I: []int64{5}}
	s := func(v ...float64) []float64 { return v }
	inf := math.Inf(1)
	r2 := math.Sqrt(2)
	for _, c := range []fwd{
		{"segment_sum", "segment_sum", ops.Args{}, arrays(x, sorted), arrays(f64([]int{4, 2}, s(4, 6, 5, 6, 0, 0, 7, 8)...)), 0},
		{"segment_mean", "segment_mean", ops.Args{}, arrays(x, sorted), arrays(f64([]int{4, 2}, s(2, 3, 5, 6, 0, 0, 7, 8)...)), 0},
		{"segment_max", "segment_max", ops.Args{}, arrays(x, sorted), arrays(f64([]int{4, 2}, s(3, 4, 5, 6, 0, 0, 7, 8)...)), 0},
		{"segment_min", "segment_min", ops.Args{}, arrays(x, sorted), arrays(f64([]int{4, 2}, s(1, 2, 5, 6, 0, 0, 7, 8)...)), 0},
		{"segment_prod", "segment_prod", ops.Args{}, arrays(x, sorted), arrays(f64([]int{4, 2}, s(3, 8, 5, 6, 1, 1, 7, 8)...)), 0},
		{"segment_sum int32", "segment_sum", ops.Args{}, arrays(i32([]int{3}, 1, 2, 3), i32([]int{3}, 0, 1, 1)), arrays(i32([]int{2}, 1, 5)), 0},
		{"unsorted_segment_sum", "unsorted_segment_sum", n5, arrays(x, unsorted), arrays(f64([]int{5, 2}, s(3, 4, 6, 8, 0, 0, 7, 8, 0, 0)...)), 0},
		{"unsorted_segment_sum count input", "unsorted_segment_sum", ops.Args{}, arrays(x, unsorted, i64(nil, 4)), arrays(f64([]int{4, 2}, s(3, 4, 6, 8, 0, 0, 7, 8)...)), 0},
		{"unsorted_segment_mean", "unsorted_segment_mean", n5, arrays(x, unsorted), arrays(f64([]int{5, 2}, s(3, 4, 3, 4, 0, 0, 7, 8, 0, 0)...)), 0},
		{"unsorted_segment_max", "unsorted_segment_max", n5, arrays(x, unsorted), arrays(f64([]int{5, 2}, s(3, 4, 5, 6, -inf, -inf, 7, 8, -inf, -inf)...)), 0},
		{"unsorted_segment_min", "unsorted_segment_min", n5, arrays(x, unsorted), arrays(f64([]int{5, 2}, s(3, 4, 1, 2, inf, inf, 7, 8, inf, inf)...)), 0},
		{"unsorted_segment_prod", "unsorted_segment_prod", n5, arrays(x, unsorted), arrays(f64([]int{5, 2}, s(3, 4, 5, 12, 1, 1, 7, 8, 1, 1)...)), 0},
		{"unsorted_segment_sqrt_n", "unsorted_segment_sqrt_n", n5, arrays(x, unsorted), arrays(f64([]int{5, 2}, s(3, 4, 6/r2, 8/r2, 0, 0, 7, 8, 0, 0)...)), 1e-15},
		{"unsorted_segment_max int32", "unsorted_segment_max", ops.Args{I: []int64{2}}, arrays(i32([]int{2}, 4, -1), i32([]int{2}, 0, 0)),
			arrays(i32([]int{2}, 4, math.MinInt32)), 0},
		{"segment_sum_bp", "segment_sum_bp", ops.Args{}, arrays(x, sorted, counting(1, 4, 2)),
			arrays(f64([]int{4, 2}, s(1, 2, 1, 2, 3, 4, 7, 8)...), i64([]int{4}, 0, 0, 0, 0)), 0},
		{"segment_mean_bp", "segment_mean_bp", ops.Args{}, arrays(x, sorted, counting(1, 4, 2)),
			arrays(f64([]int{4, 2}, s(0.5, 1, 0.5, 1, 3, 4, 7, 8)...), i64([]int{4}, 0, 0, 0, 0)), 0},
		{"segment_max_bp", "segment_max_bp", ops.Args{}, arrays(x, sorted, counting(1, 4, 2)),
			arrays(f64([]int{4, 2}, s(0, 0, 1, 2, 3, 4, 7, 8)...), i64([]int{4}, 0, 0, 0, 0)), 0},
		{"segment_min_bp", "segment_min_bp", ops.Args{}, arrays(x, sorted, counting(1, 4, 2)),
			arrays(f64([]int{4, 2}, s(1, 2, 0, 0, 3, 4, 7, 8)...), i64([]int{4}, 0, 0, 0, 0)), 0},
		// dx = 10 · the product of the other factors: [10·0·3, 10·2·3, 10·2·0]
		{"segment_prod_bp through a zero", "segment_prod_bp", ops.Args{}, arrays(f64([]int{3, 1}, 2, 0, 3), i32([]int{3}, 0, 0, 0), f64([]int{1, 1}, 10)),
			arrays(f64([]int{3, 1}, 0, 60, 0), i32([]int{3}, 0, 0, 0)), 0},
		{"unsorted_segment_sum_bp", "unsorted_segment_sum_bp", n5, arrays(x, unsorted, counting(1, 5, 2)),
			arrays(f64([]int{4, 2}, s(3, 4, 1, 2, 3, 4, 7, 8)...), i64([]int{4}, 0, 0, 0, 0)), 0},
		{"unsorted_segment_mean_bp", "unsorted_segment_mean_bp", n5, arrays(x, unsorted, counting(1, 5, 2)),
			arrays(f64([]int{4, 2}, s(1.5, 2, 1, 2, 1.5, 2, 7, 8)...), i64([]int{4}, 0, 0, 0, 0)), 0},
		{"unsorted_segment_max_bp", "unsorted_segment_max_bp", n5, arrays(x, unsorted, counting(1, 5, 2)),
			arrays(f64([]int{4, 2}, s(0, 0, 1, 2, 3, 4, 7, 8)...), i64([]int{4}, 0, 0, 0, 0)), 0},
		{"unsorted_segment_min_bp", "unsorted_segment_min_bp", n5, arrays(x, unsorted, counting(1, 5, 2)),
			arrays(f64([]int{4, 2}, s(3, 4, 1, 2, 0, 0, 7, 8)...), i64([]int{4}, 0, 0, 0, 0)), 0},
		// seg 1 = rows 0 and 2: [1·5, 2·6]; dx0 = g1·[5 6], dx2 = g1·[1 2]
		{"unsorted_segment_prod_bp", "unsorted_segment_prod_bp", n5, arrays(x, unsorted, counting(1, 5, 2)),
			arrays(f64([]int{4, 2}, s(15, 24, 1, 2, 3, 8, 7, 8)...), i64([]int{4}, 0, 0, 0, 0)), 0},
		{"unsorted_segment_sqrt_n_bp", "unsorted_segment_sqrt_n_bp", n5, arrays(x, unsorted, counting(1, 5, 2)),
			arrays(f64([]int{4, 2}, s(3/r2, 4/r2, 1, 2, 3/r2, 4/r2, 7, 8)...), i64([]int{4}, 0, 0, 0, 0)), 1e-15},
	} {
		forward(c.name, c.op, c.args, c.in, c.want, c.tol)
	}

	rng := rand.New(rand.NewPCG(26, 10))
	r := func() input { return in(randn(rng, 5, 2)) }
	d := func() input { return in(Distinct(rng, 5, 2)) }
	ids := fixed(i64([]int{5}, 0, 0, 1, 1, 3))
	uids := fixed(i64([]int{5}, 2, 0, 1, 3, 2)) // no segment empty: ∓Inf would make the loss NaN
	u4 := ops.Args{I: []int64{4}}
	for _, c := range []grd{
		{"segment_sum", "segment_sum", ops.Args{}, []input{r(), ids}},
		{"segment_mean", "segment_mean", ops.Args{}, []input{r(), ids}},
		{"segment_max", "segment_max", ops.Args{}, []input{d(), ids}},
		{"segment_min", "segment_min", ops.Args{}, []input{d(), ids}},
		{"segment_prod", "segment_prod", ops.Args{}, []input{r(), ids}},
		{"unsorted_segment_sum", "unsorted_segment_sum", u4, []input{r(), uids}},
		{"unsorted_segment_sum count input", "unsorted_segment_sum", ops.Args{}, []input{r(), uids, fixed(i64(nil, 4))}},
		{"unsorted_segment_mean", "unsorted_segment_mean", u4, []input{r(), uids}},
		{"unsorted_segment_max", "unsorted_segment_max", u4, []input{d(), uids}},
		{"unsorted_segment_min", "unsorted_segment_min", u4, []input{d(), uids}},
		{"unsorted_segment_prod", "unsorted_segment_prod", u4, []input{r(), uids}},
		{"unsorted_segment_prod through a zero", "unsorted_segment_prod", u4, []input{in(f64([]int{5, 1}, 0.5, 2, 0, -1.5, 3)), uids}},
		{"unsorted_segment_sqrt_n", "unsorted_segment_sqrt_n", u4, []input{r(), uids}},
	} {
		gradient(c.name, c.op, c.args, c.in)
	}
}
