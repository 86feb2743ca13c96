package ops

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// namespaceFiles are the file-name prefixes of SameDiff's namespaces (see
// CONTRIBUTING.md): an op is registered in the file of its namespace, so its
// SameDiff name leads a reader to it.
var namespaceFiles = []string{
	"math", "nn", "cnn", "rnn", "loss", "random", "linalg", "image", "bitwise",
	"base_", "control", "tensorarray",
}

// TestOneOpPattern holds every op in package ops and its subpackages to the
// one way of declaring an op: a package-level, unexported variable set to
// Register(def), where def carries the gradient rule (in its literal, or as
// an argument of the factory that builds it), in the file of its SameDiff
// namespace. Nothing sets a Def's Grad afterwards, in an init function or
// anywhere else.
func TestOneOpPattern(t *testing.T) {
	registered := 0
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		sub := filepath.Dir(path) != "."
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				ast.Inspect(decl, func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.CallExpr:
						if isRegister(n) {
							t.Errorf("%s: Register called inside func %s; ops are registered by package-level var declarations", fset.Position(n.Pos()), decl.Name.Name)
						}
					case *ast.AssignStmt:
						for _, l := range n.Lhs {
							if s, ok := l.(*ast.SelectorExpr); ok && s.Sel.Name == "Grad" {
								t.Errorf("%s: a Def's Grad is assigned after its declaration; give the rule in the Def (or its factory's grad argument)", fset.Position(n.Pos()))
							}
						}
					}
					return true
				})
			case *ast.GenDecl:
				if decl.Tok != token.VAR {
					continue
				}
				for _, spec := range decl.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, v := range vs.Values {
						c, ok := v.(*ast.CallExpr)
						if !ok || !isRegister(c) {
							continue
						}
						registered++
						name := vs.Names[i].Name
						if ast.IsExported(name) {
							t.Errorf("%s: %s is exported; ops are found by name (Lookup), their variables stay unexported", fset.Position(vs.Pos()), name)
						}
						if !sub && !hasNamespacePrefix(filepath.Base(path)) {
							t.Errorf("%s: op %s is registered in a file that names no SameDiff namespace (want one of %v)", fset.Position(vs.Pos()), name, namespaceFiles)
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if registered < 100 {
		t.Fatalf("found %d Register calls; the walk missed the op files", registered)
	}
}

func isRegister(c *ast.CallExpr) bool {
	switch f := c.Fun.(type) {
	case *ast.Ident:
		return f.Name == "Register"
	case *ast.SelectorExpr:
		return f.Sel.Name == "Register"
	}
	return false
}

func hasNamespacePrefix(file string) bool {
	for _, p := range namespaceFiles {
		if strings.HasPrefix(file, p) {
			return true
		}
	}
	return false
}

// Every op says in one line what it computes: Doc is what `sdgo info` and
// the op tables show.
func TestEveryOpDocumented(t *testing.T) {
	for _, d := range All() {
		if strings.TrimSpace(d.Doc) == "" {
			t.Errorf("op %s has no Doc", d.Name)
		}
	}
}
