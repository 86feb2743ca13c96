// Package lenet builds and trains LeNet-5 on MNIST for the examples (the
// demo and examples/mnist): two convolutions with max pooling and three
// dense layers, built with sdgo's layers package, trained with Adam by
// train.Trainer.
package lenet

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/datasets/mnist"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/layers"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/train"
	"github.com/sdgo/sdgo/weightinit"
)

// Build returns LeNet-5 for 28x28 digits fed flat as placeholder "x"
// [batch, 784], with one-hot labels "y" [batch, 10]: conv 5x5 to 6
// channels (padded to keep 28x28), relu, 2x2 max pooling; conv 5x5 to 16
// channels, relu, 2x2 max pooling (16x5x5); dense 400-120-84-10 with relu;
// output "logits" and softmax cross-entropy "loss". It is built with the
// layers package: weights start He-normal (weightinit.Relu) from seed,
// biases zero.
func Build(seed uint64) (*graph.Graph, error) {
	g := graph.New()
	b := layers.New(g, seed)
	relu := g.NN().Relu
	x := g.Placeholder("x", ndarray.Float32, -1, mnist.Size*mnist.Size)
	y := g.Placeholder("y", ndarray.Float32, -1, mnist.Classes)
	pool := layers.PoolConfig{Kernel: [3]int{2, 2}}
	h := b.Reshape(x, 1, mnist.Size, mnist.Size)
	h = b.Conv2D("conv1", h, layers.ConvConfig{Filters: 6, Kernel: [3]int{5, 5}, Padding: graph.PaddingSame, Init: weightinit.Relu, Activation: relu})
	h = b.MaxPool2D(h, pool)
	h = b.Conv2D("conv2", h, layers.ConvConfig{Filters: 16, Kernel: [3]int{5, 5}, Init: weightinit.Relu, Activation: relu})
	h = b.Flatten(b.MaxPool2D(h, pool))
	h = b.Dense("fc1", h, layers.DenseConfig{Units: 120, Init: weightinit.Relu, Activation: relu})
	h = b.Dense("fc2", h, layers.DenseConfig{Units: 84, Init: weightinit.Relu, Activation: relu})
	h = b.Dense("fc3", h, layers.DenseConfig{Units: mnist.Classes, Init: weightinit.Relu}).Named("logits")
	g.Loss().SoftmaxCrossEntropy(y, h).Named("loss")
	if err := g.Err(); err != nil {
		return nil, err
	}
	return g, g.SetLoss("loss")
}

// Data is MNIST ready for training: normalized images in batches.
type Data struct {
	Train, Test       *train.ArrayIterator // the test set in batches of 500, unshuffled
	TrainSet, TestSet *mnist.Set
	TrainX, TestX     *ndarray.Array // normalized images
}

// Load reads MNIST, keeps the first n training images, and batches them
// (batch images a batch, shuffled each epoch from seed).
func Load(n, batch int, seed uint64) (*Data, error) {
	trainSet, testSet, err := mnist.Load()
	if err != nil {
		return nil, err
	}
	if trainSet, err = trainSet.Head(n); err != nil {
		return nil, err
	}
	d := &Data{TrainSet: trainSet, TestSet: testSet}
	if d.TrainX, err = trainSet.Normalize(); err != nil {
		return nil, err
	}
	if d.TestX, err = testSet.Normalize(); err != nil {
		return nil, err
	}
	if d.Train, err = train.NewArrayIterator([]*ndarray.Array{d.TrainX}, []*ndarray.Array{trainSet.OneHot}, batch, rand.New(rand.NewPCG(seed, 2))); err != nil {
		return nil, err
	}
	if d.Test, err = train.NewArrayIterator([]*ndarray.Array{d.TestX}, []*ndarray.Array{testSet.OneHot}, 500, nil); err != nil {
		return nil, err
	}
	return d, nil
}

// Config is the training configuration the examples use: Adam (1e-3).
func Config() *train.Config {
	return &train.Config{Updater: train.NewAdam(1e-3), Features: []string{"x"}, Labels: []string{"y"}, Losses: []string{"loss"}}
}
