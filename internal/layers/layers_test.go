// Package layers holds the test of DESIGN.md's rule that dependencies
// point one way: cmd -> serialize, validation, train, exec -> autodiff ->
// graph, ops -> ndarray -> kernels; nothing below imports anything above.
package layers

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/sdgo/sdgo/"

// layer gives a package directory (relative to the module root) its place;
// a package may import packages of its own layer or below. Subdirectories
// take their parent's layer unless listed.
var layers = map[string]int{
	"internal": 0, "kernels": 0,
	"internal/opexec": 2,
	"ndarray":         1,
	"ops":             2,
	"graph":           3,
	"autodiff":        4,
	"exec":            5,
	"serialize":       6, "validation": 6, "train": 6,
	"cmd": 7, "bench": 7, "examples": 7,
}

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
