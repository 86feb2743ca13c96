package exec_test

import (
	"fmt"
	"log"

	"github.com/sdgo/sdgo/autodiff"
	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// Build a graph in Go, add its gradient, and run both: the main path
// through graph, autodiff and exec.
func Example() {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, -1, 2)
	w := g.Var("w", ndarray.Must(ndarray.FromSlice([]float64{1, 2, 3, 4}, 2, 2)))
	y := x.MatMul(w).Named("y")
	loss := y.Mul(y).Sum().Named("loss")
	grads, err := autodiff.Grad(loss, w)
	if err != nil {
		log.Fatal(err)
	}

	s := exec.New(g)
	feeds := map[string]*ndarray.Array{"x": ndarray.Must(ndarray.FromSlice([]float64{1, 0, 0, 1}, 2, 2))}
	out, err := s.Output(feeds, "y", "loss", grads[0].Name())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("y:", out["y"])
	fmt.Println("loss:", out["loss"])
	fmt.Println("dloss/dw:", out[grads[0].Name()])

	// A feed of the wrong shape is refused, naming the placeholder.
	feeds["x"] = ndarray.Must(ndarray.FromSlice([]float64{1, 2, 3}, 1, 3))
	_, err = s.Output(feeds, "y")
	fmt.Println(err)
	// Output:
	// y: float64[2 2] [[1 2] [3 4]]
	// loss: float64[] 30
	// dloss/dw: float64[2 2] [[2 4] [6 8]]
	// exec: bad feed: placeholder "x" expects shape [-1 2], given shape [1 3]
}
