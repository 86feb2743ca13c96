package opcases

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Cases of l2_loss and the cross-entropies of logits
// (ops/loss_logits.go), worked out by hand in the comments.

func init() {
	s := ndarray.Scalar[float64]
	lse := math.Log(math.Exp(1) + math.Exp(2) + math.Exp(3)) // of logits 1, 2, 3
	ln3 := math.Log(3)
	logits := f64([]int{2, 3}, 1, 2, 3, 1, 2, 3)
	for _, c := range []fwd{
		// (1 + 4 + 9)/2.
		{"l2_loss", "l2_loss", ops.Args{}, arrays(f64([]int{3}, 1, -2, 3)), arrays(s(7)), 0},
		{"l2_loss float32", "l2_loss", ops.Args{}, arrays(f32([]int{2, 2}, 1, 1, 1, 1)), arrays(f32([]int{}, 2)), 0},
		// One-hot labels 2 and 0: lse - 3 and lse - 1.
		{"softmax_cross_entropy_loss_with_logits", "softmax_cross_entropy_loss_with_logits", ops.Args{},
			arrays(logits, f64([]int{2, 3}, 0, 0, 1, 1, 0, 0)), arrays(f64([]int{2}, lse-3, lse-1)), 1e-14},
		// The same, classes along axis 0.
		{"softmax_cross_entropy_loss_with_logits axis 0", "softmax_cross_entropy_loss_with_logits", ops.Args{I: []int64{0}},
			arrays(f64([]int{3, 2}, 1, 1, 2, 2, 3, 3), f64([]int{3, 2}, 0, 1, 0, 0, 1, 0)), arrays(f64([]int{2}, lse-3, lse-1)), 1e-14},
		{"softmax_cross_entropy_loss_with_logits float32", "softmax_cross_entropy_loss_with_logits", ops.Args{},
			arrays(f32([]int{2}, 0, float32(ln3)), f32([]int{2}, 0, 1)), arrays(f32([]int{}, float32(-math.Log(0.75)))), 1e-7},
		{"sparse_softmax_cross_entropy_loss_with_logits", "sparse_softmax_cross_entropy_loss_with_logits", ops.Args{},
			arrays(i32([]int{2}, 2, 0), logits), arrays(f64([]int{2}, lse-3, lse-1)), 1e-14},
		{"sparse_softmax_cross_entropy_loss_with_logits float32", "sparse_softmax_cross_entropy_loss_with_logits", ops.Args{},
			arrays(i64([]int{}, 1), f32([]int{2}, 0, float32(ln3))), arrays(f32([]int{}, float32(-math.Log(0.75)))), 1e-7},
		// t = 1, x = 0: 2·ln 2 (q = 2); t = 0, x = 1: 1 + ln(1+e^-1).
		{"weighted_cross_entropy_with_logits", "weighted_cross_entropy_with_logits", ops.Args{},
			arrays(f64([]int{2}, 1, 0), f64([]int{2}, 0, 1), s(2)), arrays(f64([]int{2}, 2*math.Ln2, 1+math.Log1p(math.Exp(-1)))), 1e-15},
		// q = 3 for the second class: at t = 1, x = -1, (1+2)·ln(1+e).
		{"weighted_cross_entropy_with_logits vector weights", "weighted_cross_entropy_with_logits", ops.Args{},
			arrays(f64([]int{2, 2}, 1, 0, 0, 1), f64([]int{2, 2}, 0, 1, 0, -1), f64([]int{2}, 2, 3)),
			arrays(f64([]int{2, 2}, 2*math.Ln2, 1+math.Log1p(math.Exp(-1)), math.Ln2, 3*math.Log1p(math.E))), 1e-15},
		{"weighted_cross_entropy_with_logits float32", "weighted_cross_entropy_with_logits", ops.Args{},
			arrays(f32([]int{1}, 1), f32([]int{1}, 0), f32([]int{}, 2)), arrays(f32([]int{1}, float32(2*math.Ln2))), 1e-7},
		// softmax(0, ln 3) = (1/4, 3/4): against labels (1, 0), dz = (-3/4, 3/4)
		// and dlabels = -log softmax = (2 ln 2, ln 4/3); scaled by gradO 2.
		{"softmax_cross_entropy_loss_with_logits_grad", "softmax_cross_entropy_loss_with_logits_grad", ops.Args{},
			arrays(f64([]int{1, 2}, 0, ln3), f64([]int{1, 2}, 1, 0), f64([]int{1}, 2)),
			arrays(f64([]int{1, 2}, -1.5, 1.5), f64([]int{1, 2}, 4*math.Ln2, 2*math.Log(4.0/3))), 1e-15},
		{"sparse_softmax_cross_entropy_loss_with_logits_grad", "sparse_softmax_cross_entropy_loss_with_logits_grad", ops.Args{},
			arrays(i32([]int{1}, 0), f64([]int{1, 2}, 0, ln3)), arrays(f64([]int{1, 2}, -0.75, 0.75)), 1e-15},
	} {
		forward(c.name, c.op, c.args, c.in, c.want, c.tol)
	}

	rng := rand.New(rand.NewPCG(26, 7))
	r := func(shape ...int) input { return in(randn(rng, shape...)) }
	u := func(lo, hi float64, shape ...int) input { return in(randu(rng, lo, hi, shape...)) }
	for i, c := range []grd{
		{"l2_loss", "l2_loss", ops.Args{}, []input{r(3, 2)}},
		{"softmax_cross_entropy_loss_with_logits", "softmax_cross_entropy_loss_with_logits", ops.Args{}, []input{r(3, 4), u(0, 1, 3, 4)}},
		{"softmax_cross_entropy_loss_with_logits axis 0", "softmax_cross_entropy_loss_with_logits", ops.Args{I: []int64{0}}, []input{r(3, 4), u(0, 1, 3, 4)}},
		{"sparse_softmax_cross_entropy_loss_with_logits", "sparse_softmax_cross_entropy_loss_with_logits", ops.Args{},
			[]input{fixed(i64([]int{3}, 0, 3, 1)), r(3, 4)}},
		{"weighted_cross_entropy_with_logits", "weighted_cross_entropy_with_logits", ops.Args{}, []input{u(0, 1, 3, 4), r(3, 4), u(0.5, 2, 4)}},
		{"weighted_cross_entropy_with_logits scalar weight", "weighted_cross_entropy_with_logits", ops.Args{}, []input{u(0, 1, 3, 2), r(3, 2), u(0.5, 2)}},
	} {
		gradient(fmt.Sprint(c.name, " ", i), c.op, c.args, c.in)
	}
}
