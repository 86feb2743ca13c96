package ndarray

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	cases := []struct {
		name   string
		l      Layout
		bufLen int
		ok     bool
	}{
		{"packed", Packed(3, 4, 2), 24, true},
		{"packed needs whole buffer", Packed(3, 4, 2), 23, false},
		{"scalar", Packed(), 1, true},
		{"empty", Layout{Shape: []int{0, 3}, Strides: []int{3, 1}}, 0, true},
		{"padded rows", Layout{Shape: []int{3, 4}, Strides: []int{6, 1}}, 16, true},
		{"padded rows, short buffer", Layout{Shape: []int{3, 4}, Strides: []int{6, 1}}, 15, false},
		{"interval step 2", Layout{Shape: []int{3, 2}, Strides: []int{4, 2}}, 11, true},
		{"step 3 of 5 columns", Layout{Shape: []int{2, 2}, Strides: []int{5, 3}}, 10, true},
		{"step 3 overlapping", Layout{Shape: []int{2, 2}, Strides: []int{3, 3}}, 10, false},
		{"transposed breaks C order", Layout{Shape: []int{3, 4}, Strides: []int{1, 3}}, 12, false},
		{"overlapping rows", Layout{Shape: []int{3, 4}, Strides: []int{3, 1}}, 12, false},
		{"size-1 axis stride is free", Layout{Shape: []int{3, 1, 4}, Strides: []int{4, 99, 1}}, 12, true},
		{"negative stride", Layout{Shape: []int{3}, Strides: []int{-1}, Offset: 2}, 3, false},
		{"negative offset", Layout{Shape: []int{3}, Strides: []int{1}, Offset: -1}, 3, false},
		{"negative size", Layout{Shape: []int{-3}, Strides: []int{1}}, 3, false},
		{"rank mismatch", Layout{Shape: []int{3, 4}, Strides: []int{1}}, 12, false},
		{"offset pushes past end", Layout{Shape: []int{4}, Strides: []int{1}, Offset: 1}, 4, false},
		{"last element is the buffer's last", Layout{Shape: []int{10}, Strides: []int{1}, Offset: 90}, 100, true},
		{"one past the end", Layout{Shape: []int{10}, Strides: []int{1}, Offset: 91}, 100, false},
		// Offsets whose sum with the extent wraps below the buffer's length.
		{"offset MaxInt-5", Layout{Shape: []int{10}, Strides: []int{1}, Offset: math.MaxInt - 5}, 100, false},
		{"offset MaxInt-25, 2-D", Layout{Shape: []int{3, 10}, Strides: []int{10, 1}, Offset: math.MaxInt - 25}, 100, false},
		{"offset MaxInt, one element", Layout{Shape: []int{1}, Strides: []int{1}, Offset: math.MaxInt}, 100, false},
		{"empty at offset MaxInt", Layout{Shape: []int{0}, Strides: []int{1}, Offset: math.MaxInt}, 10, true},
		{"huge stride on a size-1 axis", Layout{Shape: []int{1}, Strides: []int{1 << 62}, Offset: 99}, 100, true},
		{"stride MaxInt", Layout{Shape: []int{2}, Strides: []int{math.MaxInt}}, 100, false},
		{"stride above MaxBytes", Layout{Shape: []int{2}, Strides: []int{MaxBytes + 1}}, 100, false},
		{"(size-1)·stride overflows", Layout{Shape: []int{3, 2}, Strides: []int{math.MaxInt/2 + 1, 1}}, 100, false},
		{"sizes multiply past an int", Layout{Shape: []int{1 << 32, 1 << 32}, Strides: []int{1 << 32, 1}}, 100, false},
		{"sizes multiply to 4 in an int", Layout{Shape: []int{1<<62 + 1, 4}, Strides: []int{4, 1}}, 4, false},
	}
	for _, c := range cases {
		err := c.l.Validate(c.bufLen)
		if (err == nil) != c.ok {
			t.Errorf("%s: Validate(%v, %d) = %v, want ok=%v", c.name, c.l, c.bufLen, err, c.ok)
		}
		if err != nil && !errors.Is(err, ErrLayout) {
			t.Errorf("%s: error %v does not wrap ErrLayout", c.name, err)
		}
	}
}

// A layout past the end of its buffer is refused by NewView with an error
// naming the layout, however large its offset: accepted, the offset wrapped
// and the first use of the array panicked with slice bounds out of range.
func TestNewViewOffsetOverflow(t *testing.T) {
	buf := Must(Zeros(Float32, 100)).Buffer()
	l := Layout{Shape: []int{10}, Strides: []int{1}, Offset: math.MaxInt - 5}
	_, err := NewView(buf, l)
	if !errors.Is(err, ErrLayout) || !strings.Contains(err.Error(), "offset 9223372036854775802") {
		t.Errorf("NewView(%v) on a buffer of 100: %v", l, err)
	}
}

// PackedOn multiplies the shape with a bound: negative sizes, and sizes
// whose product wraps to the buffer's length, do not fill it.
func TestPackedOnShapes(t *testing.T) {
	buf := Must(Zeros(Float32, 4)).Buffer()
	for _, c := range []struct {
		shape []int
		ok    bool
	}{
		{[]int{2, 2}, true},
		{[]int{4, 1}, true},
		{[]int{-2, -2}, false},
		{[]int{1<<62 + 1, 4}, false},
		{[]int{0, 4}, false},
		{[]int{2, 3}, false},
		{[]int{}, false},
	} {
		a, err := PackedOn(buf, c.shape)
		if (err == nil) != c.ok {
			t.Errorf("PackedOn(buffer of 4, %v) = %v, want ok=%v", c.shape, err, c.ok)
		}
		if err == nil && !SameShape(a.Shape(), c.shape) {
			t.Errorf("PackedOn(buffer of 4, %v) has shape %v", c.shape, a.Shape())
		}
	}
}

// Padded refuses boxes whose sizes, strides or length do not fit an int
// (with MaxBytes to spare), rather than return wrapped ones: paddings
// [0, 2^62] on [4, 1] gave a stride of 2^62+1 and a buffer of 4.
func TestPaddedOverflow(t *testing.T) {
	for _, c := range []struct{ shape, pad []int }{
		{[]int{4, 1}, []int{0, 1 << 62}},
		{[]int{math.MaxInt}, []int{1}},
		{[]int{1}, []int{math.MaxInt}},
		{[]int{1 << 20, 1 << 20, 1 << 20}, []int{0, 0, 0}},
		{[]int{0, 1 << 30, 1 << 30}, []int{0, 0, 0}}, // empty, but with strides above MaxBytes
	} {
		l, n, err := Padded(c.shape, c.pad, make([]int, len(c.shape)))
		if !errors.Is(err, ErrLayout) {
			t.Errorf("Padded(%v, %v) = %v, %d, %v; want an error", c.shape, c.pad, l, n, err)
		}
	}
}

func TestBufferLenAndPacked(t *testing.T) {
	if n := Packed(3, 4, 2).BufferLen(); n != 24 {
		t.Errorf("BufferLen packed = %d", n)
	}
	l := Layout{Shape: []int{3, 4}, Strides: []int{6, 1}, Offset: 2}
	if n := l.BufferLen(); n != 2+2*6+3+1 {
		t.Errorf("BufferLen padded = %d", n)
	}
	if !Packed(3, 4).IsPacked() || l.IsPacked() {
		t.Error("IsPacked wrong")
	}
	if !(Layout{Shape: []int{1, 4}, Strides: []int{100, 1}, Offset: 7}).IsPacked() {
		t.Error("a row view is packed")
	}
	if (Layout{Shape: []int{0, 3}, Strides: []int{3, 1}}).BufferLen() != 0 {
		t.Error("empty BufferLen")
	}
}

// The ADR's example: a [2,2,5,5] NCHW float array with one element of padding
// after W and after H has element strides (72, 36, 6, 1) and a box of 144
// elements (576 bytes).
func TestPaddedADRExample(t *testing.T) {
	l, n, err := Padded([]int{2, 2, 5, 5}, []int{0, 0, 1, 1}, []int{0, 0, 0, 0})
	if err != nil {
		t.Fatal(err)
	}
	want := []int{72, 36, 6, 1}
	for i := range want {
		if l.Strides[i] != want[i] {
			t.Fatalf("strides %v, want %v", l.Strides, want)
		}
	}
	if n*4 != 576 || l.Offset != 0 {
		t.Errorf("alloc %d bytes offset %d, want 576 and 0", n*4, l.Offset)
	}
	if err := l.Validate(n); err != nil {
		t.Error(err)
	}
	// Padding before the data moves the first element: one row and one column.
	l2, n2, err := Padded([]int{4, 4}, []int{2, 2}, []int{1, 1})
	if err != nil {
		t.Fatal(err)
	}
	if l2.Offset != 6+1 || n2 != 36 || l2.Validate(n2) != nil {
		t.Errorf("padded offset %d alloc %d", l2.Offset, n2)
	}
	if _, _, err := Padded([]int{4}, []int{1}, []int{2}); err == nil {
		t.Error("padding offset above padding accepted")
	}
}

func TestAlignedRows(t *testing.T) {
	l, n := AlignedRows([]int{3, 5}, 4)
	if l.Strides[0] != 16 || n != 48 {
		t.Errorf("aligned rows: strides %v alloc %d", l.Strides, n)
	}
	a, err := NewPadded(Float32, []int{3, 5}, []int{0, 11}, []int{0, 0})
	if err != nil {
		t.Fatal(err)
	}
	if a.Strides()[0] != 16 {
		t.Errorf("strides %v", a.Strides())
	}
}

func TestBufferAlignment(t *testing.T) {
	for n := 1; n < 40; n++ {
		b, err := NewBuffer(Float32, n)
		if err != nil {
			t.Fatal(err)
		}
		if p := uintptrOf(b); p%Alignment != 0 {
			t.Fatalf("buffer of %d at %#x is not %d-byte aligned", n, p, Alignment)
		}
	}
	if _, err := NewBuffer(Float32, -1); err == nil {
		t.Error("negative buffer accepted")
	}
	if _, err := NewBuffer(UTF8, 3); err == nil {
		t.Error("string buffer allocated")
	}
}

func TestNestCoalesces(t *testing.T) {
	a := Must(Zeros(Float32, 2, 3, 4))
	runs := 0
	eachRun1(a, func(o, n, inc int) { runs++; _ = n })
	if runs != 1 {
		t.Errorf("packed array walked in %d runs", runs)
	}
	p := Must(NewPadded(Float32, []int{2, 3, 4}, []int{0, 0, 4}, []int{0, 0, 0}))
	runs = 0
	eachRun1(p, func(o, n, inc int) {
		runs++
		if n != 4 || inc != 1 {
			t.Errorf("run of %d stride %d", n, inc)
		}
	})
	if runs != 6 {
		t.Errorf("padded array walked in %d runs, want 6", runs)
	}
}
