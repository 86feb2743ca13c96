package serialize

import (
	"bytes"
	"testing"

	"github.com/sdgo/sdgo/autodiff"
	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// controlGraph: a loop over (n, x) whose body holds a conditional, and
// loss = Σ out².
func controlGraph(t testing.TB) *graph.Graph {
	t.Helper()
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 2)
	n := g.Placeholder("n", ndarray.Float64)
	zero := g.Scalar(ndarray.Float64, 0)
	out, err := g.While([]*graph.Variable{n, x},
		func(v []*graph.Variable) *graph.Variable { return v[0].Gt(zero) },
		func(v []*graph.Variable) []*graph.Variable {
			y, err := g.If(v[1].Sum().Gt(zero), []*graph.Variable{v[1]},
				func(in []*graph.Variable) []*graph.Variable {
					return []*graph.Variable{g.Math().Sin(in[0]).AddScalar(1)}
				},
				func(in []*graph.Variable) []*graph.Variable { return []*graph.Variable{in[0].MulScalar(-2)} })
			if err != nil {
				t.Fatal(err)
			}
			return []*graph.Variable{v[0].SubScalar(1), y[0]}
		})
	if err != nil {
		t.Fatal(err)
	}
	g.Math().Square(out[1]).Sum().Named("loss")
	return g
}

// A loop and a conditional built in Go, with the gradient through them
// (a backward loop), survive save and load and compute the same values.
func TestControlFlowRoundTrip(t *testing.T) {
	g := controlGraph(t)
	loss, _ := g.Variable("loss")
	x, _ := g.Variable("x")
	grads, err := autodiff.Grad(loss, x)
	if err != nil {
		t.Fatal(err)
	}
	feeds := map[string]*ndarray.Array{"x": ndarray.Must(ndarray.FromSlice([]float64{-0.3, 0.1})), "n": ndarray.Scalar(4.0)}
	names := []string{loss.Name(), grads[0].Name()}
	want, err := exec.Output(g, feeds, names...)
	if err != nil {
		t.Fatal(err)
	}
	for _, big := range []bool{false, true} {
		g2 := roundTrip(t, g, &SaveOptions{BigEndian: big})
		got, err := exec.Output(g2, feeds, names...)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range names {
			if !ndarray.Equal(got[k], want[k]) {
				t.Errorf("big-endian %v: %s = %v, want %v", big, k, got[k], want[k])
			}
		}
	}
}

// Nested loops with their gradient survive save and load: an inner loop
// started from the outer loop's values, and one started from a constant
// and a value from outside both loops, which While places in the outer
// loop with an op moved before the inner loop (the file must list it
// there, or the loaded graph's order differs).
func TestNestedLoopRoundTrip(t *testing.T) {
	for _, outsideInit := range []bool{false, true} {
		g := graph.New()
		n := g.Placeholder("n", ndarray.Float64)
		x := g.Placeholder("x", ndarray.Float64, 2)
		w := g.Placeholder("w", ndarray.Float64, 2)
		zero := g.Scalar(ndarray.Float64, 0)
		out, err := g.While([]*graph.Variable{n, x},
			func(v []*graph.Variable) *graph.Variable { return v[0].Gt(zero) },
			func(v []*graph.Variable) []*graph.Variable {
				init, cnt := v[1], v[0]
				if outsideInit {
					init, cnt = g.Math().Sin(w), g.Scalar(ndarray.Float64, 2)
				}
				in, err := g.While([]*graph.Variable{cnt, init},
					func(u []*graph.Variable) *graph.Variable { return u[0].Gt(zero) },
					func(u []*graph.Variable) []*graph.Variable {
						return []*graph.Variable{u[0].SubScalar(1), g.Math().Tanh(u[1].Mul(v[1])).Add(w)}
					})
				if err != nil {
					t.Fatal(err)
				}
				return []*graph.Variable{v[0].SubScalar(1), in[1].Mul(v[1])}
			})
		if err != nil {
			t.Fatal(err)
		}
		y := out[1].Named("y")
		loss := y.Mul(y).Sum().Named("loss")
		gr, err := autodiff.Grad(loss, x, w)
		if err != nil {
			t.Fatal(err)
		}
		names := []string{"loss", gr[0].Name(), gr[1].Name()}
		feeds := map[string]*ndarray.Array{"n": ndarray.Scalar(3.0), "x": ndarray.Must(ndarray.FromSlice([]float64{0.5, -0.3})), "w": ndarray.Must(ndarray.FromSlice([]float64{0.8, 0.2}))}
		want, err := exec.Output(g, feeds, names...)
		if err != nil {
			t.Fatal(err)
		}
		g2 := roundTrip(t, g, nil)
		got, err := exec.Output(g2, feeds, names...)
		if err != nil {
			t.Fatalf("outside %v: %v", outsideInit, err)
		}
		for _, k := range names {
			if !ndarray.Equal(got[k], want[k]) {
				t.Errorf("outside %v: %s = %v, want %v", outsideInit, k, got[k], want[k])
			}
		}
	}
}

// A loop added to a graph loaded from a file opens a frame of its own: the
// loaded enters' frame names are taken, as those of loops built in Go are.
// Sharing the file's loop's frame, reverse mode took the two loops for one
// and the gradient failed when run; a file saved from it would give
// SameDiff two loops under one frame name.
func TestLoopAddedToLoadedGraph(t *testing.T) {
	scale := func(g *graph.Graph, x *graph.Variable, n, k float64) *graph.Variable {
		zero := g.Scalar(ndarray.Float64, 0)
		out, err := g.While([]*graph.Variable{g.Scalar(ndarray.Float64, n), x},
			func(v []*graph.Variable) *graph.Variable { return v[0].Gt(zero) },
			func(v []*graph.Variable) []*graph.Variable {
				return []*graph.Variable{v[0].SubScalar(1), v[1].MulScalar(k)}
			})
		if err != nil {
			t.Fatal(err)
		}
		return out[1]
	}
	g := graph.New()
	x := g.Var("x", ndarray.Scalar(1.0))
	scale(g, x, 3, 2).Named("a")
	var buf bytes.Buffer
	if err := Write(&buf, g, nil); err != nil {
		t.Fatal(err)
	}
	h, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	hx, _ := h.Variable("x")
	a, _ := h.Variable("a")
	loss := a.Add(scale(h, hx, 5, 3)).Named("loss")
	frames := map[string]int{}
	for _, op := range h.Ops() {
		if op.OpName() == "enter" {
			frames[ops.FrameName(op.Args())]++
		}
	}
	if len(frames) != 2 {
		t.Errorf("enters per frame %v, want two frames", frames)
	}
	grads, err := autodiff.Grad(loss, hx)
	if err != nil {
		t.Fatal(err)
	}
	res, err := exec.Output(h, nil, loss.Name(), grads[0].Name())
	if err != nil {
		t.Fatal(err)
	}
	// 2^3 + 3^5, and its derivative in x (x = 1) is the same.
	if v := res[grads[0].Name()]; !ndarray.Equal(v, ndarray.Scalar(251.0)) {
		t.Errorf("gradient %v, want 251", v)
	}
}
