package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// SameDiff's losses that take no weights and no reduction: l2_loss and the
// cross-entropies of logits (libnd4j's *_with_logits ops), which return
// per-example losses.

// l2Loss is Σx²/2 over all of x (TensorFlow's l2_loss), a scalar.
var l2Loss = Register(&Def{
	Name: "l2_loss", Type: Custom, MinIn: 1, MaxIn: 1,
	Doc: "Σ x²/2 over every element, a scalar; one input, no arguments",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		if err := needFloat("l2_loss", in[0]); err != nil {
			return nil, err
		}
		return infos(Info{DType: in[0].DType, Shape: []int{}}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		if err := needFloat("l2_loss", Info{DType: in[0].DType()}); err != nil {
			return nil, err
		}
		sq, err := binFor(c, ndarray.Mul, in[0], in[0])
		if err != nil {
			return nil, fmt.Errorf("l2_loss: %w", err)
		}
		defer c.Release(sq)
		s := c.Alloc(sq.DType(), []int{})
		if err := ndarray.ReduceInto(ndarray.Sum, s, sq, nil); err != nil {
			return nil, fmt.Errorf("l2_loss: %w", err)
		}
		return []*ndarray.Array{s}, ndarray.UnaryInto(ndarray.ScaleBy, s, s, 0.5)
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		return []Value{mul(b, d[0], n.In[0])} // dO (a scalar) · x
	},
})

// classAxis returns the classes axis of softmax_cross_entropy_loss_with_logits
// (int arg 0, default the last) for logits of rank r, normalised.
func classAxis(op string, a *Args, r int) (int, error) {
	d := int(a.Int(0, -1))
	if d < -r || d >= r {
		return 0, fmt.Errorf("%s: classes axis %d for logits of rank %d", op, d, r)
	}
	if d < 0 {
		d += r
	}
	return d, nil
}

func softmaxCEWithLogitsInfer(op string) func(in []Info, a *Args) ([]Info, error) {
	return func(in []Info, a *Args) ([]Info, error) {
		z, lab := in[0], in[1]
		if err := needFloat(op, z); err != nil {
			return nil, err
		}
		if lab.DType != z.DType {
			return nil, fmt.Errorf("%s: labels %v for logits %v (they must have one dtype)", op, lab.DType, z.DType)
		}
		if !lab.UnknownRank && !z.Admits(lab.Shape) || !z.UnknownRank && !lab.UnknownRank && len(z.Shape) != len(lab.Shape) {
			return nil, fmt.Errorf("%s: labels of shape %v for logits of shape %v (they must have the same shape)", op, lab.Shape, z.Shape)
		}
		if z.UnknownRank {
			return infos(Info{DType: z.DType, UnknownRank: true}), nil
		}
		if len(z.Shape) == 0 {
			return nil, fmt.Errorf("%s of scalar logits", op)
		}
		d, err := classAxis(op, a, len(z.Shape))
		if err != nil {
			return nil, err
		}
		out := append(append([]int{}, z.Shape[:d]...), z.Shape[d+1:]...)
		return infos(Info{DType: z.DType, Shape: out}), nil
	}
}

// ceWithLogits checks the logits z and labels lab and returns the classes
// axis d and ls = log softmax(z) along it, from c's pool.
func ceWithLogits(c *Ctx, op string, z, lab *ndarray.Array, a *Args) (int, *ndarray.Array, error) {
	if z.DType() != lab.DType() || !ndarray.SameShape(z.Shape(), lab.Shape()) {
		return 0, nil, fmt.Errorf("%s: labels %v%v for logits %v%v (they must have the same dtype and shape)", op, lab.DType(), lab.Shape(), z.DType(), z.Shape())
	}
	if z.Rank() == 0 {
		return 0, nil, fmt.Errorf("%s of scalar logits", op)
	}
	d, err := classAxis(op, a, z.Rank())
	if err != nil {
		return 0, nil, err
	}
	if !softmaxable(z) {
		_, err := ndarray.LogSoftmax(z, d)
		return 0, nil, fmt.Errorf("%s: %w", op, err)
	}
	ls := c.Alloc(z.DType(), z.Shape())
	return d, ls, ndarray.LogSoftmaxInto(ls, z, d)
}

var softmaxCEWithLogitsOp = Register(&Def{
	Name: "softmax_cross_entropy_loss_with_logits", Type: Custom, MinIn: 2, MaxIn: 2,
	Doc: "-Σ labels·log softmax(logits) along the classes axis, per example (no weights, no reduction); " +
		"inputs logits, labels of one shape; int arg 0 the classes axis (default -1, the last)",
	Infer: softmaxCEWithLogitsInfer("softmax_cross_entropy_loss_with_logits"),
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		const op = "softmax_cross_entropy_loss_with_logits"
		d, ls, err := ceWithLogits(c, op, in[0], in[1], a)
		if err != nil {
			return nil, err
		}
		defer c.Release(ls)
		if err := ndarray.BinaryInto(ndarray.Mul, ls, ls, in[1]); err != nil {
			return nil, err
		}
		l, err := reduceFor(c, ndarray.Sum, ls, []int{d}, false)
		if err != nil {
			return nil, err
		}
		return []*ndarray.Array{l}, ndarray.UnaryInto(ndarray.Neg, l, l, 0)
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		return b.Op("softmax_cross_entropy_loss_with_logits_grad", n.Args.Clone(), n.In[0], n.In[1], d[0])
	},
})

var softmaxCEWithLogitsGradOp = Register(&Def{
	Name: "softmax_cross_entropy_loss_with_logits_grad", Type: Custom, MinIn: 2, MaxIn: 3,
	Doc: "gradients of softmax_cross_entropy_loss_with_logits for inputs logits, labels and optionally gradO " +
		"(the per-example loss gradient; without it 1); int arg 0 the classes axis",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		const op = "softmax_cross_entropy_loss_with_logits_grad"
		out, err := softmaxCEWithLogitsInfer(op)(in[:2], a)
		if err != nil {
			return nil, err
		}
		if len(in) > 2 {
			if g := in[2]; g.DType != in[0].DType || !broadcastsTo(g, out[0]) {
				return nil, fmt.Errorf("%s: the loss gradient %v%v does not fit the losses %v%v", op, g.DType, g.Shape, out[0].DType, out[0].Shape)
			}
		}
		return sameInfos(in, 2), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		const op = "softmax_cross_entropy_loss_with_logits_grad"
		z, lab := in[0], in[1]
		d, ls, err := ceWithLogits(c, op, z, lab, a)
		if err != nil {
			return nil, err
		}
		defer c.Release(ls)
		// The per-example gradient, with the classes axis kept.
		lossShape := append(append([]int{}, z.Shape()[:d]...), z.Shape()[d+1:]...)
		g, err := ndarray.Full(z.DType(), 1)
		if err != nil {
			return nil, err
		}
		if len(in) > 2 {
			if g = in[2]; g.DType() != z.DType() || !ndarray.CanBroadcastTo(g.Shape(), lossShape) {
				return nil, fmt.Errorf("%s: the loss gradient %v%v does not fit the losses %v%v", op, g.DType(), g.Shape(), z.DType(), lossShape)
			}
			if g, err = ndarray.BroadcastTo(g, lossShape...); err != nil {
				return nil, err
			}
			if g, err = ndarray.ExpandDims(g, d); err != nil {
				return nil, err
			}
		}
		var dz, dlab *ndarray.Array
		if c.Needed(0) {
			var err error
			if dz, err = softmaxCEGrad(c, z, lab, g, d); err != nil {
				return nil, err
			}
		}
		if c.Needed(1) {
			// -log softmax(z).
			if dlab, err = binFor(c, ndarray.Mul, ls, g); err != nil {
				return nil, err
			}
			if err := ndarray.UnaryInto(ndarray.Neg, dlab, dlab, 0); err != nil {
				return nil, err
			}
		}
		return []*ndarray.Array{dz, dlab}, nil
	},
})

func sparseCEInfer(op string, in []Info) (Info, error) {
	lab, z := in[0], in[1]
	if err := needFloat(op, z); err != nil {
		return Info{}, err
	}
	if !lab.DType.IsInt() {
		return Info{}, fmt.Errorf("%s: labels must be integer class indices, not %v", op, lab.DType)
	}
	if z.UnknownRank {
		return Info{DType: z.DType, Shape: lab.Shape, UnknownRank: lab.UnknownRank}, nil
	}
	if len(z.Shape) == 0 {
		return Info{}, fmt.Errorf("%s of scalar logits", op)
	}
	want := Info{Shape: z.Shape[:len(z.Shape)-1]}
	if !lab.UnknownRank && (len(lab.Shape) != len(want.Shape) || !want.Admits(lab.Shape)) {
		return Info{}, fmt.Errorf("%s: labels of shape %v for logits of shape %v (want the logits' shape without the last axis)", op, lab.Shape, z.Shape)
	}
	return Info{DType: z.DType, Shape: want.Shape}, nil
}

// sparseCE checks labels lab (class indices) against logits z and returns
// the labels as ints and, from c's pool, log softmax(z) or softmax(z)
// (logOf) along the last axis.
func sparseCE(c *Ctx, op string, lab, z *ndarray.Array, logOf bool) ([]int64, *ndarray.Array, error) {
	if z.Rank() == 0 || lab.Rank() != z.Rank()-1 || !ndarray.SameShape(lab.Shape(), z.Shape()[:z.Rank()-1]) {
		return nil, nil, fmt.Errorf("%s: labels of shape %v for logits of shape %v (want the logits' shape without the last axis)", op, lab.Shape(), z.Shape())
	}
	if !lab.DType().IsInt() || !softmaxable(z) {
		return nil, nil, fmt.Errorf("%s: labels %v and logits %v (want integer labels, float logits)", op, lab.DType(), z.DType())
	}
	k := z.Shape()[z.Rank()-1]
	ls := lab.Int64s()
	for i, v := range ls {
		if v < 0 || v >= int64(k) {
			return nil, nil, fmt.Errorf("%s: label %d at %d is not a class of %d", op, v, i, k)
		}
	}
	s := c.Alloc(z.DType(), z.Shape())
	if logOf {
		return ls, s, ndarray.LogSoftmaxInto(s, z, -1)
	}
	return ls, s, ndarray.SoftmaxInto(s, z, -1)
}

// pickClass writes out[i] = sign·s[i·k + lab[i]] (s packed, k classes).
func pickClass[T floatT](out, s []T, lab []int64, k int, sign T) {
	for i, l := range lab {
		out[i] = sign * s[i*k+int(l)]
	}
}

// subOneHot subtracts 1 at each example's class from s (packed, k classes).
func subOneHot[T floatT](s []T, lab []int64, k int) {
	for i, l := range lab {
		s[i*k+int(l)]--
	}
}

var sparseSoftmaxCEOp = Register(&Def{
	Name: "sparse_softmax_cross_entropy_loss_with_logits", Type: Custom, MinIn: 2, MaxIn: 2, NonDiff: []int{0},
	Doc: "-log softmax(logits)[label] along the last axis, per example; inputs labels (integer classes, " +
		"the logits' shape without the last axis), logits; no arguments",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		out, err := sparseCEInfer("sparse_softmax_cross_entropy_loss_with_logits", in)
		if err != nil {
			return nil, err
		}
		return infos(out), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		z := in[1]
		lab, ls, err := sparseCE(c, "sparse_softmax_cross_entropy_loss_with_logits", in[0], z, true)
		if err != nil {
			return nil, err
		}
		defer c.Release(ls)
		out := c.Alloc(z.DType(), in[0].Shape())
		k := z.Shape()[z.Rank()-1]
		if z.DType() == ndarray.Float32 {
			pickClass(ndarray.Raw[float32](out), ndarray.Raw[float32](ls), lab, k, -1)
		} else {
			pickClass(ndarray.Raw[float64](out), ndarray.Raw[float64](ls), lab, k, -1)
		}
		return []*ndarray.Array{out}, nil
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		g := b.Op("sparse_softmax_cross_entropy_loss_with_logits_grad", Args{}, n.In[0], n.In[1], d[0])
		return []Value{nil, g[0]}
	},
})

var sparseSoftmaxCEGradOp = Register(&Def{
	Name: "sparse_softmax_cross_entropy_loss_with_logits_grad", Type: Custom, MinIn: 2, MaxIn: 3, NonDiff: []int{0},
	Doc: "gradient of sparse_softmax_cross_entropy_loss_with_logits by the logits, (softmax - onehot(labels))·gradO; " +
		"inputs labels, logits and optionally gradO (the per-example loss gradient; without it 1)",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		const op = "sparse_softmax_cross_entropy_loss_with_logits_grad"
		out, err := sparseCEInfer(op, in[:2])
		if err != nil {
			return nil, err
		}
		if len(in) > 2 {
			if g := in[2]; g.DType != in[1].DType || !broadcastsTo(g, out) {
				return nil, fmt.Errorf("%s: the loss gradient %v%v does not fit the losses %v%v", op, g.DType, g.Shape, out.DType, out.Shape)
			}
		}
		return infos(same(in[1])), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		const op = "sparse_softmax_cross_entropy_loss_with_logits_grad"
		z := in[1]
		lab, s, err := sparseCE(c, op, in[0], z, false)
		if err != nil {
			return nil, err
		}
		k := z.Shape()[z.Rank()-1]
		if z.DType() == ndarray.Float32 {
			subOneHot(ndarray.Raw[float32](s), lab, k)
		} else {
			subOneHot(ndarray.Raw[float64](s), lab, k)
		}
		if len(in) > 2 {
			g := in[2]
			if g.DType() != z.DType() || !ndarray.CanBroadcastTo(g.Shape(), in[0].Shape()) {
				return nil, fmt.Errorf("%s: the loss gradient %v%v does not fit the losses %v%v", op, g.DType(), g.Shape(), z.DType(), in[0].Shape())
			}
			if g, err = ndarray.BroadcastTo(g, in[0].Shape()...); err != nil {
				return nil, err
			}
			if g, err = ndarray.ExpandDims(g, -1); err != nil {
				return nil, err
			}
			if err := ndarray.BinaryInto(ndarray.Mul, s, s, g); err != nil {
				return nil, err
			}
		}
		return []*ndarray.Array{s}, nil
	},
})

// weightedCE is TensorFlow's weighted_cross_entropy_with_logits:
// (1-t)·x + (1+(q-1)·t)·softplus(-x) for targets t, logits x and the
// positive weight q (a scalar or a vector along the last axis), per element.
var weightedCEOp = Register(&Def{
	Name: "weighted_cross_entropy_with_logits", Type: Custom, MinIn: 3, MaxIn: 3,
	Doc: "(1-t)·x + (1+(q-1)·t)·ln(1+exp(-x)), elementwise; inputs targets t, logits x (one shape), " +
		"weights q (a scalar or a vector the size of the last axis); no arguments",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		const op = "weighted_cross_entropy_with_logits"
		t, x, q := in[0], in[1], in[2]
		if err := needFloat(op, x); err != nil {
			return nil, err
		}
		if t.DType != x.DType || q.DType != x.DType {
			return nil, fmt.Errorf("%s: targets %v, logits %v and weights %v must have one dtype", op, t.DType, x.DType, q.DType)
		}
		if !t.UnknownRank && !x.Admits(t.Shape) || !t.UnknownRank && !x.UnknownRank && len(t.Shape) != len(x.Shape) {
			return nil, fmt.Errorf("%s: targets of shape %v for logits of shape %v (they must have the same shape)", op, t.Shape, x.Shape)
		}
		if !q.UnknownRank && len(q.Shape) > 1 || !broadcastsTo(q, x) {
			return nil, fmt.Errorf("%s: weights of shape %v for logits of shape %v (want a scalar or a vector the size of the last axis)", op, q.Shape, x.Shape)
		}
		return infos(same(x)), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		const op = "weighted_cross_entropy_with_logits"
		t, x, q := in[0], in[1], in[2]
		if t.DType() != x.DType() || q.DType() != x.DType() || !ndarray.SameShape(t.Shape(), x.Shape()) {
			return nil, fmt.Errorf("%s: targets %v%v for logits %v%v (want one dtype and shape)", op, t.DType(), t.Shape(), x.DType(), x.Shape())
		}
		if q.Rank() > 1 || !ndarray.CanBroadcastTo(q.Shape(), x.Shape()) || (q.Rank() == 1 && x.Rank() == 0) {
			return nil, fmt.Errorf("%s: weights of shape %v for logits of shape %v (want a scalar or a vector the size of the last axis)", op, q.Shape(), x.Shape())
		}
		// coef = 1 + (q-1)·t, then out = coef·softplus(-x) + (1-t)·x.
		out := c.Alloc(x.DType(), x.Shape())
		if err := ndarray.MapFloat2Into(out, t, q, each2(func(t, q float32) float32 { return 1 + (q-1)*t }),
			each2(func(t, q float64) float64 { return 1 + (q-1)*t })); err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		sp := c.Alloc(x.DType(), x.Shape())
		defer c.Release(sp)
		if err := ndarray.MapFloat2Into(sp, x, t, each2(func(x, _ float32) float32 { return softplusNeg(x) }),
			each2(func(x, _ float64) float64 { return softplusNeg(x) })); err != nil {
			return nil, err
		}
		if err := ndarray.BinaryInto(ndarray.Mul, out, out, sp); err != nil {
			return nil, err
		}
		if err := ndarray.MapFloat2Into(sp, t, x, each2(func(t, x float32) float32 { return (1 - t) * x }),
			each2(func(t, x float64) float64 { return (1 - t) * x })); err != nil {
			return nil, err
		}
		return []*ndarray.Array{out}, ndarray.BinaryInto(ndarray.Add, out, out, sp)
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		t, x, q := n.In[0], n.In[1], n.In[2]
		one := scalarLike(b, x, 1)
		qm1 := op1(b, "subtract", Args{}, q, one)
		coef := op1(b, "add", Args{}, one, mul(b, qm1, t))       // 1 + (q-1)t
		sp := op1(b, "softplus", Args{}, neg(b, x))              // ln(1+e^-x)
		sgm := op1(b, "sigmoid", Args{}, neg(b, x))              // σ(-x)
		omt := op1(b, "subtract", Args{}, one, t)                // 1 - t
		dx := op1(b, "subtract", Args{}, omt, mul(b, coef, sgm)) // (1-t) - coef·σ(-x)
		dt := op1(b, "subtract", Args{}, mul(b, qm1, sp), x)     // (q-1)·sp - x
		dq := op1(b, "reduce_to_shape_of", Args{}, mul(b, d[0], mul(b, t, sp)), q)
		return []Value{mul(b, d[0], dt), mul(b, d[0], dx), dq}
	},
})

// softplusNeg is ln(1 + e^-x), computed as ln1p(e^-|x|) + max(-x, 0).
func softplusNeg[T floatT](x T) T { return log1pT(expT(-absT(x))) + max(-x, 0) }
