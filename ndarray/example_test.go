package ndarray_test

import (
	"errors"
	"fmt"
	"runtime"

	"github.com/sdgo/sdgo/ndarray"
)

// Arrays broadcast as in numpy; reductions take the axes to reduce.
func Example() {
	x := ndarray.Must(ndarray.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3))
	b := ndarray.Must(ndarray.FromSlice([]float32{10, 20, 30}, 3))
	y := ndarray.Must(ndarray.Binary(ndarray.Add, x, b)) // b added to each row
	fmt.Println(y)
	fmt.Println(ndarray.Must(ndarray.Reduce(ndarray.Sum, y, []int{1}, false)))
	fmt.Println(ndarray.Must(ndarray.MatMul(x, x, false, true))) // x·xᵀ
	// Output:
	// float32[2 3] [[11 22 33] [14 25 36]]
	// float32[2] [66 75]
	// float32[2 2] [[14 32] [32 77]]
}

// A view shares its parent's buffer: here every second column of a 2×4
// array, made without copying. Ops take views like packed arrays.
func ExampleNewView() {
	x := ndarray.Must(ndarray.FromSlice([]float64{0, 1, 2, 3, 4, 5, 6, 7}, 2, 4))
	v, err := ndarray.NewView(x.Buffer(), ndarray.Layout{Shape: []int{2, 2}, Strides: []int{4, 2}, Offset: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(v, v.SameBuffer(x))
	fmt.Println(ndarray.Must(ndarray.Unary(ndarray.Neg, v, 0)))
	// Output:
	// float64[2 2] [[1 3] [5 7]] true
	// float64[2 2] [[-1 -3] [-5 -7]]
}

// Shapes that do not broadcast are an error naming the op and the shapes;
// integer division by zero is one that errors.Is can test.
func ExampleBinary_errors() {
	x := ndarray.Must(ndarray.Zeros(ndarray.Float32, 2, 3))
	y := ndarray.Must(ndarray.Zeros(ndarray.Float32, 4))
	_, err := ndarray.Binary(ndarray.Add, x, y)
	fmt.Println(err)

	n := ndarray.Must(ndarray.FromSlice([]int32{7, 8}, 2))
	z := ndarray.Must(ndarray.FromSlice([]int32{2, 0}, 2))
	_, err = ndarray.Binary(ndarray.Div, n, z)
	fmt.Println(errors.Is(err, ndarray.ErrDivideByZero))
	// Output:
	// ndarray: add: shapes [2 3] and [4] do not broadcast (axis 1: 3 vs 4)
	// true
}

// A memory budget counts every array still in use, not one at a time:
// with 64 MiB of room, eight arrays of 16 MiB do not all fit. An array
// that does not fit is an error that errors.Is can test, and one let go
// makes room again.
func ExampleSetAllocLimit() {
	runtime.GC() // the heap in use is then live memory only
	prev := ndarray.SetAllocLimit(ndarray.MemoryInUse() + 64<<20)
	defer ndarray.SetAllocLimit(prev)
	// fill holds arrays of 16 MiB until one does not fit.
	fill := func() (int, error) {
		var kept []*ndarray.Array
		for range 8 {
			a, err := ndarray.Zeros(ndarray.Float64, 2<<20)
			if err != nil {
				return len(kept), err
			}
			kept = append(kept, a)
		}
		return len(kept), nil
	}
	n, err := fill()
	fmt.Println(n < 8, errors.Is(err, ndarray.ErrTooLarge))
	// fill's arrays are garbage now: the budget runs the GC for room.
	_, err = ndarray.Zeros(ndarray.Float64, 2<<20)
	fmt.Println(err)
	// Output:
	// true true
	// <nil>
}
