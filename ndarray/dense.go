package ndarray

import (
	"fmt"

	"gorgonia.org/tensor"
)

// ToDense converts a to a gorgonia *tensor.Dense. A packed array shares its
// buffer with the result (no copy); other layouts are copied first. The
// result must be treated as read-only, like a.
func ToDense(a *Array) (*tensor.Dense, error) {
	p, err := Contiguous(a)
	if err != nil {
		return nil, err
	}
	shape := append([]int(nil), a.shape...)
	switch a.DType() {
	case Float32:
		return denseOf(packedData[float32](p), shape), nil
	case Float64:
		return denseOf(packedData[float64](p), shape), nil
	case Int32:
		return denseOf(packedData[int32](p), shape), nil
	case Int64:
		return denseOf(packedData[int64](p), shape), nil
	case Bool:
		return denseOf(packedData[bool](p), shape), nil
	}
	return nil, fmt.Errorf("ndarray: no gorgonia dtype for %v", a.DType())
}

// packedData returns the elements of a packed array as a slice of its
// buffer. An empty array's offset may lie past the buffer's end (Validate
// allows it), so it gets an empty slice and the buffer is not indexed.
func packedData[T Elem](p *Array) []T {
	n := p.Size()
	if n == 0 {
		return []T{}
	}
	return Raw[T](p)[p.offset : p.offset+n]
}

func denseOf[T Elem](data []T, shape []int) *tensor.Dense {
	if len(shape) == 0 {
		return tensor.New(tensor.FromScalar(data[0]))
	}
	return tensor.New(tensor.WithShape(shape...), tensor.WithBacking(data))
}

// FromDense converts a gorgonia *tensor.Dense to an Array. A contiguous,
// row-major dense tensor's backing slice becomes the array's buffer without a
// copy; views and column-major tensors are copied.
func FromDense(d *tensor.Dense) (*Array, error) {
	if d == nil {
		return nil, fmt.Errorf("ndarray: FromDense of a nil tensor")
	}
	if d.DataOrder().IsColMajor() {
		return nil, fmt.Errorf("ndarray: column-major gorgonia tensors are not supported; transpose and materialize first")
	}
	// the dtype, and the wrapper for its Go type
	var dt DType
	var wrap func(*tensor.Dense, []int) (*Array, error)
	switch d.Dtype() {
	case tensor.Float32:
		dt, wrap = Float32, wrapDense[float32]
	case tensor.Float64:
		dt, wrap = Float64, wrapDense[float64]
	case tensor.Int32:
		dt, wrap = Int32, wrapDense[int32]
	case tensor.Int64:
		dt, wrap = Int64, wrapDense[int64]
	case tensor.Bool:
		dt, wrap = Bool, wrapDense[bool]
	default:
		return nil, fmt.Errorf("ndarray: gorgonia dtype %v has no sdgo dtype", d.Dtype())
	}
	shape := []int(d.Shape())
	if d.Shape().IsScalar() {
		shape = nil
	}
	if shapeSize(shape) == 0 {
		// Nothing to wrap, and gorgonia's Data panics on an empty tensor.
		return Zeros(dt, shape...)
	}
	if d.RequiresIterator() {
		m, ok := d.Materialize().(*tensor.Dense)
		if !ok {
			return nil, fmt.Errorf("ndarray: cannot materialize gorgonia view")
		}
		d = m
	}
	return wrap(d, shape)
}

func wrapDense[T Elem](d *tensor.Dense, shape []int) (*Array, error) {
	if len(shape) == 0 {
		v, ok := d.Data().(T)
		if !ok {
			if s, ok := d.Data().([]T); ok && len(s) == 1 {
				v = s[0]
			} else {
				return nil, fmt.Errorf("ndarray: unexpected scalar data %T in gorgonia tensor", d.Data())
			}
		}
		return Scalar(v), nil
	}
	data, ok := d.Data().([]T)
	if !ok {
		return nil, fmt.Errorf("ndarray: unexpected data %T in gorgonia tensor", d.Data())
	}
	return Wrap(data[:shapeSize(shape)], shape...)
}
