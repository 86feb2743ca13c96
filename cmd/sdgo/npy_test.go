package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/serialize"
)

// npyFile assembles a version 1.0 file from a header dict and data bytes,
// padded the way numpy pads.
func npyFile(dict string, data []byte) []byte {
	pad := (64 - (10+len(dict)+1)%64) % 64
	h := dict + strings.Repeat(" ", pad) + "\n"
	b := append([]byte(npyMagic), 1, 0)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(h)))
	return append(append(b, h...), data...)
}

// The bytes numpy.save writes for np.arange(1, 7, dtype='<f4').reshape(2, 3).
func TestWriteNPYIsWhatNumPyWrites(t *testing.T) {
	a := ndarray.Must(ndarray.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3))
	var got bytes.Buffer
	if err := writeNPY(&got, a); err != nil {
		t.Fatal(err)
	}
	var data []byte
	for _, v := range []float32{1, 2, 3, 4, 5, 6} {
		data = binary.LittleEndian.AppendUint32(data, math.Float32bits(v))
	}
	want := npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", data)
	if !bytes.Equal(got.Bytes(), want) {
		t.Fatalf("got\n%q\nwant\n%q", got.Bytes(), want)
	}
	if (len(want)-len(data))%64 != 0 {
		t.Fatalf("data starts at %d, not on a 64-byte boundary", len(want)-len(data))
	}
	// One-element tuples keep Python's trailing comma; scalars are ().
	for _, c := range []struct {
		a    *ndarray.Array
		want string
	}{
		{ndarray.Must(ndarray.FromSlice([]int64{7, 8, 9})), "{'descr': '<i8', 'fortran_order': False, 'shape': (3,), }"},
		{ndarray.Scalar(true), "{'descr': '|b1', 'fortran_order': False, 'shape': (), }"},
	} {
		var b bytes.Buffer
		if err := writeNPY(&b, c.a); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), c.want) {
			t.Errorf("header %q lacks %q", b.String(), c.want)
		}
	}
}

func TestNPYRoundTrip(t *testing.T) {
	base := ndarray.Must(ndarray.FromSlice([]float64{1.5, -2, 3.25, 0, 1e300, -7, 8, 9, 10, 11, 12, 13}, 3, 4))
	transposed := ndarray.Must(ndarray.Permute(base, 1, 0))
	arrays := []*ndarray.Array{base, transposed, ndarray.Must(ndarray.Zeros(ndarray.Float32, 0, 3)),
		ndarray.Scalar(float32(2.5)), ndarray.Must(ndarray.FromSlice([]bool{true, false, true}))}
	for _, dt := range []ndarray.DType{ndarray.Half, ndarray.Float32, ndarray.Int8, ndarray.Int16, ndarray.Int32, ndarray.Int64,
		ndarray.Uint8, ndarray.Uint16, ndarray.Uint32, ndarray.Uint64} {
		raw := make([]byte, 6*dt.Size())
		for i := range raw {
			raw[i] = byte(i * 7)
		}
		buf, err := ndarray.BufferFromBytes(dt, 6, raw)
		if err != nil {
			t.Fatal(err)
		}
		arrays = append(arrays, ndarray.Must(ndarray.NewView(buf, ndarray.Packed(1, 2, 3))))
	}
	for _, a := range arrays {
		var b bytes.Buffer
		if err := writeNPY(&b, a); err != nil {
			t.Fatalf("%v%v: %v", a.DType(), a.Shape(), err)
		}
		back, err := readNPY(b.Bytes())
		if err != nil {
			t.Fatalf("%v%v: %v", a.DType(), a.Shape(), err)
		}
		if back.DType() != a.DType() || !ndarray.SameShape(back.Shape(), a.Shape()) || !bytes.Equal(mustBytes(back), mustBytes(a)) {
			t.Errorf("%v%v came back as %v%v %v", a.DType(), a.Shape(), back.DType(), back.Shape(), back)
		}
	}
	if got := ndarray.Values[float64](mustReadBack(t, transposed)); got[1] != 1e300 || got[3] != -2 {
		t.Errorf("transposed array written as %v", got)
	}
}

func mustReadBack(t *testing.T, a *ndarray.Array) *ndarray.Array {
	t.Helper()
	var b bytes.Buffer
	if err := writeNPY(&b, a); err != nil {
		t.Fatal(err)
	}
	back, err := readNPY(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return back
}

// Files other writers produce: big-endian, Fortran order, version 2.0,
// Python 2 longs, double quotes, keys in another order.
func TestReadNPYVariants(t *testing.T) {
	var be []byte
	for _, v := range []float64{1, -2.5} {
		be = binary.BigEndian.AppendUint64(be, math.Float64bits(v))
	}
	a, err := readNPY(npyFile("{'descr': '>f8', 'fortran_order': False, 'shape': (2L,), }", be))
	if err != nil || a.DType() != ndarray.Float64 || a.Float(1) != -2.5 {
		t.Errorf("big-endian: %v, %v", a, err)
	}
	// [[1 2 3] [4 5 6]] stored column by column.
	var col []byte
	for _, v := range []int32{1, 4, 2, 5, 3, 6} {
		col = binary.LittleEndian.AppendUint32(col, uint32(v))
	}
	a, err = readNPY(npyFile(`{"shape": (2, 3), "fortran_order": True, "descr": "<i4"}`, col))
	if err != nil || !ndarray.SameShape(a.Shape(), []int{2, 3}) || a.Float(0, 2) != 3 || a.Float(1, 0) != 4 {
		t.Errorf("Fortran order: %v, %v", a, err)
	}
	// The same for a dtype sdgo stores but does not compute with.
	var col16 []byte
	for _, v := range []uint16{1, 4, 2, 5, 3, 6} {
		col16 = binary.LittleEndian.AppendUint16(col16, v)
	}
	a, err = readNPY(npyFile("{'descr': '<u2', 'fortran_order': True, 'shape': (2, 3), }", col16))
	if err != nil || !a.IsPacked() || !bytes.Equal(a.Buffer().Bytes(), []byte{1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0}) {
		t.Errorf("Fortran-ordered uint16: %v, %v", a, err)
	}
	v1 := npyFile("{'descr': '<i4', 'fortran_order': False, 'shape': (6,), }", col)
	hdr := v1[10 : len(v1)-len(col)]
	v2 := append([]byte(npyMagic), 2, 0)
	v2 = binary.LittleEndian.AppendUint32(v2, uint32(len(hdr)))
	v2 = append(append(v2, hdr...), col...)
	a, err = readNPY(v2)
	if err != nil || a.Size() != 6 || a.Float(1) != 4 {
		t.Errorf("version 2.0: %v, %v", a, err)
	}
}

func TestReadNPYErrors(t *testing.T) {
	good := npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", make([]byte, 8))
	for _, c := range []struct {
		name string
		file []byte
		want string
	}{
		{"empty", nil, "magic"},
		{"not npy", []byte("PK\x03\x04 a zip file"), "magic"},
		{"version", append(append([]byte(npyMagic), 9, 0), good[8:]...), "version 9.0"},
		{"truncated header", good[:30], "past the end"},
		{"truncated data", good[:len(good)-1], "needs 8 data bytes"},
		{"extra data", append(append([]byte(nil), good...), 0), "needs 8 data bytes"},
		{"complex", npyFile("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", make([]byte, 8)), `"<c8"`},
		{"structured", npyFile("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }", make([]byte, 4)), "descr"},
		{"huge shape", npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", nil), "too large"},
		{"negative shape", npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (2, -1), }", nil), "negative size -1 on axis 1 of shape [2 -1]"},
		{"no shape", npyFile("{'descr': '<f8', 'fortran_order': False}", nil), "'shape'"},
		{"garbage", npyFile("{'descr': '<f8', ???}", nil), "header at offset 10"},
		{"unterminated", npyFile("{'descr': '<f8", nil), "unterminated"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := readNPY(c.file)
			if err == nil || !errors.Is(err, errNPY) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
	if err := writeNPY(&bytes.Buffer{}, ndarray.Must(ndarray.FromStrings([]string{"a"}))); err == nil {
		t.Error("wrote a string array as .npy")
	}
}

func FuzzReadNPY(f *testing.F) {
	f.Add(npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", make([]byte, 8)))
	f.Add(npyFile("{'descr': '<i2', 'fortran_order': True, 'shape': (2, 1, 2), }", make([]byte, 8)))
	f.Add(npyFile("{'descr': '|b1', 'fortran_order': False, 'shape': (), }", []byte{1}))
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := readNPY(b)
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := writeNPY(&out, a); err != nil {
			t.Fatalf("read %v%v but cannot write it: %v", a.DType(), a.Shape(), err)
		}
		back, err := readNPY(out.Bytes())
		if err != nil || !bytes.Equal(mustBytes(back), mustBytes(a)) {
			t.Fatalf("round trip of %v%v: %v", a.DType(), a.Shape(), err)
		}
	})
}

// sdgo run takes placeholder values from .npy files (cast to the
// placeholder's dtype) and writes its outputs as .npy files.
func TestRunNPY(t *testing.T) {
	dir := t.TempDir()
	in0 := filepath.Join(dir, "in0.npy")
	f, err := os.Create(in0)
	if err != nil {
		t.Fatal(err)
	}
	// float64 on purpose: numpy's default; the placeholder is float32.
	if err := writeNPY(f, ndarray.Must(ndarray.FromSlice([]float64{1, 2, 3, 4}, 2, 2))); err != nil {
		t.Fatal(err)
	}
	f.Close()
	outDir := filepath.Join(dir, "out")
	simpleif := filepath.Join(fixtures, "simpleif_0_alt.fb")
	code, out, errs := sdgo(t, "run", "-ph", "input_0="+in0, "--ph", "input_1=5:", "-npy", outDir, simpleif, "output", "cond/Merge")
	if code != 0 || !strings.Contains(out, "output: float32[2 2]\n[[-1 0]\n [1 2]]") {
		t.Fatalf("exit %d, output %s, %s", code, out, errs)
	}
	for file, want := range map[string][]float32{"output.npy": {-1, 0, 1, 2}, "cond_Merge.npy": {-1, 0, 1, 2}} {
		b, err := os.ReadFile(filepath.Join(outDir, file))
		if err != nil {
			t.Fatal(err)
		}
		a, err := readNPY(b)
		if err != nil || a.DType() != ndarray.Float32 || !ndarray.SameShape(a.Shape(), []int{2, 2}) {
			t.Fatalf("%s: %v %v", file, a, err)
		}
		for i, v := range ndarray.Values[float32](a) {
			if v != want[i] {
				t.Errorf("%s: %v, want %v", file, ndarray.Values[float32](a), want)
				break
			}
		}
	}
	// A .npy of the wrong shape is refused, naming the placeholder.
	bad := filepath.Join(dir, "bad.npy")
	os.WriteFile(bad, npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", make([]byte, 12)), 0o644)
	code, _, errs = sdgo(t, "run", "-ph", "input_0="+bad, "-ph", "input_1=5:", simpleif)
	if code == 0 || !strings.Contains(errs, "input_0") {
		t.Errorf("wrong shape: exit %d, %s", code, errs)
	}
	code, _, errs = sdgo(t, "run", "-ph", "input_0="+filepath.Join(dir, "missing.npy"), "-ph", "input_1=5:", simpleif)
	if code != 3 || !strings.Contains(errs, "missing.npy") {
		t.Errorf("missing file: exit %d, %s", code, errs)
	}
}

// mustBytes is packedBytes for arrays the test knows fit in memory.
func mustBytes(a *ndarray.Array) []byte {
	b, err := packedBytes(a)
	if err != nil {
		panic(err)
	}
	return b
}

// Two outputs whose names map to one .npy file are refused before any file
// is written.
func TestRunNPYClash(t *testing.T) {
	g := graph.New()
	c := g.Const("c", ndarray.Must(ndarray.FromSlice([]float32{1, 2})))
	c.AddScalar(1).Named("a:b")
	c.AddScalar(2).Named("a_b")
	path := filepath.Join(t.TempDir(), "g.fb")
	if err := serialize.Save(path, g, nil); err != nil {
		t.Fatal(err)
	}
	outDir := filepath.Join(t.TempDir(), "out")
	code, _, errs := sdgo(t, "run", "-npy", outDir, path, "a:b", "a_b")
	if code == 0 || !strings.Contains(errs, `"a:b" and "a_b" would both be written to a_b.npy`) {
		t.Errorf("exit %d, %s", code, errs)
	}
	if ents, err := os.ReadDir(outDir); err != nil || len(ents) != 0 {
		t.Errorf("files written before the clash was found: %v %v", ents, err)
	}
}
