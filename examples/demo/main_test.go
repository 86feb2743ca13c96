package main

import (
	"math"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
)

// sameBits tells apart what ndarray.Equal takes as equal (-0 and 0, NaNs
// with other payloads), whatever the layouts.
func TestSameBits(t *testing.T) {
	f32 := func(v ...float32) *ndarray.Array { return ndarray.Must(ndarray.FromSlice(v, 2, 2)) }
	nan1, nan2 := math.Float32frombits(0x7fc00001), math.Float32frombits(0x7fc00002)
	a := f32(1, 2, 3, nan1)
	// a, as every other column of a wider array.
	wide := ndarray.Must(ndarray.FromSlice([]float32{1, 9, 2, 9, 3, 9, nan1, 9}, 2, 4))
	view := ndarray.Must(wide.WithLayout(ndarray.Layout{Shape: []int{2, 2}, Strides: []int{4, 2}}))
	for _, c := range []struct {
		name string
		x, y *ndarray.Array
		want bool
	}{
		{"same", a, f32(1, 2, 3, nan1), true},
		{"another layout", a, view, true},
		{"-0 and 0", f32(0, 1, 2, 3), f32(float32(math.Copysign(0, -1)), 1, 2, 3), false},
		{"NaN payloads", a, f32(1, 2, 3, nan2), false},
		{"shape", a, ndarray.Must(ndarray.FromSlice([]float32{1, 2, 3, nan1})), false},
		{"dtype", f32(1, 2, 3, 4), ndarray.Must(ndarray.FromSlice([]float64{1, 2, 3, 4}, 2, 2)), false},
	} {
		if got := sameBits(c.x, c.y); got != c.want {
			t.Errorf("%s: sameBits = %v, want %v (Equal says %v)", c.name, got, c.want, ndarray.Equal(c.x, c.y))
		}
	}
}
