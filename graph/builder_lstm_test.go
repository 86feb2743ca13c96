package graph_test

import (
	"errors"
	"math"
	"testing"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// LSTMLayer through the builder, on libnd4j's DeclarableOpsTests13.lstmLayer_1
// (x = linspace(0.5, 0.5) [5, 3, 3], Wx = 0.003, Wr = 0.006, b = 0.5,
// hI = 1, cI = 2): its last output and cell state, per batch row.
func TestLSTMLayerBuilder(t *testing.T) {
	g := graph.New()
	full := func(name string, v float64, s ...int) *graph.Variable {
		return g.Var(name, ndarray.Must(ndarray.Full(ndarray.Float32, v, s...)))
	}
	xs := make([]float32, 45)
	for i := range xs {
		xs[i] = 0.5 * float32(i+1)
	}
	x := g.Var("x", ndarray.Must(ndarray.FromSlice(xs, 5, 3, 3)))
	w := graph.LSTMLayerWeights{Wx: full("wx", 0.003, 3, 12), Wr: full("wr", 0.006, 3, 12), B: full("b", 0.5, 12)}
	s := graph.LSTMLayerState{H: full("h0", 1, 3, 3), C: full("c0", 2, 3, 3)}
	o := g.RNN().LSTMLayer(x, w, s, graph.LSTMLayerConfig{ReturnLastH: true, ReturnLastC: true})
	if o.H != nil || o.HLast == nil || o.CLast == nil {
		t.Fatalf("outputs %+v: want HLast and CLast only", o)
	}
	if err := o.CLast.Err(); err != nil {
		t.Fatal(err)
	}
	res, err := exec.Output(g, nil, o.HLast.Name(), o.CLast.Name())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		v    *graph.Variable
		want []float64
	}{{o.HLast, []float64{0.54484, 0.55379, 0.5625}}, {o.CLast, []float64{1.1589154, 1.1892855, 1.219861}}} {
		got := res[c.v.Name()].Float64s()
		for i, v := range got {
			if math.Abs(v-c.want[i/3]) > 1e-5 {
				t.Fatalf("%s = %v, want rows %v", c.v.Name(), got, c.want)
			}
		}
	}
	// With no output asked for, the whole sequence comes back.
	if h := g.RNN().LSTMLayer(x, w, graph.LSTMLayerState{}, graph.LSTMLayerConfig{}).H; h == nil || h.Err() != nil || !ndarray.SameShape(h.Shape(), []int{5, 3, 3}) {
		t.Errorf("default outputs: h %v", h)
	}
	// Missing weights and unknown activations are build errors.
	if o := g.RNN().LSTMLayer(x, graph.LSTMLayerWeights{Wx: w.Wx}, s, graph.LSTMLayerConfig{}); !errors.Is(o.H.Err(), graph.ErrBuild) {
		t.Errorf("no Wr: %v", o.H.Err())
	}
	if o := g.RNN().LSTMLayer(x, w, s, graph.LSTMLayerConfig{CellAct: graph.LSTMActivation{Kind: 42}}); o.H.Err() == nil {
		t.Error("activation kind 42 was accepted")
	}
	// Wr of the wrong shape: the op's error names it.
	bad := graph.LSTMLayerWeights{Wx: w.Wx, Wr: full("wr2", 0.006, 4, 12)}
	if o := g.RNN().LSTMLayer(x, bad, graph.LSTMLayerState{}, graph.LSTMLayerConfig{}); o.H.Err() == nil {
		t.Error("Wr [4 12] with nOut 3 was accepted")
	}
}
