package npy_test

import (
	"bytes"
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ndarray/npy"
)

// An array written as .npy and read back; numpy.load reads the same bytes.
func Example() {
	a := ndarray.Must(ndarray.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3))
	var file bytes.Buffer
	if err := npy.Write(&file, a); err != nil {
		fmt.Println(err)
		return
	}
	b, err := npy.Read(&file)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(b.DType(), b.Shape(), b.Float(1, 2))
	// Output: float32 [2 3] 6
}

// Named arrays in one .npz archive, as numpy.savez writes them.
func ExampleWriteNPZ() {
	var file bytes.Buffer
	err := npy.WriteNPZ(&file, map[string]*ndarray.Array{
		"weights": ndarray.Must(ndarray.FromSlice([]float64{0.5, -0.5}, 2, 1)),
		"bias":    ndarray.Scalar(0.25),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	arrays, err := npy.ReadNPZ(bytes.NewReader(file.Bytes()), int64(file.Len()))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(arrays["weights"].Shape(), arrays["bias"].Float())
	// Output: [2 1] 0.25
}
