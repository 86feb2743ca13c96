package ndarray

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

// The memory budget. Go's allocator cannot fail: an allocation the system
// refuses (an address-space or data rlimit, a container's memory.max, the
// machine's memory) ends the process with "fatal error: out of memory", or
// the kernel's OOM killer ends it with no message at all. So every buffer
// is checked before it is made against the budget (AllocLimit), and one
// that does not fit is an error wrapping ErrTooLarge that the caller can
// report.
//
// What is counted is the Go heap in use, as the runtime reports it
// (runtime/metrics: objects, live or not yet swept, and the unused tails of
// the spans that hold them), not a tally of ndarray's own buffers. That
// takes in, with no bookkeeping on the way, everything the process holds:
// buffers in the executor's pool, the scratch pools, tensor arrays, every
// iteration a loop keeps for its gradient, the gradient checker's copies,
// graph files, and the Go slices ops allocate for themselves. Buffers are
// credited when they are freed, by whatever frees them (a pool that drops
// them, the GC collecting what nothing reaches): no release call can be
// missed or made twice, and no finalizer is needed per buffer.
//
// Reading the runtime's statistics costs far more than a small allocation,
// so it is not done per buffer: allocations add their bytes to a pending count, and the
// heap is read again only when the pending bytes pass readEvery or the
// estimate (heap at the last read plus pending) would pass the budget. A
// buffer of readEvery bytes or more, which costs far more to zero than a
// read, always reads. When a buffer would not fit, the caches that
// registered with OnMemoryPressure drop what they keep and the GC runs
// (twice, as sync.Pool's victim caches outlive one cycle); only a buffer
// that still does not fit fails. Near the budget this trades time (a
// forced GC every few allocations) for the process's life.
//
// Memory allocated after the last read and outside ndarray (a Go slice an
// op makes itself, at most readEvery of ndarray buffers) is seen at the
// next read: that is the margin the default budget leaves (see AllocLimit).

// readEvery is the pending bytes after which the heap is read again.
const readEvery = 4 << 20

var (
	// pending is the bytes allocated through ndarray since the heap was
	// last read; lastHeap is the heap in use then (plus a large buffer
	// approved at that read, which the read did not see yet).
	pending  atomic.Int64
	lastHeap atomic.Int64
	// inflight is the bytes of large buffers approved and not yet made,
	// so that two made at once cannot both fit in the same room.
	inflight atomic.Int64
	// slow serializes reads that may force a GC.
	slow sync.Mutex

	pressureMu sync.Mutex
	pressure   = map[int]func(){}
	pressureID int
)

var heapSamples = [2]string{"/memory/classes/heap/objects:bytes", "/memory/classes/heap/unused:bytes"}

// MemoryInUse returns the bytes the memory budget counts now: the Go heap
// in use (see AllocLimit), garbage not yet collected included.
func MemoryInUse() int {
	s := make([]metrics.Sample, len(heapSamples))
	for i, n := range heapSamples {
		s[i].Name = n
	}
	metrics.Read(s)
	total := 0
	for _, x := range s {
		if x.Value.Kind() == metrics.KindUint64 {
			total += int(min(x.Value.Uint64(), MaxBytes))
		}
	}
	return total
}

// OnMemoryPressure registers f, which an allocation that would pass the
// memory budget calls before it forces a garbage collection: a cache of
// released memory (the executor's buffer pool) drops it there. f may be
// called from any goroutine, during any allocation: it must not allocate
// through ndarray, and must not block on anything an allocating goroutine
// may hold. The returned function unregisters f.
func OnMemoryPressure(f func()) (remove func()) {
	pressureMu.Lock()
	defer pressureMu.Unlock()
	pressureID++
	id := pressureID
	pressure[id] = f
	return func() {
		pressureMu.Lock()
		defer pressureMu.Unlock()
		delete(pressure, id)
	}
}

// relieve calls the OnMemoryPressure functions.
func relieve() {
	pressureMu.Lock()
	fs := make([]func(), 0, len(pressure))
	for _, f := range pressure {
		fs = append(fs, f)
	}
	pressureMu.Unlock()
	for _, f := range fs {
		f()
	}
}

// charge checks nbytes about to be allocated against the budget. It
// returns the bytes it counted in inflight, which the caller subtracts
// once the allocation is made (done).
func charge(nbytes int) (int, error) {
	limit := AllocLimit()
	p := pending.Add(int64(nbytes))
	if p < readEvery && lastHeap.Load()+p+inflight.Load() <= int64(limit) {
		return 0, nil
	}
	return chargeSlow(nbytes, limit)
}

// done ends an allocation charge counted in inflight: the buffer is made,
// and counted in the estimate until the next read sees it in the heap.
func done(n int) {
	if n > 0 {
		lastHeap.Add(int64(n))
		inflight.Add(int64(-n))
	}
}

func chargeSlow(nbytes, limit int) (int, error) {
	if nbytes > limit {
		return 0, budgetError(nbytes, limit, -1)
	}
	slow.Lock()
	defer slow.Unlock()
	heap := MemoryInUse()
	fits := func() bool { return heap+int(inflight.Load())+nbytes <= limit }
	for try := 0; !fits() && try < 2; try++ {
		// Caches first, then the GC: what the caches dropped is garbage
		// until it runs. A second GC empties sync.Pool's victim caches.
		if try == 0 {
			relieve()
		}
		runtime.GC()
		heap = MemoryInUse()
	}
	if !fits() {
		pending.Store(0)
		lastHeap.Store(int64(heap))
		return 0, budgetError(nbytes, limit, heap)
	}
	if nbytes >= readEvery {
		// Not in the heap until made: inflight holds it meanwhile.
		inflight.Add(int64(nbytes))
		pending.Store(0)
		lastHeap.Store(int64(heap))
		return nbytes, nil
	}
	pending.Store(int64(nbytes))
	lastHeap.Store(int64(heap))
	return 0, nil
}

// budgetError is the error of an allocation that does not fit; inUse < 0
// when the allocation alone is over the budget.
func budgetError(nbytes, limit, inUse int) error {
	if inUse < 0 {
		return fmt.Errorf("%d bytes are above the memory budget of %d bytes: %w", nbytes, limit, ErrTooLarge)
	}
	return fmt.Errorf("%d bytes do not fit in the memory budget of %d bytes, %d in use: %w", nbytes, limit, inUse, ErrTooLarge)
}

// Reserve checks that nbytes, which the caller is about to allocate
// itself (not through ndarray), fit in the memory budget, and counts them
// until the heap is next read. The error wraps ErrTooLarge.
func Reserve(nbytes int) error {
	if nbytes <= 0 {
		return nil
	}
	n, err := charge(nbytes)
	done(n) // the estimate counts it from now on
	return err
}
