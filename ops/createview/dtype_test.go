package createview_test

import (
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	cv "github.com/sdgo/sdgo/ops/createview"
)

// An index vector of an integer dtype sdgo does not compute with (as a
// SameDiff file may hold) is rejected for its dtype, not read as an empty
// descriptor.
func TestIndexDTypeNamed(t *testing.T) {
	x := linspace(3, 4)
	for _, dt := range []ndarray.DType{ndarray.Int8, ndarray.Uint8, ndarray.Int16, ndarray.Uint64} {
		sz := dt.Size()
		b := make([]byte, 4*sz)
		b[0], b[2*sz], b[3*sz] = 2, 1, 1 // {2, 0, 1, 1}: all, little-endian
		buf, err := ndarray.BufferFromBytes(dt, 4, b)
		if err != nil {
			t.Fatal(err)
		}
		idx := ndarray.Must(ndarray.NewView(buf, ndarray.Packed(4)))
		_, err = cv.View(x, idx)
		if err == nil || !strings.Contains(err.Error(), dt.String()) || strings.Contains(err.Error(), "empty") {
			t.Errorf("View with a %v index: %v", dt, err)
		}
		def, _ := ops.Lookup(cv.OpName)
		_, err = def.Infer([]ops.Info{infoOf(x), {DType: dt, Shape: []int{4}, Value: idx}}, &ops.Args{})
		if err == nil || !strings.Contains(err.Error(), dt.String()) || strings.Contains(err.Error(), "empty") {
			t.Errorf("Infer with a constant %v index: %v", dt, err)
		}
	}
}
