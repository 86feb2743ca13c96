package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/serialize"
)

// saveTemp saves g as name in a temporary directory.
func saveTemp(t *testing.T, g *graph.Graph, name string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := serialize.Save(path, g, nil); err != nil {
		t.Fatal(err)
	}
	return path
}

// -timeout ends one long matmul within a bounded time, with exit 1 and a
// message naming the op (issue 23: -timeout 1s on one matmul exited 0
// after 5-6 s, the deadline asked only between ops).
func TestRunTimeoutLongMatMul(t *testing.T) {
	g := graph.New()
	shape := g.Const("shape", ndarray.Must(ndarray.FromSlice([]int64{3000, 3000})))
	a := g.Fill(shape, ndarray.Float32, 1)
	// 2.7e10 multiply-adds: 19 s on two busy cores (sdgo run without
	// -timeout, load average 12), a few seconds on a quiet machine.
	y := a.MatMul(a).Named("y")
	path := saveTemp(t, g, "mm.fb")
	start := time.Now()
	code, stdout, errs := sdgo(t, "run", "-timeout", "1s", path, y.Name())
	d := time.Since(start)
	// On a machine so busy that the fill takes the whole second, the run
	// stops before the matmul instead: exec's TestContextStopsLongOp
	// checks the stop inside the op with its inputs fed.
	if code != 1 || stdout != "" || !strings.Contains(errs, "(matmul)") || !strings.Contains(errs, "deadline exceeded") ||
		!strings.Contains(errs, "run stopped in op") && !strings.Contains(errs, "run stopped before op") {
		t.Errorf("exit %d, stdout %q, stderr %s", code, stdout, errs)
	}
	t.Logf("stopped after %v: %s", d, errs)
	if d > 4*time.Second {
		t.Errorf("stopped after %v", d)
	}
}

// -timeout covers loading: a deadline that has passed when the file is
// read stops every command that loads one, exit 1.
func TestTimeoutCoversLoading(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 2)
	v := x
	for i := 0; i < 200; i++ {
		v = v.AddScalar(1)
	}
	v.Named("y")
	path := saveTemp(t, g, "chain.fb")
	for _, cmd := range []string{"run", "gradcheck", "info", "dot"} {
		code, _, errs := sdgo(t, cmd, "-timeout", "1ns", path)
		if code != 1 || !strings.Contains(errs, "loading stopped") || !strings.Contains(errs, "deadline exceeded") {
			t.Errorf("%s -timeout 1ns: exit %d, %s", cmd, code, errs)
		}
		if code, _, errs := sdgo(t, cmd, "-timeout", "-1s", path); code != 2 || !strings.Contains(errs, "-timeout -1s is negative") {
			t.Errorf("%s -timeout -1s: exit %d, %s", cmd, code, errs)
		}
	}
}

// gradcheck -timeout ends the check of a loop that never ends, which held
// every iteration's state until it ran out of memory (issue 23).
func TestGradcheckTimeoutEndlessLoop(t *testing.T) {
	g := graph.New()
	x := g.Var("x", ndarray.Must(ndarray.Full(ndarray.Float64, 0.5, 1000)))
	out, err := g.While([]*graph.Variable{x},
		func(v []*graph.Variable) *graph.Variable { return v[0].Sum().Ge(v[0].Sum()) }, // always true
		func(v []*graph.Variable) []*graph.Variable { return []*graph.Variable{v[0].MulScalar(1)} })
	if err != nil {
		t.Fatal(err)
	}
	loss := out[0].Sum().Named("loss")
	if err := g.SetLoss(loss.Name()); err != nil {
		t.Fatal(err)
	}
	path := saveTemp(t, g, "loop.fb")
	start := time.Now()
	code, stdout, errs := sdgo(t, "gradcheck", "-timeout", "300ms", path)
	d := time.Since(start)
	if code != 1 || !strings.Contains(errs, "deadline exceeded") {
		t.Errorf("exit %d, stdout %q, stderr %s", code, stdout, errs)
	}
	t.Logf("stopped after %v: %s", d, errs)
	if d > 5*time.Second {
		t.Errorf("stopped after %v", d)
	}
}
