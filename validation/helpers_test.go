package validation_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

func f64(shape []int, v ...float64) *ndarray.Array {
	return ndarray.Must(ndarray.FromSlice(v, shape...))
}

func randn(rng *rand.Rand, dt ndarray.DType, shape ...int) *ndarray.Array {
	return ndarray.Must(ndarray.RandNormal(rng, dt, 0, 1, shape...))
}

func nanWithPayload(p uint64) float64 { return math.Float64frombits(0x7ff8000000000000 | p) }

func must(t testing.TB, v *graph.Variable) *graph.Variable {
	t.Helper()
	if err := v.Err(); err != nil {
		t.Fatal(err)
	}
	return v
}

// mlp builds loss = mean(tanh(x·w + b)²) in dtype dt, with x a placeholder
// and w, b variables; it returns the graph and the feeds.
func mlp(t testing.TB, dt ndarray.DType) (*graph.Graph, map[string]*ndarray.Array) {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	g := graph.New()
	x := g.Placeholder("x", dt, 4, 3)
	w := g.Var("w", randn(rng, dt, 3, 2))
	b := g.Var("b", randn(rng, dt, 2))
	h := x.MatMul(w).Add(b).Named("pre")
	y := g.Math().Tanh(h).Named("act")
	loss := must(t, y.Mul(y).Mean().Named("loss"))
	if err := g.SetLoss(loss.Name()); err != nil {
		t.Fatal(err)
	}
	return g, map[string]*ndarray.Array{"x": randn(rng, dt, 4, 3)}
}
