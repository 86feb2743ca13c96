package weightinit_test

import (
	"fmt"
	"math"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/weightinit"
)

// A dense layer's weight [784, 128] from Glorot (Xavier) uniform, seeded:
// its values lie within ±√(6/(784+128)).
func Example() {
	g := graph.New()
	w, err := weightinit.Var(g, "dense/W", weightinit.GlorotUniform, ndarray.Float32, weightinit.NewRand(1), 784, 128)
	if err != nil {
		panic(err)
	}
	bound, _ := weightinit.GlorotUniform.Scale(weightinit.FansOf(784, 128), w.Shape())
	inside := true
	for _, v := range w.Value().Float64s() {
		inside = inside && math.Abs(v) <= bound
	}
	fmt.Println(w.Name(), w.Shape(), weightinit.GlorotUniform, fmt.Sprintf("%.4f", bound), inside)
	// Output: dense/W [784 128] XAVIER_UNIFORM 0.0811 true
}

// A convolution weight [oC, iC, kH, kW] initialized as identity kernels.
func ExampleNew_identity() {
	a, err := weightinit.New(weightinit.Identity, ndarray.Float64, weightinit.NewRand(0), 2, 2, 1, 3)
	if err != nil {
		panic(err)
	}
	fmt.Println(a.Float64s())
	// Output: [0 1 0 0 0 0 0 0 0 0 1 0]
}
