package graph_test

import (
	"math"
	"testing"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// The statistics, distance and clipping builders write their ops with
// libnd4j's layout and compute what they say.
func TestStatsBuilders(t *testing.T) {
	g := graph.New()
	x := g.Var("x", ndarray.Must(ndarray.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3)))
	y := g.Var("y", ndarray.Must(ndarray.FromSlice([]float64{1, 0, 3, 4, 5, 0}, 2, 3)))
	p := g.Var("p", ndarray.Must(ndarray.FromSlice([]float64{0.25, 0.5, 0.25}, 3)))
	v := g.Var("v", ndarray.Must(ndarray.FromSlice([]float64{3, 4}, 2)))
	M := g.Math()
	mean, variance := M.Moments(x, false, 1)
	nm, nv := M.NormalizeMoments(g.Const("c", ndarray.Scalar(2.0)), v, v, 0.5)
	uncorrected := graph.StatsDefaults()
	uncorrected.BiasCorrected = false
	cases := []struct {
		v    *graph.Variable
		op   string
		want []float64
	}{
		{g.Variance(x, graph.StatsDefaults()), "var", []float64{3.5}},
		{g.Variance(x, uncorrected, 1), "var", []float64{2.0 / 3, 2.0 / 3}},
		{g.StandardDeviation(x, graph.StatsDefaults(), 0), "std", []float64{math.Sqrt(4.5), math.Sqrt(4.5), math.Sqrt(4.5)}},
		{mean, "moments", []float64{2, 5}},
		{variance, "moments", []float64{2.0 / 3, 2.0 / 3}},
		{nm, "normalize_moments", []float64{2, 2.5}},
		{nv, "normalize_moments", []float64{1.5 - 2.25, 2 - 4}},
		{M.Standardize(x, 1), "standardize", []float64{-math.Sqrt(1.5), 0, math.Sqrt(1.5), -math.Sqrt(1.5), 0, math.Sqrt(1.5)}},
		{M.ZeroFraction(y), "zero_fraction", []float64{1.0 / 3}},
		{M.Entropy(p), "entropy", []float64{1.0397207708399179}},
		{M.LogEntropy(p), "logentropy", []float64{math.Log(1.0397207708399179)}},
		{M.ShannonEntropy(p), "shannonentropy", []float64{1.5}},
		{M.ManhattanDistance(x, y, 1), "manhattan", []float64{2, 6}},
		{M.EuclideanDistance(x, y), "euclidean", []float64{math.Sqrt(4 + 36)}},
		{M.CosineSimilarity(v, v), "cosinesimilarity", []float64{1}},
		{M.CosineDistance(v, v), "cosinedistance", []float64{0}},
		// Columns: min sums 2, 5, 3 over max sums 2, 7, 9.
		{M.JaccardDistance(x, y, 0), "jaccarddistance", []float64{0, 1 - 5.0/7, 1 - 3.0/9}},
		{M.HammingDistance(x, y), "hammingdistance", []float64{2.0 / 6}},
		{M.ClipByValue(x, 2, 4), "ClipByValue", []float64{2, 2, 3, 4, 4, 4}},
		{M.ClipByNorm(v, 2.5), "clipbynorm", []float64{1.5, 2}},
		{M.ClipByAvgNorm(v, 2), "clipbyavgnorm", []float64{2.4, 3.2}},
	}
	var names []string
	for i, c := range cases {
		if c.v.Err() != nil {
			t.Fatalf("case %d (%s): %v", i, c.op, c.v.Err())
		}
		if o := c.v.Op(); o.OpName() != c.op {
			t.Errorf("case %d: op %s, want %s", i, o.OpName(), c.op)
		}
		names = append(names, c.v.Name())
	}
	out, err := exec.Output(g, nil, names...)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		got := out[c.v.Name()].Float64s()
		if len(got) != len(c.want) {
			t.Errorf("case %d (%s) = %v, want %v", i, c.op, got, c.want)
			continue
		}
		for j := range got {
			if math.Abs(got[j]-c.want[j]) > 1e-9 {
				t.Errorf("case %d (%s) = %v, want %v", i, c.op, got, c.want)
				break
			}
		}
	}
	// A two-output builder passes an error on to both outputs.
	bad := g.Placeholder("s", ndarray.Int32, 2)
	if m, v := M.Moments(bad, false); m.Err() == nil || v.Err() == nil {
		t.Error("moments of an int32 input: no error")
	}
}

// The condition, index, merge and lookup builders.
func TestMatchBuilders(t *testing.T) {
	g := graph.New()
	x := g.Var("x", ndarray.Must(ndarray.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3)))
	a := g.Var("a", ndarray.Must(ndarray.FromSlice([]float64{1, 5}, 2)))
	b := g.Var("b", ndarray.Must(ndarray.FromSlice([]float64{3, 2}, 2)))
	ids := g.Const("ids", ndarray.Must(ndarray.FromSlice([]int64{1, 0}, 2)))
	labels := g.Const("l", ndarray.Must(ndarray.FromSlice([]int64{0, 1}, 2)))
	M := g.Math()
	gt3 := graph.Condition{Mode: graph.GreaterThan, Value: 3}
	vals, idx := M.ListDiff(a, b)
	grids, err := M.MeshGrid(true, a, g.Var("c", ndarray.Must(ndarray.FromSlice([]float64{7, 8, 9}, 3))))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		v    *graph.Variable
		op   string
		want []float64
	}{
		{g.MatchCondition(x, gt3), "match_condition_transform", []float64{0, 0, 0, 1, 1, 1}},
		{g.MatchConditionCount(x, gt3, false, 1), "match_condition", []float64{0, 3}},
		{M.FirstIndex(x, graph.Condition{Mode: graph.GreaterThan, Value: 1.5}, false, 1), "first_index", []float64{1, 0}},
		{M.LastIndex(x, graph.Condition{Mode: graph.LessThan, Value: 4.5}, false), "last_index", []float64{3}},
		{M.IsMax(x, 0), "ismax", []float64{0, 0, 0, 1, 1, 1}},
		{M.IsNonDecreasing(x), "is_non_decreasing", []float64{1}},
		{M.IsStrictlyIncreasing(a), "is_strictly_increasing", []float64{1}},
		{M.ConfusionMatrix(labels, ids, graph.ConfusionMatrixConfig{}), "confusion_matrix", []float64{0, 1, 1, 0}},
		{vals, "listdiff", []float64{1, 5}},
		{idx, "listdiff", []float64{0, 1}},
		{M.MergeAvg(a, b), "mergeavg", []float64{2, 3.5}},
		{M.MergeMax(a, b), "mergemax", []float64{3, 5}},
		{M.MergeMaxIndex(a, b), "mergemaxindex", []float64{1, 0}},
		{grids[0], "meshgrid", []float64{1, 5, 1, 5, 1, 5}},
		{grids[1], "meshgrid", []float64{7, 7, 8, 8, 9, 9}},
		{M.EmbeddingLookup(x, ids), "embedding_lookup", []float64{4, 5, 6, 1, 2, 3}},
	}
	var names []string
	for i, c := range cases {
		if c.v.Err() != nil {
			t.Fatalf("case %d (%s): %v", i, c.op, c.v.Err())
		}
		if o := c.v.Op(); o.OpName() != c.op {
			t.Errorf("case %d: op %s, want %s", i, o.OpName(), c.op)
		}
		names = append(names, c.v.Name())
	}
	out, err := exec.Output(g, nil, names...)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		got := out[c.v.Name()].Float64s()
		if len(got) != len(c.want) {
			t.Errorf("case %d (%s) = %v, want %v", i, c.op, got, c.want)
			continue
		}
		for j := range got {
			if got[j] != c.want[j] {
				t.Errorf("case %d (%s) = %v, want %v", i, c.op, got, c.want)
				break
			}
		}
	}
}
