package ops

import (
	"fmt"
	"math"

	"github.com/sdgo/sdgo/ndarray"
)

// SameDiff's elementwise losses: each computes a loss per element from a
// prediction p and a label y, weights it and reduces it as mean_sqerr_loss
// does (lossReduce; int arg 0 the LossReduce, default 3). Inputs are
// predictions, weights, labels; the labels broadcast to the predictions (in
// libnd4j they have the predictions' shape). Each has its libnd4j
// <name>_grad op, the gradients of the three inputs given the output
// gradient as an optional fourth input (as mean_sqerr_loss_grad).

// floatT are the dtypes the elementwise loss kernels compute in.
type floatT interface{ float32 | float64 }

// elemK is an elementwise loss in one dtype: the loss of prediction p and
// label y, and its partial derivatives by p and by y.
type elemK[T floatT] struct {
	loss, dp, dy func(p, y T) T
}

// elemLoss describes an elementwise loss op: its name and doc, an optional
// check of its arguments, and its kernels in float32 and float64 for the
// op's arguments (float32 computes in float32).
type elemLoss struct {
	name, doc string
	check     func(a *Args) error
	k32       func(a *Args) elemK[float32]
	k64       func(a *Args) elemK[float64]
}

func (e *elemLoss) checkArgs(name string, a *Args) error {
	if e.check == nil {
		return nil
	}
	if err := e.check(a); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// mapLoss writes f(p, y) elementwise (f picked from k by p's dtype) into an
// array of p's shape from c's pool; y broadcasts to p (labelsFit).
func (e *elemLoss) mapLoss(c *Ctx, a *Args, p, y *ndarray.Array, pick func(k32 elemK[float32], k64 elemK[float64]) (func(p, y float32) float32, func(p, y float64) float64)) (*ndarray.Array, error) {
	if p.DType() != y.DType() || (p.DType() != ndarray.Float32 && p.DType() != ndarray.Float64) {
		return nil, fmt.Errorf("%s: predictions %v and labels %v (want one of float32, float64)", e.name, p.DType(), y.DType())
	}
	var k32 elemK[float32]
	var k64 elemK[float64]
	if p.DType() == ndarray.Float32 {
		k32 = e.k32(a)
	} else {
		k64 = e.k64(a)
	}
	f32, f64 := pick(k32, k64)
	out := c.Alloc(p.DType(), p.Shape())
	return out, ndarray.MapFloat2Into(out, p, y, each2(f32), each2(f64))
}

// each2 turns an element function into a slice function (nil stays nil:
// the dtype not computed).
func each2[T floatT](f func(x, y T) T) ndarray.FloatFunc2[T] {
	if f == nil {
		return nil
	}
	return func(d, x, y []T) {
		for i := range d {
			d[i] = f(x[i], y[i])
		}
	}
}

func pickLoss(k32 elemK[float32], k64 elemK[float64]) (func(p, y float32) float32, func(p, y float64) float64) {
	return k32.loss, k64.loss
}

func pickDp(k32 elemK[float32], k64 elemK[float64]) (func(p, y float32) float32, func(p, y float64) float64) {
	return k32.dp, k64.dp
}

func pickDy(k32 elemK[float32], k64 elemK[float64]) (func(p, y float32) float32, func(p, y float64) float64) {
	return k32.dy, k64.dy
}

// elemLossDef builds the Def of an elementwise loss, grad its rule.
func elemLossDef(e *elemLoss, grad GradFunc) *Def {
	inf := lossInfer(e.name, func(p Info) []int { return p.Shape })
	return &Def{
		Name: e.name, Type: Custom, MinIn: 3, MaxIn: 3,
		Doc: e.doc,
		Infer: func(in []Info, a *Args) ([]Info, error) {
			if err := e.checkArgs(e.name, a); err != nil {
				return nil, err
			}
			return inf(in, a)
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			if err := e.checkArgs(e.name, a); err != nil {
				return nil, err
			}
			if err := labelsFit(in[0], in[2]); err != nil {
				return nil, fmt.Errorf("%s: %w", e.name, err)
			}
			l, err := e.mapLoss(c, a, in[0], in[2], pickLoss)
			if err != nil {
				return nil, err
			}
			r, err := lossReduce(c, l, in[1], lossMode(a))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", e.name, err)
			}
			return []*ndarray.Array{r}, nil
		},
		Grad: grad,
	}
}

// elemLossGradDef builds the Def of an elementwise loss's gradient op, fwd
// the loss's Def.
func elemLossGradDef(e *elemLoss, fwd *Def) *Def {
	name := e.name + "_grad"
	return &Def{
		Name: name, Type: Custom, MinIn: 3, MaxIn: 4,
		Doc:   "gradients of " + e.name + " for inputs predictions, weights, labels and optionally gradO",
		Infer: lossGradInfer(name, fwd.Infer),
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			if err := e.checkArgs(name, a); err != nil {
				return nil, err
			}
			p, w, y := in[0], in[1], in[2]
			if err := labelsFit(p, y); err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			dO, err := gradOf(name, in)
			if err != nil {
				return nil, err
			}
			l, err := e.mapLoss(c, a, p, y, pickLoss)
			if err != nil {
				return nil, err
			}
			// The losses become the coefficient dL/dl, a temporary.
			coef, dw, err := lossCoef(c, l, w, dO, lossMode(a))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			defer c.Release(coef)
			var dp, dy *ndarray.Array
			if c.Needed(0) {
				if dp, err = e.mapLoss(c, a, p, y, pickDp); err != nil {
					return nil, err
				}
				if err = ndarray.BinaryInto(ndarray.Mul, dp, dp, coef); err != nil {
					return nil, err
				}
			}
			if c.Needed(2) {
				if dy, err = e.mapLoss(c, a, p, y, pickDy); err != nil {
					return nil, err
				}
				if err = ndarray.BinaryInto(ndarray.Mul, dy, dy, coef); err != nil {
					return nil, err
				}
				if dy, err = sumGrad(c, dy, y.Shape()); err != nil {
					return nil, err
				}
			}
			return []*ndarray.Array{dp, dw, dy}, nil
		},
	}
}

// Element functions in T: the float64 math of the standard library,
// rounded to T once per call (no float64 arrays).
func lnT[T floatT](x T) T    { return T(math.Log(float64(x))) }
func expT[T floatT](x T) T   { return T(math.Exp(float64(x))) }
func absT[T floatT](x T) T   { return T(math.Abs(float64(x))) }
func log1pT[T floatT](x T) T { return T(math.Log1p(float64(x))) }

func signT[T floatT](x T) T {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// absoluteDifference is |p - y|.
var absoluteDifference = &elemLoss{
	name: "absolute_difference_loss",
	doc:  "weighted |predictions - labels|; inputs predictions, weights, labels; int arg 0 the LossReduce (default 3)",
	k32:  absDiffK[float32], k64: absDiffK[float64],
}

func absDiffK[T floatT](*Args) elemK[T] {
	return elemK[T]{
		loss: func(p, y T) T { return absT(p - y) },
		dp:   func(p, y T) T { return signT(p - y) },
		dy:   func(p, y T) T { return -signT(p - y) },
	}
}

var absoluteDifferenceLossOp = Register(elemLossDef(absoluteDifference, lossGrad("absolute_difference_loss_grad")))
var absoluteDifferenceLossGradOp = Register(elemLossGradDef(absoluteDifference, absoluteDifferenceLossOp))

// hinge is libnd4j's hinge_loss: labels 0/1 are taken as -1/+1 (t = 2y-1)
// and the loss is max(0, 1 - t·p), p the logits.
var hinge = &elemLoss{
	name: "hinge_loss",
	doc:  "weighted max(0, 1 - (2·labels-1)·logits); inputs logits, weights, labels (0 or 1); int arg 0 the LossReduce (default 3)",
	k32:  hingeK[float32], k64: hingeK[float64],
}

func hingeK[T floatT](*Args) elemK[T] {
	return elemK[T]{
		loss: func(p, y T) T { return max(0, 1-(2*y-1)*p) },
		dp: func(p, y T) T {
			if 1-(2*y-1)*p > 0 {
				return -(2*y - 1)
			}
			return 0
		},
		dy: func(p, y T) T {
			if 1-(2*y-1)*p > 0 {
				return -2 * p
			}
			return 0
		},
	}
}

var hingeLossOp = Register(elemLossDef(hinge, lossGrad("hinge_loss_grad")))
var hingeLossGradOp = Register(elemLossGradDef(hinge, hingeLossOp))

// huber is ½d² where |d| ≤ δ and δ|d| - ½δ² elsewhere, d = p - y; float
// arg 0 is δ (required, as in libnd4j).
var huber = &elemLoss{
	name: "huber_loss",
	doc: "weighted Huber loss of d = predictions - labels: ½d² for |d| ≤ delta, delta·|d| - ½delta² beyond; " +
		"inputs predictions, weights, labels; int arg 0 the LossReduce (default 3); float arg 0 delta (required)",
	check: func(a *Args) error {
		if len(a.F) == 0 {
			return fmt.Errorf("float arg 0 (delta) is missing")
		}
		return nil
	},
	k32: huberK[float32], k64: huberK[float64],
}

func huberK[T floatT](a *Args) elemK[T] {
	delta := T(a.Float(0, 1))
	dp := func(p, y T) T {
		d := p - y
		if absT(d) <= delta {
			return d
		}
		return delta * signT(d)
	}
	return elemK[T]{
		loss: func(p, y T) T {
			d := absT(p - y)
			if d <= delta {
				return d * d / 2
			}
			return delta*d - delta*delta/2
		},
		dp: dp,
		dy: func(p, y T) T { return -dp(p, y) },
	}
}

var huberLossOp = Register(elemLossDef(huber, lossGrad("huber_loss_grad")))
var huberLossGradOp = Register(elemLossGradDef(huber, huberLossOp))

// logLossEps is log_loss's default epsilon (SameDiff's LogLoss.DEFAULT_EPSILON).
const logLossEps = 1e-7

// logLossFn is -y·ln(p+ε) - (1-y)·ln(1-p+ε), p probabilities; float arg 0
// is ε.
var logLossFn = &elemLoss{
	name: "log_loss",
	doc: "weighted -labels·ln(predictions+eps) - (1-labels)·ln(1-predictions+eps); inputs predictions, weights, labels; " +
		"int arg 0 the LossReduce (default 3); float arg 0 eps (default 1e-7)",
	k32: logLossK[float32], k64: logLossK[float64],
}

func logLossK[T floatT](a *Args) elemK[T] {
	eps := T(a.Float(0, logLossEps))
	return elemK[T]{
		loss: func(p, y T) T { return -y*lnT(p+eps) - (1-y)*lnT(1-p+eps) },
		dp:   func(p, y T) T { return -y/(p+eps) + (1-y)/(1-p+eps) },
		dy:   func(p, y T) T { return lnT(1-p+eps) - lnT(p+eps) },
	}
}

var logLossOp = Register(elemLossDef(logLossFn, lossGrad("log_loss_grad")))
var logLossGradOp = Register(elemLossGradDef(logLossFn, logLossOp))

// logPoisson is e^c - y·c, c the log predictions; with int arg 1 set (the
// full loss) plus Stirling's term y·ln y - y + ½ln(2πy), as libnd4j adds it
// for every label (TensorFlow only for labels above 1).
var logPoisson = &elemLoss{
	name: "log_poisson_loss",
	doc: "weighted exp(c) - labels·c for log predictions c, plus labels·ln(labels) - labels + ½ln(2π·labels) when int arg 1 (full) is 1; " +
		"inputs log predictions, weights, labels; int arg 0 the LossReduce (default 3)",
	k32: logPoissonK[float32], k64: logPoissonK[float64],
}

func logPoissonK[T floatT](a *Args) elemK[T] {
	full := a.Int(1, 0) != 0
	k := elemK[T]{
		loss: func(c, y T) T { return expT(c) - y*c },
		dp:   func(c, y T) T { return expT(c) - y },
		dy:   func(c, y T) T { return -c },
	}
	if full {
		twoPi := T(2 * math.Pi)
		k.loss = func(c, y T) T { return expT(c) - y*c + (y*lnT(y) - y + lnT(twoPi*y)/2) }
		k.dy = func(c, y T) T { return -c + lnT(y) + 1/(2*y) }
	}
	return k
}

var logPoissonLossOp = Register(elemLossDef(logPoisson, lossGrad("log_poisson_loss_grad")))
var logPoissonLossGradOp = Register(elemLossGradDef(logPoisson, logPoissonLossOp))

// sigmCE is the cross-entropy of sigmoid(x) against labels y' = y·(1-s) +
// s/2 (s the label smoothing, float arg 0), computed stably as
// max(x, 0) - x·y' + ln(1 + e^-|x|).
var sigmCE = &elemLoss{
	name: "sigm_cross_entropy_loss",
	doc: "weighted sigmoid cross-entropy max(x,0) - x·y + ln(1+exp(-|x|)) of logits x and labels y (smoothed to y·(1-s) + s/2); " +
		"inputs logits, weights, labels; int arg 0 the LossReduce (default 3); float arg 0 the label smoothing s (default 0)",
	k32: sigmCEK[float32], k64: sigmCEK[float64],
}

func sigmCEK[T floatT](a *Args) elemK[T] {
	s := T(a.Float(0, 0))
	return elemK[T]{
		loss: func(x, y T) T { return max(x, 0) - x*(y*(1-s)+s/2) + log1pT(expT(-absT(x))) },
		dp: func(x, y T) T {
			// sigmoid(x), stably for either sign.
			var sg T
			if x >= 0 {
				sg = 1 / (1 + expT(-x))
			} else {
				e := expT(x)
				sg = e / (1 + e)
			}
			return sg - (y*(1-s) + s/2)
		},
		dy: func(x, y T) T { return -x * (1 - s) },
	}
}

var sigmCrossEntropyLossOp = Register(elemLossDef(sigmCE, lossGrad("sigm_cross_entropy_loss_grad")))
var sigmCrossEntropyLossGradOp = Register(elemLossGradDef(sigmCE, sigmCrossEntropyLossOp))
