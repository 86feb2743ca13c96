package kernels

import (
	"math/rand/v2"
	"testing"
)

// GemmStop computes what Gemm computes when it is not stopped, over panels
// of rows and of columns, every layout; stopped, it returns false after
// asking no more than once per panel.
func TestGemmStop(t *testing.T) {
	defer func(p float64) { stopPanel = p }(stopPanel)
	stopPanel = 16 * 40 * 8 // a few panels of 16 lines in the shapes below
	r := rand.New(rand.NewPCG(7, 8))
	for _, sh := range [][3]int{{70, 40, 9}, {40, 90, 9}, {5, 3, 2}} {
		m, n, k := sh[0], sh[1], sh[2]
		for _, l := range gemmLayouts(m, n, k) {
			a, b := input[float64](r, l.asz, 0, false, -1, 1), input[float64](r, l.bsz, 0, false, -1, 1)
			c0 := input[float64](r, l.csz, 0, false, -1, 1)
			want := append([]float64(nil), c0...)
			Gemm(1, m, n, k, 0.5, a, l.rsa, l.csa, b, l.rsb, l.csb, 2, want, l.rsc, l.csc)
			asked := 0
			got := append([]float64(nil), c0...)
			if !GemmStop(func() bool { asked++; return false }, 1, m, n, k, 0.5, a, l.rsa, l.csa, b, l.rsb, l.csb, 2, got, l.rsc, l.csc) {
				t.Fatalf("%v %s: stopped without being asked to", sh, l.name)
			}
			for i := range want {
				if d := got[i] - want[i]; d > 1e-12 || d < -1e-12 {
					t.Fatalf("%v %s: element %d is %v, Gemm gives %v", sh, l.name, i, got[i], want[i])
				}
			}
			if sh[0] == 5 {
				continue // one panel
			}
			if asked < 3 {
				t.Errorf("%v %s: stop asked %d times; want once a panel", sh, l.name, asked)
			}
			for _, after := range []int{0, 1, 2} {
				asked = 0
				ok := GemmStop(func() bool { asked++; return asked > after }, 1, m, n, k, 0.5, a, l.rsa, l.csa, b, l.rsb, l.csb, 2, got, l.rsc, l.csc)
				if ok || asked != after+1 {
					t.Errorf("%v %s: stop true from call %d: GemmStop returned %v after %d calls", sh, l.name, after+1, ok, asked)
				}
			}
		}
	}
}

// GemmBatchStop, groups of small products and large products one by one.
func TestGemmBatchStop(t *testing.T) {
	defer func(p float64) { stopPanel = p }(stopPanel)
	r := rand.New(rand.NewPCG(9, 10))
	const m, n, k, count = 20, 18, 7, 12
	a := input[float32](r, count*m*k, 0, false, -1, 1)
	b := input[float32](r, count*k*n, 0, false, -1, 1)
	offs := make([][3]int, count)
	for i := range offs {
		offs[i] = [3]int{i * m * k, i * k * n, i * m * n}
	}
	want := make([]float32, count*m*n)
	GemmBatch(1, m, n, k, 1, a, k, 1, b, n, 1, 0, want, n, 1, offs)
	for _, panel := range []float64{3 * m * n * k, m * n * k / 3} {
		stopPanel = panel
		got := make([]float32, len(want))
		if !GemmBatchStop(func() bool { return false }, 1, m, n, k, 1, a, k, 1, b, n, 1, 0, got, n, 1, offs) {
			t.Fatal("stopped without being asked to")
		}
		for i := range want {
			if d := got[i] - want[i]; d > 1e-5 || d < -1e-5 {
				t.Fatalf("panel %v: element %d is %v, GemmBatch gives %v", panel, i, got[i], want[i])
			}
		}
		asked := 0
		if GemmBatchStop(func() bool { asked++; return asked > 2 }, 1, m, n, k, 1, a, k, 1, b, n, 1, 0, got, n, 1, offs) || asked != 3 {
			t.Errorf("panel %v: stop true from call 3: %d calls", panel, asked)
		}
	}
}
