package opcases

import (
	"math"
	"math/rand/v2"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Cases of the normalisation and layer ops (ops/nn_norm.go,
// ops/nn_layer.go) and of the bitwise ops (ops/bitwise.go). The float
// values come from this numpy script (numpy 1.24, float64):
//
//	import numpy as np
//	x = np.arange(24.).reshape(2,3,4)*0.5 - 3 + np.sin(np.arange(24)).reshape(2,3,4)
//	m = np.array([0.5, -1, 2]); v = np.array([1.5, 0.25, 4])
//	ga = np.array([2, -1, 0.5]); be = np.array([0.1, 0.2, -0.3]); eps = 1e-3
//	B = lambda p: p.reshape(1,3,1)
//	bn = (x - B(m)) / np.sqrt(B(v) + eps) * B(ga) + B(be)
//	mu = x.mean(axis=(1,2), keepdims=True); sd = x.std(axis=(1,2), keepdims=True)
//	lg = np.array([1.5, -0.5, 2]); lb = np.array([0.25, 0, -1])
//	ln = (x - mu)/sd * B(lg) + B(lb)
//	g = np.cos(np.arange(24)).reshape(2,3,4)          # batchnorm_bp's gradO
//	s = 1/np.sqrt(B(v)+eps); xc = x - B(m); N = 8; ax = (0,2)
//	sg = g.sum(ax, keepdims=True); sgx = (g*xc).sum(ax, keepdims=True); sxc = xc.sum(ax, keepdims=True)
//	dx = B(ga)*(s*(g - sg/N) + (xc - sxc/N)*(-s**3*sgx/N))   # libnd4j's batch-statistics form
//	dG = sgx*s; dB = sg
//	X = np.array([[1., 2, -1], [0.5, -3, 2]])
//	W = np.array([[1., 0, 2, -1], [0.5, 1, -1, 3], [2, -2, 0.25, 1]]); b = np.array([0.1, -0.2, 0.3, 0])
//	xw = X@W + b; rl = np.maximum(xw, 0)

var (
	normX = []float64{-3, -1.6585290151921035, -1.0907025731743185, -1.3588799919401329, -1.7568024953079284, -1.4589242746631386,
		-0.2794154981989259, 1.156986598718789, 1.9893582466233817, 1.9121184852417565, 1.4559788891106302, 1.5000097934492966,
		2.463427081999565, 3.920167036826641, 4.99060735569487, 5.150287840157117, 4.712096683334934, 4.538602508120443,
		5.249012753228324, 6.649877209662952, 7.912945250727628, 8.336655638536056, 7.991148690709596, 7.65377959582483}
	normBN = []float64{-5.613571859855694, -3.4236887542524634, -2.4967409884253793, -2.93452697508512, 1.7105868320980415, 1.1160183410259685,
		-1.2382952838861057, -4.105371048903319, -0.3026601058517026, -0.32196763290704816, -0.4359882802495869, -0.424981929872741,
		3.3051947784546547, 5.6832486107482065, 7.430687948902626, 7.691358212500232, -11.201413297409688, -10.855116848667025,
		-12.273104194507988, -15.069246404085824, 1.1780515677817687, 1.2839659262664178, 1.1975999843778893, 1.1132682514645524}
	normLN = []float64{-2.2744543640658628, -1.0581619347399611, -0.5433218745233794, -0.7864744792796665, 0.46575502811953, 0.37572773004290605,
		0.01924652113517788, -0.4148751795288772, 1.6657665712447498, 1.5723903317033847, 1.0209567250898086, 1.0741863078488296,
		-2.535435731168033, -1.3183667476696, -0.4240412323545868, -0.2906322706074822, 0.30224325920297257, 0.3505599082547396,
		0.15271671004234094, -0.23741210106596833, 1.3566631399038815, 1.8286620662544175, 1.443779105833649, 1.0679614361439982}
	normBpDx = []float64{1.1918145344133428, 0.5001559785273479, -1.0363201048428776, -1.9848437277840056, -28.385998412729798, -28.072225700069097,
		-20.77199712573839, -9.82567480039979, -0.13737203986525565, -0.3345014620268452, -0.3504207867999701, -0.13629742058233024,
		1.1762859053134398, 1.3439228206276983, 0.13267841728368615, -1.3236938235386324, 19.663889073944205, 17.029207995619732,
		20.372145121249876, 29.99065384812328, 0.44165574754196735, 0.23425216156387818, 0.09550649224606036, 0.1871773079224954}
)

func to32(a *ndarray.Array) *ndarray.Array { return ndarray.Must(ndarray.Cast(a, ndarray.Float32)) }

func init() {
	sh := []int{2, 3, 4}
	x := f64(sh, normX...)
	m, v := f64([]int{3}, 0.5, -1, 2), f64([]int{3}, 1.5, 0.25, 4)
	ga, be := f64([]int{3}, 2, -1, 0.5), f64([]int{3}, 0.1, 0.2, -0.3)
	bnArgs := ops.Args{I: []int64{1, 1, 1}, F: []float64{1e-3}}
	forward("batchnorm axis 1", "batchnorm", bnArgs, arrays(x, m, v, ga, be), arrays(f64(sh, normBN...)), 1e-12)
	forward("batchnorm axis 1 float32", "batchnorm", bnArgs, arrays(to32(x), to32(m), to32(v), to32(ga), to32(be)),
		arrays(to32(f64(sh, normBN...))), 2e-5)
	// No gamma nor beta, the default last axis: (x - m)/√(v + eps) by hand.
	forward("batchnorm last axis", "batchnorm", ops.Args{I: []int64{0, 0}, F: []float64{0}},
		arrays(f64([]int{2, 2}, 1, 2, 3, 4), f64([]int{2}, 1, 0), f64([]int{2}, 4, 1)),
		arrays(f64([]int{2, 2}, 0, 2, 1, 4)), 1e-15)
	forward("layer_norm axes 1 2", "layer_norm", ops.Args{I: []int64{1, 2}},
		arrays(x, f64([]int{3}, 1.5, -0.5, 2), f64([]int{3}, 0.25, 0, -1)), arrays(f64(sh, normLN...)), 1e-12)
	forward("layer_norm float32", "layer_norm", ops.Args{I: []int64{1, 2}},
		arrays(to32(x), f32([]int{3}, 1.5, -0.5, 2), f32([]int{3}, 0.25, 0, -1)), arrays(to32(f64(sh, normLN...))), 2e-5)
	// A constant row standardises to 0 (libnd4j's NaN replaced), channels
	// last: [[1 3] [2 2]] over axis 1 → [[-1 1] [0 0]]·gain.
	forward("layer_norm constant row channels last", "layer_norm", ops.Args{I: []int64{1}, B: []bool{false}},
		arrays(f64([]int{2, 2}, 1, 3, 2, 2), f64([]int{2}, 2, 3)), arrays(f64([]int{2, 2}, -2, 3, 0, 0)), 1e-15)

	// batchnorm_bp in libnd4j's form (mean and variance the batch's).
	g := ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.Unary(ndarray.Cos, counting(0, 24), 0)), sh...))
	forward("batchnorm_bp batch statistics", "batchnorm_bp", bnArgs, arrays(x, m, v, ga, be, g),
		arrays(f64(sh, normBpDx...), f64([]int{3}, 0, 0, 0), f64([]int{3}, 0, 0, 0),
			f64([]int{3}, -0.26305622478821195, 14.726722167864661, -4.762084560277718),
			f64([]int{3}, 1.2625130182522524, 1.760289613649053, -3.563717171920603)), 1e-11)

	X := f64([]int{2, 3}, 1, 2, -1, 0.5, -3, 2)
	W := f64([]int{3, 4}, 1, 0, 2, -1, 0.5, 1, -1, 3, 2, -2, 0.25, 1)
	b := f64([]int{4}, 0.1, -0.2, 0.3, 0)
	xw := []float64{0.1, 3.8, 0.05, 4, 3.1, -7.2, 4.8, -7.5}
	forward("xw_plus_b", "xw_plus_b", ops.Args{}, arrays(X, W, b), arrays(f64([]int{2, 4}, xw...)), 1e-14)
	forward("xw_plus_b float32", "xw_plus_b", ops.Args{}, arrays(to32(X), to32(W), to32(b)), arrays(to32(f64([]int{2, 4}, xw...))), 1e-6)
	Xt := ndarray.Must(ndarray.Contiguous(ndarray.Must(ndarray.Permute(X, 1, 0))))
	Wt := ndarray.Must(ndarray.Contiguous(ndarray.Must(ndarray.Permute(W, 1, 0))))
	forward("xw_plus_b transposed", "xw_plus_b", ops.Args{I: []int64{1, 1}}, arrays(Xt, Wt, b), arrays(f64([]int{2, 4}, xw...)), 1e-14)
	forward("relu_layer", "relu_layer", ops.Args{}, arrays(X, W, b), arrays(f64([]int{2, 4}, 0.1, 3.8, 0.05, 4, 3.1, 0, 4.8, 0)), 1e-14)

	// top_k by hand; ties keep the lower index first.
	tx := f64([]int{2, 4}, 3, 1, 4, 1, 5, 9, 2, 6)
	forward("top_k sorted", "top_k", ops.Args{I: []int64{2}}, arrays(tx),
		arrays(f64([]int{2, 2}, 4, 3, 9, 6), i64([]int{2, 2}, 2, 0, 1, 3)), 0)
	forward("top_k unsorted", "top_k", ops.Args{I: []int64{3}, B: []bool{false}}, arrays(tx),
		arrays(f64([]int{2, 3}, 3, 1, 4, 5, 9, 6), i64([]int{2, 3}, 0, 1, 2, 0, 1, 3)), 0)
	forward("top_k int32 k input", "top_k", ops.Args{}, arrays(i32([]int{4}, 7, -1, 7, 2), i64(nil, 2)),
		arrays(i32([]int{2}, 7, 7), i64([]int{2}, 0, 2)), 0)
	forward("top_k float32 default k 1", "top_k", ops.Args{}, arrays(f32([]int{3}, 0.5, 2.5, -1)),
		arrays(f32([]int{1}, 2.5), i64([]int{1}, 1)), 0)

	// The bitwise ops by hand: 12 = 0b1100, 10 = 0b1010.
	a32, b32 := i32([]int{2}, 12, -8), i32([]int{2}, 10, 3)
	forward("bitwise_and", "bitwise_and", ops.Args{}, arrays(a32, b32), arrays(i32([]int{2}, 8, 0)), 0)
	forward("bitwise_or", "bitwise_or", ops.Args{}, arrays(a32, b32), arrays(i32([]int{2}, 14, -5)), 0)
	forward("bitwise_xor int64 broadcast", "bitwise_xor", ops.Args{}, arrays(i64([]int{2, 1}, 12, 5), i64([]int{2}, 10, 1)),
		arrays(i64([]int{2, 2}, 6, 13, 15, 4)), 0)
	forward("shift_bits", "shift_bits", ops.Args{}, arrays(i32([]int{3}, 3, -1, 1), i32([]int{3}, 2, 4, 32)), arrays(i32([]int{3}, 12, -16, 0)), 0)
	forward("rshift_bits", "rshift_bits", ops.Args{}, arrays(i64([]int{3}, 12, -16, 5), i64(nil, 2)), arrays(i64([]int{3}, 3, -4, 1)), 0)
	// Rotations: 1<<31 rotated left by 1 is 1; 1 rotated right by 1 is
	// 1<<31 = math.MinInt32; -1 stays -1.
	forward("cyclic_shift_bits", "cyclic_shift_bits", ops.Args{}, arrays(i32([]int{3}, math.MinInt32, 3, -1), i32([]int{3}, 1, 33, 5)),
		arrays(i32([]int{3}, 1, 6, -1)), 0)
	forward("cyclic_rshift_bits", "cyclic_rshift_bits", ops.Args{}, arrays(i32([]int{2}, 1, 6), i32([]int{2}, 1, 1)),
		arrays(i32([]int{2}, math.MinInt32, 3)), 0)
	forward("cyclic_rshift_bits int64", "cyclic_rshift_bits", ops.Args{}, arrays(i64([]int{1}, 1), i64([]int{1}, 1)),
		arrays(i64([]int{1}, math.MinInt64)), 0)
	// 12^10 = 0b0110 (2 bits), -1^0 (32 bits): 34.
	forward("bits_hamming_distance", "bits_hamming_distance", ops.Args{}, arrays(i32([]int{2}, 12, -1), i32([]int{1, 2}, 10, 0)),
		arrays(i64(nil, 34)), 0)

	// xw_plus_b_bp by hand with gradO all ones: dx rows are W's row sums,
	// dw columns X's column sums, db the row count.
	forward("xw_plus_b_bp", "xw_plus_b_bp", ops.Args{}, arrays(X, W, b, fullOf(ndarray.Float64, 1, 2, 4)),
		arrays(f64([]int{2, 3}, 2, 3.5, 1.25, 2, 3.5, 1.25), f64([]int{3, 4}, 1.5, 1.5, 1.5, 1.5, -1, -1, -1, -1, 1, 1, 1, 1), f64([]int{4}, 2, 2, 2, 2)), 1e-14)
	// layer_norm_bp (numpy, float64):
	//	x = np.array([[1., 2, 6], [0, -1, 4]]); gain = np.array([1.5, -1, 0.5]); g = np.array([[1., -2, 0.5], [0.25, 1, -1]])
	//	mu = x.mean(1, keepdims=True); sd = x.std(1, keepdims=True); z = (x-mu)/sd; dz = g*gain
	//	dx = (dz - dz.mean(1, keepdims=True) - z*(dz*z).mean(1, keepdims=True))/sd; dgain = (g*z).sum(0); dbias = g.sum(0)
	forward("layer_norm_bp", "layer_norm_bp", ops.Args{I: []int64{1}, B: []bool{false}},
		arrays(f64([]int{2, 3}, 1, 2, 6, 0, -1, 4), f64([]int{3}, 1.5, -1, 0.5), f64([]int{3}, 0.1, 0.2, 0.3), f64([]int{2, 3}, 1, -2, 0.5, 0.25, 1, -1)),
		arrays(f64([]int{2, 3}, -0.16532501781652695, 0.20665627227065883, -0.04133125445413187, 0.35131566286011995, -0.28105253028809596, -0.07026313257202399),
			f64([]int{3}, -1.0415476122441203, 0, -0.6943650748294136), f64([]int{3}, 1.25, -1, -0.5)), 1e-13)

	rng := rand.New(rand.NewPCG(26, 10))
	pos := func(shape ...int) *ndarray.Array { return randu(rng, 0.5, 2, shape...) }
	gradient("batchnorm axis 1", "batchnorm", bnArgs, []input{in(randn(rng, 2, 3, 4)), in(randn(rng, 3)), in(pos(3)), in(randn(rng, 3)), in(randn(rng, 3))})
	gradient("batchnorm two axes", "batchnorm", ops.Args{I: []int64{1, 0, 0, 2}, F: []float64{1e-3}},
		[]input{in(randn(rng, 2, 3, 4)), in(randn(rng, 2, 1, 4)), in(pos(2, 1, 4)), in(randn(rng, 2, 1, 4))})
	gradient("layer_norm", "layer_norm", ops.Args{I: []int64{1, 2}}, []input{in(randn(rng, 2, 3, 4)), in(randn(rng, 3)), in(randn(rng, 3))})
	gradient("layer_norm channels last", "layer_norm", ops.Args{I: []int64{1}, B: []bool{false}}, []input{in(randn(rng, 3, 4)), in(randn(rng, 4))})
	gradient("xw_plus_b", "xw_plus_b", ops.Args{}, []input{in(randn(rng, 2, 3)), in(randn(rng, 3, 4)), in(randn(rng, 4))})
	gradient("xw_plus_b transposed", "xw_plus_b", ops.Args{I: []int64{1, 1}}, []input{in(randn(rng, 3, 2)), in(randn(rng, 4, 3)), in(randn(rng, 4))})
	gradient("relu_layer", "relu_layer", ops.Args{}, []input{in(f64([]int{2, 2}, 1, -2, 0.5, 3)), in(f64([]int{2, 3}, 1, -1, 0.5, 2, 0.25, -3)), in(f64([]int{3}, 0.1, 0.2, -0.3))})
	gradient("top_k", "top_k", ops.Args{I: []int64{2}}, []input{in(f64([]int{2, 4}, 0.3, -1, 2, 0.7, 5, -3, 1.5, 0.1))})
}
