package exec

import (
	"fmt"
	"strings"
	"sync"

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

	// Control flow: plans with loops or conditionals run as dataflow (see
	// dynamic.go), with these indexes.
	dynamic   bool
	consumers [][]int // slot -> steps reading it
	starts    []int   // steps that read only leaves: where a run begins
	isOutput  []bool  // slot -> requested output
	// deep lists, per slot, the steps reading it that run in a loop frame
	// inside the one the slot is computed in (a loop body reading a value
	// from outside the loop): see dynRun.wakeDeep.
	deep [][]int

	// For concurrent runs (parallel.go), built on first use.
	depOnce sync.Once
	npred   []int32
	succ    [][]int
}

type step struct {
	op   *graph.Op
	def  *ops.Def
	in   []int
	out  []int
	info []ops.Info // inferred output infos, to check what the op returns
}

// buildPlan compiles a request against snap, whose version the plan keeps.
func buildPlan(snap graph.Snapshot, names []string) (*plan, error) {
	p := &plan{version: snap.Version(), names: names}
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
	var roots []*graph.Variable
	for _, n := range names {
		v, ok := snap.Variable(n)
		if !ok {
			msg := fmt.Sprintf("exec: no variable named %q", n)
			if err := snap.Err(); err != nil {
				return nil, fmt.Errorf("%s (the graph has a build error: %w)", msg, err)
			}
			return nil, fmt.Errorf("%s", msg)
		}
		roots = append(roots, v)
	}
	if flow := controlFlowOps(roots); flow != nil {
		if err := p.addDynamicSteps(snap, flow, slotOf); err != nil {
			return nil, err
		}
	} else {
		producers := make([]*graph.Op, len(roots))
		for i, v := range roots {
			producers[i] = v.Op()
		}
		if err := graph.PostOrder(producers, func(o *graph.Op) error { return p.addStep(snap, o, slotOf) }); err != nil {
			return nil, err
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
	if p.dynamic {
		p.isOutput = make([]bool, len(p.vars))
		for _, s := range p.outputs {
			p.isOutput[s] = true
		}
	}
	return p, nil
}

// controlFlowOps returns the ops the roots depend on, when one of them is
// a control-flow primitive (nil otherwise).
func controlFlowOps(roots []*graph.Variable) map[*graph.Op]bool {
	seen := map[*graph.Op]bool{}
	var stack []*graph.Op
	flow := false
	for _, r := range roots {
		if o := r.Op(); o != nil && !seen[o] {
			seen[o] = true
			stack = append(stack, o)
		}
	}
	for len(stack) > 0 {
		o := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if d := o.Def(); d != nil && d.Flags&ops.ControlFlow != 0 {
			flow = true
		}
		for _, in := range o.Inputs() {
			if p := in.Op(); p != nil && !seen[p] {
				seen[p] = true
				stack = append(stack, p)
			}
		}
	}
	if !flow {
		return nil
	}
	return seen
}

// addDynamicSteps adds the needed ops in the graph's order and builds the
// indexes dataflow execution uses.
func (p *plan) addDynamicSteps(snap graph.Snapshot, need map[*graph.Op]bool, slotOf func(*graph.Variable) int) error {
	p.dynamic = true
	for _, o := range snap.Ops() {
		if !need[o] {
			continue
		}
		if err := p.addStep(snap, o, slotOf); err != nil {
			return err
		}
	}
	p.consumers = make([][]int, len(p.vars))
	for k, st := range p.steps {
		leafOnly := true
		for _, sl := range st.in {
			if len(p.consumers[sl]) == 0 || p.consumers[sl][len(p.consumers[sl])-1] != k {
				p.consumers[sl] = append(p.consumers[sl], k)
			}
			leafOnly = leafOnly && p.vars[sl].Op() == nil
		}
		if leafOnly {
			p.starts = append(p.starts, k)
		}
	}
	p.findDeepReaders()
	return nil
}

// findDeepReaders fills p.deep: the readers of each slot that run in a
// frame inside the one the slot is in, as graph.Frames places them (the
// steps are in the graph's order).
func (p *plan) findDeepReaders() {
	var frames graph.Frames
	stepFrame := make([]*graph.Frame, len(p.steps))
	for k, st := range p.steps {
		stepFrame[k], _ = frames.Place(st.op)
	}
	p.deep = make([][]int, len(p.vars))
	for sl, cs := range p.consumers {
		f := frames.Of(p.vars[sl])
		for _, k := range cs {
			if stepFrame[k] != f && stepFrame[k].Within(f) {
				p.deep[sl] = append(p.deep[sl], k)
			}
		}
	}
}

func (p *plan) addStep(snap graph.Snapshot, o *graph.Op, slotOf func(*graph.Variable) int) error {
	if o.Def() == nil {
		// A file's node of an op sdgo has, kept opaque because the op
		// refused its inputs, says why (serialize.FileNode.Opaque).
		if r, ok := o.Opaque().(interface{ Opaque() string }); ok {
			if why := r.Opaque(); why != "" && why != "not implemented" {
				return fmt.Errorf("exec: op %q (%s) was kept from the file as an opaque op and cannot run: %s", o.Name(), o.OpName(), why)
			}
		}
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
		st.info = append(st.info, snap.Info(out))
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
