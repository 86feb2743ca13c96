package train

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
)

// WriteCSV writes the history as CSV: a header line "iteration,epoch,loss",
// then one line per step with its loss and the epoch (from 1) it belongs
// to, then one line per epoch, "epoch,N,MEAN" in the first two columns'
// stead: iteration empty, epoch N, the epoch's mean loss. steps is the
// number of steps per epoch, with which Fit ran (0 leaves the epoch column
// of the steps empty). With validation figures (SetValidation) the
// header goes on with "val_loss" and "val_" and the metric's name, which
// the epoch lines fill.
func (h *History) WriteCSV(w io.Writer, steps int) error {
	cw := csv.NewWriter(w)
	header := []string{"iteration", "epoch", "loss", "epoch_mean_loss"}
	if len(h.ValLoss) > 0 {
		header = append(header, "val_loss")
		if h.Metric != "" {
			header = append(header, "val_"+h.Metric)
		}
	}
	if err := cw.Write(header); err != nil {
		return err
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	row := func(fields ...string) []string {
		for len(fields) < len(header) {
			fields = append(fields, "")
		}
		return fields
	}
	for i, l := range h.Loss {
		ep := ""
		if steps > 0 {
			ep = strconv.Itoa(i/steps + 1)
		}
		if err := cw.Write(row(strconv.Itoa(i+1), ep, f(l), "")); err != nil {
			return err
		}
	}
	for e, l := range h.EpochLoss {
		r := row("", strconv.Itoa(e+1), "", f(l))
		if e < len(h.ValLoss) {
			r[4] = f(h.ValLoss[e])
		}
		if h.Metric != "" && e < len(h.ValMetric) {
			r[5] = f(h.ValMetric[e])
		}
		if err := cw.Write(r); err != nil {
			return err
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("train: writing the history: %w", err)
	}
	return nil
}
