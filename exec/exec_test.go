package exec_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	"github.com/sdgo/sdgo/ops/createview"
)

func randn(rng *rand.Rand, dt ndarray.DType, shape ...int) *ndarray.Array {
	return ndarray.Must(ndarray.RandNormal(rng, dt, 0, 1, shape...))
}

// mlp builds softmax(tanh(x·w1+b1)·w2+b2).
func mlp(dt ndarray.DType, seed uint64) (*graph.Graph, *graph.Variable) {
	rng := rand.New(rand.NewPCG(seed, 1))
	g := graph.New()
	x := g.Placeholder("x", dt, -1, 3)
	w1 := g.Var("w1", randn(rng, dt, 3, 5))
	b1 := g.Var("b1", randn(rng, dt, 5))
	w2 := g.Var("w2", randn(rng, dt, 5, 2))
	b2 := g.Var("b2", randn(rng, dt, 2))
	h := g.Math().Tanh(x.MatMul(w1).Add(b1))
	y := g.NN().Softmax(h.MatMul(w2).Add(b2), -1).Named("y")
	return g, y
}

func TestMLPForward(t *testing.T) {
	for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
		g, y := mlp(dt, 1)
		if err := g.Err(); err != nil {
			t.Fatal(err)
		}
		if !ndarray.SameShape(y.Shape(), []int{-1, 2}) {
			t.Fatalf("inferred shape %v", y.Shape())
		}
		rng := rand.New(rand.NewPCG(9, 9))
		x := randn(rng, dt, 4, 3)
		out, err := exec.Output(g, map[string]*ndarray.Array{"x": x}, "y")
		if err != nil {
			t.Fatal(err)
		}
		got := out["y"]
		// Independent computation with ndarray calls.
		val := func(n string) *ndarray.Array { v, _ := g.Variable(n); return v.Value() }
		must := func(a *ndarray.Array, err error) *ndarray.Array {
			if err != nil {
				t.Fatal(err)
			}
			return a
		}
		h := must(ndarray.Unary(ndarray.Tanh, must(ndarray.Binary(ndarray.Add, must(ndarray.MatMul(x, val("w1"), false, false)), val("b1"))), 0))
		want := must(ndarray.Softmax(must(ndarray.Binary(ndarray.Add, must(ndarray.MatMul(h, val("w2"), false, false)), val("b2"))), -1))
		if !ndarray.AllClose(got, want, 1e-6, 1e-7) {
			t.Errorf("%v: got %v want %v", dt, got, want)
		}
	}
}

func TestFeedErrors(t *testing.T) {
	g, _ := mlp(ndarray.Float32, 1)
	s := exec.New(g)
	rng := rand.New(rand.NewPCG(1, 1))
	cases := []struct {
		feeds map[string]*ndarray.Array
		want  []string
	}{
		{map[string]*ndarray.Array{"x": randn(rng, ndarray.Float32, 4, 2)}, []string{`"x"`, "[-1 3]", "[4 2]"}},
		{map[string]*ndarray.Array{"x": randn(rng, ndarray.Float32, 3)}, []string{`"x"`, "[-1 3]", "[3]"}},
		{map[string]*ndarray.Array{"x": randn(rng, ndarray.Float64, 4, 3)}, []string{`"x"`, "float32", "float64"}},
		{map[string]*ndarray.Array{"x": randn(rng, ndarray.Float32, 4, 3), "z": randn(rng, ndarray.Float32, 1)}, []string{`"z"`, "no placeholder"}},
		{map[string]*ndarray.Array{"w1": randn(rng, ndarray.Float32, 3, 5)}, []string{`"w1"`, "not a placeholder"}},
		{map[string]*ndarray.Array{}, []string{`"x"`, "not fed"}},
	}
	for _, c := range cases {
		_, err := s.Output(c.feeds, "y")
		if err == nil {
			t.Errorf("feeds %v: no error", c.feeds)
			continue
		}
		if !errors.Is(err, exec.ErrFeed) {
			t.Errorf("error %v does not wrap ErrFeed", err)
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("error %q does not mention %s", err, w)
			}
		}
	}
	if _, err := s.Output(nil, "nope"); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("unknown output: %v", err)
	}
}

func TestBuildErrors(t *testing.T) {
	g := graph.New()
	a := g.Placeholder("a", ndarray.Float32, 2, 3)
	b := g.Placeholder("b", ndarray.Float32, 4, 5)
	c := a.MatMul(b)
	if c.Err() == nil || !strings.Contains(c.Err().Error(), "[2 3]") || !strings.Contains(c.Err().Error(), "[4 5]") {
		t.Fatalf("matmul [2 3]x[4 5]: %v", c.Err())
	}
	if !errors.Is(c.Err(), graph.ErrBuild) {
		t.Errorf("error does not wrap ErrBuild")
	}
	// The error passes through later calls, and the graph records it.
	d := g.Math().Tanh(c).Add(a)
	if d.Err() != c.Err() || g.Err() != c.Err() {
		t.Errorf("error not propagated: %v / %v", d.Err(), g.Err())
	}
	// The explicit form returns it.
	if _, err := g.Op("matmul", ops.Args{}, a, b); err == nil {
		t.Error("g.Op accepted bad shapes")
	}
	if _, err := g.Op("no_such_op", ops.Args{}, a); err == nil || !strings.Contains(err.Error(), "no_such_op") {
		t.Errorf("unknown op: %v", err)
	}
	if _, err := g.Op("add", ops.Args{}, a); err == nil || !strings.Contains(err.Error(), "2 inputs") {
		t.Errorf("wrong arity: %v", err)
	}
	if v := g.Placeholder("a", ndarray.Float32, 1); v.Err() == nil {
		t.Error("duplicate name accepted")
	}
	// Running an output that failed to build mentions the build error.
	if _, err := exec.Output(g, nil, d.Name()); err == nil || !strings.Contains(err.Error(), "build error") {
		t.Errorf("running a failed variable: %v", err)
	}
}

func TestAutomaticNames(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("", ndarray.Float64, 2)
	y := x.Add(x)
	z := x.Add(y)
	if x.Name() != "placeholder" || y.Name() != "add" || z.Name() != "add_1" {
		t.Errorf("names %q %q %q", x.Name(), y.Name(), z.Name())
	}
	if v, ok := g.Variable("add_1"); !ok || v != z {
		t.Error("lookup by name")
	}
	z.Named("z")
	if _, ok := g.Variable("add_1"); ok {
		t.Error("old name still there")
	}
	if v, ok := g.Variable("z"); !ok || v != z {
		t.Error("renamed lookup")
	}
	if w := y.Named("z"); w.Err() == nil {
		t.Error("rename onto a taken name accepted")
	}
}

type counter struct {
	mu   sync.Mutex
	pre  []string
	post int
}

func (c *counter) PreOp(ev *exec.OpEvent) error {
	c.mu.Lock()
	c.pre = append(c.pre, ev.Op.OpName())
	c.mu.Unlock()
	if ev.Outputs != nil {
		return fmt.Errorf("outputs in PreOp")
	}
	return nil
}

func (c *counter) PostOp(ev *exec.OpEvent) error {
	c.mu.Lock()
	c.post++
	c.mu.Unlock()
	if len(ev.Outputs) != len(ev.Op.Outputs()) {
		return fmt.Errorf("outputs missing in PostOp")
	}
	return nil
}

func TestRunsOnlyWhatIsNeeded(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 2)
	a := g.Math().Exp(x).Named("a")
	g.Math().Log(x).Named("unused") // would fail on negative input if it ran
	y := g.Placeholder("y", ndarray.Float64, 2)
	g.Math().Sqrt(y).Named("needs_y")
	b := a.MulScalar(2).Named("b")
	c := &counter{}
	s := exec.New(g)
	out, err := s.Exec(exec.Request{Feeds: map[string]*ndarray.Array{"x": ndarray.Must(ndarray.FromSlice([]float64{0, 1}))},
		Outputs: []string{b.Name(), a.Name()}, Listeners: []exec.Listener{c}})
	if err != nil {
		t.Fatal(err) // also proves y, needed only by needs_y, is not required
	}
	if strings.Join(c.pre, ",") != "exp,mul_scalar" || c.post != 2 {
		t.Errorf("ran %v (%d post events)", c.pre, c.post)
	}
	if out["a"].Float(1) != 2.718281828459045 || out["b"].Float(0) != 2 {
		t.Errorf("outputs %v %v", out["a"], out["b"])
	}
}

func TestListenerErrorStops(t *testing.T) {
	g, _ := mlp(ndarray.Float64, 2)
	_, err := exec.New(g).Exec(exec.Request{
		Feeds:     map[string]*ndarray.Array{"x": ndarray.Must(ndarray.Zeros(ndarray.Float64, 1, 3))},
		Outputs:   []string{"y"},
		Listeners: []exec.Listener{failing{}},
	})
	if err == nil || !strings.Contains(err.Error(), "stop here") || !strings.Contains(err.Error(), "matmul") {
		t.Errorf("listener error: %v", err)
	}
}

type failing struct{}

func (failing) PreOp(ev *exec.OpEvent) error  { return fmt.Errorf("stop here") }
func (failing) PostOp(ev *exec.OpEvent) error { return nil }

func TestOpaqueOpFailsOnlyWhenRun(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float32, 2)
	o, err := g.AddOp(graph.OpSpec{OpName: "some_future_op", Inputs: []*graph.Variable{x}, Opaque: "raw node", OutputInfos: []ops.Info{{DType: ndarray.Float32}}})
	if err != nil {
		t.Fatal(err)
	}
	y := x.MulScalar(3).Named("y")
	feeds := map[string]*ndarray.Array{"x": ndarray.Must(ndarray.FromSlice([]float32{1, 2}))}
	if _, err := exec.Output(g, feeds, "y"); err != nil {
		t.Errorf("an output that does not need the opaque op failed: %v", err)
	}
	_, err = exec.Output(g, feeds, o.Outputs()[0].Name())
	if err == nil || !strings.Contains(err.Error(), "some_future_op") {
		t.Errorf("opaque op ran or error does not name it: %v", err)
	}
	_ = y
}

func TestOpErrorsNameTheOp(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Int32, 2)
	y := g.Placeholder("y", ndarray.Int32, 2)
	q := x.Div(y).Named("q")
	feeds := map[string]*ndarray.Array{
		"x": ndarray.Must(ndarray.FromSlice([]int32{1, 2})),
		"y": ndarray.Must(ndarray.FromSlice([]int32{1, 0})),
	}
	_, err := exec.Output(g, feeds, q.Name())
	if err == nil || !strings.Contains(err.Error(), "divide") || !errors.Is(err, ndarray.ErrDivideByZero) {
		t.Errorf("division by zero: %v", err)
	}
	// A size that was -1 at build time and does not fit at run time.
	g2 := graph.New()
	a := g2.Placeholder("a", ndarray.Float64, -1, 3)
	b := g2.Placeholder("b", ndarray.Float64, -1, 3)
	c := a.Add(b)
	_, err = exec.Output(g2, map[string]*ndarray.Array{
		"a": ndarray.Must(ndarray.Zeros(ndarray.Float64, 2, 3)), "b": ndarray.Must(ndarray.Zeros(ndarray.Float64, 4, 3)),
	}, c.Name())
	if err == nil || !strings.Contains(err.Error(), "[2 3]") || !strings.Contains(err.Error(), "[4 3]") {
		t.Errorf("run-time broadcast mismatch: %v", err)
	}
}

// Running one session from many goroutines gives the same answers as a
// single run (go test -race checks the sharing).
func TestConcurrentRuns(t *testing.T) {
	g, _ := mlp(ndarray.Float64, 3)
	s := exec.New(g)
	rng := rand.New(rand.NewPCG(5, 5))
	inputs := make([]*ndarray.Array, 16)
	wants := make([]*ndarray.Array, 16)
	for i := range inputs {
		inputs[i] = randn(rng, ndarray.Float64, 1+i%4, 3)
		out, err := exec.Output(g, map[string]*ndarray.Array{"x": inputs[i]}, "y")
		if err != nil {
			t.Fatal(err)
		}
		wants[i] = out["y"]
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for r := 0; r < 20; r++ {
				i := (w*7 + r) % len(inputs)
				out, err := s.Output(map[string]*ndarray.Array{"x": inputs[i]}, "y")
				if err != nil {
					errs <- err
					return
				}
				if !ndarray.Equal(out["y"], wants[i]) {
					errs <- fmt.Errorf("run %d/%d: %v, want %v", w, r, out["y"], wants[i])
					return
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// Recycled buffers never change arrays already handed out.
func TestOutputsSurviveLaterRuns(t *testing.T) {
	g, _ := mlp(ndarray.Float32, 4)
	s := exec.New(g)
	rng := rand.New(rand.NewPCG(6, 6))
	x1 := randn(rng, ndarray.Float32, 8, 3)
	first, err := s.Output(map[string]*ndarray.Array{"x": x1}, "y")
	if err != nil {
		t.Fatal(err)
	}
	keep := ndarray.Must(ndarray.Copy(first["y"]))
	for i := 0; i < 5; i++ {
		if _, err := s.Output(map[string]*ndarray.Array{"x": randn(rng, ndarray.Float32, 8, 3)}, "y"); err != nil {
			t.Fatal(err)
		}
	}
	if !ndarray.Equal(first["y"], keep) {
		t.Error("a later run changed an earlier output")
	}
}

func BenchmarkMLPForward(b *testing.B) {
	g, _ := mlp(ndarray.Float32, 1)
	s := exec.New(g)
	x := randn(rand.New(rand.NewPCG(1, 1)), ndarray.Float32, 32, 3)
	feeds := map[string]*ndarray.Array{"x": x}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := s.Output(feeds, "y"); err != nil {
			b.Fatal(err)
		}
	}
}

// An op may skip an output nobody reads (Ctx.Needed); asking for it makes
// the op compute it, with the same value the op gives when both are read.
func TestUnneededOutputsAreSkipped(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	g := graph.New()
	x := g.Const("x", randn(rng, ndarray.Float64, 3, 4))
	w := g.Const("w", randn(rng, ndarray.Float64, 4, 2))
	d := g.Const("d", randn(rng, ndarray.Float64, 3, 2))
	outs, err := g.Op("matmul_bp", ops.Args{}, x, w, d)
	if err != nil {
		t.Fatal(err)
	}
	both, err := exec.Output(g, nil, outs[0].Name(), outs[1].Name())
	if err != nil {
		t.Fatal(err)
	}
	only, err := exec.Output(g, nil, outs[1].Name())
	if err != nil {
		t.Fatal(err)
	}
	if !ndarray.Equal(only[outs[1].Name()], both[outs[1].Name()]) {
		t.Error("dW differs when dX is not requested")
	}
	// The listener sees the skipped output as nil.
	seen := &outputsSeen{}
	if _, err := exec.New(g).Exec(exec.Request{Outputs: []string{outs[1].Name()}, Listeners: []exec.Listener{seen}}); err != nil {
		t.Fatal(err)
	}
	if len(seen.outs) != 2 || seen.outs[0] != nil || seen.outs[1] == nil {
		t.Errorf("matmul_bp outputs seen by the listener: %v", seen.outs)
	}
}

type outputsSeen struct{ outs []*ndarray.Array }

func (o *outputsSeen) PreOp(*exec.OpEvent) error { return nil }
func (o *outputsSeen) PostOp(ev *exec.OpEvent) error {
	if ev.Op.OpName() == "matmul_bp" {
		o.outs = append([]*ndarray.Array(nil), ev.Outputs...)
	}
	return nil
}

// chain builds 50 elementwise ops on a vector of n elements.
func chain(n int) (*graph.Graph, string) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float32, n)
	c := g.Const("c", ndarray.Must(ndarray.Full(ndarray.Float32, 0.5, n)))
	v := x
	for i := 0; i < 50; i++ {
		switch i % 3 {
		case 0:
			v = v.Add(c)
		case 1:
			v = v.Mul(c)
		default:
			v = g.Math().Tanh(v)
		}
	}
	return g, v.Name()
}

// BenchmarkChain50 measures the executor's overhead per op: 50 cheap ops on
// 1,000 elements (ns/op metric per graph op).
func BenchmarkChain50(b *testing.B) {
	g, out := chain(1000)
	s := exec.New(g)
	feeds := map[string]*ndarray.Array{"x": ndarray.Must(ndarray.Full(ndarray.Float32, 0.1, 1000))}
	for i := 0; i < 3; i++ {
		s.Output(feeds, out)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Output(feeds, out); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/50, "ns/graph-op")
}

// A donated feed may be overwritten: a write through a view of it then
// runs in place, and the output shares the fed buffer. Without donation the
// run copies, and the fed array is unchanged.
func TestDonatedFeedsAreWrittenInPlace(t *testing.T) {
	g := graph.New()
	state := g.Placeholder("state", ndarray.Float64, 4, 3)
	one := g.Scalar(ndarray.Float64, 1)
	next := state.View(createview.Point(-1)).AddAssign(one).Named("next")
	for _, donate := range []bool{false, true} {
		in := ndarray.Must(ndarray.Zeros(ndarray.Float64, 4, 3))
		r := exec.Request{Feeds: map[string]*ndarray.Array{"state": in}, Outputs: []string{next.Name()}}
		if donate {
			r.Donate = []string{"state"}
		}
		out, err := exec.New(g).Exec(r)
		if err != nil {
			t.Fatal(err)
		}
		shared := out["next"].SameBuffer(in)
		if shared != donate {
			t.Errorf("donate %v: output shares the fed buffer: %v", donate, shared)
		}
		if out["next"].Float(3, 2) != 1 || out["next"].Float(0, 0) != 0 {
			t.Errorf("donate %v: next = %v", donate, out["next"])
		}
		if !donate && in.Float(3, 2) != 0 {
			t.Errorf("a fed array that was not donated changed: %v", in)
		}
	}
	if _, err := exec.New(g).Exec(exec.Request{Outputs: []string{"next"}, Feeds: map[string]*ndarray.Array{"state": ndarray.Must(ndarray.Zeros(ndarray.Float64, 4, 3))}, Donate: []string{"nope"}}); err == nil {
		t.Error("donating an unfed placeholder accepted")
	}
}

// Buffers given back with Recycle that the ops never ask the pool for again
// (an op that allocates its output itself) must not pile up run after run.
func TestPoolDoesNotGrow(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 64, 8)
	s1 := x.Sum(0).Named("s1") // reductions allocate their outputs themselves
	s2 := g.Math().Exp(x).Sum(1).Named("s2")
	s := exec.New(g)
	feeds := map[string]*ndarray.Array{"x": ndarray.Must(ndarray.Zeros(ndarray.Float64, 64, 8))}
	var after100 int
	for i := 1; i <= 1000; i++ {
		out, err := s.Exec(exec.Request{Feeds: feeds, Outputs: []string{s1.Name(), s2.Name()}, Recyclable: true})
		if err != nil {
			t.Fatal(err)
		}
		s.Recycle(out[s1.Name()], out[s2.Name()])
		if i == 100 {
			after100 = s.Pooled()
		}
	}
	if after100 == 0 {
		t.Fatal("Recycle pooled nothing: the test shows nothing")
	}
	if s.Pooled() != after100 {
		t.Errorf("pooled bytes grew from %d after 100 runs to %d after 1000", after100, s.Pooled())
	}
}

// Exclusive tells the outputs of a Recyclable request that are the caller's
// alone from those that share a buffer with another output or a feed.
func TestExclusive(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 3)
	y := x.MulScalar(2).Named("y")
	g.Identity(y).Named("y2") // the same array as y
	g.Identity(x).Named("xi") // the feed itself
	x.AddScalar(1).Named("z")
	s := exec.New(g)
	feeds := map[string]*ndarray.Array{"x": ndarray.Must(ndarray.FromSlice([]float64{1, 2, 3}))}
	out, err := s.Exec(exec.Request{Feeds: feeds, Outputs: []string{"y", "y2", "xi", "z"}, Recyclable: true})
	if err != nil {
		t.Fatal(err)
	}
	if !out["y"].SameBuffer(out["y2"]) {
		t.Fatal("identity copied its input: this test needs outputs that share a buffer")
	}
	for name, want := range map[string]bool{"y": false, "y2": false, "xi": false, "z": true} {
		if got := s.Exclusive(out[name]); got != want {
			t.Errorf("Exclusive(%s) = %v, want %v", name, got, want)
		}
	}
	plain, err := s.Output(feeds, "z")
	if err != nil {
		t.Fatal(err)
	}
	if s.Exclusive(plain["z"]) {
		t.Error("an output of a request that was not Recyclable counts as exclusive")
	}
}

// Plans are cached per request and reused when requests alternate; a request
// naming an output twice gets it once; a structural change rebuilds the plan.
func TestPlanCache(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 2)
	x.Neg().Named("y")
	x.Add(x).Named("z")
	s := exec.New(g)
	feeds := map[string]*ndarray.Array{"x": ndarray.Must(ndarray.FromSlice([]float64{1, 2}))}
	run := func(names ...string) map[string]*ndarray.Array {
		t.Helper()
		out, err := s.Output(feeds, names...)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	run("y")
	py := exec.CachedPlan(s, "y")
	run("z")
	out := run("y")
	if py == nil || exec.CachedPlan(s, "y") != py {
		t.Error("alternating requests rebuilt the plan")
	}
	if got := ndarray.Values[float64](out["y"]); got[0] != -1 || got[1] != -2 {
		t.Errorf("y = %v", got)
	}
	out = run("y", "y")
	run("y", "y")
	if len(out) != 1 || ndarray.Values[float64](out["y"])[1] != -2 {
		t.Errorf("y named twice: %v", out)
	}
	g.Math().Square(x).Named("w")
	run("y")
	if exec.CachedPlan(s, "y") == py {
		t.Error("a plan outlived a change of the graph")
	}
}
