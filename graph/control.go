package graph

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Conditionals and loops, lowered to TensorFlow v1's control-flow
// primitives as SameDiff stores them (see package ops, control.go), so that
// graphs built here and graphs read from SameDiff files run the same way.

// If returns then's outputs when cond (a bool scalar) is true and els's
// otherwise. inputs are handed to the branch taken (through switches), and
// only that branch runs. Both branches must return as many values, with the
// same dtypes. A branch may also use values from outside; they are computed
// whichever branch is taken.
func (g *Graph) If(cond *Variable, inputs []*Variable, then, els func(in []*Variable) []*Variable) ([]*Variable, error) {
	if err := firstErr(append([]*Variable{cond}, inputs...)...); err != nil {
		return nil, err
	}
	var tIn, fIn []*Variable
	var gates []*Op
	for _, x := range inputs {
		sw, err := g.Op("switch", ops.Args{}, x, cond)
		if err != nil {
			return nil, fmt.Errorf("%w: if: input %q: %w", ErrBuild, x.name, err)
		}
		fIn, tIn = append(fIn, sw[0]), append(tIn, sw[1])
		gates = append(gates, sw[0].op)
	}
	tOut, fOut := then(tIn), els(fIn)
	if err := firstErr(append(tOut, fOut...)...); err != nil {
		return nil, err
	}
	if len(tOut) != len(fOut) {
		return nil, fmt.Errorf("%w: if: the branches return %d and %d values", ErrBuild, len(tOut), len(fOut))
	}
	out := make([]*Variable, len(tOut))
	for i := range tOut {
		if tOut[i].DType() != fOut[i].DType() {
			return nil, fmt.Errorf("%w: if: output %d is %v in one branch and %v in the other", ErrBuild, i, tOut[i].DType(), fOut[i].DType())
		}
		// A branch output that no switch of this If feeds would be alive
		// whichever branch runs: pass it through a switch of its own.
		t, err := g.gate(tOut[i], cond, 1, gates)
		if err != nil {
			return nil, err
		}
		f, err := g.gate(fOut[i], cond, 0, gates)
		if err != nil {
			return nil, err
		}
		m, err := g.Op("merge", ops.Args{}, f, t)
		if err != nil {
			return nil, fmt.Errorf("%w: if: output %d: %w", ErrBuild, i, err)
		}
		out[i] = m[0]
	}
	return out, nil
}

// gate returns v if one of the switches in gates feeds it, else output side
// of a new switch of v on cond.
func (g *Graph) gate(v, cond *Variable, side int, gates []*Op) (*Variable, error) {
	if dependsOn(v, gates) {
		return v, nil
	}
	sw, err := g.Op("switch", ops.Args{}, v, cond)
	if err != nil {
		return nil, err
	}
	return sw[side], nil
}

// dependsOn reports whether v is computed from an output of one of ops.
func dependsOn(v *Variable, targets []*Op) bool {
	want := map[*Op]bool{}
	for _, o := range targets {
		want[o] = true
	}
	seen := map[*Op]bool{}
	stack := []*Variable{v}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		o := x.op
		if o == nil || seen[o] {
			continue
		}
		if want[o] {
			return true
		}
		seen[o] = true
		stack = append(stack, o.inputs...)
	}
	return false
}

func firstErr(vs ...*Variable) error {
	for _, v := range vs {
		if v == nil {
			return fmt.Errorf("%w: a nil variable", ErrBuild)
		}
		if v.err != nil {
			return v.err
		}
	}
	return nil
}

// While runs a loop: starting from vars, while cond(values) is true, the
// values become body(values); it returns the values when cond turns false
// (vars themselves when it is false at once). body must return one value
// per loop variable, with the same dtype and a shape that fits the
// variable's. cond and body may also use values from outside the loop.
func (g *Graph) While(vars []*Variable, cond func(v []*Variable) *Variable, body func(v []*Variable) []*Variable) ([]*Variable, error) {
	if err := firstErr(vars...); err != nil {
		return nil, err
	}
	if len(vars) == 0 {
		return nil, fmt.Errorf("%w: while: no loop variables", ErrBuild)
	}
	g.mu.Lock()
	frame := g.uniqueName("while", func(n string) bool { return g.frames[n] })
	g.frames[frame] = true
	g.mu.Unlock()

	merges := make([]*Variable, len(vars))
	for i, v := range vars {
		e, err := g.Op("enter", ops.EnterArgs(frame, false), v)
		if err != nil {
			return nil, fmt.Errorf("%w: while: loop variable %d: %w", ErrBuild, i, err)
		}
		m, err := g.Op("merge", ops.Args{}, e[0])
		if err != nil {
			return nil, err
		}
		merges[i] = m[0]
	}
	c := cond(merges)
	if err := firstErr(c); err != nil {
		return nil, err
	}
	if c.DType() != ndarray.Bool {
		return nil, fmt.Errorf("%w: while: the condition is %v, not bool", ErrBuild, c.DType())
	}
	lc, err := g.Op("loop_cond", ops.Args{}, c)
	if err != nil {
		return nil, fmt.Errorf("%w: while: condition: %w", ErrBuild, err)
	}
	exits := make([]*Variable, len(vars))
	inside := make([]*Variable, len(vars))
	var switches []*Op
	for i, m := range merges {
		sw, err := g.Op("switch", ops.Args{}, m, lc[0])
		if err != nil {
			return nil, err
		}
		inside[i] = sw[1]
		switches = append(switches, sw[0].op)
		x, err := g.Op("exit", ops.Args{}, sw[0])
		if err != nil {
			return nil, err
		}
		exits[i] = x[0]
	}
	next := body(inside)
	if err := firstErr(next...); err != nil {
		return nil, err
	}
	if len(next) != len(vars) {
		return nil, fmt.Errorf("%w: while: the body returns %d values for %d loop variables", ErrBuild, len(next), len(vars))
	}
	for i, n := range next {
		if n.DType() != vars[i].DType() {
			return nil, fmt.Errorf("%w: while: the body turns loop variable %d from %v into %v", ErrBuild, i, vars[i].DType(), n.DType())
		}
		if !n.info.UnknownRank && !vars[i].info.Admits(n.info.Shape) {
			return nil, fmt.Errorf("%w: while: the body turns loop variable %d of shape %v into shape %v", ErrBuild, i, vars[i].Shape(), n.Shape())
		}
		// A body value computed without the loop's values must still
		// run inside the loop's frame to go round.
		n, err = g.gate(n, lc[0], 1, switches)
		if err != nil {
			return nil, err
		}
		ni, err := g.Op("next_iteration", ops.Args{}, n)
		if err != nil {
			return nil, err
		}
		if err := g.AddBackEdge(merges[i].op, ni[0]); err != nil {
			return nil, err
		}
	}
	return exits, nil
}
