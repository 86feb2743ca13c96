package mnist_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/sdgo/sdgo/datasets/mnist"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/train"
)

// The training set in shuffled batches of 128, ready for train.Trainer
// (it prints 60000 10000 469 [128 784] [128 10]; TestLoad checks what
// Load reads, so the example is compiled but not run).
func Example() {
	trainSet, testSet, err := mnist.Load()
	if err != nil {
		fmt.Println(err)
		return
	}
	images, err := trainSet.Normalize()
	if err != nil {
		fmt.Println(err)
		return
	}
	it, err := train.NewArrayIterator([]*ndarray.Array{images}, []*ndarray.Array{trainSet.OneHot}, 128, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		fmt.Println(err)
		return
	}
	b, _ := it.Next()
	fmt.Println(trainSet.Len(), testSet.Len(), it.Batches(), b.Features[0].Shape(), b.Labels[0].Shape())
}
