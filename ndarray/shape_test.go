package ndarray

import (
	"math"
	"strings"
	"testing"
)

// Sizes that overflow an int are errors, not wrapped sizes or panics.
func TestTileAndPadOverflow(t *testing.T) {
	x := Must(FromSlice([]float64{1, 2, 3}))
	if _, err := Tile(x, 6148914691236517206); err == nil || !strings.Contains(err.Error(), "too many") {
		t.Errorf("tile: %v", err)
	}
	if _, err := Pad(x, []int{math.MaxInt64}, []int{math.MaxInt64}, 0); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("pad: %v", err)
	}
}

// A product over an inner size of 0 is zeros, also in batches, where the
// operands' batch strides lead nowhere.
func TestMatMulInnerZero(t *testing.T) {
	for _, dt := range []DType{Float32, Float64, Int32, Int64} {
		a := Must(Zeros(dt, 2, 3, 0))
		b := Must(Zeros(dt, 2, 0, 4))
		c, err := MatMul(a, b, false, false)
		if err != nil {
			t.Fatalf("%v: %v", dt, err)
		}
		if !SameShape(c.Shape(), []int{2, 3, 4}) {
			t.Fatalf("%v: shape %v", dt, c.Shape())
		}
		for _, v := range c.Float64s() {
			if v != 0 {
				t.Fatalf("%v: %v", dt, c)
			}
		}
	}
	// Into a result that held other values.
	dst := Must(Full(Float64, 7, 3, 4))
	if err := MatMulInto(dst, Must(Zeros(Float64, 3, 0)), Must(Zeros(Float64, 0, 4)), false, false); err != nil {
		t.Fatal(err)
	}
	if dst.Float(2, 3) != 0 {
		t.Errorf("dst not zeroed: %v", dst)
	}
}

// The innermost axis of size > 1 needs a stride of at least 1: stride 0
// would put its elements in one place.
func TestValidateRejectsInnerStrideZero(t *testing.T) {
	if err := (Layout{Shape: []int{3}, Strides: []int{0}}).Validate(3); err == nil {
		t.Error("accepted shape [3] strides [0]")
	}
	if err := (Layout{Shape: []int{2, 1}, Strides: []int{1, 0}}).Validate(2); err != nil {
		t.Errorf("rejected a stride on an axis of size 1: %v", err)
	}
}

// Copy packs arrays of dtypes sdgo stores but cannot compute with too.
func TestCopyPacksNonComputable(t *testing.T) {
	raw := []byte{1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0} // uint16 1..6 as [2 3]
	buf, err := BufferFromBytes(Uint16, 6, raw)
	if err != nil {
		t.Fatal(err)
	}
	a := Must(NewView(buf, Packed(2, 3)))
	tr := Must(Permute(a, 1, 0))
	c := Must(Copy(tr))
	if !c.IsPacked() || !SameShape(c.Shape(), []int{3, 2}) {
		t.Fatalf("copy has shape %v strides %v", c.Shape(), c.Strides())
	}
	want := []byte{1, 0, 4, 0, 2, 0, 5, 0, 3, 0, 6, 0}
	if got := c.Buffer().Bytes(); string(got) != string(want) {
		t.Errorf("bytes %v, want %v", got, want)
	}
}

// No function makes an array above MaxRank: a rank-33 array from
// ExpandDims or Stack made Binary panic (its loop nest holds 32 axes).
func TestRankLimit(t *testing.T) {
	ones := func(n int) []int {
		s := make([]int, n)
		for i := range s {
			s[i] = 1
		}
		return s
	}
	a := Must(Full(Float32, 2, ones(MaxRank)...))
	for name, f := range map[string]func() (*Array, error){
		"ExpandDims first": func() (*Array, error) { return ExpandDims(a, 0) },
		"ExpandDims last":  func() (*Array, error) { return ExpandDims(a, -1) },
		"Stack":            func() (*Array, error) { return Stack(0, a, a) },
		"Reshape":          func() (*Array, error) { return Reshape(a, ones(MaxRank+1)...) },
		"BroadcastTo":      func() (*Array, error) { return BroadcastTo(a, ones(MaxRank+1)...) },
	} {
		r, err := f()
		if err == nil || !strings.Contains(err.Error(), "rank 33") {
			t.Errorf("%s of a rank-32 array: %v, %v", name, r, err)
		}
	}
	// One below the limit they reach it, and the result computes.
	b := Must(Full(Float32, 2, ones(MaxRank-1)...))
	e, err := ExpandDims(b, 3)
	if err != nil || e.Rank() != MaxRank {
		t.Fatalf("ExpandDims of a rank-31 array: %v, %v", e, err)
	}
	s, err := Stack(-1, b, b)
	if err != nil || !SameShape(s.Shape(), append(ones(MaxRank-1), 2)) {
		t.Fatalf("Stack of rank-31 arrays: %v, %v", s, err)
	}
	sum := Must(Binary(Add, e, s))
	assertShape(t, sum, append(ones(MaxRank-1), 2)...)
	assertClose(t, sum, []float64{4, 4}, 0)
}

// Tile against the index arithmetic: element i of the result is element
// i[k] mod shape[k] of a, for packed and strided inputs.
func TestTileKnownValues(t *testing.T) {
	cases := []struct{ shape, reps []int }{
		{[]int{}, []int{}},
		{[]int{3}, []int{4}},
		{[]int{1}, []int{5}},
		{[]int{2, 3}, []int{3, 2}},
		{[]int{2, 1, 3}, []int{1, 4, 1}},
		{[]int{2, 3, 2}, []int{5, 1, 3}},
		{[]int{3, 2}, []int{0, 2}},
	}
	for _, c := range cases {
		n := shapeSize(c.shape)
		a := Must(Arange(Float64, 1, 1, n))
		a = Must(Reshape(a, c.shape...))
		out := make([]int, len(c.shape))
		for i := range out {
			out[i] = c.shape[i] * c.reps[i]
		}
		want := make([]float64, 0, shapeSize(out))
		idx := make([]int, len(out))
		for range shapeSize(out) {
			src := 0
			for k := range idx {
				src = src*c.shape[k] + idx[k]%c.shape[k]
			}
			want = append(want, float64(src+1))
			for k := len(idx) - 1; k >= 0; k-- {
				if idx[k]++; idx[k] < out[k] {
					break
				}
				idx[k] = 0
			}
		}
		for name, in := range map[string]*Array{"packed": a, "strided": strided(t, a), "padded": padded(t, a)} {
			got, err := Tile(in, c.reps...)
			if err != nil {
				t.Fatalf("Tile(%v %s, %v): %v", c.shape, name, c.reps, err)
			}
			assertShape(t, got, out...)
			assertClose(t, got, want, 0)
		}
	}
}

// Tile copies with a's rank: a broadcast copy over [r0, s0, r1, s1, ...]
// had 33 axes of size above one here before reaching the empty one, and
// panicked in the loop nest although the result is empty.
func TestTileRankOfItsCopies(t *testing.T) {
	var shape, reps []int
	for range 16 {
		shape, reps = append(shape, 2), append(reps, 2)
	}
	shape, reps = append(shape, 1, 0), append(reps, 2, 1)
	r, err := Tile(Must(Zeros(Float32, shape...)), reps...)
	if err != nil {
		t.Fatal(err)
	}
	if r.Size() != 0 || r.Rank() != 18 || r.Shape()[16] != 2 {
		t.Errorf("shape %v", r.Shape())
	}
	// A rank-32 tile with values: a is [2, 1, ..., 1, 3] holding 1..6,
	// repeated twice along axes 0, 15 and 31.
	shape, reps = make([]int, MaxRank), make([]int, MaxRank)
	for i := range shape {
		shape[i], reps[i] = 1, 1
	}
	shape[0], shape[31] = 2, 3
	reps[0], reps[15], reps[31] = 2, 2, 2
	a := Must(Reshape(Must(Arange(Int32, 1, 1, 6)), shape...))
	got := Must(Tile(a, reps...))
	var want []float64
	for i := range 4 {
		for range 2 {
			for k := range 6 {
				want = append(want, float64(i%2*3+k%3+1))
			}
		}
	}
	assertClose(t, got, want, 0)
}

// TestCheckShapeEmptyHuge: an empty shape whose other sizes overflow is
// refused wherever its 0 stands (it used to pass with the 0 first).
func TestCheckShapeEmptyHuge(t *testing.T) {
	for _, s := range [][]int{{0, 1 << 62, 1 << 62}, {1 << 62, 0, 1 << 62}, {1 << 62, 1 << 62, 0}} {
		if err := CheckShape(s); err == nil || !strings.Contains(err.Error(), "too many elements") {
			t.Errorf("CheckShape(%v) = %v", s, err)
		}
	}
	for _, s := range [][]int{{0}, {0, 1 << 12, 1 << 12}, {1 << 12, 0, 1 << 12}, {}} {
		if err := CheckShape(s); err != nil {
			t.Errorf("CheckShape(%v) = %v", s, err)
		}
	}
}
