package graph_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/serialize"
)

// A seeded random array is the same in every graph that draws it, and in
// the graph saved and loaded again.
func TestRandomSeedsReproduce(t *testing.T) {
	build := func(seed int64) *graph.Graph {
		g := graph.New()
		g.Random().Normal(0, 1, []int{3, 4}, graph.RandomConfig{Seed: seed}).Named("n")
		g.Random().Uniform(-1, 1, []int{5}, graph.RandomConfig{Seed: seed, DType: ndarray.Float64}).Named("u")
		x := g.Placeholder("x", ndarray.Float32, 3, 4)
		g.NN().Dropout(x, 0.5, graph.DropoutConfig{Seed: seed, NoiseShape: []int{1, 4}}).Named("d")
		return g
	}
	feeds := map[string]*ndarray.Array{"x": ndarray.Must(ndarray.Full(ndarray.Float32, 1, 3, 4))}
	run := func(g *graph.Graph) string {
		out, err := exec.New(g).Output(feeds, "n", "u", "d")
		if err != nil {
			t.Fatal(err)
		}
		if out["u"].DType() != ndarray.Float64 || out["n"].DType() != ndarray.Float32 {
			t.Fatalf("dtypes %v, %v", out["n"].DType(), out["u"].DType())
		}
		return fmt.Sprint(out["n"].Float64s(), out["u"].Float64s(), out["d"].Float64s())
	}
	a, b, other := run(build(7)), run(build(7)), run(build(8))
	if a != b {
		t.Error("seed 7 gave two different results")
	}
	if a == other {
		t.Error("seeds 7 and 8 gave the same results")
	}
	path := filepath.Join(t.TempDir(), "random.fb")
	if err := serialize.Save(path, build(7), nil); err != nil {
		t.Fatal(err)
	}
	g, err := serialize.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := run(g); got != a {
		t.Errorf("after a save and load: %s\nwant %s", got, a)
	}
}

// Draw a reproducible random array: the seed fixes the numbers.
func ExampleRandom() {
	g := graph.New()
	g.Random().Bernoulli(0.5, []int{8}, graph.RandomConfig{Seed: 1}).Named("coins")
	out, err := exec.New(g).Output(nil, "coins")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out["coins"].Shape(), out["coins"].DType())
	// Output: [8] float32
}
