package exec

import (
	"fmt"
	"strings"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ops"
)

// plan is the compiled form of one request: the ops to run in order, with
// their inputs and outputs as slot numbers.
type plan struct {
	version uint64
	steps   []step
	vars    []*graph.Variable // slot -> variable
	uses    []int32           // reads of each slot: by steps, plus one if it is an output
	outputs []int             // slots of the requested outputs, in request order
	names   []string          // the requested names
	leaves  []int             // slots of placeholders, variables and constants the steps read
}

type step struct {
	op   *graph.Op
	def  *ops.Def
	in   []int
	out  []int
	info []ops.Info // inferred output infos, to check what the op returns
}

// buildPlan compiles a request. The caller holds the graph's read lock.
func buildPlan(g *graph.Graph, names []string, version uint64) (*plan, error) {
	p := &plan{version: version, names: names}
	slot := map[*graph.Variable]int{}
	slotOf := func(v *graph.Variable) int {
		if s, ok := slot[v]; ok {
			return s
		}
		s := len(p.vars)
		slot[v] = s
		p.vars = append(p.vars, v)
		p.uses = append(p.uses, 0)
		return s
	}
	// Iterative depth-first search from the outputs over producers; ops are
	// appended in post-order, which is a dependency order.
	const (
		visiting = 1
		done     = 2
	)
	state := map[*graph.Op]int{}
	type frame struct {
		op   *graph.Op
		next int
	}
	var roots []*graph.Variable
	for _, n := range names {
		v, ok := g.LookupLocked(n)
		if !ok {
			msg := fmt.Sprintf("exec: no variable named %q", n)
			if err := g.ErrLocked(); err != nil {
				return nil, fmt.Errorf("%s (the graph has a build error: %w)", msg, err)
			}
			return nil, fmt.Errorf("%s", msg)
		}
		roots = append(roots, v)
	}
	for _, root := range roots {
		if root.Op() == nil || state[root.Op()] == done {
			continue
		}
		stack := []frame{{op: root.Op()}}
		state[root.Op()] = visiting
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			ins := f.op.Inputs()
			if f.next < len(ins) {
				in := ins[f.next]
				f.next++
				prod := in.Op()
				if prod == nil {
					continue
				}
				switch state[prod] {
				case visiting:
					return nil, fmt.Errorf("exec: the graph has a cycle through op %q", prod.Name())
				case done:
					continue
				}
				state[prod] = visiting
				stack = append(stack, frame{op: prod})
				continue
			}
			state[f.op] = done
			if err := p.addStep(f.op, slotOf); err != nil {
				return nil, err
			}
			stack = stack[:len(stack)-1]
		}
	}
	for _, v := range roots {
		s := slotOf(v)
		p.outputs = append(p.outputs, s)
		p.uses[s]++
	}
	for s, v := range p.vars {
		if v.Op() == nil {
			p.leaves = append(p.leaves, s)
		}
	}
	return p, nil
}

func (p *plan) addStep(o *graph.Op, slotOf func(*graph.Variable) int) error {
	if o.Def() == nil {
		return fmt.Errorf("exec: op %q (%s) is not implemented by sdgo; it was kept from the file but cannot run", o.Name(), o.OpName())
	}
	st := step{op: o, def: o.Def()}
	for _, in := range o.Inputs() {
		s := slotOf(in)
		st.in = append(st.in, s)
		p.uses[s]++
	}
	for _, out := range o.Outputs() {
		st.out = append(st.out, slotOf(out))
		st.info = append(st.info, out.InfoLocked())
	}
	p.steps = append(p.steps, st)
	return nil
}

func (p *plan) String() string {
	var sb strings.Builder
	for _, s := range p.steps {
		fmt.Fprintf(&sb, "%s %v -> %v\n", s.op.Name(), s.in, s.out)
	}
	return sb.String()
}
