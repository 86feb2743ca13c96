package serialize

import (
	"fmt"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/sdgo/sdgo/serialize/internal/fb"
)

// encode writes g as a FlatGraph buffer (no file identifier, no size
// prefix). Fields are added in schema order; nested objects are created
// before the table that refers to them, as FlatBuffers requires. Array bytes
// are copied as given: converting to the byte order named in ByteOrder is the
// caller's job. The returned slice is owned by the caller.
func encode(g *rawGraph) (out []byte, err error) {
	if g == nil {
		return nil, fmt.Errorf("encode: nil graph")
	}
	est := estimateSize(g)
	if est > maxBufferSize {
		return nil, fmt.Errorf("encode: graph needs about %d bytes, over the 2 GiB FlatBuffers limit; "+
			"keep large arrays outside the graph file", est)
	}
	// The Builder panics when it would grow past 2 GiB; report that as an error.
	defer func() {
		if r := recover(); r != nil {
			out = nil
			err = fmt.Errorf("encode: %v", r)
		}
	}()
	e := &encoder{b: flatbuffers.NewBuilder(int(est))}
	root := e.graph(g)
	e.b.Finish(root)
	return e.b.FinishedBytes(), nil
}

// estimateSize returns a generous estimate of the encoded size, used to size
// the Builder up front (so big arrays are not copied by repeated growth) and
// to refuse graphs that cannot fit.
func estimateSize(g *rawGraph) int64 {
	var n int64 = 1024 + int64(len(g.TrainingConfig))
	arr := func(a *rawArray) {
		if a != nil {
			n += 128 + 8*int64(len(a.ShapeInfo)) + int64(len(a.Buffer))
		}
	}
	strsz := func(s []string) {
		for _, x := range s {
			n += 8 + int64(len(x))
		}
	}
	for i := range g.Variables {
		v := &g.Variables[i]
		n += 128 + int64(len(v.Name)) + 8*int64(len(v.Shape))
		arr(v.Array)
		strsz(v.ControlDeps)
		strsz(v.ControlDepForOp)
		strsz(v.ControlDepsForVar)
	}
	for i := range g.Nodes {
		nd := &g.Nodes[i]
		n += 256 + int64(len(nd.Name)+len(nd.OpName)+len(nd.ScopeName))
		n += 4*int64(len(nd.Input)+len(nd.Output)+len(nd.Dimensions)) + 16*int64(len(nd.InputPaired))
		n += 8*int64(len(nd.ExtraParams)+len(nd.ExtraInteger)) + int64(len(nd.ExtraBools)+len(nd.OutputTypes)+len(nd.ExtraTypes))
		strsz(nd.OutputNames)
		strsz(nd.ControlDeps)
		strsz(nd.VarControlDeps)
		strsz(nd.ControlDepFor)
		strsz(nd.ExtraStrings)
		arr(nd.Scalar)
		for j := range nd.Properties {
			p := &nd.Properties[j]
			n += 64 + int64(len(p.Name)) + 4*int64(len(p.I)+len(p.Shape)) + 8*int64(len(p.L)+len(p.D)) + int64(len(p.B))
			strsz(p.S)
			for k := range p.A {
				arr(&p.A[k])
			}
		}
	}
	n += 16 * int64(len(g.Outputs))
	strsz(g.Placeholders)
	strsz(g.LossVariables)
	for i := range g.UpdaterState {
		u := &g.UpdaterState[i]
		n += 64 + int64(len(u.ParamName))
		strsz(u.Keys)
		for k := range u.Values {
			arr(&u.Values[k])
		}
	}
	return n
}

type encoder struct {
	b *flatbuffers.Builder
}

// off is a builder offset; 0 means "not written" (a real object never has
// offset 0, since offsets count from the end of the buffer).
type off = flatbuffers.UOffsetT

func (e *encoder) str(s string) off {
	if s == "" {
		return 0
	}
	return e.b.CreateString(s)
}

func (e *encoder) strs(s []string) off {
	if s == nil {
		return 0
	}
	offs := make([]off, len(s))
	for i, x := range s {
		offs[i] = e.b.CreateString(x)
	}
	return e.offsets(offs)
}

func (e *encoder) offsets(offs []off) off {
	e.b.StartVector(4, len(offs), 4)
	for i := len(offs) - 1; i >= 0; i-- {
		e.b.PrependUOffsetT(offs[i])
	}
	return e.b.EndVector(len(offs))
}

func (e *encoder) int64s(s []int64) off {
	if s == nil {
		return 0
	}
	e.b.StartVector(8, len(s), 8)
	for i := len(s) - 1; i >= 0; i-- {
		e.b.PrependInt64(s[i])
	}
	return e.b.EndVector(len(s))
}

func (e *encoder) int32s(s []int32) off {
	if s == nil {
		return 0
	}
	e.b.StartVector(4, len(s), 4)
	for i := len(s) - 1; i >= 0; i-- {
		e.b.PrependInt32(s[i])
	}
	return e.b.EndVector(len(s))
}

func (e *encoder) float64s(s []float64) off {
	if s == nil {
		return 0
	}
	e.b.StartVector(8, len(s), 8)
	for i := len(s) - 1; i >= 0; i-- {
		e.b.PrependFloat64(s[i])
	}
	return e.b.EndVector(len(s))
}

func (e *encoder) bools(s []bool) off {
	if s == nil {
		return 0
	}
	e.b.StartVector(1, len(s), 1)
	for i := len(s) - 1; i >= 0; i-- {
		e.b.PrependBool(s[i])
	}
	return e.b.EndVector(len(s))
}

func (e *encoder) dtypes(s []fb.DType) off {
	if s == nil {
		return 0
	}
	e.b.StartVector(1, len(s), 1)
	for i := len(s) - 1; i >= 0; i-- {
		e.b.PrependInt8(int8(s[i]))
	}
	return e.b.EndVector(len(s))
}

func (e *encoder) intPair(p rawIntPair) off {
	fb.IntPairStart(e.b)
	fb.IntPairAddFirst(e.b, p.First)
	fb.IntPairAddSecond(e.b, p.Second)
	return fb.IntPairEnd(e.b)
}

func (e *encoder) intPairs(s []rawIntPair) off {
	if s == nil {
		return 0
	}
	offs := make([]off, len(s))
	for i, p := range s {
		offs[i] = e.intPair(p)
	}
	return e.offsets(offs)
}

func (e *encoder) array(a *rawArray) off {
	if a == nil {
		return 0
	}
	shape := e.int64s(a.ShapeInfo)
	var buf off
	if a.Buffer != nil {
		// Align the elements (relative to the end of the buffer, which
		// Finish pads to the largest alignment used, so also to its start):
		// a reader that loads the file into aligned memory can then use
		// them in place. Large arrays get the 64 bytes vector kernels like.
		e.b.Prep(arrayAlign(len(a.Buffer)), len(a.Buffer))
		buf = e.b.CreateByteVector(a.Buffer)
	}
	fb.FlatArrayStart(e.b)
	if shape != 0 {
		fb.FlatArrayAddShape(e.b, shape)
	}
	if buf != 0 {
		fb.FlatArrayAddBuffer(e.b, buf)
	}
	fb.FlatArrayAddDtype(e.b, a.DType)
	fb.FlatArrayAddByteOrder(e.b, a.ByteOrder)
	return fb.FlatArrayEnd(e.b)
}

// arrayAlign is the alignment of an array buffer of n bytes in files sdgo
// writes: 8 (any element type) for small arrays, 64 from 256 bytes up.
func arrayAlign(n int) int {
	if n >= 256 {
		return 64
	}
	return 8
}

func (e *encoder) arrays(s []rawArray) off {
	if s == nil {
		return 0
	}
	offs := make([]off, len(s))
	for i := range s {
		offs[i] = e.array(&s[i])
	}
	return e.offsets(offs)
}

func (e *encoder) properties(p *rawProperties) off {
	name := e.str(p.Name)
	i := e.int32s(p.I)
	l := e.int64s(p.L)
	d := e.float64s(p.D)
	a := e.arrays(p.A)
	b := e.bools(p.B)
	s := e.strs(p.S)
	shape := e.int32s(p.Shape)
	fb.FlatPropertiesStart(e.b)
	if name != 0 {
		fb.FlatPropertiesAddName(e.b, name)
	}
	if i != 0 {
		fb.FlatPropertiesAddI(e.b, i)
	}
	if l != 0 {
		fb.FlatPropertiesAddL(e.b, l)
	}
	if d != 0 {
		fb.FlatPropertiesAddD(e.b, d)
	}
	if a != 0 {
		fb.FlatPropertiesAddA(e.b, a)
	}
	if b != 0 {
		fb.FlatPropertiesAddB(e.b, b)
	}
	if s != 0 {
		fb.FlatPropertiesAddS(e.b, s)
	}
	if shape != 0 {
		fb.FlatPropertiesAddShape(e.b, shape)
	}
	return fb.FlatPropertiesEnd(e.b)
}

func (e *encoder) variable(v *rawVariable) off {
	var id off
	if v.ID != nil {
		id = e.intPair(*v.ID)
	}
	name := e.str(v.Name)
	shape := e.int64s(v.Shape)
	arr := e.array(v.Array)
	cd := e.strs(v.ControlDeps)
	cdOp := e.strs(v.ControlDepForOp)
	cdVar := e.strs(v.ControlDepsForVar)
	fb.FlatVariableStart(e.b)
	if id != 0 {
		fb.FlatVariableAddId(e.b, id)
	}
	if name != 0 {
		fb.FlatVariableAddName(e.b, name)
	}
	fb.FlatVariableAddDtype(e.b, v.DType)
	if shape != 0 {
		fb.FlatVariableAddShape(e.b, shape)
	}
	if arr != 0 {
		fb.FlatVariableAddNdarray(e.b, arr)
	}
	fb.FlatVariableAddDevice(e.b, v.Device)
	fb.FlatVariableAddVariabletype(e.b, v.VarType)
	if cd != 0 {
		fb.FlatVariableAddControlDeps(e.b, cd)
	}
	if cdOp != 0 {
		fb.FlatVariableAddControlDepForOp(e.b, cdOp)
	}
	if cdVar != 0 {
		fb.FlatVariableAddControlDepsForVar(e.b, cdVar)
	}
	return fb.FlatVariableEnd(e.b)
}

func (e *encoder) node(n *rawNode) off {
	name := e.str(n.Name)
	var props off
	if n.Properties != nil {
		offs := make([]off, len(n.Properties))
		for i := range n.Properties {
			offs[i] = e.properties(&n.Properties[i])
		}
		props = e.offsets(offs)
	}
	input := e.int32s(n.Input)
	inputPaired := e.intPairs(n.InputPaired)
	output := e.int32s(n.Output)
	extraParams := e.float64s(n.ExtraParams)
	extraInteger := e.int64s(n.ExtraInteger)
	extraBools := e.bools(n.ExtraBools)
	dims := e.int32s(n.Dimensions)
	scopeName := e.str(n.ScopeName)
	outputNames := e.strs(n.OutputNames)
	opName := e.str(n.OpName)
	outputTypes := e.dtypes(n.OutputTypes)
	scalar := e.array(n.Scalar)
	controlDeps := e.strs(n.ControlDeps)
	varControlDeps := e.strs(n.VarControlDeps)
	controlDepFor := e.strs(n.ControlDepFor)
	extraTypes := e.dtypes(n.ExtraTypes)
	extraStrings := e.strs(n.ExtraStrings)

	b := e.b
	fb.FlatNodeStart(b)
	fb.FlatNodeAddId(b, n.ID)
	if name != 0 {
		fb.FlatNodeAddName(b, name)
	}
	fb.FlatNodeAddOpType(b, n.OpType)
	fb.FlatNodeAddOpNum(b, n.OpNum)
	if props != 0 {
		fb.FlatNodeAddProperties(b, props)
	}
	if input != 0 {
		fb.FlatNodeAddInput(b, input)
	}
	if inputPaired != 0 {
		fb.FlatNodeAddInputPaired(b, inputPaired)
	}
	if output != 0 {
		fb.FlatNodeAddOutput(b, output)
	}
	if extraParams != 0 {
		fb.FlatNodeAddExtraParams(b, extraParams)
	}
	if extraInteger != 0 {
		fb.FlatNodeAddExtraInteger(b, extraInteger)
	}
	if extraBools != 0 {
		fb.FlatNodeAddExtraBools(b, extraBools)
	}
	if dims != 0 {
		fb.FlatNodeAddDimensions(b, dims)
	}
	fb.FlatNodeAddDevice(b, n.Device)
	fb.FlatNodeAddScopeId(b, n.ScopeID)
	if scopeName != 0 {
		fb.FlatNodeAddScopeName(b, scopeName)
	}
	if outputNames != 0 {
		fb.FlatNodeAddOutputNames(b, outputNames)
	}
	if opName != 0 {
		fb.FlatNodeAddOpName(b, opName)
	}
	if outputTypes != 0 {
		fb.FlatNodeAddOutputTypes(b, outputTypes)
	}
	if scalar != 0 {
		fb.FlatNodeAddScalar(b, scalar)
	}
	if controlDeps != 0 {
		fb.FlatNodeAddControlDeps(b, controlDeps)
	}
	if varControlDeps != 0 {
		fb.FlatNodeAddVarControlDeps(b, varControlDeps)
	}
	if controlDepFor != 0 {
		fb.FlatNodeAddControlDepFor(b, controlDepFor)
	}
	if extraTypes != 0 {
		fb.FlatNodeAddExtraTypes(b, extraTypes)
	}
	if extraStrings != 0 {
		fb.FlatNodeAddExtraStrings(b, extraStrings)
	}
	return fb.FlatNodeEnd(b)
}

func (e *encoder) config(c *rawConfig) off {
	if c == nil {
		return 0
	}
	b := e.b
	fb.FlatConfigurationStart(b)
	fb.FlatConfigurationAddId(b, c.ID)
	fb.FlatConfigurationAddExecutionMode(b, c.ExecutionMode)
	fb.FlatConfigurationAddProfilingMode(b, c.ProfilingMode)
	fb.FlatConfigurationAddOutputMode(b, c.OutputMode)
	fb.FlatConfigurationAddTimestats(b, c.Timestats)
	fb.FlatConfigurationAddFootprintForward(b, c.FootprintForward)
	fb.FlatConfigurationAddFootprintBackward(b, c.FootprintBackward)
	fb.FlatConfigurationAddDirection(b, c.Direction)
	return fb.FlatConfigurationEnd(b)
}

func (e *encoder) updaterState(u *rawUpdaterState) off {
	name := e.str(u.ParamName)
	keys := e.strs(u.Keys)
	vals := e.arrays(u.Values)
	fb.UpdaterStateStart(e.b)
	if name != 0 {
		fb.UpdaterStateAddParamName(e.b, name)
	}
	if keys != 0 {
		fb.UpdaterStateAddUpdaterStateKeys(e.b, keys)
	}
	if vals != 0 {
		fb.UpdaterStateAddUpdaterStateValues(e.b, vals)
	}
	return fb.UpdaterStateEnd(e.b)
}

func (e *encoder) graph(g *rawGraph) off {
	var vars, nodes, ups off
	if g.Variables != nil {
		offs := make([]off, len(g.Variables))
		for i := range g.Variables {
			offs[i] = e.variable(&g.Variables[i])
		}
		vars = e.offsets(offs)
	}
	if g.Nodes != nil {
		offs := make([]off, len(g.Nodes))
		for i := range g.Nodes {
			offs[i] = e.node(&g.Nodes[i])
		}
		nodes = e.offsets(offs)
	}
	outputs := e.intPairs(g.Outputs)
	cfg := e.config(g.Config)
	phs := e.strs(g.Placeholders)
	loss := e.strs(g.LossVariables)
	tc := e.str(g.TrainingConfig)
	if g.UpdaterState != nil {
		offs := make([]off, len(g.UpdaterState))
		for i := range g.UpdaterState {
			offs[i] = e.updaterState(&g.UpdaterState[i])
		}
		ups = e.offsets(offs)
	}
	b := e.b
	fb.FlatGraphStart(b)
	fb.FlatGraphAddId(b, g.ID)
	if vars != 0 {
		fb.FlatGraphAddVariables(b, vars)
	}
	if nodes != 0 {
		fb.FlatGraphAddNodes(b, nodes)
	}
	if outputs != 0 {
		fb.FlatGraphAddOutputs(b, outputs)
	}
	if cfg != 0 {
		fb.FlatGraphAddConfiguration(b, cfg)
	}
	if phs != 0 {
		fb.FlatGraphAddPlaceholders(b, phs)
	}
	if loss != 0 {
		fb.FlatGraphAddLossVariables(b, loss)
	}
	if tc != 0 {
		fb.FlatGraphAddTrainingConfig(b, tc)
	}
	if ups != 0 {
		fb.FlatGraphAddUpdaterState(b, ups)
	}
	return fb.FlatGraphEnd(b)
}
