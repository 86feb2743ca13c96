package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// writeHook, when a test sets it, wraps the writer of every file sdgo
// writes.
var writeHook func(io.Writer) io.Writer

// writeFile writes the file at path with write. A regular file (or a new
// one) is written to a temporary file beside it and renamed over it once
// complete, so that a failed write leaves what was there as it was; a
// symbolic link keeps pointing to the file it names, which is replaced. A
// path that is not a regular file (a device such as /dev/stdout, a FIFO) is
// written in place: renaming over it would replace the device. Errors start
// with path (not the temporary file's name).
func writeFile(path string, write func(io.Writer) error) error {
	if err := writeFileAs(path, write); err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

func writeFileAs(path string, write func(io.Writer) error) (err error) {
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
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	var w io.Writer = tmp
	if writeHook != nil {
		w = writeHook(w)
	}
	if err = write(w); err != nil {
		return err
	}
	if err = tmp.Chmod(mode); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func writeInPlace(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	var w io.Writer = f
	if writeHook != nil {
		w = writeHook(w)
	}
	err = write(w)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// sameFile reports whether a and b name the same existing file.
func sameFile(a, b string) bool {
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
}
