package kernels

import (
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A helper runs the work it is offered, parks once it has polled for
// helperSpin, and a parked helper wakes for the next job.
func TestHelpersParkAndWake(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs GOMAXPROCS >= 2 for a pooled helper")
	}
	p := newHelperPool()
	// work returns once two goroutines run it at the same time, so run
	// returns only if a helper took a seat.
	both := func() func() {
		var in atomic.Int32
		return func() {
			in.Add(1)
			for deadline := time.Now().Add(5 * time.Second); in.Load() < 2; {
				if time.Now().After(deadline) {
					t.Error("no helper joined the caller")
					return
				}
				runtime.Gosched()
			}
		}
	}
	parked := func() {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); p.sleeping.Load() != int32(p.started); {
			if time.Now().After(deadline) {
				t.Fatalf("%d of %d helpers parked after 5 s", p.sleeping.Load(), p.started)
			}
			time.Sleep(helperSpin)
		}
	}
	p.run(1, both())
	if p.started != 1 {
		t.Fatalf("%d helpers started, want 1", p.started)
	}
	if p.job.Load() != nil {
		t.Error("the pool still holds the finished job (and so the product's matrices)")
	}
	parked()
	p.run(1, both()) // wakes the parked helper
	parked()
}

// Products from many goroutines at once share the pool or fall back to new
// goroutines, and each gets its own right answer.
func TestGemmConcurrent(t *testing.T) {
	const m, n, k, callers = 130, 300, 300, 4
	r := rand.New(rand.NewPCG(5, 6))
	a := input[float32](r, m*k, 0, false, -1, 1)
	want := make([][]float32, callers)
	bs := make([][]float32, callers)
	for g := range callers {
		bs[g] = input[float32](r, k*n, 0, false, -1, 1)
		want[g] = make([]float32, m*n)
		gemmGo(m, n, k, 1, a, k, 1, bs[g], n, 1, 0, want[g], n, 1)
	}
	var wg sync.WaitGroup
	for g := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := make([]float32, m*n)
			for range 5 {
				Gemm(2, m, n, k, 1, a, k, 1, bs[g], n, 1, 0, c, n, 1)
				for i := range c {
					if d := c[i] - want[g][i]; d > 1e-3 || d < -1e-3 {
						t.Errorf("caller %d: c[%d] = %v, want %v", g, i, c[i], want[g][i])
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}

// An operand too short for its shape and strides panics on the caller,
// naming the operand, before any helper starts; the pool stays usable.
func TestGemmBadOperand(t *testing.T) {
	const m, n, k = 200, 300, 300 // big enough to split
	a, b, c := make([]float32, m*k), make([]float32, k*n), make([]float32, m*n)
	offs := [][3]int{{0, 0, 0}, {0, 0, 1}}
	for _, tc := range []struct {
		name, operand string
		run           func()
	}{
		{"short C", "operand C", func() { Gemm(2, m, n, k, 1, a, k, 1, b, n, 1, 0, c[:m*n-1], n, 1) }},
		{"short A", "operand A", func() { Gemm(2, m, n, k, 1, a[:m*k-1], k, 1, b, n, 1, 0, c, n, 1) }},
		{"B strides past the end", "operand B", func() { Gemm(2, m, n, k, 1, a, k, 1, b, n+1, 1, 0, c, n, 1) }},
		{"negative stride", "operand A", func() { Gemm(2, m, n, k, 1, a, -k, 1, b, n, 1, 0, c, n, 1) }},
		{"batch offset past C", "operand C", func() {
			GemmBatch(2, 20, 20, 20, 1, a, 20, 1, b, 20, 1, 0, c, 20, 1, [][3]int{{0, 0, 0}, {0, 0, m*n - 10}})
		}},
		{"batch C overlapping the end", "operand C", func() { GemmBatch(2, m, n, k, 1, a, k, 1, b, n, 1, 0, c, n, 1, offs) }},
		// C_i upside down, each from the start of its last row: the batch
		// accepted it, and each product's own check refused it on the
		// goroutines the batch had spawned, which ended the program.
		{"batch negative stride back from the offset", "from before its offset", func() {
			const count, size = 40, 64
			offs := make([][3]int, count)
			for i := range offs {
				offs[i] = [3]int{0, 0, i*size*size + (size-1)*size}
			}
			c := make([]float32, count*size*size)
			GemmBatch(8, size, size, size, 1, a, size, 1, b, size, 1, 0, c, -size, 1, offs)
		}},
	} {
		func() {
			defer func() {
				r := recover()
				if s, ok := r.(string); !ok || !strings.Contains(s, tc.operand) {
					t.Errorf("%s: recovered %v, want a panic naming %s", tc.name, r, tc.operand)
				}
			}()
			tc.run()
		}()
	}
	// On one goroutine too, and before anything is written: the packed
	// path's assembly wrote rows of a C with a negative row stride in front
	// of the slice, and a stride whose extent overflows int passed the
	// check and faulted in the direct kernel.
	mem := make([]float32, 1000)
	c1 := mem[500:]
	ones := make([]float32, 32*32)
	for i := range ones {
		ones[i] = 1
	}
	for _, tc := range []struct {
		name, operand, needs string
		run                  func()
	}{
		{"negative C row stride", "operand C", "needs elements -11 to 31", func() { Gemm(1, 12, 32, 8, 1, ones, 8, 1, ones, 32, 1, 0, c1, -1, 1) }},
		{"negative C column stride", "operand C", "needs elements -11 to 31", func() { Gemm(1, 32, 12, 8, 1, ones, 8, 1, ones, 12, 1, 0, c1, 1, -1) }},
		{"stride overflowing int", "operand A", "spans more than a slice of 8", func() {
			Gemm(1, 4, 1, 1, 1, ones[:8], math.MaxUint/3+2, 1, ones, 1, 1, 0, c1, 1, 1)
		}},
	} {
		func() {
			defer func() {
				r := recover()
				if s, ok := r.(string); !ok || !strings.Contains(s, tc.operand) || !strings.Contains(s, tc.needs) {
					t.Errorf("%s: recovered %v, want a panic naming %s that says %q", tc.name, r, tc.operand, tc.needs)
				}
			}()
			tc.run()
		}()
		for i, v := range mem {
			if v != 0 {
				t.Fatalf("%s: mem[%d] = %v: written before the panic", tc.name, i, v)
			}
		}
	}
	if !helpers.mu.TryLock() {
		t.Fatal("the helper pool is still held after the panics")
	}
	helpers.mu.Unlock()
	// A, B unread when alpha is 0: only C must fit.
	Gemm(2, m, n, k, 0, nil, k, 1, nil, n, 1, 0, c, n, 1)
}
