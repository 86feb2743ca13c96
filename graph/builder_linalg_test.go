package graph_test

import (
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// The SDLinalg builder methods write the arguments the ops read: shapes
// and dtypes as inferred when the graph is built.
func TestLinalgBuilders(t *testing.T) {
	g := graph.New()
	la := g.Linalg()
	x := g.Placeholder("x", ndarray.Float32, 2, 3, 3)
	w := g.Placeholder("w", ndarray.Float64, 4, 2)
	b := g.Placeholder("b", ndarray.Float32, 2, 3, 5)
	lu, perm := la.LU(x, ndarray.Int64)
	q, r := la.QR(w, false)
	qf, rf := la.QR(w, true)
	s, u, v := la.SVD(w, nil)
	_, uf, vf := la.SVD(w, &graph.SVDConfig{FullMatrices: true})
	ev, evec := la.Eig(g.Placeholder("sq", ndarray.Float64, 3, 3))
	for _, c := range []struct {
		v    *graph.Variable
		dt   ndarray.DType
		want []int
	}{
		{la.Inverse(x), ndarray.Float32, []int{2, 3, 3}},
		{la.Det(x), ndarray.Float32, []int{2}},
		{la.LogDet(x), ndarray.Float32, []int{2}},
		{la.Cholesky(x), ndarray.Float32, []int{2, 3, 3}},
		{lu, ndarray.Float32, []int{2, 3, 3}},
		{perm, ndarray.Int64, []int{2, 3}},
		{q, ndarray.Float64, []int{4, 2}},
		{r, ndarray.Float64, []int{2, 2}},
		{qf, ndarray.Float64, []int{4, 4}},
		{rf, ndarray.Float64, []int{4, 2}},
		{s, ndarray.Float64, []int{2}},
		{u, ndarray.Float64, []int{4, 2}},
		{v, ndarray.Float64, []int{2, 2}},
		{uf, ndarray.Float64, []int{4, 4}},
		{vf, ndarray.Float64, []int{2, 2}},
		{ev, ndarray.Float64, []int{3, 2}},
		{evec, ndarray.Float64, []int{3, 3, 2}},
		{la.SingularValues(x), ndarray.Float32, []int{2, 3}},
		{la.Solve(x, b, true), ndarray.Float32, []int{2, 3, 5}},
		{la.TriangularSolve(x, b, &graph.TriangularSolveConfig{Upper: true}), ndarray.Float32, []int{2, 3, 5}},
		{la.Lstsq(w, g.Placeholder("y", ndarray.Float64, 4, 1), &graph.LstsqConfig{L2: 0.1}), ndarray.Float64, []int{2, 1}},
		{la.BandPart(x, 1, -1), ndarray.Float32, []int{2, 3, 3}},
		{la.Tril(w), ndarray.Float64, []int{4, 2}},
		{la.Triu(g.Placeholder("t", ndarray.Float32, 3), 1), ndarray.Float32, []int{3, 3}},
		{la.Tri(2, 3, 0, ndarray.Invalid), ndarray.Float32, []int{2, 3}},
		{la.Tri(2, 2, -1, ndarray.Float64), ndarray.Float64, []int{2, 2}},
	} {
		if err := c.v.Err(); err != nil {
			t.Fatal(err)
		}
		if c.v.DType() != c.dt || !ndarray.SameShape(c.v.Shape(), c.want) {
			t.Errorf("%s: %v%v, want %v%v", c.v.Name(), c.v.DType(), c.v.Shape(), c.dt, c.want)
		}
	}
	if bad := la.Inverse(w); bad.Err() == nil {
		t.Error("the inverse of a 4×2 matrix: no error")
	}
}
