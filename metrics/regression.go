package metrics

import (
	"fmt"
	"math"
	"strings"

	"github.com/sdgo/sdgo/ndarray"
)

// RegressionEvaluation accumulates a regression's predictions, per column
// (DL4J's RegressionEvaluation): the mean squared and absolute errors, the
// root mean squared error, the relative squared error, the Pearson
// correlation and the coefficient of determination R². Labels and
// predictions are [n, columns] (or [n], one column) of the same shape.
type RegressionEvaluation struct {
	// Columns names the columns in Stats (by default col_0, col_1, ...).
	Columns []string
	// Precision is the number of digits after the point in Stats; 0
	// means 5 (DL4J's default).
	Precision int

	n                          float64
	sumLabels, sumPred         []float64
	sumSqErr, sumAbsErr        []float64
	sumProd, sumSqLab, sumSqPr []float64
}

// NewRegressionEvaluation returns an empty evaluation; columns name the
// columns (optional).
func NewRegressionEvaluation(columns ...string) *RegressionEvaluation {
	return &RegressionEvaluation{Columns: columns}
}

// Eval adds a batch.
func (e *RegressionEvaluation) Eval(labels, predictions *ndarray.Array) error {
	if labels == nil || predictions == nil {
		return fmt.Errorf("metrics: RegressionEvaluation: no labels or no predictions")
	}
	ls, ps := labels.Shape(), predictions.Shape()
	if len(ps) < 1 || len(ps) > 2 || !ndarray.SameShape(ls, ps) {
		return fmt.Errorf("metrics: RegressionEvaluation: labels of shape %v and predictions of shape %v must have one shape, [examples, columns] or [examples]", ls, ps)
	}
	cols := 1
	if len(ps) == 2 {
		cols = ps[1]
	}
	if e.sumLabels == nil {
		if len(e.Columns) > 0 && len(e.Columns) != cols {
			return fmt.Errorf("metrics: RegressionEvaluation: %d column names %q for predictions of shape %v", len(e.Columns), e.Columns, ps)
		}
		for _, s := range []*[]float64{&e.sumLabels, &e.sumPred, &e.sumSqErr, &e.sumAbsErr, &e.sumProd, &e.sumSqLab, &e.sumSqPr} {
			*s = make([]float64, cols)
		}
	} else if len(e.sumLabels) != cols {
		return fmt.Errorf("metrics: RegressionEvaluation of %d columns: predictions of shape %v", len(e.sumLabels), ps)
	}
	lv, pv := labels.Float64s(), predictions.Float64s()
	for i := range lv {
		j := i % cols
		l, p := lv[i], pv[i]
		d := p - l
		e.sumLabels[j] += l
		e.sumPred[j] += p
		e.sumSqErr[j] += d * d
		e.sumAbsErr[j] += math.Abs(d)
		e.sumProd[j] += l * p
		e.sumSqLab[j] += l * l
		e.sumSqPr[j] += p * p
	}
	e.n += float64(ps[0])
	return nil
}

// NumColumns returns the number of columns (0 before the first batch).
func (e *RegressionEvaluation) NumColumns() int { return len(e.sumLabels) }

// MSE is column c's mean of (prediction - label)².
func (e *RegressionEvaluation) MSE(c int) float64 {
	if !e.has(c) {
		return math.NaN()
	}
	return e.sumSqErr[c] / e.n
}

// has reports whether c is a column of the data seen; the metrics of
// another are NaN.
func (e *RegressionEvaluation) has(c int) bool { return c >= 0 && c < len(e.sumLabels) }

// MAE is column c's mean of |prediction - label|.
func (e *RegressionEvaluation) MAE(c int) float64 {
	if !e.has(c) {
		return math.NaN()
	}
	return e.sumAbsErr[c] / e.n
}

// RMSE is column c's √MSE.
func (e *RegressionEvaluation) RMSE(c int) float64 { return math.Sqrt(e.MSE(c)) }

// RSE is column c's relative squared error, Σ(p-l)²/Σ(l-mean l)²
// (+Inf when the labels do not vary).
func (e *RegressionEvaluation) RSE(c int) float64 {
	if !e.has(c) {
		return math.NaN()
	}
	mean := e.sumLabels[c] / e.n
	den := e.sumSqLab[c] - e.n*mean*mean
	if math.Abs(den) <= 1e-5 { // ND4J's EPS_THRESHOLD
		return math.Inf(1)
	}
	return (e.sumSqPr[c] - 2*e.sumProd[c] + e.sumSqLab[c]) / den
}

// PearsonCorrelation is the sample correlation of column c's labels and
// predictions.
func (e *RegressionEvaluation) PearsonCorrelation(c int) float64 {
	if !e.has(c) {
		return math.NaN()
	}
	ml, mp := e.sumLabels[c]/e.n, e.sumPred[c]/e.n
	r := e.sumProd[c] - e.n*mp*ml
	return r / (math.Sqrt(e.sumSqLab[c]-e.n*ml*ml) * math.Sqrt(e.sumSqPr[c]-e.n*mp*mp))
}

// RSquared is column c's coefficient of determination, 1 - SSres/SStot.
func (e *RegressionEvaluation) RSquared(c int) float64 {
	if !e.has(c) {
		return math.NaN()
	}
	ml := e.sumLabels[c] / e.n
	tot := e.sumSqLab[c] + ml*(e.n*ml-2*e.sumLabels[c])
	return (tot - e.sumSqErr[c]) / tot
}

// Average returns a metric (one of the methods above, e.g. e.MSE)
// averaged over the columns (NaN before any data).
func (e *RegressionEvaluation) Average(metric func(c int) float64) float64 {
	s := 0.0
	for c := range e.sumLabels {
		s += metric(c)
	}
	return s / float64(len(e.sumLabels))
}

// Stats reports every column's metrics in the layout of DL4J's
// RegressionEvaluation.stats().
func (e *RegressionEvaluation) Stats() string {
	if e.sumLabels == nil {
		return "RegressionEvaluation: No Data"
	}
	names := e.Columns
	if len(names) == 0 {
		for c := range e.sumLabels {
			names = append(names, fmt.Sprintf("col_%d", c))
		}
	}
	width := 0
	for _, s := range names {
		width = max(width, len(s))
	}
	width += 5
	prec := e.Precision
	if prec <= 0 {
		prec = 5
	}
	cw := prec + 10
	var b strings.Builder
	fmt.Fprintf(&b, "%-*s", width, "Column")
	for _, h := range []string{"MSE", "MAE", "RMSE", "RSE", "PC", "R^2"} {
		fmt.Fprintf(&b, "%-*s", cw, h)
	}
	b.WriteString("\n")
	for c, name := range names {
		fmt.Fprintf(&b, "%-*s", width, name)
		for _, v := range []float64{e.MSE(c), e.MAE(c), e.RMSE(c), e.RSE(c), e.PearsonCorrelation(c), e.RSquared(c)} {
			fmt.Fprintf(&b, "%-*.*e", cw, prec, v)
		}
		b.WriteString("\n")
	}
	return b.String()
}
