package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/sdgo/sdgo/internal/atomicfile"
)

// writeFile writes the file at path with write through atomicfile.Write,
// so that a failed write leaves what was there as it was. Errors start with
// path (not the temporary file's name).
func writeFile(path string, write func(io.Writer) error) error {
	if err := atomicfile.Write(path, write); err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
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
