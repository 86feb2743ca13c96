package serialize

import (
	"bytes"
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	"github.com/sdgo/sdgo/serialize/internal/fb"
)

// Builders of raw graphs for the load tests.

func f32Raw(shape []int64, v ...float32) *rawArray {
	si, _ := cShapeInfo(shape, fb.DTypeFLOAT, false, false)
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.BigEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return &rawArray{ShapeInfo: si, Buffer: b, DType: fb.DTypeFLOAT, ByteOrder: fb.ByteOrderBE}
}

func rConst(id int32, name string, v ...float32) rawVariable {
	return rawVariable{ID: &rawIntPair{id, 0}, Name: name, DType: fb.DTypeFLOAT, VarType: fb.VarTypeCONSTANT,
		Device: -1, Array: f32Raw([]int64{int64(len(v))}, v...)}
}

func rOut(id, idx int32, name string) rawVariable {
	return rawVariable{ID: &rawIntPair{id, idx}, Name: name, DType: fb.DTypeFLOAT, VarType: fb.VarTypeARRAY, Device: -1}
}

func rNode(id int32, name, op string, ins ...rawIntPair) rawNode {
	return rawNode{ID: id, Name: name, OpName: op, OpType: fb.OpTypeCUSTOM, OpNum: ops.Hash(op),
		InputPaired: ins, OutputNames: []string{name}, OutputTypes: []fb.DType{fb.DTypeFLOAT}}
}

func rLogic(id int32, name, op string, num int64, ins ...rawIntPair) rawNode {
	n := rNode(id, name, op, ins...)
	n.OpType, n.OpNum = fb.OpTypeLOGIC, num
	return n
}

func p(id, idx int32) rawIntPair { return rawIntPair{id, idx} }

func decodeRaw(t *testing.T, r *rawGraph) (*graph.Graph, error) {
	t.Helper()
	b, err := encode(r)
	if err != nil {
		t.Fatal(err)
	}
	return Decode(b)
}

// chain: a=[1,2], b=[3,4], c = a+b (node 3), d = c*a (node 4).
func chain() *rawGraph {
	return &rawGraph{
		Variables: []rawVariable{rConst(1, "a", 1, 2), rConst(2, "b", 3, 4), rOut(3, 0, "c"), rOut(4, 0, "d")},
		Nodes:     []rawNode{rNode(3, "c", "add", p(1, 0), p(2, 0)), rNode(4, "d", "multiply", p(3, 0), p(1, 0))},
	}
}

func TestLoadHostileGraphs(t *testing.T) {
	cases := []struct {
		name string
		edit func(r *rawGraph)
		want []string
	}{
		{"duplicate variable", func(r *rawGraph) { r.Variables[1].Name = "a" }, []string{`"a"`, "two variables"}},
		{"duplicate node", func(r *rawGraph) {
			r.Nodes[1].Name = "c"
			r.Nodes[1].OutputNames = []string{"d"}
		}, []string{`"c"`, "two nodes"}},
		{"duplicate node id", func(r *rawGraph) { r.Nodes[1].ID = 3 }, []string{"same id"}},
		{"duplicate variable id", func(r *rawGraph) { r.Variables[1].ID = &rawIntPair{1, 0} }, []string{"same id", `"b"`}},
		{"missing input", func(r *rawGraph) { r.Nodes[1].InputPaired[0] = p(99, 0) }, []string{`node "d"`, "(99,0)"}},
		{"missing output index", func(r *rawGraph) { r.Nodes[1].InputPaired[0] = p(3, 1) }, []string{`node "d"`, "(3,1)"}},
		{"unproduced input", func(r *rawGraph) {
			r.Variables = append(r.Variables, rOut(7, 0, "ghost"))
			r.Nodes[1].InputPaired[1] = p(7, 0)
		}, []string{`node "d"`, `"ghost"`, "no node produces"}},
		{"variables and nodes disagree", func(r *rawGraph) {
			// The variables say d is node 3's output, node 3 says it makes c.
			r.Variables[2].ID, r.Variables[3].ID = &rawIntPair{4, 0}, &rawIntPair{3, 0}
		}, []string{`node "d"`, "(3,0)", `variable "d"`, `output "c" of node "c"`}},
		{"cycle", func(r *rawGraph) { r.Nodes[0].InputPaired[1] = p(4, 0) }, []string{"cycle", `"d" -> "c" -> "d"`}},
		{"self loop", func(r *rawGraph) { r.Nodes[0].InputPaired[1] = p(3, 0) }, []string{"cycle", `"c" -> "c"`}},
		{"cycle through a merge without next_iteration", func(r *rawGraph) {
			r.Nodes[0] = rLogic(3, "c", "merge", logicMerge, p(1, 0), p(4, 0))
		}, []string{"cycle", `"c"`, `"d"`}},
		{"output clashes with a constant", func(r *rawGraph) { r.Nodes[1].OutputNames = []string{"b"} }, []string{`"b"`, "CONSTANT"}},
		{"output named twice", func(r *rawGraph) { r.Nodes[1].OutputNames = []string{"d", "d"} }, []string{`"d"`, "twice"}},
		{"two producers", func(r *rawGraph) { r.Nodes[1].OutputNames = []string{"c"} }, []string{`"c"`, "both produce"}},
		{"output index out of range", func(r *rawGraph) {
			r.Nodes[1].OutputNames = nil
			r.Nodes[1].Output = []int32{40}
		}, []string{`node "d"`, "variable 40"}},
		{"constant without array", func(r *rawGraph) { r.Variables[0].Array = nil }, []string{`"a"`, "no array"}},
		{"array shorter than its shape", func(r *rawGraph) { r.Variables[0].Array.Buffer = r.Variables[0].Array.Buffer[:4] }, []string{`"a"`, "needs 8 bytes"}},
		{"shape-info lies", func(r *rawGraph) { r.Variables[0].Array.ShapeInfo[1] = 1 << 40 }, []string{`"a"`, "bytes"}},
		{"absurd rank", func(r *rawGraph) { r.Variables[0].Array.ShapeInfo[0] = 1000 }, []string{`"a"`, "rank 1000"}},
		{"placeholder rank", func(r *rawGraph) {
			r.Variables[0] = rawVariable{ID: &rawIntPair{1, 0}, Name: "a", DType: fb.DTypeFLOAT, VarType: fb.VarTypePLACEHOLDER,
				Shape: make([]int64, 40)}
		}, []string{`"a"`, "rank 40"}},
		{"placeholder size", func(r *rawGraph) {
			r.Variables[0] = rawVariable{ID: &rawIntPair{1, 0}, Name: "a", DType: fb.DTypeFLOAT, VarType: fb.VarTypePLACEHOLDER,
				Shape: []int64{-7}}
		}, []string{`"a"`, "size -7"}},
		{"placeholder elements", func(r *rawGraph) {
			// Every size fits, their product does not: no value could ever be fed.
			r.Variables[0] = rawVariable{ID: &rawIntPair{1, 0}, Name: "a", DType: fb.DTypeFLOAT, VarType: fb.VarTypePLACEHOLDER,
				Shape: []int64{1 << 32, -1, 1 << 32, 1 << 20}}
		}, []string{`"a"`, "too many elements"}},
		{"unnamed variable", func(r *rawGraph) { r.Variables[2].Name = "" }, []string{"variable 2", "no name"}},
		{"updater state", func(r *rawGraph) {
			r.UpdaterState = []rawUpdaterState{{ParamName: "a", Keys: []string{"M", "V"}, Values: []rawArray{*f32Raw([]int64{1}, 1)}}}
		}, []string{`"a"`, "2 keys, 1 arrays"}},
		{"updater state key twice", func(r *rawGraph) {
			r.UpdaterState = []rawUpdaterState{{ParamName: "a", Keys: []string{"M", "M"},
				Values: []rawArray{*f32Raw([]int64{1}, 1), *f32Raw([]int64{1}, 2)}}}
		}, []string{`"a"`, `"M"`, "twice"}},
		{"updater state key twice in two entries", func(r *rawGraph) {
			r.UpdaterState = []rawUpdaterState{{ParamName: "a", Keys: []string{"M"}, Values: []rawArray{*f32Raw([]int64{1}, 1)}},
				{ParamName: "a", Keys: []string{"V", "M"}, Values: []rawArray{*f32Raw([]int64{1}, 2), *f32Raw([]int64{1}, 3)}}}
		}, []string{`"a"`, `"M"`, "twice"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := chain()
			c.edit(r)
			g, err := decodeRaw(t, r)
			if err == nil {
				t.Fatalf("loaded: %s", g.Summary())
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %s", err, w)
				}
			}
		})
	}
}

// TestLoadAnyNodeOrder: nodes listed backwards load in dependency order;
// old files' plain input lists work.
func TestLoadAnyNodeOrder(t *testing.T) {
	r := chain()
	r.Nodes[0], r.Nodes[1] = r.Nodes[1], r.Nodes[0]
	r.Variables[2], r.Variables[3] = r.Variables[3], r.Variables[2]
	g, err := decodeRaw(t, r)
	if err != nil {
		t.Fatal(err)
	}
	if o := g.Ops(); o[0].Name() != "c" || o[1].Name() != "d" {
		t.Fatalf("op order %v, %v", o[0].Name(), o[1].Name())
	}
	res, err := exec.New(g).Output(nil, "d")
	if err != nil || !ndarray.Equal(res["d"], ndarray.Must(ndarray.FromSlice([]float32{4, 12}))) {
		t.Fatalf("d = %v %v", res["d"], err)
	}
	// Old files: node ids in `input`, outputs found by variable id.
	r = chain()
	for i := range r.Nodes {
		r.Nodes[i].Input = []int32{r.Nodes[i].InputPaired[0].First, r.Nodes[i].InputPaired[1].First}
		r.Nodes[i].InputPaired = nil
		r.Nodes[i].OutputNames = nil
	}
	g, err = decodeRaw(t, r)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := exec.New(g).Output(nil, "d"); err != nil || res["d"].Float64s()[1] != 12 {
		t.Fatalf("d = %v %v", res, err)
	}
}

// loopGraph is a TF-style while loop: enter -> merge -> add -> next_iteration
// -> back into merge, and merge -> exit, listed out of order.
func loopGraph() *rawGraph {
	return &rawGraph{
		Variables: []rawVariable{rConst(1, "x", 1), rConst(2, "one", 1),
			rOut(3, 0, "enter"), rOut(4, 0, "merge"), rOut(5, 0, "body"), rOut(6, 0, "next"), rOut(7, 0, "exit")},
		Nodes: []rawNode{
			rLogic(6, "next", "next_iteration", logicNextIteration, p(5, 0)),
			rLogic(4, "merge", "merge", logicMerge, p(3, 0), p(6, 0)),
			rNode(5, "body", "add", p(4, 0), p(2, 0)),
			rLogic(3, "enter", "enter", 100, p(1, 0)),
			rLogic(7, "exit", "exit", 90, p(4, 0)),
		},
	}
}

// TestLoadLoop: a TF-style while loop (enter -> merge -> ... ->
// next_iteration -> merge), listed out of order, loads with the merge's
// back edge wired; the graph saves and loads again unchanged. (The loop has
// no condition, so it is not run; the fixtures run real loops.)
func TestLoadLoop(t *testing.T) {
	g, err := decodeRaw(t, loopGraph())
	if err != nil {
		t.Fatal(err)
	}
	mv, _ := g.Variable("merge")
	fn := mv.Op().Opaque().(*FileNode)
	if mv.Op().Def() == nil || names(mv.Op().Inputs()) != "enter,next" || strings.Join(fn.Inputs(), ",") != "enter,next" {
		t.Fatalf("merge: inputs %v, file inputs %v, %q", names(mv.Op().Inputs()), fn.Inputs(), fn.Opaque())
	}
	g2 := roundTrip(t, g, nil)
	b, _ := Encode(g2, nil)
	r2, _ := decode(b)
	ids := map[rawIntPair]string{}
	for _, v := range r2.Variables {
		ids[*v.ID] = v.Name
	}
	for _, n := range r2.Nodes {
		if n.Name == "merge" && (len(n.InputPaired) != 2 || ids[n.InputPaired[1]] != "next") {
			t.Fatalf("merge saved with inputs %v", n.InputPaired)
		}
	}
}

// TestLoadRegisteredOpThatCannotTakeItsInputs: a node of an op sdgo has,
// whose inputs the op refuses, loads as an opaque op (reported), saves back
// as it was, and fails when run, naming it.
func TestLoadRegisteredOpThatCannotTakeItsInputs(t *testing.T) {
	r := chain()
	r.Variables[1].Array = f32Raw([]int64{3}, 1, 2, 3) // c = [2] + [3]: no broadcast
	g, err := decodeRaw(t, r)
	if err != nil {
		t.Fatal(err)
	}
	cv, _ := g.Variable("c")
	if cv.Op().Def() != nil || cv.Op().OpName() != "add" || !strings.Contains(strings.Join(ReportOf(g).Warnings, "\n"), `node "c"`) {
		t.Fatalf("op %v, warnings %q", cv.Op(), ReportOf(g).Warnings)
	}
	// The run names the op and why it could not be taken; sdgo has add.
	if _, err := exec.New(g).Output(nil, "d"); err == nil || !strings.Contains(err.Error(), `"c"`) ||
		!strings.Contains(err.Error(), "float32[3]") || strings.Contains(err.Error(), "not implemented") {
		t.Fatalf("run: %v", err)
	}
	b, err := Encode(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	r2, _ := decode(b)
	if r2.Nodes[0].OpName != "add" || r2.Nodes[0].OpNum != ops.Hash("add") {
		t.Fatalf("saved as %q %d", r2.Nodes[0].OpName, r2.Nodes[0].OpNum)
	}
}

// TestLoadKeepsWhatTheGraphCannotHold: op outputs no node produces,
// sequences and unknown variable kinds are reported and written back; an
// unknown op's node keeps every field; a loss the graph refuses is kept.
func TestLoadKeepsWhatTheGraphCannotHold(t *testing.T) {
	r := chain()
	seq := rawVariable{ID: &rawIntPair{8, 0}, Name: "seq", DType: fb.DTypeFLOAT, VarType: fb.VarTypeSEQUENCE,
		Array: f32Raw([]int64{1}, 5), ControlDeps: []string{"c"}}
	odd := rawVariable{ID: &rawIntPair{9, 0}, Name: "odd", DType: fb.DTypeFLOAT, VarType: 9}
	r.Variables = append(r.Variables, rOut(7, 0, "dangling"), seq, odd, rOut(10, 0, "future"))
	fut := rNode(10, "future", "future_op", p(4, 0))
	fut.Properties = []rawProperties{{Name: "p", I: []int32{1}, S: []string{"s"}, A: []rawArray{*f32Raw([]int64{1}, 2)}}}
	fut.ExtraStrings, fut.ExtraTypes, fut.ScopeName = []string{"x"}, []fb.DType{fb.DTypeHALF}, "scope"
	fut.ControlDeps = []string{"c"}
	r.Nodes = append(r.Nodes, fut)
	r.LossVariables = []string{"nonexistent"}
	g, err := decodeRaw(t, r)
	if err != nil {
		t.Fatal(err)
	}
	rp := ReportOf(g)
	w := strings.Join(rp.Warnings, "\n")
	for _, s := range []string{`"dangling"`, `"seq"`, `"odd"`, "nonexistent"} {
		if !strings.Contains(w, s) {
			t.Errorf("warnings do not mention %s:\n%s", s, w)
		}
	}
	if strings.Join(rp.Unimplemented, ",") != "future_op" || strings.Join(rp.Opaque, ",") != "future" {
		t.Errorf("report %+v", rp)
	}
	for _, bo := range []bool{false, true} {
		b, err := Encode(g, &SaveOptions{BigEndian: bo})
		if err != nil {
			t.Fatal(err)
		}
		r2, _ := decode(b)
		got := map[string]rawVariable{}
		for _, v := range r2.Variables {
			got[v.Name] = v
		}
		if got["seq"].VarType != fb.VarTypeSEQUENCE || got["seq"].Array == nil || got["odd"].VarType != 9 ||
			got["dangling"].VarType != fb.VarTypeARRAY || strings.Join(got["seq"].ControlDeps, "") != "c" {
			t.Errorf("kept variables saved as %+v %+v %+v", got["seq"], got["odd"], got["dangling"])
		}
		if la, err := arrayFromRaw(got["seq"].Array, 0); err != nil || la.arr.Float64s()[0] != 5 {
			t.Errorf("sequence array %v %v", la.arr, err)
		}
		var n *rawNode
		for i := range r2.Nodes {
			if r2.Nodes[i].Name == "future" {
				n = &r2.Nodes[i]
			}
		}
		if n == nil || n.OpName != "future_op" || n.OpNum != ops.Hash("future_op") || n.ScopeName != "scope" ||
			len(n.Properties) != 1 || n.Properties[0].S[0] != "s" || n.ExtraStrings[0] != "x" ||
			n.ExtraTypes[0] != fb.DTypeHALF || n.ControlDeps[0] != "c" {
			t.Fatalf("future node saved as %+v", n)
		}
		if wantBO := fb.ByteOrder(map[bool]int{false: 0, true: 1}[bo]); n.Properties[0].A[0].ByteOrder != wantBO {
			t.Errorf("property array byte order %v", n.Properties[0].A[0].ByteOrder)
		}
		if strings.Join(r2.LossVariables, "") != "nonexistent" {
			t.Errorf("losses %v", r2.LossVariables)
		}
	}
	if _, err := exec.New(g).Output(nil, "future"); err == nil || !strings.Contains(err.Error(), "future_op") {
		t.Fatalf("running future: %v", err)
	}
}

// TestLoadOpMatching: custom ops match by name (an alias too), by hash when
// the name is unknown; legacy ops by name, by (opType, opNum) without one;
// disagreements are reported.
func TestLoadOpMatching(t *testing.T) {
	r := chain()
	r.Nodes[0].OpName, r.Nodes[0].OpNum = "renamed_add", ops.Hash("add") // hash only
	r.Nodes[1].OpNum = 12345                                             // name only
	sq := rNode(5, "sq", "", p(4, 0))
	sq.OpType, sq.OpNum = fb.OpTypeTRANSFORM_SAME, 12 // legacy square, no name
	neg := rNode(6, "neg", "neg", p(5, 0))
	neg.OpType, neg.OpNum = fb.OpTypeTRANSFORM_SAME, 99 // legacy, old number
	mm := rNode(7, "mm", "mmul", p(6, 0), p(6, 0))
	mm.OpNum = ops.Hash("mmul")
	mm.ExtraInteger = []int64{1, 0} // transpose x: [2]x[2] still a dot
	r.Variables = append(r.Variables, rOut(5, 0, "sq"), rOut(6, 0, "neg"), rOut(7, 0, "mm"))
	r.Nodes = append(r.Nodes, sq, neg, mm)
	g, err := decodeRaw(t, r)
	if err != nil {
		t.Fatal(err)
	}
	for name, def := range map[string]string{"c": "add", "d": "multiply", "sq": "square", "neg": "neg", "mm": "matmul"} {
		v, _ := g.Variable(name)
		if v.Op().Def() == nil || v.Op().Def().Name != def {
			t.Errorf("%s: matched %v", name, v.Op().Def())
		}
	}
	w := strings.Join(ReportOf(g).Warnings, "\n")
	for _, s := range []string{`node "c"`, `node "d"`, `node "neg"`} {
		if !strings.Contains(w, s) {
			t.Errorf("no warning about %s:\n%s", s, w)
		}
	}
	if strings.Contains(w, `node "mm"`) || strings.Contains(w, `node "sq"`) {
		t.Errorf("spurious warning:\n%s", w)
	}
	res, err := exec.New(g).Output(nil, "neg")
	if err != nil || res["neg"].Float64s()[1] != -144 {
		t.Fatalf("neg = %v %v", res, err)
	}
	roundTrip(t, g, nil)
}

// TestLoadNewerSchema: a file from a newer SameDiff (fields this schema
// lacks, a SEQUENCE variable, an unknown dtype and op type) loads.
func TestLoadNewerSchema(t *testing.T) {
	g, err := Decode(newerSchemaBuffer())
	if err != nil {
		t.Fatal(err)
	}
	rp := ReportOf(g)
	if len(rp.Opaque) != 1 || !strings.Contains(strings.Join(rp.Warnings, "\n"), `"seq"`) {
		t.Fatalf("report %+v", rp)
	}
	if _, err := Encode(g, nil); err != nil {
		t.Fatal(err)
	}
}

// TestReadSources: Read sizes its buffer from files and sized readers, and
// reads other readers to the end; Load names the file in errors.
func TestReadSources(t *testing.T) {
	b, err := Encode(mlp(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []interface{ Read([]byte) (int, error) }{bytes.NewReader(b), bytes.NewBuffer(b), strings.NewReader(string(b)),
		struct{ *bytes.Reader }{bytes.NewReader(b)}} {
		if _, err := Read(r); err != nil {
			t.Errorf("%T: %v", r, err)
		}
	}
	if _, err := Read(bytes.NewReader(b[:len(b)/2])); err == nil {
		t.Error("read half a file")
	}
	if _, err := Load("/nonexistent/x.fb"); err == nil || !strings.Contains(err.Error(), "x.fb") {
		t.Errorf("load of a missing file: %v", err)
	}
}

// A node of a registered op that lists another number of outputs than the
// op gives is not that op: it loads as an opaque op, with a warning that
// says so, and saves back with its outputs.
func TestLoadNodeWithOtherOutputCount(t *testing.T) {
	r := chain()
	r.Nodes[0].OutputNames = []string{"c", "c_extra"}
	g, err := decodeRaw(t, r)
	if err != nil {
		t.Fatal(err)
	}
	cv, _ := g.Variable("c")
	w := strings.Join(ReportOf(g).Warnings, "\n")
	if cv.Op().Def() != nil || !strings.Contains(w, `node "c"`) || !strings.Contains(w, "gives 1 outputs, 2 names given") {
		t.Fatalf("op %v, warnings:\n%s", cv.Op(), w)
	}
	b, err := Encode(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	r2, _ := decode(b)
	if got := strings.Join(r2.Nodes[0].OutputNames, ","); r2.Nodes[0].OpName != "add" || got != "c,c_extra" {
		t.Fatalf("saved as %q with outputs %q", r2.Nodes[0].OpName, got)
	}
}

// Loading a directory says so, naming it once.
func TestLoadDirectory(t *testing.T) {
	dir := t.TempDir()
	_, err := Load(dir)
	if err == nil || err.Error() != "serialize: "+dir+" is a directory, not a graph file" {
		t.Errorf("Load(%s): %v", dir, err)
	}
}
