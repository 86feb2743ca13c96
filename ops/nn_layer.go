package ops

import (
	"fmt"
	"slices"
	"sort"

	"github.com/sdgo/sdgo/ndarray"
)

// SameDiff's NN layer ops: xw_plus_b (SDNN.linear), relu_layer, top_k.

// xwArgs reads xw_plus_b's integer args: 0 transposeA (x is given as
// [K, N]), 1 transposeB (w is given as [M, K]), 2 transposeC (the result
// transposed; sdgo refuses it, libnd4j's own shape function ignores it).
func xwArgs(name string, a *Args) (ta, tb bool, err error) {
	if a.Int(2, 0) != 0 {
		return false, false, fmt.Errorf("%s: int arg 2 (transpose the result) is not supported", name)
	}
	return a.Int(0, 0) == 1, a.Int(1, 0) == 1, nil
}

// xwInfer checks xw_plus_b's inputs and returns the output [N, M].
func xwInfer(name string, in []Info, a *Args) (Info, error) {
	ta, tb, err := xwArgs(name, a)
	if err != nil {
		return Info{}, err
	}
	x, w, b := in[0], in[1], in[2]
	for i, v := range in[:3] {
		if err := needFloat(name, v); err != nil {
			return Info{}, err
		}
		if v.DType != x.DType {
			return Info{}, fmt.Errorf("%s: input %d is %v, x %v; they must have one dtype", name, i, v.DType, x.DType)
		}
	}
	if x.UnknownRank || w.UnknownRank {
		return Info{DType: x.DType, Shape: unknownShape(2)}, nil
	}
	if len(x.Shape) != 2 || len(w.Shape) != 2 {
		return Info{}, fmt.Errorf("%s: x %v and w %v must be matrices", name, x.Shape, w.Shape)
	}
	n, kx, kw, m := x.Shape[0], x.Shape[1], w.Shape[0], w.Shape[1]
	if ta {
		n, kx = kx, n
	}
	if tb {
		kw, m = m, kw
	}
	if kx >= 0 && kw >= 0 && kx != kw {
		return Info{}, fmt.Errorf("%s: x %v times w %v (transposeA %v, transposeB %v): inner sizes %d and %d differ", name, x.Shape, w.Shape, ta, tb, kx, kw)
	}
	if !b.UnknownRank && b.ShapeKnown() && m >= 0 && ndarray.Packed(b.Shape...).Size() != m {
		return Info{}, fmt.Errorf("%s: the bias has shape %v; want %d elements, one per output column", name, b.Shape, m)
	}
	return Info{DType: x.DType, Shape: []int{n, m}}, nil
}

// xwRun computes x·w + b into an array from c's pool.
func xwRun(c *Ctx, name string, in []*ndarray.Array, a *Args) (*ndarray.Array, error) {
	ta, tb, err := xwArgs(name, a)
	if err != nil {
		return nil, err
	}
	x, w, b := in[0], in[1], in[2]
	if x.Rank() != 2 || w.Rank() != 2 {
		return nil, fmt.Errorf("%s: x %v and w %v must be matrices", name, x.Shape(), w.Shape())
	}
	shape, err := ndarray.MatMulShape(x.Shape(), w.Shape(), ta, tb)
	if err != nil {
		return nil, fmt.Errorf("%s: x %v times w %v: %w", name, x.Shape(), w.Shape(), err)
	}
	if b.Size() != shape[1] {
		return nil, fmt.Errorf("%s: the bias has shape %v; want %d elements, one per output column", name, b.Shape(), shape[1])
	}
	br, err := ndarray.Reshape(b, 1, shape[1])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	out := c.Alloc(x.DType(), shape)
	if err := ndarray.MatMulIntoStop(c.Stop(), out, x, w, ta, tb); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, ndarray.BinaryInto(ndarray.Add, out, out, br)
}

// xwPlusBOp is libnd4j's xw_plus_b (SameDiff's linear): inputs x [N, K],
// w [K, M], b [M]; int args 0 transposeA (x given as [K, N]), 1
// transposeB (w given as [M, K]), 2 transposeC (refused when set); output
// x·w + b [N, M], float inputs of one dtype.
var xwPlusBOp = Register(&Def{
	Name: "xw_plus_b", Type: Custom, MinIn: 3, MaxIn: 3,
	Doc: "x·w + b for a matrix x, weights w and a bias row b; int args transposeA, transposeB",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		out, err := xwInfer("xw_plus_b", in, a)
		return infos(out), err
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		return one(xwRun(c, "xw_plus_b", in, a))
	},
	Grad: bpOp("xw_plus_b_bp"),
})

// xwPlusBBpOp is libnd4j's xw_plus_b_bp: inputs x, w, b, gradO; the int
// args of xw_plus_b; outputs dL/dx, dL/dw, dL/db in their inputs' shapes.
var xwPlusBBpOp = Register(&Def{
	Name: "xw_plus_b_bp", Type: Custom, MinIn: 4, MaxIn: 4,
	Doc: "gradient of xw_plus_b for inputs x, w, b, gradO; int args transposeA, transposeB",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		out, err := xwInfer("xw_plus_b_bp", in[:3], a)
		if err != nil {
			return nil, err
		}
		if err := sameShapeGrad("xw_plus_b_bp", out, in[3]); err != nil {
			return nil, err
		}
		return sameInfos(in, 3), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		ta, tb, err := xwArgs("xw_plus_b_bp", a)
		if err != nil {
			return nil, err
		}
		x, w, b, g := in[0], in[1], in[2], in[3]
		if x.Rank() != 2 || w.Rank() != 2 {
			return nil, fmt.Errorf("xw_plus_b_bp: x %v and w %v must be matrices", x.Shape(), w.Shape())
		}
		shape, err := ndarray.MatMulShape(x.Shape(), w.Shape(), ta, tb)
		if err != nil {
			return nil, fmt.Errorf("xw_plus_b_bp: x %v times w %v: %w", x.Shape(), w.Shape(), err)
		}
		if !ndarray.SameShape(g.Shape(), shape) || g.DType() != x.DType() {
			return nil, fmt.Errorf("xw_plus_b_bp: the gradient is %v%v; want %v%v", g.DType(), g.Shape(), x.DType(), shape)
		}
		if b.Size() != shape[1] {
			return nil, fmt.Errorf("xw_plus_b_bp: the bias has shape %v; want %d elements", b.Shape(), shape[1])
		}
		out := make([]*ndarray.Array, 3)
		if c.Needed(0) {
			// dx = g·w'ᵀ, w' the [K, M] weights; stored [K, N] with transposeA.
			dx := c.Alloc(x.DType(), x.Shape())
			if ta {
				err = ndarray.MatMulIntoStop(c.Stop(), dx, w, g, tb, true)
			} else {
				err = ndarray.MatMulIntoStop(c.Stop(), dx, g, w, false, !tb)
			}
			if err != nil {
				return nil, fmt.Errorf("xw_plus_b_bp: %w", err)
			}
			out[0] = dx
		}
		if c.Needed(1) {
			// dw = x'ᵀ·g, x' the [N, K] input; stored [M, K] with transposeB.
			dw := c.Alloc(w.DType(), w.Shape())
			if tb {
				err = ndarray.MatMulIntoStop(c.Stop(), dw, g, x, true, ta)
			} else {
				err = ndarray.MatMulIntoStop(c.Stop(), dw, x, g, !ta, false)
			}
			if err != nil {
				return nil, fmt.Errorf("xw_plus_b_bp: %w", err)
			}
			out[1] = dw
		}
		if c.Needed(2) {
			db := c.Alloc(b.DType(), b.Shape())
			flat, err := ndarray.Reshape(db, shape[1])
			if err == nil {
				err = ndarray.ReduceInto(ndarray.Sum, flat, g, []int{0})
			}
			if err != nil {
				return nil, fmt.Errorf("xw_plus_b_bp: %w", err)
			}
			out[2] = db
		}
		return out, nil
	},
})

// reluLayerOp is libnd4j's relu_layer: relu(x·w + b) for inputs x [N, K],
// w [K, M], b [M] (no arguments).
var reluLayerOp = Register(&Def{
	Name: "relu_layer", Type: Custom, MinIn: 3, MaxIn: 3,
	Doc: "relu(x·w + b) for a matrix x, weights w and a bias row b",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		out, err := xwInfer("relu_layer", in, &Args{})
		return infos(out), err
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		out, err := xwRun(c, "relu_layer", in, &Args{})
		if err != nil {
			return nil, err
		}
		return one(out, ndarray.UnaryInto(ndarray.Relu, out, out, 0))
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		// The output is positive exactly where x·w + b is: relu_bp of the
		// output passes the gradient where the pre-activation is.
		dz := op1(b, "relu_bp", Args{}, n.Out[0], d[0])
		return b.Op("xw_plus_b_bp", Args{}, n.In[0], n.In[1], n.In[2], dz)
	},
})

// topKArgs returns top_k's k: input 1 when given, else int arg 0 (default
// 1).
func topKArgs(in []*ndarray.Array, a *Args) (int, error) {
	if len(in) > 1 {
		v, err := arrayInts("top_k: k", in[1])
		if err != nil {
			return 0, err
		}
		if len(v) != 1 {
			return 0, fmt.Errorf("top_k: k (input 1) has %d elements; want one", len(v))
		}
		return v[0], nil
	}
	return int(a.Int(0, 1)), nil
}

// topKOp is libnd4j's top_k: input x (rank 1 or more), optionally k as
// input 1; int arg 0 k (default 1) when there is no input 1; bool arg 0
// sorted (default true). Outputs the k largest values along the last axis
// (x's dtype) and their indices (int64), each of x's shape with the last
// size k. Sorted gives them largest first; unsorted in the order of their
// indices. Equal values keep the lower index first. 0 < k <= the last size.
var topKOp = Register(&Def{
	Name: "top_k", Type: Custom, MinIn: 1, MaxIn: 2, NonDiff: []int{1},
	Doc: "the k largest values along the last axis and their indices; int arg 0 or input 1 k, bool arg 0 sorted",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		x := in[0]
		if err := needNumeric("top_k", x); err != nil {
			return nil, err
		}
		if x.UnknownRank {
			return infos(Info{DType: x.DType, UnknownRank: true}, Info{DType: ndarray.Int64, UnknownRank: true}), nil
		}
		if len(x.Shape) == 0 {
			return nil, fmt.Errorf("top_k of a scalar")
		}
		k := int(a.Int(0, 1))
		if len(in) > 1 {
			k = -1
			if v, ok := constInts(in[1]); ok && len(v) == 1 {
				k = v[0]
			}
		}
		last := x.Shape[len(x.Shape)-1]
		if len(in) == 1 || k != -1 {
			if k <= 0 || (last >= 0 && k > last) {
				return nil, fmt.Errorf("top_k: k %d is out of range for shape %v (0 < k <= the last size)", k, x.Shape)
			}
		}
		s := append(slices.Clone(x.Shape[:len(x.Shape)-1]), k)
		return infos(Info{DType: x.DType, Shape: s}, Info{DType: ndarray.Int64, Shape: slices.Clone(s)}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x := in[0]
		if !x.DType().IsNumeric() || x.Rank() == 0 {
			return nil, fmt.Errorf("top_k needs a numeric input of rank 1 or more, not %v%v", x.DType(), x.Shape())
		}
		k, err := topKArgs(in, a)
		if err != nil {
			return nil, err
		}
		n := x.Shape()[x.Rank()-1]
		if k <= 0 || k > n {
			return nil, fmt.Errorf("top_k: k %d is out of range for shape %v (0 < k <= the last size)", k, x.Shape())
		}
		sorted := a.Bool(0, true)
		shape := append(slices.Clone(x.Shape()[:x.Rank()-1]), k)
		vals := c.Alloc(x.DType(), shape)
		idx := c.Alloc(ndarray.Int64, shape)
		var top []int64
		switch x.DType() {
		case ndarray.Float32:
			top = topKIndices(ndarray.Values[float32](x), n, k, sorted)
		case ndarray.Float64:
			top = topKIndices(ndarray.Values[float64](x), n, k, sorted)
		case ndarray.Int32:
			top = topKIndices(ndarray.Values[int32](x), n, k, sorted)
		default:
			top = topKIndices(ndarray.Values[int64](x), n, k, sorted)
		}
		// Gather the values in x's dtype, with no float64 round trip.
		if err := gatherTopK(vals, x, top, n, k); err != nil {
			return nil, err
		}
		src, err := ndarray.Wrap(top, shape...)
		if err != nil {
			return nil, err
		}
		return []*ndarray.Array{vals, idx}, ndarray.CopyInto(idx, src)
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		if d[0] == nil {
			return make([]Value, len(n.In))
		}
		// dx scatters the values' gradient to the chosen positions: a
		// one-hot of the indices [..., k, n] weighted by the gradient and
		// summed over k.
		x := n.In[0]
		xi := x.Info()
		oa := Args{I: []int64{-1}, D: []ndarray.DType{xi.DType}}
		var oh Value
		if last := lastSize(xi); last >= 0 {
			oa.I = append(oa.I, int64(last))
			oh = op1(b, "onehot", oa, n.Out[1])
		} else {
			oh = op1(b, "onehot", oa, n.Out[1], op1(b, "size_at", Args{I: []int64{-1}}, x))
		}
		w := mul(b, oh, op1(b, "expand_dims", Args{I: []int64{-1}}, d[0]))
		out := make([]Value, len(n.In))
		out[0] = op1(b, "reduce_sum", ReduceArgs(false, -2), w)
		return out
	},
})

// topKIndices returns, for each row of n elements of xv, the row-relative
// indices of its k largest elements: largest first (NaN above all, lower
// index first on ties), or in index order when sorted is false. Elements
// are compared in their own type: int64 values beyond 2^53 keep their order.
func topKIndices[T float32 | float64 | int32 | int64](xv []T, n, k int, sorted bool) []int64 {
	rows := len(xv) / n
	top := make([]int64, rows*k)
	if rows == 0 {
		return top // n, the size of order, may be any size then
	}
	order := make([]int, n)
	for r := 0; r < rows; r++ {
		row := xv[r*n : (r+1)*n]
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(i, j int) bool {
			a, b := row[order[i]], row[order[j]]
			if a != a || b != b { // NaN (floats only)
				return a != a && b == b
			}
			return a > b
		})
		t := top[r*k : (r+1)*k]
		for i := range t {
			t[i] = int64(order[i])
		}
		if !sorted {
			slices.Sort(t)
		}
	}
	return top
}

// lastSize is the size of an Info's last axis, -1 when unknown.
func lastSize(i Info) int {
	if i.UnknownRank || len(i.Shape) == 0 {
		return -1
	}
	return i.Shape[len(i.Shape)-1]
}

// gatherTopK writes x's elements at the row-relative indices top (k per
// row of n) into vals, in x's dtype.
func gatherTopK(vals, x *ndarray.Array, top []int64, n, k int) error {
	switch x.DType() {
	case ndarray.Float32:
		return topKRows(vals, ndarray.Values[float32](x), top, n, k)
	case ndarray.Float64:
		return topKRows(vals, ndarray.Values[float64](x), top, n, k)
	case ndarray.Int32:
		return topKRows(vals, ndarray.Values[int32](x), top, n, k)
	default:
		return topKRows(vals, ndarray.Values[int64](x), top, n, k)
	}
}

func topKRows[T float32 | float64 | int32 | int64](vals *ndarray.Array, xv []T, top []int64, n, k int) error {
	out := make([]T, len(top))
	for i, t := range top {
		out[i] = xv[(i/k)*n+int(t)]
	}
	src, err := ndarray.Wrap(out, vals.Shape()...)
	if err != nil {
		return err
	}
	return ndarray.CopyInto(vals, src)
}
