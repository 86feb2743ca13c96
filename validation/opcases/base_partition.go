package opcases

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ops"
)

// Cases of dynamic_partition, dynamic_partition_bp and dynamic_stitch
// (ops/base_partition.go), worked out by hand: [1 2 3 4 5] partitioned by
// [0 1 0 2 1] into 3 gives [1 3], [2 5], [4]; the rows of [[1 2] [3 4]
// [5 6]] by [1 0 1] into 2 give [[3 4]] and [[1 2] [5 6]];
// dynamic_partition_bp puts the partitions' gradients back in those
// places; dynamic_stitch of indices [0 2], [1 3] and data [10 30],
// [20 40] is [10 20 30 40], and a row named twice takes the later value.

func init() {
	n := func(k int64) ops.Args { return ops.Args{I: []int64{k}} }
	none := ops.Args{}
	s := func(sh ...int) []int { return sh }
	for _, c := range []fwd{
		{"dynamic_partition", "dynamic_partition", n(3), arrays(f64(s(5), 1, 2, 3, 4, 5), i32(s(5), 0, 1, 0, 2, 1)),
			arrays(f64(s(2), 1, 3), f64(s(2), 2, 5), f64(s(1), 4)), 0},
		{"dynamic_partition rows float32", "dynamic_partition", n(2), arrays(f32(s(3, 2), 1, 2, 3, 4, 5, 6), i64(s(3), 1, 0, 1)),
			arrays(f32(s(1, 2), 3, 4), f32(s(2, 2), 1, 2, 5, 6)), 0},
		{"dynamic_partition by a matrix, int32", "dynamic_partition", n(2), arrays(i32(s(2, 2), 1, 2, 3, 4), i32(s(2, 2), 1, 1, 0, 1)),
			arrays(i32(s(1), 3), i32(s(3), 1, 2, 4)), 0},
		{"dynamic_partition_bp", "dynamic_partition_bp", n(3),
			arrays(f64(s(5), 1, 2, 3, 4, 5), i32(s(5), 0, 1, 0, 2, 1), f64(s(2), 10, 30), f64(s(2), 20, 50), f64(s(1), 40)),
			arrays(f64(s(5), 10, 20, 30, 40, 50), i32(s(5), 0, 1, 0, 2, 1)), 0},
		{"dynamic_stitch", "dynamic_stitch", none, arrays(i32(s(2), 0, 2), i32(s(2), 1, 3), f64(s(2), 10, 30), f64(s(2), 20, 40)),
			arrays(f64(s(4), 10, 20, 30, 40)), 0},
		{"dynamic_stitch gap and repeat", "dynamic_stitch", none, arrays(i64(s(1), 3), i64(s(2), 0, 3), f64(s(1), 1), f64(s(2), 2, 5)),
			arrays(f64(s(4), 2, 0, 0, 5)), 0},
		{"dynamic_stitch rows float32", "dynamic_stitch", none,
			arrays(i32(s(1), 1), i32(s(1), 0), f32(s(1, 2), 1, 2), f32(s(1, 2), 3, 4)), arrays(f32(s(2, 2), 3, 4, 1, 2)), 0},
		{"dynamic_stitch int32", "dynamic_stitch", none, arrays(i32(s(2), 1, 0), i32(s(2), 1, 2)), arrays(i32(s(2), 2, 1)), 0},
	} {
		forward(c.name, c.op, c.args, c.in, c.want, c.tol)
	}
	rng := rand.New(rand.NewPCG(26, 13))
	r := func(sh ...int) input { return in(randn(rng, sh...)) }
	for _, c := range []grd{
		{"dynamic_partition", "dynamic_partition", n(3), []input{r(5), fixed(i32(s(5), 2, 0, 2, 1, 0))}},
		{"dynamic_partition rows", "dynamic_partition", n(2), []input{r(3, 2, 2), fixed(i32(s(3, 2), 1, 0, 0, 1, 1, 1))}},
		{"dynamic_stitch", "dynamic_stitch", none, []input{fixed(i32(s(2), 0, 2)), fixed(i32(s(2), 3, 1)), r(2), r(2)}},
		{"dynamic_stitch rows", "dynamic_stitch", none, []input{fixed(i32(s(1), 1)), fixed(i32(s(2), 0, 2)), r(1, 3), r(2, 3)}},
	} {
		gradient(c.name, c.op, c.args, c.in)
	}
}
