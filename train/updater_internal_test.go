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
		{"Adam", 2, func(x [4][]T, it int) { passOn(x, NewAdam(1e-3).prepare(1e-3, 0, it)) }, func(x [4][]T, it int) { adamLoop(x, adamAt(it, 0)) }},
		{"AdamW", 2, func(x [4][]T, it int) { passOn(x, NewAdam(1e-3).prepare(1e-3, 0.01, it)) }, func(x [4][]T, it int) { adamLoop(x, adamAt(it, 0.01)) }},
		{"Momentum", 1, func(x [4][]T, it int) { passOn(x, NewMomentum(0.05, 0.9, false).prepare(0.05, 0, it)) }, func(x [4][]T, _ int) { momentumLoop(x, 0.05, 0.9, 0, false) }},
		{"Nesterovs+decay", 1, func(x [4][]T, it int) { passOn(x, NewMomentum(0.05, 0.9, true).prepare(0.05, 0.001, it)) }, func(x [4][]T, _ int) { momentumLoop(x, 0.05, 0.9, 0.001, true) }},
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

// passOn applies u to the elements of one parameter, its gradient and its
// state, x, as a step's update pass does.
func passOn[T kernels.Float](x [4][]T, u update) {
	var p updatePass
	addParam(&p, x)
	p.run(u)
}

// adamAt are Adam's coefficients at iteration it, with Adam's defaults and
// learning rate 1e-3, as Adam.prepare computes them.
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
	u := NewAdam(1e-3).prepare(1e-3, 0, 3)
	c := adamAt(3, 0)
	// The fused update runs as the trainer runs it, one pass over all
	// the parameters shared between the cores (go test -cpu 1,2).
	b.Run("fused", func(b *testing.B) {
		for b.Loop() {
			var p updatePass
			for _, x := range params {
				addParam(&p, x)
			}
			p.run(u)
		}
	})
	b.Run("loop", func(b *testing.B) {
		for b.Loop() {
			for _, x := range params {
				adamLoop(x, c)
			}
		}
	})
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

// TestUpdatePassSameOnAnyCores applies Adam in one pass over parameters of
// both dtypes, some split into many pieces and some of a piece or less, on
// one goroutine and shared between four: the update is elementwise, so
// every element must come out the same, bit for bit.
func TestUpdatePassSameOnAnyCores(t *testing.T) {
	sizes := []int{3*pieceLen + 17, 10, pieceLen, 2*parallelMin + 1, 1}
	run := func(procs int) ([][4][]float32, [][4][]float64) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		rng := rand.New(rand.NewPCG(5, 5))
		var x32 [][4][]float32
		var x64 [][4][]float64
		var p updatePass
		for i, n := range sizes {
			if i%2 == 0 {
				x := fillParam[float32](rng, n)
				x32 = append(x32, x)
				addParam(&p, x)
			} else {
				x := fillParam[float64](rng, n)
				x64 = append(x64, x)
				addParam(&p, x)
			}
		}
		for it := 0; it < 3; it++ {
			p.run(NewAdam(1e-3).prepare(1e-3, 0.001, it))
		}
		return x32, x64
	}
	a32, a64 := run(1)
	b32, b64 := run(4)
	same := func(name string, i, j int, a, b float64) {
		if math.Float64bits(a) != math.Float64bits(b) {
			t.Fatalf("%s parameter %d, element %d: %v on one core, %v shared", name, i, j, a, b)
		}
	}
	for i := range a32 {
		for k := range a32[i] {
			for j := range a32[i][k] {
				same("float32", i, j, float64(a32[i][k][j]), float64(b32[i][k][j]))
			}
		}
	}
	for i := range a64 {
		for k := range a64[i] {
			for j := range a64[i][k] {
				same("float64", i, j, a64[i][k][j], b64[i][k][j])
			}
		}
	}
}

// fillParam returns a parameter and its gradient of n random elements, and
// Adam's two state arrays, zero.
func fillParam[T kernels.Float](rng *rand.Rand, n int) [4][]T {
	var x [4][]T
	for k := range x {
		x[k] = make([]T, n)
	}
	for j := range n {
		x[0][j], x[1][j] = T(rng.NormFloat64()), T(rng.NormFloat64())
	}
	return x
}
