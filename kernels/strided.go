package kernels

import (
	"fmt"
	"unsafe"
)

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
	src = src[:span("Gather", n, inc, len(src))]
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
	dst = dst[:span("Scatter", n, inc, len(dst))]
	j := 0
	for _, v := range src {
		dst[j] = v
		j += inc
	}
}

// span returns (n-1)*inc+1, the length n elements inc apart cover (n >= 1),
// and panics, naming op, unless inc >= 0 and a slice of l elements holds
// them. The check is GEMM's extent, which refuses a product (n-1)*inc that
// overflows: in int a huge inc wraps around to a small span, which a slice
// expression would let through (and the assembly, stepping by inc*size
// bytes, would read or write the elements as if inc were small).
func span(op string, n, inc, l int) int {
	_, hi, ok := extent(l, 0, n, 1, inc, 0)
	if inc < 0 || !ok {
		panic(fmt.Sprintf("kernels: %s of %d elements %d apart does not fit a slice of %d", op, n, inc, l))
	}
	return hi + 1
}

// Prefetch asks for the elements s[i*inc], i < n, to be brought into the
// cache ahead of a Gather of them: the caller computes on one gathered
// chunk while the next is on its way. It is a hint with no effect on
// results. Elements past len(s) are left out; with inc <= 0 only s[0] is
// asked for. Portable Go (and SDGO_ISA=generic) has no prefetch
// instruction and ignores it.
func Prefetch[T any](s []T, n, inc int) {
	if n <= 0 || len(s) == 0 {
		return
	}
	if inc <= 0 {
		n, inc = 1, 1
	}
	n = min(n, (len(s)-1)/inc+1)
	sz := int(unsafe.Sizeof(s[0]))
	p := unsafe.Pointer(&s[0])
	if inc*sz >= lineBytes {
		// one line per element
		prefetchLines((*byte)(p), n, inc*sz)
		return
	}
	// every line of the span: from p's line to the last element's
	first := uintptr(p) / lineBytes
	last := (uintptr(p) + uintptr(((n-1)*inc+1)*sz) - 1) / lineBytes
	prefetchLines((*byte)(p), int(last-first)+1, lineBytes)
}

// lineBytes is the cache line size of the CPUs the kernels are tuned for.
const lineBytes = 64
