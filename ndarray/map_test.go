package ndarray

import (
	"math"
	"testing"
)

// MapFloatInto and MapFloat2Into give the same values as the plain loop over
// every element, on packed, transposed and broadcast operands, in both
// float dtypes.
func TestMapFloat(t *testing.T) {
	cube32 := func(d, x []float32) {
		for i, v := range x {
			d[i] = v * v * v
		}
	}
	cube64 := func(d, x []float64) {
		for i, v := range x {
			d[i] = v * v * v
		}
	}
	hyp32 := func(d, x, y []float32) {
		for i := range d {
			d[i] = float32(math.Hypot(float64(x[i]), float64(y[i])))
		}
	}
	hyp64 := func(d, x, y []float64) {
		for i := range d {
			d[i] = math.Hypot(x[i], y[i])
		}
	}
	for _, dt := range []DType{Float32, Float64} {
		x := Must(Arange(dt, -3, 0.5, 12))
		x = Must(Reshape(x, 3, 4))
		xt := Must(Permute(x, 1, 0)) // [4 3], strided
		out := Must(Zeros(dt, 4, 3))
		if err := MapFloatInto(out, xt, cube32, cube64); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 4; i++ {
			for j := 0; j < 3; j++ {
				v := xt.Float(i, j)
				if got := out.Float(i, j); got != v*v*v {
					t.Fatalf("%v cube at %d,%d: %v, want %v", dt, i, j, got, v*v*v)
				}
			}
		}
		row := Must(Arange(dt, 1, 1, 3)) // [3], broadcast over xt's rows
		out2 := Must(Zeros(dt, 4, 3))
		if err := MapFloat2Into(out2, xt, row, hyp32, hyp64); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 4; i++ {
			for j := 0; j < 3; j++ {
				want := math.Hypot(xt.Float(i, j), row.Float(j))
				if dt == Float32 {
					want = float64(float32(want))
				}
				if got := out2.Float(i, j); got != want {
					t.Fatalf("%v hypot at %d,%d: %v, want %v", dt, i, j, got, want)
				}
			}
		}
		// Both operands broadcast along an axis (the one-element path).
		col := Must(Reshape(Must(Arange(dt, 2, 1, 4)), 4, 1))
		one := Must(Reshape(Must(Arange(dt, 3, 0, 3)), 1, 3)) // all 3
		out3 := Must(Zeros(dt, 4, 3))
		if err := MapFloat2Into(out3, col, one, hyp32, hyp64); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 4; i++ {
			want := math.Hypot(float64(2+i), 3)
			if dt == Float32 {
				want = float64(float32(want))
			}
			for j := 0; j < 3; j++ {
				if got := out3.Float(i, j); got != want {
					t.Fatalf("%v broadcast hypot at %d,%d: %v, want %v", dt, i, j, got, want)
				}
			}
		}
	}
	if err := MapFloatInto(Must(Zeros(Int32, 2)), Must(Zeros(Int32, 2)), cube32, cube64); err == nil {
		t.Error("an int32 array was mapped by a float function")
	}
	if err := MapFloat2Into(Must(Zeros(Float64, 2)), Must(Zeros(Float64, 2)), Must(Zeros(Float64, 3)), hyp32, hyp64); err == nil {
		t.Error("shapes [2] and [3] were mapped together")
	}
}
