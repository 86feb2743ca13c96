package serialize

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/internal/atomicfile"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// failingWriter fails after n bytes.
type failingWriter struct {
	w io.Writer
	n int
}

var errInjected = errors.New("injected write failure")

func (f *failingWriter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		k, _ := f.w.Write(p[:f.n])
		f.n = 0
		return k, errInjected
	}
	f.n -= len(p)
	return f.w.Write(p)
}

// shortWriter breaks io.Writer's contract: it takes half of every write and
// reports no error.
type shortWriter struct{}

func (shortWriter) Write(p []byte) (int, error) { return len(p) / 2, nil }

// TestSaveAtomic: Save replaces the file only when the new one is complete;
// a failed save (write error, encode error, no such directory) leaves the
// previous file as it was and no temporary file behind.
func TestSaveAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "model.fb")
	g := mlp(t)
	if err := Save(path, g, &SaveOptions{UpdaterState: true}); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if g2, err := Load(path); err != nil || graphDiff(g, g2) != "" {
		t.Fatalf("load after save: %v %s", err, graphDiff(g, g2))
	}
	st, _ := os.Stat(path)
	if st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v", st.Mode())
	}
	intact := func(what string) {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(b, good) {
			t.Errorf("%s: the previous file changed (%v)", what, err)
		}
		ents, _ := os.ReadDir(dir)
		if len(ents) != 1 {
			var n []string
			for _, e := range ents {
				n = append(n, e.Name())
			}
			t.Errorf("%s: files left behind: %v", what, n)
		}
	}

	// A write that fails half way.
	atomicfile.TestHook = func(w io.Writer) io.Writer { return &failingWriter{w: w, n: 100} }
	other := graph.New()
	other.Const("c", ndarray.Scalar(1.0))
	err = Save(path, other, &SaveOptions{BigEndian: true})
	atomicfile.TestHook = nil
	if !errors.Is(err, errInjected) {
		t.Fatalf("save with a failing writer: %v", err)
	}
	intact("write failure")

	// A graph that cannot be encoded: an opaque op not loaded from a file.
	bad := graph.New()
	x := bad.Const("x", ndarray.Scalar(1.0))
	if _, err := bad.AddOp(graph.OpSpec{OpName: "no_such_op", Inputs: []*graph.Variable{x}, Opaque: "mine",
		OutputInfos: []ops.Info{{DType: ndarray.Float64}}}); err != nil {
		t.Fatal(err)
	}
	if err := Save(path, bad, nil); err == nil || !strings.Contains(err.Error(), "no_such_op") {
		t.Fatalf("saved an opaque op without a file node: %v", err)
	}
	intact("encode failure")

	// A placeholder value of the wrong dtype.
	err = Save(path, g, &SaveOptions{PlaceholderValues: map[string]*ndarray.Array{"x": ndarray.Scalar(int32(1))}})
	if err == nil || !strings.Contains(err.Error(), `"x"`) {
		t.Fatalf("wrong placeholder value: %v", err)
	}
	intact("bad placeholder value")
	if err := Save(path, g, &SaveOptions{PlaceholderValues: map[string]*ndarray.Array{"loss": ndarray.Scalar(1.0)}}); err == nil {
		t.Fatal("a value for a non-placeholder was accepted")
	}
	intact("value for a non-placeholder")

	// The target directory does not exist / the target is a directory.
	if err := Save(filepath.Join(dir, "missing", "m.fb"), g, nil); err == nil {
		t.Fatal("saved into a missing directory")
	}
	if err := Save(dir, g, nil); err == nil {
		t.Fatal("saved over a directory")
	}
	intact("bad path")

	// Replacing works and keeps the file's permissions.
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Save(path, other, nil); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("mode after replace %v", st.Mode())
	}
	if g3, err := Load(path); err != nil || len(g3.Variables()) != 1 {
		t.Fatalf("replaced file: %v", err)
	}
	if err := Write(&failingWriter{w: io.Discard, n: 10}, g, nil); !errors.Is(err, errInjected) {
		t.Fatalf("Write to a failing writer: %v", err)
	}
	if err := Write(shortWriter{}, g, nil); !errors.Is(err, io.ErrShortWrite) {
		t.Fatalf("Write to a writer that writes short without an error: %v", err)
	}
	atomicfile.TestHook = func(io.Writer) io.Writer { return shortWriter{} }
	err = Save(path, other, nil)
	atomicfile.TestHook = nil
	if !errors.Is(err, io.ErrShortWrite) {
		t.Fatalf("Save with a writer that writes short without an error: %v", err)
	}
}

// TestPlaceholderValues: values given at save time are stored and reported
// on load, and saved again by default.
func TestPlaceholderValues(t *testing.T) {
	g := mlp(t)
	feeds := mlpFeeds()
	var buf bytes.Buffer
	if err := Write(&buf, g, &SaveOptions{PlaceholderValues: feeds}); err != nil {
		t.Fatal(err)
	}
	g2, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	pv := ReportOf(g2).PlaceholderValues
	if len(pv) != 2 || !ndarray.Equal(pv["x"], feeds["x"]) || !ndarray.Equal(pv["y"], feeds["y"]) {
		t.Fatalf("placeholder values %v", pv)
	}
	if v, _ := g2.Variable("x"); v.Type() != graph.PLACEHOLDER || !ndarray.SameShape(v.Shape(), []int{-1, 4}) {
		t.Fatalf("placeholder x: %v", v)
	}
	bad := ndarray.Must(ndarray.Zeros(ndarray.Float64, 5, 3))
	if err := Write(io.Discard, g, &SaveOptions{PlaceholderValues: map[string]*ndarray.Array{"x": bad}}); err == nil ||
		!strings.Contains(err.Error(), "[5 3]") {
		t.Fatalf("a value of the wrong shape: %v", err)
	}
	g3 := roundTrip(t, g2, nil)
	if pv := ReportOf(g3).PlaceholderValues; len(pv) != 2 || !ndarray.Equal(pv["x"], feeds["x"]) {
		t.Fatalf("placeholder values after a second save: %v", pv)
	}
}

// TestUpdaterStateOnRequest: the updater state is written only when asked;
// the training configuration always.
func TestUpdaterStateOnRequest(t *testing.T) {
	g := mlp(t)
	b, err := Encode(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := decode(b)
	if r.UpdaterState != nil || !strings.Contains(r.TrainingConfig, "Adam") {
		t.Fatalf("updater state %v, training config %q", r.UpdaterState, r.TrainingConfig)
	}
	b, err = Encode(g, &SaveOptions{UpdaterState: true})
	if err != nil {
		t.Fatal(err)
	}
	r, _ = decode(b)
	if len(r.UpdaterState) != 2 || r.UpdaterState[0].ParamName != "b2" || strings.Join(r.UpdaterState[1].Keys, ",") != "M,V" {
		t.Fatalf("updater state %+v", r.UpdaterState)
	}
	for _, v := range r.Variables {
		if v.Name == "scale" && len(v.Array.ShapeInfo) != 6 {
			t.Errorf("rank-0 shape-info %v, want 6 longs", v.Array.ShapeInfo)
		}
	}
	g.SetMeta(graph.MetaUpdaterState, "junk")
	if _, err := Encode(g, &SaveOptions{UpdaterState: true}); err == nil {
		t.Fatal("encoded junk updater state")
	}
}

// Saving to a symbolic link replaces the file it points to and keeps the
// link: renaming over the link replaced the link with a file of its own and
// left the target as it was.
func TestSaveThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.fb")
	link := filepath.Join(dir, "model.fb")
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real.fb", link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	g := mlp(t)
	if err := Save(link, g, &SaveOptions{UpdaterState: true}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link is gone: %v, %v", fi.Mode(), err)
	}
	if fi, err := os.Stat(target); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the target's mode: %v, %v", fi.Mode(), err)
	}
	if g2, err := Load(target); err != nil || graphDiff(g, g2) != "" {
		t.Errorf("the target after the save: %v %s", err, graphDiff(g, g2))
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("%d files in the directory, want the link and its target", len(ents))
	}
}
