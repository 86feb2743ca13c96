package exec

import (
	"errors"
	"fmt"
	"slices"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Dataflow execution for graphs with control flow (TensorFlow v1's
// primitives, as SameDiff stores loops and conditionals).
//
// Values live in frame iterations: the root frame has one iteration; every
// enter opens (once per iteration of the frame it runs in) a child frame for
// a loop instance, and every next_iteration moves its value into the next
// iteration of that frame. A switch sends its input to one output and a dead
// value to the other; an op with a dead input produces dead outputs without
// running, so the branch not taken does no work. A merge passes on the input
// that is alive: at iteration 0 of a loop, the value entering; afterwards,
// the value coming back through next_iteration. Dead values that reach a
// next_iteration end that loop path, and dead values that reach an exit are
// dropped while the loop runs: the exit taken when the loop condition turns
// false carries the result out. Placeholders, variables and constants are
// visible everywhere, as are values of enclosing frames.
//
// An op runs once per frame iteration in which its inputs become available,
// in the order its inputs arrive. A value is dropped from its frame
// iteration once every op reading it has run in that iteration (see
// release), so a loop holds only the iterations still in use, not all of
// them; values that a backward loop reads through loop_value stay, since
// the op reading them runs in another frame. An output that lives inside a
// loop gives the value of the last iteration that computed it, as SameDiff
// does.

// ErrNotTaken is wrapped by the error for an output that lies in a branch
// of a conditional that was not taken: it has no value in this run.
var ErrNotTaken = errors.New("it lies in a branch that was not taken")

// DefaultMaxIterations bounds each loop, so that a loop whose condition
// never turns false fails instead of running forever.
const DefaultMaxIterations = 1 << 20

type value struct {
	a    *ndarray.Array
	dead bool
}

type loopFrame struct {
	name       string
	parent     *frameIter // where the frame was entered; nil for the root
	iters      []*frameIter
	invariants map[int]value // outputs of loop-invariant enters
	invSlots   []int
	dead       bool // entered with dead values: its exits carry dead values out
	// fwd is, for a backward frame (a loop's gradient), the forward frame
	// instance it mirrors, named fwdName.
	fwd     *loopFrame
	fwdName string
}

// frameIter is one iteration of a frame. A frame keeps all its iterations
// while the run lasts (a backward loop finds the forward iteration it
// mirrors by number, and a late loop invariant wakes its readers in every
// iteration), so what an iteration keeps once its values are dropped is
// made small: vals and children are nil when empty, done is a bit set.
type frameIter struct {
	f        *loopFrame
	iter     int
	vals     map[int]value         // nil when empty
	children map[string]*loopFrame // nil until an enter runs here
	done     stepSet               // steps run in this iteration
}

func (f *loopFrame) iteration(i int) *frameIter {
	for len(f.iters) <= i {
		f.iters = append(f.iters, &frameIter{f: f, iter: len(f.iters)})
	}
	return f.iters[i]
}

// stepSet is a set of step numbers: a bit set over the span of steps
// added. The steps run in one frame iteration are those of one loop body,
// usually close together in the plan.
type stepSet struct {
	base  int // the step of bit 0 of words[0], a multiple of 64
	words []uint64
}

func (s *stepSet) has(k int) bool {
	i := k - s.base
	if i < 0 || i >= len(s.words)*64 {
		return false
	}
	return s.words[i>>6]&(1<<(i&63)) != 0
}

func (s *stepSet) add(k int) {
	if len(s.words) == 0 {
		s.base = k &^ 63
		s.words = make([]uint64, 1)
	}
	if k < s.base {
		nb := k &^ 63
		s.words = append(make([]uint64, (s.base-nb)/64, (s.base-nb)/64+len(s.words)), s.words...)
		s.base = nb
	}
	i := k - s.base
	for i>>6 >= len(s.words) {
		s.words = append(s.words, 0)
	}
	s.words[i>>6] |= 1 << (i & 63)
}

// bodyRuns is how many times a forward frame ran its loop body: its last
// iteration is the one whose condition was false.
func (f *loopFrame) bodyRuns() int {
	if f == nil || len(f.iters) == 0 {
		return 0
	}
	return len(f.iters) - 1
}

// forward returns the forward frame iteration that it mirrors: itself,
// outside backward frames; in iteration k of a backward frame, iteration
// N-1-k of the forward frame it mirrors.
func (it *frameIter) forward() *frameIter {
	fw := it.f.fwd
	if fw == nil {
		if it.f.parent == nil || !it.f.backward() {
			return it
		}
		return nil
	}
	j := fw.bodyRuns() - 1 - it.iter
	if j < 0 || j >= len(fw.iters) {
		return nil
	}
	return fw.iters[j]
}

// backward reports whether f is a backward frame (whose forward frame may
// not exist, when the forward loop never ran).
func (f *loopFrame) backward() bool { return f.fwdName != "" }

func (it *frameIter) String() string {
	if it.f.parent == nil {
		return "the root frame"
	}
	return fmt.Sprintf("frame %q, iteration %d", it.f.name, it.iter)
}

type task struct {
	step int
	it   *frameIter
}

type dynRun struct {
	ru    *run
	root  *frameIter
	queue []task
	max   int
	// last holds, per requested output slot, the value most recently
	// computed inside a loop: what an output of a loop-internal variable
	// gives, as in SameDiff (the value of the last iteration that computed
	// it). Only outputs are kept: another slot's last value would be held
	// for nothing.
	last map[int]value
	// in, have and arrays are scratch for try, reused from task to task:
	// most tasks find their step not ready yet, and an op's input arrays
	// are not kept once it ran.
	in     []value
	have   []bool
	arrays []*ndarray.Array
}

func (ru *run) execDynamic() error {
	p := ru.p
	d := &dynRun{ru: ru, max: ru.s.maxIterations(), last: map[int]value{}}
	root := &loopFrame{}
	d.root = root.iteration(0)
	for _, k := range p.starts {
		d.queue = append(d.queue, task{k, d.root})
	}
	for len(d.queue) > 0 {
		t := d.queue[0]
		d.queue = d.queue[1:]
		if t.it.done.has(t.step) {
			continue
		}
		if err := d.try(t); err != nil {
			return err
		}
		if t.it.done.has(t.step) {
			d.release(t)
		}
	}
	for i, sl := range p.outputs {
		v, ok := d.lookup(sl, d.root)
		if !ok {
			v, ok = d.last[sl]
		}
		switch {
		case !ok:
			return fmt.Errorf("exec: output %q was never computed (a loop did not finish or its inputs never arrived)", p.names[i])
		case v.dead:
			return fmt.Errorf("exec: output %q: %w", p.names[i], ErrNotTaken)
		}
		ru.vals[sl] = v.a
	}
	return nil
}

// lookup finds slot's value as seen from it: a leaf, a value of this
// iteration or a loop invariant of its frame, or the same in an enclosing
// frame.
func (d *dynRun) lookup(sl int, it *frameIter) (value, bool) {
	if d.ru.p.vars[sl].Op() == nil {
		return value{a: d.ru.vals[sl]}, true
	}
	for x := it; x != nil; x = x.f.parent {
		if v, ok := x.vals[sl]; ok {
			return v, true
		}
		if v, ok := x.f.invariants[sl]; ok {
			return v, true
		}
	}
	return value{}, false
}

// put stores a value and schedules its readers in the same frame iteration.
func (d *dynRun) put(sl int, it *frameIter, v value) {
	if it.f.parent != nil && !v.dead && d.ru.p.isOutput[sl] {
		d.last[sl] = v
	}
	if d.unread(sl, it) {
		// Every reader already ran in this iteration (a merge that fired
		// before this input came) or there is none: nothing will look the
		// value up.
		return
	}
	if it.vals == nil {
		it.vals = map[int]value{}
	}
	it.vals[sl] = v
	d.wake(sl, it)
	d.wakeDeep(sl, it)
}

// wakeDeep schedules the readers of slot sl that run in loops inside it
// (a loop body reading a value computed outside the loop) in every
// iteration of those loops begun so far. Such a reader may have tried to
// run in an iteration before this value came, and the values of that
// iteration that it found then will not wake it again.
func (d *dynRun) wakeDeep(sl int, it *frameIter) {
	deep := d.ru.p.deep[sl]
	if len(deep) == 0 {
		return
	}
	for _, child := range it.children {
		for _, x := range child.iters {
			for _, k := range deep {
				d.queue = append(d.queue, task{k, x})
			}
			d.wakeDeep(sl, x)
		}
	}
}

// release drops the values of iteration t.it that step t.step, which has
// just run there, was the last reader of, so that a loop does not hold on
// to every iteration's values until the run ends.
func (d *dynRun) release(t task) {
	for _, sl := range d.ru.p.steps[t.step].in {
		if _, ok := t.it.vals[sl]; ok && d.unread(sl, t.it) {
			delete(t.it.vals, sl)
		}
	}
	if len(t.it.vals) == 0 {
		t.it.vals = nil // a map keeps its storage when emptied
	}
}

// unread reports whether slot sl's value in iteration it can no longer be
// read: every step reading sl has run in it (a step runs at most once per
// iteration), and it is not an output of the root frame, which the run
// returns at the end.
//
// Readers running elsewhere keep the value, because their steps are never
// marked done in it: ops of an inner loop that read it from an enclosing
// frame without an enter (lookup walks up to it), and loop_value ops of a
// backward loop, which read the forward iteration they mirror after the
// forward loop has finished (they run in the backward frame). Such values
// stay until the run ends.
func (d *dynRun) unread(sl int, it *frameIter) bool {
	if it.f.parent == nil && d.ru.p.isOutput[sl] {
		return false
	}
	for _, k := range d.ru.p.consumers[sl] {
		if !it.done.has(k) {
			return false
		}
	}
	return true
}

func (d *dynRun) wake(sl int, it *frameIter) {
	for _, k := range d.ru.p.consumers[sl] {
		d.queue = append(d.queue, task{k, it})
	}
}

// iterationBytes is about what the executor keeps of its own per loop
// iteration (a frame iteration, its values' map, its step set), rounded up.
const iterationBytes = 1 << 10

// newIteration opens iteration i of f and lets the readers of its loop
// invariants run in it.
func (d *dynRun) newIteration(f *loopFrame, i int) (*frameIter, error) {
	if i > d.max {
		return nil, fmt.Errorf("exec: loop frame %q ran more than %d iterations", f.name, d.max)
	}
	fresh := i >= len(f.iters)
	if fresh {
		// An iteration's bookkeeping (its values, the steps it ran) is
		// memory of the executor's own, not ndarray buffers: counted here,
		// a loop of scalars that keeps every iteration meets the memory
		// budget too, not only loops over arrays.
		if err := ndarray.Reserve(iterationBytes); err != nil {
			return nil, fmt.Errorf("exec: loop frame %q, iteration %d: %w", f.name, i, err)
		}
	}
	it := f.iteration(i)
	if fresh {
		for _, sl := range f.invSlots {
			d.wake(sl, it)
		}
	}
	return it, nil
}

// try runs step t.step in t.it if its inputs are there and it has not run.
func (d *dynRun) try(t task) error {
	p := d.ru.p
	st := &p.steps[t.step]
	if t.it.done.has(t.step) {
		return nil
	}
	// The scratch slices are safe to reuse: nothing below keeps them (the
	// values are copied out) and try does not run again before it returns.
	n := len(st.in)
	d.in, d.have = slices.Grow(d.in[:0], n)[:n], slices.Grow(d.have[:0], n)[:n]
	in, have := d.in, d.have
	for i, sl := range st.in {
		in[i], have[i] = d.lookup(sl, t.it)
	}
	switch st.op.OpName() {
	case "merge":
		return d.merge(t, st, in, have)
	case "mergeadd":
		// Only autodiff's sums of gradient contributions (bool arg 0)
		// count dead inputs as zero; any other mergeadd is dead when an
		// input is, as every op is.
		if st.op.Args().Bool(0, false) {
			return d.mergeAdd(t, st, in, have)
		}
	case "loop_value":
		return d.loopValue(t, st, in[1], have[1])
	}
	dead := false
	for i := range in {
		if !have[i] {
			return nil // not ready
		}
		dead = dead || in[i].dead
	}
	t.it.done.add(t.step)
	if st.def.Flags&ops.ControlFlow != 0 {
		return d.control(t, st, in, dead)
	}
	if dead {
		for _, sl := range st.out {
			d.put(sl, t.it, value{dead: true})
		}
		return nil
	}
	d.arrays = d.arrays[:0]
	for _, v := range in {
		d.arrays = append(d.arrays, v.a)
	}
	outs, err := d.ru.runOp(st, d.arrays, t.step, t.it)
	if err != nil {
		return err
	}
	for i, sl := range st.out {
		if outs[i] != nil {
			d.put(sl, t.it, value{a: outs[i]})
		}
	}
	return nil
}

// merge passes on the first live input among those that count in this
// iteration: for a loop's merge, the entering value at iteration 0 and the
// value from next_iteration afterwards; for a conditional's, any.
func (d *dynRun) merge(t task, st *step, in []value, have []bool) error {
	loop := false // a loop's merge, not a conditional's
	for i := range in {
		loop = loop || st.op.IsBackEdge(i)
	}
	counts := func(i int) bool { return !loop || st.op.IsBackEdge(i) == (t.it.iter > 0) }
	all := true
	for i := range in {
		if !counts(i) {
			continue
		}
		if have[i] && !in[i].dead {
			t.it.done.add(t.step)
			if err := d.event(t, st, arraysOf(in, have), []*ndarray.Array{in[i].a}); err != nil {
				return err
			}
			d.put(st.out[0], t.it, in[i])
			return nil
		}
		all = all && have[i]
	}
	if all {
		t.it.done.add(t.step)
		d.put(st.out[0], t.it, value{dead: true})
	}
	return nil
}

// control carries out enter, exit, next_iteration, switch and loop_cond.
func (d *dynRun) control(t task, st *step, in []value, dead bool) error {
	it := t.it
	switch st.op.OpName() {
	case "enter":
		name := graph.FrameName(st.op)
		child := it.children[name]
		if child == nil {
			child = &loopFrame{name: name, parent: it, invariants: map[int]value{}, fwdName: ops.ForwardFrame(st.op.Args())}
			if child.fwdName != "" {
				if fw := it.forward(); fw != nil {
					child.fwd = fw.children[child.fwdName]
				}
			}
			if it.children == nil {
				it.children = map[string]*loopFrame{}
			}
			it.children[name] = child
		}
		if dead {
			child.dead = true
		}
		if st.op.Args().Bool(0, false) {
			// Loop-invariant: visible in every iteration, present and
			// future.
			child.invariants[st.out[0]] = in[0]
			child.invSlots = append(child.invSlots, st.out[0])
			child.iteration(0)
			for _, x := range child.iters {
				d.wake(st.out[0], x)
				d.wakeDeep(st.out[0], x)
			}
			return nil
		}
		if err := d.event(t, st, []*ndarray.Array{in[0].a}, []*ndarray.Array{in[0].a}); err != nil {
			return err
		}
		d.put(st.out[0], child.iteration(0), in[0])
	case "exit":
		if it.f.parent == nil {
			return fmt.Errorf("exec: op %q (exit) runs outside any loop", st.op.Name())
		}
		if dead && !it.f.dead {
			return nil // this iteration went round again
		}
		if err := d.event(t, st, []*ndarray.Array{in[0].a}, []*ndarray.Array{in[0].a}); err != nil {
			return err
		}
		d.put(st.out[0], it.f.parent, in[0])
	case "next_iteration":
		if dead {
			return nil // the loop ended on this path
		}
		if it.f.parent == nil {
			return fmt.Errorf("exec: op %q (next_iteration) runs outside any loop", st.op.Name())
		}
		next, err := d.newIteration(it.f, it.iter+1)
		if err != nil {
			return err
		}
		if err := d.event(t, st, []*ndarray.Array{in[0].a}, []*ndarray.Array{in[0].a}); err != nil {
			return err
		}
		d.put(st.out[0], next, in[0])
	case "switch":
		if dead {
			d.put(st.out[0], it, value{dead: true})
			d.put(st.out[1], it, value{dead: true})
			return nil
		}
		pred, err := ops.Predicate(in[1].a)
		if err != nil {
			return fmt.Errorf("exec: op %q (switch) in %v: %w", st.op.Name(), it, err)
		}
		taken, other := 0, 1
		if pred {
			taken, other = 1, 0
		}
		outs := make([]*ndarray.Array, 2)
		outs[taken] = in[0].a
		if err := d.event(t, st, []*ndarray.Array{in[0].a, in[1].a}, outs); err != nil {
			return err
		}
		d.put(st.out[other], it, value{dead: true})
		d.put(st.out[taken], it, in[0])
	case "loop_count":
		n := 0
		if fw := it.forward(); fw != nil {
			n = fw.children[ops.FrameName(st.op.Args())].bodyRuns()
		}
		if dead {
			d.put(st.out[0], it, value{dead: true})
			return nil
		}
		d.put(st.out[0], it, value{a: ndarray.Scalar(int64(n))})
	case "loop_cond":
		if !dead {
			if _, err := ops.Predicate(in[0].a); err != nil {
				return fmt.Errorf("exec: op %q (loop_cond) in %v: %w", st.op.Name(), it, err)
			}
			if err := d.event(t, st, []*ndarray.Array{in[0].a}, []*ndarray.Array{in[0].a}); err != nil {
				return err
			}
		}
		d.put(st.out[0], it, in[0])
	default:
		return fmt.Errorf("exec: unknown control-flow op %q (%s)", st.op.Name(), st.op.OpName())
	}
	return nil
}

// event tells the listeners about a control-flow op, which moves data
// without running an op function (outs holds nil for dead outputs).
func (d *dynRun) event(t task, st *step, ins, outs []*ndarray.Array) error {
	if len(d.ru.listeners) == 0 {
		return nil
	}
	ev := &OpEvent{Op: st.op, Inputs: ins, Step: t.step, Frame: t.it.f.name, Iteration: t.it.iter, Overwritable: make([]bool, len(ins))}
	for _, l := range d.ru.listeners {
		if err := l.PreOp(ev); err != nil {
			return fmt.Errorf("exec: listener before op %s%s: %w", st.op, inIter(t.it), err)
		}
	}
	ev.Outputs = outs
	for _, l := range d.ru.listeners {
		if err := l.PostOp(ev); err != nil {
			return fmt.Errorf("exec: listener after op %s%s: %w", st.op, inIter(t.it), err)
		}
	}
	return nil
}

// arraysOf returns the arrays of the inputs that are there and alive (nil
// for the others), for listeners.
func arraysOf(in []value, have []bool) []*ndarray.Array {
	out := make([]*ndarray.Array, len(in))
	for i := range in {
		if have[i] && !in[i].dead {
			out[i] = in[i].a
		}
	}
	return out
}

// mergeAdd sums the inputs that are alive once all have arrived, for a
// mergeadd with ops.MergeAddDeadAsZero's arguments: in a gradient, a
// contribution from a branch not taken is dead and counts as zero. With
// every input dead, the sum is dead.
func (d *dynRun) mergeAdd(t task, st *step, in []value, have []bool) error {
	var alive []*ndarray.Array
	for i := range in {
		if !have[i] {
			return nil
		}
		if !in[i].dead {
			alive = append(alive, in[i].a)
		}
	}
	t.it.done.add(t.step)
	if len(alive) == 0 {
		d.put(st.out[0], t.it, value{dead: true})
		return nil
	}
	if len(alive) == 1 {
		d.put(st.out[0], t.it, value{a: alive[0]})
		return nil
	}
	outs, err := d.ru.runOp(st, alive, t.step, t.it)
	if err != nil {
		return err
	}
	d.put(st.out[0], t.it, value{a: outs[0]})
	return nil
}

// loopValue gives input 0's value in the forward iteration that this
// backward iteration mirrors, once the anchor (input 1) is there.
func (d *dynRun) loopValue(t task, st *step, anchor value, ok bool) error {
	if !ok {
		return nil
	}
	t.it.done.add(t.step)
	if anchor.dead {
		d.put(st.out[0], t.it, value{dead: true})
		return nil
	}
	fw := t.it.forward()
	if fw == nil {
		return fmt.Errorf("exec: op %q (loop_value) in %v: no forward loop iteration matches", st.op.Name(), t.it)
	}
	v, ok := d.lookup(st.in[0], fw)
	if !ok {
		return fmt.Errorf("exec: op %q (loop_value) in %v: %q has no value in the forward %v", st.op.Name(), t.it, d.ru.p.vars[st.in[0]].Name(), fw)
	}
	d.put(st.out[0], t.it, v)
	return nil
}
