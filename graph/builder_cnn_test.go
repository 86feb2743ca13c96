package graph_test

import (
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// The CNN builders write the int args the ops read: shapes as inferred
// when the graph is built, exact even with an unknown batch.
func TestCNNBuilders(t *testing.T) {
	g := graph.New()
	cnn := g.CNN()
	x := g.Placeholder("x", ndarray.Float32, -1, 3, 32, 32)
	w := g.Placeholder("w", ndarray.Float32, 8, 3, 3, 3)
	b := g.Placeholder("b", ndarray.Float32, 8)
	xl := g.Placeholder("xl", ndarray.Float32, -1, 28, 28, 1)
	wl := g.Placeholder("wl", ndarray.Float32, 5, 5, 1, 6)
	x1 := g.Placeholder("x1", ndarray.Float32, 4, 10, 2)
	w1 := g.Placeholder("w1", ndarray.Float32, 3, 2, 5)
	for _, c := range []struct {
		v    *graph.Variable
		want []int
	}{
		{cnn.Conv2D(x, w, b, graph.Conv2DConfig{Stride: [2]int{2, 2}, Padding: graph.PaddingSame, WeightFormat: graph.WeightsOIHW}), []int{-1, 8, 16, 16}},
		{cnn.Conv2D(xl, wl, nil, graph.Conv2DConfig{DataFormat: graph.NHWC}), []int{-1, 24, 24, 6}},
		{cnn.Deconv2D(g.Placeholder("d", ndarray.Float32, 2, 8, 5, 5), w, nil,
			graph.Conv2DConfig{Stride: [2]int{2, 2}, WeightFormat: graph.WeightsOIHW}), []int{2, 3, 11, 11}},
		{cnn.DepthwiseConv2D(x, g.Placeholder("dw", ndarray.Float32, 3, 3, 3, 2), nil, graph.Conv2DConfig{Padding: graph.PaddingSame}), []int{-1, 6, 32, 32}},
		{cnn.SeparableConv2D(x, g.Placeholder("sd", ndarray.Float32, 3, 3, 3, 2), g.Placeholder("sp", ndarray.Float32, 1, 1, 6, 4), nil,
			graph.Conv2DConfig{Padding: graph.PaddingSame}), []int{-1, 4, 32, 32}},
		{cnn.Conv3D(g.Placeholder("v", ndarray.Float32, -1, 2, 8, 9, 10), g.Placeholder("vw", ndarray.Float32, 3, 3, 3, 2, 4), nil,
			graph.Conv3DConfig{Stride: [3]int{2, 2, 2}, Padding: graph.PaddingSame}), []int{-1, 4, 4, 5, 5}},
		{cnn.Deconv3D(g.Placeholder("u", ndarray.Float32, -1, 3, 4, 5, 2), g.Placeholder("uw", ndarray.Float32, 2, 2, 2, 6, 2), nil,
			graph.Conv3DConfig{Stride: [3]int{2, 2, 2}, DataFormat: graph.NHWC}), []int{-1, 6, 8, 10, 6}},
		{cnn.Conv1D(x1, w1, nil, graph.Conv1DConfig{DataFormat: graph.NHWC, Padding: graph.PaddingCausal, Dilation: 2}), []int{4, 10, 5}},
		{cnn.Im2Col(g.Placeholder("i", ndarray.Float32, 2, 3, 5, 5), graph.Im2ColConfig{Kernel: [2]int{2, 2}}), []int{2, 3, 2, 2, 4, 4}},
		{cnn.Col2Im(g.Placeholder("c", ndarray.Float32, 2, 3, 2, 2, 4, 4), graph.Col2ImConfig{Image: [2]int{5, 5}}), []int{2, 3, 5, 5}},
	} {
		if err := c.v.Err(); err != nil {
			t.Fatal(err)
		}
		if !ndarray.SameShape(c.v.Shape(), c.want) {
			t.Errorf("%s: %v, want %v", c.v.Name(), c.v.Shape(), c.want)
		}
	}
}
