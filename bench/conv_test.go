package main

import (
	"math"
	"runtime"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
)

// torch_peer.py's conv models on arrays whose first loss is known by
// hand: conv3x3 of a 2x2 image of ones by a 3x3 kernel of ones, padded by
// one, gives 4 at every cell (each window holds the whole image), so
// sum(y) = 16; LeNet with every weight and bias zero gives equal logits,
// so its loss is ln 10. Skipped where no python imports torch.
func TestTorchConvPeers(t *testing.T) {
	if torchVersion() == "" {
		t.Skip("no python imports torch")
	}
	for _, c := range convPeerCases() {
		p, err := startTorch(c.model, ndarray.Float32, 1, c.arrays)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(p.firstLoss-c.want) > 1e-5 {
			t.Errorf("%s: first loss %v, want %v", c.model, p.firstLoss, c.want)
		}
		if d, err := p.round(2); err != nil || d <= 0 {
			t.Errorf("%s: round: %v, %v", c.model, d, err)
		}
		p.close()
	}
}

// convPeerCases are the conv models on arrays whose first loss is known
// by hand (see TestTorchConvPeers).
func convPeerCases() []struct {
	model  string
	arrays map[string]*ndarray.Array
	want   float64
} {
	ones := func(shape ...int) *ndarray.Array { return ndarray.Must(ndarray.Full(ndarray.Float32, 1, shape...)) }
	zeros := func(shape ...int) *ndarray.Array { return ndarray.Must(ndarray.Zeros(ndarray.Float32, shape...)) }
	lenet := map[string]*ndarray.Array{
		"x": ones(2, 784), "y": ndarray.Must(ndarray.FromSlice([]float32{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}, 2, 10)),
		"conv1_w": zeros(5, 5, 1, 6), "conv1_b": zeros(6), "conv2_w": zeros(5, 5, 6, 16), "conv2_b": zeros(16),
		"fc1_w": zeros(400, 120), "fc1_b": zeros(120), "fc2_w": zeros(120, 84), "fc2_b": zeros(84), "fc3_w": zeros(84, 10), "fc3_b": zeros(10),
	}
	return []struct {
		model  string
		arrays map[string]*ndarray.Array
		want   float64
	}{
		{"conv3x3", map[string]*ndarray.Array{"x": ones(1, 1, 2, 2), "w": ones(1, 1, 3, 3)}, 16},
		{"lenet", lenet, math.Log(10)},
	}
}

// The gorgonia peers of the conv models give the hand-worked first losses
// of convPeerCases, and take steps after the first.
func TestGorgoniaConvPeers(t *testing.T) {
	for _, c := range convPeerCases() {
		p, err := newGorgoniaConv(c.model, c.arrays)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 2; i++ {
			if err := p.step(); err != nil {
				t.Fatalf("%s: step %d: %v", c.model, i, err)
			}
			if i == 0 && math.Abs(p.lastLoss-c.want) > 1e-5 {
				t.Errorf("%s: first loss %v, want %v", c.model, p.lastLoss, c.want)
			}
		}
	}
}

// BenchmarkConvStep runs the conv models' sdgo steps alone, on one core,
// for profiling (`go test ./bench -run XXX -bench ConvStep -cpuprofile
// cpu.out`); the comparison with the peers is `go run ./bench -models
// conv3x3,lenet`.
func BenchmarkConvStep(b *testing.B) {
	for _, model := range []string{"conv3x3", "lenet"} {
		b.Run(model, func(b *testing.B) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
			build := conv3x3Model
			if model == "lenet" {
				build = lenetModel
			}
			m, err := build()
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := m.step(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
