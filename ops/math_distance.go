package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// SDMath's distances: libnd4j's reduce3 ops, which reduce two arrays of one
// shape over axes. Axes in the dimensions slot (or the int args; none, or
// SameDiff's AllDims marker, means every axis), bool arg 0 keepDims. The
// inputs are floats of one dtype, the result has their dtype.
//
// manhattan Σ|x-y|, euclidean √Σ(x-y)², cosinesimilarity Σxy/(‖x‖‖y‖),
// cosinedistance 1 - cosinesimilarity, jaccarddistance 1 - Σmin(x,y)/Σmax(x,y),
// hammingdistance the fraction of elements where x != y.

// distFunc computes a distance over ax with kept axes.
type distFunc func(x, y *ndarray.Array, ax []int) (*ndarray.Array, error)

func distInfer(name string) func(in []Info, a *Args) ([]Info, error) {
	return func(in []Info, a *Args) ([]Info, error) {
		x, y := in[0], in[1]
		if err := needFloat(name, x); err != nil {
			return nil, err
		}
		if y.DType != x.DType {
			return nil, fmt.Errorf("%s: x is %v, y %v", name, x.DType, y.DType)
		}
		if !x.UnknownRank && !y.UnknownRank && !(Info{Shape: x.Shape}).Admits(y.Shape) {
			return nil, fmt.Errorf("%s: x of shape %v and y of shape %v differ", name, x.Shape, y.Shape)
		}
		o, err := reduceInfo(name, in[:1], &Args{Dims: reduceAxesDims(a), B: []bool{a.Bool(0, false)}})
		if err != nil {
			return nil, err
		}
		return infos(o), nil
	}
}

func distDef(name string, num int64, doc string, f distFunc, grad GradFunc) *Def {
	return &Def{
		Name: name, Type: Reduce3, Num: num, MinIn: 2, MaxIn: 2, Doc: doc, Grad: grad,
		Infer: distInfer(name),
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			x, y := in[0], in[1]
			if !ndarray.SameShape(x.Shape(), y.Shape()) {
				return nil, fmt.Errorf("%s: x of shape %v and y of shape %v differ", name, x.Shape(), y.Shape())
			}
			ax, err := ndarray.NormAxes(reduceAxesArg(a), x.Rank())
			if err != nil {
				return nil, fmt.Errorf("%s of shape %v: %w", name, x.Shape(), err)
			}
			r, err := f(x, y, ax)
			if err != nil {
				return nil, err
			}
			return one(ndarray.Reshape(r, ndarray.ReducedShape(x.Shape(), ax, a.Bool(0, false))...))
		},
	}
}

func manhattan(x, y *ndarray.Array, ax []int) (*ndarray.Array, error) {
	d, err := bin(ndarray.Sub, x, y)
	if err != nil {
		return nil, err
	}
	return absReduce(ndarray.Sum)(d, ax)
}

func euclidean(x, y *ndarray.Array, ax []int) (*ndarray.Array, error) {
	d, err := bin(ndarray.Sub, x, y)
	if err != nil {
		return nil, err
	}
	return norm2(d, ax)
}

func cosineSim(x, y *ndarray.Array, ax []int) (*ndarray.Array, error) {
	p, err := bin(ndarray.Mul, x, y)
	if err != nil {
		return nil, err
	}
	s, err := ndarray.Reduce(ndarray.Sum, p, ax, true)
	if err != nil {
		return nil, err
	}
	nx, err := norm2(x, ax)
	if err != nil {
		return nil, err
	}
	ny, err := norm2(y, ax)
	if err != nil {
		return nil, err
	}
	if err := ndarray.BinaryInto(ndarray.Mul, nx, nx, ny); err != nil {
		return nil, err
	}
	return s, ndarray.BinaryInto(ndarray.Div, s, s, nx)
}

// oneMinus returns f's 1 - result.
func oneMinus(f distFunc) distFunc {
	return func(x, y *ndarray.Array, ax []int) (*ndarray.Array, error) {
		r, err := f(x, y, ax)
		if err != nil {
			return nil, err
		}
		return r, ndarray.BinaryInto(ndarray.Sub, r, scalarAs(r, 1), r)
	}
}

func jaccardSim(x, y *ndarray.Array, ax []int) (*ndarray.Array, error) {
	lo, err := bin(ndarray.Minimum, x, y)
	if err != nil {
		return nil, err
	}
	hi, err := bin(ndarray.Maximum, x, y)
	if err != nil {
		return nil, err
	}
	n, err := ndarray.Reduce(ndarray.Sum, lo, ax, true)
	if err != nil {
		return nil, err
	}
	d, err := ndarray.Reduce(ndarray.Sum, hi, ax, true)
	if err != nil {
		return nil, err
	}
	return n, ndarray.BinaryInto(ndarray.Div, n, n, d)
}

func hamming(x, y *ndarray.Array, ax []int) (*ndarray.Array, error) {
	ne, err := mask(nil, ndarray.Ne, x, y, x)
	if err != nil {
		return nil, err
	}
	return ndarray.Reduce(ndarray.Mean, ne, ax, true)
}

// Gradient rules, composites: r.spread(v) carries a reduced value v back
// over x's shape (reduce_sum_bp with the forward axes), r.sum(v) is Σv over
// the forward axes.

type distRule struct {
	b    GradBuilder
	x, y Value
	axes []int
}

func (r distRule) spread(v Value) Value {
	return op1(r.b, "reduce_sum_bp", Args{Dims: r.axes}, r.x, v)
}

func (r distRule) sum(v Value) Value {
	return op1(r.b, "reduce_sum", Args{Dims: r.axes, B: []bool{true}}, v)
}

// sumSpread is Σv over the axes, spread back over x's shape.
func (r distRule) sumSpread(v Value) Value { return r.spread(r.sum(v)) }

func distGrad(f func(r distRule, out Value) (dx, dy Value)) GradFunc {
	return func(b GradBuilder, n GradNode, d []Value) []Value {
		r := distRule{b: b, x: n.In[0], y: n.In[1], axes: reduceAxesDims(n.Args)}
		gb := r.spread(d[0])
		dx, dy := f(r, n.Out[0])
		return []Value{mul(b, gb, dx), mul(b, gb, dy)}
	}
}

func sub(b GradBuilder, x, y Value) Value { return op1(b, "subtract", Args{}, x, y) }

// cosineParts returns sgn·(∂c/∂x, ∂c/∂y) for c = Σxy/(‖x‖‖y‖), with cb
// the similarity spread over x's shape.
func cosineParts(r distRule, cb Value, sgn float64) (Value, Value) {
	b, x, y := r.b, r.x, r.y
	a := r.sumSpread(op1(b, "square", Args{}, x))
	c := r.sumSpread(op1(b, "square", Args{}, y))
	q := op1(b, "sqrt", Args{}, mul(b, a, c))
	dx := sub(b, div(b, y, q), div(b, mul(b, cb, x), a))
	dy := sub(b, div(b, x, q), div(b, mul(b, cb, y), c))
	if sgn < 0 {
		return neg(b, dx), neg(b, dy)
	}
	return dx, dy
}

var (
	manhattanOp = Register(distDef("manhattan", 0, "Σ|x-y| over axes", manhattan,
		distGrad(func(r distRule, _ Value) (Value, Value) {
			s := op1(r.b, "sign", Args{}, sub(r.b, r.x, r.y))
			return s, neg(r.b, s)
		})))
	euclideanOp = Register(distDef("euclidean", 1, "√Σ(x-y)² over axes", euclidean,
		distGrad(func(r distRule, out Value) (Value, Value) {
			// (x-y)/d, 0 where d is 0 (x = y: the norm's kink).
			q := op1(r.b, "divide_no_nan", Args{}, sub(r.b, r.x, r.y), r.spread(out))
			return q, neg(r.b, q)
		})))
	cosineSimilarityOp = Register(distDef("cosinesimilarity", 2, "Σxy/(‖x‖·‖y‖) over axes", cosineSim,
		distGrad(func(r distRule, out Value) (Value, Value) { return cosineParts(r, r.spread(out), 1) })))
	cosineDistanceOp = Register(distDef("cosinedistance", 5, "1 - Σxy/(‖x‖·‖y‖) over axes", oneMinus(cosineSim),
		distGrad(func(r distRule, out Value) (Value, Value) {
			return cosineParts(r, sub(r.b, scalarLike(r.b, r.x, 1), r.spread(out)), -1)
		})))
	jaccardDistanceOp = Register(distDef("jaccarddistance", 6, "1 - Σmin(x,y)/Σmax(x,y) over axes", oneMinus(jaccardSim),
		distGrad(func(r distRule, _ Value) (Value, Value) {
			// J = 1 - N/D: ∂J/∂x = (N·[x>y] - D·[x<y])/D², with
			// [x>y] = (1+sign(x-y))/2 off the ties.
			b, x, y := r.b, r.x, r.y
			nb := r.sumSpread(op1(b, "minimum", Args{}, x, y))
			db := r.sumSpread(op1(b, "maximum", Args{}, x, y))
			half := scalarLike(b, x, 0.5)
			s := mul(b, op1(b, "sign", Args{}, sub(b, x, y)), half)
			gt := op1(b, "add", Args{}, half, s) // [x>y]
			lt := sub(b, half, s)                // [x<y]
			d2 := op1(b, "square", Args{}, db)
			dx := div(b, sub(b, mul(b, nb, gt), mul(b, db, lt)), d2)
			dy := div(b, sub(b, mul(b, nb, lt), mul(b, db, gt)), d2)
			return dx, dy
		})))
	hammingDistanceOp = Register(distDef("hammingdistance", 7, "fraction of elements where x != y over axes", hamming, nil))
)
