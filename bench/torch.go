package main

import (
	"bufio"
	_ "embed"
	"fmt"
	"io"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ndarray/npy"
)

// PyTorch is a peer when python3 imports torch (Debian's python3-torch,
// 1.13): torch_peer.py runs in a child process that stays up for the
// whole model, so its rounds alternate with sdgo's as gorgonia's do.

//go:embed torch_peer.py
var torchScript string

var torchOnce struct {
	sync.Once
	python  string // the interpreter that imports torch
	version string // "" when none does
}

// torchVersion returns PyTorch's version, or "" when no python imports
// torch; the bench then leaves PyTorch's columns empty. The interpreter is
// $PYTHON when set, else the first of python3 and /usr/bin/python3 (where
// Debian's python3-torch is, when a python3 of another install comes first
// on the PATH) that imports torch.
func torchVersion() string {
	torchOnce.Do(func() {
		pythons := []string{"python3", "/usr/bin/python3"}
		if p := os.Getenv("PYTHON"); p != "" {
			pythons = []string{p}
		}
		for _, py := range pythons {
			out, err := osexec.Command(py, "-c", "import torch; print(torch.__version__)").Output()
			if err == nil {
				torchOnce.python, torchOnce.version = py, strings.TrimSpace(string(out))
				return
			}
		}
	})
	return torchOnce.version
}

// torchPeer is a running torch_peer.py.
type torchPeer struct {
	cmd       *osexec.Cmd
	in        io.WriteCloser
	out       *bufio.Scanner
	dir       string
	firstLoss float64
}

// startTorch starts torch_peer.py on model with the given arrays (the
// batch and the initial parameters, by the names the script reads), in
// dtype, on threads threads, and reads the loss of its first step.
func startTorch(model string, dt ndarray.DType, threads int, arrays map[string]*ndarray.Array) (*torchPeer, error) {
	dir, err := os.MkdirTemp("", "sdgo-bench-torch")
	if err != nil {
		return nil, err
	}
	p := &torchPeer{dir: dir}
	fail := func(err error) (*torchPeer, error) {
		p.close()
		return nil, fmt.Errorf("pytorch peer: %w", err)
	}
	script, data := filepath.Join(dir, "torch_peer.py"), filepath.Join(dir, "arrays.npz")
	if err := os.WriteFile(script, []byte(torchScript), 0o644); err != nil {
		return fail(err)
	}
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
	n := strconv.Itoa(threads)
	p.cmd = osexec.Command(torchOnce.python, script, model, dt.String(), n, data)
	p.cmd.Env = append(os.Environ(), "OPENBLAS_NUM_THREADS="+n, "OMP_NUM_THREADS="+n, "MKL_NUM_THREADS="+n)
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

// read reads the script's next line, "KEY VALUE", and returns VALUE.
func (p *torchPeer) read(key string) (float64, error) {
	if !p.out.Scan() {
		if err := p.out.Err(); err != nil {
			return 0, err
		}
		return 0, fmt.Errorf("torch_peer.py ended before its %s line", key)
	}
	k, v, _ := strings.Cut(p.out.Text(), " ")
	if k != key {
		return 0, fmt.Errorf("torch_peer.py said %q, want a %s line", p.out.Text(), key)
	}
	return strconv.ParseFloat(v, 64)
}

// round runs steps training steps in the peer and returns the time per
// step, as the peer measured it (without the pipe's round trip).
func (p *torchPeer) round(steps int) (time.Duration, error) {
	if _, err := fmt.Fprintf(p.in, "run %d\n", steps); err != nil {
		return 0, fmt.Errorf("pytorch peer: %w", err)
	}
	s, err := p.read("seconds")
	if err != nil {
		return 0, fmt.Errorf("pytorch peer: %w", err)
	}
	return time.Duration(s * float64(time.Second) / float64(steps)), nil
}

// close stops the script and removes its files.
func (p *torchPeer) close() {
	if p.in != nil {
		p.in.Close()
	}
	if p.cmd != nil && p.cmd.Process != nil {
		p.cmd.Wait()
	}
	os.RemoveAll(p.dir)
}
