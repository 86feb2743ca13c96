package serialize

import (
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
// config, Concat's concatDimension, Cast's typeDst likewise). sdgo writes
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
