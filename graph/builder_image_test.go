package graph_test

import (
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

func TestImageBuilders(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float32, 2, 5, 4, 3)
	im := g.Image()
	for _, c := range []struct {
		v    *graph.Variable
		want []int
	}{
		{im.RgbToYiq(x), []int{2, 5, 4, 3}},
		{im.YiqToRgb(x), []int{2, 5, 4, 3}},
		{im.RgbToYuv(x), []int{2, 5, 4, 3}},
		{im.YuvToRgb(x), []int{2, 5, 4, 3}},
		{im.RgbToHsv(x), []int{2, 5, 4, 3}},
		{im.HsvToRgb(x), []int{2, 5, 4, 3}},
		{im.AdjustContrast(x, 2), []int{2, 5, 4, 3}},
		{im.AdjustHue(x, 0.2), []int{2, 5, 4, 3}},
		{im.AdjustSaturation(x, 0.5), []int{2, 5, 4, 3}},
		{im.ResizeBilinear(x, 7, 2, graph.ResizeConfig{HalfPixelCenters: true}), []int{2, 7, 2, 3}},
		{im.ResizeBicubic(x, 6, 8, graph.ResizeConfig{AlignCorners: true}), []int{2, 6, 8, 3}},
		{im.ImageResize(x, 3, 3, graph.ImageResizeConfig{Method: graph.ResizeBicubic}), []int{2, 3, 3, 3}},
		{im.ImageResize(x, 10, 1, graph.ImageResizeConfig{Method: graph.ResizeNearest, PreserveAspectRatio: true}), []int{2, 10, 8, 3}},
		{im.ImageResize(x, 2, 3, graph.ImageResizeConfig{Method: graph.ResizeLanczos3, Antialias: true}), []int{2, 2, 3, 3}},
		{im.ImageResize(x, 2, 3, graph.ImageResizeConfig{Method: graph.ResizeArea}), []int{2, 2, 3, 3}},
		{im.CropAndResize(x, g.Placeholder("b", ndarray.Float32, 4, 4), g.Placeholder("i", ndarray.Int32, 4), 2, 3, graph.CropConfig{}), []int{4, 2, 3, 3}},
		{im.RandomCrop(x, []int{1, 2, 2, 3}, 5), []int{1, 2, 2, 3}},
	} {
		if err := g.Err(); err != nil {
			t.Fatal(err)
		}
		if !ndarray.SameShape(c.v.Shape(), c.want) || c.v.DType() != ndarray.Float32 {
			t.Errorf("%s: %v%v, want float32%v", c.v.Name(), c.v.DType(), c.v.Shape(), c.want)
		}
	}
}

func TestImageNMSBuilder(t *testing.T) {
	g := graph.New()
	v := g.Image().NonMaxSuppression(g.Placeholder("b", ndarray.Float32, 5, 4), g.Placeholder("s", ndarray.Float32, 5), graph.DefaultNMS(3))
	if err := g.Err(); err != nil {
		t.Fatal(err)
	}
	if v.DType() != ndarray.Int32 || len(v.Shape()) != 1 {
		t.Errorf("non_max_suppression: %v%v, want int32 vector", v.DType(), v.Shape())
	}
}
