package ndarray

import (
	"sync"
	"unsafe"
)

// scratch is room for three chunks of the widest element type: the
// contiguous copies that strided runs are gathered into. It comes from a
// pool, and only when a run needs it: most runs are contiguous, and kernels
// are called through function values, so scratch on the stack would escape
// to the heap on every call anyway.
type scratch struct {
	b [3 * chunk * 8]byte
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

func getScratch() *scratch  { return scratchPool.Get().(*scratch) }
func putScratch(s *scratch) { scratchPool.Put(s) }

// part returns the i-th chunk of the scratch as a []T.
func part[T Elem](s *scratch, i int) []T {
	var z T
	size := int(unsafe.Sizeof(z))
	return unsafe.Slice((*T)(unsafe.Pointer(&s.b[i*chunk*size])), chunk)
}
