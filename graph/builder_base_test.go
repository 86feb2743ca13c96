package graph_test

import (
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// The builder methods of graph/builder_base.go write the arguments the
// ops read: dtypes and shapes as inferred when the graph is built.
func TestBaseMiscBuilders(t *testing.T) {
	g := graph.New()
	a := g.Placeholder("a", ndarray.Float32, 2, 3, 4)
	b := g.Placeholder("b", ndarray.Float32, 4, 3, 5)
	shape := g.Const("shape", ndarray.Must(ndarray.FromSlice([]int64{4, 6}, 2)))
	for _, c := range []struct {
		v    *graph.Variable
		dt   ndarray.DType
		want []int
	}{
		{g.Dot(a, a, nil), ndarray.Float32, []int{}},
		{g.Dot(a, a, &graph.DotConfig{Axes: []int{1}, KeepDims: true}), ndarray.Float32, []int{2, 1, 4}},
		{g.TensorDot(a, b, []int{1, 2}, []int{1, 0}), ndarray.Float32, []int{2, 5}},
		{g.Create(shape, ndarray.Int32), ndarray.Int32, []int{4, 6}},
		{g.SetScalar(a, 2), ndarray.Float32, []int{2, 3, 4}},
		{g.SetShape(a, shape), ndarray.Float32, []int{4, 6}},
		{g.IsNumericTensor(a), ndarray.Bool, []int{}},
		{g.MinMaxDataType(ndarray.Int64, true), ndarray.Int64, []int{}},
	} {
		if err := c.v.Err(); err != nil {
			t.Fatal(err)
		}
		if c.v.DType() != c.dt || !ndarray.SameShape(c.v.Shape(), c.want) {
			t.Errorf("%s: %v%v, want %v%v", c.v.Name(), c.v.DType(), c.v.Shape(), c.dt, c.want)
		}
	}
}
