package graph

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// VarType is a variable's kind; the values are SameDiff's.
type VarType uint8

const (
	// VARIABLE is trainable and holds an array.
	VARIABLE VarType = 0
	// CONSTANT holds an array that never changes.
	CONSTANT VarType = 1
	// ARRAY is the output of an op.
	ARRAY VarType = 2
	// PLACEHOLDER is fed when the graph runs.
	PLACEHOLDER VarType = 3
	// SEQUENCE is a list of arrays (newer SameDiff files); kept, not computed.
	SEQUENCE VarType = 4
)

func (t VarType) String() string {
	switch t {
	case VARIABLE:
		return "VARIABLE"
	case CONSTANT:
		return "CONSTANT"
	case ARRAY:
		return "ARRAY"
	case PLACEHOLDER:
		return "PLACEHOLDER"
	case SEQUENCE:
		return "SEQUENCE"
	}
	return fmt.Sprintf("VarType(%d)", uint8(t))
}

// ErrBuild is wrapped by every error about a graph under construction.
var ErrBuild = errors.New("graph")

// ErrNameTaken is wrapped (with ErrBuild) by the error for a name that
// another variable of the graph holds, so that a caller that only prefers
// a name, as autodiff does for a gradient, can test for it after trying:
// testing first and renaming after is a race when goroutines build one
// graph.
var ErrNameTaken = fmt.Errorf("%w: name taken", ErrBuild)

// Graph is a computation graph.
type Graph struct {
	mu      sync.RWMutex
	vars    []*Variable
	byName  map[string]*Variable
	ops     []*Op
	opNames map[string]*Op
	counter map[string]int
	frames  map[string]bool // loop frame names in use
	losses  []string
	err     error
	version uint64 // structural version: see Version
	// Meta holds whatever packages above graph attach to it (the training
	// configuration, updater state), keyed by package.
	meta map[string]any
}

// New returns an empty graph.
func New() *Graph {
	return &Graph{byName: map[string]*Variable{}, opNames: map[string]*Op{}, counter: map[string]int{}, frames: map[string]bool{}, meta: map[string]any{}}
}

// Err returns the first error of a chainable builder call, or nil.
func (g *Graph) Err() error {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.err
}

// Version changes whenever the graph's structure changes (variables or ops
// added, back edges, renames, losses) or a CONSTANT's value is set, since
// shape inference reads constants; executors use it to know when cached
// plans are stale. Setting a VARIABLE's value or metadata (SetMeta) does not
// change it: runs read variable values when they start.
func (g *Graph) Version() uint64 {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.version
}

func (g *Graph) record(err error) {
	if g.err == nil {
		g.err = err
	}
}

// uniqueName returns base if it is free, else base_1, base_2, ...
func (g *Graph) uniqueName(base string, taken func(string) bool) string {
	if !taken(base) {
		return base
	}
	for {
		g.counter[base]++
		n := base + "_" + strconv.Itoa(g.counter[base])
		if !taken(n) {
			return n
		}
	}
}

func (g *Graph) varTaken(n string) bool { _, ok := g.byName[n]; return ok }
func (g *Graph) opTaken(n string) bool  { _, ok := g.opNames[n]; return ok }

// addVar registers v under its name (or a generated one from base).
func (g *Graph) addVar(v *Variable, base string) error {
	if v.name == "" {
		v.name = g.uniqueName(base, g.varTaken)
	} else if g.varTaken(v.name) {
		return fmt.Errorf("%w: a variable named %q already exists", ErrNameTaken, v.name)
	}
	if len(g.vars) >= math.MaxInt32 {
		return fmt.Errorf("%w: variable %q: the graph holds %d variables, the most it can", ErrBuild, v.name, len(g.vars))
	}
	v.g = g
	v.id = int32(len(g.vars))
	shown := v.name // a copy: Rename writes v.name while Name may read this
	v.shown.Store(&shown)
	g.vars = append(g.vars, v)
	g.byName[v.name] = v
	g.version++
	return nil
}

func (g *Graph) addVarLocked(v *Variable, base string) *Variable {
	g.mu.Lock()
	defer g.mu.Unlock()
	if err := g.addVar(v, base); err != nil {
		g.record(err)
		return &Variable{g: g, err: err}
	}
	return v
}

// Placeholder adds a placeholder of the given dtype and shape (-1 for sizes
// that vary between runs). An empty name gets an automatic one.
func (g *Graph) Placeholder(name string, dt ndarray.DType, shape ...int) *Variable {
	known := make([]int, len(shape)) // the sizes given, 1 for the unknown ones
	for i, d := range shape {
		if d < -1 {
			return g.fail(fmt.Errorf("%w: placeholder %q: size %d on axis %d (use -1 for unknown)", ErrBuild, name, d, i))
		}
		known[i] = d
		if d == -1 {
			known[i] = 1
		}
	}
	// A shape no array can have would make every op on the placeholder
	// fail its shape inference, far from the cause.
	if err := ndarray.CheckShape(known); err != nil {
		return g.fail(fmt.Errorf("%w: placeholder %q of shape %v: %v", ErrBuild, name, shape, err))
	}
	return g.addVarLocked(&Variable{name: name, kind: PLACEHOLDER, info: ops.Info{DType: dt, Shape: append([]int{}, shape...)}}, "placeholder")
}

// Var adds a trainable variable holding init. An empty name gets an
// automatic one.
func (g *Graph) Var(name string, init *ndarray.Array) *Variable {
	return g.valueVar(name, VARIABLE, init, "variable")
}

// Const adds a constant. An empty name gets an automatic one.
func (g *Graph) Const(name string, value *ndarray.Array) *Variable {
	return g.valueVar(name, CONSTANT, value, "constant")
}

// Scalar adds a rank-0 constant of dtype dt holding v.
func (g *Graph) Scalar(dt ndarray.DType, v float64) *Variable {
	a, err := ndarray.ScalarOf(dt, v)
	if err != nil {
		return g.fail(fmt.Errorf("%w: scalar constant: %v", ErrBuild, err))
	}
	return g.Const("", a)
}

// Fail records err as the graph's error (Err keeps the first) and returns a
// variable carrying it, so that packages building on the builders (layers)
// report their own checks the way a builder call does.
func (g *Graph) Fail(err error) *Variable { return g.fail(err) }

func (g *Graph) fail(err error) *Variable {
	g.mu.Lock()
	g.record(err)
	g.mu.Unlock()
	return &Variable{g: g, err: err}
}

func (g *Graph) valueVar(name string, kind VarType, a *ndarray.Array, base string) *Variable {
	if a == nil {
		return g.fail(fmt.Errorf("%w: %v %q has no value", ErrBuild, kind, name))
	}
	return g.addVarLocked(&Variable{name: name, kind: kind, value: a,
		info: ops.Info{DType: a.DType(), Shape: append([]int{}, a.Shape()...)}}, base)
}

// Variable returns the variable with this name.
func (g *Graph) Variable(name string) (*Variable, bool) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	v, ok := g.byName[name]
	return v, ok
}

// Variables returns every variable in the order they were added (but for
// the op While adds to place a nested loop, see nestLoops).
func (g *Graph) Variables() []*Variable {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return append([]*Variable(nil), g.vars...)
}

// VariablesOf returns the variables of one type, in the order they were added.
func (g *Graph) VariablesOf(t VarType) []*Variable {
	g.mu.RLock()
	defer g.mu.RUnlock()
	var out []*Variable
	for _, v := range g.vars {
		if v.kind == t {
			out = append(out, v)
		}
	}
	return out
}

// Ops returns every op in the order they were added (a valid execution
// order for ops built in Go; While moves the op that places a nested loop
// before the loop, see nestLoops).
func (g *Graph) Ops() []*Op {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return append([]*Op(nil), g.ops...)
}

// OpByName returns the op node with this name.
func (g *Graph) OpByName(name string) (*Op, bool) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	o, ok := g.opNames[name]
	return o, ok
}

// SetLoss marks the named variables as the graph's loss; several losses are
// summed when differentiating, as in SameDiff.
func (g *Graph) SetLoss(names ...string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, n := range names {
		v, ok := g.byName[n]
		if !ok && g.err != nil {
			// A chainable call that failed left its variable (nameless,
			// in no list) out of the graph: say why it is missing.
			return fmt.Errorf("%w: loss variable %q does not exist (the graph has a build error: %w)", ErrBuild, n, g.err)
		}
		if !ok {
			return fmt.Errorf("%w: loss variable %q does not exist", ErrBuild, n)
		}
		if !v.info.DType.IsFloat() {
			return fmt.Errorf("%w: loss variable %q is %v; a loss must be floating-point", ErrBuild, n, v.info.DType)
		}
	}
	g.losses = append([]string(nil), names...)
	g.version++
	return nil
}

// AddLoss marks the named variables as losses of the graph too, after the
// ones it has (a name it has already is not added twice), as SameDiff's
// markAsLoss does; the loss builders (g.Loss()) call it for their
// outputs. SetLoss replaces the list instead.
func (g *Graph) AddLoss(names ...string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, n := range names {
		v, ok := g.byName[n]
		if !ok {
			return fmt.Errorf("%w: loss variable %q does not exist", ErrBuild, n)
		}
		if !v.info.DType.IsFloat() {
			return fmt.Errorf("%w: loss variable %q is %v; a loss must be floating-point", ErrBuild, n, v.info.DType)
		}
	}
	added := false
	for _, n := range names {
		if !slices.Contains(g.losses, n) {
			g.losses = append(g.losses, n)
			added = true
		}
	}
	if added {
		g.version++
	}
	return nil
}

// Losses returns the names of the loss variables.
func (g *Graph) Losses() []string {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return append([]string(nil), g.losses...)
}

// Rename gives v a new name. The graph's losses and the updater state in
// its meta (MetaUpdaterState) follow it. The training configuration
// (MetaTrainingConfig) follows when its value writes its JSON when read
// with the names its variables have then, as the configuration of a loaded
// file (package serialize) and a trainer's (package train) do; JSON text
// set as a plain string is left as it is.
func (g *Graph) Rename(v *Variable, name string) error {
	if v == nil {
		return fmt.Errorf("%w: rename to %q: a nil variable", ErrBuild, name)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if v.err != nil {
		return v.err
	}
	if v.g != g {
		// Renaming it here would enter it in this graph's names and
		// leave the other graph's names pointing to it under the old one.
		return fmt.Errorf("%w: cannot rename %q to %q: it belongs to another graph", ErrBuild, v.Name(), name)
	}
	if name == v.name {
		return nil
	}
	if name == "" {
		return fmt.Errorf("%w: empty name for variable %q", ErrBuild, v.name)
	}
	if g.varTaken(name) {
		return fmt.Errorf("%w: cannot rename %q: a variable named %q already exists", ErrNameTaken, v.name, name)
	}
	delete(g.byName, v.name)
	for i, l := range g.losses {
		if l == v.name {
			g.losses[i] = name
		}
	}
	// The updater state is kept by parameter name: left under the old
	// one, a trainer resuming from the graph would start the parameter's
	// state from zero without a word.
	// A new map, not the one in the meta: a caller may be reading that one
	// (GetMeta hands it out), as a save does.
	if st, ok := g.meta[MetaUpdaterState].(map[string]map[string]*ndarray.Array); ok {
		if s, ok := st[v.name]; ok {
			moved := maps.Clone(st)
			delete(moved, v.name)
			moved[name] = s
			g.meta[MetaUpdaterState] = moved
		}
	}
	v.name = name
	v.shown.Store(&name)
	g.byName[name] = v
	g.version++
	return nil
}

// SetMeta attaches a value for a package above graph (for example the
// training configuration); GetMeta reads it back.
func (g *Graph) SetMeta(key string, v any) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.meta[key] = v
	// Metadata is not structure: executors' plans do not depend on it.
}

// GetMeta returns the value attached under key.
func (g *Graph) GetMeta(key string) (any, bool) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	v, ok := g.meta[key]
	return v, ok
}

// Summary describes the graph in a few lines per variable and op.
func (g *Graph) Summary() string {
	g.mu.RLock()
	defer g.mu.RUnlock()
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d variables, %d ops\n", len(g.vars), len(g.ops))
	vs := append([]*Variable(nil), g.vars...)
	sort.SliceStable(vs, func(i, j int) bool { return vs[i].kind < vs[j].kind })
	for _, v := range vs {
		if v.kind != ARRAY {
			fmt.Fprintf(&sb, "  %-11v %-20s %v\n", v.kind, v.name, v.info)
		}
	}
	for _, o := range g.ops {
		in := make([]string, len(o.Inputs()))
		for i, v := range o.Inputs() {
			in[i] = v.name
		}
		out := make([]string, len(o.outputs))
		for i, v := range o.outputs {
			out[i] = fmt.Sprintf("%s %v", v.name, v.info)
		}
		fmt.Fprintf(&sb, "  %s = %s(%s)  [%s]\n", strings.Join(out, ", "), o.opName, strings.Join(in, ", "), o.name)
	}
	return sb.String()
}

// Meta keys shared by the packages that train graphs and save them, so that
// neither needs to import the other.
const (
	// MetaTrainingConfig holds the training configuration as SameDiff's
	// JSON text: a string, or a json.Marshaler that writes it when read
	// (a trainer keeps its live configuration there); see MetaJSON.
	MetaTrainingConfig = "trainingConfig"
	// MetaUpdaterState holds the updater's state as a
	// map[string]map[string]*ndarray.Array: parameter name -> state key
	// (for Adam "M" and "V") -> array. Rename moves a parameter's entry
	// (into a new map, which it sets in the old one's place: the old one
	// may be in a reader's hands).
	MetaUpdaterState = "updaterState"
)

// MetaJSON returns the JSON text a meta value holds: the value itself when
// it is a string, else what its MarshalJSON writes.
func MetaJSON(v any) (string, error) {
	switch v := v.(type) {
	case string:
		return v, nil
	case json.Marshaler:
		b, err := v.MarshalJSON()
		return string(b), err
	}
	return "", fmt.Errorf("graph: meta value %T is not JSON text (a string or a json.Marshaler)", v)
}
