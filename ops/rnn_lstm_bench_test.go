package ops_test

import (
	"math/rand/v2"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// lstmLayer at the benchmark size (batch 32, 128 steps, 256
// units, float32), beside its peer in the same run: the same recurrence
// as 128 calls of lstmBlockCell (one GEMM of [x, h] per step, no
// batched input projection). Fresh zeroed buffers each call (no executor
// pool), for all three.
//
//	go test -run XXX -bench LSTMLayer ./ops
func BenchmarkLSTMLayer(b *testing.B) {
	const sL, bS, n = 128, 32, 256
	r := rand.New(rand.NewPCG(1, 1))
	f32 := func(s ...int) *ndarray.Array {
		return ndarray.Must(ndarray.Cast(ndarray.Must(ndarray.RandNormal(r, ndarray.Float64, 0, 0.05, s...)), ndarray.Float32))
	}
	x, wx, wr, bias := f32(sL, bS, n), f32(n, 4*n), f32(n, 4*n), f32(4*n)
	hI, cI := f32(bS, n), f32(bS, n)
	args := ops.Args{I: []int64{0, 0, 2, 0, 0}, B: []bool{true, false, true, true, false, true, false, false}, F: []float64{0}}
	layer, _ := ops.Lookup("lstmLayer")
	bp, _ := ops.Lookup("lstmLayer_bp")
	cell, _ := ops.Lookup("lstmBlockCell")
	b.Run("lstmLayer forward", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := layer.Run(nil, []*ndarray.Array{x, wx, wr, bias, hI, cI}, &args); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("lstmBlockCell x128 forward", func(b *testing.B) {
		w, z := f32(2*n, 4*n), f32(n)
		steps := make([]*ndarray.Array, sL)
		for t := range steps {
			steps[t] = f32(bS, n)
		}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			c, h := cI, hI
			for t := 0; t < sL; t++ {
				out, err := cell.Run(nil, []*ndarray.Array{steps[t], c, h, w, z, z, z, bias}, &ops.Args{I: []int64{0}})
				if err != nil {
					b.Fatal(err)
				}
				c, h = out[1], out[6]
			}
		}
	})
	g := f32(sL, bS, n)
	b.Run("lstmLayer_bp", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := bp.Run(nil, []*ndarray.Array{x, wx, wr, bias, hI, cI, g}, &args); err != nil {
				b.Fatal(err)
			}
		}
	})
}
