package createview_test

import (
	"fmt"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	cv "github.com/sdgo/sdgo/ops/createview"
)

// extentOK is the layout rule views keep: non-negative strides and offset,
// each axis of size > 1 steps over the whole extent of the axes of size > 1
// inside it (so no two elements share a position and C order is increasing
// order in the buffer), and every element inside a buffer of bufLen.
func extentOK(l ndarray.Layout, bufLen int) error {
	if len(l.Shape) != len(l.Strides) {
		return fmt.Errorf("rank mismatch %v %v", l.Shape, l.Strides)
	}
	if l.Offset < 0 {
		return fmt.Errorf("negative offset %d", l.Offset)
	}
	size := 1
	for i, d := range l.Shape {
		if d < 0 || l.Strides[i] < 0 {
			return fmt.Errorf("negative size or stride in %v", l)
		}
		size *= d
	}
	if size == 0 {
		return nil
	}
	ext := 1 // extent of the axes inside the current one
	seen := false
	for i := len(l.Shape) - 1; i >= 0; i-- {
		if l.Shape[i] <= 1 {
			continue
		}
		if seen && l.Strides[i] < ext {
			return fmt.Errorf("axis %d: stride %d below the extent %d of the axes inside it (%v)", i, l.Strides[i], ext, l)
		}
		seen = true
		ext += (l.Shape[i] - 1) * l.Strides[i]
	}
	if end := l.BufferLen(); end > bufLen {
		return fmt.Errorf("%v reaches element %d of a buffer of %d", l, end-1, bufLen)
	}
	return nil
}

// checkView checks that a view's layout validates against the buffer.
func checkView(t testing.TB, l ndarray.Layout, bufLen int) {
	t.Helper()
	if err := l.Validate(bufLen); err != nil {
		t.Fatalf("view layout %v does not validate against a buffer of %d: %v", l, bufLen, err)
	}
}

// refView is an independent, slow reference for create_view: it decodes the
// descriptors itself, lists the coordinates each index selects on the input
// axis it consumes, and returns the view's shape and the buffer positions of
// its elements in C order. ok is false when the indices are invalid.
// positions is nil when the view has more than maxElems elements.
func refView(shape, strides []int, offset int, descs [][]int64, maxElems int) (vshape []int, positions []int, ok bool) {
	type outAxis struct {
		coords []int // coordinates on the input axis; nil for a new axis
		in     int   // input axis
	}
	var axes []outAxis
	base := offset
	in := 0
	consume := func() (int, bool) {
		if in >= len(shape) {
			return 0, false
		}
		in++
		return in - 1, true
	}
	for _, d := range descs {
		if len(d) == 0 {
			return nil, nil, false
		}
		switch {
		case d[0] == 0 && len(d) == 5 && d[1] == 1 && d[2] == 1 && (d[4] == 0 || d[4] == 1):
			a, ok := consume()
			if !ok {
				return nil, nil, false
			}
			n, p := int64(shape[a]), d[3]
			if p < 0 {
				p += n
			}
			if p < 0 || p >= n {
				return nil, nil, false
			}
			base += int(p) * strides[a]
		case d[0] == 1 && len(d) == 7 && d[1] == 2 && d[2] == 1 && (d[6] == 0 || d[6] == 1):
			a, ok := consume()
			if !ok {
				return nil, nil, false
			}
			n, s, e, step := int64(shape[a]), d[3], d[4], d[5]
			if step < 1 {
				return nil, nil, false
			}
			if s < 0 {
				s += n
			}
			if e < 0 {
				e += n
			}
			last := n // largest allowed end
			if d[6] == 1 {
				last = n - 1
			}
			if s < 0 || s > n || e < 0 || e > last || e < s {
				return nil, nil, false
			}
			coords := []int{}
			for c := s; c < e || (d[6] == 1 && c == e); c += step {
				coords = append(coords, int(c))
			}
			axes = append(axes, outAxis{coords: coords, in: a})
		case d[0] == 2 && len(d) == 4 && d[1] == 0 && d[2] == 1 && (d[3] == 0 || d[3] == 1):
			a, ok := consume()
			if !ok {
				return nil, nil, false
			}
			coords := make([]int, shape[a])
			for i := range coords {
				coords[i] = i
			}
			axes = append(axes, outAxis{coords: coords, in: a})
		case d[0] == 3 && ((len(d) == 5 && d[1] == 1 && d[2] == 1 && d[3] == 0 && (d[4] == 0 || d[4] == 1)) ||
			(len(d) == 4 && d[1] == 1 && d[2] == 10 && (d[3] == 0 || d[3] == 1))):
			axes = append(axes, outAxis{in: -1})
		default:
			return nil, nil, false
		}
	}
	for ; in < len(shape); in++ {
		coords := make([]int, shape[in])
		for i := range coords {
			coords[i] = i
		}
		axes = append(axes, outAxis{coords: coords, in: in})
	}
	if len(axes) > ndarray.MaxRank {
		return nil, nil, false
	}
	total := 1
	vshape = make([]int, len(axes))
	for i, ax := range axes {
		vshape[i] = 1
		if ax.in >= 0 {
			vshape[i] = len(ax.coords)
		}
		total *= vshape[i]
	}
	if total > maxElems {
		return vshape, nil, true
	}
	positions = []int{}
	if total == 0 {
		return vshape, positions, true
	}
	var rec func(k, pos int)
	rec = func(k, pos int) {
		if k == len(axes) {
			positions = append(positions, pos)
			return
		}
		if axes[k].in < 0 {
			rec(k+1, pos)
			return
		}
		for _, c := range axes[k].coords {
			rec(k+1, pos+c*strides[axes[k].in])
		}
	}
	rec(0, base)
	return vshape, positions, true
}

// positionsOf lists the buffer positions of a layout's elements in C order.
func positionsOf(l ndarray.Layout) []int {
	out := []int{}
	if l.Size() == 0 {
		return out
	}
	var rec func(k, pos int)
	rec = func(k, pos int) {
		if k == len(l.Shape) {
			out = append(out, pos)
			return
		}
		for i := 0; i < l.Shape[k]; i++ {
			rec(k+1, pos+i*l.Strides[k])
		}
	}
	rec(0, l.Offset)
	return out
}

func f64(shape []int, v ...float64) *ndarray.Array {
	return ndarray.Must(ndarray.FromSlice(v, shape...))
}

func i64v(v ...int64) *ndarray.Array { return ndarray.Must(ndarray.FromSlice(v, len(v))) }

// idxArrays turns indices into INT64 index arrays.
func idxArrays(idx ...cv.Index) []*ndarray.Array {
	out := make([]*ndarray.Array, len(idx))
	for i, x := range idx {
		out[i] = i64v(x.Descriptor()...)
	}
	return out
}

// linspace returns the packed array 1, 2, ..., n of the given shape.
func linspace(shape ...int) *ndarray.Array {
	v := ndarray.Must(ndarray.Arange(ndarray.Float64, 1, 1, ndarray.Packed(shape...).Size()))
	return ndarray.Must(ndarray.Reshape(v, shape...))
}
