package train_test

import (
	"fmt"
	"log"
	"math/rand/v2"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/layers"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/train"
)

// The quick example: an MLP of two tanh layers learns two interleaved
// spirals, which no linear model separates, in a second or so; make demo
// trains LeNet-5 on MNIST instead.
func ExampleSpirals() {
	rng := rand.New(rand.NewPCG(7, 8))
	x, y, err := train.Spirals(rng, 200, 0.1, ndarray.Float32)
	if err != nil {
		log.Fatal(err)
	}
	b := layers.New(graph.New(), 1)
	g := b.Graph()
	in := g.Placeholder("x", ndarray.Float32, -1, 2)
	labels := g.Placeholder("y", ndarray.Float32, -1, 2)
	h := g.Math().Tanh(b.Dense("h1", in, layers.DenseConfig{Units: 32}))
	h = g.Math().Tanh(b.Dense("h2", h, layers.DenseConfig{Units: 32}))
	logits := b.Dense("out", h, layers.DenseConfig{Units: 2}).Named("logits")
	g.Loss().SoftmaxCrossEntropy(labels, logits).Named("loss")

	tr, err := train.New(g, &train.Config{Updater: train.NewAdam(0.01), Features: []string{"x"}, Labels: []string{"y"}, Losses: []string{"loss"}})
	if err != nil {
		log.Fatal(err)
	}
	data, err := train.NewArrayIterator([]*ndarray.Array{x}, []*ndarray.Array{y}, 32, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		log.Fatal(err)
	}
	hist, err := tr.Fit(data, 200)
	if err != nil {
		log.Fatal(err)
	}
	// Points of the same spirals the model has not seen.
	tx, ty, err := train.Spirals(rand.New(rand.NewPCG(9, 10)), 200, 0.1, ndarray.Float32)
	if err != nil {
		log.Fatal(err)
	}
	test, err := train.NewArrayIterator([]*ndarray.Array{tx}, []*ndarray.Array{ty}, 100, nil)
	if err != nil {
		log.Fatal(err)
	}
	ev, err := tr.Evaluate(test, "logits")
	if err != nil {
		log.Fatal(err)
	}
	first, last := hist.EpochLoss[0], hist.EpochLoss[len(hist.EpochLoss)-1]
	fmt.Printf("loss fell to a tenth: %v\n", last < first/10)
	fmt.Printf("%d new points, accuracy above 95%%: %v\n", ev.Total, ev.Accuracy() > 0.95)
	// Output:
	// loss fell to a tenth: true
	// 400 new points, accuracy above 95%: true
}
