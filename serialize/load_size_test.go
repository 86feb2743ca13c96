package serialize

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"
)

// A graph file over 2 GiB is refused before it is read, and the error
// states its real size (it said 2147483648 bytes, the cap of what it
// measured, for any file larger).
func TestLoadTooLargeStatesSize(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.fb")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	const size = 3 << 30 // sparse: no disk is used
	if err := f.Truncate(size); err != nil {
		t.Skipf("cannot make a sparse file: %v", err)
	}
	f.Close()
	_, err = Load(path)
	var fe *FormatError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "3221225472 bytes") {
		t.Fatalf("loading a 3 GiB file: %v; want a FormatError stating 3221225472 bytes", err)
	}
}

// endless is a stream that never ends: b repeated.
type endless struct{ b byte }

func (e endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = e.b
	}
	return len(p), nil
}

// A stream that never ends (/dev/zero given as the graph file) is refused:
// zeros at once (no FlatBuffer starts with a root offset of 0), anything
// else once it passes MaxStreamSize; it was read until memory ran out
// (issue 23). A stream within the cap still loads.
func TestLoadEndlessStream(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err == nil {
		_, err := Load("/dev/zero")
		var fe *FormatError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), "root table offset 0") {
			t.Errorf("Load(/dev/zero): %v", err)
		}
	}
	defer func(n int64) { MaxStreamSize = n }(MaxStreamSize)
	MaxStreamSize = 1 << 20
	_, err := Read(endless{0x41})
	var fe *FormatError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "past 1048576 bytes") {
		t.Errorf("Read of an endless stream of 'A': %v", err)
	}
	buf, err := encode(chain())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Read(struct{ io.Reader }{bytes.NewReader(buf)}); err != nil {
		t.Errorf("a short stream: %v", err)
	}
}

// Strides in a file that are not those of a dense array are not followed
// (the buffer holds exactly the elements) and are no longer ignored
// without a word: loading warns, naming the variable (issue 23). Dense
// strides, odd strides on size-1 axes (as pad_1D.fb has) and absent (zero)
// strides give no warning.
func TestFileStridesWarned(t *testing.T) {
	for _, c := range []struct {
		shape, strides []int64
		order          byte
		warn           bool
	}{
		{[]int64{2, 3}, []int64{3, 1}, orderC, false},
		{[]int64{2, 3}, []int64{1, 2}, orderF, false},
		{[]int64{1, 2}, []int64{1, 1}, orderC, false},
		{[]int64{2, 3}, []int64{0, 0}, orderC, false},
		{[]int64{2, 3}, []int64{1, 2}, orderC, true},
		{[]int64{2, 3}, []int64{6, 2}, orderC, true},
	} {
		note := denseStrides(shapeInfo{Shape: c.shape, Strides: c.strides, Order: c.order})
		if (note != "") != c.warn || c.warn && !strings.Contains(note, "ignored") {
			t.Errorf("shape %v strides %v order %c: %q", c.shape, c.strides, c.order, note)
		}
	}
	r := chain()
	si := r.Variables[0].Array.ShapeInfo // [1, 2, 1, extra, ews, order] for shape [2]
	si[2] = 3                            // stride 3 on the axis of 2
	g, err := decodeRaw(t, r)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, w := range ReportOf(g).Warnings {
		found = found || strings.Contains(w, `"a"`) && strings.Contains(w, "strides")
	}
	if !found {
		t.Errorf("no warning about a's strides: %q", ReportOf(g).Warnings)
	}
}

// A file of many nodes and few weights does not stay in memory through a
// small constant that shares its bytes: the arrays are copied out when they
// are less than half of the file (a 51 MB file of 200k ops stayed whole
// for one 8-byte constant, issue 23). When the weights are most of the
// file they still share its bytes, without a copy (this replaces
// TestDecodeAliasesArrays, which asked that of every file).
func TestDecodeDetachesSmallArrays(t *testing.T) {
	for _, c := range []struct {
		name   string
		n      int
		shared bool
	}{{"few weights", 2, false}, {"mostly weights", 4096, true}} {
		r := chain()
		vals := make([]float32, c.n)
		vals[c.n-1] = 7
		r.Variables[0], r.Variables[1] = rConst(1, "a", vals...), rConst(2, "b", vals...)
		enc, err := encode(r)
		if err != nil {
			t.Fatal(err)
		}
		buf := alignedBytes(len(enc))
		copy(buf, enc)
		raw, err := decodeCtx(context.Background(), buf)
		if err != nil {
			t.Fatal(err)
		}
		a := raw.Variables[0].Array.Buffer
		p, lo := uintptr(unsafe.Pointer(&a[0])), uintptr(unsafe.Pointer(&buf[0]))
		if inside := p >= lo && p < lo+uintptr(len(buf)); inside != c.shared {
			t.Errorf("%s (%d of %d bytes are arrays): a's bytes in the file's buffer: %v, want %v", c.name, 2*len(a), len(buf), inside, c.shared)
		}
		g, err := Decode(buf)
		if err != nil {
			t.Fatal(err)
		}
		if v, ok := g.Variable("a"); !ok || v.Value().Float64s()[c.n-1] != 7 {
			t.Errorf("%s: a is wrong after loading", c.name)
		}
	}
}
