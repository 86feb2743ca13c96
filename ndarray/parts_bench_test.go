package ndarray

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// stepOps are the elementwise ops and reductions of a training step of
// the MLP 784-512-512-10 at batch 128, on its hidden layers' shapes: the
// bias add x[N C] + b[C], relu and its gradient, and the bias gradient's
// column sum; beside them a softmax over rows of 1000 (a classifier's
// output, an attention's scores).
func stepOps(tb testing.TB, dt DType, n, c int) map[string]func() error {
	rng := rand.New(rand.NewPCG(9, uint64(n*c)))
	x, g := randArray(tb, rng, dt, n, c), randArray(tb, rng, dt, n, c)
	bias := randArray(tb, rng, dt, c)
	out := Must(Zeros(dt, n, c))
	col := Must(Zeros(dt, c))
	sm := randArray(tb, rng, dt, n, 1000)
	smOut := Must(Zeros(dt, n, 1000))
	return map[string]func() error{
		"bias_add":  func() error { return BinaryInto(Add, out, x, bias) },
		"relu":      func() error { return UnaryInto(Relu, out, x, 0) },
		"relu_grad": func() error { return BinaryInto(ReluGrad, out, x, g) },
		"col_sum":   func() error { return ReduceInto(Sum, col, g, []int{0}) },
		"softmax":   func() error { return SoftmaxInto(smOut, sm, 1) },
	}
}

// BenchmarkStepOps times stepOps alone; run it with -cpu 1,2 to see what a
// second core gives each op.
func BenchmarkStepOps(b *testing.B) {
	for _, dt := range []DType{Float32, Float64} {
		ops := stepOps(b, dt, 128, 512)
		for _, name := range []string{"bias_add", "relu", "relu_grad", "col_sum", "softmax"} {
			b.Run(fmt.Sprintf("%v/%s", dt, name), func(b *testing.B) {
				f := ops[name]
				times := make([]time.Duration, b.N)
				for i := range times {
					t0 := time.Now()
					if err := f(); err != nil {
						b.Fatal(err)
					}
					times[i] = time.Since(t0)
				}
				// On a shared machine the mean mostly measures the other
				// processes; the fastest calls and the tenth percentile
				// show what the op costs when it has the cores.
				slices.Sort(times)
				b.ReportMetric(float64(times[0].Nanoseconds())/1000, "min-µs")
				b.ReportMetric(float64(times[b.N/10].Nanoseconds())/1000, "p10-µs")
			})
		}
	}
}
