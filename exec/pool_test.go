package exec

import (
	"slices"
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// The pool hands a given-back array out again only for its own shape, and
// only when it is laid out as a fresh packed array over its whole buffer
// would be: any other array on the buffer gives a new packed array.
func TestPoolReusesOnlyWholePackedArrays(t *testing.T) {
	p := newPool(1 << 20)
	f32 := ndarray.Float32
	a := p.get(f32, []int{2, 3})
	p.putArray(a)
	if got := p.get(f32, []int{2, 3}); got != a {
		t.Errorf("a packed [2 3] array given back: get made %p, want it again (%p)", got, a)
	}
	p.putArray(a)
	other := p.get(f32, []int{3, 2})
	if other == a || !other.SameBuffer(a) || !slices.Equal(other.Shape(), []int{3, 2}) || !other.IsPacked() {
		t.Errorf("get [3 2] after a [2 3] array came back: %v (strides %v), same array %v, same buffer %v",
			other.Shape(), other.Strides(), other == a, other.SameBuffer(a))
	}
	// A view over the whole buffer with strides of its own on an axis of
	// size 1: the buffer is reused, the view is not.
	odd, err := other.WithLayout(ndarray.Layout{Shape: []int{1, 6}, Strides: []int{7, 1}})
	if err != nil {
		t.Fatal(err)
	}
	p.putArray(odd)
	got := p.get(f32, []int{1, 6})
	if got == odd || !got.SameBuffer(odd) || !slices.Equal(got.Strides(), ndarray.Must(ndarray.PackedOn(got.Buffer(), []int{1, 6})).Strides()) {
		t.Errorf("get [1 6] after a view with strides %v came back: strides %v, the view itself %v, same buffer %v",
			odd.Strides(), got.Strides(), got == odd, got.SameBuffer(odd))
	}
	// A packed reshape is as whole as the array it reshapes; views of part
	// of the buffer, or with strides PackedOn does not give, are not; and
	// a buffer given back alone comes out on a new array.
	part, err := ndarray.Reshape(got, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !wholePacked(part) || !wholePacked(got) {
		t.Errorf("a packed array and its packed reshape count as not whole")
	}
	for _, l := range []ndarray.Layout{
		{Shape: []int{1, 3}, Strides: []int{3, 1}},            // the first row
		{Shape: []int{1, 3}, Strides: []int{3, 1}, Offset: 3}, // the second
		{Shape: []int{1, 6}, Strides: []int{7, 1}},            // all, a stride PackedOn does not give
	} {
		if v := ndarray.Must(got.WithLayout(l)); wholePacked(v) {
			t.Errorf("a view %+v of a [1 6] array counts as the whole buffer's packed array", l)
		}
	}
	p.put(part.Buffer())
	if again := p.get(f32, []int{2, 3}); again == part {
		t.Errorf("a buffer given back alone came out with the array last made on it")
	}
}

// Runs whose intermediates change shape within one size class ([2 3],
// then [3 2], [6], and back) compute what a fresh session computes: an
// array handed out again must have the shape asked for.
func TestRunsReuseArraysOfTheirShape(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, -1, -1)
	y := g.Math().Tanh(x.MulScalar(2)).AddScalar(1).MulScalar(3).Named("y")
	if err := g.Err(); err != nil {
		t.Fatal(err)
	}
	s := New(g)
	for i, shape := range [][]int{{2, 3}, {3, 2}, {1, 6}, {6, 1}, {2, 3}, {2, 3}, {3, 2}} {
		in := ndarray.Must(ndarray.Arange(ndarray.Float64, 0, 1, 6))
		in = ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.Copy(in)), shape...))
		got, err := s.Output(map[string]*ndarray.Array{"x": in}, y.Name())
		if err != nil {
			t.Fatal(err)
		}
		want, err := New(g).Output(map[string]*ndarray.Array{"x": in}, y.Name())
		if err != nil {
			t.Fatal(err)
		}
		if !ndarray.Equal(got[y.Name()], want[y.Name()]) || !slices.Equal(got[y.Name()].Shape(), shape) {
			t.Fatalf("run %d, x %v: %v, a fresh session gives %v", i, shape, got[y.Name()], want[y.Name()])
		}
	}
}
