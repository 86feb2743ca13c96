package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ndarray/npy"
	"github.com/sdgo/sdgo/serialize"
)

// writeNPYFile writes a to path as a .npy file.
func writeNPYFile(t *testing.T, path string, a *ndarray.Array) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := npy.Write(f, a); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// sdgo run takes placeholder values from .npy files (cast to the
// placeholder's dtype) and writes its outputs as .npy files.
func TestRunNPY(t *testing.T) {
	dir := t.TempDir()
	in0 := filepath.Join(dir, "in0.npy")
	// float64 on purpose: numpy's default; the placeholder is float32.
	writeNPYFile(t, in0, ndarray.Must(ndarray.FromSlice([]float64{1, 2, 3, 4}, 2, 2)))
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
		a, err := npy.Decode(b)
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
	writeNPYFile(t, bad, ndarray.Must(ndarray.Zeros(ndarray.Float32, 3)))
	code, _, errs = sdgo(t, "run", "-ph", "input_0="+bad, "-ph", "input_1=5:", simpleif)
	if code == 0 || !strings.Contains(errs, "input_0") {
		t.Errorf("wrong shape: exit %d, %s", code, errs)
	}
	code, _, errs = sdgo(t, "run", "-ph", "input_0="+filepath.Join(dir, "missing.npy"), "-ph", "input_1=5:", simpleif)
	if code != 3 || !strings.Contains(errs, "missing.npy") {
		t.Errorf("missing file: exit %d, %s", code, errs)
	}
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
