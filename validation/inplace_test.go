package validation_test

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	cv "github.com/sdgo/sdgo/ops/createview"
	"github.com/sdgo/sdgo/validation"
)

// runWith runs the named outputs with a fresh non-in-place listener.
func runWith(g *graph.Graph, feeds map[string]*ndarray.Array, names ...string) (*validation.NonInPlace, error) {
	l := validation.NewNonInPlace()
	_, err := exec.New(g).Exec(exec.Request{Feeds: feeds, Outputs: names, Listeners: []exec.Listener{l}})
	return l, err
}

func wantInPlaceErr(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil || !errors.Is(err, validation.ErrInPlace) {
		t.Fatalf("error %v, want a validation.ErrInPlace", err)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("%q does not mention %q", err, p)
		}
	}
}

// An op that writes into its input is caught, with the op (node and op
// name) and the input (index and variable) named, and the element.
func TestListenerCatchesWriteIntoInput(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 2, 2)
	y := x.MulScalar(2).Named("twice")
	z := must(t, g.Apply("test_writes_input", ops.Args{}, y).Named("z"))
	_, err := runWith(g, map[string]*ndarray.Array{"x": f64([]int{2, 2}, 1, 2, 3, 4)}, z.Name())
	wantInPlaceErr(t, err, `op "test_writes_input" (test_writes_input)`, `input 0 ("twice")`, "element [0 0] was 2, now 42")

	// Without the listener the run succeeds: the listener is what catches it.
	if _, err := exec.New(g).Output(map[string]*ndarray.Array{"x": f64([]int{2, 2}, 1, 2, 3, 4)}, z.Name()); err != nil {
		t.Fatal(err)
	}
}

// NaN equals NaN (unchanged NaN inputs pass), but the comparison is of bits:
// a NaN whose payload changed is a change.
func TestListenerComparesBits(t *testing.T) {
	nan := nanWithPayload(1)
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 3)
	y := g.Math().Abs(x).Named("y")
	if _, err := runWith(g, map[string]*ndarray.Array{"x": f64([]int{3}, 1, nan, -2)}, y.Name()); err != nil {
		t.Fatalf("an unchanged NaN input: %v", err)
	}
	z := must(t, g.Apply("test_nan_flip", ops.Args{}, x).Named("z"))
	_, err := runWith(g, map[string]*ndarray.Array{"x": f64([]int{3}, 1, nan, -2)}, z.Name())
	wantInPlaceErr(t, err, `op "test_nan_flip" (test_nan_flip)`, `input 0 ("x")`, "element [1] was NaN(0x7ff8000000000001), now NaN(0x7ff8000000000007)")
}

// A string input (no fixed element size) is compared byte for byte: a copy
// passes, a changed byte is caught.
func TestListenerComparesStrings(t *testing.T) {
	g := graph.New()
	s := g.Placeholder("s", ndarray.UTF8, 2)
	feeds := func() map[string]*ndarray.Array {
		return map[string]*ndarray.Array{"s": ndarray.Must(ndarray.FromStrings([]string{"ab", "cd"}))}
	}
	c := must(t, g.Apply("test_string_copy", ops.Args{}, s).Named("c"))
	if l, err := runWith(g, feeds(), c.Name()); err != nil || l.Stats().Inputs != 1 {
		t.Fatalf("an unchanged string input: %v, %+v", err, l.Stats())
	}
	w := must(t, g.Apply("test_string_copy", ops.Args{B: []bool{true}}, s).Named("w"))
	_, err := runWith(g, feeds(), w.Name())
	wantInPlaceErr(t, err, `(test_string_copy) changed its input 0 ("s")`, "was (bytes), now (changed bytes)")
}

func linspace(shape ...int) *ndarray.Array {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.Arange(ndarray.Float64, 1, 1, n)), shape...))
}

func idx(g *graph.Graph, x ...cv.Index) []*graph.Variable {
	var out []*graph.Variable
	for _, i := range x {
		out = append(out, g.Const("", ndarray.Must(ndarray.FromSlice(i.Descriptor()))))
	}
	return out
}

// A CreateView followed by an in-place write is not flagged: the executor
// writes in place, and the listener checks only that nothing outside the
// written view changed, and that the views alias their inputs.
func TestListenerAcceptsViewThenInPlaceWrite(t *testing.T) {
	g := graph.New()
	p := g.Placeholder("p", ndarray.Float64, 3, 4)
	x0 := p.MulScalar(1).Named("x0") // computed, so the run may overwrite it
	x1 := must(t, x0.View(cv.Point(-1), cv.Interval(1, 3)).AddAssign(g.Scalar(ndarray.Float64, 100)).Named("x1"))
	rows := must(t, x1.View(cv.Interval(-2, 3)).Named("rows")) // a view of the new version
	l, err := runWith(g, map[string]*ndarray.Array{"p": linspace(3, 4)}, rows.Name())
	if err != nil {
		t.Fatal(err)
	}
	st := l.Stats()
	if st.InPlace != 1 || st.OutsideOnly != 10 || st.Views != 1 {
		t.Errorf("stats %+v: want one in-place write with 10 elements outside it, one view", st)
	}
}

// An in-place op that writes outside its view is caught; the same op is
// fine when the executor does not let it write in place.
func TestListenerCatchesWriteOutsideView(t *testing.T) {
	g := graph.New()
	p := g.Placeholder("p", ndarray.Float64, 3, 4)
	x0 := p.MulScalar(1).Named("x0")
	in := append([]*graph.Variable{x0, g.Scalar(ndarray.Float64, 1)}, idx(g, cv.Point(-1))...)
	bad := must(t, g.Apply("test_inplace_outside", ops.Args{}, in...).Named("bad"))
	_, err := runWith(g, map[string]*ndarray.Array{"p": linspace(3, 4)}, bad.Name())
	wantInPlaceErr(t, err, `op "test_inplace_outside" (test_inplace_outside) wrote outside the view`, `input 0 ("x0")`, "element [0 0] was 1, now 1001")

	// On the placeholder itself (not the run's to overwrite) it copies.
	in[0] = p
	ok := must(t, g.Apply("test_inplace_outside", ops.Args{}, in...).Named("ok"))
	l, err := runWith(g, map[string]*ndarray.Array{"p": linspace(3, 4)}, ok.Name())
	if err != nil || l.Stats().InPlace != 0 {
		t.Errorf("copying path: %v, %+v", err, l.Stats())
	}
}

// An in-place op without a RegionFunc may change all of the input the
// executor let it overwrite.
func TestListenerExemptsInPlaceWithoutRegion(t *testing.T) {
	g := graph.New()
	p := g.Placeholder("p", ndarray.Float64, 2, 2)
	z := must(t, g.Apply("test_inplace_noregion", ops.Args{}, p.MulScalar(3)).Named("z"))
	l, err := runWith(g, map[string]*ndarray.Array{"p": linspace(2, 2)}, z.Name())
	if err != nil || l.Stats().Exempt != 1 {
		t.Errorf("%v, %+v", err, l.Stats())
	}
}

func TestListenerChecksViewsAlias(t *testing.T) {
	g := graph.New()
	p := g.Placeholder("p", ndarray.Float64, 2, 2)
	c := must(t, g.Apply("test_view_copy", ops.Args{}, p).Named("c"))
	_, err := runWith(g, map[string]*ndarray.Array{"p": linspace(2, 2)}, c.Name())
	wantInPlaceErr(t, err, `op "test_view_copy" (test_view_copy) is a view op but its output does not share input 0's ("p") buffer`)

	s := must(t, g.Apply("test_view_shifted", ops.Args{}, p).Named("s"))
	_, err = runWith(g, map[string]*ndarray.Array{"p": linspace(2, 2)}, s.Name())
	wantInPlaceErr(t, err, `op "test_view_shifted" (test_view_shifted) returned the view`, "offset 1", "offset 0")
}

// Empty arrays are exempt; an array given twice is copied once.
func TestListenerEmptyAndDuplicates(t *testing.T) {
	g := graph.New()
	e := g.Placeholder("e", ndarray.Float64, 0, 3)
	x := g.Placeholder("x", ndarray.Float64, 5)
	a := g.Math().Abs(e).Named("a")
	d := x.Add(x).Named("d")
	l, err := runWith(g, map[string]*ndarray.Array{"e": ndarray.Must(ndarray.Zeros(ndarray.Float64, 0, 3)), "x": linspace(5)}, a.Name(), d.Name())
	if err != nil {
		t.Fatal(err)
	}
	st := l.Stats()
	if st.Exempt != 1 || st.Duplicated != 1 || st.Bytes != 5*8 || st.Inputs != 1 {
		t.Errorf("stats %+v", st)
	}
}

// One listener may watch concurrent runs (run this under -race).
func TestListenerConcurrentRuns(t *testing.T) {
	g, feeds := mlp(t, ndarray.Float64)
	s := exec.New(g)
	l := validation.NewNonInPlace()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.Exec(exec.Request{Feeds: feeds, Outputs: []string{"loss"}, Listeners: []exec.Listener{l}})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if st := l.Stats(); st.Ops != 8*len(g.Ops()) {
		t.Errorf("%d ops watched, want %d", st.Ops, 8*len(g.Ops()))
	}
}
