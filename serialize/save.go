package serialize

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/internal/atomicfile"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	"github.com/sdgo/sdgo/serialize/internal/fb"
)

// SaveOptions adjust how a graph is written. The zero value (or nil) writes
// little-endian arrays, no placeholder values beyond those the graph was
// loaded with, and no updater state.
type SaveOptions struct {
	// BigEndian writes every array big-endian, as SameDiff's Java writer
	// does (for files meant for older readers). Little-endian arrays can be
	// used in place when the file is read back on a little-endian machine.
	BigEndian bool
	// PlaceholderValues are stored with the placeholders they name.
	PlaceholderValues map[string]*ndarray.Array
	// UpdaterState writes the updater's state (graph.MetaUpdaterState) so
	// that training can resume where it stopped.
	UpdaterState bool
	// LegacyArrayLayouts writes arrays as ND4J and libnd4j before 2024
	// read them: rank-0 shape-info with 4 longs [0, extra, ews, order]
	// instead of the 6 that libnd4j's shapeInfoLength gives rank 0 now
	// (and where ND4J's ArrayOptionsHelper reads extra at index 3), and
	// big-endian string arrays in ND4J's older layout (a count, then
	// big-endian offsets) instead of libnd4j's (little-endian offsets,
	// then the bytes) that ND4J writes now in either byte order. Loading
	// reads both.
	LegacyArrayLayouts bool
	// Java writes a file SameDiff (Java) can load (see javasave.go): sdgo's
	// own ops as the SameDiff ops that compute the same values (a write
	// through a view as create_view, range and a scatter; zeros_as as
	// zeroslike), which Load recognizes and turns back into sdgo's ops.
	// The gradients autodiff added are left out, as SameDiff saves none,
	// and built again when sdgo loads the file. A node with no faithful
	// SameDiff form, an op that reads a gradient, or a training
	// configuration ND4J cannot express makes the save fail with an error
	// naming it.
	Java bool
	// InferenceOutputs, when set, writes an inference file: only what
	// computing these variables needs (the ops they depend on and the
	// variables those read), which become the file's outputs. Gradient,
	// loss-only and other unneeded ops are left out, and so are the loss
	// variables, the training configuration and the updater state
	// (UpdaterState with it is an error).
	InferenceOutputs []string
}

// Save writes g to the file at path. It writes a temporary file in the same
// directory and renames it over path once complete, so a failed save leaves
// any previous file untouched. When path is a symbolic link, the file it
// points to is replaced and the link kept; a device (/dev/stdout) is
// written in place.
func Save(path string, g *graph.Graph, opts *SaveOptions) error {
	buf, err := Encode(g, opts)
	if err != nil {
		return err
	}
	if err := atomicfile.Write(path, func(w io.Writer) error { return writeAll(w, buf) }); err != nil {
		return fmt.Errorf("serialize: writing %s: %w", path, err)
	}
	return nil
}

// Write writes g to w as a graph file.
func Write(w io.Writer, g *graph.Graph, opts *SaveOptions) error {
	buf, err := Encode(g, opts)
	if err != nil {
		return err
	}
	if err := writeAll(w, buf); err != nil {
		return fmt.Errorf("serialize: writing graph: %w", err)
	}
	return nil
}

// writeAll writes buf to w in one call; a short write without an error is
// io.ErrShortWrite.
func writeAll(w io.Writer, buf []byte) error {
	n, err := w.Write(buf)
	if err == nil && n != len(buf) {
		err = io.ErrShortWrite
	}
	return err
}

// Encode returns g as the bytes of a graph file.
//
// Variables are numbered as SameDiff numbers them: counting from 1 in the
// graph's variable order, an op's outputs share the op's number (with the
// output index as the second half of the id), ops without outputs get
// numbers after every variable. FlatNode.output lists the positions of the
// node's outputs in the variable list, inputs are (node id, output index)
// pairs. Ops loaded from a file are written back from their FileNode with
// only what the graph decides (ids, inputs, outputs, names, dtypes, and
// arguments if they differ) replaced.
func Encode(g *graph.Graph, opts *SaveOptions) ([]byte, error) {
	if g == nil {
		return nil, errors.New("serialize: nil graph")
	}
	if err := g.Err(); err != nil {
		return nil, fmt.Errorf("serialize: the graph has a build error: %w", err)
	}
	if opts == nil {
		opts = &SaveOptions{}
	}
	r, err := toRaw(g, opts)
	if err != nil {
		return nil, err
	}
	if opts.Java {
		if err := javaForm(r); err != nil {
			return nil, err
		}
	}
	buf, err := encode(r)
	if err != nil {
		return nil, fmt.Errorf("serialize: %w", err)
	}
	return buf, nil
}

// saver holds the state of one save.
type saver struct {
	g      *graph.Graph
	opts   *SaveOptions
	fi     *fileInfo
	bo     fb.ByteOrder
	varPos map[*graph.Variable]int32 // position in the variable list
	varID  map[*graph.Variable]rawIntPair
	opID   map[*graph.Op]int32
	names  map[*graph.Variable]string // the variables' names when the save began
}

// name returns v's name as the save found it: the file names a variable
// one way throughout, whatever a concurrent Rename does.
func (s *saver) name(v *graph.Variable) string {
	if n, ok := s.names[v]; ok {
		return n
	}
	return v.Name()
}

func toRaw(g *graph.Graph, opts *SaveOptions) (*rawGraph, error) {
	s := &saver{g: g, opts: opts, fi: fileInfoOf(g), bo: fb.ByteOrderLE,
		varPos: map[*graph.Variable]int32{}, varID: map[*graph.Variable]rawIntPair{}, opID: map[*graph.Op]int32{}}
	if opts.BigEndian {
		s.bo = fb.ByteOrderBE
	}
	// The graph at one moment: a Graph is safe for concurrent use, and an
	// op added or a variable renamed while it is saved must be in the file
	// whole or not at all. Taken one after the other, the variables and the
	// ops could disagree: an op added in between was saved with an output
	// missing from the file's variables, or failed to save for an input
	// that was not among them.
	// The names PlaceholderValues gives are looked up in the same
	// snapshot, since the file names the placeholders as they are in it.
	var vars []*graph.Variable
	var gops []*graph.Op
	var losses []string
	var roots []*graph.Variable // an inference file's outputs
	inference := len(opts.InferenceOutputs) > 0
	err := g.Read(func(snap graph.Snapshot) error {
		vars = slices.Clone(snap.Variables())
		gops = slices.Clone(snap.Ops())
		losses = slices.Clone(snap.Losses())
		if inference {
			var err error
			if roots, err = inferenceRoots(snap, opts); err != nil {
				return err
			}
			vars, gops = s.inferenceOnly(snap, vars, gops, roots)
			losses = nil
		}
		s.names = make(map[*graph.Variable]string, len(vars))
		for _, v := range vars {
			s.names[v] = v.Name()
		}
		for name := range opts.PlaceholderValues {
			if v, ok := snap.Variable(name); !ok || v.Type() != graph.PLACEHOLDER {
				return fmt.Errorf("serialize: SaveOptions.PlaceholderValues names %q, which is not a placeholder", name)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var gradMark []string
	if opts.Java {
		omitVar, omitOp, mark, err := s.javaGradients(vars, gops)
		if err != nil {
			return nil, err
		}
		vars = slices.DeleteFunc(vars, func(v *graph.Variable) bool { return omitVar[v] })
		gops = slices.DeleteFunc(gops, func(op *graph.Op) bool { return omitOp[op] })
		gradMark = mark
	}

	// SameDiff's numbering.
	counter := int32(0)
	for i, v := range vars {
		s.varPos[v] = int32(i)
		if op := v.Op(); op != nil {
			id, ok := s.opID[op]
			if !ok {
				counter++
				id = counter
				s.opID[op] = id
			}
			s.varID[v] = rawIntPair{id, int32(v.OutputIndex())}
		} else {
			counter++
			s.varID[v] = rawIntPair{counter, 0}
		}
	}
	for _, op := range gops {
		if _, ok := s.opID[op]; !ok {
			counter++
			s.opID[op] = counter
		}
	}

	r := &rawGraph{Outputs: []rawIntPair{}}
	r.Config = &rawConfig{ID: -1, ExecutionMode: fb.ExecutionModeSEQUENTIAL, ProfilingMode: fb.ProfilingModeNONE,
		OutputMode: fb.OutputModeVARIABLE_SPACE, Timestats: true, Direction: fb.DirectionFORWARD_ONLY}
	if s.fi != nil {
		r.ID = s.fi.id
		if s.fi.config != nil {
			r.Config = s.fi.config
		}
	}
	r.Variables = make([]rawVariable, 0, len(vars))
	for _, v := range vars {
		rv, err := s.variable(v)
		if err != nil {
			return nil, err
		}
		r.Variables = append(r.Variables, rv)
		if v.Type() == graph.PLACEHOLDER {
			r.Placeholders = append(r.Placeholders, s.name(v))
		}
	}
	orphanID := map[string]rawIntPair{}
	if s.fi != nil && !inference {
		for _, o := range s.fi.orphans {
			if v, clash := g.Variable(o.Name); clash {
				// Saving either would lose the other without a word.
				return nil, s.orphanClash(v, &o)
			}
			counter++
			o.ID = &rawIntPair{counter, 0}
			orphanID[o.Name] = *o.ID
			o.ControlDepsForVar = s.fi.varNames(o.ControlDepsForVar)
			if o.Array != nil {
				a := reorderRaw(*o.Array, s.bo)
				o.Array = &a
			}
			r.Variables = append(r.Variables, o)
		}
	}
	if r.Placeholders == nil {
		r.Placeholders = []string{}
	}
	for _, v := range roots {
		r.Outputs = append(r.Outputs, s.varID[v])
	}
	if s.fi != nil && !inference {
		// The file's graph outputs, by the variables they named.
		for _, name := range s.fi.outputs {
			if v := s.fi.byFileName[name]; v != nil {
				r.Outputs = append(r.Outputs, s.varID[v])
			} else if id, ok := orphanID[name]; ok {
				r.Outputs = append(r.Outputs, id)
			} else { // cannot happen: variables are not removed
				return nil, fmt.Errorf("serialize: graph output %q is no longer in the graph", name)
			}
		}
	}
	r.Nodes = make([]rawNode, 0, len(gops))
	for _, op := range gops {
		n, err := s.node(op)
		if err != nil {
			return nil, err
		}
		r.Nodes = append(r.Nodes, n)
	}
	r.LossVariables = losses
	if len(r.LossVariables) == 0 && s.fi != nil && !inference {
		r.LossVariables = s.fi.varNames(s.fi.losses)
	}
	if r.LossVariables == nil {
		r.LossVariables = []string{}
	}
	if inference {
		dropControlDeps(r)
		return r, nil
	}
	if tc, ok := g.GetMeta(graph.MetaTrainingConfig); ok {
		str, err := graph.MetaJSON(tc)
		if err != nil {
			return nil, fmt.Errorf("serialize: graph meta %q: %w", graph.MetaTrainingConfig, err)
		}
		r.TrainingConfig = str
	}
	if opts.UpdaterState {
		if err := s.updaterState(r); err != nil {
			return nil, err
		}
	}
	if gradMark != nil {
		id := rawIntPair{First: 1}
		for i := range r.Variables {
			if v := r.Variables[i].ID; v != nil {
				id.First = max(id.First, v.First+1)
			}
		}
		for i := range r.Nodes {
			id.First = max(id.First, r.Nodes[i].ID+1)
		}
		mv, err := s.gradMarkVariable(gradMark, id)
		if err != nil {
			return nil, err
		}
		r.Variables = append(r.Variables, mv)
	}
	return r, nil
}

// orphanClash is the error for a graph variable that has the name of a
// variable the file had and the graph could not hold (kept aside, saved as
// read).
func (s *saver) orphanClash(v *graph.Variable, o *rawVariable) error {
	was := ""
	if name := s.fi.fileName(v); name != "" && name != v.Name() {
		was = fmt.Sprintf(" (renamed from %q)", name)
	}
	return fmt.Errorf("serialize: the graph's %v %q%s has the name of the file's variable %q, which is %s and kept aside to be saved as read; "+
		"rename the graph's variable (graph.Graph.Rename) to save both", v.Type(), v.Name(), was, o.Name, orphanKind(o))
}

func (s *saver) variable(v *graph.Variable) (rawVariable, error) {
	id := s.varID[v]
	rv := rawVariable{ID: &id, Name: s.name(v), DType: fb.DType(v.DType()), Device: -1, VarType: fb.VarType(v.Type())}
	var e *varExtra
	if s.fi != nil {
		e = s.fi.vars[v]
	}
	if e != nil {
		rv.Device = e.device
		rv.ControlDeps, rv.ControlDepForOp = e.controlDeps, e.controlDepForOp // op names
		rv.ControlDepsForVar = s.fi.varNames(e.controlDepsForVar)
		if v.Type() == graph.ARRAY && e.varType != fb.VarTypeARRAY {
			rv.VarType = e.varType // an op output the file calls a SEQUENCE
		}
	}
	var val *ndarray.Array
	switch v.Type() {
	case graph.VARIABLE, graph.CONSTANT:
		val = v.Value()
		if val == nil {
			return rv, fmt.Errorf("serialize: %v %q has no value", v.Type(), v.Name())
		}
	case graph.PLACEHOLDER:
		if e == nil || !e.shapeAbsent {
			if sh := v.Shape(); sh != nil {
				rv.Shape = make([]int64, len(sh))
				for i, d := range sh {
					rv.Shape[i] = int64(d)
				}
			}
		}
		val = s.opts.PlaceholderValues[s.name(v)]
		if val != nil && !fits(v, val, e != nil && e.shapeAbsent) {
			return rv, fmt.Errorf("serialize: placeholder %q is %v%v, its value %v%v", v.Name(), v.DType(), v.Shape(),
				val.DType(), val.Shape())
		}
		if val == nil && e != nil && s.fi.report.PlaceholderValues != nil {
			val = s.fi.report.PlaceholderValues[e.fileName] // as the file had it
		}
	}
	if val != nil {
		a, err := arrayToRaw(val, s.bo, e != nil && e.emptyScalar == val, s.opts.LegacyArrayLayouts)
		if err != nil {
			return rv, fmt.Errorf("serialize: %v %q: %w", v.Type(), v.Name(), err)
		}
		rv.Array = &a
	}
	return rv, nil
}

// fits reports whether a value suits a placeholder: same dtype, and the
// shape where the placeholder's is known. shapeAbsent: the file the graph
// was loaded from gave the placeholder no shape, so its rank is sdgo's guess.
func fits(v *graph.Variable, a *ndarray.Array, shapeAbsent bool) bool {
	if a.DType() != v.DType() {
		return false
	}
	want := v.Shape()
	if want == nil || shapeAbsent {
		return true
	}
	if len(want) != a.Rank() {
		return false
	}
	for i, d := range want {
		if d >= 0 && d != a.Shape()[i] {
			return false
		}
	}
	return true
}

// pairOf returns the id of the variable an op input names.
func (s *saver) pairOf(op *graph.Op, v *graph.Variable) (rawIntPair, error) {
	p, ok := s.varID[v]
	if !ok {
		return p, fmt.Errorf("serialize: op %q: input %q is not in the graph", op.Name(), v.Name())
	}
	return p, nil
}

func (s *saver) node(op *graph.Op) (rawNode, error) {
	def := op.Def()
	fn, _ := op.Opaque().(*FileNode)
	var n rawNode
	switch {
	case fn != nil:
		n = *fn.raw // a shallow copy: the fields replaced below get new slices
		n.Properties = reorderProps(n.Properties, s.bo)
		if n.Scalar != nil {
			a := reorderRaw(*n.Scalar, s.bo)
			n.Scalar = &a
		}
	case def != nil:
		n = rawNode{OpType: fb.OpType(def.Type), OpNum: def.Num, OpName: def.Name, Device: -1,
			Properties: []rawProperties{}}
		if def.Name == "enter" {
			// SameDiff reads enter's frame and invariance from properties.
			a := op.Args()
			n.Properties = append(n.Properties,
				rawProperties{Name: "frameName", S: []string{ops.FrameName(a)}},
				rawProperties{Name: "isConstant", B: []bool{a.Bool(0, false)}})
		}
	default:
		return n, fmt.Errorf("serialize: op %q (%s) is an opaque op that was not loaded from a file; it cannot be saved", op.Name(), op.OpName())
	}
	n.ID = s.opID[op]
	n.Name = op.Name()
	if fn != nil { // variable names, as SameDiff's SameDiffOp keeps them
		n.ControlDeps = s.fi.varNames(n.ControlDeps)
		n.VarControlDeps = s.fi.varNames(n.VarControlDeps)
		n.ControlDepFor = s.fi.varNames(n.ControlDepFor)
	}
	n.Input = []int32{}
	ins := op.Inputs()
	if fn != nil {
		n.InputPaired = make([]rawIntPair, len(fn.inputs))
		for k, in := range fn.inputs {
			var v *graph.Variable
			if in.graphIndex >= 0 && in.graphIndex < len(ins) {
				v = ins[in.graphIndex]
			} else if x, ok := s.g.Variable(s.fi.varName(in.name)); ok {
				v = x // by the file's name: the variable may have been renamed
			} else {
				return n, fmt.Errorf("serialize: op %q: input %q (a loop back edge) is no longer in the graph", op.Name(), in.name)
			}
			p, err := s.pairOf(op, v)
			if err != nil {
				return n, err
			}
			n.InputPaired[k] = p
		}
	} else {
		n.InputPaired = make([]rawIntPair, len(ins))
		for k, v := range ins {
			p, err := s.pairOf(op, v)
			if err != nil {
				return n, err
			}
			n.InputPaired[k] = p
		}
	}
	outs := op.Outputs()
	n.Output = make([]int32, len(outs))
	n.OutputNames = make([]string, len(outs))
	types := make([]fb.DType, len(outs))
	for k, v := range outs {
		n.Output[k] = s.varPos[v]
		n.OutputNames[k] = s.name(v)
		types[k] = fb.DType(v.DType())
		if fn != nil && !v.DType().Known() && k < len(fn.raw.OutputTypes) {
			types[k] = fn.raw.OutputTypes[k]
		}
	}
	n.OutputTypes = types
	if def != nil {
		a := op.Args()
		if fn == nil || !argsEqual(a, ptr(argsFromNode(fn.raw, def, dtypesOf(op.Inputs())))) {
			if err := s.setArgs(&n, op, def, a); err != nil {
				return n, err
			}
		}
	}
	return n, nil
}

func ptr[T any](x T) *T { return &x }

// setArgs writes an op's arguments in SameDiff's positional slots. Every
// vector is written, empty ones too, as SameDiff does.
func (s *saver) setArgs(n *rawNode, op *graph.Op, def *ops.Def, a *ops.Args) error {
	n.ExtraParams = append([]float64{}, a.F...)
	n.ExtraInteger = append([]int64{}, a.I...)
	n.ExtraBools = append([]bool{}, a.B...)
	n.ExtraStrings = append([]string{}, a.S...)
	n.ExtraTypes = make([]fb.DType, len(a.D))
	for i, d := range a.D {
		n.ExtraTypes[i] = fb.DType(d)
	}
	n.Dimensions = make([]int32, len(a.Dims))
	for i, d := range a.Dims {
		if d < -1<<31 || d > 1<<31-1 {
			return fmt.Errorf("serialize: op %q: dimension %d does not fit the file's int32", op.Name(), d)
		}
		n.Dimensions[i] = int32(d)
	}
	if axesInIArgs(def, a.I, a.Dims) {
		// Java restores FlatNode.dimensions only for legacy reductions; a
		// custom op (argmax, argmin, the reduce_*_bp ops, ...) reads its
		// axes from iArgs, as libnd4j does. The dimensions stay too, for
		// readers that take them from there.
		n.ExtraInteger = make([]int64, len(a.Dims))
		for i, d := range a.Dims {
			n.ExtraInteger[i] = int64(d)
		}
	}
	var outs []ndarray.DType
	for _, v := range op.Outputs() {
		outs = append(outs, v.DType())
	}
	setProps(n, javaProps(def, a, outs))
	n.Scalar = nil
	f, hasScalar := javaScalarDefault[def.Name]
	if len(a.F) > 0 {
		f, hasScalar = a.F[0], true
	}
	if (def.Type == ops.Scalar || def.Type == ops.ScalarBool) && hasScalar {
		dt := ndarray.Float32
		if ins := op.Inputs(); len(ins) > 0 {
			dt = ins[0].DType()
		}
		sc, err := scalarRaw(f, dt, s.bo, s.opts.LegacyArrayLayouts)
		if err != nil {
			return fmt.Errorf("serialize: op %q: %w", op.Name(), err)
		}
		n.Scalar = &sc
	}
	return nil
}

// reorderProps returns properties with their arrays in byte order bo
// (sharing what does not change).
func reorderProps(ps []rawProperties, bo fb.ByteOrder) []rawProperties {
	var out []rawProperties
	for i := range ps {
		for j := range ps[i].A {
			if ps[i].A[j].ByteOrder != bo {
				if out == nil {
					out = append([]rawProperties(nil), ps...)
				}
				out[i].A = make([]rawArray, len(ps[i].A))
				for k := range ps[i].A {
					out[i].A[k] = reorderRaw(ps[i].A[k], bo)
				}
				break
			}
		}
	}
	if out == nil {
		return ps
	}
	return out
}

func (s *saver) updaterState(r *rawGraph) error {
	m, ok := s.g.GetMeta(graph.MetaUpdaterState)
	if !ok {
		return nil
	}
	st, ok := m.(map[string]map[string]*ndarray.Array)
	if !ok {
		return fmt.Errorf("serialize: graph meta %q is a %T, not a map[string]map[string]*ndarray.Array", graph.MetaUpdaterState, m)
	}
	params := make([]string, 0, len(st))
	for p := range st {
		params = append(params, p)
	}
	sort.Strings(params)
	r.UpdaterState = make([]rawUpdaterState, 0, len(params))
	for _, p := range params {
		keys := make([]string, 0, len(st[p]))
		for k := range st[p] {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		u := rawUpdaterState{ParamName: p, Keys: keys, Values: make([]rawArray, len(keys))}
		for i, k := range keys {
			a := st[p][k]
			if a == nil {
				return fmt.Errorf("serialize: updater state %q of %q is nil", k, p)
			}
			ra, err := arrayToRaw(a, s.bo, false, s.opts.LegacyArrayLayouts)
			if err != nil {
				return fmt.Errorf("serialize: updater state %q of %q: %w", k, p, err)
			}
			u.Values[i] = ra
		}
		r.UpdaterState = append(r.UpdaterState, u)
	}
	return nil
}
