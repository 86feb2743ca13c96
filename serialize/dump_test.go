package serialize

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestDumpFixtures writes a listing of every fixture to the file named by
// SDGO_FIXTURE_DUMP (skipped when unset).
func TestDumpFixtures(t *testing.T) {
	out := os.Getenv("SDGO_FIXTURE_DUMP")
	if out == "" {
		t.Skip("set SDGO_FIXTURE_DUMP=path to write the fixture listing")
	}
	var b bytes.Buffer
	b.WriteString("# Every fixture, decoded by serialize.decode and listed by dumpGraph.\n" +
		"# Variables: index, id (node, output), name, VarType, dtype, stored array (shape-info decoded, values).\n" +
		"# Nodes: id, name, opName, opType, opNum, inputs as (node,output)\"variable\", every field present in the file,\n" +
		"# properties. Regenerate: SDGO_FIXTURE_DUMP=path go test -run TestDumpFixtures ./serialize/\n\n")
	for _, f := range fixtureFiles(t) {
		buf, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		g, err := decode(buf)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		b.WriteString("==================== " + filepath.Base(f) + "\n")
		dumpGraph(&b, g)
		b.WriteString("\n")
	}
	if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
