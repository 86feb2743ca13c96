package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// A scalar has shape [] everywhere sdgo prints one: -json printed
// "shape": null for scalar outputs (the array's nil shape), and info showed
// a stored scalar placeholder value as int32[?], the notation of an unknown
// rank.
func TestScalarShapes(t *testing.T) {
	non2d := filepath.Join(fixtures, "non2d_0A.fb")
	code, out, errs := sdgo(t, "run", "-json", non2d, "scalarA")
	if code != 0 || !strings.Contains(out, `"shape": [],`) {
		t.Errorf("run -json of a scalar: exit %d, %s%s", code, out, errs)
	}
	code, out, errs = sdgo(t, "info", non2d)
	if code != 0 || !strings.Contains(out, "scalarA                          int32[]  (the file stores a value: int32[])") {
		t.Errorf("info: exit %d, %s%s", code, out, errs)
	}
}
