package exec_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// A runaway loop stops at the request's deadline, long before the
// iteration cap, with an error that wraps the context's and names where.
func TestContextStopsRunawayLoop(t *testing.T) {
	g, out := runawayLoop(t)
	s := exec.New(g)
	s.MaxIterations = 1 << 30
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := s.Exec(exec.Request{Feeds: map[string]*ndarray.Array{"x": ndarray.Scalar(0.0)}, Outputs: []string{out}, Context: ctx})
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "stopped before op") || !strings.Contains(err.Error(), "iteration") {
		t.Errorf("runaway loop with a deadline: %v", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("stopped after %v", d)
	}
	// The session still runs a request that finishes.
	s.MaxIterations = 10
	if _, err := s.Output(map[string]*ndarray.Array{"x": ndarray.Scalar(0.0)}, out); err == nil || !strings.Contains(err.Error(), "more than 10 iterations") {
		t.Errorf("after the stopped run: %v", err)
	}
}

// A canceled context stops plain and parallel runs before their first op;
// a live one changes nothing.
func TestContextCanceled(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 2)
	a, b := x.AddScalar(1), x.MulScalar(2)
	y := a.Add(b).Named("y")
	feeds := map[string]*ndarray.Array{"x": ndarray.Must(ndarray.FromSlice([]float64{1, 2}))}
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, par := range []int{0, 2} {
		s := exec.New(g)
		s.Parallel = par
		_, err := s.Exec(exec.Request{Feeds: feeds, Outputs: []string{y.Name()}, Context: canceled})
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "stopped before op") {
			t.Errorf("parallel %d, canceled: %v", par, err)
		}
		res, err := s.Exec(exec.Request{Feeds: feeds, Outputs: []string{y.Name()}, Context: context.Background()})
		if err != nil || !ndarray.Equal(res["y"], ndarray.Must(ndarray.FromSlice([]float64{4, 7}))) {
			t.Errorf("parallel %d, live context: %v %v", par, res["y"], err)
		}
	}
}
