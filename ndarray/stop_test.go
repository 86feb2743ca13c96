package ndarray

import (
	"errors"
	"math/rand/v2"
	"testing"
)

// MatMulIntoStop: the product MatMulInto gives while stop says go on,
// ErrStopped once it says stop, for float (kernels.GemmStop) and integer
// products.
func TestMatMulIntoStop(t *testing.T) {
	defer func(w int) { intStopWork = w }(intStopWork)
	intStopWork = 1 << 16
	for _, dt := range []DType{Float32, Float64, Int64} {
		m, n, k := 512, 512, 512 // 2^27 multiply-adds: two GEMM panels
		if dt == Int64 {
			m, n, k = 64, 64, 64 // 2^18: 4 checks at the work set below
		}
		r := rand.New(rand.NewPCG(1, 2))
		var a, b *Array
		if dt == Int64 {
			a, b = Must(Full(dt, 3, m, k)), Must(Full(dt, -2, k, n))
		} else {
			a, b = Must(RandUniform(r, dt, -1, 1, m, k)), Must(RandUniform(r, dt, -1, 1, k, n))
		}
		want := Must(MatMul(a, b, false, false))
		got := Must(Zeros(dt, m, n))
		asked := 0
		if err := MatMulIntoStop(func() bool { asked++; return false }, got, a, b, false, false); err != nil || !Equal(got, want) {
			t.Fatalf("%v, never stopped: %v (equal: %v)", dt, err, Equal(got, want))
		}
		if asked < 2 {
			t.Errorf("%v: stop asked %d times", dt, asked)
		}
		asked = 0
		err := MatMulIntoStop(func() bool { asked++; return asked > 1 }, got, a, b, false, false)
		if !errors.Is(err, ErrStopped) || asked != 2 {
			t.Errorf("%v, stopped at the second ask: %v after %d asks", dt, err, asked)
		}
		if _, err := MatMulStop(func() bool { return true }, a, b, true, false); !errors.Is(err, ErrStopped) {
			t.Errorf("%v, MatMulStop stopped at once: %v", dt, err)
		}
	}
}
