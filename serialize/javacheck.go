package serialize

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ops"
	"github.com/sdgo/sdgo/serialize/internal/fb"
)

// Checking a file against SameDiff's (Java's) loader.
//
// FlatBuffersMapper.fromFlatNode finds a node's Java class in one of two
// ways. CUSTOM, LOGIC and UDF nodes go through customOpClassForHashAndName:
// a few names are special-cased (create_view and the control-flow
// primitives); otherwise the hash in opNum picks the class (by the exact
// opName among the classes when several share the hash, whatever opName
// says when one class has it), and only a hash no class has falls back to
// the name map; anything else throws. Every other type goes to
// LegacyOpMapper by (opType, opNum), the name ignored. A node Java cannot
// place fails the whole load; a node placed in the wrong class loads as a
// different op, silently.
//
// javaops.tsv is the table of the names in Java's
// DifferentialFunctionClassHolder (deeplearning4j at 8129c4ac), with each
// name's type, legacy number or libnd4j hash, class, and how the loader
// would resolve a node carrying it. It is a copy of the reference table the
// team keeps; the repository reads only this copy.

//go:embed javaops.tsv
var javaOpsTSV string

// FindingLevel says whether Java loads a node.
type FindingLevel int

const (
	// JavaOK: Java loads the node as the op it names.
	JavaOK FindingLevel = iota
	// JavaWarning: Java loads the node, but something about it is worth a
	// look (a name Java does not know that the hash resolves, ...).
	JavaWarning
	// JavaBlocker: Java cannot load the node, or loads it as a different op
	// or with different arguments. A file with a blocker does not move to
	// Java.
	JavaBlocker
)

func (l FindingLevel) String() string {
	switch l {
	case JavaOK:
		return "ok"
	case JavaWarning:
		return "warning"
	case JavaBlocker:
		return "BLOCKER"
	}
	return fmt.Sprintf("FindingLevel(%d)", int(l))
}

// Finding is what CheckJava says about one node of a file (or the file as a
// whole, when Node is empty).
type Finding struct {
	Node   string // the node's name; empty for the file as a whole
	OpName string // FlatNode.opName
	OpType string // FlatNode.opType, by its schema name
	OpNum  int64  // FlatNode.opNum: a legacy number or a libnd4j hash
	// JavaClass is the class Java instantiates for the node, empty when
	// it finds none.
	JavaClass string
	Level     FindingLevel
	Message   string // why it is not ok; how Java resolves it otherwise
}

func (f Finding) String() string {
	where := "file"
	if f.Node != "" {
		where = fmt.Sprintf("node %q (%s %s %d)", f.Node, f.OpName, f.OpType, f.OpNum)
	}
	return fmt.Sprintf("%s %s: %s", f.Level, where, f.Message)
}

// Blockers returns the findings that keep a file from loading in Java.
func Blockers(fs []Finding) []Finding {
	var out []Finding
	for _, f := range fs {
		if f.Level == JavaBlocker {
			out = append(out, f)
		}
	}
	return out
}

// CheckJavaFile is CheckJava on the file at path, read as Load reads it (a
// stream that is not a regular file up to MaxStreamSize).
func CheckJavaFile(path string) ([]Finding, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("serialize: %w", err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, fmt.Errorf("serialize: %s is a directory, not a graph file", path)
	}
	b, err := readAll(context.Background(), f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	fs, err := CheckJava(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return fs, nil
}

// CheckJavaGraph is CheckJava on g as Encode writes it with opts.
func CheckJavaGraph(g *graph.Graph, opts *SaveOptions) ([]Finding, error) {
	b, err := Encode(g, opts)
	if err != nil {
		return nil, err
	}
	return CheckJava(b)
}

// CheckJava reports, node by node in file order, whether SameDiff (Java)
// can load the graph file in data (and, after the nodes, a finding with no
// Node for each class of the training configuration ND4J lacks): the class its loader instantiates, and a
// blocker where it finds none, finds a class of another op, or would drop
// the op's arguments. It reads the file's nodes as they are, so it checks
// files with ops sdgo lacks too. The error is for a buffer that is not a
// graph file.
func CheckJava(data []byte) ([]Finding, error) {
	r, err := decode(data)
	if err != nil {
		return nil, fmt.Errorf("serialize: %w", err)
	}
	t := javaTable()
	out := make([]Finding, 0, len(r.Nodes))
	for i := range r.Nodes {
		out = append(out, t.check(&r.Nodes[i]))
	}
	return append(out, checkTrainingConfig(r.TrainingConfig)...), nil
}

// nd4jConfigClasses are the updater, schedule and regularization classes
// ND4J has (OPS.md §8), the "@class" values Jackson can read in a training
// configuration. RampSchedule is not among them: ND4J has the class, but
// neither a constructor Jackson can call (no @JsonProperty, no default
// constructor) nor getters, so a configuration holding one does not parse.
var nd4jConfigClasses = func() map[string]bool {
	m := map[string]bool{}
	for pkg, names := range map[string]string{
		"org.nd4j.linalg.learning.config.":         "Sgd Adam AdaMax Nadam AMSGrad AdaBelief AdaGrad AdaDelta RmsProp Nesterovs NoOp",
		"org.nd4j.linalg.schedule.":                "FixedSchedule ExponentialSchedule InverseSchedule PolySchedule SigmoidSchedule StepSchedule MapSchedule CycleSchedule CosineWarmupSchedule",
		"org.nd4j.linalg.learning.regularization.": "L1Regularization L2Regularization WeightDecay",
	} {
		for _, n := range strings.Fields(names) {
			m[pkg+n] = true
		}
	}
	return m
}()

// checkTrainingConfig reports each "@class" of a training configuration
// that ND4J does not have: Jackson cannot parse the configuration then, and
// the load fails.
func checkTrainingConfig(js string) []Finding {
	var out []Finding
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if c, ok := x["@class"].(string); ok && !nd4jConfigClasses[c] {
				out = append(out, Finding{Level: JavaBlocker, JavaClass: c, Message: configClassMessage(c, x)})
			}
			for _, k := range slices.Sorted(maps.Keys(x)) {
				walk(x[k])
			}
		case []any:
			for _, y := range x {
				walk(y)
			}
		}
	}
	if js == "" {
		return nil
	}
	var v any
	if err := json.Unmarshal([]byte(js), &v); err != nil {
		return []Finding{{Level: JavaBlocker, Message: fmt.Sprintf("the training configuration is not JSON: %v", err)}}
	}
	walk(v)
	return out
}

// configClassMessage says why the training configuration's object m, of
// class c, does not move to Java, naming the setting where sdgo wrote it
// (train's "sdgo." classes).
func configClassMessage(c string, m map[string]any) string {
	switch c {
	case "sdgo.Momentum":
		return fmt.Sprintf("the training configuration's updater is classic momentum (momentum %v, Nesterov off), which ND4J has no updater for: "+
			"its Nesterovs steps otherwise; train with Nesterov momentum to move the configuration to Java", m["momentum"])
	case "sdgo.Schedule":
		return fmt.Sprintf("the training configuration has a schedule of Go type %v, which is none of ND4J's ISchedule classes", m["type"])
	case "org.nd4j.linalg.schedule.RampSchedule":
		return fmt.Sprintf("the training configuration has a Ramp schedule (numIter %v): ND4J's RampSchedule has no constructor Jackson can call, so Java cannot parse it; "+
			"warm up with CosineWarmup or a Map schedule to move the configuration to Java", m["numIter"])
	}
	return fmt.Sprintf("the training configuration names class %q, which ND4J does not have: Jackson cannot parse it", c)
}

// javaOp is one row of javaops.tsv.
type javaOp struct {
	name, class string
	typ         fb.OpType // -1 for the classes with no op type
	num         int64     // legacy number, or hash for CUSTOM
	failing     bool      // Java cannot load a node of this name (its row says FAILS or not loadable)
}

// javaOps indexes javaops.tsv the ways the loader looks.
type javaOps struct {
	byName   map[string]*javaOp
	byHash   map[int64][]*javaOp // CUSTOM rows with a non-zero hash
	byLegacy map[[2]int64]string // (opType, opNum) -> the class LegacyOpMapper gives
	logicNum map[string]int64    // the control-flow names Java special-cases, with their LOGIC numbers
	special  map[string]string   // other names special-cased by the loader -> class
}

var (
	javaOnce sync.Once
	javaTab  *javaOps
)

func javaTable() *javaOps {
	javaOnce.Do(func() { javaTab = parseJavaOps(javaOpsTSV) })
	return javaTab
}

func parseJavaOps(tsv string) *javaOps {
	t := &javaOps{byName: map[string]*javaOp{}, byHash: map[int64][]*javaOp{}, byLegacy: map[[2]int64]string{},
		// FlatBuffersMapper's special cases (OPS.md §1), with the opNum
		// its writer gives the control-flow primitives.
		logicNum: map[string]int64{"enter": 100, "exit": 90, "next_iteration": 80, "merge": 60, "switch": 30, "loop_cond": 70},
		special:  map[string]string{"create_view": "CreateView"},
	}
	typeOf := map[string]fb.OpType{}
	for v, name := range fb.EnumNamesOpType {
		typeOf[name] = v
	}
	for i, line := range strings.Split(strings.TrimSpace(tsv), "\n") {
		f := strings.Split(line, "\t")
		if i == 0 || len(f) < 5 {
			continue
		}
		o := &javaOp{name: f[0], class: f[3], typ: -1}
		if ty, ok := typeOf[f[1]]; ok {
			o.typ = ty
		}
		o.num, _ = strconv.ParseInt(f[2], 10, 64)
		how := f[4]
		o.failing = strings.HasPrefix(how, "FAILS") || strings.HasPrefix(how, "not writable")
		t.byName[o.name] = o
		switch {
		case o.typ == fb.OpTypeCUSTOM:
			if o.num != 0 {
				t.byHash[o.num] = append(t.byHash[o.num], o)
			}
		case o.typ >= 0 && o.typ != fb.OpTypeLOGIC && strings.HasPrefix(how, "legacy"):
			class := o.class
			if _, to, ok := strings.Cut(how, "-> "); ok {
				class, _, _ = strings.Cut(to, " ")
			}
			t.byLegacy[[2]int64{int64(o.typ), o.num}] = class
		}
	}
	return t
}

// check says how Java's loader places node n.
func (t *javaOps) check(n *rawNode) Finding {
	f := Finding{Node: n.Name, OpName: n.OpName, OpType: fb.OpType(n.OpType).String(), OpNum: n.OpNum}
	if f.Node == "" && len(n.OutputNames) > 0 {
		f.Node = n.OutputNames[0]
	}
	block := func(format string, a ...any) Finding {
		f.Level, f.Message = JavaBlocker, fmt.Sprintf(format, a...)
		return f
	}
	switch n.OpType {
	case fb.OpTypeCUSTOM, fb.OpTypeLOGIC, fb.OpTypeUDF:
		if num, ok := t.logicNum[n.OpName]; ok {
			if n.OpType != fb.OpTypeLOGIC || n.OpNum != num {
				return block("Java reads the control-flow op %q only as a LOGIC node with opNum %d", n.OpName, num)
			}
			f.JavaClass = t.byName[n.OpName].classOr(n.OpName)
			f.Message = "special-cased by name"
			return t.args(n, f)
		}
		if c, ok := t.special[n.OpName]; ok {
			f.JavaClass, f.Message = c, "special-cased by name"
			return t.args(n, f)
		}
		if n.OpType == fb.OpTypeLOGIC {
			return block("Java's loader knows no LOGIC op %q", n.OpName)
		}
		named := t.byName[n.OpName]
		if rows := t.byHash[n.OpNum]; len(rows) > 0 {
			classes := map[string]bool{}
			for _, r := range rows {
				classes[r.class] = true
			}
			if len(classes) > 1 {
				for _, r := range rows {
					if r.name == n.OpName {
						f.JavaClass, f.Message = r.class, "by hash and name"
						return t.args(n, f)
					}
				}
				return block("opNum %d is the hash of %s, which Java tells apart by name; %q is none of them, so it throws \"Could not find class for hash\"",
					n.OpNum, rowNames(rows), n.OpName)
			}
			f.JavaClass = rows[0].class
			if named != nil && named.class != f.JavaClass {
				return block("opNum %d is the hash of %s, so Java loads class %s, not %s that %q names", n.OpNum, rowNames(rows),
					f.JavaClass, named.class, n.OpName)
			}
			f.Message = "by hash"
			if named == nil {
				f.Level = JavaWarning
				f.Message = fmt.Sprintf("Java does not know the name %q; its hash %d loads class %s (%s)", n.OpName, n.OpNum,
					f.JavaClass, rowNames(rows))
			}
			return t.args(n, f)
		}
		if named == nil {
			return block("Java knows neither the name %q nor the hash %d: the load throws \"No op known for hash\"", n.OpName, n.OpNum)
		}
		if named.failing {
			return block("Java's class %s for %q cannot be loaded", named.class, n.OpName)
		}
		f.JavaClass, f.Message = named.class, "by name"
		if named.typ == fb.OpTypeCUSTOM && named.num != 0 && named.num != n.OpNum {
			f.Level = JavaWarning
			f.Message = fmt.Sprintf("by name; opNum %d is not the hash %d Java writes for it", n.OpNum, named.num)
		}
		return t.args(n, f)
	}
	if _, ok := fb.EnumNamesOpType[n.OpType]; !ok || n.OpType == fb.OpTypeAGGREGATION || n.OpType >= fb.OpTypeGRAPH {
		return block("Java's LegacyOpMapper throws on op type %s", fb.OpType(n.OpType))
	}
	class, ok := t.byLegacy[[2]int64{int64(n.OpType), n.OpNum}]
	if !ok {
		return block("LegacyOpMapper has no class for (%s, %d)", fb.OpType(n.OpType), n.OpNum)
	}
	f.JavaClass = class
	named := t.byName[n.OpName]
	switch {
	case named != nil && named.class != class:
		return block("Java ignores the name of a legacy node and loads (%s, %d) as class %s, not %s that %q names",
			fb.OpType(n.OpType), n.OpNum, class, named.class, n.OpName)
	case named == nil && n.OpName != "":
		f.Level = JavaWarning
		f.Message = fmt.Sprintf("Java does not know the name %q; (%s, %d) loads class %s", n.OpName, fb.OpType(n.OpType), n.OpNum, class)
	default:
		f.Message = "legacy (opType, opNum)"
	}
	return t.args(n, f)
}

// args checks what Java restores of a node it places: a custom op gets its
// iArgs, never FlatNode.dimensions, so axes kept there alone are lost.
func (t *javaOps) args(n *rawNode, f Finding) Finding {
	if n.OpType == fb.OpTypeCUSTOM && len(n.ExtraInteger) == 0 && len(n.Dimensions) > 0 &&
		!(len(n.Dimensions) == 1 && n.Dimensions[0] == ops.AllDims) {
		f.Level = JavaBlocker
		f.Message = fmt.Sprintf("axes %v are only in FlatNode.dimensions, which Java ignores for a custom op: it would reduce over every axis",
			n.Dimensions)
	}
	if n.OpType == fb.OpTypeCUSTOM && f.Level != JavaBlocker {
		if msg := javaPropsMisread(n); msg != "" {
			f.Level, f.Message = JavaBlocker, msg
		}
	}
	return f
}

func (o *javaOp) classOr(def string) string {
	if o == nil {
		return def
	}
	return o.class
}

func rowNames(rows []*javaOp) string {
	s := make([]string, len(rows))
	for i, r := range rows {
		s[i] = strconv.Quote(r.name)
	}
	return strings.Join(s, ", ")
}
