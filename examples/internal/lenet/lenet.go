// Package lenet builds and trains LeNet-5 on MNIST for the examples (the
// demo and examples/mnist): two convolutions with max pooling and three
// dense layers, built with sdgo's CNN builders, trained with Adam by
// train.Trainer.
package lenet

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/sdgo/sdgo/datasets/mnist"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/train"
)

// Build returns LeNet-5 for 28x28 digits fed flat as placeholder "x"
// [batch, 784], with one-hot labels "y" [batch, 10]: conv 5x5 to 6
// channels (padded to keep 28x28), relu, 2x2 max pooling; conv 5x5 to 16
// channels, relu, 2x2 max pooling (16x5x5); dense 400-120-84-10 with relu;
// output "logits" and softmax cross-entropy "loss". Weights start
// He-normal from rng, biases zero.
func Build(rng *rand.Rand) (*graph.Graph, error) {
	dt := ndarray.Float32
	he := func(fanIn int, shape ...int) *ndarray.Array {
		return ndarray.Must(ndarray.RandNormal(rng, dt, 0, math.Sqrt(2/float64(fanIn)), shape...))
	}
	zeros := func(n int) *ndarray.Array { return ndarray.Must(ndarray.Zeros(dt, n)) }
	g := graph.New()
	x := g.Placeholder("x", dt, -1, mnist.Size*mnist.Size)
	y := g.Placeholder("y", dt, -1, mnist.Classes)
	cnn := g.CNN()
	pool := graph.Pooling2DConfig{Kernel: [2]int{2, 2}, Stride: [2]int{2, 2}}
	h := x.Reshape(-1, 1, mnist.Size, mnist.Size)
	h = cnn.Conv2D(h, g.Var("conv1_w", he(25, 5, 5, 1, 6)), g.Var("conv1_b", zeros(6)), graph.Conv2DConfig{Padding: graph.PaddingSame})
	h = cnn.MaxPool2D(g.NN().Relu(h), pool)
	h = cnn.Conv2D(h, g.Var("conv2_w", he(150, 5, 5, 6, 16)), g.Var("conv2_b", zeros(16)), graph.Conv2DConfig{})
	h = cnn.MaxPool2D(g.NN().Relu(h), pool).Reshape(-1, 16*5*5)
	for i, l := range [][2]int{{400, 120}, {120, 84}, {84, mnist.Classes}} {
		h = h.MatMul(g.Var(fmt.Sprintf("fc%d_w", i+1), he(l[0], l[0], l[1]))).Add(g.Var(fmt.Sprintf("fc%d_b", i+1), zeros(l[1])))
		if i < 2 {
			h = g.NN().Relu(h)
		}
	}
	h.Named("logits")
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
