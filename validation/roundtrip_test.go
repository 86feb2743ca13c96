package validation_test

import (
	"math"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	"github.com/sdgo/sdgo/validation"
)

// A NaN argument (here pad's constant) is the same NaN after a round trip:
// RoundTrip must not report it, and CompareGraphs still reports a NaN against
// a number.
func TestRoundTripNaNArgs(t *testing.T) {
	build := func(c float64) *graph.Graph {
		g := graph.New()
		x := g.Placeholder("x", ndarray.Float64, 2)
		p := g.Const("p", ndarray.Must(ndarray.FromSlice([]int64{1, 1}, 1, 2)))
		if _, err := g.Op("pad", ops.Args{F: []float64{c}}, x, p); err != nil {
			t.Fatal(err)
		}
		return g
	}
	g := build(math.NaN())
	h, err := validation.RoundTrip(g, map[string]*ndarray.Array{"x": f64([]int{2}, 3, 4)})
	if err != nil || h == nil {
		t.Fatal(err)
	}
	if d := validation.CompareGraphs(g, h); len(d) != 0 {
		t.Errorf("NaN argument differs after a round trip: %q", d)
	}
	d := strings.Join(validation.CompareGraphs(g, build(0)), "\n")
	if !strings.Contains(d, "arguments float [NaN], loaded [0]") {
		t.Errorf("NaN against 0 not reported:\n%s", d)
	}
}
