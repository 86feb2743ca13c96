package exec_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/internal/opexec"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// tempLen is the length of test_release's "temp" temporary: a size no
// other array of these tests has, so that the pool's bytes show it.
const tempLen = 12347

// test_release returns a copy of x, and releases (Ctx.Release) what its
// string arg 0 says: "temp" a temporary of tempLen float64s ("leak" takes
// that temporary and does not release it); "out" its
// output; "view" the buffer its output is a reshaped view of; "twice" a
// temporary of x's size, twice; "input" x; "none" nothing.
var _ = ops.Register(&ops.Def{
	Name: "test_release", Type: ops.Custom, MinIn: 1, MaxIn: 1, Infer: sameInfo,
	Doc: "copy of x, releasing what string arg 0 names (exec tests only)",
	Run: func(c *ops.Ctx, in []*ndarray.Array, a *ops.Args) ([]*ndarray.Array, error) {
		x := in[0]
		mode := a.S[0]
		if mode == "view" {
			flat := c.Alloc(x.DType(), []int{x.Size()})
			v, err := ndarray.Reshape(flat, x.Shape()...)
			if err != nil {
				return nil, err
			}
			c.Release(flat)
			return []*ndarray.Array{v}, ndarray.CopyInto(v, x)
		}
		out := c.Alloc(x.DType(), x.Shape())
		switch mode {
		case "temp":
			c.Release(c.Alloc(ndarray.Float64, []int{tempLen}))
		case "leak":
			c.Alloc(ndarray.Float64, []int{tempLen})
		case "out":
			c.Release(out)
		case "twice":
			t := c.Alloc(x.DType(), x.Shape())
			c.Release(t)
			c.Release(t)
		case "input":
			c.Release(x)
		}
		return []*ndarray.Array{out}, ndarray.CopyInto(out, x)
	},
})

// A temporary an op releases goes back to the session's pool once the op
// has returned, and is reused by the next run; one it does not release is
// lost to the pool, and every run allocates it afresh.
func TestReleasedTemporaryIsPooled(t *testing.T) {
	for _, par := range []int{0, 2} {
		for _, mode := range []string{"temp", "leak"} {
			g := graph.New()
			x := g.Placeholder("x", ndarray.Float64, 4)
			y := g.Apply("test_release", ops.Args{S: []string{mode}}, x).Neg().Named("y")
			z := x.Neg().Named("z") // a second branch, for the concurrent path
			s := exec.New(g)
			s.Parallel = par
			feeds := map[string]*ndarray.Array{"x": ndarray.Must(ndarray.Full(ndarray.Float64, 1, 4))}
			run := func() {
				if _, err := s.Output(feeds, y.Name(), z.Name()); err != nil {
					t.Fatal(err)
				}
			}
			perRun := bytesPerWarmRun(run)
			pooled := s.Pooled() >= tempLen*8
			if mode == "temp" && (!pooled || perRun >= tempLen*8) {
				t.Errorf("parallel %d: a released temporary: pool keeps %d bytes, %d bytes allocated per warm run; want the %d bytes pooled and not allocated again",
					par, s.Pooled(), perRun, tempLen*8)
			}
			if mode == "leak" && (pooled || perRun < tempLen*8) {
				t.Errorf("parallel %d: a temporary not released: pool keeps %d bytes, %d bytes allocated per warm run; want it lost to the pool",
					par, s.Pooled(), perRun)
			}
		}
	}
}

// The executor gives back only what Release's contract allows: an op that
// releases its own output (or the buffer its output is a view of), a
// temporary twice, or its input, must not have that buffer handed to a
// later op while the value on it is alive. Two later ops of the same size
// (-r and 2r, both requested with r) would otherwise get one buffer.
func TestReleaseCannotAlias(t *testing.T) {
	for _, par := range []int{0, 2} {
		for _, mode := range []string{"out", "view", "twice", "input"} {
			t.Run(fmt.Sprintf("%s/parallel%d", mode, par), func(t *testing.T) {
				g := graph.New()
				x := g.Placeholder("x", ndarray.Float64, 2, 3)
				in := x.MulScalar(1) // a pooled input, for "input"
				r := g.Apply("test_release", ops.Args{S: []string{mode}}, in).Named("r")
				p := r.Neg().Named("p")
				q := r.MulScalar(2).Named("q")
				k := in.AddScalar(10).Named("k") // reads the input after r's op
				s := exec.New(g)
				s.Parallel = par
				xs := ndarray.Must(ndarray.FromSlice([]float64{1, 2, 3, 4, 5, 6}))
				feeds := map[string]*ndarray.Array{"x": ndarray.Must(ndarray.Reshape(xs, 2, 3))}
				for run := 0; run < 3; run++ {
					out, err := s.Output(feeds, r.Name(), p.Name(), q.Name(), k.Name())
					if err != nil {
						t.Fatal(err)
					}
					bufs := map[*ndarray.Buffer]string{}
					for _, n := range []string{r.Name(), p.Name(), q.Name(), k.Name()} {
						b := out[n].Buffer()
						if o, ok := bufs[b]; ok {
							t.Errorf("run %d: outputs %s and %s share a buffer", run, o, n)
						}
						bufs[b] = n
					}
					for i, v := range xs.Float64s() {
						got := []float64{out[r.Name()].Float64s()[i], out[p.Name()].Float64s()[i], out[q.Name()].Float64s()[i], out[k.Name()].Float64s()[i]}
						if want := []float64{v, -v, 2 * v, v + 10}; !slices.Equal(got, want) {
							t.Fatalf("run %d: element %d: r, -r, 2r, in+10 = %v, want %v", run, i, got, want)
						}
					}
				}
			})
		}
	}
}

// Without an executor, Release does nothing: a nil Ctx, or one NewCtx made
// with no SetRelease.
func TestReleaseWithoutExecutor(t *testing.T) {
	x := ndarray.Must(ndarray.Full(ndarray.Float64, 3, 2))
	var nilCtx *ops.Ctx
	for _, c := range []*ops.Ctx{nilCtx, ops.NewCtx("n", nil, nil)} {
		a := c.Alloc(ndarray.Float64, []int{2})
		c.Release(a)
		c.Release(nil)
		c.Release(x)
	}
	put := 0
	c := ops.NewCtx("n", func(dt ndarray.DType, shape []int) *ndarray.Array {
		return ndarray.Must(ndarray.Zeros(dt, shape...))
	}, nil)
	hooks := opexec.Of(c)
	hooks.SetRelease(func(*ndarray.Buffer) { put++ })
	hooks.BeginOp()
	a, b := c.Alloc(ndarray.Float64, []int{2}), c.Alloc(ndarray.Float64, []int{2})
	c.Release(a)
	c.Release(b)
	c.Release(x)
	hooks.EndOp([]*ndarray.Array{b})
	if put != 1 {
		t.Errorf("%d buffers given back; want 1 (a: b is the output, x not the call's)", put)
	}
	hooks.BeginOp()
	c.Release(a) // allocated by the earlier call
	hooks.EndOp(nil)
	if put != 1 {
		t.Errorf("%d buffers given back; want still 1 (a came from an earlier call)", put)
	}
}
