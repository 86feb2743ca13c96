// Package layers holds the tests of the README's rules on dependencies:
// they point one way, cmd -> serialize, validation, train, exec ->
// autodiff -> graph, ops -> ndarray -> kernels, and nothing below imports
// anything above; and the engine (every layer below cmd) depends on no
// gorgonia, arrow or protobuf, which only the gorgonia bridge
// ndarray/densetensor and the benchmarks bring in.
package layers

import (
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/sdgo/sdgo/"

// layer gives a package directory (relative to the module root) its place;
// a package may import packages of its own layer or below. Subdirectories
// take their parent's layer unless listed. The engine is every layer below
// engineTop's; ndarray/densetensor, the gorgonia bridge, sits above it so
// that nothing in the engine imports it.
var layers = map[string]int{
	"internal": 0, "kernels": 0,
	"internal/opexec": 2,
	"ndarray":         1,
	"metrics":         2,
	"ops":             2,
	"graph":           3,
	"autodiff":        4,
	"exec":            5,
	"weightinit":      4,
	"serialize":       6, "validation": 6, "train": 6, "datasets": 6, "layers": 6,
	"cmd": 7, "bench": 7, "examples": 7,

	"ndarray/densetensor": 7,
}

const engineTop = 7

func layerOf(dir string) (int, bool) {
	for d := dir; d != "." && d != "/"; d = filepath.Dir(d) {
		if l, ok := layers[filepath.ToSlash(d)]; ok {
			return l, true
		}
	}
	return 0, false
}

func TestDependenciesPointOneWay(t *testing.T) {
	root := filepath.Join("..", "..")
	checked := 0
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		from, ok := layerOf(rel)
		if !ok {
			t.Errorf("%s: package directory %s has no layer in this test", path, rel)
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		if f.Name.Name == "main" && strings.HasPrefix(rel, "kernels") {
			return nil // generators (go:build ignore) run by go generate
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !strings.HasPrefix(p, module) {
				continue
			}
			to, ok := layerOf(strings.TrimPrefix(p, module))
			if !ok {
				t.Errorf("%s imports %s, which has no layer in this test", path, p)
				continue
			}
			checked++
			if to > from {
				t.Errorf("%s (layer %d) imports %s (layer %d): dependencies must point down", path, from, p, to)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("only %d imports checked", checked)
	}
}

// heavy reports whether an import path is one the engine must not depend
// on: gorgonia and what it brings (arrow, protobuf).
func heavy(path string) bool {
	return strings.HasPrefix(path, "gorgonia.org/") ||
		strings.HasPrefix(path, "github.com/apache/arrow/") ||
		strings.Contains(path, "protobuf")
}

// TestEngineIsLean asks the go command for every package's dependencies,
// direct and indirect (go list -deps, without tests), and fails if an
// engine package has a heavy one. The bridge must have gorgonia.org/tensor,
// or the check would be blind.
func TestEngineIsLean(t *testing.T) {
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}{{range .Deps}} {{.}}{{end}}", "./...")
	cmd.Dir = filepath.Join("..", "..")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	engine, bridge := 0, false
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		rel := strings.TrimPrefix(f[0], module)
		if rel == "ndarray/densetensor" {
			bridge = slices.Contains(f[1:], "gorgonia.org/tensor")
		}
		l, ok := layerOf(rel)
		if !ok {
			t.Errorf("package %s has no layer in this test", f[0])
			continue
		}
		if l >= engineTop {
			continue
		}
		engine++
		var bad []string
		for _, dep := range f[1:] {
			if heavy(dep) {
				bad = append(bad, dep)
			}
		}
		if len(bad) > 0 {
			t.Errorf("%s depends on %d packages of gorgonia, arrow or protobuf (%s, ...): the engine must build without them",
				f[0], len(bad), strings.Join(bad[:min(len(bad), 3)], ", "))
		}
	}
	if !bridge {
		t.Error("go list shows no gorgonia.org/tensor under ndarray/densetensor: the check cannot see gorgonia")
	}
	if engine < 15 {
		t.Fatalf("only %d engine packages checked", engine)
	}
}
