package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// maxStreamInput caps what sdgo reads from an input file that is not a
// regular file (a pipe, a device such as /dev/zero), whose size cannot be
// known beforehand: a -feeds JSON file, a .npy feed. Regular files are
// read whole (a .npy file only when its size is the one its header gives).
var maxStreamInput int64 = 1 << 30

// Exit statuses (see the package doc).
const (
	exitOK       = 0 // done; every checked gradient passed
	exitFailed   = 1 // the run or the check failed, or stopped at -timeout
	exitUsage    = 2 // flags, arguments, values given in flags (and Go's status when its runtime dies)
	exitBadFile  = 3 // a graph file that does not load, an input file that cannot be read or makes no sense
	exitInternal = 4 // a bug in sdgo, caught (a panic turned into an error)
)

// inputError marks an error as being about an input file (a .npy feed, a
// -feeds JSON file): exit status 3.
type inputError struct{ err error }

func (e *inputError) Error() string { return e.err.Error() }
func (e *inputError) Unwrap() error { return e.err }

// badInput marks err (not nil) as an input file's.
func badInput(err error) error { return &inputError{err} }

// exitFor is the exit status for err: exitInternal for a bug sdgo caught
// (an *ops.PanicError, anywhere in the chain), exitFailed for -timeout's
// deadline, exitBadFile for an input file's error, else def.
func exitFor(err error, def int) int {
	var pe *ops.PanicError
	var ie *inputError
	switch {
	case errors.As(err, &pe):
		return exitInternal
	case errors.Is(err, context.DeadlineExceeded):
		return exitFailed
	case errors.As(err, &ie):
		return exitBadFile
	}
	return def
}

// openInput opens an input file and returns its size, -1 when it is not a
// regular file.
func openInput(path string) (*os.File, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	if st.IsDir() {
		f.Close()
		return nil, 0, fmt.Errorf("%s is a directory", path)
	}
	if !st.Mode().IsRegular() {
		return f, -1, nil
	}
	return f, st.Size(), nil
}

// readAllCapped reads r to its end, refusing more than limit bytes.
func readAllCapped(path string, r io.Reader, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s goes on past %d bytes; it is not a regular file, so its size is not known beforehand", path, limit)
	}
	return b, nil
}

// readJSONFile decodes the JSON object of a -feeds file as it reads it,
// so that a file that is not JSON (/dev/zero) fails at its first bytes; a
// stream that is not a regular file is read up to maxStreamInput bytes.
func readJSONFile(path string) (map[string]any, error) {
	f, size, err := openInput(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	limit := maxStreamInput
	if size >= 0 {
		limit = size + 1<<20 // a file that grows a little is still read
	}
	lr := &io.LimitedReader{R: f, N: limit + 1}
	dec := json.NewDecoder(lr)
	var v map[string]any
	err = dec.Decode(&v)
	if lr.N <= 0 {
		return nil, fmt.Errorf("%s goes on past %d bytes; it is not a regular file, so its size is not known beforehand", path, limit)
	}
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("more data after the JSON object")
	}
	return v, nil
}

// readNPYFile reads and decodes a .npy file. Its header is read first: a
// file that does not start like a .npy file is refused after a few bytes,
// and no more data is read than the header's shape needs (and one byte to
// tell whether the file goes on), so /dev/zero or an endless pipe ends in
// an error rather than a read without end.
func readNPYFile(path string) (*ndarray.Array, error) {
	f, size, err := openInput(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	head := make([]byte, 12)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	head = head[:n]
	if n < 10 || string(head[:len(npyMagic)]) != npyMagic || head[6] < 1 || head[6] > 3 {
		return readNPY(head) // its error says what is wrong
	}
	start, hlen := 10, int(binary.LittleEndian.Uint16(head[8:10]))
	if head[6] >= 2 {
		if n < 12 {
			return readNPY(head)
		}
		start, hlen = 12, int(binary.LittleEndian.Uint32(head[8:12]))
		if hlen > npyMaxHeader {
			return readNPY(head)
		}
	}
	hb, err := readAllCapped(path, io.LimitReader(f, int64(start+hlen-n)), int64(start+hlen))
	if err != nil {
		return nil, err
	}
	b := append(head, hb...)
	if len(b) < start+hlen {
		return readNPY(b)
	}
	hdr, err := parseNPYHeader(string(b[start : start+hlen]))
	if err != nil {
		return readNPY(b)
	}
	if err := ndarray.CheckShape(hdr.shape); err != nil {
		return readNPY(b)
	}
	want := int64(ndarray.Layout{Shape: hdr.shape}.Size()) * int64(hdr.dtype.Size())
	if size >= 0 && size != int64(start+hlen)+want {
		return nil, fmt.Errorf("%w: shape %v of %v needs %d data bytes after offset %d, the file has %d",
			errNPY, hdr.shape, hdr.dtype, want, start+hlen, size-int64(start+hlen))
	}
	if size < 0 && want > maxStreamInput {
		return nil, fmt.Errorf("%w: shape %v of %v needs %d data bytes, above the %d read from a file that is not a regular file",
			errNPY, hdr.shape, hdr.dtype, want, maxStreamInput)
	}
	data, err := io.ReadAll(io.LimitReader(f, want+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > want {
		return nil, fmt.Errorf("%w: shape %v of %v needs %d data bytes after offset %d; the file goes on past them",
			errNPY, hdr.shape, hdr.dtype, want, start+hlen)
	}
	return readNPY(append(b, data...))
}
