package ndarray

import (
	"fmt"
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
	size := dt.Size()
	if size == 0 {
		return nil, fmt.Errorf("ndarray: cannot allocate a buffer of dtype %v", dt)
	}
	if n < 0 || (n > 0 && n > MaxBytes/size) {
		return nil, fmt.Errorf("ndarray: cannot allocate %d elements of %v", n, dt)
	}
	return &Buffer{bytes: alignedBytes(n * size), dtype: dt, n: n}, nil
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
