package serialize

import (
	"fmt"

	"github.com/sdgo/sdgo/serialize/internal/fb"
)

// libnd4j describes an array's layout with a "shape-info" vector of int64:
//
//	[rank, dim_0..dim_{r-1}, stride_0..stride_{r-1}, extra, ews, order]
//
// of length 2*rank+4. `extra` is a bit set (below), ews the element-wise
// stride (1 for dense arrays), order 99 ('c') or 102 ('f'). A rank-0 array is
// [0, extra, ews, order], 4 longs, as older ND4J and libnd4j size it and as
// every SameDiff fixture has it; libnd4j now (helpers/shape.h
// shapeInfoLength) sizes rank 0 like rank 1: 6 longs [0, 0, 1, extra, ews,
// order], and ND4J's ArrayOptionsHelper reads a rank-0 extra at index 3.
// Both are accepted; the 6-long form is written unless
// SaveOptions.LegacyArrayLayouts asks for the other. Graph
// files store views as compact copies, so the strides are those of a dense
// array in the given order.

// Bits of the shape-info `extra` word, as libnd4j's ArrayOptions.h defines
// them (libnd4j/include/array/ArrayOptions.h).
const (
	arraySparse          int64 = 2
	arrayCompressed      int64 = 4
	arrayEmpty           int64 = 8  // empty array: no buffer
	arrayRagged          int64 = 16 // newer libnd4j
	arrayCSR             int64 = 32 // newer numbering (older: CSR 16, CSC 32, COO 64)
	arrayCSC             int64 = 64
	arrayCOO             int64 = 128
	arrayComplex         int64 = 512
	arrayQuantized       int64 = 1024
	arrayBHalf           int64 = 2048  // BFLOAT16
	arrayHalf            int64 = 4096  // HALF (fp16)
	arrayFloat           int64 = 8192  // FLOAT (fp32)
	arrayDouble          int64 = 16384 // DOUBLE
	arrayChar            int64 = 32768 // 8-bit integer (INT8, UINT8 with arrayUnsigned)
	arrayShort           int64 = 65536 // 16-bit integer
	arrayInt             int64 = 131072
	arrayLong            int64 = 262144
	arrayBool            int64 = 524288
	arrayUTF8            int64 = 1048576 // called ARRAY_STRING in older libnd4j
	arrayExtras          int64 = 2097152
	arrayUTF16           int64 = 4194304
	arrayUnsigned        int64 = 8388608
	arrayUTF32           int64 = 16777216
	arrayHasPaddedBuffer int64 = 1 << 25 // same bit as ARRAY_IS_VIEW (33554432)
	arrayNeedsCopy       int64 = 67108864

	// arrayTypeBits are all the bits that encode the element type.
	arrayTypeBits = arrayBHalf | arrayHalf | arrayFloat | arrayDouble | arrayChar | arrayShort | arrayInt |
		arrayLong | arrayBool | arrayUTF8 | arrayUTF16 | arrayUnsigned | arrayUTF32
)

// maxRank is libnd4j's MAX_RANK.
const maxRank = 32

const (
	orderC = 'c' // 99
	orderF = 'f' // 102
)

// shapeInfo is a decoded shape-info vector.
type shapeInfo struct {
	Shape   []int64
	Strides []int64
	Order   byte  // 'c' or 'f'
	Extra   int64 // the raw extra bits
	EWS     int64
	Empty   bool // ARRAY_EMPTY set, or a zero-length dimension
}

// numElements returns the product of the dims (1 for rank 0, 0 when empty).
func (s *shapeInfo) numElements() int64 {
	if s.Empty {
		return 0
	}
	n := int64(1)
	for _, d := range s.Shape {
		n *= d // parseShapeInfo guarantees no overflow
	}
	return n
}

// maxElements bounds the element count of any array a file may describe.
const maxElements = 1 << 56

// parseShapeInfo decodes and validates a shape-info vector.
func parseShapeInfo(si []int64) (shapeInfo, error) {
	var s shapeInfo
	if len(si) == 0 {
		return s, fmt.Errorf("shape-info is empty")
	}
	rank := si[0]
	if rank < 0 || rank > maxRank {
		return s, fmt.Errorf("shape-info rank %d outside 0..%d", rank, maxRank)
	}
	r := int(rank)
	want := 2*r + 4
	switch {
	case len(si) == want:
	case r == 0 && len(si) == 6: // the newest libnd4j's rank-0 layout
	default:
		return s, fmt.Errorf("shape-info of rank %d has %d entries, want %d", r, len(si), want)
	}
	s.Shape = append([]int64{}, si[1:1+r]...)
	s.Strides = append([]int64{}, si[1+r:1+2*r]...)
	s.Extra = si[len(si)-3]
	s.EWS = si[len(si)-2]
	ord := si[len(si)-1]
	switch {
	case ord == orderC || ord == orderF:
		s.Order = byte(ord)
	case r == 0:
		s.Order = orderC // order does not matter for a scalar
	default:
		return s, fmt.Errorf("shape-info order %d is neither 'c' (99) nor 'f' (102)", ord)
	}
	s.Empty = s.Extra&arrayEmpty != 0
	n := int64(1)
	for i, d := range s.Shape {
		if d < 0 {
			return s, fmt.Errorf("shape-info dimension %d is negative (%d)", i, d)
		}
		if d == 0 {
			s.Empty = true
		}
		if d > 0 && n > maxElements/d {
			return s, fmt.Errorf("shape-info %v describes more than 2^56 elements", s.Shape)
		}
		n *= d
	}
	return s, nil
}

// dtypeFlag returns the `extra` type bits libnd4j uses for a dtype.
func dtypeFlag(dt fb.DType) (int64, bool) {
	switch dt {
	case fb.DTypeBOOL:
		return arrayBool, true
	case fb.DTypeHALF:
		return arrayHalf, true
	case fb.DTypeBFLOAT16:
		return arrayBHalf, true
	case fb.DTypeFLOAT:
		return arrayFloat, true
	case fb.DTypeDOUBLE:
		return arrayDouble, true
	case fb.DTypeINT8:
		return arrayChar, true
	case fb.DTypeINT16:
		return arrayShort, true
	case fb.DTypeINT32:
		return arrayInt, true
	case fb.DTypeINT64:
		return arrayLong, true
	case fb.DTypeUINT8:
		return arrayUnsigned | arrayChar, true
	case fb.DTypeUINT16:
		return arrayUnsigned | arrayShort, true
	case fb.DTypeUINT32:
		return arrayUnsigned | arrayInt, true
	case fb.DTypeUINT64:
		return arrayUnsigned | arrayLong, true
	case fb.DTypeUTF8:
		return arrayUTF8, true
	case fb.DTypeUTF16:
		return arrayUTF16, true
	case fb.DTypeUTF32:
		return arrayUTF32, true
	}
	return 0, false
}

// dtypeFromExtra reads the dtype from `extra` type bits, in libnd4j's order
// of precedence. ok is false when no type bits are set.
func dtypeFromExtra(extra int64) (fb.DType, bool) {
	has := func(bit int64) bool { return extra&bit == bit }
	switch {
	case has(arrayFloat):
		return fb.DTypeFLOAT, true
	case has(arrayDouble):
		return fb.DTypeDOUBLE, true
	case has(arrayHalf):
		return fb.DTypeHALF, true
	case has(arrayBHalf):
		return fb.DTypeBFLOAT16, true
	case has(arrayBool):
		return fb.DTypeBOOL, true
	case has(arrayUTF8):
		return fb.DTypeUTF8, true
	case has(arrayUTF16):
		return fb.DTypeUTF16, true
	case has(arrayUTF32):
		return fb.DTypeUTF32, true
	case has(arrayUnsigned):
		switch {
		case has(arrayChar):
			return fb.DTypeUINT8, true
		case has(arrayShort):
			return fb.DTypeUINT16, true
		case has(arrayInt):
			return fb.DTypeUINT32, true
		case has(arrayLong):
			return fb.DTypeUINT64, true
		}
	case has(arrayChar):
		return fb.DTypeINT8, true
	case has(arrayShort):
		return fb.DTypeINT16, true
	case has(arrayInt):
		return fb.DTypeINT32, true
	case has(arrayLong):
		return fb.DTypeINT64, true
	}
	return fb.DTypeINHERIT, false
}

// dtypeSize is the width in bytes of one element; 0 for the variable-length
// string types and for unknown values.
func dtypeSize(dt fb.DType) int {
	switch dt {
	case fb.DTypeBOOL, fb.DTypeFLOAT8, fb.DTypeINT8, fb.DTypeUINT8, fb.DTypeQINT8:
		return 1
	case fb.DTypeHALF, fb.DTypeBFLOAT16, fb.DTypeINT16, fb.DTypeUINT16, fb.DTypeQINT16:
		return 2
	case fb.DTypeHALF2, fb.DTypeFLOAT, fb.DTypeINT32, fb.DTypeUINT32:
		return 4
	case fb.DTypeDOUBLE, fb.DTypeINT64, fb.DTypeUINT64:
		return 8
	}
	return 0
}

// cShapeInfo builds the shape-info vector for a dense C-order array of the
// given shape and dtype, as libnd4j writes it: packed strides, extra = the
// dtype's type bits (plus ARRAY_EMPTY when empty), ews 1, order 'c'. An
// empty array gets zero strides and ews 0, like libnd4j's empty shape-info.
// A rank-0 array is written with 6 longs [0, 0, 1, extra, ews, order], as
// libnd4j's ShapeBuilders::createScalarShapeInfo builds it (a dim slot 0 and
// a stride slot 1), or with the older 4 when legacy is set.
func cShapeInfo(shape []int64, dt fb.DType, empty, legacy bool) ([]int64, error) {
	r := len(shape)
	if r > maxRank {
		return nil, fmt.Errorf("rank %d exceeds libnd4j's maximum %d", r, maxRank)
	}
	flag, ok := dtypeFlag(dt)
	if !ok {
		return nil, fmt.Errorf("dtype %v has no libnd4j type flag", dt)
	}
	n := int64(1)
	for i, d := range shape {
		if d < 0 {
			return nil, fmt.Errorf("dimension %d is negative (%d)", i, d)
		}
		if d == 0 {
			empty = true
		}
		if d > 0 && n > maxElements/d {
			return nil, fmt.Errorf("shape %v has too many elements", shape)
		}
		n *= d
	}
	extra, ews := flag, int64(1)
	if empty {
		extra |= arrayEmpty
		ews = 0
	}
	if r == 0 && !legacy {
		return []int64{0, 0, 1, extra, ews, orderC}, nil
	}
	si := make([]int64, 2*r+4)
	si[0] = int64(r)
	copy(si[1:], shape)
	stride := int64(1)
	for i := r - 1; i >= 0; i-- {
		if !empty {
			si[1+r+i] = stride
			stride *= shape[i]
		}
	}
	si[1+2*r] = extra
	si[2+2*r] = ews
	si[3+2*r] = orderC
	return si, nil
}

// checkArray validates an array's shape-info against its dtype and buffer:
// the shape-info parses, and a non-empty fixed-width array has exactly
// elements*width bytes. For UTF8/16/32 arrays it checks that the (n+1)
// int64 offset header fits. The dtype's type bits in `extra` are not
// required to agree with the dtype field (older writers leave them out);
// the dtype field wins.
func checkArray(a *rawArray) (shapeInfo, error) {
	s, err := parseShapeInfo(a.ShapeInfo)
	if err != nil {
		return s, err
	}
	if a.ByteOrder != fb.ByteOrderLE && a.ByteOrder != fb.ByteOrderBE {
		return s, fmt.Errorf("unknown byte order %d", a.ByteOrder)
	}
	n := s.numElements()
	if s.Empty {
		return s, nil
	}
	switch a.DType {
	case fb.DTypeUTF8, fb.DTypeUTF16, fb.DTypeUTF32:
		if n+1 > int64(len(a.Buffer))/8 {
			return s, fmt.Errorf("%v array of %d strings needs a %d-byte offset header, buffer has %d bytes",
				a.DType, n, 8*(n+1), len(a.Buffer))
		}
		return s, nil
	}
	w := dtypeSize(a.DType)
	if w == 0 {
		return s, fmt.Errorf("unknown dtype %d", a.DType)
	}
	if n > int64(len(a.Buffer))/int64(w) || n*int64(w) != int64(len(a.Buffer)) {
		return s, fmt.Errorf("%v array of shape %v needs %d bytes, buffer has %d", a.DType, s.Shape,
			n*int64(w), len(a.Buffer))
	}
	return s, nil
}
