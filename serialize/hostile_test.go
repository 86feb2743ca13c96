package serialize

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/sdgo/sdgo/serialize/internal/fb"
)

// asm assembles a buffer by hand, little-endian, for hostile test cases.
type asm []byte

func (a asm) u16(at int, v uint16) asm { binary.LittleEndian.PutUint16(a[at:], v); return a }
func (a asm) u32(at int, v uint32) asm { binary.LittleEndian.PutUint32(a[at:], v); return a }

// baseGraph is a minimal, valid FlatGraph: root table at 12 with a vtable at
// 4 declaring one present field, slot 1 (variables), stored at 16, pointing
// to a vector at 20 with one element: a FlatVariable table at 28 whose
// vtable (at 32... inline) has no fields.
//
//	0  u32 root = 12
//	4  vtable: len 8, objlen 8, slot0 = 0, slot1 = 4
//	12 soffset = 8            (vtable at 12-8 = 4)
//	16 u32 -> 20              (variables vector)
//	20 u32 count = 1
//	24 u32 -> 36              (element 0: table at 24+12 = 36)
//	28 vtable: len 4, objlen 4
//	32 pad
//	36 soffset = 8            (vtable at 36-8 = 28)
func baseGraph() asm {
	a := make(asm, 40)
	a.u32(0, 12)
	a.u16(4, 8).u16(6, 8).u16(8, 0).u16(10, 4)
	a.u32(12, 8)
	a.u32(16, 4)
	a.u32(20, 1)
	a.u32(24, 12)
	a.u16(28, 4).u16(30, 4)
	a.u32(36, 8)
	return a
}

func TestBaseGraphIsValid(t *testing.T) {
	g, err := decode(baseGraph())
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Variables) != 1 || g.Variables[0].Name != "" {
		t.Fatalf("%+v", g)
	}
}

func expectFormatError(t *testing.T, buf []byte, want string) {
	t.Helper()
	g, err := decode(buf)
	if err == nil {
		t.Fatalf("decoded hostile buffer: %+v", g)
	}
	var fe *FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("error %T %v is not a *FormatError", err, err)
	}
	if fe.Offset < -1 || (fe.Offset >= int64(len(buf)) && fe.Offset != 0) {
		t.Errorf("error offset %d outside the buffer: %v", fe.Offset, err)
	}
	if !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not mention %q", err, want)
	}
}

func TestHostileBuffers(t *testing.T) {
	cases := []struct {
		name string
		buf  []byte
		want string
	}{
		{"empty", nil, "too short"},
		{"short", []byte{1, 2, 3}, "too short"},
		{"root offset past end", baseGraph().u32(0, 1000), "root offset 1000"},
		{"root offset huge", baseGraph().u32(0, 0xffffffff), "root offset"},
		{"root offset zero", baseGraph().u32(0, 0), "root offset 0"},
		{"root table at last byte", baseGraph().u32(0, 38), "past the end"},
		{"vtable before start", baseGraph().u32(12, 100), "vtable at -88"},
		{"vtable after end", baseGraph().u32(12, 0xfffffc00), "vtable at 1036"},
		{"vtable odd length", baseGraph().u16(4, 7), "invalid length 7"},
		{"vtable too short", baseGraph().u16(4, 2), "invalid length 2"},
		{"vtable runs past end", baseGraph().u16(4, 0xfffe), "runs past the end"},
		{"table size past end", baseGraph().u16(6, 0xffff), "table of 65535 bytes"},
		{"field past end", baseGraph().u16(10, 0xfff0), "past the end"},
		{"offset field past end", baseGraph().u32(16, 1000), "outside the buffer"},
		{"offset field wraps 32 bits", baseGraph().u32(16, 0xfffffff0), "outside the buffer"},
		{"vector length 0x7fffffff", baseGraph().u32(20, 0x7fffffff), "2147483647 elements"},
		{"vector length 0xffffffff", baseGraph().u32(20, 0xffffffff), "4294967295 elements"},
		{"vector element outside", baseGraph().u32(24, 1000), "outside the buffer"},
		{"vector element wraps", baseGraph().u32(24, 0xffffffe0), "outside the buffer"},
		{"nested vtable outside", baseGraph().u32(36, 0x80000000), "FlatGraph.variables[0]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { expectFormatError(t, c.buf, c.want) })
	}
}

// TestHostileStrings: strings and string vectors with bad lengths/offsets.
func TestHostileStrings(t *testing.T) {
	b := flatbuffers.NewBuilder(0)
	s := b.CreateString("abc")
	b.StartVector(4, 1, 4)
	b.PrependUOffsetT(s)
	phs := b.EndVector(1)
	name := b.CreateString("graph")
	fb.FlatGraphStart(b)
	fb.FlatGraphAddPlaceholders(b, phs)
	fb.FlatGraphAddTrainingConfig(b, name)
	b.Finish(fb.FlatGraphEnd(b))
	good := append([]byte{}, b.FinishedBytes()...)
	if _, err := decode(good); err != nil {
		t.Fatal(err)
	}
	// Find the string "abc" and its length word; make the length huge.
	i := strings.Index(string(good), "abc")
	bad := append([]byte{}, good...)
	binary.LittleEndian.PutUint32(bad[i-4:], 0x7fffffff)
	expectFormatError(t, bad, "placeholders[0]")
	i = strings.Index(string(good), "graph")
	bad = append([]byte{}, good...)
	binary.LittleEndian.PutUint32(bad[i-4:], 1<<20)
	expectFormatError(t, bad, "trainingConfig")
}

// TestAmplification: a small buffer whose vector points thousands of times at
// one large table would decode into a huge graph; the work budget refuses it.
func TestAmplification(t *testing.T) {
	b := flatbuffers.NewBuilder(0)
	const shapeLen, copies = 8192, 20000
	b.StartVector(8, shapeLen, 8)
	for i := 0; i < shapeLen; i++ {
		b.PrependInt64(int64(i))
	}
	shape := b.EndVector(shapeLen)
	fb.FlatVariableStart(b)
	fb.FlatVariableAddShape(b, shape)
	v := fb.FlatVariableEnd(b)
	b.StartVector(4, copies, 4)
	for i := 0; i < copies; i++ {
		b.PrependUOffsetT(v)
	}
	vars := b.EndVector(copies)
	fb.FlatGraphStart(b)
	fb.FlatGraphAddVariables(b, vars)
	b.Finish(fb.FlatGraphEnd(b))
	buf := b.FinishedBytes()
	// ~145 KB of buffer would decode to 20000 * 64 KB = 1.3 GB.
	expectFormatError(t, buf, "too complex")

	// The same table referenced a few times is fine.
	b = flatbuffers.NewBuilder(0)
	fb.FlatVariableStart(b)
	fb.FlatVariableAddDevice(b, -1)
	v = fb.FlatVariableEnd(b)
	b.StartVector(4, 3, 4)
	for i := 0; i < 3; i++ {
		b.PrependUOffsetT(v)
	}
	vars = b.EndVector(3)
	fb.FlatGraphStart(b)
	fb.FlatGraphAddVariables(b, vars)
	b.Finish(fb.FlatGraphEnd(b))
	g, err := decode(b.FinishedBytes())
	if err != nil || len(g.Variables) != 3 || g.Variables[2].Device != -1 {
		t.Fatalf("%v %+v", err, g)
	}
}

// TestNewerSchema: fields a newer SameDiff appends (a FlatGraph field after
// updaterState, extra FlatVariable/FlatNode/FlatArray slots) and enum values
// this schema lacks (VarType SEQUENCE, an unknown DType) do not break decode.
func TestNewerSchema(t *testing.T) {
	g, err := decode(newerSchemaBuffer())
	if err != nil {
		t.Fatal(err)
	}
	vv := g.Variables[0]
	if vv.Name != "seq" || vv.VarType != fb.VarTypeSEQUENCE || vv.DType != 60 || vv.Array == nil {
		t.Fatalf("variable %+v", vv)
	}
	if s, err := checkArray(vv.Array); err != nil || len(s.Shape) != 0 {
		t.Fatalf("array: %v %+v", err, s)
	}
	if nn := g.Nodes[0]; nn.OpName != "future_op" || nn.OpType != 99 {
		t.Fatalf("node %+v", nn)
	}
	// Known fields survive a round trip; unknown ones are dropped.
	out, err := encode(g)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := decode(out); err != nil {
		t.Fatal(err)
	}
}

// newerSchemaBuffer builds a file as a newer SameDiff might write it: a
// FlatGraph field after updaterState (a vector of unknown tables) and one
// more, extra FlatVariable/FlatNode/FlatArray slots, a SEQUENCE variable of
// an unknown dtype, a node of an unknown op type.
func newerSchemaBuffer() []byte {
	b := flatbuffers.NewBuilder(0)
	// An unknown nested table for the new FlatGraph slot 9.
	sub := b.CreateString("nested graph")
	b.StartObject(2)
	b.PrependUOffsetTSlot(0, sub, 0)
	b.PrependInt64Slot(1, 42, 0)
	nested := b.EndObject()
	b.StartVector(4, 1, 4)
	b.PrependUOffsetT(nested)
	nestedVec := b.EndVector(1)

	shape := b.CreateString("unused")
	b.StartVector(8, 4, 8)
	b.PrependInt64(99)
	b.PrependInt64(1)
	b.PrependInt64(arrayFloat)
	b.PrependInt64(0)
	si := b.EndVector(4)
	buf := b.CreateByteVector([]byte{0, 0, 0x80, 0x3f})
	b.StartObject(6) // FlatArray + 2 unknown slots
	b.PrependUOffsetTSlot(0, si, 0)
	b.PrependUOffsetTSlot(1, buf, 0)
	b.PrependInt8Slot(2, int8(fb.DTypeFLOAT), 0)
	b.PrependInt8Slot(3, int8(fb.ByteOrderLE), 0)
	b.PrependUOffsetTSlot(5, shape, 0)
	arr := b.EndObject()

	name := b.CreateString("seq")
	b.StartObject(13) // FlatVariable has 10 slots; 3 more from the future
	b.PrependUOffsetTSlot(1, name, 0)
	b.PrependInt8Slot(2, 60, 0) // a DType value this schema does not list
	b.PrependUOffsetTSlot(4, arr, 0)
	b.PrependInt8Slot(6, int8(fb.VarTypeSEQUENCE), 0)
	b.PrependInt64Slot(12, 7, 0)
	v := b.EndObject()
	b.StartVector(4, 1, 4)
	b.PrependUOffsetT(v)
	vars := b.EndVector(1)

	opName := b.CreateString("future_op")
	b.StartObject(30) // FlatNode has 24 slots
	b.PrependInt32Slot(0, 1, 0)
	b.PrependUOffsetTSlot(16, opName, 0)
	b.PrependInt8Slot(2, 99, 0) // unknown OpType
	b.PrependFloat64Slot(29, 1.5, 0)
	n := b.EndObject()
	b.StartVector(4, 1, 4)
	b.PrependUOffsetT(n)
	nodes := b.EndVector(1)

	b.StartObject(11)
	b.PrependUOffsetTSlot(1, vars, 0)
	b.PrependUOffsetTSlot(2, nodes, 0)
	b.PrependUOffsetTSlot(9, nestedVec, 0)
	b.PrependInt32Slot(10, 12345, 0)
	b.Finish(b.EndObject())
	return b.FinishedBytes()
}

// TestTruncatedAndCorruptFixtures: prefixes of every fixture, and
// single-byte corruptions of them, give an error or a graph that round-trips,
// never a panic, both at the raw level (decode/encode) and at the graph level
// (Read/Encode/Decode). See sweepPlan for how much is swept.
func TestTruncatedAndCorruptFixtures(t *testing.T) {
	long := os.Getenv("SDGO_LONG_TESTS") != ""
	for _, f := range fixtureFiles(t) {
		buf, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		plan := sweepPlan(name, len(buf), long)
		for _, n := range plan.prefixes {
			if _, err := decode(buf[:n]); err == nil && n < 8 {
				t.Fatalf("%s: %d-byte prefix decoded", name, n)
			}
			if n%(16*plan.graphEvery) == 0 {
				checkReadProperty(t, buf[:n]) // truncations mostly stop in the verifier: sample
			}
		}
		c := make([]byte, len(buf))
		for k, pos := range plan.positions {
			for _, x := range plan.masks {
				copy(c, buf)
				c[pos] ^= x
				checkDecodeProperty(t, c, k%plan.dumpEvery == 0)
				if k%plan.graphEvery == 0 {
					checkReadProperty(t, c)
				}
			}
		}
	}
}

// sweep says which prefixes and byte positions of a fixture the corruption
// test tries, with which XOR masks, and how often it also runs the
// graph-level property.
type sweep struct {
	prefixes, positions []int
	masks               []byte
	graphEvery          int // run the graph-level property on every graphEvery-th position
	dumpEvery           int // list the decoded graph with dumpGraph on every dumpEvery-th
}

// sweepPlan: the two smallest fixtures get every prefix and every byte with
// three masks; the others every prefix and every 7th byte with one mask
// (every byte and three masks with SDGO_LONG_TESTS=1). The graph-level
// property runs on every third corruption (every one for the small
// fixtures). Under the race detector, which makes each check several times
// slower, the larger fixtures are sampled instead: every prefix up to 64
// bytes and about 150 more, and about 150 positions spread over the file (a
// deterministic stride, so the same bytes are tried on every run); the small
// fixtures run the graph-level property on every third corruption; and the
// decoded graph is listed (dumpGraph) for every fourth.
func sweepPlan(name string, size int, long bool) sweep {
	small := name == "pad_1D.fb" || name == "identity_n_2.fb"
	s := sweep{masks: []byte{0xff}, graphEvery: 3, dumpEvery: 1}
	pstep, step := 1, 7
	switch {
	case long:
		step, s.masks, s.graphEvery = 1, []byte{0xff, 0x80, 0x01}, 1
	case small:
		step, s.masks, s.graphEvery = 1, []byte{0xff, 0x80, 0x01}, 1
		if raceEnabled {
			s.graphEvery, s.dumpEvery = 3, 4
		}
	case raceEnabled:
		pstep, step, s.graphEvery, s.dumpEvery = max(1, size/150), max(1, size/150), 2, 4
	}
	for n := 0; n < size; n++ {
		if n < 64 || n%pstep == 0 {
			s.prefixes = append(s.prefixes, n)
		}
	}
	for i := 0; i < size; i += step {
		s.positions = append(s.positions, i)
	}
	return s
}
