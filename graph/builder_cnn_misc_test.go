package graph_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// The builders of ops/cnn_patches.go, ops/cnn_lrn.go and ops/cnn_dilation.go lay their configs out as libnd4j's
// int args and infer exact sizes with an unknown batch.
func TestCNNMiscBuilders(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float32, -1, 7, 6, 3)
	for i, c := range []struct {
		v    *graph.Variable
		want []int
	}{
		{g.CNN().ExtractImagePatches(x, graph.PatchesConfig{Kernel: [2]int{2, 3}}), []int{-1, 6, 4, 18}},
		{g.CNN().ExtractImagePatches(x, graph.PatchesConfig{Kernel: [2]int{3, 3}, Stride: [2]int{2, 2}, Rate: [2]int{2, 1}, Padding: graph.PaddingSame}), []int{-1, 4, 3, 27}},
		{g.CNN().LocalResponseNormalization(x, graph.LRNConfig{}), []int{-1, 7, 6, 3}},
		{g.CNN().Dilation2D(x, g.Placeholder("w", ndarray.Float32, 2, 3, 3), graph.Dilation2DConfig{Stride: [2]int{2, 2}, Padding: graph.PaddingSame}), []int{-1, 4, 3, 3}},
		{g.CNN().Dilation2D(x, g.Placeholder("w2", ndarray.Float32, 2, 2, 3), graph.Dilation2DConfig{Rate: [2]int{3, 1}}), []int{-1, 4, 5, 3}},
	} {
		if err := c.v.Err(); err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if !slices.Equal(c.v.Shape(), c.want) {
			t.Errorf("case %d: shape %v, want %v", i, c.v.Shape(), c.want)
		}
	}
	if v := g.CNN().ExtractImagePatches(x, graph.PatchesConfig{}); v.Err() == nil || !strings.Contains(v.Err().Error(), "kernel [0 0]") {
		t.Errorf("extract_image_patches with no kernel: %v", v.Err())
	}
	if v := g.CNN().Dilation2D(x, g.Placeholder("w3", ndarray.Float32, 2, 2, 4), graph.Dilation2DConfig{}); v.Err() == nil || !strings.Contains(v.Err().Error(), "3 channels") {
		t.Errorf("dilation2d with 4-channel weights on 3 channels: %v", v.Err())
	}
	// The defaults and the own-channel window reach the op's args.
	y := g.Placeholder("y", ndarray.Float64, 1, 1, 1, 2)
	lrn := g.CNN().LocalResponseNormalization(y, graph.LRNConfig{Bias: 4, Beta: 0.5, OwnChannelOnly: true})
	args := lrn.Op().Args()
	if !slices.Equal(args.F, []float64{4, 1e-4, 0.5}) || !slices.Equal(args.I, []int64{0}) {
		t.Errorf("lrn args %v, want F [4 1e-4 0.5], I [0]", args)
	}
}
