package autodiff

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// ErrNoGradient is wrapped by errors about values that cannot carry a
// gradient (integer or bool dtypes) or ops without a gradient rule.
var ErrNoGradient = errors.New("no gradient")

// Grad adds to loss's graph the gradient of loss (summed over its elements
// when it is not a scalar) with respect to each of wrt, and returns the
// gradient variables in the same order. A gradient built before (by Grad,
// GradSum or Gradients) of the same losses with respect to the same
// variable is returned again, not built twice, unless a back edge has been
// added since (graph.Graph.AddBackEdge) to a merge the losses read.
func Grad(loss *graph.Variable, wrt ...*graph.Variable) ([]*graph.Variable, error) {
	return GradSum([]*graph.Variable{loss}, wrt...)
}

// GradSum is Grad of the sum of several losses.
func GradSum(losses []*graph.Variable, wrt ...*graph.Variable) ([]*graph.Variable, error) {
	if len(losses) == 0 {
		return nil, fmt.Errorf("autodiff: no loss given")
	}
	for i, l := range losses {
		if l == nil {
			return nil, fmt.Errorf("autodiff: loss %d is nil", i)
		}
	}
	for i, w := range wrt {
		if w == nil {
			return nil, fmt.Errorf("autodiff: variable %d to differentiate with respect to is nil", i)
		}
	}
	g := losses[0].Graph()
	for _, l := range losses {
		if err := l.Err(); err != nil {
			return nil, err
		}
		if l.Graph() != g {
			return nil, fmt.Errorf("autodiff: losses %q and %q belong to different graphs", losses[0].Name(), l.Name())
		}
		if !l.DType().IsFloat() {
			return nil, fmt.Errorf("autodiff: %w: loss %q is %v; a loss must be floating-point", ErrNoGradient, l.Name(), l.DType())
		}
	}
	for _, w := range wrt {
		if err := w.Err(); err != nil {
			return nil, err
		}
		if w.Graph() != g {
			return nil, fmt.Errorf("autodiff: variable %q belongs to another graph", w.Name())
		}
		if !w.DType().IsFloat() {
			return nil, fmt.Errorf("autodiff: %w: %q is %v; integer and bool values carry no gradient", ErrNoGradient, w.Name(), w.DType())
		}
	}
	// A gradient built before for the same losses is reused, so that Grad
	// followed by a trainer (Gradients) leaves one copy in the graph.
	cache := gradCache(g)
	ids := make([]string, len(losses))
	for i, l := range losses {
		ids[i] = strconv.Itoa(l.ID())
	}
	lossKey := strings.Join(ids, ",")
	out := make([]*graph.Variable, len(wrt))
	var missing []*graph.Variable
	var missingAt []int
	for i, w := range wrt {
		if v, ok := cache.get(gradKey{lossKey, w}); ok {
			out[i] = v
			continue
		}
		missing = append(missing, w)
		missingAt = append(missingAt, i)
	}
	if len(missing) == 0 {
		return out, nil
	}
	d := &diff{g: g, b: &builder{g: g}, firstNew: len(g.Variables())}
	gs, err := d.run(losses, missing)
	if err != nil {
		return nil, err
	}
	merges := d.mergesRead()
	for j, gv := range gs {
		out[missingAt[j]] = gv
		cache.put(gradKey{lossKey, missing[j]}, cachedGrad{gv, merges})
	}
	cache.addBuild(build{losses: slices.Clone(losses), wrt: missing, grads: gs, from: d.firstNew, to: len(g.Variables())})
	return out, nil
}

type diff struct {
	g    *graph.Graph
	b    *builder
	root *scope
	// fwd and need mark the values that depend on a wanted variable and
	// that the losses depend on; relevant values are both.
	fwd, need map[*graph.Variable]bool
	// loops describes the graph's loop frames (nil without control flow).
	loops *loopAnalysis
	// firstNew is the ID of the first variable this differentiation adds.
	firstNew int
	// all are the graph's ops when the differentiation began.
	all []*graph.Op
}

// scope is where gradient ops are being built: the root, or the body of a
// loop's backward loop. Contributions are kept per scope, keyed by forward
// variable; wrap gives how a forward value is read by the scope's gradient
// ops (inside a backward loop, from the mirrored forward iteration).
type scope struct {
	frame   *frameInfo // the forward frame whose body this is; nil at the root
	contrib map[*graph.Variable][]ops.Value
	wrap    func(*graph.Variable) ops.Value
}

// diffInput reports whether input i of op o can carry a gradient.
func diffInput(o *graph.Op, i int) bool {
	if !o.Inputs()[i].DType().IsFloat() {
		return false
	}
	if def := o.Def(); def != nil && slices.Contains(def.NonDiff, i) {
		return false
	}
	return true
}

func (d *diff) relevant(v *graph.Variable) bool { return d.fwd[v] && d.need[v] }

// mark finds the relevant values. Loops send values backwards in the op
// order (next_iteration into merge), so both passes repeat until nothing
// changes.
func (d *diff) mark(losses, wrt []*graph.Variable, all []*graph.Op) {
	d.fwd, d.need = map[*graph.Variable]bool{}, map[*graph.Variable]bool{}
	for _, w := range wrt {
		d.fwd[w] = true
	}
	for changed := true; changed; {
		changed = false
		for _, o := range all {
			reach := false
			for i, in := range o.Inputs() {
				if d.fwd[in] && diffInput(o, i) {
					reach = true
					break
				}
			}
			if !reach {
				continue
			}
			for _, out := range o.Outputs() {
				if out.DType().IsFloat() && !d.fwd[out] {
					d.fwd[out], changed = true, true
				}
			}
		}
	}
	for _, l := range losses {
		d.need[l] = true
	}
	for changed := true; changed; {
		changed = false
		for i := len(all) - 1; i >= 0; i-- {
			o := all[i]
			needed := false
			for _, out := range o.Outputs() {
				if d.need[out] {
					needed = true
					break
				}
			}
			if !needed {
				continue
			}
			for _, in := range o.Inputs() {
				if !d.need[in] {
					d.need[in], changed = true, true
				}
			}
		}
	}
}

func (d *diff) run(losses, wrt []*graph.Variable) ([]*graph.Variable, error) {
	all := d.g.Ops()
	d.all = all
	d.mark(losses, wrt, all)
	la, err := analyzeLoops(all)
	if err != nil {
		return nil, err
	}
	d.loops = la
	d.root = &scope{contrib: map[*graph.Variable][]ops.Value{}, wrap: func(v *graph.Variable) ops.Value { return v }}
	for _, l := range losses {
		if d.relevant(l) {
			d.root.contrib[l] = append(d.root.contrib[l], d.seed(l))
		}
	}
	if err := d.processScope(d.root, la.rootOps, la.rootFrames); err != nil {
		return nil, err
	}
	out := make([]*graph.Variable, len(wrt))
	named := map[*graph.Variable]bool{}
	for i, w := range wrt {
		v := d.total(d.root, w)
		switch {
		case v == nil:
			// Not connected to the loss: the gradient is zero.
			v = d.b.op1("zeros_as", ops.Args{}, w)
		case la.any:
			// A gradient that only flowed through a branch not taken
			// is dead when the graph runs; it counts as zero.
			v = d.b.op1("mergeadd", ops.MergeAddDeadAsZero(), v, d.b.op1("zeros_as", ops.Args{}, w))
		}
		if d.b.err != nil {
			return nil, d.b.err
		}
		gv := v.(*graph.Variable)
		// Name the gradient after w only if this call created it and has
		// not named it already (two variables can share one gradient).
		if gv.Op() != nil && gv != w && gv.ID() >= d.firstNew && !named[gv] {
			// Rename checks and takes the name under one lock; another
			// goroutine building on the graph may take it first.
			switch err := d.g.Rename(gv, w.Name()+"-grad"); {
			case err == nil:
				named[gv] = true
			case !errors.Is(err, graph.ErrNameTaken):
				return nil, err
			}
		}
		out[i] = gv
	}
	return out, nil
}

// mergesRead returns the merges the losses read (through any number of
// ops) and their input counts, after run: the ops that a back edge added
// later would make the losses depend on more than the gradient knows.
func (d *diff) mergesRead() []mergeInputs {
	var out []mergeInputs
	for _, o := range d.all {
		if o.OpName() == "merge" && slices.ContainsFunc(o.Outputs(), func(v *graph.Variable) bool { return d.need[v] }) {
			out = append(out, mergeInputs{o, len(o.Inputs())})
		}
	}
	return out
}

// seed returns the gradient of a loss with respect to itself: ones.
func (d *diff) seed(l *graph.Variable) ops.Value {
	if s := l.Shape(); s != nil && len(s) == 0 {
		return d.b.Const(ndarray.Must(ndarray.ScalarOf(l.DType(), 1)))
	}
	return d.b.op1("ones_as", ops.Args{}, l)
}

// total sums a variable's gradient contributions in a scope into one value
// (nil when there are none).
func (d *diff) total(sc *scope, v *graph.Variable) ops.Value {
	c := sc.contrib[v]
	switch len(c) {
	case 0:
		return nil
	case 1:
		return c[0]
	}
	t := d.b.op1("mergeadd", ops.MergeAddDeadAsZero(), c...)
	sc.contrib[v] = []ops.Value{t}
	return t
}

// step differentiates one op. At the root only ops between the wanted
// variables and the losses are; in a loop body, every op whose outputs got
// a gradient.
func (d *diff) step(o *graph.Op, sc *scope) error {
	atRoot := sc.frame == nil
	rel := func(v *graph.Variable) bool { return !atRoot || d.relevant(v) }
	wants := false
	for i, in := range o.Inputs() {
		if rel(in) && diffInput(o, i) {
			wants = true
			break
		}
	}
	if !wants {
		return nil
	}
	dOut := make([]ops.Value, len(o.Outputs()))
	any := false
	for i, out := range o.Outputs() {
		if rel(out) {
			dOut[i] = d.total(sc, out)
			any = any || dOut[i] != nil
		}
	}
	if !any {
		return nil
	}
	def := o.Def()
	if def == nil || def.Grad == nil {
		return fmt.Errorf("autodiff: %w: op %q (%s) has no gradient rule, and the loss depends on its inputs through it", ErrNoGradient, o.Name(), o.OpName())
	}
	n := ops.GradNode{In: d.wrapAll(sc, o.Inputs()), Out: d.wrapAll(sc, o.Outputs()), Args: o.Args()}
	grads, err := d.callRule(o, n, dOut)
	if err != nil {
		return err
	}
	for i, in := range o.Inputs() {
		if i >= len(grads) || grads[i] == nil || !rel(in) || !diffInput(o, i) {
			continue
		}
		if err := checkGrad(o, i, grads[i]); err != nil {
			return err
		}
		sc.contrib[in] = append(sc.contrib[in], grads[i])
	}
	return nil
}

func (d *diff) wrapAll(sc *scope, vs []*graph.Variable) []ops.Value {
	out := make([]ops.Value, len(vs))
	for i, v := range vs {
		out[i] = sc.wrap(v)
	}
	return out
}

func (d *diff) callRule(o *graph.Op, n ops.GradNode, dOut []ops.Value) (grads []ops.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			if d.b.err != nil {
				err = d.b.err
				return
			}
			err = fmt.Errorf("autodiff: %w", ops.Recovered(fmt.Sprintf("gradient rule of op %q (%s)", o.Name(), o.OpName()), r))
		}
	}()
	grads = o.Def().Grad(d.b, n, dOut)
	if d.b.err != nil {
		return nil, fmt.Errorf("autodiff: gradient of op %q (%s): %w", o.Name(), o.OpName(), d.b.err)
	}
	return grads, nil
}

// checkGrad catches gradient rules that return a value that cannot be the
// gradient of the input (a bug in the rule, reported rather than run).
func checkGrad(o *graph.Op, i int, g ops.Value) error {
	in := o.Inputs()[i].Info()
	gi := g.Info()
	if gi.DType != in.DType {
		return fmt.Errorf("autodiff: gradient rule of op %q (%s) gives input %d a %v gradient for a %v input", o.Name(), o.OpName(), i, gi.DType, in.DType)
	}
	if !gi.UnknownRank && !in.Admits(gi.Shape) {
		return fmt.Errorf("autodiff: gradient rule of op %q (%s) gives input %d (shape %v) a gradient of shape %v", o.Name(), o.OpName(), i, in.Shape, gi.Shape)
	}
	return nil
}

func values(vs []*graph.Variable) []ops.Value {
	out := make([]ops.Value, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return out
}

// builder adds gradient ops to the graph for the rules. After the first
// error it adds nothing and hands out placeholders, so a rule written as one
// expression runs to its end; the error is reported once.
type builder struct {
	g   *graph.Graph
	err error
}

type errValue struct{}

func (errValue) Info() ops.Info { return ops.Info{UnknownRank: true} }

func (b *builder) Op(name string, args ops.Args, in ...ops.Value) []ops.Value {
	fail := func(err error) []ops.Value {
		if b.err == nil {
			b.err = err
		}
		return []ops.Value{errValue{}, errValue{}, errValue{}, errValue{}}
	}
	if b.err != nil {
		return fail(b.err)
	}
	vars := make([]*graph.Variable, len(in))
	for i, v := range in {
		gv, ok := v.(*graph.Variable)
		if !ok || gv == nil {
			return fail(fmt.Errorf("input %d of %s is not a graph value", i, name))
		}
		vars[i] = gv
	}
	outs, err := b.g.Op(name, args, vars...)
	if err != nil {
		return fail(err)
	}
	return values(outs)
}

func (b *builder) op1(name string, args ops.Args, in ...ops.Value) ops.Value {
	return b.Op(name, args, in...)[0]
}

func (b *builder) Const(a *ndarray.Array) ops.Value {
	if b.err != nil {
		return errValue{}
	}
	v := b.g.Const("", a)
	if v.Err() != nil {
		b.err = v.Err()
		return errValue{}
	}
	return v
}

// Gradients returns the gradients of the graph's loss variables (summed)
// with respect to wrt, building them the first time and reusing them on
// later calls with the same losses and variables.
func Gradients(g *graph.Graph, wrt ...*graph.Variable) ([]*graph.Variable, error) {
	names := g.Losses()
	if len(names) == 0 {
		return nil, fmt.Errorf("autodiff: the graph has no loss variables (set them with SetLoss)")
	}
	losses := make([]*graph.Variable, len(names))
	for i, n := range names {
		v, ok := g.Variable(n)
		if !ok {
			return nil, fmt.Errorf("autodiff: loss variable %q does not exist", n)
		}
		losses[i] = v
	}
	return GradSum(losses, wrt...)
}
