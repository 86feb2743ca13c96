package createview_test

import (
	"testing"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	cv "github.com/sdgo/sdgo/ops/createview"
)

// A new axis on a scalar whose strides slice is nil rather than empty (the
// rank-0 arrays of NewPadded, of WithLayout(a.Layout()), and so the result of
// an in-place write into a scalar) gets a stride like any other.
func TestNewAxisOnNilStrides(t *testing.T) {
	vs, vst, vo, err := cv.ResolveIndex(nil, nil, 0, cv.NewAxis(), cv.NewAxis())
	if err != nil || len(vs) != 2 || len(vst) != 2 || vo != 0 {
		t.Errorf("Resolve(nil, nil, 0, newAxis, newAxis) = %v, %v, %v, %v", vs, vst, vo, err)
	}
	s := ndarray.Scalar(2.5)
	s, _ = s.WithLayout(s.Layout())
	if v, err := cv.View(s, idxArrays(cv.NewAxis())...); err != nil || v.Rank() != 1 || v.Float(0) != 2.5 {
		t.Errorf("View(scalar 2.5, newAxis) = %v, %v", v, err)
	}
	// In a graph: y, written in place into x*2's buffer, then viewed.
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64)
	y := x.Mul(g.Scalar(ndarray.Float64, 2)).View().AddAssign(g.Scalar(ndarray.Float64, 1))
	y.View(cv.NewAxis()).Named("z")
	out, err := exec.Output(g, map[string]*ndarray.Array{"x": ndarray.Scalar(3.0)}, "z")
	if err != nil || out["z"].Rank() != 1 || out["z"].Float(0) != 7 {
		t.Errorf("graph: (x*2 + 1)[None] = %v, %v", out["z"], err)
	}
}
