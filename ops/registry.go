package ops

import (
	"fmt"
	"sort"
	"sync"

	"github.com/sdgo/sdgo/ndarray"
)

// OpType is SameDiff's op category, stored in graph files beside the op
// number. Custom ops (the great majority) are identified by name hash.
type OpType uint8

// The op types, numbered as SameDiff's graph files number them (libnd4j's
// OpType enum): the legacy op families take an op number within the
// family; Custom ops take their name's hash.
const (
	TransformFloat  OpType = 0
	TransformSame   OpType = 1
	TransformBool   OpType = 2
	TransformStrict OpType = 3
	TransformAny    OpType = 4
	ReduceFloat     OpType = 5
	ReduceSame      OpType = 6
	ReduceLong      OpType = 7
	ReduceBool      OpType = 8
	IndexReduce     OpType = 9
	Scalar          OpType = 10
	ScalarBool      OpType = 11
	Broadcast       OpType = 12
	BroadcastBool   OpType = 13
	Pairwise        OpType = 14
	PairwiseBool    OpType = 15
	Reduce3         OpType = 16
	SummaryStats    OpType = 17
	Shape           OpType = 18
	Aggregation     OpType = 19
	Random          OpType = 20
	Custom          OpType = 21
	GraphOp         OpType = 22
	VariableOp      OpType = 40
	Boolean         OpType = 60
	Logic           OpType = 119
	UDF             OpType = 120
)

// Args are an op's arguments in SameDiff's positional form: the slots a graph
// file stores them in.
type Args struct {
	F    []float64       // float arguments (tArgs; extraParams in files)
	I    []int64         // integer arguments (iArgs; extraInteger)
	B    []bool          // bool arguments (bArgs; extraBools)
	D    []ndarray.DType // dtype arguments (dArgs; extraTypes)
	S    []string        // string arguments (extraStrings)
	Dims []int           // dimensions, for reduce-like ops
}

// Int returns integer argument i, or def when there is none.
func (a *Args) Int(i int, def int64) int64 {
	if a != nil && i < len(a.I) {
		return a.I[i]
	}
	return def
}

// Float returns float argument i, or def when there is none.
func (a *Args) Float(i int, def float64) float64 {
	if a != nil && i < len(a.F) {
		return a.F[i]
	}
	return def
}

// Bool returns bool argument i, or def when there is none.
func (a *Args) Bool(i int, def bool) bool {
	if a != nil && i < len(a.B) {
		return a.B[i]
	}
	return def
}

// DType returns dtype argument i, or def when there is none.
func (a *Args) DType(i int, def ndarray.DType) ndarray.DType {
	if a != nil && i < len(a.D) {
		return a.D[i]
	}
	return def
}

// Clone returns a deep copy.
func (a Args) Clone() Args {
	return Args{
		F: append([]float64(nil), a.F...), I: append([]int64(nil), a.I...), B: append([]bool(nil), a.B...),
		D: append([]ndarray.DType(nil), a.D...), S: append([]string(nil), a.S...), Dims: append([]int(nil), a.Dims...),
	}
}

// Info is what is known about a value while a graph is built: its dtype, its
// shape (-1 for sizes known only at run time) and, when it is a constant, its
// value. A value whose rank is unknown has UnknownRank set and no Shape.
type Info struct {
	DType       ndarray.DType
	Shape       []int
	UnknownRank bool
	Value       *ndarray.Array
}

// ShapeKnown reports whether every size of the shape is known.
func (i Info) ShapeKnown() bool {
	if i.UnknownRank {
		return false
	}
	for _, d := range i.Shape {
		if d < 0 {
			return false
		}
	}
	return true
}

// Admits reports whether a value of the given shape can stand where i was
// inferred: i's rank is unknown, or the ranks are equal and no two known
// sizes differ (a negative size, in i or in shape, is unknown).
func (i Info) Admits(shape []int) bool {
	if i.UnknownRank {
		return true
	}
	if len(i.Shape) != len(shape) {
		return false
	}
	for j, d := range i.Shape {
		if d >= 0 && shape[j] >= 0 && d != shape[j] {
			return false
		}
	}
	return true
}

// String gives the dtype and shape, as float32[2 -1], or float32[?] when
// the rank is unknown.
func (i Info) String() string {
	if i.UnknownRank {
		return fmt.Sprintf("%v[?]", i.DType)
	}
	return fmt.Sprintf("%v%v", i.DType, i.Shape)
}

// Flags describe how an op treats its inputs' buffers.
type Flags uint8

const (
	// View: output 0 shares input 0's buffer (CreateView). Nothing is written.
	View Flags = 1 << iota
	// InPlace: the op may write output 0 into input 0's buffer when the
	// executor allows it (Ctx.CanOverwrite), otherwise into a copy.
	InPlace
	// NoInference: shapes depend on values only known at run time; the op's
	// Infer may return unknown sizes.
	NoInference
	// ControlFlow: a TensorFlow-v1 control-flow primitive (enter, exit,
	// switch, merge, next_iteration, loop_cond) that the executor carries
	// out itself, with frames, iterations and dead values; its Run is the
	// plain data movement, for use outside an executor.
	ControlFlow
	// Stateful: the op keeps objects in the run's state (Ctx.State), such
	// as tensor arrays; an executor running ops concurrently runs it alone.
	Stateful
	// AnyDType: the op takes inputs of dtypes sdgo cannot compute with
	// (strings, half floats) and handles them itself (identity passes them
	// on, Assert prints its message).
	AnyDType
	// OutDTypeArg: dtype arg 0, when given, is the output's dtype, and the
	// inputs may then be of different numeric dtypes: libnd4j's pairwise
	// arithmetic, which computes in the wider input dtype and converts to
	// the type a file's node declares (int64 + double with an INT64 output
	// gives int64). A loaded node that declares an output dtype its inputs
	// do not give gets it as dtype arg 0.
	OutDTypeArg
)

// Def defines one op.
type Def struct {
	// Name is the SameDiff op name ("add", "matmul", "create_view", ...).
	Name string
	// Aliases are other names files use for the same op.
	Aliases []string
	// Type and Num are what graph files store beside the name: for custom
	// ops, Type is Custom and Num the name's hash (filled by Register).
	Type OpType
	Num  int64
	// MinIn and MaxIn bound the number of inputs; MaxIn < 0 means any number.
	// Infer and Run are only called with a count CheckArity accepts.
	MinIn, MaxIn int
	// Infer returns the outputs' dtypes and shapes from the inputs', or an
	// error that says what does not fit.
	Infer func(in []Info, a *Args) ([]Info, error)
	// Run computes the outputs. It may assume Infer accepted the inputs'
	// dtypes and ranks, but must check what only run time shows (sizes that
	// were -1, values) and return an error rather than panic.
	Run func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error)
	// Grad builds the gradient of the op's inputs from its outputs'
	// gradients; nil when the op is not differentiable.
	Grad GradFunc
	// NonDiff lists input positions that never carry a gradient (indices,
	// shapes, labels given as integers, ...), beyond integer and bool inputs.
	NonDiff []int
	Flags   Flags
	// Doc says in one line what the op computes.
	Doc string
}

// CheckArity returns an error when the op cannot take n inputs. Callers
// check it before Infer or Run, which may index every input up to MinIn
// without looking.
func (d *Def) CheckArity(n int) error {
	if n >= d.MinIn && (d.MaxIn < 0 || n <= d.MaxIn) {
		return nil
	}
	want := fmt.Sprintf("%d to %d", d.MinIn, d.MaxIn)
	switch {
	case d.MaxIn < 0:
		want = fmt.Sprintf("at least %d", d.MinIn)
	case d.MinIn == d.MaxIn:
		want = fmt.Sprint(d.MinIn)
	}
	return fmt.Errorf("op %s takes %s inputs, got %d", d.Name, want, n)
}

// Differentiable reports whether the op has a gradient rule.
func (d *Def) Differentiable() bool { return d.Grad != nil }

var (
	regMu  sync.RWMutex
	byName = map[string]*Def{}
	byHash = map[int64]*Def{}
)

// Register adds d to the registry. It panics when the name is taken: the
// registry is filled by init functions, and a clash is a bug in sdgo.
func Register(d *Def) *Def {
	regMu.Lock()
	defer regMu.Unlock()
	if d.Num == 0 && d.Type == Custom {
		d.Num = Hash(d.Name)
	}
	for _, n := range append([]string{d.Name}, d.Aliases...) {
		if _, dup := byName[n]; dup {
			panic("ops: duplicate op name " + n)
		}
		byName[n] = d
		byHash[Hash(n)] = d
	}
	return d
}

// Lookup returns the op with this SameDiff name (or alias).
func Lookup(name string) (*Def, bool) {
	regMu.RLock()
	defer regMu.RUnlock()
	d, ok := byName[name]
	return d, ok
}

// LookupHash returns the op whose name (or alias) has this libnd4j hash.
func LookupHash(h int64) (*Def, bool) {
	regMu.RLock()
	defer regMu.RUnlock()
	d, ok := byHash[h]
	return d, ok
}

// All returns every registered op, sorted by name.
func All() []*Def {
	regMu.RLock()
	defer regMu.RUnlock()
	seen := map[*Def]bool{}
	var out []*Def
	for _, d := range byName {
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
