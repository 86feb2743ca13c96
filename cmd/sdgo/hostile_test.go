//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ndarray/npy"
	"github.com/sdgo/sdgo/ops"
)

// test_cli_panics panics when run: a stand-in for a bug in an op.
var _ = ops.Register(&ops.Def{
	Name: "test_cli_panics", Type: ops.Custom, MinIn: 1, MaxIn: 1,
	Doc: "panics when run (cmd/sdgo tests only)",
	Infer: func(in []ops.Info, _ *ops.Args) ([]ops.Info, error) {
		return []ops.Info{{DType: in[0].DType, Shape: in[0].Shape}}, nil
	},
	Run: func(_ *ops.Ctx, in []*ndarray.Array, _ *ops.Args) ([]*ndarray.Array, error) {
		var s []int
		_ = s[len(in)+3] // index out of range
		return nil, nil
	},
})

// /dev/zero as the graph file, as a .npy feed and as the -feeds file ends
// in a clear error and exit 3, at once: each was read without a bound
// (issue 23).
func TestEndlessInputFiles(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float32, 2)
	x.AddScalar(1).Named("y")
	path := saveTemp(t, g, "g.fb")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"info", "/dev/zero"}, "root table offset 0"},
		{[]string{"run", "/dev/zero"}, "root table offset 0"},
		{[]string{"gradcheck", "/dev/zero"}, "root table offset 0"},
		{[]string{"run", "-feed", "x=/dev/zero.npy", path}, "dev/zero.npy"}, // no such file
		{[]string{"run", "-feeds", "/dev/zero", path}, "-feeds /dev/zero"},
	} {
		start := time.Now()
		code, _, errs := sdgo(t, c.args...)
		if code != 3 || !strings.Contains(errs, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want 3 and %q", c.args, code, errs, c.want)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%q: took %v", c.args, d)
		}
	}
	// /dev/zero under a .npy name: a link, as -feed takes .npy files only.
	link := filepath.Join(t.TempDir(), "zero.npy")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Skip(err)
	}
	code, _, errs := sdgo(t, "run", "-feed", "x="+link, path)
	if code != 3 || !strings.Contains(errs, "NUMPY magic") {
		t.Errorf("-feed x=%s: exit %d, %s", link, code, errs)
	}
	// Endless pipes that start well: a .npy header then zeros stops at
	// the data its shape needs; a JSON object that never closes at the cap.
	defer func(n int64) { maxStreamInput = n }(maxStreamInput)
	maxStreamInput = 1 << 20
	var whole bytes.Buffer
	if err := npy.Write(&whole, ndarray.Must(ndarray.Zeros(ndarray.Float32, 2))); err != nil {
		t.Fatal(err)
	}
	hdr := whole.Bytes()[:whole.Len()-8] // the header alone
	npyPipe := endlessPipe(t, "feed.npy", hdr, []byte{0})
	if code, _, errs := sdgo(t, "run", "-feed", "x="+npyPipe, path); code != 3 || !strings.Contains(errs, "needs 8 data bytes") ||
		!strings.Contains(errs, "has more") {
		t.Errorf("-feed x=<endless .npy pipe>: exit %d, %s", code, errs)
	}
	jsonPipe := endlessPipe(t, "feeds.json", []byte(`{"x": [`), []byte("0, "))
	if code, _, errs := sdgo(t, "run", "-feeds", jsonPipe, path); code != 3 || !strings.Contains(errs, "goes on past 1048576 bytes") {
		t.Errorf("-feeds <endless JSON pipe>: exit %d, %s", code, errs)
	}
}

// endlessPipe makes a named pipe that gives head, then rep over and over
// until its reader closes it.
func endlessPipe(t *testing.T, name string, head, rep []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		chunk := bytes.Repeat(rep, 4096/len(rep))
		if _, err := f.Write(head); err != nil {
			return
		}
		for {
			if _, err := f.Write(chunk); err != nil {
				return // the reader closed it: EPIPE
			}
		}
	}()
	t.Cleanup(func() {
		// A reader that never came: open it to free the writer.
		if f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
		<-done
	})
	return path
}

// A bug sdgo catches (a panic in an op) is exit 4, distinct from a bad
// file (3) and from Go's own status when its runtime dies (2).
func TestInternalFailureExit(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float32, 2)
	y := g.Apply("test_cli_panics", ops.Args{}, x).Named("y")
	path := saveTemp(t, g, "p.fb")
	code, _, errs := sdgo(t, "run", "-feed", "x=1,2", path, y.Name())
	if code != 4 || !strings.Contains(errs, "panicked") {
		t.Errorf("exit %d, %s", code, errs)
	}
}
