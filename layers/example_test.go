package layers_test

import (
	"fmt"
	"log"
	"math/rand/v2"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/layers"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/train"
)

// bars makes n noisy 8x8 images, each with a bright vertical (class 0) or
// horizontal (class 1) bar, and their one-hot labels.
func bars(n int, rng *rand.Rand) (images, labels *ndarray.Array) {
	px := make([]float32, n*64)
	oh := make([]float32, n*2)
	for i := range n {
		img := px[i*64 : (i+1)*64]
		for j := range img {
			img[j] = 0.3 * rng.Float32()
		}
		class, at := rng.IntN(2), rng.IntN(8)
		for k := range 8 {
			if class == 0 {
				img[k*8+at] = 1
			} else {
				img[at*8+k] = 1
			}
		}
		oh[2*i+class] = 1
	}
	return ndarray.Must(ndarray.FromSlice(px, n, 1, 8, 8)), ndarray.Must(ndarray.FromSlice(oh, n, 2))
}

// model is a small CNN classifier: a 3x3 convolution to 4 channels, batch
// normalization, relu, 2x2 max pooling, dropout, and a dense layer to the
// two classes' logits. The builder says whether it is built for training.
func model(b *layers.Builder) *graph.Graph {
	g := b.Graph()
	x := g.Placeholder("x", ndarray.Float32, -1, 1, 8, 8)
	y := g.Placeholder("y", ndarray.Float32, -1, 2)
	h := b.Conv2D("conv", x, layers.ConvConfig{Filters: 4, Kernel: [3]int{3, 3}, Padding: graph.PaddingSame})
	h = g.NN().Relu(b.BatchNorm("bn", h, layers.BatchNormConfig{}))
	h = b.MaxPool2D(h, layers.PoolConfig{Kernel: [3]int{2, 2}})
	h = b.Dropout(b.Flatten(h), layers.DropoutConfig{Rate: 0.2})
	logits := b.Dense("out", h, layers.DenseConfig{Units: 2}).Named("logits")
	g.Loss().SoftmaxCrossEntropy(y, logits).Named("loss")
	return g
}

// A small CNN classifier built from layers: trained with dropout and batch
// statistics, then evaluated by the same layers built for inference, which
// take the trained weights and the population statistics of the training
// images.
func Example() {
	rng := rand.New(rand.NewPCG(1, 2))
	trainX, trainY := bars(256, rng)
	testX, testY := bars(64, rng)

	g := model(layers.New(graph.New(), 1).WithTraining(true))
	if err := g.Err(); err != nil {
		log.Fatal(err)
	}
	tr, err := train.New(g, &train.Config{Updater: train.NewAdam(0.01), Features: []string{"x"}, Labels: []string{"y"}, Losses: []string{"loss"}})
	if err != nil {
		log.Fatal(err)
	}
	data, err := train.NewArrayIterator([]*ndarray.Array{trainX}, []*ndarray.Array{trainY}, 32, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		log.Fatal(err)
	}
	if _, err := tr.Fit(data, 10); err != nil {
		log.Fatal(err)
	}

	infer := model(layers.New(graph.New(), 1))
	if err := layers.CopyVariables(infer, g); err != nil {
		log.Fatal(err)
	}
	var batches []map[string]*ndarray.Array
	for i := 0; i < 256; i += 64 {
		batches = append(batches, map[string]*ndarray.Array{"x": ndarray.Must(ndarray.Slice(trainX, []int{i, 0, 0, 0}, []int{i + 64, 1, 8, 8}))})
	}
	if err := layers.SetBatchNormStats(infer, g, batches); err != nil {
		log.Fatal(err)
	}
	test, err := train.NewArrayIterator([]*ndarray.Array{testX}, []*ndarray.Array{testY}, 64, nil)
	if err != nil {
		log.Fatal(err)
	}
	e, err := train.Evaluate(exec.New(infer), test, []string{"x"}, "logits")
	if err != nil {
		log.Fatal(err)
	}
	for _, v := range infer.VariablesOf(graph.VARIABLE) {
		fmt.Println(v.Name(), v.Shape())
	}
	fmt.Printf("test accuracy %.0f%% (%d/%d)\n", 100*e.Accuracy(), e.Correct, e.Total)
	// Output:
	// conv/W [3 3 1 4]
	// conv/b [4]
	// bn/gamma [4]
	// bn/beta [4]
	// out/W [64 2]
	// out/b [2]
	// test accuracy 100% (64/64)
}
