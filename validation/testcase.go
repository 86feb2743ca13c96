package validation

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// DefaultTolerance is the tolerance of an expected output that gives none
// (SameDiff's TestCase default).
const DefaultTolerance = 1e-3

// Expected is an expected output of a TestCase.
type Expected struct {
	// Name is the variable.
	Name string
	// Want is the expected value: the output must have its dtype and shape.
	Want *ndarray.Array
	// Tol bounds |got-want| by Tol + Tol·|want| per element (0:
	// DefaultTolerance). NaN matches NaN, equal infinities match.
	Tol float64
	// Exact demands equal elements (bit for bit, NaN matching NaN).
	Exact bool
	// Check, when set, is run on the output too (an error fails the case).
	Check func(got *ndarray.Array) error
}

// RoundTripMode says when a TestCase saves and reloads its graph.
type RoundTripMode uint8

const (
	// RoundTripDefault is RoundTripBoth.
	RoundTripDefault RoundTripMode = iota
	// RoundTripBefore: the graph as built, before anything runs.
	RoundTripBefore
	// RoundTripAfter: after the forward pass and the gradient check; when
	// a gradient check ran, the graph it worked on (the graph with its
	// gradient ops, as SameDiff's graph holds them after a check) is
	// round-tripped too.
	RoundTripAfter
	// RoundTripBoth: before and after.
	RoundTripBoth
	// RoundTripNone: never (say why in SkipRoundTrip).
	RoundTripNone
)

// TestCase is an op test in SameDiff's manner (OpValidation's TestCase): a
// graph, placeholder values, expected outputs, a gradient check and a
// save/load round trip. Every run it makes has the non-in-place listener
// attached: the forward pass, the gradient checks' analytic and numeric
// evaluations, and the round trips' comparisons.
type TestCase struct {
	// Name names the case in reports.
	Name string
	// Graph is the graph under test. The case does not change it: checks
	// work on copies.
	Graph *graph.Graph
	// BuildErr, when set, is an error met while building the case; the
	// case fails with it and runs nothing.
	BuildErr error
	// Feeds are the placeholder values.
	Feeds map[string]*ndarray.Array
	// Expected outputs.
	Expected []Expected

	// GradCheck adjusts the gradient check (nil: SameDiff's defaults).
	// The check runs when the graph has loss variables, unless
	// SkipGradCheck says why not.
	GradCheck     *GradCheckOptions
	SkipGradCheck string
	// Activations, when given, are also checked with
	// CheckActivationGradients.
	Activations []string

	// RoundTrip says when to save and reload the graph; SkipRoundTrip,
	// when set, says why not to (the result reports it as skipped, never
	// as passed).
	RoundTrip     RoundTripMode
	SkipRoundTrip string

	// Listeners see every run besides the non-in-place listener.
	Listeners []exec.Listener
}

// Expect adds an expected output compared with DefaultTolerance.
func (tc *TestCase) Expect(name string, want *ndarray.Array) *TestCase {
	tc.Expected = append(tc.Expected, Expected{Name: name, Want: want})
	return tc
}

// ExpectTol adds an expected output compared with tolerance tol.
func (tc *TestCase) ExpectTol(name string, want *ndarray.Array, tol float64) *TestCase {
	tc.Expected = append(tc.Expected, Expected{Name: name, Want: want, Tol: tol})
	return tc
}

// ExpectExact adds an expected output that must match bit for bit.
func (tc *TestCase) ExpectExact(name string, want *ndarray.Array) *TestCase {
	tc.Expected = append(tc.Expected, Expected{Name: name, Want: want, Exact: true})
	return tc
}

// Stage is the outcome of one part of a TestCase.
type Stage struct {
	Name string // "forward", "gradient check", "round trip before execution", ...
	// Skipped says why the stage did not run ("" when it ran).
	Skipped string
	// Err is the failure, nil when the stage passed or was skipped.
	Err error
	// Detail sums up what the stage checked.
	Detail string
}

// Status is "passed", "FAILED" or "skipped".
func (s Stage) Status() string {
	switch {
	case s.Err != nil:
		return "FAILED"
	case s.Skipped != "":
		return "skipped"
	}
	return "passed"
}

// String gives the stage on one line: its name and status, then the error,
// the reason it was skipped or the detail of what passed.
func (s Stage) String() string {
	switch {
	case s.Err != nil:
		return fmt.Sprintf("%s: FAILED: %v", s.Name, s.Err)
	case s.Skipped != "":
		return fmt.Sprintf("%s: skipped: %s", s.Name, s.Skipped)
	case s.Detail != "":
		return fmt.Sprintf("%s: passed (%s)", s.Name, s.Detail)
	}
	return s.Name + ": passed"
}

// Result is what a TestCase found.
type Result struct {
	Name   string
	Stages []Stage
	// Outputs are the forward outputs, by name.
	Outputs map[string]*ndarray.Array
	// Grad and Activation are the gradient checks' results (nil when they
	// did not run).
	Grad       *GradCheckResult
	Activation *GradCheckResult
	// InPlace is what the non-in-place listener checked in the forward run.
	InPlace InPlaceStats
}

// Err returns nil when no stage failed, else an error listing the failures.
func (r *Result) Err() error {
	var msgs []string
	for _, s := range r.Stages {
		if s.Err != nil {
			msgs = append(msgs, s.String())
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	return fmt.Errorf("test case %q: %s", r.Name, strings.Join(msgs, "\n"))
}

// Ran reports whether the named stage ran and passed.
func (r *Result) Ran(stage string) bool {
	for _, s := range r.Stages {
		if s.Name == stage {
			return s.Err == nil && s.Skipped == ""
		}
	}
	return false
}

// String lists every stage with its status.
func (r *Result) String() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "test case %q:", r.Name)
	for _, s := range r.Stages {
		sb.WriteString("\n  ")
		sb.WriteString(s.String())
	}
	return sb.String()
}

// Stage names.
const (
	StageForward         = "forward"
	StageGradCheck       = "gradient check"
	StageActivationCheck = "activation gradient check"
	StageRoundTripBefore = "round trip before execution"
	StageRoundTripAfter  = "round trip after execution"
)

// Validate runs the case and returns an error describing every failure.
func (tc TestCase) Validate() error { return tc.Evaluate().Err() }

// Evaluate runs the case: the round trip before execution, the forward pass
// against the expected outputs (every op of the graph runs), the gradient
// checks (when the graph has loss variables), and the round trip after
// execution. Every stage runs, whatever the others found; a stage that does
// not run says why (Stage.Skipped).
func (tc TestCase) Evaluate() *Result {
	r := &Result{Name: tc.Name}
	stage := func(s Stage) { r.Stages = append(r.Stages, s) }
	if tc.BuildErr != nil {
		stage(Stage{Name: StageForward, Err: fmt.Errorf("building the case: %w", tc.BuildErr)})
		return r
	}
	if tc.Graph == nil {
		stage(Stage{Name: StageForward, Err: errors.New("the test case has no graph")})
		return r
	}
	if err := tc.Graph.Err(); err != nil {
		stage(Stage{Name: StageForward, Err: fmt.Errorf("the graph has a build error: %w", err)})
		return r
	}
	rt := tc.RoundTrip
	if rt == RoundTripDefault {
		rt = RoundTripBoth
	}
	skipRT := tc.SkipRoundTrip
	if rt == RoundTripNone && skipRT == "" {
		skipRT = "the test case asks for no round trip"
	}

	// roundTripStage adds a round-trip stage when the mode asks for it, or
	// as skipped when round trips are off, so that a report never omits it.
	roundTripStage := func(name string, when RoundTripMode, run func() (detail string, err error)) {
		if rt != when && rt != RoundTripBoth && skipRT == "" {
			return
		}
		s := Stage{Name: name, Skipped: skipRT}
		if skipRT == "" {
			s.Detail, s.Err = run()
		}
		stage(s)
	}

	// 1. Round trip before execution.
	roundTripStage(StageRoundTripBefore, RoundTripBefore, func() (string, error) {
		_, err := roundTrip(tc.Graph, tc.Feeds, tc.listeners())
		return fmt.Sprintf("%d variables, %d ops", len(tc.Graph.Variables()), len(tc.Graph.Ops())), err
	})

	// 2. Forward pass.
	stage(tc.forward(r))

	// 3. Gradient checks.
	var ws *workspace
	noLoss := ""
	if len(tc.Graph.Losses()) == 0 {
		noLoss = "the graph has no loss variables"
	}
	gs, res := tc.gradStage(StageGradCheck, noLoss, func(opts *GradCheckOptions) (res *GradCheckResult, err error) {
		res, ws, err = checkGradients(tc.Graph, tc.Feeds, opts)
		return res, err
	})
	r.Grad = res
	stage(gs)
	if len(tc.Activations) > 0 {
		as, res := tc.gradStage(StageActivationCheck, "", func(opts *GradCheckOptions) (*GradCheckResult, error) {
			return CheckActivationGradients(tc.Graph, tc.Feeds, tc.Activations, opts)
		})
		r.Activation = res
		stage(as)
	}

	// 4. Round trip after execution.
	roundTripStage(StageRoundTripAfter, RoundTripAfter, func() (string, error) {
		if _, err := roundTrip(tc.Graph, tc.Feeds, tc.listeners()); err != nil || ws == nil {
			return "the graph", err
		}
		if _, err := roundTrip(ws.g, ws.feeds, tc.listeners()); err != nil {
			return "the graph", fmt.Errorf("the graph with its gradient ops: %w", err)
		}
		return fmt.Sprintf("the graph, and with its gradient ops: %d variables, %d ops", len(ws.g.Variables()), len(ws.g.Ops())), nil
	})
	return r
}

// gradStage runs a gradient check with the case's options, unless
// SkipGradCheck or skip (when set) says why not, and returns its stage and
// result (nil when it did not run).
func (tc TestCase) gradStage(name, skip string, check func(*GradCheckOptions) (*GradCheckResult, error)) (Stage, *GradCheckResult) {
	s := Stage{Name: name, Skipped: tc.SkipGradCheck}
	if s.Skipped == "" {
		s.Skipped = skip
	}
	var res *GradCheckResult
	if s.Skipped == "" {
		opts, nip := tc.gradOptions()
		var err error
		res, err = check(&opts)
		if res != nil {
			res.InPlace = nip.Stats()
		}
		switch {
		case err != nil:
			s.Err = err
		case !res.OK():
			s.Err = res.Err()
		default:
			s.Detail = res.Summary()
		}
	}
	return s, res
}

// gradOptions are the case's gradient check options with a non-in-place
// listener on every run of the check, the numeric evaluations included.
func (tc TestCase) gradOptions() (GradCheckOptions, *NonInPlace) {
	var o GradCheckOptions
	if tc.GradCheck != nil {
		o = *tc.GradCheck
	}
	nip := NewNonInPlace()
	o.NoInPlaceCheck = true // the listener below watches every run instead
	o.Listeners = append(append(append([]exec.Listener(nil), o.Listeners...), tc.Listeners...), nip)
	return o, nip
}

// listeners are the listeners of the case's other runs.
func (tc TestCase) listeners() []exec.Listener {
	return append([]exec.Listener{NewNonInPlace()}, tc.Listeners...)
}

// forward runs the graph with the non-in-place listener and compares the
// expected outputs. The first run asks for the expected outputs and the
// losses only, as a user's run would, which leaves the executor free to
// write in place where the graph allows it; a second run asks for the op
// outputs no op reads whose ops the first run did not reach, so that every
// op of the graph runs under the listener.
func (tc TestCase) forward(r *Result) Stage {
	s := Stage{Name: StageForward}
	g := tc.Graph
	var first []string
	want := map[string]bool{}
	add := func(n string) {
		if !want[n] {
			want[n] = true
			first = append(first, n)
		}
	}
	for _, e := range tc.Expected {
		if _, ok := g.Variable(e.Name); !ok {
			s.Err = fmt.Errorf("expected output %q is not a variable of the graph", e.Name)
			return s
		}
		add(e.Name)
	}
	for _, n := range g.Losses() {
		add(n)
	}
	ran, err := reached(g, first)
	if err != nil {
		s.Err = err
		return s
	}
	read := map[*graph.Variable]bool{}
	for _, o := range g.Ops() {
		for _, in := range o.Inputs() {
			read[in] = true
		}
	}
	var second []string
	loop := insideLoops(g)
	for _, v := range g.VariablesOf(graph.ARRAY) {
		if !read[v] && !ran[v.Op()] && !loop[v.Op()] && v.DType().Computable() {
			second = append(second, v.Name())
		}
	}
	if len(first) == 0 && len(second) == 0 {
		s.Skipped = "the graph has no ops"
		return s
	}
	nip := NewNonInPlace()
	sess := exec.New(g)
	listeners := append([]exec.Listener{nip}, tc.Listeners...)
	r.Outputs = map[string]*ndarray.Array{}
	for _, names := range [][]string{first, second} {
		if len(names) == 0 {
			continue
		}
		out, err := sess.Exec(exec.Request{Feeds: tc.Feeds, Outputs: names, Listeners: listeners})
		r.InPlace = nip.Stats()
		if err != nil {
			s.Err = err
			return s
		}
		maps.Copy(r.Outputs, out)
	}
	var bad []string
	for _, e := range tc.Expected {
		if err := checkExpected(e, r.Outputs[e.Name]); err != nil {
			bad = append(bad, err.Error())
		}
	}
	if len(bad) > 0 {
		s.Err = errors.New(strings.Join(bad, "; "))
		return s
	}
	st := r.InPlace
	s.Detail = fmt.Sprintf("%d expected outputs; %d op runs, %d inputs watched, %d in-place writes", len(tc.Expected), st.Ops, st.Inputs, st.InPlace)
	return s
}

// insideLoops returns the ops inside loop frames: those reached from an
// enter without passing an exit. Their outputs exist only within a frame,
// so a run cannot ask for them.
func insideLoops(g *graph.Graph) map[*graph.Op]bool {
	readers := map[*graph.Variable][]*graph.Op{}
	var stack []*graph.Op
	for _, o := range g.Ops() {
		for _, in := range o.Inputs() {
			readers[in] = append(readers[in], o)
		}
		if opName(o) == "enter" {
			stack = append(stack, o)
		}
	}
	in := map[*graph.Op]bool{}
	for _, o := range stack {
		in[o] = true
	}
	for len(stack) > 0 {
		o := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if opName(o) == "exit" {
			continue
		}
		for _, out := range o.Outputs() {
			for _, r := range readers[out] {
				if !in[r] {
					in[r] = true
					stack = append(stack, r)
				}
			}
		}
	}
	return in
}

// reached returns the ops a run of the named outputs executes (loop
// bodies reached only through a back edge aside: forward leaves ops inside
// loops out anyway).
func reached(g *graph.Graph, names []string) (map[*graph.Op]bool, error) {
	var roots []*graph.Op
	for _, n := range names {
		if v, ok := g.Variable(n); ok {
			roots = append(roots, v.Op())
		}
	}
	seen := map[*graph.Op]bool{}
	err := graph.PostOrder(roots, func(o *graph.Op) error {
		seen[o] = true
		return nil
	})
	return seen, err
}

func checkExpected(e Expected, got *ndarray.Array) error {
	if got == nil {
		return fmt.Errorf("output %q was not computed", e.Name)
	}
	if e.Want != nil {
		w := e.Want
		if got.DType() != w.DType() || !ndarray.SameShape(got.Shape(), w.Shape()) {
			return fmt.Errorf("output %q is %v%v, want %v%v", e.Name, got.DType(), got.Shape(), w.DType(), w.Shape())
		}
		if e.Exact {
			if !ndarray.Equal(got, w) {
				return fmt.Errorf("output %q = %v, want exactly %v", e.Name, got, w)
			}
		} else if got.DType().Computable() {
			tol := e.Tol
			if tol == 0 {
				tol = DefaultTolerance
			}
			if !ndarray.AllClose(got, w, tol, tol) {
				return fmt.Errorf("output %q = %v, want %v (tolerance %g, largest difference %.3g)", e.Name, got, w, tol, maxDiff(got, w))
			}
		} else if !ndarray.Equal(got, w) {
			return fmt.Errorf("output %q = %v, want %v", e.Name, got, w)
		}
	}
	if e.Check != nil {
		if err := e.Check(got); err != nil {
			return fmt.Errorf("output %q: %w", e.Name, err)
		}
	}
	return nil
}

func maxDiff(a, b *ndarray.Array) float64 {
	x, y := a.Float64s(), b.Float64s()
	m := 0.0
	for i := range x {
		if d := math.Abs(x[i] - y[i]); d > m {
			m = d
		}
	}
	return m
}

// Run runs tc inside a Go test: each failing stage is reported with
// tb.Errorf, skipped stages are logged. It returns the result.
func Run(tb testing.TB, tc TestCase) *Result {
	tb.Helper()
	r := tc.Evaluate()
	for _, s := range r.Stages {
		switch {
		case s.Err != nil:
			tb.Errorf("%s: %s: %v", tc.Name, s.Name, s.Err)
		case s.Skipped != "":
			tb.Logf("%s: %s skipped: %s", tc.Name, s.Name, s.Skipped)
		}
	}
	return r
}
