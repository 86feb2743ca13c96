package ndarray

import (
	"errors"
	"fmt"
)

// MaxRank is the largest rank sdgo handles, as in libnd4j.
const MaxRank = 32

// ErrLayout is wrapped by every error about a layout that does not fit its
// buffer or breaks the C-order rule.
var ErrLayout = errors.New("invalid layout")

// Layout places an array's elements in a buffer: the element at index
// (i0, ..., in-1) is at Offset + sum(ik*Strides[k]). Strides are in elements.
type Layout struct {
	Shape   []int
	Strides []int
	Offset  int
}

// PackedStrides returns the C-order strides of a packed array of this shape.
func PackedStrides(shape []int) []int {
	st := make([]int, len(shape))
	s := 1
	for i := len(shape) - 1; i >= 0; i-- {
		st[i] = s
		if shape[i] > 1 {
			s *= shape[i]
		}
	}
	return st
}

// Packed returns the packed C-order layout of shape at offset 0.
func Packed(shape ...int) Layout {
	return Layout{Shape: append([]int(nil), shape...), Strides: PackedStrides(shape)}
}

// Rank returns the number of axes.
func (l Layout) Rank() int { return len(l.Shape) }

// Size returns the number of elements.
func (l Layout) Size() int { return shapeSize(l.Shape) }

func shapeSize(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// BufferLen returns the smallest buffer length, in elements, that holds every
// element of the layout (0 for an empty array). It assumes non-negative
// strides, and overflows for layouts that reach past the largest int, which
// Validate rejects.
func (l Layout) BufferLen() int {
	if l.Size() == 0 {
		return 0
	}
	end := l.Offset
	for i, d := range l.Shape {
		end += (d - 1) * l.Strides[i]
	}
	return end + 1
}

// Validate checks the layout against a buffer of bufLen elements: shape and
// strides of the same rank, no negative size, stride or offset, every element
// inside the buffer, and C order without overlap: each axis of size greater
// than one steps over the extent of the axes inside it (for packed and padded
// layouts, strides[i-1] >= strides[i]*shape[i]; stepped views such as
// x[:, ::3] may have gaps inside). An axis of size one has no second element,
// so its stride places nothing and is not constrained.
func (l Layout) Validate(bufLen int) error {
	if len(l.Shape) != len(l.Strides) {
		return fmt.Errorf("%w: shape %v has rank %d but strides %v have %d", ErrLayout, l.Shape, len(l.Shape), l.Strides, len(l.Strides))
	}
	if len(l.Shape) > MaxRank {
		return fmt.Errorf("%w: rank %d is above the maximum %d", ErrLayout, len(l.Shape), MaxRank)
	}
	if l.Offset < 0 {
		return fmt.Errorf("%w: negative offset %d", ErrLayout, l.Offset)
	}
	size := 1
	for i, d := range l.Shape {
		if d < 0 {
			return fmt.Errorf("%w: negative size %d on axis %d of shape %v", ErrLayout, d, i, l.Shape)
		}
		if l.Strides[i] < 0 {
			return fmt.Errorf("%w: negative stride %d on axis %d", ErrLayout, l.Strides[i], i)
		}
		if d > 0 && size > MaxBytes/d {
			return fmt.Errorf("%w: shape %v has too many elements", ErrLayout, l.Shape)
		}
		size *= d
	}
	if size == 0 {
		// No element to place: the offset may lie anywhere (an empty
		// slice's start can be past the end), and code that handles empty
		// arrays must not index the buffer at it.
		return nil
	}
	// C order: walking outwards, each axis of size > 1 must step over the
	// whole extent of the axes inside it, so no two elements share a place.
	// For packed and padded layouts that is strides[i-1] >= strides[i]·shape[i];
	// a stepped view (x[:, ::3]) leaves gaps inside and only needs the
	// extent, 1 + Σ (shape[j]-1)·strides[j] over the inner axes.
	ext := 1 // the innermost axis of size > 1 needs a stride of at least 1
	for i := len(l.Shape) - 1; i >= 0; i-- {
		if l.Shape[i] <= 1 {
			continue
		}
		if l.Strides[i] < ext {
			return fmt.Errorf("%w: stride %d of axis %d is below the extent %d of the axes inside it, so elements would overlap",
				ErrLayout, l.Strides[i], i, ext)
		}
		if l.Strides[i] > MaxBytes || (l.Strides[i] > 0 && l.Shape[i]-1 > MaxBytes/l.Strides[i]) {
			return fmt.Errorf("%w: stride %d of axis %d is too large", ErrLayout, l.Strides[i], i)
		}
		ext += (l.Shape[i] - 1) * l.Strides[i]
	}
	// The elements span ext places from the offset (ext is at most
	// MaxRank·MaxBytes, so its sum did not overflow); the offset is any int,
	// so it is compared against what the buffer leaves rather than added.
	if ext > bufLen || l.Offset > bufLen-ext {
		return fmt.Errorf("%w: layout shape %v strides %v offset %d spans %d elements from its offset, past the end of a buffer of %d",
			ErrLayout, l.Shape, l.Strides, l.Offset, ext, bufLen)
	}
	return nil
}

// IsPacked reports whether the elements are contiguous in C order, with no
// gaps (the offset may be anything). Axes of size one are ignored.
func (l Layout) IsPacked() bool {
	want := 1
	for i := len(l.Shape) - 1; i >= 0; i-- {
		d := l.Shape[i]
		if d == 0 {
			return true
		}
		if d == 1 {
			continue
		}
		if l.Strides[i] != want {
			return false
		}
		want *= d
	}
	return true
}

// Padded returns the layout of an array of shape stored inside a larger padded
// box, as libnd4j's padded-buffer ADR describes: axis i has paddings[i] extra
// elements in all, of which paddingOffsets[i] come before the data. The
// strides are the packed strides of the padded box and the offset points at
// the first data element. allocLen is the box's size in elements: the buffer
// length to allocate, which keeps the trailing padding so that vector code
// may read (never use) past the last element of a row.
func Padded(shape, paddings, paddingOffsets []int) (l Layout, allocLen int, err error) {
	if len(paddings) != len(shape) || len(paddingOffsets) != len(shape) {
		return Layout{}, 0, fmt.Errorf("%w: shape %v, paddings %v and padding offsets %v must have the same rank", ErrLayout, shape, paddings, paddingOffsets)
	}
	box := make([]int, len(shape))
	for i := range shape {
		if shape[i] < 0 || paddings[i] < 0 || paddingOffsets[i] < 0 || paddingOffsets[i] > paddings[i] {
			return Layout{}, 0, fmt.Errorf("%w: axis %d: size %d, padding %d, padding offset %d (need 0 <= offset <= padding)",
				ErrLayout, i, shape[i], paddings[i], paddingOffsets[i])
		}
		if shape[i] > MaxBytes || paddings[i] > MaxBytes { // so that their sum cannot overflow
			return Layout{}, 0, fmt.Errorf("%w: shape %v with paddings %v: axis %d is too large", ErrLayout, shape, paddings, i)
		}
		box[i] = shape[i] + paddings[i]
	}
	// The box's strides and size are bounded as they are multiplied, so
	// that they cannot wrap into a small, valid-looking buffer length.
	st := make([]int, len(box))
	s := 1
	for i := len(box) - 1; i >= 0; i-- {
		st[i] = s
		if box[i] > 0 && s > MaxBytes/box[i] {
			return Layout{}, 0, fmt.Errorf("%w: shape %v with paddings %v has too many elements", ErrLayout, shape, paddings)
		}
		s *= box[i]
	}
	off := 0
	for i := range shape {
		off += paddingOffsets[i] * st[i]
	}
	l = Layout{Shape: append([]int(nil), shape...), Strides: st, Offset: off}
	if shapeSize(shape) == 0 {
		return l, 0, nil
	}
	return l, s, nil
}

// AlignedRows returns a padded layout for shape whose rows (last axis) each
// start on an Alignment-byte boundary of a buffer of elemSize-byte elements,
// and the buffer length it needs.
func AlignedRows(shape []int, elemSize int) (Layout, int) {
	pad := make([]int, len(shape))
	if n := len(shape); n > 0 && elemSize > 0 {
		per := Alignment / elemSize
		if r := shape[n-1] % per; r != 0 {
			pad[n-1] = per - r
		}
	}
	l, alloc, _ := Padded(shape, pad, make([]int, len(shape)))
	return l, alloc
}

// String describes the layout for messages: its shape, strides and offset.
func (l Layout) String() string {
	return fmt.Sprintf("shape %v strides %v offset %d", l.Shape, l.Strides, l.Offset)
}
