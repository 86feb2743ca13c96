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
	} {
		if err := g.Err(); err != nil {
			t.Fatal(err)
		}
		if !ndarray.SameShape(c.v.Shape(), c.want) || c.v.DType() != ndarray.Float32 {
			t.Errorf("%s: %v%v, want float32%v", c.v.Name(), c.v.DType(), c.v.Shape(), c.want)
		}
	}
}
