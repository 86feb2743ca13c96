package ndarray

import "math"

// relu's gradient, y where x > 0 and +0 elsewhere, on floats without a
// branch: x's sign is as random as the data, and the branch of binLoop's
// ReluGrad mispredicted on about half the elements of a training step's
// activations. x > 0 exactly when x's bits, read as a signed integer, lie
// in (0, bits of +Inf]: zeros and negative numbers are not above 0, NaNs lie
// above +Inf. keep is all ones then, and zero otherwise (in int64, so that
// negating never overflows for float32; for float64 the one overflow,
// -0's bits, makes the second factor non-negative).

func reluGrad32(d, x, y []float32) {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		b := int64(int32(math.Float32bits(x[i])))
		keep := uint32((-b & (b - 0x7f800001)) >> 63)
		d[i] = math.Float32frombits(math.Float32bits(y[i]) & keep)
	}
}

func reluGrad64(d, x, y []float64) {
	x, y = x[:len(d)], y[:len(d)]
	for i := range d {
		b := int64(math.Float64bits(x[i]))
		keep := uint64((-b & (b - 0x7ff0000000000001)) >> 63)
		d[i] = math.Float64frombits(math.Float64bits(y[i]) & keep)
	}
}
