package exec_test

import (
	"errors"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sdgo/sdgo/autodiff"
	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	"github.com/sdgo/sdgo/ops/createview"
)

// heapAlloc returns the live heap after a full collection.
func heapAlloc() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// Outputs of Recyclable requests that the caller drops (never handing them
// back with Recycle) must not be kept alive by the session: it once kept
// every one of them in its handed set, forever.
func TestDroppedRecyclableOutputsAreNotRetained(t *testing.T) {
	const n = 10000 // 80 KB of float64
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, n)
	y := x.MulScalar(2).Named("y")
	s := exec.New(g)
	feeds := map[string]*ndarray.Array{"x": ndarray.Must(ndarray.Zeros(ndarray.Float64, n))}
	run := func() *ndarray.Array {
		out, err := s.Exec(exec.Request{Feeds: feeds, Outputs: []string{y.Name()}, Recyclable: true})
		if err != nil {
			t.Fatal(err)
		}
		return out[y.Name()]
	}
	run()
	before := heapAlloc()
	const runs = 500
	for i := 0; i < runs; i++ {
		run() // dropped
	}
	// Cleanups run after the collection that finds the buffers dead.
	deadline := time.Now().Add(5 * time.Second)
	for exec.HandedCount(s) > 1 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	after := heapAlloc()
	growth := int64(after) - int64(before)
	t.Logf("%d dropped Recyclable runs of an 80 KB output: heap %d -> %d bytes (%+d), handed set %d", runs, before, after, growth, exec.HandedCount(s))
	if h := exec.HandedCount(s); h > 1 {
		t.Errorf("the session tracks %d handed buffers after %d dropped runs", h, runs)
	}
	if growth > 8<<20 {
		t.Errorf("heap grew by %d bytes over %d dropped runs", growth, runs)
	}

	// Outputs handed back still go to the pool, once.
	a := run()
	pooled := s.Pooled()
	s.Recycle(a)
	if got, want := s.Pooled()-pooled, n*8; got != want {
		t.Errorf("Recycle pooled %d more bytes, want %d", got, want)
	}
	s.Recycle(a) // a second time: ignored
	if got, want := s.Pooled()-pooled, n*8; got != want {
		t.Errorf("a second Recycle of the same output pooled %d bytes in all, want %d", got, want)
	}
	if h := exec.HandedCount(s); h > 1 {
		t.Errorf("handed set %d after recycling", h)
	}
}

// Donating a view hands over only the elements the view covers: the rest
// of its buffer is still the caller's, so the run must neither recycle the
// buffer nor write into it.
func TestDonatedViewIsNotRecycled(t *testing.T) {
	g := graph.New()
	state := g.Placeholder("state", ndarray.Float64, 4, 3)
	next := state.MulScalar(2).Named("next") // releases state after reading it
	big := g.Placeholder("big", ndarray.Float64, 2, 4, 3)
	bigOut := big.MulScalar(3).Named("bigOut") // 24 elements, like state's buffer
	one := g.Scalar(ndarray.Float64, 1)
	written := state.View(createview.Point(-1)).AddAssign(one).Named("written")

	base := ndarray.Must(ndarray.Arange(ndarray.Float64, 0, 1, 24))
	keep := ndarray.Must(ndarray.Copy(base))
	view := ndarray.Must(ndarray.NewView(base.Buffer(), ndarray.Layout{Shape: []int{4, 3}, Strides: []int{3, 1}, Offset: 12}))

	s := exec.New(g)
	out, err := s.Exec(exec.Request{Feeds: map[string]*ndarray.Array{"state": view}, Outputs: []string{next.Name()}, Donate: []string{"state"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := out[next.Name()].Float(0, 0); got != 24 {
		t.Errorf("next[0,0] = %v, want 24", got)
	}
	if p := s.Pooled(); p != 0 {
		t.Errorf("the donated view's buffer went to the pool (%d bytes pooled)", p)
	}
	// A later run allocating 24 elements must not land on base's buffer.
	if _, err := s.Exec(exec.Request{Feeds: map[string]*ndarray.Array{"big": ndarray.Must(ndarray.Full(ndarray.Float64, 5, 2, 4, 3))}, Outputs: []string{bigOut.Name()}}); err != nil {
		t.Fatal(err)
	}
	if !ndarray.Equal(base, keep) {
		t.Errorf("a later run overwrote the buffer of a donated view: %v", base)
	}
	// A write through a view of the donated view copies rather than writing
	// into the caller's buffer.
	res, err := exec.New(g).Exec(exec.Request{Feeds: map[string]*ndarray.Array{"state": view}, Outputs: []string{written.Name()}, Donate: []string{"state"}})
	if err != nil {
		t.Fatal(err)
	}
	if res[written.Name()].SameBuffer(base) {
		t.Error("a write into a donated view ran in place")
	}
	if !ndarray.Equal(base, keep) {
		t.Errorf("a write into a donated view changed the caller's buffer: %v", base)
	}

	// Donating an array that covers its whole buffer still recycles it.
	s = exec.New(g)
	whole := ndarray.Must(ndarray.Zeros(ndarray.Float64, 4, 3))
	if _, err := s.Exec(exec.Request{Feeds: map[string]*ndarray.Array{"state": whole}, Outputs: []string{next.Name()}, Donate: []string{"state"}}); err != nil {
		t.Fatal(err)
	}
	if p := s.Pooled(); p != 12*8 {
		t.Errorf("a donated whole array was not recycled: %d bytes pooled", p)
	}
}

// SetValue on a VARIABLE (same dtype and shape) keeps the cached plan, and
// the next run reads the new value; SetMeta keeps it too. SetValue on a
// CONSTANT, whose value shape inference may have read, drops it.
func TestSetValueKeepsPlans(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 2)
	w := g.Var("w", f64s(1, 2))
	c := g.Const("c", f64s(10, 20))
	y := x.Mul(w).Add(c).Named("y")
	s := exec.New(g)
	feeds := map[string]*ndarray.Array{"x": f64s(1, 1)}
	res, err := s.Output(feeds, y.Name())
	if err != nil {
		t.Fatal(err)
	}
	assertVals(t, res[y.Name()], 11, 22)
	p := exec.CachedPlan(s, y.Name())
	if p == nil {
		t.Fatal("no plan cached")
	}
	if err := w.SetValue(f64s(3, 4)); err != nil {
		t.Fatal(err)
	}
	g.SetMeta("something", 1)
	res, err = s.Output(feeds, y.Name())
	if err != nil {
		t.Fatal(err)
	}
	assertVals(t, res[y.Name()], 13, 24)
	if exec.CachedPlan(s, y.Name()) != p {
		t.Error("SetValue on a variable or SetMeta rebuilt the plan")
	}
	if err := c.SetValue(f64s(100, 200)); err != nil {
		t.Fatal(err)
	}
	res, err = s.Output(feeds, y.Name())
	if err != nil {
		t.Fatal(err)
	}
	assertVals(t, res[y.Name()], 103, 204)
	if exec.CachedPlan(s, y.Name()) == p {
		t.Error("SetValue on a constant kept the plan")
	}
}

// heapProbe samples the live heap at two iterations of a loop, from inside
// the run.
type heapProbe struct {
	op          string
	first, last int
	at          map[int]uint64
}

func (h *heapProbe) PreOp(*exec.OpEvent) error { return nil }
func (h *heapProbe) PostOp(ev *exec.OpEvent) error {
	if ev.Op.OpName() == h.op && ev.Frame != "" && (ev.Iteration == h.first || ev.Iteration == h.last) {
		h.at[ev.Iteration] = heapAlloc()
	}
	return nil
}

// loopState builds while (i < n) { i++; s = s*0.5 + x } over a state of
// size elements.
func loopState(t testing.TB, size int) *graph.Graph {
	g := graph.New()
	n := g.Placeholder("n", ndarray.Float64)
	x := g.Placeholder("x", ndarray.Float64, size)
	out, err := g.While([]*graph.Variable{g.Scalar(ndarray.Float64, 0), g.ZerosLike(x)},
		func(v []*graph.Variable) *graph.Variable { return v[0].Lt(n) },
		func(v []*graph.Variable) []*graph.Variable {
			return []*graph.Variable{v[0].AddScalar(1), v[1].MulScalar(0.5).Add(x)}
		})
	if err != nil {
		t.Fatal(err)
	}
	out[1].Named("s")
	return g
}

// A loop must not keep the values of iterations that nothing can read any
// more: a loop over a large state ran out of memory long before its
// iteration bound.
func TestLoopDropsOldIterations(t *testing.T) {
	const size, iters = 10000, 400 // 80 KB of state
	g := loopState(t, size)
	probe := &heapProbe{op: "add", first: 10, last: iters - 1, at: map[int]uint64{}}
	res, err := exec.New(g).Exec(exec.Request{
		Feeds:     map[string]*ndarray.Array{"n": scalar(iters), "x": ndarray.Must(ndarray.Full(ndarray.Float64, 1, size))},
		Outputs:   []string{"s"},
		Listeners: []exec.Listener{probe},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := res["s"].Float(0); got < 1.99 || got > 2 {
		t.Errorf("s[0] = %v, want about 2", got)
	}
	if len(probe.at) != 2 {
		t.Fatalf("the heap was sampled at iterations %v, want %d and %d", probe.at, probe.first, probe.last)
	}
	growth := int64(probe.at[probe.last]) - int64(probe.at[probe.first])
	t.Logf("heap at iteration %d: %d bytes, at iteration %d: %d bytes (%+d)", probe.first, probe.at[probe.first], probe.last, probe.at[probe.last], growth)
	if growth > 8<<20 {
		t.Errorf("the heap grew by %d bytes over %d iterations of an 80 KB loop state", growth, probe.last-probe.first)
	}
}

// BenchmarkDroppedRecyclableHeap reports the live heap after 2000
// Recyclable runs of an 80 KB output whose outputs are dropped:
//
//	go test ./exec/ -run '^$' -bench DroppedRecyclableHeap -benchtime 1x
func BenchmarkDroppedRecyclableHeap(b *testing.B) {
	const n, runs = 10000, 2000
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, n)
	y := x.MulScalar(2).Named("y")
	feeds := map[string]*ndarray.Array{"x": ndarray.Must(ndarray.Zeros(ndarray.Float64, n))}
	for i := 0; i < b.N; i++ {
		s := exec.New(g)
		before := heapAlloc()
		for r := 0; r < runs; r++ {
			if _, err := s.Exec(exec.Request{Feeds: feeds, Outputs: []string{y.Name()}, Recyclable: true}); err != nil {
				b.Fatal(err)
			}
		}
		after := heapAlloc()
		b.ReportMetric(float64(before), "heap-before-B")
		b.ReportMetric(float64(after), "heap-after-B")
		b.ReportMetric(float64(exec.HandedCount(s)), "handed")
	}
}

// BenchmarkRunawayLoopHeap reports how much the live heap grows while a
// loop over an 80 KB state runs into MaxIterations = 2000 (measured inside
// the run, at iterations 10 and 2000):
//
//	go test ./exec/ -run '^$' -bench RunawayLoopHeap -benchtime 1x
func BenchmarkRunawayLoopHeap(b *testing.B) {
	const size, max = 10000, 2000
	g := loopState(b, size)
	for i := 0; i < b.N; i++ {
		s := exec.New(g)
		s.MaxIterations = max
		probe := &heapProbe{op: "add", first: 10, last: max, at: map[int]uint64{}}
		_, err := s.Exec(exec.Request{
			Feeds:     map[string]*ndarray.Array{"n": scalar(1e9), "x": ndarray.Must(ndarray.Full(ndarray.Float64, 1, size))},
			Outputs:   []string{"s"},
			Listeners: []exec.Listener{probe},
		})
		if err == nil {
			b.Fatal("the runaway loop did not fail")
		}
		b.ReportMetric(float64(probe.at[probe.first]), "heap-iter10-B")
		b.ReportMetric(float64(probe.at[probe.last]), "heap-iter2000-B")
	}
}

// An op whose output cannot fit in memory, here a broadcast of [n,1] against
// [1,n] that was meant to be elementwise, fails the run with an error naming
// the op, and the session goes on working. It used to end the process in
// Go's allocator ("fatal error: runtime: out of memory").
func TestOutputAboveMemoryIsAnError(t *testing.T) {
	if ndarray.AllocLimit() >= 1<<39 {
		t.Skipf("this machine has %d bytes of memory, enough for the 512 GiB this test asks for", ndarray.AllocLimit())
	}
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float32, -1, 1)
	y := g.Placeholder("y", ndarray.Float32, 1, -1)
	gt := x.Gt(y).Named("gt")
	s := exec.New(g)
	feeds := map[string]*ndarray.Array{
		"x": ndarray.Must(ndarray.Zeros(ndarray.Float32, 1<<19, 1)),
		"y": ndarray.Must(ndarray.Zeros(ndarray.Float32, 1, 1<<20)),
	}
	_, err := s.Output(feeds, gt.Name())
	if !errors.Is(err, ndarray.ErrTooLarge) || !strings.Contains(err.Error(), `op "greater"`) || !strings.Contains(err.Error(), "[524288 1048576]") {
		t.Fatalf("got %v, want ErrTooLarge naming the op and the shape", err)
	}
	feeds["x"] = ndarray.Must(ndarray.FromSlice([]float32{1, 2}, 2, 1))
	feeds["y"] = ndarray.Must(ndarray.FromSlice([]float32{1.5}, 1, 1))
	out, err := s.Output(feeds, gt.Name())
	if err != nil {
		t.Fatal(err)
	}
	if want := ndarray.Must(ndarray.FromSlice([]bool{false, true}, 2, 1)); !ndarray.Equal(out["gt"], want) {
		t.Errorf("after the failed run: %v, want %v", out["gt"], want)
	}
}

// Outputs on a VARIABLE's buffer (the variable, an identity, a reshape, a
// view of it) stay as they were when a trainer later updates the variable's
// array in place; a CONSTANT's, which nothing updates, is handed out as is.
func TestOutputsOnVariablesAreCopies(t *testing.T) {
	g := graph.New()
	w := g.Var("w", ndarray.Must(ndarray.FromSlice([]float64{1, 2, 3, 4}, 2, 2)))
	c := g.Const("c", ndarray.Must(ndarray.FromSlice([]float64{5, 6}, 2)))
	id := g.Identity(w).Named("id")
	flat := w.Reshape(4).Named("flat")
	row := w.View(createview.Point(-1)).Named("row")
	s := exec.New(g)
	out, err := s.Output(nil, "w", id.Name(), flat.Name(), row.Name(), "c")
	if err != nil {
		t.Fatal(err)
	}
	// What train.Trainer.Step does to its variables.
	if err := ndarray.UnaryInto(ndarray.Neg, w.Value(), w.Value(), 0); err != nil {
		t.Fatal(err)
	}
	want := map[string][]float64{"w": {1, 2, 3, 4}, "id": {1, 2, 3, 4}, "flat": {1, 2, 3, 4}, "row": {3, 4}, "c": {5, 6}}
	for n, v := range want {
		if got := out[n].Float64s(); !slices.Equal(got, v) {
			t.Errorf("output %q = %v after the variable changed, want %v", n, got, v)
		}
	}
	if !out["c"].SameBuffer(c.Value()) {
		t.Errorf("the constant's output was copied")
	}
}

// Ops that allocate through Ctx.Alloc (add, and most others) fail the same
// way as greater above: an error wrapping ErrTooLarge that names the op and
// the shape. Ctx.Alloc has no error to return, so the executor's pool
// panicked and the run reported "op "add" ... panicked: ... (a bug in sdgo:
// please report it ...)"; and a shape with more elements than any array may
// have did not wrap ErrTooLarge at all. The README promises both.
func TestCtxAllocAboveLimitIsAnError(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float32, -1, 1)
	y := g.Placeholder("y", ndarray.Float32, 1, -1)
	sum := x.Add(y).Named("sum")
	s := exec.New(g)
	check := func(n int, shape string) {
		t.Helper()
		feeds := map[string]*ndarray.Array{
			"x": ndarray.Must(ndarray.Zeros(ndarray.Float32, n, 1)),
			"y": ndarray.Must(ndarray.Zeros(ndarray.Float32, 1, n)),
		}
		_, err := s.Output(feeds, sum.Name())
		if !errors.Is(err, ndarray.ErrTooLarge) || !strings.Contains(err.Error(), `op "add"`) || !strings.Contains(err.Error(), shape) ||
			strings.Contains(err.Error(), "panicked") {
			t.Errorf("got %v, want ErrTooLarge naming the op and the shape %s, not a panic", err, shape)
		}
	}
	check(1<<20, "[1048576 1048576]") // 2^40 elements: more than any array may have
	runtime.GC()
	prev := ndarray.SetAllocLimit(ndarray.MemoryInUse() + 1<<20)
	check(1<<10, "[1024 1024]") // 4 MiB, with 1 MiB of room in the budget
	ndarray.SetAllocLimit(prev)
	out, err := s.Output(map[string]*ndarray.Array{
		"x": ndarray.Must(ndarray.FromSlice([]float32{1, 2}, 2, 1)),
		"y": ndarray.Must(ndarray.FromSlice([]float32{10}, 1, 1)),
	}, sum.Name())
	if err != nil || !ndarray.Equal(out[sum.Name()], ndarray.Must(ndarray.FromSlice([]float32{11, 12}, 2, 1))) {
		t.Fatalf("the session after the failures: %v, %v", out[sum.Name()], err)
	}
}

// The pool keeps released buffers only of the sizes it is asked for. An
// op that allocates its output itself (argmax; cast, concat and softmax
// did, before they wrote into pooled buffers) never asks for its released buffers again:
// kept, they held up to 32 outputs of every size (2.3 GB resident in the
// views benchmark when concat allocated) and the next such op faulted in
// fresh pages instead of reusing theirs.
func TestPoolKeepsOnlySizesAskedFor(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 1000)
	x2 := g.Placeholder("x2", ndarray.Float64, 2000)
	joined := x2.Reshape(2000, 1).ArgMax(1) // 2000 int64 elements, a size no op asks the pool for
	total := joined.Sum().Named("total")
	doubled := g.Math().Exp(x).Mul(x).Named("doubled") // exp's output (1000) goes through the pool
	s := exec.New(g)
	feeds := map[string]*ndarray.Array{"x": ndarray.Must(ndarray.Zeros(ndarray.Float64, 1000)), "x2": ndarray.Must(ndarray.Zeros(ndarray.Float64, 2000))}
	for i := 0; i < 50; i++ {
		if _, err := s.Exec(exec.Request{Feeds: map[string]*ndarray.Array{"x2": feeds["x2"]}, Outputs: []string{total.Name()}}); err != nil {
			t.Fatal(err)
		}
	}
	if p := s.Pooled(); p != 0 {
		t.Errorf("50 runs releasing argmax's output left %d bytes pooled, want 0", p)
	}
	if _, err := s.Exec(exec.Request{Feeds: map[string]*ndarray.Array{"x": feeds["x"]}, Outputs: []string{doubled.Name()}}); err != nil {
		t.Fatal(err)
	}
	if p := s.Pooled(); p != 1000*8 {
		t.Errorf("exp's released output left %d bytes pooled, want %d", p, 1000*8)
	}
}

// A CONSTANT's output is its stored array (TestOutputsOnVariablesAreCopies),
// so a caller carrying a state from run to run (Example_stateThroughViews)
// may feed it back donated, as it does every other output. The run took the
// buffer for its own: the write through the view went into the constant's
// value, and the buffer, released to the pool, was handed to a later op.
// A VARIABLE's stored value fed donated must not change either.
func TestDonatedStoredValueIsNotOverwritten(t *testing.T) {
	g := graph.New()
	c := g.Const("c", ndarray.Must(ndarray.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3)))
	w := g.Var("w", ndarray.Must(ndarray.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3)))
	state := g.Placeholder("state", ndarray.Float64, 2, 3)
	state.View(createview.Point(-1)).AddAssign(g.Scalar(ndarray.Float64, 100)).Named("next")
	state.MulScalar(2).Named("twice") // releases state after reading it
	other := g.Placeholder("other", ndarray.Float64, 2, 3)
	other.MulScalar(3).Named("thrice") // 6 elements, like state's buffer

	want := []float64{1, 2, 3, 4, 5, 6}
	s := exec.New(g)
	out, err := s.Output(nil, "c")
	if err != nil {
		t.Fatal(err)
	}
	for _, fed := range []*ndarray.Array{out["c"], w.Value()} {
		if _, err := s.Exec(exec.Request{Feeds: map[string]*ndarray.Array{"state": fed}, Outputs: []string{"next"}, Donate: []string{"state"}}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Exec(exec.Request{Feeds: map[string]*ndarray.Array{"state": fed}, Outputs: []string{"twice"}, Donate: []string{"state"}}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Exec(exec.Request{Feeds: map[string]*ndarray.Array{"other": ndarray.Must(ndarray.Full(ndarray.Float64, 7, 2, 3))}, Outputs: []string{"thrice"}}); err != nil {
			t.Fatal(err)
		}
	}
	for _, v := range []*graph.Variable{c, w} {
		if got := v.Value().Float64s(); !slices.Equal(got, want) {
			t.Errorf("the stored value of %v %q changed: %v, want %v", v.Type(), v.Name(), got, want)
		}
	}
}

// Concat, stack and tile write into buffers from the session's pool: a
// graph whose large intermediates they make allocates little per run once
// warm. They allocated their outputs with ndarray.Zeros, fresh each run
// (the views benchmark's concat of a 1e7 state faulted in 600,000 pages).
func TestConcatStackTileReuseBuffers(t *testing.T) {
	const n = 1 << 16 // 512 KB of float64
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, n)
	c := g.Concat(0, x, x)                                // 2n
	c = g.Concat(0, c, x)                                 // 3n
	st := g.Stack(0, c, c)                                // 6n
	tl := g.Apply("tile", ops.Args{I: []int64{2, 1}}, st) // 12n
	y := tl.Sum().Named("y")
	s := exec.New(g)
	feeds := map[string]*ndarray.Array{"x": ndarray.Must(ndarray.Full(ndarray.Float64, 1, n))}
	run := func() {
		out, err := s.Exec(exec.Request{Feeds: feeds, Outputs: []string{y.Name()}})
		if err != nil {
			t.Fatal(err)
		}
		if v := out[y.Name()].Float64s()[0]; v != 12*n {
			t.Fatalf("sum %v, want %v", v, 12*n)
		}
	}
	perRun := bytesPerWarmRun(run)
	t.Logf("%d bytes allocated per run, intermediates of %d bytes", perRun, 23*n*8)
	if perRun > n*8/4 {
		t.Errorf("%d bytes allocated per run once warm: the intermediates (%d bytes) are not reused", perRun, 23*n*8)
	}
	if s.Pooled() < 12*n*8 {
		t.Errorf("the pool keeps %d bytes after the runs, less than the tile's output", s.Pooled())
	}
}

// The losses (softmax cross-entropy, mean squared error), their gradient
// ops and the products in multiply_bp and divide_bp write their outputs
// into buffers from the session's pool, and leave out outputs nobody reads
// (the labels' gradient). They allocated every output and temporary afresh
// each run: 24.9 arrays of the logits' size per run in this graph, then 5.3
// (the log softmax of the loss and its gradient, the squared differences,
// and divide_bp's quotient, which is summed over the batch), 0.1 since
// those temporaries go back to the pool (TestOpTemporariesReturnToPool).
func TestLossAndProductGradsReuseBuffers(t *testing.T) {
	const n, k = 64, 512 // logits of 256 KB
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, n, k)
	lab := g.Placeholder("lab", ndarray.Float64, n, k)
	rng := rand.New(rand.NewPCG(1, 2))
	w := g.Var("w", ndarray.Must(ndarray.RandNormal(rng, ndarray.Float64, 0, 1, n, k)))
	v := g.Var("v", ndarray.Must(ndarray.Full(ndarray.Float64, 2, 1, k)))
	logits := x.Mul(w).Div(v) // divide_bp sums v's gradient over the batch
	ce := g.Loss().SoftmaxCrossEntropy(lab, logits).Named("ce")
	mse := g.Loss().MeanSquaredError(lab, logits).Named("mse")
	if err := g.SetLoss(ce.Name(), mse.Name()); err != nil {
		t.Fatal(err)
	}
	grads, err := autodiff.Gradients(g, w, v)
	if err != nil {
		t.Fatal(err)
	}
	s := exec.New(g)
	feeds := map[string]*ndarray.Array{
		"x":   ndarray.Must(ndarray.RandNormal(rng, ndarray.Float64, 0, 1, n, k)),
		"lab": ndarray.Must(ndarray.Full(ndarray.Float64, 1.0/k, n, k)),
	}
	req := exec.Request{Feeds: feeds, Outputs: []string{ce.Name(), mse.Name(), grads[0].Name(), grads[1].Name()}, Recyclable: true}
	var first []float64
	run := func() {
		out, err := s.Exec(req)
		if err != nil {
			t.Fatal(err)
		}
		got := append(out[grads[1].Name()].Float64s(), out[ce.Name()].Float(), out[mse.Name()].Float())
		if first == nil {
			first = got
		} else if !slices.Equal(got, first) {
			t.Fatalf("a warm run gave v's gradient and the losses %v, the first run %v", got, first)
		}
		for _, a := range out {
			s.Recycle(a)
		}
	}
	perRun := bytesPerWarmRun(run)
	t.Logf("%d bytes allocated per run: %.1f arrays of the logits' size", perRun, float64(perRun)/(n*k*8))
	if perRun > 2*n*k*8 { // 5.3 with pooled outputs and fresh temporaries, 24.9 before
		t.Errorf("%d bytes allocated per run once warm, %.1f arrays of the logits' size: outputs are not pooled", perRun, float64(perRun)/(n*k*8))
	}
}

// bytesPerWarmRun returns the bytes run allocates, on average over 20 runs
// after two that warm up the session's pool.
func bytesPerWarmRun(run func()) uint64 {
	run()
	run()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	const runs = 20
	for i := 0; i < runs; i++ {
		run()
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / runs
}

// Pow_bp, maximum_bp, minimum_bp, squaredsubtract_bp and subtract_bp write
// their gradients into pooled buffers and compute none nobody reads (the
// exponent's gradient of w^2, five temporaries; the constant's of
// maximum(w, 0)). w^2, maximum, minimum and squared difference of a
// [256 256] float64 w allocated 20.8 arrays of w's size per warm run
// before (fails, limit 12), then 8.4 (the masks, 2(w-0), x^(y-1)·y), 2.1
// since the temporaries go back to the pool (Pow_bp's where selections
// are still allocated).
func TestOtherBinaryGradsReuseBuffers(t *testing.T) {
	const n = 256
	g := graph.New()
	rng := rand.New(rand.NewPCG(3, 4))
	w := g.Var("w", ndarray.Must(ndarray.RandNormal(rng, ndarray.Float64, 0, 1, n, n)))
	two := g.Scalar(ndarray.Float64, 2)
	zero := g.Scalar(ndarray.Float64, 0)
	sq := g.Apply("Pow", ops.Args{}, w, two)
	mx := g.Apply("maximum", ops.Args{}, w, zero)
	mn := g.Apply("minimum", ops.Args{}, w, zero)
	sd := g.Apply("squaredsubtract", ops.Args{}, w, zero)
	loss := sq.Add(mx).Add(mn).Add(sd).Sub(w).Sum().Named("loss")
	if err := g.SetLoss(loss.Name()); err != nil {
		t.Fatal(err)
	}
	grads, err := autodiff.Gradients(g, w)
	if err != nil {
		t.Fatal(err)
	}
	s := exec.New(g)
	req := exec.Request{Outputs: []string{grads[0].Name()}, Recyclable: true}
	perRun := bytesPerWarmRun(func() {
		out, err := s.Exec(req)
		if err != nil {
			t.Fatal(err)
		}
		s.Recycle(out[grads[0].Name()])
	})
	t.Logf("%d bytes allocated per run: %.1f arrays of w's size", perRun, float64(perRun)/(n*n*8))
	if perRun > 4*n*n*8 { // 8.4 before the temporaries went back to the pool
		t.Errorf("%d bytes allocated per run once warm, %.1f arrays of w's size: gradients are not pooled", perRun, float64(perRun)/(n*n*8))
	}
}

// The temporaries of the ops a training step runs go back to the session's
// pool (Ctx.Release) once each op has returned: the log softmax inside the
// softmax cross-entropy loss and its gradient, the squared differences of
// the mean squared error, divide_bp's quotient and multiply_bp's product
// summed over the batch, maximum_bp's mask. They were allocated afresh each
// step: 7.50 arrays of the logits' size per warm run in this graph (7.89 in
// float32, where the bool mask weighs more); 0.10 (0.13) now.
func TestOpTemporariesReturnToPool(t *testing.T) {
	const n, k = 64, 512 // logits of 256 KB
	for _, dt := range []ndarray.DType{ndarray.Float64, ndarray.Float32} {
		g := graph.New()
		x := g.Placeholder("x", dt, n, k)
		lab := g.Placeholder("lab", dt, n, k)
		rng := rand.New(rand.NewPCG(1, 2))
		w := g.Var("w", ndarray.Must(ndarray.RandNormal(rng, dt, 0, 1, n, k)))
		v := g.Var("v", ndarray.Must(ndarray.Full(dt, 2, 1, k)))
		u := g.Var("u", ndarray.Must(ndarray.RandNormal(rng, dt, 1, 0.1, 1, k)))
		// divide_bp and multiply_bp sum v's and u's gradients over the
		// batch; maximum_bp routes the gradient with a mask and sums the
		// scalar's.
		logits := g.Apply("maximum", ops.Args{}, x.Mul(w).Div(v).Mul(u), g.Scalar(dt, -0.5))
		ce := g.Loss().SoftmaxCrossEntropy(lab, logits).Named("ce")
		mse := g.Loss().MeanSquaredError(lab, logits).Named("mse")
		if err := g.SetLoss(ce.Name(), mse.Name()); err != nil {
			t.Fatal(err)
		}
		grads, err := autodiff.Gradients(g, w, v, u)
		if err != nil {
			t.Fatal(err)
		}
		s := exec.New(g)
		feeds := map[string]*ndarray.Array{
			"x":   ndarray.Must(ndarray.RandNormal(rng, dt, 0, 1, n, k)),
			"lab": ndarray.Must(ndarray.Full(dt, 1.0/k, n, k)),
		}
		names := []string{ce.Name(), mse.Name(), grads[0].Name(), grads[1].Name(), grads[2].Name()}
		var first []*ndarray.Array // compared without allocating
		run := func() {
			out, err := s.Exec(exec.Request{Feeds: feeds, Outputs: names, Recyclable: true})
			if err != nil {
				t.Fatal(err)
			}
			for i, nm := range names {
				if len(first) < len(names) {
					first = append(first, ndarray.Must(ndarray.Copy(out[nm])))
				} else if !ndarray.Equal(out[nm], first[i]) {
					t.Fatalf("%v: a warm run gave %s differently from the first", dt, nm)
				}
				s.Recycle(out[nm])
			}
		}
		size := float64(n * k * dt.Size())
		perRun := bytesPerWarmRun(run)
		t.Logf("%v: %d bytes allocated per run: %.2f arrays of the logits' size", dt, perRun, float64(perRun)/size)
		// Under -race the runtime allocates some 60 KB a run of its own
		// (sync.Pool drops items on purpose): 2 arrays leaves room for it
		// and still fails the 7.5 before.
		if float64(perRun) > 2*size {
			t.Errorf("%v: %d bytes allocated per run once warm, %.2f arrays of the logits' size: temporaries are not pooled", dt, perRun, float64(perRun)/size)
		}
	}
}
