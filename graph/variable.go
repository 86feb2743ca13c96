package graph

import (
	"fmt"
	"sync/atomic"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Variable is a value in a graph: a trainable variable, a constant, a
// placeholder or an op's output. A Variable returned by a chainable builder
// call that failed carries the error (Err) and belongs to no graph's lists.
type Variable struct {
	g    *Graph
	name string
	// shown is name for Name, which takes no lock: Rename sets both,
	// holding the graph's lock, so that Name reads the name while another
	// goroutine renames without a data race.
	shown atomic.Pointer[string]
	// id and index share a word: a graph of many small ops holds
	// more Variables than anything else.
	id    int32 // place in the graph's variables
	index int32 // which output of op
	kind  VarType
	info  ops.Info
	value *ndarray.Array // VARIABLE and CONSTANT
	op    *Op            // the producer of an ARRAY
	err   error
}

// Name returns the variable's name.
func (v *Variable) Name() string {
	if p := v.shown.Load(); p != nil {
		return *p
	}
	return v.name // a failed builder call's variable, never in a graph
}

// Type returns the variable's kind.
func (v *Variable) Type() VarType { return v.kind }

// Graph returns the graph the variable belongs to.
func (v *Variable) Graph() *Graph { return v.g }

// Err returns the error of the builder call that produced v, if any.
func (v *Variable) Err() error { return v.err }

// DType returns the variable's dtype.
func (v *Variable) DType() ndarray.DType { return v.info.DType }

// Shape returns the shape as far as it is known while building: -1 for sizes
// known only at run time, nil when even the rank is unknown.
func (v *Variable) Shape() []int {
	if v.info.UnknownRank {
		return nil
	}
	return append([]int{}, v.info.Shape...)
}

// Info returns the dtype, shape and (for constants) value known while
// building. It makes *Variable an ops.Value.
func (v *Variable) Info() ops.Info {
	if v.g == nil {
		return v.info
	}
	v.g.mu.RLock()
	defer v.g.mu.RUnlock()
	return v.infoLocked()
}

func (v *Variable) infoLocked() ops.Info {
	i := v.info
	if v.kind == CONSTANT {
		i.Value = v.value
	}
	return i
}

// Value returns the array a VARIABLE or CONSTANT holds (nil for others).
func (v *Variable) Value() *ndarray.Array {
	if v.g == nil {
		return nil
	}
	v.g.mu.RLock()
	defer v.g.mu.RUnlock()
	return v.value
}

// SetValue replaces the array of a VARIABLE (training does this after each
// step) or a CONSTANT. The new array must have the same dtype and shape.
func (v *Variable) SetValue(a *ndarray.Array) error {
	if v.err != nil {
		return v.err
	}
	if v.kind != VARIABLE && v.kind != CONSTANT {
		return fmt.Errorf("%w: %v %q holds no value to set", ErrBuild, v.kind, v.name)
	}
	if a == nil || a.DType() != v.info.DType || !ndarray.SameShape(a.Shape(), v.info.Shape) {
		return fmt.Errorf("%w: new value %v for %q does not match %v", ErrBuild, a, v.name, v.info)
	}
	v.g.mu.Lock()
	defer v.g.mu.Unlock()
	v.value = a
	// Executors read a VARIABLE's value when a run loads its inputs, and
	// the dtype and shape cannot change here, so its plans stay valid: a
	// training loop setting values every step must not make them rebuild
	// their plans. A CONSTANT's value, though, is what shape inference
	// reads (reshape and fill shapes, view indices, folded values), so
	// changing it still counts as a change of structure.
	if v.kind == CONSTANT {
		v.g.version++
	}
	return nil
}

// Op returns the op that produces an ARRAY variable (nil for others).
func (v *Variable) Op() *Op { return v.op }

// OutputIndex returns which output of its op the variable is.
func (v *Variable) OutputIndex() int { return int(v.index) }

// ID returns the variable's position in the graph's variable list.
func (v *Variable) ID() int { return int(v.id) }

// Named renames the variable and returns it, for use in chains:
// y := x.MatMul(w).Named("logits").
func (v *Variable) Named(name string) *Variable {
	if v.err != nil {
		return v
	}
	if err := v.g.Rename(v, name); err != nil {
		return v.g.fail(err)
	}
	return v
}

func (v *Variable) String() string {
	if v.err != nil {
		return fmt.Sprintf("<error: %v>", v.err)
	}
	return fmt.Sprintf("%s %v %v", v.name, v.kind, v.info)
}
