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

// One long op stops at the request's deadline, not after it: the matmul
// and conv2d kernels ask the context between panels of their products
// (issue 23: -timeout 1s on one matmul ran 5-6 s and exited 0). The run
// is a single op, so an error at all shows the op itself stopped: a run
// whose last op finishes has nothing left to stop before.
func TestContextStopsLongOp(t *testing.T) {
	const n = 2048 // 8.6e9 multiply-adds: a good fraction of a second at best
	big := func(shape ...int) *ndarray.Array { return ndarray.Must(ndarray.Full(ndarray.Float32, 1, shape...)) }
	mm := graph.New()
	a := mm.Placeholder("a", ndarray.Float32, n, n)
	mmOut := a.MatMul(a).Named("y")
	conv := graph.New()
	// 8·32²·256·4608 multiply-adds: 9.7e9, into an output of only 8 MB,
	// whose allocation (and, under the race detector, its shadow memory)
	// no deadline can cut short.
	x := conv.Placeholder("x", ndarray.Float32, 8, 512, 34, 34)
	w := conv.Placeholder("w", ndarray.Float32, 3, 3, 512, 256)
	convOut := conv.CNN().Conv2D(x, w, nil, graph.Conv2DConfig{}).Named("y")
	cases := []struct {
		name  string
		g     *graph.Graph
		out   string
		feeds map[string]*ndarray.Array
		op    string
	}{
		{"matmul", mm, mmOut.Name(), map[string]*ndarray.Array{"a": big(n, n)}, "(matmul)"},
		{"conv2d", conv, convOut.Name(), map[string]*ndarray.Array{"x": big(8, 512, 34, 34), "w": big(3, 3, 512, 256)}, "(conv2d)"},
	}
	for _, c := range cases {
		for _, par := range []int{0, 2} {
			s := exec.New(c.g)
			s.Parallel = par
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
			start := time.Now()
			_, err := s.Exec(exec.Request{Feeds: c.feeds, Outputs: []string{c.out}, Context: ctx})
			d := time.Since(start)
			cancel()
			if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, ndarray.ErrStopped) ||
				!strings.Contains(err.Error(), "run stopped in op") || !strings.Contains(err.Error(), c.op) {
				t.Errorf("%s, parallel %d: %v; want the op stopped at its deadline", c.name, par, err)
			}
			t.Logf("%s, parallel %d: stopped after %v", c.name, par, d)
			if d > 3*time.Second {
				t.Errorf("%s, parallel %d: stopped after %v", c.name, par, d)
			}
		}
	}
}
