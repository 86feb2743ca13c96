package ops

import (
	"fmt"
	"slices"
	"unsafe"

	"github.com/sdgo/sdgo/ndarray"
)

// reserve checks, before an op makes a temporary of dims elements of T
// with make (an index table, an accumulator, a copy: a Go slice outside
// ndarray), that it fits in the memory budget, and counts it there. The
// budget would see such a slice only at its next read of the heap, after
// a size taken from a hostile argument or shape had already ended the
// process. Arrays from Ctx.Alloc need no such call.
func reserve[T any](op string, dims ...int) error {
	var z T
	return reserveSize(op, int(unsafe.Sizeof(z)), dims...)
}

// reserveSize is reserve for elements of size bytes. dims are the factors
// of the element count (a count of temporaries of one size may lead), so
// that a product too large for an int is refused rather than wrapped
// around. The error names the op and the dims and wraps
// ndarray.ErrTooLarge.
func reserveSize(op string, size int, dims ...int) error {
	if slices.Contains(dims, 0) {
		return nil
	}
	n := size
	for _, d := range dims {
		if d < 0 {
			return fmt.Errorf("%s: a temporary of %v elements: negative size", op, dims)
		}
		if n > ndarray.MaxBytes/d {
			// Whatever the budget: the product may not even fit an int.
			return fmt.Errorf("%s: a temporary of %v elements of %d bytes is above the %d bytes one allocation may take: %w",
				op, dims, size, ndarray.MaxBytes, ndarray.ErrTooLarge)
		}
		n *= d
	}
	if err := ndarray.Reserve(n); err != nil {
		return fmt.Errorf("%s: a temporary of %v elements of %d bytes: %w", op, dims, size, err)
	}
	return nil
}
