package exec

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"weak"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/internal/opexec"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// ErrFeed is wrapped by every error about a fed placeholder.
var ErrFeed = errors.New("bad feed")

// Listener sees every op of a run before and after it executes. Returning an
// error stops the run with that error.
type Listener interface {
	PreOp(ev *OpEvent) error
	PostOp(ev *OpEvent) error
}

// OpEvent describes one op execution. Outputs is nil in PreOp, and an
// output that nothing reads may be nil in PostOp (the op may skip it). The arrays
// belong to the run: a listener must not change them or keep them past the
// call (copy what it needs).
type OpEvent struct {
	Op      *graph.Op
	Inputs  []*ndarray.Array
	Outputs []*ndarray.Array
	// Step is the op's position in the run's plan.
	Step int
	// Frame and Iteration place the op in a loop: the frame's name (empty
	// outside loops) and the iteration, from 0.
	Frame     string
	Iteration int
	// Overwritable reports, for each input, whether the executor let the op
	// write into that input's buffer (only ops flagged InPlace do).
	Overwritable []bool
}

// Request is one run: the placeholder values, the names of the wanted
// outputs, and listeners for this run only.
type Request struct {
	Feeds     map[string]*ndarray.Array
	Outputs   []string
	Listeners []Listener
	// Recyclable lets the caller give the outputs back with
	// Session.Recycle once it is done with them.
	Recyclable bool
	// Donate names fed placeholders whose arrays the caller hands over:
	// the run may overwrite their buffers (an in-place write through a
	// view, for example), so the caller must not use them afterwards.
	// A state carried from step to step can then be updated in place,
	// each step feeding the previous step's output. An array on the buffer
	// of a VARIABLE's or CONSTANT's stored value (a constant's output is
	// its stored array) is not taken: the run copies it rather than write
	// into it or recycle it, as it does for a fed view.
	Donate []string
	// Context, when not nil, stops the run once it is done (canceled, or
	// past its deadline): the run fails before its next op with an error
	// wrapping the context's error. An op already running finishes first,
	// unless it asks the context as it goes (ops.Ctx.Stop: matmul and the
	// GEMM-based convolutions, every 2^26 multiply-adds or so), which
	// fails it with an error wrapping ndarray.ErrStopped too. A loop that
	// would run until MaxIterations can so be stopped sooner.
	Context context.Context
}

// Session runs a graph. Create one with New and reuse it: it caches plans
// and recycles buffers across runs.
type Session struct {
	g         *graph.Graph
	mu        sync.Mutex
	plans     map[string]*plan
	lastPlan  *plan // the plan of the last request
	listeners []Listener
	pool      *pool
	runs      sync.Pool // *run, for reuse
	// Parallel, when above 1, lets up to that many independent ops of a
	// plan without control flow run at the same time (runs with listeners
	// stay sequential). Set it before the session's first run.
	Parallel int
	// MaxIterations bounds every loop's iterations (DefaultMaxIterations
	// when 0); a loop that runs longer fails.
	MaxIterations int
	// handed holds the buffers of outputs of Recyclable requests that the
	// runs allocated, until they come back through Recycle. It holds them
	// weakly: a caller that drops its outputs (or an error path that never
	// recycles them) must not leave them alive here for the session's
	// lifetime. A cleanup attached to each buffer removes its entry when the
	// buffer dies; Recycle stops that cleanup, so that a buffer going round
	// pool -> output -> Recycle does not pile up cleanups.
	handed *handedSet
}

// handedSet is the session's weak set of handed-out buffers. It is apart
// from the Session so that the cleanups, which reference it, do not keep
// the session itself alive.
type handedSet struct {
	mu sync.Mutex
	m  map[weak.Pointer[ndarray.Buffer]]runtime.Cleanup
}

// add records b, unless it is recorded already.
func (h *handedSet) add(b *ndarray.Buffer) {
	wp := weak.Make(b)
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.m[wp]; ok {
		return
	}
	h.m[wp] = runtime.AddCleanup(b, h.forget, wp)
}

// forget runs when a handed buffer died without coming back.
func (h *handedSet) forget(wp weak.Pointer[ndarray.Buffer]) {
	h.mu.Lock()
	delete(h.m, wp)
	h.mu.Unlock()
}

// take removes b and reports whether it was there.
func (h *handedSet) take(b *ndarray.Buffer) bool {
	wp := weak.Make(b)
	h.mu.Lock()
	defer h.mu.Unlock()
	c, ok := h.m[wp]
	if ok {
		c.Stop()
		delete(h.m, wp)
	}
	return ok
}

// has reports whether b is there.
func (h *handedSet) has(b *ndarray.Buffer) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	_, ok := h.m[weak.Make(b)]
	return ok
}

func (h *handedSet) len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.m)
}

// DefaultPoolBytes bounds the bytes of released buffers a session keeps.
const DefaultPoolBytes = 1 << 30

// New returns a session for g.
func New(g *graph.Graph) *Session {
	s := &Session{g: g, plans: map[string]*plan{}, pool: newPool(DefaultPoolBytes),
		handed: &handedSet{m: map[weak.Pointer[ndarray.Buffer]]runtime.Cleanup{}}}
	// An allocation that would pass the memory budget empties the pool
	// first: what it keeps is live heap the budget counts. The function
	// holds the pool weakly, and goes with the session.
	wp := weak.Make(s.pool)
	remove := ndarray.OnMemoryPressure(func() {
		if p := wp.Value(); p != nil {
			p.drain()
		}
	})
	runtime.AddCleanup(s, func(remove func()) { remove() }, remove)
	return s
}

// Graph returns the session's graph.
func (s *Session) Graph() *graph.Graph { return s.g }

// AddListener adds listeners that see every later run of the session.
func (s *Session) AddListener(l ...Listener) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.listeners = append(s.listeners, l...)
}

// Output runs the graph and returns the named outputs.
func (s *Session) Output(feeds map[string]*ndarray.Array, names ...string) (map[string]*ndarray.Array, error) {
	return s.Exec(Request{Feeds: feeds, Outputs: names})
}

// Output runs g once with a new session. Use a Session to run a graph many
// times.
func Output(g *graph.Graph, feeds map[string]*ndarray.Array, names ...string) (map[string]*ndarray.Array, error) {
	return New(g).Output(feeds, names...)
}

// Exec runs a request.
func (s *Session) Exec(r Request) (map[string]*ndarray.Array, error) {
	if s == nil || s.g == nil {
		return nil, fmt.Errorf("exec: the session has no graph")
	}
	if len(r.Outputs) == 0 {
		return nil, fmt.Errorf("exec: no outputs requested")
	}
	// The plan and the values the run starts from are read in one
	// snapshot: read apart, a change to the graph in between could give
	// the run a plan built for one version of it and the leaves of another.
	var p *plan
	var ru *run
	err := s.g.Read(func(snap graph.Snapshot) error {
		var err error
		if p, err = s.planFor(snap, r.Outputs); err != nil {
			return err
		}
		ru = s.getRun(p)
		return ru.load(snap, r.Feeds, r.Donate)
	})
	if ru != nil {
		defer s.putRun(ru)
	}
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	ru.listeners = append(append(ru.listeners[:0], s.listeners...), r.Listeners...)
	s.mu.Unlock()
	ru.stop = r.Context
	opexec.Of(ru.ctx).SetStop(r.Context)
	if err := ru.exec(); err != nil {
		return nil, err
	}
	out := make(map[string]*ndarray.Array, len(p.outputs))
	for i, sl := range p.outputs {
		a := ru.vals[sl]
		if slices.Contains(ru.varBufs, a.Buffer()) {
			// A trainer updates its variables' arrays in place (package
			// train), so an output on one would change under the caller
			// at the next step: it gets a copy.
			if a, err = ndarray.Copy(a); err != nil {
				return nil, fmt.Errorf("exec: output %q: %w", p.names[i], err)
			}
		}
		out[p.names[i]] = a
	}
	if r.Recyclable {
		for n, a := range out {
			// Only a buffer the run allocated and that no other output
			// shares can be given back. Plans with control flow count
			// holds only on their leaves' buffers (see execDynamic), so
			// refs cannot tell whether other outputs share it: compare.
			if st, ok := ru.bufs[a.Buffer()]; ok && st.owned && st.refs == 1 && !sharedWithOther(out, n) {
				s.handed.add(a.Buffer())
			}
		}
	}
	return out, nil
}

// sharedWithOther reports whether another output than out[name] is on its
// buffer. Requests name few outputs: comparing allocates nothing, unlike a
// map, in a training step that should allocate nothing.
func sharedWithOther(out map[string]*ndarray.Array, name string) bool {
	b := out[name].Buffer()
	for n, a := range out {
		if n != name && a.Buffer() == b {
			return true
		}
	}
	return false
}

// planFor returns the cached plan for these outputs, or builds one from
// snap, a snapshot of the session's graph.
func (s *Session) planFor(snap graph.Snapshot, names []string) (*plan, error) {
	ver := snap.Version()
	s.mu.Lock()
	// A session mostly runs one request over and over (a training step):
	// check the last one before building the map key. (A request naming
	// an output twice never matches the plan's deduplicated names and takes
	// the map.)
	if p := s.lastPlan; p != nil && p.version == ver && slices.Equal(p.names, names) {
		s.mu.Unlock()
		return p, nil
	}
	key := planKey(names)
	p := s.plans[key]
	if p != nil && p.version == ver {
		s.lastPlan = p
		s.mu.Unlock()
		return p, nil
	}
	s.mu.Unlock()
	p, err := buildPlan(snap, dedupe(names))
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.plans[key] = p
	s.lastPlan = p
	s.mu.Unlock()
	return p, nil
}

// planKey is the plans map's key for a request's names: each name after its
// length, since a name may hold any byte (a file's names do), so no
// separator alone could keep ["a", "b"] apart from ["a\x00b"].
func planKey(names []string) string {
	var b strings.Builder
	for _, n := range names {
		b.WriteString(strconv.Itoa(len(n)))
		b.WriteByte(':')
		b.WriteString(n)
	}
	return b.String()
}

func dedupe(names []string) []string {
	seen := map[string]bool{}
	out := names[:0:0]
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// run is the state of one execution.
type run struct {
	s         *Session
	p         *plan
	vals      []*ndarray.Array
	left      []int32 // reads still to come, per slot
	bufs      map[*ndarray.Buffer]bufState
	listeners []Listener
	cur       *step             // the step running, for overwrite decisions
	varBufs   []*ndarray.Buffer // the buffers of the VARIABLEs' values
	ctx       *ops.Ctx
	stop      context.Context // Request.Context, or nil
}

// getRun returns a run for plan p, reusing the state of an earlier run.
func (s *Session) getRun(p *plan) *run {
	ru, _ := s.runs.Get().(*run)
	if ru == nil {
		ru = &run{}
		ru.ctx = ops.NewCtx("", s.pool.get, ru.overwritable)
		opexec.Of(ru.ctx).SetNeeded(ru.needed)
		opexec.Of(ru.ctx).SetRelease(s.pool.put)
		opexec.Of(ru.ctx).ResetState() // the store exists before workers share it; putRun empties it
	}
	ru.s, ru.p = s, p
	return ru
}

// putRun keeps a finished run's state for reuse, without any array.
func (s *Session) putRun(ru *run) {
	clear(ru.vals)
	clear(ru.bufs)
	clear(ru.varBufs)
	ru.varBufs = ru.varBufs[:0]
	opexec.Of(ru.ctx).ResetState() // drop what stateful ops kept (tensor arrays)
	ru.listeners = ru.listeners[:0]
	ru.p, ru.cur, ru.stop = nil, nil, nil
	opexec.Of(ru.ctx).SetStop(nil)
	s.runs.Put(ru)
}

// bufState counts the live slots that hold arrays on a buffer. owned marks
// buffers the run allocated (as opposed to feeds, variables and constants),
// which it may recycle or overwrite.
type bufState struct {
	refs  int32
	owned bool
}

// load checks the feeds and fills the leaf slots, reading the variables'
// values from snap, the snapshot the run's plan was taken from, so that
// they are those of the graph the plan is for.
func (ru *run) load(snap graph.Snapshot, feeds map[string]*ndarray.Array, donate []string) error {
	p := ru.p
	ru.vals = slices.Grow(ru.vals[:0], len(p.vars))[:len(p.vars)]
	ru.left = append(ru.left[:0], p.uses...)
	ru.varBufs = ru.varBufs[:0]
	if ru.bufs == nil {
		ru.bufs = make(map[*ndarray.Buffer]bufState, len(p.vars))
	}
	for name, a := range feeds {
		v, ok := snap.Variable(name)
		if !ok {
			return fmt.Errorf("exec: %w: no placeholder named %q", ErrFeed, name)
		}
		if v.Type() != graph.PLACEHOLDER {
			return fmt.Errorf("exec: %w: %q is a %v, not a placeholder", ErrFeed, name, v.Type())
		}
		if err := checkFeed(snap, v, a); err != nil {
			return err
		}
	}
	for _, sl := range p.leaves {
		v := p.vars[sl]
		var a *ndarray.Array
		switch v.Type() {
		case graph.PLACEHOLDER:
			a = feeds[v.Name()]
			if a == nil {
				return fmt.Errorf("exec: %w: placeholder %q (%v%v) is needed but not fed", ErrFeed, v.Name(), v.DType(), v.Shape())
			}
		case graph.VARIABLE:
			if a = snap.Value(v); a != nil {
				ru.varBufs = append(ru.varBufs, a.Buffer())
			}
		case graph.CONSTANT:
			a = snap.Value(v)
		}
		if a == nil {
			return fmt.Errorf("exec: variable %q (%v) has no value", v.Name(), v.Type())
		}
		donated := v.Type() == graph.PLACEHOLDER && slices.Contains(donate, v.Name()) && coversBuffer(a) &&
			!snap.StoresBuffer(a.Buffer())
		ru.set(sl, a, donated)
	}
	for _, n := range donate {
		if _, ok := feeds[n]; !ok {
			return fmt.Errorf("exec: %w: donated placeholder %q is not fed", ErrFeed, n)
		}
	}
	return nil
}

// coversBuffer reports whether a spans its whole buffer, packed from offset
// 0. Only such a donated array makes its buffer the run's: a view donates the
// elements it covers, not the rest of its buffer, which the caller may still
// use, so the run must neither recycle that buffer when it releases the view
// nor write into it (it is treated as not donated).
func coversBuffer(a *ndarray.Array) bool {
	return a.Offset() == 0 && a.IsPacked() && a.Size() == a.Buffer().Len()
}

func checkFeed(snap graph.Snapshot, v *graph.Variable, a *ndarray.Array) error {
	if a == nil {
		return fmt.Errorf("exec: %w: placeholder %q is fed nil", ErrFeed, v.Name())
	}
	info := snap.Info(v) // no copy of the shape
	want := info.Shape
	if info.UnknownRank {
		want = nil
	}
	if a.DType() != v.DType() {
		return fmt.Errorf("exec: %w: placeholder %q expects %v%v, given %v%v", ErrFeed, v.Name(), v.DType(), want, a.DType(), a.Shape())
	}
	if !info.Admits(a.Shape()) { // any shape when the rank is unknown
		return fmt.Errorf("exec: %w: placeholder %q expects shape %v, given shape %v", ErrFeed, v.Name(), want, a.Shape())
	}
	return nil
}

// set stores a in slot sl and counts the slot's hold on a's buffer. fresh
// says whether a's buffer is the run's: allocated by an op, or donated.
func (ru *run) set(sl int, a *ndarray.Array, fresh bool) {
	ru.vals[sl] = a
	b := a.Buffer()
	st, ok := ru.bufs[b]
	if !ok {
		st = bufState{owned: fresh}
	} else if !fresh {
		// The buffer is also held by something the run does not own (a
		// feed that was not donated, a variable, a constant, sharing a
		// donated feed's buffer): whichever leaf was loaded first, the
		// buffer is not the run's to recycle or overwrite. Ops outputs
		// (fresh) on a buffer seen before are views of it and change
		// nothing.
		st.owned = false
	}
	st.refs++
	ru.bufs[b] = st
	if ru.left[sl] == 0 {
		ru.release(sl)
	}
}

// release drops slot sl; a buffer the run owns goes back to the pool when no
// slot holds it any more.
func (ru *run) release(sl int) {
	a := ru.vals[sl]
	ru.vals[sl] = nil
	b := a.Buffer()
	st := ru.bufs[b]
	st.refs--
	if st.refs > 0 {
		ru.bufs[b] = st
		return
	}
	delete(ru.bufs, b)
	if st.owned {
		ru.s.pool.putArray(a)
	}
}

// overwritable reports whether the running step may write into input i's
// buffer: the run owns it, no other slot holds it, and this step is the
// last reader of the slot (counting an input given twice as two reads).
func (ru *run) overwritable(i int) bool { return ru.overwritableFor(ru.cur, i) }

func (ru *run) overwritableFor(st *step, i int) bool {
	// Plans with control flow keep values per frame and iteration, outside
	// the slots and reference counts this decision rests on (a loop body
	// reads a value again in every iteration): they never overwrite.
	if st == nil || ru.p.dynamic || i >= len(st.in) || st.def.Flags&ops.InPlace == 0 {
		return false
	}
	sl := st.in[i]
	b, ok := ru.bufs[ru.vals[sl].Buffer()]
	if !ok || !b.owned || b.refs != 1 {
		return false
	}
	reads := int32(0)
	for _, s := range st.in {
		if s == sl {
			reads++
		}
	}
	return ru.left[sl] == reads
}

func (ru *run) exec() error {
	if ru.p.dynamic {
		return ru.execDynamic()
	}
	if w := ru.s.Parallel; w > 1 && len(ru.listeners) == 0 && len(ru.p.steps) > 1 {
		return ru.execParallel(w)
	}
	ins := make([]*ndarray.Array, 0, 8)
	for k := range ru.p.steps {
		st := &ru.p.steps[k]
		ins = ins[:0]
		for _, sl := range st.in {
			ins = append(ins, ru.vals[sl])
		}
		outs, err := ru.runOp(st, ins, k, nil)
		if err != nil {
			return err
		}
		ru.finishStep(st, outs)
	}
	return nil
}

// finishStep stores a step's outputs and releases the inputs it was the
// last reader of.
func (ru *run) finishStep(st *step, outs []*ndarray.Array) {
	for i, sl := range st.out {
		if outs[i] != nil { // nil: not needed, checked by checkOutputs
			ru.set(sl, outs[i], true)
		}
	}
	for _, sl := range st.in {
		ru.left[sl]--
		if ru.left[sl] == 0 {
			ru.release(sl)
		}
	}
}

// runOp runs one step on its input arrays, with the listeners around it, and
// checks what the op returns. it is the loop frame iteration, nil outside
// control flow.
func (ru *run) runOp(st *step, ins []*ndarray.Array, k int, it *frameIter) ([]*ndarray.Array, error) {
	if err := ru.stopped(st, it); err != nil {
		return nil, err
	}
	ru.cur = st
	defer func() { ru.cur = nil }()
	ru.ctx.Node = st.op.Name()
	var ev *OpEvent
	if len(ru.listeners) > 0 {
		ev = &OpEvent{Op: st.op, Inputs: append([]*ndarray.Array(nil), ins...), Step: k}
		if it != nil {
			ev.Frame, ev.Iteration = it.f.name, it.iter
		}
		ev.Overwritable = make([]bool, len(ins))
		for i := range ins {
			ev.Overwritable[i] = ru.overwritable(i)
		}
		for _, l := range ru.listeners {
			if err := l.PreOp(ev); err != nil {
				return nil, fmt.Errorf("exec: listener before op %s%s: %w", st.op, inIter(it), err)
			}
		}
	}
	outs, err := callOp(st, ru.ctx, ins)
	if err != nil {
		if it != nil && it.f.parent != nil {
			err = fmt.Errorf("%w (in %v)", err, it)
		}
		return nil, err
	}
	if err := checkOutputs(st, outs, ru.needed); err != nil {
		return nil, err
	}
	if ev != nil {
		ev.Outputs = outs
		for _, l := range ru.listeners {
			if err := l.PostOp(ev); err != nil {
				return nil, fmt.Errorf("exec: listener after op %s%s: %w", st.op, inIter(it), err)
			}
		}
	}
	return outs, nil
}

// inIter is " (in <frame iteration>)" for an op inside a loop, for
// errors, and "" outside.
func inIter(it *frameIter) string {
	if it == nil || it.f.parent == nil {
		return ""
	}
	return fmt.Sprintf(" (in %v)", it)
}

// stopped returns an error when the request's context is done, naming the
// op the run stopped before (and the loop iteration, it, when not nil).
func (ru *run) stopped(st *step, it *frameIter) error {
	if ru.stop == nil {
		return nil
	}
	err := ru.stop.Err()
	if err == nil {
		return nil
	}
	if it != nil && it.f.parent != nil {
		return fmt.Errorf("exec: run stopped before op %s (in %v): %w", st.op, it, err)
	}
	return fmt.Errorf("exec: run stopped before op %s: %w", st.op, err)
}

// callOp runs one op, turning a panic into an error that names it. An
// output too large to allocate is not a bug: Ctx.Alloc has no error to
// return and panics with ndarray's ErrTooLarge, which becomes the op's
// error. The temporaries the op released (Ctx.Release) go back to the pool
// once it has returned, those its outputs lie on excepted.
func callOp(st *step, ctx *ops.Ctx, ins []*ndarray.Array) (outs []*ndarray.Array, err error) {
	hooks := opexec.Of(ctx)
	hooks.BeginOp()
	defer func() {
		if r := recover(); r != nil {
			outs = nil
			if e := ops.TooLarge(r); e != nil {
				err = fmt.Errorf("exec: op %s: %w", describe(st, ins), e)
			} else {
				err = fmt.Errorf("exec: %w", ops.Recovered("op "+describe(st, ins), r))
			}
		}
		hooks.EndOp(outs)
	}()
	outs, err = st.def.Run(ctx, ins, st.op.Args())
	if err != nil {
		if errors.Is(err, ndarray.ErrStopped) {
			// A long kernel asked the request's context (ops.Ctx.Stop).
			if e := hooks.StopErr(); e != nil && !errors.Is(err, e) {
				err = fmt.Errorf("%w: %w", err, e)
			}
			return nil, fmt.Errorf("exec: run stopped in op %s: %w", describe(st, ins), err)
		}
		return nil, fmt.Errorf("exec: op %s: %w", describe(st, ins), err)
	}
	return outs, nil
}

// describeMax is the most inputs an error describes one by one: a concat
// of thousands would otherwise make a message of hundreds of KB.
const describeMax = 8

// describe names an op and its inputs' run-time dtypes and shapes.
func describe(st *step, ins []*ndarray.Array) string {
	parts := make([]string, 0, min(len(ins), describeMax+1))
	for i, a := range ins {
		if i == describeMax-1 && len(ins) > describeMax {
			parts = append(parts, fmt.Sprintf("and %d more", len(ins)-i))
			break
		}
		parts = append(parts, fmt.Sprintf("%s %v%v", st.op.Inputs()[i].Name(), a.DType(), a.Shape()))
	}
	return fmt.Sprintf("%q (%s) with inputs [%s]", st.op.Name(), st.op.OpName(), strings.Join(parts, ", "))
}

// checkOutputs compares what an op returned with what was inferred when the
// graph was built.
func checkOutputs(st *step, outs []*ndarray.Array, needed func(int) bool) error {
	if len(outs) != len(st.out) {
		return fmt.Errorf("exec: op %q (%s) returned %d outputs, want %d", st.op.Name(), st.op.OpName(), len(outs), len(st.out))
	}
	for i, a := range outs {
		want := st.info[i]
		if a == nil {
			if !needed(i) {
				continue
			}
			return fmt.Errorf("exec: op %q (%s) returned no array for output %d", st.op.Name(), st.op.OpName(), i)
		}
		if want.DType != ndarray.Invalid && a.DType() != want.DType {
			return fmt.Errorf("exec: op %q (%s) output %d is %v, inferred %v", st.op.Name(), st.op.OpName(), i, a.DType(), want.DType)
		}
		if !want.Admits(a.Shape()) {
			return fmt.Errorf("exec: op %q (%s) output %d has shape %v, inferred %v", st.op.Name(), st.op.OpName(), i, a.Shape(), want.Shape)
		}
	}
	return nil
}

func (s *Session) maxIterations() int {
	if s.MaxIterations > 0 {
		return s.MaxIterations
	}
	return DefaultMaxIterations
}

// needed reports whether output i of the running step has a reader.
func (ru *run) needed(i int) bool { return ru.neededFor(ru.cur, i) }

func (ru *run) neededFor(st *step, i int) bool {
	return st == nil || i >= len(st.out) || ru.left[st.out[i]] > 0
}
