//go:build !unix

package atomicfile

import (
	"os"
	"time"
)

// lockTemp does nothing where there is no flock: inUse goes by age.
func lockTemp(*os.File) {}

// inUse reports whether the temporary file at p may belong to a write in
// progress: without locks, one modified in the last staleAge.
func inUse(p string) bool {
	st, err := os.Stat(p)
	return err != nil || time.Since(st.ModTime()) < staleAge
}
