package train

import (
	"fmt"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/metrics"
	"github.com/sdgo/sdgo/ndarray"
)

// Metric is a figure computed over a whole data set from its labels and a
// model's predictions, as package metrics computes them. Fit reports one
// for the validation data every epoch, and early stopping can watch it.
type Metric interface {
	// Name names the figure in the history, the progress output and
	// EarlyStopping.Monitor (as "val_" + Name).
	Name() string
	// Maximize reports whether larger values are better.
	Maximize() bool
	// Reset starts a new pass over the data.
	Reset()
	// Eval adds a batch: the first labels array and the predictions.
	Eval(labels, predictions *ndarray.Array) error
	// Value is the figure over the batches added since Reset.
	Value() float64
}

// evaluator is what the metrics package's evaluations have in common.
type evaluator interface {
	Eval(labels, predictions *ndarray.Array) error
}

// metricOf adapts one of package metrics' evaluations to Metric: mk makes
// a fresh evaluation (for Reset), value reads the figure from it.
type metricOf[E evaluator] struct {
	name  string
	max   bool
	mk    func() E
	value func(E) float64
	e     E
}

func newMetric[E evaluator](name string, max bool, mk func() E, value func(E) float64) Metric {
	return &metricOf[E]{name: name, max: max, mk: mk, value: value, e: mk()}
}

func (m *metricOf[E]) Name() string   { return m.name }
func (m *metricOf[E]) Maximize() bool { return m.max }
func (m *metricOf[E]) Reset()         { m.e = m.mk() }
func (m *metricOf[E]) Value() float64 { return m.value(m.e) }
func (m *metricOf[E]) Eval(labels, predictions *ndarray.Array) error {
	return m.e.Eval(labels, predictions)
}

func classification() *metrics.Evaluation { return metrics.NewEvaluation(0) }

// Accuracy is the fraction of examples whose predicted class (the largest
// prediction) is the label's (metrics.Evaluation.Accuracy).
func Accuracy() Metric {
	return newMetric("accuracy", true, classification, (*metrics.Evaluation).Accuracy)
}

// F1 is the F1 score averaged over the classes, each weighing the same
// (metrics.Evaluation.AvgF1 with metrics.Macro).
func F1() Metric {
	return newMetric("f1", true, classification, func(e *metrics.Evaluation) float64 { return e.AvgF1(metrics.Macro) })
}

// AUC is the area under a binary classifier's ROC curve (metrics.ROC).
func AUC() Metric {
	return newMetric("auc", true, metrics.NewROC, (*metrics.ROC).AUC)
}

func regression() *metrics.RegressionEvaluation { return metrics.NewRegressionEvaluation() }

// regressionMetric averages a per-column figure of metrics.RegressionEvaluation
// over the columns.
func regressionMetric(name string, max bool, col func(*metrics.RegressionEvaluation) func(int) float64) Metric {
	return newMetric(name, max, regression, func(e *metrics.RegressionEvaluation) float64 { return e.Average(col(e)) })
}

// MSE is the mean squared error, averaged over the columns.
func MSE() Metric {
	return regressionMetric("mse", false, func(e *metrics.RegressionEvaluation) func(int) float64 { return e.MSE })
}

// MAE is the mean absolute error, averaged over the columns.
func MAE() Metric {
	return regressionMetric("mae", false, func(e *metrics.RegressionEvaluation) func(int) float64 { return e.MAE })
}

// RMSE is the root mean squared error, averaged over the columns.
func RMSE() Metric {
	return regressionMetric("rmse", false, func(e *metrics.RegressionEvaluation) func(int) float64 { return e.RMSE })
}

// R2 is the coefficient of determination, averaged over the columns.
func R2() Metric {
	return regressionMetric("r2", true, func(e *metrics.RegressionEvaluation) func(int) float64 { return e.RSquared })
}

// Validation is held-out data Fit evaluates at the end of every epoch
// (SetValidation): the mean of the loss over its examples and, with a
// Metric, that figure of the Output's predictions.
type Validation struct {
	// Data yields the validation batches, features and labels in the
	// order of the configuration's Features and Labels.
	Data Iterator
	// Output names the variable whose values are the predictions Metric
	// reads; required with a Metric.
	Output string
	// Metric, if not nil, is computed from the first labels array and
	// Output's values.
	Metric Metric

	output *graph.Variable
}

// ValidationResult is one evaluation of the validation data.
type ValidationResult struct {
	// Loss is the mean over the examples of the loss (the sum of the loss
	// variables): each batch's loss weighs as many examples as it has, so
	// a smaller last batch does not count as much as a full one.
	Loss float64
	// Metric names the metric (empty without one); Value is its figure.
	Metric string
	Value  float64
	// Examples is the number of examples evaluated.
	Examples int
}

// SetValidation has Fit evaluate v at the end of every epoch, record the
// figures in the History (ValLoss, ValMetric) and hand them to listeners
// (EpochEvent.Validation). Nil removes it.
func (t *Trainer) SetValidation(v *Validation) error {
	if v == nil {
		t.val = nil
		return nil
	}
	if isNilIterator(v.Data) {
		return fmt.Errorf("train: the validation has no data iterator")
	}
	v.output = nil
	if v.Metric != nil {
		if v.Output == "" {
			return fmt.Errorf("train: the validation metric %s needs an Output naming the predictions", v.Metric.Name())
		}
		o, ok := t.g.Variable(v.Output)
		if !ok {
			return withBuildErr(t.g, fmt.Errorf("train: the validation's output %q is not a variable of the graph", v.Output))
		}
		v.output = o
	}
	t.val = v
	return nil
}

// Validate evaluates the validation data SetValidation set, as Fit does at
// the end of an epoch.
func (t *Trainer) Validate() (*ValidationResult, error) {
	if t.val == nil {
		return nil, fmt.Errorf("train: Validate with no validation data (SetValidation)")
	}
	v := t.val
	if r, ok := v.Data.(Rewinder); ok {
		r.Rewind() // the order does not change the figures
	} else {
		v.Data.Reset()
	}
	if v.Metric != nil {
		v.Metric.Reset()
	}
	res := &ValidationResult{}
	if v.Metric != nil {
		res.Metric = v.Metric.Name()
	}
	feeds := map[string]*ndarray.Array{}
	var outs []string
	sum, weight := 0.0, 0.0
	for n := 0; ; n++ {
		b, ok := v.Data.Next()
		if !ok {
			if n == 0 {
				return nil, fmt.Errorf("train: the validation data iterator gave no batches")
			}
			break
		}
		if err := t.checkBatch(b); err != nil {
			return nil, fmt.Errorf("train: validation batch %d: %w", n, err)
		}
		clear(feeds)
		for i, p := range t.features {
			feeds[p.Name()] = b.Features[i]
		}
		for i, p := range t.labels {
			feeds[p.Name()] = b.Labels[i]
		}
		outs = outs[:0]
		for _, l := range t.losses {
			outs = append(outs, l.Name())
		}
		if v.output != nil {
			outs = append(outs, v.output.Name())
		}
		out, err := t.s.Output(feeds, outs...)
		if err != nil {
			return nil, fmt.Errorf("train: validation batch %d: %w", n, err)
		}
		loss := 0.0
		for _, l := range t.losses {
			for _, x := range out[l.Name()].Float64s() {
				loss += x
			}
		}
		m := examplesOf(b)
		w := float64(max(m, 1)) // a batch of scalars weighs one
		sum += loss * w
		weight += w
		res.Examples += m
		if v.Metric != nil {
			if len(b.Labels) == 0 {
				return nil, fmt.Errorf("train: validation batch %d has no labels for the metric %s", n, v.Metric.Name())
			}
			if err := v.Metric.Eval(b.Labels[0], out[v.output.Name()]); err != nil {
				return nil, fmt.Errorf("train: validation batch %d: metric %s of output %q: %w", n, v.Metric.Name(), v.output.Name(), err)
			}
		}
	}
	res.Loss = sum / weight
	if v.Metric != nil {
		res.Value = v.Metric.Value()
	}
	return res, nil
}

// examplesOf is the number of examples in a batch: the first feature
// array's first dimension (0 when it is a scalar).
func examplesOf(b *Batch) int {
	if len(b.Features) > 0 && b.Features[0] != nil && b.Features[0].Rank() > 0 {
		return b.Features[0].Shape()[0]
	}
	return 0
}

// validateEpoch evaluates the validation data, if any, after an epoch,
// and records the figures in h and ev.
func (t *Trainer) validateEpoch(h *History, ev *EpochEvent) error {
	if t.val == nil {
		return nil
	}
	r, err := t.Validate()
	if err != nil {
		return fmt.Errorf("train: epoch %d: %w", ev.Epoch, err)
	}
	ev.Validation = r
	h.ValLoss = append(h.ValLoss, r.Loss)
	if r.Metric != "" {
		h.Metric = r.Metric
		h.ValMetric = append(h.ValMetric, r.Value)
	}
	return nil
}
