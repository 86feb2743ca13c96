package exec_test

import (
	"strings"
	"testing"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// A matrix product of a vector with a batch of matrices whose batch size is
// only known at run time: inference must leave the batch axis unknown. It
// gave 1, and the executor rejected the real output.
func TestMatMulVectorWithUnknownBatch(t *testing.T) {
	for _, c := range []struct {
		xs, ys, xa, ya, want []int
	}{
		{[]int{-1, -1, 3}, []int{3}, []int{2, 5, 3}, []int{3}, []int{2, 5}},
		{[]int{-1, 5, 3}, []int{3}, []int{2, 5, 3}, []int{3}, []int{2, 5}},
		{[]int{3}, []int{-1, 3, 4}, []int{3}, []int{2, 3, 4}, []int{2, 4}},
		{[]int{-1, 3}, []int{-1, 3, 4}, []int{5, 3}, []int{2, 3, 4}, []int{2, 5, 4}},
	} {
		g := graph.New()
		x := g.Placeholder("x", ndarray.Float64, c.xs...)
		y := g.Placeholder("y", ndarray.Float64, c.ys...)
		z := x.MatMul(y).Named("z")
		if z.Err() != nil {
			t.Fatalf("%v x %v: %v", c.xs, c.ys, z.Err())
		}
		out, err := exec.Output(g, map[string]*ndarray.Array{
			"x": ndarray.Must(ndarray.Full(ndarray.Float64, 1, c.xa...)),
			"y": ndarray.Must(ndarray.Full(ndarray.Float64, 1, c.ya...)),
		}, "z")
		if err != nil {
			t.Errorf("%v x %v (inferred %v) fed %v x %v: %v", c.xs, c.ys, z.Shape(), c.xa, c.ya, err)
			continue
		}
		if got := out["z"].Shape(); !ndarray.SameShape(got, c.want) {
			t.Errorf("%v x %v: shape %v, want %v", c.xa, c.ya, got, c.want)
		}
	}
}

// A loss's labels must fit its predictions, and its weights its per-element
// losses: numpy-style broadcasting both ways turned predictions [2 1] and
// labels [2] (or weights [2]) into a [2 2] grid of losses, whose mean was
// silently returned.
func TestLossShapesMustFit(t *testing.T) {
	f64 := func(shape []int, v ...float64) *ndarray.Array {
		return ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.FromSlice(v)), shape...))
	}
	cases := []struct {
		name         string
		pred, lab, w *ndarray.Array
		reduce       ops.LossReduce
		opName       string
	}{
		{"labels [2] for predictions [2 1]", f64([]int{2, 1}, 1, 3), f64([]int{2}, 0, 0), nil, ops.LossMeanByNonzeroWeightCount, "mean_sqerr_loss"},
		{"weights [2] for losses [2 1]", f64([]int{2, 1}, 1, 3), f64([]int{2, 1}, 0, 0), f64([]int{2}, 1, 0), ops.LossMeanByNonzeroWeightCount, "mean_sqerr_loss"},
		{"weights [2 1] for losses [2]", f64([]int{2}, 1, 3), f64([]int{2}, 0, 0), f64([]int{2, 1}, 1, 0), ops.LossSum, "mean_sqerr_loss"},
		{"weights [2 2] for losses [2]", f64([]int{2, 2}, 1, 3, 0, 1), f64([]int{2, 2}, 0, 1, 1, 0), f64([]int{2, 2}, 1, 0, 1, 0), ops.LossSum, "softmax_cross_entropy_loss"},
	}
	for _, c := range cases {
		g := graph.New()
		p := g.Placeholder("p", ndarray.Float64, c.pred.Shape()...)
		l := g.Placeholder("l", ndarray.Float64, c.lab.Shape()...)
		var w *graph.Variable
		feeds := map[string]*ndarray.Array{"p": c.pred, "l": c.lab}
		if c.w != nil {
			w = g.Placeholder("w", ndarray.Float64, c.w.Shape()...)
			feeds["w"] = c.w
		}
		loss := g.Loss().Weighted(c.opName, l, p, w, c.reduce)
		if loss.Err() != nil {
			if !strings.Contains(loss.Err().Error(), c.opName) {
				t.Errorf("%s: the build error does not name the op: %v", c.name, loss.Err())
			}
			continue
		}
		out, err := exec.Output(g, feeds, loss.Name())
		if err == nil {
			t.Errorf("%s: accepted, loss %v", c.name, out[loss.Name()])
		}
		// Unknown sizes defer the check to the run, which must make it too.
		g = graph.New()
		unknown := func(a *ndarray.Array) []int {
			s := make([]int, a.Rank())
			for i := range s {
				s[i] = -1
			}
			return s
		}
		p = g.Placeholder("p", ndarray.Float64, unknown(c.pred)...)
		l = g.Placeholder("l", ndarray.Float64, unknown(c.lab)...)
		w = nil
		if c.w != nil {
			w = g.Placeholder("w", ndarray.Float64, unknown(c.w)...)
		}
		loss = g.Loss().Weighted(c.opName, l, p, w, c.reduce)
		if loss.Err() != nil {
			continue
		}
		if out, err := exec.Output(g, feeds, loss.Name()); err == nil {
			t.Errorf("%s, sizes unknown while building: accepted, loss %v", c.name, out[loss.Name()])
		}
	}
}

// Outputs that share a buffer are not the caller's alone, in plans with
// control flow too: there the run counts holds only on its leaves' buffers,
// so two outputs on a donated feed's buffer both passed as exclusive, and
// recycling or writing one changed the other.
func TestExclusiveSharedOutputsWithControlFlow(t *testing.T) {
	g, _, acc := countdown(t)
	x, _ := g.Variable("x")
	g.Identity(x).Named("xi")
	x.Reshape(2, 1).Named("xr")
	for _, outs := range [][]string{{"xi", "xr"}, {acc.Name(), "xi", "xr"}} {
		s := exec.New(g)
		feeds := map[string]*ndarray.Array{"n": scalar(2), "x": f64s(1, 2)}
		out, err := s.Exec(exec.Request{Feeds: feeds, Outputs: outs, Donate: []string{"x"}, Recyclable: true})
		if err != nil {
			t.Fatal(err)
		}
		if !out["xi"].SameBuffer(out["xr"]) {
			t.Fatal("the outputs do not share a buffer: this test needs them to")
		}
		for _, n := range []string{"xi", "xr"} {
			if s.Exclusive(out[n]) {
				t.Errorf("outputs %v: Exclusive(%s) = true, but %s shares its buffer with another output", outs, n, n)
			}
		}
		// Handing xi back must not let a later run write into xr.
		keep := ndarray.Must(ndarray.Copy(out["xr"]))
		s.Recycle(out["xi"])
		feeds["x"] = f64s(5, 6)
		if _, err := s.Exec(exec.Request{Feeds: feeds, Outputs: outs, Donate: []string{"x"}}); err != nil {
			t.Fatal(err)
		}
		if !ndarray.Equal(out["xr"], keep) {
			t.Errorf("outputs %v: after recycling xi, a later run changed xr from %v to %v", outs, keep, out["xr"])
		}
	}
}

// invert_permutation takes a vector: a matrix or a scalar is an error that
// says so, while building and (for an unknown rank) when running, not an
// output the executor finds of another shape than inferred.
func TestInvertPermutationNeedsVector(t *testing.T) {
	m := ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.FromSlice([]int64{1, 0})), 1, 2))
	g := graph.New()
	if v := g.Apply("invert_permutation", ops.Args{}, g.Const("p", m)); v.Err() == nil || !strings.Contains(v.Err().Error(), "vector") {
		t.Errorf("invert_permutation of a [1 2] constant built: %v", v.Err())
	}
	g = graph.New()
	p := g.Placeholder("p", ndarray.Int64)
	unknownRank, err := g.Op("invert_permutation", ops.Args{}, g.Apply("reshape", ops.Args{}, p, g.Placeholder("s", ndarray.Int64, -1)))
	if err != nil {
		t.Fatal(err)
	}
	_, err = exec.Output(g, map[string]*ndarray.Array{"p": ndarray.Scalar(int64(0)), "s": ndarray.Must(ndarray.FromSlice([]int64{1, 1}))}, unknownRank[0].Name())
	if err == nil || !strings.Contains(err.Error(), "vector") {
		t.Errorf("invert_permutation of a [1 1] array: %v", err)
	}
}
