package train_test

import (
	"math/rand/v2"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/train"
)

// BenchmarkStep measures one training step of the spirals MLP (batch 64,
// hidden 64) after warm-up; allocs/op and B/op show what a step allocates.
func BenchmarkStep(b *testing.B) {
	for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
		b.Run(dt.String(), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			f, l := train.Spirals(rng, 32, 0.01, dt)
			g := mlp(dt, 64, 1)
			tr, err := train.New(g, &train.Config{Updater: train.NewAdam(0.01), Features: []string{"x"}, Labels: []string{"y"}})
			if err != nil {
				b.Fatal(err)
			}
			batch := &train.Batch{Features: []*ndarray.Array{f}, Labels: []*ndarray.Array{l}}
			for i := 0; i < 10; i++ {
				tr.Step(batch)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := tr.Step(batch); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
