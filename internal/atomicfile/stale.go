package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"time"
)

// tempPrefix is how the temporary file of a write to base begins; the
// rest is os.CreateTemp's random digits. A write that was killed leaves
// such a file behind; the next write to the same path removes it.
func tempPrefix(base string) string { return "." + base + ".tmp" }

// isTemp reports whether name is a temporary file of a write to base.
func isTemp(name, base string) bool {
	rest, ok := strings.CutPrefix(name, tempPrefix(base))
	if !ok || rest == "" {
		return false
	}
	for _, c := range rest {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// staleAge is how old a temporary file must be to be removed where no lock
// tells whether a write still holds it (see inUse).
const staleAge = time.Hour

// removeStale removes the temporary files that earlier writes to base in
// dir left behind, killed before they could rename or remove them; a
// temporary file a write in progress holds (locked, see lockTemp) is left
// alone. Errors are ignored: what cannot be removed stays, as before.
func removeStale(dir, base string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || !isTemp(e.Name(), base) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if !inUse(p) {
			os.Remove(p)
		}
	}
}
