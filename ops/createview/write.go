package createview

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Writes through views: sdgo extensions, not SameDiff ops. Their inputs are
// (base, value, index...) and their output is the new version of base: base
// with the region the indices select replaced by value (assign) or combined
// with it (add, sub, mul, div), value broadcast to the region's shape.
//
// They are flagged ops.InPlace. When the executor allows it
// (Ctx.CanOverwrite(0): nothing reads base's old contents any more), the op
// writes the region in base's own buffer and returns base's layout on it,
// at a cost of O(region). Otherwise it copies base (packed) and writes into
// the copy, at a cost of O(base). The result is the same either way.

// The write ops' names.
const (
	OpAssign = "view_assign"
	OpAdd    = "view_add"
	OpSub    = "view_sub"
	OpMul    = "view_mul"
	OpDiv    = "view_div"
)

// writeKind is what a write does to the region.
type writeKind int

const (
	wAssign writeKind = iota
	wAdd
	wSub
	wMul
	wDiv
)

var writeBinary = [...]ndarray.BinaryOp{wAdd: ndarray.Add, wSub: ndarray.Sub, wMul: ndarray.Mul, wDiv: ndarray.Div}

// Write applies a write op to arrays outside a graph: it returns a new array
// equal to base with the selected region written, leaving base unchanged.
// op is one of OpAssign, OpAdd, OpSub, OpMul, OpDiv.
func Write(op string, base, value *ndarray.Array, indices ...*ndarray.Array) (_ *ndarray.Array, err error) {
	// Without an executor, Ctx.Alloc panics with ErrTooLarge when the copy
	// of base is above the allocation limit (it has no error to return):
	// make it the error it is in a graph.
	defer func() {
		if r := recover(); r != nil {
			e := ops.TooLarge(r)
			if e == nil {
				panic(r)
			}
			err = fmt.Errorf("createview: %s: %w", op, e)
		}
	}()
	d, ok := ops.Lookup(op)
	if !ok || !isWrite(op) {
		return nil, fmt.Errorf("createview: %q is not a view write op", op)
	}
	if base == nil || value == nil {
		return nil, fmt.Errorf("createview: %s needs a base array and a value (got nil)", op)
	}
	if _, err := readIndices(indices, 2); err != nil {
		return nil, fmt.Errorf("createview: %s: %w", op, err)
	}
	out, err := d.Run(nil, append([]*ndarray.Array{base, value}, indices...), &ops.Args{})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

func isWrite(op string) bool {
	switch op {
	case OpAssign, OpAdd, OpSub, OpMul, OpDiv:
		return true
	}
	return false
}

func writeDef(name string, k writeKind, doc string) *ops.Def {
	return &ops.Def{
		Name: name, Type: ops.Custom, MinIn: 2, MaxIn: -1, Flags: ops.InPlace,
		Doc: doc + " (an sdgo extension: SameDiff has no such op)",
		Infer: func(in []ops.Info, _ *ops.Args) ([]ops.Info, error) {
			base, val := in[0], in[1]
			if k == wAssign {
				if !base.DType.Computable() {
					return nil, fmt.Errorf("%s: sdgo cannot compute with dtype %v", name, base.DType)
				}
			} else if !base.DType.IsNumeric() {
				return nil, fmt.Errorf("%s needs a numeric base, not %v", name, base.DType)
			}
			if val.DType != base.DType {
				return nil, fmt.Errorf("%s: the value (input 1) is %v, the base (input 0) %v", name, val.DType, base.DType)
			}
			return inferWrite(name, "the value (input 1)", in)
		},
		Run: func(c *ops.Ctx, in []*ndarray.Array, _ *ops.Args) ([]*ndarray.Array, error) {
			return runWrite(name, k, c, in)
		},
		Grad: writeGrad(k),
	}
}

func runWrite(name string, k writeKind, c *ops.Ctx, in []*ndarray.Array) ([]*ndarray.Array, error) {
	base, val := in[0], in[1]
	if val.DType() != base.DType() {
		return nil, fmt.Errorf("%s: the value is %v, the base %v", name, val.DType(), base.DType())
	}
	descs, err := readIndices(in[2:], 2)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	// Resolve on base's layout first: errors before any work, and the
	// region's shape to check the value against.
	region, err := viewOf(base, descs)
	if err != nil {
		return nil, opError(name, err, 2, base.Shape())
	}
	if !ndarray.CanBroadcastTo(val.Shape(), region.Shape()) {
		return nil, fmt.Errorf("%s: the value of shape %v does not broadcast to the view's shape %v (base shape %v)",
			name, val.Shape(), region.Shape(), base.Shape())
	}
	var out *ndarray.Array
	// In place only when allowed, and never when the value shares base's
	// buffer (then writing would change the value while it is read).
	if c.CanOverwrite(0) && !val.SameBuffer(base) {
		if out, err = base.WithLayout(base.Layout()); err != nil {
			return nil, err
		}
	} else {
		out = c.Alloc(base.DType(), base.Shape())
		if err := ndarray.CopyInto(out, base); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if region, err = viewOf(out, descs); err != nil {
			return nil, opError(name, err, 2, base.Shape())
		}
	}
	if k == wAssign {
		err = ndarray.CopyInto(region, val)
	} else {
		err = ndarray.BinaryInto(writeBinary[k], region, region, val)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return []*ndarray.Array{out}, nil
}

// writeGrad returns the gradient rule of a write. With R the region and
// sum(.) summing over the axes along which value was broadcast
// (reduce_to_shape_of):
//
//	assign: d base = dOut with R zeroed;    d value = sum(dOut[R])
//	add:    d base = dOut;                  d value = sum(dOut[R])
//	sub:    d base = dOut;                  d value = -sum(dOut[R])
//	mul:    d base = dOut with R *= value;  d value = sum(dOut[R] * base[R])
//	div:    d base = dOut with R /= value;  d value = -sum(dOut[R] * base[R] / value / value)
//
// where base is the old version (the op's input 0). The index inputs get no
// gradient.
func writeGrad(k writeKind) ops.GradFunc {
	return func(b ops.GradBuilder, n ops.GradNode, dOut []ops.Value) []ops.Value {
		d := make([]ops.Value, len(n.In))
		if len(dOut) == 0 || dOut[0] == nil {
			return d
		}
		g, base, val, idx := dOut[0], n.In[0], n.In[1], n.In[2:]
		view := func(x ops.Value) ops.Value {
			return first(b.Op(OpName, ops.Args{}, append([]ops.Value{x}, idx...)...))
		}
		write := func(op string, x, v ops.Value) ops.Value {
			return first(b.Op(op, ops.Args{}, append([]ops.Value{x, v}, idx...)...))
		}
		op := func(name string, in ...ops.Value) ops.Value {
			for _, x := range in {
				if x == nil {
					return nil
				}
			}
			return first(b.Op(name, ops.Args{}, in...))
		}
		toValue := func(x ops.Value) ops.Value { return op("reduce_to_shape_of", x, val) }
		switch k {
		case wAssign:
			zero, err := ndarray.Full(base.Info().DType, 0)
			if err == nil {
				d[0] = write(OpAssign, g, b.Const(zero))
			}
			d[1] = toValue(view(g))
		case wAdd:
			d[0] = g
			d[1] = toValue(view(g))
		case wSub:
			d[0] = g
			d[1] = op("neg", toValue(view(g)))
		case wMul:
			d[0] = write(OpMul, g, val)
			d[1] = toValue(op("multiply", view(g), view(base)))
		case wDiv:
			d[0] = write(OpDiv, g, val)
			q := op("divide", op("divide", op("multiply", view(g), view(base)), val), val)
			d[1] = op("neg", toValue(q))
		}
		return d
	}
}

// The write ops.
var (
	viewAssignOp = ops.Register(writeDef(OpAssign, wAssign, "input 0 with the view the index inputs (2..) select replaced by input 1, broadcast"))
	viewAddOp    = ops.Register(writeDef(OpAdd, wAdd, "input 0 with input 1, broadcast, added to the view the index inputs (2..) select (+=)"))
	viewSubOp    = ops.Register(writeDef(OpSub, wSub, "input 0 with input 1, broadcast, subtracted from the view the index inputs (2..) select (-=)"))
	viewMulOp    = ops.Register(writeDef(OpMul, wMul, "input 0 with the view the index inputs (2..) select multiplied by input 1, broadcast (*=)"))
	viewDivOp    = ops.Register(writeDef(OpDiv, wDiv, "input 0 with the view the index inputs (2..) select divided by input 1, broadcast (/=)"))
)
