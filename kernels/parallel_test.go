package kernels

import (
	"sync/atomic"
	"testing"
)

// Parallel's work, taking pieces from a shared counter, does every piece
// exactly once whatever the goroutines that join, and Parallel returns only
// after the last piece is done; with no extra goroutine it runs work once,
// on the caller.
func TestParallelPieces(t *testing.T) {
	for _, extra := range []int{0, 1, 3} {
		for rep := 0; rep < 20; rep++ {
			const n = 100
			var next atomic.Int64
			var done [n]atomic.Int32
			var calls atomic.Int32
			Parallel(extra, func() {
				calls.Add(1)
				for i := next.Add(1) - 1; i < n; i = next.Add(1) - 1 {
					done[i].Add(1)
				}
			})
			for i := range done {
				if d := done[i].Load(); d != 1 {
					t.Fatalf("extra %d: piece %d done %d times", extra, i, d)
				}
			}
			if c := calls.Load(); c < 1 || c > int32(extra+1) {
				t.Fatalf("extra %d: work called %d times", extra, c)
			}
		}
	}
}
