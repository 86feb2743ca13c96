package opcases

import (
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Cases of the activations (ops/nn_activation.go). The forward values of
// the elementwise ones come from this numpy script (numpy 1.24, float64),
// which writes libnd4j's formulas as ops.h writes them (its derivatives in
// their overflowing e^x forms, against which sdgo's stable forms are
// checked); a float literal libnd4j writes with an f suffix is taken as
// that float32 value widened, as libnd4j's double kernels take it:
//
//	import numpy as np
//	x = np.array([-3, -1.5, -0.5, 0, 0.25, 1, 2.5, 4], dtype=np.float64)
//	g = np.array([0.5, -1, 2, 1.5, -0.5, 1, 0.25, -2], dtype=np.float64)
//	f32 = lambda v: float(np.float32(v))       # libnd4j's 1.702f etc., widened
//	sig = lambda v: 1 / (1 + np.exp(-v))
//	A, L = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946
//	def rt(v):
//	    z = 2 / 3 * v
//	    return f32(1.7159) * np.sign(z) * (1 - 1 / (1 + abs(z) + z**2 + f32(1.41645) * z**4))
//	def rtd(v):
//	    z = 2 / 3 * v
//	    a = 1 + abs(z) + z**2 + f32(1.41645) * z**4
//	    return f32(1.7159) * (2 / 3) * (1 + np.sign(z) * (2 * z + 4 * f32(1.41645) * z**3)) / a**2
//	ex = np.exp
//	fw = {
//	 "gelu": x * sig(f32(1.702) * x),
//	 "precise_gelu": x / 2 * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + (0.044715 * x)**3))),
//	 "swish": x * sig(x),
//	 "mish": x * np.tanh(np.log1p(ex(x))),
//	 "logsigmoid": np.log(sig(x)),
//	 "selu": np.where(x > 0, L * x, L * (A * ex(x) - A)),
//	 "hardtanh": np.clip(x, -1, 1),
//	 "hard_sigmoid": np.minimum(1, np.maximum(0, f32(0.2) * x + 0.5)),
//	 "softsign": x / (1 + abs(x)),
//	 "rational_tanh": rt(x),
//	 "rectified_tanh": np.maximum(0, np.tanh(x)),
//	 "cube": x**3,
//	 "relu6 s=0": np.minimum(np.maximum(x, 0), 6),
//	 "relu6 s=1": np.minimum(np.maximum(x, 1), 6),
//	 "elu": np.where(x >= 0, x, ex(x) - 1),
//	 "elu a=0.5": np.where(x >= 0, x, 0.5 * (ex(x) - 1)),
//	 "thresholdedrelu t=0.5": np.where(x > 0.5, x, 0),
//	}
//	e17 = ex(f32(1.702) * x)
//	dv = {  # libnd4j's derivative formulas as ops.h writes them
//	 "_geluderivative": e17 * (1 + e17 + f32(1.702) * x) / (1 + e17)**2,
//	 "_precise_geluderivative": 0.5 + (0.398942 * x + (0.0535161 * x)**3) / np.cosh(0.797885 * x + (0.0356774 * x)**3)**2 + 0.5 * np.tanh(0.797885 * x + (0.0356774 * x)**3),
//	 "_swishderivative": ex(x) * (x + ex(x) + 1) / (ex(x) + 1)**2,
//	 "_mishderivative": ex(x) * (4 * (x + 1) + 4 * ex(2 * x) + ex(3 * x) + ex(x) * (4 * x + 6)) / (2 * ex(x) + ex(2 * x) + 2)**2,
//	 "seluderivative": np.where(x > 0, L, A * L * ex(x)),
//	 "hardtanhderivative": np.where((x >= -1) & (x <= 1), 1.0, 0.0),
//	 "hard_sigmoidderivative": np.where((x < -2.5) | (x > 2.5), 0.0, f32(0.2)),
//	 "softsignderivative": 1 / (1 + abs(x))**2,
//	 "rational_tanh_derivative": rtd(x),
//	 "rectified_tanh_derivative": np.where(x > 0, 1 - np.tanh(x)**2, 0),
//	 "cubederivative": 3 * x**2,
//	 "leakyreluderivative a=0.1": np.where(x >= 0, 1, 0.1),
//	}
//	bp = {
//	 "elu_bp": g * np.where(x >= 0, 1, ex(x)),
//	 "elu_bp a=0.5": g * np.where(x >= 0, 1, 0.5 * ex(x)),
//	 "selu_bp": g * dv["seluderivative"],
//	 "hardtanh_bp": g * dv["hardtanhderivative"],
//	 "hardsigmoid_bp": g * dv["hard_sigmoidderivative"],
//	 "softsign_bp": g * dv["softsignderivative"],
//	 "rationaltanh_bp": g * dv["rational_tanh_derivative"],
//	 "rectifiedtanh_bp": g * dv["rectified_tanh_derivative"],
//	 "cube_bp": g * 3 * x**2,
//	 "relu6_bp": g * np.where((x > 0) & (x < 6), 1, 0),
//	 "relu6_bp s=1": g * np.where((x > 1) & (x < 6), 1, 0),
//	 "thresholdedrelu_bp t=0.5": g * np.where(x > 0.5, 1, 0),
//	}
//	for d in (fw, dv, bp):
//	    for k, v in d.items():
//	        print('"%s": {%s},' % (k, ", ".join(repr(float(a)) for a in v)))
//
// Each row is an op (with its float arg 0 after the name: s, a or t) and
// its values at actX; the _bp ops' rows are gradO·f'(x) with gradO actG.

var (
	actX = []float64{-3, -1.5, -0.5, 0, 0.25, 1, 2.5, 4}
	actG = []float64{0.5, -1, 2, 1.5, -0.5, 1, 0.25, -2}
)

var actRows = []struct {
	key string
	v   []float64
}{
	{"gelu", []float64{-0.018071308525793275, -0.10833779824586577, -0.14961156224376548, 0.0, 0.15119965022786458, 0.8457957687936359, 2.465013836843092, 3.9955852762473305}},
	{"precise_gelu", []float64{-0.02470336803737644, -0.12543151832147026, -0.15523719787575704, 0.0, 0.14960851020216867, 0.8314462256635704, 2.4546643676578133, 3.993312974347304}},
	{"swish", []float64{-0.14227761953270035, -0.27363828570953447, -0.1887703343990727, 0.0, 0.14054412522144952, 0.7310585786300049, 2.3103545499468914, 3.928055160151634}},
	{"mish", []float64{-0.14564746127562458, -0.29809974216680674, -0.22074377465173, 0.0, 0.16957240966381756, 0.8650983882673103, 2.471392304557881, 3.9974128069762385}},
	{"logsigmoid", []float64{-3.048587351573742, -1.7014132779827524, -0.9740769841801067, -0.6931471805599453, -0.5759394198788436, -0.3132616875182228, -0.0788897342925495, -0.01814992791780973}},
	{"selu", []float64{-1.6705687287671118, -1.3658143533672527, -0.6917581878028713, 0.0, 0.2626752468388701, 1.0507009873554805, 2.626752468388701, 4.202803949421922}},
	{"hardtanh", []float64{-1.0, -1.0, -0.5, 0.0, 0.25, 1.0, 1.0, 1.0}},
	{"hard_sigmoid", []float64{0.0, 0.19999999552965164, 0.3999999985098839, 0.5, 0.5500000007450581, 0.7000000029802322, 1.0, 1.0}},
	{"softsign", []float64{-0.75, -0.6, -0.3333333333333333, 0.0, 0.2, 0.5, 0.7142857142857143, 0.8}},
	{"rational_tanh", []float64{-1.6580538615356777, -1.327375238916165, -0.5421787640050545, 0.0, 0.28064583442045077, 0.9982215458427454, 1.6111047555476345, 1.695077099188457}},
	{"rectified_tanh", []float64{0.0, 0.0, 0.0, 0.0, 0.24491866240370913, 0.7615941559557649, 0.9866142981514303, 0.999329299739067}},
	{"cube", []float64{-27.0, -3.375, -0.125, 0.0, 0.015625, 1.0, 15.625, 64.0}},
	{"relu6 s=0", []float64{0.0, 0.0, 0.0, 0.0, 0.25, 1.0, 2.5, 4.0}},
	{"relu6 s=1", []float64{1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 2.5, 4.0}},
	{"elu", []float64{-0.950212931632136, -0.7768698398515702, -0.3934693402873666, 0.0, 0.25, 1.0, 2.5, 4.0}},
	{"elu a=0.5", []float64{-0.475106465816068, -0.3884349199257851, -0.1967346701436833, 0.0, 0.25, 1.0, 2.5, 4.0}},
	{"thresholdedrelu t=0.5", []float64{0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 2.5, 4.0}},
	{"_geluderivative", []float64{-0.024548322706132553, -0.09884806421795624, 0.12077808422102979, 0.5, 0.7065004434787389, 1.0677796089105305, 1.0447186644652087, 1.0064018860817407}},
	{"_precise_geluderivative", []float64{-0.03103948910358917, -0.099972837998409, 0.13964784909961478, 0.5, 0.6943062591493705, 1.055168912171164, 1.0531106032646906, 1.0090767555470623}},
	{"_swishderivative", []float64{-0.08810410601516963, -0.041294154299142925, 0.2600388126973482, 0.5, 0.6237100215701976, 0.9276705118714866, 1.099401111341527, 1.052664614891073}},
	{"_mishderivative", []float64{-0.09339311453232083, -0.06409781589225864, 0.2895106779135122, 0.6, 0.7541726677205927, 1.0490362200997918, 1.0411295301313535, 1.00443287690375}},
	{"seluderivative", []float64{0.08753061208026486, 0.392284987480124, 1.0663411530445053, 1.7580993408473766, 1.0507009873554805, 1.0507009873554805, 1.0507009873554805, 1.0507009873554805}},
	{"hardtanhderivative", []float64{0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0}},
	{"hard_sigmoidderivative", []float64{0.0, 0.20000000298023224, 0.20000000298023224, 0.20000000298023224, 0.20000000298023224, 0.20000000298023224, 0.20000000298023224, 0.0}},
	{"softsignderivative", []float64{0.0625, 0.16, 0.4444444444444444, 1.0, 0.64, 0.25, 0.08163265306122448, 0.04}},
	{"rational_tanh_derivative", []float64{0.06542753549953535, 0.5082328432244556, 1.0043794198529714, 1.1439332962036133, 1.0881130028327894, 0.802873417918128, 0.13040915705934086, 0.01916632131814852}},
	{"rectified_tanh_derivative", []float64{0.0, 0.0, 0.0, 0.0, 0.940014848806378, 0.41997434161402614, 0.026592226683160525, 0.0013409506830258655}},
	{"cubederivative", []float64{27.0, 6.75, 0.75, 0.0, 0.1875, 3.0, 18.75, 48.0}},
	{"leakyreluderivative a=0.1", []float64{0.1, 0.1, 0.1, 1.0, 1.0, 1.0, 1.0, 1.0}},
	{"elu_bp", []float64{0.02489353418393197, -0.22313016014842982, 1.2130613194252668, 1.5, -0.5, 1.0, 0.25, -2.0}},
	{"elu_bp a=0.5", []float64{0.012446767091965984, -0.11156508007421491, 0.6065306597126334, 1.5, -0.5, 1.0, 0.25, -2.0}},
	{"selu_bp", []float64{0.04376530604013243, -0.392284987480124, 2.1326823060890105, 2.637149011271065, -0.5253504936777402, 1.0507009873554805, 0.2626752468388701, -2.101401974710961}},
	{"hardtanh_bp", []float64{0.0, -0.0, 2.0, 1.5, -0.5, 1.0, 0.0, -0.0}},
	{"hardsigmoid_bp", []float64{0.0, -0.20000000298023224, 0.4000000059604645, 0.30000000447034836, -0.10000000149011612, 0.20000000298023224, 0.05000000074505806, -0.0}},
	{"softsign_bp", []float64{0.03125, -0.16, 0.8888888888888888, 1.5, -0.32, 0.25, 0.02040816326530612, -0.08}},
	{"rationaltanh_bp", []float64{0.032713767749767676, -0.5082328432244556, 2.008758839705943, 1.71589994430542, -0.5440565014163947, 0.802873417918128, 0.032602289264835216, -0.03833264263629704}},
	{"rectifiedtanh_bp", []float64{0.0, -0.0, 0.0, 0.0, -0.470007424403189, 0.41997434161402614, 0.006648056670790131, -0.002681901366051731}},
	{"cube_bp", []float64{13.5, -6.75, 1.5, 0.0, -0.09375, 3.0, 4.6875, -96.0}},
	{"relu6_bp", []float64{0.0, -0.0, 0.0, 0.0, -0.5, 1.0, 0.25, -2.0}},
	{"relu6_bp s=1", []float64{0.0, -0.0, 0.0, 0.0, -0.0, 0.0, 0.25, -2.0}},
	{"thresholdedrelu_bp t=0.5", []float64{0.0, -0.0, 0.0, 0.0, -0.0, 1.0, 0.25, -2.0}},
}

// actArgs splits a row's key into the op and its float arg 0.
func actArgs(key string) (string, ops.Args) {
	op, arg, ok := strings.Cut(key, " ")
	if !ok {
		return op, ops.Args{}
	}
	v, err := strconv.ParseFloat(arg[strings.IndexByte(arg, '=')+1:], 64)
	if err != nil {
		panic("opcases: bad activation row " + key)
	}
	return op, ops.Args{F: []float64{v}}
}

func toF32(v []float64) []float32 {
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(x)
	}
	return out
}

// actKinkFree are inputs at least 0.1 from every kink of the activations
// (0, ±1, ±2.5, 0.5, 6), for their gradient checks.
var actKinkFree = []float64{-3.3, -2.1, -1.4, -0.7, -0.2, 0.3, 0.8, 1.6, 2.2, 3.1, 4.5, 7}

func init() {
	sh := []int{2, 4}
	x64, g64 := f64(sh, actX...), f64(sh, actG...)
	x32, g32 := f32(sh, toF32(actX)...), f32(sh, toF32(actG)...)
	for _, r := range actRows {
		op, a := actArgs(r.key)
		in64, in32 := arrays(x64), arrays(x32)
		if strings.HasSuffix(op, "_bp") {
			in64, in32 = arrays(x64, g64), arrays(x32, g32)
		}
		forward(r.key, op, a, in64, arrays(f64(sh, r.v...)), 1e-12)
		forward(r.key+" float32", op, a, in32, arrays(f32(sh, toF32(r.v)...)), 2e-6)
	}

	// Defaults: elu's alpha 1, relu6's cutoff 0, thresholdedrelu's theta
	// 0, leakyreluderivative's alpha 0.01; cube of integers.
	forward("elu default alpha 1", "elu", ops.Args{}, arrays(f64([]int{2}, -1, 2)), arrays(f64([]int{2}, -0.6321205588285577, 2)), 1e-15)
	forward("relu6 default cutoff 0", "relu6", ops.Args{}, arrays(f64([]int{3}, -1, 3, 7)), arrays(f64([]int{3}, 0, 3, 6)), 0)
	forward("thresholdedrelu default theta 0", "thresholdedrelu", ops.Args{}, arrays(f64([]int{3}, -1, 0, 2)), arrays(f64([]int{3}, 0, 0, 2)), 0)
	forward("leakyreluderivative default alpha", "leakyreluderivative", ops.Args{}, arrays(f64([]int{2}, -1, 1)), arrays(f64([]int{2}, 0.01, 1)), 0)
	forward("cube int32", "cube", ops.Args{}, arrays(i32([]int{3}, -2, 3, 5)), arrays(i32([]int{3}, -8, 27, 125)), 0)

	// prelu: libnd4j's DeclarableOpsTests9 prelu_test1, 2, 3, 5, 7, 9, 12.
	px := counting(-12, 2, 3, 4)
	prelu := func(name string, alpha *ndarray.Array, shared []int64, want []float64) {
		forward(name, "prelu", ops.Args{I: shared}, arrays(px, alpha), arrays(f64([]int{2, 3, 4}, want...)), 1e-12)
	}
	pos := func(n int) []float64 { return counting(0, n).Float64s() }
	prelu("prelu_test1", f64([]int{3, 4}, -0.6, -0.5, -0.4, -0.3, -0.2, -0.1, 0, 0.1, 0.2, 0.3, 0.4, 0.5), nil,
		append([]float64{7.2, 5.5, 4, 2.7, 1.6, 0.7, 0, -0.5, -0.8, -0.9, -0.8, -0.5}, pos(12)...))
	test2 := append([]float64{7.2, 6.6, 6, 5.4, -16, -14, -12, -10, -16, -12, -8, -4}, pos(12)...)
	prelu("prelu_test2 shared axis 0 is rank-1", f64([]int{3}, -0.6, 2, 4), []int64{0}, test2)
	prelu("prelu_test3 alpha [3 1]", f64([]int{3, 1}, -0.6, 2, 4), []int64{0}, test2)
	prelu("prelu_test5 shared axis 1", f64([]int{4}, -0.6, 2, 4, -1), []int64{1},
		append([]float64{7.2, -22, -40, 9, 4.8, -14, -24, 5, 2.4, -6, -8, 1}, pos(12)...))
	prelu("prelu_test7 scalar alpha", f64(nil, -2), []int64{1, 0},
		append([]float64{24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2}, pos(12)...))
	forward("prelu_test9 rank 2", "prelu", ops.Args{I: []int64{0}}, arrays(counting(-4, 2, 4), f64(nil, -2)),
		arrays(f64([]int{2, 4}, 8, 6, 4, 2, 0, 1, 2, 3)), 0)
	forward("prelu_test12 shared axes -1 and 2", "prelu", ops.Args{I: []int64{-1, 2}},
		arrays(counting(-50, 2, 3, 4, 5), f64([]int{3, 5}, -0.7, -0.6, -0.5, -0.4, -0.3, -0.2, -0.1, 0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7)),
		arrays(f64([]int{2, 3, 4, 5}, append([]float64{35, 29.4, 24, 18.8, 13.8, 31.5, 26.4, 21.5, 16.8, 12.3, 28, 23.4, 19, 14.8, 10.8, 24.5, 20.4, 16.5, 12.8,
			9.3, 6, 2.9, 0, -2.7, -5.2, 5, 2.4, 0, -2.2, -4.2, 4, 1.9, 0, -1.7, -3.2, 3, 1.4, 0, -1.2,
			-2.2, -3, -3.6, -4, -4.2, -4.2, -1.5, -1.6, -1.5, -1.2, -0.7}, pos(70)...)...)), 1e-12)
	forward("prelu float32", "prelu", ops.Args{}, arrays(f32([]int{2, 2}, -2, 1, 3, -4), f32([]int{2}, 0.5, 0.25)),
		arrays(f32([]int{2, 2}, -1, 1, 3, -1)), 0)
	// prelu_bp by hand: dx = gradO, times alpha where x < 0; dalpha sums
	// gradO·x where x < 0 over axis 0.
	forward("prelu_bp", "prelu_bp", ops.Args{},
		arrays(f64([]int{2, 3}, -1, 2, -3, 4, -5, 6), f64([]int{3}, 0.1, 0.2, 0.3), f64([]int{2, 3}, 1, 2, 3, 4, 5, 6)),
		arrays(f64([]int{2, 3}, 0.1, 2, 0.9, 4, 1, 6), f64([]int{3}, -1, -25, -9)), 1e-15)
	forward("prelu_bp shared axis", "prelu_bp", ops.Args{I: []int64{1}},
		arrays(f64([]int{2, 2}, -1, -2, 3, -4), f64([]int{1}, 0.5), f64([]int{2, 2}, 1, 2, 3, 4)),
		arrays(f64([]int{2, 2}, 0.5, 1, 3, 2), f64([]int{1}, -21)), 1e-15)

	// crelu by hand: [relu(x), relu(-x)] along the last axis; crelu_bp:
	// gradO's first half where x > 0 minus its second half where x < 0.
	forward("crelu", "crelu", ops.Args{}, arrays(f64([]int{2, 2}, 1, -2, 0, 3)), arrays(f64([]int{2, 4}, 1, 0, 0, 2, 0, 3, 0, 0)), 0)
	forward("crelu float32 rank 1", "crelu", ops.Args{}, arrays(f32([]int{3}, -1, 0.5, 2)), arrays(f32([]int{6}, 0, 0.5, 2, 1, 0, 0)), 0)
	forward("crelu_bp", "crelu_bp", ops.Args{}, arrays(f64([]int{2, 2}, 1, -2, 0, 3), f64([]int{2, 4}, 1, 2, 3, 4, 5, 6, 7, 8)),
		arrays(f64([]int{2, 2}, 1, -4, 0, 6)), 0)

	rng := rand.New(rand.NewPCG(26, 6))
	kf := func() []input { return []input{in(f64([]int{3, 4}, actKinkFree...))} }
	s := func(v float64) ops.Args { return ops.Args{F: []float64{v}} }
	for _, c := range []grd{
		{"gelu", "gelu", ops.Args{}, []input{in(randn(rng, 3, 4))}},
		{"precise_gelu", "precise_gelu", ops.Args{}, []input{in(randn(rng, 3, 4))}},
		{"swish", "swish", ops.Args{}, []input{in(randn(rng, 3, 4))}},
		{"mish", "mish", ops.Args{}, []input{in(randn(rng, 3, 4))}},
		{"logsigmoid", "logsigmoid", ops.Args{}, []input{in(randn(rng, 3, 4))}},
		{"softsign", "softsign", ops.Args{}, []input{in(randn(rng, 3, 4))}},
		{"rational_tanh", "rational_tanh", ops.Args{}, kf()},
		{"cube", "cube", ops.Args{}, []input{in(randn(rng, 3, 4))}},
		{"selu", "selu", ops.Args{}, kf()},
		{"hardtanh", "hardtanh", ops.Args{}, kf()},
		{"hard_sigmoid", "hard_sigmoid", ops.Args{}, kf()},
		{"rectified_tanh", "rectified_tanh", ops.Args{}, kf()},
		{"relu6", "relu6", s(0), kf()},
		{"relu6 cutoff 1", "relu6", s(1), kf()},
		{"elu", "elu", s(1), kf()},
		{"elu alpha 0.5", "elu", s(0.5), kf()},
		{"thresholdedrelu", "thresholdedrelu", s(0.5), kf()},
		{"prelu", "prelu", ops.Args{}, []input{in(f64([]int{2, 3, 2}, actKinkFree...)), in(randn(rng, 3, 2))}},
		{"prelu shared axis", "prelu", ops.Args{I: []int64{2}}, []input{in(f64([]int{2, 3, 2}, actKinkFree...)), in(randn(rng, 3, 1))}},
		{"crelu", "crelu", ops.Args{}, kf()},
	} {
		gradient(c.name, c.op, c.args, c.in)
	}
}
