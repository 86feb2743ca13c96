package createview_test

import (
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	cv "github.com/sdgo/sdgo/ops/createview"
)

// recorder notes, for every view op of a run, whether the executor let it
// overwrite input 0 and whether its output is on input 0's buffer.
type recorder struct {
	mu  sync.Mutex
	ops map[string]opRecord
}

type opRecord struct {
	overwritable bool // the executor allowed writing into input 0
	shared       bool // output 0 is on input 0's buffer
}

func newRecorder() *recorder { return &recorder{ops: map[string]opRecord{}} }

func (r *recorder) PreOp(*exec.OpEvent) error { return nil }

func (r *recorder) PostOp(ev *exec.OpEvent) error {
	name := ev.Op.OpName()
	if name != cv.OpName && !strings.HasPrefix(name, "view_") {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ops[ev.Op.Name()] = opRecord{overwritable: ev.Overwritable[0], shared: ev.Outputs[0].SameBuffer(ev.Inputs[0])}
	return nil
}

func (r *recorder) of(v *graph.Variable) opRecord {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ops[v.Op().Name()]
}

func run(t *testing.T, g *graph.Graph, feeds map[string]*ndarray.Array, rec *recorder, outs ...*graph.Variable) []*ndarray.Array {
	t.Helper()
	if err := g.Err(); err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(outs))
	for i, v := range outs {
		names[i] = v.Name()
	}
	req := exec.Request{Feeds: feeds, Outputs: names}
	if rec != nil {
		req.Listeners = []exec.Listener{rec}
	}
	res, err := exec.New(g).Exec(req)
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]*ndarray.Array, len(outs))
	for i, n := range names {
		vals[i] = res[n]
	}
	return vals
}

// create_view run by the executor returns an array on its input's buffer,
// for constant, fed and computed indices.
func TestExecViewAliases(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, -1, 4)
	last := x.View(cv.Point(-1), cv.Interval(1, -1)).Named("last")
	idx := g.Placeholder("idx", ndarray.Int64, -1)
	dyn := x.ViewDyn(idx).Named("dyn")
	// A computed index: point(n-1) on axis 0, n from x's shape at run time:
	// {0,1,1,-1,1} + {0,0,0,1,0} * reduce_sum(shape_of(x)[0:1]).
	n := g.ShapeOf(x).View(cv.Interval(0, 1)).Sum()
	desc := g.Const("base", i64v(0, 1, 1, -1, 1)).Add(g.Const("mask", i64v(0, 0, 0, 1, 0)).Mul(n))
	comp := x.ViewDyn(desc, g.Const("all", i64v(cv.All().Descriptor()...))).Named("computed")
	if got := dyn.Shape(); got != nil {
		t.Errorf("a view with a run-time index has shape %v while building, want unknown rank", got)
	}
	if got := last.Shape(); !slices.Equal(got, []int{2}) {
		t.Errorf("x[-1, 1:-1] has shape %v while building", got)
	}
	xv := linspace(3, 4)
	rec := newRecorder()
	out := run(t, g, map[string]*ndarray.Array{"x": xv, "idx": i64v(cv.IntervalStep(-2, -1, 1, true).Descriptor()...)}, rec, last, dyn, comp)
	if !reflect.DeepEqual(out[0].Float64s(), []float64{10, 11}) {
		t.Errorf("x[-1, 1:-1] = %v", out[0])
	}
	if !reflect.DeepEqual(out[1].Float64s(), []float64{5, 6, 7, 8, 9, 10, 11, 12}) || !slices.Equal(out[1].Shape(), []int{2, 4}) {
		t.Errorf("x[-2:-1 inclusive] = %v", out[1])
	}
	// The computed point is -1 + n = 2 with n = 3: the last row.
	if !reflect.DeepEqual(out[2].Float64s(), []float64{9, 10, 11, 12}) {
		t.Errorf("x[n-1, :] = %v", out[2])
	}
	for i, o := range out {
		if !o.SameBuffer(xv) {
			t.Errorf("output %d does not share the fed array's buffer", i)
		}
	}
	for _, v := range []*graph.Variable{last, dyn, comp} {
		if !rec.of(v).shared {
			t.Errorf("%s: the executor's output is not on the input's buffer", v.Name())
		}
	}
	// A run-time index out of range is an error naming the op, the input and the shape.
	_, err := exec.New(g).Output(map[string]*ndarray.Array{"x": xv, "idx": i64v(cv.Point(-4).Descriptor()...)}, "dyn")
	if err == nil || !strings.Contains(err.Error(), "input 1") || !strings.Contains(err.Error(), "[3 4]") || !strings.Contains(err.Error(), "point -4") {
		t.Errorf("bad run-time index: %v", err)
	}
}

// A graph whose write happens in place, and the same computation with the
// old version still needed, so that the executor copies: equal results.
func TestExecWritePaths(t *testing.T) {
	build := func(keepOld bool) (*graph.Graph, []*graph.Variable, *graph.Variable, *graph.Variable) {
		g := graph.New()
		p := g.Placeholder("p", ndarray.Float64, 3, 4)
		x0 := p.MulScalar(1).Named("x0") // computed: the run owns its buffer
		x1 := x0.View(cv.Point(-1)).AddAssign(g.Const("delta", f64([]int{4}, 1, 2, 3, 4))).Named("x1")
		x2 := x1.View(cv.All(), cv.Interval(-3, -1)).Assign(g.Scalar(ndarray.Float64, 0)).Named("x2")
		x3 := x2.View(cv.NewAxis(), cv.Point(0)).MulAssign(g.Scalar(ndarray.Float64, 10)).Named("x3")
		outs := []*graph.Variable{x3}
		if keepOld {
			// Readers of every old version, created after the writes.
			outs = append(outs, x0.Sum().Named("s0"), x1.View(cv.Point(-1)).Named("v1"), x2.Sum().Named("s2"))
		}
		return g, outs, x1, x3
	}
	feed := map[string]*ndarray.Array{"p": linspace(3, 4)}
	want := f64([]int{3, 4}, 10, 0, 0, 40, 5, 0, 0, 8, 10, 0, 0, 16)

	g, outs, x1, x3 := build(false)
	rec := newRecorder()
	got := run(t, g, feed, rec, outs...)
	if !ndarray.Equal(got[0], want) {
		t.Fatalf("in-place chain: %v, want %v", got[0], want)
	}
	for _, v := range []*graph.Variable{x1, outs[0].Op().Inputs()[0], x3} {
		r := rec.of(v)
		if !r.overwritable || !r.shared {
			t.Errorf("%s: not written in place (%+v)", v.Name(), r)
		}
	}

	g, outs, x1, x3 = build(true)
	rec = newRecorder()
	got = run(t, g, feed, rec, outs...)
	if !ndarray.Equal(got[0], want) {
		t.Fatalf("copy chain: %v, want %v", got[0], want)
	}
	for _, v := range []*graph.Variable{x1, x3} {
		r := rec.of(v)
		if r.overwritable || r.shared {
			t.Errorf("%s: written in place although the old version is read later (%+v)", v.Name(), r)
		}
	}
	if s0 := got[1].Float64s()[0]; s0 != 78 {
		t.Errorf("sum of the old version x0 = %v, want 78", s0)
	}
	if !reflect.DeepEqual(got[2].Float64s(), []float64{10, 12, 14, 16}) {
		t.Errorf("x1[-1] = %v, want [10 12 14 16]", got[2])
	}
	if s2 := got[3].Float64s()[0]; s2 != 1+4+5+8+10+16 {
		t.Errorf("sum of x2 = %v", s2)
	}
	if !ndarray.Equal(feed["p"], linspace(3, 4)) {
		t.Error("the fed array changed")
	}
}

// The old version is never seen changed: a view of it taken before the
// write and read after it, and a reduction of it, see the old values.
func TestExecOldVersionReaders(t *testing.T) {
	g := graph.New()
	p := g.Placeholder("p", ndarray.Float64, 2, 3)
	x := p.AddScalar(0)
	before := x.View(cv.Point(0)).Named("before") // a view of the old version
	y := x.View(cv.Point(0)).Assign(g.Scalar(ndarray.Float64, 9)).Named("y")
	// Read the old view only after the write: before + y[0].
	z := before.Add(y.View(cv.Point(0))).Named("z")
	sum := x.Sum().Named("sum")
	rec := newRecorder()
	got := run(t, g, map[string]*ndarray.Array{"p": linspace(2, 3)}, rec, z, sum, y)
	if !reflect.DeepEqual(got[0].Float64s(), []float64{10, 11, 12}) {
		t.Errorf("old row + new row = %v, want [10 11 12]", got[0])
	}
	if got[1].Float64s()[0] != 21 {
		t.Errorf("sum of the old version = %v", got[1])
	}
	if !ndarray.Equal(got[2], f64([]int{2, 3}, 9, 9, 9, 4, 5, 6)) {
		t.Errorf("y = %v", got[2])
	}
	if rec.of(y).shared {
		t.Error("written in place while a view of the old version was still to be read")
	}
}

// VARIABLE, CONSTANT and fed values are never modified, even when nothing
// else reads them.
func TestExecLeavesStoredValues(t *testing.T) {
	g := graph.New()
	wv, cvv, pv := linspace(2, 2), linspace(2, 2), linspace(2, 2)
	w := g.Var("w", wv)
	c := g.Const("c", cvv)
	p := g.Placeholder("p", ndarray.Float64, 2, 2)
	one := g.Scalar(ndarray.Float64, 100)
	a := w.View(cv.Point(0)).AddAssign(one).Named("a")
	b := c.View(cv.All(), cv.Point(-1)).Assign(one).Named("b")
	d := p.View(cv.Point(-1), cv.Point(-1)).DivAssign(one).Named("d")
	rec := newRecorder()
	got := run(t, g, map[string]*ndarray.Array{"p": pv}, rec, a, b, d)
	for i, want := range []*ndarray.Array{f64([]int{2, 2}, 101, 102, 3, 4), f64([]int{2, 2}, 1, 100, 3, 100), f64([]int{2, 2}, 1, 2, 3, 0.04)} {
		if !ndarray.AllClose(got[i], want, 1e-15, 0) {
			t.Errorf("output %d = %v, want %v", i, got[i], want)
		}
	}
	for name, v := range map[string]*ndarray.Array{"variable": wv, "constant": cvv, "feed": pv} {
		if !ndarray.Equal(v, linspace(2, 2)) {
			t.Errorf("the %s changed: %v", name, v)
		}
	}
	for _, v := range []*graph.Variable{a, b, d} {
		if r := rec.of(v); r.overwritable || r.shared {
			t.Errorf("%s overwrote a stored value (%+v)", v.Name(), r)
		}
	}
}

// Builder errors: writing into something that is not a view, bad indices.
func TestBuilderErrors(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float32, 3, 4)
	if v := x.AddAssign(g.Scalar(ndarray.Float32, 1)); v.Err() == nil || !strings.Contains(v.Err().Error(), "not a view") {
		t.Errorf("AddAssign on a non-view: %v", v.Err())
	}
	if v := x.View(cv.Point(3)); v.Err() == nil || !strings.Contains(v.Err().Error(), "axis 0 of size 3") {
		t.Errorf("x[3]: %v", v.Err())
	}
	if v := x.View(cv.Point(0)).Assign(g.Scalar(ndarray.Float64, 1)); v.Err() == nil || !strings.Contains(v.Err().Error(), "float64") {
		t.Errorf("float64 into float32: %v", v.Err())
	}
	if v := x.View(cv.Point(0)).Assign(nil); v.Err() == nil {
		t.Error("Assign(nil) accepted")
	}
	if v := x.ViewDyn(g.Const("f", f64([]int{4}, 2, 0, 1, 1))); v.Err() == nil || !strings.Contains(v.Err().Error(), "INT64") {
		t.Errorf("float index: %v", v.Err())
	}
}
