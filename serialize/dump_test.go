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
