package ops

import (
	"testing"

	"github.com/sdgo/sdgo/internal/opexec"
)

// Admits: unknown ranks admit any shape, ranks must agree, and unknown
// sizes on either side match any size.
func TestInfoAdmits(t *testing.T) {
	for _, c := range []struct {
		info  Info
		shape []int
		want  bool
	}{
		{Info{UnknownRank: true}, []int{3, 4}, true},
		{Info{Shape: []int{}}, []int{}, true},
		{Info{Shape: []int{}}, []int{1}, false},
		{Info{Shape: []int{2, 3}}, []int{2, 3}, true},
		{Info{Shape: []int{2, 3}}, []int{3, 2}, false},
		{Info{Shape: []int{2, 3}}, []int{2, 3, 1}, false},
		{Info{Shape: []int{-1, 3}}, []int{7, 3}, true},
		{Info{Shape: []int{-1, 3}}, []int{7, 4}, false},
		{Info{Shape: []int{2, 3}}, []int{2, -1}, true},
	} {
		if got := c.info.Admits(c.shape); got != c.want {
			t.Errorf("%v admits %v: %v, want %v", c.info, c.shape, got, c.want)
		}
	}
}

// ResetState empties the store that contexts sharing it see too.
func TestResetState(t *testing.T) {
	var c, worker Ctx
	opexec.Of(&c).ResetState()
	opexec.Of(&worker).ShareState(opexec.Of(&c))
	c.State()["k"] = 1
	if worker.State()["k"] != 1 {
		t.Fatal("the shared store is not shared")
	}
	opexec.Of(&c).ResetState()
	if len(c.State()) != 0 || len(worker.State()) != 0 {
		t.Errorf("after ResetState: %v, %v", c.State(), worker.State())
	}
}
