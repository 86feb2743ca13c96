package autodiff_test

import (
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// A conditional inside a loop body.
func TestGradientThroughIfInLoop(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 2)
	w := g.Placeholder("w", ndarray.Float64, 2)
	n := g.Placeholder("n", ndarray.Float64)
	zero := g.Scalar(ndarray.Float64, 0)
	out, err := g.While([]*graph.Variable{n, x},
		func(v []*graph.Variable) *graph.Variable { return v[0].Gt(zero) },
		func(v []*graph.Variable) []*graph.Variable {
			y, err := g.If(v[1].Sum().Gt(zero), []*graph.Variable{v[1]},
				func(in []*graph.Variable) []*graph.Variable { return []*graph.Variable{in[0].Mul(w)} },
				func(in []*graph.Variable) []*graph.Variable { return []*graph.Variable{in[0].MulScalar(0.9)} })
			if err != nil {
				t.Fatal(err)
			}
			return []*graph.Variable{v[0].SubScalar(1), y[0]}
		})
	if err != nil {
		t.Fatal(err)
	}
	loss := out[1].Mul(out[1]).Sum().Named("loss")
	feeds := map[string]*ndarray.Array{"x": ndarray.Must(ndarray.FromSlice([]float64{0.5, 0.2})), "w": ndarray.Must(ndarray.FromSlice([]float64{0.8, -0.3})), "n": ndarray.Scalar(3.0)}
	checkCentral(t, g, loss, feeds, "x", "w")
}

// Two nested loops, the inner one running a different number of times in
// every outer iteration.
func TestGradientThroughNestedLoops(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 2)
	w := g.Placeholder("w", ndarray.Float64, 2)
	n := g.Placeholder("n", ndarray.Float64)
	zero := g.Scalar(ndarray.Float64, 0)
	out, err := g.While([]*graph.Variable{n, x},
		func(v []*graph.Variable) *graph.Variable { return v[0].Gt(zero) },
		func(v []*graph.Variable) []*graph.Variable {
			inner, err := g.While([]*graph.Variable{v[0], v[1]},
				func(u []*graph.Variable) *graph.Variable { return u[0].Gt(zero) },
				func(u []*graph.Variable) []*graph.Variable {
					return []*graph.Variable{u[0].SubScalar(1), u[1].Mul(w).Add(g.Math().Sin(u[1]))}
				})
			if err != nil {
				t.Fatal(err)
			}
			return []*graph.Variable{v[0].SubScalar(1), inner[1]}
		})
	if err != nil {
		t.Fatal(err)
	}
	loss := out[1].Mul(out[1]).Sum().Named("loss")
	feeds := map[string]*ndarray.Array{"x": ndarray.Must(ndarray.FromSlice([]float64{0.5, 0.2})), "w": ndarray.Must(ndarray.FromSlice([]float64{0.8, -0.3})), "n": ndarray.Scalar(3.0)}
	checkCentral(t, g, loss, feeds, "x", "w")
}
