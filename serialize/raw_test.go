package serialize

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/sdgo/sdgo/ops"
	"github.com/sdgo/sdgo/serialize/internal/fb"
)

func readFixture(tb testing.TB, name string) []byte {
	tb.Helper()
	buf, err := os.ReadFile(filepath.Join(fixtureDir, name))
	if err != nil {
		tb.Fatal(err)
	}
	return buf
}

// TestDecodeFixtures decodes every real SameDiff file and checks that the
// contents make sense: names, op names, inputs that name known variables,
// valid big-endian arrays.
func TestDecodeFixtures(t *testing.T) {
	for _, f := range fixtureFiles(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			buf, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			g, err := decode(buf)
			if err != nil {
				t.Fatal(err)
			}
			if len(g.Variables) == 0 || len(g.Nodes) == 0 {
				t.Fatalf("%d variables, %d nodes", len(g.Variables), len(g.Nodes))
			}
			ids := map[rawIntPair]string{}
			for i := range g.Variables {
				v := &g.Variables[i]
				if v.Name == "" || v.ID == nil {
					t.Errorf("variable %d: name %q id %v", i, v.Name, v.ID)
					continue
				}
				ids[*v.ID] = v.Name
				if v.VarType > fb.VarTypePLACEHOLDER {
					t.Errorf("variable %q: type %v", v.Name, v.VarType)
				}
				if v.VarType == fb.VarTypeARRAY && v.Array != nil {
					t.Errorf("variable %q: ARRAY variable with stored array", v.Name)
				}
				if v.VarType == fb.VarTypeCONSTANT && v.Array == nil {
					t.Errorf("constant %q without array", v.Name)
				}
				if v.Array != nil {
					if v.Array.ByteOrder != fb.ByteOrderBE {
						t.Errorf("variable %q: byte order %v, fixtures are BE", v.Name, v.Array.ByteOrder)
					}
					if _, err := checkArray(v.Array); err != nil {
						t.Errorf("variable %q: %v", v.Name, err)
					}
				}
			}
			for i := range g.Nodes {
				n := &g.Nodes[i]
				if n.OpName == "" || n.Name == "" {
					t.Errorf("node %d: name %q opName %q", n.ID, n.Name, n.OpName)
				}
				for _, in := range n.InputPaired {
					if _, ok := ids[in]; !ok {
						t.Errorf("node %q: input %v names no variable", n.Name, in)
					}
				}
				if n.OpType == fb.OpTypeCUSTOM {
					// the registry's number: the hash of the op's name, or
					// of the libnd4j op it runs as (create_list, ...)
					d, ok := ops.Lookup(n.OpName)
					if !ok || d.Num != n.OpNum {
						t.Errorf("node %q: opNum %d, not the number of op %q", n.Name, n.OpNum, n.OpName)
					}
				}
				for j := range n.OutputNames {
					found := false
					for k := range g.Variables {
						if g.Variables[k].Name == n.OutputNames[j] {
							found = true
						}
					}
					if !found {
						t.Errorf("node %q: output %q is not a variable", n.Name, n.OutputNames[j])
					}
				}
			}
		})
	}
}

func f32BE(b []byte) []float32 {
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.BigEndian.Uint32(b[4*i:]))
	}
	return out
}

// TestFixtureValues spot-checks values against what testdata/samediff/README.md and the
// files' producers say.
func TestFixtureValues(t *testing.T) {
	g, err := decode(readFixture(t, "identity_n_2.fb"))
	if err != nil {
		t.Fatal(err)
	}
	var in0 *rawVariable
	for i := range g.Variables {
		if g.Variables[i].Name == "in_0" {
			in0 = &g.Variables[i]
		}
	}
	if in0 == nil || in0.Array == nil {
		t.Fatal("in_0 missing")
	}
	s, err := checkArray(in0.Array)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s.Shape, []int64{2, 3}) || s.Order != 'c' || in0.Array.DType != fb.DTypeFLOAT {
		t.Fatalf("in_0: %+v dtype %v", s, in0.Array.DType)
	}
	want := []float32{0.77878559, 0.80119777, 0.72437465, 0.23089433, 0.72714126, 0.18039072}
	got := f32BE(in0.Array.Buffer)
	for i := range want {
		if math.Abs(float64(got[i]-want[i])) > 1e-6 {
			t.Fatalf("in_0 = %v, want %v", got, want)
		}
	}
	n := g.Nodes[0]
	if n.OpName != "identity_n" || n.OpType != fb.OpTypeCUSTOM || len(n.InputPaired) != 2 ||
		!reflect.DeepEqual(n.OutputNames, []string{"IdentityN", "IdentityN:1"}) {
		t.Fatalf("node: %+v", n)
	}

	g, err = decode(readFixture(t, "simplewhile_1.fb"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g.Placeholders, []string{"input_0", "input_1"}) {
		t.Errorf("placeholders %q", g.Placeholders)
	}
	for _, v := range g.Variables {
		if v.VarType == fb.VarTypePLACEHOLDER && v.DType != fb.DTypeFLOAT {
			t.Errorf("placeholder %q dtype %v", v.Name, v.DType)
		}
	}
}

// TestRoundTripFixtures: decode(encode(decode(f))) equals decode(f), and
// encoding is deterministic.
func TestRoundTripFixtures(t *testing.T) {
	for _, f := range fixtureFiles(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			buf, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			g1, err := decode(buf)
			if err != nil {
				t.Fatal(err)
			}
			b1, err := encode(g1)
			if err != nil {
				t.Fatal(err)
			}
			g2, err := decode(b1)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(g1, g2) {
				t.Fatalf("round trip differs:\nbefore %+v\nafter  %+v", g1, g2)
			}
			b2, err := encode(g2)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b1, b2) {
				t.Fatal("encoding is not deterministic")
			}
		})
	}
}

// fullGraph sets every field of every table to a non-default value, so a
// round trip checks that encode, verify and decode agree on every slot.
func fullGraph() *rawGraph {
	arr := func(k byte) rawArray {
		return rawArray{ShapeInfo: []int64{1, 2, 1, arrayFloat, 1, 99}, Buffer: []byte{k, 2, 3, 4, 5, 6, 7, 8},
			DType: fb.DTypeFLOAT, ByteOrder: fb.ByteOrderLE}
	}
	a1, a2 := arr(1), arr(2)
	props := []rawProperties{{Name: "p", I: []int32{1, -2}, L: []int64{3}, D: []float64{0.5}, A: []rawArray{arr(3)},
		B: []bool{true, false}, S: []string{"s1", ""}, Shape: []int32{2, 2}}, {Name: "empty"}}
	return &rawGraph{
		ID: 77,
		Variables: []rawVariable{{
			ID: &rawIntPair{4, 1}, Name: "v", DType: fb.DTypeDOUBLE, Shape: []int64{-1, 3}, Array: &a1,
			Device: -1, VarType: fb.VarTypeSEQUENCE, ControlDeps: []string{"a"}, ControlDepForOp: []string{"b", "c"},
			ControlDepsForVar: []string{},
		}, {Name: "bare"}},
		Nodes: []rawNode{{
			ID: 9, Name: "n", OpType: fb.OpTypeCUSTOM, OpNum: -5176033361941572836, Properties: props,
			Input: []int32{}, InputPaired: []rawIntPair{{1, 0}, {2, 3}}, Output: []int32{5}, ExtraParams: []float64{1.5, -2},
			ExtraInteger: []int64{1 << 40}, ExtraBools: []bool{true}, Dimensions: []int32{0, 1}, Device: 2, ScopeID: 3,
			ScopeName: "scope", OutputNames: []string{"n", "n:1"}, OpName: "add", OutputTypes: []fb.DType{fb.DTypeFLOAT},
			Scalar: &a2, ControlDeps: []string{"x"}, VarControlDeps: []string{"y"}, ControlDepFor: []string{"z"},
			ExtraTypes: []fb.DType{fb.DTypeINT64, 99}, ExtraStrings: []string{"str"},
		}, {}},
		Outputs: []rawIntPair{{1, 2}},
		Config: &rawConfig{ID: 5, ExecutionMode: fb.ExecutionModeAUTO, ProfilingMode: fb.ProfilingModeANY_PANIC,
			OutputMode: fb.OutputModeOPTIMIZED, Timestats: true, FootprintForward: 10, FootprintBackward: 20,
			Direction: fb.DirectionBACKWARD_ONLY},
		Placeholders:   []string{"ph"},
		LossVariables:  []string{"loss"},
		TrainingConfig: `{"updater":"adam"}`,
		UpdaterState:   []rawUpdaterState{{ParamName: "w", Keys: []string{"M", "V"}, Values: []rawArray{arr(4), arr(5)}}, {}},
	}
}

func TestRoundTripAllFields(t *testing.T) {
	g := fullGraph()
	b, err := encode(g)
	if err != nil {
		t.Fatal(err)
	}
	g2, err := decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, g2) {
		t.Fatalf("round trip differs:\nwant %+v\ngot  %+v", g, g2)
	}
	// The generated accessors read the same values (independent of decode).
	root := fb.GetRootAsFlatGraph(b, 0)
	var n fb.FlatNode
	root.Nodes(&n, 0)
	if string(n.OpName()) != "add" || n.ExtraTypes(1) != 99 || n.ScopeId() != 3 || string(n.ExtraStrings(0)) != "str" {
		t.Fatal("generated accessors disagree")
	}
	if c := root.Configuration(nil); c.Direction() != fb.DirectionBACKWARD_ONLY || c.FootprintBackward() != 20 {
		t.Fatal("configuration disagrees")
	}
}

// TestEmptyGraph: a graph with nothing in it encodes and decodes.
func TestEmptyGraph(t *testing.T) {
	b, err := encode(&rawGraph{})
	if err != nil {
		t.Fatal(err)
	}
	g, err := decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, &rawGraph{}) {
		t.Fatalf("%+v", g)
	}
	if _, err := encode(nil); err == nil {
		t.Fatal("encode(nil) succeeded")
	}
}

// TestEncodeTooLarge: a graph beyond 2 GiB is refused with an error.
func TestEncodeTooLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 2 GiB of (untouched) address space")
	}
	big := make([]byte, 1<<31) // never touched: encode refuses before copying
	g := &rawGraph{Variables: []rawVariable{{Name: "w", Array: &rawArray{ShapeInfo: []int64{1, 1 << 31, 1, arrayChar, 1, 99},
		Buffer: big, DType: fb.DTypeINT8}}}}
	if _, err := encode(g); err == nil {
		t.Fatal("encoded a graph over 2 GiB")
	}
}
