package metrics

import (
	"fmt"
	"math"
	"slices"

	"github.com/sdgo/sdgo/ndarray"
)

// ROC accumulates a binary classifier's scores for the area under its ROC
// curve (DL4J's ROC, exact: every distinct score is a threshold).
// Predictions are [n, 1] (the probability of class 1) or [n, 2] (class 1's
// is column 1); labels of the predictions' shape, or class indices [n].
type ROC struct {
	scores   []float64
	positive []bool
}

// NewROC returns an empty binary ROC.
func NewROC() *ROC { return &ROC{} }

// Eval adds a batch.
func (r *ROC) Eval(labels, predictions *ndarray.Array) error {
	truth, pred, n, c, err := classData("ROC", labels, predictions)
	if err != nil {
		return err
	}
	if c > 2 {
		return fmt.Errorf("metrics: ROC is binary: predictions of shape %v have %d classes (ROCMultiClass evaluates one against all)", predictions.Shape(), c)
	}
	for i := 0; i < n; i++ {
		r.scores = append(r.scores, pred[i*c+c-1])
		r.positive = append(r.positive, truth[i] == 1)
	}
	return nil
}

// AUC returns the area under the ROC curve: the probability that a
// positive example scores above a negative one, ties counting a half. It
// is NaN when there has been no positive or no negative example.
func (r *ROC) AUC() float64 { return auc(r.scores, r.positive) }

// auc computes the area from the ranks of the scores (Mann-Whitney), ties
// taking their average rank: the trapezoids under the exact ROC curve.
func auc(scores []float64, positive []bool) float64 {
	idx := make([]int, len(scores))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		switch {
		case scores[a] < scores[b]:
			return -1
		case scores[a] > scores[b]:
			return 1
		}
		return 0
	})
	var rankSum float64
	var pos, neg int
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && scores[idx[j]] == scores[idx[i]] {
			j++
		}
		rank := float64(i+1+j) / 2 // ranks i+1 .. j, averaged
		for _, k := range idx[i:j] {
			if positive[k] {
				rankSum += rank
				pos++
			} else {
				neg++
			}
		}
		i = j
	}
	if pos == 0 || neg == 0 {
		return math.NaN()
	}
	p, q := float64(pos), float64(neg)
	return (rankSum - p*(p+1)/2) / (p * q)
}

// ROCMultiClass accumulates a classifier's scores for one ROC curve per
// class, that class against all others (DL4J's ROCMultiClass).
type ROCMultiClass struct {
	classes int
	truth   []int
	scores  [][]float64 // per class
}

// NewROCMultiClass returns an empty one-vs-all ROC.
func NewROCMultiClass() *ROCMultiClass { return &ROCMultiClass{} }

// Eval adds a batch of predictions [n, C] (C at least 2).
func (r *ROCMultiClass) Eval(labels, predictions *ndarray.Array) error {
	truth, pred, n, c, err := classData("ROCMultiClass", labels, predictions)
	if err != nil {
		return err
	}
	if c < 2 {
		return fmt.Errorf("metrics: ROCMultiClass: predictions of shape %v have one column; a binary ROC is ROC", predictions.Shape())
	}
	if r.classes == 0 {
		r.classes = c
		r.scores = make([][]float64, c)
	} else if r.classes != c {
		return fmt.Errorf("metrics: ROCMultiClass of %d classes: predictions of shape %v", r.classes, predictions.Shape())
	}
	r.truth = append(r.truth, truth...)
	for i := 0; i < n; i++ {
		for k := 0; k < c; k++ {
			r.scores[k] = append(r.scores[k], pred[i*c+k])
		}
	}
	return nil
}

// NumClasses returns the number of classes (0 before the first batch).
func (r *ROCMultiClass) NumClasses() int { return r.classes }

// AUC returns class c's area under its one-vs-all ROC curve (NaN when the
// class never occurred, or nothing else did).
func (r *ROCMultiClass) AUC(c int) float64 {
	if c < 0 || c >= r.classes {
		return math.NaN()
	}
	pos := make([]bool, len(r.truth))
	for i, t := range r.truth {
		pos[i] = t == c
	}
	return auc(r.scores[c], pos)
}

// AverageAUC returns the classes' AUCs averaged, each class weighing the
// same.
func (r *ROCMultiClass) AverageAUC() float64 {
	s := 0.0
	for c := 0; c < r.classes; c++ {
		s += r.AUC(c)
	}
	return s / float64(r.classes)
}
