package validation

import (
	"testing"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// The checker's copies keep loops (merge back edges) and conditionals, and
// the float64 copy computes what the float32 graph does.
func TestCloneControlFlow(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float32, 2)
	c := g.Placeholder("c", ndarray.Bool)
	limit := g.Const("n", ndarray.Scalar(float32(3)))
	w, err := g.While([]*graph.Variable{g.Scalar(ndarray.Float32, 0), x},
		func(v []*graph.Variable) *graph.Variable { return v[0].Lt(limit) },
		func(v []*graph.Variable) []*graph.Variable {
			return []*graph.Variable{v[0].AddScalar(1), v[1].MulScalar(1.5)}
		})
	if err != nil {
		t.Fatal(err)
	}
	br, err := g.If(c, []*graph.Variable{w[1]},
		func(in []*graph.Variable) []*graph.Variable { return []*graph.Variable{in[0].Neg()} },
		func(in []*graph.Variable) []*graph.Variable { return []*graph.Variable{in[0]} })
	if err != nil {
		t.Fatal(err)
	}
	out := br[0].Sum().Named("out")
	if err := out.Err(); err != nil {
		t.Fatal(err)
	}
	feeds := map[string]*ndarray.Array{"x": ndarray.Must(ndarray.FromSlice([]float32{1, -2})), "c": ndarray.Scalar(true)}
	want, err := exec.Output(g, feeds, "out")
	if err != nil {
		t.Fatal(err)
	}
	for _, f64 := range []bool{false, true} {
		cg, err := cloneGraph(g, cloneSpec{float64: f64})
		if err != nil {
			t.Fatal(err)
		}
		if d := CompareGraphs(g, cg); !f64 && len(d) > 0 {
			t.Errorf("the copy differs: %q", d)
		}
		cf, err := convertFeeds(feeds, f64)
		if err != nil {
			t.Fatal(err)
		}
		got, err := exec.Output(cg, cf, "out")
		if err != nil {
			t.Fatalf("float64 %v: %v", f64, err)
		}
		if got["out"].Float() != want["out"].Float() || (f64 && got["out"].DType() != ndarray.Float64) {
			t.Errorf("float64 %v: %v, want %v", f64, got["out"], want["out"])
		}
	}
}
