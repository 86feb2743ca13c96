package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// SameDiff's losses that reduce along axes before weighting:
// cosine_distance_loss (one loss per vector along a dimension) and
// mean_pairwssqerr_loss (one loss per example along axis 0). Inputs are
// predictions, weights, labels of the predictions' shape; int arg 0 is the
// LossReduce (default 3), and the weights broadcast to the per-vector or
// per-example losses, which lossReduce and lossCoef weight and reduce as
// for the other losses.

// sameShapeLoss checks what the two losses' inferences share: predictions
// and labels of one shape, and returns lossInfer's result for the
// per-vector loss shape per.
func sameShapeLoss(op string, in []Info, a *Args, per func(p Info) []int) ([]Info, error) {
	p, l := in[0], in[2]
	if !l.UnknownRank && !p.UnknownRank && (len(l.Shape) != len(p.Shape) || !p.Admits(l.Shape)) {
		return nil, fmt.Errorf("%s: labels of shape %v for predictions of shape %v (they must have the same shape)", op, l.Shape, p.Shape)
	}
	return lossInfer(op, per)(in, a)
}

// cosineDim reads cosine_distance_loss's int arg 1 (required), normalised
// for rank r.
func cosineDim(op string, a *Args, r int) (int, error) {
	if len(a.I) < 2 {
		return 0, fmt.Errorf("%s: int arg 1 (the dimension) is missing", op)
	}
	d := int(a.I[1])
	if d < -r || d >= r {
		return 0, fmt.Errorf("%s: dimension %d for predictions of rank %d", op, d, r)
	}
	if d < 0 {
		d += r
	}
	return d, nil
}

func cosineInfer(op string) func(in []Info, a *Args) ([]Info, error) {
	return func(in []Info, a *Args) ([]Info, error) {
		if in[0].UnknownRank {
			if len(a.I) < 2 {
				return nil, fmt.Errorf("%s: int arg 1 (the dimension) is missing", op)
			}
			return sameShapeLoss(op, in, a, nil)
		}
		if len(in[0].Shape) == 0 {
			return nil, fmt.Errorf("%s of scalar predictions", op)
		}
		d, err := cosineDim(op, a, len(in[0].Shape))
		if err != nil {
			return nil, err
		}
		return sameShapeLoss(op, in, a, func(p Info) []int {
			s := append([]int{}, p.Shape...)
			s[d] = 1
			return s
		})
	}
}

// cosineLosses checks the inputs and returns the dimension and the losses
// 1 - Σ p·y along it (the dimension kept), from c's pool.
func cosineLosses(c *Ctx, op string, p, y *ndarray.Array, a *Args) (int, *ndarray.Array, error) {
	if p.DType() != y.DType() || !ndarray.SameShape(p.Shape(), y.Shape()) || !p.DType().IsFloat() {
		return 0, nil, fmt.Errorf("%s: labels %v%v for predictions %v%v (want one float dtype and shape)", op, y.DType(), y.Shape(), p.DType(), p.Shape())
	}
	if p.Rank() == 0 {
		return 0, nil, fmt.Errorf("%s of scalar predictions", op)
	}
	d, err := cosineDim(op, a, p.Rank())
	if err != nil {
		return 0, nil, err
	}
	prod, err := binFor(c, ndarray.Mul, p, y)
	if err != nil {
		return 0, nil, err
	}
	defer c.Release(prod)
	l, err := reduceFor(c, ndarray.Sum, prod, []int{d}, true)
	if err != nil {
		return 0, nil, err
	}
	if err := ndarray.UnaryInto(ndarray.Neg, l, l, 0); err != nil {
		return 0, nil, err
	}
	return d, l, ndarray.UnaryInto(ndarray.AddScalar, l, l, 1)
}

var cosineDistanceLossOp = Register(&Def{
	Name: "cosine_distance_loss", Type: Custom, MinIn: 3, MaxIn: 3,
	Doc: "weighted 1 - Σ predictions·labels along a dimension (kept, of size 1); inputs predictions, weights, labels; " +
		"int arg 0 the LossReduce (default 3), int arg 1 the dimension (required)",
	Infer: cosineInfer("cosine_distance_loss"),
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		const op = "cosine_distance_loss"
		_, l, err := cosineLosses(c, op, in[0], in[2], a)
		if err != nil {
			return nil, err
		}
		r, err := lossReduce(c, l, in[1], lossMode(a))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		return []*ndarray.Array{r}, nil
	},
	Grad: lossGrad("cosine_distance_loss_grad"),
})

var cosineDistanceLossGradOp = Register(&Def{
	Name: "cosine_distance_loss_grad", Type: Custom, MinIn: 3, MaxIn: 4,
	Doc: "gradients of cosine_distance_loss for inputs predictions, weights, labels and optionally gradO; " +
		"int args as cosine_distance_loss",
	Infer: lossGradInfer("cosine_distance_loss_grad", cosineInfer("cosine_distance_loss_grad")),
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		const op = "cosine_distance_loss_grad"
		p, w, y := in[0], in[1], in[2]
		dO, err := gradOf(op, in)
		if err != nil {
			return nil, err
		}
		_, l, err := cosineLosses(c, op, p, y, a)
		if err != nil {
			return nil, err
		}
		coef, dw, err := lossCoef(c, l, w, dO, lossMode(a))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		defer c.Release(coef)
		// dl/dp = -y, dl/dy = -p, times the coefficient along the dimension.
		grad := func(i int, x *ndarray.Array) (*ndarray.Array, error) {
			if !c.Needed(i) {
				return nil, nil
			}
			g, err := binFor(c, ndarray.Mul, x, coef)
			if err != nil {
				return nil, err
			}
			return g, ndarray.UnaryInto(ndarray.Neg, g, g, 0)
		}
		dp, err := grad(0, y)
		if err != nil {
			return nil, err
		}
		dy, err := grad(2, p)
		if err != nil {
			return nil, err
		}
		return []*ndarray.Array{dp, dw, dy}, nil
	},
})

// pairwiseShape returns the per-example loss shape of predictions of shape
// s: [s[0], 1, ..., 1].
func pairwiseShape(s []int) []int {
	out := make([]int, len(s))
	for i := range out {
		out[i] = 1
	}
	out[0] = s[0]
	return out
}

func pairwiseInfer(op string) func(in []Info, a *Args) ([]Info, error) {
	return func(in []Info, a *Args) ([]Info, error) {
		p := in[0]
		if !p.UnknownRank && len(p.Shape) < 2 {
			return nil, fmt.Errorf("%s: predictions of shape %v (want rank 2 or more: examples along axis 0)", op, p.Shape)
		}
		out, err := sameShapeLoss(op, in, a, func(p Info) []int { return pairwiseShape(p.Shape) })
		if err != nil {
			return nil, err
		}
		// libnd4j's NONE output is one loss per example, [batch].
		if lossMode(a) == LossNone && !out[0].UnknownRank {
			out[0].Shape = out[0].Shape[:1]
		}
		return out, nil
	}
}

// pairwiseLosses checks the inputs and returns, from c's pool, the
// differences d = p - y, their sums per example s (shape [batch, 1, ...]),
// the per-example losses 4/(n(n-1))·(n·Σd² - (Σd)²) (the same shape), and n,
// the size of axis 1 (libnd4j's n, also for ranks above 2).
func pairwiseLosses(c *Ctx, op string, p, y *ndarray.Array) (d, s, l *ndarray.Array, n int, err error) {
	if p.DType() != y.DType() || !ndarray.SameShape(p.Shape(), y.Shape()) || !p.DType().IsFloat() {
		return nil, nil, nil, 0, fmt.Errorf("%s: labels %v%v for predictions %v%v (want one float dtype and shape)", op, y.DType(), y.Shape(), p.DType(), p.Shape())
	}
	if p.Rank() < 2 || p.Shape()[1] < 2 {
		return nil, nil, nil, 0, fmt.Errorf("%s: predictions of shape %v (want rank 2 or more and at least 2 values along axis 1)", op, p.Shape())
	}
	n = p.Shape()[1]
	axes := make([]int, p.Rank()-1)
	for i := range axes {
		axes[i] = i + 1
	}
	if d, err = binFor(c, ndarray.Sub, p, y); err != nil {
		return nil, nil, nil, 0, err
	}
	sq, err := binFor(c, ndarray.Mul, d, d)
	if err != nil {
		return nil, nil, nil, 0, err
	}
	defer c.Release(sq)
	if l, err = reduceFor(c, ndarray.Sum, sq, axes, true); err != nil {
		return nil, nil, nil, 0, err
	}
	if s, err = reduceFor(c, ndarray.Sum, d, axes, true); err != nil {
		return nil, nil, nil, 0, err
	}
	nf := float64(n)
	k := 4 / (nf * (nf - 1))
	err = ndarray.MapFloat2Into(l, l, s,
		each2(func(q, s float32) float32 { return float32(k) * (float32(nf)*q - s*s) }),
		each2(func(q, s float64) float64 { return k * (nf*q - s*s) }))
	return d, s, l, n, err
}

var meanPairwiseSqErrLossOp = Register(&Def{
	Name: "mean_pairwssqerr_loss", Type: Custom, MinIn: 3, MaxIn: 3,
	Doc: "weighted mean over pairs i≠j of ((p_i - p_j) - (y_i - y_j))² per example (axis 0), computed as " +
		"4/(n(n-1))·(n·Σd² - (Σd)²) with d = p - y, n the size of axis 1; inputs predictions, weights, labels; " +
		"int arg 0 the LossReduce (default 3; NONE gives one loss per example)",
	Infer: pairwiseInfer("mean_pairwssqerr_loss"),
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		const op = "mean_pairwssqerr_loss"
		d, s, l, _, err := pairwiseLosses(c, op, in[0], in[2])
		if err != nil {
			return nil, err
		}
		c.Release(d)
		c.Release(s)
		mode := lossMode(a)
		r, err := lossReduce(c, l, in[1], mode)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		if mode == LossNone {
			r, err = ndarray.Reshape(r, r.Shape()[0])
		}
		return []*ndarray.Array{r}, err
	},
	Grad: lossGrad("mean_pairwssqerr_loss_grad"),
})

var meanPairwiseSqErrLossGradOp = Register(&Def{
	Name: "mean_pairwssqerr_loss_grad", Type: Custom, MinIn: 3, MaxIn: 4,
	Doc:   "gradients of mean_pairwssqerr_loss for inputs predictions, weights, labels and optionally gradO",
	Infer: lossGradInfer("mean_pairwssqerr_loss_grad", pairwiseInfer("mean_pairwssqerr_loss_grad")),
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		const op = "mean_pairwssqerr_loss_grad"
		p, w, y := in[0], in[1], in[2]
		dO, err := gradOf(op, in)
		if err != nil {
			return nil, err
		}
		d, s, l, n, err := pairwiseLosses(c, op, p, y)
		if err != nil {
			return nil, err
		}
		defer c.Release(s)
		// NONE's gradient has one value per example: to the losses' shape.
		if lossMode(a) == LossNone && dO.Rank() == 1 && dO.Size() == l.Size() {
			if dO, err = ndarray.Reshape(dO, l.Shape()...); err != nil {
				return nil, err
			}
		}
		coef, dw, err := lossCoef(c, l, w, dO, lossMode(a))
		if err != nil {
			c.Release(d)
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		defer c.Release(coef)
		// dl/dd_i = 8/(n(n-1))·(n·d_i - Σd), over d.
		nf := float64(n)
		k := 8 / (nf * (nf - 1))
		if err := ndarray.MapFloat2Into(d, d, s,
			each2(func(d, s float32) float32 { return float32(k) * (float32(nf)*d - s) }),
			each2(func(d, s float64) float64 { return k * (nf*d - s) })); err != nil {
			return nil, err
		}
		if err := ndarray.BinaryInto(ndarray.Mul, d, d, coef); err != nil {
			return nil, err
		}
		var dp, dy *ndarray.Array
		if c.Needed(2) {
			if dy, err = unaryFor(c, ndarray.Neg, d, 0); err != nil {
				return nil, err
			}
		}
		if c.Needed(0) {
			dp = d
		} else {
			c.Release(d)
		}
		return []*ndarray.Array{dp, dw, dy}, nil
	},
})
