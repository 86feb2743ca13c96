package ops_test

import (
	"math"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// recorder is a GradBuilder that infers each op it is given and keeps it.
type recorder struct {
	t   *testing.T
	ops []recorded
}

type recorded struct {
	name string
	args ops.Args
	in   []ops.Value
}

type value struct{ info ops.Info }

func (v *value) Info() ops.Info { return v.info }

func (r *recorder) Op(name string, args ops.Args, in ...ops.Value) []ops.Value {
	r.t.Helper()
	r.ops = append(r.ops, recorded{name, args, in})
	d, ok := ops.Lookup(name)
	if !ok {
		r.t.Fatalf("gradient rule adds unknown op %q", name)
	}
	infos := make([]ops.Info, len(in))
	for i, v := range in {
		infos[i] = v.Info()
	}
	out, err := d.Infer(infos, &args)
	if err != nil {
		r.t.Fatalf("%s: %v", name, err)
	}
	vals := make([]ops.Value, len(out))
	for i, o := range out {
		vals[i] = r.value(o)
	}
	return vals
}

func (r *recorder) Const(a *ndarray.Array) ops.Value { return r.value(infoOf(a)) }

func (r *recorder) value(i ops.Info) *value { return &value{i} }

// The gradients of tanh and sigmoid are their fused ops with libnd4j's two
// inputs, x and the output gradient; the optional third input (the
// activation's output) gives the same result.
func TestActivationGradTwoInputs(t *testing.T) {
	x := f64([]int{4}, -2, -0.5, 0.25, 3)
	g := f64([]int{4}, 1, -2, 0.5, 4)
	for _, name := range []string{"tanh", "sigmoid"} {
		d, _ := ops.Lookup(name)
		r := &recorder{t: t}
		xv, yv, gv := r.value(infoOf(x)), r.value(infoOf(x)), r.value(infoOf(g))
		d.Grad(r, ops.GradNode{In: []ops.Value{xv}, Out: []ops.Value{yv}, Args: &ops.Args{}}, []ops.Value{gv})
		if len(r.ops) != 1 || r.ops[0].name != name+"_bp" || len(r.ops[0].in) != 2 || r.ops[0].in[0] != xv || r.ops[0].in[1] != gv {
			t.Errorf("%s: gradient ops %+v, want one %s_bp of x and the output gradient", name, r.ops, name)
		}
		y := runOp(t, name, ops.Args{}, x)[0]
		two := runOp(t, name+"_bp", ops.Args{}, x, g)
		three := runOp(t, name+"_bp", ops.Args{}, x, g, y)
		sameOutputs(t, name+"_bp with the output", three, two)
	}
}

// The reductions' gradient rules hand x, the output gradient and the axes
// input to the fused op with the forward args (normalized for the legacy
// norms, whose int inputs get no gradient).
func TestReduceGradRules(t *testing.T) {
	x := infoOf(f64([]int{2, 3}, 1, 2, 3, 4, 5, 6))
	axes := infoOf(i64([]int{1}, 1))
	g := infoOf(f64([]int{2}, 1, 1))
	for _, tc := range []struct {
		op      string
		args    ops.Args
		in      []ops.Info
		bpArgs  ops.Args
		noGrads bool
	}{
		{"reduce_sum", ops.ReduceArgs(false, 1), []ops.Info{x}, ops.ReduceArgs(false, 1), false},
		{"reduce_prod", ops.Args{}, []ops.Info{x, axes}, ops.Args{}, false},
		{"reduce_norm1", ops.Args{F: []float64{1}, I: []int64{1}}, []ops.Info{x}, ops.Args{F: []float64{1}, I: []int64{1}, B: []bool{true}}, false},
		{"reduce_norm2", ops.Args{}, []ops.Info{x, axes}, ops.Args{B: []bool{false}}, false},
		{"asum", ops.Args{}, []ops.Info{infoOf(i32([]int{2}, 1, 2))}, ops.Args{}, true},
	} {
		d, _ := ops.Lookup(tc.op)
		r := &recorder{t: t}
		in := make([]ops.Value, len(tc.in))
		for i, info := range tc.in {
			in[i] = r.value(info)
		}
		args := tc.args.Clone()
		grads := d.Grad(r, ops.GradNode{In: in, Out: []ops.Value{r.value(g)}, Args: &args}, []ops.Value{r.value(g)})
		if len(grads) != len(in) {
			t.Errorf("%s: %d gradients for %d inputs", tc.op, len(grads), len(in))
			continue
		}
		if tc.noGrads {
			if len(r.ops) != 0 || grads[0] != nil {
				t.Errorf("%s of ints: gradient ops %+v", tc.op, r.ops)
			}
			continue
		}
		if len(r.ops) != 1 || r.ops[0].name != tc.op+"_bp" || len(r.ops[0].in) != len(in)+1 {
			t.Errorf("%s: gradient ops %+v", tc.op, r.ops)
			continue
		}
		op := r.ops[0]
		if op.in[0] != in[0] || (len(in) > 1 && op.in[2] != in[1]) || grads[0] == nil || (len(in) > 1 && grads[1] != nil) {
			t.Errorf("%s: inputs %v, gradients %v", tc.op, op.in, grads)
		}
		if !equalArgs(op.args, tc.bpArgs) {
			t.Errorf("%s: backprop args %+v, want %+v", tc.op, op.args, tc.bpArgs)
		}
	}
}

func equalArgs(a, b ops.Args) bool {
	if len(a.I) != len(b.I) || len(a.F) != len(b.F) || len(a.B) != len(b.B) || !ndarray.SameShape(a.Dims, b.Dims) {
		return false
	}
	for i := range a.I {
		if a.I[i] != b.I[i] {
			return false
		}
	}
	for i := range a.F {
		if a.F[i] != b.F[i] {
			return false
		}
	}
	for i := range a.B {
		if a.B[i] != b.B[i] {
			return false
		}
	}
	return true
}

// Gradients that divide by the reduced value or by x give 0, not NaN, where
// the divisor is 0, in both float dtypes.
func TestReduceGradsAtZero(t *testing.T) {
	for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
		cast := func(a *ndarray.Array) *ndarray.Array { return ndarray.Must(ndarray.Cast(a, dt)) }
		x := cast(f64([]int{2, 2}, 0, 0, 3, -4))
		g := cast(f64([]int{2}, 1, 2))
		sameOutputs(t, "reduce_norm2_bp "+dt.String(), runOp(t, "reduce_norm2_bp", ops.ReduceArgs(false, 1), x, g),
			[]*ndarray.Array{cast(f64([]int{2, 2}, 0, 0, 1.2, -1.6))})
		// Products of the others: [0 0] has two zeros, [3 -4] none.
		sameOutputs(t, "reduce_prod_bp "+dt.String(), runOp(t, "reduce_prod_bp", ops.ReduceArgs(false, 1), x, g),
			[]*ndarray.Array{cast(f64([]int{2, 2}, 0, 0, -8, 6))})
		x1 := cast(f64([]int{2, 2}, 0, 5, 3, -4))
		sameOutputs(t, "reduce_prod_bp one zero "+dt.String(), runOp(t, "reduce_prod_bp", ops.ReduceArgs(false, 1), x1, g),
			[]*ndarray.Array{cast(f64([]int{2, 2}, 5, 0, -8, 6))})
		// |x| ties share the gradient; the sign carries it back to x.
		x2 := cast(f64([]int{2, 2}, -3, 3, 1, -2))
		sameOutputs(t, "amax_bp "+dt.String(), runOp(t, "amax_bp", ops.ReduceArgs(false, 1), x2, g),
			[]*ndarray.Array{cast(f64([]int{2, 2}, -0.5, 0.5, 0, -2))})
		sameOutputs(t, "reduce_normmax_bp "+dt.String(), runOp(t, "reduce_normmax_bp", ops.ReduceArgs(false, 1), x2, g),
			[]*ndarray.Array{cast(f64([]int{2, 2}, -0.5, 0.5, 0, -2))})
		sameOutputs(t, "amin_bp "+dt.String(), runOp(t, "amin_bp", ops.ReduceArgs(false, 1), x2, g),
			[]*ndarray.Array{cast(f64([]int{2, 2}, -0.5, 0.5, 2, 0))})
		sameOutputs(t, "asum_bp "+dt.String(), runOp(t, "asum_bp", ops.ReduceArgs(false, 1), x2, g),
			[]*ndarray.Array{cast(f64([]int{2, 2}, -1, 1, 2, -2))})
	}
}

// Pow's gradients where x is 0: d(x^0)/dx is 0 (x^0 is 1 everywhere), not
// 0·0^-1 = NaN, as in PyTorch; d(x^y)/dy is taken as 0 at x <= 0, also in
// float32, where the guard against ln 0 used to round to 0.
func TestPowGradAtZero(t *testing.T) {
	for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
		cast := func(a *ndarray.Array) *ndarray.Array { return ndarray.Must(ndarray.Cast(a, dt)) }
		x := cast(f64([]int{4}, 0, 0, 0, 2))
		y := cast(f64([]int{4}, 0, 2, 1, 0))
		g := cast(f64([]int{4}, 1, 1, 1, 1))
		sameOutputs(t, "Pow_bp "+dt.String(), runOp(t, "Pow_bp", ops.Args{}, x, y, g),
			[]*ndarray.Array{cast(f64([]int{4}, 0, 0, 1, 0)), cast(f64([]int{4}, 0, 0, 0, math.Log(2)))})
	}
}

// biasadd of a rank-1 input adds the bias elementwise, so the bias's
// gradient is gradO itself; biasadd_bp summed it over every axis (no axes
// to sum meant all of them), giving a scalar.
func TestBiasAddBpRank1(t *testing.T) {
	x := ndarray.Must(ndarray.FromSlice([]float64{1, 2, 3}, 3))
	g := ndarray.Must(ndarray.FromSlice([]float64{10, 20, 30}, 3))
	bp, _ := ops.Lookup("biasadd_bp")
	out, err := bp.Run(ops.NewCtx("", nil, nil), []*ndarray.Array{x, x, g}, &ops.Args{})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 2 || !ndarray.AllClose(out[0], g, 0, 0) || !ndarray.AllClose(out[1], g, 0, 0) {
		t.Errorf("biasadd_bp of a rank-1 input: %v, want dx = db = %v", out, g)
	}
}
