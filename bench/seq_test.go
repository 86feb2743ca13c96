package main

import (
	"math"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
)

// torch_peer.py's LSTM and transformer on arrays whose first loss is known
// by hand: with the output layer's weights zero the logits are its bias
// [0, ln 3], softmax [1/4, 3/4], and the label picks the first class, so
// the loss is ln 4 whatever the sequence does. Skipped where no python
// imports torch. Most of its time is the two peers' start-up (importing
// torch).
func TestTorchPeerSequenceModels(t *testing.T) {
	if torchVersion() == "" {
		t.Skip("no python imports torch")
	}
	f := func(v []float32, shape ...int) *ndarray.Array { return ndarray.Must(ndarray.FromSlice(v, shape...)) }
	z := func(shape ...int) *ndarray.Array { return ndarray.Must(ndarray.Zeros(ndarray.Float32, shape...)) }
	ones := func(shape ...int) *ndarray.Array { return ndarray.Must(ndarray.Full(ndarray.Float32, 1, shape...)) }
	y, bias := f([]float32{1, 0}, 1, 2), f([]float32{0, float32(math.Log(3))}, 2)
	const w, steps = 4, 3 // width 4: the peer's four heads of one feature
	models := map[string]map[string]*ndarray.Array{
		"lstm": {"x": ones(1, steps, 2), "y": y, "wx": z(2, 4*w), "wr": z(w, 4*w), "b": z(4 * w), "wo": z(w, 2), "bo": bias},
		"transformer": {"x": ones(1, steps, w), "y": y, "q_w": z(w, w), "q_b": z(w), "k_w": z(w, w), "k_b": z(w), "v_w": z(w, w), "v_b": z(w),
			"o_w": z(w, w), "o_b": z(w), "ff1_w": z(w, 8), "ff1_b": z(8), "ff2_w": z(8, w), "ff2_b": z(w),
			"ln1_g": ones(w), "ln1_b": z(w), "ln2_g": ones(w), "ln2_b": z(w), "out_w": z(w, 2), "out_b": bias},
	}
	for name, arrays := range models {
		p, err := startTorch(name, ndarray.Float32, 1, arrays)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if math.Abs(p.firstLoss-math.Log(4)) > 1e-6 {
			t.Errorf("%s: first loss %v, want ln 4 = %v", name, p.firstLoss, math.Log(4))
		}
		if d, err := p.round(2); err != nil || d <= 0 {
			t.Errorf("%s: round: %v, %v", name, d, err)
		}
		p.close()
	}
}
