package serialize

import "github.com/sdgo/sdgo/serialize/internal/fb"

// The raw layer: plain Go structs that mirror the FlatGraph tables one to
// one. decode fills them from a buffer, encode writes them back. Nothing here
// interprets ops or arrays; the graph-level code above converts between these
// structs and the engine's graph.
//
// Conventions kept so that decode(encode(g)) == g (reflect.DeepEqual):
//   - a nil slice means "field absent", a non-nil empty slice means "present,
//     zero elements"; encode writes a vector exactly when the slice is non-nil;
//   - a nil pointer means an absent sub-table;
//   - strings are written only when non-empty (absent and "" read the same);
//   - enum fields keep the raw byte, so values this schema does not know
//     (a newer VarType or DType) survive a round trip.

// rawIntPair mirrors IntPair: (node id, output index) when naming an op output.
type rawIntPair struct {
	First  int32
	Second int32
}

// rawArray mirrors FlatArray.
type rawArray struct {
	// ShapeInfo is libnd4j's shape-info vector; see parseShapeInfo.
	ShapeInfo []int64
	// Buffer holds the raw element bytes in ByteOrder. After decode it may
	// alias the input buffer (no copy; see detachArrays): the caller must not
	// modify the input while the rawGraph is in use, and must copy before
	// changing the bytes.
	Buffer    []byte
	DType     fb.DType
	ByteOrder fb.ByteOrder
}

// rawProperties mirrors FlatProperties.
type rawProperties struct {
	Name  string
	I     []int32
	L     []int64
	D     []float64
	A     []rawArray
	B     []bool
	S     []string
	Shape []int32
}

// rawVariable mirrors FlatVariable.
type rawVariable struct {
	ID                *rawIntPair
	Name              string
	DType             fb.DType
	Shape             []int64 // placeholders: -1 = unknown
	Array             *rawArray
	Device            int32
	VarType           fb.VarType
	ControlDeps       []string
	ControlDepForOp   []string
	ControlDepsForVar []string
}

// rawNode mirrors FlatNode; every field is kept so that ops the engine does
// not know survive load/save unchanged.
type rawNode struct {
	ID             int32
	Name           string
	OpType         fb.OpType
	OpNum          int64
	Properties     []rawProperties
	Input          []int32
	InputPaired    []rawIntPair
	Output         []int32
	ExtraParams    []float64 // float args
	ExtraInteger   []int64   // int args
	ExtraBools     []bool    // bool args
	Dimensions     []int32
	Device         int32
	ScopeID        int32
	ScopeName      string
	OutputNames    []string
	OpName         string
	OutputTypes    []fb.DType
	Scalar         *rawArray
	ControlDeps    []string
	VarControlDeps []string
	ControlDepFor  []string
	ExtraTypes     []fb.DType // dtype args
	ExtraStrings   []string   // string args
}

// rawConfig mirrors FlatConfiguration.
type rawConfig struct {
	ID                int64
	ExecutionMode     fb.ExecutionMode
	ProfilingMode     fb.ProfilingMode
	OutputMode        fb.OutputMode
	Timestats         bool
	FootprintForward  int64
	FootprintBackward int64
	Direction         fb.Direction
}

// rawUpdaterState mirrors UpdaterState: one parameter's updater arrays.
type rawUpdaterState struct {
	ParamName string
	Keys      []string
	Values    []rawArray
}

// rawGraph mirrors FlatGraph, the root table of a file.
type rawGraph struct {
	ID             int64
	Variables      []rawVariable
	Nodes          []rawNode
	Outputs        []rawIntPair
	Config         *rawConfig
	Placeholders   []string
	LossVariables  []string
	TrainingConfig string // JSON
	UpdaterState   []rawUpdaterState
}
