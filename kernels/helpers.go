package kernels

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Warm helper goroutines for parallel products.
//
// A goroutine started for a product runs only once the OS and the hypervisor
// have woken an idle core, which took 130–165 µs on the 2-vCPU VM this was
// measured on: a tenth of a float32 512³ product on one core, and the whole
// gain of a second core on smaller ones. So a parallel product hands its work
// to helper goroutines that, after each product, keep polling for the next
// one for helperSpin before they park. Products that follow each other, as in
// a training step, find them awake. BLAS libraries do the same with their
// threads (OpenBLAS and OpenMP runtimes busy-wait before they sleep). While
// a helper polls it yields its P at every turn, so other goroutines run as
// usual; once parked it costs nothing until a product wakes it.

// helperSpin is how long an idle helper polls before it parks.
const helperSpin = 200 * time.Microsecond

// helperPool is a set of helper goroutines and the job they are offered.
type helperPool struct {
	mu      sync.Mutex // held by the product that offers its job to the helpers
	started int        // helpers running; guarded by mu

	gen atomic.Uint64             // bumped for each job offered
	job atomic.Pointer[helperJob] // the job of generation gen, nil once its caller is done

	// Parking: a helper increments sleeping, then checks gen, under park,
	// and waits on wake; an offer bumps gen, then broadcasts when sleeping
	// is not 0. So a helper either sees the new generation or is woken.
	park     sync.Mutex
	wake     *sync.Cond
	sleeping atomic.Int32
}

// helperJob is work offered to at most seats helpers.
type helperJob struct {
	gen    uint64
	seats  atomic.Int32
	active atomic.Int32 // other goroutines in work, or about to take a seat
	work   func()
}

var helpers = newHelperPool()

func newHelperPool() *helperPool {
	p := &helperPool{}
	p.wake = sync.NewCond(&p.park)
	return p
}

// run calls work on the calling goroutine and on up to extra other
// goroutines at the same time, and returns once every call has returned,
// so its caller need not count what the others did. The others are the
// pool's helpers when no other product holds them, and new goroutines
// otherwise (or for the extra beyond GOMAXPROCS-1). work must return
// promptly when there is nothing left to do, since a helper may call it
// after the product is over.
func (p *helperPool) run(extra int, work func()) { p.offer(extra, work, true) }

// offer is run; without spawn it takes only the pool's helpers, and calls
// work alone when another product holds them.
func (p *helperPool) offer(extra int, work func(), spawn bool) {
	if extra <= 0 {
		work()
		return
	}
	j := &helperJob{work: work}
	defer j.wait()
	if !p.mu.TryLock() {
		if spawn {
			j.spawn(extra)
		}
		work()
		return
	}
	pooled := min(extra, max(runtime.GOMAXPROCS(0)-1, p.started))
	j.gen = p.gen.Load() + 1
	j.seats.Store(int32(pooled))
	p.job.Store(j)
	p.gen.Store(j.gen)
	if p.sleeping.Load() > 0 {
		p.park.Lock()
		p.wake.Broadcast()
		p.park.Unlock()
	}
	for ; p.started < pooled; p.started++ {
		go p.loop(j.gen - 1)
	}
	if spawn {
		j.spawn(extra - pooled)
	}
	// The job's closure holds the product's matrices: drop it, so that
	// they can be collected once the helpers that took a seat are done.
	defer func() {
		p.job.Store(nil)
		p.mu.Unlock()
	}()
	work()
}

// spawn runs the job's work on n new goroutines.
func (j *helperJob) spawn(n int) {
	for range n {
		j.active.Add(1)
		go func() {
			defer j.active.Add(-1)
			j.work()
		}()
	}
}

// wait returns once no other goroutine runs the job's work. It spins, not
// parks, since parking would cost the caller a wake-up. A helper counts
// itself in active before it takes a seat, and so before it can take any of
// the work; once the caller's own call has returned there is none left to
// take, so a helper that counts itself later finds none.
func (j *helperJob) wait() {
	for j.active.Load() > 0 {
		runtime.Gosched()
	}
}

// loop is a helper: it takes a seat in each job offered after generation
// seen, if one is left, and waits for the next.
func (p *helperPool) loop(seen uint64) {
	for {
		p.wait(seen)
		seen = p.gen.Load()
		// The job may be over (nil) or already replaced by a later one,
		// whose generation the next wait returns for at once.
		if j := p.job.Load(); j != nil && j.gen == seen {
			j.active.Add(1)
			if j.seats.Add(-1) >= 0 {
				j.work()
			}
			j.active.Add(-1)
		}
	}
}

// wait returns once a job after generation seen is offered: it polls for
// helperSpin, yielding at every turn, then parks.
func (p *helperPool) wait(seen uint64) {
	start := time.Now()
	for i := 1; ; i++ {
		if p.gen.Load() != seen {
			return
		}
		if i%32 == 0 && time.Since(start) > helperSpin {
			break
		}
		runtime.Gosched()
	}
	p.park.Lock()
	defer p.park.Unlock()
	p.sleeping.Add(1)
	defer p.sleeping.Add(-1)
	for p.gen.Load() == seen {
		p.wake.Wait()
	}
}
