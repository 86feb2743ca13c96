package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// Clipping (SDBaseOps and SDMath): ClipByValue (float args min, max),
// clipbynorm and clipbyavgnorm (float arg 0 the largest norm, int args the
// axes over which the norm is taken; none means every axis), with their
// backprop ops (inputs x, gradO; the forward op's args).

func clipBounds(name string, a *Args) (lo, hi float64, err error) {
	if len(a.F) < 2 {
		return 0, 0, fmt.Errorf("%s needs float args min and max, got %v", name, a.F)
	}
	lo, hi = a.F[0], a.F[1]
	if lo > hi {
		return 0, 0, fmt.Errorf("%s: min %v is above max %v", name, lo, hi)
	}
	return lo, hi, nil
}

// clipByValueOp is SameDiff's ClipByValue: x limited to [min, max] (float
// args 0 and 1), in x's dtype. Its number is the hash of libnd4j's
// name, clipbyvalue (Java looks the lowercased name up).
var clipByValueOp = Register(&Def{
	Name: "ClipByValue", Aliases: []string{"clipbyvalue"}, Type: Custom, Num: Hash("clipbyvalue"), MinIn: 1, MaxIn: 1,
	Doc: "x limited to [min, max] (float args min, max)",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		if err := needNumeric("ClipByValue", in[0]); err != nil {
			return nil, err
		}
		if _, _, err := clipBounds("ClipByValue", a); err != nil {
			return nil, err
		}
		return infos(same(in[0])), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		lo, hi, err := clipBounds("ClipByValue", a)
		if err != nil {
			return nil, err
		}
		x := in[0]
		out := c.Alloc(x.DType(), x.Shape())
		if err := ndarray.BinaryInto(ndarray.Maximum, out, x, scalarAs(x, lo)); err != nil {
			return nil, err
		}
		return one(out, ndarray.BinaryInto(ndarray.Minimum, out, out, scalarAs(x, hi)))
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		if !n.In[0].Info().DType.IsFloat() {
			return []Value{nil}
		}
		return b.Op("clipbyvalue_bp", n.Args.Clone(), n.In[0], d[0])
	},
})

// clipByValueBpOp is ClipByValue's gradient (sdgo's own op): gradO where
// min <= x <= max, else 0.
var clipByValueBpOp = Register(gradOfInput(bpDef("clipbyvalue_bp", 1, "gradient of ClipByValue for inputs x, gradO: gradO where min <= x <= max, else 0",
	func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		lo, hi, err := clipBounds("clipbyvalue_bp", a)
		if err != nil {
			return nil, err
		}
		x, g := in[0], in[1]
		if !ndarray.SameShape(x.Shape(), g.Shape()) {
			return nil, fmt.Errorf("clipbyvalue_bp: gradient of shape %v for x of shape %v", g.Shape(), x.Shape())
		}
		ge, err := mask(nil, ndarray.Ge, x, scalarAs(x, lo), g)
		if err != nil {
			return nil, err
		}
		le, err := mask(nil, ndarray.Le, x, scalarAs(x, hi), g)
		if err != nil {
			return nil, err
		}
		return one(mulAll(g, ge, le))
	})))

// clipNormPlan returns, for each group of x over the axes, the norm ‖x‖
// and the limit it is compared with (clip, or clip·n for the average norm
// ‖x‖/n), with kept axes.
func clipNormPlan(name string, x *ndarray.Array, a *Args, avg bool) (norm *ndarray.Array, limit float64, ax []int, err error) {
	if len(a.F) < 1 {
		return nil, 0, nil, fmt.Errorf("%s needs float arg 0, the clip norm", name)
	}
	if ax, err = ndarray.NormAxes(reduceAxesArg(a), x.Rank()); err != nil {
		return nil, 0, nil, fmt.Errorf("%s of shape %v: %w", name, x.Shape(), err)
	}
	if norm, err = norm2(x, ax); err != nil {
		return nil, 0, nil, err
	}
	limit = a.F[0]
	if avg {
		limit *= groupSize(x, ax)
	}
	return norm, limit, ax, nil
}

// clipNormFactor returns limit/‖x‖ where ‖x‖ > limit, else 1 (kept axes).
func clipNormFactor(norm *ndarray.Array, limit float64) (*ndarray.Array, error) {
	over, err := mask(nil, ndarray.Gt, norm, scalarAs(norm, limit), norm)
	if err != nil {
		return nil, err
	}
	// factor = 1 + over·(limit/‖x‖ - 1); ‖x‖ > limit >= 0 where over is 1.
	_, nz, err := zeroMask(norm)
	if err != nil {
		return nil, err
	}
	f, err := bin(ndarray.Div, scalarAs(norm, limit), nz)
	if err != nil {
		return nil, err
	}
	if err := ndarray.BinaryInto(ndarray.Sub, f, f, scalarAs(norm, 1)); err != nil {
		return nil, err
	}
	if err := ndarray.BinaryInto(ndarray.Mul, f, f, over); err != nil {
		return nil, err
	}
	return f, ndarray.BinaryInto(ndarray.Add, f, f, scalarAs(norm, 1))
}

func clipNormDef(name string, avg bool, doc string) *Def {
	return &Def{
		Name: name, Type: Custom, MinIn: 1, MaxIn: 1, Doc: doc,
		Infer: func(in []Info, a *Args) ([]Info, error) {
			if err := needFloat(name, in[0]); err != nil {
				return nil, err
			}
			if len(a.F) < 1 {
				return nil, fmt.Errorf("%s needs float arg 0, the clip norm", name)
			}
			if _, err := reduceInfo(name, in, &Args{Dims: reduceAxesDims(a)}); err != nil {
				return nil, err
			}
			return infos(same(in[0])), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			x := in[0]
			norm, limit, _, err := clipNormPlan(name, x, a, avg)
			if err != nil {
				return nil, err
			}
			f, err := clipNormFactor(norm, limit)
			if err != nil {
				return nil, err
			}
			out := c.Alloc(x.DType(), x.Shape())
			return one(out, ndarray.BinaryInto(ndarray.Mul, out, x, f))
		},
		Grad: bpOp(name + "_bp"),
	}
}

// clipNormBpDef: where ‖x‖ > limit, y = limit·x/‖x‖ and
// dx = limit/‖x‖·(g - x·Σ(g·x)/‖x‖²); elsewhere dx = g.
func clipNormBpDef(name string, avg bool) *Def {
	return gradOfInput(bpDef(name, 1, "gradient of "+name[:len(name)-3]+" for inputs x, gradO", func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x, g := in[0], in[1]
		if !ndarray.SameShape(x.Shape(), g.Shape()) {
			return nil, fmt.Errorf("%s: gradient of shape %v for x of shape %v", name, g.Shape(), x.Shape())
		}
		norm, limit, ax, err := clipNormPlan(name, x, a, avg)
		if err != nil {
			return nil, err
		}
		f, err := clipNormFactor(norm, limit)
		if err != nil {
			return nil, err
		}
		over, err := mask(nil, ndarray.Gt, norm, scalarAs(norm, limit), norm)
		if err != nil {
			return nil, err
		}
		gx, err := bin(ndarray.Mul, g, x)
		if err != nil {
			return nil, err
		}
		s, err := ndarray.Reduce(ndarray.Sum, gx, ax, true)
		if err != nil {
			return nil, err
		}
		// s·over/‖x‖² (0 where not clipped).
		_, nz, err := zeroMask(norm)
		if err != nil {
			return nil, err
		}
		n2, err := bin(ndarray.Mul, nz, nz)
		if err != nil {
			return nil, err
		}
		if s, err = mulAll(s, over); err != nil {
			return nil, err
		}
		if err := ndarray.BinaryInto(ndarray.Div, s, s, n2); err != nil {
			return nil, err
		}
		t, err := bin(ndarray.Mul, x, s)
		if err != nil {
			return nil, err
		}
		d, err := bin(ndarray.Sub, g, t)
		if err != nil {
			return nil, err
		}
		return one(d, ndarray.BinaryInto(ndarray.Mul, d, d, f))
	}))
}

var (
	clipByNormOp      = Register(clipNormDef("clipbynorm", false, "x scaled down to norm clip where ‖x‖ over the axes exceeds it (float arg clip, int args axes)"))
	clipByAvgNormOp   = Register(clipNormDef("clipbyavgnorm", true, "x scaled down where its average norm ‖x‖/n over the axes exceeds clip (float arg clip, int args axes)"))
	clipByNormBpOp    = Register(clipNormBpDef("clipbynorm_bp", false))
	clipByAvgNormBpOp = Register(clipNormBpDef("clipbyavgnorm_bp", true))
)
