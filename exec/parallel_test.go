package exec_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// wide builds branches independent chains of ops on n elements, summed at
// the end.
func wide(branches, depth, n int) (*graph.Graph, string) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float32, n)
	var ends []*graph.Variable
	for b := 0; b < branches; b++ {
		v := x.MulScalar(float64(b + 1))
		for d := 0; d < depth; d++ {
			v = g.Math().Tanh(v).AddScalar(0.1)
		}
		ends = append(ends, v.Sum())
	}
	s := g.Stack(0, ends...).Sum().Named("total")
	return g, s.Name()
}

// Concurrent runs give exactly the sequential results, for a wide graph and
// for a training-style graph with gradients (go test -race checks the
// sharing).
func TestParallelMatchesSequential(t *testing.T) {
	g, out := wide(6, 5, 3000)
	x := ndarray.Must(ndarray.RandNormal(rand.New(rand.NewPCG(1, 1)), ndarray.Float32, 0, 1, 3000))
	feeds := map[string]*ndarray.Array{"x": x}
	want, err := exec.New(g).Output(feeds, out)
	if err != nil {
		t.Fatal(err)
	}
	s := exec.New(g)
	s.Parallel = 2
	before := exec.ParallelRuns()
	for i := 0; i < 20; i++ {
		got, err := s.Output(feeds, out)
		if err != nil {
			t.Fatal(err)
		}
		if !ndarray.Equal(got[out], want[out]) {
			t.Fatalf("run %d: %v, want %v", i, got[out], want[out])
		}
	}
	mg, _ := mlp(ndarray.Float64, 3)
	seq := exec.New(mg)
	par := exec.New(mg)
	par.Parallel = 4
	xf := map[string]*ndarray.Array{"x": randn(rand.New(rand.NewPCG(2, 2)), ndarray.Float64, 5, 3)}
	a, err := seq.Output(xf, "y")
	if err != nil {
		t.Fatal(err)
	}
	b, err := par.Output(xf, "y")
	if err != nil {
		t.Fatal(err)
	}
	if !ndarray.Equal(a["y"], b["y"]) {
		t.Errorf("mlp: %v vs %v", a["y"], b["y"])
	}
	if n := exec.ParallelRuns() - before; n != 21 {
		t.Errorf("%d of the 21 runs with Parallel set took the concurrent path", n)
	}
}

func TestParallelReportsErrors(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Int32, 2)
	z := g.Placeholder("z", ndarray.Int32, 2)
	a := x.Div(z).Named("a")
	b := x.Add(x).Named("b")
	s := exec.New(g)
	s.Parallel = 2
	_, err := s.Output(map[string]*ndarray.Array{"x": ndarray.Must(ndarray.FromSlice([]int32{1, 2})), "z": ndarray.Must(ndarray.FromSlice([]int32{0, 1}))}, a.Name(), b.Name())
	if err == nil || !strings.Contains(err.Error(), "divide") {
		t.Errorf("error in a parallel run: %v", err)
	}
}

// BenchmarkParallel compares sequential and concurrent runs of a graph of
// 8 independent branches, of a chain, and of the MLP forward pass.
func BenchmarkParallel(b *testing.B) {
	wg, wout := wide(8, 6, 100000)
	cg, cout := chain(1000)
	x := ndarray.Must(ndarray.Full(ndarray.Float32, 0.3, 100000))
	cases := []struct {
		name  string
		g     *graph.Graph
		out   string
		feeds map[string]*ndarray.Array
	}{
		{"wide8x6-1e5", wg, wout, map[string]*ndarray.Array{"x": x}},
		{"chain50-1e3", cg, cout, map[string]*ndarray.Array{"x": ndarray.Must(ndarray.Full(ndarray.Float32, 0.1, 1000))}},
	}
	for _, c := range cases {
		for _, w := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/workers=%d", c.name, w), func(b *testing.B) {
				s := exec.New(c.g)
				s.Parallel = w
				for i := 0; i < 3; i++ {
					s.Output(c.feeds, c.out)
				}
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if _, err := s.Output(c.feeds, c.out); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
