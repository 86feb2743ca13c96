package graph_test

import (
	"math"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// The attention builders: with equal keys the weights are uniform over the
// kept keys, so the output is the mean of their values (worked by hand).
func TestAttentionBuilders(t *testing.T) {
	g := graph.New()
	arr := func(v []float64, s ...int) *ndarray.Array { return ndarray.Must(ndarray.FromSlice(v, s...)) }
	q := g.Var("q", arr([]float64{2}, 1, 1, 1))            // [batch 1, dk 1, tq 1]
	k := g.Var("k", arr([]float64{1, 1, 1}, 1, 1, 3))      // three equal keys
	v := g.Var("v", arr([]float64{3, 6, 12}, 1, 1, 3))     // dv 1
	mask := g.Const("mask", arr([]float64{1, 1, 0}, 1, 3)) // skip the third key
	nn := g.NN()
	out := nn.DotProductAttention(q, k, v, nil, graph.AttentionConfig{Scaled: true})
	masked, w := nn.DotProductAttentionWithWeights(q, k, v, mask, graph.AttentionConfig{})
	// Two heads, identity-like projections: each head sees the same
	// equal keys; Wo sums the heads into one output feature.
	ones := func(name string, s ...int) *graph.Variable {
		return g.Var(name, ndarray.Must(ndarray.Full(ndarray.Float64, 1, s...)))
	}
	mw := graph.MultiHeadWeights{Wq: ones("wq", 2, 1, 1), Wk: ones("wk", 2, 1, 1), Wv: ones("wv", 2, 1, 1), Wo: ones("wo", 2, 1)}
	mha := nn.MultiHeadDotProductAttention(q, k, v, mw, mask, graph.AttentionConfig{Scaled: true})
	for _, x := range []*graph.Variable{out, masked, w, mha} {
		if x.Err() != nil {
			t.Fatal(x.Err())
		}
	}
	res, err := exec.Output(g, nil, out.Name(), masked.Name(), w.Name(), mha.Name())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		v    *graph.Variable
		want []float64
	}{{out, []float64{7}}, {masked, []float64{4.5}}, {w, []float64{0.5, 0.5, 0}}, {mha, []float64{9}}} {
		got := res[c.v.Name()].Float64s()
		for i := range c.want {
			if len(got) != len(c.want) || math.Abs(got[i]-c.want[i]) > 1e-12 {
				t.Errorf("%s = %v, want %v", c.v.Name(), got, c.want)
				break
			}
		}
	}
	// Wo that does not take heads·pv rows: an error naming Wo.
	bad := nn.MultiHeadDotProductAttention(q, k, v, graph.MultiHeadWeights{Wq: mw.Wq, Wk: mw.Wk, Wv: mw.Wv, Wo: ones("wo3", 3, 1)}, nil, graph.AttentionConfig{})
	if bad.Err() == nil || !strings.Contains(bad.Err().Error(), "Wo") {
		t.Errorf("a Wo of 3 rows for 2 heads: error %v", bad.Err())
	}
	// Two-output builders pass an error on to both outputs.
	e1, e2 := nn.DotProductAttentionWithWeights(bad, k, v, nil, graph.AttentionConfig{})
	if e1.Err() == nil || e2.Err() == nil {
		t.Error("an erroneous input gave no error")
	}
}
