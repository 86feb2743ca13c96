package createview

import (
	"fmt"
	"math"

	"github.com/sdgo/sdgo/ndarray"
)

// maxExtent bounds the element positions of the layouts Resolve accepts, so
// that no sum or product it computes can overflow an int.
const maxExtent = math.MaxInt >> 1

// Resolve returns the layout of the view that the index descriptors select
// from an array with the given shape, strides (in elements) and offset. It
// costs O(rank + number of indices) and never touches elements.
//
// The input layout must have shape and strides of one rank (at most
// ndarray.MaxRank), no negative size, stride or offset, and elements within
// an int's range. The view keeps within the elements the input layout
// reaches, so whenever the input layout validates against a buffer
// (ndarray.Layout.Validate) the view does too.
//
// Errors about an index are *IndexError (errors.Is(err, ErrIndex)), naming
// the index's position and, when there is one, the input axis it indexes.
// The rules are in the package comment.
func Resolve(shape, strides []int, offset int, indices ...[]int64) (viewShape, viewStrides []int, viewOffset int, err error) {
	if err := checkLayout(shape, strides, offset); err != nil {
		return nil, nil, 0, err
	}
	idx, err := parseAll(indices, append([]int{}, shape...))
	if err != nil {
		return nil, nil, 0, err
	}
	return resolve(shape, strides, offset, true, idx, indices)
}

// ResolveIndex is Resolve for typed indices.
func ResolveIndex(shape, strides []int, offset int, idx ...Index) (viewShape, viewStrides []int, viewOffset int, err error) {
	return Resolve(shape, strides, offset, Descriptors(idx...)...)
}

// ViewShape returns the shape of the view the descriptors select from an
// array of the given shape, in which -1 marks a size known only at run time.
// It applies Resolve's rules and errors as far as the known sizes allow; the
// view's sizes that depend on unknown ones are -1.
func ViewShape(shape []int, indices ...[]int64) ([]int, error) {
	if len(shape) > ndarray.MaxRank {
		return nil, fmt.Errorf("createview: rank %d is above the maximum %d", len(shape), ndarray.MaxRank)
	}
	for i, d := range shape {
		if d < -1 {
			return nil, fmt.Errorf("createview: size %d on axis %d of shape %v", d, i, shape)
		}
	}
	idx, err := parseAll(indices, append([]int{}, shape...))
	if err != nil {
		return nil, err
	}
	vs, _, _, err := resolve(shape, nil, 0, false, idx, indices)
	return vs, err
}

// parseAll parses every descriptor, naming the position of a bad one and
// the input's shape (nil when the rank is unknown; the caller's copy).
func parseAll(indices [][]int64, shape []int) ([]Index, error) {
	idx := make([]Index, len(indices))
	for i, d := range indices {
		x, err := Parse(d)
		if err != nil {
			ie := err.(*IndexError)
			ie.Pos = i
			ie.Shape = shape
			return nil, ie
		}
		idx[i] = x
	}
	return idx, nil
}

// checkLayout checks what Resolve needs of its input layout.
func checkLayout(shape, strides []int, offset int) error {
	if len(shape) != len(strides) {
		return fmt.Errorf("createview: shape %v has rank %d but strides %v have %d", shape, len(shape), strides, len(strides))
	}
	if len(shape) > ndarray.MaxRank {
		return fmt.Errorf("createview: rank %d is above the maximum %d", len(shape), ndarray.MaxRank)
	}
	if offset < 0 || offset > maxExtent {
		return fmt.Errorf("createview: offset %d is out of range", offset)
	}
	end := offset
	for i, d := range shape {
		s := strides[i]
		if d < 0 {
			return fmt.Errorf("createview: negative size %d on axis %d of shape %v", d, i, shape)
		}
		if s < 0 {
			return fmt.Errorf("createview: negative stride %d on axis %d (strides %v)", s, i, strides)
		}
		if d > 1 {
			if s > (maxExtent-end)/(d-1) {
				return fmt.Errorf("createview: layout shape %v strides %v offset %d reaches beyond %d elements", shape, strides, offset, maxExtent)
			}
			end += (d - 1) * s
		}
	}
	return nil
}

// resolve applies the indices to a layout. Without withStrides it computes
// the shape only, and sizes may be -1 (unknown). It is a flag rather than
// strides == nil because a rank-0 array's strides may be nil (NewPadded,
// WithLayout(a.Layout())), and its new axes need strides all the same.
// descs are the descriptors as given, for error messages.
func resolve(shape, strides []int, offset int, withStrides bool, idx []Index, descs [][]int64) (vs, vst []int, vo int, err error) {
	fail := func(pos, axis int, format string, a ...any) error {
		return &IndexError{Pos: pos, Axis: axis, Desc: descs[pos], Msg: fmt.Sprintf(format, a...), Shape: append([]int{}, shape...)}
	}
	rank := 0 // output rank
	for _, x := range idx {
		if x.kind != PointType {
			rank++
		}
	}
	vs = make([]int, 0, rank+len(shape))
	if withStrides {
		vst = make([]int, 0, rank+len(shape))
	}
	vo = offset
	axis := 0
	for pos, x := range idx {
		if x.kind == NewAxisType {
			vs = append(vs, 1)
			if withStrides {
				vst = append(vst, -1) // set below
			}
			continue
		}
		if axis >= len(shape) {
			consumed := 0
			for _, y := range idx {
				if y.kind != NewAxisType {
					consumed++
				}
			}
			return nil, nil, 0, fail(pos, -1, "more indices than axes: %d indices take input axes, the input has %d", consumed, len(shape))
		}
		n := shape[axis]
		s := 0
		if withStrides {
			s = strides[axis]
		}
		switch x.kind {
		case PointType:
			p := x.start
			if n >= 0 {
				if p < 0 {
					p += int64(n)
				}
				if p < 0 || p >= int64(n) {
					return nil, nil, 0, fail(pos, axis, "point %d is out of range for axis %d of size %d", x.start, axis, n)
				}
				vo += int(p) * s
			}
		case AllType:
			vs = append(vs, n)
			if withStrides {
				vst = append(vst, s)
			}
		case IntervalType:
			length, start, err := intervalLen(x, n)
			if err != "" {
				return nil, nil, 0, fail(pos, axis, "%s for axis %d of size %d", err, axis, n)
			}
			vs = append(vs, length)
			if withStrides {
				st := s
				if length > 1 {
					st = int(x.step) * s // step*(length-1) < n: no overflow
				}
				vst = append(vst, st)
				if length > 0 {
					vo += start * s
				}
			}
		}
		axis++
	}
	for ; axis < len(shape); axis++ {
		vs = append(vs, shape[axis])
		if withStrides {
			vst = append(vst, strides[axis])
		}
	}
	if len(vs) > ndarray.MaxRank {
		return nil, nil, 0, fmt.Errorf("createview: the view would have rank %d, above the maximum %d", len(vs), ndarray.MaxRank)
	}
	if withStrides {
		// A new axis gets the stride ndarray.ExpandDims gives: the extent of
		// the next axis (1 at the end). Its size is 1, so it places nothing.
		for k := len(vst) - 1; k >= 0; k-- {
			if vst[k] < 0 {
				vst[k] = 1
				if k+1 < len(vst) {
					vst[k] = vst[k+1] * vs[k+1]
				}
			}
		}
	}
	return vs, vst, vo, nil
}

// intervalLen returns an interval's length on an axis of size n (-1 when n
// or the length is unknown) and its resolved start, or what is wrong.
func intervalLen(x Index, n int) (length, start int, msg string) {
	s, e, step := x.start, x.end, x.step
	if step < 1 { // Parse rejects these; typed indices may carry them
		return 0, 0, fmt.Sprintf("step %d is below 1", step)
	}
	if n < 0 {
		// Unknown size: the length is known when both bounds count from
		// the same end.
		if (s < 0) != (e < 0) {
			return -1, 0, ""
		}
	} else {
		if s < 0 {
			s += int64(n)
		}
		if e < 0 {
			e += int64(n)
		}
		if s < 0 || s > int64(n) {
			return 0, 0, fmt.Sprintf("interval start %d is out of range", x.start)
		}
		limit, what := int64(n), "exclusive end"
		if x.inclusive {
			limit, what = int64(n)-1, "inclusive end"
		}
		if e < 0 || e > limit {
			return 0, 0, fmt.Sprintf("interval %s %d is out of range", what, x.end)
		}
	}
	if e < s {
		return 0, 0, fmt.Sprintf("interval ends (%d) before it starts (%d)", x.end, x.start)
	}
	span := e - s
	l := span / step
	if x.inclusive {
		l++
	} else if span%step != 0 {
		l++
	}
	return int(l), int(s), ""
}
