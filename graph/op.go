package graph

import (
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Op is an op node: an op from the registry (or an opaque op from a file that
// sdgo does not implement), its arguments, inputs and outputs.
type Op struct {
	name   string
	opName string
	def    *ops.Def
	// args is shared by all ops without arguments (noArgs): most ops take
	// none, and a copy each was most of an op's size.
	args *ops.Args
	// in holds the inputs. A merge gains its back edge after it was
	// added (AddBackEdge), and a While moves a nested loop's enter onto a
	// new input, while readers may hold the slice Inputs gave them: each
	// change stores a new slice, under the graph's write lock, and readers
	// load it without a lock.
	in      atomic.Pointer[[]*Variable]
	outputs []*Variable
	opaque  any
}

// Name returns the node's name, unique among the graph's ops.
func (o *Op) Name() string { return o.name }

// OpName returns the SameDiff op name ("matmul", "add", ...).
func (o *Op) OpName() string { return o.opName }

// Def returns the op's definition, or nil for an opaque op that sdgo does not
// implement.
func (o *Op) Def() *ops.Def { return o.def }

// Args returns the op's arguments. The caller must not change them.
func (o *Op) Args() *ops.Args { return o.args }

// noArgs is the arguments of every op that has none. Nothing writes an
// op's arguments once it is added.
var noArgs ops.Args

// argsOf returns a copy of a for an op, noArgs when a holds nothing.
func argsOf(a ops.Args) *ops.Args {
	if len(a.F)+len(a.I)+len(a.B)+len(a.D)+len(a.S)+len(a.Dims) == 0 {
		return &noArgs
	}
	c := a.Clone()
	return &c
}

// Inputs returns the input variables. The caller must not change the slice.
func (o *Op) Inputs() []*Variable { return *o.in.Load() }

// setInputs gives o the inputs in, a slice no reader holds. The caller
// holds the graph's write lock (or o is not in a graph yet).
func (o *Op) setInputs(in []*Variable) { o.in.Store(&in) }

// Outputs returns the output variables. The caller must not change the slice.
func (o *Op) Outputs() []*Variable { return o.outputs }

// IsBackEdge reports whether input i closes a loop: an input of a merge that
// a next_iteration produces (added by AddBackEdge once the loop body exists).
// Walks of the graph that must not go round a loop skip these inputs.
func (o *Op) IsBackEdge(i int) bool {
	if o.opName != "merge" {
		return false
	}
	p := o.Inputs()[i].op
	return p != nil && p.opName == "next_iteration"
}

// Opaque returns what a file loader attached to the node (for an op sdgo does
// not implement: everything needed to save it back unchanged).
func (o *Op) Opaque() any { return o.opaque }

func (o *Op) String() string {
	in := make([]string, len(o.Inputs()))
	for i, v := range o.Inputs() {
		in[i] = fmt.Sprintf("%s %v", v.name, v.info)
	}
	return fmt.Sprintf("%s (%s) with inputs [%s]", o.opName, o.name, strings.Join(in, ", "))
}

// OpSpec describes an op to add with AddOp.
type OpSpec struct {
	// Name is the node name; empty for an automatic one.
	Name string
	// OpName is the registered op name.
	OpName string
	Args   ops.Args
	Inputs []*Variable
	// OutputNames, when given, name every output of a registered op (an
	// error otherwise: a file's node that lists another number of outputs
	// is not that op); empty ones are automatic, as are all when none is
	// given (the node's name for output 0, "name:i" for the others).
	OutputNames []string
	// Opaque, when the op is not registered, keeps the node as an opaque op
	// (loaded from a file) instead of failing. OutputInfos then give what is
	// known of its outputs, and their number.
	Opaque      any
	OutputInfos []ops.Info
	// ForceOpaque keeps a registered op as an opaque node (with Opaque and
	// OutputInfos): a file's node that the op cannot take, kept as read.
	ForceOpaque bool
}

// AddOp adds an op and returns it. Its outputs' dtypes and shapes are
// inferred; an error names the op, its inputs' shapes and what does not fit.
func (g *Graph) AddOp(s OpSpec) (*Op, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for i, in := range s.Inputs {
		if in == nil {
			return nil, fmt.Errorf("%w: op %s: input %d is nil", ErrBuild, s.OpName, i)
		}
		if in.err != nil {
			return nil, in.err
		}
		if in.g != g {
			return nil, fmt.Errorf("%w: op %s: input %q belongs to another graph", ErrBuild, s.OpName, in.name)
		}
	}
	def, known := ops.Lookup(s.OpName)
	if s.ForceOpaque {
		if s.Opaque == nil {
			return nil, fmt.Errorf("%w: op %s: ForceOpaque needs what to keep in Opaque", ErrBuild, s.OpName)
		}
		known = false
	}
	o := &Op{opName: s.OpName, args: argsOf(s.Args), opaque: s.Opaque}
	o.setInputs(append([]*Variable(nil), s.Inputs...))
	var outs []ops.Info
	if known {
		o.def = def
		var err error
		if outs, err = g.infer(def, o); err != nil {
			return nil, err
		}
		if len(s.OutputNames) > 0 && len(s.OutputNames) != len(outs) {
			return nil, fmt.Errorf("%w: op %s gives %d outputs, %d names given", ErrBuild, o.describe(), len(outs), len(s.OutputNames))
		}
	} else {
		if s.Opaque == nil {
			return nil, fmt.Errorf("%w: unknown op %q", ErrBuild, s.OpName)
		}
		outs = s.OutputInfos
		if len(outs) < len(s.OutputNames) {
			outs = append(outs, make([]ops.Info, len(s.OutputNames)-len(outs))...)
		}
		for i := range outs {
			if outs[i].Shape == nil {
				outs[i].UnknownRank = true
			}
		}
	}
	if s.Name != "" {
		if g.opTaken(s.Name) {
			return nil, fmt.Errorf("%w: an op named %q already exists", ErrBuild, s.Name)
		}
		o.name = s.Name
	} else {
		o.name = g.uniqueName(s.OpName, g.opTaken)
	}
	// Check every wanted output name before adding anything.
	for i := range outs {
		if i < len(s.OutputNames) && s.OutputNames[i] != "" && g.varTaken(s.OutputNames[i]) {
			return nil, fmt.Errorf("%w: op %s: a variable named %q already exists", ErrNameTaken, o.name, s.OutputNames[i])
		}
	}
	for i, info := range outs {
		v := &Variable{kind: ARRAY, info: info, op: o, index: int32(i)}
		v.info.Value = info.Value
		base := o.name
		if i > 0 {
			base = fmt.Sprintf("%s:%d", o.name, i)
		}
		if i < len(s.OutputNames) && s.OutputNames[i] != "" {
			v.name = s.OutputNames[i]
		}
		if err := g.addVar(v, base); err != nil {
			return nil, err // cannot happen: names were checked
		}
		o.outputs = append(o.outputs, v)
	}
	g.ops = append(g.ops, o)
	g.opNames[o.name] = o
	if o.opName == "enter" || o.opName == "Enter" {
		// An enter added as such (a file's loop) takes its frame name as
		// While's do: a loop built later must open a frame of its own.
		g.frames[FrameName(o)] = true
	}
	g.version++
	return o, nil
}

// infer checks arity and runs the op's shape inference, turning a panic in
// it into an error.
func (g *Graph) infer(def *ops.Def, o *Op) (outs []ops.Info, err error) {
	n := len(o.Inputs())
	if err := def.CheckArity(n); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBuild, err)
	}
	in := make([]ops.Info, n)
	for i, v := range o.Inputs() {
		in[i] = v.infoLocked()
		if !in[i].DType.Computable() && def.Flags&ops.AnyDType == 0 {
			return nil, fmt.Errorf("%w: op %s: input %q is %v, which sdgo cannot compute with", ErrBuild, def.Name, v.name, in[i].DType)
		}
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %w", ErrBuild, ops.Recovered("shape inference of op "+o.describe(), r))
		}
	}()
	outs, err = def.Infer(in, o.args)
	if err != nil {
		return nil, fmt.Errorf("%w: op %s: %w", ErrBuild, o.describe(), err)
	}
	for i, out := range outs {
		if err := checkInferred(out); err != nil {
			return nil, fmt.Errorf("%w: op %s: output %d: %w", ErrBuild, o.describe(), i, err)
		}
	}
	return outs, nil
}

// checkInferred rejects an inferred shape no array can have (a negative
// size from a constant, a product that overflows), so that the mistake is
// reported where the op is built rather than when it runs.
func checkInferred(info ops.Info) error {
	if info.UnknownRank {
		return nil
	}
	known := make([]int, len(info.Shape))
	for i, d := range info.Shape {
		switch {
		case d < -1:
			return fmt.Errorf("shape %v has a negative size on axis %d", info.Shape, i)
		case d == -1:
			known[i] = 1 // known at run time
		default:
			known[i] = d
		}
	}
	return ndarray.CheckShape(known)
}

// describe names the op and its inputs for an error message.
func (o *Op) describe() string {
	in := make([]string, len(o.Inputs()))
	for i, v := range o.Inputs() {
		in[i] = fmt.Sprintf("%s %v", v.name, v.info)
	}
	return fmt.Sprintf("%s(%s)", o.opName, strings.Join(in, ", "))
}

// Op adds an op by name with arguments and inputs and returns its outputs.
func (g *Graph) Op(opName string, args ops.Args, inputs ...*Variable) ([]*Variable, error) {
	o, err := g.AddOp(OpSpec{OpName: opName, Args: args, Inputs: inputs})
	if err != nil {
		return nil, err
	}
	return o.outputs, nil
}

// Apply adds a single-output op and returns its output; on error the result
// carries the error (see the package comment).
func (g *Graph) Apply(opName string, args ops.Args, inputs ...*Variable) *Variable {
	for _, in := range inputs {
		if in != nil && in.err != nil {
			return in
		}
	}
	out, err := g.Op(opName, args, inputs...)
	if err != nil {
		return g.fail(err)
	}
	return out[0]
}

// AddBackEdge adds an input to a merge op: the value a loop's
// next_iteration carries back, which exists only after the loop body that
// reads the merge has been built. It is how loops (and files holding them)
// close their cycle; no other op may gain inputs after it was added.
func (g *Graph) AddBackEdge(merge *Op, v *Variable) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if merge.opName != "merge" {
		return fmt.Errorf("%w: only a merge can gain a back edge, not %s (%s)", ErrBuild, merge.name, merge.opName)
	}
	if v == nil || v.err != nil {
		return fmt.Errorf("%w: back edge into %s: no value", ErrBuild, merge.name)
	}
	if v.g != g {
		return fmt.Errorf("%w: back edge into %s: %q belongs to another graph", ErrBuild, merge.name, v.name)
	}
	if len(merge.outputs) > 0 && v.info.DType != merge.outputs[0].info.DType {
		return fmt.Errorf("%w: back edge into %s: %q is %v, the merge carries %v", ErrBuild, merge.name, v.name, v.info.DType, merge.outputs[0].info.DType)
	}
	merge.setInputs(append(slices.Clip(merge.Inputs()), v))
	g.version++
	return nil
}
