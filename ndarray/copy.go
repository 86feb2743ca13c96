package ndarray

import (
	"fmt"
	"math"
	"slices"
	"unsafe"
)

// CopyInto copies src into dst elementwise. src must broadcast to dst's shape
// and have its dtype; dst may have any layout. dst may be src (or a view of
// the same elements) but must not overlap it otherwise: the copy goes run by
// run and would read elements it has already written (nothing checks this).
func CopyInto(dst, src *Array) error {
	if dst.DType() != src.DType() {
		return fmt.Errorf("ndarray: copy of a %v array into a %v array", src.DType(), dst.DType())
	}
	if !CanBroadcastTo(src.shape, dst.shape) {
		return fmt.Errorf("ndarray: copy of shape %v into shape %v", src.shape, dst.shape)
	}
	sz := dst.DType().Size()
	if sz == 0 {
		return fmt.Errorf("ndarray: cannot copy elementwise between %v arrays (no fixed element size)", dst.DType())
	}
	nn, ok := newNest(dst.shape, 2, [3][]int{dst.strides, broadcastStrides(src, dst.shape)}, [3]int{dst.offset, src.offset})
	if !ok {
		return nil
	}
	switch dst.DType() {
	case Float32:
		copyRuns(Raw[float32](dst), Raw[float32](src), &nn)
	case Float64:
		copyRuns(Raw[float64](dst), Raw[float64](src), &nn)
	case Int32:
		copyRuns(Raw[int32](dst), Raw[int32](src), &nn)
	case Int64:
		copyRuns(Raw[int64](dst), Raw[int64](src), &nn)
	case Bool:
		copyRuns(Raw[bool](dst), Raw[bool](src), &nn)
	default:
		// Dtypes sdgo stores but does not compute with: element bytes.
		copyBytes(dst.buf.bytes, src.buf.bytes, sz, &nn)
	}
	return nil
}

// needFixedSize returns an error naming op when dt has no fixed element size
// (the string dtypes): the functions that move elements into a new buffer
// copy them one element size at a time. alloc cannot make such a buffer.
func needFixedSize(op string, dt DType) error {
	if dt.Size() == 0 {
		return fmt.Errorf("ndarray: %s: cannot copy elementwise between %v arrays (no fixed element size)", op, dt)
	}
	return nil
}

func copyBytes(d, s []byte, sz int, nn *nest) {
	nn.each(func(off [3]int, n int, inc [3]int) {
		if inc[0] == 1 && inc[1] == 1 {
			copy(d[off[0]*sz:(off[0]+n)*sz], s[off[1]*sz:(off[1]+n)*sz])
			return
		}
		for i := 0; i < n; i++ {
			p, q := (off[0]+i*inc[0])*sz, (off[1]+i*inc[1])*sz
			copy(d[p:p+sz], s[q:q+sz])
		}
	})
}

func copyRuns[T Elem](d, s []T, nn *nest) {
	nn.each(func(off [3]int, n int, inc [3]int) {
		switch {
		case inc[0] == 1 && inc[1] == 1:
			copy(d[off[0]:off[0]+n], s[off[1]:off[1]+n])
		case inc[0] == 1 && inc[1] == 0:
			v := s[off[1]]
			dd := d[off[0] : off[0]+n]
			for i := range dd {
				dd[i] = v
			}
		default:
			for i := 0; i < n; i++ {
				d[off[0]+i*inc[0]] = s[off[1]+i*inc[1]]
			}
		}
	})
}

// Copy returns a packed copy of a with its own buffer. A string array (no
// fixed element size) is copied whole, buffer and layout as they are. The
// only error is ErrTooLarge (see AllocLimit).
func Copy(a *Array) (*Array, error) {
	sz := a.DType().Size()
	if sz == 0 {
		return &Array{buf: &Buffer{bytes: append([]byte(nil), a.buf.bytes...), dtype: a.buf.dtype, n: a.buf.n},
			shape: append([]int(nil), a.shape...), strides: append([]int(nil), a.strides...), offset: a.offset}, nil
	}
	out, err := alloc(a.DType(), a.shape)
	if err != nil {
		return nil, err
	}
	if err := CopyInto(out, a); err != nil {
		panic(err) // same dtype and shape by construction
	}
	return out, nil
}

// Contiguous returns a if it is packed, otherwise a packed copy (the only
// error is Copy's).
func Contiguous(a *Array) (*Array, error) {
	if a.IsPacked() {
		return a, nil
	}
	return Copy(a)
}

// BroadcastTo returns a new packed array of the given shape holding a
// broadcast to it. a may have any dtype of fixed element size.
func BroadcastTo(a *Array, shape ...int) (*Array, error) {
	if err := needFixedSize("broadcast_to", a.DType()); err != nil {
		return nil, err
	}
	if !CanBroadcastTo(a.shape, shape) {
		return nil, fmt.Errorf("ndarray: shape %v does not broadcast to %v", a.shape, shape)
	}
	if err := CheckShape(shape); err != nil {
		return nil, err
	}
	out, err := alloc(a.DType(), shape)
	if err != nil {
		return nil, err
	}
	// One value everywhere (the gradient of a sum): a plain fill, where
	// the copy would walk the output a last axis at a time.
	if a.Size() == 1 {
		switch a.DType() {
		case Float32:
			fill(bufSlice[float32](out.buf), bufSlice[float32](a.buf)[a.offset])
			return out, nil
		case Float64:
			fill(bufSlice[float64](out.buf), bufSlice[float64](a.buf)[a.offset])
			return out, nil
		}
	}
	return out, CopyInto(out, a)
}

// Cast returns a converted to dt: floats to integers truncate towards zero
// and saturate (values beyond the integer's range give its largest or
// smallest value, NaN gives 0, as Java's casts do: Go leaves these to the
// machine, and amd64 and arm64 differ), int64 to int32 keeps the low 32
// bits, numbers to Bool give x != 0, Bool to numbers gives 1 and 0. Casting
// to a's own dtype returns a.
func Cast(a *Array, dt DType) (*Array, error) {
	if a.DType() == dt {
		return a, nil
	}
	if err := castCheck(a.DType(), dt); err != nil {
		return nil, err
	}
	out, err := alloc(dt, a.shape)
	if err != nil {
		return nil, err
	}
	castInto(out, a)
	return out, nil
}

func castCheck(from, to DType) error {
	if !from.Computable() || !to.Computable() {
		return fmt.Errorf("ndarray: cast from %v to %v is not supported", from, to)
	}
	return nil
}

// CastInto writes a converted to dst's dtype (as Cast) into dst, of a's
// shape in any layout, not on a's buffer unless dst is a itself (a copy
// when the dtypes are the same). The errors are Cast's.
func CastInto(dst, a *Array) error {
	if err := castCheck(a.DType(), dst.DType()); err != nil {
		return err
	}
	if !slices.Equal(dst.shape, a.shape) {
		return fmt.Errorf("ndarray: cast of shape %v into a %v%v array", a.shape, dst.DType(), dst.shape)
	}
	if dst.DType() == a.DType() {
		return CopyInto(dst, a)
	}
	if dst.SameBuffer(a) {
		return fmt.Errorf("ndarray: cast from %v to %v into an array sharing the input's buffer", a.DType(), dst.DType())
	}
	castInto(dst, a)
	return nil
}

// castInto is Cast's loop, into out of a's shape and another dtype.
func castInto(out, a *Array) {
	nn, ok := newNest(a.shape, 2, [3][]int{out.strides, a.strides}, [3]int{out.offset, a.offset})
	if !ok {
		return
	}
	dt := out.DType()
	switch a.DType() {
	case Float32:
		castFloat(Raw[float32](a), out, &nn)
	case Float64:
		castFloat(Raw[float64](a), out, &nn)
	case Int32:
		castFrom(Raw[int32](a), out, &nn)
	case Int64:
		castFrom(Raw[int64](a), out, &nn)
	case Bool:
		s := Raw[bool](a)
		switch dt {
		case Float32:
			boolTo(Raw[float32](out), s, &nn)
		case Float64:
			boolTo(Raw[float64](out), s, &nn)
		case Int32:
			boolTo(Raw[int32](out), s, &nn)
		case Int64:
			boolTo(Raw[int64](out), s, &nn)
		}
	}
}

func castFrom[S Num](s []S, out *Array, nn *nest) {
	switch out.DType() {
	case Float32:
		castRuns(Raw[float32](out), s, nn)
	case Float64:
		castRuns(Raw[float64](out), s, nn)
	case Int32:
		castRuns(Raw[int32](out), s, nn)
	case Int64:
		castRuns(Raw[int64](out), s, nn)
	case Bool:
		d := Raw[bool](out)
		nn.each(func(off [3]int, n int, inc [3]int) {
			for i := 0; i < n; i++ {
				d[off[0]+i*inc[0]] = s[off[1]+i*inc[1]] != 0
			}
		})
	}
}

func castRuns[D, S Num](d []D, s []S, nn *nest) {
	nn.each(func(off [3]int, n int, inc [3]int) {
		for i := 0; i < n; i++ {
			d[off[0]+i*inc[0]] = D(s[off[1]+i*inc[1]])
		}
	})
}

func castFloat[S float32 | float64](s []S, out *Array, nn *nest) {
	switch out.DType() {
	case Int32:
		castSat(Raw[int32](out), s, nn)
	case Int64:
		castSat(Raw[int64](out), s, nn)
	default:
		castFrom(s, out, nn)
	}
}

// castSat converts floats to a signed integer type, truncating towards
// zero and saturating; NaN gives 0.
func castSat[D int32 | int64, S float32 | float64](d []D, s []S, nn *nest) {
	var z D
	bits := 8 * int(unsafe.Sizeof(z))
	lim := math.Ldexp(1, bits-1) // 2^31 or 2^63, exact in float64
	hi := D(uint64(1)<<(bits-1) - 1)
	lo := -hi - 1
	nn.each(func(off [3]int, n int, inc [3]int) {
		for i := 0; i < n; i++ {
			v := float64(s[off[1]+i*inc[1]])
			var r D
			switch {
			case v != v:
			case v >= lim:
				r = hi
			case v <= -lim:
				r = lo
			default:
				r = D(v)
			}
			d[off[0]+i*inc[0]] = r
		}
	})
}

// boolTo writes 1 for true and 0 for false: CastInto's dst holds whatever
// it held before, not zeros.
func boolTo[D Num](d []D, s []bool, nn *nest) {
	nn.each(func(off [3]int, n int, inc [3]int) {
		for i := 0; i < n; i++ {
			var v D
			if s[off[1]+i*inc[1]] {
				v = 1
			}
			d[off[0]+i*inc[0]] = v
		}
	})
}
