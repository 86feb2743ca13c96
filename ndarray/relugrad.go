package ndarray

import "unsafe"

// relu's gradient, y where x > 0 and +0 elsewhere, on floats without a
// branch: x's sign is as random as the data, and the branch of binLoop's
// ReluGrad mispredicted on about half the elements of a training step's
// activations. x > 0 exactly when x's bits, read as a signed integer, lie
// in (0, bits of +Inf]: zeros and negative numbers are not above 0, NaNs lie
// above +Inf. keep is all ones then, and zero otherwise (in int64, so that
// negating never overflows for float32; for float64 the one overflow,
// -0's bits, makes the second factor non-negative).
//
// The loops read and write the elements' bits as integers: reading them as
// floats and converting each with math.Float32bits went through a store
// and a load on the stack per element.

func reluGrad32(d, x, y []float32) {
	db, xb, yb := bitsOf[uint32](d), bitsOf[int32](x), bitsOf[uint32](y)
	xb, yb = xb[:len(db)], yb[:len(db)]
	for i := range db {
		b := int64(xb[i])
		db[i] = yb[i] & uint32((-b&(b-0x7f800001))>>63)
	}
}

func reluGrad64(d, x, y []float64) {
	db, xb, yb := bitsOf[uint64](d), bitsOf[int64](x), bitsOf[uint64](y)
	xb, yb = xb[:len(db)], yb[:len(db)]
	for i := range db {
		b := xb[i]
		db[i] = yb[i] & uint64((-b&(b-0x7ff0000000000001))>>63)
	}
}

// bitsOf returns s's memory as a slice of integers I of the elements' size.
func bitsOf[I, F any](s []F) []I {
	return unsafe.Slice((*I)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}
