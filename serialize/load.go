package serialize

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	"github.com/sdgo/sdgo/serialize/internal/fb"
)

// Load reads the graph file at path. See Decode.
func Load(path string) (*graph.Graph, error) { return LoadContext(context.Background(), path) }

// LoadContext is Load that gives up, with an error wrapping the context's,
// once ctx is done: it is asked as the file is read, and every thousand or
// so variables and nodes as they are decoded and added to the graph.
func LoadContext(ctx context.Context, path string) (*graph.Graph, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("serialize: %w", err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		// reading it would fail with the path twice: "d: ...: read d: is a directory"
		return nil, fmt.Errorf("serialize: %s is a directory, not a graph file", path)
	}
	g, err := ReadContext(ctx, f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return g, nil
}

// Read reads a whole graph file from r. See Decode.
func Read(r io.Reader) (*graph.Graph, error) { return ReadContext(context.Background(), r) }

// ReadContext is Read that gives up once ctx is done (see LoadContext).
func ReadContext(ctx context.Context, r io.Reader) (*graph.Graph, error) {
	buf, err := readAll(ctx, r)
	if err != nil {
		return nil, err
	}
	return DecodeContext(ctx, buf)
}

// ctxReader fails a read once its context is done, so that reading a slow
// stream (a pipe, a device) ends at a deadline. Len and the file's size
// (readAll's sizing) pass through.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, fmt.Errorf("loading stopped: %w", err)
	}
	if len(p) > 4<<20 { // a deadline is asked at least every 4 MB
		p = p[:4<<20]
	}
	return c.r.Read(p)
}

// sizer is implemented by readers that know how much they hold
// (*bytes.Reader, *strings.Reader, *bytes.Buffer).
type sizer interface{ Len() int }

// readAll reads r into a 64-byte-aligned buffer, sized up front when r can
// tell its size, so that arrays the file aligns can be used in place. It
// refuses more than FlatBuffers' 2 GiB.
func readAll(ctx context.Context, r io.Reader) ([]byte, error) {
	size := int64(-1)
	switch x := r.(type) {
	case *os.File:
		if st, err := x.Stat(); err == nil && st.Mode().IsRegular() {
			if off, err := x.Seek(0, io.SeekCurrent); err == nil && st.Size() >= off {
				size = st.Size() - off
			}
		}
	case sizer:
		size = int64(x.Len())
	}
	if ctx != nil && ctx.Done() != nil {
		r = ctxReader{ctx, r} // sized above, read through the context
	}
	if size > maxBufferSize {
		return nil, &FormatError{Offset: -1, Msg: fmt.Sprintf("graph file of %d bytes exceeds the FlatBuffers limit of 2 GiB (%d bytes)", size, int64(maxBufferSize))}
	}
	if size >= 0 {
		buf := alignedBytes(int(size))
		n, err := io.ReadFull(r, buf)
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !(errors.Is(err, io.EOF) && size == 0) {
			return nil, fmt.Errorf("serialize: reading graph: %w", err)
		}
		buf = buf[:n]
		// Anything beyond the announced size (a file that grew) is read too.
		var one [1]byte
		if m, _ := r.Read(one[:]); m == 0 {
			return buf, nil
		}
		rest, err := io.ReadAll(io.LimitReader(r, maxBufferSize))
		if err != nil {
			return nil, fmt.Errorf("serialize: reading graph: %w", err)
		}
		all := alignedBytes(len(buf) + 1 + len(rest))
		copy(all, buf)
		all[len(buf)] = one[0]
		copy(all[len(buf)+1:], rest)
		buf = all
		if len(buf) > maxBufferSize {
			return nil, &FormatError{Offset: -1, Msg: "graph file exceeds the FlatBuffers limit of 2 GiB"}
		}
		return buf, nil
	}
	return readStream(r)
}

// MaxStreamSize caps what Read (and Load of a path that is not a regular
// file: a pipe, a device such as /dev/zero) reads from a stream whose size
// it cannot know beforehand: a stream that goes on is refused with an
// error, not read until memory runs out. Regular files are bounded by
// their size and FlatBuffers' 2 GiB.
var MaxStreamSize int64 = 1 << 30

// readStream reads a stream of unknown size, in growing chunks, up to
// MaxStreamSize (and 2 GiB). A stream whose first four bytes cannot begin
// a FlatBuffer (a root offset under 4, into itself: what an endless run of
// zeros gives)
// is refused at once.
func readStream(r io.Reader) ([]byte, error) {
	limit := min(MaxStreamSize, maxBufferSize)
	buf := make([]byte, 0, 64<<10)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)] // grow geometrically
		}
		want := min(int64(cap(buf)), limit+1)
		n, err := r.Read(buf[len(buf):want])
		buf = buf[:len(buf)+n]
		if len(buf) >= 4 {
			if root := binary.LittleEndian.Uint32(buf); root < 4 {
				return nil, &FormatError{Offset: 0, Msg: fmt.Sprintf("root table offset %d: not a graph file", root)}
			}
		}
		if int64(len(buf)) > limit {
			if limit < maxBufferSize {
				return nil, &FormatError{Offset: -1, Msg: fmt.Sprintf("graph stream goes on past %d bytes (serialize.MaxStreamSize; it is not a regular file, so its size is not known beforehand)", limit)}
			}
			return nil, &FormatError{Offset: -1, Msg: "graph file exceeds the FlatBuffers limit of 2 GiB"}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("serialize: reading graph: %w", err)
		}
	}
	out := alignedBytes(len(buf))
	copy(out, buf)
	return out, nil
}

// Decode builds a graph from the bytes of a graph file.
//
// Variables keep their kinds, dtypes and values; placeholders their shapes
// (-1 for unknown sizes); every node becomes an op with its arguments, in
// an order that respects the data dependencies whatever order the file
// lists them in. Nodes of ops sdgo implements (the control-flow primitives
// too) become ordinary ops; the others become opaque ops that fail only when
// run.
// Every op carries the file's node (a *FileNode, Op.Opaque()) so that Save
// writes back properties and fields sdgo does not model. ReportOf tells what
// loading found: ops sdgo lacks, dtypes it cannot compute with, anything
// kept without being understood.
//
// Arrays of a little-endian file whose bytes are suitably aligned may share
// buf (no copy): the caller must not change buf afterwards. Errors for malformed
// files are *FormatError (a broken buffer) or name the variable or node at
// fault (duplicate names, inputs naming nothing, cycles, bad arrays).
func Decode(buf []byte) (g *graph.Graph, err error) { return DecodeContext(context.Background(), buf) }

// DecodeContext is Decode that gives up once ctx is done (see LoadContext).
func DecodeContext(ctx context.Context, buf []byte) (g *graph.Graph, err error) {
	if ctx.Done() == nil {
		ctx = nil // never done: nothing to ask
	}
	sh := &nodeSharer{}
	r, lp, err := decodeShared(ctx, buf, sh)
	if err != nil {
		return nil, err
	}
	// Everything below checks what it reads; a panic would be a bug in
	// sdgo, reported as an error rather than crashing the caller.
	defer func() {
		if p := recover(); p != nil {
			g, err = nil, fmt.Errorf("serialize: %w", ops.Recovered("building the graph", p))
		}
	}()
	return build(r, lp, sh, &stopCheck{ctx: ctx})
}

// loader holds the state of one build.
type loader struct {
	r *rawGraph
	g *graph.Graph
	// vars are the file's variables (r.Variables is nil).
	vars *loadVars
	fi   *fileInfo
	rp   *Report
	m    opMatcher

	extras map[string]*varExtra // by the file's variable name, until build keys them by variable
	// byName resolves a name to its variable and its producer: one map
	// for both, as most names are both (an op output's variable).
	byName    map[string]nameRef
	byPair    map[rawIntPair]int    // variable id -> index in vars
	byNodeOut map[rawIntPair]string // (node id, output index) -> output name
	byNodeID  map[int32][]int       // node id -> its ARRAY variables (see arraysOf)
	outNames  [][]string            // per node: its output names
	inputs    [][]string            // per node: its input variable names
	added     []*graph.Op           // per node, once added
	// backEdges lists the loop merges added without their back edges.
	backEdges []int
	stop      *stopCheck
	// nodes and names hold, per node once indexed, what the graph is
	// built from (see keepNodes): its shared node (nodeSharer) and its name.
	nodes []*rawNode
	names []string
	// outputs names the file's graph outputs ("" for none), by keepNodes.
	outputs []string
	// lnodes holds the nodes from decoding until keepNodes.
	lnodes []loadNode
}

// keepNodes replaces the nodes, once indexNodes has read their inputs and
// outputs, by what adding them needs: their names and their shared nodes
// (see nodeSharer), so that what indexing alone read is freed before the
// graph grows.
func (l *loader) keepNodes() {
	nodes := l.lnodes
	l.nodes = make([]*rawNode, len(nodes))
	l.names = make([]string, len(nodes))
	for i := range nodes {
		l.nodes[i], l.names[i] = nodes[i].rest, nodes[i].Name
	}
	l.lnodes = nil
	// The maps from ids to names are not needed past the graph's outputs;
	// they go before the graph grows.
	l.outputs = make([]string, len(l.r.Outputs))
	for k, p := range l.r.Outputs {
		if vi, ok := l.byPair[p]; ok {
			l.outputs[k] = l.vars.v[vi].Name
		} else if o, ok := l.byNodeOut[p]; ok {
			l.outputs[k] = o
		}
	}
	l.byPair, l.byNodeOut, l.byNodeID = nil, nil, nil
}

func (l *loader) warnf(format string, args ...any) {
	l.rp.Warnings = append(l.rp.Warnings, fmt.Sprintf(format, args...))
}

// build builds the graph of a decoded file, whose nodes and variables are
// either in lp (decoded as loadNodes and loadVars) or in r (decoded
// whole, for the passes below).
func build(r *rawGraph, lp *loadParts, sh *nodeSharer, stop *stopCheck) (*graph.Graph, error) {
	l := &loader{r: r, g: graph.New(), rp: &Report{}, extras: map[string]*varExtra{}, stop: stop}
	l.fi = &fileInfo{id: r.ID, config: r.Config, report: l.rp}
	foldViewWrites(r) // the writes through views a save for Java spelled out
	grads, err := takeGradMarks(r)
	if err != nil {
		return nil, err
	}
	if lp == nil {
		lp = &loadParts{}
	}
	if r.Nodes != nil {
		lp.nodes = make([]loadNode, len(r.Nodes))
		for i := range r.Nodes {
			if err := stop.tick(); err != nil {
				return nil, err
			}
			lp.nodes[i] = sh.keep(&r.Nodes[i])
		}
		r.Nodes = nil
	}
	if r.Variables != nil {
		lp.vars.v = make([]loadVar, 0, len(r.Variables))
		for i := range r.Variables {
			lp.vars.add(&r.Variables[i])
		}
		r.Variables = nil
	}
	l.lnodes, l.vars = lp.nodes, &lp.vars
	lp.nodes = nil // keepNodes frees them
	if err := l.indexVariables(); err != nil {
		return nil, err
	}
	if err := l.indexNodes(); err != nil {
		return nil, err
	}
	l.keepNodes()
	if err := l.addAll(); err != nil {
		return nil, err
	}
	if err := l.wireBackEdges(); err != nil {
		return nil, err
	}
	// The file's variables and the maps by name are not needed past
	// here: they go before the map below is built.
	l.vars, lp = nil, nil
	l.byName, l.inputs, l.outNames, l.added, l.nodes, l.names = nil, nil, nil, nil, nil, nil
	if err := l.finish(); err != nil {
		return nil, err
	}
	vars := l.g.Variables()
	l.fi.vars = make(map[*graph.Variable]*varExtra, len(l.extras))
	l.fi.byFileName = make(map[string]*graph.Variable, len(vars))
	for _, v := range vars { // all named as in the file
		l.fi.byFileName[v.Name()] = v
		if e := l.extras[v.Name()]; e != nil {
			l.fi.vars[v] = e
		}
	}
	l.rp.Unimplemented = sortedUnique(l.rp.Unimplemented)
	l.rp.NonComputable = sortedUnique(l.rp.NonComputable)
	l.g.SetMeta(metaKey, l.fi)
	if err := rebuildGradients(l.g, grads); err != nil {
		return nil, err
	}
	return l.g, nil
}

// nameRef is what a name of the file is: the index of its variable and
// of the node that produces it, -1 for none. int32 holds any index: a
// file of at most 2 GiB lists fewer than 2^29 of either (an offset of 4
// bytes each).
type nameRef struct{ vi, node int32 }

// varIdx returns the index of the variable named name.
func (l *loader) varIdx(name string) (int, bool) {
	r, ok := l.byName[name]
	return int(r.vi), ok && r.vi >= 0
}

// producer returns the index of the node that produces name.
func (l *loader) producer(name string) (int, bool) {
	r, ok := l.byName[name]
	return int(r.node), ok && r.node >= 0
}

func (l *loader) indexVariables() error {
	vars := l.vars.v
	l.byName = make(map[string]nameRef, len(vars))
	l.byPair = make(map[rawIntPair]int, len(vars))
	for i := range vars {
		v := &vars[i]
		if v.Name == "" {
			return fmt.Errorf("serialize: variable %d has no name", i)
		}
		if _, dup := l.byName[v.Name]; dup {
			return fmt.Errorf("serialize: two variables are named %q", v.Name)
		}
		l.byName[v.Name] = nameRef{vi: int32(i), node: -1}
		if v.hasID {
			if j, dup := l.byPair[v.ID]; dup {
				return fmt.Errorf("serialize: variables %q and %q have the same id (%d,%d)",
					vars[j].Name, v.Name, v.ID.First, v.ID.Second)
			}
			l.byPair[v.ID] = i
		}
	}
	return nil
}

// indexNodes names every node's outputs and resolves its inputs to
// variable names.
func (l *loader) indexNodes() error {
	nodes := l.lnodes
	names := make(map[string]bool, len(nodes))
	ids := make(map[int32]int, len(nodes))
	l.outNames = make([][]string, len(nodes))
	l.inputs = make([][]string, len(nodes))
	l.byNodeOut = make(map[rawIntPair]string, len(nodes))
	byNodeOut := l.byNodeOut
	for i := range nodes {
		if err := l.stop.tick(); err != nil {
			return err
		}
		n := &nodes[i]
		if n.Name == "" {
			n.Name = fmt.Sprintf("node_%d", n.ID)
			l.warnf("node %d has no name; called it %q", n.ID, n.Name)
		}
		if names[n.Name] {
			return fmt.Errorf("serialize: two nodes are named %q", n.Name)
		}
		names[n.Name] = true
		if j, dup := ids[n.ID]; dup {
			return fmt.Errorf("serialize: nodes %q and %q have the same id %d", nodes[j].Name, n.Name, n.ID)
		}
		ids[n.ID] = i
		outs, err := l.nodeOutputs(n)
		if err != nil {
			return err
		}
		for k, o := range outs {
			ref, ok := l.byName[o]
			if !ok {
				ref.vi = -1
			} else if ref.node >= 0 {
				return fmt.Errorf("serialize: nodes %q and %q both produce %q", nodes[ref.node].Name, n.Name, o)
			}
			if ref.vi >= 0 {
				if t := l.vars.v[ref.vi].VarType; t != fb.VarTypeARRAY && t != fb.VarTypeSEQUENCE {
					return fmt.Errorf("serialize: node %q produces %q, which the file declares a %v", n.Name, o, t)
				}
			}
			ref.node = int32(i)
			l.byName[o] = ref
			byNodeOut[rawIntPair{n.ID, int32(k)}] = o
		}
		l.outNames[i] = outs
	}
	for i := range nodes {
		n := &nodes[i]
		pairs := n.InputPaired
		if len(pairs) == 0 && len(n.Input) > 0 { // old files: node ids, output 0
			pairs = make([]rawIntPair, len(n.Input))
			for k, id := range n.Input {
				pairs[k] = rawIntPair{id, 0}
			}
		}
		ins := make([]string, len(pairs))
		for k, p := range pairs {
			name := ""
			if vi, ok := l.byPair[p]; ok {
				name = l.vars.v[vi].Name
				if o, ok := byNodeOut[p]; ok && o != name {
					// Taking either name would wire a graph the file
					// does not describe (often a false cycle).
					return fmt.Errorf("serialize: node %q: input %d (%d,%d) is variable %q by the file's variables but output %q of node %q by its nodes",
						n.Name, k, p.First, p.Second, name, o, nodes[ids[p.First]].Name)
				}
			} else if o, ok := byNodeOut[p]; ok {
				name = o
			} else {
				return fmt.Errorf("serialize: node %q: input %d (%d,%d) names no variable and no node output",
					n.Name, k, p.First, p.Second)
			}
			if _, ok := l.producer(name); !ok {
				vi, ok := l.varIdx(name)
				if !ok || l.vars.v[vi].VarType == fb.VarTypeARRAY {
					return fmt.Errorf("serialize: node %q: input %d is %q, an op output that no node produces",
						n.Name, k, name)
				}
			}
			ins[k] = name
		}
		l.inputs[i] = ins
	}
	return nil
}

// nodeOutputs returns the names of a node's outputs: its outputNames, else
// the variables its output field lists, else the variables whose id names
// it, else the node's own name.
func (l *loader) nodeOutputs(n *loadNode) ([]string, error) {
	if len(n.OutputNames) > 0 {
		seen := map[string]bool{}
		for _, o := range n.OutputNames {
			if o == "" {
				return nil, fmt.Errorf("serialize: node %q has an output without a name", n.Name)
			}
			if seen[o] {
				return nil, fmt.Errorf("serialize: node %q names output %q twice", n.Name, o)
			}
			seen[o] = true
		}
		return n.OutputNames, nil
	}
	if len(n.Output) > 0 {
		out := make([]string, len(n.Output))
		for k, vi := range n.Output {
			if vi < 0 || int(vi) >= len(l.vars.v) {
				return nil, fmt.Errorf("serialize: node %q: output %d is variable %d, outside the %d variables",
					n.Name, k, vi, len(l.vars.v))
			}
			out[k] = l.vars.v[vi].Name
		}
		return out, nil
	}
	found := l.arraysOf()[n.ID]
	if len(found) == 0 {
		return []string{n.Name}, nil
	}
	vars := l.vars.v
	sort.Slice(found, func(i, j int) bool { return vars[found[i]].ID.Second < vars[found[j]].ID.Second })
	out := make([]string, len(found))
	for k, vi := range found {
		v := &vars[vi]
		if v.ID.Second != int32(k) {
			return nil, fmt.Errorf("serialize: node %q: its outputs are numbered %d.., not from 0 without gaps",
				n.Name, vars[found[0]].ID.Second)
		}
		out[k] = v.Name
	}
	return out, nil
}

// arraysOf returns the op-output variables (ARRAY) that have an id, by the
// node id their id names, in file order; built on first use, so that
// matching nodes without outputNames to their variables is linear in the
// file, not nodes × variables (issue 23: 200k nodes took over a minute).
func (l *loader) arraysOf() map[int32][]int {
	if l.byNodeID == nil {
		l.byNodeID = map[int32][]int{}
		for i := range l.vars.v {
			v := &l.vars.v[i]
			if v.hasID && v.VarType == fb.VarTypeARRAY {
				l.byNodeID[v.ID.First] = append(l.byNodeID[v.ID.First], i)
			}
		}
	}
	return l.byNodeID
}

// plainVar reports whether the file says nothing of variable v that Save
// would not write by itself: no device, no control dependencies, the kind
// the graph gives it. Such variables get no varExtra: most of a file's
// variables are plain op outputs, and an extra each added up.
func plainVar(v *rawVariable) bool {
	return v.Device == -1 && v.ControlDeps == nil && v.ControlDepForOp == nil && v.ControlDepsForVar == nil &&
		v.VarType != fb.VarTypeSEQUENCE
}

func (l *loader) extra(v *rawVariable) *varExtra {
	e := &varExtra{fileName: v.Name, device: v.Device, varType: v.VarType, controlDeps: v.ControlDeps,
		controlDepForOp: v.ControlDepForOp, controlDepsForVar: v.ControlDepsForVar}
	l.extras[v.Name] = e
	return e
}

// addVariable adds variable i, which is not an op output, or keeps it
// aside when the graph cannot hold it.
func (l *loader) addVariable(i int) error {
	v := l.vars.raw(i)
	dt := ndarray.DType(v.DType)
	switch v.VarType {
	case fb.VarTypeVARIABLE, fb.VarTypeCONSTANT:
		if v.Array == nil {
			return fmt.Errorf("serialize: %v %q has no array", v.VarType, v.Name)
		}
		la, err := arrayFromRaw(v.Array, dt)
		if err != nil {
			return fmt.Errorf("serialize: %v %q: %w", v.VarType, v.Name, err)
		}
		if !la.arr.DType().Computable() {
			l.rp.NonComputable = append(l.rp.NonComputable, v.Name)
		}
		if dt != la.arr.DType() {
			l.warnf("%v %q: the variable says %v, its array %v; the array's dtype is used", v.VarType, v.Name, dt, la.arr.DType())
		}
		if la.emptyScalar {
			l.extra(v).emptyScalar = la.arr
		} else if !plainVar(v) {
			l.extra(v)
		}
		if la.strides != "" {
			l.warnf("%v %q: %s", v.VarType, v.Name, la.strides)
		}
		var gv *graph.Variable
		if v.VarType == fb.VarTypeVARIABLE {
			gv = l.g.Var(v.Name, la.arr)
		} else {
			gv = l.g.Const(v.Name, la.arr)
		}
		if err := gv.Err(); err != nil {
			return fmt.Errorf("serialize: %v %q: %w", v.VarType, v.Name, err)
		}
		return nil
	case fb.VarTypePLACEHOLDER:
		return l.addPlaceholder(v)
	}
	l.fi.orphans = append(l.fi.orphans, *v)
	l.warnf("variable %q is %s; kept as read, not in the graph", v.Name, orphanKind(v))
	return nil
}

// orphanKind says why the graph cannot hold a variable kept aside.
func orphanKind(v *rawVariable) string {
	switch v.VarType {
	case fb.VarTypeARRAY:
		return "an op output that no node produces"
	case fb.VarTypeSEQUENCE:
		return "a sequence that no node produces"
	}
	return fmt.Sprintf("of unknown kind %d", v.VarType)
}

func (l *loader) addPlaceholder(v *rawVariable) error {
	dt := ndarray.DType(v.DType)
	e := l.extra(v)
	var val *ndarray.Array
	if v.Array != nil {
		la, err := arrayFromRaw(v.Array, dt)
		if err != nil {
			return fmt.Errorf("serialize: placeholder %q: %w", v.Name, err)
		}
		val = la.arr
		if la.emptyScalar {
			e.emptyScalar = la.arr
		}
		if la.strides != "" {
			l.warnf("placeholder %q: %s", v.Name, la.strides)
		}
		if l.rp.PlaceholderValues == nil {
			l.rp.PlaceholderValues = map[string]*ndarray.Array{}
		}
		l.rp.PlaceholderValues[v.Name] = val
		if !dt.Known() {
			dt = val.DType()
		}
	}
	if !dt.Known() {
		return fmt.Errorf("serialize: placeholder %q has unknown dtype %d", v.Name, v.DType)
	}
	if !dt.Computable() {
		l.rp.NonComputable = append(l.rp.NonComputable, v.Name)
	}
	var shape []int
	switch {
	case v.Shape != nil:
		if len(v.Shape) > ndarray.MaxRank {
			return fmt.Errorf("serialize: placeholder %q has rank %d, above %d", v.Name, len(v.Shape), ndarray.MaxRank)
		}
		shape = make([]int, len(v.Shape))
		for i, d := range v.Shape {
			if d < -1 || d > maxElements {
				return fmt.Errorf("serialize: placeholder %q: size %d on axis %d", v.Name, d, i)
			}
			shape[i] = int(d)
		}
	case val != nil:
		e.shapeAbsent = true
		shape = make([]int, val.Rank())
		for i := range shape {
			shape[i] = -1
		}
		l.warnf("placeholder %q has no shape in the file; given the rank of its stored value (%d), every size unknown", v.Name, val.Rank())
	default:
		e.shapeAbsent = true
		l.warnf("placeholder %q has no shape in the file; sdgo's graphs cannot leave the rank unknown, so it is a scalar", v.Name)
	}
	if gv := l.g.Placeholder(v.Name, dt, shape...); gv.Err() != nil {
		return fmt.Errorf("serialize: placeholder %q: %w", v.Name, gv.Err())
	}
	return nil
}

// addAll adds the variables and nodes in an order that respects the data
// dependencies, as close to the file's variable order as they allow: each
// step adds, among the variables (not op outputs) and the nodes whose
// inputs are all in the graph, the one listed first in the file (a node
// counts from its first output). A file sdgo wrote is thus rebuilt in its
// original order. A loop's merge does not wait for its back edge from
// next_iteration (which waits for the merge): it is added with its other
// inputs and gets the back edge once its producer is in (wireBackEdges).
// Any other cycle is an error that names it.
func (l *loader) addAll() error {
	nodes := l.nodes
	nv := len(l.vars.v)
	l.added = make([]*graph.Op, len(nodes))
	pending := make([]int, len(nodes))
	users := make([][]int, len(nodes))
	key := make([]int, len(nodes)) // a node's place: its first output's variable index
	varUsers := map[int][]int{}
	var merges []int // the merge nodes, which may wait on a loop's back edge
	for i := range nodes {
		if isMerge(nodes[i]) {
			merges = append(merges, i)
		}
		key[i] = nv + i
		for _, o := range l.outNames[i] {
			if vi, ok := l.varIdx(o); ok && vi < key[i] {
				key[i] = vi
			}
		}
		seen := map[int]bool{}
		for _, in := range l.inputs[i] {
			if p, ok := l.producer(in); ok {
				if isMerge(nodes[i]) && isNextIteration(nodes[p]) {
					// A loop's back edge: the merge goes in when its
					// entering value is there, at its place in the file.
					continue
				}
				if !seen[nv+p] {
					seen[nv+p] = true
					pending[i]++
					users[p] = append(users[p], i)
				}
			} else if vi, ok := l.varIdx(in); ok && !seen[vi] {
				seen[vi] = true
				pending[i]++
				varUsers[vi] = append(varUsers[vi], i)
			}
		}
	}
	// Heap items: variable i as i, node i as nv+i.
	h := &readyHeap{}
	for i := range l.vars.v {
		if _, ok := l.producer(l.vars.v[i].Name); !ok {
			h.push(i, i)
		}
	}
	for i := range nodes {
		if pending[i] == 0 {
			h.push(key[i], nv+i)
		}
	}
	done := 0
	for done < len(nodes) || h.len() > 0 {
		if h.len() == 0 {
			// Only merges can wait on a back edge: look at those not
			// added yet, not at every node (linear load, issue 23).
			waiting := merges[:0]
			for _, i := range merges {
				if l.added[i] == nil {
					waiting = append(waiting, i)
					if l.loopMerge(i) {
						h.push(key[i], nv+i)
					}
				}
			}
			merges = waiting
			if h.len() == 0 {
				return l.cycleError()
			}
		}
		if err := l.stop.tick(); err != nil {
			return err
		}
		item := h.pop()
		if item < nv {
			if err := l.addVariable(item); err != nil {
				return err
			}
			for _, u := range varUsers[item] {
				pending[u]--
				if pending[u] == 0 && l.added[u] == nil {
					h.push(key[u], nv+u)
				}
			}
			delete(varUsers, item)
			continue
		}
		i := item - nv
		if l.added[i] != nil {
			continue
		}
		if err := l.addNode(i); err != nil {
			return err
		}
		done++
		for _, u := range users[i] {
			pending[u]--
			if pending[u] == 0 && l.added[u] == nil {
				h.push(key[u], nv+u)
			}
		}
		// What only adding node i read goes as the graph grows: the
		// peak of a load is reached at the end of this loop.
		users[i], l.inputs[i], l.outNames[i] = nil, nil, nil
	}
	return nil
}

// readyHeap is a min-heap of (place, item), ordered by place then item.
type readyHeap struct{ a [][2]int }

func (h *readyHeap) len() int { return len(h.a) }

func (h *readyHeap) less(i, j int) bool {
	return h.a[i][0] < h.a[j][0] || h.a[i][0] == h.a[j][0] && h.a[i][1] < h.a[j][1]
}

func (h *readyHeap) push(place, item int) {
	h.a = append(h.a, [2]int{place, item})
	for i := len(h.a) - 1; i > 0; {
		p := (i - 1) / 2
		if !h.less(i, p) {
			break
		}
		h.a[i], h.a[p] = h.a[p], h.a[i]
		i = p
	}
}

func (h *readyHeap) pop() int {
	top := h.a[0][1]
	last := len(h.a) - 1
	h.a[0] = h.a[last]
	h.a = h.a[:last]
	for i := 0; ; {
		c := 2*i + 1
		if c >= len(h.a) {
			break
		}
		if c+1 < len(h.a) && h.less(c+1, c) {
			c++
		}
		if !h.less(c, i) {
			break
		}
		h.a[i], h.a[c] = h.a[c], h.a[i]
		i = c
	}
	return top
}

// loopMerge reports whether node i is a merge whose inputs are all added,
// or come from next_iteration nodes (loop back edges).
func (l *loader) loopMerge(i int) bool {
	if !isMerge(l.nodes[i]) {
		return false
	}
	ready := 0
	for _, in := range l.inputs[i] {
		p, ok := l.producer(in)
		switch {
		case !ok || l.added[p] != nil:
			ready++
		case !isNextIteration(l.nodes[p]):
			return false
		}
	}
	return ready > 0
}

// cycleError names a cycle among the nodes not added: following a missing
// producer from any of them must come back to one.
func (l *loader) cycleError() error {
	start := -1
	for i := range l.added {
		if l.added[i] == nil {
			start = i
			break
		}
	}
	pos := map[int]int{}
	var path []int
	cur := start
	for {
		if at, ok := pos[cur]; ok {
			path = path[at:]
			break
		}
		pos[cur] = len(path)
		path = append(path, cur)
		next := -1
		for _, in := range l.inputs[cur] {
			if p, ok := l.producer(in); ok && l.added[p] == nil {
				next = p
				break
			}
		}
		if next < 0 { // cannot happen: a node not added waits for one
			return fmt.Errorf("serialize: node %q cannot be ordered", l.names[cur])
		}
		cur = next
	}
	msg := ""
	for k := len(path) - 1; k >= 0; k-- {
		msg += fmt.Sprintf("%q -> ", l.names[path[k]])
	}
	msg += fmt.Sprintf("%q", l.names[path[len(path)-1]])
	return fmt.Errorf("serialize: the nodes form a cycle (outside a control-flow loop): %s", msg)
}

// addNode adds node i as a registered op when sdgo has it and can take its
// inputs, else as an opaque op.
func (l *loader) addNode(i int) error {
	n, nodeName := l.nodes[i], l.names[i]
	fn := &FileNode{raw: n}
	var gin []*graph.Variable
	for _, name := range l.inputs[i] {
		p, isOut := l.producer(name)
		if isOut && l.added[p] == nil {
			fn.inputs = append(fn.inputs, fileInput{graphIndex: -1, name: name})
			continue
		}
		v, ok := l.g.Variable(name)
		if !ok {
			// A variable kept out of the graph (see addVariable) cannot
			// feed a node: indexNodes refused those.
			return fmt.Errorf("serialize: node %q: input %q is not in the graph", nodeName, name)
		}
		fn.inputs = append(fn.inputs, fileInput{graphIndex: len(gin), name: name})
		gin = append(gin, v)
	}
	outs := l.outNames[i]
	def, note := l.m.match(n)
	if note != "" {
		l.warnf("node %q: %s", nodeName, note)
	}
	if len(gin) < len(fn.inputs) {
		if def == nil || def.Name != "merge" {
			l.warnf("node %q (%s): loop back edge from %s kept in the file node, not wired in the graph", nodeName, n.OpName, backEdges(fn))
			def = nil
			fn.reason = "control flow"
		} else {
			// A loop's merge: its back edges are wired once their
			// producers are in the graph (see wireBackEdges).
			l.backEdges = append(l.backEdges, i)
		}
	}
	if def != nil {
		// AddOp checks what the op can take (arity, dtypes, shapes, the
		// file's number of outputs); a node it refuses is kept opaque.
		op, err := l.g.AddOp(graph.OpSpec{Name: nodeName, OpName: def.Name, Args: argsFromNode(n, def, dtypesOf(gin)), Inputs: gin,
			OutputNames: outs, Opaque: fn})
		if err == nil {
			return l.registerOp(i, op)
		}
		l.warnf("node %q: %v; kept as an opaque op", nodeName, err)
		fn.reason = err.Error()
		l.unwire(i)
	}
	switch {
	case isControlFlow(n):
		fn.reason = "control flow"
		l.rp.Unimplemented = append(l.rp.Unimplemented, n.OpName)
	case fn.reason == "":
		fn.reason = "not implemented"
		l.rp.Unimplemented = append(l.rp.Unimplemented, n.OpName)
	}
	opName := n.OpName
	if opName == "" {
		opName = fmt.Sprintf("%s:%d", fb.OpType(n.OpType), n.OpNum)
	}
	infos := make([]ops.Info, len(outs))
	for k, o := range outs {
		dt := ndarray.Invalid
		if k < len(n.OutputTypes) {
			dt = ndarray.DType(n.OutputTypes[k])
		}
		if vi, ok := l.varIdx(o); ok && !dt.Known() {
			dt = ndarray.DType(l.vars.v[vi].DType)
		}
		infos[k] = ops.Info{DType: dt, UnknownRank: true}
	}
	op, err := l.g.AddOp(graph.OpSpec{Name: nodeName, OpName: opName, Inputs: gin, OutputNames: outs,
		Opaque: fn, OutputInfos: infos, ForceOpaque: true})
	if err != nil {
		return fmt.Errorf("serialize: node %q: %w", nodeName, err)
	}
	l.rp.Opaque = append(l.rp.Opaque, nodeName)
	return l.registerOp(i, op)
}

func dtypesOf(vs []*graph.Variable) []ndarray.DType {
	d := make([]ndarray.DType, len(vs))
	for i, v := range vs {
		d[i] = v.DType()
	}
	return d
}

// unwire forgets node i as a loop merge waiting for its back edges: it is
// kept opaque after all.
func (l *loader) unwire(i int) {
	if k := len(l.backEdges); k > 0 && l.backEdges[k-1] == i {
		l.backEdges = l.backEdges[:k-1]
	}
}

// wireBackEdges gives every loop merge the inputs that come back from its
// loop's next_iteration nodes, once all nodes are in the graph.
func (l *loader) wireBackEdges() error {
	for _, i := range l.backEdges {
		op := l.added[i]
		fn, _ := op.Opaque().(*FileNode)
		if fn == nil {
			continue
		}
		for k, in := range fn.inputs {
			if in.graphIndex >= 0 {
				continue
			}
			v, ok := l.g.Variable(in.name)
			if !ok {
				return fmt.Errorf("serialize: node %q: back edge %q is not in the graph", op.Name(), in.name)
			}
			if err := l.g.AddBackEdge(op, v); err != nil {
				return fmt.Errorf("serialize: node %q: %w", op.Name(), err)
			}
			fn.inputs[k].graphIndex = len(op.Inputs()) - 1
		}
	}
	return nil
}

func backEdges(fn *FileNode) string {
	s := ""
	for _, in := range fn.inputs {
		if in.graphIndex < 0 {
			if s != "" {
				s += ", "
			}
			s += fmt.Sprintf("%q", in.name)
		}
	}
	return s
}

// registerOp records an added op and its outputs' extras.
func (l *loader) registerOp(i int, op *graph.Op) error {
	l.added[i] = op // AddOp gave it the file's outputs, one name each
	for k, out := range op.Outputs() {
		vi, ok := l.varIdx(l.outNames[i][k])
		if !ok {
			continue
		}
		if full := l.vars.full[vi]; full != nil && !plainVar(full) {
			l.extra(full) // the others are plain: see loadVars.add
		}
		v := &l.vars.v[vi]
		if fdt := ndarray.DType(v.DType); fdt.Known() && out.DType().Known() && fdt != out.DType() {
			l.warnf("variable %q: the file says %v, op %q gives %v", v.Name, fdt, op.OpName(), out.DType())
		}
	}
	return nil
}

// finish sets the losses, training configuration and updater state.
func (l *loader) finish() error {
	r := l.r
	if len(r.LossVariables) > 0 {
		if err := l.g.SetLoss(r.LossVariables...); err != nil {
			l.fi.losses = r.LossVariables
			l.warnf("loss variables %q kept as read: %v", r.LossVariables, err)
		}
	}
	for _, p := range r.Placeholders {
		if v, ok := l.g.Variable(p); !ok || v.Type() != graph.PLACEHOLDER {
			l.warnf("the file lists %q as a placeholder, but it is not one", p)
		}
	}
	// The graph's outputs (SameDiff writes none), kept by variable name
	// for Save, which numbers variables afresh.
	for k, p := range r.Outputs {
		name := l.outputs[k]
		if name == "" {
			l.warnf("graph output %d (%d,%d) names no variable; not kept", k, p.First, p.Second)
			continue
		}
		l.fi.outputs = append(l.fi.outputs, name)
	}
	if r.TrainingConfig != "" {
		l.g.SetMeta(graph.MetaTrainingConfig, trainingConfig{text: r.TrainingConfig, fi: l.fi})
	}
	if len(r.UpdaterState) > 0 {
		st := map[string]map[string]*ndarray.Array{}
		for i := range r.UpdaterState {
			u := &r.UpdaterState[i]
			if len(u.Keys) != len(u.Values) {
				return fmt.Errorf("serialize: updater state of %q: %d keys, %d arrays", u.ParamName, len(u.Keys), len(u.Values))
			}
			m := st[u.ParamName]
			if m == nil {
				m = map[string]*ndarray.Array{}
				st[u.ParamName] = m
			}
			for k, key := range u.Keys {
				if _, dup := m[key]; dup {
					// One of the two arrays would be dropped without a word.
					return fmt.Errorf("serialize: updater state %q of %q is given twice", key, u.ParamName)
				}
				la, err := arrayFromRaw(&u.Values[k], ndarray.Invalid)
				if err != nil {
					return fmt.Errorf("serialize: updater state %q of %q: %w", key, u.ParamName, err)
				}
				if la.strides != "" {
					l.warnf("updater state %q of %q: %s", key, u.ParamName, la.strides)
				}
				m[key] = la.arr
			}
		}
		l.g.SetMeta(graph.MetaUpdaterState, st)
	}
	return nil
}
