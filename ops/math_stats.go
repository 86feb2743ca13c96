package ops

import (
	"fmt"
	"math"

	"github.com/sdgo/sdgo/ndarray"
)

// SDMath's and SDBaseOps' statistics: variance and standard deviation (the
// legacy summary-stats ops var and std), moments, normalize_moments,
// standardize, zero_fraction and the entropies (legacy reduce-float ops).
//
// var and std take the reduction layout of base_reduce.go: axes in the
// dimensions slot (or the int args, or a second input; none means every
// axis), bool arg 0 keepDims. Bias correction (divide by n-1 rather than
// n) is float arg 0 (SameDiff keeps it in the op's extra args): 1 corrects,
// 0 does not; absent means corrected, SameDiff's default.

// statsAxes returns the normalized axes of a reduction of x whose axes are
// in a or in input 1.
func statsAxes(name string, in []*ndarray.Array, a *Args) ([]int, error) {
	axes, err := runAxes(in, a)
	if err != nil {
		return nil, err
	}
	ax, err := ndarray.NormAxes(axes, in[0].Rank())
	if err != nil {
		return nil, fmt.Errorf("%s of shape %v: %w", name, in[0].Shape(), err)
	}
	return ax, nil
}

// scalarAs is a rank-0 array of x's dtype.
func scalarAs(x *ndarray.Array, v float64) *ndarray.Array {
	return ndarray.Must(ndarray.ScalarOf(x.DType(), v))
}

// meanVar returns x's mean over ax and its variance (divided by n-1 when
// bias is set, else by n), both with kept axes, and the centred x - mean.
func meanVar(x *ndarray.Array, ax []int, bias bool) (mean, variance, centred *ndarray.Array, err error) {
	if mean, err = ndarray.Reduce(ndarray.Mean, x, ax, true); err != nil {
		return nil, nil, nil, err
	}
	if centred, err = bin(ndarray.Sub, x, mean); err != nil {
		return nil, nil, nil, err
	}
	sq, err := ndarray.Unary(ndarray.Square, centred, 0)
	if err != nil {
		return nil, nil, nil, err
	}
	if variance, err = ndarray.Reduce(ndarray.Sum, sq, ax, true); err != nil {
		return nil, nil, nil, err
	}
	n := groupSize(x, ax)
	if bias {
		n--
	}
	return mean, variance, centred, ndarray.UnaryInto(ndarray.ScaleBy, variance, variance, 1/n)
}

// summaryDef defines var (std false) or std: SUMMARYSTATS num.
func summaryDef(name string, num int64, std bool, doc string) *Def {
	bp := "reduce_variance_bp"
	if std {
		bp = "reduce_stdev_bp"
	}
	return &Def{
		Name: name, Type: SummaryStats, Num: num, MinIn: 1, MaxIn: 2, NonDiff: []int{1}, Doc: doc,
		Infer: func(in []Info, a *Args) ([]Info, error) {
			if err := needFloat(name, in[0]); err != nil {
				return nil, err
			}
			if len(in) > 1 {
				if err := needIntInput(name, "the axes", in[1]); err != nil {
					return nil, err
				}
			}
			o, err := reduceInfo(name, in, &Args{Dims: a.Dims, I: a.I, B: []bool{a.Bool(0, false)}})
			if err != nil {
				return nil, err
			}
			return infos(o), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			ax, err := statsAxes(name, in, a)
			if err != nil {
				return nil, err
			}
			x := in[0]
			_, v, _, err := meanVar(x, ax, a.Float(0, 1) != 0)
			if err != nil {
				return nil, err
			}
			if std {
				if err := ndarray.UnaryInto(ndarray.Sqrt, v, v, 0); err != nil {
					return nil, err
				}
			}
			return one(ndarray.Reshape(v, ndarray.ReducedShape(x.Shape(), ax, a.Bool(0, false))...))
		},
		Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
			args := Args{Dims: reduceAxesDims(n.Args), B: []bool{n.Args.Bool(0, false), n.Args.Float(0, 1) != 0}}
			in := []Value{n.In[0], d[0]}
			if len(n.In) > 1 {
				in = append(in, n.In[1])
			}
			return append(b.Op(bp, args, in...), nil)[:len(n.In)]
		},
	}
}

// varianceBpDef defines libnd4j's reduce_variance_bp (std false) or
// reduce_stdev_bp: inputs x, gradO and optionally the axes; axes in the
// dimensions slot or the int args; bool args keepDims, biasCorrected (or
// float args in that order, libnd4j's older layout; uncorrected by
// default, as libnd4j's).
func varianceBpDef(name string, std bool) *Def {
	doc := "gradient of " + map[bool]string{false: "the variance", true: "the standard deviation"}[std] +
		" over axes for inputs x, gradO and optionally the axes (bool args keepDims, biasCorrected)"
	return reduceBpArgsDef(name, doc, func(x, gk *ndarray.Array, ax []int, a *Args) (*ndarray.Array, error) {
		bias := a.Bool(1, a.Float(1, 0) != 0)
		_, v, cx, err := meanVar(x, ax, bias)
		if err != nil {
			return nil, err
		}
		n := groupSize(x, ax)
		if bias {
			n--
		}
		// d var/dx = 2(x-mean)/n; d std/dx = (x-mean)/(n·std), 0 where
		// std is 0.
		if !std {
			return mulAll(cx, gk, scalarAs(x, 2/n))
		}
		if err := ndarray.UnaryInto(ndarray.Sqrt, v, v, 0); err != nil {
			return nil, err
		}
		q, err := safeDiv(cx, v)
		if err != nil {
			return nil, err
		}
		return mulAll(q, gk, scalarAs(x, 1/n))
	})
}

var (
	varianceOp = Register(summaryDef("var", 0, false, "variance over axes (float arg 0: bias-corrected, default 1)"))
	stdOp      = Register(summaryDef("std", 1, true, "standard deviation over axes (float arg 0: bias-corrected, default 1)"))

	reduceVarianceBpOp = Register(varianceBpDef("reduce_variance_bp", false))
	reduceStdevBpOp    = Register(varianceBpDef("reduce_stdev_bp", true))
)

// momentsOp is libnd4j's moments: inputs x and optionally the axes; axes
// in the int args (or the dimensions slot; none means every axis);
// keepDims as bool arg 0 or float arg 0. Outputs the mean and the
// (uncorrected) variance.
var momentsOp = Register(&Def{
	Name: "moments", Type: Custom, MinIn: 1, MaxIn: 2, NonDiff: []int{1},
	Doc: "mean and variance (divided by n) over axes",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		if err := needFloat("moments", in[0]); err != nil {
			return nil, err
		}
		if len(in) > 1 {
			if err := needIntInput("moments", "the axes", in[1]); err != nil {
				return nil, err
			}
		}
		o, err := reduceInfo("moments", in, reduceArgsNorm(a))
		if err != nil {
			return nil, err
		}
		return infos(o, o), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		ax, err := statsAxes("moments", in, a)
		if err != nil {
			return nil, err
		}
		x := in[0]
		m, v, _, err := meanVar(x, ax, false)
		if err != nil {
			return nil, err
		}
		shape := ndarray.ReducedShape(x.Shape(), ax, keepDimsArg(a))
		if m, err = ndarray.Reshape(m, shape...); err != nil {
			return nil, err
		}
		if v, err = ndarray.Reshape(v, shape...); err != nil {
			return nil, err
		}
		return []*ndarray.Array{m, v}, nil
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		args := Args{Dims: reduceAxesDims(n.Args)}
		extra := []Value(nil)
		if len(n.In) > 1 {
			extra = n.In[1:2]
		}
		var g Value
		if d[0] != nil {
			g = op1(b, "reduce_mean_bp", args, append([]Value{n.In[0], d[0]}, extra...)...)
		}
		if d[1] != nil {
			va := args
			va.B = []bool{false, false}
			gv := op1(b, "reduce_variance_bp", va, append([]Value{n.In[0], d[1]}, extra...)...)
			if g == nil {
				g = gv
			} else {
				g = op1(b, "add", Args{}, g, gv)
			}
		}
		return append([]Value{g}, make([]Value, len(n.In)-1)...)
	},
})

// normalizeMomentsOp is libnd4j's normalize_moments: inputs counts (a
// scalar), the sums means and variances of the data (shifted by float arg
// 0, default 0); outputs the mean means/counts + shift and the variance
// variances/counts - (means/counts)². counts gets no gradient.
var normalizeMomentsOp = Register(&Def{
	Name: "normalize_moments", Type: Custom, MinIn: 3, MaxIn: 3, NonDiff: []int{0},
	Doc: "mean and variance from counts and sums: means/c + shift, variances/c - (means/c)²",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		const op = "normalize_moments"
		for i, v := range in {
			if err := needFloat(op, v); err != nil {
				return nil, err
			}
			if v.DType != in[1].DType {
				return nil, fmt.Errorf("%s: input %d is %v, the means %v", op, i, v.DType, in[1].DType)
			}
		}
		if !in[0].UnknownRank && (ndarray.Layout{Shape: in[0].Shape}).Size() != 1 && in[0].ShapeKnown() {
			return nil, fmt.Errorf("%s: counts must be a scalar, not of shape %v", op, in[0].Shape)
		}
		if in[1].ShapeKnown() && in[2].ShapeKnown() && !ndarray.SameShape(in[1].Shape, in[2].Shape) {
			return nil, fmt.Errorf("%s: means of shape %v and variances of shape %v differ", op, in[1].Shape, in[2].Shape)
		}
		return infos(same(in[1]), same(in[1])), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		const op = "normalize_moments"
		cnt, m, v := in[0], in[1], in[2]
		if cnt.Size() != 1 {
			return nil, fmt.Errorf("%s: counts must be a scalar, not of shape %v", op, cnt.Shape())
		}
		if !ndarray.SameShape(m.Shape(), v.Shape()) {
			return nil, fmt.Errorf("%s: means of shape %v and variances of shape %v differ", op, m.Shape(), v.Shape())
		}
		cs, err := ndarray.Reshape(cnt)
		if err != nil {
			return nil, err
		}
		mean, err := bin(ndarray.Div, m, cs)
		if err != nil {
			return nil, err
		}
		vc, err := bin(ndarray.Div, v, cs)
		if err != nil {
			return nil, err
		}
		sq, err := ndarray.Unary(ndarray.Square, mean, 0)
		if err != nil {
			return nil, err
		}
		if err := ndarray.BinaryInto(ndarray.Sub, vc, vc, sq); err != nil {
			return nil, err
		}
		if s := a.Float(0, 0); s != 0 {
			if err := ndarray.BinaryInto(ndarray.Add, mean, mean, scalarAs(m, s)); err != nil {
				return nil, err
			}
		}
		return []*ndarray.Array{mean, vc}, nil
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		c, m := n.In[0], n.In[1]
		var dm, dv Value
		if d[0] != nil {
			dm = div(b, d[0], c)
		}
		if d[1] != nil {
			dv = div(b, d[1], c)
			// d(-(m/c)²)/dm = -2m/c²
			t := neg(b, mul(b, dv, mul(b, div(b, m, c), scalarLike(b, m, 2))))
			if dm == nil {
				dm = t
			} else {
				dm = op1(b, "add", Args{}, dm, t)
			}
		}
		return []Value{nil, dm, dv}
	},
})

// standardizeCore returns the centred x and its uncorrected standard
// deviation with kept axes.
func standardizeCore(x *ndarray.Array, ax []int) (centred, std *ndarray.Array, err error) {
	_, v, cx, err := meanVar(x, ax, false)
	if err != nil {
		return nil, nil, err
	}
	return cx, v, ndarray.UnaryInto(ndarray.Sqrt, v, v, 0)
}

// replaceNaN writes 0 over a's NaNs.
func replaceNaN(a *ndarray.Array) error {
	return ndarray.MapFloatInto(a, a, func(d, x []float32) {
		for i, v := range x {
			if v != v {
				d[i] = 0
			} else {
				d[i] = v
			}
		}
	}, func(d, x []float64) {
		for i, v := range x {
			if math.IsNaN(v) {
				d[i] = 0
			} else {
				d[i] = v
			}
		}
	})
}

// standardizeAxes reads standardize's axes: input 1, else the int args (or
// the dimensions slot); libnd4j refuses none.
func standardizeAxes(name string, x *ndarray.Array, in []*ndarray.Array, axIn int, a *Args) ([]int, error) {
	axes, err := inputInts(in, axIn, "the axes input", reduceAxesArg(a))
	if err != nil {
		return nil, err
	}
	if len(axes) == 0 {
		return nil, fmt.Errorf("%s: no axes given", name)
	}
	ax, err := ndarray.NormAxes(axes, x.Rank())
	if err != nil {
		return nil, fmt.Errorf("%s of shape %v: %w", name, x.Shape(), err)
	}
	return ax, nil
}

// standardizeOp is libnd4j's standardize: (x - mean)/(std + 1e-12) over the
// axes (int args, or a second input; at least one), std uncorrected, NaN
// made 0.
var standardizeOp = Register(&Def{
	Name: "standardize", Type: Custom, MinIn: 1, MaxIn: 2, NonDiff: []int{1},
	Doc: "(x - mean)/(std + 1e-12) over axes, NaN made 0",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		if err := needFloat("standardize", in[0]); err != nil {
			return nil, err
		}
		if len(in) == 1 && len(reduceAxesArg(a)) == 0 {
			return nil, fmt.Errorf("standardize: no axes given")
		}
		if len(in) > 1 {
			if err := needIntInput("standardize", "the axes", in[1]); err != nil {
				return nil, err
			}
		} else if _, err := reduceInfo("standardize", in, a); err != nil {
			return nil, err
		}
		return infos(same(in[0])), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x := in[0]
		ax, err := standardizeAxes("standardize", x, in, 1, a)
		if err != nil {
			return nil, err
		}
		cx, s, err := standardizeCore(x, ax)
		if err != nil {
			return nil, err
		}
		if err := ndarray.BinaryInto(ndarray.Add, s, s, scalarAs(x, 1e-12)); err != nil {
			return nil, err
		}
		if err := ndarray.BinaryInto(ndarray.Div, cx, cx, s); err != nil {
			return nil, err
		}
		return one(cx, replaceNaN(cx))
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		in := append(append([]Value{n.In[0]}, n.In[1:]...), d[0])
		return append([]Value{op1(b, "standardize_bp", n.Args.Clone(), in...)}, make([]Value, len(n.In)-1)...)
	},
})

// standardizeBpOp is libnd4j's standardize_bp: inputs x, [axes], gradO;
// the gradient of x (std without the 1e-12), NaN made 0.
var standardizeBpOp = Register(&Def{
	Name: "standardize_bp", Type: Custom, MinIn: 2, MaxIn: 3,
	Doc: "gradient of standardize for inputs x, [axes,] gradO",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		g := in[len(in)-1]
		if err := needFloat("standardize_bp", in[0]); err != nil {
			return nil, err
		}
		if err := sameShapeGrad("standardize_bp", in[0], g); err != nil {
			return nil, err
		}
		if len(in) == 2 && len(reduceAxesArg(a)) == 0 {
			return nil, fmt.Errorf("standardize_bp: no axes given")
		}
		return infos(same(in[0])), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x, g := in[0], in[len(in)-1]
		if !ndarray.SameShape(x.Shape(), g.Shape()) {
			return nil, fmt.Errorf("standardize_bp: gradient of shape %v for x of shape %v", g.Shape(), x.Shape())
		}
		ax, err := standardizeAxes("standardize_bp", x, in[:len(in)-1], 1, a)
		if err != nil {
			return nil, err
		}
		cx, s, err := standardizeCore(x, ax)
		if err != nil {
			return nil, err
		}
		// y = (x-μ)/σ; dx = (g - mean(g) - y·mean(g·y))/σ.
		y, err := bin(ndarray.Div, cx, s)
		if err != nil {
			return nil, err
		}
		mg, err := ndarray.Reduce(ndarray.Mean, g, ax, true)
		if err != nil {
			return nil, err
		}
		gy, err := bin(ndarray.Mul, g, y)
		if err != nil {
			return nil, err
		}
		mgy, err := ndarray.Reduce(ndarray.Mean, gy, ax, true)
		if err != nil {
			return nil, err
		}
		t, err := bin(ndarray.Mul, y, mgy)
		if err != nil {
			return nil, err
		}
		dx, err := bin(ndarray.Sub, g, mg)
		if err != nil {
			return nil, err
		}
		if err := ndarray.BinaryInto(ndarray.Sub, dx, dx, t); err != nil {
			return nil, err
		}
		if err := ndarray.BinaryInto(ndarray.Div, dx, dx, s); err != nil {
			return nil, err
		}
		return one(dx, replaceNaN(dx))
	},
})

// zeroFractionOp is libnd4j's zero_fraction: the fraction of x's elements
// that are 0, a float64 scalar (0 for an empty x).
var zeroFractionOp = Register(&Def{
	Name: "zero_fraction", Type: Custom, MinIn: 1, MaxIn: 1,
	Doc: "the fraction of elements that are zero (float64 scalar)",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		if err := needNumeric("zero_fraction", in[0]); err != nil {
			return nil, err
		}
		return infos(Info{DType: ndarray.Float64, Shape: []int{}}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x := in[0]
		out := c.Alloc(ndarray.Float64, nil)
		if x.Size() == 0 {
			return one(out, ndarray.CopyInto(out, ndarray.Scalar(0.0)))
		}
		n, err := countReduce(false)(x, nil)
		if err != nil {
			return nil, err
		}
		f := float64(ndarray.Values[int64](n)[0]) / float64(x.Size())
		return one(out, ndarray.CopyInto(out, ndarray.Scalar(f)))
	},
})

// The entropies (legacy reduce-float ops, reduction layout of
// math_reduce.go): entropy -Σ x ln x, logentropy ln(-Σ x ln x),
// shannonentropy -Σ x log₂ x (libnd4j's current definition).

// xLogX returns Σ x·ln x over ax (scaled by s) with kept axes.
func xLogX(x *ndarray.Array, ax []int, s float64) (*ndarray.Array, error) {
	l, err := ndarray.Unary(ndarray.Log, x, 0)
	if err != nil {
		return nil, err
	}
	if err := ndarray.BinaryInto(ndarray.Mul, l, l, x); err != nil {
		return nil, err
	}
	r, err := ndarray.Reduce(ndarray.Sum, l, ax, true)
	if err != nil {
		return nil, err
	}
	return r, ndarray.UnaryInto(ndarray.ScaleBy, r, r, s)
}

func entropyF(scale float64, log bool) func(x *ndarray.Array, ax []int) (*ndarray.Array, error) {
	return func(x *ndarray.Array, ax []int) (*ndarray.Array, error) {
		r, err := xLogX(x, ax, -scale)
		if err != nil || !log {
			return r, err
		}
		return r, ndarray.UnaryInto(ndarray.Log, r, r, 0)
	}
}

// entropyGrad is the rule of the entropies: the output gradient spread
// over x (reduce_sum_bp), times -(ln x + 1)·scale, divided by the entropy
// for logentropy.
func entropyGrad(scale float64, log bool) GradFunc {
	return func(b GradBuilder, n GradNode, d []Value) []Value {
		x := n.In[0]
		args := Args{Dims: reduceAxesDims(n.Args)}
		extra := []Value(nil)
		if len(n.In) > 1 {
			extra = n.In[1:2]
		}
		g := d[0]
		if log {
			// d ln H = dH / H, with H = e^out.
			g = div(b, g, op1(b, "exp", Args{}, n.Out[0]))
		}
		gb := op1(b, "reduce_sum_bp", args, append([]Value{x, g}, extra...)...)
		t := op1(b, "add", Args{}, op1(b, "log", Args{}, x), scalarLike(b, x, 1))
		r := []Value{mul(b, gb, mul(b, t, scalarLike(b, x, -scale)))}
		return append(r, make([]Value, len(n.In)-1)...)
	}
}

var (
	entropyOp        = Register(floatOut(reduceWith("entropy", ReduceFloat, 8, "-Σ x ln x over axes", floatIn, sameDT, entropyF(1, false), entropyGrad(1, false))))
	logEntropyOp     = Register(floatOut(reduceWith("logentropy", ReduceFloat, 9, "ln(-Σ x ln x) over axes", floatIn, sameDT, entropyF(1, true), entropyGrad(1, true))))
	shannonEntropyOp = Register(floatOut(reduceWith("shannonentropy", ReduceFloat, 10, "-Σ x log₂ x over axes", floatIn, sameDT, entropyF(1/math.Ln2, false), entropyGrad(1/math.Ln2, false))))
)
