//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
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

// The files of a few KB that ran Go out of memory (issue 23), each under
// a 256 MiB budget: a clear error naming the op and the shape, exit 1,
// within seconds. Without the budget (or with the old one, one buffer at
// a time against RAM and swap) each ended in "fatal error: out of memory"
// under a 4 GB address-space cap.
func TestMemoryBudgetHostileFiles(t *testing.T) {
	big := func(name string, build func(g *graph.Graph) *graph.Variable) (string, string) {
		g := graph.New()
		y := build(g).Named("y")
		return saveTemp(t, g, name), y.Name()
	}
	i64 := func(g *graph.Graph, name string, shape []int, v ...int64) *graph.Variable {
		return g.Const(name, ndarray.Must(ndarray.FromSlice(v, shape...)))
	}
	cases := []struct {
		name, want string
		build      func(g *graph.Graph) *graph.Variable
	}{
		{"fill", "int64 array of shape [60000 60000]", func(g *graph.Graph) *graph.Variable {
			return g.Fill(i64(g, "shape", []int{2}, 60000, 60000), ndarray.Int64, 7) // 28.8 GB
		}},
		{"tile", "of shape [2000000000]", func(g *graph.Graph) *graph.Variable {
			return g.Apply("tile", ops.Args{I: []int64{1e9}}, i64(g, "x", []int{2}, 1, 2)) // 16 GB
		}},
		{"pad", "of shape [2000000002]", func(g *graph.Graph) *graph.Variable {
			return g.Apply("pad", ops.Args{I: []int64{0}}, i64(g, "x", []int{2}, 1, 2), i64(g, "p", []int{1, 2}, 1e9, 1e9))
		}},
		{"concat", "of shape [4000000000]", func(g *graph.Graph) *graph.Variable {
			x := g.Const("x", ndarray.Must(ndarray.Zeros(ndarray.Float32, 1_000_000))) // 4 MB, stored once
			xs := make([]*graph.Variable, 4000)
			for i := range xs {
				xs[i] = x
			}
			return g.Concat(0, xs...) // 16 GB
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path, out := big(c.name+".fb", c.build)
			start := time.Now()
			code, stdout, errs := sdgo(t, "run", "-max-memory", "256MiB", path, out)
			if code != 1 || stdout != "" || !strings.Contains(errs, "("+c.name+")") || !strings.Contains(errs, c.want) ||
				!strings.Contains(errs, "memory budget of 268435456 bytes") {
				t.Errorf("exit %d, stdout %q, stderr %s; want exit 1 naming %s, %q and the budget", code, stdout, errs, c.name, c.want)
			}
			if len(errs) > 1000 {
				t.Errorf("a message of %d bytes", len(errs))
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

// The gradient checks that ran out of memory (issue 23): a loop that never
// ends, whose every iteration's [1000] float64 state the gradient keeps,
// and a [-1 -1] placeholder given 30000 by -unknown-size (7.2 GB of
// random values). Under a 64 MiB budget each ends in a clear error, exit
// 2 as any check that cannot run.
func TestMemoryBudgetHostileGradcheck(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 1000)
	out, err := g.While([]*graph.Variable{x},
		func(v []*graph.Variable) *graph.Variable { s := v[0].Sum(); return s.Ge(s) },            // always true
		func(v []*graph.Variable) []*graph.Variable { return []*graph.Variable{v[0].Mul(v[0])} }) // the gradient needs every v
	if err != nil {
		t.Fatal(err)
	}
	out[0].Sum().Named("loss")
	loop := saveTemp(t, g, "loop.fb")

	// A loop whose gradient keeps nothing runs to MaxIterations (2^20)
	// within the budget: -timeout ends it.
	g = graph.New()
	x = g.Placeholder("x", ndarray.Float64, 1000)
	out, err = g.While([]*graph.Variable{x},
		func(v []*graph.Variable) *graph.Variable { s := v[0].Sum(); return s.Ge(s) },
		func(v []*graph.Variable) []*graph.Variable { return []*graph.Variable{v[0].MulScalar(0.5)} })
	if err != nil {
		t.Fatal(err)
	}
	out[0].Sum().Named("loss")
	scale := saveTemp(t, g, "scale.fb")

	unknown := unknownSizeGraph(t)

	for _, c := range []struct {
		args []string
		code int
		want []string
	}{
		// What does not fit is the next state, the listener's snapshot of it
		// or the next iteration: each error names the loop's iteration.
		{[]string{"-loss", "loss", loop}, 1, []string{"memory budget of 67108864 bytes", `"while", iteration`}},
		{[]string{"-timeout", "500ms", "-loss", "loss", scale}, 1, []string{"deadline exceeded", `(in frame "while", iteration`}},
		{[]string{"-unknown-size", "30000", unknown}, 2, []string{`placeholder "p"`, "float64 array of shape [30000 30000]", "memory budget"}},
	} {
		start := time.Now()
		args := append([]string{"gradcheck", "-max-memory", "64MiB"}, c.args...)
		code, stdout, errs := sdgo(t, args...)
		ok := code == c.code && stdout == ""
		for _, w := range c.want {
			ok = ok && strings.Contains(errs, w)
		}
		if !ok {
			t.Errorf("%q: exit %d, stdout %q, stderr %s; want exit %d and %q", args, code, stdout, errs, c.code, c.want)
		}
		t.Logf("%q: %v: %s", args, time.Since(start), errs)
	}
}

// Under a 4 GB address-space cap and no -max-memory, the default budget
// (from RLIMIT_AS) turns the cases above into errors, in a process of its
// own: there, running out of memory would be Go's fatal error, exit 2 with
// a goroutine trace.
func TestMemoryBudgetUnderAddressSpaceCap(t *testing.T) {
	if os.Getenv("SDGO_HELPER_ARGS") != "" {
		t.Skip("the helper process")
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh to set ulimit -v")
	}
	g := graph.New()
	shape := g.Const("shape", ndarray.Must(ndarray.FromSlice([]int64{25000, 25000})))
	g.Fill(shape, ndarray.Int64, 1).Named("y") // 5 GB: past the cap, below RAM
	fill := saveTemp(t, g, "fill.fb")
	unknown := unknownSizeGraph(t)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"run", fill, "y"}, 1, "int64 array of shape [25000 25000]"},
		{[]string{"gradcheck", "-unknown-size", "20000", unknown}, 2, "float64 array of shape [20000 20000]"},
	} {
		cmd := exec.Command("sh", "-c", `ulimit -v 4000000 && exec "$0" -test.run='^TestSdgoHelper$'`, os.Args[0])
		cmd.Env = append(os.Environ(), "SDGO_HELPER_ARGS="+strings.Join(c.args, "\n"))
		var errb bytes.Buffer
		cmd.Stderr = &errb
		err := cmd.Run()
		code := cmd.ProcessState.ExitCode()
		if code != c.code || !strings.Contains(errb.String(), c.want) || !strings.Contains(errb.String(), "memory budget") {
			t.Errorf("%q under ulimit -v 4000000: exit %d (%v), stderr %.2000s; want %d and %q", c.args, code, err, errb.String(), c.code, c.want)
		}
	}
}

// TestSdgoHelper runs sdgo with the arguments in $SDGO_HELPER_ARGS and
// exits with its status, for tests that need a process of its own.
func TestSdgoHelper(t *testing.T) {
	args := os.Getenv("SDGO_HELPER_ARGS")
	if args == "" {
		t.Skip("run by TestMemoryBudgetUnderAddressSpaceCap")
	}
	os.Exit(run(strings.Split(args, "\n"), os.Stdout, os.Stderr))
}

// unknownSizeGraph saves a graph whose loss is the sum of squares of a
// float64 placeholder "p" of shape [-1 -1].
func unknownSizeGraph(t *testing.T) string {
	g := graph.New()
	p := g.Placeholder("p", ndarray.Float64, -1, -1)
	p.Mul(p).Sum().Named("loss")
	return saveTemp(t, g, "unknown.fb")
}
