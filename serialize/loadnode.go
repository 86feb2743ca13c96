package serialize

import (
	"bytes"
	"context"
	"fmt"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/sdgo/sdgo/serialize/internal/fb"
)

// loadNode is a file's node as loading keeps it: the fields that differ
// from node to node (id, name, inputs, outputs), which indexing reads, and
// the rest, shared by all nodes alike in it (see nodeSharer): a rawNode
// each, mostly empty vectors, took more memory than the file.
type loadNode struct {
	ID          int32
	Name        string
	Input       []int32
	InputPaired []rawIntPair
	Output      []int32
	OutputNames []string
	rest        *rawNode
}

// nodeSharer hands out the nodes kept for FileNodes: a node without the
// fields Save writes afresh (id, name, inputs, outputs, output names), one
// copy for all nodes alike in the rest. Nodes are alike when their
// encodings are: decoding gives back exactly what was encoded, so the
// encoding tells every field apart, nil vectors from empty ones and NaNs by
// their bits.
type nodeSharer struct {
	rests map[string]*rawNode // by encoding
	keyB  *flatbuffers.Builder
}

// keep splits node n into a loadNode.
func (s *nodeSharer) keep(n *rawNode) loadNode {
	return loadNode{ID: n.ID, Name: n.Name, Input: n.Input, InputPaired: n.InputPaired, Output: n.Output,
		OutputNames: n.OutputNames, rest: s.rest(n)}
}

// rest returns node n without its own fields, shared.
func (s *nodeSharer) rest(n *rawNode) *rawNode {
	rest := *n
	rest.ID, rest.Name = 0, ""
	rest.Input, rest.InputPaired, rest.Output, rest.OutputNames = nil, nil, nil, nil
	if arrayBytes(n) > 256 {
		// Encoding it to compare would copy the arrays, and a node that
		// large costs its own size in the file anyway: no sharing.
		r := new(rawNode)
		*r = rest
		return r
	}
	if s.keyB == nil {
		s.keyB = flatbuffers.NewBuilder(512)
		s.rests = map[string]*rawNode{}
	}
	s.keyB.Reset()
	e := encoder{b: s.keyB}
	s.keyB.Finish(e.node(&rest))
	key := s.keyB.FinishedBytes()
	if r, ok := s.rests[string(key)]; ok {
		return r
	}
	r := new(rawNode)
	*r = rest
	s.rests[string(key)] = r
	return r
}

// arrayBytes returns the bytes of node n's arrays (scalar, properties).
func arrayBytes(n *rawNode) int {
	t := 0
	if n.Scalar != nil {
		t += len(n.Scalar.Buffer)
	}
	for i := range n.Properties {
		for j := range n.Properties[i].A {
			t += len(n.Properties[i].A[j].Buffer)
		}
	}
	return t
}

// decodeShared reads a FlatGraph buffer into raw structs, after verifying
// it (see verify.go), so that the generated accessors only ever see
// offsets that are in range; it stops, with an error wrapping the
// context's, once ctx (when not nil) is done. Array buffers in the result
// may alias buf (see detachArrays).
//
// With a sharer, the nodes and variables come back as loadParts (g.Nodes
// and g.Variables nil), each node split and each variable made compact as
// it is decoded, so that they are never all held whole; without one, or
// for a file that the passes over whole nodes and variables
// (foldViewWrites, takeGradMarks) may change, they are decoded whole into
// g (lp nil).
func decodeShared(ctx context.Context, buf []byte, sh *nodeSharer) (g *rawGraph, lp *loadParts, err error) {
	if err := verifyGraph(buf); err != nil {
		return nil, nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			g, lp = nil, nil
			err = &FormatError{Offset: -1, Msg: fmt.Sprintf("internal error: unverified access while decoding: %v", r)}
		}
	}()
	root := fb.GetRootAsFlatGraph(buf, 0)
	if sh != nil && wholeNodes(root) {
		sh = nil
	}
	g, lp, err = decodeGraph(root, &stopCheck{ctx: ctx}, sh)
	if err == nil {
		detachArrays(g, lp, len(buf))
	}
	return g, lp, err
}

// wholeNodes reports whether the file has what foldViewWrites or
// takeGradMarks rewrite: view-write helper nodes, or sdgo's mark of its
// gradients.
func wholeNodes(r *fb.FlatGraph) bool {
	var n fb.FlatNode
	for i := range r.NodesLength() {
		if r.Nodes(&n, i) && bytes.Contains(n.Name(), []byte(viewWriteMark)) {
			return true
		}
	}
	var v fb.FlatVariable
	for i := range r.VariablesLength() {
		if r.Variables(&v, i) && string(v.Name()) == gradMarker {
			return true
		}
	}
	var u fb.UpdaterState
	for i := range r.UpdaterStateLength() {
		if r.UpdaterState(&u, i) && string(u.ParamName()) == gradMarker {
			return true
		}
	}
	return false
}

// loadParts are a file's nodes and variables as loading keeps them.
type loadParts struct {
	nodes []loadNode
	vars  loadVars
}

// nodeList returns the nodes (none for a nil lp).
func (lp *loadParts) nodeList() []loadNode {
	if lp == nil {
		return nil
	}
	return lp.nodes
}

// loadVar is a file's variable as loading keeps it. Most of a file's
// variables are op outputs that carry an id, a name, a dtype and a kind
// and nothing else: a rawVariable each (with its id allocated apart) was
// the largest part of what loading held beside the graph it builds.
type loadVar struct {
	Name    string
	ID      rawIntPair
	hasID   bool
	DType   fb.DType
	VarType fb.VarType
}

// loadVars are the file's variables: each as a loadVar, and, for those
// that carry more (an array, a shape, a device, control dependencies),
// the whole variable too, by index.
type loadVars struct {
	v    []loadVar
	full map[int]*rawVariable
}

// add appends variable v, kept whole only when a loadVar would lose
// some of it.
func (lv *loadVars) add(v *rawVariable) {
	c := loadVar{Name: v.Name, DType: v.DType, VarType: v.VarType}
	if v.ID != nil {
		c.ID, c.hasID = *v.ID, true
	}
	if v.Array != nil || v.Shape != nil || !plainVar(v) {
		if lv.full == nil {
			lv.full = map[int]*rawVariable{}
		}
		w := *v
		lv.full[len(lv.v)] = &w
	}
	lv.v = append(lv.v, c)
}

// raw returns variable i whole: as kept, or rebuilt from its loadVar,
// which then held all of it.
func (lv *loadVars) raw(i int) *rawVariable {
	if v := lv.full[i]; v != nil {
		return v
	}
	c := &lv.v[i]
	v := &rawVariable{Name: c.Name, DType: c.DType, Device: -1, VarType: c.VarType}
	if c.hasID {
		id := c.ID
		v.ID = &id
	}
	return v
}
