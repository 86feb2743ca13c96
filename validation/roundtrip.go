package validation

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	"github.com/sdgo/sdgo/serialize"
)

// ErrRoundTrip is wrapped by the errors of RoundTrip.
var ErrRoundTrip = errors.New("round trip")

// maxDiffs bounds the differences a round trip error lists.
const maxDiffs = 20

// RoundTrip saves g as a graph file (serialize.Write), reads it back
// (serialize.Read), and compares the two graphs: every variable (name, type,
// dtype, shape, value), every op (name, op, arguments, inputs, outputs), the
// placeholders and the loss variables. It then runs both graphs with the
// feeds and compares every op output bit for bit. It returns the loaded
// graph, and an error listing the differences.
func RoundTrip(g *graph.Graph, feeds map[string]*ndarray.Array) (*graph.Graph, error) {
	return roundTrip(g, feeds, nil)
}

// roundTrip is RoundTrip with listeners on the runs that compare outputs.
func roundTrip(g *graph.Graph, feeds map[string]*ndarray.Array, listeners []exec.Listener) (*graph.Graph, error) {
	var buf bytes.Buffer
	if err := serialize.Write(&buf, g, nil); err != nil {
		return nil, fmt.Errorf("validation: %w: saving: %w", ErrRoundTrip, err)
	}
	h, err := serialize.Read(&buf)
	if err != nil {
		return nil, fmt.Errorf("validation: %w: loading what was saved: %w", ErrRoundTrip, err)
	}
	diffs := CompareGraphs(g, h)
	if len(diffs) == 0 {
		diffs = compareOutputs(g, h, feeds, listeners)
	}
	if len(diffs) > 0 {
		if len(diffs) > maxDiffs {
			diffs = append(diffs[:maxDiffs], fmt.Sprintf("... and %d more", len(diffs)-maxDiffs))
		}
		return h, fmt.Errorf("validation: %w: the loaded graph differs from the saved one:\n  %s", ErrRoundTrip, strings.Join(diffs, "\n  "))
	}
	return h, nil
}

// CompareGraphs lists the differences between two graphs: variables (name,
// type, dtype, shape, value of VARIABLEs and CONSTANTs, producing op),
// placeholders, ops (name, op, arguments, inputs, outputs) and loss
// variables. Ops are compared by their registered name, so an alias (mmul)
// matches its op (matmul).
func CompareGraphs(a, b *graph.Graph) []string {
	var d []string
	add := func(format string, args ...any) { d = append(d, fmt.Sprintf(format, args...)) }
	av, bv := a.Variables(), b.Variables()
	bByName := map[string]*graph.Variable{}
	for _, v := range bv {
		bByName[v.Name()] = v
	}
	seen := map[string]bool{}
	for _, x := range av {
		seen[x.Name()] = true
		y, ok := bByName[x.Name()]
		if !ok {
			add("variable %q (%v) is missing", x.Name(), x.Type())
			continue
		}
		if x.Type() != y.Type() {
			add("variable %q: type %v, loaded %v", x.Name(), x.Type(), y.Type())
		}
		if x.DType() != y.DType() {
			add("variable %q: dtype %v, loaded %v", x.Name(), x.DType(), y.DType())
		}
		if xs, ys := x.Shape(), y.Shape(); (xs == nil) != (ys == nil) || !slices.Equal(xs, ys) {
			add("variable %q: shape %s, loaded %s", x.Name(), shapeString(xs), shapeString(ys))
		}
		if x.Type() == graph.VARIABLE || x.Type() == graph.CONSTANT {
			xa, ya := x.Value(), y.Value()
			switch {
			case xa == nil || ya == nil:
				if (xa == nil) != (ya == nil) {
					add("variable %q: value %v, loaded %v", x.Name(), xa, ya)
				}
			case !ndarray.Equal(xa, ya):
				add("variable %q: value %v, loaded %v", x.Name(), xa, ya)
			}
		}
		if (x.Op() == nil) != (y.Op() == nil) || (x.Op() != nil && (x.Op().Name() != y.Op().Name() || x.OutputIndex() != y.OutputIndex())) {
			add("variable %q: produced by %s, loaded %s", x.Name(), producer(x), producer(y))
		}
	}
	for _, y := range bv {
		if !seen[y.Name()] {
			add("the loaded graph has an extra variable %q (%v)", y.Name(), y.Type())
		}
	}
	if pa, pb := namesOf(a.VariablesOf(graph.PLACEHOLDER)), namesOf(b.VariablesOf(graph.PLACEHOLDER)); !slices.Equal(pa, pb) {
		add("placeholders %q, loaded %q", pa, pb)
	}
	if la, lb := a.Losses(), b.Losses(); !slices.Equal(la, lb) {
		add("loss variables %q, loaded %q", la, lb)
	}
	ao, bo := a.Ops(), b.Ops()
	bOps := map[string]*graph.Op{}
	for _, o := range bo {
		bOps[o.Name()] = o
	}
	seenOp := map[string]bool{}
	for _, x := range ao {
		seenOp[x.Name()] = true
		y, ok := bOps[x.Name()]
		if !ok {
			add("op %q (%s) is missing", x.Name(), x.OpName())
			continue
		}
		if opName(x) != opName(y) {
			add("op %q: op %s, loaded %s", x.Name(), opName(x), opName(y))
		}
		if diff := argsDiff(x.Args(), y.Args()); diff != "" {
			add("op %q (%s): arguments %s", x.Name(), opName(x), diff)
		}
		if xi, yi := namesOf(x.Inputs()), namesOf(y.Inputs()); !slices.Equal(xi, yi) {
			add("op %q (%s): inputs %q, loaded %q", x.Name(), opName(x), xi, yi)
		}
		if xo, yo := namesOf(x.Outputs()), namesOf(y.Outputs()); !slices.Equal(xo, yo) {
			add("op %q (%s): outputs %q, loaded %q", x.Name(), opName(x), xo, yo)
		}
	}
	for _, y := range bo {
		if !seenOp[y.Name()] {
			add("the loaded graph has an extra op %q (%s)", y.Name(), y.OpName())
		}
	}
	return d
}

// compareOutputs runs both graphs and compares every op output.
func compareOutputs(a, b *graph.Graph, feeds map[string]*ndarray.Array, listeners []exec.Listener) []string {
	var names []string
	for _, v := range a.VariablesOf(graph.ARRAY) {
		if v.DType().Computable() {
			names = append(names, v.Name())
		}
	}
	if len(names) == 0 {
		return nil
	}
	ra, errA := exec.New(a).Exec(exec.Request{Feeds: feeds, Outputs: names, Listeners: listeners})
	rb, errB := exec.New(b).Exec(exec.Request{Feeds: feeds, Outputs: names, Listeners: listeners})
	if errA != nil || errB != nil {
		// Some output cannot be computed (a branch not taken, say):
		// compare output by output, failures included.
		return compareOneByOne(a, b, names, feeds, listeners)
	}
	var d []string
	for _, n := range names {
		if !ndarray.Equal(ra[n], rb[n]) {
			d = append(d, fmt.Sprintf("output %q: %v, loaded graph %v", n, ra[n], rb[n]))
		}
	}
	return d
}

// compareOneByOne runs each output on its own in both graphs: each must
// give the same value, or fail in both with the same message.
func compareOneByOne(a, b *graph.Graph, names []string, feeds map[string]*ndarray.Array, listeners []exec.Listener) []string {
	sa, sb := exec.New(a), exec.New(b)
	var d []string
	for _, n := range names {
		ra, errA := sa.Exec(exec.Request{Feeds: feeds, Outputs: []string{n}, Listeners: listeners})
		rb, errB := sb.Exec(exec.Request{Feeds: feeds, Outputs: []string{n}, Listeners: listeners})
		switch {
		case errA != nil || errB != nil:
			if errA == nil || errB == nil || errA.Error() != errB.Error() {
				d = append(d, fmt.Sprintf("output %q: saved graph: %v; loaded graph: %v", n, errA, errB))
			}
		case !ndarray.Equal(ra[n], rb[n]):
			d = append(d, fmt.Sprintf("output %q: %v, loaded graph %v", n, ra[n], rb[n]))
		}
	}
	return d
}

func producer(v *graph.Variable) string {
	if v.Op() == nil {
		return "nothing"
	}
	return fmt.Sprintf("output %d of %q", v.OutputIndex(), v.Op().Name())
}

func opName(o *graph.Op) string {
	if d := o.Def(); d != nil {
		return d.Name
	}
	return o.OpName()
}

func namesOf(vs []*graph.Variable) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Name()
	}
	return out
}

func shapeString(s []int) string {
	if s == nil {
		return "[?]"
	}
	return fmt.Sprint(s)
}

// argsDiff describes how two argument sets differ ("" when equal). It
// compares as serialize does when it decides whether arguments survived a
// save: nil and empty slots are equal, and so are two NaNs.
func argsDiff(a, b *ops.Args) string {
	var d []string
	if !slices.EqualFunc(a.F, b.F, sameFloat) {
		d = append(d, fmt.Sprintf("float %v, loaded %v", a.F, b.F))
	}
	if !slices.Equal(a.I, b.I) {
		d = append(d, fmt.Sprintf("int %v, loaded %v", a.I, b.I))
	}
	if !slices.Equal(a.B, b.B) {
		d = append(d, fmt.Sprintf("bool %v, loaded %v", a.B, b.B))
	}
	if !slices.Equal(a.D, b.D) {
		d = append(d, fmt.Sprintf("dtype %v, loaded %v", a.D, b.D))
	}
	if !slices.Equal(a.S, b.S) {
		d = append(d, fmt.Sprintf("string %q, loaded %q", a.S, b.S))
	}
	if !slices.Equal(a.Dims, b.Dims) {
		d = append(d, fmt.Sprintf("dimensions %v, loaded %v", a.Dims, b.Dims))
	}
	return strings.Join(d, "; ")
}

// sameFloat is x == y, except that a NaN equals a NaN.
func sameFloat(x, y float64) bool { return x == y || math.IsNaN(x) && math.IsNaN(y) }
