package train_test

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/train"
)

// linear returns the graph of preds = x·w (w [2,1] starting at w0) with
// a mean squared error loss against labels y, and a trainer for it.
func linear(t *testing.T, lr float64, w0 ...float64) (*graph.Graph, *train.Trainer) {
	t.Helper()
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, -1, 2)
	y := g.Placeholder("y", ndarray.Float64, -1, 1)
	if len(w0) == 0 {
		w0 = []float64{0, 0}
	}
	w := g.Var("w", ndarray.Must(ndarray.FromSlice(w0, 2, 1)))
	g.Loss().MeanSquaredError(y, x.MatMul(w).Named("preds")).Named("loss")
	tr, err := train.New(g, &train.Config{Updater: train.NewSGD(lr), Features: []string{"x"}, Labels: []string{"y"}, Losses: []string{"loss"}})
	if err != nil {
		t.Fatal(err)
	}
	return g, tr
}

func rows(t *testing.T, xs, ys []float64, batch int) *train.ArrayIterator {
	t.Helper()
	it, err := train.NewArrayIterator([]*ndarray.Array{ndarray.Must(ndarray.FromSlice(xs, len(ys), 2))},
		[]*ndarray.Array{ndarray.Must(ndarray.FromSlice(ys, len(ys), 1))}, batch, nil)
	if err != nil {
		t.Fatal(err)
	}
	return it
}

// The validation loss is the mean over the examples: with w at 0 the
// predictions are 0, so batches {1, 2} and {3} have losses 2.5 and 9, and
// the set's is (1+4+9)/3 = 14/3, not the mean of the batches' 5.75. MAE is
// (1+2+3)/3 = 2.
func TestValidationFigures(t *testing.T) {
	_, tr := linear(t, 0.1)
	val := rows(t, []float64{1, 0, 0, 1, 1, 1}, []float64{1, 2, 3}, 2)
	if err := tr.SetValidation(&train.Validation{Data: val, Output: "preds", Metric: train.MAE()}); err != nil {
		t.Fatal(err)
	}
	data := rows(t, []float64{0, 0}, []float64{0}, 1) // a zero gradient: w stays 0
	h, err := tr.Fit(data, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(h.ValLoss) != 2 || len(h.ValMetric) != 2 || h.Metric != "mae" {
		t.Fatalf("history: %d validation losses, %d metric values of %q", len(h.ValLoss), len(h.ValMetric), h.Metric)
	}
	for e := range h.ValLoss {
		if math.Abs(h.ValLoss[e]-14.0/3) > 1e-12 || math.Abs(h.ValMetric[e]-2) > 1e-12 {
			t.Errorf("epoch %d: validation loss %v, MAE %v; want 14/3, 2", e, h.ValLoss[e], h.ValMetric[e])
		}
	}
	var buf bytes.Buffer
	if err := h.WriteCSV(&buf, 1); err != nil {
		t.Fatal(err)
	}
	want := "iteration,epoch,loss,epoch_mean_loss,val_loss,val_mae\n1,1,0,,,\n2,2,0,,,\n,1,,0,4.666666666666667,2\n,2,,0,4.666666666666667,2\n"
	if buf.String() != want {
		t.Errorf("CSV:\n%s\nwant\n%s", buf.String(), want)
	}
}

// The validation accuracy Fit records is what Evaluate (its own code,
// counting argmax matches) finds on the same data after the last epoch.
func TestValidationAccuracyMatchesEvaluate(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	f, l := spirals(t, rng, 40, 0.01, ndarray.Float64)
	data, _ := train.NewArrayIterator([]*ndarray.Array{f}, []*ndarray.Array{l}, 16, rng)
	vf, vl := spirals(t, rng, 20, 0.01, ndarray.Float64)
	val, _ := train.NewArrayIterator([]*ndarray.Array{vf}, []*ndarray.Array{vl}, 16, nil)
	tr, err := train.New(mlp(ndarray.Float64, 8, 1), &train.Config{Updater: train.NewAdam(0.02), Features: []string{"x"}, Labels: []string{"y"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.SetValidation(&train.Validation{Data: val, Output: "logits", Metric: train.Accuracy()}); err != nil {
		t.Fatal(err)
	}
	h, err := tr.Fit(data, 5)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := tr.Evaluate(val, "logits")
	if err != nil {
		t.Fatal(err)
	}
	if got := h.ValMetric[len(h.ValMetric)-1]; got != ev.Accuracy() {
		t.Errorf("validation accuracy %v, Evaluate %v", got, ev.Accuracy())
	}
	r, err := tr.Validate()
	if err != nil || r.Examples != 40 || r.Value != ev.Accuracy() || r.Loss != h.ValLoss[len(h.ValLoss)-1] {
		t.Errorf("Validate: %+v, %v; want 40 examples, accuracy %v, loss %v", r, err, ev.Accuracy(), h.ValLoss[len(h.ValLoss)-1])
	}
}

// scripted is a metric whose value at the n-th validation is seq[n].
type scripted struct {
	seq []float64
	n   int
	max bool
}

func (s *scripted) Name() string                   { return "script" }
func (s *scripted) Maximize() bool                 { return s.max }
func (s *scripted) Reset()                         { s.n++ }
func (s *scripted) Eval(_, _ *ndarray.Array) error { return nil }
func (s *scripted) Value() float64                 { return s.seq[s.n-1] }

// wLog keeps a copy of w at the end of every epoch.
type wLog struct {
	w  *graph.Variable
	at [][]float64
}

func (l *wLog) IterationDone(*train.IterationEvent) error { return nil }
func (l *wLog) EpochDone(*train.EpochEvent) error {
	l.at = append(l.at, append([]float64(nil), l.w.Value().Float64s()...))
	return nil
}

func TestEarlyStopping(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		name                  string
		seq                   []float64
		max                   bool
		es                    train.EarlyStopping
		epochs, best, stopped int
		bestValue             float64
	}{
		// .6 beats .5 by more than .05; .62 and .61 do not beat .6 by it.
		{"maximize/min delta", []float64{0.5, 0.6, 0.62, 0.61, 0.9}, true, train.EarlyStopping{Monitor: "val_script", Patience: 2, MinDelta: 0.05}, 4, 1, 3, 0.6},
		// Patience 1 (as 0) stops at the first epoch without improvement.
		{"patience 1", []float64{0.5, 0.6, 0.6, 0.9}, true, train.EarlyStopping{Monitor: "val_script", Patience: 1}, 3, 1, 2, 0.6},
		// A NaN figure is no improvement; patience 0 stops at once.
		{"minimize/NaN", []float64{1, 0.5, nan, 0.4}, false, train.EarlyStopping{Monitor: "val_script", Patience: 0}, 3, 1, 2, 0.5},
		// Mode overrides the metric's direction.
		{"mode overrides", []float64{3, 2, 1, 0}, true, train.EarlyStopping{Monitor: "val_script", Mode: train.Minimize, Patience: 0}, 4, 3, -1, 0},
		{"no stop", []float64{1, 2, 3}, true, train.EarlyStopping{Monitor: "val_script", Patience: 2}, 3, 2, -1, 3},
		{"patience not run out", []float64{1, 2, 1, 2}, true, train.EarlyStopping{Monitor: "val_script", Patience: 3}, 4, 1, -1, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, tr := linear(t, 0.1)
			val := rows(t, []float64{1, 0}, []float64{1}, 1)
			if err := tr.SetValidation(&train.Validation{Data: val, Output: "preds", Metric: &scripted{seq: c.seq, max: c.max}}); err != nil {
				t.Fatal(err)
			}
			es := c.es
			es.RestoreBest = true
			if err := tr.SetEarlyStopping(&es); err != nil {
				t.Fatal(err)
			}
			w, _ := g.Variable("w")
			log := &wLog{w: w}
			h, err := tr.Fit(rows(t, []float64{1, 0, 0, 1}, []float64{2, -1}, 2), len(c.seq), log)
			if err != nil {
				t.Fatal(err)
			}
			if len(h.EpochLoss) != c.epochs || es.BestEpoch != c.best || es.StoppedEpoch != c.stopped || es.Stopped != (c.stopped >= 0) || es.Best != c.bestValue {
				t.Errorf("%d epochs, best %v at epoch %d, stopped %v at %d; want %d epochs, best %v at %d, stopped at %d",
					len(h.EpochLoss), es.Best, es.BestEpoch, es.Stopped, es.StoppedEpoch, c.epochs, c.bestValue, c.best, c.stopped)
			}
			got := w.Value().Float64s()
			if want := log.at[c.best]; got[0] != want[0] || got[1] != want[1] {
				t.Errorf("w restored to %v; after the best epoch it was %v", got, want)
			}
			if last := log.at[len(log.at)-1]; c.best != len(log.at)-1 && got[0] == last[0] {
				t.Errorf("w is still the last epoch's %v", last)
			}
		})
	}
}

// Without validation data the training loss is watched; it falls every
// epoch here, so training runs to the end and keeps the last variables.
func TestEarlyStoppingOnTrainingLoss(t *testing.T) {
	g, tr := linear(t, 0.1)
	es := &train.EarlyStopping{Patience: 2, RestoreBest: true}
	if err := tr.SetEarlyStopping(es); err != nil {
		t.Fatal(err)
	}
	w, _ := g.Variable("w")
	log := &wLog{w: w}
	h, err := tr.Fit(rows(t, []float64{1, 0, 0, 1}, []float64{2, -1}, 2), 5, log)
	if err != nil {
		t.Fatal(err)
	}
	if es.Stopped || es.BestEpoch != 4 || es.Best != h.EpochLoss[4] {
		t.Errorf("stopped %v, best %v at epoch %d; epoch losses %v", es.Stopped, es.Best, es.BestEpoch, h.EpochLoss)
	}
	// A second Fit watches afresh and counts epochs on.
	if _, err := tr.Fit(rows(t, []float64{1, 0, 0, 1}, []float64{2, -1}, 2), 1); err != nil || es.BestEpoch != 5 {
		t.Errorf("second Fit: best epoch %d, %v", es.BestEpoch, err)
	}
}

func TestEarlyStoppingBadInput(t *testing.T) {
	_, tr := linear(t, 0.1)
	data := rows(t, []float64{1, 0}, []float64{1}, 1)
	for _, es := range []*train.EarlyStopping{{Patience: -1}, {MinDelta: -0.1}, {MinDelta: math.NaN()}, {Mode: 7}} {
		if err := tr.SetEarlyStopping(es); err == nil || !strings.Contains(err.Error(), "early stopping") {
			t.Errorf("%+v: %v", es, err)
		}
	}
	if err := tr.SetEarlyStopping(&train.EarlyStopping{Monitor: "val_accuracy"}); err != nil {
		t.Fatal(err)
	}
	_, err := tr.Fit(data, 1)
	if err == nil || !strings.Contains(err.Error(), `"val_accuracy"`) || !strings.Contains(err.Error(), "gives loss") {
		t.Errorf("monitoring a figure not given: %v", err)
	}
	if err := tr.SetValidation(&train.Validation{Data: data, Output: "preds", Metric: train.MSE()}); err != nil {
		t.Fatal(err)
	}
	_, err = tr.Fit(data, 1)
	if err == nil || !strings.Contains(err.Error(), "loss, val_loss, val_mse") {
		t.Errorf("monitoring a figure not given: %v", err)
	}
}

func TestValidationBadInput(t *testing.T) {
	_, tr := linear(t, 0.1)
	data := rows(t, []float64{1, 0}, []float64{1}, 1)
	for _, c := range []struct {
		v    *train.Validation
		want string
	}{
		{&train.Validation{}, "no data iterator"},
		{&train.Validation{Data: data, Metric: train.MSE()}, "needs an Output"},
		{&train.Validation{Data: data, Output: "nope", Metric: train.MSE()}, `output "nope" is not a variable`},
	} {
		if err := tr.SetValidation(c.v); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.v, err, c.want)
		}
	}
	if _, err := tr.Validate(); err == nil || !strings.Contains(err.Error(), "no validation data") {
		t.Errorf("Validate without validation: %v", err)
	}
	// Batches with a label array too few, and labels of a shape the
	// metric cannot read: errors that say which.
	x := ndarray.Must(ndarray.FromSlice([]float64{1, 0, 0, 1}, 2, 2))
	y := ndarray.Must(ndarray.FromSlice([]float64{1, 2}, 2, 1))
	for _, c := range []struct {
		b    *train.Batch
		m    train.Metric
		want []string
	}{
		{&train.Batch{Features: []*ndarray.Array{x}}, nil,
			[]string{"validation batch 0", "0 label arrays", `1 label placeholders ["y"]`}},
		{&train.Batch{Features: []*ndarray.Array{x}, Labels: []*ndarray.Array{nil}}, nil,
			[]string{"validation batch 0", `label array 0 (for placeholder "y") is nil`}},
		// The metric reads x [2 2] as the predictions of labels [2 1].
		{&train.Batch{Features: []*ndarray.Array{x}, Labels: []*ndarray.Array{y}}, train.MSE(),
			[]string{"epoch 0", "validation batch 0", `metric mse of output "x"`, "labels of shape [2 1] and predictions of shape [2 2]"}},
	} {
		if err := tr.SetValidation(&train.Validation{Data: &listIter{b: []*train.Batch{c.b}}, Output: "x", Metric: c.m}); err != nil {
			t.Fatal(err)
		}
		_, err := tr.Fit(data, 1)
		for _, w := range c.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%v: want %q", err, w)
			}
		}
	}
}

// The progress line gives the validation figures and the time left.
func TestProgressShowsValidationAndETA(t *testing.T) {
	_, tr := linear(t, 0.1)
	val := rows(t, []float64{1, 0, 0, 1, 1, 1}, []float64{1, 2, 3}, 2)
	if err := tr.SetValidation(&train.Validation{Data: val, Output: "preds", Metric: train.MAE()}); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := tr.Fit(rows(t, []float64{1, 0, 0, 1}, []float64{2, -1}, 1), 2, train.NewProgress(&buf)); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "val_loss ") || !strings.Contains(lines[0], "val_mae ") ||
		!strings.Contains(lines[0], "ETA ") || strings.Contains(lines[1], "ETA") {
		t.Errorf("progress:\n%s", buf.String())
	}
}
