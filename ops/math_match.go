package ops

import (
	"fmt"
	"math"

	"github.com/sdgo/sdgo/ndarray"
)

// Conditions and the index ops built on them: match_condition_transform
// (legacy transform-bool 5), match_condition (legacy reduce-long 2),
// first_index and last_index (legacy index-reduce 4 and 5), with ismax,
// is_non_decreasing and is_strictly_increasing.
//
// A condition is libnd4j's MatchCondition, in the float args (the op's
// extra params): compare, eps, mode. The modes:
//
//	0 |x - compare| <= eps     1 |x - compare| > eps
//	2 x < compare              3 x > compare
//	4 x <= compare             5 x >= compare
//	6 |x| < compare            7 |x| > compare
//	8 x is ±Inf                9 x is NaN
//	10 x == compare            11 x != compare
//	12 |x| >= compare          13 |x| <= compare
//	14 x is finite             15 x is Inf or NaN
//
// Reductions take their axes from the dimensions slot (none, or AllDims,
// means every axis) and keepDims from bool arg 0.

// condArgs checks and returns a condition's compare, eps and mode.
func condArgs(name string, a *Args) (compare, eps float64, mode int, err error) {
	if len(a.F) < 3 {
		return 0, 0, 0, fmt.Errorf("%s needs float args compare, eps, mode; got %v", name, a.F)
	}
	mode = int(a.F[2])
	if float64(mode) != a.F[2] || mode < 0 || mode > 15 {
		return 0, 0, 0, fmt.Errorf("%s: condition mode %v is not one of 0..15", name, a.F[2])
	}
	return a.F[0], a.F[1], mode, nil
}

// condOf returns the condition as a test of one element, computed in T
// (compare and eps in T, as libnd4j has them). Modes 0 to 13 are those of
// the compare-and-replace ops (condHolds); MatchCondition's 14 and 15 test
// for a finite value and for an infinite or NaN one, where those ops read
// 14 and 15 otherwise.
func condOf[T float32 | float64](compare, eps T, mode int) func(T) bool {
	switch mode {
	case 14:
		return func(v T) bool { return !math.IsInf(float64(v), 0) && v == v }
	case 15:
		return func(v T) bool { return math.IsInf(float64(v), 0) || v != v }
	}
	return func(v T) bool { return condHolds(mode, v, v, compare, eps) }
}

// condValues returns, for each element of a in C order, whether the
// condition holds: float32 tested in float32, other dtypes in float64.
func condValues(name string, a *ndarray.Array, args *Args) ([]bool, error) {
	compare, eps, mode, err := condArgs(name, args)
	if err != nil {
		return nil, err
	}
	out := make([]bool, a.Size())
	if a.DType() == ndarray.Float32 {
		f := condOf(float32(compare), float32(eps), mode)
		for i, v := range ndarray.Values[float32](a) {
			out[i] = f(v)
		}
		return out, nil
	}
	f := condOf(compare, eps, mode)
	for i, v := range a.Float64s() {
		out[i] = f(v)
	}
	return out, nil
}

func needCondInput(name string, x Info, a *Args) error {
	if err := needNumeric(name, x); err != nil {
		return err
	}
	_, _, _, err := condArgs(name, a)
	return err
}

// matchTransformOp is libnd4j's match_condition_transform: a bool array,
// true where x meets the condition.
var matchTransformOp = Register(&Def{
	Name: "match_condition_transform", Type: TransformBool, Num: 5, MinIn: 1, MaxIn: 1,
	Doc: "true where x meets the condition (float args compare, eps, mode)",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		if err := needCondInput("match_condition_transform", in[0], a); err != nil {
			return nil, err
		}
		return infos(Info{DType: ndarray.Bool, Shape: in[0].Shape, UnknownRank: in[0].UnknownRank}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		m, err := condValues("match_condition_transform", in[0], a)
		if err != nil {
			return nil, err
		}
		return one(ndarray.FromSlice(m, in[0].Shape()...))
	},
})

// grouped permutes x so that the axes ax come last and returns how many
// groups there are (the kept elements) and how long each is.
func grouped(x *ndarray.Array, ax []int) (p *ndarray.Array, outer, inner int, err error) {
	if p, err = ndarray.Permute(x, permOf(x.Rank(), ax)...); err != nil {
		return nil, 0, 0, err
	}
	inner = int(groupSize(x, ax))
	outer = shapeProduct(ndarray.ReducedShape(x.Shape(), ax, false))
	return p, outer, inner, nil
}

func shapeProduct(s []int) int {
	n := 1
	for _, d := range s {
		n *= d
	}
	return n
}

// condReduce defines a reduction of the condition's truth values over axes.
func condReduce(name string, t OpType, num int64, doc string, f func(m []bool) int64) *Def {
	return &Def{
		Name: name, Type: t, Num: num, MinIn: 1, MaxIn: 1, Doc: doc,
		Infer: func(in []Info, a *Args) ([]Info, error) {
			if err := needCondInput(name, in[0], a); err != nil {
				return nil, err
			}
			o, err := reduceInfo(name, in, &Args{Dims: reduceAxesDims(a), B: []bool{a.Bool(0, false)}})
			if err != nil {
				return nil, err
			}
			o.DType = ndarray.Int64
			return infos(o), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			x := in[0]
			ax, err := ndarray.NormAxes(reduceAxesArg(a), x.Rank())
			if err != nil {
				return nil, fmt.Errorf("%s of shape %v: %w", name, x.Shape(), err)
			}
			p, outer, inner, err := grouped(x, ax)
			if err != nil {
				return nil, err
			}
			m, err := condValues(name, p, a)
			if err != nil {
				return nil, err
			}
			if err := reserve[int64](name, outer); err != nil {
				return nil, err // outer is not bounded by x's size when inner is 0
			}
			out := make([]int64, outer)
			for i := range out {
				out[i] = f(m[i*inner : (i+1)*inner])
			}
			return one(ndarray.FromSlice(out, ndarray.ReducedShape(x.Shape(), ax, a.Bool(0, false))...))
		},
	}
}

var (
	matchConditionOp = Register(condReduce("match_condition", ReduceLong, 2, "the number of elements meeting the condition over axes (int64)", func(m []bool) int64 {
		n := int64(0)
		for _, b := range m {
			if b {
				n++
			}
		}
		return n
	}))
	firstIndexOp = Register(condReduce("first_index", IndexReduce, 4, "the index of the first element meeting the condition over axes, -1 if none (int64)", func(m []bool) int64 {
		for i, b := range m {
			if b {
				return int64(i)
			}
		}
		return -1
	}))
	lastIndexOp = Register(condReduce("last_index", IndexReduce, 5, "the index of the last element meeting the condition over axes, -1 if none (int64)", func(m []bool) int64 {
		for i := len(m) - 1; i >= 0; i-- {
			if m[i] {
				return int64(i)
			}
		}
		return -1
	}))
)

// isMaxOp is libnd4j's ismax: 1 at the (first) largest element of each
// group over the axes (int args; none means every axis), 0 elsewhere, in
// x's dtype.
var isMaxOp = Register(&Def{
	Name: "ismax", Type: Custom, MinIn: 1, MaxIn: 1,
	Doc: "1 at the first largest element over axes, 0 elsewhere",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		if err := needNumeric("ismax", in[0]); err != nil {
			return nil, err
		}
		if _, err := reduceInfo("ismax", in, &Args{Dims: reduceAxesDims(a)}); err != nil {
			return nil, err
		}
		return infos(same(in[0])), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x := in[0]
		ax, err := ndarray.NormAxes(reduceAxesArg(a), x.Rank())
		if err != nil {
			return nil, fmt.Errorf("ismax of shape %v: %w", x.Shape(), err)
		}
		p, outer, inner, err := grouped(x, ax)
		if err != nil {
			return nil, err
		}
		// Mark in the permuted layout, then permute back.
		mark := make([]float64, x.Size())
		v := p.Float64s()
		for i := range outer {
			best := -1
			for j := range inner {
				k := i*inner + j
				if best < 0 || v[k] > v[best] {
					best = k
				}
			}
			if best >= 0 {
				mark[best] = 1
			}
		}
		pm, err := ndarray.Wrap(mark, p.Shape()...)
		if err != nil {
			return nil, err
		}
		inv := make([]int, x.Rank())
		perm := permOf(x.Rank(), ax)
		for i, d := range perm {
			inv[d] = i
		}
		back, err := ndarray.Permute(pm, inv...)
		if err != nil {
			return nil, err
		}
		out := c.Alloc(x.DType(), x.Shape())
		return one(out, ndarray.CastInto(out, back))
	},
})

// permOf is grouped's permutation: the kept axes, then ax.
func permOf(rank int, ax []int) []int {
	in := map[int]bool{}
	for _, i := range ax {
		in[i] = true
	}
	var perm []int
	for i := range rank {
		if !in[i] {
			perm = append(perm, i)
		}
	}
	return append(perm, ax...)
}

// monotoneDef defines is_non_decreasing (strict false) or
// is_strictly_increasing: a bool scalar, true when x's elements in C order
// never decrease (always increase); true for fewer than two elements.
func monotoneDef(name string, strict bool) *Def {
	return &Def{
		Name: name, Type: Custom, MinIn: 1, MaxIn: 1,
		Doc: "true when x's elements (in C order) " + map[bool]string{false: "never decrease", true: "always increase"}[strict],
		Infer: func(in []Info, a *Args) ([]Info, error) {
			if err := needNumeric(name, in[0]); err != nil {
				return nil, err
			}
			return infos(Info{DType: ndarray.Bool, Shape: []int{}}), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			var ok bool
			if in[0].DType() == ndarray.Float32 {
				ok = monotone(ndarray.Values[float32](in[0]), strict)
			} else {
				ok = monotone(in[0].Float64s(), strict)
			}
			return one(ndarray.Scalar(ok), nil)
		},
	}
}

func monotone[T float32 | float64](v []T, strict bool) bool {
	for i := 1; i < len(v); i++ {
		if v[i] < v[i-1] || strict && v[i] == v[i-1] || v[i] != v[i] || v[i-1] != v[i-1] {
			return false
		}
	}
	return true
}

var (
	isNonDecreasingOp      = Register(monotoneDef("is_non_decreasing", false))
	isStrictlyIncreasingOp = Register(monotoneDef("is_strictly_increasing", true))
)
