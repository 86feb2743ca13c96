package main

import (
	_ "embed"
	"os"
	osexec "os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/sdgo/sdgo/ndarray"
	"golang.org/x/sys/cpu"
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

// startTorch starts torch_peer.py on model with the given arrays (the
// batch and the initial parameters, by the names the script reads), in
// dtype, on threads threads, and reads the loss of its first step.
func startTorch(model string, dt ndarray.DType, threads int, arrays map[string]*ndarray.Array) (*childPeer, error) {
	return startChild("pytorch", arrays, func(dir, data string) (*osexec.Cmd, error) {
		script := filepath.Join(dir, "torch_peer.py")
		if err := os.WriteFile(script, []byte(torchScript), 0o644); err != nil {
			return nil, err
		}
		n := strconv.Itoa(threads)
		cmd := osexec.Command(torchOnce.python, script, model, dt.String(), n, data)
		cmd.Env = append(os.Environ(), "OPENBLAS_NUM_THREADS="+n, "OMP_NUM_THREADS="+n, "MKL_NUM_THREADS="+n)
		if ct := openblasCoreType(); ct != "" {
			cmd.Env = append(cmd.Env, "OPENBLAS_CORETYPE="+ct)
		}
		return cmd, nil
	})
}

// inheritedOpenBLASTuning lists the OPENBLAS_* settings the PyTorch peer
// inherits from the caller besides the thread count and core type, which the
// bench sets itself. They are passed on unchanged but named in the table,
// since some (OPENBLAS_L2_SIZE, say) change OpenBLAS's blocking and with it
// PyTorch's speed several-fold.
func inheritedOpenBLASTuning() []string {
	var kvs []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "OPENBLAS_") && name != "OPENBLAS_NUM_THREADS" && name != "OPENBLAS_CORETYPE" {
			kvs = append(kvs, kv)
		}
	}
	sort.Strings(kvs)
	return kvs
}

// openblasCoreType is the OPENBLAS_CORETYPE the PyTorch peer runs with:
// the caller's when set, else the kernels this CPU's features allow. Debian's
// OpenBLAS 0.3.21 picks its kernels by CPU model and falls back to its SSE3
// Prescott ones on a model it does not know, as a VM's often is; timing
// PyTorch on those would flatter sdgo.
func openblasCoreType() string {
	if ct, ok := os.LookupEnv("OPENBLAS_CORETYPE"); ok {
		return ct
	}
	if runtime.GOARCH != "amd64" {
		return ""
	}
	switch {
	case cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VL && cpu.X86.HasAVX512DQ:
		return "SkylakeX"
	case cpu.X86.HasAVX2 && cpu.X86.HasFMA:
		return "Haswell"
	}
	return ""
}
