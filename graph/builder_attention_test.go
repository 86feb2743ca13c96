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

// DotProductAttentionV2: with equal keys the weights are uniform over the
// kept keys (worked by hand), the mask and causal options reach the op,
// and dropout adds the multiplier output.
func TestAttentionV2Builder(t *testing.T) {
	g := graph.New()
	arr := func(v []float64, s ...int) *ndarray.Array { return ndarray.Must(ndarray.FromSlice(v, s...)) }
	q := g.Var("q", arr([]float64{2, 5}, 1, 2, 1))     // [batch 1, Tq 2, d 1]
	k := g.Var("k", arr([]float64{1, 1, 1}, 1, 3, 1))  // three equal keys
	v := g.Var("v", arr([]float64{3, 6, 12}, 1, 3, 1)) // dv 1
	mask := g.Const("vmask", arr([]float64{1, 1, 0}, 1, 3))
	nn := g.NN()
	plain := nn.DotProductAttentionV2(q, v, graph.AttentionV2Config{Keys: k})
	masked := nn.DotProductAttentionV2(q, v, graph.AttentionV2Config{Keys: k, ValueMask: mask, Causal: true})
	drop := nn.DotProductAttentionV2(q, v, graph.AttentionV2Config{Keys: k, Dropout: 0.5, Training: true, Seed: 3})
	for _, x := range []*graph.Variable{plain.Out, masked.Out, masked.Weights, drop.DropoutMask} {
		if x == nil || x.Err() != nil {
			t.Fatalf("%v", x)
		}
	}
	if plain.DropoutMask != nil {
		t.Error("no dropout, yet a dropout mask output")
	}
	res, err := exec.Output(g, nil, plain.Out.Name(), masked.Out.Name(), masked.Weights.Name(), drop.DropoutMask.Name())
	if err != nil {
		t.Fatal(err)
	}
	// Causal with Tv - Tq = 1: query 0 sees keys 0, 1; query 1 all three,
	// but the mask hides key 2: both the mean of 3 and 6.
	for _, c := range []struct {
		v    *graph.Variable
		want []float64
	}{{plain.Out, []float64{7, 7}}, {masked.Out, []float64{4.5, 4.5}}, {masked.Weights, []float64{0.5, 0.5, 0, 0.5, 0.5, 0}}} {
		got := res[c.v.Name()].Float64s()
		for i := range c.want {
			if len(got) != len(c.want) || math.Abs(got[i]-c.want[i]) > 1e-12 {
				t.Errorf("%s = %v, want %v", c.v.Name(), got, c.want)
				break
			}
		}
	}
	for _, m := range res[drop.DropoutMask.Name()].Float64s() {
		if m != 0 && m != 2 {
			t.Errorf("dropout multiplier %v", m)
		}
	}
	if bad := nn.DotProductAttentionV2(q, g.Var("v2", arr([]float64{1, 2}, 2, 1, 1)), graph.AttentionV2Config{}); bad.Out.Err() == nil || bad.Weights.Err() == nil {
		t.Error("a batch mismatch: no error")
	}
}
