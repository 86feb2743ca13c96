package serialize

import (
	"fmt"
	"slices"

	"github.com/sdgo/sdgo/graph"
)

// inferenceRoots finds the variables SaveOptions.InferenceOutputs names,
// in the snapshot the save writes.
func inferenceRoots(snap graph.Snapshot, opts *SaveOptions) ([]*graph.Variable, error) {
	if opts.UpdaterState {
		return nil, fmt.Errorf("serialize: SaveOptions.InferenceOutputs and UpdaterState: an inference file keeps no updater state")
	}
	roots := make([]*graph.Variable, len(opts.InferenceOutputs))
	for i, n := range opts.InferenceOutputs {
		v, ok := snap.Variable(n)
		if !ok {
			return nil, fmt.Errorf("serialize: SaveOptions.InferenceOutputs names %q, which is not a variable of the graph", n)
		}
		roots[i] = v
	}
	return roots, nil
}

// inferenceOnly keeps of vars and gops what computing roots needs: the ops
// they depend on (loop back edges included), every output of those ops,
// and the placeholders, variables and constants those ops read. Gradient,
// loss-only and other ops the roots do not read are left out.
func (s *saver) inferenceOnly(snap graph.Snapshot, vars []*graph.Variable, gops []*graph.Op, roots []*graph.Variable) ([]*graph.Variable, []*graph.Op) {
	keepV := map[*graph.Variable]bool{}
	keepO := map[*graph.Op]bool{}
	stack := slices.Clone(roots)
	push := func(v *graph.Variable) {
		if v != nil && !keepV[v] {
			stack = append(stack, v)
		}
	}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if keepV[v] {
			continue
		}
		keepV[v] = true
		op := v.Op()
		if op == nil || keepO[op] {
			continue
		}
		keepO[op] = true
		for _, o := range op.Outputs() {
			push(o)
		}
		for _, in := range op.Inputs() {
			push(in)
		}
		if fn, ok := op.Opaque().(*FileNode); ok && s.fi != nil {
			// Inputs the graph op does not wire (a loop's back edge),
			// which the file node names.
			for _, in := range fn.inputs {
				if in.graphIndex < 0 {
					if x, ok := snap.Variable(s.fi.varName(in.name)); ok {
						push(x)
					}
				}
			}
		}
	}
	vars = slices.DeleteFunc(vars, func(v *graph.Variable) bool { return !keepV[v] })
	gops = slices.DeleteFunc(gops, func(o *graph.Op) bool { return !keepO[o] })
	return vars, gops
}

// dropControlDeps removes from an inference file's control dependencies
// the variables and ops it left out (a loaded file's dependencies are
// kept by name; the lists name ops or variables).
func dropControlDeps(r *rawGraph) {
	known := map[string]bool{}
	for _, v := range r.Variables {
		known[v.Name] = true
	}
	for _, n := range r.Nodes {
		known[n.Name] = true
	}
	keep := func(names []string) []string {
		if names == nil {
			return nil
		}
		return slices.DeleteFunc(slices.Clone(names), func(n string) bool { return !known[n] })
	}
	for i := range r.Variables {
		v := &r.Variables[i]
		v.ControlDeps, v.ControlDepForOp, v.ControlDepsForVar = keep(v.ControlDeps), keep(v.ControlDepForOp), keep(v.ControlDepsForVar)
	}
	for i := range r.Nodes {
		n := &r.Nodes[i]
		n.ControlDeps, n.VarControlDeps, n.ControlDepFor = keep(n.ControlDeps), keep(n.VarControlDeps), keep(n.ControlDepFor)
	}
}

// OutputsOf returns the names (as they are now) of the variables the file g
// was loaded from names as its outputs (an inference file's
// InferenceOutputs), or nil when g was not loaded or the file names none.
func OutputsOf(g *graph.Graph) []string {
	fi := fileInfoOf(g)
	if fi == nil || len(fi.outputs) == 0 {
		return nil
	}
	return fi.varNames(slices.Clone(fi.outputs))
}
