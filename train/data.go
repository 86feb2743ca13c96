package train

import (
	"fmt"
	"math/rand/v2"

	"github.com/sdgo/sdgo/ndarray"
)

// Batch is one step's data: features and labels, in the order of the
// configuration's Features and Labels placeholders.
type Batch struct {
	Features, Labels []*ndarray.Array
}

// Iterator yields the batches of one epoch.
type Iterator interface {
	// Next returns the next batch, or false at the end of the epoch.
	Next() (*Batch, bool)
	// Reset starts a new epoch.
	Reset()
}

// Rewinder is implemented by iterators that can serve their batches again
// from the start without starting a new epoch (without drawing a new
// shuffle). Evaluate rewinds such an iterator rather than resetting it, so
// that evaluating on the training data leaves the order of the training
// epochs that follow as it would have been.
type Rewinder interface {
	Rewind()
}

// Sized is implemented by iterators that know how many batches an epoch
// has; the progress listener uses it.
type Sized interface {
	Batches() int
}

// ArrayIterator serves batches of rows of whole feature and label arrays,
// reshuffled every epoch when it has a random source. Each batch's arrays
// are reused by the next batch of the same size: use them before asking for
// the next one.
type ArrayIterator struct {
	features, labels []*ndarray.Array
	n, size          int
	rng              *rand.Rand
	order            []int
	pos              int
	bufs             map[int]*Batch
}

// NewArrayIterator returns an iterator over the rows (first axis) of the
// feature and label arrays, which must all have the same number of rows, in
// batches of batchSize (the last may be smaller). With rng non-nil the rows
// are shuffled at each Reset.
func NewArrayIterator(features, labels []*ndarray.Array, batchSize int, rng *rand.Rand) (*ArrayIterator, error) {
	if len(features) == 0 {
		return nil, fmt.Errorf("train: no feature arrays")
	}
	if batchSize <= 0 {
		return nil, fmt.Errorf("train: batch size %d must be positive", batchSize)
	}
	n, first := -1, ""
	for i, a := range append(append([]*ndarray.Array(nil), features...), labels...) {
		what := fmt.Sprintf("feature array %d", i)
		if i >= len(features) {
			what = fmt.Sprintf("label array %d", i-len(features))
		}
		if a == nil {
			return nil, fmt.Errorf("train: %s is nil", what)
		}
		if a.Rank() == 0 {
			return nil, fmt.Errorf("train: %s is a scalar; rows are along the first axis", what)
		}
		if !a.DType().Computable() {
			// gatherRows copies rows of the dtypes sdgo computes with.
			return nil, fmt.Errorf("train: %s is %v; batches hold numbers or bools", what, a.DType())
		}
		if n >= 0 && a.Shape()[0] != n {
			return nil, fmt.Errorf("train: %s has %d rows (shape %v), %s %d: every array needs one row per example",
				what, a.Shape()[0], a.Shape(), first, n)
		}
		if n < 0 {
			n, first = a.Shape()[0], what
		}
	}
	// Rows are copied out of packed arrays: pack the data once here, not
	// for every batch.
	packAll := func(arrays []*ndarray.Array) ([]*ndarray.Array, error) {
		out := make([]*ndarray.Array, len(arrays))
		for i, a := range arrays {
			var err error
			if out[i], err = ndarray.Contiguous(a); err != nil {
				return nil, fmt.Errorf("train: %w", err)
			}
		}
		return out, nil
	}
	fs, err := packAll(features)
	if err != nil {
		return nil, err
	}
	ls, err := packAll(labels)
	if err != nil {
		return nil, err
	}
	it := &ArrayIterator{features: fs, labels: ls, n: n, size: batchSize, rng: rng, bufs: map[int]*Batch{}}
	it.order = make([]int, n)
	for i := range it.order {
		it.order[i] = i
	}
	it.Reset()
	return it, nil
}

// Batches returns the number of batches per epoch.
func (it *ArrayIterator) Batches() int { return (it.n + it.size - 1) / it.size }

// Reset starts a new epoch, reshuffling when the iterator has a random source.
func (it *ArrayIterator) Reset() {
	it.pos = 0
	if it.rng != nil {
		it.rng.Shuffle(len(it.order), func(i, j int) { it.order[i], it.order[j] = it.order[j], it.order[i] })
	}
}

// Rewind serves the rows again from the start, in the current epoch's
// order: it does not draw from the random source.
func (it *ArrayIterator) Rewind() { it.pos = 0 }

// Next returns the next batch.
func (it *ArrayIterator) Next() (*Batch, bool) {
	if it.pos >= it.n {
		return nil, false
	}
	m := min(it.size, it.n-it.pos)
	b := it.bufs[m]
	if b == nil {
		b = &Batch{}
		for _, a := range it.features {
			b.Features = append(b.Features, rowsLike(a, m))
		}
		for _, a := range it.labels {
			b.Labels = append(b.Labels, rowsLike(a, m))
		}
		it.bufs[m] = b
	}
	rows := it.order[it.pos : it.pos+m]
	for i, a := range it.features {
		gatherRows(b.Features[i], a, rows)
	}
	for i, a := range it.labels {
		gatherRows(b.Labels[i], a, rows)
	}
	it.pos += m
	return b, true
}

func rowsLike(a *ndarray.Array, m int) *ndarray.Array {
	shape := append([]int{m}, a.Shape()[1:]...)
	return ndarray.Must(ndarray.Zeros(a.DType(), shape...))
}

// gatherRows copies the given rows of src, a packed array, into dst.
func gatherRows(dst, src *ndarray.Array, rows []int) {
	per := 1
	for _, d := range src.Shape()[1:] {
		per *= d
	}
	switch src.DType() {
	case ndarray.Float32:
		copyRows(ndarray.Raw[float32](dst), ndarray.Raw[float32](src)[src.Offset():], rows, per)
	case ndarray.Float64:
		copyRows(ndarray.Raw[float64](dst), ndarray.Raw[float64](src)[src.Offset():], rows, per)
	case ndarray.Int32:
		copyRows(ndarray.Raw[int32](dst), ndarray.Raw[int32](src)[src.Offset():], rows, per)
	case ndarray.Int64:
		copyRows(ndarray.Raw[int64](dst), ndarray.Raw[int64](src)[src.Offset():], rows, per)
	case ndarray.Bool:
		copyRows(ndarray.Raw[bool](dst), ndarray.Raw[bool](src)[src.Offset():], rows, per)
	}
}

func copyRows[T ndarray.Elem](dst, src []T, rows []int, per int) {
	for i, r := range rows {
		copy(dst[i*per:(i+1)*per], src[r*per:(r+1)*per])
	}
}
