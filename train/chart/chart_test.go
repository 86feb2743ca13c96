package chart

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/train"
)

func history() *train.History {
	h := &train.History{}
	for i := 0; i < 40; i++ {
		h.Loss = append(h.Loss, 2/float64(i+1))
	}
	for e := 0; e < 4; e++ {
		var s float64
		for _, l := range h.Loss[e*10 : (e+1)*10] {
			s += l
		}
		h.EpochLoss = append(h.EpochLoss, s/10)
	}
	return h
}

// A PNG of the size asked (16x10 cm at gonum's 96 dpi: 605x378 pixels)
// and an SVG with both series' legend entries.
func TestWriteLoss(t *testing.T) {
	dir := t.TempDir()
	pngPath := filepath.Join(dir, "loss.png")
	if err := WriteLoss(pngPath, history(), 10, Options{}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(pngPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 605 || b.Dy() != 378 {
		t.Errorf("PNG of %dx%d pixels", b.Dx(), b.Dy())
	}
	svgPath := filepath.Join(dir, "loss.svg")
	if err := WriteLoss(svgPath, history(), 10, Options{Title: "spirals", LogScale: true}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(svgPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<svg", "spirals", "epoch mean", "iteration"} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("the SVG lacks %q", want)
		}
	}
}

func TestWriteLossErrors(t *testing.T) {
	dir := t.TempDir()
	neg := &train.History{Loss: []float64{1, -0.5}}
	for _, c := range []struct {
		path string
		h    *train.History
		o    Options
		want string
	}{
		{"loss.gif", history(), Options{}, ".png or .svg"},
		{"loss.png", &train.History{}, Options{}, "no step"},
		{"loss.png", nil, Options{}, "no step"},
		{"loss.svg", neg, Options{LogScale: true}, "step 2's loss is -0.5"},
	} {
		err := WriteLoss(filepath.Join(dir, c.path), c.h, 1, c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one with %q", c.path, err, c.want)
		}
	}
	// A failed write leaves the old picture.
	old := filepath.Join(dir, "old.png")
	os.WriteFile(old, []byte("old"), 0o644)
	if err := WriteLoss(old, neg, 1, Options{LogScale: true}); err == nil {
		t.Fatal("no error")
	}
	if b, _ := os.ReadFile(old); string(b) != "old" {
		t.Errorf("the old file became %q", b)
	}
}

// Validation losses join the loss picture; the validation metric has a
// picture of its own, against the epoch.
func TestWriteValidation(t *testing.T) {
	dir := t.TempDir()
	h := history()
	h.ValLoss = []float64{0.9, 0.5, 0.4, 0.45}
	h.ValMetric, h.Metric = []float64{0.5, 0.7, 0.8, 0.75}, "accuracy"
	loss, metric := filepath.Join(dir, "loss.svg"), filepath.Join(dir, "accuracy.svg")
	if err := WriteLoss(loss, h, 10, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := WriteMetric(metric, h, Options{}); err != nil {
		t.Fatal(err)
	}
	for path, wants := range map[string][]string{loss: {"validation", "epoch mean"}, metric: {"validation accuracy", "epoch"}} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range wants {
			if !bytes.Contains(b, []byte(want)) {
				t.Errorf("%s lacks %q", filepath.Base(path), want)
			}
		}
	}
	png := filepath.Join(dir, "accuracy.png")
	if err := WriteMetric(png, h, Options{LogScale: true}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{WriteMetric(filepath.Join(dir, "m.png"), history(), Options{}), "no validation metric"},
		{WriteMetric(filepath.Join(dir, "m.jpg"), h, Options{}), ".png or .svg"},
		{WriteMetric(filepath.Join(dir, "m.png"), &train.History{ValMetric: []float64{0.5, 0}, Metric: "r2"}, Options{LogScale: true}), "epoch 2's r2 is 0"},
		{WriteLoss(filepath.Join(dir, "l.png"), &train.History{Loss: []float64{1}, ValLoss: []float64{-1}}, 1, Options{LogScale: true}), "epoch 1's validation loss is -1"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%v, want %q", c.err, c.want)
		}
	}
}
