package train_test

import (
	"math"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/train"
)

// A step whose loss is NaN or infinite stops Fit with an error, and leaves
// the parameters, the updater state and the counters as they were before
// it: the model trained so far is kept, not overwritten with NaN.
func TestNonFiniteLossLeavesModel(t *testing.T) {
	for _, bad := range []float64{math.NaN(), math.Inf(1)} {
		g := graph.New()
		x := g.Placeholder("x", ndarray.Float64, 2)
		w := g.Var("w", ndarray.Must(ndarray.FromSlice([]float64{1, 2})))
		g.Math().Square(w.Sub(x)).Sum().Named("loss")
		tr, err := train.New(g, &train.Config{Updater: train.NewAdam(0.1), Features: []string{"x"}, Losses: []string{"loss"}})
		if err != nil {
			t.Fatal(err)
		}
		good := &train.Batch{Features: []*ndarray.Array{ndarray.Must(ndarray.FromSlice([]float64{0, 0}))}}
		nan := &train.Batch{Features: []*ndarray.Array{ndarray.Must(ndarray.FromSlice([]float64{bad, 0}))}}
		h, err := tr.Fit(&listIter{b: []*train.Batch{good, nan, good}}, 1)
		if err == nil || !strings.Contains(err.Error(), "batch 1") || !strings.Contains(err.Error(), "[loss]") {
			t.Errorf("loss %v: Fit error %v", bad, err)
		}
		if len(h.Loss) != 1 || tr.Config().IterationCount != 1 {
			t.Errorf("loss %v: history %v, %d iterations counted; want the one good step", bad, h.Loss, tr.Config().IterationCount)
		}
		// After one Adam step from (1, 2) with gradient 2w: each moves by 0.1.
		checkW(t, w, 1-0.1/(1+0.5e-8), 2-0.1/(1+0.25e-8))
		st, _ := g.GetMeta(graph.MetaUpdaterState)
		for k, a := range st.(map[string]map[string]*ndarray.Array)["w"] {
			for _, v := range a.Float64s() {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Errorf("loss %v: updater state %s = %v", bad, k, a)
				}
			}
		}
	}
}
