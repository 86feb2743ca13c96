package serialize

import (
	"fmt"
	"strings"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	"github.com/sdgo/sdgo/ops/createview"
	"github.com/sdgo/sdgo/serialize/internal/fb"
)

// The Java-compatible save mode (SaveOptions.Java).
//
// A file SameDiff (Java) loads names, in every node, an op Java's loader
// places in the class of the same op (CheckJava). sdgo has ops of its own;
// in this mode they are written as SameDiff ops that compute the same
// values, in a form sdgo recognizes when it loads the file again, so that a
// round trip gives the graph back with its in-place execution and exact
// gradients:
//
//   - zeros_as is written as zeroslike (libnd4j's zeros_as under the
//     synonym Java maps to its ZerosLike class; the hash is the same).
//   - A write through a view, W = view_OP(B, V, idx...), becomes, with every
//     index resolved when the graph runs (negative indices against B's
//     actual shape, as create_view resolves them):
//
//     s  = shape_of(B)               N  = size(B)
//     I  = reshape(range(N), s)      the linear index of every element of B
//     R  = reshape(create_view(I, idx...), [-1])   the region's indices
//     Vf = reshape(V * ones_as(create_view(B, idx...)), [-1])   V broadcast to the region
//     W  = reshape(scatter_OP(reshape(B, [-1]), R, Vf), s)
//
//     with scatter_upd for assign and scatter_add, _sub, _mul, _div for the
//     others: a view's elements are distinct, so each scatter touches each
//     element of the region once, as the write does, and multiplying V by
//     ones changes no value (not -0, NaN or an infinity either). The final
//     reshape keeps W's node name, id and output; the helper nodes and
//     their outputs are named "W/sdgo_view_write/<part>", and the [-1]
//     constant "W/sdgo_view_write/flat". Loading (foldViewWrites) finds
//     such a group, checks its structure, and puts the view_OP node back;
//     a group that does not match is left as the SameDiff ops it is, which
//     compute the same values without writing in place.
//   - The training configuration must name only ND4J's classes (train
//     writes AdamW as ND4J's Adam plus WeightDecay); classic momentum or a
//     schedule of the program's own fails the save, naming the setting.
//   - Every other node is checked as CheckJava checks it; a blocker (an op
//     with no faithful SameDiff form: sdgo's internal ops such as route,
//     loop_count, reduce_to_shape_of, create_view_bp, and the gradient ops
//     Java does not have) fails the save with an error naming the node and
//     the op: this mode never writes a file Java would refuse or misread.
//
// The gradients autodiff built are left out and marked, to be built again
// when sdgo loads the file (javagrad.go). The properties Java's classes
// restore (conv2d, softmax, concat, cast, lstmLayer) and relu's scalar are
// written in every mode (javaprops.go).

// viewWriteMark separates a view write's node name from its helpers'.
const viewWriteMark = "/sdgo_view_write/"

// viewScatter maps the view writes to the scatter op of the Java form.
var viewScatter = map[string]string{
	createview.OpAssign: "scatter_upd", createview.OpAdd: "scatter_add", createview.OpSub: "scatter_sub",
	createview.OpMul: "scatter_mul", createview.OpDiv: "scatter_div",
}

// javaNames are sdgo names written under the name Java resolves for the
// same libnd4j op (the hash stays: it is libnd4j's canonical op's).
var javaNames = map[string]string{"zeros_as": "zeroslike"}

// javaForm rewrites r, as toRaw made it, into the Java-compatible form.
func javaForm(r *rawGraph) error {
	for _, f := range checkTrainingConfig(r.TrainingConfig) {
		return fmt.Errorf("serialize: saving for Java: %s", f.Message)
	}
	ex := &expander{r: r, byID: map[rawIntPair]int{}, names: map[string]bool{}}
	for i := range r.Variables {
		ex.names[r.Variables[i].Name] = true
		if id := r.Variables[i].ID; id != nil {
			ex.byID[*id] = i
			ex.next = max(ex.next, id.First)
		}
	}
	for i := range r.Nodes {
		ex.next = max(ex.next, r.Nodes[i].ID)
	}
	nodes := make([]rawNode, 0, len(r.Nodes))
	t := javaTable()
	for _, n := range r.Nodes {
		if to, ok := javaNames[n.OpName]; ok && n.OpType == fb.OpTypeCUSTOM {
			n.OpName = to
		}
		if scatter, ok := viewScatter[n.OpName]; ok && n.OpType == fb.OpTypeCUSTOM {
			more, err := ex.viewWrite(n, scatter)
			if err != nil {
				return err
			}
			nodes = append(nodes, more...)
			continue
		}
		if f := t.check(&n); f.Level == JavaBlocker {
			return fmt.Errorf("serialize: saving for Java: node %q is op %q, which has no SameDiff form Java loads: %s",
				n.Name, n.OpName, f.Message)
		}
		nodes = append(nodes, n)
	}
	r.Nodes = nodes
	return nil
}

// expander adds the helper nodes and variables of the Java forms.
type expander struct {
	r     *rawGraph
	byID  map[rawIntPair]int // variable id -> position
	next  int32              // the largest id in use
	names map[string]bool    // variable names in use
}

// claim reserves a helper's name; a graph variable of that name already
// there is an error.
func (ex *expander) claim(name string) error {
	if ex.names[name] {
		return fmt.Errorf("serialize: saving for Java: the graph has a variable %q, the name of a helper of the Java form of a write through a view; rename it", name)
	}
	ex.names[name] = true
	return nil
}

// viewWrite returns the nodes of the Java form of the view write n.
func (ex *expander) viewWrite(n rawNode, scatter string) ([]rawNode, error) {
	if len(n.InputPaired) < 2 || len(n.Output) != 1 || len(n.OutputTypes) != 1 {
		return nil, fmt.Errorf("serialize: saving for Java: node %q (%s) has %d inputs and %d outputs, not a view write's",
			n.Name, n.OpName, len(n.InputPaired), len(n.Output))
	}
	base, val, idx := n.InputPaired[0], n.InputPaired[1], n.InputPaired[2:]
	dt := n.OutputTypes[0]
	pre := n.Name + viewWriteMark
	for _, part := range []string{"flat", "shape", "size", "iota", "index", "region_index", "region_index_flat", "view", "ones",
		"value", "value_flat", "base_flat", "written"} {
		if err := ex.claim(pre + part); err != nil {
			return nil, err
		}
	}
	var out []rawNode
	flat := ex.constant(pre+"flat", []int64{-1})
	add := func(part, op string, dt fb.DType, dtArg []fb.DType, in ...rawIntPair) rawIntPair {
		ex.next++
		name := pre + part
		id := rawIntPair{ex.next, 0}
		ex.r.Variables = append(ex.r.Variables, rawVariable{ID: &id, Name: name, DType: dt, Device: -1, VarType: fb.VarTypeARRAY})
		ex.byID[id] = len(ex.r.Variables) - 1
		out = append(out, helperNode(ex.next, name, op, dt, dtArg, int32(len(ex.r.Variables)-1), in))
		return id
	}
	i64 := fb.DTypeINT64
	s := add("shape", "shape_of", i64, nil, base)
	size := add("size", "size", i64, nil, base)
	iota := add("iota", "range", i64, []fb.DType{i64}, size)
	lin := add("index", "reshape", i64, nil, iota, s)
	region := add("region_index", createview.OpName, i64, nil, append([]rawIntPair{lin}, idx...)...)
	regionFlat := add("region_index_flat", "reshape", i64, nil, region, flat)
	view := add("view", createview.OpName, dt, nil, append([]rawIntPair{base}, idx...)...)
	ones := add("ones", "ones_as", dt, nil, view)
	valR := add("value", "multiply", dt, nil, val, ones)
	valFlat := add("value_flat", "reshape", dt, nil, valR, flat)
	baseFlat := add("base_flat", "reshape", dt, nil, base, flat)
	written := add("written", scatter, dt, nil, baseFlat, regionFlat, valFlat)
	// The write's own node, id and output: the reshape back.
	last := helperNode(n.ID, n.Name, "reshape", dt, nil, n.Output[0], []rawIntPair{written, s})
	last.OutputNames = n.OutputNames
	last.ControlDeps, last.VarControlDeps, last.ControlDepFor = n.ControlDeps, n.VarControlDeps, n.ControlDepFor
	return append(out, last), nil
}

// constant adds an int64 vector constant and returns its id.
func (ex *expander) constant(name string, v []int64) rawIntPair {
	ex.next++
	id := rawIntPair{ex.next, 0}
	a, _ := arrayToRaw(ndarray.Must(ndarray.FromSlice(v, len(v))), fb.ByteOrderLE, false, false)
	if len(ex.r.Variables) > 0 && ex.r.Variables[0].Array != nil {
		a = reorderRaw(a, ex.r.Variables[0].Array.ByteOrder)
	}
	ex.r.Variables = append(ex.r.Variables, rawVariable{ID: &id, Name: name, DType: fb.DTypeINT64, Device: -1,
		VarType: fb.VarTypeCONSTANT, Array: &a})
	ex.byID[id] = len(ex.r.Variables) - 1
	return id
}

// helperNode is a custom op node as Save writes one.
func helperNode(id int32, name, op string, dt fb.DType, dtArg []fb.DType, outPos int32, in []rawIntPair) rawNode {
	d, _ := ops.Lookup(op)
	num := ops.Hash(op)
	if d != nil {
		num = d.Num
	}
	if dtArg == nil {
		dtArg = []fb.DType{}
	}
	return rawNode{ID: id, Name: name, OpType: fb.OpTypeCUSTOM, OpNum: num, OpName: op, Device: -1,
		Properties: []rawProperties{}, Input: []int32{}, InputPaired: in, Output: []int32{outPos},
		ExtraParams: []float64{}, ExtraInteger: []int64{}, ExtraBools: []bool{}, ExtraStrings: []string{},
		ExtraTypes: dtArg, Dimensions: []int32{}, OutputNames: []string{name}, OutputTypes: []fb.DType{dt}}
}

// foldViewWrites puts back the view writes a Java-compatible save wrote as
// SameDiff ops (see javaForm): each group of helper nodes whose structure
// matches becomes the view write node again, and the helpers' variables
// go. It reports the writes it folded.
func foldViewWrites(r *rawGraph) int {
	if !hasViewWriteHelpers(r) {
		return 0
	}
	nodeByName := map[string]int{}
	for i := range r.Nodes {
		nodeByName[r.Nodes[i].Name] = i
	}
	// source names what an input pair stands for as the loader wires it:
	// the file's variable of that id first, else the node of that id (its
	// first output). Matching by node ids alone left a group whose ids a
	// file mixes unfolded at its first load but folded at the next, after
	// a save had renumbered it.
	varByPair := make(map[rawIntPair]string, len(r.Variables))
	for _, v := range r.Variables {
		if v.ID != nil {
			varByPair[*v.ID] = v.Name
		}
	}
	nodeByID := make(map[int32]int, len(r.Nodes))
	for i := range r.Nodes {
		nodeByID[r.Nodes[i].ID] = i
	}
	source := func(p rawIntPair) string {
		if name, ok := varByPair[p]; ok {
			return name
		}
		if i, ok := nodeByID[p.First]; ok && p.Second == 0 {
			return r.Nodes[i].Name
		}
		return ""
	}
	dropNode := map[int]bool{}
	dropVar := map[string]bool{}
	folded := 0
	for i := range r.Nodes {
		n := &r.Nodes[i]
		if n.OpName != "reshape" || len(n.InputPaired) != 2 {
			continue
		}
		g, ok := matchViewWrite(r, n, nodeByName, source)
		if !ok {
			continue
		}
		w := helperNode(n.ID, n.Name, g.op, n.OutputTypes[0], nil, 0, append([]rawIntPair{g.base, g.val}, g.idx...))
		w.Output, w.OutputNames = n.Output, n.OutputNames
		w.ControlDeps, w.VarControlDeps, w.ControlDepFor = n.ControlDeps, n.VarControlDeps, n.ControlDepFor
		*n = w
		for _, h := range g.helpers {
			dropNode[h] = true
			dropVar[r.Nodes[h].Name] = true
		}
		dropVar[n.Name+viewWriteMark+"flat"] = true
		folded++
	}
	if folded == 0 {
		return 0
	}
	nodes := r.Nodes[:0:0]
	for i := range r.Nodes {
		if !dropNode[i] {
			nodes = append(nodes, r.Nodes[i])
		}
	}
	r.Nodes = nodes
	// Drop the helpers' variables and renumber the positions nodes give.
	pos := make([]int32, len(r.Variables))
	vars := r.Variables[:0:0]
	for i := range r.Variables {
		if dropVar[r.Variables[i].Name] && strings.Contains(r.Variables[i].Name, viewWriteMark) {
			pos[i] = -1
			continue
		}
		pos[i] = int32(len(vars))
		vars = append(vars, r.Variables[i])
	}
	r.Variables = vars
	for i := range r.Nodes {
		for k, p := range r.Nodes[i].Output {
			if p >= 0 && int(p) < len(pos) {
				r.Nodes[i].Output[k] = pos[p]
			}
		}
	}
	return folded
}

func hasViewWriteHelpers(r *rawGraph) bool {
	for i := range r.Nodes {
		if strings.Contains(r.Nodes[i].Name, viewWriteMark) {
			return true
		}
	}
	return false
}

// viewWriteGroup is a matched Java form of a view write.
type viewWriteGroup struct {
	op        string
	base, val rawIntPair
	idx       []rawIntPair
	helpers   []int // node positions
}

// matchViewWrite checks whether the reshape n ends the Java form of a view
// write (the structure javaForm writes, by names and ops) and returns its
// parts.
func matchViewWrite(r *rawGraph, n *rawNode, byName map[string]int, source func(rawIntPair) string) (viewWriteGroup, bool) {
	var g viewWriteGroup
	pre := n.Name + viewWriteMark
	part := func(name, op string, nIn int) (*rawNode, bool) {
		i, ok := byName[pre+name]
		if !ok {
			return nil, false
		}
		h := &r.Nodes[i]
		if h.OpName != op || nIn >= 0 && len(h.InputPaired) != nIn || nIn < 0 && len(h.InputPaired) < -nIn {
			return nil, false
		}
		g.helpers = append(g.helpers, i)
		return h, true
	}
	is := func(p rawIntPair, name string) bool {
		return p.Second == 0 && source(p) == pre+name
	}
	written, ok := byName[pre+"written"]
	if !ok {
		return g, false
	}
	for op, sc := range viewScatter {
		if r.Nodes[written].OpName == sc {
			g.op = op
		}
	}
	shape, ok1 := part("shape", "shape_of", 1)
	size, ok2 := part("size", "size", 1)
	iota, ok3 := part("iota", "range", 1)
	lin, ok4 := part("index", "reshape", 2)
	region, ok5 := part("region_index", createview.OpName, -1)
	regionFlat, ok6 := part("region_index_flat", "reshape", 2)
	view, ok7 := part("view", createview.OpName, -1)
	ones, ok8 := part("ones", "ones_as", 1)
	value, ok9 := part("value", "multiply", 2)
	valueFlat, ok10 := part("value_flat", "reshape", 2)
	baseFlat, ok11 := part("base_flat", "reshape", 2)
	wr, ok12 := part("written", r.Nodes[written].OpName, 3)
	if g.op == "" || !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7 && ok8 && ok9 && ok10 && ok11 && ok12) {
		return g, false
	}
	g.base, g.val, g.idx = shape.InputPaired[0], value.InputPaired[0], view.InputPaired[1:]
	// The write's own inputs come from outside the group.
	for _, p := range append([]rawIntPair{g.base, g.val}, g.idx...) {
		if strings.HasPrefix(source(p), pre) || strings.HasPrefix(source(rawIntPair{p.First, 0}), pre) {
			return g, false
		}
	}
	sameIdx := len(region.InputPaired) == len(view.InputPaired)
	for k := 1; sameIdx && k < len(view.InputPaired); k++ {
		sameIdx = region.InputPaired[k] == view.InputPaired[k]
	}
	ok = sameIdx && size.InputPaired[0] == g.base && view.InputPaired[0] == g.base && baseFlat.InputPaired[0] == g.base &&
		is(iota.InputPaired[0], "size") && is(lin.InputPaired[0], "iota") && is(lin.InputPaired[1], "shape") &&
		is(region.InputPaired[0], "index") && is(regionFlat.InputPaired[0], "region_index") &&
		is(ones.InputPaired[0], "view") && is(value.InputPaired[1], "ones") && is(valueFlat.InputPaired[0], "value") &&
		is(wr.InputPaired[0], "base_flat") && is(wr.InputPaired[1], "region_index_flat") && is(wr.InputPaired[2], "value_flat") &&
		is(n.InputPaired[0], "written") && is(n.InputPaired[1], "shape") && len(n.OutputTypes) == 1
	return g, ok
}
