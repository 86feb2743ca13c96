package main

import (
	"context"
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
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, ndarray.ErrTooLarge):
		// Out of time or over the memory budget: the run failed, whatever
		// the command was doing when it stopped.
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
