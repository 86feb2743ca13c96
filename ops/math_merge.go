package ops

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/sdgo/sdgo/ndarray"
)

// SDMath's merges (mergeavg, mergemax, mergemaxindex: elementwise over any
// number of inputs of one shape), meshgrid, embedding_lookup,
// confusion_matrix and listdiff.

// sameInputs checks that the inputs of a merge share a dtype and, as far
// as known, a shape.
func sameInputs(name string, in []Info, float bool) error {
	for i, x := range in {
		check := needNumeric
		if float {
			check = needFloat
		}
		if err := check(name, x); err != nil {
			return err
		}
		if x.DType != in[0].DType {
			return fmt.Errorf("%s: input %d is %v, input 0 %v", name, i, x.DType, in[0].DType)
		}
		if !x.UnknownRank && !in[0].UnknownRank && !(Info{Shape: in[0].Shape}).Admits(x.Shape) {
			return fmt.Errorf("%s: input %d has shape %v, input 0 %v", name, i, x.Shape, in[0].Shape)
		}
	}
	return nil
}

func sameShapes(name string, in []*ndarray.Array) error {
	for i, x := range in {
		if !ndarray.SameShape(x.Shape(), in[0].Shape()) {
			return fmt.Errorf("%s: input %d has shape %v, input 0 %v", name, i, x.Shape(), in[0].Shape())
		}
	}
	return nil
}

// maxIndexOf returns, elementwise, the index of the first input holding
// the largest value.
func maxIndexOf(in []*ndarray.Array) []int {
	idx := make([]int, in[0].Size())
	best := in[0].Float64s()
	for k, x := range in[1:] {
		for i, v := range x.Float64s() {
			if v > best[i] {
				best[i], idx[i] = v, k+1
			}
		}
	}
	return idx
}

var (
	// mergeAvgOp is libnd4j's mergeavg: the elementwise mean of the inputs.
	mergeAvgOp = Register(&Def{
		Name: "mergeavg", Type: Custom, MinIn: 1, MaxIn: -1,
		Doc: "elementwise mean of the inputs",
		Infer: func(in []Info, a *Args) ([]Info, error) {
			if err := sameInputs("mergeavg", in, true); err != nil {
				return nil, err
			}
			return infos(same(in[0])), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			if err := sameShapes("mergeavg", in); err != nil {
				return nil, err
			}
			out := c.Alloc(in[0].DType(), in[0].Shape())
			if err := ndarray.CopyInto(out, in[0]); err != nil {
				return nil, err
			}
			for _, x := range in[1:] {
				if err := ndarray.BinaryInto(ndarray.Add, out, out, x); err != nil {
					return nil, err
				}
			}
			return one(out, ndarray.UnaryInto(ndarray.ScaleBy, out, out, 1/float64(len(in))))
		},
		Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
			return b.Op("mergeavg_bp", Args{}, append(append([]Value(nil), n.In...), d[0])...)
		},
	})
	// mergeMaxOp is libnd4j's mergemax: the elementwise largest input.
	mergeMaxOp = Register(&Def{
		Name: "mergemax", Type: Custom, MinIn: 1, MaxIn: -1,
		Doc: "elementwise largest of the inputs",
		Infer: func(in []Info, a *Args) ([]Info, error) {
			if err := sameInputs("mergemax", in, false); err != nil {
				return nil, err
			}
			return infos(same(in[0])), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			if err := sameShapes("mergemax", in); err != nil {
				return nil, err
			}
			out := c.Alloc(in[0].DType(), in[0].Shape())
			if err := ndarray.CopyInto(out, in[0]); err != nil {
				return nil, err
			}
			for _, x := range in[1:] {
				if err := ndarray.BinaryInto(ndarray.Maximum, out, out, x); err != nil {
					return nil, err
				}
			}
			return one(out, nil)
		},
		Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
			if !n.In[0].Info().DType.IsFloat() {
				return make([]Value, len(n.In))
			}
			return b.Op("mergemax_bp", Args{}, append(append([]Value(nil), n.In...), d[0])...)
		},
	})
	// mergeMaxIndexOp is libnd4j's mergemaxindex: elementwise, the index of
	// the first input holding the largest value, in the dtype of int arg 0
	// (libnd4j's dtype number; default int32).
	mergeMaxIndexOp = Register(&Def{
		Name: "mergemaxindex", Type: Custom, MinIn: 1, MaxIn: -1,
		Doc: "elementwise index of the input holding the largest value (int arg 0: dtype, default int32)",
		Infer: func(in []Info, a *Args) ([]Info, error) {
			if err := sameInputs("mergemaxindex", in, false); err != nil {
				return nil, err
			}
			dt := ndarray.DType(a.Int(0, int64(ndarray.Int32)))
			if !dt.IsInt() {
				return nil, fmt.Errorf("mergemaxindex: the output dtype %v is not an integer type", dt)
			}
			return infos(Info{DType: dt, Shape: in[0].Shape, UnknownRank: in[0].UnknownRank}), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			if err := sameShapes("mergemaxindex", in); err != nil {
				return nil, err
			}
			idx := maxIndexOf(in)
			v := make([]int64, len(idx))
			for i, k := range idx {
				v[i] = int64(k)
			}
			r, err := ndarray.FromSlice(v, in[0].Shape()...)
			if err != nil {
				return nil, err
			}
			out := c.Alloc(ndarray.DType(a.Int(0, int64(ndarray.Int32))), in[0].Shape())
			return one(out, ndarray.CastInto(out, r))
		},
	})
)

// mergeBpInfer: inputs x0..xn-1, gradO; one gradient per input.
func mergeBpInfer(name string) func(in []Info, a *Args) ([]Info, error) {
	return func(in []Info, a *Args) ([]Info, error) {
		if len(in) < 2 {
			return nil, fmt.Errorf("%s takes the inputs and the gradient, got %d inputs", name, len(in))
		}
		if err := sameInputs(name, in, true); err != nil {
			return nil, err
		}
		return sameInfos(in, len(in)-1), nil
	}
}

var (
	mergeAvgBpOp = Register(&Def{
		Name: "mergeavg_bp", Type: Custom, MinIn: 2, MaxIn: -1,
		Doc:   "gradient of mergeavg for inputs x0.., gradO: gradO/n for each",
		Infer: mergeBpInfer("mergeavg_bp"),
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			if err := sameShapes("mergeavg_bp", in); err != nil {
				return nil, err
			}
			g := in[len(in)-1]
			out := make([]*ndarray.Array, len(in)-1)
			for i := range out {
				o := c.Alloc(g.DType(), g.Shape())
				if err := ndarray.UnaryInto(ndarray.ScaleBy, o, g, 1/float64(len(out))); err != nil {
					return nil, err
				}
				out[i] = o
			}
			return out, nil
		},
	})
	mergeMaxBpOp = Register(&Def{
		Name: "mergemax_bp", Type: Custom, MinIn: 2, MaxIn: -1,
		Doc:   "gradient of mergemax for inputs x0.., gradO: gradO to the first input holding the max",
		Infer: mergeBpInfer("mergemax_bp"),
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			if err := sameShapes("mergemax_bp", in); err != nil {
				return nil, err
			}
			xs, g := in[:len(in)-1], in[len(in)-1]
			idx := maxIndexOf(xs)
			out := make([]*ndarray.Array, len(xs))
			for k := range xs {
				m := make([]float64, len(idx))
				for i, j := range idx {
					if j == k {
						m[i] = 1
					}
				}
				mk, err := ndarray.Wrap(m, g.Shape()...)
				if err != nil {
					return nil, err
				}
				if mk, err = ndarray.Cast(mk, g.DType()); err != nil {
					return nil, err
				}
				o := c.Alloc(g.DType(), g.Shape())
				if err := ndarray.BinaryInto(ndarray.Mul, o, g, mk); err != nil {
					return nil, err
				}
				out[k] = o
			}
			return out, nil
		},
	})
)

// meshgridAxes returns, for each of n inputs, the output axis it lies
// along: i, with the first two swapped when swap is set ('xy' indexing).
func meshgridAxes(n int, swap bool) []int {
	ax := make([]int, n)
	for i := range ax {
		ax[i] = i
	}
	if swap && n > 1 {
		ax[0], ax[1] = 1, 0
	}
	return ax
}

// meshgridOp is libnd4j's meshgrid: n vectors give n arrays of shape
// (len x0, len x1, ...), the first two sizes swapped when int arg 0 is 1
// (the default, 'xy' indexing); output i repeats input i along its axis.
var meshgridOp = Register(&Def{
	Name: "meshgrid", Type: Custom, MinIn: 1, MaxIn: -1,
	Doc: "coordinate grids of n vectors (int arg 0: swap the first two axes, default 1)",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		swap := a.Int(0, 1) != 0
		shape := make([]int, len(in))
		for i, x := range in {
			if x.DType != in[0].DType {
				return nil, fmt.Errorf("meshgrid: input %d is %v, input 0 %v", i, x.DType, in[0].DType)
			}
			if err := needNumeric("meshgrid", x); err != nil {
				return nil, err
			}
			if x.UnknownRank {
				shape[i] = -1
				continue
			}
			shape[i] = 1
			for _, d := range x.Shape {
				if d < 0 || shape[i] < 0 {
					shape[i] = -1
				} else {
					shape[i] *= d
				}
			}
		}
		if swap && len(shape) > 1 {
			shape[0], shape[1] = shape[1], shape[0]
		}
		out := make([]Info, len(in))
		for i := range out {
			if len(in) == 1 {
				out[i] = same(in[0])
				continue
			}
			out[i] = Info{DType: in[0].DType, Shape: slices.Clone(shape)}
		}
		return out, nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		if len(in) == 1 {
			out := c.Alloc(in[0].DType(), in[0].Shape())
			return one(out, ndarray.CopyInto(out, in[0]))
		}
		ax := meshgridAxes(len(in), a.Int(0, 1) != 0)
		shape := make([]int, len(in))
		for i, x := range in {
			shape[ax[i]] = x.Size()
		}
		out := make([]*ndarray.Array, len(in))
		for i, x := range in {
			s := make([]int, len(in))
			for j := range s {
				s[j] = 1
			}
			s[ax[i]] = x.Size()
			r, err := ndarray.Reshape(x, s...)
			if err != nil {
				return nil, err
			}
			o := c.Alloc(x.DType(), shape)
			if err := ndarray.CopyInto(o, ndarray.Must(ndarray.BroadcastTo(r, shape...))); err != nil {
				return nil, err
			}
			out[i] = o
		}
		return out, nil
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		if len(n.In) == 1 {
			return []Value{d[0]}
		}
		ax := meshgridAxes(len(n.In), n.Args.Int(0, 1) != 0)
		res := make([]Value, len(n.In))
		for i, x := range n.In {
			if d[i] == nil {
				continue
			}
			var others []int
			for j := range n.In {
				if j != ax[i] {
					others = append(others, j)
				}
			}
			s := op1(b, "reduce_sum", Args{Dims: others, B: []bool{false}}, d[i])
			res[i] = op1(b, "reshape", Args{}, s, op1(b, "shape_of", Args{}, x))
		}
		return res
	},
})

// embeddingLookupOp is libnd4j's embedding_lookup with one table: the rows
// of params (input 0) at the ids (input 1, a vector), as gather on axis 0.
// Int arg 0 (the partition strategy of sharded tables) is unused.
var embeddingLookupOp = Register(&Def{
	Name: "embedding_lookup", Type: Custom, MinIn: 2, MaxIn: 2, NonDiff: []int{1},
	Doc: "the rows of params at the ids (a vector): gather on axis 0",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		p, ids := in[0], in[1]
		if err := needIntInput("embedding_lookup", "the ids", ids); err != nil {
			return nil, err
		}
		if !ids.UnknownRank && len(ids.Shape) != 1 {
			return nil, fmt.Errorf("embedding_lookup: the ids must be a vector, not of shape %v", ids.Shape)
		}
		if p.UnknownRank {
			return infos(Info{DType: p.DType, UnknownRank: true}), nil
		}
		if len(p.Shape) == 0 {
			return nil, fmt.Errorf("embedding_lookup: params must have rank 1 or more, not a scalar")
		}
		n := -1
		if !ids.UnknownRank {
			n = ids.Shape[0]
		}
		return infos(Info{DType: p.DType, Shape: append([]int{n}, p.Shape[1:]...)}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		p, ids := in[0], in[1]
		if p.Rank() == 0 {
			return nil, fmt.Errorf("embedding_lookup: params must have rank 1 or more, not a scalar")
		}
		if ids.Rank() != 1 {
			return nil, fmt.Errorf("embedding_lookup: the ids must be a vector, not of shape %v", ids.Shape())
		}
		idx, err := arrayInts("embedding_lookup ids", ids)
		if err != nil {
			return nil, err
		}
		offs, err := gatherPlan("embedding_lookup", p.Shape(), 0, idx)
		if err != nil {
			return nil, err
		}
		return one(gatherOffsets(p, offs, gatherShape(p.Shape(), 0, ids.Shape())))
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		x := n.In[0]
		g := op1(b, "gather_bp", Args{I: []int64{0}}, op1(b, "shape_of", Args{}, x), n.In[1], d[0])
		return []Value{g, nil}
	},
})

// confusionMatrixOp is libnd4j's confusion_matrix: inputs labels,
// predictions (vectors of class numbers >= 0) and optionally weights of
// their shape; int arg 0 the number of classes (default: the largest class
// seen + 1); dtype arg 0 the output's dtype (default int64). Entry (l, p)
// sums the weights (or counts the pairs) with label l and prediction p.
var confusionMatrixOp = Register(&Def{
	Name: "confusion_matrix", Type: Custom, MinIn: 2, MaxIn: 3, NonDiff: []int{0, 1, 2}, Flags: NoInference,
	Doc: "counts (or weights) of each (label, prediction) pair, numClasses x numClasses",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		const op = "confusion_matrix"
		for i, x := range in {
			if err := needNumeric(op, x); err != nil {
				return nil, err
			}
			if !x.UnknownRank && len(x.Shape) != 1 {
				return nil, fmt.Errorf("%s: input %d must be a vector, not of shape %v", op, i, x.Shape)
			}
			if !x.UnknownRank && !in[0].UnknownRank && !(Info{Shape: in[0].Shape}).Admits(x.Shape) {
				return nil, fmt.Errorf("%s: input %d has shape %v, the labels %v", op, i, x.Shape, in[0].Shape)
			}
		}
		n := int(a.Int(0, -1))
		if len(a.I) == 0 {
			n = -1
		} else if n <= 0 {
			return nil, fmt.Errorf("%s: the number of classes %d is not positive", op, n)
		}
		return infos(Info{DType: a.DType(0, ndarray.Int64), Shape: []int{n, n}}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		const op = "confusion_matrix"
		if err := sameShapes(op, in); err != nil {
			return nil, err
		}
		labels, preds := in[0].Int64s(), in[1].Int64s()
		n := 0
		for i := range labels {
			if labels[i] < 0 || preds[i] < 0 {
				return nil, fmt.Errorf("%s: negative class %d", op, min(labels[i], preds[i]))
			}
			if labels[i] >= math.MaxInt32 || preds[i] >= math.MaxInt32 {
				return nil, fmt.Errorf("%s: class %d is too large", op, max(labels[i], preds[i]))
			}
			n = max(n, int(labels[i])+1, int(preds[i])+1)
		}
		if len(a.I) > 0 {
			k := int(a.I[0])
			if k <= 0 {
				return nil, fmt.Errorf("%s: the number of classes %d is not positive", op, k)
			}
			if n > k {
				return nil, fmt.Errorf("%s: class %d with %d classes", op, n-1, k)
			}
			n = k
		}
		r, err := ndarray.Zeros(ndarray.Float64, n, n)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		m := ndarray.Raw[float64](r)
		var ws []float64
		if len(in) > 2 {
			ws = in[2].Float64s()
		}
		for i := range labels {
			w := 1.0
			if ws != nil {
				w = ws[i]
			}
			m[int(labels[i])*n+int(preds[i])] += w
		}
		return one(ndarray.Cast(r, a.DType(0, ndarray.Int64)))
	},
})

// listDiffOp is libnd4j's listdiff: the elements of the vector x that are
// not in the vector y (same dtype), in order, and their positions in x
// (int64). libnd4j refuses a result with no element.
var listDiffOp = Register(&Def{
	Name: "listdiff", Type: Custom, MinIn: 2, MaxIn: 2, NonDiff: []int{0, 1}, Flags: NoInference,
	Doc: "the elements of x not in y, and their indices in x",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		for i, x := range in {
			if err := needNumeric("listdiff", x); err != nil {
				return nil, err
			}
			if !x.UnknownRank && len(x.Shape) != 1 {
				return nil, fmt.Errorf("listdiff: input %d must be a vector, not of shape %v", i, x.Shape)
			}
		}
		if in[0].DType != in[1].DType {
			return nil, fmt.Errorf("listdiff: x is %v, y %v", in[0].DType, in[1].DType)
		}
		return infos(Info{DType: in[0].DType, Shape: []int{-1}}, Info{DType: ndarray.Int64, Shape: []int{-1}}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x, y := in[0], in[1]
		if x.Rank() != 1 || y.Rank() != 1 {
			return nil, fmt.Errorf("listdiff: x of shape %v and y of shape %v must be vectors", x.Shape(), y.Shape())
		}
		ys := y.Float64s()
		sort.Float64s(ys)
		var keep []int
		var pos []int64
		for i, v := range x.Float64s() {
			if k := sort.SearchFloat64s(ys, v); k < len(ys) && ys[k] == v {
				continue
			}
			keep = append(keep, i)
			pos = append(pos, int64(i))
		}
		if len(keep) == 0 {
			return nil, fmt.Errorf("listdiff: every element of x is in y")
		}
		idx := ndarray.Must(ndarray.FromSlice(pos, len(pos)))
		offs, err := gatherPlan("listdiff", x.Shape(), 0, keep)
		if err != nil {
			return nil, err
		}
		vals, err := gatherOffsets(x, offs, []int{len(keep)})
		return []*ndarray.Array{vals, idx}, err
	},
})
