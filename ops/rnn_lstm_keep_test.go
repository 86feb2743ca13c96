package ops_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sdgo/sdgo/autodiff"
	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// lstmLayer_bp in an executor's run takes the trace lstmLayer kept instead
// of running the forward pass again: its gradients must be the very ones
// lstmLayer_bp computes on its own (called directly, with no run to keep
// a trace in), bit for bit, one direction and both, run after run, and
// with the ops running concurrently.
func TestLSTMLayerKeptTrace(t *testing.T) {
	for _, dir := range []graph.LSTMDirection{graph.LSTMForward, graph.LSTMBidirectionalConcat} {
		for _, parallel := range []int{0, 2} {
			lstmKeptCase(t, dir, parallel)
		}
	}
}

func lstmKeptCase(t *testing.T, dir graph.LSTMDirection, parallel int) {
	const sL, bS, nIn, nOut = 5, 3, 4, 6
	r := rand.New(rand.NewPCG(3, uint64(dir)))
	lead := func(s ...int) []int {
		if dir != graph.LSTMForward {
			return append([]int{2}, s...)
		}
		return s
	}
	g := graph.New()
	vals := map[string]*ndarray.Array{
		"x": lstmRand(r, sL, bS, nIn), "wx": lstmRand(r, lead(nIn, 4*nOut)...), "wr": lstmRand(r, lead(nOut, 4*nOut)...),
		"b": lstmRand(r, lead(4*nOut)...), "h0": lstmRand(r, lead(bS, nOut)...), "c0": lstmRand(r, lead(bS, nOut)...),
	}
	v := func(name string) *graph.Variable { return g.Var(name, vals[name]) }
	x, wx, wr, b, h0, c0 := v("x"), v("wx"), v("wr"), v("b"), v("h0"), v("c0")
	o := g.RNN().LSTMLayer(x, graph.LSTMLayerWeights{Wx: wx, Wr: wr, B: b}, graph.LSTMLayerState{H: h0, C: c0},
		graph.LSTMLayerConfig{Direction: dir, ReturnSequence: true, ReturnLastH: true})
	hw := lstmRand(r, o.H.Shape()...)
	loss := o.H.Mul(g.Const("hw", hw)).Sum().Add(o.HLast.Sum())
	wrt := []*graph.Variable{x, wx, wr, b, h0, c0}
	grads, err := autodiff.Grad(loss, wrt...)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(grads))
	for i, gr := range grads {
		names[i] = gr.Name()
	}
	// lstmLayer_bp alone: dL/dh = hw, dL/dhL = ones.
	a := ops.Args{I: []int64{0, int64(dir), 2, 0, 0}, B: []bool{true, false, true, true, false, true, true, false}, F: []float64{0}}
	bp, _ := ops.Lookup("lstmLayer_bp")
	in := []*ndarray.Array{vals["x"], vals["wx"], vals["wr"], vals["b"], vals["h0"], vals["c0"], hw,
		ndarray.Must(ndarray.Full(ndarray.Float64, 1, o.HLast.Shape()...))}
	want, err := bp.Run(nil, in, &a)
	if err != nil {
		t.Fatal(err)
	}
	s := exec.New(g)
	s.Parallel = parallel
	for run := 0; run < 3; run++ {
		hits := ops.LSTMKeptHits()
		got, err := s.Output(nil, names...)
		if err != nil {
			t.Fatal(err)
		}
		dirs := int64(1)
		if dir != graph.LSTMForward {
			dirs = 2
		}
		if h := ops.LSTMKeptHits() - hits; h != dirs {
			t.Errorf("direction %d, parallel %d, run %d: lstmLayer_bp took %d kept traces; want %d", dir, parallel, run, h, dirs)
		}
		for i, n := range names {
			if g, w := got[n].Float64s(), want[i].Float64s(); !slices.Equal(g, w) {
				t.Errorf("direction %d, parallel %d, run %d: the gradient of %s is %v in the run; lstmLayer_bp alone gives %v",
					dir, parallel, run, wrt[i].Name(), g, w)
			}
		}
	}
}

// A run keeps at most eight traces: in a stack of ten layers the first two
// layers' traces go back to the pool when the ninth and tenth layers run,
// and their lstmLayer_bp computes them again. The gradients are those of
// each layer's lstmLayer and lstmLayer_bp called directly, bit for bit.
func TestLSTMLayerKeptBound(t *testing.T) {
	const layers, sL, bS, n = 10, 4, 2, 3
	r := rand.New(rand.NewPCG(5, 5))
	g := graph.New()
	x := g.Var("x", lstmRand(r, sL, bS, n))
	var ws []*graph.Variable
	h := x
	for i := 0; i < layers; i++ {
		wx, wr := g.Var("", lstmRand(r, n, 4*n)), g.Var("", lstmRand(r, n, 4*n))
		ws = append(ws, wx, wr)
		h = g.RNN().LSTMLayer(h, graph.LSTMLayerWeights{Wx: wx, Wr: wr}, graph.LSTMLayerState{}, graph.LSTMLayerConfig{}).H
	}
	grads, err := autodiff.Grad(h.Sum(), append([]*graph.Variable{x}, ws...)...)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(grads))
	for i, gr := range grads {
		names[i] = gr.Name()
	}
	hits := ops.LSTMKeptHits()
	got, err := exec.Output(g, nil, names...)
	if err != nil {
		t.Fatal(err)
	}
	if h := ops.LSTMKeptHits() - hits; h != 8 {
		t.Errorf("lstmLayer_bp took %d kept traces; want 8 (the last eight layers')", h)
	}
	// The reference: each layer's forward and backprop called directly.
	a := ops.Args{I: []int64{0, 0, 2, 0, 0}, B: []bool{false, false, false, false, false, true, false, false}, F: []float64{0}}
	fwd, _ := ops.Lookup("lstmLayer")
	bp, _ := ops.Lookup("lstmLayer_bp")
	xs := []*ndarray.Array{x.Value()}
	for i := 0; i < layers; i++ {
		out, err := fwd.Run(nil, []*ndarray.Array{xs[i], ws[2*i].Value(), ws[2*i+1].Value()}, &a)
		if err != nil {
			t.Fatal(err)
		}
		xs = append(xs, out[0])
	}
	dh := ndarray.Must(ndarray.Full(ndarray.Float64, 1, sL, bS, n))
	want := make([]*ndarray.Array, len(names))
	for i := layers - 1; i >= 0; i-- {
		out, err := bp.Run(nil, []*ndarray.Array{xs[i], ws[2*i].Value(), ws[2*i+1].Value(), dh}, &a)
		if err != nil {
			t.Fatal(err)
		}
		dh, want[1+2*i], want[2+2*i] = out[0], out[1], out[2]
	}
	want[0] = dh
	for i, n := range names {
		if g, w := got[n].Float64s(), want[i].Float64s(); !slices.Equal(g, w) {
			t.Errorf("gradient %d: %v in the run, %v from the ops alone", i, g, w)
		}
	}
}
