package graph_test

import (
	"math"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// GRUCell with zero weights: r = u = σ(0) = 1/2, c = tanh(0) = 0, so
// h = hLast/2 (worked by hand).
func TestGRUCellBuilder(t *testing.T) {
	g := graph.New()
	zeros := func(name string, s ...int) *graph.Variable {
		return g.Var(name, ndarray.Must(ndarray.Zeros(ndarray.Float64, s...)))
	}
	x := g.Var("x", ndarray.Must(ndarray.FromSlice([]float64{1, 2, 3}, 1, 3)))
	h := g.Var("h", ndarray.Must(ndarray.FromSlice([]float64{4, -2}, 1, 2)))
	w := graph.GRUWeights{W: zeros("w", 5, 4), Wc: zeros("wc", 5, 2), B: zeros("b", 4), Bc: zeros("bc", 2)}
	o := g.RNN().GRUCell(x, h, w)
	if o.H.Err() != nil {
		t.Fatal(o.H.Err())
	}
	res, err := exec.Output(g, nil, o.R.Name(), o.C.Name(), o.H.Name())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		v    *graph.Variable
		want []float64
	}{{o.R, []float64{0.5, 0.5}}, {o.C, []float64{0, 0}}, {o.H, []float64{2, -1}}} {
		got := res[c.v.Name()].Float64s()
		if len(got) != 2 || math.Abs(got[0]-c.want[0]) > 1e-15 || math.Abs(got[1]-c.want[1]) > 1e-15 {
			t.Errorf("%s = %v, want %v", c.v.Name(), got, c.want)
		}
	}
	// W with the wrong number of columns: an error naming W.
	bad := g.RNN().GRUCell(x, h, graph.GRUWeights{W: zeros("w3", 5, 3), Wc: w.Wc, B: w.B, Bc: w.Bc})
	if bad.H.Err() == nil || !strings.Contains(bad.H.Err().Error(), "W (reset and update gate weights) has shape [5 3]; want [5 4]") {
		t.Errorf("a W of 3 columns: error %v", bad.H.Err())
	}
}
