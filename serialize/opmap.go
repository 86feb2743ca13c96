package serialize

import (
	"fmt"
	"slices"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	"github.com/sdgo/sdgo/serialize/internal/fb"
)

// Matching a file's node to the op registry.
//
// SameDiff writes the Java op name in FlatNode.opName and, for custom ops,
// libnd4j's hash of the libnd4j op name in opNum; legacy ops carry their
// number in libnd4j's legacy table of their opType instead. The two names
// are not always the same (the TensorArray ops are written with Java names
// and the hashes of libnd4j's list ops), so nodes are matched on (hash,
// name) with the alias table below: a node matches an op when its opName
// names it, or (for nodes without a usable name) when its opNum is the hash
// of one of the op's names. Legacy ops are matched by name, falling back to
// (opType, opNum); legacy numbers changed over the years, so a number that
// disagrees with the registry's is reported, not fatal. Control-flow nodes
// (opType LOGIC, or the TF v1 control-flow op names) load as the registered
// primitives, a loop's merge getting its back edges once the whole graph is
// in (see load.go).

// nameAliases maps names files use to the registry's name for the same op.
var nameAliases = map[string]string{
	"mMul": "matmul",
	"Cast": "cast",
	// TensorFlow's names for the control-flow primitives.
	"Enter": "enter", "Exit": "exit", "Switch": "switch", "Merge": "merge",
	"LoopCond": "loop_cond", "NextIteration": "next_iteration",
}

// elementOps are the ops whose output dtype is their dtype arg 0 (the
// tensor array ops that give elements, the random distributions: shape
// inference cannot know it from their inputs). A file's node that does not set it gets it from the node's
// output types.
var elementOps = map[string]bool{
	"tensorarrayreadv3": true, "tensorarraygatherv3": true, "tensorarraystack": true, "tensorarrayconcatv3": true,
	// The random distributions: SameDiff keeps their dtype in the op, not
	// in an argument.
	"distribution_uniform": true, "distribution_gaussian": true, "distribution_bernoulli": true,
	"distribution_binomial": true, "distribution_lognormal": true, "distribution_truncated": true,
	"random_exponential": true,
}

// controlFlowNames are the TF v1 control-flow ops SameDiff writes as LOGIC
// nodes (and libnd4j's logic ops).
var controlFlowNames = map[string]bool{
	"enter": true, "exit": true, "switch": true, "merge": true, "loop_cond": true, "next_iteration": true,
	"while": true, "scope": true, "conditional": true, "return": true,
	"Enter": true, "Exit": true, "Switch": true, "Merge": true, "LoopCond": true, "NextIteration": true,
}

// LOGIC op numbers (libnd4j's logic-op enumeration).
const (
	logicSwitch        = 30
	logicMerge         = 60
	logicNextIteration = 80
)

func isControlFlow(n *rawNode) bool {
	return n.OpType == fb.OpTypeLOGIC || controlFlowNames[n.OpName]
}

func isMerge(n *rawNode) bool {
	return n.OpName == "merge" || n.OpName == "Merge" || n.OpType == fb.OpTypeLOGIC && n.OpNum == logicMerge
}

func isNextIteration(n *rawNode) bool {
	return n.OpName == "next_iteration" || n.OpName == "NextIteration" ||
		n.OpType == fb.OpTypeLOGIC && n.OpNum == logicNextIteration
}

// legacyIndex finds legacy ops by (opType, opNum).
func legacyIndex() map[[2]int64]*ops.Def {
	m := map[[2]int64]*ops.Def{}
	for _, d := range ops.All() {
		if d.Type != ops.Custom {
			m[[2]int64{int64(d.Type), d.Num}] = d
		}
	}
	return m
}

// opMatcher matches nodes to registered ops.
type opMatcher struct {
	legacy map[[2]int64]*ops.Def // built on first use
}

// match returns the registered op for a node (nil when sdgo lacks it or the
// node must stay opaque), and a note when the match is not clean.
func (m *opMatcher) match(n *rawNode) (def *ops.Def, note string) {
	name := n.OpName
	if a, ok := nameAliases[name]; ok {
		name = a
	}
	byName, _ := ops.Lookup(name)
	if n.OpType == fb.OpTypeCUSTOM {
		byHash, _ := ops.LookupHash(n.OpNum)
		if byName != nil {
			if !hashAgrees(byName, n) {
				note = fmt.Sprintf("opNum %d is not the hash of %q; matched by name", n.OpNum, n.OpName)
			}
			return byName, note
		}
		if byHash != nil {
			if n.OpName != "" {
				note = fmt.Sprintf("op name %q is unknown; matched op %q by its hash %d", n.OpName, byHash.Name, n.OpNum)
			}
			return byHash, note
		}
		return nil, ""
	}
	if byName == nil && n.OpName == "" {
		if m.legacy == nil {
			m.legacy = legacyIndex()
		}
		byName = m.legacy[[2]int64{int64(n.OpType), n.OpNum}]
	}
	if byName != nil && (int64(byName.Type) != int64(n.OpType) || byName.Num != n.OpNum) {
		note = fmt.Sprintf("legacy op %s %d differs from sdgo's %q (%s %d); matched by name",
			fb.OpType(n.OpType), n.OpNum, byName.Name, fb.OpType(byName.Type), byName.Num)
	}
	return byName, note
}

// hashAgrees reports whether a custom node's opNum is the op's number (the
// hash of the libnd4j op it runs as: create_list for tensorarrayv3, ...)
// or the hash of one of its names.
func hashAgrees(d *ops.Def, n *rawNode) bool {
	if d.Num == n.OpNum || ops.Hash(n.OpName) == n.OpNum {
		return true
	}
	for _, a := range d.Aliases {
		if ops.Hash(a) == n.OpNum {
			return true
		}
	}
	return false
}

// argsFromNode maps a node's positional argument fields onto ops.Args. For
// legacy scalar ops whose value sits in FlatNode.scalar rather than in
// extraParams, the value becomes float arg 0. ins are the dtypes of the
// node's inputs in the graph: an op that takes its output dtype as dtype
// arg 0 (ops.OutDTypeArg) gets the node's declared output type there when
// its inputs do not give it, as libnd4j honours the declared type (an
// int64 + double add declared INT64 gives int64).
func argsFromNode(n *rawNode, d *ops.Def, ins []ndarray.DType) ops.Args {
	a := ops.Args{
		F: n.ExtraParams, I: n.ExtraInteger, B: n.ExtraBools, S: n.ExtraStrings,
	}
	if n.ExtraTypes != nil {
		a.D = make([]ndarray.DType, len(n.ExtraTypes))
		for i, t := range n.ExtraTypes {
			a.D[i] = ndarray.DType(t)
		}
	}
	if n.Dimensions != nil {
		a.Dims = make([]int, len(n.Dimensions))
		for i, x := range n.Dimensions {
			a.Dims[i] = int(x)
		}
		if d != nil && len(a.Dims) == len(a.I) && axesInIArgs(d, nil, a.Dims) && slices.EqualFunc(a.I, a.Dims,
			func(i int64, d int) bool { return i == int64(d) }) {
			a.I = nil // the copy Save writes for Java (axesInIArgs)
		}
	}
	if d != nil && d.Name == "enter" {
		// SameDiff keeps enter's frame and invariance in properties.
		frame, constant := "", false
		for _, p := range n.Properties {
			switch {
			case p.Name == "frameName" && len(p.S) > 0:
				frame = p.S[0]
			case p.Name == "isConstant" && len(p.B) > 0:
				constant = p.B[0]
			}
		}
		if len(a.S) == 0 {
			a.S = []string{frame}
		}
		if len(a.B) == 0 {
			a.B = []bool{constant}
		}
	}
	if d != nil && elementOps[d.Name] && len(a.D) == 0 && len(n.OutputTypes) > 0 {
		if dt := ndarray.DType(n.OutputTypes[0]); dt.Known() {
			a.D = []ndarray.DType{dt}
		}
	}
	if d != nil && d.Flags&ops.OutDTypeArg != 0 && len(a.D) == 0 && len(n.OutputTypes) > 0 {
		data := ins
		if d.Type == ops.ReduceFloat && len(ins) > 1 {
			data = ins[:1] // the second input is the axes
		}
		if dt := ndarray.DType(n.OutputTypes[0]); dt.IsNumeric() && givesOtherDType(data, dt) {
			a.D = []ndarray.DType{dt}
		}
	}
	if d != nil && (d.Type == ops.Scalar || d.Type == ops.ScalarBool) && len(a.F) == 0 && n.Scalar != nil {
		// Only a one-element array is the scalar: reading a bigger one
		// whole would cost 8 bytes per element for a value then dropped.
		if s, err := checkArray(n.Scalar); err == nil && s.numElements() == 1 {
			if v, err := rawNumbers(n.Scalar); err == nil {
				a.F = v
			}
		}
		if d.Name == "relu" && len(n.ExtraParams) == 0 && len(a.F) == 1 && a.F[0] == 0 {
			a.F = nil // the cutoff Save writes for Java's RectifiedLinear (javaScalarDefault)
		}
	}
	return a
}

// axesInIArgs reports whether a custom op's axes, kept in the dimensions
// slot (dims), are written to its integer args too: Java's loader gives a
// custom op only its iArgs (FlatNode.dimensions is restored for legacy
// reductions alone), and libnd4j's custom reductions (argmax, argmin,
// reduce_sum_bp, ...) read their axes there. sdgo reads the dimensions
// first and the integer args when there are none (ops' reduceAxesArg), so
// the copy changes nothing for sdgo; it is written only when the op has
// no integer args of its own, and dropped again on load when it equals the
// dimensions. The AllDims marker (every axis) is no iArgs at all.
func axesInIArgs(d *ops.Def, iargs []int64, dims []int) bool {
	return d.Type == ops.Custom && len(iargs) == 0 && len(dims) > 0 && !(len(dims) == 1 && dims[0] == ops.AllDims)
}

// givesOtherDType reports whether the inputs' dtypes, all known, are not
// all dt.
func givesOtherDType(ins []ndarray.DType, dt ndarray.DType) bool {
	other := false
	for _, x := range ins {
		if !x.Known() {
			return false
		}
		other = other || x != dt
	}
	return other
}

// argsEqual compares arguments, treating nil and empty alike and a NaN as
// equal to a NaN (validation's argsDiff uses the same rule).
func argsEqual(a, b *ops.Args) bool {
	return slices.EqualFunc(a.F, b.F, func(x, y float64) bool { return x == y || x != x && y != y }) &&
		slices.Equal(a.I, b.I) && slices.Equal(a.B, b.B) && slices.Equal(a.D, b.D) &&
		slices.Equal(a.S, b.S) && slices.Equal(a.Dims, b.Dims)
}

// sortedUnique returns the distinct strings of s, sorted (reusing s).
func sortedUnique(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}
