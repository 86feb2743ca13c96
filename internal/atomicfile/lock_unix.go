//go:build unix

package atomicfile

import (
	"os"
	"syscall"
)

// lockTemp takes an exclusive lock on a temporary file for as long as it
// is open: the kernel drops it when the file is closed or its process
// dies, so a temporary file nobody holds is one a killed write left.
func lockTemp(f *os.File) { syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) }

// inUse reports whether a write in progress holds the temporary file at p.
func inUse(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return true // cannot tell: leave it
	}
	defer f.Close()
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil
}
