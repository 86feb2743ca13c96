package exec_test

import (
	"testing"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// Requests are cached by their output names; a name holding the separator
// the key was joined with must not get another request's plan. Files may
// name variables with any bytes.
func TestPlanKeyNamesWithNUL(t *testing.T) {
	g := graph.New()
	a := g.Const("a", ndarray.Scalar(1.0))
	b := g.Const("b", ndarray.Scalar(2.0))
	ab := a.Add(b).Named("a\x00b")
	if ab.Err() != nil {
		t.Skipf("names with NUL are refused: %v", ab.Err())
	}
	s := exec.New(g)
	if _, err := s.Output(nil, "a", "b"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Output(nil, "x"); err == nil { // another plan becomes the last one
		t.Fatal("unknown output accepted")
	}
	out, err := s.Output(nil, "a\x00b")
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := out["a\x00b"]; !ok || got.Float() != 3 || len(out) != 1 {
		t.Errorf("output %q: got %v", "a\x00b", out)
	}
}
