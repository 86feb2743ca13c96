package densetensor_test

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"unsafe"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ndarray/densetensor"
	"gorgonia.org/tensor"
)

func TestRoundTrip(t *testing.T) {
	a := ndarray.Must(ndarray.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3))
	d, err := densetensor.ToDense(a)
	if err != nil {
		t.Fatal(err)
	}
	if &d.Data().([]float32)[0] != &ndarray.Raw[float32](a)[0] {
		t.Error("ToDense copied a packed array")
	}
	b, err := densetensor.FromDense(d)
	if err != nil {
		t.Fatal(err)
	}
	if !b.SameBuffer(a) && &ndarray.Raw[float32](b)[0] != &ndarray.Raw[float32](a)[0] {
		t.Error("FromDense copied a contiguous tensor")
	}
	if !ndarray.Equal(a, b) {
		t.Errorf("round trip %v -> %v", a, b)
	}
	// a padded copy, the padding NaN so that reading it shows
	p := ndarray.Must(ndarray.NewPadded(ndarray.Float32, []int{2, 3}, []int{3, 3}, []int{1, 1}))
	fill(t, p.Buffer(), math.NaN())
	if err := ndarray.CopyInto(p, a); err != nil {
		t.Fatal(err)
	}
	dp, err := densetensor.ToDense(p)
	if err != nil {
		t.Fatal(err)
	}
	bp, _ := densetensor.FromDense(dp)
	if !ndarray.Equal(bp, a) {
		t.Errorf("padded round trip %v", bp)
	}
	s, _ := densetensor.ToDense(ndarray.Scalar(int64(5)))
	bs, err := densetensor.FromDense(s)
	if err != nil || bs.Rank() != 0 || bs.Float() != 5 {
		t.Errorf("scalar round trip %v %v", bs, err)
	}
}

// An empty array converts whatever its offset: an empty view's offset may
// lie past its buffer's end, where ToDense once sliced the buffer and
// panicked. FromDense of the empty tensor panicked in gorgonia's Data.
func TestEmpty(t *testing.T) {
	buf := ndarray.Must(ndarray.Zeros(ndarray.Float32, 10)).Buffer()
	for _, a := range []*ndarray.Array{
		ndarray.Must(ndarray.NewView(buf, ndarray.Layout{Shape: []int{0, 3}, Strides: []int{3, 1}, Offset: 50})),
		ndarray.Must(ndarray.Zeros(ndarray.Float32, 0, 3)), // no buffer at all
	} {
		d, err := densetensor.ToDense(a)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal([]int(d.Shape()), []int{0, 3}) || d.Dtype() != tensor.Float32 {
			t.Errorf("ToDense(%v offset %d) = %v%v", a, a.Offset(), d.Dtype(), d.Shape())
		}
		// Back, without d.Data(), which panics on an empty tensor.
		b, err := densetensor.FromDense(d)
		if err != nil || b.DType() != ndarray.Float32 || !ndarray.SameShape(b.Shape(), []int{0, 3}) {
			t.Errorf("round trip of an empty array: %v, %v", b, err)
		}
	}
}

// FromDense of gorgonia views: slices (with and without an iterator),
// transposes and tensors of one element.
func TestFromDenseViews(t *testing.T) {
	base := func() *tensor.Dense {
		return tensor.New(tensor.WithShape(3, 4), tensor.WithBacking([]float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}))
	}
	cases := []struct {
		name  string
		make  func() (tensor.View, error)
		shape []int
		want  []float64
	}{
		{"row 1", func() (tensor.View, error) { return base().Slice(tensor.S(1)) }, []int{4}, []float64{4, 5, 6, 7}},
		{"rows 1:3", func() (tensor.View, error) { return base().Slice(tensor.S(1, 3)) }, []int{2, 4}, []float64{4, 5, 6, 7, 8, 9, 10, 11}},
		{"column 2", func() (tensor.View, error) { return base().Slice(nil, tensor.S(2)) }, []int{3}, []float64{2, 6, 10}},
		{"cols 1:3", func() (tensor.View, error) { return base().Slice(nil, tensor.S(1, 3)) }, []int{3, 2}, []float64{1, 2, 5, 6, 9, 10}},
		{"element", func() (tensor.View, error) { return base().Slice(tensor.S(2), tensor.S(3)) }, nil, []float64{11}},
		{"transposed", func() (tensor.View, error) {
			d := base()
			err := d.T()
			return d, err
		}, []int{4, 3}, []float64{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}},
		{"vector of one", func() (tensor.View, error) {
			return tensor.New(tensor.WithShape(1), tensor.WithBacking([]float64{5})), nil
		}, []int{1}, []float64{5}},
		{"1x1", func() (tensor.View, error) {
			return tensor.New(tensor.WithShape(1, 1), tensor.WithBacking([]float64{5})), nil
		}, []int{1, 1}, []float64{5}},
	}
	for _, c := range cases {
		v, err := c.make()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		a, err := densetensor.FromDense(v.(*tensor.Dense))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !slices.Equal(a.Shape(), c.shape) || !slices.Equal(a.Float64s(), c.want) {
			t.Errorf("%s: got %v%v, want %v%v", c.name, a.Shape(), a.Float64s(), c.shape, c.want)
		}
	}
}

var dtypes = []ndarray.DType{ndarray.Float32, ndarray.Float64, ndarray.Int32, ndarray.Int64, ndarray.Bool}

// TestRandomLayouts converts arrays of every dtype, of random shapes (rank
// 0 to 4, empty axes included), in random layouts, to gorgonia and back:
// the tensor has the array's shape, a packed array (at any offset) shares
// its elements with the tensor, and the array that comes back equals the
// first. The layouts' buffers are filled with junk first, so that reading
// outside a layout shows.
func TestRandomLayouts(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for it := 0; it < 2000; it++ {
		dt := dtypes[rng.IntN(len(dtypes))]
		shape := make([]int, rng.IntN(5))
		for i := range shape {
			shape[i] = rng.IntN(5)
		}
		a, kind := randLayout(t, rng, dt, shape)
		d, err := densetensor.ToDense(a)
		if err != nil {
			t.Fatalf("ToDense %v %v (%s): %v", dt, shape, kind, err)
		}
		if ds := []int(d.Shape()); !slices.Equal(ds, shape) && !(len(shape) == 0 && len(ds) == 0) {
			t.Fatalf("ToDense %v %v (%s): shape %v", dt, shape, kind, ds)
		}
		if a.IsPacked() && a.Rank() > 0 && a.Size() > 0 {
			at := unsafe.Pointer(&a.Buffer().Bytes()[a.Offset()*dt.Size()])
			if reflect.ValueOf(d.Data()).UnsafePointer() != at {
				t.Errorf("ToDense %v %v (%s) copied a packed array", dt, shape, kind)
			}
		}
		back, err := densetensor.FromDense(d)
		if err != nil {
			t.Fatalf("FromDense %v %v (%s): %v", dt, shape, kind, err)
		}
		if !ndarray.Equal(back, a) {
			t.Fatalf("round trip %v (%s): %v became %v", shape, kind, a, back)
		}
	}
}

// randLayout returns an array of dt and shape holding random values in a
// layout of a random kind: packed, packed at an offset, packed at an
// offset with any strides on its axes of size one (which IsPacked ignores),
// padded, stepped (strides of 1 to 3 times the packed ones) or transposed
// (a permutation of a packed array, as Permute makes).
func randLayout(t *testing.T, rng *rand.Rand, dt ndarray.DType, shape []int) (*ndarray.Array, string) {
	t.Helper()
	n := 1
	for _, s := range shape {
		n *= s
	}
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = float64(rng.IntN(9)-4) + float64(rng.IntN(4))/4
		if dt.IsFloat() && rng.IntN(20) == 0 {
			vals[i] = math.NaN()
		}
	}
	src, err := ndarray.Cast(ndarray.Must(ndarray.FromSlice(vals, shape...)), dt)
	if err != nil {
		t.Fatal(err)
	}
	r := len(shape)
	var a *ndarray.Array
	kinds := []string{"packed", "offset", "ones", "padded", "stepped", "transposed"}
	kind := kinds[rng.IntN(len(kinds))]
	switch kind {
	case "packed":
		return src, kind
	case "offset":
		off := 1 + rng.IntN(100)
		buf := junk(t, dt, off+n)
		a, err = ndarray.NewView(buf, ndarray.Layout{Shape: shape, Strides: ndarray.PackedStrides(shape), Offset: off})
	case "ones":
		l := ndarray.Layout{Shape: shape, Strides: ndarray.PackedStrides(shape), Offset: rng.IntN(50)}
		for i, d := range shape {
			if d == 1 {
				l.Strides[i] = rng.IntN(1000)
			}
		}
		a, err = ndarray.NewView(junk(t, dt, max(l.BufferLen(), l.Offset+1)), l)
	case "padded":
		pad, offs := make([]int, r), make([]int, r)
		for i := range pad {
			pad[i] = rng.IntN(3)
			offs[i] = rng.IntN(pad[i] + 1)
		}
		if a, err = ndarray.NewPadded(dt, shape, pad, offs); err == nil {
			fill(t, a.Buffer(), 77)
		}
	case "stepped":
		big, step := make([]int, r), make([]int, r)
		for i := range big {
			step[i] = 1 + rng.IntN(3)
			big[i] = shape[i] * step[i]
		}
		st := ndarray.PackedStrides(big)
		for i := range st {
			st[i] *= step[i]
		}
		l := ndarray.Layout{Shape: shape, Strides: st}
		a, err = ndarray.NewView(junk(t, dt, max(l.BufferLen(), 1)), l)
	case "transposed":
		perm := rng.Perm(r)
		inv := make([]int, r)
		stored := make([]int, r)
		for i, p := range perm {
			stored[i] = shape[p]
			inv[p] = i
		}
		a, err = ndarray.Permute(ndarray.Must(ndarray.Zeros(dt, stored...)), inv...)
	}
	if err != nil {
		t.Fatalf("%s layout of %v: %v", kind, shape, err)
	}
	if err := ndarray.CopyInto(a, src); err != nil {
		t.Fatalf("%s layout of %v: %v", kind, shape, err)
	}
	return a, kind
}

// junk returns a buffer of n elements of dt holding 77 (true for Bool).
func junk(t *testing.T, dt ndarray.DType, n int) *ndarray.Buffer {
	t.Helper()
	return ndarray.Must(ndarray.Full(dt, 77, n)).Buffer()
}

// fill sets every element of buf to v.
func fill(t *testing.T, buf *ndarray.Buffer, v float64) {
	t.Helper()
	whole := ndarray.Must(ndarray.NewView(buf, ndarray.Layout{Shape: []int{buf.Len()}, Strides: []int{1}}))
	if err := ndarray.CopyInto(whole, ndarray.Must(ndarray.Full(buf.DType(), v))); err != nil {
		t.Fatal(err)
	}
}
