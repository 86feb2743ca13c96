package kernels

import (
	"math/rand/v2"
	"testing"
)

// An element must get the same bits whatever the length of the run it is
// in: the assembly kernels take short slices on paths of their own (AVX-512
// hands a slice shorter than one vector to the AVX2 kernel, which takes one
// shorter than its vector in XMM halves or one element at a time; see short
// in kernels/amd64/gen.go), so their transcendentals must agree bit for bit
// with the vector loop: each element computed in runs of every length up to
// 16 against the same element in one long run, on every implementation.
func TestShortRuns(t *testing.T) {
	for _, im := range allImpls() {
		t.Run(im.name, func(t *testing.T) {
			t.Parallel()
			shortRunsSame[float32](t, im)
			shortRunsSame[float64](t, im)
		})
	}
}

func shortRunsSame[T Float](t *testing.T, im impl) {
	tab := tableOf[T](im)
	ops := map[string]func(dst, x []T){"Exp": tab.Exp, "Log": tab.Log, "Tanh": tab.Tanh, "Sigmoid": tab.Sigmoid}
	r := rand.New(rand.NewPCG(9, 9))
	const n = 1 << 14
	for name, f := range ops {
		lo, hi := -30.0, 30.0
		if name == "Log" {
			lo, hi = 0, 1e6
		}
		x := input[T](r, n, 0, true, lo, hi)
		want := make([]T, n)
		f(want, x)
		got := make([]T, n)
		for c := 1; c <= 16; c++ {
			for i := 0; i < n; i += c {
				j := min(i+c, n)
				f(got[i:j], x[i:j])
			}
			for i := range got {
				if !same(got[i], want[i]) {
					t.Fatalf("%s %T %s: runs of %d: x[%d] = %v gives %v, in one run %v", im.name, x[0], name, c, i, x[i], got[i], want[i])
				}
			}
		}
	}
}
