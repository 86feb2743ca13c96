package exec_test

import (
	"testing"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
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
