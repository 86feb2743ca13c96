package graph_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// Every g.Loss() builder writes its op with libnd4j's input order and
// argument layout, records its output as a loss of the graph, and computes
// what it says.
func TestLossBuilders(t *testing.T) {
	g := graph.New()
	p := g.Var("p", ndarray.Must(ndarray.FromSlice([]float64{0.25, 0.5}, 1, 2)))
	y := g.Var("y", ndarray.Must(ndarray.FromSlice([]float64{1, 0}, 1, 2)))
	w := g.Var("w", ndarray.Must(ndarray.FromSlice([]float64{2, 0}, 1, 2)))
	cls := g.Const("cls", ndarray.Must(ndarray.FromSlice([]int64{1}, 1)))
	q := g.Var("q", ndarray.Scalar(2.0))
	lab := g.Const("lab", ndarray.Must(ndarray.FromSlice([]int64{1}, 1, 1)))
	lp := g.Var("lp", ndarray.Must(ndarray.FromSlice([]float64{-0.25, -0.5, -1, -2}, 1, 2, 2)))
	one := g.Const("one", ndarray.Must(ndarray.FromSlice([]int64{1}, 1)))
	two := g.Const("two", ndarray.Must(ndarray.FromSlice([]int64{2}, 1)))
	L := g.Loss()
	ln2 := math.Ln2
	cases := []struct {
		v      *graph.Variable
		op     string
		inputs []string
		i      []int64
		f      []float64
		want   float64 // the first element of the output
	}{
		// |0.25-1|, |0.5-0|: mean 0.625.
		{L.AbsoluteDifference(y, p, nil), "absolute_difference_loss", []string{"p", "", "y"}, []int64{3}, nil, 0.625},
		// Weights 2, 0: 2·0.75 summed.
		{L.AbsoluteDifference(y, p, &graph.LossConfig{Weights: w, Reduction: graph.ReduceSum}), "absolute_difference_loss", []string{"p", "w", "y"}, []int64{1}, nil, 1.5},
		// max(0, 1-0.25) and max(0, 1+0.5), per element.
		{L.Hinge(y, p, &graph.LossConfig{Reduction: graph.ReduceNone}), "hinge_loss", []string{"p", "", "y"}, []int64{0}, nil, 0.75},
		// delta 1: ½·0.75², ½·0.5², mean.
		{L.Huber(y, p, nil), "huber_loss", []string{"p", "", "y"}, []int64{3}, []float64{1}, (0.28125 + 0.125) / 2},
		{L.Huber(y, p, &graph.HuberConfig{Delta: 0.5, LossConfig: graph.LossConfig{Reduction: graph.ReduceSum}}), "huber_loss", []string{"p", "", "y"}, []int64{1},
			[]float64{0.5}, 0.5*0.75 - 0.125 + 0.125},
		{L.LogLoss(y, p, &graph.LogLossConfig{Epsilon: 1e-300, LossConfig: graph.LossConfig{Reduction: graph.ReduceSum}}), "log_loss", []string{"p", "", "y"}, []int64{1},
			[]float64{1e-300}, 2*ln2 + ln2},
		{L.LogPoisson(y, p, &graph.LogPoissonConfig{Full: true}), "log_poisson_loss", []string{"p", "", "y"}, []int64{3, 1}, nil,
			(math.Exp(0.25) - 0.25 + (-1 + 0.5*math.Log(2*math.Pi)) + math.Exp(0.5)) / 2},
		{L.SigmoidCrossEntropy(y, p, &graph.CrossEntropyConfig{LabelSmoothing: 0.5, LossConfig: graph.LossConfig{Reduction: graph.ReduceMeanByWeight}}),
			"sigm_cross_entropy_loss", []string{"p", "", "y"}, []int64{2}, []float64{0.5},
			(0.25 - 0.25*0.75 + math.Log1p(math.Exp(-0.25)) + 0.5 - 0.5*0.25 + math.Log1p(math.Exp(-0.5))) / 2},
		{L.SoftmaxCrossEntropyWith(y, p, nil), "softmax_cross_entropy_loss", []string{"p", "", "y"}, []int64{3}, []float64{0}, math.Log1p(math.Exp(0.25))},
		{L.SoftmaxCrossEntropyWithLogits(y, p, -1), "softmax_cross_entropy_loss_with_logits", []string{"p", "y"}, []int64{-1}, nil, math.Log1p(math.Exp(0.25))},
		{L.SparseSoftmaxCrossEntropy(cls, p), "sparse_softmax_cross_entropy_loss_with_logits", []string{"cls", "p"}, nil, nil, math.Log1p(math.Exp(-0.25))},
		// t = 1, x = 0.25, q = 2: 2·ln(1+e^-0.25).
		{L.WeightedCrossEntropyWithLogits(y, p, q), "weighted_cross_entropy_with_logits", []string{"y", "p", "q"}, nil, nil, 2 * math.Log1p(math.Exp(-0.25))},
		{L.L2(p), "l2_loss", []string{"p"}, nil, nil, (0.0625 + 0.25) / 2},
		// 1 - (0.25·1 + 0.5·0).
		{L.CosineDistance(y, p, 1, nil), "cosine_distance_loss", []string{"p", "", "y"}, []int64{3, 1}, nil, 0.75},
		// d = (-0.75, 0.5), n = 2: 4/2·(2·(0.5625+0.25) - 0.0625) = 3.125.
		{L.MeanPairwiseSquaredError(y, p, &graph.LossConfig{Reduction: graph.ReduceNone}), "mean_pairwssqerr_loss", []string{"p", "", "y"}, []int64{0}, nil, 3.125},
		// Label 1 over the first frame (the second is past the length): -x[0, 1].
		{L.CTC(lab, lp, one, one, nil), "ctc_loss", []string{"lab", "lp", "one", "one"}, []int64{0}, nil, 0.5},
		// Blank 1, label 0 over two frames: paths 0 0, 0 b, b 0.
		{L.CTC(g.Const("lab0", ndarray.Must(ndarray.FromSlice([]int64{0}, 1, 1))), lp, one, two, &graph.CTCConfig{BlankIndex: 1}), "ctc_loss",
			[]string{"lab0", "lp", "one", "two"}, []int64{1}, nil, -math.Log(math.Exp(-1.25) + math.Exp(-2.25) + math.Exp(-1.5))},
	}
	var names []string
	for i, c := range cases {
		if c.v.Err() != nil {
			t.Fatalf("case %d (%s): %v", i, c.op, c.v.Err())
		}
		names = append(names, c.v.Name())
		o := c.v.Op()
		if o.OpName() != c.op {
			t.Errorf("case %d: op %s, want %s", i, o.OpName(), c.op)
		}
		for j, in := range o.Inputs() {
			if c.inputs[j] != "" && in.Name() != c.inputs[j] {
				t.Errorf("case %d (%s): input %d is %s, want %s", i, c.op, j, in.Name(), c.inputs[j])
			}
		}
		if a := o.Args(); !slices.Equal(a.I, c.i) || !slices.Equal(a.F, c.f) {
			t.Errorf("case %d (%s): int args %v float args %v, want %v %v", i, c.op, a.I, a.F, c.i, c.f)
		}
	}
	if got := g.Losses(); !slices.Equal(got, names) {
		t.Fatalf("the graph's losses are %v, want every loss built: %v", got, names)
	}
	out, err := exec.Output(g, nil, names...)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		got := out[c.v.Name()].Float64s()[0]
		if math.Abs(got-c.want) > 1e-12 {
			t.Errorf("case %d (%s) = %v, want %v", i, c.op, got, c.want)
		}
	}
}

// A loss is recorded once, follows a rename, and SetLoss still replaces
// the list.
func TestLossBuilderRecords(t *testing.T) {
	g := graph.New()
	p := g.Placeholder("p", ndarray.Float32, 2)
	y := g.Placeholder("y", ndarray.Float32, 2)
	a := g.Loss().MeanSquaredError(y, p).Named("mse")
	b := g.Loss().Hinge(y, p, nil)
	if err := g.AddLoss("mse"); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(g.Losses()); got != fmt.Sprintf("[mse %s]", b.Name()) {
		t.Errorf("losses %s", got)
	}
	if err := g.SetLoss(a.Name()); err != nil || !slices.Equal(g.Losses(), []string{"mse"}) {
		t.Errorf("SetLoss: %v %v", err, g.Losses())
	}
	if err := g.AddLoss("nope"); err == nil {
		t.Error("AddLoss of a missing variable")
	}
	// A failed build records nothing.
	bad := g.Loss().AbsoluteDifference(y, g.Placeholder("q", ndarray.Float32, 3), nil)
	if bad.Err() == nil || len(g.Losses()) != 1 {
		t.Errorf("a failed loss: %v, losses %v", bad.Err(), g.Losses())
	}
}
