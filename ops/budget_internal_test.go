package ops

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
)

func TestReserve(t *testing.T) {
	defer ndarray.SetAllocLimit(ndarray.SetAllocLimit(64 << 20))
	for _, c := range []struct {
		dims []int
		want string // "" for no error
	}{
		{[]int{1 << 10}, ""},
		{[]int{4, 1 << 10, 1 << 10}, ""},
		// A size 0 anywhere is nothing to allocate, whatever the others.
		{[]int{math.MaxInt, 0, math.MaxInt}, ""},
		{[]int{1 << 30}, "above the memory budget"},
		// Products that overflow an int are refused, not wrapped around.
		{[]int{1 << 40, 1 << 40}, "one allocation may take"},
		{[]int{math.MaxInt, math.MaxInt, 2}, "one allocation may take"},
		{[]int{3, -1}, "negative size"},
	} {
		err := reserve[float64]("some_op", c.dims...)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%v: %v", c.dims, err)
		case c.want == "":
		case err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "some_op"):
			t.Errorf("%v: error %v; want one naming the op and saying %q", c.dims, err, c.want)
		case c.want != "negative size" && !errors.Is(err, ndarray.ErrTooLarge):
			t.Errorf("%v: error %v does not wrap ErrTooLarge", c.dims, err)
		}
	}
	// Above the largest allocation whatever the budget.
	defer ndarray.SetAllocLimit(ndarray.SetAllocLimit(math.MaxInt))
	if err := reserve[int64]("some_op", 1<<38); !errors.Is(err, ndarray.ErrTooLarge) {
		t.Errorf("2^38 int64s with no budget: %v", err)
	}
}
