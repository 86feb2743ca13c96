package ndarray

import (
	"math"
	"slices"
	"testing"
)

// Equal compares elements in their own dtype: 2^53 and 2^53+1 are distinct
// int64 values, though both round to the same float64.
func TestEqualInt64Exact(t *testing.T) {
	const big = int64(1) << 53
	a := Must(FromSlice([]int64{1, big}))
	b := Must(FromSlice([]int64{1, big + 1}))
	if Equal(a, b) {
		t.Errorf("Equal(%v, %v) = true", a, b)
	}
	if !Equal(a, Must(FromSlice([]int64{1, big}))) {
		t.Error("equal int64 arrays compare unequal")
	}
	if Equal(Must(FromSlice([]float64{1, math.NaN()})), Must(FromSlice([]float64{1, 2}))) {
		t.Error("NaN equals 2")
	}
	if !Equal(Must(FromSlice([]float32{1, float32(math.NaN())})), Must(FromSlice([]float32{1, float32(math.NaN())}))) {
		t.Error("float32 NaN does not equal NaN")
	}
	if !Equal(f64(t, []int{2}, math.NaN(), 1), f64(t, []int{2}, math.NaN(), 1)) {
		t.Error("float64 NaN does not equal NaN")
	}
	// The same in stepped and padded layouts, where the elements are not
	// the buffers' first ones.
	s1, s2 := Must(FromSlice([]int64{big, 1, -big, 2}, 2, 2)), Must(FromSlice([]int64{big, 1, -big - 1, 2}, 2, 2))
	if Equal(strided(t, s1), padded(t, s2)) || Equal(padded(t, s1), strided(t, s2)) {
		t.Error("int64 arrays differing by 1 above 2^53 compare equal in stepped and padded layouts")
	}
	if !Equal(strided(t, s1), padded(t, s1)) {
		t.Error("the same int64 values stepped and padded compare unequal")
	}
}

// Equal compares elements, not buffers: the same values packed, padded and
// stepped are equal, for computable dtypes and for dtypes only stored.
func TestEqualLayouts(t *testing.T) {
	x := Must(FromSlice([]int32{1, 2, 3, 4, 5, 6}, 2, 3))
	if !Equal(x, strided(t, x)) || !Equal(padded(t, x), strided(t, x)) {
		t.Error("the same int32 values in other layouts compare unequal")
	}
	y := Must(FromSlice([]int32{1, 2, 3, 4, 5, 7}, 2, 3))
	if Equal(strided(t, x), padded(t, y)) {
		t.Error("different int32 values compare equal")
	}

	// Int16 (stored, not computed with): a packed 2×3 array and the same
	// values as columns 1..3 of a 2×4 buffer whose padding differs.
	packed := int16s(t, []byte{1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0}, Packed(2, 3))
	wide := []byte{9, 9, 1, 0, 2, 0, 3, 0, 8, 8, 4, 0, 5, 0, 6, 0}
	view := int16s(t, wide, Layout{Shape: []int{2, 3}, Strides: []int{4, 1}, Offset: 1})
	if !Equal(packed, view) || !Equal(view, packed) {
		t.Error("int16 arrays with the same elements in other layouts compare unequal")
	}
	step := int16s(t, wide, Layout{Shape: []int{2, 2}, Strides: []int{4, 2}, Offset: 1})
	want := int16s(t, []byte{1, 0, 3, 0, 4, 0, 6, 0}, Packed(2, 2))
	if !Equal(step, want) {
		t.Error("stepped int16 view compares unequal to its elements")
	}
	other := int16s(t, []byte{1, 0, 2, 0, 3, 0, 4, 0, 5, 1, 6, 0}, Packed(2, 3))
	if Equal(packed, other) {
		t.Error("int16 arrays differing in one byte compare equal")
	}

	s1 := Must(FromStrings([]string{"a", "bc"}))
	if !Equal(s1, Must(FromStrings([]string{"a", "bc"}))) || Equal(s1, Must(FromStrings([]string{"a", "b"}))) {
		t.Error("string arrays compare wrongly")
	}
}

// Float64s and Int64s make one allocation for the result (and the array
// header Cast builds around it), whatever the dtype.
func TestFloat64sAllocs(t *testing.T) {
	arrays := []*Array{
		Must(FromSlice([]float32{1, 2, 3, 4})), Must(FromSlice([]float64{1, 2, 3, 4})),
		Must(FromSlice([]int32{1, 2, 3, 4})), Must(FromSlice([]int64{1, 2, 3, 4})),
		Must(FromSlice([]bool{true, false, true, false})),
	}
	for _, a := range arrays {
		for name, f := range map[string]func(){"Float64s": func() { a.Float64s() }, "Int64s": func() { a.Int64s() }} {
			// Cast allocates the buffer, the Array and its shape and strides.
			if n := testing.AllocsPerRun(10, f); n > 5 {
				t.Errorf("%s of %v: %v allocations", name, a.DType(), n)
			}
		}
		want := []float64{1, 2, 3, 4}
		if a.DType() == Bool {
			want = []float64{1, 0, 1, 0}
		}
		f, i := a.Float64s(), a.Int64s()
		for k, w := range want {
			if f[k] != w || i[k] != int64(w) {
				t.Errorf("%v: Float64s %v, Int64s %v, want %v", a.DType(), f, i, want)
				break
			}
		}
	}
}

// Float64s and Int64s return a new slice even when no conversion is needed
// (callers change it), and empty slices for empty arrays and for dtypes sdgo
// does not compute with.
func TestFloat64sCopies(t *testing.T) {
	a := f64(t, []int{3}, 1, 2, 3)
	v := a.Float64s()
	v[0] = 9
	if a.Float(0) != 1 {
		t.Errorf("changing Float64s' result changed the array: %v", a)
	}
	b := Must(FromSlice([]int64{1, 2, 3}))
	w := b.Int64s()
	w[0] = 9
	if b.Float(0) != 1 {
		t.Errorf("changing Int64s' result changed the array: %v", b)
	}
	empty := []*Array{Must(Zeros(Float32, 0, 3)), Must(Zeros(Float64, 0)), Must(Zeros(Int64, 2, 0)), Must(Zeros(Bool, 0)),
		int16s(t, []byte{1, 0, 2, 0}, Packed(2)), Must(FromStrings([]string{"a", "b"}))}
	for _, e := range empty {
		if f, i := e.Float64s(), e.Int64s(); f == nil || i == nil || len(f) != 0 || len(i) != 0 {
			t.Errorf("%v of shape %v: Float64s %#v, Int64s %#v, want empty slices", e.DType(), e.Shape(), f, i)
		}
	}
	// A stepped int32 view converts its own elements, in C order.
	s := strided(t, Must(FromSlice([]int32{1, -2, 3, -4}, 2, 2)))
	if f, i := s.Float64s(), s.Int64s(); !slices.Equal(f, []float64{1, -2, 3, -4}) || !slices.Equal(i, []int64{1, -2, 3, -4}) {
		t.Errorf("stepped int32: Float64s %v, Int64s %v", f, i)
	}
	if i := f64(t, []int{3}, 1.9, -1.9, 2).Int64s(); !slices.Equal(i, []int64{1, -1, 2}) {
		t.Errorf("Int64s of floats %v: want truncation", i)
	}
}

// A Bool buffer made from bytes holds only 0 and 1, whatever the bytes:
// the Bool loops work on the bytes and would otherwise see 2 & 1 == 0.
func TestBoolBufferFromBytesNormalizes(t *testing.T) {
	raw := []byte{0, 2, 255, 1, 0, 4, 1, 128, 3}
	keep := append([]byte(nil), raw...)
	buf, err := BufferFromBytes(Bool, len(raw), raw)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(raw, keep) {
		t.Errorf("BufferFromBytes changed the caller's bytes: %v", raw)
	}
	for i, b := range buf.Bytes() {
		if b != min(keep[i], 1) {
			t.Fatalf("byte %d is %d for %d", i, b, keep[i])
		}
	}
	x := Must(NewView(buf, Packed(len(raw))))
	want := Must(FromSlice([]bool{false, true, true, true, false, true, true, true, true}))
	if !Equal(x, want) {
		t.Errorf("bools from bytes %v: %v", keep, x)
	}
	tr := Must(Full(Bool, 1, len(raw)))
	for name, got := range map[string]*Array{
		"and":  Must(Logic(And, x, tr)),
		"eq":   Must(Compare(Eq, x, tr)),
		"xor":  Must(Not(Must(Logic(Xor, x, tr)))),
		"view": Must(Logic(And, Must(NewView(buf, Layout{Shape: []int{3}, Strides: []int{3}, Offset: 1})), Scalar(true))),
	} {
		w := want
		if name == "view" {
			w = Must(FromSlice([]bool{true, false, true})) // bytes 1, 4 and 7
		}
		if !Equal(got, w) {
			t.Errorf("%s with true: %v, want %v", name, got, w)
		}
	}
	// Bytes that are already 0 and 1 are used as they are.
	ok := []byte{1, 0, 1}
	if b, err := BufferFromBytes(Bool, 3, ok); err != nil || &b.Bytes()[0] != &ok[0] {
		t.Errorf("0/1 bytes were copied (err %v)", err)
	}
}

// int16s returns an Int16 array (a dtype sdgo stores but does not compute
// with) over a copy of the little-endian bytes b with layout l.
func int16s(t *testing.T, b []byte, l Layout) *Array {
	t.Helper()
	buf, err := BufferFromBytes(Int16, len(b)/2, append([]byte(nil), b...))
	if err != nil {
		t.Fatal(err)
	}
	a, err := NewView(buf, l)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// AllClose on dtypes sdgo does not compute with compares the elements
// exactly: it used to compare two empty lists of values and report any two
// string (or float16) arrays of one shape as close.
func TestAllCloseNonComputable(t *testing.T) {
	a, b := Must(FromStrings([]string{"a", "b"})), Must(FromStrings([]string{"a", "c"}))
	if AllClose(a, b, 1, 1) {
		t.Errorf("AllClose(%q, %q) is true", Must2(Strings(a)), Must2(Strings(b)))
	}
	if !AllClose(a, Must(FromStrings([]string{"a", "b"})), 0, 0) {
		t.Error("AllClose of equal string arrays is false")
	}
	h := func(bits ...uint16) *Array {
		raw := make([]byte, 2*len(bits))
		for i, v := range bits {
			raw[2*i], raw[2*i+1] = byte(v), byte(v>>8)
		}
		buf := Must2(BufferFromBytes(Half, len(bits), raw))
		return Must(NewView(buf, Packed(len(bits))))
	}
	if AllClose(h(0x3c00, 0x4000), h(0x3c00, 0x4200), 1, 1) {
		t.Error("AllClose of different float16 arrays is true")
	}
	// A computable and a non-computable array are not close.
	if AllClose(Must(FromSlice([]float32{1, 2})), h(0x3c00, 0x4000), 1, 1) {
		t.Error("AllClose of float32 and float16 arrays is true")
	}
}

func Must2[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
