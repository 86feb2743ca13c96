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
		{g.ReplaceWhere(a, a, graph.Condition{Mode: 2}), ndarray.Float32, []int{2, 3, 4}},
		{g.ReplaceWhereValue(a, 1, graph.Condition{Mode: 9}), ndarray.Float32, []int{2, 3, 4}},
	} {
		if err := c.v.Err(); err != nil {
			t.Fatal(err)
		}
		if c.v.DType() != c.dt || !ndarray.SameShape(c.v.Shape(), c.want) {
			t.Errorf("%s: %v%v, want %v%v", c.v.Name(), c.v.DType(), c.v.Shape(), c.dt, c.want)
		}
	}
}

// DynamicPartition and DynamicStitch: output shapes from constant
// partitions and indices.
func TestPartitionBuilders(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 4, 2)
	p := g.Const("p", ndarray.Must(ndarray.FromSlice([]int32{1, 0, 1, 1}, 4)))
	parts, err := g.DynamicPartition(x, p, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(parts) != 2 || !ndarray.SameShape(parts[0].Shape(), []int{1, 2}) || !ndarray.SameShape(parts[1].Shape(), []int{3, 2}) {
		t.Fatalf("partitions %v", parts)
	}
	i0 := g.Const("i0", ndarray.Must(ndarray.FromSlice([]int32{1}, 1)))
	i1 := g.Const("i1", ndarray.Must(ndarray.FromSlice([]int32{0, 2, 3}, 3)))
	y := g.DynamicStitch([]*graph.Variable{i0, i1}, parts)
	if err := y.Err(); err != nil || !ndarray.SameShape(y.Shape(), []int{4, 2}) {
		t.Fatalf("stitch: %v %v", y.Shape(), err)
	}
}

// BatchMmul writes M, N, K from the matrices' shapes.
func TestBatchMmulBuilder(t *testing.T) {
	g := graph.New()
	a0 := g.Placeholder("a0", ndarray.Float32, 3, 2)
	a1 := g.Placeholder("a1", ndarray.Float32, 3, 2)
	b0 := g.Placeholder("b0", ndarray.Float32, 4, 3)
	b1 := g.Placeholder("b1", ndarray.Float32, 4, 3)
	cs, err := g.BatchMmul([]*graph.Variable{a0, a1}, []*graph.Variable{b0, b1}, &graph.BatchMmulConfig{TransA: true, TransB: true, Alpha: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 2 || !ndarray.SameShape(cs[1].Shape(), []int{2, 4}) {
		t.Fatalf("products %v", cs)
	}
	if _, err := g.BatchMmul([]*graph.Variable{a0}, nil, nil); err == nil {
		t.Error("no error for unpaired matrices")
	}
}
