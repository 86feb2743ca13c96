package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// Value is a graph value as a gradient rule sees it: a handle that the
// GradBuilder understands, with what is known of its dtype and shape.
type Value interface {
	Info() Info
}

// GradBuilder adds the ops of a gradient to the graph. It keeps the first
// error and reports it when the gradient is complete, so rules can be written
// as plain expressions.
type GradBuilder interface {
	// Op adds an op and returns its outputs.
	Op(name string, args Args, in ...Value) []Value
	// Const adds a constant.
	Const(a *ndarray.Array) Value
}

// GradNode is the op being differentiated: its inputs, its outputs and its
// arguments.
type GradNode struct {
	In   []Value
	Out  []Value
	Args *Args
}

// GradFunc returns the gradient of the loss with respect to each input (nil
// where an input gets none), given the gradient with respect to each output
// (nil where an output does not reach the loss).
type GradFunc func(b GradBuilder, n GradNode, dOut []Value) []Value

// Helpers for writing gradient rules as expressions.

func op1(b GradBuilder, name string, args Args, in ...Value) Value { return b.Op(name, args, in...)[0] }

func mul(b GradBuilder, x, y Value) Value { return op1(b, "multiply", Args{}, x, y) }
func div(b GradBuilder, x, y Value) Value { return op1(b, "divide", Args{}, x, y) }
func neg(b GradBuilder, x Value) Value    { return op1(b, "neg", Args{}, x) }

// scalarLike adds a rank-0 constant of v's dtype.
func scalarLike(b GradBuilder, v Value, s float64) Value {
	a, err := ndarray.ScalarOf(v.Info().DType, s)
	if err != nil {
		a = ndarray.Scalar(s)
	}
	return b.Const(a)
}

// fromXY returns a rule for a unary op whose input gradient is
// dOut * f(x, y) with x the input and y the output.
func fromXY(f func(b GradBuilder, x, y Value) Value) GradFunc {
	return func(b GradBuilder, n GradNode, d []Value) []Value {
		return []Value{mul(b, d[0], f(b, n.In[0], n.Out[0]))}
	}
}

// bpOp returns a rule that hands the op's inputs and the output gradient to
// the fused backprop op bpName (libnd4j's convention: inputs..., gradO ->
// one gradient per input), passing the forward op's arguments along.
func bpOp(bpName string) GradFunc {
	return func(b GradBuilder, n GradNode, d []Value) []Value {
		in := append(append([]Value(nil), n.In...), d[0])
		return b.Op(bpName, n.Args.Clone(), in...)
	}
}

// zeroGrad is the rule of ops whose derivative is zero almost everywhere
// (floor, sign, ...).
func zeroGrad(b GradBuilder, n GradNode, d []Value) []Value {
	return []Value{op1(b, "zeros_as", Args{}, n.In[0])}
}

// sameInfos returns the infos of the first k inputs, without values: the
// outputs of a backprop op that returns one gradient per input.
func sameInfos(in []Info, k int) []Info {
	out := make([]Info, k)
	for i := range out {
		out[i] = same(in[i])
	}
	return out
}

// gradInfos returns the outputs of a backprop op whose output gradient is g:
// for each of the inputs of, an Info with g's dtype and that input's shape.
// g must be a float.
func gradInfos(name string, g Info, of ...Info) ([]Info, error) {
	if err := needFloat(name, g); err != nil {
		return nil, err
	}
	out := make([]Info, len(of))
	for i, x := range of {
		out[i] = Info{DType: g.DType, Shape: x.Shape, UnknownRank: x.UnknownRank}
	}
	return out, nil
}

// bpDef defines a fused backprop op with nIn forward inputs followed by the
// output gradient, returning one gradient per forward input.
func bpDef(name string, nIn int, doc string, run func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error)) *Def {
	return &Def{
		Name: name, Type: Custom, MinIn: nIn + 1, MaxIn: nIn + 1, Doc: doc,
		Infer: func(in []Info, _ *Args) ([]Info, error) {
			g := in[len(in)-1]
			if err := needFloat(name, g); err != nil {
				return nil, err
			}
			for i, x := range in[:nIn] {
				if x.DType != g.DType {
					return nil, fmt.Errorf("%s: input %d is %v, the gradient %v", name, i, x.DType, g.DType)
				}
			}
			return sameInfos(in, nIn), nil
		},
		Run: run,
	}
}

// gradOfInput wraps a backprop op's inference with a check that its
// output gradient (the last input) has input 0's shape, as elementwise ops'
// gradients do: a graph built by hand or read from a file may give any.
func gradOfInput(d *Def) *Def {
	infer := d.Infer
	d.Infer = func(in []Info, a *Args) ([]Info, error) {
		if err := sameShapeGrad(d.Name, in[0], in[len(in)-1]); err != nil {
			return nil, err
		}
		return infer(in, a)
	}
	return d
}

// sameShapeGrad checks that the gradient g has x's dtype and, as far as
// both are known, its shape.
func sameShapeGrad(name string, x, g Info) error {
	if g.DType != x.DType {
		return fmt.Errorf("%s: the gradient is %v, the input %v", name, g.DType, x.DType)
	}
	if !g.UnknownRank && !x.Admits(g.Shape) {
		return fmt.Errorf("%s: the gradient has shape %v, the input %v (they must have the same shape)", name, g.Shape, x.Shape)
	}
	return nil
}

func bin(op ndarray.BinaryOp, x, y *ndarray.Array) (*ndarray.Array, error) {
	return ndarray.Binary(op, x, y)
}

// binFor is bin into an array from c's pool: a gradient the op returns,
// or a temporary it gives back with Release (one of full shape that
// sumGrad sums to its input's shape is given back there). The checks and
// errors are Binary's; an output above the allocation limit is an error,
// not Alloc's panic (a broadcast makes one of small operands).
func binFor(c *Ctx, op ndarray.BinaryOp, x, y *ndarray.Array) (*ndarray.Array, error) {
	full, err := ndarray.BinaryShape(op, x, y)
	if err != nil {
		return nil, err
	}
	out, err := c.TryAlloc(x.DType(), full)
	if err != nil {
		return nil, err
	}
	return out, ndarray.BinaryInto(op, out, x, y)
}

// binOver is binFor writing op(x, y) over own, x or y, an array the op
// computed itself and reads no more, when it has the result's shape.
func binOver(c *Ctx, op ndarray.BinaryOp, x, y, own *ndarray.Array) (*ndarray.Array, error) {
	if full, err := ndarray.BinaryShape(op, x, y); err == nil && ndarray.SameShape(full, own.Shape()) {
		return own, ndarray.BinaryInto(op, own, x, y)
	}
	return binFor(c, op, x, y)
}

// unaryFor is ndarray.Unary into an array from c's pool. Non-numeric
// dtypes take Unary's path, for its error (Alloc panics on strings).
func unaryFor(c *Ctx, op ndarray.UnaryOp, x *ndarray.Array, param float64) (*ndarray.Array, error) {
	if !x.DType().IsNumeric() {
		return ndarray.Unary(op, x, param)
	}
	out := c.Alloc(x.DType(), x.Shape())
	return out, ndarray.UnaryInto(op, out, x, param)
}

// reduceFor is ndarray.Reduce into an array from c's pool, for the
// numeric reductions (Reduce gives the errors of the others).
func reduceFor(c *Ctx, op ndarray.ReduceOp, x *ndarray.Array, axes []int, keep bool) (*ndarray.Array, error) {
	ax, err := ndarray.NormAxes(axes, x.Rank())
	if err != nil || !x.DType().IsNumeric() || op == ndarray.All || op == ndarray.Any {
		return ndarray.Reduce(op, x, axes, keep)
	}
	out := c.Alloc(x.DType(), ndarray.ReducedShape(x.Shape(), ax, keep))
	return out, ndarray.ReduceInto(op, out, x, ax)
}

// compareFor is ndarray.Compare into an array from c's pool; its checks
// and errors are Compare's, and an output above the allocation limit is an
// error, as binFor's.
func compareFor(c *Ctx, op ndarray.CompareOp, x, y *ndarray.Array) (*ndarray.Array, error) {
	shape, err := ndarray.CompareShape(op, x, y)
	if err != nil {
		return nil, err
	}
	out, err := c.TryAlloc(ndarray.Bool, shape)
	if err != nil {
		return nil, err
	}
	return out, ndarray.CompareInto(op, out, x, y)
}

// castFor is ndarray.Cast into an array from c's pool: x itself when it
// has dtype dt, as Cast gives it; Cast's error for a dtype it refuses.
func castFor(c *Ctx, x *ndarray.Array, dt ndarray.DType) (*ndarray.Array, error) {
	if x.DType() == dt || !x.DType().Computable() || !dt.Computable() {
		return ndarray.Cast(x, dt)
	}
	out := c.Alloc(dt, x.Shape())
	return out, ndarray.CastInto(out, x)
}

// sumGrad is sumToShape for a gradient the op computed in full: x, summed
// into a new array, is a temporary the op gives back to c (an x that is
// not c's, an input passed through, Release ignores).
func sumGrad(c *Ctx, x *ndarray.Array, shape []int) (*ndarray.Array, error) {
	s, err := sumToShape(c, x, shape)
	if s != x {
		c.Release(x)
	}
	return s, err
}
