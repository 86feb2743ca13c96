// Command mnist trains LeNet-5 on the MNIST digits and reports its test
// accuracy: two convolutions with max pooling and three dense layers,
// built in Go with sdgo's CNN builders, trained with Adam by train.Trainer
// (see examples/internal/lenet).
//
//	go run ./examples/mnist [-epochs 2] [-batch 64] [-train 60000] [-seed 1]
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/sdgo/sdgo/examples/internal/lenet"
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

// run trains LeNet-5 and returns its accuracy on the 10,000 test images.
func run(o options) (float64, error) {
	d, err := lenet.Load(o.train, o.batch, o.seed)
	if err != nil {
		return 0, err
	}
	g, err := lenet.Build(o.seed)
	if err != nil {
		return 0, err
	}
	tr, err := train.New(g, lenet.Config())
	if err != nil {
		return 0, err
	}
	start := time.Now()
	hist, err := tr.Fit(d.Train, o.epochs)
	if err != nil {
		return 0, err
	}
	for i, l := range hist.EpochLoss {
		o.log("epoch %d: mean loss %.4f\n", i+1, l)
	}
	o.log("trained on %d images, %d epochs, in %v\n", d.TrainSet.Len(), o.epochs, time.Since(start).Round(time.Millisecond))
	ev, err := tr.Evaluate(d.Test, "logits")
	if err != nil {
		return 0, err
	}
	return ev.Accuracy(), nil
}
