// Command demo builds a small multilayer perceptron in Go code and runs it on
// a fixed input. It is what `make demo` runs.
package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/kernels"
	"github.com/sdgo/sdgo/ndarray"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}

func run() error {
	rng := rand.New(rand.NewPCG(1, 2))
	glorot := func(in, out int) *ndarray.Array {
		return ndarray.Must(ndarray.RandNormal(rng, ndarray.Float32, 0, math.Sqrt(2/float64(in+out)), in, out))
	}
	zeros := func(n int) *ndarray.Array { return ndarray.Must(ndarray.Zeros(ndarray.Float32, n)) }

	// A 2-16-3 MLP: tanh hidden layer, softmax output.
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float32, -1, 2)
	w1, b1 := g.Var("w1", glorot(2, 16)), g.Var("b1", zeros(16))
	w2, b2 := g.Var("w2", glorot(16, 3)), g.Var("b2", zeros(3))
	h := g.Math().Tanh(x.MatMul(w1).Add(b1)).Named("hidden")
	probs := g.NN().Softmax(h.MatMul(w2).Add(b2), -1).Named("probs")
	if err := g.Err(); err != nil {
		return err
	}
	fmt.Printf("sdgo demo (kernels: %s)\n\n%s\n", kernels.ISA(), g.Summary())

	input := ndarray.Must(ndarray.FromSlice([]float32{
		0, 0,
		1, 0,
		0, 1,
		-1, -1,
	}, 4, 2))
	out, err := exec.New(g).Output(map[string]*ndarray.Array{"x": input}, probs.Name())
	if err != nil {
		return err
	}
	p := out[probs.Name()]
	fmt.Printf("input  %v\nprobs  %v\n", input, p)
	// Each row of a softmax sums to one.
	sums, err := ndarray.Reduce(ndarray.Sum, p, []int{1}, false)
	if err != nil {
		return err
	}
	fmt.Printf("row sums %v\n", sums)
	return nil
}
