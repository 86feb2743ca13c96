package opcases

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Cases of the statistics, distances and clipping ops (ops/math_stats.go,
// ops/math_distance.go, ops/math_clip.go).
//
// Forward values are worked by hand on small inputs; the irrational ones
// come from CPython's math module (float32 ones rounded with
// struct.pack('f')):
//
//	import math, struct
//	f32 = lambda v: struct.unpack('f', struct.pack('f', v))[0]
//	print(math.sqrt(3.5), math.sqrt(4.5))            # std of 1..6, of (1, 4)
//	s = math.sqrt(2/3); print(s, -1/(3*s), 1/s, (1/6)/s, -1/3/s, 1/(s+1e-12))
//	H = -(0.25*math.log(0.25)*2 + 0.5*math.log(0.5)); print(H, math.log(H), f32(H))
//	print(math.sqrt(13), 13/(5*math.sqrt(14)), 1-13/(5*math.sqrt(14)))
//	print(f32(13/(5*math.sqrt(14))), f32(math.sqrt(13)))

func init() {
	v := func(x ...float64) *ndarray.Array { return f64([]int{len(x)}, x...) }
	w := func(x ...float32) *ndarray.Array { return f32([]int{len(x)}, x...) }
	m23 := f64([]int{2, 3}, 1, 2, 3, 4, 5, 6)
	none := ops.Args{}
	dims := func(keep bool, d ...int) ops.Args { return ops.Args{Dims: d, B: []bool{keep}} }
	const tol, tol32 = 1e-14, 1e-6
	const s = 0.816496580927726 // √(2/3), the uncorrected std of (1, 2, 3)
	cases := []fwd{
		// var and std: corrected by default (float arg 0 = 1).
		{"var of every element, corrected", "var", none, arrays(m23), arrays(ndarray.Scalar(3.5)), tol},
		{"var along axis 1 uncorrected", "var", ops.Args{Dims: []int{1}, F: []float64{0}}, arrays(m23), arrays(v(2.0/3, 2.0/3)), tol},
		{"var axes from an input", "var", ops.Args{Dims: []int{ops.AllDims}}, arrays(m23, ints(0)), arrays(v(4.5, 4.5, 4.5)), tol},
		{"var float32", "var", dims(false, 1), arrays(f32([]int{2, 3}, 1, 2, 3, 4, 5, 6)), arrays(w(1, 1)), tol32},
		{"std of every element", "std", none, arrays(m23), arrays(ndarray.Scalar(1.8708286933869707)), tol},
		{"std along axis 0 kept", "std", dims(true, 0), arrays(m23), arrays(f64([]int{1, 3}, 2.1213203435596424, 2.1213203435596424, 2.1213203435596424)), tol},
		{"std uncorrected float32", "std", ops.Args{Dims: []int{-1}, F: []float64{0}}, arrays(w(1, 2, 3)), arrays(f32(nil, s)), tol32},

		// d var/dx = 2(x-mean)/n; d std/dx = (x-mean)/(n·std).
		{"reduce_variance_bp uncorrected", "reduce_variance_bp", none, arrays(v(1, 2, 3), ndarray.Scalar(1.0)), arrays(v(-2.0/3, 0, 2.0/3)), tol},
		{"reduce_variance_bp corrected", "reduce_variance_bp", ops.Args{B: []bool{false, true}}, arrays(v(1, 2, 3), ndarray.Scalar(2.0)), arrays(v(-2, 0, 2)), tol},
		{"reduce_stdev_bp", "reduce_stdev_bp", none, arrays(v(1, 2, 3), ndarray.Scalar(1.0)), arrays(v(-0.4082482904638631, 0, 0.4082482904638631)), tol},
		{"reduce_stdev_bp of a constant is 0", "reduce_stdev_bp", none, arrays(v(2, 2), ndarray.Scalar(1.0)), arrays(v(0, 0)), 0},

		{"moments along axis 1", "moments", ops.Args{I: []int64{1}}, arrays(m23), arrays(v(2, 5), v(2.0/3, 2.0/3)), tol},
		{"moments keepDims as float arg", "moments", ops.Args{I: []int64{1}, F: []float64{1}}, arrays(m23), arrays(f64([]int{2, 1}, 2, 5), f64([]int{2, 1}, 2.0/3, 2.0/3)), tol},
		{"moments of every element float32", "moments", none, arrays(w(1, 2, 3, 6)), arrays(f32(nil, 3), f32(nil, 3.5)), tol32},

		// mean = means/c + shift, variance = variances/c - (means/c)².
		{"normalize_moments", "normalize_moments", none, arrays(ndarray.Scalar(2.0), v(2, 6), v(10, 20)), arrays(v(1, 3), v(4, 1)), 0},
		{"normalize_moments shifted", "normalize_moments", ops.Args{F: []float64{0.5}}, arrays(ndarray.Scalar(2.0), v(2, 6), v(10, 20)), arrays(v(1.5, 3.5), v(4, 1)), 0},

		{"standardize rows", "standardize", ops.Args{I: []int64{1}}, arrays(m23),
			arrays(f64([]int{2, 3}, -1.224744871390089, 0, 1.224744871390089, -1.224744871390089, 0, 1.224744871390089)), 1e-12},
		{"standardize a constant gives 0", "standardize", ops.Args{I: []int64{-1}}, arrays(f32([]int{1, 2}, 2, 2)), arrays(f32([]int{1, 2}, 0, 0)), 0},
		// dx = (g - mean g - y·mean(g·y))/σ with y = (x-μ)/σ.
		{"standardize_bp", "standardize_bp", ops.Args{I: []int64{0}}, arrays(v(1, 2, 3), v(1, 0, 0)),
			arrays(v(0.2041241452319315, -0.408248290463863, 0.2041241452319315)), 1e-14},
		{"standardize_bp axes input", "standardize_bp", none, arrays(v(1, 2, 3), ints(0), v(1, 0, 0)),
			arrays(v(0.2041241452319315, -0.408248290463863, 0.2041241452319315)), 1e-14},

		{"zero_fraction", "zero_fraction", none, arrays(v(0, 1, 0, 2.5)), arrays(ndarray.Scalar(0.5)), 0},
		{"zero_fraction int32", "zero_fraction", none, arrays(i32([]int{2, 2}, 0, 0, 0, 5)), arrays(ndarray.Scalar(0.75)), 0},
		{"zero_fraction empty", "zero_fraction", none, arrays(f64([]int{0})), arrays(ndarray.Scalar(0.0)), 0},

		{"entropy", "entropy", none, arrays(v(0.25, 0.5, 0.25)), arrays(ndarray.Scalar(1.0397207708399179)), tol},
		{"entropy float32", "entropy", none, arrays(w(0.25, 0.5, 0.25)), arrays(f32(nil, 1.0397207736968994)), tol32},
		{"entropy along axis 1", "entropy", dims(false, 1), arrays(f64([]int{2, 2}, 0.5, 0.5, 1, 1)), arrays(v(0.6931471805599453, 0)), tol},
		{"logentropy", "logentropy", none, arrays(v(0.25, 0.5, 0.25)), arrays(ndarray.Scalar(0.03895218752649997)), tol},
		{"shannonentropy is in bits", "shannonentropy", none, arrays(v(0.25, 0.5, 0.25)), arrays(ndarray.Scalar(1.5)), tol},
		{"shannonentropy kept float32", "shannonentropy", dims(true, 0), arrays(w(0.5, 0.5)), arrays(f32([]int{1}, 1)), tol32},

		// Distances of x = (1, 2, 3) and y = (4, 0, 3).
		{"manhattan", "manhattan", none, arrays(v(1, 2, 3), v(4, 0, 3)), arrays(ndarray.Scalar(5.0)), 0},
		{"euclidean", "euclidean", none, arrays(v(1, 2, 3), v(4, 0, 3)), arrays(ndarray.Scalar(3.605551275463989)), tol},
		{"euclidean float32", "euclidean", none, arrays(w(1, 2, 3), w(4, 0, 3)), arrays(f32(nil, 3.605551242828369)), tol32},
		{"cosinesimilarity", "cosinesimilarity", none, arrays(v(1, 2, 3), v(4, 0, 3)), arrays(ndarray.Scalar(0.6948792289723034)), tol},
		{"cosinesimilarity float32", "cosinesimilarity", none, arrays(w(1, 2, 3), w(4, 0, 3)), arrays(f32(nil, 0.6948792338371277)), tol32},
		{"cosinedistance", "cosinedistance", none, arrays(v(1, 2, 3), v(4, 0, 3)), arrays(ndarray.Scalar(0.30512077102769664)), tol},
		{"jaccarddistance", "jaccarddistance", none, arrays(v(1, 2, 3), v(4, 0, 3)), arrays(ndarray.Scalar(5.0 / 9)), tol},
		{"hammingdistance", "hammingdistance", none, arrays(v(1, 2, 3), v(4, 0, 3)), arrays(ndarray.Scalar(2.0 / 3)), tol},
		{"manhattan along axis 1", "manhattan", dims(false, 1), arrays(f64([]int{2, 2}, 1, 2, 3, 4), f64([]int{2, 2}, 1, 0, 3, 0)), arrays(v(2, 4)), 0},
		{"euclidean along axis 1 kept", "euclidean", dims(true, 1), arrays(f64([]int{2, 2}, 1, 2, 3, 4), f64([]int{2, 2}, 1, 0, 3, 0)), arrays(f64([]int{2, 1}, 2, 4)), 0},
		{"hammingdistance along axis 0 float32", "hammingdistance", dims(false, 0), arrays(f32([]int{2, 2}, 1, 2, 3, 4), f32([]int{2, 2}, 1, 0, 3, 0)), arrays(w(0, 1)), 0},
		{"cosinesimilarity every axis marker", "cosinesimilarity", ops.Args{Dims: []int{ops.AllDims}}, arrays(v(1, 0), v(0, 2)), arrays(ndarray.Scalar(0.0)), 0},

		{"ClipByValue", "ClipByValue", ops.Args{F: []float64{-1, 2}}, arrays(v(-3, 0.5, 2, 5)), arrays(v(-1, 0.5, 2, 2)), 0},
		{"ClipByValue float32", "ClipByValue", ops.Args{F: []float64{-1, 2}}, arrays(w(-3, 0.5, 5)), arrays(w(-1, 0.5, 2)), 0},
		{"ClipByValue int32", "ClipByValue", ops.Args{F: []float64{0, 4}}, arrays(i32([]int{3}, -3, 1, 9)), arrays(i32([]int{3}, 0, 1, 4)), 0},
		{"clipbyvalue_bp", "clipbyvalue_bp", ops.Args{F: []float64{-1, 2}}, arrays(v(-3, 0.5, 2, 5), v(1, 2, 3, 4)), arrays(v(0, 2, 3, 0)), 0},
		{"clipbynorm clips", "clipbynorm", ops.Args{F: []float64{2.5}}, arrays(v(3, 4)), arrays(v(1.5, 2)), tol},
		{"clipbynorm leaves a small norm", "clipbynorm", ops.Args{F: []float64{10}}, arrays(v(3, 4)), arrays(v(3, 4)), 0},
		{"clipbynorm along axis 1", "clipbynorm", ops.Args{F: []float64{1}, I: []int64{1}}, arrays(f64([]int{2, 2}, 3, 4, 0.3, 0.4)), arrays(f64([]int{2, 2}, 0.6, 0.8, 0.3, 0.4)), tol},
		{"clipbynorm float32", "clipbynorm", ops.Args{F: []float64{2.5}}, arrays(w(3, 4)), arrays(w(1.5, 2)), tol32},
		{"clipbyavgnorm", "clipbyavgnorm", ops.Args{F: []float64{2}}, arrays(v(3, 4)), arrays(v(2.4, 3.2)), tol},
		// dx = L/‖x‖·(g - x·Σ(g·x)/‖x‖²) where clipped (L = clip, or clip·n
		// for the average norm), else g.
		{"clipbynorm_bp", "clipbynorm_bp", ops.Args{F: []float64{2.5}}, arrays(v(3, 4), v(1, 0)), arrays(v(0.32, -0.24)), tol},
		{"clipbynorm_bp unclipped", "clipbynorm_bp", ops.Args{F: []float64{10}}, arrays(v(3, 4), v(1, 0)), arrays(v(1, 0)), 0},
		{"clipbyavgnorm_bp", "clipbyavgnorm_bp", ops.Args{F: []float64{2}}, arrays(v(3, 4), v(1, 0)), arrays(v(0.512, -0.384)), tol},
	}
	for _, c := range cases {
		forward(c.name, c.op, c.args, c.in, c.want, c.tol)
	}

	rng := rand.New(rand.NewPCG(26, 9))
	n := func(shape ...int) input { return in(randn(rng, shape...)) }
	u := func(lo, hi float64, shape ...int) input { return in(randu(rng, lo, hi, shape...)) }
	for _, c := range []grd{
		{"var", "var", dims(false, 1), []input{n(2, 3)}},
		{"var uncorrected every axis", "var", ops.Args{F: []float64{0}}, []input{n(2, 3)}},
		{"std", "std", dims(true, 0), []input{n(3, 2)}},
		{"std axes input", "std", ops.Args{Dims: []int{ops.AllDims}}, []input{n(2, 3), fixed(ints(1))}},
		{"moments", "moments", ops.Args{I: []int64{0}}, []input{n(3, 2)}},
		{"moments every axis", "moments", none, []input{n(2, 2)}},
		{"normalize_moments", "normalize_moments", ops.Args{F: []float64{0.3}}, []input{fixed(ndarray.Scalar(3.0)), n(2, 2), u(1, 2, 2, 2)}},
		{"standardize", "standardize", ops.Args{I: []int64{1}}, []input{n(2, 4)}},
		{"standardize two axes", "standardize", ops.Args{I: []int64{0, 2}}, []input{n(2, 2, 3)}},
		{"entropy", "entropy", dims(false, 1), []input{u(0.1, 0.9, 2, 3)}},
		{"logentropy", "logentropy", none, []input{u(0.1, 0.9, 2, 3)}},
		{"shannonentropy", "shannonentropy", dims(true, 0), []input{u(0.1, 0.9, 2, 3)}},
		{"manhattan", "manhattan", dims(false, 1), []input{n(2, 3), n(2, 3)}},
		{"euclidean", "euclidean", none, []input{n(2, 3), n(2, 3)}},
		{"cosinesimilarity", "cosinesimilarity", dims(true, 0), []input{n(3, 2), n(3, 2)}},
		{"cosinedistance", "cosinedistance", dims(false, 1), []input{n(2, 3), n(2, 3)}},
		{"jaccarddistance", "jaccarddistance", dims(false, 1), []input{u(0.2, 2, 2, 3), u(0.2, 2, 2, 3)}},
		{"ClipByValue", "ClipByValue", ops.Args{F: []float64{-0.5, 0.5}}, []input{in(f64([]int{4}, -1.2, -0.3, 0.2, 0.9))}},
		{"clipbynorm", "clipbynorm", ops.Args{F: []float64{1}, I: []int64{1}}, []input{in(f64([]int{2, 2}, 3, 4, 0.3, 0.4))}},
		{"clipbyavgnorm", "clipbyavgnorm", ops.Args{F: []float64{1}}, []input{in(f64([]int{3}, 3, -4, 1))}},
	} {
		gradient(c.name, c.op, c.args, c.in)
	}
}
