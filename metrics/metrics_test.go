package metrics_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/metrics"
	"github.com/sdgo/sdgo/ndarray"
)

func arr(t *testing.T, v []float64, shape ...int) *ndarray.Array {
	t.Helper()
	a, err := ndarray.FromSlice(v, shape...)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func ints(t *testing.T, v ...int64) *ndarray.Array {
	t.Helper()
	a, err := ndarray.FromSlice(v, len(v))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func near(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-12 && !(math.IsNaN(got) && math.IsNaN(want)) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// Six examples of three classes, true classes 0 0 1 1 2 2, predicted (the
// rows' largest) 0 1 1 1 0 2. By hand:
//
//	confusion  [1 1 0] [0 2 0] [1 0 1]; accuracy 4/6
//	class 0: TP 1 FP 1 FN 1 TN 3: P 1/2, R 1/2, F1 1/2
//	class 1: TP 2 FP 1 FN 0 TN 3: P 2/3, R 1,   F1 (4/3)/(5/3) = 0.8
//	class 2: TP 1 FP 0 FN 1 TN 4: P 1,   R 1/2, F1 1/(3/2) = 2/3
//	macro P (1/2+2/3+1)/3 = 13/18, R (1/2+1+1/2)/3 = 2/3,
//	F1 (1/2+4/5+2/3)/3 = 59/90; micro P = R = F1 = 4/6
//	top 2: example 4's true class has two larger predictions: 5/6.
var (
	threePred = []float64{
		0.7, 0.2, 0.1,
		0.3, 0.6, 0.1,
		0.1, 0.8, 0.1,
		0.2, 0.5, 0.3,
		0.5, 0.45, 0.05,
		0.1, 0.2, 0.7,
	}
	threeOneHot = []float64{1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1}
)

func threeClassEval(t *testing.T, indices bool) *metrics.Evaluation {
	e := metrics.NewEvaluation(0)
	e.TopN = 2
	// Two batches: the counts accumulate.
	for _, b := range [][2]int{{0, 4}, {4, 6}} {
		var lab *ndarray.Array
		if indices {
			lab = ints(t, []int64{0, 0, 1, 1, 2, 2}[b[0]:b[1]]...)
		} else {
			lab = arr(t, threeOneHot[3*b[0]:3*b[1]], b[1]-b[0], 3)
		}
		if err := e.Eval(lab, arr(t, threePred[3*b[0]:3*b[1]], b[1]-b[0], 3)); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

func TestEvaluationThreeClasses(t *testing.T) {
	for _, indices := range []bool{false, true} {
		e := threeClassEval(t, indices)
		if got := e.Confusion(); !slices.EqualFunc(got, [][]int64{{1, 1, 0}, {0, 2, 0}, {1, 0, 1}}, slices.Equal) {
			t.Errorf("confusion %v", got)
		}
		near(t, "accuracy", e.Accuracy(), 4.0/6)
		near(t, "top-2 accuracy", e.TopNAccuracy(), 5.0/6)
		wantP, wantR, wantF := []float64{0.5, 2.0 / 3, 1}, []float64{0.5, 1, 0.5}, []float64{0.5, 0.8, 2.0 / 3}
		wantTN := []int64{3, 3, 4}
		for c := 0; c < 3; c++ {
			near(t, fmt.Sprint("precision ", c), e.Precision(c), wantP[c])
			near(t, fmt.Sprint("recall ", c), e.Recall(c), wantR[c])
			near(t, fmt.Sprint("F1 ", c), e.F1(c), wantF[c])
			if _, _, _, tn := e.Counts(c); tn != wantTN[c] {
				t.Errorf("TN of class %d: %d, want %d", c, tn, wantTN[c])
			}
		}
		near(t, "macro precision", e.AvgPrecision(metrics.Macro), 13.0/18)
		near(t, "macro recall", e.AvgRecall(metrics.Macro), 2.0/3)
		near(t, "macro F1", e.AvgF1(metrics.Macro), 59.0/90)
		near(t, "micro precision", e.AvgPrecision(metrics.Micro), 4.0/6)
		near(t, "micro recall", e.AvgRecall(metrics.Micro), 4.0/6)
		near(t, "micro F1", e.AvgF1(metrics.Micro), 4.0/6)
	}
	want := "\n\n========================Evaluation Metrics========================" +
		"\n # of classes:    3" +
		"\n Accuracy:        0.6667" +
		"\n Top 2 Accuracy:  0.8333" +
		"\n Precision:       0.7222" +
		"\n Recall:          0.6667" +
		"\n F1 Score:        0.6556" +
		"\nPrecision, recall & F1: macro-averaged (equally weighted avg. of 3 classes)" +
		"\n\n" +
		"\n=========================Confusion Matrix=========================\n" +
		" 0 1 2\n" +
		"-------\n" +
		" 1 1 0 | 0 = 0\n" +
		" 0 2 0 | 1 = 1\n" +
		" 1 0 1 | 2 = 2\n" +
		"\nConfusion matrix format: Actual (rowClass) predicted as (columnClass) N times" +
		"\n=================================================================="
	if got := threeClassEval(t, false).Stats(); got != want {
		t.Errorf("Stats:\n%s\nwant:\n%s", got, want)
	}
}

// Class 2 is never predicted (true 0 1 2, predicted 0 1 1): its precision
// is 0/0, reported 0 and left out of the macro average, (1 + 1/2)/2 = 3/4;
// recall (1 + 1 + 0)/3; F1 of class 2 left out too: (1 + 2/3)/2 = 5/6.
func TestEvaluationClassNeverPredicted(t *testing.T) {
	e := metrics.NewEvaluation(3)
	for _, c := range [][2]int{{0, 0}, {1, 1}, {2, 1}} {
		if err := e.EvalClass(c[0], c[1]); err != nil {
			t.Fatal(err)
		}
	}
	near(t, "precision 2", e.Precision(2), 0)
	near(t, "macro precision", e.AvgPrecision(metrics.Macro), 0.75)
	near(t, "macro recall", e.AvgRecall(metrics.Macro), 2.0/3)
	near(t, "macro F1", e.AvgF1(metrics.Macro), 5.0/6)
	s := e.Stats()
	for _, want := range []string{
		" Precision:       0.7500\t(1 class excluded from average)",
		" F1 Score:        0.8333\t(1 class excluded from average)",
		"Warning: 1 class was never predicted by the model and was excluded from average precision\nClasses excluded from average precision: [2]\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("Stats lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, " Recall:          0.6667\t") {
		t.Errorf("Stats excludes a class from recall:\n%s", s)
	}
}

// One prediction column: positive when above the threshold. Labels 1 0 1 0,
// predictions 0.9 0.6 0.4 0.1: predicted 1 1 0 0, so class 1 has TP 1, FP
// 1, FN 1: accuracy, precision, recall, F1 all 1/2. With threshold 0.3,
// predicted 1 1 1 0: TP 2, FP 1, FN 0, accuracy 3/4, F1 2·(2/3)/(5/3) =
// 0.8.
func TestEvaluationBinary(t *testing.T) {
	lab := arr(t, []float64{1, 0, 1, 0}, 4, 1)
	pred := arr(t, []float64{0.9, 0.6, 0.4, 0.1}, 4, 1)
	e := metrics.NewEvaluation(0)
	if err := e.Eval(lab, pred); err != nil {
		t.Fatal(err)
	}
	if e.NumClasses() != 2 {
		t.Fatalf("%d classes", e.NumClasses())
	}
	near(t, "accuracy", e.Accuracy(), 0.5)
	near(t, "precision 1", e.Precision(1), 0.5)
	near(t, "recall 1", e.Recall(1), 0.5)
	near(t, "F1", e.AvgF1(metrics.Macro), 0.5)
	e = &metrics.Evaluation{Threshold: 0.3}
	if err := e.Eval(lab, pred); err != nil {
		t.Fatal(err)
	}
	near(t, "accuracy at 0.3", e.Accuracy(), 0.75)
	near(t, "F1 at 0.3", e.AvgF1(metrics.Micro), 0.8)
	if s := e.Stats(); !strings.Contains(s, `F1: reported for positive class (class 1 - "1") only`) {
		t.Errorf("binary Stats:\n%s", s)
	}
}

// The area under the ROC curve, by counting pairs: scores 0.9 0.6 0.4 0.1
// with positives 0.9 and 0.4: of the four (positive, negative) pairs, 0.4 <
// 0.6 is the one misordered: 3/4. With ties (0.5 0.5 0.2 0.8, positives
// the first 0.5 and 0.8) the tied pair counts a half: 3.5/4.
func TestROC(t *testing.T) {
	r := metrics.NewROC()
	if err := r.Eval(arr(t, []float64{1, 0, 1, 0}, 4, 1), arr(t, []float64{0.9, 0.6, 0.4, 0.1}, 4, 1)); err != nil {
		t.Fatal(err)
	}
	near(t, "AUC", r.AUC(), 0.75)
	r = metrics.NewROC()
	// Two columns: class 1's probability is column 1.
	if err := r.Eval(arr(t, []float64{0, 1, 1, 0, 1, 0, 0, 1}, 4, 2), arr(t, []float64{0.5, 0.5, 0.5, 0.5, 0.8, 0.2, 0.2, 0.8}, 4, 2)); err != nil {
		t.Fatal(err)
	}
	near(t, "AUC with ties", r.AUC(), 0.875)
	r = metrics.NewROC()
	if err := r.Eval(ints(t, 1, 1), arr(t, []float64{0.2, 0.4}, 2, 1)); err != nil {
		t.Fatal(err)
	}
	near(t, "AUC without negatives", r.AUC(), math.NaN())
}

// One against all on the three-class example: class 0's scores 0.7 0.3
// (positives) against 0.1 0.2 0.5 0.1: 0.3 < 0.5 is the one misordered
// pair of 8: 7/8. Class 1: 0.8 0.5 against 0.2 0.6 0.45 0.2: 7/8. Class
// 2: 0.05 0.7 against 0.1 0.1 0.1 0.3: 0.05 loses all four: 4/8. Average
// (7/8 + 7/8 + 1/2)/3 = 3/4.
func TestROCMultiClass(t *testing.T) {
	r := metrics.NewROCMultiClass()
	if err := r.Eval(arr(t, threeOneHot, 6, 3), arr(t, threePred, 6, 3)); err != nil {
		t.Fatal(err)
	}
	near(t, "AUC 0", r.AUC(0), 0.875)
	near(t, "AUC 1", r.AUC(1), 0.875)
	near(t, "AUC 2", r.AUC(2), 0.5)
	near(t, "average AUC", r.AverageAUC(), 0.75)
	near(t, "AUC 3", r.AUC(3), math.NaN())
}

// Two columns by hand. Column 0: labels 1 2 3, predictions 1.5 2 2.5,
// errors 0.5 0 -0.5: MSE 0.5/3, MAE 1/3, RMSE √(1/6); SStot 2, so R² 1 -
// 0.5/2 = 0.75 and RSE 0.25; the predictions are linear in the labels:
// correlation 1. Column 1: labels 2 4 6, predictions 3 3 9, errors 1 -1 3:
// MSE 11/3, MAE 5/3, SStot 8: R² 1 - 11/8, RSE 11/8; centred labels -2 0
// 2 and predictions -2 -2 4: correlation 12/(√8·√24) = √3/2.
func TestRegression(t *testing.T) {
	e := metrics.NewRegressionEvaluation()
	// Two batches.
	if err := e.Eval(arr(t, []float64{1, 2}, 1, 2), arr(t, []float64{1.5, 3}, 1, 2)); err != nil {
		t.Fatal(err)
	}
	if err := e.Eval(arr(t, []float64{2, 4, 3, 6}, 2, 2), arr(t, []float64{2, 3, 2.5, 9}, 2, 2)); err != nil {
		t.Fatal(err)
	}
	want := [][6]float64{
		{0.5 / 3, 1.0 / 3, math.Sqrt(1.0 / 6), 0.25, 1, 0.75},
		{11.0 / 3, 5.0 / 3, math.Sqrt(11.0 / 3), 11.0 / 8, math.Sqrt(3) / 2, 1 - 11.0/8},
	}
	for c, w := range want {
		got := [6]float64{e.MSE(c), e.MAE(c), e.RMSE(c), e.RSE(c), e.PearsonCorrelation(c), e.RSquared(c)}
		for i, name := range []string{"MSE", "MAE", "RMSE", "RSE", "PC", "R²"} {
			if math.Abs(got[i]-w[i]) > 1e-12 {
				t.Errorf("column %d %s = %v, want %v", c, name, got[i], w[i])
			}
		}
	}
	near(t, "average MSE", e.Average(e.MSE), (0.5/3+11.0/3)/2)
	near(t, "MSE of column 5", e.MSE(5), math.NaN())
	pad := func(s string, w int) string { return s + strings.Repeat(" ", w-len(s)) }
	row := func(cells ...string) string {
		s := pad(cells[0], 10)
		for _, c := range cells[1:] {
			s += pad(c, 15)
		}
		return s + "\n"
	}
	wantStats := row("Column", "MSE", "MAE", "RMSE", "RSE", "PC", "R^2") +
		row("col_0", "1.66667e-01", "3.33333e-01", "4.08248e-01", "2.50000e-01", "1.00000e+00", "7.50000e-01") +
		row("col_1", "3.66667e+00", "1.66667e+00", "1.91485e+00", "1.37500e+00", "8.66025e-01", "-3.75000e-01")
	if got := e.Stats(); got != wantStats {
		t.Errorf("Stats:\n%q\nwant\n%q", got, wantStats)
	}
	one := metrics.NewRegressionEvaluation("y")
	if err := one.Eval(arr(t, []float64{1, 2, 3}, 3), arr(t, []float64{1.5, 2, 2.5}, 3)); err != nil {
		t.Fatal(err)
	}
	near(t, "one column's R²", one.RSquared(0), 0.75)
}

func TestErrors(t *testing.T) {
	p32 := arr(t, make([]float64, 6), 3, 2)
	cases := []struct {
		what string
		err  error
		want string
	}{
		{"labels of another shape", metrics.NewEvaluation(0).Eval(arr(t, make([]float64, 6), 2, 3), p32),
			"labels float64 of shape [2 3] do not fit predictions of shape [3 2]: want one-hot labels [3 2] or class indices [3]"},
		{"float class indices", metrics.NewEvaluation(0).Eval(arr(t, []float64{0, 1, 1}, 3), p32), "of shape [3] do not fit"},
		{"an index out of range", metrics.NewEvaluation(0).Eval(ints(t, 0, 2, 1), p32), "label 2 of example 1 is not a class in [0, 2)"},
		{"rank-1 predictions", metrics.NewEvaluation(0).Eval(ints(t, 0, 1, 1), arr(t, []float64{0, 1, 1}, 3)), "predictions must be a float array [examples, classes]"},
		{"NaN", metrics.NewEvaluation(0).Eval(ints(t, 0, 1, 1), arr(t, []float64{0, 1, 1, math.NaN(), 0, 0}, 3, 2)), "prediction 1 of example 1 is NaN"},
		{"another number of classes", metrics.NewEvaluation(3).Eval(ints(t, 0, 1, 1), p32), "Evaluation of 3 classes: predictions of shape [3 2] give 2"},
		{"nil", metrics.NewEvaluation(0).Eval(nil, p32), "no labels"},
		{"EvalClass out of range", metrics.NewEvaluation(2).EvalClass(0, 2), "classes 0 (actual) and 2 (predicted) must be in [0, 2)"},
		{"EvalClass before classes", metrics.NewEvaluation(0).EvalClass(0, 0), "needs the number of classes"},
		{"ROC of 3 classes", metrics.NewROC().Eval(ints(t, 0), arr(t, []float64{1, 0, 0}, 1, 3)), "ROC is binary"},
		{"ROCMultiClass of one column", metrics.NewROCMultiClass().Eval(ints(t, 0), arr(t, []float64{1}, 1, 1)), "a binary ROC is ROC"},
		{"regression shapes", metrics.NewRegressionEvaluation().Eval(arr(t, make([]float64, 6), 2, 3), arr(t, make([]float64, 6), 3, 2)),
			"labels of shape [2 3] and predictions of shape [3 2] must have one shape"},
		{"regression column names", metrics.NewRegressionEvaluation("a").Eval(p32, p32), `1 column names ["a"] for predictions of shape [3 2]`},
	}
	for _, c := range cases {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.what, c.err, c.want)
		}
	}
	// Before any data: DL4J's values, no panic.
	e := metrics.NewEvaluation(0)
	if e.Accuracy() != 0 || e.AvgPrecision(metrics.Macro) != 0 || !math.IsNaN(e.AvgF1(metrics.Macro)) || e.Precision(4) != 0 {
		t.Error("an empty evaluation's metrics")
	}
	if s := e.Stats(); !strings.Contains(s, "Confusion matrix: <no data>") {
		t.Errorf("empty Stats: %s", s)
	}
	if s := metrics.NewRegressionEvaluation().Stats(); s != "RegressionEvaluation: No Data" {
		t.Errorf("empty regression Stats: %s", s)
	}
}
