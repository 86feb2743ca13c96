package ndarray

import (
	"encoding/binary"
	"fmt"
	"unsafe"
)

// String arrays (dtype UTF8; UTF16 and UTF32 are kept byte for byte) hold
// their elements in one buffer: n+1 offsets as native-order int64, then the
// concatenated bytes; element i is bytes[off[i]:off[i+1]]. Graph files store
// them in one of two layouts of their own; package serialize converts.
// sdgo does not compute with strings, but keeps, saves and prints them.

var native binary.ByteOrder = func() binary.ByteOrder {
	x := uint16(1)
	if *(*byte)(unsafe.Pointer(&x)) == 1 {
		return binary.LittleEndian
	}
	return binary.BigEndian
}()

// FromStrings returns a UTF8 array of the given shape holding ss (a vector
// when no shape is given).
func FromStrings(ss []string, shape ...int) (*Array, error) {
	if len(shape) == 0 && len(ss) != 1 {
		shape = []int{len(ss)}
	}
	if err := CheckShape(shape); err != nil {
		return nil, err
	}
	n := shapeSize(shape)
	if n != len(ss) {
		return nil, fmt.Errorf("ndarray: %d strings do not fill shape %v", len(ss), shape)
	}
	size := 8 * (n + 1)
	for _, s := range ss {
		size += len(s)
	}
	b := make([]byte, size)
	pos := uint64(0)
	for i, s := range ss {
		native.PutUint64(b[8*i:], pos)
		copy(b[8*(n+1)+int(pos):], s)
		pos += uint64(len(s))
	}
	native.PutUint64(b[8*n:], pos)
	buf := &Buffer{bytes: b, dtype: UTF8, n: n}
	return NewView(buf, Packed(shape...))
}

// Strings returns the elements of a string array in C order. UTF16 and
// UTF32 elements come back as their raw bytes.
func Strings(a *Array) ([]string, error) {
	switch a.DType() {
	case UTF8, UTF16, UTF32:
	default:
		return nil, fmt.Errorf("ndarray: Strings of a %v array", a.DType())
	}
	n := a.buf.n
	raw := a.buf.bytes
	if n == 0 || a.Size() == 0 {
		return []string{}, nil // an empty array may come without even its offset
	}
	if n < 0 || len(raw) < 8*(n+1) {
		return nil, fmt.Errorf("ndarray: a string buffer of %d bytes cannot hold %d offsets", len(raw), n+1)
	}
	data := raw[8*(n+1):]
	all := make([]string, n)
	prev := native.Uint64(raw)
	for i := range all {
		next := native.Uint64(raw[8*(i+1):])
		if prev > next || next > uint64(len(data)) {
			return nil, fmt.Errorf("ndarray: string %d has offsets %d..%d in %d bytes", i, prev, next, len(data))
		}
		all[i] = string(data[prev:next])
		prev = next
	}
	if a.IsPacked() && a.offset == 0 && a.Size() == n {
		return all, nil
	}
	out := make([]string, 0, a.Size())
	eachRun1(a, func(o, cnt, inc int) {
		for i := 0; i < cnt; i++ {
			out = append(out, all[o+i*inc])
		}
	})
	return out, nil
}
