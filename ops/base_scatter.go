package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// Ops of SameDiff's base namespace that scatter: scatter_add, scatter_sub,
// scatter_mul, scatter_div, scatter_max, scatter_min and scatter_upd
// (slices along ref's first axis), scatter_nd_add and scatter_nd_sub
// (index tuples, beside base_index.go's scatter_nd_update). Every index is
// checked: one out of range is an error naming the op, the index and the
// shape.

// scatter modes: how an update combines with the element it lands on.
const (
	scAdd = iota
	scSub
	scMul
	scDiv
	scMax
	scMin
	scUpd
)

// scatterPlan checks a first-axis scatter's shapes and returns, per
// update slot (an element of the indices), the packed offset in ref of its
// slice, and the slice length. The updates have shape indices.shape +
// ref.shape[1:].
func scatterPlan(op string, ref []int, idx *ndarray.Array, upd []int) (starts []int, slice int, err error) {
	if len(ref) == 0 {
		return nil, 0, fmt.Errorf("%s: ref is a scalar; it needs a first axis to scatter along", op)
	}
	want := append(append([]int(nil), idx.Shape()...), ref[1:]...)
	if !ndarray.SameShape(want, upd) {
		return nil, 0, fmt.Errorf("%s: updates of shape %v; indices of shape %v into ref of shape %v need %v", op, upd, idx.Shape(), ref, want)
	}
	slice = 1
	for _, d := range ref[1:] {
		slice *= d
	}
	vals := idx.Int64s()
	starts = make([]int, len(vals))
	for i, v := range vals {
		if v < 0 || v >= int64(ref[0]) {
			return nil, 0, fmt.Errorf("%s: index %d (position %d of the indices) is out of range for ref of shape %v", op, v, i, ref)
		}
		starts[i] = int(v) * slice
	}
	return starts, slice, nil
}

// scatterApplyT returns a copy of ref with each update combined into the
// slice at its start, in the order of the indices.
func scatterApplyT[T ndarray.Num](op string, mode int, ref, upd *ndarray.Array, starts []int, slice int) (*ndarray.Array, error) {
	out := ndarray.Values[T](ref)
	src, err := packedValues[T](upd)
	if err != nil {
		return nil, err
	}
	isInt := !ref.DType().IsFloat()
	for r, s := range starts {
		dst, u := out[s:s+slice], src[r*slice:(r+1)*slice]
		for e := range dst {
			switch mode {
			case scAdd:
				dst[e] += u[e]
			case scSub:
				dst[e] -= u[e]
			case scMul:
				dst[e] *= u[e]
			case scDiv:
				if isInt && u[e] == 0 {
					return nil, fmt.Errorf("%s: integer division by zero (update %d)", op, r)
				}
				dst[e] /= u[e]
			case scMax:
				if u[e] > dst[e] || u[e] != u[e] {
					dst[e] = u[e]
				}
			case scMin:
				if u[e] < dst[e] || u[e] != u[e] {
					dst[e] = u[e]
				}
			default:
				dst[e] = u[e]
			}
		}
	}
	return ndarray.Wrap(out, ref.Shape()...)
}

// runScatter applies mode with the given starts (from scatterPlan or
// scatterNDPlan).
func runScatter(op string, mode int, ref, upd *ndarray.Array, starts []int, slice int) (*ndarray.Array, error) {
	switch ref.DType() {
	case ndarray.Float32:
		return scatterApplyT[float32](op, mode, ref, upd, starts, slice)
	case ndarray.Float64:
		return scatterApplyT[float64](op, mode, ref, upd, starts, slice)
	case ndarray.Int32:
		return scatterApplyT[int32](op, mode, ref, upd, starts, slice)
	case ndarray.Int64:
		return scatterApplyT[int64](op, mode, ref, upd, starts, slice)
	case ndarray.Bool:
		if mode == scUpd {
			return scatterNDT[bool](ref, upd, starts, slice)
		}
	}
	return nil, fmt.Errorf("%s of %v arrays", op, ref.DType())
}

// scatterInfer checks a scatter's inputs ref, indices, updates.
func scatterInfer(op string) func(in []Info, _ *Args) ([]Info, error) {
	return func(in []Info, _ *Args) ([]Info, error) {
		ref, idx, upd := in[0], in[1], in[2]
		if err := needNumericOrBool(op, ref); err != nil {
			return nil, err
		}
		if err := needIntInput(op, "the indices", idx); err != nil {
			return nil, err
		}
		if upd.DType != ref.DType {
			return nil, fmt.Errorf("%s: the updates are %v, ref is %v", op, upd.DType, ref.DType)
		}
		return infos(same(ref)), nil
	}
}

// gatherRows gathers d's slices at the indices along axis 0: each
// update's share of a gradient of ref's shape.
func gatherRows(b GradBuilder, d, idx Value) Value {
	return op1(b, "gather", Args{I: []int64{0}}, d, idx)
}

// asMask casts a bool comparison to v's dtype.
func asMask(b GradBuilder, cmp, v Value) Value {
	return op1(b, "cast", Args{D: []ndarray.DType{v.Info().DType}}, cmp)
}

// scatterGrads are the gradient rules of the first-axis scatters, by mode.
// In scatter_mul and scatter_div an update's gradient divides by the
// update (exact for non-zero updates); in scatter_max and scatter_min the
// gradient goes to every value equal to the result (ties share it whole).
var scatterGrads = [...]GradFunc{
	scAdd: func(b GradBuilder, n GradNode, d []Value) []Value {
		return []Value{d[0], nil, gatherRows(b, d[0], n.In[1])}
	},
	scSub: func(b GradBuilder, n GradNode, d []Value) []Value {
		return []Value{d[0], nil, neg(b, gatherRows(b, d[0], n.In[1]))}
	},
	scMul: func(b GradBuilder, n GradNode, d []Value) []Value {
		ref, idx, upd := n.In[0], n.In[1], n.In[2]
		factor := op1(b, "scatter_mul", Args{}, op1(b, "ones_as", Args{}, ref), idx, upd)
		dupd := div(b, gatherRows(b, mul(b, d[0], n.Out[0]), idx), upd)
		return []Value{mul(b, d[0], factor), nil, dupd}
	},
	scDiv: func(b GradBuilder, n GradNode, d []Value) []Value {
		ref, idx, upd := n.In[0], n.In[1], n.In[2]
		factor := op1(b, "scatter_div", Args{}, op1(b, "ones_as", Args{}, ref), idx, upd)
		dupd := neg(b, div(b, gatherRows(b, mul(b, d[0], n.Out[0]), idx), upd))
		return []Value{mul(b, d[0], factor), nil, dupd}
	},
	scMax: extremeScatterGrad,
	scMin: extremeScatterGrad,
	scUpd: func(b GradBuilder, n GradNode, d []Value) []Value {
		// The same as scatter_nd_update with each index a 1-tuple.
		nd := op1(b, "expand_dims", Args{I: []int64{-1}}, n.In[1])
		out := b.Op("scatter_nd_update_bp", Args{}, n.In[0], nd, n.In[2], d[0])
		return []Value{out[0], nil, out[1]}
	},
}

func extremeScatterGrad(b GradBuilder, n GradNode, d []Value) []Value {
	ref, idx, upd, y := n.In[0], n.In[1], n.In[2], n.Out[0]
	dref := mul(b, d[0], asMask(b, op1(b, "equals", Args{}, ref, y), ref))
	won := asMask(b, op1(b, "equals", Args{}, upd, gatherRows(b, y, idx)), upd)
	return []Value{dref, nil, mul(b, gatherRows(b, d[0], idx), won)}
}

// scatterDef defines a first-axis scatter: inputs ref, indices (any
// integer shape), updates (indices.shape + ref.shape[1:]); bool args
// (lock, check indices) are accepted and indices always checked. The
// output is a copy of ref with the updates combined into the slices
// ref[index] in the order of the indices.
func scatterDef(name string, mode int, doc string, grad GradFunc) *Def {
	return &Def{
		Name: name, Type: Custom, MinIn: 3, MaxIn: 3, NonDiff: []int{1}, Doc: doc,
		Infer: scatterInfer(name),
		Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
			ref, idx, upd := in[0], in[1], in[2]
			if !idx.DType().IsInt() {
				return nil, fmt.Errorf("%s: the indices must be an integer array, not %v", name, idx.DType())
			}
			starts, slice, err := scatterPlan(name, ref.Shape(), idx, upd.Shape())
			if err != nil {
				return nil, err
			}
			return one(runScatter(name, mode, ref, upd, starts, slice))
		},
		Grad: grad,
	}
}

var (
	// scatterAddOp is libnd4j's scatter_add: ref[indices[i]] += updates[i].
	scatterAddOp = Register(scatterDef("scatter_add", scAdd, "ref with the updates added into the slices ref[indices[i]]", scatterGrads[scAdd]))
	// scatterSubOp is libnd4j's scatter_sub: ref[indices[i]] -= updates[i].
	scatterSubOp = Register(scatterDef("scatter_sub", scSub, "ref with the updates subtracted from the slices ref[indices[i]]", scatterGrads[scSub]))
	// scatterMulOp is libnd4j's scatter_mul: ref[indices[i]] *= updates[i].
	scatterMulOp = Register(scatterDef("scatter_mul", scMul, "ref with the slices ref[indices[i]] multiplied by the updates", scatterGrads[scMul]))
	// scatterDivOp is libnd4j's scatter_div: ref[indices[i]] /= updates[i]
	// (integer division by zero is an error).
	scatterDivOp = Register(scatterDef("scatter_div", scDiv, "ref with the slices ref[indices[i]] divided by the updates", scatterGrads[scDiv]))
	// scatterMaxOp is libnd4j's scatter_max: ref[indices[i]] = max(ref[indices[i]], updates[i]).
	scatterMaxOp = Register(scatterDef("scatter_max", scMax, "ref with the slices ref[indices[i]] raised to the updates where larger", scatterGrads[scMax]))
	// scatterMinOp is libnd4j's scatter_min: ref[indices[i]] = min(ref[indices[i]], updates[i]).
	scatterMinOp = Register(scatterDef("scatter_min", scMin, "ref with the slices ref[indices[i]] lowered to the updates where smaller", scatterGrads[scMin]))
	// scatterUpdOp is libnd4j's scatter_upd: ref[indices[i]] = updates[i]
	// (the last one wins where indices repeat).
	scatterUpdOp = Register(scatterDef("scatter_upd", scUpd, "ref with the slices ref[indices[i]] replaced by the updates", scatterGrads[scUpd]))
)

// scatterNDDef defines scatter_nd_add and scatter_nd_sub: scatter_nd_update's
// inputs (ref, indices whose last axis holds index tuples, updates of shape
// indices.shape[:-1] + ref.shape[k:]), the updates added or subtracted
// (repeated tuples accumulate).
func scatterNDDef(name string, mode int, doc string, grad GradFunc) *Def {
	return &Def{
		Name: name, Type: Custom, MinIn: 3, MaxIn: 3, NonDiff: []int{1}, Doc: doc,
		Infer: scatterInfer(name),
		Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
			ref, idx, upd := in[0], in[1], in[2]
			if !idx.DType().IsInt() {
				return nil, fmt.Errorf("%s: the indices must be an integer array, not %v", name, idx.DType())
			}
			starts, slice, err := scatterNDPlan(name, ref.Shape(), idx, upd.Shape())
			if err != nil {
				return nil, err
			}
			return one(runScatter(name, mode, ref, upd, starts, slice))
		},
		Grad: grad,
	}
}

var (
	// scatterNDAddOp is libnd4j's scatter_nd_add.
	scatterNDAddOp = Register(scatterNDDef("scatter_nd_add", scAdd, "ref with the updates added at the index tuples of input 1",
		func(b GradBuilder, n GradNode, d []Value) []Value {
			return []Value{d[0], nil, op1(b, "gather_nd", Args{}, d[0], n.In[1])}
		}))
	// scatterNDSubOp is libnd4j's scatter_nd_sub.
	scatterNDSubOp = Register(scatterNDDef("scatter_nd_sub", scSub, "ref with the updates subtracted at the index tuples of input 1",
		func(b GradBuilder, n GradNode, d []Value) []Value {
			return []Value{d[0], nil, neg(b, op1(b, "gather_nd", Args{}, d[0], n.In[1]))}
		}))
)
