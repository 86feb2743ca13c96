package ops_test

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

func f64(shape []int, v ...float64) *ndarray.Array {
	return ndarray.Must(ndarray.FromSlice(v, shape...))
}
func f32(shape []int, v ...float32) *ndarray.Array {
	return ndarray.Must(ndarray.FromSlice(v, shape...))
}
func i64(shape []int, v ...int64) *ndarray.Array { return ndarray.Must(ndarray.FromSlice(v, shape...)) }
func i32(shape []int, v ...int32) *ndarray.Array { return ndarray.Must(ndarray.FromSlice(v, shape...)) }
func bools(shape []int, v ...bool) *ndarray.Array {
	return ndarray.Must(ndarray.FromSlice(v, shape...))
}

// forwardCase is one op applied to constant inputs with the expected
// outputs, worked out by hand (the form fixture_ops_test.go uses).
type forwardCase struct {
	name string
	op   string
	args ops.Args
	in   []*ndarray.Array
	want []*ndarray.Array
	tol  float64
}

func infoOf(a *ndarray.Array) ops.Info {
	return ops.Info{DType: a.DType(), Shape: a.Shape(), Value: a}
}

// The hand-worked forward expectations of every op, and their gradient
// checks, are in package validation/opcases, which runs them as
// validation.TestCases (graph, listener, round trip) and checks that every
// registered op is covered.

// lookupWithInfos returns the op's definition and the Infos of its inputs.
func lookupWithInfos(t *testing.T, name string, in []*ndarray.Array) (*ops.Def, []ops.Info) {
	t.Helper()
	def, ok := ops.Lookup(name)
	if !ok {
		t.Fatalf("op %q is not registered", name)
	}
	infos := make([]ops.Info, len(in))
	for i, a := range in {
		infos[i] = infoOf(a)
	}
	return def, infos
}

// runOp infers and runs an op, and checks that the run agrees with the
// inference.
func runOp(t *testing.T, name string, args ops.Args, in ...*ndarray.Array) []*ndarray.Array {
	t.Helper()
	def, infos := lookupWithInfos(t, name, in)
	want, err := def.Infer(infos, &args)
	if err != nil {
		t.Fatalf("%s: infer: %v", name, err)
	}
	got, err := def.Run(nil, in, &args)
	if err != nil {
		t.Fatalf("%s: run: %v", name, err)
	}
	if len(got) != len(want) {
		t.Fatalf("%s: %d outputs, inferred %d", name, len(got), len(want))
	}
	for i := range got {
		if got[i].DType() != want[i].DType || (!want[i].UnknownRank && !ndarray.SameShape(got[i].Shape(), want[i].Shape)) {
			t.Fatalf("%s: output %d is %v%v, inferred %v", name, i, got[i].DType(), got[i].Shape(), want[i])
		}
	}
	return got
}

func TestInferErrors(t *testing.T) {
	info := func(dt ndarray.DType, shape ...int) ops.Info { return ops.Info{DType: dt, Shape: shape} }
	checkInferErrors(t, []inferErr{
		{"matmul", ops.Args{}, []ops.Info{info(ndarray.Float32, 2, 3), info(ndarray.Float32, 2, 3)}, []string{"[2 3]", "inner"}},
		{"matmul", ops.Args{}, []ops.Info{info(ndarray.Float32, -1, 3), info(ndarray.Float32, 4, 5)}, []string{"[-1 3]", "[4 5]"}},
		{"add", ops.Args{}, []ops.Info{info(ndarray.Float32, 2, 3), info(ndarray.Float32, 4)}, []string{"[2 3]", "[4]"}},
		{"add", ops.Args{}, []ops.Info{info(ndarray.Float32, 2), info(ndarray.Float64, 2)}, []string{"float32", "float64"}},
		{"tanh", ops.Args{}, []ops.Info{info(ndarray.Int32, 2)}, []string{"tanh", "int32"}},
		{"reduce_sum", ops.ReduceArgs(false, 2), []ops.Info{info(ndarray.Float32, 2, 3)}, []string{"axis 2"}},
		{"reshape", ops.Args{I: []int64{4, 2}}, []ops.Info{info(ndarray.Float32, 2, 3)}, []string{"reshape"}},
		{"concat", ops.Args{I: []int64{0}}, []ops.Info{info(ndarray.Float32, 2, 3), info(ndarray.Float32, 2, 4)}, []string{"[2 3]", "[2 4]"}},
		{"softmax", ops.Args{I: []int64{3}}, []ops.Info{info(ndarray.Float32, 2, 3)}, []string{"axis 3"}},
		{"cast", ops.Args{D: []ndarray.DType{ndarray.UTF8}}, []ops.Info{info(ndarray.Float32, 2)}, []string{"utf8"}},
		{"mean_sqerr_loss", ops.Args{}, []ops.Info{info(ndarray.Float32, 2, 3), info(ndarray.Float32), info(ndarray.Float32, 2, 4)}, []string{"[2 3]", "[2 4]"}},
	})
}

// Unknown sizes flow through inference.
func TestInferUnknownSizes(t *testing.T) {
	d, _ := ops.Lookup("matmul")
	out, err := d.Infer([]ops.Info{{DType: ndarray.Float32, Shape: []int{-1, 784}}, {DType: ndarray.Float32, Shape: []int{784, 10}}}, &ops.Args{})
	if err != nil || !ndarray.SameShape(out[0].Shape, []int{-1, 10}) {
		t.Errorf("matmul [-1 784]x[784 10] = %v, %v", out, err)
	}
	d, _ = ops.Lookup("add")
	out, err = d.Infer([]ops.Info{{DType: ndarray.Float32, Shape: []int{-1, 10}}, {DType: ndarray.Float32, Shape: []int{10}}}, &ops.Args{})
	if err != nil || !ndarray.SameShape(out[0].Shape, []int{-1, 10}) {
		t.Errorf("add [-1 10]+[10] = %v, %v", out, err)
	}
	d, _ = ops.Lookup("reduce_mean")
	out, err = d.Infer([]ops.Info{{DType: ndarray.Float32, Shape: []int{-1, 10}}}, &ops.Args{B: []bool{false}, Dims: []int{1}})
	if err != nil || !ndarray.SameShape(out[0].Shape, []int{-1}) {
		t.Errorf("reduce_mean [-1 10] over 1 = %v, %v", out, err)
	}
	d, _ = ops.Lookup("reshape")
	out, err = d.Infer([]ops.Info{{DType: ndarray.Float32, Shape: []int{-1, 10}}}, &ops.Args{I: []int64{-1, 5, 2}})
	if err != nil || !ndarray.SameShape(out[0].Shape, []int{-1, 5, 2}) {
		t.Errorf("reshape = %v, %v", out, err)
	}
}

// With a vector operand, matmul's batch axes are the other operand's:
// inferred from unknown sizes they must admit every shape the op can give.
func TestMatMulInferVectorBatch(t *testing.T) {
	d, _ := ops.Lookup("matmul")
	for _, c := range []struct {
		x, y   []int
		tz     bool
		result []int // the op's result for the sizes given as -1 below
	}{
		{[]int{1}, []int{3, 1, 1, 1}, false, []int{3, 1, 1}},
		{[]int{3}, []int{3, 3, 2}, true, []int{2, 3}},
		{[]int{3, 2, 4}, []int{4}, false, []int{3, 2}},
		{[]int{3, 2, 4}, []int{4}, true, []int{2, 3}},
	} {
		unknown := func(s []int) []int {
			u := make([]int, len(s))
			for i := range u {
				u[i] = -1
			}
			return u
		}
		a := ops.MatMulArgs(false, false)
		if c.tz {
			a.I[2] = 1
		}
		out, err := d.Infer([]ops.Info{{DType: ndarray.Float64, Shape: unknown(c.x)}, {DType: ndarray.Float64, Shape: unknown(c.y)}}, &a)
		if err != nil || !out[0].Admits(c.result) {
			t.Errorf("matmul %v x %v (transpose result %v) inferred %v, %v; the op gives %v", unknown(c.x), unknown(c.y), c.tz, out, err, c.result)
		}
	}
}

func TestRunErrorsNotPanics(t *testing.T) {
	d, _ := ops.Lookup("divide")
	if _, err := d.Run(nil, []*ndarray.Array{i32([]int{1}, 1), i32([]int{1}, 0)}, &ops.Args{}); err == nil {
		t.Error("integer division by zero did not fail")
	}
	d, _ = ops.Lookup("reshape")
	if _, err := d.Run(nil, []*ndarray.Array{f64([]int{2}, 1, 2), i64([]int{1}, 3)}, &ops.Args{}); err == nil {
		t.Error("reshape of 2 elements to [3] did not fail")
	}
	d, _ = ops.Lookup("softmax_cross_entropy_loss")
	if _, err := d.Run(nil, []*ndarray.Array{f64([]int{1, 2}, 1, 2), ndarray.Scalar(1.0), f64([]int{1, 3}, 1, 0, 0)}, &ops.Args{}); err == nil {
		t.Error("mismatched logits and labels did not fail")
	}
}

func TestReduceToShapeOf(t *testing.T) {
	x := f64([]int{2, 3}, 1, 2, 3, 4, 5, 6)
	for _, c := range []struct {
		like *ndarray.Array
		want *ndarray.Array
	}{
		{f64([]int{3}, 0, 0, 0), f64([]int{3}, 5, 7, 9)},
		{f64([]int{2, 1}, 0, 0), f64([]int{2, 1}, 6, 15)},
		{ndarray.Scalar(0.0), ndarray.Scalar(21.0)},
		{f64([]int{1, 1}, 0), f64([]int{1, 1}, 21)},
		{x, x},
	} {
		got := runOp(t, "reduce_to_shape_of", ops.Args{}, x, c.like)
		if !ndarray.Equal(got[0], c.want) {
			t.Errorf("to %v: %v, want %v", c.like.Shape(), got[0], c.want)
		}
	}
	if _, err := ops.SumToShape(x, []int{4}); err == nil {
		t.Error("[2 3] summed to [4]")
	}
}

func TestPanicError(t *testing.T) {
	var err error
	func() {
		defer func() { err = ops.Recovered(`op "h" (matmul)`, recover()) }()
		var s []int
		_ = s[3]
	}()
	var pe *ops.PanicError
	var re runtime.Error
	if !errors.As(err, &pe) || !errors.As(err, &re) || strings.Contains(err.Error(), "\n") ||
		!strings.Contains(err.Error(), `op "h" (matmul) panicked: runtime error: index out of range`) ||
		!strings.Contains(string(pe.Stack), "TestPanicError") {
		t.Errorf("%v\n%s", err, pe.Stack)
	}
}

// Weights broadcast to the per-element losses, not beyond them: the loss
// gradients assume it, so the loss ops reject more, at inference and run.
func TestLossWeightsBeyondLosses(t *testing.T) {
	for _, c := range []struct {
		op        string
		p, w, lab *ndarray.Array
	}{
		{"mean_sqerr_loss", f64([]int{3}, 0, 0, 0), f64([]int{2, 3}, 1, 2, 3, 4, 5, 6), f64([]int{3}, 1, 0, 0)},
		{"mean_sqerr_loss", f64([]int{1, 3}, 0, 0, 0), f64([]int{2, 1}, 1, 2), f64([]int{1, 3}, 1, 0, 0)},
		{"softmax_cross_entropy_loss", f64([]int{3}, 0, 0, 0), f64([]int{2}, 1, 2), f64([]int{3}, 1, 0, 0)},
	} {
		d, _ := ops.Lookup(c.op)
		for mode := int64(0); mode < 4; mode++ {
			a := ops.Args{I: []int64{mode}}
			if _, err := d.Infer([]ops.Info{infoOf(c.p), infoOf(c.w), infoOf(c.lab)}, &a); err == nil || !strings.Contains(err.Error(), "weights") {
				t.Errorf("%s mode %d, weights %v for predictions %v: infer error %v", c.op, mode, c.w.Shape(), c.p.Shape(), err)
			}
			if _, err := d.Run(nil, []*ndarray.Array{c.p, c.w, c.lab}, &a); err == nil || !strings.Contains(err.Error(), "weights") {
				t.Errorf("%s mode %d, weights %v for predictions %v: run error %v", c.op, mode, c.w.Shape(), c.p.Shape(), err)
			}
		}
	}
}

// Labels that broadcast beyond the predictions are refused at run time by
// mean_sqerr_loss and by its gradient alike (with sizes unknown at
// inference, the gradient alone returned gradients summed over the labels'
// extra elements).
func TestMSELabelsBeyondPredictions(t *testing.T) {
	p := f64([]int{4, 1}, 1, 2, 3, 4)
	w := f64(nil, 1)
	lab := f64([]int{4, 3}, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)
	for _, op := range []string{"mean_sqerr_loss", "mean_sqerr_loss_grad"} {
		d, _ := ops.Lookup(op)
		if _, err := d.Run(nil, []*ndarray.Array{p, w, lab}, &ops.Args{}); err == nil || !strings.Contains(err.Error(), "labels of shape [4 3]") {
			t.Errorf("%s: labels [4 3] for predictions [4 1]: error %v", op, err)
		}
	}
}

// TestLossMeanDivides: the mean loss reductions multiplied the sum by
// 1/denominator rounded to float32, a second rounding: the mean squared
// error of three predictions 7.7 off their labels was 59.29 where the sum
// 177.87 / 3 is 59.289997 (libnd4j divides; 16 of these 144 cases were a
// rounding off).
func TestLossMeanDivides(t *testing.T) {
	for n := 1; n <= 12; n++ {
		for _, x := range []float32{0.1, 0.2, 1.1, 1.3, 2.2, 7.7} {
			p, l := make([]float32, n), make([]float32, n)
			for i := range p {
				p[i] = x
			}
			pred, lab := f32([]int{n}, p...), f32([]int{n}, l...)
			w := f32([]int{}, 1)
			sum := runOp(t, "mean_sqerr_loss", ops.Args{I: []int64{int64(ops.LossSum)}}, pred, w, lab)[0].Float64s()[0]
			want := float64(float32(sum) / float32(n))
			for _, mode := range []ops.LossReduce{ops.LossMeanByWeight, ops.LossMeanByNonzeroWeightCount} {
				got := runOp(t, "mean_sqerr_loss", ops.Args{I: []int64{int64(mode)}}, pred, w, lab)[0].Float64s()[0]
				if got != want {
					t.Errorf("mean_sqerr_loss (reduction %d) of %d × %v: %v, want the sum %v / %d = %v", mode, n, x, got, sum, n, want)
				}
			}
		}
	}
}

// inferErr is an inference that must fail, its error mentioning every msg
// (the op's name, the argument, the shapes).
type inferErr struct {
	op   string
	args ops.Args
	in   []ops.Info
	msg  []string
}

func checkInferErrors(t *testing.T, cases []inferErr) {
	t.Helper()
	for _, c := range cases {
		d, ok := ops.Lookup(c.op)
		if !ok {
			t.Fatalf("%s is not registered", c.op)
		}
		_, err := d.Infer(c.in, &c.args)
		if err == nil {
			t.Errorf("%s %v: no error", c.op, c.in)
			continue
		}
		for _, m := range c.msg {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("%s: error %q does not mention %q", c.op, err, m)
			}
		}
	}
}
