package ops_test

import (
	"math"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Edge cases and errors of the activations (ops/nn_activation.go); their
// values and gradients are checked in validation/opcases.

func TestActivationErrors(t *testing.T) {
	info := func(dt ndarray.DType, shape ...int) ops.Info { return ops.Info{DType: dt, Shape: shape} }
	f := ndarray.Float64
	checkInferErrors(t, []inferErr{
		{"gelu", ops.Args{}, []ops.Info{info(ndarray.Int32, 2)}, []string{"gelu", "int32"}},
		{"relu6", ops.Args{}, []ops.Info{info(ndarray.Int64, 2)}, []string{"relu6", "int64"}},
		{"elu_bp", ops.Args{}, []ops.Info{info(f, 2, 3), info(f, 3, 2)}, []string{"elu_bp", "[3 2]", "[2 3]"}},
		{"elu_bp", ops.Args{}, []ops.Info{info(f, 2), info(ndarray.Float32, 2)}, []string{"elu_bp", "float32"}},
		{"prelu", ops.Args{}, []ops.Info{info(f, 4), info(f, 4)}, []string{"prelu", "rank 1"}},
		{"prelu", ops.Args{}, []ops.Info{info(f, 2, 3), info(f, 4)}, []string{"prelu", "[4]", "[2 3]"}},
		{"prelu", ops.Args{I: []int64{3}}, []ops.Info{info(f, 2, 3, 4), info(f, 3, 4)}, []string{"prelu", "shared axis 3"}},
		{"prelu", ops.Args{}, []ops.Info{info(f, 2, 3), info(ndarray.Float32, 3)}, []string{"prelu", "alpha", "float32"}},
		{"prelu_bp", ops.Args{}, []ops.Info{info(f, 2, 3), info(f, 3), info(f, 3, 2)}, []string{"prelu_bp", "[3 2]"}},
		{"crelu", ops.Args{}, []ops.Info{info(f)}, []string{"crelu", "scalar"}},
		{"crelu_bp", ops.Args{}, []ops.Info{info(f, 2, 3), info(f, 2, 3)}, []string{"crelu_bp", "[2 3]"}},
		{"cube", ops.Args{}, []ops.Info{info(ndarray.Bool, 2)}, []string{"cube", "bool"}},
	})
}

// Run checks what inference could not see: sizes known only at run time.
func TestActivationRunErrors(t *testing.T) {
	run := func(op string, args ops.Args, in ...*ndarray.Array) error {
		d, _ := ops.Lookup(op)
		_, err := d.Run(nil, in, &args)
		return err
	}
	for _, c := range []struct {
		op   string
		args ops.Args
		in   []*ndarray.Array
		msg  string
	}{
		{"prelu", ops.Args{}, []*ndarray.Array{f64([]int{2, 3}, 1, 2, 3, 4, 5, 6), f64([]int{2}, 1, 2)}, "alpha has shape [2]"},
		{"prelu_bp", ops.Args{}, []*ndarray.Array{f64([]int{2, 1}, 1, 2), f64([]int{1}, 1), f64([]int{1, 2}, 1, 2)}, "gradient"},
		{"crelu_bp", ops.Args{}, []*ndarray.Array{f64([]int{2}, 1, 2), f64([]int{2}, 1, 2)}, "crelu_bp"},
		{"softsign_bp", ops.Args{}, []*ndarray.Array{f64([]int{2}, 1, 2), f64([]int{3}, 1, 2, 3)}, "softsign_bp"},
		{"gelu", ops.Args{}, []*ndarray.Array{i32([]int{2}, 1, 2)}, "gelu"},
	} {
		err := run(c.op, c.args, c.in...)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: error %v, want one mentioning %q", c.op, err, c.msg)
		}
	}
}

// The stable forms give finite values where libnd4j's formulas overflow,
// and agree across dtypes, block boundaries and strided layouts.
func TestActivationEdges(t *testing.T) {
	x := f64([]int{4}, -1000, -100, 100, 1000)
	for op, want := range map[string][]float64{
		"logsigmoid":       {-1000, -100, 0, 0},
		"_swishderivative": {0, 0, 1, 1},
		"_mishderivative":  {0, 0, 1, 1},
		"_geluderivative":  {0, 0, 1, 1},
		"swish":            {0, 0, 100, 1000},
		"mish":             {0, 0, 100, 1000},
	} {
		got := runOp(t, op, ops.Args{}, x)[0].Float64s()
		for i, w := range want {
			if math.Abs(got[i]-w) > 1e-9*math.Max(1, math.Abs(w)) {
				t.Errorf("%s(%v) = %v, want %v", op, x.Float64s()[i], got[i], w)
			}
		}
	}
	// relu6 gives 6 for NaN, as libnd4j's RELU6 does (NaN < s and NaN < 6
	// are false).
	if got := runOp(t, "relu6", ops.Args{}, f64([]int{1}, math.NaN()))[0].Float64s()[0]; got != 6 {
		t.Errorf("relu6(NaN) = %v, want 6", got)
	}

	// 1000 elements (several blocks), transposed (strided): float32 agrees
	// with float64 to float32's precision.
	n := 1000
	v := make([]float64, n)
	for i := range v {
		v[i] = float64(i)/50 - 10
	}
	a64 := ndarray.Must(ndarray.Permute(f64([]int{40, 25}, v...), 1, 0))
	a32 := ndarray.Must(ndarray.Cast(a64, ndarray.Float32))
	for _, op := range []string{"gelu", "precise_gelu", "swish", "mish", "selu", "elu", "rational_tanh", "hard_sigmoid", "softsign"} {
		g64 := runOp(t, op, ops.Args{}, a64)[0]
		g32 := ndarray.Must(ndarray.Cast(runOp(t, op, ops.Args{}, a32)[0], ndarray.Float64))
		if !ndarray.AllClose(g64, g32, 1e-5, 1e-5) {
			t.Errorf("%s: float32 and float64 differ beyond float32's precision", op)
		}
		want := ndarray.Must(ndarray.Permute(runOp(t, op, ops.Args{}, ndarray.Must(ndarray.Contiguous(a64)))[0], 0, 1))
		if !ndarray.AllClose(g64, want, 0, 0) {
			t.Errorf("%s: the strided input gives other values than its packed copy", op)
		}
	}
}
