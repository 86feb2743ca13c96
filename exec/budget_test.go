package exec_test

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// withRoom sets ndarray's memory budget to the heap in use, collected,
// plus room bytes, until the test ends.
func withRoom(t *testing.T, room int) {
	t.Helper()
	runtime.GC()
	runtime.GC()
	prev := ndarray.SetAllocLimit(ndarray.MemoryInUse() + room)
	t.Cleanup(func() { ndarray.SetAllocLimit(prev) })
}

// The buffers a session's pool keeps count towards the budget, and an
// allocation that would not fit empties the pool before it fails.
func TestPoolEmptiedUnderMemoryPressure(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 1<<21)
	y := x.AddScalar(1).MulScalar(2).Sum().Named("y") // two 16 MiB temporaries
	s := exec.New(g)
	feeds := map[string]*ndarray.Array{"x": ndarray.Must(ndarray.Zeros(ndarray.Float64, 1<<21))}
	if _, err := s.Output(feeds, y.Name()); err != nil {
		t.Fatal(err)
	}
	if s.Pooled() < 16<<20 {
		t.Fatalf("the pool keeps %d bytes, want the temporaries", s.Pooled())
	}
	withRoom(t, 24<<20)
	a, err := ndarray.Zeros(ndarray.Float32, 8<<20) // 32 MiB: fits once the pool lets go
	if err != nil {
		t.Fatalf("32 MiB with 24 MiB of room and %d pooled: %v", s.Pooled(), err)
	}
	if s.Pooled() != 0 {
		t.Errorf("the pool keeps %d bytes after the pressure", s.Pooled())
	}
	runtime.KeepAlive(a)
	runtime.KeepAlive(s)
}

// A loop that never ends, writing a fresh [1000] float64 into a tensor
// array in every iteration, stops at the budget with an error naming the
// op and the shape (or the loop frame) and the iteration, not at the end
// of the machine's memory.
func TestTensorArrayLoopStopsAtBudget(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 1000)
	outs, err := g.Op("tensorarrayv3", ops.TensorArrayArgs(ndarray.Float64, true), g.Const("size", ndarray.Scalar(int32(0))))
	if err != nil {
		t.Fatal(err)
	}
	h, flow := outs[0], outs[1]
	i0 := g.Scalar(ndarray.Int32, 0)
	res, err := g.While([]*graph.Variable{i0, flow},
		func(v []*graph.Variable) *graph.Variable { return v[0].Ge(v[0]) }, // always true
		func(v []*graph.Variable) []*graph.Variable {
			f := g.Apply("tensorarraywritev3", ops.Args{}, h, v[0], x.MulScalar(2), v[1])
			return []*graph.Variable{v[0].AddScalar(1), f}
		})
	if err != nil {
		t.Fatal(err)
	}
	withRoom(t, 32<<20)
	s := exec.New(g)
	_, err = s.Output(map[string]*ndarray.Array{"x": ndarray.Must(ndarray.Zeros(ndarray.Float64, 1000))}, res[1].Name())
	// What does not fit is the next [1000] array, the tensor array's
	// growing table of them, or the next iteration.
	if !errors.Is(err, ndarray.ErrTooLarge) || !strings.Contains(err.Error(), "iteration") || !strings.Contains(err.Error(), "memory budget") ||
		!strings.Contains(err.Error(), "shape [1000]") && !strings.Contains(err.Error(), `frame "while"`) {
		t.Errorf("endless tensor array loop: %v, want ErrTooLarge naming the shape or the frame, and the iteration", err)
	}
}

// failAt is a listener whose PreOp fails at an op of type op in loop
// iteration iter.
type failAt struct {
	op   string
	iter int
}

func (l failAt) PreOp(ev *exec.OpEvent) error {
	if ev.Op.OpName() == l.op && ev.Iteration == l.iter {
		return errors.New("no room for a snapshot")
	}
	return nil
}

func (failAt) PostOp(*exec.OpEvent) error { return nil }

// A listener's error inside a loop names the iteration, as an op's does:
// the non-in-place listener's snapshot that does not fit in the memory
// budget is one.
func TestListenerErrorInLoopNamesIteration(t *testing.T) {
	g, out := runawayLoop(t)
	s := exec.New(g)
	s.MaxIterations = 50
	_, err := s.Exec(exec.Request{Feeds: map[string]*ndarray.Array{"x": scalar(0)}, Outputs: []string{out},
		Listeners: []exec.Listener{failAt{op: "add_scalar", iter: 7}}})
	if err == nil || !strings.Contains(err.Error(), "listener before op") || !strings.Contains(err.Error(), "iteration 7)") {
		t.Errorf("got %v, want the listener's error naming iteration 7", err)
	}
}

// A loop of scalars that keeps every iteration for its gradient holds
// no array the budget would refuse (a scalar is allocated whatever the
// budget), but its iterations' bookkeeping counts: it stops at the budget.
func TestScalarLoopStopsAtBudget(t *testing.T) {
	g, out := runawayLoop(t)
	withRoom(t, 4<<20)
	s := exec.New(g)
	_, err := s.Output(map[string]*ndarray.Array{"x": scalar(0)}, out)
	if !errors.Is(err, ndarray.ErrTooLarge) || !strings.Contains(err.Error(), `loop frame "while", iteration`) {
		t.Errorf("endless scalar loop with 4 MiB of room: %v, want ErrTooLarge naming the frame and the iteration", err)
	}
}
