package graph_test

import (
	"math"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// SRUBidirectional with zero weights, worked by hand: every gate is 1/2,
// so c_t = c_prev/2 and h = tanh(c)/2 + x/2 (x = 0). Feature 0 runs
// forwards from 4 (c = 2, 1 over the two steps), feature 1 backwards from
// -2 (c = -0.5 at step 0, -1 at step 1, which it visits first).
func TestSRUBidirectionalBuilder(t *testing.T) {
	g := graph.New()
	zeros := func(name string, s ...int) *graph.Variable {
		return g.Var(name, ndarray.Must(ndarray.Zeros(ndarray.Float64, s...)))
	}
	c0 := g.Var("c0", ndarray.Must(ndarray.FromSlice([]float64{4, -2}, 1, 2)))
	h, c := g.RNN().SRUBidirectional(zeros("x", 2, 1, 2), c0, graph.SRUWeights{W: zeros("w", 2, 6), B: zeros("b", 4)}, graph.SRUConfig{})
	res, err := exec.Output(g, nil, h.Name(), c.Name())
	if err != nil {
		t.Fatal(err)
	}
	wantC := []float64{2, -0.5, 1, -1}
	for i, v := range res[c.Name()].Float64s() {
		if math.Abs(v-wantC[i]) > 1e-12 || math.Abs(res[h.Name()].Float64s()[i]-math.Tanh(wantC[i])/2) > 1e-12 {
			t.Errorf("element %d: c %v h %v, want c %v h tanh(c)/2", i, v, res[h.Name()].Float64s()[i], wantC[i])
		}
	}
	// An odd feature count cannot split into two directions.
	bad, _ := g.RNN().SRUBidirectional(zeros("x3", 2, 1, 3), c0, graph.SRUWeights{W: zeros("w3", 3, 9), B: zeros("b3", 6)}, graph.SRUConfig{})
	if bad.Err() == nil || !strings.Contains(bad.Err().Error(), "sru_bi: x has shape [2 1 3]; want [time, batch, 2·inSize]") {
		t.Errorf("three features: error %v", bad.Err())
	}
}
