package ops_test

import (
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// sru_bi's bad inputs: each an error naming the op, the input and the
// shapes; its backprop op refuses a gradient of c of neither shape it
// takes.
func TestSRUBiErrors(t *testing.T) {
	info := func(s ...int) ops.Info { return ops.Info{DType: ndarray.Float64, Shape: s} }
	ok := []ops.Info{info(5, 2, 4), info(4, 12), info(8), info(2, 4)}
	with := func(i int, v ops.Info) []ops.Info {
		in := append([]ops.Info(nil), ok...)
		for len(in) <= i {
			in = append(in, info(2, 4))
		}
		in[i] = v
		return in
	}
	d, _ := ops.Lookup("sru_bi")
	if out, err := d.Infer(ok, &ops.Args{}); err != nil || len(out) != 2 || !ndarray.SameShape(out[1].Shape, []int{5, 2, 4}) {
		t.Fatalf("sru_bi: %v %v", out, err)
	}
	if _, err := d.Infer(with(2, info(1, 8)), &ops.Args{}); err != nil {
		t.Errorf("sru_bi with libnd4j's [1, 4K] biases: %v", err)
	}
	for _, c := range []struct {
		in  []ops.Info
		msg string
	}{
		{with(1, info(12, 4)), "sru_bi: w (weights) has shape [12 4]; want [4 12] (x [5 2 4]: time, batch, 2·inSize)"},
		{with(2, info(4)), "b (forget and reset biases) has shape [4]; want [8]"},
		{with(3, info(3, 4)), "c0 (initial cell state) has shape [3 4]; want [2 4]"},
		{with(4, info(2, 3)), "the mask has shape [2 3]; want [2 4]"},
		{with(0, info(5, 2, 3)), "x has shape [5 2 3]; want [time, batch, 2·inSize]"},
		{with(3, ops.Info{DType: ndarray.Float32, Shape: []int{2, 4}}), "one dtype"},
	} {
		_, err := d.Infer(c.in, &ops.Args{})
		if err == nil || !strings.Contains(err.Error(), c.msg) || !strings.Contains(err.Error(), "sru_bi") {
			t.Errorf("sru_bi %v: error %v, want one mentioning %q", c.in, err, c.msg)
		}
	}
	bp, _ := ops.Lookup("sru_bi_bp")
	z := func(s ...int) *ndarray.Array { return ndarray.Must(ndarray.Zeros(ndarray.Float64, s...)) }
	for _, gc := range [][]int{{5, 2, 4}, {2, 4}} {
		if _, err := bp.Run(nil, []*ndarray.Array{z(5, 2, 4), z(4, 12), z(8), z(2, 4), z(5, 2, 4), z(gc...), z(5, 2, 4)}, &ops.Args{}); err != nil {
			t.Errorf("sru_bi_bp with a %v gradient of c: %v", gc, err)
		}
	}
	_, err := bp.Run(nil, []*ndarray.Array{z(5, 2, 4), z(4, 12), z(8), z(2, 4), z(5, 2, 4), z(5, 4), z(5, 2, 4)}, &ops.Args{})
	if err == nil || !strings.Contains(err.Error(), "sru_bi_bp: the gradient of c is float64[5 4]; want float64[5 2 4]") {
		t.Errorf("sru_bi_bp with a [5 4] gradient of c: error %v", err)
	}
}

// sru_bi_bp given the gradient of each direction's last state [batch, 2K]
// is sru_bi_bp given every step's, zero but for that state: step T-1 for
// the forward features, step 0 for the backward ones.
func TestSRUBiBpLastState(t *testing.T) {
	const sL, bS, k2 = 3, 2, 4
	r := func(seed float64, s ...int) *ndarray.Array {
		a := ndarray.Must(ndarray.Zeros(ndarray.Float64, s...))
		v := ndarray.Raw[float64](a)
		for i := range v {
			v[i] = 0.5 * float64((int(seed)*7+i*5)%11-5) / 5
		}
		return a
	}
	x, w, b, c0, gh, last := r(1, sL, bS, k2), r(2, k2, 3*k2), r(3, 2*k2), r(4, bS, k2), r(5, sL, bS, k2), r(6, bS, k2)
	fwd := runOp(t, "sru_bi", ops.Args{}, x, w, b, c0)
	full := make([]float64, sL*bS*k2)
	for e, v := range last.Float64s() {
		step := sL - 1
		if e%k2 >= k2/2 {
			step = 0
		}
		full[step*bS*k2+e] = v
	}
	a := runOp(t, "sru_bi_bp", ops.Args{}, x, w, b, c0, fwd[1], last, gh)
	want := runOp(t, "sru_bi_bp", ops.Args{}, x, w, b, c0, fwd[1], f64([]int{sL, bS, k2}, full...), gh)
	for i := range a {
		if !ndarray.Equal(a[i], want[i]) {
			t.Errorf("output %d: %v, want %v", i, a[i].Float64s(), want[i].Float64s())
		}
	}
}
