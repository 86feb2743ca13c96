package validation_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	"github.com/sdgo/sdgo/validation"
)

// recTB records what Run reports.
type recTB struct {
	testing.TB
	errs, logs []string
}

func (r *recTB) Helper() {}
func (r *recTB) Errorf(format string, a ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, a...))
}
func (r *recTB) Logf(format string, a ...any) { r.logs = append(r.logs, fmt.Sprintf(format, a...)) }

func stage(r *validation.Result, name string) validation.Stage {
	for _, s := range r.Stages {
		if s.Name == name {
			return s
		}
	}
	return validation.Stage{Name: name, Skipped: "absent"}
}

func TestTestCasePasses(t *testing.T) {
	g, feeds := mlp(t, ndarray.Float64)
	tc := validation.TestCase{Name: "mlp", Graph: g, Feeds: feeds, Activations: []string{"act"}}
	loss := validation.TestCase{Graph: g, Feeds: feeds, SkipGradCheck: "only the outputs", RoundTrip: validation.RoundTripNone}.Evaluate().Outputs["loss"]
	tc.Expect("loss", loss)
	tc.ExpectExact("loss", loss)
	tc.ExpectTol("loss", ndarray.Must(ndarray.ScalarOf(ndarray.Float64, loss.Float()+1e-6)), 1e-5)
	tc.Expected = append(tc.Expected, validation.Expected{Name: "act", Check: func(a *ndarray.Array) error {
		for _, v := range a.Float64s() {
			if v < -1 || v > 1 {
				return fmt.Errorf("tanh out of range: %v", v)
			}
		}
		return nil
	}})
	rec := &recTB{TB: t}
	r := validation.Run(rec, tc)
	if len(rec.errs) > 0 || r.Err() != nil {
		t.Fatalf("%v\n%v", rec.errs, r)
	}
	for _, s := range []string{validation.StageRoundTripBefore, validation.StageForward, validation.StageGradCheck,
		validation.StageActivationCheck, validation.StageRoundTripAfter} {
		if !r.Ran(s) {
			t.Errorf("stage %q did not run and pass:\n%v", s, r)
		}
	}
	if r.Grad == nil || r.Grad.Checked != 20 || r.Activation == nil || r.Activation.Checked != 8 {
		t.Errorf("gradient results %v, %v", r.Grad, r.Activation)
	}
	if !strings.Contains(stage(r, validation.StageRoundTripAfter).Detail, "gradient ops") {
		t.Errorf("the round trip after execution did not include the gradient graph: %v", r)
	}
	if err := tc.Validate(); err != nil {
		t.Error(err)
	}
}

func TestTestCaseExpectationsFail(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 2)
	y := g.Math().Exp(x).Named("y")
	feeds := map[string]*ndarray.Array{"x": f64([]int{2}, 0, 1)}
	for _, c := range []struct {
		e    validation.Expected
		want string
	}{
		{validation.Expected{Name: "y", Want: f64([]int{2}, 1, 2.7)}, "tolerance 0.001"},
		{validation.Expected{Name: "y", Want: f64([]int{2}, 1, 2.71828182845904), Exact: true}, "want exactly"},
		{validation.Expected{Name: "y", Want: ndarray.Must(ndarray.FromSlice([]float32{1, 2.7182817}))}, "is float64[2], want float32[2]"},
		{validation.Expected{Name: "y", Want: f64([]int{1, 2}, 1, 2.7182817)}, "want float64[1 2]"},
		{validation.Expected{Name: "nope", Want: f64([]int{2}, 1, 2)}, `"nope" is not a variable`},
		{validation.Expected{Name: "y", Check: func(*ndarray.Array) error { return errors.New("custom check") }}, "custom check"},
	} {
		tc := validation.TestCase{Name: "exp", Graph: g, Feeds: feeds, Expected: []validation.Expected{c.e}}
		r := tc.Evaluate()
		s := stage(r, validation.StageForward)
		if s.Err == nil || !strings.Contains(s.Err.Error(), c.want) {
			t.Errorf("%+v: forward stage %v, want an error mentioning %q", c.e, s, c.want)
		}
		if err := r.Err(); err == nil || !strings.Contains(err.Error(), `test case "exp"`) {
			t.Errorf("Err() = %v", err)
		}
	}
	// A tolerance that is wide enough passes; 1e-3 is the default.
	tc := validation.TestCase{Graph: g, Feeds: feeds}
	tc.Expect("y", f64([]int{2}, 1, 2.7185))
	if err := tc.Validate(); err != nil {
		t.Error(err)
	}
	_ = y
}

// A wrong gradient rule fails the case's gradient stage with the element.
func TestTestCaseCatchesWrongGradient(t *testing.T) {
	g, feeds := wrongGraph(t)
	rec := &recTB{TB: t}
	r := validation.Run(rec, validation.TestCase{Name: "bad grad", Graph: g, Feeds: feeds})
	s := stage(r, validation.StageGradCheck)
	if s.Err == nil || !strings.Contains(s.Err.Error(), "FAIL x[0,1]") || r.Grad.Failed != 1 {
		t.Fatalf("gradient stage: %v", s)
	}
	if len(rec.errs) != 1 || !strings.Contains(rec.errs[0], "bad grad: gradient check: ") {
		t.Errorf("reported %q", rec.errs)
	}
	// The other stages still ran and passed.
	for _, n := range []string{validation.StageRoundTripBefore, validation.StageForward, validation.StageRoundTripAfter} {
		if !r.Ran(n) {
			t.Errorf("stage %s: %v", n, stage(r, n))
		}
	}
}

// An op that writes into its input fails the forward stage (and the
// gradient stage, whose analytic run is watched too).
func TestTestCaseCatchesInPlaceWrite(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 2)
	y := must(t, g.Apply("test_writes_input", ops.Args{}, x.MulScalar(1)))
	loss := must(t, y.Sum().Named("loss"))
	if err := g.SetLoss(loss.Name()); err != nil {
		t.Fatal(err)
	}
	r := validation.TestCase{Graph: g, Feeds: map[string]*ndarray.Array{"x": f64([]int{2}, 1, 2)}}.Evaluate()
	for _, n := range []string{validation.StageForward, validation.StageGradCheck} {
		s := stage(r, n)
		if s.Err == nil || !errors.Is(s.Err, validation.ErrInPlace) {
			t.Errorf("stage %s: %v", n, s)
		}
	}
}

// A skipped round trip is reported as skipped, never as passed.
func TestTestCaseSkips(t *testing.T) {
	g, feeds := mlp(t, ndarray.Float64)
	r := validation.TestCase{Graph: g, Feeds: feeds, SkipRoundTrip: "the file format lacks this op", SkipGradCheck: "not today"}.Evaluate()
	for _, n := range []string{validation.StageRoundTripBefore, validation.StageRoundTripAfter, validation.StageGradCheck} {
		s := stage(r, n)
		if s.Status() != "skipped" || r.Ran(n) || s.Err != nil {
			t.Errorf("stage %s: %v", n, s)
		}
	}
	if !strings.Contains(r.String(), "round trip before execution: skipped: the file format lacks this op") {
		t.Errorf("report:\n%v", r)
	}
	r = validation.TestCase{Graph: g, Feeds: feeds, RoundTrip: validation.RoundTripNone}.Evaluate()
	if s := stage(r, validation.StageRoundTripAfter); s.Status() != "skipped" {
		t.Errorf("RoundTripNone: %v", s)
	}
	r = validation.TestCase{Graph: g, Feeds: feeds, RoundTrip: validation.RoundTripBefore}.Evaluate()
	if !r.Ran(validation.StageRoundTripBefore) || stage(r, validation.StageRoundTripAfter).Skipped != "absent" {
		t.Errorf("RoundTripBefore:\n%v", r)
	}
	r = validation.TestCase{Graph: g, Feeds: feeds, RoundTrip: validation.RoundTripAfter}.Evaluate()
	if !r.Ran(validation.StageRoundTripAfter) || stage(r, validation.StageRoundTripBefore).Skipped != "absent" {
		t.Errorf("RoundTripAfter:\n%v", r)
	}
	r = validation.TestCase{Graph: g, Feeds: feeds, Activations: []string{"act"}, SkipGradCheck: "not today"}.Evaluate()
	if s := stage(r, validation.StageActivationCheck); s.Skipped != "not today" || r.Activation != nil || r.Grad != nil {
		t.Errorf("activations with SkipGradCheck: %v", r)
	}
	noLoss := graph.New()
	noLoss.Math().Exp(noLoss.Placeholder("x", ndarray.Float64, 1))
	r = validation.TestCase{Graph: noLoss, Feeds: map[string]*ndarray.Array{"x": f64([]int{1}, 0)}}.Evaluate()
	if s := stage(r, validation.StageGradCheck); s.Skipped != "the graph has no loss variables" {
		t.Errorf("no loss: %v", s)
	}
	r = validation.TestCase{BuildErr: errors.New("boom")}.Evaluate()
	if err := r.Err(); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("BuildErr: %v", err)
	}
}

func TestCompareGraphs(t *testing.T) {
	build := func(alt bool) *graph.Graph {
		g := graph.New()
		x := g.Placeholder("x", ndarray.Float64, 2)
		w := f64([]int{2}, 1, 2)
		if alt {
			w = f64([]int{2}, 1, 3)
		}
		v := g.Var("w", w)
		y := x.Mul(v).Named("y")
		p := 2.0
		if alt {
			p = 3
		}
		z := y.PowScalar(p).Named("z")
		if alt {
			g.Math().Exp(z).Named("extra")
		}
		loss := z.Sum().Named("loss")
		g.SetLoss(loss.Name())
		return g
	}
	if d := validation.CompareGraphs(build(false), build(false)); len(d) != 0 {
		t.Errorf("equal graphs differ: %q", d)
	}
	d := strings.Join(validation.CompareGraphs(build(false), build(true)), "\n")
	for _, want := range []string{`variable "w": value`, `op "pow" (pow): arguments float [2], loaded [3]`,
		`extra variable "extra"`, `extra op "exp"`} {
		if !strings.Contains(d, want) {
			t.Errorf("differences do not mention %q:\n%s", want, d)
		}
	}
	// RoundTrip of the graph: nothing lost.
	g := build(false)
	h, err := validation.RoundTrip(g, map[string]*ndarray.Array{"x": f64([]int{2}, 3, 4)})
	if err != nil || h == nil {
		t.Fatal(err)
	}
}
