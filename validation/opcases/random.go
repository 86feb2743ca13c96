package opcases

import (
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Cases of the random ops and dropout (ops/random.go). A random array's
// values cannot be worked out by hand, but a degenerate distribution's can
// (a probability of 0 or 1, a zero standard deviation, an empty range), and
// those cases also run the file round trip; the statistics and the
// reproducibility of the streams are tested in package ops.

func init() {
	shape := i64([]int{2}, 2, 3)
	full := func(v float64) *ndarray.Array { return ndarray.Must(ndarray.Full(ndarray.Float32, v, 2, 3)) }
	seeded := func(f ...float64) ops.Args { return ops.Args{F: f, I: []int64{7}, D: []ndarray.DType{ndarray.Float32}} }
	for _, c := range []fwd{
		{"uniform of an empty range", "distribution_uniform", seeded(3, 3), arrays(shape), arrays(full(3)), 0},
		{"gaussian with no spread", "distribution_gaussian", seeded(-1.5, 0), arrays(shape), arrays(full(-1.5)), 0},
		{"bernoulli certain", "distribution_bernoulli", seeded(1), arrays(shape), arrays(full(1)), 0},
		{"bernoulli impossible", "distribution_bernoulli", seeded(0), arrays(shape), arrays(full(0)), 0},
		{"binomial of certain trials", "distribution_binomial", seeded(4, 1), arrays(shape), arrays(full(4)), 0},
		{"lognormal with no spread", "distribution_lognormal", seeded(0, 0), arrays(shape), arrays(full(1)), 0},
		{"truncated with no spread", "distribution_truncated", seeded(2, 0), arrays(shape), arrays(full(2)), 0},
		{"gaussian float64", "distribution_gaussian", ops.Args{F: []float64{0.25, 0}, I: []int64{1}, D: []ndarray.DType{ndarray.Float64}},
			arrays(i32([]int{1}, 3)), arrays(f64([]int{3}, 0.25, 0.25, 0.25)), 0},
		{"dropout keeping all", "dropout", ops.Args{F: []float64{1}, I: []int64{3}}, arrays(f64([]int{3}, 1, -2, 3)), arrays(f64([]int{3}, 1, -2, 3)), 0},
		{"dropout inverted, dropping none", "dropout", ops.Args{F: []float64{0}, I: []int64{3}, B: []bool{true}},
			arrays(f32([]int{2}, 1.5, -2)), arrays(f32([]int{2}, 1.5, -2)), 0},
		{"dropout_bp keeping all", "dropout_bp", ops.Args{F: []float64{1}, I: []int64{3}},
			arrays(f64([]int{3}, 1, -2, 3), f64([]int{3}, 0.5, 0.25, -1)), arrays(f64([]int{3}, 0.5, 0.25, -1)), 0},
	} {
		forward(c.name, c.op, c.args, c.in, c.want, c.tol)
	}
	// The exponential distribution has no degenerate form: a rate so large
	// that every sample is below 1e-300 (the largest, -ln(2^-53)/λ, is
	// 36.7/λ).
	forward("exponential of a huge rate", "random_exponential", ops.Args{F: []float64{1e303}, I: []int64{5}, D: []ndarray.DType{ndarray.Float64}},
		arrays(shape), arrays(ndarray.Must(ndarray.Zeros(ndarray.Float64, 2, 3))), 1e-300)

	// dropout's gradient is gradO times its own mask: exact, as the mask
	// is drawn again from the seed.
	gradient("dropout", "dropout", ops.Args{F: []float64{0.5}, I: []int64{11}}, []input{in(f64([]int{3, 4}, 0.5, -1, 2, 0.25, 3, -0.5, 1, 1.5, -2, 0.75, -0.25, 2.5))})
	gradient("dropout with a noise shape", "dropout", ops.Args{F: []float64{0.6}, I: []int64{12}},
		[]input{in(f64([]int{3, 4}, 0.5, -1, 2, 0.25, 3, -0.5, 1, 1.5, -2, 0.75, -0.25, 2.5)), fixed(i64([]int{2}, 1, 4))})
}
