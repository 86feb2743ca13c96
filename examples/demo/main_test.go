package main

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/train"
)

// sameBits tells apart what ndarray.Equal takes as equal (-0 and 0, NaNs
// with other payloads), whatever the layouts.
func TestSameBits(t *testing.T) {
	f32 := func(v ...float32) *ndarray.Array { return ndarray.Must(ndarray.FromSlice(v, 2, 2)) }
	nan1, nan2 := math.Float32frombits(0x7fc00001), math.Float32frombits(0x7fc00002)
	a := f32(1, 2, 3, nan1)
	// a, as every other column of a wider array.
	wide := ndarray.Must(ndarray.FromSlice([]float32{1, 9, 2, 9, 3, 9, nan1, 9}, 2, 4))
	view := ndarray.Must(wide.WithLayout(ndarray.Layout{Shape: []int{2, 2}, Strides: []int{4, 2}}))
	for _, c := range []struct {
		name string
		x, y *ndarray.Array
		want bool
	}{
		{"same", a, f32(1, 2, 3, nan1), true},
		{"another layout", a, view, true},
		{"-0 and 0", f32(0, 1, 2, 3), f32(float32(math.Copysign(0, -1)), 1, 2, 3), false},
		{"NaN payloads", a, f32(1, 2, 3, nan2), false},
		{"shape", a, ndarray.Must(ndarray.FromSlice([]float32{1, 2, 3, nan1})), false},
		{"dtype", f32(1, 2, 3, 4), ndarray.Must(ndarray.FromSlice([]float64{1, 2, 3, 4}, 2, 2)), false},
	} {
		if got := sameBits(c.x, c.y); got != c.want {
			t.Errorf("%s: sameBits = %v, want %v (Equal says %v)", c.name, got, c.want, ndarray.Equal(c.x, c.y))
		}
	}
}

// The views part of the demo checks what it prints: it used to print the
// new state and the gradients without comparing them with anything, so a
// view at the wrong row (Point(-1) resolved to row 1) still exited 0.
func TestViewsAreChecked(t *testing.T) {
	if err := views(); err != nil {
		t.Fatal(err)
	}
	f64 := func(v []float64, shape ...int) *ndarray.Array { return ndarray.Must(ndarray.FromSlice(v, shape...)) }
	wrongRow := f64([]float64{2, 3, 3, 2, 2, 21, 201, 2000, 2, 3, 3, 2}, 3, 4)
	if err := checkViews(wrongRow, viewsWant.dState, viewsWant.dDelta, 1, 2); err == nil {
		t.Error("checkViews accepts the update of the wrong row")
	}
	if err := checkViews(viewsWant.state, viewsWant.dState, f64([]float64{10, 12, 14, 16}, 4), 1, 2); err == nil {
		t.Error("checkViews accepts a wrong gradient")
	}
	if err := checkViews(viewsWant.state, viewsWant.dState, viewsWant.dDelta, 0, 2); err == nil {
		t.Error("checkViews accepts writes that all copied")
	}
}

// The demo checks that the reloaded file holds the updater state it prints
// as restored: a file without it resumes from zeros, and training still
// runs.
func TestUpdaterStateIsChecked(t *testing.T) {
	g, err := buildMLP(rand.New(rand.NewPCG(1, 2)), 4)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := train.New(g, &train.Config{Updater: train.NewAdam(0.01), Features: []string{"x"}, Labels: []string{"y"}}); err != nil {
		t.Fatal(err)
	}
	if err := sameUpdaterState(g, g); err != nil {
		t.Errorf("a graph against itself: %v", err)
	}
	g2, err := buildMLP(rand.New(rand.NewPCG(1, 2)), 4)
	if err != nil {
		t.Fatal(err)
	}
	if err := sameUpdaterState(g, g2); err == nil {
		t.Error("sameUpdaterState accepts a graph without the state")
	}
}

// buildMLP returns a 2-h-h-2 tanh MLP with a softmax cross-entropy loss
// (a small model for the tests).
func buildMLP(rng *rand.Rand, h int) (*graph.Graph, error) {
	dt := ndarray.Float32
	init := func(in, out int) *ndarray.Array {
		return ndarray.Must(ndarray.RandNormal(rng, dt, 0, math.Sqrt(1/float64(in)), in, out))
	}
	zeros := func(n int) *ndarray.Array { return ndarray.Must(ndarray.Zeros(dt, n)) }

	g := graph.New()
	x := g.Placeholder("x", dt, -1, 2)
	y := g.Placeholder("y", dt, -1, 2)
	h1 := g.Math().Tanh(x.MatMul(g.Var("w1", init(2, h))).Add(g.Var("b1", zeros(h))))
	h2 := g.Math().Tanh(h1.MatMul(g.Var("w2", init(h, h))).Add(g.Var("b2", zeros(h))))
	logits := h2.MatMul(g.Var("w3", init(h, 2))).Add(g.Var("b3", zeros(2))).Named("logits")
	loss := g.Loss().SoftmaxCrossEntropy(y, logits).Named("loss")
	if err := g.Err(); err != nil {
		return nil, err
	}
	return g, g.SetLoss(loss.Name())
}
