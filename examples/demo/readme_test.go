package main

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/train"
)

// the README's Install section shows this import block
import (
	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// readmeSnippets holds the README's Go snippets after its import block,
// one after the other, so that building this test compiles them against
// the current API.
func readmeSnippets(input, inputs, targets *ndarray.Array) error {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float32, -1, 2)
	w := g.Var("w", ndarray.Must(ndarray.FromSlice([]float32{1, 2, 3, 4}, 2, 2)))
	y := g.Math().Tanh(x.MatMul(w)).Named("y")
	out, err := exec.New(g).Output(map[string]*ndarray.Array{"x": input}, "y")
	if err != nil {
		return err
	}
	if out["y"].Shape()[0] != input.Shape()[0] {
		return fmt.Errorf("y has shape %v for an input of shape %v", out["y"].Shape(), input.Shape())
	}

	labels := g.Placeholder("labels", ndarray.Float32, -1, 2)
	g.Loss().MeanSquaredError(labels, y).Named("loss")
	tr, err := train.New(g, &train.Config{
		Updater:  train.NewAdam(1e-3),
		Features: []string{"x"},
		Labels:   []string{"labels"},
		Losses:   []string{"loss"},
	})
	if err != nil {
		return err
	}
	data, err := train.NewArrayIterator([]*ndarray.Array{inputs}, []*ndarray.Array{targets}, 32, nil)
	if err != nil {
		return err
	}
	history, err := tr.Fit(data, 10)
	if err != nil {
		return err
	}
	fmt.Printf("mean loss of each epoch: %v\n", history.EpochLoss)
	if len(history.EpochLoss) != 10 {
		return fmt.Errorf("%d epoch losses after 10 epochs", len(history.EpochLoss))
	}
	return nil
}

// TestREADMESnippets: every Go snippet of the README appears in this file
// (indentation aside): the import block above, and the others in
// readmeSnippets, which runs.
func TestREADMESnippets(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("readme_test.go")
	if err != nil {
		t.Fatal(err)
	}
	trim := func(s string) string {
		lines := strings.Split(strings.TrimSpace(s), "\n")
		for i, l := range lines {
			lines[i] = strings.TrimSpace(l)
		}
		return strings.Join(lines, "\n")
	}
	code := trim(string(src))
	blocks := regexp.MustCompile("(?s)```go\n(.*?)```").FindAllStringSubmatch(string(readme), -1)
	if len(blocks) != 3 {
		t.Errorf("the README has %d Go snippets, this test expects 3", len(blocks))
	}
	for _, b := range blocks {
		if !strings.Contains(code, trim(b[1])) {
			t.Errorf("readme_test.go does not hold the README's snippet:\n%s", b[1])
		}
	}
	rows := func(n int, v float64) *ndarray.Array { return ndarray.Must(ndarray.Full(ndarray.Float32, v, n, 2)) }
	if err := readmeSnippets(rows(3, 0.5), rows(64, 0.1), rows(64, 0.2)); err != nil {
		t.Fatal(err)
	}
}
