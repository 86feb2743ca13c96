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
	c := Copy(tr)
	if !c.IsPacked() || !SameShape(c.Shape(), []int{3, 2}) {
		t.Fatalf("copy has shape %v strides %v", c.Shape(), c.Strides())
	}
	want := []byte{1, 0, 4, 0, 2, 0, 5, 0, 3, 0, 6, 0}
	if got := c.Buffer().Bytes(); string(got) != string(want) {
		t.Errorf("bytes %v, want %v", got, want)
	}
}
