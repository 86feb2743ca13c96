package ndarray

import (
	"fmt"

	"gorgonia.org/tensor"
)

// ToDense converts a to a gorgonia *tensor.Dense. A packed array shares its
// buffer with the result (no copy); other layouts are copied first. The
// result must be treated as read-only, like a.
func ToDense(a *Array) (*tensor.Dense, error) {
	p := Contiguous(a)
	shape := append([]int(nil), a.shape...)
	n := a.Size()
	switch a.DType() {
	case Float32:
		return denseOf(Raw[float32](p)[p.offset:p.offset+n], shape), nil
	case Float64:
		return denseOf(Raw[float64](p)[p.offset:p.offset+n], shape), nil
	case Int32:
		return denseOf(Raw[int32](p)[p.offset:p.offset+n], shape), nil
	case Int64:
		return denseOf(Raw[int64](p)[p.offset:p.offset+n], shape), nil
	case Bool:
		return denseOf(Raw[bool](p)[p.offset:p.offset+n], shape), nil
	}
	return nil, fmt.Errorf("ndarray: no gorgonia dtype for %v", a.DType())
}

func denseOf[T Elem](data []T, shape []int) *tensor.Dense {
	if len(shape) == 0 {
		return tensor.New(tensor.FromScalar(data[0]))
	}
	if data == nil {
		data = []T{}
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
	if d.RequiresIterator() {
		m, ok := d.Materialize().(*tensor.Dense)
		if !ok {
			return nil, fmt.Errorf("ndarray: cannot materialize gorgonia view")
		}
		d = m
	}
	shape := []int(d.Shape())
	if d.Shape().IsScalar() {
		shape = nil
	}
	switch d.Dtype() {
	case tensor.Float32:
		return wrapDense[float32](d, shape)
	case tensor.Float64:
		return wrapDense[float64](d, shape)
	case tensor.Int32:
		return wrapDense[int32](d, shape)
	case tensor.Int64:
		return wrapDense[int64](d, shape)
	case tensor.Bool:
		return wrapDense[bool](d, shape)
	}
	return nil, fmt.Errorf("ndarray: gorgonia dtype %v has no sdgo dtype", d.Dtype())
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
