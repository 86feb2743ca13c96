// Package opexec is the executor's side of ops.Ctx: the calls that set up a
// context and bracket each op call. They are kept here, in an internal
// package, so that op authors see only what an op may use (Alloc, Release,
// Needed, CanOverwrite, State), while package exec can still drive a
// context.
package opexec

import (
	"context"

	"github.com/sdgo/sdgo/ndarray"
)

// Ctx is what the executor does with an *ops.Ctx beyond what an op does.
type Ctx interface {
	// ResetState empties the run's store, keeping the map; the executor
	// calls it when a run starts and when it ends.
	ResetState()
	// ShareState makes this context use other's store, for workers that run
	// the ops of one run.
	ShareState(other Ctx)
	// SetRelease makes Release give buffers back through put once the op
	// call has ended (EndOp).
	SetRelease(put func(*ndarray.Buffer))
	// SetStop makes ctx (the request's context, nil for none) what the
	// op's Stop and Err report on.
	SetStop(ctx context.Context)
	// StopErr is that context's error: nil while it is not done.
	StopErr() error
	// SetNeeded installs the executor's answer to Needed.
	SetNeeded(needed func(i int) bool)
	// BeginOp starts an op call: what earlier calls allocated or released
	// is forgotten.
	BeginOp()
	// EndOp ends the op call that returned outs (nil when it failed) and
	// gives back the temporaries it released that Release's contract
	// allows.
	EndOp(outs []*ndarray.Array)
}

// Of returns the executor's view of c, an *ops.Ctx. Package ops sets it
// when it is initialised; importing ops (as every user of a Ctx does)
// guarantees that.
var Of func(c any) Ctx
