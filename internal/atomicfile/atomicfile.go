// Package atomicfile replaces files so that a failed write leaves the old
// file as it was: the one place where sdgo writes a file (graph files from
// package serialize, the command's outputs).
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// TestHook, when a test sets it, wraps the writer handed to write.
var TestHook func(io.Writer) io.Writer

// Write writes the file at path with write. A regular file (or a new one)
// is written to a temporary file beside it, synced, and renamed over it
// once complete, keeping the old file's permissions; a symbolic link keeps
// pointing to the file it names, which is replaced (renaming over the link
// would replace the link and leave its target as it was). A path that is
// not a regular file (a device such as /dev/stdout, a FIFO) is written in
// place: renaming over it would replace the device.
//
// A write killed before it could finish leaves its temporary file
// (".NAME.tmp" and digits); the next Write to the same path removes those
// no write in progress holds (an flock on the open temporary file tells;
// where there is none, those untouched for an hour).
//
// Errors are write's, or the file system's (*os.PathError, naming the
// temporary file where one was used); callers say which file they wrote.
func Write(path string, write func(io.Writer) error) (err error) {
	if target, e := filepath.EvalSymlinks(path); e == nil {
		path = target
	}
	mode := os.FileMode(0o644)
	if st, e := os.Stat(path); e == nil {
		if !st.Mode().IsRegular() {
			return writeInPlace(path, write)
		}
		mode = st.Mode().Perm()
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	removeStale(dir, base)
	tmp, err := os.CreateTemp(dir, tempPrefix(base)+"*")
	if err != nil {
		// the temporary file's name means nothing to the caller
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return fmt.Errorf("cannot create a file in %s: %w", dir, pe.Err)
		}
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	lockTemp(tmp)
	if err = write(hooked(tmp)); err != nil {
		return err
	}
	if err = tmp.Chmod(mode); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	// The rename reaches the disk with the directory. Its error is not
	// returned: the new file is in place, and a write that reported
	// failure now would no longer leave the previous file untouched. Some
	// systems cannot sync a directory at all.
	if d, e := os.Open(dir); e == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

func writeInPlace(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	err = write(hooked(f))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func hooked(w io.Writer) io.Writer {
	if TestHook != nil {
		return TestHook(w)
	}
	return w
}
