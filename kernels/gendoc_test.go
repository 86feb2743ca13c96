package kernels

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"testing"
)

// TestGeneratedDocs checks the doc comments gen.go writes for the assembly
// routines: it substitutes the element type for the type parameter T of
// the loops, and a substitution of every capital T made "Taylor" into
// "float32aylor", "math.Tanh" into "math.float32anh" and "TestAccuracy"
// into "float32estAccuracy".
func TestGeneratedDocs(t *testing.T) {
	mangled := regexp.MustCompile(`float(32|64)[A-Za-z]\w*`)
	files, err := filepath.Glob(filepath.Join("amd64", "*_amd64.go"))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, filepath.Join("arm64", "neon_arm64.go"))
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if w := mangled.FindString(c.Text); w != "" {
					t.Errorf("%s: %q in %q", fset.Position(c.Pos()), w, c.Text)
				}
			}
		}
	}
}
