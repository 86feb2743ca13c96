package kernels

import (
	"runtime"
	"sync/atomic"
	"testing"
)

// pieces runs work that takes 100 pieces from a shared counter through
// share (Parallel or Share) with extra goroutines, checks that every piece
// was done exactly once by the time share returned, and returns how many
// times work was called. It may run on a helper: it reports with Errorf.
func pieces(t *testing.T, share func(int, func()), extra int) int32 {
	t.Helper()
	const n = 100
	var next atomic.Int64
	var done [n]atomic.Int32
	var calls atomic.Int32
	share(extra, func() {
		calls.Add(1)
		for i := next.Add(1) - 1; i < n; i = next.Add(1) - 1 {
			done[i].Add(1)
		}
	})
	for i := range done {
		if d := done[i].Load(); d != 1 {
			t.Errorf("extra %d: piece %d done %d times", extra, i, d)
		}
	}
	return calls.Load()
}

// Parallel's work, taking pieces from a shared counter, does every piece
// exactly once whatever the goroutines that join, and Parallel returns only
// after the last piece is done; with no extra goroutine it runs work once,
// on the caller. So does Share.
func TestParallelPieces(t *testing.T) {
	for _, extra := range []int{0, 1, 3} {
		for rep := 0; rep < 20; rep++ {
			if c := pieces(t, Parallel, extra); c < 1 || c > int32(extra+1) {
				t.Fatalf("Parallel, extra %d: work called %d times", extra, c)
			}
			if c := pieces(t, Share, extra); c < 1 || c > int32(extra+1) {
				t.Fatalf("Share, extra %d: work called %d times", extra, c)
			}
		}
	}
}

// Share called from within a Parallel, whose call holds the helpers, runs
// work on its caller alone rather than start goroutines.
func TestShareWithinParallel(t *testing.T) {
	// The first call of work checks; the other waits until it is done, so
	// that Parallel's caller, which holds the helpers, has not returned.
	var once, checked atomic.Bool
	Parallel(1, func() {
		if once.Swap(true) {
			for !checked.Load() {
				runtime.Gosched()
			}
			return
		}
		if c := pieces(t, Share, 3); c != 1 {
			t.Errorf("within Parallel: work called %d times, want 1 (the caller)", c)
		}
		checked.Store(true)
	})
}
