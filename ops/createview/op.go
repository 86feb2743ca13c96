package createview

import (
	"errors"
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Op names.
const (
	OpName   = "create_view"
	OpNameBP = "create_view_bp"
)

// View returns the view of x that the index arrays (integer vectors in the
// layout of ADR 0021) select: an array on x's buffer, resolved against x's
// actual layout. It costs O(rank). Errors name the index by its position.
func View(x *ndarray.Array, indices ...*ndarray.Array) (*ndarray.Array, error) {
	if x == nil {
		return nil, fmt.Errorf("createview: no array to view (nil)")
	}
	descs, err := readIndices(indices, -1)
	if err != nil {
		return nil, fmt.Errorf("createview: %w", err)
	}
	return viewOf(x, descs)
}

func viewOf(x *ndarray.Array, descs [][]int64) (*ndarray.Array, error) {
	vs, vst, vo, err := Resolve(x.Shape(), x.Strides(), x.Offset(), descs...)
	if err != nil {
		return nil, err
	}
	return x.WithLayout(ndarray.Layout{Shape: vs, Strides: vst, Offset: vo})
}

// indexDType reports whether index vectors may have dtype dt: INT64, or
// INT32. Other integer dtypes (INT8, UINT64, ... from a SameDiff file) are
// ones sdgo does not compute with: Int64s reads them as no values at all,
// which would be reported as an empty descriptor instead of a wrong dtype.
func indexDType(dt ndarray.DType) bool { return dt.IsInt() && dt.Computable() }

// readIndices reads index arrays; first is the op input position of the
// first one, for error messages (-1 outside an op).
func readIndices(indices []*ndarray.Array, first int) ([][]int64, error) {
	descs := make([][]int64, len(indices))
	for i, a := range indices {
		what := func() string {
			if first < 0 {
				return fmt.Sprintf("index %d", i)
			}
			return fmt.Sprintf("input %d (index %d)", first+i, i)
		}
		if a == nil {
			return nil, fmt.Errorf("%s is missing", what())
		}
		if !indexDType(a.DType()) || a.Rank() != 1 {
			return nil, fmt.Errorf("%s must be an INT64 vector, not %v%v", what(), a.DType(), a.Shape())
		}
		if a.DType() == ndarray.Int64 {
			descs[i] = ndarray.Values[int64](a)
		} else {
			descs[i] = a.Int64s()
		}
	}
	return descs, nil
}

// opError puts an op's name and the input position of a bad index into
// err (an *IndexError names the input's shape itself).
func opError(op string, err error, first int, shape []int) error {
	var ie *IndexError
	if errors.As(err, &ie) && ie.Pos >= 0 {
		return fmt.Errorf("%s: input %d: %w", op, first+ie.Pos, err)
	}
	return fmt.Errorf("%s of shape %v: %w", op, shape, err)
}

// checkIndexInfos checks the index inputs' dtypes and ranks while building,
// and returns their values when every one is a constant.
func checkIndexInfos(op string, in []ops.Info, first int) ([][]int64, bool, error) {
	descs := make([][]int64, len(in))
	known := true
	for i, x := range in {
		if !indexDType(x.DType) || (!x.UnknownRank && len(x.Shape) != 1) {
			return nil, false, fmt.Errorf("%s: input %d (index %d) must be an INT64 vector, not %v", op, first+i, i, x)
		}
		if x.Value == nil {
			known = false
			continue
		}
		descs[i] = x.Value.Int64s()
	}
	return descs, known, nil
}

// inferView returns what is known of the view of x selected by the index
// inputs in (at op input positions first, first+1, ...).
func inferView(op string, x ops.Info, in []ops.Info, first int) (ops.Info, error) {
	descs, known, err := checkIndexInfos(op, in, first)
	if err != nil {
		return ops.Info{}, err
	}
	out := ops.Info{DType: x.DType, UnknownRank: true}
	if !known || x.UnknownRank {
		// The rank depends on the kinds of the indices; check what can be.
		if known {
			if _, err := parseAll(descs, nil); err != nil {
				return ops.Info{}, opError(op, err, first, nil)
			}
		}
		return out, nil
	}
	s, err := ViewShape(x.Shape, descs...)
	if err != nil {
		return ops.Info{}, opError(op, err, first, x.Shape)
	}
	return ops.Info{DType: x.DType, Shape: s}, nil
}

// first returns the single value of a gradient op, nil when the builder
// returned none (it reports its error itself).
func first(v []ops.Value) ops.Value {
	if len(v) == 0 {
		return nil
	}
	return v[0]
}

// createViewOp is libnd4j's create_view.
var createViewOp = ops.Register(&ops.Def{
	Name: OpName, Type: ops.Custom, MinIn: 1, MaxIn: -1, Flags: ops.View,
	Doc: "a view of input 0 sharing its buffer, selected by INT64 index vectors (inputs 1..: point, interval, all, new axis; ADR 0021) resolved at run time",
	Infer: func(in []ops.Info, _ *ops.Args) ([]ops.Info, error) {
		o, err := inferView(OpName, in[0], in[1:], 1)
		if err != nil {
			return nil, err
		}
		return []ops.Info{o}, nil
	},
	Run: func(_ *ops.Ctx, in []*ndarray.Array, _ *ops.Args) ([]*ndarray.Array, error) {
		descs, err := readIndices(in[1:], 1)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", OpName, err)
		}
		v, err := viewOf(in[0], descs)
		if err != nil {
			return nil, opError(OpName, err, 1, in[0].Shape())
		}
		return []*ndarray.Array{v}, nil
	},
	// The gradient scatters the output gradient into zeros of the input's
	// shape, at the view's place.
	Grad: func(b ops.GradBuilder, n ops.GradNode, dOut []ops.Value) []ops.Value {
		d := make([]ops.Value, len(n.In))
		if len(dOut) == 0 || dOut[0] == nil {
			return d
		}
		in := append([]ops.Value{n.In[0], dOut[0]}, n.In[1:]...)
		d[0] = first(b.Op(OpNameBP, ops.Args{}, in...))
		return d
	},
})

// createViewBPOp is create_view's gradient: input 1 (the gradient of the
// view) scattered into zeros of input 0's shape, at the place the indices
// (inputs 2..) select.
var createViewBPOp = ops.Register(&ops.Def{
	Name: OpNameBP, Type: ops.Custom, MinIn: 2, MaxIn: -1, NonDiff: []int{0},
	Doc: "zeros of input 0's shape with input 1 written at the view the index inputs (2..) select: the gradient of create_view",
	Infer: func(in []ops.Info, _ *ops.Args) ([]ops.Info, error) {
		x, dy := in[0], in[1]
		if dy.DType != x.DType {
			return nil, fmt.Errorf("%s: the gradient (input 1) is %v, the array (input 0) %v", OpNameBP, dy.DType, x.DType)
		}
		return inferWrite(OpNameBP, "the gradient (input 1)", in)
	},
	Run: func(c *ops.Ctx, in []*ndarray.Array, _ *ops.Args) ([]*ndarray.Array, error) {
		x, dy := in[0], in[1]
		descs, err := readIndices(in[2:], 2)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", OpNameBP, err)
		}
		if dy.DType() != x.DType() {
			return nil, fmt.Errorf("%s: the gradient is %v, the array %v", OpNameBP, dy.DType(), x.DType())
		}
		// Check the indices against x's own layout before allocating.
		if _, _, _, err := Resolve(x.Shape(), x.Strides(), x.Offset(), descs...); err != nil {
			return nil, opError(OpNameBP, err, 2, x.Shape())
		}
		out := c.Alloc(x.DType(), x.Shape())
		zero, err := ndarray.Full(x.DType(), 0)
		if err != nil {
			return nil, err
		}
		if err := ndarray.CopyInto(out, zero); err != nil {
			return nil, err
		}
		v, err := viewOf(out, descs)
		if err != nil {
			return nil, opError(OpNameBP, err, 2, x.Shape())
		}
		if err := ndarray.CopyInto(v, dy); err != nil {
			return nil, fmt.Errorf("%s: the gradient of shape %v does not fit the view of shape %v: %w", OpNameBP, dy.Shape(), v.Shape(), err)
		}
		return []*ndarray.Array{out}, nil
	},
	// The op is linear in the gradient it scatters; its adjoint is the view.
	Grad: func(b ops.GradBuilder, n ops.GradNode, dOut []ops.Value) []ops.Value {
		d := make([]ops.Value, len(n.In))
		if len(dOut) == 0 || dOut[0] == nil {
			return d
		}
		v := first(b.Op(OpName, ops.Args{}, append([]ops.Value{dOut[0]}, n.In[2:]...)...))
		if v != nil {
			// Sum back over the axes along which input 1 was broadcast.
			d[1] = first(b.Op("reduce_to_shape_of", ops.Args{}, v, n.In[1]))
		}
		return d
	},
})

// inferWrite infers an op that writes input 1 (what) into the view of
// input 0 that inputs 2.. select: the result has input 0's dtype and shape,
// once the indices and input 1's broadcast to the view check out.
func inferWrite(op, what string, in []ops.Info) ([]ops.Info, error) {
	x := in[0]
	v, err := inferView(op, x, in[2:], 2)
	if err != nil {
		return nil, err
	}
	if err := checkBroadcast(op, what, in[1], v); err != nil {
		return nil, err
	}
	return []ops.Info{{DType: x.DType, Shape: x.Shape, UnknownRank: x.UnknownRank}}, nil
}

// checkBroadcast checks, as far as shapes are known, that value broadcasts
// to the view's shape.
func checkBroadcast(op, what string, value, view ops.Info) error {
	if value.UnknownRank || view.UnknownRank {
		return nil
	}
	if len(value.Shape) > len(view.Shape) {
		return fmt.Errorf("%s: %s of shape %v does not broadcast to the view's shape %v", op, what, value.Shape, view.Shape)
	}
	off := len(view.Shape) - len(value.Shape)
	for i, d := range value.Shape {
		w := view.Shape[off+i]
		if d >= 0 && w >= 0 && d != 1 && d != w {
			return fmt.Errorf("%s: %s of shape %v does not broadcast to the view's shape %v", op, what, value.Shape, view.Shape)
		}
	}
	return nil
}
