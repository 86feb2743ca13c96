package npy

import (
	"archive/zip"
	"bufio"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/sdgo/sdgo/ndarray"
)

// A .npz file (numpy.savez, numpy.savez_compressed) is a zip archive with
// one .npy file per array, named after the array with ".npy" added.

// ReadNPZ reads every array of the .npz archive r of size bytes, by name
// (without the ".npy" numpy adds). Stored and deflated members are read
// alike; each member is bounded as Read bounds a .npy file, so a member
// that inflates beyond its header's shape is refused.
func ReadNPZ(r io.ReaderAt, size int64) (map[string]*ndarray.Array, error) {
	z, err := zip.NewReader(r, size)
	if err != nil {
		return nil, fmt.Errorf("%w: not a zip archive: %v", ErrFormat, err)
	}
	out := make(map[string]*ndarray.Array, len(z.File))
	for _, f := range z.File {
		name := strings.TrimSuffix(f.Name, ".npy")
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("%w: member %q appears twice", ErrFormat, f.Name)
		}
		a, err := readMember(f)
		if err != nil {
			return nil, fmt.Errorf("member %q: %w", f.Name, err)
		}
		out[name] = a
	}
	return out, nil
}

func readMember(f *zip.File) (*ndarray.Array, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	defer rc.Close()
	return Read(bufio.NewReader(rc))
}

// ReadNPZFile reads the .npz file at path (see ReadNPZ).
func ReadNPZFile(path string) (map[string]*ndarray.Array, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file (a .npz archive is read from its end)", path)
	}
	m, err := ReadNPZ(f, st.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// WriteNPZ writes arrays as a .npz archive, as numpy.savez does: one
// uncompressed member NAME.npy per array, in the order of the names.
func WriteNPZ(w io.Writer, arrays map[string]*ndarray.Array) error {
	names := make([]string, 0, len(arrays))
	for n := range arrays {
		if n == "" {
			return fmt.Errorf("npz: an array has an empty name")
		}
		names = append(names, n)
	}
	slices.Sort(names)
	z := zip.NewWriter(w)
	for _, n := range names {
		mw, err := z.CreateHeader(&zip.FileHeader{Name: n + ".npy", Method: zip.Store})
		if err != nil {
			return err
		}
		if err := Write(mw, arrays[n]); err != nil {
			return fmt.Errorf("npz: array %q: %w", n, err)
		}
	}
	return z.Close()
}
