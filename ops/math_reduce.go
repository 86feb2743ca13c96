package ops

import (
	"fmt"
	"math"

	"github.com/sdgo/sdgo/ndarray"
)

// More reductions, by their SameDiff names: the legacy norms and absolute
// reductions (which SameDiff writes as legacy ops with the reduce layout of
// reduce.go: axes in the dimensions slot or a second input, bool arg 0
// keepDims) and the custom reduce_logsumexp (axes in the int args, keepDims
// as float arg 0 = 1.0 in SameDiff's Java, bool arg 0 in newer libnd4j),
// with count_nonzero and count_zero. Each differentiable one has a fused
// backprop op "<name>_bp" with inputs x, gradO [, axes].

// keepDimsArg reads keepDims from bool arg 0, else float arg 0 (libnd4j's
// custom reductions accept both).
func keepDimsArg(a *Args) bool {
	if len(a.B) > 0 {
		return a.B[0]
	}
	return len(a.F) > 0 && a.F[0] != 0
}

// reduceArgsNorm returns a's axes and keepDims in reduce.go's layout.
func reduceArgsNorm(a *Args) *Args {
	n := *a
	n.B = []bool{keepDimsArg(a)}
	return &n
}

// Input kinds of the reductions.
const (
	numericIn = iota
	floatIn
	anyIn // numeric or bool
)

// reduceWith defines a reduction computed by f(x, axes) with kept axes,
// whose output dtype is out(x's dtype).
func reduceWith(name string, t OpType, num int64, doc string, kind int, out func(ndarray.DType) ndarray.DType,
	f func(x *ndarray.Array, ax []int) (*ndarray.Array, error), grad GradFunc, aliases ...string) *Def {
	return &Def{
		Name: name, Aliases: aliases, Type: t, Num: num, MinIn: 1, MaxIn: 2, NonDiff: []int{1}, Doc: doc, Grad: grad,
		Infer: func(in []Info, a *Args) ([]Info, error) {
			check := needNumeric
			switch kind {
			case floatIn:
				check = needFloat
			case anyIn:
				check = needNumericOrBool
			}
			if err := check(name, in[0]); err != nil {
				return nil, err
			}
			if len(in) > 1 {
				if err := needIntInput(name, "the axes", in[1]); err != nil {
					return nil, err
				}
			}
			o, err := reduceInfo(name, in, reduceArgsNorm(a))
			if err != nil {
				return nil, err
			}
			o.DType = out(in[0].DType)
			return infos(o), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			na := reduceArgsNorm(a)
			axes, err := runAxes(in, na)
			if err != nil {
				return nil, err
			}
			x := in[0]
			ax, err := ndarray.NormAxes(axes, x.Rank())
			if err != nil {
				return nil, fmt.Errorf("%s of shape %v: %w", name, x.Shape(), err)
			}
			r, err := f(x, ax)
			if err != nil {
				return nil, err
			}
			return one(ndarray.Reshape(r, ndarray.ReducedShape(x.Shape(), ax, keepDimsArg(a))...))
		},
	}
}

func sameDT(d ndarray.DType) ndarray.DType { return d }

// absReduce reduces |x| with op.
func absReduce(op ndarray.ReduceOp) func(x *ndarray.Array, ax []int) (*ndarray.Array, error) {
	return func(x *ndarray.Array, ax []int) (*ndarray.Array, error) {
		ab, err := ndarray.Unary(ndarray.Abs, x, 0)
		if err != nil {
			return nil, err
		}
		return ndarray.Reduce(op, ab, ax, true)
	}
}

// normMax is max|x|, 0 over an empty axis: a norm of nothing is 0, as for
// the other norms (libnd4j's NormMax starts from 0), not max's -Inf (or an
// integer's MinInt, for amax). The |x| are never below 0, so a negative
// result can only come from an empty axis.
func normMax(x *ndarray.Array, ax []int) (*ndarray.Array, error) {
	m, err := absReduce(ndarray.Max)(x, ax)
	if err != nil || x.Size() > 0 {
		return m, err
	}
	return m, ndarray.BinaryInto(ndarray.Maximum, m, m, ndarray.Must(ndarray.Full(m.DType(), 0)))
}

func sqnorm(x *ndarray.Array, ax []int) (*ndarray.Array, error) {
	sq, err := ndarray.Unary(ndarray.Square, x, 0)
	if err != nil {
		return nil, err
	}
	return ndarray.Reduce(ndarray.Sum, sq, ax, true)
}

func norm2(x *ndarray.Array, ax []int) (*ndarray.Array, error) {
	s, err := sqnorm(x, ax)
	if err != nil {
		return nil, err
	}
	return s, ndarray.UnaryInto(ndarray.Sqrt, s, s, 0)
}

// logSumExp is m + ln Σ e^(x-m) with m the max over the axes (0 where the
// max is infinite, so that all -Inf gives -Inf).
func logSumExp(x *ndarray.Array, ax []int) (*ndarray.Array, error) {
	m, err := ndarray.Reduce(ndarray.Max, x, ax, true)
	if err != nil {
		return nil, err
	}
	mv := m.Float64s()
	for i, v := range mv {
		if math.IsInf(v, 0) {
			mv[i] = 0
		}
	}
	ms, err := ndarray.Wrap(mv, m.Shape()...)
	if err != nil {
		return nil, err
	}
	if ms, err = ndarray.Cast(ms, x.DType()); err != nil {
		return nil, err
	}
	d, err := bin(ndarray.Sub, x, ms)
	if err != nil {
		return nil, err
	}
	if err := ndarray.UnaryInto(ndarray.Exp, d, d, 0); err != nil {
		return nil, err
	}
	s, err := ndarray.Reduce(ndarray.Sum, d, ax, true)
	if err != nil {
		return nil, err
	}
	if err := ndarray.UnaryInto(ndarray.Log, s, s, 0); err != nil {
		return nil, err
	}
	return bin(ndarray.Add, s, ms)
}

// countReduce counts the elements that are not zero (nonZero) or that
// are, as int64.
func countReduce(nonZero bool) func(x *ndarray.Array, ax []int) (*ndarray.Array, error) {
	return func(x *ndarray.Array, ax []int) (*ndarray.Array, error) {
		zero, err := ndarray.ScalarOf(x.DType(), 0)
		if err != nil {
			return nil, err
		}
		op := ndarray.Eq
		if nonZero {
			op = ndarray.Ne
		}
		m, err := ndarray.Compare(op, x, zero)
		if err != nil {
			return nil, err
		}
		mi, err := ndarray.Cast(m, ndarray.Int64)
		if err != nil {
			return nil, err
		}
		return ndarray.Reduce(ndarray.Sum, mi, ax, true)
	}
}

var (
	reduceNorm1Op = Register(floatOut(reduceWith("reduce_norm1", ReduceFloat, 2, "Σ|x| over axes", floatIn, sameDT, absReduce(ndarray.Sum), normGrad("reduce_norm1_bp"))))
	reduceNorm2Op = Register(floatOut(reduceWith("reduce_norm2", ReduceFloat, 3, "√Σx² over axes", floatIn, sameDT, norm2, normGrad("reduce_norm2_bp"))))
	// SameDiff's legacy NormMax is "reduce_normmax"; libnd4j's custom op
	// "reduce_norm_max".
	reduceNormMaxOp = Register(floatOut(reduceWith("reduce_normmax", ReduceFloat, 4, "max|x| over axes (0 over none)", floatIn, sameDT, normMax, normGrad("reduce_normmax_bp"), "reduce_norm_max")))
	reduceSqNormOp  = Register(floatOut(reduceWith("reduce_sqnorm", ReduceFloat, 7, "Σx² over axes", floatIn, sameDT, sqnorm, normGrad("reduce_sqnorm_bp"))))
	reduceAMeanOp   = Register(floatOut(reduceWith("amean", ReduceFloat, 1, "mean |x| over axes", floatIn, sameDT, absReduce(ndarray.Mean), normGrad("amean_bp"), "reduce_amean")))
	reduceASumOp    = Register(reduceWith("asum", ReduceSame, 4, "Σ|x| over axes, in x's dtype", numericIn, sameDT, absReduce(ndarray.Sum), normGrad("asum_bp"), "reduce_asum"))
	reduceAMaxOp    = Register(reduceWith("amax", ReduceSame, 5, "max|x| over axes, in x's dtype (0 over none)", numericIn, sameDT, normMax, normGrad("amax_bp"), "reduce_amax"))
	reduceAMinOp    = Register(reduceWith("amin", ReduceSame, 6, "min|x| over axes, in x's dtype", numericIn, sameDT, absReduce(ndarray.Min), normGrad("amin_bp"), "reduce_amin"))
	reduceLSEOp     = Register(reduceWith("reduce_logsumexp", Custom, 0, "ln Σe^x over axes (computed stably)", floatIn, sameDT, logSumExp, normGrad("reduce_logsumexp_bp")))
	countNonZeroOp  = Register(reduceWith("countNonZero", ReduceLong, 0, "the number of non-zero elements over axes (int64)", anyIn,
		func(ndarray.DType) ndarray.DType { return ndarray.Int64 }, countReduce(true), nil, "count_nonzero"))
	countZeroOp = Register(reduceWith("countZero", ReduceLong, 1, "the number of zero elements over axes (int64)", anyIn,
		func(ndarray.DType) ndarray.DType { return ndarray.Int64 }, countReduce(false), nil, "count_zero"))
)

// The backprop ops. Each gets x, the output gradient with kept axes (gk)
// and the normalized axes.

// withForward computes the forward reduction with kept axes.
func withForward(f func(*ndarray.Array, []int) (*ndarray.Array, error), grad func(x, y, gk *ndarray.Array, ax []int) (*ndarray.Array, error)) reduceBp {
	return func(x, gk *ndarray.Array, ax []int) (*ndarray.Array, error) {
		y, err := f(x, ax)
		if err != nil {
			return nil, err
		}
		return grad(x, y, gk, ax)
	}
}

// mulAll multiplies the arrays (broadcasting).
func mulAll(a *ndarray.Array, rest ...*ndarray.Array) (*ndarray.Array, error) {
	var err error
	for _, b := range rest {
		if a, err = bin(ndarray.Mul, a, b); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// safeDiv is a/b where b != 0, else 0.
func safeDiv(a, b *ndarray.Array) (*ndarray.Array, error) {
	nz, err := mask(nil, ndarray.Ne, b, ndarray.Must(ndarray.ScalarOf(b.DType(), 0)), b)
	if err != nil {
		return nil, err
	}
	_, den, err := zeroMask(b)
	if err != nil {
		return nil, err
	}
	q, err := bin(ndarray.Div, a, den)
	if err != nil {
		return nil, err
	}
	return bin(ndarray.Mul, q, nz)
}

func signOf(x *ndarray.Array) (*ndarray.Array, error) { return ndarray.Unary(ndarray.Sign, x, 0) }

// signTimes returns g·sign(x): a gradient g with respect to |x| carried
// back to x.
func signTimes(x, g *ndarray.Array) (*ndarray.Array, error) {
	s, err := signOf(x)
	if err != nil {
		return nil, err
	}
	return bin(ndarray.Mul, g, s)
}

// absSumGrad is the gradient of Σ|x| (norm1, asum).
func absSumGrad(x, gk *ndarray.Array, _ []int) (*ndarray.Array, error) { return signTimes(x, gk) }

func groupSize(x *ndarray.Array, ax []int) float64 {
	n := 1
	for _, i := range ax {
		n *= x.Shape()[i]
	}
	return float64(n)
}

var (
	reduceNorm1BpOp = Register(reduceBpDef("reduce_norm1_bp", absSumGrad))
	reduceNorm2BpOp = Register(reduceBpDef("reduce_norm2_bp", withForward(norm2, func(x, y, gk *ndarray.Array, ax []int) (*ndarray.Array, error) {
		q, err := safeDiv(x, y) // x/‖x‖, 0 where the norm is 0
		if err != nil {
			return nil, err
		}
		return bin(ndarray.Mul, q, gk)
	})))
	reduceNormMaxBpOp = Register(reduceBpDef("reduce_normmax_bp", ofAbs(extremeGrad(ndarray.Max))))
	reduceSqNormBpOp  = Register(reduceBpDef("reduce_sqnorm_bp", func(x, gk *ndarray.Array, ax []int) (*ndarray.Array, error) {
		two := ndarray.Must(ndarray.ScalarOf(x.DType(), 2))
		return mulAll(x, two, gk) // 2x·g
	}))
	reduceAMeanBpOp = Register(reduceBpDef("amean_bp", func(x, gk *ndarray.Array, ax []int) (*ndarray.Array, error) {
		s, err := signOf(x)
		if err != nil {
			return nil, err
		}
		inv := ndarray.Must(ndarray.ScalarOf(x.DType(), 1/math.Max(groupSize(x, ax), 1)))
		return mulAll(s, gk, inv)
	}))
	reduceASumBpOp = Register(reduceBpDef("asum_bp", absSumGrad))
	reduceAMaxBpOp = Register(reduceBpDef("amax_bp", ofAbs(extremeGrad(ndarray.Max))))
	reduceAMinBpOp = Register(reduceBpDef("amin_bp", ofAbs(extremeGrad(ndarray.Min))))
	reduceLSEBpOp  = Register(reduceBpDef("reduce_logsumexp_bp", withForward(logSumExp, func(x, y, gk *ndarray.Array, ax []int) (*ndarray.Array, error) {
		d, err := bin(ndarray.Sub, x, y) // softmax over the axes: e^(x - lse)
		if err != nil {
			return nil, err
		}
		if err := ndarray.UnaryInto(ndarray.Exp, d, d, 0); err != nil {
			return nil, err
		}
		return bin(ndarray.Mul, d, gk)
	})))
)

// normGrad is the gradient rule of these reductions: the fused op bp, for
// float inputs only (an integer input gets no gradient).
func normGrad(bp string) GradFunc {
	grad := reduceGrad(bp, func(a Args) Args { return *reduceArgsNorm(&a) })
	return func(b GradBuilder, n GradNode, dOut []Value) []Value {
		if !n.In[0].Info().DType.IsFloat() {
			return make([]Value, len(n.In))
		}
		return grad(b, n, dOut)
	}
}
