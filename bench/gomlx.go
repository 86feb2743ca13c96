package main

import (
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"

	"github.com/sdgo/sdgo/ndarray"
)

// GoMLX is a peer through bench/gomlx, a module of its own (so that sdgo's
// module does not depend on GoMLX), built once per bench run with the go
// command that runs the bench. Where it cannot be built (no module proxy,
// say), GoMLX's columns stay empty and the reason is printed.

var gomlxOnce struct {
	sync.Once
	bin, dir string
	err      error
}

// gomlxPeerBinary builds bench/gomlx into a temporary directory and
// returns the program's path.
func gomlxPeerBinary() (string, error) {
	gomlxOnce.Do(func() {
		_, file, _, ok := runtime.Caller(0)
		src := filepath.Join(filepath.Dir(file), "gomlx")
		if !ok {
			src = filepath.Join("bench", "gomlx")
		}
		if gomlxOnce.dir, gomlxOnce.err = os.MkdirTemp("", "sdgo-bench-gomlx-bin"); gomlxOnce.err != nil {
			return
		}
		bin := filepath.Join(gomlxOnce.dir, "gomlx-peer")
		cmd := osexec.Command(goCommand(), "build", "-o", bin, ".")
		cmd.Dir = src
		if out, err := cmd.CombinedOutput(); err != nil {
			gomlxOnce.err = fmt.Errorf("building %s: %v\n%s", src, err, out)
			return
		}
		gomlxOnce.bin = bin
	})
	return gomlxOnce.bin, gomlxOnce.err
}

// goCommand is the go command of the toolchain that built the bench.
func goCommand() string {
	if g := filepath.Join(runtime.GOROOT(), "bin", "go"); fileExists(g) {
		return g
	}
	return "go"
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// removeGomlxPeer removes the built peer.
func removeGomlxPeer() {
	if gomlxOnce.dir != "" {
		os.RemoveAll(gomlxOnce.dir)
	}
}

// startGomlx starts the GoMLX peer on model, as startTorch does PyTorch.
func startGomlx(model string, dt ndarray.DType, threads int, arrays map[string]*ndarray.Array) (*childPeer, error) {
	bin, err := gomlxPeerBinary()
	if err != nil {
		return nil, err
	}
	return startChild("gomlx", arrays, func(_, data string) (*osexec.Cmd, error) {
		return osexec.Command(bin, model, dt.String(), strconv.Itoa(threads), data), nil
	})
}
