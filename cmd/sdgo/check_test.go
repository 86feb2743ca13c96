package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops/createview"
	"github.com/sdgo/sdgo/serialize"
)

func TestCheck(t *testing.T) {
	// A real SameDiff file: every node loads, one line each.
	code, out, errs := sdgo(t, "check", filepath.Join(fixtures, "simplewhile_1.fb"))
	if code != 0 || errs != "" {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 5 || !strings.Contains(lines[len(lines)-1], "0 blockers") {
		t.Errorf("output:\n%s", out)
	}
	for _, l := range lines[:len(lines)-1] {
		if !strings.HasPrefix(l, "ok node ") || !strings.Contains(l, "[Java class ") {
			t.Errorf("line %q", l)
		}
	}
	if code, out, _ := sdgo(t, "check", "-q", filepath.Join(fixtures, "simplewhile_1.fb")); code != 0 || strings.Count(out, "\n") != 1 {
		t.Errorf("-q: exit %d, output:\n%s", code, out)
	}

	// A write through a view, which Java cannot load: exit 1 and the op named.
	g := graph.New()
	x := g.Var("x", ndarray.Must(ndarray.FromSlice([]float64{1, 2, 3, 4}, 2, 2)))
	x.View(createview.Point(0)).Assign(g.Const("v", ndarray.Must(ndarray.FromSlice([]float64{7, 8}, 2)))).Named("x2")
	path := filepath.Join(t.TempDir(), "view.fb")
	if err := serialize.Save(path, g, nil); err != nil {
		t.Fatal(err)
	}
	code, out, _ = sdgo(t, "check", "-q", path)
	if code != 1 || !strings.Contains(out, `BLOCKER node "view_assign" (view_assign CUSTOM`) || !strings.Contains(out, "1 blockers") ||
		strings.Contains(out, "create_view") {
		t.Errorf("view write: exit %d, output:\n%s", code, out)
	}

	// Usage: exit 2. A file that does not read or is no graph file: exit
	// 3, as for every command (what `sdgo info` gives for it too).
	if code, _, _ := sdgo(t, "check"); code != 2 {
		t.Errorf("no file: exit %d", code)
	}
	junk := filepath.Join(t.TempDir(), "junk.fb")
	if err := os.WriteFile(junk, []byte("not a graph file"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(t.TempDir(), "none.fb"), t.TempDir(), junk} {
		code, _, errs := sdgo(t, "check", p)
		if info, _, _ := sdgo(t, "info", p); code != 3 || info != 3 || !strings.Contains(errs, filepath.Base(p)) {
			t.Errorf("%s: exit %d (info: %d), %q", p, code, info, errs)
		}
	}
	if code, _, _ := sdgo(t, "check", "-h"); code != 0 {
		t.Errorf("-h: exit %d", code)
	}
}
