package ndarray

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// withLimit sets the allocation limit for one test. Tests that call it must
// not run in parallel: the limit is the process's.
func withLimit(t *testing.T, n int) {
	t.Helper()
	prev := SetAllocLimit(n)
	t.Cleanup(func() { SetAllocLimit(prev) })
}

// withRoom sets the memory budget to the heap in use, once collected,
// plus room bytes, for one test. (Twice: sync.Pool's victim caches outlive
// one collection.)
func withRoom(t *testing.T, room int) {
	t.Helper()
	runtime.GC()
	runtime.GC()
	withLimit(t, MemoryInUse()+room)
}

func TestAllocLimit(t *testing.T) {
	// Made before the budget: 4 MiB, and the left half of 8 MiB.
	big := Must(Zeros(Float32, 1024, 1024))
	half := Must(Must(Zeros(Float32, 1024, 2048)).WithLayout(Layout{Shape: []int{1024, 1024}, Strides: []int{2048, 1}}))
	withRoom(t, 2<<20)
	if _, err := Zeros(Float32, 1<<18); err != nil { // 1 MiB
		t.Fatalf("Zeros of 1 MiB with 2 MiB of room: %v", err)
	}
	col := Must(Zeros(Float32, 1024, 1))
	row := Must(Zeros(Float32, 1, 1024))
	cases := []struct {
		name string
		f    func() (*Array, error)
	}{
		{"Zeros", func() (*Array, error) { return Zeros(Float32, 1<<20) }},
		{"Binary", func() (*Array, error) { return Binary(Add, col, row) }},
		{"Compare", func() (*Array, error) { return Compare(Gt, col, Must(Zeros(Float32, 1, 2048))) }},
		{"BroadcastTo", func() (*Array, error) { return BroadcastTo(col, 1024, 1024) }},
		{"Copy", func() (*Array, error) { return Copy(big) }},
		{"Unary", func() (*Array, error) { return Unary(Neg, big, 0) }},
		{"Reshape of a strided view", func() (*Array, error) { return Reshape(half, 1<<20) }},
		{"MatMul", func() (*Array, error) { return MatMul(col, row, false, false) }},
	}
	for _, c := range cases {
		a, err := c.f()
		if !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s: got %v, %v; want ErrTooLarge", c.name, a, err)
			continue
		}
		if !strings.Contains(err.Error(), fmt.Sprintf("memory budget of %d bytes", AllocLimit())) || !strings.Contains(err.Error(), "of shape [") {
			t.Errorf("%s: error %q does not name the shape and the budget", c.name, err)
		}
	}
	if _, err := NewBuffer(Float64, 1<<20); !errors.Is(err, ErrTooLarge) {
		t.Errorf("NewBuffer above the limit: %v", err)
	}
	runtime.KeepAlive(big)
	runtime.KeepAlive(half)
}

// A scalar is allocated whatever the limit: ops make scalar constants
// without expecting them to fail.
func TestAllocLimitScalars(t *testing.T) {
	withLimit(t, 1)
	if s := Scalar(2.5); s.Float() != 2.5 {
		t.Errorf("Scalar(2.5) = %v", s)
	}
	if _, err := Full(Float64, 1); err != nil {
		t.Errorf("Full of a float64 scalar under a 1-byte limit: %v", err)
	}
	if _, err := Zeros(Float64, 2); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Zeros of 2 float64 under a 1-byte limit: %v", err)
	}
}

// Without a limit set, an accidental outer broadcast far beyond the
// machine's memory is an error. Before the limit, Go's allocator ended the
// process ("fatal error: runtime: out of memory"), which no caller can
// recover from.
func TestAllocLimitDefault(t *testing.T) {
	withLimit(t, 0)
	if l := AllocLimit(); l <= 0 || l > MaxBytes {
		t.Fatalf("default AllocLimit() = %d", l)
	}
	if AllocLimit() >= 1<<39 {
		t.Skipf("this machine has %d bytes of memory, enough for the 512 GiB this test asks for", AllocLimit())
	}
	col := Must(Zeros(Float32, 1<<19, 1))
	row := Must(Zeros(Float32, 1, 1<<20))
	if _, err := Compare(Gt, col, row); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("Compare of [2^19 1] and [1 2^20] (512 GiB of bool): %v, want ErrTooLarge", err)
	}
}
