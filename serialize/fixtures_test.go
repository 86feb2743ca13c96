package serialize

import (
	"path/filepath"
	"testing"
)

// fixtureDir holds real SameDiff files written by Deeplearning4j.
const fixtureDir = "../testdata/samediff"

func fixtureFiles(tb testing.TB) []string {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(fixtureDir, "*.fb"))
	if err != nil {
		tb.Fatal(err)
	}
	if len(files) == 0 {
		tb.Fatalf("no fixtures found in %s", fixtureDir)
	}
	return files
}
