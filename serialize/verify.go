package serialize

import (
	"encoding/binary"
	"fmt"
	"strings"
	"unsafe"
)

// The verifier walks a FlatGraph buffer against a description of the schema
// before any generated accessor touches it. The generated Go accessors do no
// bounds checking of their own (a bad offset panics, and 32-bit offset
// arithmetic can wrap), so decode only calls them on a buffer that passed.
//
// Checked, for every object reachable from the root through fields this
// schema knows:
//   - the buffer is at least 8 bytes and below 2 GiB;
//   - a table's start and its 4-byte vtable pointer lie inside the buffer;
//   - the vtable lies inside the buffer, has an even length >= 4, and the
//     table size it declares does not run past the end;
//   - every present field (scalar, offset) lies inside the buffer;
//   - every offset field points inside the buffer; a vector's 4-byte length
//     and all its elements lie inside the buffer (computed in 64 bits, so
//     hostile lengths such as 0x7fffffff cannot wrap);
//   - strings are byte vectors inside the buffer;
//   - every element of a vector of tables or strings is checked the same way.
//
// Work is bounded: each table, vector, string and array buffer visited is
// charged roughly what decoding it will allocate, against a budget that is a
// fixed multiple of the buffer size. A legitimate file costs about as much as
// its own size; a hostile file that points many offsets at the same object
// (so a small buffer would decode into a huge graph) runs out of budget and
// is rejected. The schema has no recursion, so depth is bounded by it.
//
// Fields beyond the ones this schema knows (newer files) are not visited and
// are ignored by decode.

// maxBufferSize is FlatBuffers' limit: offsets are signed 32-bit.
const maxBufferSize = 1<<31 - 1

// budgetFactor and budgetSlack set the work budget: budgetFactor*len(buf) +
// budgetSlack units, a unit being about one byte of decoded memory.
const (
	budgetFactor = 16
	budgetSlack  = 1 << 20
)

// FormatError reports a malformed graph file: what was wrong, at which byte
// offset, and where in the object tree (e.g. "FlatGraph.nodes[3].inputPaired[0]").
type FormatError struct {
	Offset int64  // byte offset in the buffer; -1 if not tied to a position
	Path   string // object path from the root table; may be empty
	Msg    string
}

// Error returns "invalid graph file", then " at byte N" when Offset is 0 or
// more and the object path in parentheses when there is one, then Msg.
func (e *FormatError) Error() string {
	var b strings.Builder
	b.WriteString("invalid graph file")
	if e.Offset >= 0 {
		fmt.Fprintf(&b, " at byte %d", e.Offset)
	}
	if e.Path != "" {
		fmt.Fprintf(&b, " (%s)", e.Path)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

type fieldKind uint8

const (
	kScalar    fieldKind = iota // inline scalar of size bytes
	kString                     // offset to string
	kTable                      // offset to table sub
	kScalarVec                  // offset to vector of size-byte scalars
	kStringVec                  // offset to vector of strings
	kTableVec                   // offset to vector of tables sub
)

type fieldDesc struct {
	name string
	kind fieldKind
	size uint64     // scalar / element size in bytes, for kScalar and kScalarVec
	sub  *tableDesc // for kTable and kTableVec
	// goSize is the decoded size of one element (kScalarVec), charged per element.
	goSize int64
}

type tableDesc struct {
	name   string
	goSize int64 // charged per visit: about the size of the decoded struct
	fields []fieldDesc
}

func scalarF(name string, size uint64) fieldDesc {
	return fieldDesc{name: name, kind: kScalar, size: size}
}
func stringF(name string) fieldDesc { return fieldDesc{name: name, kind: kString} }
func tableF(name string, sub *tableDesc) fieldDesc {
	return fieldDesc{name: name, kind: kTable, sub: sub}
}
func vecF(name string, size uint64, goSize int64) fieldDesc {
	return fieldDesc{name: name, kind: kScalarVec, size: size, goSize: goSize}
}
func stringsF(name string) fieldDesc { return fieldDesc{name: name, kind: kStringVec} }
func tablesF(name string, sub *tableDesc) fieldDesc {
	return fieldDesc{name: name, kind: kTableVec, sub: sub}
}

// The schema as the verifier sees it. Field order = slot order and must
// match schema/graph.fbs (TestVerifierDescMatchesGenerated checks it against
// a buffer with every field set).
var (
	descIntPair = &tableDesc{name: "IntPair", goSize: int64(unsafe.Sizeof(rawIntPair{})) + 8, fields: []fieldDesc{
		scalarF("first", 4), scalarF("second", 4),
	}}
	descArray = &tableDesc{name: "FlatArray", goSize: int64(unsafe.Sizeof(rawArray{})) + 8, fields: []fieldDesc{
		vecF("shape", 8, 8), vecF("buffer", 1, 1), scalarF("dtype", 1), scalarF("byteOrder", 1),
	}}
	descProperties = &tableDesc{name: "FlatProperties", goSize: int64(unsafe.Sizeof(rawProperties{})), fields: []fieldDesc{
		stringF("name"), vecF("i", 4, 4), vecF("l", 8, 8), vecF("d", 8, 8), tablesF("a", descArray),
		vecF("b", 1, 1), stringsF("s"), vecF("shape", 4, 4),
	}}
	descVariable = &tableDesc{name: "FlatVariable", goSize: int64(unsafe.Sizeof(rawVariable{})), fields: []fieldDesc{
		tableF("id", descIntPair), stringF("name"), scalarF("dtype", 1), vecF("shape", 8, 8),
		tableF("ndarray", descArray), scalarF("device", 4), scalarF("variabletype", 1),
		stringsF("controlDeps"), stringsF("controlDepForOp"), stringsF("controlDepsForVar"),
	}}
	descNode = &tableDesc{name: "FlatNode", goSize: int64(unsafe.Sizeof(rawNode{})), fields: []fieldDesc{
		scalarF("id", 4), stringF("name"), scalarF("opType", 1), scalarF("opNum", 8),
		tablesF("properties", descProperties), vecF("input", 4, 4), tablesF("inputPaired", descIntPair),
		vecF("output", 4, 4), vecF("extraParams", 8, 8), vecF("extraInteger", 8, 8), vecF("extraBools", 1, 1),
		vecF("dimensions", 4, 4), scalarF("device", 4), scalarF("scope_id", 4), stringF("scope_name"),
		stringsF("outputNames"), stringF("opName"), vecF("outputTypes", 1, 1), tableF("scalar", descArray),
		stringsF("controlDeps"), stringsF("varControlDeps"), stringsF("controlDepFor"),
		vecF("extraTypes", 1, 1), stringsF("extraStrings"),
	}}
	descConfig = &tableDesc{name: "FlatConfiguration", goSize: int64(unsafe.Sizeof(rawConfig{})) + 8, fields: []fieldDesc{
		scalarF("id", 8), scalarF("executionMode", 1), scalarF("profilingMode", 1), scalarF("outputMode", 1),
		scalarF("timestats", 1), scalarF("footprintForward", 8), scalarF("footprintBackward", 8),
		scalarF("direction", 1),
	}}
	descUpdaterState = &tableDesc{name: "UpdaterState", goSize: int64(unsafe.Sizeof(rawUpdaterState{})), fields: []fieldDesc{
		stringF("paramName"), stringsF("updaterStateKeys"), tablesF("updaterStateValues", descArray),
	}}
	descGraph = &tableDesc{name: "FlatGraph", goSize: int64(unsafe.Sizeof(rawGraph{})), fields: []fieldDesc{
		scalarF("id", 8), tablesF("variables", descVariable), tablesF("nodes", descNode),
		tablesF("outputs", descIntPair), tableF("configuration", descConfig), stringsF("placeholders"),
		stringsF("lossVariables"), stringF("trainingConfig"), tablesF("updaterState", descUpdaterState),
	}}
)

// pathElem is one step of the object path, kept as a linked list on the
// stack and only formatted when an error is reported.
type pathElem struct {
	parent *pathElem
	field  string
	index  int // -1: not a vector element
}

func (p *pathElem) String() string {
	var parts []*pathElem
	for q := p; q != nil; q = q.parent {
		parts = append(parts, q)
	}
	var b strings.Builder
	for i := len(parts) - 1; i >= 0; i-- {
		q := parts[i]
		if q.field != "" {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(q.field)
		}
		if q.index >= 0 {
			fmt.Fprintf(&b, "[%d]", q.index)
		}
	}
	return b.String()
}

type verifier struct {
	buf    []byte
	n      uint64 // len(buf)
	budget int64
}

func (v *verifier) errorf(off uint64, p *pathElem, format string, args ...any) error {
	e := &FormatError{Offset: int64(off), Msg: fmt.Sprintf(format, args...)}
	if p != nil {
		e.Path = p.String()
	}
	return e
}

func (v *verifier) u16(off uint64) uint64 { return uint64(binary.LittleEndian.Uint16(v.buf[off:])) }
func (v *verifier) u32(off uint64) uint64 { return uint64(binary.LittleEndian.Uint32(v.buf[off:])) }

func (v *verifier) charge(units int64, off uint64, p *pathElem) error {
	v.budget -= units
	if v.budget < 0 {
		return v.errorf(off, p, "file too complex: decoding it would need far more memory than its size "+
			"(objects shared many times over, or corrupt offsets)")
	}
	return nil
}

// verifyGraph checks a whole FlatGraph buffer.
func verifyGraph(buf []byte) error {
	if len(buf) > maxBufferSize {
		return &FormatError{Offset: -1, Msg: fmt.Sprintf("buffer of %d bytes exceeds the FlatBuffers limit of 2 GiB", len(buf))}
	}
	if len(buf) < 8 {
		return &FormatError{Offset: 0, Msg: fmt.Sprintf("buffer of %d bytes is too short for a FlatGraph", len(buf))}
	}
	v := &verifier{buf: buf, n: uint64(len(buf)), budget: int64(len(buf))*budgetFactor + budgetSlack}
	root := v.u32(0)
	p := &pathElem{field: "FlatGraph", index: -1}
	if root < 4 || root >= v.n {
		return v.errorf(0, p, "root offset %d outside the buffer (%d bytes)", root, v.n)
	}
	return v.table(root, descGraph, p)
}

// table checks the table at pos against d, then its fields.
func (v *verifier) table(pos uint64, d *tableDesc, p *pathElem) error {
	if err := v.charge(d.goSize, pos, p); err != nil {
		return err
	}
	if pos+4 > v.n {
		return v.errorf(pos, p, "%s table starts past the end of the buffer (%d bytes)", d.name, v.n)
	}
	soff := int64(int32(v.u32(pos)))
	vt := int64(pos) - soff
	if vt < 0 || uint64(vt)+4 > v.n {
		return v.errorf(pos, p, "%s vtable at %d lies outside the buffer (%d bytes)", d.name, vt, v.n)
	}
	vtab := uint64(vt)
	vtLen := v.u16(vtab)
	objLen := v.u16(vtab + 2)
	if vtLen < 4 || vtLen&1 != 0 {
		return v.errorf(vtab, p, "%s vtable has invalid length %d", d.name, vtLen)
	}
	if vtab+vtLen > v.n {
		return v.errorf(vtab, p, "%s vtable of %d bytes runs past the end of the buffer (%d bytes)", d.name, vtLen, v.n)
	}
	if pos+objLen > v.n {
		return v.errorf(pos, p, "%s table of %d bytes runs past the end of the buffer (%d bytes)", d.name, objLen, v.n)
	}
	for i := range d.fields {
		slot := 4 + 2*uint64(i)
		if slot+2 > vtLen {
			break // older writer: remaining fields absent
		}
		fo := v.u16(vtab + slot)
		if fo == 0 {
			continue
		}
		f := &d.fields[i]
		fp := &pathElem{parent: p, field: f.name, index: -1}
		at := pos + fo
		if f.kind == kScalar {
			if at+f.size > v.n {
				return v.errorf(vtab+slot, fp, "vtable entry puts the field at %d, past the end of the buffer (%d bytes)", at, v.n)
			}
			continue
		}
		if at+4 > v.n {
			return v.errorf(vtab+slot, fp, "vtable entry puts the offset field at %d, past the end of the buffer (%d bytes)", at, v.n)
		}
		target := at + v.u32(at)
		if err := v.object(target, at, f, fp); err != nil {
			return err
		}
	}
	return nil
}

// object checks what an offset field (stored at from) points to.
func (v *verifier) object(target, from uint64, f *fieldDesc, p *pathElem) error {
	if target >= v.n {
		return v.errorf(from, p, "offset points to %d, outside the buffer (%d bytes)", target, v.n)
	}
	switch f.kind {
	case kString:
		_, cnt, err := v.vector(target, 1, p)
		if err != nil {
			return err
		}
		return v.charge(16+int64(cnt), target, p)
	case kTable:
		return v.table(target, f.sub, p)
	case kScalarVec:
		_, cnt, err := v.vector(target, f.size, p)
		if err != nil {
			return err
		}
		return v.charge(24+int64(cnt)*f.goSize, target, p)
	case kStringVec:
		start, cnt, err := v.vector(target, 4, p)
		if err != nil {
			return err
		}
		if err := v.charge(24+16*int64(cnt), target, p); err != nil {
			return err
		}
		for j := uint64(0); j < cnt; j++ {
			e := start + 4*j
			s := e + v.u32(e)
			ep := &pathElem{parent: p, index: int(j)}
			if s >= v.n {
				return v.errorf(e, ep, "string offset points to %d, outside the buffer (%d bytes)", s, v.n)
			}
			_, sl, err := v.vector(s, 1, ep)
			if err != nil {
				return err
			}
			if err := v.charge(int64(sl), s, ep); err != nil {
				return err
			}
		}
		return nil
	case kTableVec:
		start, cnt, err := v.vector(target, 4, p)
		if err != nil {
			return err
		}
		if err := v.charge(24, target, p); err != nil {
			return err
		}
		for j := uint64(0); j < cnt; j++ {
			e := start + 4*j
			t := e + v.u32(e)
			ep := &pathElem{parent: p, index: int(j)}
			if t >= v.n {
				return v.errorf(e, ep, "table offset points to %d, outside the buffer (%d bytes)", t, v.n)
			}
			if err := v.table(t, f.sub, ep); err != nil {
				return err
			}
		}
		return nil
	}
	return v.errorf(target, p, "internal error: unknown field kind %d", f.kind)
}

// vector checks a vector's length word at pos and that count*elem bytes
// follow inside the buffer. It returns the start of the elements and the count.
func (v *verifier) vector(pos, elem uint64, p *pathElem) (start, count uint64, err error) {
	if pos+4 > v.n {
		return 0, 0, v.errorf(pos, p, "vector length runs past the end of the buffer (%d bytes)", v.n)
	}
	count = v.u32(pos)
	start = pos + 4
	if end := start + count*elem; end > v.n {
		return 0, 0, v.errorf(pos, p, "vector of %d elements of %d bytes runs past the end of the buffer (%d bytes)",
			count, elem, v.n)
	}
	return start, count, nil
}
