//go:build unix

package atomicfile

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestHelperBlockedWrite is not a test: run by TestKilledWriteCleanedUp as
// a child process, it starts a Write that never finishes.
func TestHelperBlockedWrite(t *testing.T) {
	path := os.Getenv("ATOMICFILE_BLOCKED_WRITE")
	if path == "" {
		t.Skip("a helper for TestKilledWriteCleanedUp")
	}
	Write(path, func(w io.Writer) error {
		w.Write(make([]byte, 1<<20))
		select {} // killed here
	})
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var s []string
	for _, e := range es {
		s = append(s, e.Name())
	}
	return s
}

// A write killed mid-way leaves its temporary file; the next write to the
// same path removes it (three kills left 354 MB for good, issue 23), while
// the temporary file of a write still in progress, and files that only
// look alike, stay.
func TestKilledWriteCleanedUp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "g.fb")
	var prev []string
	for k := 0; k < 2; k++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperBlockedWrite$")
		cmd.Env = append(os.Environ(), "ATOMICFILE_BLOCKED_WRITE="+path)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(20 * time.Second)
		var now []string
		for time.Now().Before(deadline) {
			if now = names(t, dir); len(now) == 1 && !slices.Equal(now, prev) {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		cmd.Process.Kill()
		cmd.Wait()
		// Each write removed the one killed before it.
		if len(now) != 1 || slices.Equal(now, prev) || !isTemp(now[0], "g.fb") {
			t.Fatalf("killed write %d left %q (before it: %q)", k+1, now, prev)
		}
		prev = now
	}
	// A write in progress: a temporary file held locked.
	live, err := os.CreateTemp(dir, tempPrefix("g.fb")+"*")
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	lockTemp(live)
	others := []string{".g.fb.tmp", ".g.fb.tmpx1", ".h.fb.tmp123", "g.fb.tmp123"}
	for _, o := range others {
		os.WriteFile(filepath.Join(dir, o), nil, 0o644)
	}
	if err := Write(path, writeString("new")); err != nil {
		t.Fatal(err)
	}
	got := names(t, dir)
	want := append([]string{"g.fb", filepath.Base(live.Name())}, others...)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("after the next write: %q; want %q", got, want)
	}
	if read(t, path) != "new" {
		t.Errorf("the file holds %q", read(t, path))
	}
}
