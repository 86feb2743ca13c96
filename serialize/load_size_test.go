package serialize

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A graph file over 2 GiB is refused before it is read, and the error
// states its real size (it said 2147483648 bytes, the cap of what it
// measured, for any file larger).
func TestLoadTooLargeStatesSize(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.fb")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	const size = 3 << 30 // sparse: no disk is used
	if err := f.Truncate(size); err != nil {
		t.Skipf("cannot make a sparse file: %v", err)
	}
	f.Close()
	_, err = Load(path)
	var fe *FormatError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "3221225472 bytes") {
		t.Fatalf("loading a 3 GiB file: %v; want a FormatError stating 3221225472 bytes", err)
	}
}
