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
