package main

import (
	"math"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
)

// torch_peer.py's MLP on arrays whose first loss is known by hand: with
// zero weights the logits are the last bias [0, ln 3], softmax [1/4, 3/4],
// and the label picks the first class, so the loss is ln 4. Skipped where
// no python imports torch (make test does not install it).
func TestTorchPeer(t *testing.T) {
	if torchVersion() == "" {
		t.Skip("no python imports torch")
	}
	f := func(v []float64, shape ...int) *ndarray.Array { return ndarray.Must(ndarray.FromSlice(v, shape...)) }
	arrays := map[string]*ndarray.Array{
		"x":  f([]float64{1, 2}, 1, 2),
		"y":  f([]float64{1, 0}, 1, 2),
		"w0": f(make([]float64, 6), 2, 3), "b0": f(make([]float64, 3), 3),
		"w1": f(make([]float64, 6), 3, 2), "b1": f([]float64{0, math.Log(3)}, 2),
	}
	p, err := startTorch("mlp", ndarray.Float64, 1, arrays)
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	if math.Abs(p.firstLoss-math.Log(4)) > 1e-12 {
		t.Errorf("first loss %v, want ln 4 = %v", p.firstLoss, math.Log(4))
	}
	if d, err := p.round(3); err != nil || d <= 0 {
		t.Errorf("round: %v, %v", d, err)
	}
}

// The table names the OpenBLAS settings the peer inherits, so that a run
// under a tuning variable is not mistaken for PyTorch's default speed.
func TestInheritedOpenBLASTuning(t *testing.T) {
	t.Setenv("OPENBLAS_L2_SIZE", "512")
	t.Setenv("OPENBLAS_NUM_THREADS", "7")
	t.Setenv("OPENBLAS_CORETYPE", "Haswell")
	t.Setenv("OPENBLAS_VERBOSE", "2")
	got := strings.Join(inheritedOpenBLASTuning(), " ")
	for _, kv := range []string{"OPENBLAS_L2_SIZE=512", "OPENBLAS_VERBOSE=2"} {
		if !strings.Contains(got, kv) {
			t.Errorf("inheritedOpenBLASTuning() = %q, without %s", got, kv)
		}
	}
	for _, name := range []string{"OPENBLAS_NUM_THREADS", "OPENBLAS_CORETYPE"} {
		if strings.Contains(got, name) {
			t.Errorf("inheritedOpenBLASTuning() = %q names %s, which the bench sets itself", got, name)
		}
	}
}
