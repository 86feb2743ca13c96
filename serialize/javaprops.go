package serialize

import (
	"fmt"
	"slices"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// The properties Java's op classes restore when they load a node.
//
// FlatBuffersMapper hands a node's FlatProperties to the class's
// setPropertiesForFunction, and several classes build their state from
// those alone: a node without them loads with the class's defaults, which
// are not the arguments the node carries (SoftMax's dimension field starts
// at 1 whatever iArg 0 says, and its gradient uses the field; Conv2D's
// config, Concat's concatDimension, Cast's typeDst likewise; LSTMLayer runs
// with the int and float args its config gives, not the file's). sdgo writes
// them beside the arguments, as SameDiff's writer does from
// propertiesForFunction: ints as i, longs as l, enums and data types by
// name as s. sdgo itself reads the arguments, so the properties change
// nothing on a reload.

// javaDataTypeNames are ND4J's DataType constant names.
var javaDataTypeNames = map[ndarray.DType]string{
	ndarray.Float32: "FLOAT", ndarray.Float64: "DOUBLE", ndarray.Half: "HALF", ndarray.BFloat16: "BFLOAT16",
	ndarray.Int8: "BYTE", ndarray.Int16: "SHORT", ndarray.Int32: "INT", ndarray.Int64: "LONG",
	ndarray.Uint8: "UBYTE", ndarray.Uint16: "UINT16", ndarray.Uint32: "UINT32", ndarray.Uint64: "UINT64",
	ndarray.Bool: "BOOL", ndarray.UTF8: "UTF8",
}

// javaProps returns the properties Java's class for op def restores, from
// the op's arguments a and output dtypes (nil for the ops that need none).
func javaProps(def *ops.Def, a *ops.Args, outs []ndarray.DType) []rawProperties {
	i32 := func(name string, v int64) rawProperties { return rawProperties{Name: name, I: []int32{int32(v)}} }
	switch def.Name {
	case "softmax":
		return []rawProperties{i32("dimension", a.Int(0, -1))}
	case "concat":
		return []rawProperties{i32("concatDimension", a.Int(0, 0)), {Name: "isDynamicAxis", B: []bool{false}}}
	case "cast":
		if len(outs) == 1 {
			if name, ok := javaDataTypeNames[outs[0]]; ok {
				return []rawProperties{{Name: "typeDst", S: []string{name}}}
			}
		}
	case "lstmLayer":
		return lstmLayerProps(a)
	case "conv2d":
		if len(a.I) < 9 {
			return nil
		}
		var out []rawProperties
		for k, name := range []string{"kH", "kW", "sH", "sW", "pH", "pW", "dH", "dW"} {
			out = append(out, rawProperties{Name: name, L: []int64{a.I[k]}})
		}
		enum := func(name string, k int, names ...string) {
			v := a.Int(k, 0)
			if v >= 0 && int(v) < len(names) {
				out = append(out, rawProperties{Name: name, S: []string{names[v]}})
			}
		}
		enum("paddingMode", 8, "VALID", "SAME", "CAUSAL")
		enum("dataFormat", 9, "NCHW", "NHWC")
		enum("weightsFormat", 10, "YXIO", "OIYX", "OYXI")
		return out
	}
	return nil
}

// ND4J's enums of lstmLayer's options, by ordinal (libnd4j's codes).
var (
	javaLSTMActs       = []string{"TANH", "RELU", "SIGMOID", "AFFINE", "LEAKY_RELU", "THRESHHOLD_RELU", "SCALED_TAHN", "HARD_SIGMOID", "ELU", "SOFTSIGN", "SOFTPLUS"}
	javaLSTMFormats    = []string{"TNS", "NTS", "NST", "T2NS"}
	javaLSTMDirections = []string{"FWD", "BWD", "BIDIR_SUM", "BIDIR_CONCAT", "BIDIR_EXTRA_DIM"}
)

// lstmLayerProps are the properties Java's LSTMLayer builds its config
// from. A loaded LSTMLayer never keeps the file's int and float args: its
// iArgs() and tArgs() are computed from that config, and the config's
// defaults (one output, sigmoid/tanh/tanh) stand for whatever is missing.
// Its iArgs() put outAct at 3 and cellAct at 4, where libnd4j reads
// cellAct at 3 and outAct at 4; so the property outAct names the code at
// iArg 3 and cellAct the one at 4, which makes the iArgs Java computes the
// ones in the file, run by libnd4j as sdgo runs them.
func lstmLayerProps(a *ops.Args) []rawProperties {
	if len(a.I) < 5 || len(a.B) < 8 {
		return nil
	}
	var out []rawProperties
	enum := func(name string, v int64, names []string) {
		if v >= 0 && int(v) < len(names) {
			out = append(out, rawProperties{Name: name, S: []string{names[v]}})
		}
	}
	enum("gateAct", a.I[2], javaLSTMActs)
	enum("outAct", a.I[3], javaLSTMActs)
	enum("cellAct", a.I[4], javaLSTMActs)
	for k, name := range []string{"retFullSequence", "retLastH", "retLastC"} {
		out = append(out, rawProperties{Name: name, B: []bool{a.B[5+k]}})
	}
	out = append(out, rawProperties{Name: "cellClip", D: []float64{a.Float(0, 0)}})
	enum("lstmdataformat", a.I[0], javaLSTMFormats)
	enum("directionMode", a.I[1], javaLSTMDirections)
	return out
}

// javaScalarDefault is the scalar written for a legacy scalar op whose
// arguments give none: Java's RectifiedLinear takes its cutoff from
// FlatNode.scalar (its gradient reads it too), and sdgo's relu is the cutoff
// 0. Loading drops it again (argsFromNode).
var javaScalarDefault = map[string]float64{"relu": 0}

// setProps puts ps into n's properties, replacing any of the same names.
func setProps(n *rawNode, ps []rawProperties) {
	if len(ps) == 0 {
		return
	}
	out := make([]rawProperties, 0, len(n.Properties)+len(ps))
	for _, p := range n.Properties {
		replaced := false
		for _, q := range ps {
			replaced = replaced || q.Name == p.Name
		}
		if !replaced {
			out = append(out, p)
		}
	}
	n.Properties = append(out, ps...)
}

// javaPropsMisread says how Java's class for custom node n would run it
// otherwise than its arguments say ("" when it would not), for the classes
// that rebuild their state from the node's properties (the defaults where
// a property is missing) rather than from its arguments.
func javaPropsMisread(n *rawNode) string {
	switch n.OpName {
	case "lstmLayer":
		// LSTMLayer's iArgs() and tArgs() come from its config alone.
		if len(n.ExtraInteger) < 5 || len(n.ExtraBools) < 8 {
			return ""
		}
		for k, code := range n.ExtraInteger[2:5] {
			if lstmActTakesAlpha(code) {
				return fmt.Sprintf("int arg %d is activation %d, which takes an alpha: Java's LSTMLayer passes libnd4j its cell clip alone as float args, never an activation's alpha or beta",
					2+k, code)
			}
		}
		acts := func(name string, def int64) int64 { return propEnum(n, name, javaLSTMActs, def) }
		iArgs := []int64{propEnum(n, "lstmdataformat", javaLSTMFormats, 0), propEnum(n, "directionMode", javaLSTMDirections, 0),
			acts("gateAct", 2), acts("outAct", 0), acts("cellAct", 0)}
		if !slices.Equal(iArgs, n.ExtraInteger[:5]) {
			return fmt.Sprintf("Java's LSTMLayer computes its int args from the node's properties (gateAct, outAct, cellAct, lstmdataformat, directionMode), which give %v, not the node's %v",
				iArgs, n.ExtraInteger[:5])
		}
		rets := []bool{propBool(n, "retFullSequence", true), propBool(n, "retLastH", false), propBool(n, "retLastC", false)}
		if !slices.Equal(rets, n.ExtraBools[5:8]) {
			return fmt.Sprintf("Java's LSTMLayer counts its outputs from the properties retFullSequence, retLastH, retLastC, which say %v, not the node's bool args %v",
				rets, n.ExtraBools[5:8])
		}
		clip := 0.0
		if len(n.ExtraParams) > 0 {
			clip = n.ExtraParams[0]
		}
		if c := propFloat(n, "cellClip", 0); c != clip {
			return fmt.Sprintf("Java's LSTMLayer takes its cell clip from the property cellClip, %g, not the node's float arg %g", c, clip)
		}
	case "conv2d":
		// Conv2D's gradient (conv2d_bp) is configured from the config the
		// properties build, which never holds a weights format.
		if len(n.ExtraInteger) > 10 && n.ExtraInteger[10] != 0 {
			return fmt.Sprintf("int arg 10 (weightsFormat) is %d: Java's Conv2D does not restore the weights format, so a gradient Java builds for it reads the weights as [kH, kW, iC, oC]; save the weights in that layout (weightsFormat 0)",
				n.ExtraInteger[10])
		}
	}
	return ""
}

// lstmActTakesAlpha reports whether lstmLayer's activation code reads an
// alpha float arg (libnd4j's affine, leaky relu, thresholded relu, scaled
// tanh, elu).
func lstmActTakesAlpha(code int64) bool {
	switch code {
	case 3, 4, 5, 6, 8:
		return true
	}
	return false
}

// prop returns n's property of the given name.
func prop(n *rawNode, name string) *rawProperties {
	for i := range n.Properties {
		if n.Properties[i].Name == name {
			return &n.Properties[i]
		}
	}
	return nil
}

// propEnum is the ordinal of n's enum property name in names (Java reads
// it by Enum.valueOf), or def when n has none.
func propEnum(n *rawNode, name string, names []string, def int64) int64 {
	if p := prop(n, name); p != nil && len(p.S) == 1 {
		return int64(slices.Index(names, p.S[0]))
	}
	return def
}

func propBool(n *rawNode, name string, def bool) bool {
	if p := prop(n, name); p != nil && len(p.B) == 1 {
		return p.B[0]
	}
	return def
}

// propFloat reads a number property as Java's getDoubleValueFromProperty
// does: of whichever numeric type it was written.
func propFloat(n *rawNode, name string, def float64) float64 {
	p := prop(n, name)
	switch {
	case p == nil:
	case len(p.D) > 0:
		return p.D[0]
	case len(p.L) > 0:
		return float64(p.L[0])
	case len(p.I) > 0:
		return float64(p.I[0])
	}
	return def
}
