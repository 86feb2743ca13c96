package doccheck

import (
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// threshold is the share of exported names, in percent, that must carry a
// doc comment.
const threshold = 95.0

// skipDirs are directories, relative to the module root and in slash form,
// whose packages are not counted at all.
var skipDirs = map[string]bool{
	"examples":     true,
	"serialize/fb": true, // flatc output
}

// decl is one declaration of an exported name.
type decl struct {
	key string // package directory, then the name (Recv.Name for a method)
	pos token.Position
	doc bool
}

func hasText(groups ...*ast.CommentGroup) bool {
	for _, g := range groups {
		if g != nil && strings.TrimSpace(g.Text()) != "" {
			return true
		}
	}
	return false
}

// recvName returns the name of a method receiver's base type: T for T,
// *T, T[E] and *T[E, F].
func recvName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// ignored reports whether the file is built only with the tag ignore (a
// generator run with go run), which keeps it out of every package.
func ignored(f *ast.File) bool {
	for _, g := range f.Comments {
		if g.Pos() > f.Package {
			break
		}
		for _, c := range g.List {
			if !constraint.IsGoBuild(c.Text) {
				continue
			}
			x, err := constraint.Parse(c.Text)
			if err != nil {
				continue
			}
			if tag, ok := x.(*constraint.TagExpr); ok && tag.Tag == "ignore" {
				return true
			}
		}
	}
	return false
}

// fileDecls lists the exported names a file declares, keyed under dir.
func fileDecls(fset *token.FileSet, dir string, f *ast.File) []decl {
	var out []decl
	add := func(name string, pos token.Pos, doc bool) {
		out = append(out, decl{key: dir + " " + name, pos: fset.Position(pos), doc: doc})
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			name := d.Name.Name
			if d.Recv != nil && len(d.Recv.List) > 0 {
				r := recvName(d.Recv.List[0].Type)
				if !ast.IsExported(r) {
					continue
				}
				name = r + "." + name
			}
			add(name, d.Name.Pos(), hasText(d.Doc))
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						add(s.Name.Name, s.Name.Pos(), hasText(s.Doc, s.Comment, d.Doc))
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() {
							add(n.Name, n.Pos(), hasText(s.Doc, s.Comment, d.Doc))
						}
					}
				}
			}
		}
	}
	return out
}

// pkgCount is the tally of one package directory.
type pkgCount struct {
	dir                 string
	total, undocumented int
}

// moduleDecls parses the module under root and returns, per exported name,
// its declarations.
func moduleDecls(t *testing.T, root string) map[string][]decl {
	t.Helper()
	names := map[string][]decl{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_") ||
				d.Name() == "testdata" || d.Name() == "vendor" || skipDirs[rel]) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if f.Name.Name == "main" || ast.IsGenerated(f) || ignored(f) {
			return nil
		}
		for _, d := range fileDecls(fset, filepath.ToSlash(filepath.Dir(rel)), f) {
			names[d.key] = append(names[d.key], d)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}

func TestExportedNamesDocumented(t *testing.T) {
	root := filepath.Join("..", "..")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found from the test's directory: %v", err)
	}
	names := moduleDecls(t, root)
	if len(names) == 0 {
		t.Fatal("no exported names found")
	}

	pkgs := map[string]*pkgCount{}
	var missing []string
	total, undocumented := 0, 0
	for key, ds := range names {
		dir, name, _ := strings.Cut(key, " ")
		p := pkgs[dir]
		if p == nil {
			p = &pkgCount{dir: dir}
			pkgs[dir] = p
		}
		p.total++
		total++
		for _, d := range ds {
			if !d.doc {
				p.undocumented++
				undocumented++
				missing = append(missing, fmt.Sprintf("%s:%d: %s", filepath.ToSlash(d.pos.Filename), d.pos.Line, name))
				break
			}
		}
	}

	dirs := make([]string, 0, len(pkgs))
	for dir := range pkgs {
		dirs = append(dirs, dir)
	}
	sort.Strings(dirs)
	for _, dir := range dirs {
		p := pkgs[dir]
		t.Logf("%-28s %4d of %4d documented (%5.1f%%)", p.dir, p.total-p.undocumented, p.total, percent(p.total-p.undocumented, p.total))
	}
	got := percent(total-undocumented, total)
	t.Logf("module: %d of %d exported names documented (%.1f%%; at least %.0f%% wanted)", total-undocumented, total, got, threshold)

	if got < threshold {
		sort.Strings(missing)
		t.Errorf("only %.1f%% of exported names are documented, below %.0f%%; the %d without a doc comment:\n%s",
			got, threshold, len(missing), strings.Join(missing, "\n"))
	}
}

func percent(n, of int) float64 {
	if of == 0 {
		return 100
	}
	return 100 * float64(n) / float64(of)
}

// TestRule pins down what counts as documented on a file made for it.
func TestRule(t *testing.T) {
	const src = `package p

// F is documented.
func F() {}

func G() {}

//go:noinline
func H() {}

// T is documented.
type T int

type U int // U has a line comment.

type (
	// V is documented.
	V int
	W int
)

// The group's comment covers X and Y.
type (
	X int
	Y int
)

// M is documented.
func (T) M() {}

func (*T) N() {}

func (u) M() {}

type u int

type Gen[E any] struct{}

// M is documented.
func (g *Gen[E]) M() {}

const (
	A = iota // A has a line comment.
	B
	// C is documented.
	C
	c
)

// The group's comment covers D and E.
const (
	D = 1
	E = 2
)

// Z is documented, and so is Z2 beside it.
var Z, Z2 = 1, 2

var Q = 3
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, d := range fileDecls(fset, "p", f) {
		got[strings.TrimPrefix(d.key, "p ")] = d.doc
	}
	want := map[string]bool{
		"F": true, "G": false, "H": false,
		"T": true, "U": true, "V": true, "W": false, "X": true, "Y": true,
		"T.M": true, "T.N": false, "Gen": false, "Gen.M": true,
		"A": true, "B": false, "C": true, "D": true, "E": true,
		"Z": true, "Z2": true, "Q": false,
	}
	for name, doc := range want {
		if d, ok := got[name]; !ok {
			t.Errorf("%s not counted", name)
		} else if d != doc {
			t.Errorf("%s counted as documented = %v, want %v", name, d, doc)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s counted, but is not an exported name of an exported type", name)
		}
	}
}
