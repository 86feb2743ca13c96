package exec

import (
	"sync"
	"sync/atomic"

	"github.com/sdgo/sdgo/internal/opexec"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Running independent ops concurrently (Session.Parallel): a step starts as
// soon as the steps producing its inputs are done, on one of a few workers.
// The run's bookkeeping (values, reads left, buffer holds) is shared under
// one lock, taken around each op but not while it computes; ops flagged
// Stateful run alone, since they share the run's state.

// deps returns, per step, the steps it waits for (as a count) and the steps
// waiting for it, computing them once per plan.
func (p *plan) deps() ([]int32, [][]int) {
	p.depOnce.Do(func() {
		producer := make(map[int]int, len(p.vars))
		for k, st := range p.steps {
			for _, sl := range st.out {
				producer[sl] = k
			}
		}
		p.npred = make([]int32, len(p.steps))
		p.succ = make([][]int, len(p.steps))
		for k, st := range p.steps {
			seen := map[int]bool{}
			for _, sl := range st.in {
				if pk, ok := producer[sl]; ok && !seen[pk] {
					seen[pk] = true
					p.npred[k]++
					p.succ[pk] = append(p.succ[pk], k)
				}
			}
		}
	})
	return p.npred, p.succ
}

// parallelRuns counts the runs that took the concurrent path, so that tests
// can tell it ran.
var parallelRuns atomic.Int64

func (ru *run) execParallel(workers int) error {
	parallelRuns.Add(1)
	p := ru.p
	npred, succ := p.deps()
	pending := append([]int32(nil), npred...)
	ready := make(chan int, len(p.steps))
	for k, n := range pending {
		if n == 0 {
			ready <- k
		}
	}
	var (
		mu        sync.Mutex
		stateful  sync.RWMutex // held for writing by stateful ops, for reading by the others
		firstErr  error
		remaining = len(p.steps)
		closed    bool
		wg        sync.WaitGroup
	)
	finish := func() {
		if !closed {
			closed = true
			close(ready)
		}
	}
	worker := func() {
		defer wg.Done()
		var cur *step
		ctx := ops.NewCtx("", ru.s.pool.get, func(i int) bool {
			mu.Lock()
			defer mu.Unlock()
			return ru.overwritableFor(cur, i)
		})
		opexec.Of(ctx).SetNeeded(func(i int) bool {
			mu.Lock()
			defer mu.Unlock()
			return ru.neededFor(cur, i)
		})
		opexec.Of(ctx).SetRelease(ru.s.pool.put)
		opexec.Of(ctx).ShareState(opexec.Of(ru.ctx))
		opexec.Of(ctx).SetStop(ru.stop)
		ins := make([]*ndarray.Array, 0, 8)
		for k := range ready {
			st := &p.steps[k]
			cur = st
			ctx.Node = st.op.Name()
			mu.Lock()
			stop := firstErr != nil
			ins = ins[:0]
			for _, sl := range st.in {
				ins = append(ins, ru.vals[sl])
			}
			mu.Unlock()
			if stop {
				continue
			}
			lock, unlock := stateful.RLock, stateful.RUnlock
			if st.def.Flags&ops.Stateful != 0 {
				lock, unlock = stateful.Lock, stateful.Unlock
			}
			var outs []*ndarray.Array
			err := ru.stopped(st, nil)
			if err == nil {
				lock()
				outs, err = callOp(st, ctx, ins)
				if err == nil {
					err = checkOutputs(st, outs, ctx.Needed)
				}
				unlock()
			}
			mu.Lock()
			if err != nil {
				if firstErr == nil {
					firstErr = err
				}
				finish()
				mu.Unlock()
				continue
			}
			ru.finishStep(st, outs)
			for _, s := range succ[k] {
				pending[s]--
				if pending[s] == 0 && !closed {
					ready <- s
				}
			}
			remaining--
			if remaining == 0 {
				finish()
			}
			mu.Unlock()
		}
	}
	wg.Add(workers)
	for w := 0; w < workers; w++ {
		go worker()
	}
	wg.Wait()
	return firstErr
}
