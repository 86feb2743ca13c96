package serialize

import (
	"strings"
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	"github.com/sdgo/sdgo/ops/createview"
	"github.com/sdgo/sdgo/serialize/internal/fb"
)

// TestCheckJavaFixtures: the real SameDiff files in testdata have no
// blocker (the TensorArray ops, written with TensorFlow's names and
// libnd4j's list-op hashes, load by their hash: warnings).
func TestCheckJavaFixtures(t *testing.T) {
	for _, f := range fixtureFiles(t) {
		fs, err := CheckJavaFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(fs) == 0 {
			t.Errorf("%s: no findings", f)
		}
		for _, x := range Blockers(fs) {
			t.Errorf("%s: %v", f, x)
		}
		for _, x := range fs {
			if x.Level != JavaBlocker && x.JavaClass == "" {
				t.Errorf("%s: %v has no Java class", f, x)
			}
		}
	}
}

// TestCheckJavaSdgoGraphs: graphs sdgo writes that Java loads (the MLP,
// argmax with an axis) have no blocker, and every node says its class.
func TestCheckJavaSdgoGraphs(t *testing.T) {
	for name, g := range map[string]*graph.Graph{"mlp": mlp(t), "axes": axesGraph(t)} {
		fs, err := CheckJavaGraph(g, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(fs) != len(g.Ops()) {
			t.Errorf("%s: %d findings for %d ops", name, len(fs), len(g.Ops()))
		}
		for _, x := range fs {
			if x.Level != JavaOK {
				t.Errorf("%s: %v", name, x)
			}
		}
	}
	classes := map[string]string{}
	fs, _ := CheckJavaGraph(axesGraph(t), nil)
	for _, x := range fs {
		classes[x.OpName] = x.JavaClass
	}
	if classes["argmax"] != "ArgMax" || classes["argmin"] != "ArgMin" || classes["reduce_sum_bp"] != "SumBp" {
		t.Errorf("classes %v", classes)
	}
}

// TestCheckJavaViewWrite: a write through a view (an sdgo op) is a blocker
// naming the op; the create_view before it is not.
func TestCheckJavaViewWrite(t *testing.T) {
	g := graph.New()
	x := g.Var("x", ndarray.Must(ndarray.FromSlice([]float64{1, 2, 3, 4}, 2, 2)))
	v := g.Const("v", ndarray.Must(ndarray.FromSlice([]float64{5, 6}, 2)))
	x.View(createview.Point(-1)).AddAssign(v).Named("x2")
	fs, err := CheckJavaGraph(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, x := range fs {
		got = append(got, x.OpName+":"+x.Level.String())
	}
	if strings.Join(got, " ") != "create_view:ok view_add:BLOCKER" {
		t.Fatalf("findings %v", fs)
	}
	if b := Blockers(fs); len(b) != 1 || !strings.Contains(b[0].String(), `"view_add"`) || !strings.Contains(b[0].Message, "No op known") {
		t.Errorf("blocker %v", b)
	}
}

// TestCheckJavaNodes: how Java's loader places hand-made nodes, one case
// per rule of FlatBuffersMapper.fromFlatNode and LegacyOpMapper.
func TestCheckJavaNodes(t *testing.T) {
	custom := func(name string, hash int64) rawNode {
		return rawNode{Name: name, OpName: name, OpType: fb.OpTypeCUSTOM, OpNum: hash, OutputNames: []string{name}}
	}
	legacy := func(name string, ty fb.OpType, num int64) rawNode {
		return rawNode{Name: name, OpName: name, OpType: ty, OpNum: num, OutputNames: []string{name}}
	}
	withDims := func(n rawNode, iargs []int64, dims ...int32) rawNode {
		n.ExtraInteger, n.Dimensions = iargs, dims
		return n
	}
	cases := []struct {
		node  rawNode
		level FindingLevel
		class string
		msg   string // part of the message
	}{
		{custom("matmul", ops.Hash("matmul")), JavaOK, "Mmul", "by hash"},
		// A wrong hash loads another class whatever the name says.
		{custom("matmul", ops.Hash("add")), JavaBlocker, "AddOp", "not Mmul"},
		// A name Java lacks, with the hash of one it has.
		{custom("tensorarrayv3", ops.Hash("create_list")), JavaWarning, "TensorArray", `"create_list"`},
		// Shared hashes are told apart by name.
		// libnd4j's zeros_as has the synonyms zeroslike and zeros_like,
		// which Java gives to two classes; its own name is neither.
		{custom("zeroslike", ops.Hash("zeros_as")), JavaOK, "ZerosLike", "by hash and name"},
		{custom("zeros_as", ops.Hash("zeros_as")), JavaBlocker, "", "Could not find class for hash"},
		// sdgo's own names, with their own hashes.
		{custom("zeroslike", ops.Hash("zeroslike")), JavaWarning, "ZerosLike", "not the hash"},
		{custom("reduce_to_shape_of", ops.Hash("reduce_to_shape_of")), JavaBlocker, "", "No op known"},
		{custom("view_assign", ops.Hash("view_assign")), JavaBlocker, "", `"view_assign"`},
		// Names libnd4j lacks: Java writes hash 0 and finds them by name.
		{custom("somepoolingpool2d", 0), JavaOK, "Pooling2D", "by name"},
		{custom("maxout", 0), JavaBlocker, "", "cannot be loaded"},
		{custom("create_view", ops.Hash("create_view")), JavaOK, "CreateView", "special-cased"},
		// Control flow: LOGIC with the writer's number.
		{legacy("merge", fb.OpTypeLOGIC, 60), JavaOK, "Merge", "special-cased"},
		{legacy("merge", fb.OpTypeLOGIC, 61), JavaBlocker, "", "opNum 60"},
		{custom("enter", ops.Hash("enter")), JavaBlocker, "", "LOGIC"},
		{legacy("route", fb.OpTypeLOGIC, 5), JavaBlocker, "", `no LOGIC op "route"`},
		// Legacy ops: (type, num) decides, the name is ignored.
		{legacy("tanh", fb.OpTypeTRANSFORM_STRICT, 29), JavaOK, "Tanh", "legacy"},
		{legacy("", fb.OpTypeTRANSFORM_STRICT, 29), JavaOK, "Tanh", "legacy"},
		{legacy("and_scalar", fb.OpTypeSCALAR_BOOL, 7), JavaBlocker, "ScalarAdd", "not ScalarAnd"},
		{legacy("mish", fb.OpTypeTRANSFORM_STRICT, 57), JavaBlocker, "", "no class for (TRANSFORM_STRICT, 57)"},
		{legacy("reciprocal", fb.OpTypeTRANSFORM_SAME, 11), JavaWarning, "Reciprocal", `"reciprocal"`},
		{legacy("Reciprocal", fb.OpTypeTRANSFORM_SAME, 11), JavaOK, "Reciprocal", "legacy"},
		{legacy("sum", fb.OpTypeAGGREGATION, 0), JavaBlocker, "", "throws on op type AGGREGATION"},
		// A custom op's axes in FlatNode.dimensions alone are lost.
		{withDims(custom("argmax", ops.Hash("argmax")), nil, 1), JavaBlocker, "ArgMax", "every axis"},
		{withDims(custom("argmax", ops.Hash("argmax")), []int64{1}, 1), JavaOK, "ArgMax", "by hash"},
		{withDims(custom("argmax", ops.Hash("argmax")), nil, ops.AllDims), JavaOK, "ArgMax", "by hash"},
		{withDims(legacy("reduce_sum", fb.OpTypeREDUCE_SAME, 0), nil, 1), JavaOK, "Sum", "legacy"},
	}
	r := &rawGraph{}
	for _, c := range cases {
		r.Nodes = append(r.Nodes, c.node)
	}
	buf, err := encode(r)
	if err != nil {
		t.Fatal(err)
	}
	fs, err := CheckJava(buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != len(cases) {
		t.Fatalf("%d findings for %d nodes", len(fs), len(cases))
	}
	for i, c := range cases {
		f := fs[i]
		if f.Level != c.level || f.JavaClass != c.class || !strings.Contains(f.Message, c.msg) {
			t.Errorf("%s %s %d: got %v (class %q), want %v class %q with %q", c.node.OpName, fb.OpType(c.node.OpType), c.node.OpNum,
				f, f.JavaClass, c.level, c.class, c.msg)
		}
	}
	if _, err := CheckJava([]byte("not a graph")); err == nil {
		t.Error("CheckJava took a buffer that is no graph file")
	}
}

// TestCheckJavaTrainingConfig: a training configuration whose "@class"
// names a class ND4J lacks is a file-level blocker; ND4J's classes pass.
func TestCheckJavaTrainingConfig(t *testing.T) {
	r := chain()
	r.TrainingConfig = `{"updater":{"@class":"org.nd4j.linalg.learning.config.Adam","learningRate":0.001},` +
		`"regularization":[{"@class":"org.nd4j.linalg.learning.regularization.WeightDecay","coeff":{"@class":"org.nd4j.linalg.schedule.FixedSchedule","value":1e-4}}]}`
	fs, err := CheckJava(must(encode(r)))
	if err != nil || len(Blockers(fs)) != 0 || len(fs) != len(r.Nodes) {
		t.Fatalf("ND4J classes: %v %v", fs, err)
	}
	r.TrainingConfig = `{"updater":{"@class":"org.nd4j.linalg.learning.config.AdamW"},"schedule":{"@class":"sdgo.Cosine"}}`
	fs, _ = CheckJava(must(encode(r)))
	b := Blockers(fs)
	if len(b) != 2 || b[0].Node != "" || !strings.Contains(b[1].Message, "AdamW") || !strings.Contains(b[0].Message, "sdgo.Cosine") {
		t.Errorf("findings %v", fs)
	}
	r.TrainingConfig = `{not json`
	if fs, _ = CheckJava(must(encode(r))); len(Blockers(fs)) != 1 {
		t.Errorf("bad JSON: %v", fs)
	}
}
