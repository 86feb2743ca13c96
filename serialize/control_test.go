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
