package ops_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// TestOpsNeverPanic gives every registered op random inputs and arguments
// and fails on any panic in Infer or Run. The executor reports a panic as a
// bug in sdgo, and graphs loaded from files or built by hand can give any op
// any inputs, so every op must answer bad inputs with an error.
//
// For each op, trials draw an input count within MinIn..MaxIn (now and then
// one outside, which CheckArity must refuse), inputs of rank 0..4 with sizes
// 0..3 (sometimes padded, not packed), dtypes among float32, float64, int32,
// int64 and bool, values that are small, negative, huge, NaN or infinite,
// and integer, float, bool, dtype and dimension arguments of the same
// kinds. Half the trials instead change one or two things in inputs the op
// already ran with, so that the change reaches code behind its checks of
// everything else. Tensor array ops get a handle of a tensor array made in
// the trial's context. Infer is called with the shapes known, with some
// sizes unknown (-1), with ranks unknown and, now and then, with the
// inputs' values as constants. Run is called whenever one of those calls
// accepted the inputs: the executor runs an op whose inference, done when
// the graph was built with whatever was known, accepted the inputs, so only
// Run calls that Infer could never have allowed are left out (Def.Run may
// assume what Infer checked).
//
// The seed is fixed; SDGO_NOPANIC_TRIALS sets the trials per op (default
// 200), SDGO_NOPANIC_SEED the seed, for longer runs, and SDGO_NOPANIC_STATS
// (any value) logs how often each op ran.
func TestOpsNeverPanic(t *testing.T) {
	trials := envInt(t, "SDGO_NOPANIC_TRIALS", 200)
	seed := uint64(envInt(t, "SDGO_NOPANIC_SEED", 1))
	stats := os.Getenv("SDGO_NOPANIC_STATS") != ""
	// Random shapes from integer inputs and arguments may ask for huge
	// arrays: those must fail with an error, quickly.
	defer ndarray.SetAllocLimit(ndarray.SetAllocLimit(64 << 20))
	for _, d := range ops.All() {
		if reason, skip := noPanicSkip[d.Name]; skip {
			t.Logf("%s: skipped: %s", d.Name, reason)
			continue
		}
		rng := rand.New(rand.NewPCG(seed, uint64(ops.Hash(d.Name))))
		failures, ran, succeeded := 0, 0, 0
		var seeds []noPanicInputs
		for trial := 0; trial < trials && failures < 3; trial++ {
			msg, run, ok := noPanicTrial(rng, d, &seeds)
			if msg != "" {
				failures++
				t.Errorf("%s: %s", d.Name, msg)
			}
			if run {
				ran++
			}
			if ok {
				succeeded++
			}
		}
		if stats {
			t.Logf("%s: %d trials, Run called %d times, succeeded %d", d.Name, trials, ran, succeeded)
		}
	}
}

// noPanicSkip lists ops the test leaves out, each with the reason (none
// today: control flow ops run as plain data movement outside an executor,
// and tensor array ops keep their state in the trial's context).
var noPanicSkip = map[string]string{}

func envInt(t *testing.T, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%s=%q: %v", name, s, err)
	}
	return n
}

var noPanicDTypes = []ndarray.DType{ndarray.Float32, ndarray.Float64, ndarray.Int32, ndarray.Int64, ndarray.Bool}

// noPanicInt draws an integer argument or element: mostly small, sometimes
// negative or far out of any range.
func noPanicInt(rng *rand.Rand) int64 {
	switch rng.IntN(10) {
	case 0:
		huge := []int64{math.MaxInt64, math.MinInt64, math.MaxInt32, math.MinInt32, 1 << 40, -1 << 40, 1000, -1000}
		return huge[rng.IntN(len(huge))]
	case 1, 2:
		return -int64(rng.IntN(6)) - 1
	default:
		return int64(rng.IntN(5))
	}
}

func noPanicFloat(rng *rand.Rand) float64 {
	switch rng.IntN(10) {
	case 0:
		odd := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, -0.5, 1e300, -1e300, 3.7}
		return odd[rng.IntN(len(odd))]
	default:
		return rng.NormFloat64() * 2
	}
}

// noPanicArray returns an array of dtype dt and shape sh with random
// values; a quarter of them are padded (strided, offset) rather than packed.
func noPanicArray(rng *rand.Rand, dt ndarray.DType, sh []int) *ndarray.Array {
	n := 1
	for _, s := range sh {
		n *= s
	}
	var a *ndarray.Array
	switch dt {
	case ndarray.Float32, ndarray.Float64:
		v := make([]float64, n)
		for i := range v {
			v[i] = noPanicFloat(rng)
		}
		a = ndarray.Must(ndarray.Cast(ndarray.Must(ndarray.FromSlice(v, sh...)), dt))
	case ndarray.Int32:
		v := make([]int32, n)
		for i := range v {
			v[i] = int32(noPanicInt(rng))
		}
		a = ndarray.Must(ndarray.FromSlice(v, sh...))
	case ndarray.Int64:
		v := make([]int64, n)
		for i := range v {
			v[i] = noPanicInt(rng)
		}
		a = ndarray.Must(ndarray.FromSlice(v, sh...))
	default:
		v := make([]bool, n)
		for i := range v {
			v[i] = rng.IntN(2) == 0
		}
		a = ndarray.Must(ndarray.FromSlice(v, sh...))
	}
	if len(sh) > 0 && rng.IntN(4) == 0 {
		pads, offs := make([]int, len(sh)), make([]int, len(sh))
		for i := range pads {
			pads[i] = rng.IntN(3)
			offs[i] = rng.IntN(pads[i] + 1)
		}
		p := ndarray.Must(ndarray.NewPadded(dt, sh, pads, offs))
		if err := ndarray.CopyInto(p, a); err != nil {
			panic(err)
		}
		a = p
	}
	return a
}

// noPanicShape draws a shape of rank 0..4 with sizes 0..3 (mostly 1..3).
func noPanicShape(rng *rand.Rand) []int {
	sh := make([]int, rng.IntN(5))
	for j := range sh {
		sh[j] = 1 + rng.IntN(3)
		if rng.IntN(8) == 0 {
			sh[j] = 0
		}
	}
	return sh
}

func noPanicArgs(rng *rand.Rand) ops.Args {
	var a ops.Args
	n := rng.IntN(5)
	if rng.IntN(4) == 0 {
		n = 8 + rng.IntN(8) // convolutions' and pooling's configurations
	}
	// Half the time the ints are tame (mostly 1, else 0..3), as a
	// configuration's sizes, strides and flags are.
	tame := rng.IntN(2) == 0
	for ; n > 0; n-- {
		v := noPanicInt(rng)
		if tame {
			v = 1
			if rng.IntN(2) == 0 {
				v = int64(rng.IntN(4))
			}
		}
		a.I = append(a.I, v)
	}
	for n := rng.IntN(3); n > 0; n-- {
		a.F = append(a.F, noPanicFloat(rng))
	}
	for n := rng.IntN(3); n > 0; n-- {
		a.B = append(a.B, rng.IntN(2) == 0)
	}
	if rng.IntN(3) == 0 {
		dts := append([]ndarray.DType{ndarray.Invalid, ndarray.Half, ndarray.UTF8}, noPanicDTypes...)
		a.D = []ndarray.DType{dts[rng.IntN(len(dts))]}
	}
	for n := rng.IntN(4); n > 0; n-- {
		a.Dims = append(a.Dims, int(noPanicInt(rng)))
	}
	return a
}

// noPanicInputs are inputs and arguments an op ran with.
type noPanicInputs struct {
	ins  []*ndarray.Array
	args ops.Args
}

// noPanicMutate returns a copy of s with one or two things changed: an
// input's shape, dtype or values, or an argument. Inputs that an op ran
// with get past its checks of everything else, so the change reaches the
// code that handles it.
func noPanicMutate(rng *rand.Rand, s noPanicInputs) noPanicInputs {
	m := noPanicInputs{ins: append([]*ndarray.Array(nil), s.ins...), args: s.args.Clone()}
	for k := 1 + rng.IntN(2); k > 0; k-- {
		i := -1
		if len(m.ins) > 0 {
			i = rng.IntN(len(m.ins))
		}
		switch c := rng.IntN(6); {
		case c < 3 && i >= 0:
			x := m.ins[i]
			sh := append([]int(nil), x.Shape()...)
			switch rng.IntN(5) {
			case 0:
				sh = m.ins[rng.IntN(len(m.ins))].Shape()
			case 1:
				if len(sh) > 0 {
					sh = append(sh[:0:0], sh[1:]...)
				}
			case 2:
				if len(sh) < 4 {
					sh = append([]int{rng.IntN(4)}, sh...)
				}
			default:
				if len(sh) > 0 {
					sh[rng.IntN(len(sh))] = rng.IntN(4)
				}
			}
			dt := x.DType()
			if c == 2 {
				dt = noPanicDTypes[rng.IntN(len(noPanicDTypes))]
			}
			m.ins[i] = noPanicArray(rng, dt, sh)
		case c == 3 && i >= 0:
			m.ins[i] = noPanicArray(rng, noPanicDTypes[rng.IntN(len(noPanicDTypes))], m.ins[i].Shape())
		default:
			r := noPanicArgs(rng)
			switch rng.IntN(5) {
			case 0:
				m.args.I = noPanicSplice(rng, m.args.I, r.I)
			case 1:
				m.args.F = noPanicSplice(rng, m.args.F, r.F)
			case 2:
				m.args.B = noPanicSplice(rng, m.args.B, r.B)
			case 3:
				m.args.D = r.D
			default:
				m.args.Dims = noPanicSplice(rng, m.args.Dims, r.Dims)
			}
		}
	}
	return m
}

// noPanicSplice changes one element of v to one of r's, or drops it, or
// adds one.
func noPanicSplice[T any](rng *rand.Rand, v, r []T) []T {
	v = append([]T(nil), v...)
	switch {
	case len(v) > 0 && len(r) > 0 && rng.IntN(2) == 0:
		v[rng.IntN(len(v))] = r[0]
	case len(v) > 0 && rng.IntN(2) == 0:
		v = v[:len(v)-1]
	case len(r) > 0:
		v = append(v, r[0])
	}
	return v
}

// noPanicTrial runs one random trial of d and returns what panicked, or "",
// whether Run was called and whether it succeeded. Inputs it succeeds with
// are added to seeds, which later trials mutate.
func noPanicTrial(rng *rand.Rand, d *ops.Def, seeds *[]noPanicInputs) (msg string, ran, ok bool) {
	n := d.MinIn + rng.IntN(3)
	if d.MaxIn >= 0 {
		n = d.MinIn + rng.IntN(d.MaxIn-d.MinIn+1)
	}
	if rng.IntN(12) == 0 {
		// A count outside the op's arity: callers (the graph) check it with
		// CheckArity before they call Infer or Run, which may index the
		// inputs they require without looking.
		switch {
		case rng.IntN(2) == 0 && d.MinIn > 0:
			n = d.MinIn - 1
		case d.MaxIn >= 0:
			n = d.MaxIn + 1
		}
		if n < d.MinIn || (d.MaxIn >= 0 && n > d.MaxIn) {
			if d.CheckArity(n) == nil {
				return fmt.Sprintf("CheckArity accepts %d inputs (MinIn %d, MaxIn %d)", n, d.MinIn, d.MaxIn), false, false
			}
			return "", false, false
		}
	}
	if err := d.CheckArity(n); err != nil {
		return fmt.Sprintf("CheckArity refuses %d inputs: %v", n, err), false, false
	}
	dt := noPanicDTypes[rng.IntN(len(noPanicDTypes))]
	ctx := ops.NewCtx("n", nil, nil)
	ins := make([]*ndarray.Array, n)
	// Inputs mostly share a shape and a dtype, or nearly, so that many
	// trials pass shape inference and reach Run.
	base := noPanicShape(rng)
	for i := range ins {
		idt := dt
		if rng.IntN(5) == 0 {
			idt = noPanicDTypes[rng.IntN(len(noPanicDTypes))]
		}
		sh := append([]int(nil), base...)
		switch rng.IntN(6) {
		case 0:
			sh = noPanicShape(rng)
		case 1:
			if len(sh) > 0 {
				sh = sh[rng.IntN(len(sh)):]
			}
		case 2:
			if len(sh) > 0 {
				sh[rng.IntN(len(sh))] = rng.IntN(4)
			}
		}
		ins[i] = noPanicArray(rng, idt, sh)
	}
	if d.Flags&ops.Stateful != 0 && n > 0 && rng.IntN(4) != 0 {
		// Input 0 of a tensor array op is a handle: mostly give it one of a
		// tensor array created in this run, perhaps with elements.
		if h := noPanicTensorArray(rng, ctx); h != nil {
			ins[0] = h
		}
	}
	args := noPanicArgs(rng)
	if len(*seeds) > 0 && rng.IntN(2) == 0 {
		m := noPanicMutate(rng, (*seeds)[rng.IntN(len(*seeds))])
		ins, args, n = m.ins, m.args, len(m.ins)
	}
	known := make([]ops.Info, n)
	sizes := make([]ops.Info, n)
	ranks := make([]ops.Info, n)
	constants := rng.IntN(3) == 0
	allRanks := rng.IntN(3) == 0
	for i, a := range ins {
		known[i] = ops.Info{DType: a.DType(), Shape: a.Shape()}
		if constants && rng.IntN(2) == 0 {
			known[i].Value = a
		}
		u := append([]int(nil), a.Shape()...)
		for j := range u {
			if rng.IntN(2) == 0 {
				u[j] = -1
			}
		}
		sizes[i] = ops.Info{DType: a.DType(), Shape: u}
		ranks[i] = ops.Info{DType: a.DType(), UnknownRank: allRanks || rng.IntN(2) == 0, Shape: u}
		if ranks[i].UnknownRank {
			ranks[i].Shape = nil
		}
	}
	describe := func(stage string, v any) string {
		parts := make([]string, len(ins))
		for i, a := range ins {
			parts[i] = fmt.Sprintf("%v%v", a.DType(), a.Shape())
			if !a.IsPacked() {
				parts[i] += "(padded)"
			}
		}
		return fmt.Sprintf("%s panicked: %v\n\tinputs [%s], args %+v", stage, v, strings.Join(parts, ", "), args)
	}
	accepted := false
	for _, c := range []struct {
		stage string
		in    []ops.Info
	}{{"Infer (known shapes)", known}, {"Infer (some sizes unknown)", sizes}, {"Infer (some ranks unknown)", ranks}} {
		var msg string
		var err error
		func() {
			defer func() {
				if r := recover(); r != nil {
					msg = describe(c.stage, r)
					if c.stage != "Infer (known shapes)" {
						msg += fmt.Sprintf(", infos %v", c.in)
					}
				}
			}()
			a := args.Clone()
			_, err = d.Infer(c.in, &a)
		}()
		if msg != "" {
			return msg, false, false
		}
		accepted = accepted || err == nil
	}
	if !accepted {
		return "", false, false
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				msg = describe("Run", r)
			}
		}()
		a := args.Clone()
		_, err := d.Run(ctx, ins, &a)
		ok = err == nil
	}()
	// Tensor array ops are not seeded: their handles belong to the trial's
	// context.
	if ok && msg == "" && d.Flags&ops.Stateful == 0 && len(*seeds) < 64 {
		*seeds = append(*seeds, noPanicInputs{ins, args})
	}
	return msg, true, ok
}

// noPanicTensorArray creates a tensor array in ctx's state with random
// arguments and a few random elements, and returns its handle (nil when the
// random arguments were refused).
func noPanicTensorArray(rng *rand.Rand, ctx *ops.Ctx) *ndarray.Array {
	create, _ := ops.Lookup("tensorarrayv3")
	write, _ := ops.Lookup("tensorarraywritev3")
	dt := noPanicDTypes[rng.IntN(len(noPanicDTypes))]
	a := ops.TensorArrayArgs(dt, rng.IntN(2) == 0)
	if rng.IntN(3) == 0 {
		a = ops.TensorArrayArgs(ndarray.Invalid, true)
	}
	size := ndarray.Scalar(int32(rng.IntN(4)))
	outs, err := create.Run(ctx, []*ndarray.Array{size}, &a)
	if err != nil {
		return nil
	}
	h, flow := outs[0], outs[1]
	sh := make([]int, rng.IntN(3))
	for j := range sh {
		sh[j] = rng.IntN(3)
	}
	for i := rng.IntN(4); i > 0; i-- {
		v := noPanicArray(rng, dt, sh)
		if o, err := write.Run(ctx, []*ndarray.Array{h, ndarray.Scalar(int32(rng.IntN(4))), v, flow}, &ops.Args{}); err == nil {
			flow = o[len(o)-1]
		}
	}
	return h
}

// The defects TestOpsNeverPanic found (or that ran the machine out of
// memory, which no recover catches), each as the error it now gives.
func TestHostileInputsFail(t *testing.T) {
	defer ndarray.SetAllocLimit(ndarray.SetAllocLimit(64 << 20))
	f := func(shape ...int) *ndarray.Array { return ndarray.Must(ndarray.Zeros(ndarray.Float64, shape...)) }
	cases := []struct {
		op   string
		args ops.Args
		in   []*ndarray.Array
		want string
	}{
		// Each piece is sliced from the gradient by its size along the axis.
		{"concat_bp", ops.Args{I: []int64{0}}, []*ndarray.Array{f(), f(2)}, "not a piece of the gradient"},
		{"concat_bp", ops.Args{I: []int64{0}}, []*ndarray.Array{f(1, 3), f(2, 3), f(4, 3)}, "add up to 3"},
		// Scalar logits that inference saw with an unknown rank.
		{"softmax_cross_entropy_loss", ops.Args{}, []*ndarray.Array{f(), f(), f()}, "scalar logits"},
		{"softmax_cross_entropy_loss_grad", ops.Args{}, []*ndarray.Array{f(), f(), f()}, "scalar logits"},
		// A bool loss gradient: the scaling error was dropped, then used.
		{"mean_sqerr_loss_grad", ops.Args{}, []*ndarray.Array{f(1), ndarray.Must(ndarray.Full(ndarray.Float64, 1, 1)), f(1), ndarray.Must(ndarray.FromSlice([]bool{true}, 1))}, "loss gradient"},
		// Sizes that allocated before anything checked them.
		{"tensorarrayv3", ops.Args{I: []int64{1 << 40}}, nil, "above the maximum"},
		{"range", ops.Args{I: []int64{0, 1<<31 - 1}, D: []ndarray.DType{ndarray.Int64}}, nil, "memory budget"},
		{"pad_bp", ops.Args{}, []*ndarray.Array{f(1), ndarray.Must(ndarray.FromSlice([]int64{1 << 39, 0}, 1, 2)), f(3)}, "gradient of shape [3]"},
		{"conv2d", ops.Args{I: []int64{1, 1, 1, 1, 1 << 40, 0, 1, 1, 0, 0, 0}}, []*ndarray.Array{f(1, 1, 1, 1), f(1, 1, 1, 1)}, "too many elements"},
		{"conv2d", ops.Args{I: []int64{0, 0, 1, 1, 0, 0, 1 << 62, 1, 0, 0, 0}}, []*ndarray.Array{f(1, 1, 1, 1), f(2, 1, 1, 1)}, "too large"},
		{"avgpool3dnew", ops.Args{I: []int64{1, 1, 1, 1, 1, 1, 1 << 40, 0, 0, 1, 1, 1, 0, 0, 0}}, []*ndarray.Array{f(1, 1, 1, 1, 1)}, "too many elements"},
	}
	for _, c := range cases {
		d, _ := ops.Lookup(c.op)
		var err error
		func() {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("panicked: %v", r)
				}
			}()
			_, err = d.Run(ops.NewCtx("n", nil, nil), c.in, &c.args)
		}()
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.op) {
			t.Errorf("%s %+v: error %v, want one naming the op and saying %q", c.op, c.args, err, c.want)
		}
	}
	// unstack's count sizes the outputs inference makes.
	d, _ := ops.Lookup("unstack")
	if _, err := d.Infer([]ops.Info{{DType: ndarray.Float64, Shape: []int{-1, 2}}}, &ops.Args{I: []int64{0, 1 << 40}}); err == nil || !strings.Contains(err.Error(), "at most") {
		t.Errorf("unstack into 2^40 pieces: %v", err)
	}
	// A kernel far larger than the input (SAME mode) pools only the cells
	// inside it, at once.
	d, _ = ops.Lookup("avgpool3dnew")
	out, err := d.Run(nil, []*ndarray.Array{ndarray.Must(ndarray.Full(ndarray.Float64, 2, 1, 1, 1, 1, 1))}, &ops.Args{I: []int64{1 << 40, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 0, 0}})
	if err != nil || out[0].Float64s()[0] != 2 {
		t.Errorf("avgpool3dnew with a 2^40 kernel: %v, %v", out, err)
	}
}

// Inference refuses what the run refuses: mergeadd adds equal shapes,
// softmax_cross_entropy_loss takes labels of the logits' shape, and the
// hand-built gradient ops take a gradient of the shape and dtype their
// forward op gives.
func TestInferMatchesRun(t *testing.T) {
	info := func(dt ndarray.DType, shape ...int) ops.Info { return ops.Info{DType: dt, Shape: shape} }
	f64, f32 := ndarray.Float64, ndarray.Float32
	cases := []struct {
		op   string
		args ops.Args
		in   []ops.Info
		want string // "" for no error
		out  []int
	}{
		{"mergeadd", ops.Args{}, []ops.Info{info(f64, 2, 3), info(f64, 3)}, "same shape", nil},
		{"mergeadd", ops.Args{}, []ops.Info{info(f64, 2, 3), info(f64, 1, 3)}, "same shape", nil},
		{"mergeadd", ops.Args{}, []ops.Info{info(f64, 2, 3), info(f32, 2, 3)}, "float32", nil},
		{"mergeadd", ops.Args{}, []ops.Info{info(f64, -1, 3), info(f64, 2, -1), {DType: f64, UnknownRank: true}}, "", []int{2, 3}},
		{"mergeadd", ops.Args{}, []ops.Info{{DType: f64, UnknownRank: true}, info(f64, 4)}, "", []int{4}},
		{"softmax_cross_entropy_loss", ops.Args{}, []ops.Info{info(f64, 2, 3), info(f64), info(f64, 1, 3)}, "same shape", nil},
		{"softmax_cross_entropy_loss", ops.Args{}, []ops.Info{info(f64, 2, 3), info(f64), info(f64, 3)}, "same shape", nil},
		{"softmax_cross_entropy_loss", ops.Args{}, []ops.Info{info(f64, 2, 3), info(f64), info(f64, -1, 3)}, "", []int{}},
		{"softmax_cross_entropy_loss_grad", ops.Args{}, []ops.Info{info(f64, 2, 3), info(f64), info(f64, 3)}, "same shape", nil},
		{"mean_sqerr_loss_grad", ops.Args{}, []ops.Info{info(f64, 2, 3), info(f64), info(f64, 2, 4)}, "broadcast", nil},
		{"mean_sqerr_loss_grad", ops.Args{}, []ops.Info{info(f64, 2, 3), info(f64), info(f64, 2, 3), info(ndarray.Bool)}, "loss gradient", nil},
		{"mean_sqerr_loss_grad", ops.Args{I: []int64{0}}, []ops.Info{info(f64, 2, 3), info(f64), info(f64, 2, 3), info(f64, 3, 3)}, "loss gradient", nil},
		{"mean_sqerr_loss_grad", ops.Args{I: []int64{0}}, []ops.Info{info(f64, 2, 3), info(f64), info(f64, 2, 3), info(f64, 2, 3)}, "", []int{2, 3}},
		{"concat_bp", ops.Args{}, []ops.Info{info(f64, 2), info(f64, 2, 3)}, "shape", nil},
		{"concat_bp", ops.Args{}, []ops.Info{info(f32, 2), info(f64, 4)}, "float32", nil},
		{"biasadd_bp", ops.Args{}, []ops.Info{info(f64, 2, 3), info(f64, 3), info(f64, 2, 4)}, "same shape", nil},
		{"biasadd_bp", ops.Args{}, []ops.Info{info(f64, 2, 3), info(f64, 3), info(f64, 3)}, "same shape", nil},
		{"softmax_bp", ops.Args{}, []ops.Info{info(f64, 2, 3), info(f64, 3)}, "same shape", nil},
		{"softmax_bp", ops.Args{}, []ops.Info{info(f64, 2, 3), info(f32, 2, 3)}, "float32", nil},
		{"softmax_bp", ops.Args{}, []ops.Info{info(f64, 2, 3), info(f64, 2, 3), info(f64, 2, 2)}, "same shape", nil},
		{"log_softmax_bp", ops.Args{}, []ops.Info{info(f64, 2, 3), info(f64, 2, 1)}, "same shape", nil},
		{"log_softmax_bp", ops.Args{}, []ops.Info{info(f64, 2, 3), info(f64, -1, 3)}, "", []int{2, 3}},
		{"reduce_sum_bp", ops.ReduceArgs(false, 1), []ops.Info{info(f64, 2, 3), info(f64, 3)}, "reduction", nil},
		{"reduce_sum_bp", ops.ReduceArgs(false, 1), []ops.Info{info(f64, 2, 3), info(f32, 2)}, "float32", nil},
		{"reduce_sum_bp", ops.ReduceArgs(false, 1), []ops.Info{info(f64, 2, 3), info(f64, 2, 1)}, "", []int{2, 3}},
		{"reduce_mean_bp", ops.ReduceArgs(false), []ops.Info{info(f64, 2, 3), info(f64, 2)}, "reduction", nil},
		{"reduce_max_bp", ops.Args{}, []ops.Info{info(f64, 2, 3), info(f64, 2), infoOf(i64([]int{1}, 0))}, "reduction", nil},
	}
	for _, c := range cases {
		d, _ := ops.Lookup(c.op)
		out, err := d.Infer(c.in, &c.args)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s %v: %v", c.op, c.in, err)
		case c.want == "":
			if !ndarray.SameShape(out[0].Shape, c.out) {
				t.Errorf("%s %v: output %v, want shape %v", c.op, c.in, out[0], c.out)
			}
		case err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.op):
			t.Errorf("%s %v: error %v, want one naming the op and saying %q", c.op, c.in, err, c.want)
		}
	}
}

// Tile's output size comes from its repetitions, not its input's size, and
// it writes into Ctx.Alloc's buffer, which panics with ErrTooLarge above the
// allocation limit: Run returns that as its error (as ndarray.Tile did),
// with or without an executor to catch the panic.
func TestTileAboveAllocLimitIsAnError(t *testing.T) {
	defer ndarray.SetAllocLimit(ndarray.SetAllocLimit(64 << 20))
	d, _ := ops.Lookup("tile")
	x := ndarray.Must(ndarray.Zeros(ndarray.Float64, 8, 1))
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("panicked: %v", r)
			}
		}()
		_, err = d.Run(ops.NewCtx("n", nil, nil), []*ndarray.Array{x}, &ops.Args{I: []int64{1 << 21, 1}})
	}()
	if !errors.Is(err, ndarray.ErrTooLarge) {
		t.Errorf("tile of [8 1] by [2097152 1] with a 64 MB limit: %v, want an error wrapping ErrTooLarge", err)
	}
}
