package ops

import (
	"context"
	"errors"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
)

// A factorization of a large matrix asks its stop function every few
// columns and ends there, so one matrix cannot outlast a deadline by more
// than a few columns' work; a small one is never asked (its batch loop's
// pacer is).
func TestFactorizationsStopInsideOneMatrix(t *testing.T) {
	const n = 256
	a := make([]float64, n*n)
	for i := range n {
		a[i*n+i] = 2
	}
	for _, f := range []struct {
		name string
		run  func(stop func() bool)
	}{
		{"luFactor", func(stop func() bool) { luFactor(append([]float64(nil), a...), n, make([]int, n), stop) }},
		{"cholFactor", func(stop func() bool) { cholFactor(a, n, make([]float64, n*n), stop) }},
		{"qrFactor", func(stop func() bool) { qrFactor(a, n, n, make([]float64, n*n), make([]float64, n*n), stop) }},
	} {
		asked := 0
		f.run(func() bool { asked++; return asked == 3 })
		if asked != 3 {
			t.Errorf("%s of %d×%d: stop asked %d times, want it to end at the third", f.name, n, n, asked)
		}
		asked = 0
		f.run(func() bool { asked++; return false })
		if asked != n/8 {
			t.Errorf("%s of %d×%d: stop asked %d times, want every 8 columns (%d)", f.name, n, n, asked, n/8)
		}
	}
	small := 0
	luFactor(make([]float64, 16), 4, make([]int, 4), func() bool { small++; return true })
	if small != 0 {
		t.Errorf("luFactor of 4×4 asked stop %d times", small)
	}
}

// A pacer asks at its first tick, then once per stopWork units of work.
func TestPacer(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	c := NewCtx("n", nil, nil)
	(*execCtx)(c).SetStop(ctx)
	pc := c.pace()
	if err := pc.tick(1); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := pc.tick(stopWork - 1); err != nil {
		t.Fatalf("asked before stopWork units of work: %v", err)
	}
	if err := pc.tick(1); !errors.Is(err, ndarray.ErrStopped) || !errors.Is(err, context.Canceled) {
		t.Errorf("after stopWork units of work: %v", err)
	}
	var none pacer
	if err := none.tick(1 << 40); err != nil {
		t.Errorf("a pacer without a context: %v", err)
	}
}
