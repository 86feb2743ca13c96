package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ndarray/npy"
)

// The peers that are not Go packages of this module (PyTorch, and GoMLX in
// a module of its own) run as child processes that stay up for a whole
// model, so that their rounds alternate with sdgo's. They take the batch
// and sdgo's initial parameters from a .npz file, and speak one protocol
// on their standard streams: first a line "loss L", the loss of their
// first training step (which must be sdgo's); then, for each line "run N"
// on stdin, a line "seconds S": the time N more steps took, measured
// inside the peer.

// childPeer is a running peer.
type childPeer struct {
	name      string
	cmd       *osexec.Cmd
	in        io.WriteCloser
	out       *bufio.Scanner
	dir       string
	firstLoss float64
}

// startChild writes arrays to a .npz file in a new temporary directory,
// starts the command that command returns for that directory and file,
// and reads the peer's first loss.
func startChild(name string, arrays map[string]*ndarray.Array, command func(dir, data string) (*osexec.Cmd, error)) (*childPeer, error) {
	dir, err := os.MkdirTemp("", "sdgo-bench-"+name)
	if err != nil {
		return nil, err
	}
	p := &childPeer{name: name, dir: dir}
	fail := func(err error) (*childPeer, error) {
		p.close()
		return nil, fmt.Errorf("%s peer: %w", name, err)
	}
	data := filepath.Join(dir, "arrays.npz")
	f, err := os.Create(data)
	if err != nil {
		return fail(err)
	}
	err = npy.WriteNPZ(f, arrays)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fail(err)
	}
	if p.cmd, err = command(dir, data); err != nil {
		return fail(err)
	}
	p.cmd.Stderr = os.Stderr
	if p.in, err = p.cmd.StdinPipe(); err != nil {
		return fail(err)
	}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		return fail(err)
	}
	p.out = bufio.NewScanner(stdout)
	if err := p.cmd.Start(); err != nil {
		return fail(err)
	}
	if p.firstLoss, err = p.read("loss"); err != nil {
		return fail(err)
	}
	return p, nil
}

// read reads the peer's next line, "KEY VALUE", and returns VALUE.
func (p *childPeer) read(key string) (float64, error) {
	if !p.out.Scan() {
		if err := p.out.Err(); err != nil {
			return 0, err
		}
		return 0, fmt.Errorf("the peer ended before its %s line", key)
	}
	k, v, _ := strings.Cut(p.out.Text(), " ")
	if k != key {
		return 0, fmt.Errorf("the peer said %q, want a %s line", p.out.Text(), key)
	}
	return strconv.ParseFloat(v, 64)
}

// round runs steps training steps in the peer and returns the time per
// step, as the peer measured it (without the pipe's round trip).
func (p *childPeer) round(steps int) (time.Duration, error) {
	if _, err := fmt.Fprintf(p.in, "run %d\n", steps); err != nil {
		return 0, fmt.Errorf("%s peer: %w", p.name, err)
	}
	s, err := p.read("seconds")
	if err != nil {
		return 0, fmt.Errorf("%s peer: %w", p.name, err)
	}
	return time.Duration(s * float64(time.Second) / float64(steps)), nil
}

// close stops the peer and removes its files.
func (p *childPeer) close() {
	if p.in != nil {
		p.in.Close()
	}
	if p.cmd != nil && p.cmd.Process != nil {
		p.cmd.Wait()
	}
	os.RemoveAll(p.dir)
}
