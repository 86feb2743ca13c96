package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// LossReduce is how a loss op reduces its per-element losses (SameDiff's
// LossReduce, the loss ops' int arg 0).
type LossReduce int64

const (
	LossNone                     LossReduce = 0 // per-element losses, weighted
	LossSum                      LossReduce = 1 // sum of weighted losses
	LossMeanByWeight             LossReduce = 2 // sum of weighted losses / sum of weights
	LossMeanByNonzeroWeightCount LossReduce = 3 // sum of weighted losses / number of non-zero weights (SameDiff's default)
)

// lossReduce weights the per-element losses l and reduces them.
func lossReduce(l, w *ndarray.Array, mode LossReduce) (*ndarray.Array, error) {
	wl, err := ndarray.Binary(ndarray.Mul, l, w)
	if err != nil {
		return nil, fmt.Errorf("weights of shape %v do not fit losses of shape %v: %w", w.Shape(), l.Shape(), err)
	}
	if mode == LossNone {
		return wl, nil
	}
	sum, err := ndarray.Reduce(ndarray.Sum, wl, nil, false)
	if err != nil || mode == LossSum {
		return sum, err
	}
	wb, err := ndarray.BroadcastTo(w, wl.Shape()...)
	if err != nil {
		return nil, err
	}
	var denom float64
	switch mode {
	case LossMeanByWeight:
		s, err := ndarray.Reduce(ndarray.Sum, wb, nil, false)
		if err != nil {
			return nil, err
		}
		denom = s.Float()
	case LossMeanByNonzeroWeightCount:
		for _, v := range wb.Float64s() {
			if v != 0 {
				denom++
			}
		}
	default:
		return nil, fmt.Errorf("unknown loss reduction %d (want 0..3)", mode)
	}
	if denom == 0 {
		return ndarray.Full(l.DType(), 0)
	}
	return ndarray.Unary(ndarray.ScaleBy, sum, 1/denom)
}

func lossInfer(name string, perElem func(pred Info) []int) func(in []Info, a *Args) ([]Info, error) {
	return func(in []Info, a *Args) ([]Info, error) {
		p, w, l := in[0], in[1], in[2]
		if err := needFloat(name, p); err != nil {
			return nil, err
		}
		if w.DType != p.DType || l.DType != p.DType {
			return nil, fmt.Errorf("%s: predictions %v, weights %v and labels %v must have one dtype", name, p.DType, w.DType, l.DType)
		}
		if _, err := BroadcastInfo(p, l); err != nil {
			return nil, fmt.Errorf("%s: predictions %v and labels %v: %w", name, p.Shape, l.Shape, err)
		}
		mode := LossReduce(a.Int(0, int64(LossMeanByNonzeroWeightCount)))
		if mode < 0 || mode > 3 {
			return nil, fmt.Errorf("%s: unknown loss reduction %d (want 0..3)", name, mode)
		}
		if mode != LossNone {
			return infos(Info{DType: p.DType, Shape: []int{}}), nil
		}
		if p.UnknownRank {
			return infos(Info{DType: p.DType, UnknownRank: true}), nil
		}
		return infos(Info{DType: p.DType, Shape: perElem(p)}), nil
	}
}

var MSELossOp = Register(&Def{
	Name: "mean_sqerr_loss", Type: Custom, MinIn: 3, MaxIn: 3, NonDiff: []int{1},
	Doc:   "weighted (predictions - labels)²; inputs predictions, weights, labels; int arg 0 the LossReduce (default 3)",
	Infer: lossInfer("mean_sqerr_loss", func(p Info) []int { return p.Shape }),
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		d, err := ndarray.Binary(ndarray.SquaredDiff, in[0], in[2])
		if err != nil {
			return nil, err
		}
		return one(lossReduce(d, in[1], LossReduce(a.Int(0, int64(LossMeanByNonzeroWeightCount)))))
	},
})

// smoothLabels returns labels*(1-s) + s/numClasses along the last axis.
func smoothLabels(l *ndarray.Array, s float64) (*ndarray.Array, error) {
	if s == 0 {
		return l, nil
	}
	k := float64(l.Shape()[l.Rank()-1])
	x, err := ndarray.Unary(ndarray.ScaleBy, l, 1-s)
	if err != nil {
		return nil, err
	}
	return ndarray.Unary(ndarray.AddScalar, x, s/k)
}

var SoftmaxCrossEntropyLossOp = Register(&Def{
	Name: "softmax_cross_entropy_loss", Type: Custom, MinIn: 3, MaxIn: 3, NonDiff: []int{1},
	Doc: "weighted -Σ labels·log softmax(logits) over the last axis; inputs logits, weights, labels; " +
		"int arg 0 the LossReduce (default 3); float arg 0 label smoothing",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		if !in[0].UnknownRank && len(in[0].Shape) == 0 {
			return nil, fmt.Errorf("softmax_cross_entropy_loss of scalar logits")
		}
		return lossInfer("softmax_cross_entropy_loss", func(p Info) []int { return p.Shape[:len(p.Shape)-1] })(in, a)
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		logits, w, labels := in[0], in[1], in[2]
		if !ndarray.SameShape(logits.Shape(), labels.Shape()) {
			return nil, fmt.Errorf("logits of shape %v and labels of shape %v differ", logits.Shape(), labels.Shape())
		}
		lab, err := smoothLabels(labels, a.Float(0, 0))
		if err != nil {
			return nil, err
		}
		ls, err := ndarray.LogSoftmax(logits, -1)
		if err != nil {
			return nil, err
		}
		p, err := ndarray.Binary(ndarray.Mul, ls, lab)
		if err != nil {
			return nil, err
		}
		s, err := ndarray.Reduce(ndarray.Sum, p, []int{-1}, false)
		if err != nil {
			return nil, err
		}
		if err := ndarray.UnaryInto(ndarray.Neg, s, s, 0); err != nil {
			return nil, err
		}
		return one(lossReduce(s, w, LossReduce(a.Int(0, int64(LossMeanByNonzeroWeightCount)))))
	},
})
