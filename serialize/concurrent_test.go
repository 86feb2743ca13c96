package serialize

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// TestEncodeWhileBuilding: a Graph is safe for concurrent use (package
// graph), so saving it while another goroutine adds ops must give a file
// of the graph as it was at some moment. Encode took the variables and the
// ops in two calls, so an op added between them (with the constant it
// made for an argument) was saved with an input that was not in the file:
// `op "add_7": input "c7" is not in the graph`.
//
// The builder's 3000 ops take about as long as the first five encodes; the
// other 95 encode the finished graph again. Under the race detector, which
// makes each of them several times slower, the loop ends with the first
// encode that starts after the builder has finished.
func TestEncodeWhileBuilding(t *testing.T) {
	g := graph.New()
	x := g.Var("x", ndarray.Must(ndarray.FromSlice([]float64{1, 2})))
	var stop, built atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer built.Store(true)
		for i := 0; i < 3000 && !stop.Load(); i++ {
			if y := x.Add(x).Named(fmt.Sprint("y", i)); y.Err() != nil {
				t.Error(y.Err())
				return
			}
		}
	}()
	defer func() { stop.Store(true); wg.Wait() }()
	for i := 0; i < 100; i++ {
		last := raceEnabled && built.Load()
		b, err := Encode(g, nil)
		if err != nil {
			t.Fatalf("encode %d: %v", i, err)
		}
		r, err := decode(b)
		if err != nil {
			t.Fatalf("decode %d: %v", i, err)
		}
		names := map[string]bool{}
		for _, v := range r.Variables {
			names[v.Name] = true
		}
		for _, n := range r.Nodes {
			for _, o := range n.OutputNames {
				if !names[o] {
					t.Fatalf("encode %d: node %q's output %q is not among the file's %d variables", i, n.Name, o, len(r.Variables))
				}
			}
		}
		if _, err := Decode(b); err != nil {
			t.Fatalf("decode %d: %v", i, err)
		}
		if last {
			break
		}
	}
}
