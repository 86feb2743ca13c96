package ops_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Shape inference of the pooling ops is exact in every known size, the
// batch unknown; bad arguments and shapes are errors naming the op and the
// argument.
func TestPoolInferAndErrors(t *testing.T) {
	info := func(shape ...int) []ops.Info { return []ops.Info{{DType: ndarray.Float32, Shape: shape}} }
	infer := []struct {
		op   string
		args []int64
		in   []int
		want []int
	}{
		{"maxpool2d", []int64{3, 3, 2, 2, 0, 0, 1, 1, 0, 0, 0}, []int{-1, 8, 32, 31}, []int{-1, 8, 15, 15}},
		{"avgpool2d", []int64{3, 3, 2, 2, 0, 0, 1, 1, 1, 0, 1}, []int{-1, 32, 31, 8}, []int{-1, 16, 16, 8}},
		{"pnormpool2d", []int64{2, 2, 1, 1, 1, 1, 2, 2, 0, 2, 0}, []int{4, 3, -1, 10}, []int{4, 3, -1, 10}},
		{"maxpool3dnew", []int64{2, 2, 2, 2, 2, 2, 0, 0, 0, 1, 1, 1, 0, 0, 1}, []int{-1, 8, 9, 10, 3}, []int{-1, 4, 4, 5, 3}},
		{"max_pool_with_argmax", []int64{2, 2, 2, 2, 0, 0, 1, 1, 1}, []int{-1, 3, 5, 5}, []int{-1, 3, 3, 3}},
	}
	for _, c := range infer {
		d, _ := ops.Lookup(c.op)
		out, err := d.Infer(info(c.in...), &ops.Args{I: c.args})
		if err != nil || !slices.Equal(out[0].Shape, c.want) {
			t.Errorf("%s %v on %v: %v, %v; want %v", c.op, c.args, c.in, out, err, c.want)
		}
	}
	bad := []struct {
		op   string
		args []int64
		in   []int
		want string
	}{
		{"maxpool2d", []int64{2, 2, 0, 1, 0, 0, 1, 1, 0}, []int{1, 1, 4, 4}, "strides"},
		{"maxpool2d", []int64{2, 2, 1, 1, 0, 0, 0, 1, 0}, []int{1, 1, 4, 4}, "dilations"},
		{"avgpool2d", []int64{5, 5, 1, 1, 0, 0, 1, 1, 0}, []int{1, 1, 4, 4}, "too small"},
		{"avgpool2d", []int64{2, 2, 1, 1, 0, 0, 1, 1, 0, 3}, []int{1, 1, 4, 4}, "divisor mode 3"},
		{"maxpool2d", []int64{2, 2, 1, 1, 0, 0, 1, 1, 0, 0, 2}, []int{1, 1, 4, 4}, "data format 2"},
		{"maxpool2d", []int64{2, 2, 1, 1, 0, 0, 1, 1, 2}, []int{1, 1, 4, 4}, "padding mode 2"},
		{"maxpool2d", []int64{2, 2, 1, 1}, []int{1, 1, 4, 4}, "needs int args"},
		{"maxpool2d", []int64{2, 2, 1, 1, 0, 0, 1, 1, 0}, []int{1, 4, 4}, "rank 4"},
		{"pnormpool2d", []int64{2, 2, 1, 1, 0, 0, 1, 1, 0, 0}, []int{1, 1, 4, 4}, "p (extraParam0) is 0"},
		{"maxpool3dnew", []int64{2, 2, 2, 1, 1, 1, 0, 0, 0, 1, 1, 1, 0}, []int{1, 1, 4, 4}, "rank 5"},
	}
	for _, c := range bad {
		d, _ := ops.Lookup(c.op)
		_, err := d.Infer(info(c.in...), &ops.Args{I: c.args})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.op) {
			t.Errorf("infer %s %v on %v: %v, want an error saying %q", c.op, c.args, c.in, err, c.want)
		}
		x := ndarray.Must(ndarray.Zeros(ndarray.Float32, c.in...))
		_, err = d.Run(nil, []*ndarray.Array{x}, &ops.Args{I: c.args})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.op) {
			t.Errorf("run %s %v on %v: %v, want an error saying %q", c.op, c.args, c.in, err, c.want)
		}
	}
	// A gradient of the wrong shape.
	d, _ := ops.Lookup("maxpool2d_bp")
	x := ndarray.Must(ndarray.Zeros(ndarray.Float32, 1, 1, 4, 4))
	g := ndarray.Must(ndarray.Zeros(ndarray.Float32, 1, 1, 3, 3))
	if _, err := d.Run(nil, []*ndarray.Array{x, g}, &ops.Args{I: []int64{2, 2, 2, 2, 0, 0, 1, 1, 0}}); err == nil || !strings.Contains(err.Error(), "maxpool2d_bp: gradient") {
		t.Errorf("maxpool2d_bp with a [1 1 3 3] gradient for a [1 1 2 2] output: %v", err)
	}
}

// 2x2 max pooling picks each window's maximum by the rule (the first
// value, then each later one greater): of zeros of both signs the first,
// with its sign; a NaN only when it comes first, as no value is greater
// than it and it is greater than none. The gradient goes to that cell.
func TestMaxPool2x2ZerosAndNaNs(t *testing.T) {
	nan, nz := math.NaN(), math.Copysign(0, -1)
	// six windows side by side: top row cells a, b, bottom row c, d
	wins := [][4]float64{{nz, 0, -1, -2}, {-1, 0, nz, -3}, {nan, 1, 2, 3}, {1, nan, 3, 2}, {2, 2, 1, 2}, {-5, -3, -3, -4}}
	pick := []int{0, 1, 0, 2, 0, 1}
	xv := make([]float64, 2*12)
	for w, v := range wins {
		xv[2*w], xv[2*w+1], xv[12+2*w], xv[12+2*w+1] = v[0], v[1], v[2], v[3]
	}
	gv := []float64{1, 2, 3, 4, 5, 6}
	a := ops.Args{I: []int64{2, 2, 2, 2, 0, 0, 1, 1, 0, 0, 0}}
	for _, dt := range []ndarray.DType{ndarray.Float64, ndarray.Float32} {
		x := ndarray.Must(ndarray.Cast(ndarray.Must(ndarray.FromSlice(xv, 1, 1, 2, 12)), dt))
		g := ndarray.Must(ndarray.Cast(ndarray.Must(ndarray.FromSlice(gv, 1, 1, 1, 6)), dt))
		out := convRun(t, "maxpool2d", a, x)[0].Float64s()
		dx := convRun(t, "maxpool2d_bp", a, x, g)[0].Float64s()
		for w, k := range pick {
			want := wins[w][k]
			if got := out[w]; !(got == want && math.Signbit(got) == math.Signbit(want) || math.IsNaN(got) && math.IsNaN(want)) {
				t.Errorf("%v window %d %v: max %v, want %v", dt, w, wins[w], got, want)
			}
			for j := 0; j < 4; j++ {
				want := 0.0
				if j == k {
					want = gv[w]
				}
				if got := dx[(j>>1)*12+2*w+j&1]; got != want {
					t.Errorf("%v window %d %v: gradient of cell %d is %v, want %v", dt, w, wins[w], j, got, want)
				}
			}
		}
	}
}
