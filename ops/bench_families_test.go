package ops_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Benchmarks of the op families issue 26 added, each beside a peer in the
// same run: the plain Go loop computing the same values (float64 math per
// element, the way a Go program without kernels would), or for gather the
// copy of the same bytes. GB/s counts the input read and the output
// written.
//
//	go test -run XXX -bench Families ./ops

func benchOp(b *testing.B, name string, args ops.Args, in ...*ndarray.Array) {
	b.Helper()
	d, ok := ops.Lookup(name)
	if !ok {
		b.Fatalf("no op %s", name)
	}
	// Outputs come from a pool, as the executor's do: a fresh zeroed
	// buffer each call would time the page faults of the allocation.
	pool := map[string]*ndarray.Array{}
	c := ops.NewCtx(name, func(dt ndarray.DType, shape []int) *ndarray.Array {
		k := fmt.Sprint(dt, shape)
		if pool[k] == nil {
			pool[k] = ndarray.Must(ndarray.Zeros(dt, shape...))
		}
		return pool[k]
	}, nil)
	bytes := 0
	for _, a := range in {
		bytes += a.Size() * a.DType().Size()
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out, err := d.Run(c, in, &args)
		if err != nil {
			b.Fatal(err)
		}
		if i == 0 {
			for _, o := range out {
				bytes += o.Size() * o.DType().Size()
			}
		}
	}
	b.ReportMetric(float64(bytes)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
}

func benchLoop(b *testing.B, n, bytes int, f func()) {
	b.Helper()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f()
	}
	b.ReportMetric(float64(bytes)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
}

func BenchmarkFamilies(b *testing.B) {
	const n = 1 << 20
	r := rand.New(rand.NewPCG(1, 1))
	xs := make([]float32, n)
	for i := range xs {
		xs[i] = float32(4*r.Float64() - 2)
	}
	x := ndarray.Must(ndarray.FromSlice(xs, n))
	d := make([]float32, n)
	acts := []struct {
		op string
		f  func(v float64) float64
	}{
		{"gelu", func(v float64) float64 { return v / (1 + math.Exp(-1.702*v)) }},
		{"swish", func(v float64) float64 { return v / (1 + math.Exp(-v)) }},
		{"elu", func(v float64) float64 {
			if v > 0 {
				return v
			}
			return math.Expm1(v)
		}},
		{"softsign", func(v float64) float64 { return v / (1 + math.Abs(v)) }},
		{"mish", func(v float64) float64 { return v * math.Tanh(math.Log1p(math.Exp(v))) }},
	}
	for _, a := range acts {
		b.Run("activation/"+a.op+"/op", func(b *testing.B) { benchOp(b, a.op, ops.Args{}, x) })
		b.Run("activation/"+a.op+"/loop", func(b *testing.B) {
			benchLoop(b, n, 8*n, func() {
				for i, v := range xs {
					d[i] = float32(a.f(float64(v)))
				}
			})
		})
	}

	// layer_norm over the last axis of [4096 256] with a gain.
	const rows, cols = 4096, 256
	ln := ndarray.Must(ndarray.Reshape(x, rows, cols*(n/rows/cols)))
	gain := ndarray.Must(ndarray.Full(ndarray.Float32, 1.5, cols))
	b.Run("norm/layer_norm/op", func(b *testing.B) {
		benchOp(b, "layer_norm", ops.Args{I: []int64{1}}, ln, gain)
	})
	b.Run("norm/layer_norm/loop", func(b *testing.B) {
		benchLoop(b, n, 8*n, func() {
			for r := 0; r < rows; r++ {
				row, out := xs[r*cols:(r+1)*cols], d[r*cols:(r+1)*cols]
				var s, q float64
				for _, v := range row {
					s += float64(v)
				}
				m := s / cols
				for _, v := range row {
					q += (float64(v) - m) * (float64(v) - m)
				}
				sd := math.Sqrt(q / cols)
				for i, v := range row {
					out[i] = float32(1.5 * (float64(v) - m) / sd)
				}
			}
		})
	})

	// sigmoid cross-entropy of logits against 0/1 labels, the sum of
	// the losses.
	lab := make([]float32, n)
	for i := range lab {
		lab[i] = float32(r.IntN(2))
	}
	labels := ndarray.Must(ndarray.FromSlice(lab, n))
	one := ndarray.Must(ndarray.ScalarOf(ndarray.Float32, 1))
	b.Run("loss/sigm_cross_entropy_loss/op", func(b *testing.B) {
		benchOp(b, "sigm_cross_entropy_loss", ops.Args{I: []int64{int64(ops.LossSum)}, F: []float64{0}}, x, one, labels)
	})
	b.Run("loss/sigm_cross_entropy_loss/loop", func(b *testing.B) {
		var sink float64
		benchLoop(b, n, 8*n, func() {
			s := 0.0
			for i, v := range xs {
				z := float64(v)
				s += math.Max(z, 0) - z*float64(lab[i]) + math.Log1p(math.Exp(-math.Abs(z)))
			}
			sink = s
		})
		_ = sink
	})

	// An embedding lookup: gather 65536 rows of 64 from a [16384 64]
	// table, beside copying the same rows.
	const vocab, dim, picks = 16384, 64, 65536
	tab := ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.FromSlice(xs, n)), vocab, dim))
	ids := make([]int64, picks)
	for i := range ids {
		ids[i] = int64(r.IntN(vocab))
	}
	idx := ndarray.Must(ndarray.FromSlice(ids, picks))
	out := make([]float32, picks*dim)
	b.Run("gather/embedding/op", func(b *testing.B) { benchOp(b, "gather", ops.Args{I: []int64{0}}, tab, idx) })
	b.Run("gather/embedding/copy", func(b *testing.B) {
		benchLoop(b, picks*dim, 8*picks*dim, func() {
			for i, id := range ids {
				copy(out[i*dim:(i+1)*dim], xs[int(id)*dim:int(id+1)*dim])
			}
		})
	})
}
