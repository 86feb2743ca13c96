package serialize

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"unsafe"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/serialize/internal/fb"
)

// Conversion between FlatArray (raw bytes in a stated byte order, described
// by a libnd4j shape-info vector) and ndarray.Array (native byte order, C
// order).
//
// Fixed-width arrays: a little-endian, C-order buffer on a little-endian
// machine becomes the array's buffer without a copy (ndarray.BufferFromBytes
// copies only when the bytes are not aligned for the element type). Other
// byte orders are swapped into a fresh buffer, 'f'-order buffers are
// reordered into C order. Strides in the shape-info are not trusted: graph
// files store views as compact copies, and real files carry non-canonical
// strides on size-1 axes (pad_1D.fb: shape (1,2) with strides (1,1)), so the
// buffer is read as dense in the stated order.
//
// String arrays (UTF8, UTF16, UTF32) come in two layouts in real files:
// libnd4j's (n+1) int64 offsets (native little-endian whatever byteOrder
// says) followed by the bytes, and ND4J's int64 count, (n+1) int64 offsets
// in byteOrder, then the bytes. Both are read, 'f'-order ones into C order.
// In memory sdgo keeps libnd4j's layout in native byte order (see
// ndarray.FromStrings); files are written in libnd4j's layout with
// little-endian offsets in either byte order, as ND4J writes them now (its
// writer copies its Utf8Buffer, libnd4j's layout in native order, under
// byteOrder BE); SaveOptions.LegacyArrayLayouts writes big-endian ones in
// ND4J's older layout.

// nativeBO is the machine's byte order as a FlatArray ByteOrder.
var nativeBO = func() fb.ByteOrder {
	if binary.NativeEndian.Uint16([]byte{1, 0}) == 1 {
		return fb.ByteOrderLE
	}
	return fb.ByteOrderBE
}()

func byteOrderOf(bo fb.ByteOrder) binary.ByteOrder {
	if bo == fb.ByteOrderBE {
		return binary.BigEndian
	}
	return binary.LittleEndian
}

func isString(dt ndarray.DType) bool {
	return dt == ndarray.UTF8 || dt == ndarray.UTF16 || dt == ndarray.UTF32
}

// alignedBytes returns n zeroed bytes starting on a 64-byte boundary.
func alignedBytes(n int) []byte {
	if n == 0 {
		return nil
	}
	raw := make([]byte, n+ndarray.Alignment-1)
	shift := 0
	if r := int(uintptr(unsafe.Pointer(&raw[0])) % ndarray.Alignment); r != 0 {
		shift = ndarray.Alignment - r
	}
	return raw[shift : shift+n : shift+n]
}

// swapBytes copies src into dst reversing the bytes of every w-byte element.
func swapBytes(dst, src []byte, w int) {
	switch w {
	case 2:
		for i := 0; i+1 < len(src); i += 2 {
			dst[i], dst[i+1] = src[i+1], src[i]
		}
	case 4:
		for i := 0; i+3 < len(src); i += 4 {
			binary.LittleEndian.PutUint32(dst[i:], binary.BigEndian.Uint32(src[i:]))
		}
	case 8:
		for i := 0; i+7 < len(src); i += 8 {
			binary.LittleEndian.PutUint64(dst[i:], binary.BigEndian.Uint64(src[i:]))
		}
	default:
		copy(dst, src)
	}
}

// loadedArray is an array read from a file, with what the graph cannot
// record about it.
type loadedArray struct {
	arr *ndarray.Array
	// emptyScalar: the file held an empty rank-0 array (libnd4j writes empty
	// arrays of any shape that way); sdgo holds it as shape [0].
	emptyScalar bool
	// strides, when not empty, says that the file's strides are not those
	// of a dense array in its order: they were not followed (see
	// denseStrides), and the loader warns.
	strides string
}

// arrayFromRaw converts a FlatArray to an array. dtHint is the dtype of the
// variable holding it: it wins over the array's own dtype field for empty
// arrays (which have no bytes to interpret), as in real files where the two
// disagree.
func arrayFromRaw(a *rawArray, dtHint ndarray.DType) (loadedArray, error) {
	s, err := checkArray(a)
	if err != nil {
		return loadedArray{}, err
	}
	dt := ndarray.DType(a.DType)
	if s.Empty && dtHint.Known() {
		dt = dtHint
	}
	if !dt.Known() {
		return loadedArray{}, fmt.Errorf("unknown dtype %d", a.DType)
	}
	shape := make([]int, len(s.Shape))
	for i, d := range s.Shape {
		shape[i] = int(d)
	}
	if s.Empty {
		out := loadedArray{}
		hasZero := false
		for _, d := range shape {
			hasZero = hasZero || d == 0
		}
		if !hasZero {
			if len(shape) != 0 {
				return loadedArray{}, fmt.Errorf("array of shape %v is marked empty", shape)
			}
			shape, out.emptyScalar = []int{0}, true
		}
		buf, err := ndarray.BufferFromBytes(dt, 0, nil)
		if err != nil {
			return loadedArray{}, err
		}
		out.arr, err = ndarray.NewView(buf, ndarray.Packed(shape...))
		return out, err
	}
	n := int(s.numElements())
	var data []byte
	if isString(dt) {
		var fOrder []int // string arrays cannot be permuted: reorder the elements here
		if s.Order == orderF && needsReorder(shape) {
			fOrder = shape
		}
		data, err = canonicalStrings(a.Buffer, n, byteOrderOf(a.ByteOrder), fOrder)
		if err != nil {
			return loadedArray{}, err
		}
	} else {
		w := dt.Size()
		data = a.Buffer // checkArray: exactly n*w bytes
		if w > 1 && a.ByteOrder != nativeBO {
			c := alignedBytes(len(data))
			swapBytes(c, data, w)
			data = c
		}
	}
	// BufferFromBytes makes Bool bytes other than 0 and 1 into 1 (Go's bool
	// must be 0 or 1; files written elsewhere may hold any non-zero byte).
	buf, err := ndarray.BufferFromBytes(dt, n, data)
	if err != nil {
		return loadedArray{}, err
	}
	note := denseStrides(s)
	if !isString(dt) && s.Order == orderF && needsReorder(shape) {
		arr, err := fToC(buf, shape)
		return loadedArray{arr: arr, strides: note}, err
	}
	arr, err := ndarray.NewView(buf, ndarray.Packed(shape...))
	return loadedArray{arr: arr, strides: note}, err
}

// denseStrides returns "" when the shape-info's strides are those of a
// dense array in its order (on the axes of more than one element: any
// stride goes for the others, as real files have it), or when they are all
// zero (absent); else a note for the loader's warning. The strides are not
// followed either way: the buffer holds exactly the array's elements
// (checkArray), so strides that are not dense cannot describe it, and
// reading it as dense is what libnd4j does with the arrays it writes.
func denseStrides(s shapeInfo) string {
	zero := true
	for _, st := range s.Strides {
		zero = zero && st == 0
	}
	if zero {
		return ""
	}
	want := make([]int64, len(s.Shape))
	acc := int64(1)
	for k := range s.Shape {
		i := len(s.Shape) - 1 - k
		if s.Order == orderF {
			i = k
		}
		want[i] = acc
		acc *= max(s.Shape[i], 1)
	}
	for i, d := range s.Shape {
		if d > 1 && i < len(s.Strides) && s.Strides[i] != want[i] {
			return fmt.Sprintf("the file's strides %v are not those of a dense '%c'-order array of shape %v (%v); ignored, the buffer read as dense", s.Strides, s.Order, s.Shape, want)
		}
	}
	return ""
}

// needsReorder reports whether 'f' and 'c' order differ for this shape:
// only when two or more axes have a size above one.
func needsReorder(shape []int) bool {
	n := 0
	for _, d := range shape {
		if d > 1 {
			n++
		}
	}
	return n > 1
}

// fToC returns a packed C-order array of shape over buf, a dense 'f'-order
// buffer: that buffer is the C-order buffer of the reversed shape, whose axes
// reversed again give shape.
func fToC(buf *ndarray.Buffer, shape []int) (*ndarray.Array, error) {
	rev := slices.Clone(shape)
	slices.Reverse(rev)
	v, err := ndarray.NewView(buf, ndarray.Packed(rev...))
	if err != nil {
		return nil, err
	}
	return ndarray.Permute(v)
}

// packedBytes returns a fixed-width array's elements in C order, native byte
// order: a slice of its buffer when it is packed, else of a packed copy.
func packedBytes(a *ndarray.Array) ([]byte, error) {
	c, err := ndarray.Contiguous(a)
	if err != nil {
		return nil, err
	}
	w := c.DType().Size()
	return c.Buffer().Bytes()[c.Offset()*w : (c.Offset()+c.Size())*w], nil
}

// stringOffsets finds the offsets of a string array's n strings in one of the
// layouts real files use: libnd4j's (little-endian offsets, whatever the
// byte order), ND4J's (count then offsets, in bo), or plain offsets in bo. It
// returns the n+1 offsets and the bytes they index.
func stringOffsets(buf []byte, n int, bo binary.ByteOrder) (offs []uint64, data []byte, ok bool) {
	try := func(b []byte, o binary.ByteOrder) ([]uint64, []byte, bool) {
		if n < 0 || n+1 > len(b)/8 {
			return nil, nil, false
		}
		d := b[8*(n+1):]
		offs := make([]uint64, n+1)
		for i := range offs {
			offs[i] = o.Uint64(b[8*i:])
			if i == 0 && offs[0] != 0 || i > 0 && (offs[i] < offs[i-1] || offs[i] > uint64(len(d))) {
				return nil, nil, false
			}
		}
		return offs, d, true
	}
	if offs, data, ok = try(buf, binary.LittleEndian); ok {
		return
	}
	if len(buf) >= 8 && bo.Uint64(buf) == uint64(n) {
		if offs, data, ok = try(buf[8:], bo); ok {
			return
		}
	}
	return try(buf, bo)
}

// canonicalStrings rewrites a string array buffer into sdgo's in-memory
// layout: n+1 native-order int64 offsets, then exactly the bytes they index.
// A non-nil fShape says the buffer lists the elements of that shape in 'f'
// order; they are written in C order.
func canonicalStrings(buf []byte, n int, bo binary.ByteOrder, fShape []int) ([]byte, error) {
	offs, data, ok := stringOffsets(buf, n, bo)
	if !ok {
		return nil, fmt.Errorf("string array of %d elements: the offsets in its %d-byte buffer are inconsistent", n, len(buf))
	}
	if fShape == nil {
		return encodeStringBuffer(offs, data[:offs[n]], nativeBO, false), nil
	}
	c := make([]byte, 0, offs[n])
	cOffs := make([]uint64, 1, n+1)
	idx := make([]int, len(fShape)) // C-order position, last axis fastest
	for range n {
		f, step := 0, 1 // the 'f'-order position: first axis fastest
		for k, i := range idx {
			f += i * step
			step *= fShape[k]
		}
		c = append(c, data[offs[f]:offs[f+1]]...)
		cOffs = append(cOffs, uint64(len(c)))
		for k := len(idx) - 1; k >= 0; k-- {
			if idx[k]++; idx[k] < fShape[k] {
				break
			}
			idx[k] = 0
		}
	}
	return encodeStringBuffer(cOffs, c, nativeBO, false), nil
}

// encodeStringBuffer lays out strings given as n+1 offsets into data: the
// offsets in bo (after the count, when withCount), then the bytes.
func encodeStringBuffer(offs []uint64, data []byte, bo fb.ByteOrder, withCount bool) []byte {
	n := len(offs) - 1
	head := 8 * (n + 1)
	if withCount {
		head += 8
	}
	out := alignedBytes(head + len(data))
	o := byteOrderOf(bo)
	p := 0
	if withCount {
		o.PutUint64(out, uint64(n))
		p = 8
	}
	for i, x := range offs {
		o.PutUint64(out[p+8*i:], x)
	}
	copy(out[head:], data)
	return out
}

// arrayToRaw converts an array to a FlatArray in byte order bo. emptyScalar
// writes an empty array as libnd4j's empty rank-0 array; legacy writes the
// layouts of SaveOptions.LegacyArrayLayouts.
func arrayToRaw(a *ndarray.Array, bo fb.ByteOrder, emptyScalar, legacy bool) (rawArray, error) {
	dt := a.DType()
	if !dt.Known() {
		return rawArray{}, fmt.Errorf("array of unknown dtype %v", dt)
	}
	l := a.Layout()
	shape := make([]int64, len(l.Shape))
	for i, d := range l.Shape {
		shape[i] = int64(d)
	}
	n := l.Size()
	if emptyScalar && n == 0 {
		shape = nil
	}
	si, err := shapeInfoFor(shape, fb.DType(dt), n == 0, legacy)
	if err != nil {
		return rawArray{}, err
	}
	out := rawArray{ShapeInfo: si, DType: fb.DType(dt), ByteOrder: bo}
	if n == 0 {
		return out, nil
	}
	if isString(dt) {
		ss, err := ndarray.Strings(a)
		if err != nil {
			return rawArray{}, err
		}
		offs := make([]uint64, len(ss)+1)
		var data []byte
		for i, x := range ss {
			data = append(data, x...)
			offs[i+1] = uint64(len(data))
		}
		if legacy && bo == fb.ByteOrderBE {
			out.Buffer = encodeStringBuffer(offs, data, bo, true)
		} else {
			out.Buffer = encodeStringBuffer(offs, data, fb.ByteOrderLE, false)
		}
		return out, nil
	}
	w := dt.Size()
	b, err := packedBytes(a)
	if err != nil {
		return rawArray{}, err
	}
	if w > 1 && bo != nativeBO {
		c := make([]byte, len(b))
		swapBytes(c, b, w)
		b = c
	}
	out.Buffer = b
	return out, nil
}

// shapeInfoFor is cShapeInfo for any dtype: dtypes without libnd4j type bits
// (FLOAT8, HALF2, QINT8, QINT16) get none.
func shapeInfoFor(shape []int64, dt fb.DType, empty, legacy bool) ([]int64, error) {
	if _, ok := dtypeFlag(dt); ok {
		return cShapeInfo(shape, dt, empty, legacy)
	}
	si, err := cShapeInfo(shape, fb.DTypeBOOL, empty, legacy)
	if err != nil {
		return nil, err
	}
	si[len(si)-3] &^= arrayTypeBits
	return si, nil
}

// rawNumbers returns the elements of a small numeric FlatArray as float64
// (used for a legacy scalar op's FlatNode.scalar).
func rawNumbers(a *rawArray) ([]float64, error) {
	s, err := checkArray(a)
	if err != nil {
		return nil, err
	}
	n := int(s.numElements())
	bo := byteOrderOf(a.ByteOrder)
	out := make([]float64, n)
	w := dtypeSize(a.DType)
	for i := range out {
		e := a.Buffer[i*w:]
		switch a.DType {
		case fb.DTypeFLOAT:
			out[i] = float64(math.Float32frombits(bo.Uint32(e)))
		case fb.DTypeDOUBLE:
			out[i] = math.Float64frombits(bo.Uint64(e))
		case fb.DTypeBOOL, fb.DTypeUINT8:
			out[i] = float64(e[0])
		case fb.DTypeINT8:
			out[i] = float64(int8(e[0]))
		case fb.DTypeINT16:
			out[i] = float64(int16(bo.Uint16(e)))
		case fb.DTypeUINT16:
			out[i] = float64(bo.Uint16(e))
		case fb.DTypeINT32:
			out[i] = float64(int32(bo.Uint32(e)))
		case fb.DTypeUINT32:
			out[i] = float64(bo.Uint32(e))
		case fb.DTypeINT64:
			out[i] = float64(int64(bo.Uint64(e)))
		case fb.DTypeUINT64:
			out[i] = float64(bo.Uint64(e))
		default:
			return nil, fmt.Errorf("cannot read %v values", a.DType)
		}
	}
	return out, nil
}

// scalarRaw returns a rank-0 FlatArray of dtype dt holding v (a legacy
// scalar op's FlatNode.scalar), in the legacy layout when legacy is set.
func scalarRaw(v float64, dt ndarray.DType, bo fb.ByteOrder, legacy bool) (rawArray, error) {
	if !dt.Computable() || dt == ndarray.Bool {
		dt = ndarray.Float32
	}
	a, err := ndarray.ScalarOf(dt, v)
	if err != nil {
		return rawArray{}, err
	}
	return arrayToRaw(a, bo, false, legacy)
}

// reorderRaw returns a kept FlatArray (a node property or scalar) in byte
// order bo: fixed-width arrays that check out are byte-swapped, anything else
// (strings, arrays that do not check) is kept as read.
func reorderRaw(a rawArray, bo fb.ByteOrder) rawArray {
	if a.ByteOrder == bo {
		return a
	}
	w := dtypeSize(a.DType)
	if w == 0 || isString(ndarray.DType(a.DType)) {
		return a
	}
	if _, err := checkArray(&a); err != nil {
		return a
	}
	if w > 1 {
		c := make([]byte, len(a.Buffer))
		swapBytes(c, a.Buffer, w)
		a.Buffer = c
	}
	a.ByteOrder = bo
	return a
}
