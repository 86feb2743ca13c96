package createview_test

import (
	"fmt"

	"github.com/sdgo/sdgo/autodiff"
	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops/createview"
)

// A view and an in-place add through a view, in a graph.
func Example() {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 3, 4)

	// x[-1, 1:3]: a view on x's buffer, costing O(rank).
	x.View(createview.Point(-1), createview.Interval(1, 3)).Named("row")

	// x[-1, :] += 100, as a value: y is the new version of x; x itself
	// keeps its contents for every op that reads it.
	y := x.View(createview.Point(-1)).AddAssign(g.Scalar(ndarray.Float64, 100)).Named("y")

	// Writes chain: z is y with y[:, 0] = -1. Here y is requested too, so the
	// executor copies it before writing; when nothing else needs y, it
	// writes into y's buffer instead.
	y.View(createview.All(), createview.Point(0)).Assign(g.Scalar(ndarray.Float64, -1)).Named("z")

	xv := ndarray.Must(ndarray.Arange(ndarray.Float64, 1, 1, 12))
	xv = ndarray.Must(ndarray.Reshape(xv, 3, 4))
	out, err := exec.Output(g, map[string]*ndarray.Array{"x": xv}, "row", "y", "z")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("row:", out["row"], "shares x's buffer:", out["row"].SameBuffer(xv))
	fmt.Println("y:  ", out["y"])
	fmt.Println("z:  ", out["z"])
	fmt.Println("x:  ", xv)
	// Output:
	// row: float64[2] [10 11] shares x's buffer: true
	// y:   float64[3 4] [[1 2 3 4] [5 6 7 8] [109 110 111 112]]
	// z:   float64[3 4] [[-1 2 3 4] [-1 6 7 8] [-1 110 111 112]]
	// x:   float64[3 4] [[1 2 3 4] [5 6 7 8] [9 10 11 12]]
}

// The gradient through a write: d/dx and d/dv of sum(w * (x with x[-1] *= v)).
func Example_gradient() {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 2, 3)
	v := g.Placeholder("v", ndarray.Float64, 3)
	y := x.View(createview.Point(-1)).MulAssign(v)
	w := g.Const("w", ndarray.Must(ndarray.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3)))
	loss := y.Mul(w).Sum()
	grads, err := autodiff.Grad(loss, x, v)
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := exec.Output(g, map[string]*ndarray.Array{
		"x": ndarray.Must(ndarray.FromSlice([]float64{1, 1, 1, 1, 2, 3}, 2, 3)),
		"v": ndarray.Must(ndarray.FromSlice([]float64{10, 20, 30}, 3)),
	}, grads[0].Name(), grads[1].Name())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("dx:", out[grads[0].Name()]) // w, with the written row scaled by v
	fmt.Println("dv:", out[grads[1].Name()]) // w[-1] * x[-1]
	// Output:
	// dx: float64[2 3] [[1 2 3] [40 100 180]]
	// dv: float64[3] [4 10 18]
}

// Resolve computes a view's layout from the input's layout alone.
func ExampleResolve() {
	// A packed 4x6 array: strides 6, 1. View x[None, -1, 1:6:2].
	shape, strides, offset, err := createview.Resolve([]int{4, 6}, []int{6, 1}, 0,
		createview.NewAxis().Descriptor(),
		createview.Point(-1).Descriptor(),
		createview.IntervalStep(1, 6, 2, false).Descriptor())
	fmt.Println(shape, strides, offset, err)

	// Index 1 is on input axis 1 (the new axis takes none), of size 6.
	_, _, _, err = createview.Resolve([]int{4, 6}, []int{6, 1}, 0,
		createview.NewAxis().Descriptor(), createview.All().Descriptor(), createview.Point(6).Descriptor())
	fmt.Println(err)
	// Output:
	// [1 3] [6 2] 19 <nil>
	// index 2 [0 1 1 6 1]: point 6 is out of range for axis 1 of size 6 (input shape [4 6])
}

// Parse reads ADR 0021 descriptors, including Java's form of the new axis.
func ExampleParse() {
	for _, d := range [][]int64{{0, 1, 1, -1, 1}, {1, 2, 1, 0, 10, 3, 0}, {2, 0, 1, 1}, {3, 1, 10, 1}, {1, 2, 1, 0, 10, 0, 0}} {
		x, err := createview.Parse(d)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(x, x.Descriptor())
	}
	// Output:
	// point(-1) [0 1 1 -1 1]
	// interval(0, 10, step 3) [1 2 1 0 10 3 0]
	// all [2 0 1 1]
	// newAxis [3 1 1 0 1]
	// index [1 2 1 0 10 0 0]: interval step (slot 5) is 0 (want {1, 2, 1, start, end, step, inclusive})
}
