package ndarray

import (
	"fmt"
	"math"
)

// DType is an element type. The values are those of SameDiff's DType enum, so
// a dtype read from a graph file needs no translation.
type DType uint8

// The dtypes of SameDiff's schema (Half is IEEE float16, Half2 a pair of
// them, BFloat16 bfloat16, QInt8 and QInt16 quantized integers). Only Bool,
// Float32, Float64, Int32 and Int64 are Computable; arrays of the others
// can be read, held and written back. UTF8, UTF16 and UTF32 hold strings,
// whose elements have no fixed size.
const (
	Invalid  DType = 0 // SameDiff's INHERIT: no dtype
	Bool     DType = 1
	Float8   DType = 2
	Half     DType = 3
	Half2    DType = 4
	Float32  DType = 5
	Float64  DType = 6
	Int8     DType = 7
	Int16    DType = 8
	Int32    DType = 9
	Int64    DType = 10
	Uint8    DType = 11
	Uint16   DType = 12
	Uint32   DType = 13
	Uint64   DType = 14
	QInt8    DType = 15
	QInt16   DType = 16
	BFloat16 DType = 17
	UTF8     DType = 50
	UTF16    DType = 51
	UTF32    DType = 52
)

// dtypeInfo describes the dtypes, indexed by value (an array, not a map:
// Size is asked for on every array operation). Values SameDiff's enum does
// not use have no name.
var dtypeInfo = [UTF32 + 1]struct {
	name string
	size int // bytes per element; 0 for variable-length (strings)
}{
	Invalid: {"invalid", 0}, Bool: {"bool", 1}, Float8: {"float8", 1}, Half: {"float16", 2},
	Half2: {"half2", 4}, Float32: {"float32", 4}, Float64: {"float64", 8}, Int8: {"int8", 1},
	Int16: {"int16", 2}, Int32: {"int32", 4}, Int64: {"int64", 8}, Uint8: {"uint8", 1},
	Uint16: {"uint16", 2}, Uint32: {"uint32", 4}, Uint64: {"uint64", 8}, QInt8: {"qint8", 1},
	QInt16: {"qint16", 2}, BFloat16: {"bfloat16", 2}, UTF8: {"utf8", 0}, UTF16: {"utf16", 0},
	UTF32: {"utf32", 0},
}

// String returns the dtype's lower-case name, for example "float32".
func (d DType) String() string {
	if d.Known() || d == Invalid {
		return dtypeInfo[d].name
	}
	return fmt.Sprintf("dtype(%d)", uint8(d))
}

// Known reports whether d is one of the dtypes of SameDiff's schema.
func (d DType) Known() bool {
	return int(d) < len(dtypeInfo) && dtypeInfo[d].name != "" && d != Invalid
}

// Size is the number of bytes of one element, or 0 for string dtypes and
// Invalid.
func (d DType) Size() int {
	if int(d) < len(dtypeInfo) {
		return dtypeInfo[d].size
	}
	return 0
}

// Computable reports whether sdgo can compute with arrays of this dtype.
// Arrays of other dtypes can be stored, loaded and saved, but not used by ops.
func (d DType) Computable() bool {
	switch d {
	case Bool, Float32, Float64, Int32, Int64:
		return true
	}
	return false
}

// IsNumeric reports whether sdgo does arithmetic on d: the computable
// dtypes but Bool.
func (d DType) IsNumeric() bool { return d.Computable() && d != Bool }

// IsFloat reports whether d is a floating-point dtype.
func (d DType) IsFloat() bool {
	switch d {
	case Float8, Half, Half2, Float32, Float64, BFloat16:
		return true
	}
	return false
}

// IsInt reports whether d is an integer dtype (signed or unsigned).
func (d DType) IsInt() bool {
	switch d {
	case Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64:
		return true
	}
	return false
}

// ParseDType accepts the names String returns and a few common aliases.
func ParseDType(s string) (DType, error) {
	switch s {
	case "float", "float32", "f32":
		return Float32, nil
	case "double", "float64", "f64":
		return Float64, nil
	case "int", "int32", "i32":
		return Int32, nil
	case "long", "int64", "i64":
		return Int64, nil
	case "bool", "boolean":
		return Bool, nil
	}
	for d, i := range dtypeInfo {
		if i.name == s && i.name != "" && DType(d) != Invalid {
			return DType(d), nil
		}
	}
	return Invalid, fmt.Errorf("ndarray: unknown dtype %q", s)
}

// Elem is the set of Go types that back the computable dtypes.
type Elem interface {
	~float32 | ~float64 | ~int32 | ~int64 | ~bool
}

// Num is the set of numeric element types.
type Num interface {
	~float32 | ~float64 | ~int32 | ~int64
}

// Float is the set of floating-point element types.
type Float interface{ ~float32 | ~float64 }

// DTypeOf returns the dtype backed by the Go type T.
func DTypeOf[T Elem]() DType {
	var z T
	switch any(z).(type) {
	case float32:
		return Float32
	case float64:
		return Float64
	case int32:
		return Int32
	case int64:
		return Int64
	case bool:
		return Bool
	}
	return Invalid
}

// lowest and highest return the extreme values of T, used as the identities
// of max and min reductions.
func lowest[T Num]() T {
	var z T
	switch any(z).(type) {
	case float32, float64:
		return T(math.Inf(-1))
	case int32:
		return T(math.MinInt32)
	default:
		var v int64 = math.MinInt64
		return T(v)
	}
}

func highest[T Num]() T {
	var z T
	switch any(z).(type) {
	case float32, float64:
		return T(math.Inf(1))
	case int32:
		return T(math.MaxInt32)
	default:
		var v int64 = math.MaxInt64
		return T(v)
	}
}
