// Command mnist trains LeNet-5 on the MNIST digits and reports its test
// accuracy: two convolutions with max pooling and three dense layers,
// built in Go with sdgo's CNN builders, trained with Adam by train.Trainer.
//
//	go run ./examples/mnist [-epochs 2] [-batch 64] [-train 60000] [-seed 1]
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"time"

	"github.com/sdgo/sdgo/datasets/mnist"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/train"
)

func main() {
	var o options
	flag.IntVar(&o.epochs, "epochs", 2, "training epochs")
	flag.IntVar(&o.batch, "batch", 64, "batch size")
	flag.IntVar(&o.train, "train", 60000, "training images used (the first ones)")
	flag.Uint64Var(&o.seed, "seed", 1, "seed of the initial weights and the shuffles")
	flag.Parse()
	o.log = func(format string, args ...any) { fmt.Printf(format, args...) }
	acc, err := run(o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mnist:", err)
		os.Exit(1)
	}
	fmt.Printf("test accuracy %.2f%%\n", 100*acc)
}

type options struct {
	epochs, batch, train int
	seed                 uint64
	log                  func(format string, args ...any)
}

// lenet5 builds LeNet-5 for 28x28 digits: conv 5x5 to 6 channels (padded
// to keep 28x28), relu, 2x2 max pooling; conv 5x5 to 16 channels, relu,
// 2x2 max pooling (16x5x5); dense 400-120-84-10 with relu; softmax
// cross-entropy. Weights start He-normal, biases zero.
func lenet5(rng *rand.Rand) (*graph.Graph, error) {
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
	return g, g.Err()
}

// run trains LeNet-5 and returns its accuracy on the 10,000 test images.
func run(o options) (float64, error) {
	trainSet, testSet, err := mnist.Load()
	if err != nil {
		return 0, err
	}
	if trainSet, err = trainSet.Head(o.train); err != nil {
		return 0, err
	}
	rng := rand.New(rand.NewPCG(o.seed, 1))
	g, err := lenet5(rng)
	if err != nil {
		return 0, err
	}
	tr, err := train.New(g, &train.Config{Updater: train.NewAdam(1e-3), Features: []string{"x"}, Labels: []string{"y"}, Losses: []string{"loss"}})
	if err != nil {
		return 0, err
	}
	xs, err := trainSet.Normalize()
	if err != nil {
		return 0, err
	}
	data, err := train.NewArrayIterator([]*ndarray.Array{xs}, []*ndarray.Array{trainSet.OneHot}, o.batch, rand.New(rand.NewPCG(o.seed, 2)))
	if err != nil {
		return 0, err
	}
	start := time.Now()
	hist, err := tr.Fit(data, o.epochs)
	if err != nil {
		return 0, err
	}
	for i, l := range hist.EpochLoss {
		o.log("epoch %d: mean loss %.4f\n", i+1, l)
	}
	o.log("trained on %d images, %d epochs, in %v\n", trainSet.Len(), o.epochs, time.Since(start).Round(time.Millisecond))
	txs, err := testSet.Normalize()
	if err != nil {
		return 0, err
	}
	test, err := train.NewArrayIterator([]*ndarray.Array{txs}, []*ndarray.Array{testSet.OneHot}, 500, nil)
	if err != nil {
		return 0, err
	}
	ev, err := tr.Evaluate(test, "logits")
	if err != nil {
		return 0, err
	}
	return ev.Accuracy(), nil
}
