package serialize

import (
	"encoding/json"
	"fmt"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/serialize/internal/fb"
)

// Report tells what loading a file found that the graph alone does not show.
type Report struct {
	// Unimplemented lists, sorted, the op names of nodes kept as opaque ops
	// because sdgo does not implement them (control-flow ops included). They
	// load and save unchanged, and fail only when run.
	Unimplemented []string
	// Opaque lists the names of every node kept as an opaque op, for
	// whatever reason (Unimplemented, control flow, or a registered op whose
	// inputs it cannot take; Warnings says why).
	Opaque []string
	// NonComputable lists the variables whose dtype sdgo can store but not
	// compute with (half floats, small and unsigned integers, strings, ...).
	// Their arrays are kept byte for byte (in native byte order).
	NonComputable []string
	// PlaceholderValues holds the arrays the file stored for placeholders,
	// by the names in the file. Save writes them back (to the placeholder,
	// also when renamed since) unless SaveOptions gives others.
	PlaceholderValues map[string]*ndarray.Array
	// Warnings describes everything else worth knowing: op numbers that
	// disagree with sdgo's, variables the graph cannot hold (kept and
	// written back as read), loop edges, shapes the file leaves out.
	Warnings []string
}

// ReportOf returns the report of the load that produced g, or nil when g
// was not loaded from a file.
func ReportOf(g *graph.Graph) *Report {
	if fi := fileInfoOf(g); fi != nil {
		return fi.report
	}
	return nil
}

// FileNode is what a loaded op node carries (graph.Op.Opaque): the node as
// the file stored it, so that properties, control dependencies and fields
// sdgo does not model are written back unchanged, and, for nodes kept
// opaque, everything needed to save them.
type FileNode struct {
	// raw is the node without what Save writes afresh (id, name, inputs,
	// outputs, output names), shared by all the nodes of a file that are
	// alike in everything else (see nodeSharer): nodes are mostly
	// empty vectors and repeated op names, and a copy each held more than
	// the file. Nothing changes it.
	raw    *rawNode
	inputs []fileInput
	reason string
}

// fileInput is one input of a file node: an input of the graph op (index
// into Op.Inputs()), or, for an input the graph does not wire (a loop's back
// edge, a string input of Assert), the name of the variable.
type fileInput struct {
	graphIndex int // -1 for an input the graph does not wire
	name       string
}

// OpName returns the op name the file stored.
func (n *FileNode) OpName() string { return n.raw.OpName }

// OpType returns the file's opType (SameDiff's OpType numbering: 21 for
// custom ops, 119 for control flow, the legacy categories below 21).
func (n *FileNode) OpType() int { return int(n.raw.OpType) }

// OpTypeName returns the opType's name, e.g. "CUSTOM".
func (n *FileNode) OpTypeName() string { return fb.OpType(n.raw.OpType).String() }

// OpNum returns the file's opNum: the name hash for custom ops, the legacy
// op number otherwise.
func (n *FileNode) OpNum() int64 { return n.raw.OpNum }

// Inputs returns the names of all the node's inputs as the file gave them,
// including loop back edges that the graph op does not have as inputs.
func (n *FileNode) Inputs() []string {
	out := make([]string, len(n.inputs))
	for i, in := range n.inputs {
		out[i] = in.name
	}
	return out
}

// Properties returns the names of the node's properties.
func (n *FileNode) Properties() []string {
	out := make([]string, len(n.raw.Properties))
	for i := range n.raw.Properties {
		out[i] = n.raw.Properties[i].Name
	}
	return out
}

// Opaque reports why the node is an opaque op ("" for a node that runs as
// a registered op).
func (n *FileNode) Opaque() string { return n.reason }

// metaKey is the graph meta key under which a loaded graph keeps what the
// file said that the graph does not model.
const metaKey = "serialize.file"

// fileInfo is kept in the graph's meta by Load and used by Save.
type fileInfo struct {
	id     int64
	config *rawConfig
	// vars holds the extras of the graph's variables the file gave, keyed
	// by the variable, not its name, so that a rename keeps them.
	vars map[*graph.Variable]*varExtra
	// byFileName maps the file's variable names to the graph's variables.
	// The file's lists that name variables (control dependencies, a loop's
	// back edge kept in a file node, refused losses) are written back
	// through it, under the names the variables have when saved. Ops cannot
	// be renamed, so lists of op names are written as read.
	byFileName map[string]*graph.Variable
	// orphans are variables the graph cannot hold (op outputs no node
	// produces, sequences, unknown kinds), written back as read.
	orphans []rawVariable
	// losses: the file's loss variables, when the graph refused them.
	losses []string
	// outputs: the variables the file's graph outputs name (file names).
	outputs []string
	report  *Report
}

// varExtra is what the file said about a variable beyond its name, kind,
// dtype, shape and value.
type varExtra struct {
	fileName          string // the name in the file (Report.PlaceholderValues' key)
	device            int32
	varType           fb.VarType
	controlDeps       []string
	controlDepForOp   []string
	controlDepsForVar []string
	shapeAbsent       bool           // a placeholder stored without shape
	emptyScalar       *ndarray.Array // the value loaded from an empty rank-0 array
}

func fileInfoOf(g *graph.Graph) *fileInfo {
	if g == nil {
		return nil
	}
	v, _ := g.GetMeta(metaKey)
	fi, _ := v.(*fileInfo)
	return fi
}

// fileName returns the name variable v had in the file, "" when it was
// not in the file. Only an error needs it: plain variables (see plainVar)
// have no varExtra to keep it, and are found by a scan.
func (fi *fileInfo) fileName(v *graph.Variable) string {
	if e := fi.vars[v]; e != nil {
		return e.fileName
	}
	for name, w := range fi.byFileName {
		if w == v {
			return name
		}
	}
	return ""
}

// varName returns the name under which to save a reference to the file's
// variable name: the variable's current name, or name when the file's
// variable is not in the graph.
func (fi *fileInfo) varName(name string) string {
	if fi != nil {
		if v := fi.byFileName[name]; v != nil {
			return v.Name()
		}
	}
	return name
}

// varNames is varName over a list, returning names itself when no name
// changed (a nil list stays nil, an empty one empty).
func (fi *fileInfo) varNames(names []string) []string {
	var out []string
	for i, n := range names {
		if m := fi.varName(n); m != n {
			if out == nil {
				out = append([]string(nil), names...)
			}
			out[i] = m
		}
	}
	if out == nil {
		return names
	}
	return out
}

// trainingConfig is a file's training configuration (SameDiff's
// TrainingConfig JSON) in the graph's meta. The JSON names variables
// (feature and label placeholders, losses, trained variables, evaluations);
// it is read with the names those variables have then, so that a rename
// (graph.Graph.Rename) reaches a trainer made from it (train.ConfigOf) and
// the file saved. Until a variable it names is renamed it is the file's text.
type trainingConfig struct {
	text string
	fi   *fileInfo
}

// The fields of SameDiff's TrainingConfig that name variables: lists of
// names, and maps keyed by name.
var (
	configNameLists = []string{"dataSetFeatureMapping", "dataSetLabelMapping", "dataSetFeatureMaskMapping",
		"dataSetLabelMaskMapping", "lossVariables", "trainableParams"}
	configNameMaps = []string{"trainEvaluations", "trainEvaluationLabels", "validationEvaluations",
		"validationEvaluationLabels"}
)

// MarshalJSON returns the configuration's JSON with the current names.
func (c trainingConfig) MarshalJSON() ([]byte, error) {
	var top map[string]json.RawMessage
	if json.Unmarshal([]byte(c.text), &top) != nil || top == nil {
		return []byte(c.text), nil // not an object: nothing to rename in it
	}
	changed := false
	set := func(key string, v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("the training configuration's %s: %w", key, err)
		}
		top[key], changed = b, true
		return nil
	}
	for _, key := range configNameLists {
		// Element by element: one that is not a name (null, a number)
		// stays as read, and so does a value that is not a list.
		var elems []json.RawMessage
		if json.Unmarshal(top[key], &elems) != nil {
			continue
		}
		renamed := false
		for i, e := range elems {
			var name string
			if len(e) == 0 || e[0] != '"' || json.Unmarshal(e, &name) != nil {
				continue
			}
			if n := c.fi.varName(name); n != name {
				b, err := json.Marshal(n)
				if err != nil {
					return nil, fmt.Errorf("the training configuration's %s: %w", key, err)
				}
				elems[i], renamed = b, true
			}
		}
		if renamed {
			if err := set(key, elems); err != nil {
				return nil, err
			}
		}
	}
	for _, key := range configNameMaps {
		var m map[string]json.RawMessage
		if json.Unmarshal(top[key], &m) != nil {
			continue
		}
		renamed := make(map[string]json.RawMessage, len(m))
		from := make(map[string]string, len(m))
		differs := false
		for name, v := range m {
			n := c.fi.varName(name)
			if prev, dup := from[n]; dup {
				// A variable renamed to a name the map has an entry
				// for (one naming no variable of the file): keeping
				// one entry would drop the other.
				was := prev
				if was == n {
					was = name
				}
				return nil, fmt.Errorf("the training configuration's %s has entries for %q and %q, and variable %q is now named %q: "+
					"one of them would be lost; give the variable another name (graph.Graph.Rename)", key, n, was, was, n)
			}
			from[n] = name
			renamed[n] = v
			differs = differs || n != name
		}
		if differs {
			if err := set(key, renamed); err != nil {
				return nil, err
			}
		}
	}
	if !changed {
		return []byte(c.text), nil
	}
	return json.Marshal(top)
}
