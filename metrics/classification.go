// Package metrics evaluates models as DL4J's evaluation classes do:
// Evaluation (accuracy, precision, recall, F1 per class and macro- or
// micro-averaged, top-N accuracy, the confusion matrix), ROC and
// ROCMultiClass (the area under the ROC curve, binary and one-vs-all), and
// RegressionEvaluation (MSE, MAE, RMSE, RSE, Pearson correlation and R² per
// column). Each accumulates over batches (Eval) and reports in DL4J's
// layout (Stats).
//
// Predictions are arrays [n, C] (probabilities or scores, one row per
// example). Labels are either of the predictions' shape (one-hot, the class
// being the largest element) or, for classification, integer class indices
// [n]. Labels of another shape are an error that names both shapes.
package metrics

import (
	"fmt"
	"math"
	"strings"

	"github.com/sdgo/sdgo/ndarray"
)

// Averaging says how a metric is averaged over classes.
type Averaging int

const (
	// Macro averages the classes' values, each class weighing the same;
	// classes whose value is 0/0 are left out (as DL4J does).
	Macro Averaging = iota
	// Micro computes the value from the counts summed over the classes.
	Micro
)

// Evaluation accumulates a classifier's predictions (DL4J's Evaluation).
// With one prediction column (binary), an example is predicted positive
// (class 1) when its prediction is above the threshold; otherwise the
// predicted class is the row's largest element (the first, on ties).
type Evaluation struct {
	// TopN, above 1, counts an example correct for TopNAccuracy when fewer
	// than TopN classes have a larger prediction than its true class.
	TopN int
	// Threshold is the binary decision threshold of a single prediction
	// column; 0 means 0.5.
	Threshold float64
	// ClassNames names the classes in Stats (by default "0", "1", ...).
	ClassNames []string

	classes     int
	confusion   [][]int64
	tp, fp      []int64
	fn, tn      []int64
	rows        int64
	topNCorrect int64
	topNTotal   int64
}

// NewEvaluation returns an evaluation of numClasses classes; 0 takes the
// number from the first batch (a single prediction column is 2 classes).
func NewEvaluation(numClasses int) *Evaluation {
	e := &Evaluation{}
	if numClasses > 0 {
		e.init(numClasses)
	}
	return e
}

func (e *Evaluation) init(c int) {
	e.classes = c
	e.confusion = make([][]int64, c)
	for i := range e.confusion {
		e.confusion[i] = make([]int64, c)
	}
	e.tp, e.fp, e.fn, e.tn = make([]int64, c), make([]int64, c), make([]int64, c), make([]int64, c)
}

// classData checks labels against predictions and returns each example's
// true class, the predictions as float64s (row-major), and n and C.
func classData(what string, labels, predictions *ndarray.Array) (truth []int, pred []float64, n, c int, err error) {
	if labels == nil || predictions == nil {
		return nil, nil, 0, 0, fmt.Errorf("metrics: %s: no labels or no predictions", what)
	}
	ps, ls := predictions.Shape(), labels.Shape()
	if len(ps) != 2 || !predictions.DType().IsFloat() {
		return nil, nil, 0, 0, fmt.Errorf("metrics: %s: predictions must be a float array [examples, classes], not %v of shape %v",
			what, predictions.DType(), ps)
	}
	n, c = ps[0], ps[1]
	if c < 1 {
		return nil, nil, 0, 0, fmt.Errorf("metrics: %s: predictions of shape %v have no class column", what, ps)
	}
	pred = predictions.Float64s()
	for i, v := range pred {
		if math.IsNaN(v) {
			return nil, nil, 0, 0, fmt.Errorf("metrics: %s: prediction %d of example %d is NaN", what, i%c, i/c)
		}
	}
	want := fmt.Sprintf("one-hot labels %v or class indices [%d]", ps, n)
	if c == 1 {
		want = fmt.Sprintf("labels %v of 0 and 1 or class indices [%d]", ps, n)
	}
	truth = make([]int, n)
	switch {
	case len(ls) == 2 && ls[0] == n && ls[1] == c:
		lv := labels.Float64s()
		for i := 0; i < n; i++ {
			row := lv[i*c : (i+1)*c]
			if c == 1 {
				if row[0] != 0 {
					truth[i] = 1
				}
				continue
			}
			truth[i] = argmax(row)
		}
	case len(ls) == 1 && ls[0] == n && !labels.DType().IsFloat():
		k := max(c, 2)
		for i, v := range labels.Int64s() {
			if v < 0 || v >= int64(k) {
				return nil, nil, 0, 0, fmt.Errorf("metrics: %s: label %d of example %d is not a class in [0, %d)", what, v, i, k)
			}
			truth[i] = int(v)
		}
	default:
		return nil, nil, 0, 0, fmt.Errorf("metrics: %s: labels %v of shape %v do not fit predictions of shape %v: want %s",
			what, labels.DType(), ls, ps, want)
	}
	return truth, pred, n, c, nil
}

// argmax returns the index of the first largest element.
func argmax(row []float64) int {
	best := 0
	for j, v := range row {
		if v > row[best] {
			best = j
		}
	}
	return best
}

// Eval adds a batch: labels and predictions as the package says.
func (e *Evaluation) Eval(labels, predictions *ndarray.Array) error {
	truth, pred, n, c, err := classData("Evaluation", labels, predictions)
	if err != nil {
		return err
	}
	k := max(c, 2)
	if e.classes == 0 {
		e.init(k)
	} else if e.classes != k {
		return fmt.Errorf("metrics: Evaluation of %d classes: predictions of shape %v give %d", e.classes, predictions.Shape(), k)
	}
	th := e.Threshold
	if th == 0 {
		th = 0.5
	}
	for i := 0; i < n; i++ {
		row := pred[i*c : (i+1)*c]
		p := argmax(row)
		if c == 1 {
			p = 0
			if row[0] > th {
				p = 1
			}
		}
		e.add(truth[i], p)
		if c > 1 && e.TopN > 1 {
			greater := 0
			for _, v := range row {
				if v > row[truth[i]] {
					greater++
				}
			}
			if greater < e.TopN {
				e.topNCorrect++
			}
			e.topNTotal++
		}
	}
	return nil
}

// EvalClass adds one example of class actual predicted as class predicted.
func (e *Evaluation) EvalClass(actual, predicted int) error {
	if e.classes == 0 {
		return fmt.Errorf("metrics: Evaluation: EvalClass needs the number of classes (NewEvaluation(n))")
	}
	if actual < 0 || actual >= e.classes || predicted < 0 || predicted >= e.classes {
		return fmt.Errorf("metrics: Evaluation of %d classes: classes %d (actual) and %d (predicted) must be in [0, %d)",
			e.classes, actual, predicted, e.classes)
	}
	e.add(actual, predicted)
	return nil
}

func (e *Evaluation) add(actual, predicted int) {
	e.rows++
	e.confusion[actual][predicted]++
	if actual == predicted {
		e.tp[actual]++
	} else {
		e.fp[predicted]++
		e.fn[actual]++
	}
	for j := range e.tn {
		if j != actual && j != predicted {
			e.tn[j]++
		}
	}
}

// NumClasses returns the number of classes (0 before the first batch).
func (e *Evaluation) NumClasses() int { return e.classes }

// Examples returns the number of examples evaluated.
func (e *Evaluation) Examples() int64 { return e.rows }

// Confusion returns a copy of the confusion matrix: [i][j] counts examples
// of class i predicted as class j.
func (e *Evaluation) Confusion() [][]int64 {
	out := make([][]int64, len(e.confusion))
	for i, r := range e.confusion {
		out[i] = append([]int64(nil), r...)
	}
	return out
}

// Counts returns class c's true positives, false positives, false
// negatives and true negatives (0 for a class out of range).
func (e *Evaluation) Counts(c int) (tp, fp, fn, tn int64) {
	if c < 0 || c >= e.classes {
		return 0, 0, 0, 0
	}
	return e.tp[c], e.fp[c], e.fn[c], e.tn[c]
}

// Accuracy is the fraction of examples classified correctly (0 before any).
func (e *Evaluation) Accuracy() float64 {
	if e.rows == 0 {
		return 0
	}
	correct := int64(0)
	for i := range e.confusion {
		correct += e.confusion[i][i]
	}
	return float64(correct) / float64(e.rows)
}

// TopNAccuracy is the fraction of examples whose true class is among the
// TopN most likely (Accuracy when TopN is 1 or less).
func (e *Evaluation) TopNAccuracy() float64 {
	if e.TopN <= 1 {
		return e.Accuracy()
	}
	if e.topNTotal == 0 {
		return 0
	}
	return float64(e.topNCorrect) / float64(e.topNTotal)
}

// ratio is a/(a+b), or edge when both are 0.
func ratio(a, b int64, edge float64) float64 {
	if a == 0 && b == 0 {
		return edge
	}
	return float64(a) / float64(a+b)
}

// Precision is class c's TP/(TP+FP); 0 when the class was never predicted.
func (e *Evaluation) Precision(c int) float64 { return ratio2(e.precCounts(c)) }

// Recall is class c's TP/(TP+FN); 0 when the class never occurred.
func (e *Evaluation) Recall(c int) float64 { return ratio2(e.recCounts(c)) }

// ratio2 is ratio with DL4J's edge value 0.
func ratio2(a, b int64) float64 { return ratio(a, b, 0) }

// F1 is class c's harmonic mean of precision and recall; 0 when either is
// 0 or 0/0.
func (e *Evaluation) F1(c int) float64 { return e.fBetaClass(1, c, 0) }

// FBeta is class c's (1+β²)·P·R/(β²·P + R); 0 when P or R is 0 or 0/0.
func (e *Evaluation) FBeta(beta float64, c int) float64 { return e.fBetaClass(beta, c, 0) }

func (e *Evaluation) fBetaClass(beta float64, c int, edge float64) float64 {
	tp, fp, fn, _ := e.Counts(c)
	p, r := ratio(tp, fp, -1), ratio(tp, fn, -1)
	if p == -1 || r == -1 {
		return edge
	}
	return fBeta(beta, p, r)
}

func fBeta(beta, p, r float64) float64 {
	if p == 0 || r == 0 {
		return 0
	}
	return (1 + beta*beta) * p * r / (beta*beta*p + r)
}

// macro averages f over the classes whose value is not the edge -1.
func (e *Evaluation) macro(f func(c int) float64) float64 {
	sum, n := 0.0, 0
	for c := 0; c < e.classes; c++ {
		if v := f(c); v != -1 {
			sum += v
			n++
		}
	}
	return sum / float64(n)
}

func (e *Evaluation) sums() (tp, fp, fn int64) {
	for c := 0; c < e.classes; c++ {
		tp, fp, fn = tp+e.tp[c], fp+e.fp[c], fn+e.fn[c]
	}
	return
}

// AvgPrecision is the precision averaged over the classes (0 before any
// example): Macro leaves out classes never predicted.
func (e *Evaluation) AvgPrecision(a Averaging) float64 { return e.avgRatio(a, e.precCounts) }

// AvgRecall is the recall averaged over the classes (0 before any
// example): Macro leaves out classes that never occurred.
func (e *Evaluation) AvgRecall(a Averaging) float64 { return e.avgRatio(a, e.recCounts) }

// precCounts and recCounts are class c's counts for precision, TP/(TP+FP),
// and recall, TP/(TP+FN).
func (e *Evaluation) precCounts(c int) (int64, int64) { tp, fp, _, _ := e.Counts(c); return tp, fp }
func (e *Evaluation) recCounts(c int) (int64, int64)  { tp, _, fn, _ := e.Counts(c); return tp, fn }

// avgRatio averages a/(a+b) over the classes, counts giving a and b: Micro
// from the summed counts, Macro over the classes whose value is not 0/0.
func (e *Evaluation) avgRatio(avg Averaging, counts func(c int) (int64, int64)) float64 {
	if e.rows == 0 {
		return 0
	}
	if avg == Micro {
		var a, b int64
		for c := 0; c < e.classes; c++ {
			x, y := counts(c)
			a, b = a+x, b+y
		}
		return ratio(a, b, 0)
	}
	return e.macro(func(c int) float64 { a, b := counts(c); return ratio(a, b, -1) })
}

// AvgF1 is the F1 score averaged over the classes (NaN before any example).
// As in DL4J, with two classes it is class 1's F1 whatever the averaging;
// Macro leaves out classes whose precision or recall is 0/0; Micro is the
// F1 of the summed counts.
func (e *Evaluation) AvgF1(a Averaging) float64 {
	if e.rows == 0 {
		return math.NaN()
	}
	if e.classes == 2 {
		return fBetaCounts(1, e.tp[1], e.fp[1], e.fn[1])
	}
	if a == Micro {
		tp, fp, fn := e.sums()
		return fBetaCounts(1, tp, fp, fn)
	}
	return e.macro(func(c int) float64 { return e.fBetaClass(1, c, -1) })
}

// fBetaCounts is F-beta from counts, as DL4J's EvaluationUtils computes
// it (NaN when there is no positive and no prediction of one).
func fBetaCounts(beta float64, tp, fp, fn int64) float64 {
	return fBeta(beta, float64(tp)/float64(tp+fp), float64(tp)/float64(tp+fn))
}

// excluded counts the classes left out of a macro average.
func (e *Evaluation) excluded(f func(c int) float64) int {
	n := 0
	for c := 0; c < e.classes; c++ {
		if f(c) == -1 {
			n++
		}
	}
	return n
}

func (e *Evaluation) className(c int) string {
	if c < len(e.ClassNames) {
		return e.ClassNames[c]
	}
	return fmt.Sprint(c)
}

// Stats reports the evaluation in the layout of DL4J's Evaluation.stats():
// the number of classes, accuracy, top-N accuracy, macro-averaged
// precision, recall and F1 (with the classes left out of each average),
// warnings for classes never predicted or never seen, and the confusion
// matrix. With two classes the F1 is class 1's (AvgF1), as in DL4J, whose
// report then says all three are class 1's although its precision and
// recall are macro-averaged; this report says which is which.
func (e *Evaluation) Stats() string {
	var b, warn strings.Builder
	b.WriteString("\n")
	prec := func(c int) float64 { tp, fp := e.precCounts(c); return ratio(tp, fp, -1) }
	rec := func(c int) float64 { tp, fn := e.recCounts(c); return ratio(tp, fn, -1) }
	f1 := func(c int) float64 { return e.fBetaClass(1, c, -1) }
	var neverPredicted, neverSeen []int
	for c := 0; c < e.classes; c++ {
		if e.tp[c] == 0 {
			if e.fp[c] == 0 {
				neverPredicted = append(neverPredicted, c)
			}
			if e.fn[c] == 0 {
				neverSeen = append(neverSeen, c)
			}
		}
	}
	warning(&warn, neverPredicted, "precision")
	warning(&warn, neverSeen, "recall")
	f4 := func(v float64) string {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Sprint(v)
		}
		return fmt.Sprintf("%.4f", v)
	}
	excl := func(f func(int) float64) string {
		n := e.excluded(f)
		if e.classes <= 2 || n == 0 {
			return ""
		}
		s := "es"
		if n == 1 {
			s = ""
		}
		return fmt.Sprintf("\t(%d class%s excluded from average)", n, s)
	}
	b.WriteString("\n========================Evaluation Metrics========================")
	fmt.Fprintf(&b, "\n # of classes:    %d", e.classes)
	fmt.Fprintf(&b, "\n Accuracy:        %s", f4(e.Accuracy()))
	if e.TopN > 1 {
		fmt.Fprintf(&b, "\n Top %d Accuracy:  %s", e.TopN, f4(e.TopNAccuracy()))
	}
	fmt.Fprintf(&b, "\n Precision:       %s%s", f4(e.AvgPrecision(Macro)), excl(prec))
	fmt.Fprintf(&b, "\n Recall:          %s%s", f4(e.AvgRecall(Macro)), excl(rec))
	fmt.Fprintf(&b, "\n F1 Score:        %s%s", f4(e.AvgF1(Macro)), excl(f1))
	if e.classes == 2 {
		fmt.Fprintf(&b, "\nF1: reported for positive class (class 1 - \"%s\") only", e.className(1))
	}
	fmt.Fprintf(&b, "\nPrecision, recall & F1: macro-averaged (equally weighted avg. of %d classes)", e.classes)
	b.WriteString("\n\n")
	b.WriteString(warn.String())
	b.WriteString("\n=========================Confusion Matrix=========================\n")
	b.WriteString(e.ConfusionString())
	b.WriteString("\n==================================================================")
	return b.String()
}

func warning(b *strings.Builder, classes []int, metric string) {
	if len(classes) == 0 {
		return
	}
	s, was := "", "was"
	if len(classes) > 1 {
		s, was = "es", "were"
	}
	list := make([]string, len(classes))
	for i, c := range classes {
		list[i] = fmt.Sprint(c)
	}
	fmt.Fprintf(b, "Warning: %d class%s %s never predicted by the model and %s excluded from average %s\n", len(classes), s, was, was, metric)
	fmt.Fprintf(b, "Classes excluded from average %s: [%s]\n", metric, strings.Join(list, ", "))
}

// ConfusionString returns the confusion matrix as DL4J prints it: a header
// of predicted classes, then one row per actual class ending "| i = name".
func (e *Evaluation) ConfusionString() string {
	if e.classes == 0 {
		return "Confusion matrix: <no data>"
	}
	most := int64(max(1, e.classes))
	for _, r := range e.confusion {
		for _, v := range r {
			most = max(most, v)
		}
	}
	digits := max(1, int(math.Ceil(math.Log10(float64(most)))))
	var b strings.Builder
	for i := 0; i < e.classes; i++ {
		fmt.Fprintf(&b, "%*d", digits+1, i)
	}
	b.WriteString("\n")
	b.WriteString(strings.Repeat("-", (digits+1)*e.classes+1))
	b.WriteString("\n")
	for i, r := range e.confusion {
		for _, v := range r {
			fmt.Fprintf(&b, "%*d", digits+1, v)
		}
		fmt.Fprintf(&b, " | %d = %s\n", i, e.className(i))
	}
	b.WriteString("\nConfusion matrix format: Actual (rowClass) predicted as (columnClass) N times")
	return b.String()
}
