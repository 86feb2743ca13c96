package train

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/sdgo/sdgo/kernels"
)

// TestFusedUpdatersMatchLoops runs the chunked, vectorised updates (adamStep,
// momentumStep) against their element loops (adamLoop, momentumLoop) for a
// few steps, on lengths around the chunk size and long enough to be split
// between goroutines. They round differently (fused multiply-adds, b·m then
// (1-b)·g added), so they agree to a few ulps of the dtype, not bit for bit.
func TestFusedUpdatersMatchLoops(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2)) // the split path, even on one core
	lengths := []int{1, 7, updChunk - 1, updChunk, updChunk + 13, 2*parallelMin + 3*updChunk + 5}
	for _, n := range lengths {
		t.Run(fmt.Sprintf("f32/%d", n), func(t *testing.T) { checkFused[float32](t, n, 2e-5) })
		t.Run(fmt.Sprintf("f64/%d", n), func(t *testing.T) { checkFused[float64](t, n, 1e-13) })
	}
}

func checkFused[T kernels.Float](t *testing.T, n int, tol float64) {
	rng := rand.New(rand.NewPCG(3, uint64(n)))
	fill := func() []T {
		s := make([]T, n)
		for i := range s {
			s[i] = T(rng.NormFloat64())
		}
		return s
	}
	for _, u := range []struct {
		name  string
		state int
		fused func(x [4][]T, it int)
		loop  func(x [4][]T, it int)
	}{
		{"Adam", 2, func(x [4][]T, it int) { adamStep(x, adamAt(it, 0)) }, func(x [4][]T, it int) { adamLoop(x, adamAt(it, 0)) }},
		{"AdamW", 2, func(x [4][]T, it int) { adamStep(x, adamAt(it, 0.01)) }, func(x [4][]T, it int) { adamLoop(x, adamAt(it, 0.01)) }},
		{"Momentum", 1, func(x [4][]T, _ int) { momentumStep(x, 0.05, 0.9, 0, false) }, func(x [4][]T, _ int) { momentumLoop(x, 0.05, 0.9, 0, false) }},
		{"Nesterovs+decay", 1, func(x [4][]T, _ int) { momentumStep(x, 0.05, 0.9, 0.001, true) }, func(x [4][]T, _ int) { momentumLoop(x, 0.05, 0.9, 0.001, true) }},
	} {
		var a, b [4][]T
		a[0] = fill()
		b[0] = append([]T(nil), a[0]...)
		for i := 2; i < 2+u.state; i++ {
			a[i], b[i] = make([]T, n), make([]T, n)
		}
		for it := 0; it < 3; it++ {
			a[1] = fill()
			b[1] = append([]T(nil), a[1]...)
			u.fused(a, it)
			u.loop(b, it)
		}
		for j := range a {
			for i := range a[j] {
				got, want := float64(a[j][i]), float64(b[j][i])
				if !(math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))) {
					t.Fatalf("%s: array %d element %d: %v fused, %v from the loop", u.name, j, i, got, want)
				}
			}
		}
	}
}

// adamAt are Adam's coefficients at iteration it, with Adam's defaults and
// learning rate 1e-3, as Adam.apply computes them.
func adamAt(it int, decay float64) adamCoeffs {
	t := float64(it + 1)
	b1, b2 := 0.9, 0.999
	return adamCoeffs{b1: b1, b2: b2, alpha: 1e-3 * math.Sqrt(1-math.Pow(b2, t)) / (1 - math.Pow(b1, t)),
		epsHat: 1e-8 * math.Sqrt(1-math.Pow(b2, t)), decay: decay}
}

// BenchmarkAdamUpdate times Adam's update of the MLP's parameters
// (784·512+512·512+512·10 weights and 1,034 biases) fused on the kernels
// and in the element loop, in the same run.
func BenchmarkAdamUpdate(b *testing.B) {
	b.Run("f32", func(b *testing.B) { benchAdam[float32](b) })
	b.Run("f64", func(b *testing.B) { benchAdam[float64](b) })
}

func benchAdam[T kernels.Float](b *testing.B) {
	sizes := []int{784 * 512, 512, 512 * 512, 512, 512 * 10, 10}
	params := make([][4][]T, len(sizes))
	for i, n := range sizes {
		for j := range params[i] {
			params[i][j] = make([]T, n)
			for e := range params[i][j] {
				params[i][j][e] = T(0.5 + float64(e%7)/10)
			}
		}
	}
	c := adamAt(3, 0)
	for _, v := range []struct {
		name string
		f    func(x [4][]T, c adamCoeffs)
	}{{"fused", adamStep[T]}, {"loop", adamLoop[T]}} {
		b.Run(v.name, func(b *testing.B) {
			for b.Loop() {
				for _, x := range params {
					v.f(x, c)
				}
			}
		})
	}
}

// momentumLoop is the update momentumStep computes, one element at a time:
// the reference its tests compare with.
func momentumLoop[T kernels.Float](x [4][]T, lr, mu, decay float64, nesterov bool) {
	p, g, v := x[0], x[1], x[2]
	l, m, d := T(lr), T(mu), T(decay)
	if nesterov {
		for i := range p {
			prev := v[i]
			v[i] = m*v[i] - l*g[i]
			p[i] += -m*prev + (1+m)*v[i] - d*p[i]
		}
		return
	}
	for i := range p {
		v[i] = m*v[i] - l*g[i]
		p[i] += v[i] - d*p[i]
	}
}

// adamLoop is the update adamStep computes, one element at a time: the
// reference its tests compare with.
func adamLoop[T kernels.Float](x [4][]T, c adamCoeffs) {
	p, g, m, v := x[0], x[1], x[2], x[3]
	b1, b2, alpha, eps, decay := T(c.b1), T(c.b2), T(c.alpha), T(c.epsHat), T(c.decay)
	for i := range p {
		m[i] = b1*m[i] + (1-b1)*g[i]
		v[i] = b2*v[i] + (1-b2)*g[i]*g[i]
		p[i] -= alpha*m[i]/(T(math.Sqrt(float64(v[i])))+eps) + decay*p[i]
	}
}
