package opcases_test

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/sdgo/sdgo/ops"
	"github.com/sdgo/sdgo/validation"
	"github.com/sdgo/sdgo/validation/opcases"
)

// coverage is what the cases of one op proved.
type coverage struct {
	forward   int // cases whose forward stage ran and passed with the op in the graph
	expected  int // ... of which compared expected outputs
	grad      int // cases whose gradient check ran and passed with the op in the graph
	roundTrip int // cases whose round trips ran and passed
	rtSkipped []string
	failed    int
}

// TestOpCases runs every case of the library (forward expectations,
// gradient check, non-in-place listener, round trips), then checks that
// every registered op was covered by a passing forward case and, when it
// has a gradient rule, by a passing gradient check.
func TestOpCases(t *testing.T) {
	var mu sync.Mutex
	cov := map[string]*coverage{}
	at := func(op string) *coverage {
		if cov[op] == nil {
			cov[op] = &coverage{}
		}
		return cov[op]
	}
	t.Run("case", func(t *testing.T) {
		for _, c := range opcases.All() {
			t.Run(c.Op+"/"+c.Name, func(t *testing.T) {
				t.Parallel()
				tc := c.Build()
				r := validation.Run(t, tc)
				inGraph := false
				if tc.Graph != nil {
					for _, o := range tc.Graph.Ops() {
						if d := o.Def(); d != nil && d.Name == c.Op {
							inGraph = true
						}
					}
				}
				if !inGraph {
					t.Errorf("the case's graph has no %s op", c.Op)
				}
				mu.Lock()
				defer mu.Unlock()
				cv := at(c.Op)
				if r.Err() != nil || !inGraph {
					cv.failed++
					return
				}
				if r.Ran(validation.StageForward) {
					cv.forward++
					if len(tc.Expected) > 0 {
						cv.expected++
					}
				}
				if r.Ran(validation.StageGradCheck) && r.Grad != nil && r.Grad.Checked > 0 {
					cv.grad++
				}
				if r.Ran(validation.StageRoundTripBefore) && r.Ran(validation.StageRoundTripAfter) {
					cv.roundTrip++
				} else if tc.SkipRoundTrip != "" {
					cv.rtSkipped = append(cv.rtSkipped, tc.SkipRoundTrip)
				}
			})
		}
	})
	var noRT, skippedRT []string
	for _, d := range ops.All() {
		c := cov[d.Name]
		if c == nil {
			c = &coverage{}
		}
		if c.expected == 0 {
			t.Errorf("op %q: no passing forward case with expected outputs", d.Name)
		}
		if d.Differentiable() && c.grad == 0 {
			t.Errorf("op %q has a gradient rule but no passing gradient check", d.Name)
		}
		switch {
		case c.roundTrip > 0:
		case len(c.rtSkipped) > 0:
			skippedRT = append(skippedRT, fmt.Sprintf("%s (%s)", d.Name, c.rtSkipped[0]))
		default:
			noRT = append(noRT, d.Name)
		}
	}
	if len(noRT) > 0 {
		t.Errorf("ops without a passing save/load round trip (and no case saying why): %s", strings.Join(noRT, ", "))
	}
	for _, s := range skippedRT {
		t.Logf("round trip skipped for %s", s)
	}
	if testing.Verbose() {
		names := make([]string, 0, len(cov))
		for n := range cov {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			c := cov[n]
			t.Logf("%-34s forward %2d (expected %2d)  gradient %2d  round trip %2d", n, c.forward, c.expected, c.grad, c.roundTrip)
		}
	}
}

// TestCoverage is the static form of the coverage rule, cheap enough to
// fail first: every registered op has a case, and a differentiable op a
// case that does not skip its gradient check.
func TestCoverage(t *testing.T) {
	fwd := map[string]bool{}
	grad := map[string]bool{}
	for _, c := range opcases.All() {
		if _, ok := ops.Lookup(c.Op); !ok {
			t.Errorf("case %q is for op %q, which is not registered", c.Name, c.Op)
		}
		fwd[c.Op] = true
		tc := c.Build()
		if tc.SkipGradCheck == "" && tc.Graph != nil && len(tc.Graph.Losses()) > 0 {
			grad[c.Op] = true
		}
	}
	for _, d := range ops.All() {
		if !fwd[d.Name] {
			t.Errorf("op %q has no test case", d.Name)
		}
		if d.Differentiable() && !grad[d.Name] {
			t.Errorf("op %q has a gradient rule but no case checks its gradient", d.Name)
		}
	}
}

// The in-place chain's writes really run in place in the forward pass, with
// the listener checking the outside of each written view (and passing).
func TestInPlaceChainIsWatched(t *testing.T) {
	found := false
	for _, c := range opcases.For("view_add") {
		if !strings.Contains(c.Name, "in-place chain") {
			continue
		}
		found = true
		r := validation.Run(t, c.Build())
		if r.InPlace.InPlace != 3 || r.InPlace.OutsideOnly == 0 {
			t.Errorf("the listener saw %d in-place writes (%d elements outside them), want 3", r.InPlace.InPlace, r.InPlace.OutsideOnly)
		}
		if r.InPlace.Views == 0 {
			t.Error("the listener checked no view")
		}
	}
	if !found {
		t.Fatal("no in-place chain case")
	}
}
