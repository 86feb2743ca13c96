package graph_test

import (
	"strings"
	"testing"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// The indexing builders end to end: an embedding lookup masked by
// sequence length, a split, a running sum, a scatter; and an index out of
// range reported by the op with the index and the shape.
func TestIndexBuilders(t *testing.T) {
	g := graph.New()
	table := g.Const("table", ndarray.Must(ndarray.FromSlice([]float32{0, 0, 1, 1, 2, 2}, 3, 2)))
	ids := g.Const("ids", ndarray.Must(ndarray.FromSlice([]int64{2, 0, 1, 1}, 2, 2)))
	emb := g.Gather(table, ids, 0) // [2 2 2]
	mask := g.SequenceMask(g.Const("lens", ndarray.Must(ndarray.FromSlice([]int32{1, 2}, 2))), 2, ndarray.Float32)
	masked := emb.Mul(mask.ExpandDims(-1)).Named("masked")
	parts, err := masked.Split(2, 0)
	if err != nil {
		t.Fatal(err)
	}
	first := parts[0].Named("first")
	cs := g.Const("v", ndarray.Must(ndarray.FromSlice([]float64{1, 2, 3}, 3))).CumSum(0, graph.CumConfig{Reverse: true}).Named("cs")
	sc := g.ScatterAdd(g.Const("ref", ndarray.Must(ndarray.FromSlice([]float64{0, 0, 0}, 3))),
		g.Const("at", ndarray.Must(ndarray.FromSlice([]int64{2, 2}, 2))),
		g.Const("up", ndarray.Must(ndarray.FromSlice([]float64{1, 5}, 2)))).Named("sc")
	fl := g.Flatten(true, g.Const("m", ndarray.Must(ndarray.FromSlice([]int32{1, 2, 3, 4}, 2, 2)))).Repeat(2, 0).Named("fl")
	seg := g.UnsortedSegmentSum(g.Const("sx", ndarray.Must(ndarray.FromSlice([]float64{1, 2, 3}, 3))),
		g.Const("sid", ndarray.Must(ndarray.FromSlice([]int32{1, 0, 1}, 3))), 2).Named("seg")
	oh := g.OneHot(g.Const("cls", ndarray.Must(ndarray.FromSlice([]int64{1, 0}, 2))), 2).Named("oh")
	for _, v := range []*graph.Variable{masked, first, cs, sc, oh, fl, seg} {
		if v.Err() != nil {
			t.Fatal(v.Err())
		}
	}
	out, err := exec.Output(g, nil, "masked", "first", "cs", "sc", "oh", "fl", "seg")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]*ndarray.Array{
		"masked": ndarray.Must(ndarray.FromSlice([]float32{2, 2, 0, 0, 1, 1, 1, 1}, 2, 2, 2)),
		"first":  ndarray.Must(ndarray.FromSlice([]float32{2, 2, 0, 0}, 1, 2, 2)),
		"cs":     ndarray.Must(ndarray.FromSlice([]float64{6, 5, 3}, 3)),
		"sc":     ndarray.Must(ndarray.FromSlice([]float64{0, 0, 6}, 3)),
		"oh":     ndarray.Must(ndarray.FromSlice([]float32{0, 1, 1, 0}, 2, 2)),
		"seg":    ndarray.Must(ndarray.FromSlice([]float64{2, 4}, 2)),
		"fl":     ndarray.Must(ndarray.FromSlice([]int32{1, 1, 3, 3, 2, 2, 4, 4}, 8)),
	} {
		if !ndarray.Equal(out[name], want) {
			t.Errorf("%s = %v, want %v", name, out[name], want)
		}
	}

	bad := g.Gather(table, g.Const("bad", ndarray.Must(ndarray.FromSlice([]int64{0, 3}, 2))), 0).Named("bad_lookup")
	if bad.Err() != nil {
		t.Fatal(bad.Err())
	}
	_, err = exec.Output(g, nil, "bad_lookup")
	if err == nil || !strings.Contains(err.Error(), "gather") || !strings.Contains(err.Error(), "index 3") || !strings.Contains(err.Error(), "[3 2]") {
		t.Fatalf("out-of-range gather: error %v", err)
	}
}
