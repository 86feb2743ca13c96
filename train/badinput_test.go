package train_test

import (
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/train"
)

// Data arrays that disagree on the number of examples, or that are nil or
// scalars, are errors naming the array and both counts.
func TestArrayIteratorRowsDisagree(t *testing.T) {
	z := func(shape ...int) *ndarray.Array { return ndarray.Must(ndarray.Zeros(ndarray.Float64, shape...)) }
	for _, c := range []struct {
		f, l []*ndarray.Array
		want string
	}{
		{[]*ndarray.Array{z(50, 2)}, []*ndarray.Array{z(40, 1)},
			"label array 0 has 40 rows (shape [40 1]), feature array 0 50: every array needs one row per example"},
		{[]*ndarray.Array{z(5, 2), z(4)}, nil, "feature array 1 has 4 rows (shape [4]), feature array 0 5"},
		{[]*ndarray.Array{z(5, 2)}, []*ndarray.Array{z(5), z(6, 3)}, "label array 1 has 6 rows"},
		{[]*ndarray.Array{z(5, 2)}, []*ndarray.Array{nil}, "label array 0 is nil"},
		{[]*ndarray.Array{z()}, nil, "feature array 0 is a scalar"},
	} {
		if _, err := train.NewArrayIterator(c.f, c.l, 2, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v, want %q", err, c.want)
		}
	}
}

// A batch whose labels do not match the output's predictions in number
// is an Evaluate error naming the output and both shapes.
func TestEvaluateLabelsOfTheWrongShape(t *testing.T) {
	_, tr := linear(t, 0.1)
	x := ndarray.Must(ndarray.FromSlice([]float64{1, 0, 0, 1}, 2, 2))
	y := ndarray.Must(ndarray.FromSlice([]float64{1, 2, 3}, 3, 1))
	_, err := tr.Evaluate(&listIter{b: []*train.Batch{{Features: []*ndarray.Array{x}, Labels: []*ndarray.Array{y}}}}, "preds")
	if err == nil || !strings.Contains(err.Error(), `output "preds" of shape [2 1] gives 2 predictions for 3 labels of shape [3 1]`) {
		t.Errorf("Evaluate: %v", err)
	}
}

// A batch with a feature array too many, or a nil one, is a Fit error
// naming the placeholders.
func TestFitBatchCountsDisagree(t *testing.T) {
	_, tr := linear(t, 0.1)
	x := ndarray.Must(ndarray.FromSlice([]float64{1, 0}, 1, 2))
	y := ndarray.Must(ndarray.FromSlice([]float64{1}, 1, 1))
	for _, c := range []struct {
		b    *train.Batch
		want string
	}{
		{&train.Batch{Features: []*ndarray.Array{x, x}, Labels: []*ndarray.Array{y}},
			`a batch has 2 feature and 1 label arrays; the configuration names 1 feature placeholders ["x"] and 1 label placeholders ["y"]`},
		{&train.Batch{Features: []*ndarray.Array{nil}, Labels: []*ndarray.Array{y}}, `feature array 0 (for placeholder "x") is nil`},
		{nil, "nil batch"},
	} {
		_, err := tr.Fit(&listIter{b: []*train.Batch{c.b}}, 1)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "epoch 0, batch 0") {
			t.Errorf("%v, want %q", err, c.want)
		}
	}
}
