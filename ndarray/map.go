package ndarray

import (
	"fmt"
	"slices"
)

// FloatFunc computes d[i] = f(x[i]) for every i of contiguous slices of one
// length; d may be x. It is how an op outside this package brings its own
// elementwise function (an activation, a special function) to every layout
// without a float64 detour: MapFloatInto calls it on runs of elements.
type FloatFunc[T float32 | float64] func(d, x []T)

// FloatFunc2 computes d[i] = f(x[i], y[i]) for every i of contiguous slices
// of one length; d may be x or y.
type FloatFunc2[T float32 | float64] func(d, x, y []T)

// MapFloatInto writes f(a) into dst elementwise: f32 for float32 arrays, f64
// for float64. dst has a's dtype and shape and may be a itself (or share its
// buffer with the same layout), but must not overlap it otherwise. Any
// layout works: f sees contiguous runs, gathered from strided layouts a part
// at a time.
func MapFloatInto(dst, a *Array, f32 FloatFunc[float32], f64 FloatFunc[float64]) error {
	if !a.DType().IsFloat() || !a.DType().IsNumeric() {
		return fmt.Errorf("ndarray: an elementwise float function of a %v array", a.DType())
	}
	if dst.DType() != a.DType() || !slices.Equal(dst.shape, a.shape) {
		return fmt.Errorf("ndarray: an elementwise function of a %v%v array into a %v%v array", a.DType(), a.shape, dst.DType(), dst.shape)
	}
	// f, the caller's, may not be safe to call from more than one
	// goroutine: it runs on the caller's alone (minPart 0).
	switch a.DType() {
	case Float32:
		unaryTyped(0, func(d, x []float32, _ float64) { f32(d, x) }, dst, a, 0)
	case Float64:
		unaryTyped(0, func(d, x []float64, _ float64) { f64(d, x) }, dst, a, 0)
	}
	return nil
}

// MapFloat2Into writes f(a, b) into dst elementwise, a and b broadcast to
// dst's shape (numpy's rules): f32 for float32 arrays, f64 for float64. a, b
// and dst have one dtype; dst may be a or b (same layout), but must not
// overlap them otherwise.
func MapFloat2Into(dst, a, b *Array, f32 FloatFunc2[float32], f64 FloatFunc2[float64]) error {
	if a.DType() != b.DType() || !a.DType().IsFloat() || !a.DType().IsNumeric() {
		return fmt.Errorf("ndarray: an elementwise float function of %v and %v arrays", a.DType(), b.DType())
	}
	shape, err := BroadcastShapes(a.shape, b.shape)
	if err != nil {
		return err
	}
	if dst.DType() != a.DType() || !slices.Equal(dst.shape, shape) {
		return fmt.Errorf("ndarray: an elementwise function of %v%v and %v%v arrays into a %v%v array", a.DType(), a.shape, b.DType(), b.shape, dst.DType(), dst.shape)
	}
	switch a.DType() {
	case Float32:
		mapTyped2(f32, dst, a, b)
	case Float64:
		mapTyped2(f64, dst, a, b)
	}
	return nil
}

func mapTyped2[T float32 | float64](f FloatFunc2[T], dst, a, b *Array) {
	k := &binK[T]{vec: f, one: func(x, y T) T {
		v := [3]T{0, x, y}
		f(v[0:1], v[1:2], v[2:3])
		return v[0]
	}}
	shape := dst.shape
	var sa, sb [MaxRank]int
	nn, ok := newNest(shape, 3, [3][]int{dst.strides, broadcastStridesInto(sa[:len(shape)], a, shape), broadcastStridesInto(sb[:len(shape)], b, shape)},
		[3]int{dst.offset, a.offset, b.offset})
	if !ok {
		return
	}
	binaryRuns(k, Raw[T](dst), Raw[T](a), Raw[T](b), &nn)
}
