package npy

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
)

// testdata/*.npz are numpy's own (testdata/make_npz.py): a float32 [2 3],
// an int64 [3] and a big-endian, Fortran-ordered float64 [2 2].
func TestReadNPZFromNumPy(t *testing.T) {
	for _, file := range []string{"testdata/savez.npz", "testdata/savez_compressed.npz"} {
		m, err := ReadNPZFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if len(m) != 3 {
			t.Fatalf("%s: %d arrays, want 3", file, len(m))
		}
		a, b, c := m["a"], m["b"], m["c"]
		if a == nil || a.DType() != ndarray.Float32 || !ndarray.SameShape(a.Shape(), []int{2, 3}) || a.Float(1, 2) != 6 {
			t.Errorf("%s: a = %v", file, a)
		}
		if b == nil || b.DType() != ndarray.Int64 || ndarray.Values[int64](b)[2] != 1<<40 || ndarray.Values[int64](b)[0] != -1 {
			t.Errorf("%s: b = %v", file, b)
		}
		if c == nil || c.DType() != ndarray.Float64 || c.Float(0, 1) != 2.5 || c.Float(1, 0) != 3.5 {
			t.Errorf("%s: c = %v", file, c)
		}
	}
}

func TestNPZRoundTrip(t *testing.T) {
	in := map[string]*ndarray.Array{
		"w": ndarray.Must(ndarray.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 3, 2)),
		"b": ndarray.Must(ndarray.FromSlice([]int32{7, 8})),
		"s": ndarray.Scalar(true),
	}
	var buf bytes.Buffer
	if err := WriteNPZ(&buf, in); err != nil {
		t.Fatal(err)
	}
	out, err := ReadNPZ(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	for n, a := range in {
		b := out[n]
		if b == nil || b.DType() != a.DType() || !ndarray.SameShape(a.Shape(), b.Shape()) || !bytes.Equal(mustBytes(a), mustBytes(b)) {
			t.Errorf("%s: wrote %v, read %v", n, a, b)
		}
	}
	// numpy.savez's layout: stored members named NAME.npy, here sorted.
	z, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range z.File {
		names = append(names, f.Name)
		if f.Method != zip.Store {
			t.Errorf("%s: method %d, want stored", f.Name, f.Method)
		}
	}
	if strings.Join(names, " ") != "b.npy s.npy w.npy" {
		t.Errorf("members %v", names)
	}
	if err := WriteNPZ(&buf, map[string]*ndarray.Array{"": in["b"]}); err == nil {
		t.Error("wrote an array with an empty name")
	}
}

// A member whose data goes on past its header's shape (a deflated member
// can inflate to any size) is refused without reading it all.
func TestReadNPZBounds(t *testing.T) {
	var one bytes.Buffer
	if err := Write(&one, ndarray.Must(ndarray.FromSlice([]float32{1, 2}))); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	w, _ := z.CreateHeader(&zip.FileHeader{Name: "big.npy", Method: zip.Deflate})
	w.Write(one.Bytes())
	w.Write(make([]byte, 1<<20)) // a megabyte of zeros deflates to a kilobyte
	z.Close()
	_, err := ReadNPZ(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), `member "big.npy"`) || !strings.Contains(err.Error(), "has more") {
		t.Errorf("error %v", err)
	}
	if _, err := ReadNPZ(bytes.NewReader(one.Bytes()), int64(one.Len())); !errors.Is(err, ErrFormat) {
		t.Errorf("a .npy read as a .npz: %v", err)
	}
	if _, err := ReadNPZFile("/dev/zero"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("/dev/zero: %v", err)
	}
}

// An endless stream with a valid header is read only as far as its shape
// needs; one without the magic is refused at once.
func TestReadEndlessStream(t *testing.T) {
	var hdr bytes.Buffer
	if err := Write(&hdr, ndarray.Must(ndarray.Zeros(ndarray.Float64, 4))); err != nil {
		t.Fatal(err)
	}
	zeros := endless{}
	_, err := Read(io.MultiReader(bytes.NewReader(hdr.Bytes()[:hdr.Len()-32]), zeros))
	if err == nil || !strings.Contains(err.Error(), "has more") {
		t.Errorf("valid header then endless data: %v", err)
	}
	if _, err := Read(zeros); !errors.Is(err, ErrFormat) {
		t.Errorf("endless zeros: %v", err)
	}
	if _, err := ReadFile("/dev/zero"); !errors.Is(err, ErrFormat) {
		t.Errorf("/dev/zero: %v", err)
	}
}

type endless struct{}

func (endless) Read(p []byte) (int, error) { clear(p); return len(p), nil }
