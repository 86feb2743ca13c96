package ops

import (
	"fmt"
	"math"

	"github.com/sdgo/sdgo/ndarray"
)

// Ops of SameDiff's base namespace that create arrays from arguments and
// shapes: range, linspace, fill, zeros_as and ones_as.

// ---------------------------------------------------------------- range

// rangeLen is the number of values of start, start+delta, ... before limit.
func rangeLen(start, limit, delta float64) (int, error) {
	if delta == 0 {
		return 0, fmt.Errorf("range: delta is 0")
	}
	if math.IsNaN(start) || math.IsNaN(limit) || math.IsNaN(delta) || math.IsInf(start, 0) || math.IsInf(limit, 0) {
		return 0, fmt.Errorf("range from %v to %v by %v", start, limit, delta)
	}
	n := math.Ceil((limit - start) / delta)
	if n <= 0 {
		return 0, nil
	}
	if n > 1<<31 {
		return 0, fmt.Errorf("range from %v to %v by %v has %v values, too many", start, limit, delta, n)
	}
	return int(n), nil
}

// intRangeLen is rangeLen for integer bounds, exact over all of int64:
// the distance is taken as an unsigned number, which a float64 (or an
// int64 difference) cannot hold for bounds far apart or near the limits.
func intRangeLen(start, limit, delta int64) (int, error) {
	var dist, step uint64
	switch {
	case delta == 0:
		return 0, fmt.Errorf("range: delta is 0")
	case delta > 0 && limit > start:
		dist, step = uint64(limit)-uint64(start), uint64(delta)
	case delta < 0 && limit < start:
		dist, step = uint64(start)-uint64(limit), -uint64(delta)
	default:
		return 0, nil
	}
	n := (dist-1)/step + 1
	if n > 1<<31 {
		return 0, fmt.Errorf("range from %d to %d by %d has %d values, too many", start, limit, delta, n)
	}
	return int(n), nil
}

// rangeIntBounds returns start, limit and delta as integers when every one
// is given as an integer (integer scalar inputs, or int args without float
// args), so that an integer range is computed without rounding through
// float64; ok is false otherwise, and rangeBounds reads them.
func rangeIntBounds(in []*ndarray.Array, a *Args) (start, limit, delta int64, ok bool) {
	var v []int64
	if len(in) == 0 {
		if len(a.F) != 0 {
			return 0, 0, 0, false
		}
		v = a.I
	} else {
		for _, x := range in {
			if x == nil || !x.DType().IsInt() || x.Size() != 1 {
				return 0, 0, 0, false
			}
			v = append(v, x.Int64s()[0])
		}
	}
	switch len(v) {
	case 1:
		return 0, v[0], 1, true
	case 2:
		return v[0], v[1], 1, true
	case 3:
		return v[0], v[1], v[2], true
	}
	return 0, 0, 0, false
}

// intRangeArray is an Int32 or Int64 range from integer bounds; ok is false
// when the dtype or the bounds are not integers.
func intRangeArray(dt ndarray.DType, in []*ndarray.Array, a *Args, shapeOnly bool) (v *ndarray.Array, n int, ok bool, err error) {
	if dt != ndarray.Int32 && dt != ndarray.Int64 {
		return nil, 0, false, nil
	}
	start, limit, delta, ok := rangeIntBounds(in, a)
	if !ok {
		return nil, 0, false, nil
	}
	if n, err = intRangeLen(start, limit, delta); err != nil || shapeOnly {
		return nil, n, true, err
	}
	if dt == ndarray.Int32 {
		v, err = intRange[int32](start, delta, n)
	} else {
		v, err = intRange[int64](start, delta, n)
	}
	return v, n, true, err
}

// rangeDType is range's output dtype: dtype arg 0, else input 0's
// (a floating-point input among the others wins over an integer start),
// else int64 for int args and float32 for float args.
func rangeDType(dts []ndarray.DType, a *Args) ndarray.DType {
	if dt := a.DType(0, ndarray.Invalid); dt != ndarray.Invalid {
		return dt
	}
	if len(dts) == 0 {
		if len(a.F) == 0 && len(a.I) > 0 {
			return ndarray.Int64
		}
		return ndarray.Float32
	}
	dt := dts[0]
	for _, d := range dts[1:] {
		if !dt.IsFloat() && d.IsFloat() {
			dt = d
		}
	}
	return dt
}

// rangeBounds reads start, limit and delta from 0 to 3 scalars (one: the
// limit; two: start and limit) or from the float args, else the int args.
func rangeBounds(vals [][]float64, a *Args) (start, limit, delta float64, err error) {
	get := func(v []float64, what string) (float64, error) {
		if len(v) != 1 {
			return 0, fmt.Errorf("range: the %s must be one value, not %d", what, len(v))
		}
		return v[0], nil
	}
	start, delta = 0, 1
	switch len(vals) {
	case 0:
		args := a.F
		if len(args) == 0 {
			for _, x := range a.I {
				args = append(args, float64(x))
			}
		}
		switch len(args) {
		case 1:
			limit = args[0]
		case 2:
			start, limit = args[0], args[1]
		case 3:
			start, limit, delta = args[0], args[1], args[2]
		default:
			return 0, 0, 0, fmt.Errorf("range without inputs needs start, limit and delta as float or int args")
		}
		return start, limit, delta, nil
	case 1:
		limit, err = get(vals[0], "limit")
		return
	}
	if start, err = get(vals[0], "start"); err != nil {
		return
	}
	if limit, err = get(vals[1], "limit"); err != nil {
		return
	}
	if len(vals) > 2 {
		delta, err = get(vals[2], "delta")
	}
	return
}

func makeRange(dt ndarray.DType, start, limit, delta float64) (*ndarray.Array, error) {
	n, err := rangeLen(start, limit, delta)
	if err != nil {
		return nil, err
	}
	// Integers exactly, built once in the output dtype, from bounds that
	// int64 holds: converting a float beyond it gives an arbitrary value.
	if dt == ndarray.Int32 || dt == ndarray.Int64 {
		last := start + delta*float64(max(n-1, 0))
		for _, v := range []float64{start, delta, last} {
			if !(v >= -(1<<63) && v < 1<<63) {
				return nil, fmt.Errorf("range from %v to %v by %v: %v is beyond %v", start, limit, delta, v, dt)
			}
		}
	}
	switch dt {
	case ndarray.Int32:
		return intRange[int32](int64(start), int64(delta), n)
	case ndarray.Int64:
		return intRange[int64](int64(start), int64(delta), n)
	}
	return ndarray.Arange(dt, start, delta, n)
}

func intRange[T int32 | int64](start, delta int64, n int) (*ndarray.Array, error) {
	// Allocated by ndarray, which holds to the allocation limit: up to 2^31
	// values made here would end the program, not fail with an error.
	a, err := ndarray.Zeros(ndarray.DTypeOf[T](), n)
	if err != nil {
		return nil, fmt.Errorf("range: %w", err)
	}
	v := ndarray.Raw[T](a)
	for i := range v {
		v[i] = T(start + int64(i)*delta)
	}
	return a, nil
}

// maxInferredRange bounds the ranges whose values shape inference computes
// (for the shape arithmetic of later ops); longer ones only get a shape.
const maxInferredRange = 1 << 12

// rangeOp is libnd4j's range: start, limit (exclusive) and delta as scalar
// inputs (one input: the limit; two: start and limit) or as float args (else
// int args) when there are no inputs; dtype arg 0 sets the output dtype.
var rangeOp = Register(&Def{
	Name: "range", Type: Custom, MinIn: 0, MaxIn: 3, NonDiff: []int{0, 1, 2}, Flags: NoInference,
	Doc: "start, start+delta, ... below limit (inputs start, limit, delta, or float/int args)",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		dts, vals, known, err := numericInfos("range", in)
		if err != nil {
			return nil, err
		}
		dt := rangeDType(dts, a)
		if !dt.Computable() || dt == ndarray.Bool {
			return nil, fmt.Errorf("range of dtype %v", dt)
		}
		if !known {
			return infos(Info{DType: dt, Shape: []int{-1}}), nil
		}
		values := make([]*ndarray.Array, len(in))
		for i, x := range in {
			values[i] = x.Value
		}
		if _, n, ok, err := intRangeArray(dt, values, a, true); ok {
			if err != nil {
				return nil, err
			}
			if n > maxInferredRange {
				return infos(Info{DType: dt, Shape: []int{n}}), nil
			}
			v, _, _, err := intRangeArray(dt, values, a, false)
			if err != nil {
				return nil, err
			}
			return infos(Info{DType: dt, Shape: v.Shape(), Value: v}), nil
		}
		start, limit, delta, err := rangeBounds(vals, a)
		if err != nil {
			return nil, err
		}
		n, err := rangeLen(start, limit, delta)
		if err != nil {
			return nil, err
		}
		if n > maxInferredRange { // the shape, without computing the values
			return infos(Info{DType: dt, Shape: []int{n}}), nil
		}
		v, err := makeRange(dt, start, limit, delta)
		if err != nil {
			return nil, err
		}
		return infos(Info{DType: dt, Shape: v.Shape(), Value: v}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		dts, vals := numericValues(in)
		dt := rangeDType(dts, a)
		if v, _, ok, err := intRangeArray(dt, in, a, false); ok {
			return one(v, err)
		}
		start, limit, delta, err := rangeBounds(vals, a)
		if err != nil {
			return nil, err
		}
		return one(makeRange(dt, start, limit, delta))
	},
})

// numericInfos checks that range's or linspace's inputs are numeric and
// returns their dtypes and, when every one is a constant, their values.
func numericInfos(name string, in []Info) (dts []ndarray.DType, vals [][]float64, known bool, err error) {
	dts, vals, known = make([]ndarray.DType, len(in)), make([][]float64, len(in)), true
	for i, x := range in {
		if err := needNumeric(name, x); err != nil {
			return nil, nil, false, err
		}
		dts[i] = x.DType
		if x.Value == nil {
			known = false
		} else {
			vals[i] = x.Value.Float64s()
		}
	}
	return dts, vals, known, nil
}

// numericValues is numericInfos at run time.
func numericValues(in []*ndarray.Array) ([]ndarray.DType, [][]float64) {
	dts, vals := make([]ndarray.DType, len(in)), make([][]float64, len(in))
	for i, x := range in {
		dts[i], vals[i] = x.DType(), x.Float64s()
	}
	return dts, vals
}

// ---------------------------------------------------------------- linspace

// linspaceArgs reads start, stop and num from the three inputs, or from
// float args 0 and 1 and int arg 0 without inputs.
func linspaceArgs(name string, vals [][]float64, a *Args) (start, stop float64, num int, err error) {
	if len(vals) == 0 {
		if len(a.F) < 2 || len(a.I) < 1 {
			return 0, 0, 0, fmt.Errorf("%s without inputs needs start and stop as float args and num as int arg 0", name)
		}
		start, stop, num = a.F[0], a.F[1], int(a.I[0])
	} else {
		for i, what := range []string{"start", "stop", "num"} {
			if len(vals[i]) != 1 {
				return 0, 0, 0, fmt.Errorf("%s: the %s must be one value, not %d", name, what, len(vals[i]))
			}
		}
		start, stop, num = vals[0][0], vals[1][0], int(vals[2][0])
	}
	if num < 1 {
		return 0, 0, 0, fmt.Errorf("%s: num must be at least 1, not %d", name, num)
	}
	return start, stop, num, nil
}

func linspaceDType(in []ndarray.DType, a *Args) ndarray.DType {
	if dt := a.DType(0, ndarray.Invalid); dt != ndarray.Invalid {
		return dt
	}
	if len(in) > 0 && in[0].IsFloat() {
		return in[0]
	}
	return ndarray.Float32
}

func linspaceDef(name string, t OpType, num int64) *Def {
	return &Def{
		Name: name, Type: t, Num: num, MinIn: 0, MaxIn: 3, NonDiff: []int{0, 1, 2}, Flags: NoInference,
		Doc: "num evenly spaced values from start to stop inclusive: inputs start, stop, num, or float args start, stop and int arg num; dtype arg 0 the dtype",
		Infer: func(in []Info, a *Args) ([]Info, error) {
			if len(in) != 0 && len(in) != 3 {
				return nil, fmt.Errorf("%s takes 0 or 3 inputs (start, stop, num), not %d", name, len(in))
			}
			dts, vals, known, err := numericInfos(name, in)
			if err != nil {
				return nil, err
			}
			dt := linspaceDType(dts, a)
			if !dt.IsFloat() || !dt.Computable() {
				return nil, fmt.Errorf("%s of dtype %v: it needs float32 or float64", name, dt)
			}
			if !known {
				return infos(Info{DType: dt, Shape: []int{-1}}), nil
			}
			_, _, num, err := linspaceArgs(name, vals, a)
			if err != nil {
				return nil, err
			}
			return infos(Info{DType: dt, Shape: []int{num}}), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			dts, vals := numericValues(in)
			start, stop, num, err := linspaceArgs(name, vals, a)
			if err != nil {
				return nil, err
			}
			return one(ndarray.Linspace(linspaceDType(dts, a), start, stop, num))
		},
	}
}

var (
	// linspaceOp is SameDiff's linspace, a legacy random op (RANDOM 4):
	// inputs start, stop, num, with extraParams [start, stop] beside them.
	linspaceOp = Register(linspaceDef("linspace", Random, 4))
	// linSpaceOp is libnd4j's custom lin_space, the same computation.
	linSpaceOp = Register(linspaceDef("lin_space", Custom, 0))
)

// fillDType is dtype arg 0 when given, else def.
func fillDType(a *Args, def ndarray.DType) ndarray.DType { return a.DType(0, def) }

var fillOp = Register(&Def{
	Name: "fill", Type: Custom, MinIn: 1, MaxIn: 2, NonDiff: []int{0, 1},
	Doc: "an array of the shape given by input 0 filled with input 1 (or float arg 0); dtype arg 0 sets the dtype",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		def := ndarray.Float32
		if len(in) > 1 {
			def = in[1].DType
		}
		dt := fillDType(a, def)
		if !dt.Computable() {
			return nil, fmt.Errorf("fill with dtype %v: sdgo cannot compute with it", dt)
		}
		if s, ok := constInts(in[0]); ok {
			return infos(Info{DType: dt, Shape: s}), nil
		}
		if !in[0].UnknownRank && len(in[0].Shape) == 1 && in[0].Shape[0] >= 0 {
			return infos(Info{DType: dt, Shape: unknownShape(in[0].Shape[0])}), nil
		}
		return infos(Info{DType: dt, UnknownRank: true}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		shape, err := arrayInts("fill's shape input", in[0])
		if err != nil {
			return nil, err
		}
		v := a.Float(0, 0)
		def := ndarray.Float32
		if len(in) > 1 {
			if in[1].Size() != 1 {
				return nil, fmt.Errorf("fill: the value input has %d elements, want 1", in[1].Size())
			}
			v = in[1].Float64s()[0]
			def = in[1].DType()
		}
		return one(ndarray.Full(fillDType(a, def), v, shape...))
	},
})

func likeDef(name string, v float64, doc string, aliases ...string) *Def {
	return &Def{
		Name: name, Aliases: aliases, Type: Custom, MinIn: 1, MaxIn: 1, NonDiff: []int{0}, Doc: doc,
		Infer: func(in []Info, a *Args) ([]Info, error) {
			return infos(Info{DType: fillDType(a, in[0].DType), Shape: in[0].Shape, UnknownRank: in[0].UnknownRank}), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			return one(ndarray.Full(fillDType(a, in[0].DType()), v, in[0].Shape()...))
		},
	}
}

var (
	zerosLikeOp = Register(likeDef("zeros_as", 0, "zeros of x's shape (and dtype, unless dtype arg 0 is given)", "zeroslike", "zeros_like"))
	onesLikeOp  = Register(likeDef("ones_as", 1, "ones of x's shape (and dtype, unless dtype arg 0 is given)", "oneslike", "ones_like"))
)
