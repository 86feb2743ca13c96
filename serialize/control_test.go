package serialize

import (
	"testing"

	"github.com/sdgo/sdgo/autodiff"
	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// A loop and a conditional built in Go, with the gradient through them
// (a backward loop), survive save and load and compute the same values.
func TestControlFlowRoundTrip(t *testing.T) {
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
	loss := g.Math().Square(out[1]).Sum().Named("loss")
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
