package graph

import (
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Read calls f with a Snapshot of g and returns what f returns. Nothing
// changes g while f runs: every read through the Snapshot sees the graph at
// one moment, as one call of Variables, Ops or Losses does for one list. A
// reader that needs several things to agree (a save needs the variables,
// the ops and the losses of one graph; an executor needs its plan, the
// version it was built for and the variables' values of one graph) takes
// them all in one Read.
//
// Builders wait until f returns, so f should be short. It must not change g
// (that never returns) and should not call g's own methods, nor those of
// its variables that read g's state (Variable.Info, Variable.Value): with a
// builder waiting, such a call may never return either. What they would
// return is on the Snapshot. Calls that take no lock (Variable.Name, Type,
// DType, Shape, Op; Op.Name, Inputs, Outputs, Def, Args) are fine.
func (g *Graph) Read(f func(s Snapshot) error) error {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return f(Snapshot{g: g})
}

// Snapshot is a graph held still for one call of Graph.Read. It is valid
// only during that call: f must not keep it, nor the slices it returns
// (they are the graph's own lists, which later builder calls change; copy
// what must outlive the call), and must not change those slices.
type Snapshot struct {
	g *Graph
}

// Variables returns every variable, in the order of Graph.Variables.
func (s Snapshot) Variables() []*Variable { return s.g.vars[:len(s.g.vars):len(s.g.vars)] }

// Ops returns every op, in the order of Graph.Ops.
func (s Snapshot) Ops() []*Op { return s.g.ops[:len(s.g.ops):len(s.g.ops)] }

// Losses returns the names of the loss variables (Graph.Losses).
func (s Snapshot) Losses() []string { return s.g.losses[:len(s.g.losses):len(s.g.losses)] }

// Variable returns the variable with this name (Graph.Variable).
func (s Snapshot) Variable(name string) (*Variable, bool) {
	v, ok := s.g.byName[name]
	return v, ok
}

// Err returns the graph's first build error, or nil (Graph.Err).
func (s Snapshot) Err() error { return s.g.err }

// Version returns the graph's structural version (Graph.Version).
func (s Snapshot) Version() uint64 { return s.g.version }

// Value returns the array a VARIABLE or CONSTANT holds, nil for others
// (Variable.Value).
func (s Snapshot) Value(v *Variable) *ndarray.Array {
	if v.g != s.g {
		return v.Value() // under its own graph's lock
	}
	return v.value
}

// Info returns what v.Info returns: its dtype, shape and, for a CONSTANT,
// value. The shape is v's own slice, not a copy: the caller must not
// change it.
func (s Snapshot) Info(v *Variable) ops.Info {
	if v.g != s.g {
		return v.Info()
	}
	return v.infoLocked()
}

// StoresBuffer reports whether b is the buffer of a VARIABLE's or a
// CONSTANT's stored value. An executor asks before taking a donated array's
// buffer for its own: a caller may donate an array it got from the graph (a
// constant's output is its stored array), which the run must then neither
// write into nor recycle.
func (s Snapshot) StoresBuffer(b *ndarray.Buffer) bool {
	for _, v := range s.g.vars {
		if (v.kind == VARIABLE || v.kind == CONSTANT) && v.value != nil && v.value.Buffer() == b {
			return true
		}
	}
	return false
}
