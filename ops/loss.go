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

// lossMode reads a loss op's reduction, int arg 0.
func lossMode(a *Args) LossReduce { return LossReduce(a.Int(0, int64(LossMeanByNonzeroWeightCount))) }

// lossReduce weights the per-element losses l and reduces them, into an
// array from c's pool. l must be the op's own (computed by it, from c's
// pool): the weighted losses are written over it, and it goes back to c
// when it is not the output.
func lossReduce(c *Ctx, l, w *ndarray.Array, mode LossReduce) (*ndarray.Array, error) {
	// The weights broadcast to the losses, not the other way round: a
	// multiply broadcasting both ways would turn losses [n 1] and weights
	// [n] into an [n n] grid, and reduce that.
	if !ndarray.CanBroadcastTo(w.Shape(), l.Shape()) {
		return nil, fmt.Errorf("weights of shape %v do not broadcast to the losses' shape %v", w.Shape(), l.Shape())
	}
	if err := ndarray.BinaryInto(ndarray.Mul, l, l, w); err != nil || mode == LossNone {
		return l, err
	}
	defer c.Release(l)
	sum := c.Alloc(l.DType(), nil)
	if err := ndarray.ReduceInto(ndarray.Sum, sum, l, nil); err != nil || mode == LossSum {
		return sum, err
	}
	denom, err := lossDenom(w, l, mode)
	if err != nil {
		return nil, err
	}
	if denom == 0 {
		return ndarray.Full(l.DType(), 0)
	}
	// Divided, not scaled by 1/denom, which rounds twice (libnd4j
	// divides too).
	d, err := ndarray.ScalarOf(sum.DType(), denom)
	if err != nil {
		return nil, err
	}
	return sum, ndarray.BinaryInto(ndarray.Div, sum, sum, d)
}

// lossDenom returns what the mean reductions divide by, for weights w
// broadcast to the shape of the losses l (only its shape counts): the sum
// of the broadcast weights, or the number of non-zero ones.
func lossDenom(w, l *ndarray.Array, mode LossReduce) (float64, error) {
	switch mode {
	case LossMeanByWeight:
		wb, err := ndarray.BroadcastTo(w, l.Shape()...)
		if err != nil {
			return 0, err
		}
		s, err := ndarray.Reduce(ndarray.Sum, wb, nil, false)
		if err != nil {
			return 0, err
		}
		return s.Float(), nil
	case LossMeanByNonzeroWeightCount:
		// Broadcasting repeats each weight the same number of times:
		// count w's, not the (often scalar) weights spread over the
		// losses, which would be copied out.
		if w.Size() == 0 {
			return 0, nil
		}
		n := 0
		for _, v := range w.Float64s() {
			if v != 0 {
				n++
			}
		}
		return float64(n * (l.Size() / w.Size())), nil
	}
	return 0, fmt.Errorf("unknown loss reduction %d (want 0..3)", mode)
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
		if !broadcastsTo(l, p) {
			return nil, fmt.Errorf("%s: labels of shape %v do not broadcast to the predictions' shape %v", name, l.Shape, p.Shape)
		}
		mode := lossMode(a)
		if mode < 0 || mode > 3 {
			return nil, fmt.Errorf("%s: unknown loss reduction %d (want 0..3)", name, mode)
		}
		per := Info{DType: p.DType, UnknownRank: true}
		if !p.UnknownRank {
			per = Info{DType: p.DType, Shape: perElem(p)}
		}
		if !broadcastsTo(w, per) {
			return nil, fmt.Errorf("%s: weights of shape %v do not broadcast to the losses' shape %v", name, w.Shape, per.Shape)
		}
		if mode != LossNone {
			return infos(Info{DType: p.DType, Shape: []int{}}), nil
		}
		return infos(per), nil
	}
}

// broadcastsTo reports whether a value of a's shape may broadcast to b's
// (one way, as ndarray.CanBroadcastTo), counting unknown sizes and ranks as
// fitting: the run checks those.
func broadcastsTo(a, b Info) bool {
	if a.UnknownRank || b.UnknownRank {
		return true
	}
	if len(a.Shape) > len(b.Shape) {
		return false
	}
	d := len(b.Shape) - len(a.Shape)
	for i, s := range a.Shape {
		if s != 1 && s >= 0 && b.Shape[i+d] >= 0 && s != b.Shape[i+d] {
			return false
		}
	}
	return true
}

var mseLossOp = Register(&Def{
	Name: "mean_sqerr_loss", Type: Custom, MinIn: 3, MaxIn: 3,
	Doc:   "weighted (predictions - labels)²; inputs predictions, weights, labels; int arg 0 the LossReduce (default 3)",
	Infer: lossInfer("mean_sqerr_loss", func(p Info) []int { return p.Shape }),
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		if err := labelsFit(in[0], in[2]); err != nil {
			return nil, err
		}
		d, err := binFor(c, ndarray.SquaredDiff, in[0], in[2])
		if err != nil {
			return nil, err
		}
		return one(lossReduce(c, d, in[1], lossMode(a)))
	},
	Grad: lossGrad("mean_sqerr_loss_grad"),
})

// labelsFit refuses labels lab that broadcast beyond predictions p: the
// gradients are of p's shape.
func labelsFit(p, lab *ndarray.Array) error {
	if !ndarray.CanBroadcastTo(lab.Shape(), p.Shape()) {
		return fmt.Errorf("labels of shape %v do not broadcast to the predictions' shape %v", lab.Shape(), p.Shape())
	}
	return nil
}

// smoothLabels returns labels*(1-s) + s/numClasses along the last axis,
// in an array from c when s is not 0.
func smoothLabels(c *Ctx, l *ndarray.Array, s float64) (*ndarray.Array, error) {
	if s == 0 {
		return l, nil
	}
	k := float64(l.Shape()[l.Rank()-1])
	x, err := unaryFor(c, ndarray.ScaleBy, l, 1-s)
	if err != nil {
		return nil, err
	}
	return x, ndarray.UnaryInto(ndarray.AddScalar, x, x, s/k)
}

var softmaxCrossEntropyLossOp = Register(&Def{
	Name: "softmax_cross_entropy_loss", Type: Custom, MinIn: 3, MaxIn: 3,
	Doc: "weighted -Σ labels·log softmax(logits) over the last axis; inputs logits, weights, labels; " +
		"int arg 0 the LossReduce (default 3); float arg 0 label smoothing",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		if !in[0].UnknownRank && len(in[0].Shape) == 0 {
			return nil, fmt.Errorf("softmax_cross_entropy_loss of scalar logits")
		}
		// The run takes labels of the logits' shape, not labels that only
		// broadcast to it (as lossInfer allows).
		if z, l := in[0], in[2]; !l.UnknownRank && !z.Admits(l.Shape) {
			return nil, fmt.Errorf("softmax_cross_entropy_loss: labels of shape %v for logits of shape %v (they must have the same shape)", l.Shape, z.Shape)
		}
		return lossInfer("softmax_cross_entropy_loss", func(p Info) []int { return p.Shape[:len(p.Shape)-1] })(in, a)
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		l, _, labS, err := softmaxCE(c, "softmax_cross_entropy_loss", in[0], in[2], a.Float(0, 0), false)
		if err != nil {
			return nil, err
		}
		c.Release(labS) // when smoothed (the labels themselves are not c's)
		return one(lossReduce(c, l, in[1], lossMode(a)))
	},
	Grad: lossGrad("softmax_cross_entropy_loss_grad"),
})

// softmaxCE returns the per-example losses l = -Σ labS·ls over the last
// axis, with labS the labels after smoothing s and ls = log softmax(z); the
// gradient uses labS and, when keepLS says so, ls again (otherwise the
// products labS·ls are written over it, and ls is nil). All are from c's
// pool (labS when smoothed), for the caller to release; the temporaries
// the caller does not see go back to c.
func softmaxCE(c *Ctx, op string, z, lab *ndarray.Array, s float64, keepLS bool) (l, ls, labS *ndarray.Array, err error) {
	if !ndarray.SameShape(z.Shape(), lab.Shape()) {
		return nil, nil, nil, fmt.Errorf("%s: logits of shape %v and labels of shape %v differ", op, z.Shape(), lab.Shape())
	}
	// The classes are the last axis: shape inference may not have seen the
	// rank.
	if z.Rank() == 0 {
		return nil, nil, nil, fmt.Errorf("%s of scalar logits (the classes are the last axis)", op)
	}
	if labS, err = smoothLabels(c, lab, s); err != nil {
		return nil, nil, nil, err
	}
	if !softmaxable(z) {
		_, err = ndarray.LogSoftmax(z, -1) // its error, before Alloc's panic on strings
		return nil, nil, nil, err
	}
	ls = c.Alloc(z.DType(), z.Shape())
	if err = ndarray.LogSoftmaxInto(ls, z, -1); err != nil {
		return nil, nil, nil, err
	}
	p := ls
	if keepLS {
		p, err = binFor(c, ndarray.Mul, ls, labS)
	} else {
		err = ndarray.BinaryInto(ndarray.Mul, p, ls, labS)
		ls = nil
	}
	if err != nil {
		return nil, nil, nil, err
	}
	defer c.Release(p)
	if l, err = reduceFor(c, ndarray.Sum, p, []int{-1}, false); err != nil {
		return nil, nil, nil, err
	}
	return l, ls, labS, ndarray.UnaryInto(ndarray.Neg, l, l, 0)
}

// Loss gradients. The fused ops take libnd4j's loss inputs (predictions,
// weights, labels) plus, as sdgo's extension, the gradient of the loss
// output (without it, 1), and return the gradients of all three inputs.

// lossGrad is a loss's gradient rule: its fused op name on the loss's
// inputs and the output gradient.
func lossGrad(name string) GradFunc {
	return func(b GradBuilder, n GradNode, d []Value) []Value {
		return b.Op(name, n.Args.Clone(), n.In[0], n.In[1], n.In[2], d[0])
	}
}

// lossCoef returns, for per-element losses l, weights w and the output
// gradient dO, the coefficient dL/dl (l's shape) and, when c needs output
// 1, dL/dw (w's shape) in an array from c's pool (nil otherwise). l must be
// the op's own: the coefficient is written over it (unless the loss is 0
// whatever the inputs: then it is a new array of zeros, and l is left).
func lossCoef(c *Ctx, l, w, dO *ndarray.Array, mode LossReduce) (coef, dw *ndarray.Array, err error) {
	if w.DType() != l.DType() || dO.DType() != l.DType() {
		return nil, nil, fmt.Errorf("weights %v and loss gradient %v for losses %v: they must have one dtype", w.DType(), dO.DType(), l.DType())
	}
	if !ndarray.CanBroadcastTo(w.Shape(), l.Shape()) {
		return nil, nil, fmt.Errorf("weights of shape %v do not fit losses of shape %v", w.Shape(), l.Shape())
	}
	if !ndarray.CanBroadcastTo(dO.Shape(), l.Shape()) {
		return nil, nil, fmt.Errorf("the loss gradient of shape %v does not broadcast to the losses' shape %v", dO.Shape(), l.Shape())
	}
	needW := c.Needed(1)
	// dL/dl is wb·scale, wb being w broadcast to l's shape; dL/dw is
	// l·scale (minus a term for LossMeanByWeight) summed to w's shape.
	scale := dO
	var dwb *ndarray.Array
	switch mode {
	case LossNone, LossSum:
		if needW {
			dwb, err = binFor(c, ndarray.Mul, l, dO)
		}
	case LossMeanByWeight, LossMeanByNonzeroWeightCount:
		var denom float64
		if denom, err = lossDenom(w, l, mode); err != nil {
			return nil, nil, err
		}
		if denom == 0 {
			// The loss is 0 whatever the inputs.
			z, _ := ndarray.Zeros(l.DType(), l.Shape()...)
			zw, _ := ndarray.Zeros(w.DType(), w.Shape()...)
			return z, zw, nil
		}
		if scale, err = unaryFor(c, ndarray.ScaleBy, dO, 1/denom); err != nil {
			return nil, nil, fmt.Errorf("the loss gradient %v%v: %w", dO.DType(), dO.Shape(), err)
		}
		defer c.Release(scale)
		if !needW {
			break
		}
		if dwb, err = binFor(c, ndarray.Mul, l, scale); err != nil {
			return nil, nil, err
		}
		if mode == LossMeanByWeight {
			// L = S/W with W = Σwb: dL/dwb = l/W - S/W².
			wl, err := binFor(c, ndarray.Mul, w, l)
			if err != nil {
				return nil, nil, err
			}
			defer c.Release(wl)
			s, err := ndarray.Reduce(ndarray.Sum, wl, nil, false)
			if err != nil {
				return nil, nil, err
			}
			sc, err := unaryFor(c, ndarray.ScaleBy, scale, s.Float()/denom)
			if err != nil {
				return nil, nil, err
			}
			defer c.Release(sc)
			if err = ndarray.BinaryInto(ndarray.Sub, dwb, dwb, sc); err != nil {
				return nil, nil, err
			}
		}
	default:
		return nil, nil, fmt.Errorf("unknown loss reduction %d (want 0..3)", mode)
	}
	if err != nil {
		return nil, nil, err
	}
	// wb·scale over l, read no more: the broadcast copy BroadcastTo
	// would allocate, then the product in place (the checks above leave
	// it l's shape).
	if err := ndarray.CopyInto(l, w); err != nil {
		return nil, nil, err
	}
	if err := ndarray.BinaryInto(ndarray.Mul, l, l, scale); err != nil {
		return nil, nil, err
	}
	if needW {
		dw, err = sumGrad(c, dwb, w.Shape())
	}
	return l, dw, err
}

// lossGradInfer is the inference of a loss's gradient op: the loss's
// inputs must be what the forward op accepts (fwd, its inference), and the
// loss gradient (the optional input 3) must have their dtype and broadcast
// to the loss's output, as the run multiplies them.
func lossGradInfer(name string, fwd func(in []Info, a *Args) ([]Info, error)) func(in []Info, a *Args) ([]Info, error) {
	return func(in []Info, a *Args) ([]Info, error) {
		out, err := fwd(in[:3], a)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if len(in) > 3 {
			g := in[3]
			if g.DType != in[0].DType {
				return nil, fmt.Errorf("%s: the loss gradient is %v, the predictions %v", name, g.DType, in[0].DType)
			}
			if !broadcastsTo(g, out[0]) {
				return nil, fmt.Errorf("%s: the loss gradient of shape %v does not broadcast to the loss's shape %v", name, g.Shape, out[0].Shape)
			}
		}
		return sameInfos(in, 3), nil
	}
}

// gradOf returns the optional fourth input, or a scalar 1. It must have
// the predictions' dtype, as inference checks.
func gradOf(op string, in []*ndarray.Array) (*ndarray.Array, error) {
	if len(in) > 3 {
		if in[3].DType() != in[0].DType() {
			return nil, fmt.Errorf("%s: the loss gradient is %v, the predictions %v", op, in[3].DType(), in[0].DType())
		}
		return in[3], nil
	}
	return ndarray.ScalarOf(in[0].DType(), 1)
}

var mseLossGradOp = Register(&Def{
	Name: "mean_sqerr_loss_grad", Type: Custom, MinIn: 3, MaxIn: 4,
	Doc:   "gradients of mean_sqerr_loss for inputs predictions, weights, labels and optionally gradO",
	Infer: lossGradInfer("mean_sqerr_loss_grad", mseLossOp.Infer),
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		p, w, lab := in[0], in[1], in[2]
		if err := labelsFit(p, lab); err != nil {
			return nil, err
		}
		// dL/dp is written over diff, of p's shape (labelsFit); the
		// squared differences e, temporaries, become the coefficient.
		diff, err := binFor(c, ndarray.Sub, p, lab)
		if err != nil {
			return nil, err
		}
		e, err := binFor(c, ndarray.Mul, diff, diff)
		if err != nil {
			return nil, err
		}
		defer c.Release(e)
		dO, err := gradOf("mean_sqerr_loss_grad", in)
		if err != nil {
			return nil, err
		}
		coef, dw, err := lossCoef(c, e, w, dO, lossMode(a))
		if err != nil {
			return nil, err
		}
		needP, needL := c.Needed(0), c.Needed(2)
		if !needP && !needL {
			c.Release(diff)
			return []*ndarray.Array{nil, dw, nil}, nil
		}
		dp, err := binOver(c, ndarray.Mul, diff, coef, diff)
		if err != nil {
			return nil, err
		}
		if err := ndarray.UnaryInto(ndarray.ScaleBy, dp, dp, 2); err != nil {
			return nil, err
		}
		var dl *ndarray.Array
		if needL {
			// -dp, over dp when dL/dp is not needed.
			dl = dp
			if needP {
				dl = c.Alloc(dp.DType(), dp.Shape())
			}
			if err := ndarray.UnaryInto(ndarray.Neg, dl, dp, 0); err != nil {
				return nil, err
			}
			if dl, err = sumGrad(c, dl, lab.Shape()); err != nil {
				return nil, err
			}
		}
		if !needP {
			dp = nil
		} else if dp, err = sumToShape(c, dp, p.Shape()); err != nil {
			return nil, err
		}
		return []*ndarray.Array{dp, dw, dl}, nil
	},
})

var softmaxCrossEntropyLossGradOp = Register(&Def{
	Name: "softmax_cross_entropy_loss_grad", Type: Custom, MinIn: 3, MaxIn: 4,
	Doc:   "gradients of softmax_cross_entropy_loss for inputs logits, weights, labels and optionally gradO",
	Infer: lossGradInfer("softmax_cross_entropy_loss_grad", softmaxCrossEntropyLossOp.Infer),
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		z, w := in[0], in[1]
		s := a.Float(0, 0)
		needZ, needLab := c.Needed(0), c.Needed(2)
		l, ls, labS, err := softmaxCE(c, "softmax_cross_entropy_loss_grad", z, in[2], s, needLab)
		if err != nil {
			return nil, err
		}
		// The losses (the coefficient over them), the log softmax and the
		// smoothed labels are temporaries.
		defer c.Release(l)
		defer c.Release(ls)
		defer c.Release(labS)
		dO, err := gradOf("softmax_cross_entropy_loss_grad", in)
		if err != nil {
			return nil, err
		}
		coef, dw, err := lossCoef(c, l, w, dO, lossMode(a))
		if err != nil {
			return nil, err
		}
		ck, err := ndarray.ExpandDims(coef, -1)
		if err != nil {
			return nil, err
		}
		var dz, dlab *ndarray.Array
		if needZ {
			// z is float: softmaxCE took its log softmax.
			if dz, err = softmaxCEGrad(c, z, labS, ck, -1); err != nil {
				return nil, err
			}
		}
		if needLab {
			// dl/dlabels = -(1-s)·ls.
			if dlab, err = binFor(c, ndarray.Mul, ls, ck); err != nil {
				return nil, err
			}
			if err := ndarray.UnaryInto(ndarray.ScaleBy, dlab, dlab, -(1 - s)); err != nil {
				return nil, err
			}
		}
		return []*ndarray.Array{dz, dw, dlab}, nil
	},
})

// softmaxCEGrad returns the gradient of softmax cross-entropy with respect
// to the logits z along axis, (softmax(z)·Σ labels - labels)·g, in a pooled
// buffer; g broadcasts over z (kept axis).
func softmaxCEGrad(c *Ctx, z, labels, g *ndarray.Array, axis int) (*ndarray.Array, error) {
	dz := c.Alloc(z.DType(), z.Shape())
	if err := ndarray.SoftmaxInto(dz, z, axis); err != nil {
		return nil, err
	}
	sumLab, err := reduceFor(c, ndarray.Sum, labels, []int{axis}, true)
	if err != nil {
		return nil, err
	}
	defer c.Release(sumLab)
	for _, step := range []struct {
		op ndarray.BinaryOp
		y  *ndarray.Array
	}{{ndarray.Mul, sumLab}, {ndarray.Sub, labels}, {ndarray.Mul, g}} {
		if err := ndarray.BinaryInto(step.op, dz, dz, step.y); err != nil {
			return nil, err
		}
	}
	return dz, nil
}
