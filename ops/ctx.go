package ops

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/sdgo/sdgo/internal/opexec"
	"github.com/sdgo/sdgo/ndarray"
)

// Ctx is what the executor gives an op when it runs.
type Ctx struct {
	// Node is the name of the op node running, for error messages.
	Node string
	// alloc returns an array of this dtype and shape whose elements the op
	// must all write (recycled buffers are not cleared).
	alloc func(dt ndarray.DType, shape []int) *ndarray.Array
	// overwrite reports whether the op may write into input i's buffer.
	overwrite func(i int) bool
	// needed reports whether anything reads output i.
	needed func(i int) bool
	// state lives as long as one run.
	state map[any]any
	// put, when set (SetRelease), takes back the buffers of the
	// temporaries an op call released; got holds the buffers Alloc handed
	// out in the call running and freed those it released, until EndOp.
	put   func(*ndarray.Buffer)
	got   []*ndarray.Buffer
	freed []*ndarray.Buffer
	// stop is the run's context (Request.Context), nil without one;
	// stopFn asks it whether it is done (see Stop).
	stop   context.Context
	stopFn func() bool
}

// execCtx is a Ctx as the executor drives it (internal/opexec): the calls
// that set a context up and bracket each op call, which an op must not make.
type execCtx Ctx

func init() {
	opexec.Of = func(c any) opexec.Ctx { return (*execCtx)(c.(*Ctx)) }
}

// NewCtx returns a context that allocates with alloc (nil: fresh zeroed
// arrays) and allows overwriting input i when overwrite(i) is true (nil:
// never).
func NewCtx(node string, alloc func(ndarray.DType, []int) *ndarray.Array, overwrite func(int) bool) *Ctx {
	return &Ctx{Node: node, alloc: alloc, overwrite: overwrite}
}

// Alloc returns an output array. Its elements are unspecified: the op must
// write every one. An op may also take its temporaries here and give them
// back with Release.
func (c *Ctx) Alloc(dt ndarray.DType, shape []int) *ndarray.Array {
	if c != nil && c.alloc != nil {
		a := c.alloc(dt, shape)
		if c.put != nil {
			c.got = append(c.got, a.Buffer())
		}
		return a
	}
	a, err := ndarray.Zeros(dt, shape...)
	if err != nil {
		panic(err) // ErrTooLarge: the executor makes it the op's error
	}
	return a
}

// TryAlloc is Alloc for an op whose output's size comes from the values of
// its inputs or arguments (tile's repetitions), not from their sizes: an
// output above the allocation limit is an error wrapping ErrTooLarge, as
// the allocating ndarray functions give it, also when no executor is there
// to catch Alloc's panic.
func (c *Ctx) TryAlloc(dt ndarray.DType, shape []int) (a *ndarray.Array, err error) {
	defer func() {
		if r := recover(); r != nil {
			if err = TooLarge(r); err == nil {
				panic(r)
			}
		}
	}()
	return c.Alloc(dt, shape), nil
}

// TooLarge returns the error Alloc panicked with when r, a recovered
// value, is an output above the allocation limit (ErrTooLarge: Alloc has
// no error to return), and nil for any other value. Whoever runs ops turns
// the first into the op's error; anything else is a bug.
func TooLarge(r any) error {
	if e, ok := r.(error); ok && errors.Is(e, ndarray.ErrTooLarge) {
		return e
	}
	return nil
}

// State returns a store that lives as long as the run (one Output call):
// stateful ops such as tensor arrays keep their objects there, under keys
// of their own types. Without an executor, every Ctx has its own store.
func (c *Ctx) State() map[any]any {
	if c == nil {
		return map[any]any{}
	}
	if c.state == nil {
		c.state = map[any]any{}
	}
	return c.state
}

// heldBuffers is a value in the run's State that holds temporaries from the
// executor's pool (lstmLayer's forward trace, kept for lstmLayer_bp):
// when the run ends without an op taking them back (Reclaim), ResetState
// returns them to the pool, so a run that never reaches the backprop op
// does not leave them to the GC.
type heldBuffers interface {
	heldBuffers() []*ndarray.Array
}

// ResetState empties the context's store (keeping the map, as the executor
// reuses contexts from run to run); the executor calls it when a run starts
// and when it ends.
func (c *execCtx) ResetState() {
	if c.state == nil {
		c.state = map[any]any{}
		return
	}
	for _, v := range c.state {
		if h, ok := v.(heldBuffers); ok && c.put != nil {
			for _, a := range h.heldBuffers() {
				c.put(a.Buffer())
			}
		}
	}
	clear(c.state)
}

// ShareState makes c use other's store, for an executor whose workers run
// the ops of one run.
func (c *execCtx) ShareState(other opexec.Ctx) { c.state = (*Ctx)(other.(*execCtx)).State() }

// Reclaim is Release for a temporary that an earlier op call of this run
// took with Alloc and kept in the run's State instead of releasing, for a
// later op (its backprop op) to use: the op calling Reclaim must already
// have removed it from the State, and nothing else may hold it. Its buffer
// goes back to the executor's pool when this call ends.
func (c *Ctx) Reclaim(a *ndarray.Array) {
	if c == nil || c.put == nil || a == nil {
		return
	}
	c.got = append(c.got, a.Buffer())
	c.freed = append(c.freed, a.Buffer())
}

// keepsState reports whether State outlives this op call only as long as
// the run (an executor resets it when the run ends), so that an op may
// keep temporaries there for a later op of the run without holding them
// indefinitely; a context without an executor keeps its store as long as
// the context.
func (c *Ctx) keepsState() bool { return c != nil && c.put != nil }

// Release gives back a temporary the op took with Alloc or TryAlloc and
// will not read or write again, so that later ops (not this call) can have
// its buffer. The contract:
//
//   - Only a buffer this same op call got from Alloc or TryAlloc goes back;
//     anything else (an input, an array ndarray allocated, one from an
//     earlier call) is ignored, so an op may release an array that is only
//     sometimes its own temporary.
//   - Nothing is given back before the op has returned: a buffer released
//     and then allocated again in the same call cannot come back aliased.
//   - A buffer that any output the op returns lies on (the output itself or
//     a view of it) is not given back, whatever the op released; nor is a
//     buffer released twice given back twice.
//   - The op must keep no other hold on what it releases: not in the run's
//     State, not in a value it hands anyone later.
//
// Without an executor (a nil Ctx, a Ctx from NewCtx that no executor drives,
// ops called directly) Release does nothing: the temporary goes to the GC.
func (c *Ctx) Release(a *ndarray.Array) {
	if c == nil || c.put == nil || a == nil {
		return
	}
	c.freed = append(c.freed, a.Buffer())
}

// SetRelease makes Release give buffers back through put, once the op
// call has ended (EndOp): the executor's pool. The executor brackets every
// op call with BeginOp and EndOp.
func (c *execCtx) SetRelease(put func(*ndarray.Buffer)) { c.put = put }

// BeginOp starts an op call: what earlier calls allocated or released is
// forgotten.
func (c *execCtx) BeginOp() {
	clear(c.got)
	clear(c.freed)
	c.got, c.freed = c.got[:0], c.freed[:0]
}

// EndOp ends the op call that returned outs (nil when it failed) and gives
// back the buffers it released that Release's contract allows: got from
// Alloc in this call, not under any of outs, each once.
func (c *execCtx) EndOp(outs []*ndarray.Array) {
	for i, b := range c.freed {
		if c.put == nil || !slices.Contains(c.got, b) || slices.Contains(c.freed[:i], b) || underAny(b, outs) {
			continue
		}
		c.put(b)
	}
	c.BeginOp() // holds no buffer until the next call
}

// underAny reports whether b is the buffer of any of outs.
func underAny(b *ndarray.Buffer, outs []*ndarray.Array) bool {
	for _, o := range outs {
		if o != nil && o.Buffer() == b {
			return true
		}
	}
	return false
}

// SetNeeded installs the executor's answer to Needed.
func (c *execCtx) SetNeeded(f func(i int) bool) { c.needed = f }

// SetStop makes the run's context, when not nil, the one Stop and Err
// report on.
func (c *execCtx) SetStop(ctx context.Context) {
	if c.stop = ctx; ctx == nil || ctx.Done() == nil {
		c.stop, c.stopFn = nil, nil // context.Background: never done
		return
	}
	c.stopFn = func() bool { return ctx.Err() != nil }
}

// StopErr is the run's context's error (nil while it is not done, or
// without one).
func (c *execCtx) StopErr() error {
	if c.stop == nil {
		return nil
	}
	return c.stop.Err()
}

// Stop returns a function that reports whether the run must stop (its
// context is done: a deadline, a cancel), for a long op to pass to the
// kernels that ask it as they go (ndarray.MatMulIntoStop, kernels.GemmStop),
// or nil when nothing can stop the run. An op that gets ndarray.ErrStopped
// back returns it (wrapped); the executor reports the run stopped.
func (c *Ctx) Stop() func() bool {
	if c == nil {
		return nil
	}
	return c.stopFn
}

// Err returns nil while the run may go on, else an error wrapping both
// ndarray.ErrStopped and the context's error, for an op to return from
// its own long loops (one check every few milliseconds of work is enough).
func (c *Ctx) Err() error {
	if c == nil || c.stop == nil {
		return nil
	}
	if err := c.stop.Err(); err != nil {
		return fmt.Errorf("%w: %w", ndarray.ErrStopped, err)
	}
	return nil
}

// pacer asks the run's context (Err) at most once per stopWork units of
// an op's own work (about multiply-adds), for loops whose steps are too
// short to ask at each one. Without a context to stop the run it never
// asks.
type pacer struct {
	c    *Ctx
	left int
}

// stopWork is the work between two questions: a few milliseconds, so that
// a deadline ends a long op soon after it passes, at no cost to a short one.
const stopWork = 1 << 24

// pace returns a pacer for c (nil: one that never asks). Its first tick
// asks: a run already stopped does not start the work.
func (c *Ctx) pace() pacer { return pacer{c: c} }

// tick counts work units done and returns Err when it is time to ask.
func (p *pacer) tick(work int) error {
	if p.c == nil || p.c.stop == nil {
		return nil
	}
	if p.left -= work; p.left > 0 {
		return nil
	}
	p.left = stopWork
	return p.c.Err()
}

// Needed reports whether anything will read output i. An op may skip
// computing an output nobody needs and return nil in its place (the
// backprop ops do, for gradients of inputs such as placeholders that no one
// asked for). Without an executor every output is needed.
func (c *Ctx) Needed(i int) bool {
	return c == nil || c.needed == nil || c.needed(i)
}

// CanOverwrite reports whether the op may write into input i's buffer:
// nothing else reads its current contents any more.
func (c *Ctx) CanOverwrite(i int) bool {
	return c != nil && c.overwrite != nil && c.overwrite(i)
}

// nodeName is the running node's name for messages, or the op's name.
func (c *Ctx) nodeName(op string) string {
	if c != nil && c.Node != "" {
		return c.Node
	}
	return op
}
