package ndarray

import (
	"math"
	"testing"
)

// TestReluGradSpecialValues checks the branch-free relu gradient against
// binFn's definition (y where x > 0, else 0) on the values where reading the
// bits could go wrong: both zeros, subnormals, infinities, NaNs of either
// sign, and the largest finite numbers, with y's own sign, zeros and NaN
// kept as they are where x > 0.
func TestReluGradSpecialValues(t *testing.T) {
	xs := []float64{0, math.Copysign(0, -1), 5e-324, -5e-324, 1e-45, -1e-45, math.Inf(1), math.Inf(-1),
		math.NaN(), -math.NaN(), math.MaxFloat64, -math.MaxFloat64, math.MaxFloat32, -math.MaxFloat32, 1, -1, 0.3, -2.5}
	ys := []float64{-7, math.NaN(), math.Copysign(0, -1), 3.5}
	for _, yv := range ys {
		x64 := make([]float64, len(xs))
		y64 := make([]float64, len(xs))
		x32 := make([]float32, len(xs))
		y32 := make([]float32, len(xs))
		for i, v := range xs {
			x64[i], y64[i] = v, yv
			x32[i], y32[i] = float32(v), float32(yv)
		}
		x32[1] = float32(math.Copysign(0, -1))    // float32(-0) of a variable keeps the sign; spelled out
		x32[8] = math.Float32frombits(0xffc00000) // a NaN with the sign bit set
		x32[9] = math.Float32frombits(0x7fc00000) // and one without
		x64[9] = math.Float64frombits(0xfff8000000000000)
		d64 := make([]float64, len(xs))
		d32 := make([]float32, len(xs))
		reluGrad64(d64, x64, y64)
		reluGrad32(d32, x32, y32)
		f64, f32 := binFn[float64](ReluGrad), binFn[float32](ReluGrad)
		for i := range xs {
			if w := f64(x64[i], y64[i]); math.Float64bits(d64[i]) != math.Float64bits(w) {
				t.Errorf("float64 x=%v y=%v: got %v (bits %x), want %v", x64[i], y64[i], d64[i], math.Float64bits(d64[i]), w)
			}
			if w := f32(x32[i], y32[i]); math.Float32bits(d32[i]) != math.Float32bits(w) {
				t.Errorf("float32 x=%v y=%v: got %v (bits %x), want %v", x32[i], y32[i], d32[i], math.Float32bits(d32[i]), w)
			}
		}
	}
}
