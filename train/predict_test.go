package train_test

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/serialize"
	"github.com/sdgo/sdgo/train"
)

// A trained classifier saved as an inference file predicts what the
// trained graph does, from its feature placeholder alone, and the file is
// smaller: no labels, loss, gradients or updater state.
func TestInferenceFilePredicts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	f, l := spirals(t, rng, 20, 0.01, ndarray.Float32)
	data, _ := train.NewArrayIterator([]*ndarray.Array{f}, []*ndarray.Array{l}, 10, rng)
	g := mlp(ndarray.Float32, 6, 1)
	tr, err := train.New(g, &train.Config{Updater: train.NewAdam(0.01), Features: []string{"x"}, Labels: []string{"y"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Fit(data, 2); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	full, inf := filepath.Join(dir, "full.fb"), filepath.Join(dir, "inference.fb")
	if err := serialize.Save(full, g, &serialize.SaveOptions{UpdaterState: true}); err != nil {
		t.Fatal(err)
	}
	if err := serialize.Save(inf, g, &serialize.SaveOptions{InferenceOutputs: []string{"logits"}}); err != nil {
		t.Fatal(err)
	}
	p, err := train.LoadPredictor(inf)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Inputs(), []string{"x"}) || !slices.Equal(p.Outputs(), []string{"logits"}) {
		t.Errorf("inputs %q, outputs %q", p.Inputs(), p.Outputs())
	}
	got, err := p.Predict(map[string]*ndarray.Array{"x": f})
	if err != nil {
		t.Fatal(err)
	}
	want, err := tr.Session().Output(map[string]*ndarray.Array{"x": f}, "logits")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got["logits"].Float64s(), want["logits"].Float64s()) {
		t.Errorf("the inference file predicts differently from the trained graph")
	}
	g2, _ := serialize.Load(inf)
	if _, err := train.ConfigOf(g2); err == nil {
		t.Errorf("the inference file has a training configuration")
	}
	for _, v := range g2.Variables() {
		if v.Name() == "y" || v.Name() == "loss" || strings.Contains(v.Name(), "grad") {
			t.Errorf("the inference file has %s", v)
		}
	}
}

func TestPredictBadInput(t *testing.T) {
	g, _ := linear(t, 0.1)
	p, err := train.NewPredictor(g, "preds")
	if err != nil {
		t.Fatal(err)
	}
	x := ndarray.Must(ndarray.FromSlice([]float64{1, 2}, 1, 2))
	for _, c := range []struct {
		in   map[string]*ndarray.Array
		want []string
	}{
		{map[string]*ndarray.Array{"x": x, "y": x}, []string{`"y" is not an input of preds`, `the inputs are "x"`}},
		{map[string]*ndarray.Array{}, []string{`no value for input "x" (float64 of shape [-1 2])`}},
		{map[string]*ndarray.Array{"x": ndarray.Must(ndarray.FromSlice([]float32{1, 2}, 1, 2))}, []string{`placeholder "x"`, "given float32[1 2]"}},
		{map[string]*ndarray.Array{"x": ndarray.Must(ndarray.FromSlice([]float64{1, 2, 3}, 1, 3))}, []string{`placeholder "x"`, "[1 3]"}},
	} {
		_, err := p.Predict(c.in)
		for _, w := range c.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%v: want %q", err, w)
			}
		}
	}
	if _, err := train.NewPredictor(g); err == nil || !strings.Contains(err.Error(), "needs the names of the outputs") {
		t.Errorf("no outputs: %v", err)
	}
	if _, err := train.NewPredictor(g, "nope"); err == nil || !strings.Contains(err.Error(), `output "nope" is not a variable`) {
		t.Errorf("unknown output: %v", err)
	}
	path := filepath.Join(t.TempDir(), "full.fb")
	if err := serialize.Save(path, g, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := train.LoadPredictor(path); err == nil || !strings.Contains(err.Error(), "names no outputs") {
		t.Errorf("a file without outputs: %v", err)
	}
	if _, err := train.LoadPredictor(filepath.Join(t.TempDir(), "missing.fb")); err == nil || !strings.Contains(err.Error(), "missing.fb") {
		t.Errorf("a missing file: %v", err)
	}
}
