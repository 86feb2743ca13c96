package ndarray

import (
	"fmt"
	"strconv"
	"strings"
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

// The functions that only move elements (Where, BroadcastTo, Permute,
// Tile, Concat, Stack) work on every dtype of fixed element size, through
// the element bytes where sdgo does not compute with the dtype; on string
// dtypes they return an error naming the function and the dtype. Where on
// int16 returned x whatever the condition, and the string dtypes panicked
// in alloc.
func TestMovesEveryDType(t *testing.T) {
	for v := 0; v < 256; v++ {
		dt := DType(v)
		if !dt.Known() {
			continue
		}
		sz := dt.Size()
		if sz == 0 {
			checkMovesRefuse(t, dt)
			continue
		}
		// Element i of x has every byte i+1, of y every byte i+101; bools
		// are i%2 in x and the other value in y.
		elem := func(i int, base byte) []byte {
			b := make([]byte, sz)
			for j := range b {
				b[j] = base + byte(i)
			}
			if dt == Bool {
				b[0] = byte(i+int(base/100)) % 2
			}
			return b
		}
		arr := func(base byte, shape ...int) *Array {
			var raw []byte
			for i := range shapeSize(shape) {
				raw = append(raw, elem(i, base)...)
			}
			buf, err := BufferFromBytes(dt, shapeSize(shape), raw)
			if err != nil {
				t.Fatal(err)
			}
			return Must(NewView(buf, Packed(shape...)))
		}
		x, y := arr(1, 2, 3), arr(101, 2, 3)
		// want lists the result's elements as (x or y, index).
		type ref struct {
			fromY bool
			i     int
		}
		xs := func(idx ...int) []ref {
			r := make([]ref, len(idx))
			for k, i := range idx {
				r[k] = ref{false, i}
			}
			return r
		}
		cond := Must(FromSlice([]bool{true, false, false, true, true, false}, 2, 3))
		cases := []struct {
			name  string
			f     func() (*Array, error)
			shape []int
			want  []ref
		}{
			{"where", func() (*Array, error) { return Where(cond, x, y) }, []int{2, 3},
				[]ref{{false, 0}, {true, 1}, {true, 2}, {false, 3}, {false, 4}, {true, 5}}},
			{"where, y broadcast", func() (*Array, error) { return Where(cond, x, arr(101, 3)) }, []int{2, 3},
				[]ref{{false, 0}, {true, 1}, {true, 2}, {false, 3}, {false, 4}, {true, 2}}},
			{"broadcast_to", func() (*Array, error) { return BroadcastTo(arr(1, 3), 2, 3) }, []int{2, 3}, xs(0, 1, 2, 0, 1, 2)},
			{"permute", func() (*Array, error) { return Permute(x) }, []int{3, 2}, xs(0, 3, 1, 4, 2, 5)},
			{"tile", func() (*Array, error) { return Tile(x, 1, 2) }, []int{2, 6}, xs(0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5)},
			{"concat", func() (*Array, error) { return Concat(1, x, y) }, []int{2, 6},
				[]ref{{false, 0}, {false, 1}, {false, 2}, {true, 0}, {true, 1}, {true, 2},
					{false, 3}, {false, 4}, {false, 5}, {true, 3}, {true, 4}, {true, 5}}},
			{"stack", func() (*Array, error) { return Stack(1, x, y) }, []int{2, 2, 3},
				[]ref{{false, 0}, {false, 1}, {false, 2}, {true, 0}, {true, 1}, {true, 2},
					{false, 3}, {false, 4}, {false, 5}, {true, 3}, {true, 4}, {true, 5}}},
		}
		for _, c := range cases {
			got, err := c.f()
			if err != nil {
				t.Errorf("%v %s: %v", dt, c.name, err)
				continue
			}
			var want []byte
			for _, r := range c.want {
				base := byte(1)
				if r.fromY {
					base = 101
				}
				want = append(want, elem(r.i, base)...)
			}
			if got.DType() != dt || !SameShape(got.Shape(), c.shape) || !got.IsPacked() || got.Offset() != 0 ||
				string(got.Buffer().Bytes()) != string(want) {
				t.Errorf("%v %s: %v%v bytes %v, want %v%v bytes %v", dt, c.name, got.DType(), got.Shape(), got.Buffer().Bytes(), dt, c.shape, want)
			}
		}
	}
}

// checkMovesRefuse checks that the element-moving functions return an error
// naming themselves and dt, a string dtype, instead of panicking.
func checkMovesRefuse(t *testing.T, dt DType) {
	t.Helper()
	s := Must(FromStrings([]string{"a", "bc", "", "d", "ef", "g"}, 2, 3))
	buf, err := BufferFromBytes(dt, 6, s.Buffer().Bytes())
	if err != nil {
		t.Fatal(err)
	}
	s = Must(NewView(buf, Packed(2, 3)))
	col := Must(s.WithLayout(Layout{Shape: []int{2}, Strides: []int{3}, Offset: 1}))
	cond := Must(Zeros(Bool, 2, 3))
	for name, f := range map[string]func() (*Array, error){
		"where":        func() (*Array, error) { return Where(cond, s, s) },
		"broadcast_to": func() (*Array, error) { return BroadcastTo(s, 2, 2, 3) },
		"permute":      func() (*Array, error) { return Permute(s) },
		"tile":         func() (*Array, error) { return Tile(s, 1, 2) },
		"concat":       func() (*Array, error) { return Concat(0, s, s) },
		"stack":        func() (*Array, error) { return Stack(0, s, s) },
		// Reshape copies a strided view; Copy kept a string view's layout,
		// which Reshape then read as packed ([bc ef] came back [bc ""]).
		"reshape of a strided view": func() (*Array, error) { return Reshape(col, 2, 1) },
	} {
		want := "concat" // Stack concatenates
		if name != "stack" {
			want = name
		}
		r, err := f()
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), dt.String()) {
			t.Errorf("%v %s: %v, %v; want an error naming %q and %v", dt, name, r, err, want, dt)
		}
	}
	// A packed string array still reshapes, as a view of its buffer.
	r, err := Reshape(s, 3, 2)
	if err != nil {
		t.Fatalf("%v reshape: %v", dt, err)
	}
	if ss, err := Strings(r); err != nil || fmt.Sprintf("%q", ss) != `["a" "bc" "" "d" "ef" "g"]` {
		t.Errorf("%v reshape: %q %v", dt, ss, err)
	}
}
