package graph_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

func TestVariablesAndLookup(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float32, -1, 3)
	w := g.Var("w", ndarray.Must(ndarray.Zeros(ndarray.Float32, 3, 2)))
	c := g.Const("", ndarray.Scalar(float32(2)))
	y := x.MatMul(w).Mul(c)
	if x.Type() != graph.PLACEHOLDER || w.Type() != graph.VARIABLE || c.Type() != graph.CONSTANT || y.Type() != graph.ARRAY {
		t.Errorf("types %v %v %v %v", x.Type(), w.Type(), c.Type(), y.Type())
	}
	if c.Name() != "constant" || y.Op().OpName() != "multiply" {
		t.Errorf("automatic names: %q, %q", c.Name(), y.Op().OpName())
	}
	if got := y.Shape(); len(got) != 2 || got[0] != -1 || got[1] != 2 {
		t.Errorf("inferred shape %v", got)
	}
	if v, ok := g.Variable("w"); !ok || v != w {
		t.Error("lookup by name")
	}
	if len(g.VariablesOf(graph.VARIABLE)) != 1 || len(g.Ops()) != 2 {
		t.Errorf("%d variables, %d ops", len(g.VariablesOf(graph.VARIABLE)), len(g.Ops()))
	}
	s := g.Summary()
	for _, want := range []string{"PLACEHOLDER x", "float32[-1 3]", "= matmul(x, w)"} {
		if !strings.Contains(strings.Join(strings.Fields(s), " "), want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
	if err := w.SetValue(ndarray.Must(ndarray.Zeros(ndarray.Float32, 2, 3))); err == nil {
		t.Error("SetValue of another shape accepted")
	}
	if err := x.SetValue(ndarray.Must(ndarray.Zeros(ndarray.Float32, 1, 3))); err == nil {
		t.Error("SetValue on a placeholder accepted")
	}
}

func TestLossAndRenameErrors(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 2)
	i := g.Placeholder("i", ndarray.Int32, 2)
	s := x.Sum().Named("s")
	if err := g.SetLoss("nope"); err == nil {
		t.Error("a missing loss accepted")
	}
	if err := g.SetLoss("i"); err == nil {
		t.Error("an int32 loss accepted")
	}
	if err := g.SetLoss("s"); err != nil || g.Losses()[0] != "s" {
		t.Fatalf("SetLoss: %v %v", err, g.Losses())
	}
	// Renaming a loss keeps it the loss.
	if err := g.Rename(s, "total"); err != nil || g.Losses()[0] != "total" {
		t.Errorf("rename of the loss: %v %v", err, g.Losses())
	}
	if err := g.Rename(s, "x"); err == nil {
		t.Error("rename onto a taken name accepted")
	}
	_ = i
	if v := g.Placeholder("bad", ndarray.Float32, 2, -5); v.Err() == nil || !errors.Is(v.Err(), graph.ErrBuild) {
		t.Errorf("placeholder size -5: %v", v.Err())
	}
	if v := graph.New().Placeholder("huge", ndarray.Float32, 1<<32, -1, 1<<32); v.Err() == nil || !errors.Is(v.Err(), graph.ErrBuild) {
		t.Errorf("placeholder of 2^64 elements: %v", v.Err())
	}
	if v := graph.New().Placeholder("wide", ndarray.Float32, make([]int, ndarray.MaxRank+1)...); v.Err() == nil {
		t.Errorf("placeholder of rank %d accepted", ndarray.MaxRank+1)
	}
	if v := g.Var("nil", nil); v.Err() == nil {
		t.Error("a variable without a value accepted")
	}
}

func TestOpSpecs(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float32, 2)
	other := graph.New().Placeholder("y", ndarray.Float32, 2)
	if _, err := g.Op("add", ops.Args{}, x, other); err == nil || !strings.Contains(err.Error(), "another graph") {
		t.Errorf("input from another graph: %v", err)
	}
	if _, err := g.AddOp(graph.OpSpec{OpName: "add", Inputs: []*graph.Variable{x, x}, ForceOpaque: true}); err == nil {
		t.Error("ForceOpaque without anything to keep accepted")
	}
	o, err := g.AddOp(graph.OpSpec{Name: "kept", OpName: "add", Inputs: []*graph.Variable{x, x}, ForceOpaque: true, Opaque: "node",
		OutputInfos: []ops.Info{{DType: ndarray.Float32}}})
	if err != nil || o.Def() != nil || o.OpName() != "add" || o.Opaque() != "node" {
		t.Errorf("forced opaque op: %v %v", o, err)
	}
	if _, err := g.AddOp(graph.OpSpec{Name: "kept", OpName: "neg", Inputs: []*graph.Variable{x}}); err == nil {
		t.Error("a second op named kept accepted")
	}
	if _, err := g.AddOp(graph.OpSpec{OpName: "neg", Inputs: []*graph.Variable{x}, OutputNames: []string{"x"}}); err == nil {
		t.Error("an output named like an existing variable accepted")
	}
	if err := g.AddBackEdge(o, x); err == nil {
		t.Error("a back edge into a non-merge accepted")
	}
}

func TestControlFlowBuildErrors(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float32, 2)
	i := g.Placeholder("i", ndarray.Int32, 2)
	p := g.Placeholder("p", ndarray.Bool)
	if _, err := g.If(p, []*graph.Variable{x},
		func(in []*graph.Variable) []*graph.Variable { return in },
		func(in []*graph.Variable) []*graph.Variable { return []*graph.Variable{i} }); err == nil || !strings.Contains(err.Error(), "int32") {
		t.Errorf("branches of different dtypes: %v", err)
	}
	if _, err := g.If(x, []*graph.Variable{x},
		func(in []*graph.Variable) []*graph.Variable { return in },
		func(in []*graph.Variable) []*graph.Variable { return in }); err == nil {
		t.Error("a float predicate accepted")
	}
	if _, err := g.While([]*graph.Variable{x},
		func(v []*graph.Variable) *graph.Variable { return v[0].Sum() },
		func(v []*graph.Variable) []*graph.Variable { return v }); err == nil || !strings.Contains(err.Error(), "not bool") {
		t.Errorf("a float loop condition: %v", err)
	}
	if _, err := g.While([]*graph.Variable{x},
		func(v []*graph.Variable) *graph.Variable { return v[0].Sum().Gt(g.Scalar(ndarray.Float32, 0)) },
		func(v []*graph.Variable) []*graph.Variable { return []*graph.Variable{v[0].Reshape(1, 2)} }); err == nil || !strings.Contains(err.Error(), "shape") {
		t.Errorf("a body that changes the shape: %v", err)
	}
	if _, err := g.While(nil, nil, nil); err == nil {
		t.Error("a loop without variables accepted")
	}
}

// Shapes no array can have are build errors that name the op and the
// shape, not failures at run time or panics in shape inference.
func TestImpossibleShapesAreBuildErrors(t *testing.T) {
	for _, c := range []struct {
		name  string
		build func(g *graph.Graph) *graph.Variable
		want  string
	}{
		{"fill with a negative constant size", func(g *graph.Graph) *graph.Variable {
			return g.Fill(g.Const("s", ndarray.Must(ndarray.FromSlice([]int64{-3, 2}))), ndarray.Float64, 1)
		}, "shape [-3 2] has a negative size on axis 0"},
		{"tile overflowing", func(g *graph.Graph) *graph.Variable {
			return g.Apply("tile", ops.Args{I: []int64{1 << 40, 1 << 40}}, g.Placeholder("a", ndarray.Float64, 2, 3))
		}, "tile"},
		{"reshape to 2^80 elements", func(g *graph.Graph) *graph.Variable {
			return g.Placeholder("a", ndarray.Float64, -1).Reshape(1<<40, 1<<40)
		}, "too many elements"},
		{"matmul of scalars", func(g *graph.Graph) *graph.Variable {
			a := g.Placeholder("a", ndarray.Float64)
			return a.MatMul(a)
		}, "matmul of [] and []: a matrix product needs operands of rank 1 or more"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.build(graph.New()).Err()
			if err == nil || !errors.Is(err, graph.ErrBuild) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "goroutine") {
				t.Errorf("error %v, want a build error containing %q", err, c.want)
			}
		})
	}
}

// The namespaces build in the graph they belong to: an input from another
// graph is an error, not an op quietly added to that other graph.
func TestNamespacesUseTheirGraph(t *testing.T) {
	g1, g2 := graph.New(), graph.New()
	x := g1.Placeholder("x", ndarray.Float64, 2)
	for name, v := range map[string]*graph.Variable{
		"Math().Exp":     g2.Math().Exp(x),
		"NN().Softmax":   g2.NN().Softmax(x, -1),
		"Identity":       g2.Identity(x),
		"ZerosLike":      g2.ZerosLike(x),
		"Math().Max":     g2.Math().Max(x, x),
		"NN().LeakyRelu": g2.NN().LeakyRelu(x, 0.1),
	} {
		if err := v.Err(); err == nil || !strings.Contains(err.Error(), "another graph") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if n := len(g1.Ops()); n != 0 {
		t.Errorf("g1 gained %d ops", n)
	}
}

// Only the merge input that next_iteration carries round the loop is a back
// edge; the entering value and every other op's inputs are not.
func TestIsBackEdge(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float32, 2)
	if _, err := g.While([]*graph.Variable{x},
		func(v []*graph.Variable) *graph.Variable { return v[0].Sum().Gt(g.Scalar(ndarray.Float32, 0)) },
		func(v []*graph.Variable) []*graph.Variable { return []*graph.Variable{v[0].Neg()} }); err != nil {
		t.Fatal(err)
	}
	var merges, back int
	for _, o := range g.Ops() {
		for i := range o.Inputs() {
			if o.IsBackEdge(i) {
				back++
				if o.OpName() != "merge" || o.Inputs()[i].Op().OpName() != "next_iteration" || i != 1 {
					t.Errorf("%s input %d (%s) is called a back edge", o, i, o.Inputs()[i].Name())
				}
			}
		}
		if o.OpName() == "merge" {
			merges++
			if o.IsBackEdge(0) {
				t.Errorf("the entering value of %s is called a back edge", o)
			}
		}
	}
	if merges != 1 || back != 1 {
		t.Errorf("%d merges, %d back edges; want 1 and 1", merges, back)
	}
}

// PostOrder visits each op the roots need once, after its producers, goes
// round a loop's back edge without calling it a cycle, reports any other
// cycle naming an op on it, and stops at visit's error.
func TestPostOrder(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float32, 2)
	a := x.Neg()
	b := a.Add(a)
	c := b.Mul(a)
	unused := g.Math().Abs(x)
	seen := map[*graph.Op]int{}
	var order []*graph.Op
	if err := graph.PostOrder([]*graph.Op{c.Op(), b.Op(), nil}, func(o *graph.Op) error {
		seen[o] = len(order)
		order = append(order, o)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(order) != 3 || seen[a.Op()] != 0 || seen[b.Op()] != 1 || seen[c.Op()] != 2 {
		t.Errorf("order %v, want neg, add, mul", order)
	}
	if _, ok := seen[unused.Op()]; ok {
		t.Error("an op no root needs was visited")
	}
	stop := errors.New("stop")
	calls := 0
	if err := graph.PostOrder([]*graph.Op{c.Op()}, func(*graph.Op) error { calls++; return stop }); err != stop || calls != 1 {
		t.Errorf("visit's error: %v after %d calls", err, calls)
	}

	// A loop: the back edge into its merge is not a cycle.
	if _, err := g.While([]*graph.Variable{x},
		func(v []*graph.Variable) *graph.Variable { return v[0].Sum().Gt(g.Scalar(ndarray.Float32, 0)) },
		func(v []*graph.Variable) []*graph.Variable { return []*graph.Variable{v[0].Neg()} }); err != nil {
		t.Fatal(err)
	}
	if err := graph.PostOrder(g.Ops(), func(*graph.Op) error { return nil }); err != nil {
		t.Errorf("a loop called a cycle: %v", err)
	}

	// A merge fed back by anything but a next_iteration is a cycle.
	m, err := g.Op("merge", ops.Args{}, x)
	if err != nil {
		t.Fatal(err)
	}
	back := m[0].Neg().Named("back")
	if err := g.AddBackEdge(m[0].Op(), back); err != nil {
		t.Fatal(err)
	}
	err = graph.PostOrder([]*graph.Op{back.Op()}, func(*graph.Op) error { return nil })
	if !errors.Is(err, graph.ErrBuild) || !strings.Contains(err.Error(), "cycle") {
		t.Errorf("a cycle through a merge: %v", err)
	}
}

// Output names, when given, name every output of a registered op.
func TestOutputNamesCount(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float32, 2)
	_, err := g.AddOp(graph.OpSpec{OpName: "neg", Inputs: []*graph.Variable{x}, OutputNames: []string{"a", "b"}})
	if !errors.Is(err, graph.ErrBuild) || !strings.Contains(err.Error(), "gives 1 outputs, 2 names given") {
		t.Errorf("two names for one output: %v", err)
	}
	o, err := g.AddOp(graph.OpSpec{OpName: "neg", Inputs: []*graph.Variable{x}, OutputNames: []string{""}})
	if err != nil || o.Outputs()[0].Name() == "" {
		t.Errorf("an empty name is automatic: %v %v", o, err)
	}
}

// The pattern of the examples, g.SetLoss(loss.Name()), with a loss whose
// building failed: the failed variable has no name and is in no list, so
// SetLoss said only `loss variable "" does not exist`; it names the build
// error.
func TestSetLossOfAFailedVariable(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float32, 2, 3)
	loss := x.MatMul(x).Sum().Named("loss")
	err := g.SetLoss(loss.Name())
	if err == nil || !strings.Contains(err.Error(), "build error") || !strings.Contains(err.Error(), "inner sizes 3 and 2 differ") {
		t.Errorf("SetLoss of a variable whose building failed: %v, want the build error named", err)
	}
}

// TestRenameForeignVariable: Rename of another graph's variable, or of nil,
// is an error that leaves both graphs as they were. It renamed h's variable
// and entered it in g under the new name (g.Variable("x") returned h's
// variable, h.Variable("b") one named "x"), and panicked on nil.
func TestRenameForeignVariable(t *testing.T) {
	g, h := graph.New(), graph.New()
	g.Var("a", ndarray.Scalar(1.0))
	b := h.Var("b", ndarray.Scalar(2.0))
	if err := g.Rename(b, "x"); err == nil || !strings.Contains(err.Error(), `"b"`) || !strings.Contains(err.Error(), "another graph") {
		t.Errorf("renaming another graph's variable: %v", err)
	}
	if _, ok := g.Variable("x"); ok {
		t.Error(`g has a variable "x"`)
	}
	if v, ok := h.Variable("b"); !ok || v != b || b.Name() != "b" {
		t.Errorf(`h's "b" is now named %q`, b.Name())
	}
	if err := g.Rename(nil, "x"); err == nil {
		t.Error("renaming nil: no error")
	}
}

// TestRenameToTakenName: renaming to a name another variable holds, or
// declaring a second variable under it, fails with ErrNameTaken (and so
// ErrBuild), which a caller that only prefers a name tests for: autodiff
// tested the name first and renamed after, and a goroutine building on the
// same graph could take the name in between (TestBuildWhileRunning failed so
// once, with the graph left in error).
func TestRenameToTakenName(t *testing.T) {
	g := graph.New()
	a := g.Var("a", ndarray.Scalar(1.0))
	g.Var("b", ndarray.Scalar(2.0))
	err := g.Rename(a, "b")
	if !errors.Is(err, graph.ErrNameTaken) || !errors.Is(err, graph.ErrBuild) || !strings.Contains(err.Error(), `"b"`) {
		t.Errorf("rename to a taken name: %v, want ErrNameTaken naming \"b\"", err)
	}
	if a.Name() != "a" || g.Err() != nil {
		t.Errorf("after the failed rename: name %q, graph error %v", a.Name(), g.Err())
	}
	if v := g.Var("a", ndarray.Scalar(3.0)); !errors.Is(v.Err(), graph.ErrNameTaken) {
		t.Errorf("a second variable named \"a\": %v, want ErrNameTaken", v.Err())
	}
}
