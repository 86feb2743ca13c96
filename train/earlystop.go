package train

import (
	"fmt"
	"math"
	"strings"

	"github.com/sdgo/sdgo/ndarray"
)

// Mode says whether a watched figure should fall or rise.
type Mode int

const (
	// Auto minimizes losses and errors and maximizes the figures a Metric
	// says are better larger (Metric.Maximize).
	Auto Mode = iota
	// Minimize watches for the figure to fall.
	Minimize
	// Maximize watches for the figure to rise.
	Maximize
)

// EarlyStopping stops Fit when a figure has not improved for Patience
// epochs in a row (DL4J's ScoreImprovementEpochTerminationCondition, Keras's
// EarlyStopping), and can put back the variables of the best epoch.
//
// An epoch improves on the best so far when its figure is better by more
// than MinDelta: below best-MinDelta when minimizing, above best+MinDelta
// when maximizing. The first epoch always does. A NaN figure never does.
type EarlyStopping struct {
	// Monitor names the figure: "loss" (the epoch's mean training loss),
	// "val_loss" (the validation loss), or "val_" and the validation
	// metric's name ("val_accuracy"). Empty means "val_loss" when the
	// trainer has validation data, "loss" otherwise.
	Monitor string
	// Mode says which way is better; Auto decides from Monitor.
	Mode Mode
	// Patience is the number of epochs in a row without improvement
	// after which training stops (DL4J's maxEpochsWithNoImprovement,
	// Keras's patience): 0 and 1 both stop at the first.
	Patience int
	// MinDelta is how much better than the best a figure must be to count
	// as an improvement (0: any amount).
	MinDelta float64
	// RestoreBest sets the trained variables, when Fit returns, to their
	// values at the end of the best epoch.
	RestoreBest bool

	// What the last Fit found: the best figure and its epoch (counted
	// over the whole training, as EpochEvent.Epoch), and whether it
	// stopped early and after which epoch.
	Best         float64
	BestEpoch    int
	Stopped      bool
	StoppedEpoch int

	monitor  string
	maximize bool
	wait     int
	seen     bool
	snapshot []*ndarray.Array
}

// SetEarlyStopping has Fit watch a figure each epoch and stop when it no
// longer improves (see EarlyStopping). Nil removes it. Each Fit starts
// watching afresh.
func (t *Trainer) SetEarlyStopping(es *EarlyStopping) error {
	if es != nil && (es.Patience < 0 || es.MinDelta < 0 || math.IsNaN(es.MinDelta) || es.Mode < Auto || es.Mode > Maximize) {
		return fmt.Errorf("train: early stopping with patience %d, min delta %v, mode %d: patience and min delta must be from 0 up, the mode Auto, Minimize or Maximize",
			es.Patience, es.MinDelta, es.Mode)
	}
	t.stop = es
	return nil
}

// startFit checks the early stopping's figure against the validation the
// trainer has and starts watching it afresh.
func (t *Trainer) startFit() error {
	es := t.stop
	if es == nil {
		return nil
	}
	es.monitor = es.Monitor
	if es.monitor == "" {
		es.monitor = "loss"
		if t.val != nil {
			es.monitor = "val_loss"
		}
	}
	var metric Metric
	if t.val != nil {
		metric = t.val.Metric
	}
	es.maximize = false
	switch {
	case es.monitor == "loss", es.monitor == "val_loss" && t.val != nil:
	case metric != nil && es.monitor == "val_"+metric.Name():
		es.maximize = metric.Maximize()
	default:
		have := []string{"loss"}
		if t.val != nil {
			have = append(have, "val_loss")
		}
		if metric != nil {
			have = append(have, "val_"+metric.Name())
		}
		return fmt.Errorf("train: early stopping monitors %q, which this training does not give (it gives %s; validation figures need SetValidation)",
			es.monitor, strings.Join(have, ", "))
	}
	switch es.Mode {
	case Minimize:
		es.maximize = false
	case Maximize:
		es.maximize = true
	}
	es.wait, es.seen, es.Stopped = 0, false, false
	es.Best, es.BestEpoch, es.StoppedEpoch = math.NaN(), -1, -1
	return nil
}

// watch reads the epoch's figure and reports whether training should stop.
func (t *Trainer) watch(ev *EpochEvent) (bool, error) {
	es := t.stop
	if es == nil {
		return false, nil
	}
	x := ev.Loss
	if es.monitor != "loss" {
		x = ev.Validation.Loss
		if es.monitor != "val_loss" {
			x = ev.Validation.Value
		}
	}
	better := !math.IsNaN(x) && (!es.seen ||
		es.maximize && x > es.Best+es.MinDelta ||
		!es.maximize && x < es.Best-es.MinDelta)
	if better {
		es.Best, es.BestEpoch, es.seen, es.wait = x, ev.Epoch, true, 0
		if es.RestoreBest {
			return false, t.keepBest()
		}
		return false, nil
	}
	es.wait++
	if es.wait >= es.Patience {
		es.Stopped, es.StoppedEpoch = true, ev.Epoch
		return true, nil
	}
	return false, nil
}

// keepBest copies the trained variables' values aside.
func (t *Trainer) keepBest() error {
	es := t.stop
	if len(es.snapshot) != len(t.params) {
		es.snapshot = make([]*ndarray.Array, len(t.params))
	}
	for i, p := range t.params {
		v := p.Value()
		s := es.snapshot[i]
		var err error
		if s == nil || s.DType() != v.DType() || !ndarray.SameShape(s.Shape(), v.Shape()) {
			// Parameters keep their shapes while training: this
			// allocates at the first improvement only.
			es.snapshot[i], err = ndarray.Copy(v)
		} else {
			err = ndarray.CopyInto(s, v)
		}
		if err != nil {
			return fmt.Errorf("train: keeping the value of %q after epoch %d: %w", p.Name(), es.BestEpoch, err)
		}
	}
	return nil
}

// endFit puts back the best epoch's variables when asked to.
func (t *Trainer) endFit() error {
	es := t.stop
	if es == nil || !es.RestoreBest || !es.seen {
		return nil
	}
	for i, p := range t.params {
		if err := ndarray.CopyInto(p.Value(), es.snapshot[i]); err != nil {
			return fmt.Errorf("train: restoring %q to its value after epoch %d: %w", p.Name(), es.BestEpoch, err)
		}
	}
	return nil
}
