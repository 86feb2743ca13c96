package createview_test

import (
	"testing"

	"github.com/sdgo/sdgo/autodiff"
	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	cv "github.com/sdgo/sdgo/ops/createview"
)

// The gradient of create_view is a scatter into the input's shape, not a
// view of the output gradient (the upstream defect).
func TestViewGradientIsScatter(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 3, 4)
	y := x.View(cv.Point(-1), cv.Interval(1, 3))
	grads, err := autodiff.Grad(y.Sum(), x)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Output(g, map[string]*ndarray.Array{"x": linspace(3, 4)}, grads[0].Name())
	if err != nil {
		t.Fatal(err)
	}
	want := f64([]int{3, 4}, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0)
	if !ndarray.Equal(out[grads[0].Name()], want) {
		t.Fatalf("gradient %v, want %v", out[grads[0].Name()], want)
	}
}
