package ndarray

import (
	"math"
	"testing"
)

// The branch-free ReluGrad agrees with x > 0 ? y : 0 on the edge values
// of both float types: signed zeros, subnormals, infinities, NaNs of
// either sign, and the largest finite values.
func TestReluGradBitsEdges(t *testing.T) {
	xs := []float64{0, math.Copysign(0, -1), 5e-324, -5e-324, 1e-40, -1e-40, math.Inf(1), math.Inf(-1),
		math.NaN(), -math.NaN(), math.Float64frombits(0xfff8000000000001), 1, -1, math.MaxFloat64, -math.MaxFloat64, 3.5, -2.25}
	ys := []float64{2, -3, math.NaN(), math.Inf(-1), 7, 0.5, -1, 4, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	check := func(name string, got []float64, xsT []float64) {
		for i, x := range xsT {
			want := 0.0
			if x > 0 {
				want = ys[i]
			}
			if math.Float64bits(got[i]) != math.Float64bits(want) && !(math.IsNaN(got[i]) && math.IsNaN(want)) {
				t.Errorf("%s: relu_grad(x=%v, y=%v) = %v, want %v", name, x, ys[i], got[i], want)
			}
		}
	}
	d := make([]float64, len(xs))
	if !reluGradBits(d, xs, ys) {
		t.Fatal("float64 not handled")
	}
	check("float64", d, xs)
	x32, y32, d32 := make([]float32, len(xs)), make([]float32, len(xs)), make([]float32, len(xs))
	for i := range xs {
		x32[i], y32[i] = float32(xs[i]), float32(ys[i])
	}
	x32[2], x32[3] = math.Float32frombits(1), math.Float32frombits(0x80000001) // subnormals
	if !reluGradBits(d32, x32, y32) {
		t.Fatal("float32 not handled")
	}
	got, xsT := make([]float64, len(xs)), make([]float64, len(xs))
	for i := range xs {
		got[i], xsT[i] = float64(d32[i]), float64(x32[i])
	}
	check("float32", got, xsT)
	if reluGradBits([]int32{0}, []int32{1}, []int32{2}) {
		t.Error("int32 handled")
	}
}
