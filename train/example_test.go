package train_test

import (
	"fmt"
	"log"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/train"
)

// Fit a linear model y = x·w to data made with w = [2 -1]: New checks the
// configuration against the graph, Fit runs epochs over the batches and
// returns the loss history, and the variable holds the trained value.
func Example() {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, -1, 2)
	labels := g.Placeholder("labels", ndarray.Float64, -1, 1)
	w := g.Var("w", ndarray.Must(ndarray.Zeros(ndarray.Float64, 2, 1)))
	g.Loss().MeanSquaredError(labels, x.MatMul(w)).Named("loss")

	tr, err := train.New(g, &train.Config{
		Updater:  train.NewSGD(0.1),
		Features: []string{"x"},
		Labels:   []string{"labels"},
		Losses:   []string{"loss"},
	})
	if err != nil {
		log.Fatal(err)
	}
	inputs := ndarray.Must(ndarray.FromSlice([]float64{1, 0, 0, 1, 1, 1, 2, 1}, 4, 2))
	targets := ndarray.Must(ndarray.FromSlice([]float64{2, -1, 1, 3}, 4, 1))
	data, err := train.NewArrayIterator([]*ndarray.Array{inputs}, []*ndarray.Array{targets}, 2, nil)
	if err != nil {
		log.Fatal(err)
	}
	history, err := tr.Fit(data, 200)
	if err != nil {
		log.Fatal(err)
	}
	first, last := history.EpochLoss[0], history.EpochLoss[len(history.EpochLoss)-1]
	fmt.Printf("%d epochs of %d steps; loss fell: %v\n", len(history.EpochLoss), len(history.Loss)/len(history.EpochLoss), last < first/1000)
	trained := w.Value().Float64s()
	fmt.Printf("w = [%.3f %.3f]\n", trained[0], trained[1])
	// Output:
	// 200 epochs of 2 steps; loss fell: true
	// w = [2.000 -1.000]
}
