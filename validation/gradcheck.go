package validation

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"

	"github.com/sdgo/sdgo/autodiff"
	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// SameDiff's defaults (GradCheckUtil).
const (
	DefaultEps         = 1e-5
	DefaultMaxRelError = 1e-5
	DefaultMinAbsError = 1e-6
)

// SubsetMode says how MaxPerParam picks the elements of a large variable.
type SubsetMode uint8

const (
	// SubsetRandom picks MaxPerParam distinct elements at random (seeded
	// by Seed), checked in index order.
	SubsetRandom SubsetMode = iota
	// SubsetEveryN picks evenly spaced elements: every (n/MaxPerParam)-th.
	SubsetEveryN
)

// GradCheckOptions adjust a gradient check. The zero value (or nil) is
// SameDiff's defaults: every element of every floating-point VARIABLE and
// placeholder that feeds the loss, eps 1e-5, max relative error 1e-5, min
// absolute error 1e-6, on a float64 copy of the graph.
type GradCheckOptions struct {
	// Eps is the central difference's step (0: DefaultEps).
	Eps float64
	// MaxRelError is the relative error above which a point may fail
	// (0: DefaultMaxRelError).
	MaxRelError float64
	// MinAbsError: a point whose absolute error is below it passes whatever
	// its relative error (0: DefaultMinAbsError; negative: 0).
	MinAbsError float64

	// Variables names the variables to check (VARIABLEs, placeholders or
	// constants of a floating-point dtype); empty means every
	// floating-point VARIABLE and placeholder whose value reaches the loss
	// through inputs that carry gradients.
	Variables []string
	// Skip names variables not to check.
	Skip []string
	// Masks select elements per variable: an array of the variable's shape
	// (any dtype) whose zero (false) elements are not checked.
	Masks map[string]*ndarray.Array
	// Every, when above 1, checks only elements 0, Every, 2·Every, ... (in
	// C order) of each variable, after the mask.
	Every int
	// MaxPerParam, when positive, checks at most this many elements of each
	// variable (after the mask and Every), picked as Subset says.
	MaxPerParam int
	Subset      SubsetMode
	// Seed seeds the random subset.
	Seed uint64
	// StopAtFirstFailure ends the check at the first failing element.
	StopAtFirstFailure bool
	// KeepDTypes checks the graph in its own dtypes instead of on a float64
	// copy. Central differences in float32 are meaningless at eps 1e-5;
	// SameDiff refuses anything but float64 — sdgo copies instead.
	KeepDTypes bool
	// FailOnZeroGradient fails a variable whose analytic gradient is zero
	// at every checked element: the check proves nothing for it.
	FailOnZeroGradient bool
	// Verbose records every checked element in the result (Points) and
	// lists them in the report, not only the failures.
	Verbose bool
	// NoInPlaceCheck leaves out the non-in-place listener, which otherwise
	// watches the run that computes the analytic gradients (as SameDiff's
	// checker does).
	NoInPlaceCheck bool
	// Listeners see every run of the check.
	Listeners []exec.Listener
	// Context, when not nil, stops the check once it is done (a deadline,
	// a cancel): every run of the graph takes it as its Request.Context,
	// so that even one long op ends soon after (exec.Request).
	Context context.Context
}

func (o *GradCheckOptions) withDefaults() GradCheckOptions {
	var r GradCheckOptions
	if o != nil {
		r = *o
	}
	if r.Eps == 0 {
		r.Eps = DefaultEps
	}
	if r.MaxRelError == 0 {
		r.MaxRelError = DefaultMaxRelError
	}
	if r.MinAbsError == 0 {
		r.MinAbsError = DefaultMinAbsError
	} else if r.MinAbsError < 0 {
		r.MinAbsError = 0
	}
	return r
}

// Point is one checked element.
type Point struct {
	Variable string
	Index    []int // position in the variable, C order
	Analytic float64
	Numeric  float64
	RelError float64 // |a-n|/(|a|+|n|), 0 when both are 0
	AbsError float64
	// Failed is set when the point failed. Reason says why: "" for a
	// relative error above the maximum, or a message about NaN and
	// infinite values, or about a variable whose gradient is zero
	// everywhere.
	Failed bool
	Reason string
}

// String gives the point on one line: the variable and the element's index,
// the analytic and numeric gradients, the relative and absolute errors, and
// Reason when there is one.
func (p Point) String() string {
	idx := make([]string, len(p.Index))
	for i, v := range p.Index {
		idx[i] = fmt.Sprint(v)
	}
	s := fmt.Sprintf("%s[%s]: analytic %.10g, numeric %.10g, relative error %.3g (absolute %.3g)",
		p.Variable, strings.Join(idx, ","), p.Analytic, p.Numeric, p.RelError, p.AbsError)
	if p.Reason != "" {
		s += ": " + p.Reason
	}
	return s
}

// VarSummary sums up the check of one variable.
type VarSummary struct {
	Name        string
	DType       ndarray.DType // in the original graph
	Shape       []int
	Checked     int
	Failed      int
	NonZero     int // checked elements with a non-zero analytic gradient
	MaxRelError float64
}

// GradCheckResult is the outcome of a gradient check.
type GradCheckResult struct {
	// Kind is "gradient check" or "activation gradient check".
	Kind string
	// Loss is the sum of the loss variables at the unperturbed point.
	Loss        float64
	Eps         float64
	MaxRel      float64
	MinAbs      float64
	Float64Copy bool
	Vars        []VarSummary
	// Failures lists every failing element.
	Failures []Point
	// Points lists every checked element when the check was Verbose.
	Points  []Point
	Checked int
	Passed  int
	Failed  int
	// MaxRelError is the largest relative error of a finite point.
	MaxRelError float64
	// Stopped is set when StopAtFirstFailure ended the check early.
	Stopped bool
	// InPlace is what the non-in-place listener checked.
	InPlace InPlaceStats
}

// OK reports whether every checked element passed.
func (r *GradCheckResult) OK() bool { return r != nil && r.Failed == 0 }

// Err returns nil when the check passed, else an error holding the report.
func (r *GradCheckResult) Err() error {
	if r.OK() {
		return nil
	}
	return &GradCheckError{Result: r}
}

// GradCheckError is the error of a failed check; its message is the report.
type GradCheckError struct{ Result *GradCheckResult }

// Error returns the check's full report, Result.String.
func (e *GradCheckError) Error() string { return e.Result.String() }

// Summary is the report's last line: parameters checked, passed, failed,
// largest relative error.
func (r *GradCheckResult) Summary() string {
	status := "passed"
	if r.Failed > 0 {
		status = "FAILED"
	}
	s := fmt.Sprintf("%s %s: %d parameters checked, %d passed, %d failed, largest relative error %.3g",
		r.Kind, status, r.Checked, r.Passed, r.Failed, r.MaxRelError)
	if r.Stopped {
		s += " (stopped at the first failure)"
	}
	return s
}

// String is the report: each failing element, one line per variable, and
// the summary line.
func (r *GradCheckResult) String() string {
	var sb strings.Builder
	copyNote := ""
	if r.Float64Copy {
		copyNote = ", on a float64 copy"
	}
	fmt.Fprintf(&sb, "%s: eps %g, max relative error %g, min absolute error %g%s; loss %.10g\n", r.Kind, r.Eps, r.MaxRel, r.MinAbs, copyNote, r.Loss)
	if len(r.Points) > 0 {
		for _, p := range r.Points {
			status := "ok  "
			if p.Failed {
				status = "FAIL"
			}
			fmt.Fprintf(&sb, "  %s %s\n", status, p)
		}
	} else {
		for _, p := range r.Failures {
			fmt.Fprintf(&sb, "  FAIL %s\n", p)
		}
	}
	for _, v := range r.Vars {
		fmt.Fprintf(&sb, "  %-24s %v%v: %d checked, %d failed, %d non-zero, largest relative error %.3g\n",
			v.Name, v.DType, v.Shape, v.Checked, v.Failed, v.NonZero, v.MaxRelError)
	}
	sb.WriteString(r.Summary())
	return sb.String()
}

// target is one variable the checker perturbs.
type target struct {
	name     string // in both graphs
	dtype    ndarray.DType
	shape    []int
	analytic []float64
	value    *ndarray.Array // the unperturbed value (in the working graph's dtype)
}

// workspace is a copy of a graph prepared for a check, kept for the
// round trip that follows it (see TestCase).
type workspace struct {
	g     *graph.Graph
	feeds map[string]*ndarray.Array
}

// CheckGradients compares the reverse-mode gradients of g's loss variables
// (summed, each over its elements, as SameDiff does) with central
// differences, at the point given by the feeds and the variables' values.
// The check runs on a copy of g (float64 unless KeepDTypes), so g is not
// changed. It returns an error when the check cannot run (no loss, an
// unknown variable, an op that fails); failing elements are in the result.
func CheckGradients(g *graph.Graph, feeds map[string]*ndarray.Array, opts *GradCheckOptions) (*GradCheckResult, error) {
	r, _, err := checkGradients(g, feeds, opts)
	return r, err
}

func checkGradients(g *graph.Graph, feeds map[string]*ndarray.Array, opts *GradCheckOptions) (*GradCheckResult, *workspace, error) {
	o := opts.withDefaults()
	losses, err := lossNames(g)
	if err != nil {
		return nil, nil, err
	}
	names, err := selectVariables(g, &o)
	if err != nil {
		return nil, nil, err
	}
	if len(names) == 0 {
		return nil, nil, errors.New("validation: nothing to check: no floating-point VARIABLE or placeholder reaches the loss (or all are skipped)")
	}
	toF64 := !o.KeepDTypes
	spec := cloneSpec{float64: toF64, placeholders: map[string][]int{}}
	for _, n := range names {
		v, _ := g.Variable(n)
		if v.Type() == graph.VARIABLE || v.Type() == graph.CONSTANT {
			spec.placeholders[n] = v.Value().Shape()
		}
	}
	c, err := cloneGraph(g, spec)
	if err != nil {
		return nil, nil, err
	}
	cfeeds, err := convertFeeds(feeds, toF64)
	if err != nil {
		return nil, nil, err
	}
	for _, n := range names {
		v, _ := g.Variable(n)
		if v.Type() == graph.VARIABLE || v.Type() == graph.CONSTANT {
			val := v.Value()
			if toF64 && val.DType() != ndarray.Float64 {
				if val, err = ndarray.Cast(val, ndarray.Float64); err != nil {
					return nil, nil, err
				}
			}
			cfeeds[n] = val
		}
	}
	res := &GradCheckResult{Kind: "gradient check", Eps: o.Eps, MaxRel: o.MaxRelError, MinAbs: o.MinAbsError, Float64Copy: toF64}
	same := func(string) (*graph.Graph, map[string]*ndarray.Array, error) { return c, cfeeds, nil }
	ws, err := runCheck(c, cfeeds, same, losses, names, g, &o, res)
	return res, ws, err
}

// CheckActivationGradients checks the gradients of g's loss with respect to
// intermediate values (op outputs), as SameDiff's ActivationGradCheckUtil
// does: the analytic gradients come from the graph as it is; the numeric ones
// from a copy in which each named activation is a placeholder fed its
// computed value, perturbed element by element, so that only the ops
// downstream of it see the change. Options apply as for CheckGradients
// (Variables is ignored: activations names what to check).
func CheckActivationGradients(g *graph.Graph, feeds map[string]*ndarray.Array, activations []string, opts *GradCheckOptions) (*GradCheckResult, error) {
	o := opts.withDefaults()
	losses, err := lossNames(g)
	if err != nil {
		return nil, err
	}
	if len(activations) == 0 {
		return nil, errors.New("validation: no activations to check")
	}
	for _, n := range activations {
		v, ok := g.Variable(n)
		if !ok {
			return nil, fmt.Errorf("validation: no variable named %q", n)
		}
		if v.Type() != graph.ARRAY {
			return nil, fmt.Errorf("validation: %q is a %v, not an op output; check it with CheckGradients", n, v.Type())
		}
		if !v.DType().IsFloat() {
			return nil, fmt.Errorf("validation: activation %q is %v; only floating-point values have gradients", n, v.DType())
		}
	}
	names := removeSkipped(activations, o.Skip)
	if len(names) == 0 {
		return nil, errors.New("validation: nothing to check: every activation is skipped")
	}
	toF64 := !o.KeepDTypes
	// The graph as it is (copied so that the gradient ops do not land in g).
	a, err := cloneGraph(g, cloneSpec{float64: toF64})
	if err != nil {
		return nil, err
	}
	afeeds, err := convertFeeds(feeds, toF64)
	if err != nil {
		return nil, err
	}
	vals, err := exec.New(a).Exec(exec.Request{Feeds: afeeds, Outputs: names, Context: o.Context})
	if err != nil {
		return nil, fmt.Errorf("validation: computing the activations: %w", err)
	}
	// For each activation, a copy where it is a placeholder fed its
	// value (one copy per activation, so that perturbing one reaches the
	// others downstream of it).
	numeric := func(name string) (*graph.Graph, map[string]*ndarray.Array, error) {
		b, err := cloneGraph(g, cloneSpec{float64: toF64, placeholders: map[string][]int{name: vals[name].Shape()}})
		if err != nil {
			return nil, nil, err
		}
		feeds := maps.Clone(afeeds)
		feeds[name] = vals[name]
		return b, feeds, nil
	}
	res := &GradCheckResult{Kind: "activation gradient check", Eps: o.Eps, MaxRel: o.MaxRelError, MinAbs: o.MinAbsError, Float64Copy: toF64}
	_, err = runCheck(a, afeeds, numeric, losses, names, g, &o, res)
	return res, err
}

// numericGraph returns the graph and feeds in which the named target is a
// placeholder to perturb.
type numericGraph func(name string) (*graph.Graph, map[string]*ndarray.Array, error)

// runCheck computes the analytic gradients of the targets in ag (fed
// afeeds), then the numeric ones by perturbing each target's feed in the
// graph numeric gives for it (ag itself when it is the same graph: one
// session, one compiled plan for every evaluation).
func runCheck(ag *graph.Graph, afeeds map[string]*ndarray.Array, numeric numericGraph, losses, names []string, orig *graph.Graph, o *GradCheckOptions, res *GradCheckResult) (*workspace, error) {
	lossVars := make([]*graph.Variable, len(losses))
	for i, n := range losses {
		lossVars[i], _ = ag.Variable(n)
	}
	wrt := make([]*graph.Variable, len(names))
	for i, n := range names {
		wrt[i], _ = ag.Variable(n)
	}
	var grads []*graph.Variable
	if len(wrt) > 0 {
		var err error
		if grads, err = autodiff.GradSum(lossVars, wrt...); err != nil {
			return nil, fmt.Errorf("validation: building the gradients: %w", err)
		}
	}
	outs := append([]string(nil), losses...)
	for _, gv := range grads {
		outs = append(outs, gv.Name())
	}
	listeners := append([]exec.Listener(nil), o.Listeners...)
	var nip *NonInPlace
	if !o.NoInPlaceCheck {
		nip = NewNonInPlace()
		listeners = append(listeners, nip)
	}
	as := exec.New(ag)
	vals, err := as.Exec(exec.Request{Feeds: afeeds, Outputs: outs, Listeners: listeners, Context: o.Context})
	if err != nil {
		return nil, fmt.Errorf("validation: computing the analytic gradients: %w", err)
	}
	if nip != nil {
		res.InPlace = nip.Stats()
	}
	res.Loss = sumLosses(vals, losses)
	ws := &workspace{g: ag, feeds: afeeds}

	sessions := map[*graph.Graph]*exec.Session{ag: as}
	rng := rand.New(rand.NewPCG(o.Seed, 0x5d6f))
	for i, n := range names {
		ng, nfeeds, err := numeric(n)
		if err != nil {
			return ws, err
		}
		ns := sessions[ng]
		if ns == nil {
			ns = exec.New(ng)
			sessions[ng] = ns
		}
		ov, _ := orig.Variable(n)
		gv := vals[grads[i].Name()]
		val := nfeeds[n]
		if val == nil {
			return ws, fmt.Errorf("validation: placeholder %q is not fed", n)
		}
		if !ndarray.SameShape(gv.Shape(), val.Shape()) {
			return ws, fmt.Errorf("validation: the gradient of %q has shape %v, the variable %v", n, gv.Shape(), val.Shape())
		}
		t := target{name: n, dtype: ov.DType(), shape: val.Shape(), analytic: gv.Float64s(), value: val}
		lossAt := func(feeds map[string]*ndarray.Array) (float64, error) {
			out, err := ns.Exec(exec.Request{Feeds: feeds, Outputs: losses, Listeners: o.Listeners, Context: o.Context})
			if err != nil {
				return 0, err
			}
			return sumLosses(out, losses), nil
		}
		stop, err := checkTarget(t, nfeeds, lossAt, o, rng, res)
		if err != nil {
			return ws, err
		}
		if stop {
			res.Stopped = true
			break
		}
	}
	return ws, nil
}

// checkTarget runs the central differences of one variable.
func checkTarget(t target, base map[string]*ndarray.Array, lossAt func(map[string]*ndarray.Array) (float64, error), o *GradCheckOptions, rng *rand.Rand, res *GradCheckResult) (stop bool, err error) {
	sum := VarSummary{Name: t.name, DType: t.dtype, Shape: t.shape}
	defer func() { res.Vars = append(res.Vars, sum) }()
	n := len(t.analytic)
	idx, err := selectElements(t.name, t.shape, n, o, rng)
	if err != nil {
		return false, err
	}
	work, err := ndarray.Copy(t.value) // packed: element j is at position j
	if err != nil {
		return false, fmt.Errorf("validation: %q: %w", t.name, err)
	}
	feeds := maps.Clone(base)
	feeds[t.name] = work
	get, set, err := accessors(work)
	if err != nil {
		return false, fmt.Errorf("validation: %q: %w", t.name, err)
	}
	for _, j := range idx {
		orig := get(j)
		set(j, orig+o.Eps)
		xp := get(j)
		fp, err := lossAt(feeds)
		if err != nil {
			set(j, orig)
			return false, fmt.Errorf("validation: loss with %s%v at %v+eps: %w", t.name, unflatten(j, t.shape), orig, err)
		}
		set(j, orig-o.Eps)
		xm := get(j)
		fm, err := lossAt(feeds)
		set(j, orig)
		if err != nil {
			return false, fmt.Errorf("validation: loss with %s%v at %v-eps: %w", t.name, unflatten(j, t.shape), orig, err)
		}
		num := (fp - fm) / (xp - xm)
		an := t.analytic[j]
		p := Point{Variable: t.name, Index: unflatten(j, t.shape), Analytic: an, Numeric: num, AbsError: math.Abs(an - num)}
		if an != 0 || num != 0 {
			p.RelError = p.AbsError / (math.Abs(an) + math.Abs(num))
		}
		sum.Checked++
		res.Checked++
		if an != 0 {
			sum.NonZero++
		}
		fail := false
		switch {
		case math.IsNaN(an) || math.IsInf(an, 0):
			p.Reason = fmt.Sprintf("the analytic gradient is %v", an)
			fail = true
		case math.IsNaN(num) || math.IsInf(num, 0):
			p.Reason = fmt.Sprintf("the numeric gradient is %v (loss %v at +eps, %v at -eps)", num, fp, fm)
			fail = true
		default:
			if p.RelError > sum.MaxRelError {
				sum.MaxRelError = p.RelError
			}
			if p.RelError > res.MaxRelError {
				res.MaxRelError = p.RelError
			}
			fail = p.RelError > o.MaxRelError && p.AbsError >= o.MinAbsError
		}
		p.Failed = fail
		if o.Verbose {
			res.Points = append(res.Points, p)
		}
		if !fail {
			res.Passed++
			continue
		}
		sum.Failed++
		res.Failed++
		res.Failures = append(res.Failures, p)
		if o.StopAtFirstFailure {
			return true, nil
		}
	}
	if o.FailOnZeroGradient && sum.Checked > 0 && sum.NonZero == 0 {
		sum.Failed++
		res.Failed++
		res.Failures = append(res.Failures, Point{Variable: t.name, Index: unflatten(0, t.shape), Failed: true,
			Reason: fmt.Sprintf("the analytic gradient is zero at all %d checked elements: the check proves nothing", sum.Checked)})
		if o.StopAtFirstFailure {
			return true, nil
		}
	}
	return false, nil
}

// accessors return element j of a packed float array, and set it.
func accessors(a *ndarray.Array) (func(int) float64, func(int, float64), error) {
	switch a.DType() {
	case ndarray.Float64:
		raw := ndarray.Raw[float64](a)
		return func(j int) float64 { return raw[j] }, func(j int, v float64) { raw[j] = v }, nil
	case ndarray.Float32:
		raw := ndarray.Raw[float32](a)
		return func(j int) float64 { return float64(raw[j]) }, func(j int, v float64) { raw[j] = float32(v) }, nil
	}
	return nil, nil, fmt.Errorf("cannot perturb a %v array", a.DType())
}

// selectElements returns the C-order positions to check, in order.
func selectElements(name string, shape []int, n int, o *GradCheckOptions, rng *rand.Rand) ([]int, error) {
	idx := make([]int, 0, n)
	var mask []float64
	if m, ok := o.Masks[name]; ok && m != nil {
		if !ndarray.SameShape(m.Shape(), shape) {
			return nil, fmt.Errorf("validation: the mask of %q has shape %v, the variable %v", name, m.Shape(), shape)
		}
		mask = m.Float64s()
	}
	for j := 0; j < n; j++ {
		if mask == nil || mask[j] != 0 {
			idx = append(idx, j)
		}
	}
	if o.Every > 1 {
		k := 0
		for j := 0; j < len(idx); j += o.Every {
			idx[k] = idx[j]
			k++
		}
		idx = idx[:k]
	}
	if m := o.MaxPerParam; m > 0 && len(idx) > m {
		switch o.Subset {
		case SubsetEveryN:
			step := len(idx) / m
			k := 0
			for j := 0; j < len(idx) && k < m; j += step {
				idx[k] = idx[j]
				k++
			}
			idx = idx[:k]
		default:
			perm := rng.Perm(len(idx))[:m]
			sort.Ints(perm)
			pick := make([]int, m)
			for k, p := range perm {
				pick[k] = idx[p]
			}
			idx = pick
		}
	}
	return idx, nil
}

func sumLosses(vals map[string]*ndarray.Array, losses []string) float64 {
	s := 0.0
	for _, n := range losses {
		for _, v := range vals[n].Float64s() {
			s += v
		}
	}
	return s
}

func lossNames(g *graph.Graph) ([]string, error) {
	if g == nil {
		return nil, errors.New("validation: nil graph")
	}
	if err := g.Err(); err != nil {
		return nil, fmt.Errorf("validation: the graph has a build error: %w", err)
	}
	ls := g.Losses()
	if len(ls) == 0 {
		return nil, errors.New("validation: the graph has no loss variables (set them with SetLoss)")
	}
	return ls, nil
}

// selectVariables returns the names of the variables to check, in the
// graph's order.
func selectVariables(g *graph.Graph, o *GradCheckOptions) ([]string, error) {
	for _, n := range o.Skip {
		if _, ok := g.Variable(n); !ok {
			return nil, fmt.Errorf("validation: Skip names %q, which is not a variable of the graph", n)
		}
	}
	for n := range o.Masks {
		if _, ok := g.Variable(n); !ok {
			return nil, fmt.Errorf("validation: Masks names %q, which is not a variable of the graph", n)
		}
	}
	var names []string
	if len(o.Variables) > 0 {
		for _, n := range o.Variables {
			v, ok := g.Variable(n)
			if !ok {
				return nil, fmt.Errorf("validation: no variable named %q", n)
			}
			if v.Op() != nil {
				return nil, fmt.Errorf("validation: %q is an op output; check it with CheckActivationGradients", n)
			}
			if !v.DType().IsFloat() {
				return nil, fmt.Errorf("validation: %q is %v; only floating-point values have gradients", n, v.DType())
			}
			if v.Type() == graph.SEQUENCE {
				return nil, fmt.Errorf("validation: %q is a SEQUENCE; it cannot be checked", n)
			}
			names = append(names, n)
		}
		return removeSkipped(names, o.Skip), nil
	}
	reach := reachesLoss(g)
	for _, v := range g.Variables() {
		if (v.Type() == graph.VARIABLE || v.Type() == graph.PLACEHOLDER) && v.DType().IsFloat() && reach[v] {
			names = append(names, v.Name())
		}
	}
	return removeSkipped(names, o.Skip), nil
}

func removeSkipped(names, skip []string) []string {
	out := names[:0:0]
	for _, n := range names {
		if !slices.Contains(skip, n) {
			out = append(out, n)
		}
	}
	return out
}

// reachesLoss marks the values that a loss depends on through inputs that
// carry gradients (floating-point inputs not declared NonDiff).
func reachesLoss(g *graph.Graph) map[*graph.Variable]bool {
	need := map[*graph.Variable]bool{}
	for _, n := range g.Losses() {
		if v, ok := g.Variable(n); ok {
			need[v] = true
		}
	}
	all := g.Ops()
	order, err := topoOrder(all)
	if err != nil {
		order = all
	}
	for i := len(order) - 1; i >= 0; i-- {
		o := order[i]
		hit := false
		for _, out := range o.Outputs() {
			if need[out] {
				hit = true
				break
			}
		}
		if !hit {
			continue
		}
		def := o.Def()
		for k, in := range o.Inputs() {
			if !in.DType().IsFloat() {
				continue
			}
			if def != nil && slices.Contains(def.NonDiff, k) {
				continue
			}
			need[in] = true
		}
	}
	return need
}
