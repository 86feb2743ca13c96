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
	// LSTMCell with zero weights and a forget bias of ln 3: i = o = 1/2,
	// z = 0, f = 3/4, so c = 3/4·cLast and y = tanh(c)/2 (by hand).
	lw := graph.LSTMWeights{W: zeros("lw", 5, 8), Wci: zeros("wci", 2), Wcf: zeros("wcf", 2), Wco: zeros("wco", 2), B: zeros("lb", 8)}
	lo := g.RNN().LSTMCell(x, h, h, lw, graph.LSTMCellConfig{ForgetBias: math.Log(3)})
	if lo.Y.Err() != nil {
		t.Fatal(lo.Y.Err())
	}
	lres, err := exec.Output(g, nil, lo.C.Name(), lo.Y.Name())
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{3, -1.5} {
		c, y := lres[lo.C.Name()].Float64s()[i], lres[lo.Y.Name()].Float64s()[i]
		if math.Abs(c-want) > 1e-12 || math.Abs(y-math.Tanh(want)/2) > 1e-12 {
			t.Errorf("LSTMCell element %d: c %v y %v, want %v and %v", i, c, y, want, math.Tanh(want)/2)
		}
	}
	// SRUCell with zero weights and biases: f = r = 1/2, c = ct1/2,
	// h = tanh(c)/2 + x/2 (by hand).
	sh, sc := g.RNN().SRUCell(h, h, zeros("sw", 2, 6), zeros("sb", 4))
	sres, err := exec.Output(g, nil, sh.Name(), sc.Name())
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range []float64{4, -2} {
		gh, gc := sres[sh.Name()].Float64s()[i], sres[sc.Name()].Float64s()[i]
		if math.Abs(gc-v/2) > 1e-12 || math.Abs(gh-(math.Tanh(v/2)+v)/2) > 1e-12 {
			t.Errorf("SRUCell element %d: h %v c %v", i, gh, gc)
		}
	}
	// GRU over two steps with zero weights: every step halves h.
	xs := g.Var("xs", ndarray.Must(ndarray.Zeros(ndarray.Float64, 2, 1, 3)))
	seq := g.RNN().GRU(xs, h, graph.GRUSequenceWeights{Wx: zeros("wx", 3, 6), Wh: zeros("wh", 2, 6), B: zeros("gb", 6)})
	gres, err := exec.Output(g, nil, seq.Name())
	if err != nil {
		t.Fatal(err)
	}
	if got := gres[seq.Name()].Float64s(); len(got) != 4 || got[0] != 2 || got[1] != -1 || got[2] != 1 || got[3] != -0.5 {
		t.Errorf("GRU = %v, want [2 -1 1 -0.5]", got)
	}
	// W with the wrong number of columns: an error naming W.
	bad := g.RNN().GRUCell(x, h, graph.GRUWeights{W: zeros("w3", 5, 3), Wc: w.Wc, B: w.B, Bc: w.Bc})
	if bad.H.Err() == nil || !strings.Contains(bad.H.Err().Error(), "W (reset and update gate weights) has shape [5 3]; want [5 4]") {
		t.Errorf("a W of 3 columns: error %v", bad.H.Err())
	}
}

// LSTMBlock and SRU with zero weights, worked by hand: lstmBlock's step
// with a forget bias of ln 3 gives c = 3/4·cPrev, y = tanh(c)/2; sru's
// gives c = cPrev/2, h = tanh(c)/2 + x/2.
func TestSequenceBuilders(t *testing.T) {
	g := graph.New()
	zeros := func(name string, s ...int) *graph.Variable {
		return g.Var(name, ndarray.Must(ndarray.Zeros(ndarray.Float64, s...)))
	}
	h := g.Var("h", ndarray.Must(ndarray.FromSlice([]float64{4, -2}, 1, 2)))
	lw := graph.LSTMWeights{W: zeros("lw", 5, 8), Wci: zeros("wci", 2), Wcf: zeros("wcf", 2), Wco: zeros("wco", 2), B: zeros("lb", 8)}
	cell := graph.LSTMCellConfig{ForgetBias: math.Log(3)}
	all := g.RNN().LSTMBlock(zeros("xt", 2, 1, 3), h, h, lw, graph.LSTMBlockConfig{LSTMCellConfig: cell})
	one := g.RNN().LSTMBlock(zeros("xn", 1, 2, 3), h, h, lw, graph.LSTMBlockConfig{LSTMCellConfig: cell, DataFormat: graph.LSTMBlockNTS,
		MaxTSLength: g.Const("steps", ndarray.Scalar[int64](1))})
	sh, sc := g.RNN().SRU(zeros("xs", 1, 2, 2), g.Var("c0", ndarray.Must(ndarray.FromSlice([]float64{4, -2}, 1, 2))),
		graph.SRUWeights{W: zeros("sw", 6, 2), B: zeros("sb", 4)}, graph.SRUConfig{Mask: zeros("mask", 1, 2)})
	res, err := exec.Output(g, nil, all.C.Name(), all.Y.Name(), one.C.Name(), sh.Name(), sc.Name())
	if err != nil {
		t.Fatal(err)
	}
	near := func(what string, got, want []float64) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s = %v, want %v", what, got, want)
		}
		for i := range got {
			if math.Abs(got[i]-want[i]) > 1e-12 {
				t.Errorf("%s = %v, want %v", what, got, want)
				return
			}
		}
	}
	near("LSTMBlock c", res[all.C.Name()].Float64s(), []float64{3, -1.5, 2.25, -1.125})
	near("LSTMBlock y", res[all.Y.Name()].Float64s(), []float64{math.Tanh(3) / 2, math.Tanh(-1.5) / 2, math.Tanh(2.25) / 2, math.Tanh(-1.125) / 2})
	near("LSTMBlock NTS, one step of two: c", res[one.C.Name()].Float64s(), []float64{3, -1.5, 0, 0})
	// sru's outputs are [batch, K, time]: c = [[2, 1], [-1, -0.5]].
	near("SRU c", res[sc.Name()].Float64s(), []float64{2, 1, -1, -0.5})
	near("SRU h", res[sh.Name()].Float64s(), []float64{math.Tanh(2) / 2, math.Tanh(1) / 2, math.Tanh(-1) / 2, math.Tanh(-0.5) / 2})

	// W with the wrong number of columns: an error naming W.
	bad := g.RNN().LSTMBlock(zeros("xb", 2, 1, 3), h, h, graph.LSTMWeights{W: zeros("lw7", 5, 7), Wci: lw.Wci, Wcf: lw.Wcf, Wco: lw.Wco, B: lw.B}, graph.LSTMBlockConfig{})
	if bad.Y.Err() == nil || !strings.Contains(bad.Y.Err().Error(), "lstmBlock: W (gate weights, columns i, z, f, o) has shape [5 7]; want [5 8]") {
		t.Errorf("a W of 7 columns: error %v", bad.Y.Err())
	}
	badW, _ := g.RNN().SRU(zeros("xw", 1, 2, 2), h, graph.SRUWeights{W: zeros("sw2", 2, 6), B: zeros("sb2", 4)}, graph.SRUConfig{})
	if badW.Err() == nil || !strings.Contains(badW.Err().Error(), "sru: w (weights) has shape [2 6]; want [6 2]") {
		t.Errorf("a transposed sru w: error %v", badW.Err())
	}
	// Three steps asked of a sequence of two: an error when it runs.
	long := g.RNN().LSTMBlock(zeros("xl", 2, 1, 3), h, h, lw, graph.LSTMBlockConfig{MaxTSLength: g.Placeholder("n", ndarray.Int64)})
	_, err = exec.Output(g, map[string]*ndarray.Array{"n": ndarray.Scalar[int64](3)}, long.Y.Name())
	if err == nil || !strings.Contains(err.Error(), "lstmBlock: maxTSLength is 3; want 0 to the sequence length 2") {
		t.Errorf("maxTSLength 3 of 2 steps: error %v", err)
	}
}
