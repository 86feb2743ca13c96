package train_test

import (
	"strings"
	"testing"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/train"
)

// listIter serves fixed batches.
type listIter struct {
	b []*train.Batch
	i int
}

func (l *listIter) Next() (*train.Batch, bool) {
	if l.i >= len(l.b) {
		return nil, false
	}
	l.i++
	return l.b[l.i-1], true
}

func (l *listIter) Reset() { l.i = 0 }

func i64s(v ...int64) *ndarray.Array { return ndarray.Must(ndarray.FromSlice(v)) }

// A batch with fewer feature arrays than the placeholders named is an
// error, as in Step; Evaluate indexed past the batch's features and
// panicked.
func TestEvaluateBatchWithTooFewFeatures(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, -1, 2)
	g.Placeholder("x2", ndarray.Float64, -1, 2)
	g.Identity(x).Named("y")
	it := &listIter{b: []*train.Batch{
		{Features: []*ndarray.Array{ndarray.Must(ndarray.Zeros(ndarray.Float64, 1, 2))}, Labels: []*ndarray.Array{i64s(0)}},
	}}
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("Evaluate panicked: %v", r)
			}
		}()
		_, err = train.Evaluate(exec.New(g), it, []string{"x", "x2"}, "y")
	}()
	if err == nil || !strings.Contains(err.Error(), "feature") {
		t.Errorf("Evaluate of a batch with 1 feature array for 2 placeholders: %v", err)
	}
}

// The confusion matrix is k×k for the output's k classes; an output whose
// number of classes changes between batches is an error naming both, not
// a panic on the shorter rows.
func TestEvaluateClassCountChanges(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, -1, -1)
	g.Identity(x).Named("y")
	f := func(shape []int, v ...float64) *ndarray.Array {
		return ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.FromSlice(v)), shape...))
	}
	it := &listIter{b: []*train.Batch{
		{Features: []*ndarray.Array{f([]int{1, 2}, 1, 0)}, Labels: []*ndarray.Array{i64s(0)}},
		{Features: []*ndarray.Array{f([]int{1, 3}, 0, 0, 1)}, Labels: []*ndarray.Array{i64s(0)}},
	}}
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("Evaluate panicked: %v", r)
			}
		}()
		_, err = train.Evaluate(exec.New(g), it, []string{"x"}, "y")
	}()
	if err == nil || !strings.Contains(err.Error(), "2") || !strings.Contains(err.Error(), "3") {
		t.Errorf("Evaluate of 2 then 3 classes: %v", err)
	}
}

// Accuracy and the confusion matrix of a known set of predictions, over
// batches of uneven size, with one-hot and with index labels.
func TestEvaluateKnownConfusion(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, -1, 3)
	g.Identity(x).Named("y")
	onehot := func(rows ...int) *ndarray.Array {
		a := ndarray.Must(ndarray.Zeros(ndarray.Float64, len(rows), 3))
		for i, r := range rows {
			ndarray.Raw[float64](a)[i*3+r] = 1
		}
		return a
	}
	// predictions 0 1 2 2 | 1 0 2 against truth 0 1 1 2 | 0 0 2.
	for _, labels := range [][]*ndarray.Array{
		{onehot(0, 1, 1, 2), onehot(0, 0, 2)},
		{i64s(0, 1, 1, 2), i64s(0, 0, 2)},
	} {
		it := &listIter{b: []*train.Batch{
			{Features: []*ndarray.Array{onehot(0, 1, 2, 2)}, Labels: labels[:1]},
			{Features: []*ndarray.Array{onehot(1, 0, 2)}, Labels: labels[1:]},
		}}
		ev, err := train.Evaluate(exec.New(g), it, []string{"x"}, "y")
		if err != nil {
			t.Fatal(err)
		}
		want := [][]int{{2, 1, 0}, {0, 1, 1}, {0, 0, 2}}
		if ev.Total != 7 || ev.Correct != 5 || ev.Accuracy() != 5.0/7 {
			t.Errorf("total %d correct %d accuracy %v, want 7, 5, 5/7", ev.Total, ev.Correct, ev.Accuracy())
		}
		for i := range want {
			for j := range want[i] {
				if ev.Confusion[i][j] != want[i][j] {
					t.Fatalf("confusion %v, want %v", ev.Confusion, want)
				}
			}
		}
	}
}

// Data of a dtype the iterator cannot copy rows of (strings) is an error
// from NewArrayIterator, not a panic from the first Next.
func TestArrayIteratorRejectsStrings(t *testing.T) {
	feats := []*ndarray.Array{ndarray.Must(ndarray.Zeros(ndarray.Float64, 4, 2))}
	labels := []*ndarray.Array{ndarray.Must(ndarray.FromStrings([]string{"a", "b", "c", "d"}, 4))}
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("panic: %v", r)
			}
		}()
		it, err := train.NewArrayIterator(feats, labels, 2, nil)
		if err == nil {
			it.Next()
			t.Error("NewArrayIterator accepted string labels")
		} else if !strings.Contains(err.Error(), "utf8") {
			t.Errorf("the error does not name the dtype: %v", err)
		}
	}()
}
