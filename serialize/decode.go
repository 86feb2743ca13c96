package serialize

import (
	"context"
	"fmt"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/sdgo/sdgo/serialize/internal/fb"
)

// decode reads a FlatGraph buffer into raw structs. The buffer is verified
// first (see verify.go), so the generated accessors below only ever see
// offsets that are in range. Array buffers in the result alias buf.
func decode(buf []byte) (g *rawGraph, err error) { return decodeCtx(nil, buf) }

// decodeCtx is decode that stops, with an error wrapping the context's,
// once ctx (when not nil) is done.
func decodeCtx(ctx context.Context, buf []byte) (*rawGraph, error) {
	g, _, err := decodeShared(ctx, buf, nil)
	return g, err
}

// detachArrays copies the arrays' bytes out of the file's buffer when
// they are less than half of it, so that the buffer can be freed once the
// graph is built: without it a tiny constant kept a whole file of nodes
// alive (issue 23).
// When the arrays are most of the file they stay where they are, as a copy
// would cost more than the rest of the buffer.
func detachArrays(g *rawGraph, lp *loadParts, fileLen int) {
	var arrays []*rawArray
	total := 0
	add := func(a *rawArray) {
		if a != nil && len(a.Buffer) > 0 {
			arrays = append(arrays, a)
			total += len(a.Buffer)
		}
	}
	for i := range g.Variables {
		add(g.Variables[i].Array)
	}
	if lp != nil {
		for _, v := range lp.vars.full {
			add(v.Array)
		}
	}
	addNode := func(n *rawNode) {
		add(n.Scalar)
		for j := range n.Properties {
			for k := range n.Properties[j].A {
				add(&n.Properties[j].A[k])
			}
		}
	}
	for i := range g.Nodes {
		addNode(&g.Nodes[i])
	}
	for i := range g.UpdaterState {
		for j := range g.UpdaterState[i].Values {
			add(&g.UpdaterState[i].Values[j])
		}
	}
	seen := map[*rawNode]bool{} // shared nodes, whose arrays count once
	for i := range lp.nodeList() {
		if n := lp.nodes[i].rest; arrayBytes(n) > 0 && !seen[n] {
			seen[n] = true
			addNode(n)
		}
	}
	if total >= fileLen/2 {
		return
	}
	for _, a := range arrays {
		c := alignedBytes(len(a.Buffer))
		copy(c, a.Buffer)
		a.Buffer = c
	}
}

// stopCheck asks a context, every 1024 ticks, whether loading must stop.
type stopCheck struct {
	ctx context.Context
	n   int
}

// tick counts one item (a node, a variable) and returns an error once the
// context is done.
func (s *stopCheck) tick() error {
	if s == nil || s.ctx == nil {
		return nil
	}
	if s.n++; s.n&1023 != 0 {
		return nil
	}
	return s.err()
}

// err returns an error wrapping the context's once it is done.
func (s *stopCheck) err() error {
	if s == nil || s.ctx == nil {
		return nil
	}
	if err := s.ctx.Err(); err != nil {
		return fmt.Errorf("serialize: loading stopped: %w", err)
	}
	return nil
}

// has reports whether the field in the given slot (0-based field index) is
// present in the table.
func has(t flatbuffers.Table, slot int) bool {
	return t.Offset(flatbuffers.VOffsetT(4+2*slot)) != 0
}

// vec copies a vector of scalars; nil when the field is absent.
func vec[T any](present bool, n int, get func(int) T) []T {
	if !present {
		return nil
	}
	s := make([]T, n)
	for i := range s {
		s[i] = get(i)
	}
	return s
}

// strs copies a vector of strings; nil when the field is absent.
func strs(present bool, n int, get func(int) []byte) []string {
	if !present {
		return nil
	}
	s := make([]string, n)
	for i := range s {
		s[i] = string(get(i))
	}
	return s
}

// decodeGraph decodes the root table. With a sharer, every node is
// decoded into a scratch node and split into a loadNode (see nodeSharer),
// every variable into a loadVar, and g.Nodes and g.Variables stay nil.
func decodeGraph(r *fb.FlatGraph, stop *stopCheck, sh *nodeSharer) (g *rawGraph, lp *loadParts, err error) {
	t := r.Table()
	g = &rawGraph{
		ID:             r.Id(),
		Placeholders:   strs(has(t, 5), r.PlaceholdersLength(), r.Placeholders),
		LossVariables:  strs(has(t, 6), r.LossVariablesLength(), r.LossVariables),
		TrainingConfig: string(r.TrainingConfig()),
	}
	if sh != nil {
		lp = &loadParts{}
	}
	if has(t, 1) && sh != nil {
		lp.vars.v = make([]loadVar, 0, r.VariablesLength())
		var v fb.FlatVariable
		for i := range r.VariablesLength() {
			if err := stop.tick(); err != nil {
				return nil, nil, err
			}
			r.Variables(&v, i)
			var scratch rawVariable
			decodeVariable(&v, &scratch)
			lp.vars.add(&scratch)
		}
	} else if has(t, 1) {
		g.Variables = make([]rawVariable, r.VariablesLength())
		var v fb.FlatVariable
		for i := range g.Variables {
			if err := stop.tick(); err != nil {
				return nil, nil, err
			}
			r.Variables(&v, i)
			decodeVariable(&v, &g.Variables[i])
		}
	}
	if has(t, 2) && sh != nil {
		lp.nodes = make([]loadNode, r.NodesLength())
		var n fb.FlatNode
		for i := range lp.nodes {
			if err := stop.tick(); err != nil {
				return nil, nil, err
			}
			r.Nodes(&n, i)
			var scratch rawNode
			decodeNode(&n, &scratch)
			lp.nodes[i] = sh.keep(&scratch)
		}
	} else if has(t, 2) {
		g.Nodes = make([]rawNode, r.NodesLength())
		var n fb.FlatNode
		for i := range g.Nodes {
			if err := stop.tick(); err != nil {
				return nil, nil, err
			}
			r.Nodes(&n, i)
			decodeNode(&n, &g.Nodes[i])
		}
	}
	if has(t, 3) {
		g.Outputs = make([]rawIntPair, r.OutputsLength())
		var p fb.IntPair
		for i := range g.Outputs {
			r.Outputs(&p, i)
			g.Outputs[i] = rawIntPair{p.First(), p.Second()}
		}
	}
	if c := r.Configuration(nil); c != nil {
		g.Config = &rawConfig{
			ID:                c.Id(),
			ExecutionMode:     c.ExecutionMode(),
			ProfilingMode:     c.ProfilingMode(),
			OutputMode:        c.OutputMode(),
			Timestats:         c.Timestats(),
			FootprintForward:  c.FootprintForward(),
			FootprintBackward: c.FootprintBackward(),
			Direction:         c.Direction(),
		}
	}
	if has(t, 8) {
		g.UpdaterState = make([]rawUpdaterState, r.UpdaterStateLength())
		var u fb.UpdaterState
		for i := range g.UpdaterState {
			r.UpdaterState(&u, i)
			ut := u.Table()
			s := &g.UpdaterState[i]
			s.ParamName = string(u.ParamName())
			s.Keys = strs(has(ut, 1), u.UpdaterStateKeysLength(), u.UpdaterStateKeys)
			if has(ut, 2) {
				s.Values = make([]rawArray, u.UpdaterStateValuesLength())
				var a fb.FlatArray
				for j := range s.Values {
					u.UpdaterStateValues(&a, j)
					decodeArray(&a, &s.Values[j])
				}
			}
		}
	}
	return g, lp, nil
}

func decodeArray(a *fb.FlatArray, out *rawArray) {
	t := a.Table()
	out.ShapeInfo = vec(has(t, 0), a.ShapeLength(), a.Shape)
	if o := t.Offset(4 + 2*1); o != 0 {
		// [byte] is a signed-byte vector, for which flatc generates no
		// slice accessor: take the bytes straight from the table (no copy).
		out.Buffer = t.ByteVector(flatbuffers.UOffsetT(o) + t.Pos)
	}
	out.DType = a.Dtype()
	out.ByteOrder = a.ByteOrder()
}

func decodeVariable(v *fb.FlatVariable, out *rawVariable) {
	t := v.Table()
	if id := v.Id(nil); id != nil {
		out.ID = &rawIntPair{id.First(), id.Second()}
	}
	out.Name = string(v.Name())
	out.DType = v.Dtype()
	out.Shape = vec(has(t, 3), v.ShapeLength(), v.Shape)
	if a := v.Ndarray(nil); a != nil {
		out.Array = new(rawArray)
		decodeArray(a, out.Array)
	}
	out.Device = v.Device()
	out.VarType = v.Variabletype()
	out.ControlDeps = strs(has(t, 7), v.ControlDepsLength(), v.ControlDeps)
	out.ControlDepForOp = strs(has(t, 8), v.ControlDepForOpLength(), v.ControlDepForOp)
	out.ControlDepsForVar = strs(has(t, 9), v.ControlDepsForVarLength(), v.ControlDepsForVar)
}

func decodeNode(n *fb.FlatNode, out *rawNode) {
	t := n.Table()
	out.ID = n.Id()
	out.Name = string(n.Name())
	out.OpType = n.OpType()
	out.OpNum = n.OpNum()
	if has(t, 4) {
		out.Properties = make([]rawProperties, n.PropertiesLength())
		var p fb.FlatProperties
		for i := range out.Properties {
			n.Properties(&p, i)
			decodeProperties(&p, &out.Properties[i])
		}
	}
	out.Input = vec(has(t, 5), n.InputLength(), n.Input)
	if has(t, 6) {
		out.InputPaired = make([]rawIntPair, n.InputPairedLength())
		var p fb.IntPair
		for i := range out.InputPaired {
			n.InputPaired(&p, i)
			out.InputPaired[i] = rawIntPair{p.First(), p.Second()}
		}
	}
	out.Output = vec(has(t, 7), n.OutputLength(), n.Output)
	out.ExtraParams = vec(has(t, 8), n.ExtraParamsLength(), n.ExtraParams)
	out.ExtraInteger = vec(has(t, 9), n.ExtraIntegerLength(), n.ExtraInteger)
	out.ExtraBools = vec(has(t, 10), n.ExtraBoolsLength(), n.ExtraBools)
	out.Dimensions = vec(has(t, 11), n.DimensionsLength(), n.Dimensions)
	out.Device = n.Device()
	out.ScopeID = n.ScopeId()
	out.ScopeName = string(n.ScopeName())
	out.OutputNames = strs(has(t, 15), n.OutputNamesLength(), n.OutputNames)
	for i, o := range out.OutputNames {
		if o == out.Name {
			// One string for both: an op and its output mostly share the
			// name, and so do the graph's op and variable built from them.
			out.OutputNames[i] = out.Name
		}
	}
	out.OpName = string(n.OpName())
	out.OutputTypes = vec(has(t, 17), n.OutputTypesLength(), n.OutputTypes)
	if a := n.Scalar(nil); a != nil {
		out.Scalar = new(rawArray)
		decodeArray(a, out.Scalar)
	}
	out.ControlDeps = strs(has(t, 19), n.ControlDepsLength(), n.ControlDeps)
	out.VarControlDeps = strs(has(t, 20), n.VarControlDepsLength(), n.VarControlDeps)
	out.ControlDepFor = strs(has(t, 21), n.ControlDepForLength(), n.ControlDepFor)
	out.ExtraTypes = vec(has(t, 22), n.ExtraTypesLength(), n.ExtraTypes)
	out.ExtraStrings = strs(has(t, 23), n.ExtraStringsLength(), n.ExtraStrings)
}

func decodeProperties(p *fb.FlatProperties, out *rawProperties) {
	t := p.Table()
	out.Name = string(p.Name())
	out.I = vec(has(t, 1), p.ILength(), p.I)
	out.L = vec(has(t, 2), p.LLength(), p.L)
	out.D = vec(has(t, 3), p.DLength(), p.D)
	if has(t, 4) {
		out.A = make([]rawArray, p.ALength())
		var a fb.FlatArray
		for i := range out.A {
			p.A(&a, i)
			decodeArray(&a, &out.A[i])
		}
	}
	out.B = vec(has(t, 5), p.BLength(), p.B)
	out.S = strs(has(t, 6), p.SLength(), p.S)
	out.Shape = vec(has(t, 7), p.ShapeLength(), p.Shape)
}
