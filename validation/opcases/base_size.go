package opcases

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ops"
)

// Cases of the base namespace's size and layout ops (ops/base_size.go),
// worked out by hand: y = [[1 2 3] [4 5 6]] read by columns is 1 4 2 5 3 6;
// numpy's repeat of [[1 2 3] [4 5 6]] by [1 0 2] along axis 1 is
// [[1 3 3] [4 6 6]]; reverse_sequence reverses the first lengths[b]
// elements of each row (or column) b.

func init() {
	I := func(v ...int64) ops.Args { return ops.Args{I: v} }
	y := counting(1, 2, 3)
	s := func(sh ...int) []int { return sh }
	for _, c := range []fwd{
		{"size", "size", ops.Args{}, arrays(y), arrays(i64(nil, 6)), 0},
		{"size of a bool scalar", "size", ops.Args{}, arrays(bools(nil, true)), arrays(i64(nil, 1)), 0},
		{"rank", "rank", ops.Args{}, arrays(y), arrays(i32(nil, 2)), 0},
		{"size_at -1", "size_at", I(-1), arrays(y), arrays(i64(nil, 3)), 0},
		{"size_at 0, int32", "size_at", I(0), arrays(i32(s(4, 1), 1, 2, 3, 4)), arrays(i64(nil, 4)), 0},
		{"flatten c", "flatten", I('c'), arrays(y, f64(s(2), 7, 8)), arrays(f64(s(8), 1, 2, 3, 4, 5, 6, 7, 8)), 0},
		{"flatten f", "flatten", I('f'), arrays(y, f64(s(2), 7, 8)), arrays(f64(s(8), 1, 4, 2, 5, 3, 6, 7, 8)), 0},
		{"flatten default, int32", "flatten", ops.Args{}, arrays(i32(s(2, 1), 1, 2)), arrays(i32(s(2), 1, 2)), 0},
		{"repeat one count", "repeat", I(2, 0), arrays(f64(s(2, 2), 1, 2, 3, 4)), arrays(f64(s(4, 2), 1, 2, 1, 2, 3, 4, 3, 4)), 0},
		{"repeat per element", "repeat", I(1, 0, 2, 1), arrays(y), arrays(f64(s(2, 3), 1, 3, 3, 4, 6, 6)), 0},
		{"repeat bool, axis -1", "repeat", I(2, -1), arrays(bools(s(1, 2), true, false)), arrays(bools(s(1, 4), true, true, false, false)), 0},
		{"reverse_sequence rows", "reverse_sequence", I(1, 0), arrays(counting(1, 2, 4), i64(s(2), 3, 1)),
			arrays(f64(s(2, 4), 3, 2, 1, 4, 5, 6, 7, 8)), 0},
		{"reverse_sequence columns", "reverse_sequence", I(0, 1), arrays(counting(1, 3, 2), i32(s(2), 2, 3)),
			arrays(f64(s(3, 2), 3, 6, 1, 4, 5, 2)), 0},
	} {
		forward(c.name, c.op, c.args, c.in, c.want, c.tol)
	}
	rng := rand.New(rand.NewPCG(26, 9))
	r := func(sh ...int) input { return in(randn(rng, sh...)) }
	for _, c := range []grd{
		{"flatten c", "flatten", I('c'), []input{r(2, 3), r(2)}},
		{"flatten f", "flatten", I('f'), []input{r(2, 3), r(3, 1, 2)}},
		{"repeat one count", "repeat", I(3, 1), []input{r(2, 2, 2)}},
		{"repeat per element", "repeat", I(2, 0, 1, -2), []input{r(3, 2)}},
		{"reverse_sequence", "reverse_sequence", I(1, 0), []input{r(3, 4), fixed(ints(4, 0, 2))}},
	} {
		gradient(c.name, c.op, c.args, c.in)
	}
}
