package train

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// On a terminal the bar gives the time left: the steps still to run (the
// rest of this epoch and the epochs after it) at this epoch's rate. After
// 2 of 4 steps in 1 s, with one more epoch to go, 2+4 steps are left: 3 s.
func TestProgressBarETA(t *testing.T) {
	var buf bytes.Buffer
	p := &Progress{w: &buf, terminal: true}
	if err := p.IterationDone(&IterationEvent{Epoch: 0, Epochs: 2, Batch: 1, Batches: 4, Loss: 0.5, Elapsed: time.Second}); err != nil {
		t.Fatal(err)
	}
	if out := buf.String(); !strings.Contains(out, "[===============>              ] 2/4") || !strings.Contains(out, "ETA 3s") {
		t.Errorf("bar: %q", out)
	}
	buf.Reset()
	if err := p.EpochDone(&EpochEvent{Epoch: 0, Epochs: 3, Loss: 0.5, Iterations: 4, Elapsed: 12 * time.Second,
		Validation: &ValidationResult{Loss: 0.25, Metric: "accuracy", Value: 0.875}}); err != nil {
		t.Fatal(err)
	}
	if out := buf.String(); !strings.HasPrefix(out, "\r\033[K") || !strings.Contains(out, "val_loss 0.2500  val_accuracy 0.8750") || !strings.Contains(out, "ETA 24s") {
		t.Errorf("epoch line: %q", out)
	}
}
