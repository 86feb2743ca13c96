package kernels

// Strided runs. The ndarray package hands kernels contiguous runs; a run
// whose elements are inc apart is gathered into contiguous scratch with
// Gather, computed there, and written back with Scatter.

// GatherGo is the portable Gather:
//
//	for i := range dst {
//		dst[i] = src[i*inc]
//	}
//
// src must hold at least (len(dst)-1)*inc+1 elements and inc must be >= 0
// (inc 0 fills dst with src[0]); otherwise it panics. dst and src must not
// overlap.
func GatherGo[T Float](dst, src []T, inc int) {
	n := len(dst)
	if n == 0 {
		return
	}
	if inc == 1 {
		copy(dst, src[:n])
		return
	}
	src = src[:(n-1)*inc+1] // panics when src is too short or inc < 0
	j := 0
	for i := range dst {
		dst[i] = src[j]
		j += inc
	}
}

// ScatterGo is the portable Scatter:
//
//	for i := range src {
//		dst[i*inc] = src[i]
//	}
//
// dst must hold at least (len(src)-1)*inc+1 elements and inc must be >= 0
// (with inc 0 the last element of src ends up in dst[0]); otherwise it
// panics. Only the elements dst[i*inc] are written; the ones between are
// neither read nor written. dst and src must not overlap.
func ScatterGo[T Float](dst []T, inc int, src []T) {
	n := len(src)
	if n == 0 {
		return
	}
	if inc == 1 {
		copy(dst[:n], src)
		return
	}
	dst = dst[:(n-1)*inc+1] // panics when dst is too short or inc < 0
	j := 0
	for _, v := range src {
		dst[j] = v
		j += inc
	}
}
