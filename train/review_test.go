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
