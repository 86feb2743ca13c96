// Package chart draws a training history as a picture: the loss of every
// step, the mean loss of every epoch and the validation loss against the
// iteration, or the validation metric against the epoch, drawn with
// gonum's plot package, as PNG or SVG.
package chart

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/sdgo/sdgo/internal/atomicfile"
	"github.com/sdgo/sdgo/train"
)

// Options are the picture's title and size; zero values take defaults.
type Options struct {
	// Title is drawn above the plot. Default "training loss".
	Title string
	// Width and Height are in centimetres. Default 16 by 10.
	Width, Height float64
	// LogScale draws the loss on a logarithmic axis (every loss must then
	// be positive). Default false.
	LogScale bool
}

// WriteLoss draws h's step losses (a thin line), epoch means and
// validation losses (points at each epoch's last step; stepsPerEpoch steps
// an epoch, 0 to leave them out) into path, a PNG or SVG by its
// extension. The file is written whole or not at all.
func WriteLoss(path string, h *train.History, stepsPerEpoch int, o Options) error {
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	if ext != "png" && ext != "svg" {
		return fmt.Errorf("chart: %s: the picture's format comes from its extension, .png or .svg", path)
	}
	if h == nil || len(h.Loss) == 0 {
		return fmt.Errorf("chart: %s: the history has no step to draw", path)
	}
	p := plot.New()
	p.Title.Text = o.Title
	if p.Title.Text == "" {
		p.Title.Text = "training loss"
	}
	p.X.Label.Text = "iteration"
	p.Y.Label.Text = "loss"
	if o.LogScale {
		for i, l := range h.Loss {
			if !(l > 0) {
				return fmt.Errorf("chart: %s: step %d's loss is %v, which a logarithmic axis cannot show", path, i+1, l)
			}
		}
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	steps := make(plotter.XYs, len(h.Loss))
	for i, l := range h.Loss {
		steps[i] = plotter.XY{X: float64(i + 1), Y: l}
	}
	line, err := plotter.NewLine(steps)
	if err != nil {
		return fmt.Errorf("chart: %s: %w", path, err)
	}
	line.Width = vg.Points(0.75)
	p.Add(line)
	p.Legend.Add("step", line)
	if stepsPerEpoch > 0 && len(h.EpochLoss) > 0 {
		means := make(plotter.XYs, len(h.EpochLoss))
		for e, l := range h.EpochLoss {
			means[e] = plotter.XY{X: float64((e + 1) * stepsPerEpoch), Y: l}
		}
		pts, marks, err := plotter.NewLinePoints(means)
		if err != nil {
			return fmt.Errorf("chart: %s: %w", path, err)
		}
		pts.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
		p.Add(pts, marks)
		p.Legend.Add("epoch mean", pts, marks)
	}
	if stepsPerEpoch > 0 && len(h.ValLoss) > 0 {
		val := make(plotter.XYs, len(h.ValLoss))
		for e, l := range h.ValLoss {
			if o.LogScale && !(l > 0) {
				return fmt.Errorf("chart: %s: epoch %d's validation loss is %v, which a logarithmic axis cannot show", path, e+1, l)
			}
			val[e] = plotter.XY{X: float64((e + 1) * stepsPerEpoch), Y: l}
		}
		pts, marks, err := plotter.NewLinePoints(val)
		if err != nil {
			return fmt.Errorf("chart: %s: %w", path, err)
		}
		pts.Color, marks.Color = plotutil.Color(1), plotutil.Color(1)
		marks.Shape = draw.BoxGlyph{}
		p.Add(pts, marks)
		p.Legend.Add("validation", pts, marks)
	}
	return write(path, ext, p, o)
}

// WriteMetric draws the validation metric of every epoch (h.ValMetric,
// named by h.Metric) into path, a PNG or SVG by its extension.
func WriteMetric(path string, h *train.History, o Options) error {
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	if ext != "png" && ext != "svg" {
		return fmt.Errorf("chart: %s: the picture's format comes from its extension, .png or .svg", path)
	}
	if h == nil || len(h.ValMetric) == 0 {
		return fmt.Errorf("chart: %s: the history has no validation metric to draw (train.Trainer.SetValidation with a Metric)", path)
	}
	p := plot.New()
	p.Title.Text = o.Title
	if p.Title.Text == "" {
		p.Title.Text = "validation " + h.Metric
	}
	p.X.Label.Text = "epoch"
	p.Y.Label.Text = h.Metric
	xy := make(plotter.XYs, len(h.ValMetric))
	for e, v := range h.ValMetric {
		if o.LogScale && !(v > 0) {
			return fmt.Errorf("chart: %s: epoch %d's %s is %v, which a logarithmic axis cannot show", path, e+1, h.Metric, v)
		}
		xy[e] = plotter.XY{X: float64(e + 1), Y: v}
	}
	if o.LogScale {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	line, marks, err := plotter.NewLinePoints(xy)
	if err != nil {
		return fmt.Errorf("chart: %s: %w", path, err)
	}
	p.Add(line, marks)
	return write(path, ext, p, o)
}

// write draws p into path at the options' size.
func write(path, ext string, p *plot.Plot, o Options) error {
	p.Legend.Top = true
	w, ht := o.Width, o.Height
	if w <= 0 {
		w = 16
	}
	if ht <= 0 {
		ht = 10
	}
	wt, err := p.WriterTo(vg.Length(w)*vg.Centimeter, vg.Length(ht)*vg.Centimeter, ext)
	if err != nil {
		return fmt.Errorf("chart: %s: %w", path, err)
	}
	return atomicfile.Write(path, func(f io.Writer) error { _, err := wt.WriteTo(f); return err })
}
