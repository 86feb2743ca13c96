package graph_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// The pooling builders lay their configs out as libnd4j's int args and
// infer exact spatial sizes with an unknown batch.
func TestPoolingBuilders(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float32, -1, 3, 9, 8)
	cases := []struct {
		v    *graph.Variable
		want []int
	}{
		{g.CNN().MaxPool2D(x, graph.Pooling2DConfig{Kernel: [2]int{2, 2}, Stride: [2]int{2, 2}}), []int{-1, 3, 4, 4}},
		{g.CNN().AvgPool2D(x, graph.Pooling2DConfig{Kernel: [2]int{3, 3}, Stride: [2]int{2, 2}, Padding: graph.PaddingSame, IncludePadding: true}), []int{-1, 3, 5, 4}},
		{g.CNN().PnormPool2D(x, graph.Pooling2DConfig{Kernel: [2]int{2, 2}, Dilation: [2]int{2, 2}}), []int{-1, 3, 7, 6}},
	}
	v, idx := g.CNN().MaxPoolWithArgmax(x, graph.Pooling2DConfig{Kernel: [2]int{3, 3}})
	cases = append(cases, struct {
		v    *graph.Variable
		want []int
	}{v, []int{-1, 3, 7, 6}}, struct {
		v    *graph.Variable
		want []int
	}{idx, []int{-1, 3, 7, 6}})
	x3 := g.Placeholder("x3", ndarray.Float32, -1, 4, 4, 4, 2)
	cases = append(cases, struct {
		v    *graph.Variable
		want []int
	}{g.CNN().MaxPool3D(x3, graph.Pooling3DConfig{Kernel: [3]int{2, 2, 2}, Stride: [3]int{2, 2, 2}, DataFormat: graph.NHWC}), []int{-1, 2, 2, 2, 2}})
	for i, c := range cases {
		if err := c.v.Err(); err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if !slices.Equal(c.v.Shape(), c.want) {
			t.Errorf("case %d: shape %v, want %v", i, c.v.Shape(), c.want)
		}
	}
}

// The space and upsampling builders infer exact sizes, batch unknown.
func TestSpaceBuilders(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float32, -1, 4, 6, 3)
	for i, c := range []struct {
		v    *graph.Variable
		want []int
	}{
		{g.CNN().SpaceToDepth(x, 2, graph.NHWC), []int{-1, 2, 3, 12}},
		{g.CNN().DepthToSpace(g.CNN().SpaceToDepth(x, 2, graph.NHWC), 2, graph.NHWC), []int{-1, 4, 6, 3}},
		{g.CNN().Upsampling2D(x, [2]int{2, 3}, graph.NHWC), []int{-1, 8, 18, 3}},
		{g.CNN().Upsampling2D(x, [2]int{2, 3}, graph.NCHW), []int{-1, 4, 12, 9}},
		{g.CNN().SpaceToBatch(x, graph.SpaceToBatchConfig{BlockSize: 2, Edges: [2][2]int{{0, 2}, {1, 1}}}), []int{-1, 3, 4, 3}},
		{g.CNN().BatchToSpace(g.Placeholder("b", ndarray.Float32, 8, 2, 3, 1), graph.SpaceToBatchConfig{BlockSize: 2, Edges: [2][2]int{{1, 0}, {2, 3}}}), []int{2, 3, 1, 1}},
		{g.CNN().SpaceToBatchND(x, graph.SpaceToBatchNDConfig{Blocks: []int{2}, Edges: [][2]int{{1, 1}}}), []int{-1, 3, 6, 3}},
		{g.CNN().BatchToSpaceND(g.Placeholder("b3", ndarray.Float32, 12, 2, 2, 5), graph.SpaceToBatchNDConfig{Blocks: []int{3, 2, 1}, Edges: [][2]int{{1, 0}, {0, 1}}}), []int{2, 5, 3, 5}},
	} {
		if err := c.v.Err(); err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if !slices.Equal(c.v.Shape(), c.want) {
			t.Errorf("case %d: shape %v, want %v", i, c.v.Shape(), c.want)
		}
	}
	if v := g.CNN().SpaceToDepth(g.Placeholder("y", ndarray.Float32, 1, 3, 3, 1), 2, graph.NHWC); v.Err() == nil {
		t.Errorf("space_to_depth of a 3x3 image with blocks of 2: no error")
	}
	if v := g.CNN().SpaceToBatch(x, graph.SpaceToBatchConfig{}); v.Err() == nil || !strings.Contains(v.Err().Error(), "block size 0") {
		t.Errorf("space_to_batch with no block size: %v", v.Err())
	}
}
