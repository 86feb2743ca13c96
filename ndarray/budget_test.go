package ndarray

import (
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// The budget counts what is live across allocations, not one buffer at a
// time: buffers held fill it, and once let go they are credited.
func TestBudgetCountsLiveBuffers(t *testing.T) {
	const room, each = 64 << 20, 8 << 20
	withRoom(t, room)
	var held []*Array
	var err error
	for len(held) < 2*room/each {
		var a *Array
		if a, err = Zeros(Float64, each/8); err != nil {
			break
		}
		held = append(held, a)
	}
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "in use") || !strings.Contains(err.Error(), "of shape [1048576]") {
		t.Fatalf("after %d buffers of 8 MiB in 64 MiB of room: %v, want ErrTooLarge naming the shape and the bytes in use", len(held), err)
	}
	// The heap's own overheads take a little of the room, nothing else.
	if n := len(held); n < room/each-2 || n > room/each {
		t.Errorf("%d buffers of 8 MiB fit in 64 MiB of room", n)
	}
	held = nil
	// Dropped, they are garbage: the allocation that does not fit runs
	// the GC and goes on.
	for i := range 2 * room / each {
		if _, err := Zeros(Float64, each/8); err != nil {
			t.Fatalf("buffer %d of 8 MiB, none held: %v", i, err)
		}
	}
}

// A cache registered with OnMemoryPressure is emptied before an
// allocation that does not fit fails.
func TestOnMemoryPressure(t *testing.T) {
	withRoom(t, 32<<20)
	var mu sync.Mutex
	cache := []*Array{Must(Zeros(Float64, 3<<20))} // 24 MiB
	calls := 0
	defer OnMemoryPressure(func() {
		mu.Lock()
		defer mu.Unlock()
		calls++
		cache = nil
	})()
	if _, err := Zeros(Float64, 2<<20); err != nil { // 16 MiB
		t.Fatalf("16 MiB with a 24 MiB cache in 32 MiB of room: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if calls != 1 || cache != nil {
		t.Errorf("pressure function called %d times, cache %v", calls, cache)
	}
}

// Reserve checks memory its caller allocates itself, and counts it.
func TestReserve(t *testing.T) {
	withRoom(t, 16<<20)
	if err := Reserve(32 << 20); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Reserve of 32 MiB in 16 MiB of room: %v", err)
	}
	if err := Reserve(12 << 20); err != nil {
		t.Fatalf("Reserve of 12 MiB in 16 MiB of room: %v", err)
	}
	b := make([]byte, 12<<20)
	if _, err := Zeros(Float64, 1<<20); !errors.Is(err, ErrTooLarge) {
		t.Errorf("8 MiB after 12 MiB reserved in 16 MiB of room: %v", err)
	}
	runtime.KeepAlive(b)
}

// Allocations from many goroutines at once never hold more than the
// budget between them: large ones in flight are counted before they are
// in the heap.
func TestBudgetConcurrent(t *testing.T) {
	const room, each = 64 << 20, 4 << 20
	withRoom(t, room)
	var mu sync.Mutex
	var held []*Array
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range room / each {
				a, err := Zeros(Float32, each/4)
				if err != nil {
					if !errors.Is(err, ErrTooLarge) {
						t.Error(err)
					}
					return
				}
				mu.Lock()
				held = append(held, a)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(held)*each > room {
		t.Errorf("%d buffers of 4 MiB held in 64 MiB of room", len(held))
	}
}

// BenchmarkBudget is the accounting's cost per buffer beside the
// allocation it guards: charge (and done) alone, a buffer of 16 float32
// allocated without them, and through newBuffer with them.
//
//	go test ./ndarray -run '^$' -bench Budget -count 10
func BenchmarkBudget(b *testing.B) {
	b.Run("charge", func(b *testing.B) {
		for b.Loop() {
			n, err := charge(64)
			if err != nil {
				b.Fatal(err)
			}
			done(n)
		}
	})
	var sink *Buffer
	b.Run("alloc", func(b *testing.B) {
		for b.Loop() {
			sink = &Buffer{bytes: alignedBytes(64), dtype: Float32, n: 16}
		}
	})
	b.Run("newBuffer", func(b *testing.B) {
		for b.Loop() {
			var err error
			if sink, err = newBuffer(Float32, 16); err != nil {
				b.Fatal(err)
			}
		}
	})
	runtime.KeepAlive(sink)
}
