package densetensor

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
	"gorgonia.org/tensor"
)

// ToDense converts a to a gorgonia *tensor.Dense. A packed array shares its
// buffer with the result (no copy); other layouts are copied first. The
// result must be treated as read-only, like a. A rank-0 array becomes a
// scalar tensor.
func ToDense(a *ndarray.Array) (*tensor.Dense, error) {
	p, err := ndarray.Contiguous(a)
	if err != nil {
		return nil, err
	}
	shape := append([]int(nil), a.Shape()...)
	switch a.DType() {
	case ndarray.Float32:
		return denseOf(packedData[float32](p), shape), nil
	case ndarray.Float64:
		return denseOf(packedData[float64](p), shape), nil
	case ndarray.Int32:
		return denseOf(packedData[int32](p), shape), nil
	case ndarray.Int64:
		return denseOf(packedData[int64](p), shape), nil
	case ndarray.Bool:
		return denseOf(packedData[bool](p), shape), nil
	}
	return nil, fmt.Errorf("densetensor: no gorgonia dtype for %v", a.DType())
}

// packedData returns the elements of a packed array as a slice of its
// buffer. An empty array's offset may lie past the buffer's end (the
// layout rules allow it), so it gets an empty slice and the buffer is not
// indexed.
func packedData[T ndarray.Elem](p *ndarray.Array) []T {
	n := p.Size()
	if n == 0 {
		return []T{}
	}
	return ndarray.Raw[T](p)[p.Offset() : p.Offset()+n]
}

func denseOf[T ndarray.Elem](data []T, shape []int) *tensor.Dense {
	if len(shape) == 0 {
		return tensor.New(tensor.FromScalar(data[0]))
	}
	return tensor.New(tensor.WithShape(shape...), tensor.WithBacking(data))
}

// FromDense converts a gorgonia *tensor.Dense to an array. A contiguous,
// row-major tensor's backing slice becomes the array's buffer without a
// copy; views (slices, transposes) are materialized first. Column-major
// tensors are refused. A scalar tensor becomes a rank-0 array.
func FromDense(d *tensor.Dense) (*ndarray.Array, error) {
	if d == nil {
		return nil, fmt.Errorf("densetensor: FromDense of a nil tensor")
	}
	if d.DataOrder().IsColMajor() {
		return nil, fmt.Errorf("densetensor: column-major gorgonia tensors are not supported; transpose and materialize first")
	}
	// the dtype, and the wrapper for its Go type
	var dt ndarray.DType
	var wrap func(*tensor.Dense, []int) (*ndarray.Array, error)
	switch d.Dtype() {
	case tensor.Float32:
		dt, wrap = ndarray.Float32, wrapDense[float32]
	case tensor.Float64:
		dt, wrap = ndarray.Float64, wrapDense[float64]
	case tensor.Int32:
		dt, wrap = ndarray.Int32, wrapDense[int32]
	case tensor.Int64:
		dt, wrap = ndarray.Int64, wrapDense[int64]
	case tensor.Bool:
		dt, wrap = ndarray.Bool, wrapDense[bool]
	default:
		return nil, fmt.Errorf("densetensor: gorgonia dtype %v has no sdgo dtype", d.Dtype())
	}
	shape := []int(d.Shape())
	if d.Shape().IsScalar() {
		shape = nil
	}
	if size(shape) == 0 {
		// Nothing to wrap, and gorgonia's Data panics on an empty tensor.
		return ndarray.Zeros(dt, shape...)
	}
	if d.RequiresIterator() {
		m, ok := d.Materialize().(*tensor.Dense)
		if !ok {
			return nil, fmt.Errorf("densetensor: cannot materialize gorgonia view")
		}
		d = m
	}
	return wrap(d, shape)
}

// size is the number of elements of shape (1 for a scalar).
func size(shape []int) int {
	n := 1
	for _, s := range shape {
		n *= s
	}
	return n
}

func wrapDense[T ndarray.Elem](d *tensor.Dense, shape []int) (*ndarray.Array, error) {
	if len(shape) == 0 {
		v, ok := d.Data().(T)
		if !ok {
			if s, ok := d.Data().([]T); ok && len(s) == 1 {
				v = s[0]
			} else {
				return nil, fmt.Errorf("densetensor: unexpected scalar data %T in gorgonia tensor", d.Data())
			}
		}
		return ndarray.Scalar(v), nil
	}
	data, ok := d.Data().([]T)
	if !ok {
		return nil, fmt.Errorf("densetensor: unexpected data %T in gorgonia tensor", d.Data())
	}
	return ndarray.Wrap(data[:size(shape)], shape...)
}
