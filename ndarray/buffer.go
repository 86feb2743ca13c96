package ndarray

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Alignment is the byte alignment of every buffer sdgo allocates: a cache line,
// and the width of an AVX-512 register, so vector kernels can use aligned loads
// on packed arrays and on padded rows that are a multiple of it.
const Alignment = 64

// Buffer is a block of elements of one dtype, shared by every array that views
// it. A Buffer never changes size.
type Buffer struct {
	bytes []byte // exactly n*dtype.Size() bytes; for string dtypes the encoded bytes
	dtype DType
	n     int // number of elements
}

// NewBuffer allocates a zeroed, 64-byte-aligned buffer of n elements. It fails
// for negative n, string dtypes (use a Buffer from a file for those) and
// lengths that overflow.
func NewBuffer(dt DType, n int) (*Buffer, error) {
	b, err := newBuffer(dt, n)
	if err != nil {
		return nil, fmt.Errorf("ndarray: %w", err)
	}
	return b, nil
}

// newBuffer is NewBuffer with errors its callers prefix.
func newBuffer(dt DType, n int) (*Buffer, error) {
	size := dt.Size()
	if size == 0 {
		return nil, fmt.Errorf("cannot allocate a buffer of dtype %v", dt)
	}
	if n < 0 || (n > 0 && n > MaxBytes/size) {
		return nil, fmt.Errorf("cannot allocate %d elements of %v", n, dt)
	}
	if n <= 1 {
		// A scalar is allocated whatever the budget: ops make scalar
		// constants without expecting them to fail.
		return &Buffer{bytes: alignedBytes(n * size), dtype: dt, n: n}, nil
	}
	held, err := charge(n * size)
	if err != nil {
		return nil, fmt.Errorf("%d elements of %v: %w", n, dt, err)
	}
	defer done(held)
	return &Buffer{bytes: alignedBytes(n * size), dtype: dt, n: n}, nil
}

// ErrTooLarge is wrapped by the error of an allocation that does not fit in
// the memory budget (AllocLimit).
var ErrTooLarge = errors.New("array too large")

// setLimit is the limit SetAllocLimit set; 0 means the default.
var setLimit atomic.Int64

// systemLimit is the default memory budget, worked out once.
var systemLimit = sync.OnceValue(defaultLimit)

// AllocLimit returns the memory budget, in bytes: the most the Go heap may
// hold in use (MemoryInUse) once a new buffer is made. Every buffer NewBuffer
// (and so every op, every executor and the gradient checker) makes is
// checked against it first, and one that does not fit, with what is already
// in use, fails with an error wrapping ErrTooLarge instead of ending the
// process (the package documentation says how it is counted). A single
// element is allocated whatever the budget, so scalars never fail.
//
// The default, worked out at the first allocation, is the heap in use then
// plus three quarters of the room the tightest of these leaves: the
// address-space and data rlimits (RLIMIT_AS, RLIMIT_DATA) less what the
// process maps already, the memory limit of its cgroup (v2 memory.max, v1
// memory.limit_in_bytes, and their parents') less what the cgroup uses,
// and the memory the system has available (MemAvailable); MaxBytes where
// the system says none of them. The quarter left is for what the budget
// does not count: goroutine stacks, the runtime's own structures, heap
// fragmentation, garbage between collections.
func AllocLimit() int {
	if l := setLimit.Load(); l > 0 {
		return int(l)
	}
	return systemLimit()
}

// SetAllocLimit sets the memory budget (AllocLimit) to n bytes of heap in
// use and returns the previous budget; n <= 0 restores the default. A
// program that runs graphs or shapes it does not control can set it, so
// that an oversized request fails with an error before it takes the memory
// the rest of the program needs. Buffers already allocated are not
// affected; they count towards it.
func SetAllocLimit(n int) int {
	prev := AllocLimit()
	setLimit.Store(int64(max(n, 0)))
	pending.Store(readEvery) // the next allocation reads the heap afresh
	return prev
}

// MaxBytes bounds a single array (1 TiB): far above any real array, low
// enough that the products computed from it cannot overflow an int.
const MaxBytes = 1 << 40

func alignedBytes(nbytes int) []byte {
	if nbytes == 0 {
		return nil
	}
	raw := make([]byte, nbytes+Alignment-1)
	shift := 0
	if r := int(uintptr(unsafe.Pointer(&raw[0])) % Alignment); r != 0 {
		shift = Alignment - r
	}
	return raw[shift : shift+nbytes : shift+nbytes]
}

// BufferFromBytes wraps native-byte-order element bytes
// as a buffer of n elements of dt, without copying. For string dtypes, b is
// the SameDiff encoding and n the number of strings. The caller must not
// change b afterwards. For Bool, bytes other than 0 and 1 are true and are
// made 1 in a copy: Go's bool must be 0 or 1, and the Bool loops (Logic,
// Compare, Equal) work on the bytes.
func BufferFromBytes(dt DType, n int, b []byte) (*Buffer, error) {
	if !dt.Known() {
		return nil, fmt.Errorf("ndarray: unknown dtype %v", dt)
	}
	if n < 0 {
		return nil, fmt.Errorf("ndarray: negative element count %d", n)
	}
	if s := dt.Size(); s > 0 && len(b) != n*s {
		return nil, fmt.Errorf("ndarray: %d bytes do not hold %d elements of %v", len(b), n, dt)
	}
	if dt.Size() > 1 && len(b) > 0 && uintptr(unsafe.Pointer(&b[0]))%uintptr(dt.Size()) != 0 {
		// Typed access needs natural alignment; copy into an aligned block.
		c := alignedBytes(len(b))
		copy(c, b)
		b = c
	}
	if dt == Bool {
		b = normalizeBools(b)
	}
	return &Buffer{bytes: b, dtype: dt, n: n}, nil
}

// normalizeBools returns b, or a copy with every non-zero byte made 1 when
// some byte is neither 0 nor 1.
func normalizeBools(b []byte) []byte {
	for _, x := range b {
		if x > 1 {
			c := alignedBytes(len(b))
			for j, y := range b {
				c[j] = min(y, 1)
			}
			return c
		}
	}
	return b
}

// DType returns the element type.
func (b *Buffer) DType() DType { return b.dtype }

// Len returns the number of elements.
func (b *Buffer) Len() int { return b.n }

// Bytes returns the buffer's bytes in native byte order. The caller must not
// change them.
func (b *Buffer) Bytes() []byte { return b.bytes }

// bufSlice returns the buffer's elements as a []T. T must match the dtype.
func bufSlice[T Elem](b *Buffer) []T {
	if b.n == 0 || len(b.bytes) == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b.bytes[0])), b.n)
}

// sliceBuffer wraps a typed slice as a Buffer without copying.
func sliceBuffer[T Elem](s []T) *Buffer {
	dt := DTypeOf[T]()
	if len(s) == 0 {
		return &Buffer{dtype: dt}
	}
	nb := len(s) * dt.Size()
	return &Buffer{bytes: unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), nb), dtype: dt, n: len(s)}
}
