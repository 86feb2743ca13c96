package ndarray

import (
	"strconv"
	"testing"
)

// Every dtype of SameDiff's enum has its name, size and Known, and parses
// back from its name; values the enum does not use are unknown, print their
// number and have size 0.
func TestDTypeTable(t *testing.T) {
	want := map[DType]struct {
		name string
		size int
	}{
		Bool: {"bool", 1}, Float8: {"float8", 1}, Half: {"float16", 2}, Half2: {"half2", 4},
		Float32: {"float32", 4}, Float64: {"float64", 8}, Int8: {"int8", 1}, Int16: {"int16", 2},
		Int32: {"int32", 4}, Int64: {"int64", 8}, Uint8: {"uint8", 1}, Uint16: {"uint16", 2},
		Uint32: {"uint32", 4}, Uint64: {"uint64", 8}, QInt8: {"qint8", 1}, QInt16: {"qint16", 2},
		BFloat16: {"bfloat16", 2}, UTF8: {"utf8", 0}, UTF16: {"utf16", 0}, UTF32: {"utf32", 0},
	}
	for v := 0; v < 256; v++ {
		d := DType(v)
		w, ok := want[d]
		if d.Known() != ok {
			t.Errorf("dtype %d: Known %v", v, d.Known())
		}
		if !ok {
			if d.Size() != 0 {
				t.Errorf("dtype %d: size %d", v, d.Size())
			}
			if s := d.String(); d != Invalid && s != "dtype("+strconv.Itoa(v)+")" {
				t.Errorf("dtype %d prints %q", v, s)
			}
			continue
		}
		if d.String() != w.name || d.Size() != w.size {
			t.Errorf("dtype %d: %q size %d, want %q size %d", v, d.String(), d.Size(), w.name, w.size)
		}
		if p, err := ParseDType(w.name); err != nil || p != d {
			t.Errorf("ParseDType(%q) = %v, %v", w.name, p, err)
		}
	}
	if Invalid.String() != "invalid" || Invalid.Size() != 0 {
		t.Errorf("Invalid: %q size %d", Invalid.String(), Invalid.Size())
	}
	for _, s := range []string{"", "invalid", "dtype(18)", "float128"} {
		if d, err := ParseDType(s); err == nil {
			t.Errorf("ParseDType(%q) = %v, want an error", s, d)
		}
	}
}
