package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/internal/atomicfile"
)

// copyFixture copies a fixture into a fresh directory and returns its path.
func copyFixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtures, name))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// sdgo dot -o with the graph file itself (under any spelling) is refused:
// it used to replace the graph with its DOT text and exit 0.
func TestDotRefusesToOverwriteItsInput(t *testing.T) {
	path := copyFixture(t, "cond_true.fb")
	want, _ := os.ReadFile(path)
	link := filepath.Join(filepath.Dir(path), "link.fb")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{path, filepath.Join(filepath.Dir(path), ".", "cond_true.fb"), link} {
		code, stdout, errs := sdgo(t, "dot", "-o", out, path)
		if code == 0 || stdout != "" || !strings.Contains(errs, "is the graph file") {
			t.Errorf("dot -o %s %s: exit %d, stdout %q, stderr %q", out, path, code, stdout, errs)
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, want) {
			t.Fatalf("dot -o %s changed the graph file", out)
		}
	}
}

// failingWriter fails once more than n bytes were written through it.
type failingWriter struct {
	w io.Writer
	n int
}

func (f *failingWriter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		n, _ := f.w.Write(p[:f.n])
		f.n = 0
		return n, errors.New("disk full (test)")
	}
	f.n -= len(p)
	return f.w.Write(p)
}

// A write that fails half-way (dot -o, run -npy) leaves the file that was
// there as it was, and no temporary file behind: os.Create truncated it
// first.
func TestFailedWriteKeepsTheOldFile(t *testing.T) {
	atomicfile.TestHook = func(w io.Writer) io.Writer { return &failingWriter{w: w, n: 100} }
	defer func() { atomicfile.TestHook = nil }()
	dir := t.TempDir()
	old := []byte("the previous contents\n")
	dot := filepath.Join(dir, "g.dot")
	os.WriteFile(dot, old, 0o644)
	code, _, errs := sdgo(t, "dot", "-o", dot, filepath.Join(fixtures, "cond_true.fb"))
	if code != 1 || !strings.Contains(errs, "disk full (test)") || !strings.Contains(errs, dot) {
		t.Errorf("dot: exit %d, %s", code, errs)
	}
	npy := filepath.Join(dir, "PadV2.npy")
	os.WriteFile(npy, old, 0o644)
	code, stdout, errs := sdgo(t, "run", "-npy", dir, filepath.Join(fixtures, "pad_1D.fb"))
	if code != 1 || !strings.Contains(errs, "disk full (test)") || strings.Contains(stdout, "wrote") {
		t.Errorf("run -npy: exit %d, stdout %q, stderr %s", code, stdout, errs)
	}
	for _, p := range []string{dot, npy} {
		if got, err := os.ReadFile(p); err != nil || !bytes.Equal(got, old) {
			t.Errorf("%s: %q, %v after a failed write", p, got, err)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("files left in the directory: %v", names)
	}
}

// Devices and other files that are not regular are written in place:
// renaming a temporary file over /dev/null would replace the device.
func TestWriteToDevice(t *testing.T) {
	if _, err := os.Stat(os.DevNull); err != nil {
		t.Skip(err)
	}
	if code, _, errs := sdgo(t, "dot", "-o", os.DevNull, filepath.Join(fixtures, "cond_true.fb")); code != 0 {
		t.Fatalf("dot -o %s: exit %d, %s", os.DevNull, code, errs)
	}
	if st, err := os.Stat(os.DevNull); err != nil || st.Mode().IsRegular() {
		t.Fatalf("%s is no longer a device: %v %v", os.DevNull, st, err)
	}
}
