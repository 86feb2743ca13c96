package graph_test

import (
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// The builder methods of ops/linalg_diag.go write the arguments the ops
// read: shapes as inferred when the graph is built.
func TestLinalgDiagBuilders(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float32, 2, 3, 3)
	v := g.Placeholder("v", ndarray.Float64, 4, 3)
	for _, c := range []struct {
		v    *graph.Variable
		dt   ndarray.DType
		want []int
	}{
		{g.Math().Diag(g.Placeholder("d", ndarray.Float32, 3)), ndarray.Float32, []int{3, 3}},
		{g.Math().DiagPart(g.Placeholder("p", ndarray.Float32, 2, 2)), ndarray.Float32, []int{2}},
		{g.Math().MatrixDiagPart(x), ndarray.Float32, []int{2, 3}},
		{g.Math().SetDiag(x, g.Math().MatrixDiagPart(x)), ndarray.Float32, []int{2, 3, 3}},
		{g.Math().Trace(x), ndarray.Float32, []int{2}},
		{g.Math().Cross(v, v), ndarray.Float64, []int{4, 3}},
		{g.Math().Eye(3, nil), ndarray.Float32, []int{3, 3}},
		{g.Math().Eye(2, &graph.EyeConfig{Cols: 4, Batch: []int{5}, DType: ndarray.Float64}), ndarray.Float64, []int{5, 2, 4}},
	} {
		if err := c.v.Err(); err != nil {
			t.Fatal(err)
		}
		if c.v.DType() != c.dt || !ndarray.SameShape(c.v.Shape(), c.want) {
			t.Errorf("%s: %v%v, want %v%v", c.v.Name(), c.v.DType(), c.v.Shape(), c.dt, c.want)
		}
	}
}
