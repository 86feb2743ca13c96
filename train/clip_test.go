package train_test

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/train"
)

// clipGrads are the gradients of the clipping tests' loss
// Σ(W1·x1) + Σ(b1·x2) + Σ(W2·x3): the feeds x1, x2, x3. Layer "l1" has norm
// √(3²+4²+12²) = 13, layer "l2" √(3·3²) = √27 ≈ 5.196, all together
// √(169+27) = 14.
var clipGrads = [][]float64{{3, 4}, {12}, {-3, 3, 3}}

// clipTrainer returns a trainer of W1, b1, W2 (starting at init, SGD with
// learning rate 1: a step takes the clipped gradient off) and the batch
// feeding clipGrads.
func clipTrainer(t *testing.T, dt ndarray.DType, c *train.Clipping, init [][]float64, reg ...train.Regularization) (*train.Trainer, []*graph.Variable, *train.Batch) {
	t.Helper()
	g := graph.New()
	names := []string{"l1/W", "l1/b", "l2/W"}
	var loss *graph.Variable
	var vars []*graph.Variable
	b := &train.Batch{}
	for i, n := range names {
		x := g.Placeholder("x"+n, dt, len(clipGrads[i]))
		w := g.Var(n, ndarray.Must(ndarray.Cast(ndarray.Must(ndarray.FromSlice(init[i], len(init[i]))), dt)))
		term := w.Mul(x).Sum()
		if loss == nil {
			loss = term
		} else {
			loss = loss.Add(term)
		}
		vars = append(vars, w)
		b.Features = append(b.Features, ndarray.Must(ndarray.Cast(ndarray.Must(ndarray.FromSlice(clipGrads[i], len(clipGrads[i]))), dt)))
	}
	if err := g.SetLoss(loss.Named("loss").Name()); err != nil {
		t.Fatal(err)
	}
	tr, err := train.New(g, &train.Config{Updater: train.NewSGD(1), Features: []string{"xl1/W", "xl1/b", "xl2/W"}, Clipping: c, Regularization: reg})
	if err != nil {
		t.Fatal(err)
	}
	return tr, vars, b
}

var zeroInit = [][]float64{{0, 0}, {0}, {0, 0, 0}}

// Each mode on the gradients above, worked by hand; a step from zero with
// SGD at learning rate 1 leaves minus the clipped gradients.
func TestClipping(t *testing.T) {
	r3 := 1 / math.Sqrt(3)
	cases := []struct {
		c    *train.Clipping
		want [][]float64
	}{
		{nil, clipGrads},
		{&train.Clipping{Mode: train.NoNormalization}, clipGrads},
		// Each element to [-2, 2].
		{&train.Clipping{Mode: train.ClipElementWiseAbsoluteValue, Threshold: 2}, [][]float64{{2, 2}, {2}, {-2, 2, 2}}},
		// Norms 5, 12, √27 against 6: only b1 is scaled, by 6/12.
		{&train.Clipping{Mode: train.ClipL2PerParamType, Threshold: 6}, [][]float64{{3, 4}, {6}, {-3, 3, 3}}},
		// Layer norms 13 and √27 against 6.5: l1 is scaled by 6.5/13.
		{&train.Clipping{Mode: train.ClipL2PerLayer, Threshold: 6.5}, [][]float64{{1.5, 2}, {6}, {-3, 3, 3}}},
		// The global norm 14 against 7: all scaled by 1/2.
		{train.ClipGlobalNorm(7), [][]float64{{1.5, 2}, {6}, {-1.5, 1.5, 1.5}}},
		// A grouping of the caller's: b1 and W2 together, norm √(144+27) =
		// √171 against 9 (W1's norm 5 is under it).
		{&train.Clipping{Mode: train.ClipL2PerLayer, Threshold: 9, Layer: func(n string) string { return strconv.FormatBool(n == "l1/W") }},
			[][]float64{{3, 4}, {12 * 9 / math.Sqrt(171)}, {-3 * 9 / math.Sqrt(171), 27 / math.Sqrt(171), 27 / math.Sqrt(171)}}},
		// Each gradient divided by its norm: 5, 12, 3√3.
		{&train.Clipping{Mode: train.RenormalizeL2PerParamType}, [][]float64{{0.6, 0.8}, {1}, {-r3, r3, r3}}},
		// Each divided by its layer's norm: 13, 3√3.
		{&train.Clipping{Mode: train.RenormalizeL2PerLayer}, [][]float64{{3.0 / 13, 4.0 / 13}, {12.0 / 13}, {-r3, r3, r3}}},
	}
	for _, dt := range []ndarray.DType{ndarray.Float64, ndarray.Float32} {
		for _, c := range cases {
			tr, vars, b := clipTrainer(t, dt, c.c, zeroInit)
			if _, err := tr.Step(b); err != nil {
				t.Fatal(err)
			}
			for i, v := range vars {
				got := v.Value().Float64s()
				for j := range got {
					if want := -c.want[i][j]; math.Abs(got[j]-want) > 1e-6*math.Max(1, math.Abs(want)) {
						t.Errorf("%v %+v: %s = %v, want minus %v", dt, c.c, v.Name(), got, c.want[i])
						break
					}
				}
			}
			// The feeds (which a gradient may be) are unchanged.
			for i, f := range b.Features {
				if !slices.Equal(f.Float64s(), clipGrads[i]) {
					t.Errorf("%+v: the step changed feed %d to %v", c.c, i, f.Float64s())
				}
			}
		}
	}
}

// Clipping comes before the regularization, as in DL4J's updater: W1's
// gradient [3, 4] clipped to [2, 2], plus L2's 0.5·[1, 1], is [2.5, 2.5],
// which takes W1 from [1, 1] to [-1.5, -1.5]. (L2 first would clip [3.5,
// 4.5] to [2, 2] and leave [-1, -1].)
func TestClippingBeforeRegularization(t *testing.T) {
	tr, vars, b := clipTrainer(t, ndarray.Float64, &train.Clipping{Mode: train.ClipElementWiseAbsoluteValue, Threshold: 2},
		[][]float64{{1, 1}, {0}, {0, 0, 0}}, train.NewL2(0.5))
	if _, err := tr.Step(b); err != nil {
		t.Fatal(err)
	}
	if got := vars[0].Value().Float64s(); !slices.Equal(got, []float64{-1.5, -1.5}) {
		t.Errorf("W1 = %v, want [-1.5 -1.5]", got)
	}
}

// A zero gradient stays zero under renormalization (DL4J would divide 0 by
// 0).
func TestRenormalizeZeroGradient(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 2)
	w := g.Var("w", ndarray.Must(ndarray.FromSlice([]float64{1, 2})))
	if err := g.SetLoss(w.Mul(x).Sum().Named("loss").Name()); err != nil {
		t.Fatal(err)
	}
	tr, err := train.New(g, &train.Config{Updater: train.NewSGD(1), Features: []string{"x"}, Clipping: &train.Clipping{Mode: train.RenormalizeL2PerLayer}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Step(&train.Batch{Features: []*ndarray.Array{ndarray.Must(ndarray.Zeros(ndarray.Float64, 2))}}); err != nil {
		t.Fatal(err)
	}
	if got := w.Value().Float64s(); !slices.Equal(got, []float64{1, 2}) {
		t.Errorf("w = %v, want [1 2]", got)
	}
}

func TestClippingErrors(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 2)
	w := g.Var("w", ndarray.Must(ndarray.FromSlice([]float64{1, 2})))
	g.Math().Square(w.Sub(x)).Sum().Named("loss")
	for _, c := range []struct {
		c    *train.Clipping
		want string
	}{
		{&train.Clipping{Mode: train.ClipL2PerLayer}, "ClipL2PerLayer: threshold 0"},
		{&train.Clipping{Mode: train.ClipElementWiseAbsoluteValue, Threshold: math.NaN()}, "threshold NaN"},
		{&train.Clipping{Mode: train.ClipL2PerParamType, Threshold: math.Inf(1)}, "threshold +Inf"},
		{&train.Clipping{Mode: 9, Threshold: 1}, "unknown gradient normalization GradientNormalization(9)"},
	} {
		_, err := train.New(g, &train.Config{Updater: train.NewSGD(0.1), Features: []string{"x"}, Losses: []string{"loss"}, Clipping: c.c})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.c, err, c.want)
		}
	}
	if train.Scope("a/b/c") != "a/b" || train.Scope("w") != "" {
		t.Errorf("Scope: %q %q", train.Scope("a/b/c"), train.Scope("w"))
	}
}
