package graph

import (
	"fmt"
	"slices"

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
		stack = append(stack, o.Inputs()...)
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
	var enters []*Op
	for i, v := range vars {
		e, err := g.Op("enter", ops.EnterArgs(frame, false), v)
		if err != nil {
			return nil, fmt.Errorf("%w: while: loop variable %d: %w", ErrBuild, i, err)
		}
		enters = append(enters, e[0].op)
		m, err := g.Op("merge", ops.Args{}, e[0])
		if err != nil {
			return nil, err
		}
		merges[i] = m[0]
	}
	condStart := g.numOps()
	c := cond(merges)
	if err := firstErr(c); err != nil {
		return nil, err
	}
	// A loop built in the condition runs in this loop's iterations: a
	// merge is alive in each of them.
	if err := g.nestLoops(condStart, g.numOps(), frame, enters, func(v *Variable) (*Variable, error) {
		r, err := g.Op("route", ops.Args{}, v, merges[0])
		if err != nil {
			return nil, err
		}
		return r[0], nil
	}); err != nil {
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
	bodyStart := g.numOps()
	next := body(inside)
	if err := firstErr(next...); err != nil {
		return nil, err
	}
	// A loop built in the body runs in the iterations that run the body:
	// the true side of a switch on the condition is alive in those.
	if err := g.nestLoops(bodyStart, g.numOps(), frame, enters, func(v *Variable) (*Variable, error) {
		return g.gate(v, lc[0], 1, nil)
	}); err != nil {
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

func (g *Graph) numOps() int {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return len(g.ops)
}

// nestLoops puts the loops built by cond or body (ops[from:to]) inside the
// loop of frame, whose enters are given, when they read its values.
//
// An enter runs in the frame iteration its input comes from, and opens its
// loop there. The enter of an inner loop variable whose initial value does
// not come from the outer loop (a constant, a value from outside both
// loops) would open the inner loop once, outside the outer loop, where the
// inner loop's reads of the outer loop's values never arrive. Such an
// enter's input is passed through place, which gives the same value in each
// iteration of the outer loop; the new op goes just before the enter, in
// the list of ops and in that of variables, so that both stay in an order
// where every value comes before its readers (a saved graph loads back in
// the same order).
func (g *Graph) nestLoops(from, to int, frame string, enters []*Op, place func(*Variable) (*Variable, error)) error {
	g.mu.RLock()
	built := append([]*Op(nil), g.ops[from:to]...)
	g.mu.RUnlock()
	// reads holds the loops built that read this loop's values: one of
	// their merges depends on them (through its back edge).
	reads := map[string]bool{}
	for _, m := range built {
		if m.opName == "merge" && len(m.Inputs()) > 1 {
			if e := m.Inputs()[0].op; e != nil && e.opName == "enter" && dependsOn(m.outputs[0], enters) {
				reads[ops.FrameName(e.args)] = true
			}
		}
	}
	for _, e := range built {
		// A loop that reads nothing of this loop computes the same in
		// every iteration: it may run once, outside.
		if e.opName != "enter" || !reads[ops.FrameName(e.args)] || ops.FrameName(e.args) == frame || dependsOn(e.Inputs()[0], enters) {
			continue
		}
		v, err := place(e.Inputs()[0])
		if err != nil {
			return fmt.Errorf("%w: while: placing the nested loop %q: %w", ErrBuild, ops.FrameName(e.args), err)
		}
		g.mu.Lock()
		g.moveBefore(v.op, e)
		in := slices.Clone(e.Inputs())
		in[0] = v
		e.setInputs(in)
		g.version++
		g.mu.Unlock()
	}
	return nil
}

// moveBefore moves op p, the last op added, and its outputs just before op
// e and its outputs. The caller holds the write lock.
func (g *Graph) moveBefore(p, e *Op) {
	g.ops = slices.DeleteFunc(g.ops, func(o *Op) bool { return o == p })
	g.ops = slices.Insert(g.ops, slices.Index(g.ops, e), p)
	g.vars = slices.DeleteFunc(g.vars, func(v *Variable) bool { return v.op == p })
	at := slices.Index(g.vars, e.outputs[0])
	g.vars = slices.Insert(g.vars, at, p.outputs...)
	for i := at; i < len(g.vars); i++ {
		g.vars[i].id = int32(i)
	}
}
