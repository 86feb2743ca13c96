package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// Reductions take their axes from the dimensions slot, the integer
// arguments, or an optional second input (an integer array, as TensorFlow
// imports have it); no axes means every axis. Bool argument 0 is keepDims.

// ReduceArgs returns the arguments of a reduction over axes.
func ReduceArgs(keepDims bool, axes ...int) Args {
	return Args{Dims: append([]int(nil), axes...), B: []bool{keepDims}}
}

// AllDims is SameDiff's "no dimensions here" marker (Integer.MAX_VALUE) in a
// reduction's dimensions slot: the axes come from the second input, or are all.
const AllDims = 1<<31 - 1

func reduceAxesArg(a *Args) []int {
	if len(a.Dims) == 1 && a.Dims[0] == AllDims {
		return nil
	}
	if len(a.Dims) > 0 {
		return a.Dims
	}
	return intsOf(a.I)
}

// reduceInfo infers a reduction's output from its input and axes (nil axes
// from an unknown second input).
func reduceInfo(name string, in []Info, a *Args) (Info, error) {
	x := in[0]
	keep := a.Bool(0, false)
	axes := reduceAxesArg(a)
	if len(in) > 1 {
		v, ok := constInts(in[1])
		if !ok {
			if keep && !x.UnknownRank {
				return Info{DType: x.DType, Shape: unknownShape(len(x.Shape))}, nil
			}
			return Info{DType: x.DType, UnknownRank: true}, nil
		}
		axes = v
	}
	if x.UnknownRank {
		return Info{DType: x.DType, UnknownRank: true}, nil
	}
	ax, err := ndarray.NormAxes(axes, len(x.Shape))
	if err != nil {
		return Info{}, fmt.Errorf("%s of shape %v: %w", name, x.Shape, err)
	}
	return Info{DType: x.DType, Shape: ndarray.ReducedShape(x.Shape, ax, keep)}, nil
}

func runAxes(in []*ndarray.Array, a *Args) ([]int, error) {
	if len(in) > 1 {
		return arrayInts("the axes input", in[1])
	}
	return reduceAxesArg(a), nil
}

func reduceDef(name string, op ndarray.ReduceOp, doc string) *Def {
	return &Def{
		Name: name, Type: Custom, MinIn: 1, MaxIn: 2, Doc: doc, NonDiff: []int{1},
		Infer: func(in []Info, a *Args) ([]Info, error) {
			if op == ndarray.All || op == ndarray.Any {
				if in[0].DType != ndarray.Bool {
					return nil, fmt.Errorf("%s needs a bool input, not %v", name, in[0].DType)
				}
			} else if err := needNumeric(name, in[0]); err != nil {
				return nil, err
			}
			o, err := reduceInfo(name, in, a)
			if err != nil {
				return nil, err
			}
			return infos(o), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			axes, err := runAxes(in, a)
			if err != nil {
				return nil, err
			}
			ax, err := ndarray.NormAxes(axes, in[0].Rank())
			if err != nil {
				return nil, fmt.Errorf("%s of shape %v: %w", name, in[0].Shape(), err)
			}
			out := c.Alloc(in[0].DType(), ndarray.ReducedShape(in[0].Shape(), ax, a.Bool(0, false)))
			return one(out, ndarray.ReduceInto(op, out, in[0], ax))
		},
	}
}

var (
	ReduceSumOp  = Register(legacy(reduceDef("reduce_sum", ndarray.Sum, "sum over axes"), ReduceSame, 0))
	ReduceMeanOp = Register(legacy(reduceDef("reduce_mean", ndarray.Mean, "mean over axes"), ReduceFloat, 0))
	ReduceMaxOp  = Register(legacy(reduceDef("reduce_max", ndarray.Max, "largest element over axes"), ReduceSame, 1))
	ReduceMinOp  = Register(legacy(reduceDef("reduce_min", ndarray.Min, "smallest element over axes"), ReduceSame, 2))
	ReduceProdOp = Register(legacy(reduceDef("reduce_prod", ndarray.Prod, "product over axes"), ReduceSame, 3))
	AllOp        = Register(legacy(reduceDef("all", ndarray.All, "true if every element over axes is true"), ReduceBool, 1))
	AnyOp        = Register(legacy(reduceDef("any", ndarray.Any, "true if some element over axes is true"), ReduceBool, 0))
)

// Index reductions: the position of the largest or smallest element along
// one axis (every axis, flattened, when none is given), as int64.

func argDef(name string, isMax bool, doc string) *Def {
	return &Def{
		Name: name, Type: Custom, MinIn: 1, MaxIn: 2, Doc: doc, NonDiff: []int{0, 1},
		Infer: func(in []Info, a *Args) ([]Info, error) {
			if err := needNumeric(name, in[0]); err != nil {
				return nil, err
			}
			o, err := reduceInfo(name, in, a)
			if err != nil {
				return nil, err
			}
			if !o.UnknownRank && len(reduceAxesArg(a)) > 1 {
				return nil, fmt.Errorf("%s takes one axis, not %v", name, reduceAxesArg(a))
			}
			o.DType = ndarray.Int64
			return infos(o), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			axes, err := runAxes(in, a)
			if err != nil {
				return nil, err
			}
			keep := a.Bool(0, false)
			x := in[0]
			switch len(axes) {
			case 0:
				flat, err := ndarray.Reshape(x, -1)
				if err != nil {
					return nil, err
				}
				r, err := argCall(isMax, flat, 0, false)
				if err != nil || !keep {
					return one(r, err)
				}
				ones := make([]int, x.Rank())
				for i := range ones {
					ones[i] = 1
				}
				return one(ndarray.Reshape(r, ones...))
			case 1:
				return one(argCall(isMax, x, axes[0], keep))
			}
			return nil, fmt.Errorf("%s takes one axis, not %v", name, axes)
		},
	}
}

func argCall(isMax bool, x *ndarray.Array, axis int, keep bool) (*ndarray.Array, error) {
	if isMax {
		return ndarray.ArgMax(x, axis, keep)
	}
	return ndarray.ArgMin(x, axis, keep)
}

var (
	ArgMaxOp = Register(argDef("argmax", true, "index of the largest element along an axis"))
	ArgMinOp = Register(argDef("argmin", false, "index of the smallest element along an axis"))
)

// ReduceToShapeOf sums its first input over the axes along which the second
// input was broadcast, giving an array of the second input's shape. Gradient
// rules use it to bring an output gradient back to a broadcast operand.
var ReduceToShapeOfOp = Register(&Def{
	Name: "reduce_to_shape_of", Type: Custom, MinIn: 2, MaxIn: 2, NonDiff: []int{1},
	Doc: "x summed over the axes along which y was broadcast, giving y's shape",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		if err := needNumeric("reduce_to_shape_of", in[0]); err != nil {
			return nil, err
		}
		return infos(Info{DType: in[0].DType, Shape: in[1].Shape, UnknownRank: in[1].UnknownRank}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		return one(SumToShape(in[0], in[1].Shape()))
	},
})

// SumToShape sums x over the axes along which an array of shape was
// broadcast to x's shape. It returns x itself when the shapes are equal.
func SumToShape(x *ndarray.Array, shape []int) (*ndarray.Array, error) {
	if ndarray.SameShape(x.Shape(), shape) {
		return x, nil
	}
	xs := x.Shape()
	if len(shape) > len(xs) {
		return nil, fmt.Errorf("cannot sum shape %v down to %v", xs, shape)
	}
	lead := len(xs) - len(shape)
	var axes []int
	for i := range xs {
		switch {
		case i < lead:
			axes = append(axes, i)
		case shape[i-lead] == 1 && xs[i] != 1:
			axes = append(axes, i)
		case shape[i-lead] != xs[i]:
			return nil, fmt.Errorf("cannot sum shape %v down to %v", xs, shape)
		}
	}
	s, err := ndarray.Reduce(ndarray.Sum, x, axes, true)
	if err != nil {
		return nil, err
	}
	return ndarray.Reshape(s, shape...)
}
