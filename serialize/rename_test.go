package serialize

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/serialize/internal/fb"
)

// Renaming variables of a loaded graph keeps what the file said about them
// (device, kind, control dependencies, a placeholder's missing shape and
// stored value), and every list of the file that names a renamed variable
// names it by its new name. Lists of op names (a variable's controlDeps and
// controlDepForOp) are left: ops are not renamed.

func rawVars(r *rawGraph) map[string]*rawVariable {
	m := map[string]*rawVariable{}
	for i := range r.Variables {
		m[r.Variables[i].Name] = &r.Variables[i]
	}
	return m
}

func rawNodes(r *rawGraph) map[string]*rawNode {
	m := map[string]*rawNode{}
	for i := range r.Nodes {
		m[r.Nodes[i].Name] = &r.Nodes[i]
	}
	return m
}

func mustVar(t *testing.T, g *graph.Graph, name string) *graph.Variable {
	t.Helper()
	v, ok := g.Variable(name)
	if !ok {
		t.Fatalf("no variable %q", name)
	}
	return v
}

// saveRenamed encodes g, checks that the file loads again and saves to the
// same bytes, and returns the file's raw graph.
func saveRenamed(t *testing.T, g *graph.Graph) *rawGraph {
	t.Helper()
	b, err := Encode(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	g2, err := Decode(append([]byte(nil), b...))
	if err != nil {
		t.Fatalf("the saved file does not load: %v", err)
	}
	b2, err := Encode(g2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, b2) {
		t.Errorf("loading the saved file and saving it again changed its bytes")
	}
	r, err := decode(b)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestRenameKeepsFileExtrasFixture: in simplewhile_1.fb (TensorFlow import),
// constants inside the loop carry controlDeps naming ops, and those ops'
// controlDepFor name the constants.
func TestRenameKeepsFileExtrasFixture(t *testing.T) {
	g, err := Load(filepath.Join(fixtureDir, "simplewhile_1.fb"))
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Rename(mustVar(t, g, "while/Const"), "renamed/Const"); err != nil {
		t.Fatal(err)
	}
	if v := mustVar(t, g, "while/Sub/y").Named("renamed/Sub/y"); v.Err() != nil {
		t.Fatal(v.Err())
	}
	// The variable an op of the same name produces: the constants'
	// controlDeps name the op, which keeps its name.
	if err := g.Rename(mustVar(t, g, "while/Merge"), "merge_out"); err != nil {
		t.Fatal(err)
	}
	r := saveRenamed(t, g)
	vars, nodes := rawVars(r), rawNodes(r)
	for _, old := range []string{"while/Const", "while/Sub/y", "while/Merge"} {
		if vars[old] != nil {
			t.Errorf("the saved file still has a variable %q", old)
		}
	}
	for name, want := range map[string]string{"renamed/Const": "while/Merge", "renamed/Sub/y": "while/Identity"} {
		v := vars[name]
		if v == nil {
			t.Fatalf("variable %q not saved", name)
		}
		if fmt.Sprint(v.ControlDeps) != "["+want+"]" || v.VarType != fb.VarTypeCONSTANT || v.Device != -1 {
			t.Errorf("variable %q saved with controlDeps %q, type %v, device %d; want controlDeps [%s]",
				name, v.ControlDeps, v.VarType, v.Device, want)
		}
	}
	for op, want := range map[string]string{"while/Merge": "renamed/Const", "while/Identity": "renamed/Sub/y"} {
		n := nodes[op]
		if n == nil {
			t.Fatalf("node %q not saved", op)
		}
		if fmt.Sprint(n.ControlDepFor) != "["+want+"]" {
			t.Errorf("node %q saved with controlDepFor %q, want [%s]", op, n.ControlDepFor, want)
		}
	}
}

// TestRenameKeepsPlaceholderFixture: non2d_0A.fb stores values for its
// placeholders and no shapes; a renamed placeholder keeps both.
func TestRenameKeepsPlaceholderFixture(t *testing.T) {
	path := filepath.Join(fixtureDir, "non2d_0A.fb")
	g, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	stored := ReportOf(g).PlaceholderValues["scalarA"]
	if stored == nil {
		t.Fatal("the fixture stores no value for scalarA")
	}
	if err := g.Rename(mustVar(t, g, "scalarA"), "A"); err != nil {
		t.Fatal(err)
	}
	r := saveRenamed(t, g)
	v := rawVars(r)["A"]
	if v == nil || v.VarType != fb.VarTypePLACEHOLDER || v.Shape != nil || v.Array == nil {
		t.Fatalf("renamed placeholder saved as %+v; want a placeholder without shape, with its stored value", v)
	}
	la, err := arrayFromRaw(v.Array, 0)
	if err != nil {
		t.Fatal(err)
	}
	if d := arrayDiff(la.arr, stored); d != "" {
		t.Errorf("stored value: %s", d)
	}
	if strings.Join(r.Placeholders, ",") != "A,scalarB" {
		t.Errorf("placeholders %q", r.Placeholders)
	}
}

// TestRenameKeepsFileExtras: every per-variable field the graph does not
// model, and every list that names variables (variables' controlDepsForVar,
// nodes' controlDeps, varControlDeps and controlDepFor, those of variables
// kept out of the graph, losses the graph refused), follows a rename, also
// when a new variable takes the old name.
func TestRenameKeepsFileExtras(t *testing.T) {
	r := chain()
	vs := rawVars(r)
	a, c := vs["a"], vs["c"]
	a.Device, a.ControlDeps, a.ControlDepForOp, a.ControlDepsForVar = 1, []string{"c"}, []string{"d"}, []string{"b"}
	c.Device, c.VarType = 2, fb.VarTypeSEQUENCE // an op output the file calls a sequence
	d := &r.Nodes[1]
	d.ControlDeps, d.VarControlDeps, d.ControlDepFor = []string{"b"}, []string{"b"}, []string{"a"}
	ph := rawVariable{ID: &rawIntPair{5, 0}, Name: "ph", DType: fb.DTypeFLOAT, VarType: fb.VarTypePLACEHOLDER,
		Device: -1, Array: f32Raw([]int64{2}, 7, 8)} // no shape
	seq := rawVariable{ID: &rawIntPair{6, 0}, Name: "seq", DType: fb.DTypeFLOAT, VarType: fb.VarTypeSEQUENCE,
		Device: -1, Array: f32Raw([]int64{1}, 5), ControlDepsForVar: []string{"b"}}
	r.Variables = append(r.Variables, ph, seq)
	r.Placeholders = []string{"ph"}
	r.LossVariables = []string{"b", "nonexistent"} // refused by the graph, kept as read
	g, err := decodeRaw(t, r)
	if err != nil {
		t.Fatal(err)
	}
	for old, name := range map[string]string{"a": "a2", "b": "b2", "c": "c2", "ph": "ph2"} {
		if err := g.Rename(mustVar(t, g, old), name); err != nil {
			t.Fatal(err)
		}
	}
	// New variables under old names are not the file's.
	g.Const("b", ndarray.Must(ndarray.FromSlice([]float32{9}, 1)))
	g.Placeholder("ph", ndarray.Float32)
	if err := g.Err(); err != nil {
		t.Fatal(err)
	}
	if err := g.Rename(mustVar(t, g, "a2"), "b2"); err == nil || !strings.Contains(err.Error(), `"a2"`) ||
		!strings.Contains(err.Error(), `"b2"`) {
		t.Errorf("renaming onto a taken name: %v", err)
	}

	rg := saveRenamed(t, g)
	vars, nodes := rawVars(rg), rawNodes(rg)
	for _, name := range []string{"a2", "b2", "c2", "ph2", "b", "ph", "seq"} {
		if vars[name] == nil {
			t.Fatalf("variable %q not saved", name)
		}
	}
	if v := vars["a2"]; v.Device != 1 || fmt.Sprint(v.ControlDeps, v.ControlDepForOp, v.ControlDepsForVar) != "[c] [d] [b2]" {
		t.Errorf("a2 saved with device %d, controlDeps %q, controlDepForOp %q, controlDepsForVar %q; want 1 [c] [d] [b2]",
			v.Device, v.ControlDeps, v.ControlDepForOp, v.ControlDepsForVar)
	}
	if v := vars["c2"]; v.Device != 2 || v.VarType != fb.VarTypeSEQUENCE {
		t.Errorf("c2 saved with device %d, type %v; want 2 SEQUENCE", v.Device, v.VarType)
	}
	if v := vars["b"]; v.Device != -1 || v.ControlDeps != nil || v.ControlDepsForVar != nil {
		t.Errorf("the new b took the file's b's extras: %+v", v)
	}
	if n := nodes["d"]; fmt.Sprint(n.ControlDeps, n.VarControlDeps, n.ControlDepFor) != "[b2] [b2] [a2]" {
		t.Errorf("node d saved with controlDeps %q, varControlDeps %q, controlDepFor %q; want [b2] [b2] [a2]",
			n.ControlDeps, n.VarControlDeps, n.ControlDepFor)
	}
	if v := vars["seq"]; fmt.Sprint(v.ControlDepsForVar) != "[b2]" {
		t.Errorf("seq (kept out of the graph) saved with controlDepsForVar %q, want [b2]", v.ControlDepsForVar)
	}
	if v := vars["ph2"]; v.VarType != fb.VarTypePLACEHOLDER || v.Shape != nil || v.Array == nil {
		t.Errorf("ph2 saved as %+v; want a placeholder without shape, with its stored value", v)
	} else if la, err := arrayFromRaw(v.Array, 0); err != nil || fmt.Sprint(la.arr.Float64s()) != "[7 8]" {
		t.Errorf("ph2's stored value %v %v", la.arr, err)
	}
	if v := vars["ph"]; v.Array != nil || v.Shape == nil {
		t.Errorf("the new ph saved as %+v; want its own (empty) shape and no value", v)
	}
	if fmt.Sprint(rg.LossVariables) != "[b2 nonexistent]" {
		t.Errorf("losses %q, want [b2 nonexistent]", rg.LossVariables)
	}
}

// TestRenameLoopBackEdgeKeptInFileNode: a merge kept opaque keeps its back
// edge by the file's name; renaming the variable the edge comes from must
// not break the save nor, when another variable takes the old name, point
// the edge at that one.
func TestRenameLoopBackEdgeKeptInFileNode(t *testing.T) {
	r := loopGraph()
	r.Nodes[1].OpType, r.Nodes[1].OpNum, r.Nodes[1].OpName = fb.OpTypeLOGIC, logicMerge, "merge_v9"
	g, err := decodeRaw(t, r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(ReportOf(g).Warnings, "\n"), `back edge from "next" kept in the file node`) {
		t.Fatalf("the merge's back edge is wired: %q", ReportOf(g).Warnings)
	}
	if err := g.Rename(mustVar(t, g, "next"), "next2"); err != nil {
		t.Fatal(err)
	}
	check := func() {
		t.Helper()
		b, err := Encode(g, nil)
		if err != nil {
			t.Fatal(err)
		}
		rg, _ := decode(b)
		ids := map[rawIntPair]string{}
		for _, v := range rg.Variables {
			ids[*v.ID] = v.Name
		}
		m := rawNodes(rg)["merge"]
		if len(m.InputPaired) != 2 || ids[m.InputPaired[1]] != "next2" {
			t.Fatalf("merge saved with inputs %v (%q)", m.InputPaired, ids[m.InputPaired[1]])
		}
	}
	check()
	g.Const("next", ndarray.Must(ndarray.FromSlice([]float32{3}, 1)))
	check()
}

// TestOrphanNameTaken: a variable the graph cannot hold (here a sequence no
// node produces) is kept aside and saved as read. A graph variable renamed
// to its name, or a new one given it, would make Save choose one of the two
// (it dropped the file's without a word): Save refuses, naming the variable
// and what the file's one is, and saves again once the graph's is renamed.
func TestOrphanNameTaken(t *testing.T) {
	load := func() *graph.Graph {
		t.Helper()
		r := chain()
		r.Variables = append(r.Variables, rawVariable{ID: &rawIntPair{6, 0}, Name: "seq", DType: fb.DTypeFLOAT,
			VarType: fb.VarTypeSEQUENCE, Device: -1, Array: f32Raw([]int64{1}, 5)})
		g, err := decodeRaw(t, r)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	for _, tc := range []struct {
		name string
		edit func(g *graph.Graph) *graph.Variable
		want []string
	}{
		{"rename", func(g *graph.Graph) *graph.Variable {
			v := mustVar(t, g, "a")
			if err := g.Rename(v, "seq"); err != nil {
				t.Fatal(err)
			}
			return v
		}, []string{`"seq"`, `renamed from "a"`, "a sequence that no node produces", "rename"}},
		{"new variable", func(g *graph.Graph) *graph.Variable {
			return g.Const("seq", ndarray.Must(ndarray.FromSlice([]float32{9}, 1)))
		}, []string{`"seq"`, "a sequence that no node produces", "rename"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := load()
			v := tc.edit(g)
			_, err := Encode(g, nil)
			if err == nil {
				t.Fatal("saved: the file's variable \"seq\" or the graph's is lost")
			}
			t.Log(err)
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if err := g.Rename(v, "mine"); err != nil {
				t.Fatal(err)
			}
			vars := rawVars(saveRenamed(t, g))
			if vars["seq"] == nil || vars["seq"].VarType != fb.VarTypeSEQUENCE || vars["mine"] == nil {
				t.Errorf("after renaming the graph's variable, saved %v", vars)
			}
		})
	}
}

// TestRenameFollowsTrainingConfig: the training configuration's lists and
// maps that name variables name renamed ones by their new names, in the
// graph's meta (what train.ConfigOf reads) and in the file saved; the rest
// of the JSON (fields sdgo does not model too) is kept, and a configuration
// naming nothing renamed is the file's text byte for byte.
func TestRenameFollowsTrainingConfig(t *testing.T) {
	const text = `{"updater":{"@class":"org.nd4j.linalg.learning.config.Sgd","learningRate":0.1},"minimize":true,` +
		`"dataSetFeatureMapping":["a"],"dataSetLabelMapping":["b"],"dataSetFeatureMaskMapping":["a","x"],` +
		`"dataSetLabelMaskMapping":null,"lossVariables":["d"],"trainEvaluations":{"d":[{"@class":"E"}]},` +
		`"trainEvaluationLabels":{"d":0},"validationEvaluations":{},"futureField":{"a":["a"]}}`
	load := func() *graph.Graph {
		t.Helper()
		r := chain()
		r.TrainingConfig = text
		g, err := decodeRaw(t, r)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	meta := func(g *graph.Graph) (string, error) {
		v, _ := g.GetMeta(graph.MetaTrainingConfig)
		return graph.MetaJSON(v)
	}
	g := load()
	if s, err := meta(g); err != nil || s != text {
		t.Errorf("nothing renamed: the configuration reads %s (%v), want the file's text", s, err)
	}
	if r := saveRenamed(t, g); r.TrainingConfig != text {
		t.Errorf("nothing renamed: saved %s", r.TrainingConfig)
	}

	renameAll := func(g *graph.Graph, m map[string]string) {
		t.Helper()
		for old, name := range m {
			if err := g.Rename(mustVar(t, g, old), name); err != nil {
				t.Fatal(err)
			}
		}
	}
	renameAll(g, map[string]string{"a": "a2", "d": "loss"})
	g.Const("a", ndarray.Must(ndarray.FromSlice([]float32{9}, 1))) // not the file's a
	const want = `{"dataSetFeatureMapping":["a2"],"dataSetFeatureMaskMapping":["a2","x"],"dataSetLabelMapping":["b"],` +
		`"dataSetLabelMaskMapping":null,"futureField":{"a":["a"]},"lossVariables":["loss"],"minimize":true,` +
		`"trainEvaluationLabels":{"loss":0},"trainEvaluations":{"loss":[{"@class":"E"}]},` +
		`"updater":{"@class":"org.nd4j.linalg.learning.config.Sgd","learningRate":0.1},"validationEvaluations":{}}`
	if s, err := meta(g); err != nil || s != want {
		t.Errorf("renamed: the configuration reads\n%s (%v), want\n%s", s, err, want)
	}
	if r := saveRenamed(t, g); r.TrainingConfig != want {
		t.Errorf("renamed: saved\n%s, want\n%s", r.TrainingConfig, want)
	}

	// Renamed back: the file's text again.
	g = load()
	renameAll(g, map[string]string{"a": "a2"})
	renameAll(g, map[string]string{"a2": "a"})
	if s, err := meta(g); err != nil || s != text {
		t.Errorf("renamed back: the configuration reads %s (%v), want the file's text", s, err)
	}

	// A map entry for a name that is no variable of the file, and a
	// variable renamed to it: keeping either entry would drop the other.
	r := chain()
	r.TrainingConfig = `{"trainEvaluations":{"d":[1],"ghost":[2]}}`
	g, err := decodeRaw(t, r)
	if err != nil {
		t.Fatal(err)
	}
	renameAll(g, map[string]string{"d": "ghost"})
	_, err = Encode(g, nil)
	if err == nil || !strings.Contains(err.Error(), `trainEvaluations has entries for "ghost" and "d", and variable "d" is now named "ghost"`) {
		t.Errorf("two entries for one variable: %v", err)
	}
}

// TestGraphOutputsKept: a file that lists graph outputs (FlatGraph.outputs,
// which SameDiff writes empty) keeps them, by the variables they name, when
// renamed and saved; Save wrote none, without a word. One naming nothing is
// a load warning.
func TestGraphOutputsKept(t *testing.T) {
	r := chain()
	r.Variables = append(r.Variables, rawVariable{ID: &rawIntPair{6, 0}, Name: "seq", DType: fb.DTypeFLOAT,
		VarType: fb.VarTypeSEQUENCE, Device: -1, Array: f32Raw([]int64{1}, 5)})
	r.Outputs = []rawIntPair{p(4, 0), p(1, 0), p(6, 0), p(9, 9)}
	g, err := decodeRaw(t, r)
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.Join(ReportOf(g).Warnings, "\n"); !strings.Contains(w, "graph output 3 (9,9) names no variable") {
		t.Errorf("warnings %q", w)
	}
	if err := g.Rename(mustVar(t, g, "d"), "d2"); err != nil {
		t.Fatal(err)
	}
	g.Const("d", ndarray.Must(ndarray.FromSlice([]float32{9}, 1))) // not the file's d
	rg := saveRenamed(t, g)
	ids := map[rawIntPair]string{}
	for _, v := range rg.Variables {
		ids[*v.ID] = v.Name
	}
	var got []string
	for _, o := range rg.Outputs {
		got = append(got, ids[o])
	}
	if fmt.Sprint(got) != "[d2 a seq]" {
		t.Errorf("saved graph outputs %v (%q), want [d2 a seq]", rg.Outputs, got)
	}
}

// TestRenameRoundTripFixtures: for every reference file, renaming every
// variable twice, saving, loading and renaming back gives the bytes the
// file saves to unrenamed; so does renaming back in place. Whatever the
// file says about a variable goes with it through renames and the file.
func TestRenameRoundTripFixtures(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(fixtureDir, "*.fb"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures in %s (%v)", fixtureDir, err)
	}
	opts := &SaveOptions{UpdaterState: true}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			load := func() *graph.Graph {
				g, err := Load(f)
				if err != nil {
					t.Fatal(err)
				}
				return g
			}
			encode := func(g *graph.Graph) []byte {
				b, err := Encode(g, opts)
				if err != nil {
					t.Fatal(err)
				}
				return b
			}
			want := encode(load())
			g := load()
			orig := map[string]string{}
			for _, v := range g.Variables() {
				old := v.Name()
				for _, name := range []string{"r1/" + old, "r2/" + old} {
					if err := g.Rename(v, name); err != nil {
						t.Fatal(err)
					}
				}
				orig[v.Name()] = old
			}
			g2, err := Decode(encode(g))
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range g2.Variables() {
				o, ok := orig[v.Name()]
				if !ok {
					t.Fatalf("the renamed graph saved a variable %q", v.Name())
				}
				if err := g2.Rename(v, o); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(encode(g2), want) {
				t.Errorf("renamed, saved, loaded and renamed back: the file differs")
			}
			for _, v := range g.Variables() {
				if err := g.Rename(v, orig[v.Name()]); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(encode(g), want) {
				t.Errorf("renamed back in place: the file differs")
			}
		})
	}
}

// A list of names in the training configuration with an element that is
// not a name (null, a number) keeps that element as it is when a variable
// it names is renamed: null became "" (a name, of no variable), and a list
// with a number in it was not renamed at all.
func TestRenameConfigListKeepsOtherElements(t *testing.T) {
	r := chain()
	r.TrainingConfig = `{"lossVariables":["d",null],"trainableParams":["a",7]}`
	g, err := decodeRaw(t, r)
	if err != nil {
		t.Fatal(err)
	}
	for old, name := range map[string]string{"d": "loss", "a": "w"} {
		if err := g.Rename(mustVar(t, g, old), name); err != nil {
			t.Fatal(err)
		}
	}
	v, _ := g.GetMeta(graph.MetaTrainingConfig)
	const want = `{"lossVariables":["loss",null],"trainableParams":["w",7]}`
	if s, err := graph.MetaJSON(v); err != nil || s != want {
		t.Errorf("the configuration reads %s (%v), want %s", s, err, want)
	}
}
