package ops

import "github.com/sdgo/sdgo/ndarray"

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
