package train

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// Listener follows training. Returning an error stops Fit with it.
type Listener interface {
	IterationDone(e *IterationEvent) error
	EpochDone(e *EpochEvent) error
}

// IterationEvent describes a finished step.
//
// Iteration and Epoch count over the whole training, from 0: they are the
// configuration's IterationCount and EpochCount when the step ran (as
// SameDiff's listeners get the training configuration's counts), so they go
// on from where they were when Fit is called again or training resumes from
// a saved graph (ConfigOf, New), and a listener that names its checkpoints
// by epoch does not reuse the names of earlier ones. Epochs is the epoch
// count the Fit call trains to, so the call's last epoch is Epochs-1 (on a
// fresh trainer, Epochs is Fit's epochs argument).
type IterationEvent struct {
	// Batch counts steps within the epoch, from 0; Batches is the epoch's
	// number of batches (-1 when the iterator does not know).
	Iteration, Epoch, Epochs, Batch, Batches int
	Loss                                     float64
	Examples                                 int
	// Elapsed is the time since the epoch started.
	Elapsed time.Duration
}

// EpochEvent describes a finished epoch. Epoch and Epochs count over the
// whole training, as in IterationEvent: the finished epoch is Epoch, the
// configuration's EpochCount is Epoch+1 when listeners see it.
type EpochEvent struct {
	Epoch, Epochs int
	// Loss is the mean of the epoch's step losses.
	Loss       float64
	Iterations int
	Examples   int
	Elapsed    time.Duration
	// Validation holds the epoch's validation figures; nil without
	// validation data (Trainer.SetValidation).
	Validation *ValidationResult
}

// Progress shows training progress: on a terminal, a bar redrawn in place
// with the loss, the rate and the estimated time left (ETA, at the rate of
// the epoch so far); otherwise, and at the end of every epoch, one line
// per epoch with its mean loss, the validation figures when there is
// validation data, and the time left for the epochs still to run.
type Progress struct {
	w        io.Writer
	terminal bool
	last     time.Time
	every    time.Duration
}

// NewProgress returns a progress listener writing to w. It draws a bar when
// w is a terminal.
func NewProgress(w io.Writer) *Progress {
	return &Progress{w: w, terminal: isTerminal(w), every: 100 * time.Millisecond}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func rate(n int, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}

// IterationDone redraws the bar (on a terminal, at most ten times a second).
func (p *Progress) IterationDone(e *IterationEvent) error {
	if !p.terminal {
		return nil
	}
	now := time.Now()
	last := e.Batches > 0 && e.Batch == e.Batches-1
	if !last && now.Sub(p.last) < p.every {
		return nil
	}
	p.last = now
	const width = 30
	bar := strings.Repeat(" ", width)
	count := fmt.Sprintf("%d", e.Batch+1)
	if e.Batches > 0 {
		done := width * (e.Batch + 1) / e.Batches
		bar = strings.Repeat("=", done) + strings.Repeat(" ", width-done)
		if done < width {
			bar = bar[:done] + ">" + bar[done+1:]
		}
		count = fmt.Sprintf("%d/%d", e.Batch+1, e.Batches)
	}
	eta := ""
	if e.Batches > 0 && e.Batch >= 0 {
		// Every step is taken to last as long as this epoch's have so far.
		left := e.Batches - e.Batch - 1 + (e.Epochs-e.Epoch-1)*e.Batches
		eta = "  ETA " + fmtETA(time.Duration(float64(e.Elapsed)/float64(e.Batch+1)*float64(left)))
	}
	_, err := fmt.Fprintf(p.w, "\repoch %d/%d [%s] %s  loss %.4f  %.0f it/s%s ", e.Epoch+1, e.Epochs, bar, count, e.Loss, rate(e.Batch+1, e.Elapsed), eta)
	return err
}

// EpochDone ends the bar's line, or prints the epoch's line.
func (p *Progress) EpochDone(e *EpochEvent) error {
	prefix := ""
	if p.terminal {
		prefix = "\r\033[K"
	}
	val := ""
	if v := e.Validation; v != nil {
		val = fmt.Sprintf("  val_loss %.4f", v.Loss)
		if v.Metric != "" {
			val += fmt.Sprintf("  val_%s %.4f", v.Metric, v.Value)
		}
	}
	eta := ""
	if left := e.Epochs - e.Epoch - 1; left > 0 {
		eta = "  ETA " + fmtETA(e.Elapsed*time.Duration(left))
	}
	_, err := fmt.Fprintf(p.w, "%sepoch %d/%d  loss %.4f%s  %d iterations  %.0f it/s  %.0f examples/s  %v%s\n", prefix,
		e.Epoch+1, e.Epochs, e.Loss, val, e.Iterations, rate(e.Iterations, e.Elapsed), rate(e.Examples, e.Elapsed), e.Elapsed.Round(time.Millisecond), eta)
	return err
}

// fmtETA writes an estimate of the time left: to the second, or to the
// tenth of a second under ten seconds.
func fmtETA(d time.Duration) string {
	if d < 10*time.Second {
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}
