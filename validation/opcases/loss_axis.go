package opcases

import (
	"fmt"
	"math/rand/v2"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Cases of cosine_distance_loss and mean_pairwssqerr_loss
// (ops/loss_axis.go), worked out by hand in the comments.

func init() {
	s := ndarray.Scalar[float64]
	cosP := f64([]int{2, 2}, 1, 0, 0.6, 0.8)
	cosY := f64([]int{2, 2}, 1, 0, 0, 1)
	// Differences (1, 2, 3) and (1, 1, 1): n = 3, 4/6·(3·14 - 36) = 4
	// (the 12 ordered pairs' squares 1, 4, 1 twice, over 3), and 0.
	pwP := f64([]int{2, 3}, 1, 2, 3, 1, 1, 1)
	pwY := f64([]int{2, 3}, 0, 0, 0, 0, 0, 0)
	for _, c := range []fwd{
		// Σ p·y along axis 1: 1 and 0.8, so losses 0 and 0.2.
		{"cosine_distance_loss none", "cosine_distance_loss", ops.Args{I: []int64{0, 1}},
			arrays(cosP, s(1), cosY), arrays(f64([]int{2, 1}, 0, 0.2)), 1e-15},
		{"cosine_distance_loss mean", "cosine_distance_loss", ops.Args{I: []int64{3, -1}},
			arrays(cosP, s(1), cosY), arrays(s(0.1)), 1e-15},
		// Along axis 0: Σ = 1 and 0.8 as well (the columns).
		{"cosine_distance_loss axis 0 weighted sum", "cosine_distance_loss", ops.Args{I: []int64{1, 0}},
			arrays(f64([]int{2, 2}, 1, 0.6, 0, 0.8), f64([]int{1, 2}, 3, 5), f64([]int{2, 2}, 1, 0, 0, 1)), arrays(s(1)), 1e-15},
		{"cosine_distance_loss float32", "cosine_distance_loss", ops.Args{I: []int64{1, 1}},
			arrays(f32([]int{1, 2}, 0.5, 0.5), f32([]int{}, 1), f32([]int{1, 2}, 1, 0)), arrays(f32([]int{}, 0.5)), 0},
		{"mean_pairwssqerr_loss none", "mean_pairwssqerr_loss", ops.Args{I: []int64{0}},
			arrays(pwP, s(1), pwY), arrays(f64([]int{2}, 4, 0)), 1e-14},
		{"mean_pairwssqerr_loss mean", "mean_pairwssqerr_loss", ops.Args{},
			arrays(pwP, s(1), pwY), arrays(s(2)), 1e-14},
		// Per-example weights 0.5, 2 (shape [2 1]): sum 2.
		{"mean_pairwssqerr_loss weighted sum", "mean_pairwssqerr_loss", ops.Args{I: []int64{1}},
			arrays(pwP, f64([]int{2, 1}, 0.5, 2), pwY), arrays(s(2)), 1e-14},
		{"mean_pairwssqerr_loss float32", "mean_pairwssqerr_loss", ops.Args{I: []int64{1}},
			arrays(f32([]int{1, 3}, 1, 2, 3), f32([]int{}, 1), f32([]int{1, 3}, 0, 0, 0)), arrays(f32([]int{}, 4)), 1e-6},
		// dl/dp = -y and dl/dy = -p for the loss 1 - p·y; the weight's
		// gradient is the loss 0.5.
		{"cosine_distance_loss_grad", "cosine_distance_loss_grad", ops.Args{I: []int64{1, 1}},
			arrays(f64([]int{1, 2}, 0.5, 0.5), s(1), f64([]int{1, 2}, 1, 0)),
			arrays(f64([]int{1, 2}, -1, 0), s(0.5), f64([]int{1, 2}, -0.5, -0.5)), 0},
		// 8/6·(3·d - 6) for d = (1, 2, 3): (-4, 0, 4).
		{"mean_pairwssqerr_loss_grad", "mean_pairwssqerr_loss_grad", ops.Args{I: []int64{1}},
			arrays(f64([]int{1, 3}, 1, 2, 3), s(1), f64([]int{1, 3}, 0, 0, 0)),
			arrays(f64([]int{1, 3}, -4, 0, 4), s(4), f64([]int{1, 3}, 4, 0, -4)), 1e-14},
	} {
		forward(c.name, c.op, c.args, c.in, c.want, c.tol)
	}

	rng := rand.New(rand.NewPCG(26, 9))
	r := func(shape ...int) input { return in(randn(rng, shape...)) }
	u := func(lo, hi float64, shape ...int) input { return in(randu(rng, lo, hi, shape...)) }
	for m := int64(0); m <= 3; m++ {
		for _, c := range []grd{
			{"cosine_distance_loss", "cosine_distance_loss", ops.Args{I: []int64{m, 1}}, []input{r(3, 4), u(0.5, 2, 3, 1), r(3, 4)}},
			{"cosine_distance_loss axis 0", "cosine_distance_loss", ops.Args{I: []int64{m, 0}}, []input{r(3, 4), u(0.5, 2), r(3, 4)}},
			{"mean_pairwssqerr_loss", "mean_pairwssqerr_loss", ops.Args{I: []int64{m}}, []input{r(3, 4), u(0.5, 2, 3, 1), r(3, 4)}},
			{"mean_pairwssqerr_loss rank 3", "mean_pairwssqerr_loss", ops.Args{I: []int64{m}}, []input{r(2, 3, 2), u(0.5, 2), r(2, 3, 2)}},
		} {
			gradient(fmt.Sprintf("%s mode %d", c.name, m), c.op, c.args, c.in)
		}
	}
}
