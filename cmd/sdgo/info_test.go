package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/serialize"
	"github.com/sdgo/sdgo/train"
)

// withUnknownOp writes a copy of simplewhile_1.fb whose reduce_sum node is
// renamed to an op sdgo does not have, as a file from a newer SameDiff
// would hold.
func withUnknownOp(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtures, "simplewhile_1.fb"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Count(b, []byte("reduce_sum")) != 1 {
		t.Fatal("simplewhile_1.fb no longer holds reduce_sum once")
	}
	path := filepath.Join(t.TempDir(), "future.fb")
	if err := os.WriteFile(path, bytes.ReplaceAll(b, []byte("reduce_sum"), []byte("reduce_sux")), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestInfo(t *testing.T) {
	code, out, errs := sdgo(t, "info", filepath.Join(fixtures, "simplewhile_1.fb"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"simplewhile_1.fb: 28 variables, 21 ops",
		"CONSTANT (3)\n", "PLACEHOLDER (2)\n  input_0                          float32[2 2]\n  input_1                          float32[]\n",
		"ARRAY (23)\n", "  while/Exit                       float32[2 2]  from exit\n",
		"ops (21, 11 kinds)\n  identity                         4\n  enter                            3\n",
		"  loop_cond                        1\n",
		"loss variables: none", "ops sdgo lacks: none",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("info lacks %q:\n%s", want, out)
		}
	}
	// Ops sdgo lacks are marked and listed.
	code, out, _ = sdgo(t, "info", "-arrays=false", withUnknownOp(t))
	if code != 0 || !strings.Contains(out, "reduce_sux                       1  (not implemented") ||
		!strings.Contains(out, "ops sdgo lacks: reduce_sux") || strings.Contains(out, "from exit") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	// A graph saved from Go: a stored placeholder value, losses, the
	// training configuration.
	g, _ := lossGraph(t)
	cfg := &train.Config{Updater: train.NewAdam(0.01), Features: []string{"x"}, IterationCount: 7}
	js, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	g.SetMeta(graph.MetaTrainingConfig, string(js))
	path := filepath.Join(t.TempDir(), "g.fb")
	if err := serialize.Save(path, g, &serialize.SaveOptions{PlaceholderValues: map[string]*ndarray.Array{
		"x": ndarray.Must(ndarray.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 3, 2))}}); err != nil {
		t.Fatal(err)
	}
	code, out, _ = sdgo(t, "info", path)
	for _, want := range []string{"VARIABLE (1)\n  w                                float64[2 1]\n",
		"x                                float64[-1 2]  (the file stores a value: float64[3 2])",
		"loss variables: loss", "training configuration: Adam (learning rate 0.01), features [x], labels [], 7 iterations"} {
		if !strings.Contains(out, want) {
			t.Errorf("info lacks %q:\n%s", want, out)
		}
	}
	if code != 0 {
		t.Errorf("exit %d", code)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"info"}, 2, "usage: sdgo info"},
		{[]string{"info", "nope.fb"}, 3, "nope.fb"},
		{[]string{"dot"}, 2, "usage: sdgo dot"},
		{[]string{"dot", filepath.Join(fixtures, "README.md")}, 3, "README.md"},
		{[]string{"dot", "-o", filepath.Join(t.TempDir(), "no", "such", "dir.dot"), filepath.Join(fixtures, "pad_1D.fb")}, 1, "dir.dot"},
	} {
		code, _, errs := sdgo(t, c.args...)
		if code != c.code || !strings.Contains(errs, c.want) || strings.Contains(errs, "goroutine") {
			t.Errorf("%v: exit %d, stderr %q", c.args, code, errs)
		}
	}
}

var (
	dotNode = regexp.MustCompile(`^  ("(?:[^"\\]|\\.)*") \[label="(?:[^"\\]|\\.)*", shape=(ellipse|box), [^\]]*\];$`)
	dotEdge = regexp.MustCompile(`^  ("(?:[^"\\]|\\.)*") -> ("(?:[^"\\]|\\.)*")( \[[^\]]*\])?;$`)
)

// The DOT output is well formed: every line a header, a node or an edge
// between declared nodes; one edge per op input and output; the loop's back
// edges dashed; lacking ops red.
func TestDot(t *testing.T) {
	path := withUnknownOp(t)
	g, err := serialize.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "g.dot")
	if code, _, errs := sdgo(t, "dot", "-o", out, path); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if lines[0] != `digraph "future" {` || lines[len(lines)-1] != "}" {
		t.Fatalf("not a digraph:\n%s", b)
	}
	nodes := map[string]string{}
	var edges, dashed int
	for _, l := range lines[1 : len(lines)-1] {
		if m := dotNode.FindStringSubmatch(l); m != nil {
			if _, dup := nodes[m[1]]; dup {
				t.Errorf("node %s twice", m[1])
			}
			nodes[m[1]] = l
			continue
		}
		if m := dotEdge.FindStringSubmatch(l); m != nil {
			if nodes[m[1]] == "" || nodes[m[2]] == "" {
				t.Errorf("edge before or without its nodes: %s", l)
			}
			edges++
			if strings.Contains(l, "style=dashed") {
				dashed++
			}
			continue
		}
		if !strings.HasPrefix(l, "  rankdir=") && !strings.HasPrefix(l, "  node [") && !strings.HasPrefix(l, "  edge [") {
			t.Errorf("unexpected line %q", l)
		}
	}
	want := 0
	for _, o := range g.Ops() {
		want += len(o.Inputs()) + len(o.Outputs())
	}
	if len(nodes) != len(g.Variables())+len(g.Ops()) || edges != want || dashed != 2 {
		t.Errorf("%d nodes, %d edges (%d dashed); want %d, %d (2)", len(nodes), edges, dashed, len(g.Variables())+len(g.Ops()), want)
	}
	if n := nodes[`"op:while/Sum"`]; !strings.Contains(n, `label="reduce_sux\nwhile/Sum"`) || !strings.Contains(n, "#cc0000") {
		t.Errorf("lacking op drawn as %s", n)
	}
	if got := dotQuote("a\"b\\c\nd"); got != `"a\"b\\c\nd"` {
		t.Errorf("dotQuote: %s", got)
	}
}

// halving is a schedule of this program's own, which a saved training
// configuration cannot hold.
type halving struct{}

func (halving) Value(it, _ int) float64 { return 0.1 / float64(int(1)<<min(it, 30)) }

// lossGraph returns a graph whose loss is the sum of x·w, and x.
func lossGraph(t *testing.T) (*graph.Graph, *graph.Variable) {
	t.Helper()
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, -1, 2)
	w := g.Var("w", ndarray.Must(ndarray.FromSlice([]float64{1, 2}, 2, 1)))
	x.MatMul(w).Sum().Named("loss")
	if err := g.SetLoss("loss"); err != nil {
		t.Fatal(err)
	}
	return g, x
}

// A training configuration info cannot read (one with a schedule of the
// program's own) is reported with the reason, not as absent: info said
// "training configuration: none" of a file that has one.
func TestInfoUnreadableTrainingConfig(t *testing.T) {
	g, _ := lossGraph(t)
	js, err := json.Marshal(&train.Config{Updater: &train.SGD{LR: halving{}}, Features: []string{"x"}, IterationCount: 3})
	if err != nil {
		t.Fatal(err)
	}
	g.SetMeta(graph.MetaTrainingConfig, string(js))
	path := filepath.Join(t.TempDir(), "g.fb")
	if err := serialize.Save(path, g, nil); err != nil {
		t.Fatal(err)
	}
	code, out, _ := sdgo(t, "info", path)
	if code != 0 || !strings.Contains(out, "training configuration: unreadable: ") || !strings.Contains(out, "main.halving") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}
