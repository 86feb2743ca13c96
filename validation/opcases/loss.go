package opcases

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Cases of SameDiff's loss ops beyond mean_sqerr_loss and
// softmax_cross_entropy_loss (ops/loss_*.go). The forward values are
// libnd4j's own test expectations where a test is named, otherwise worked
// out by hand in the comment beside the case.

// linspace32 is from, from+step, ... in float32, of the shape.
func linspace32(from, step float32, shape ...int) *ndarray.Array {
	n := ndarray.Packed(shape...).Size()
	v := make([]float32, n)
	for i := range v {
		v[i] = from + float32(i)*step
	}
	return ndarray.Must(ndarray.FromSlice(v, shape...))
}

// linspace64 is from, from+step, ... in float64, of the shape.
func linspace64(from, step float64, shape ...int) *ndarray.Array {
	n := ndarray.Packed(shape...).Size()
	v := make([]float64, n)
	for i := range v {
		v[i] = from + float64(i)*step
	}
	return ndarray.Must(ndarray.FromSlice(v, shape...))
}

// fullOf is an array of the shape holding v, in dtype dt.
func fullOf(dt ndarray.DType, v float64, shape ...int) *ndarray.Array {
	a := ndarray.Must(ndarray.Zeros(dt, shape...))
	ndarray.Must(a, ndarray.UnaryInto(ndarray.AddScalar, a, a, v))
	return a
}

func init() {
	mode := func(m int64, f ...float64) ops.Args { return ops.Args{I: []int64{m}, F: f} }
	s := ndarray.Scalar[float64]
	sh := []int{2, 3, 4}
	hingeLabels := []float32{0, 1, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 0, 1, 0}
	huberW11 := fullOf(ndarray.Float64, 0.5, sh...)
	copy(ndarray.Raw[float64](huberW11), []float64{0, 0, 0, 0})
	for _, c := range []fwd{
		// DeclarableOpsTests2 absolute_difference_loss_test_1: |(k+1) - k|·0.5.
		{"absolute_difference_loss libnd4j test_1", "absolute_difference_loss", mode(0),
			arrays(linspace32(2, 1, 2, 3, 4, 5), fullOf(ndarray.Float32, 0.5, 2, 3, 4, 5), linspace32(1, 1, 2, 3, 4, 5)),
			arrays(fullOf(ndarray.Float32, 0.5, 2, 3, 4, 5)), 0},
		// |d| = 1, 2, 0, 3 with weights 1, 1, 0, 2: sum 9 over 3 non-zero weights.
		{"absolute_difference_loss mean by nonzero", "absolute_difference_loss", ops.Args{},
			arrays(f64([]int{2, 2}, 1, 2, 3, 4), f64([]int{2, 2}, 1, 1, 0, 2), f64([]int{2, 2}, 0, 0, 3, 1)),
			arrays(s(3)), 0},
		{"absolute_difference_loss mean by weight", "absolute_difference_loss", mode(2),
			arrays(f64([]int{2, 2}, 1, 2, 3, 4), f64([]int{2, 2}, 1, 1, 0, 2), f64([]int{2, 2}, 0, 0, 3, 1)),
			arrays(s(9.0 / 4)), 0},
		// DeclarableOpsTests2 hinge_loss_test1.
		{"hinge_loss libnd4j test1", "hinge_loss", mode(0),
			arrays(linspace32(1, 1, sh...), fullOf(ndarray.Float32, 0.5, sh...), ndarray.Must(ndarray.FromSlice(hingeLabels, sh...))),
			arrays(f32(sh, 1, 0, 0, 2.5, 0, 3.5, 0, 4.5, 0, 5.5, 0, 6.5, 0, 7.5, 0, 8.5, 0, 9.5, 10, 0, 0, 11.5, 0, 12.5)), 0},
		// DeclarableOpsTests12 hinge_loss_14: a scalar weight, summed.
		{"hinge_loss libnd4j 14", "hinge_loss", mode(1),
			arrays(linspace64(1, 1, 3, 4), s(1), f64([]int{3, 4}, 0, 1, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0)),
			arrays(s(47)), 0},
		// DeclarableOpsTests2 huber_loss_test1 (delta 0.1): 0.5·(0.09k - 0.005).
		{"huber_loss libnd4j test1", "huber_loss", mode(0, 0.1),
			arrays(linspace64(1, 1, sh...), fullOf(ndarray.Float64, 0.5, sh...), linspace64(0.1, 0.1, sh...)),
			arrays(f64(sh, 0.0425, 0.0875, 0.13250001, 0.17749999, 0.22250001, 0.26750001, 0.31250003, 0.35749999, 0.4025, 0.44749999,
				0.49249998, 0.53750002, 0.58249998, 0.6275, 0.67250001, 0.71749997, 0.76249999, 0.8075, 0.85250002, 0.89749998,
				0.9425, 0.98749995, 1.03250015, 1.0775001)), 2e-7},
		// DeclarableOpsTests2 huber_loss_test11: the first four weights 0.
		{"huber_loss libnd4j test11", "huber_loss", mode(3, 0.1),
			arrays(linspace64(1, 1, sh...), huberW11, linspace64(0.1, 0.1, sh...)), arrays(s(0.65)), 1e-12},
		// d = 0.5 (inside delta 1: 0.125) and -3 (outside: 3 - 0.5).
		{"huber_loss float32", "huber_loss", mode(0, 1),
			arrays(f32([]int{2}, 0.5, -1), f32([]int{}, 1), f32([]int{2}, 0, 2)), arrays(f32([]int{2}, 0.125, 2.5)), 0},
		// DeclarableOpsTests2 log_loss_test1 (labels 1..24, so negative losses);
		// its expectations were computed in float32 (8.5e-6 off at -36.5).
		{"log_loss libnd4j test1", "log_loss", mode(0, 1e-7),
			arrays(linspace64(0.04, 0.04, sh...), fullOf(ndarray.Float64, 0.5, sh...), linspace64(1, 1, sh...)),
			arrays(f64(sh, 1.60943663, 2.48403668, 3.05256081, 3.40363169, 3.57730675, 3.59525585, 3.46986699, 3.20791793, 2.81228209,
				2.28273821, 1.61630058, 0.80721998, -0.15329313, -1.27764463, -2.5828433, -4.09208679, -5.83734226, -7.8636713,
				-10.23689461, -13.05822182, -16.49509811, -20.85659218, -26.82411766, -36.52717209)), 1e-5},
		// eps 0: -ln 0.5 and -ln(1-0.25).
		{"log_loss float32", "log_loss", mode(1, 0),
			arrays(f32([]int{2}, 0.5, 0.25), f32([]int{}, 1), f32([]int{2}, 1, 0)), arrays(f32([]int{}, float32(math.Ln2-math.Log(0.75)))), 1e-7},
		// e^c - y·c: c = 0, y = 1 gives 1; c = ln 2, y = 3 gives 2 - 3 ln 2.
		{"log_poisson_loss", "log_poisson_loss", mode(0),
			arrays(f64([]int{2}, 0, math.Ln2), s(1), f64([]int{2}, 1, 3)), arrays(f64([]int{2}, 1, 2-3*math.Ln2)), 1e-15},
		// full adds y ln y - y + ½ln(2πy): at y = 1, -1 + ½ln 2π.
		{"log_poisson_loss full", "log_poisson_loss", ops.Args{I: []int64{0, 1}},
			arrays(f64([]int{1}, 0), s(1), f64([]int{1}, 1)), arrays(f64([]int{1}, 0.5*math.Log(2*math.Pi))), 1e-15},
		{"log_poisson_loss float32 sum", "log_poisson_loss", mode(1),
			arrays(f32([]int{2}, 0, 0), f32([]int{}, 1), f32([]int{2}, 1, 3)), arrays(f32([]int{}, 2)), 0},
		// x = 0, y = 1: ln 2; x = 2, y = 0: softplus(2); x = -1, y = 1: softplus(1).
		{"sigm_cross_entropy_loss", "sigm_cross_entropy_loss", mode(0),
			arrays(f64([]int{3}, 0, 2, -1), s(1), f64([]int{3}, 1, 0, 1)),
			arrays(f64([]int{3}, math.Ln2, math.Log1p(math.Exp(2)), math.Log1p(math.E))), 1e-15},
		// Smoothing 0.5 turns label 1 into 0.75: at x = 2, 2 - 1.5 + ln(1+e^-2).
		{"sigm_cross_entropy_loss smoothing", "sigm_cross_entropy_loss", mode(1, 0.5),
			arrays(f64([]int{1}, 2), s(1), f64([]int{1}, 1)), arrays(s(0.5 + math.Log1p(math.Exp(-2)))), 1e-15},
		{"sigm_cross_entropy_loss float32", "sigm_cross_entropy_loss", mode(0),
			arrays(f32([]int{1}, 0), f32([]int{}, 1), f32([]int{1}, 1)), arrays(f32([]int{1}, float32(math.Ln2))), 0},

		// The _grad ops, summed (the output gradient 1): dL/dp, dL/dw, dL/dy.
		// p - y = 2, -1: signs.
		{"absolute_difference_loss_grad", "absolute_difference_loss_grad", mode(1),
			arrays(f64([]int{2}, 3, 1), s(1), f64([]int{2}, 1, 2)), arrays(f64([]int{2}, 1, -1), s(3), f64([]int{2}, -1, 1)), 0},
		// logits 0.5, 2 with label 1: losses 0.5, 0; only the first is active.
		{"hinge_loss_grad", "hinge_loss_grad", mode(1),
			arrays(f64([]int{2}, 0.5, 2), s(1), f64([]int{2}, 1, 1)), arrays(f64([]int{2}, -1, 0), s(0.5), f64([]int{2}, -1, 0)), 0},
		// delta 1, d = 0.5, 3: losses 0.125, 2.5; slopes d and delta·sign d.
		{"huber_loss_grad", "huber_loss_grad", mode(1, 1),
			arrays(f64([]int{2}, 0.5, 3), s(1), f64([]int{2}, 0, 0)), arrays(f64([]int{2}, 0.5, 1), s(2.625), f64([]int{2}, -0.5, -1)), 0},
		// eps 0: -y/p + (1-y)/(1-p) and ln(1-p) - ln p, with the gradient 2
		// of a mean over 2 non-zero weights (scale 1).
		{"log_loss_grad", "log_loss_grad", mode(3, 0),
			arrays(f64([]int{2}, 0.5, 0.25), s(1), f64([]int{2}, 1, 0), s(2)),
			arrays(f64([]int{2}, -2, 4.0/3), s(math.Ln2-math.Log(0.75)), f64([]int{2}, 0, math.Log(3))), 1e-15},
		// e^c - y and -c.
		{"log_poisson_loss_grad", "log_poisson_loss_grad", mode(1),
			arrays(f64([]int{2}, 0, math.Ln2), s(1), f64([]int{2}, 1, 3)), arrays(f64([]int{2}, 0, -1), s(3-3*math.Ln2), f64([]int{2}, 0, -math.Ln2)), 1e-15},
		// full: dL/dy gains ln y + 1/(2y).
		{"log_poisson_loss_grad full", "log_poisson_loss_grad", ops.Args{I: []int64{1, 1}},
			arrays(f64([]int{1}, 0), s(1), f64([]int{1}, 2)), arrays(f64([]int{1}, -1), s(1+2*math.Ln2-2+0.5*math.Log(4*math.Pi)), f64([]int{1}, math.Ln2+0.25)), 1e-15},
		// sigmoid(x) - y and -x: x = 0, ln 3 against 1, 0.
		{"sigm_cross_entropy_loss_grad", "sigm_cross_entropy_loss_grad", mode(1),
			arrays(f64([]int{2}, 0, math.Log(3)), s(1), f64([]int{2}, 1, 0)), arrays(f64([]int{2}, -0.5, 0.75), s(3*math.Ln2), f64([]int{2}, 0, -math.Log(3))), 1e-15},
	} {
		forward(c.name, c.op, c.args, c.in, c.want, c.tol)
	}

	rng := rand.New(rand.NewPCG(26, 5))
	r := func(shape ...int) input { return in(randn(rng, shape...)) }
	u := func(lo, hi float64, shape ...int) input { return in(randu(rng, lo, hi, shape...)) }
	for m := int64(0); m <= 3; m++ {
		for _, c := range []grd{
			{"absolute_difference_loss", "absolute_difference_loss", mode(m), []input{r(3, 2), u(0.5, 2, 3, 2), r(3, 2)}},
			{"absolute_difference_loss column weights", "absolute_difference_loss", mode(m), []input{r(3, 2), u(0.5, 2, 3, 1), r(3, 2)}},
			{"hinge_loss", "hinge_loss", mode(m), []input{r(3, 2), u(0.5, 2, 3, 2), u(0, 1, 3, 2)}},
			{"huber_loss", "huber_loss", mode(m, 0.7), []input{r(3, 2), u(0.5, 2, 3, 1), r(3, 2)}},
			{"log_loss", "log_loss", mode(m, 1e-7), []input{u(0.1, 0.9, 3, 2), u(0.5, 2, 3, 2), u(0, 1, 3, 2)}},
			{"log_poisson_loss", "log_poisson_loss", mode(m), []input{r(3, 2), u(0.5, 2, 3, 2), u(0.5, 3, 3, 2)}},
			{"log_poisson_loss full", "log_poisson_loss", ops.Args{I: []int64{m, 1}}, []input{r(3, 2), u(0.5, 2, 1, 2), u(0.5, 3, 3, 2)}},
			{"sigm_cross_entropy_loss", "sigm_cross_entropy_loss", mode(m), []input{r(3, 2), u(0.5, 2, 3, 2), u(0, 1, 3, 2)}},
			{"sigm_cross_entropy_loss smoothing", "sigm_cross_entropy_loss", mode(m, 0.2), []input{r(3, 2), u(0.5, 2, 3, 1), u(0, 1, 3, 2)}},
		} {
			gradient(fmt.Sprintf("%s mode %d", c.name, m), c.op, c.args, c.in)
		}
	}
}
