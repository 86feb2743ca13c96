package densetensor_test

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ndarray/densetensor"
)

// An array goes to gorgonia and back: ToDense shares the packed array's
// elements with the tensor, gorgonia sums its rows, and FromDense wraps the
// result's backing slice as an array.
func Example() {
	a := ndarray.Must(ndarray.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3))
	d, err := densetensor.ToDense(a)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.Shape(), d.Data())
	s, err := d.Sum(1)
	if err != nil {
		fmt.Println(err)
		return
	}
	b, err := densetensor.FromDense(s)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(b)
	// Output:
	// (2, 3) [1 2 3 4 5 6]
	// float32[2] [6 15]
}
