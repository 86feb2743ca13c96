package ops_test

import (
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Errors and edge cases of lstmBlock (ops/rnn_block.go) and sru
// (ops/rnn_sru.go); values and gradients are checked in
// validation/opcases.
func TestLSTMBlockErrors(t *testing.T) {
	info := func(s ...int) ops.Info { return ops.Info{DType: ndarray.Float64, Shape: s} }
	steps := ops.Info{DType: ndarray.Int64, Shape: []int{}}
	ok := []ops.Info{steps, info(5, 2, 3), info(2, 4), info(2, 4), info(7, 16), info(4), info(4), info(4), info(16)}
	with := func(i int, v ops.Info) []ops.Info {
		in := append([]ops.Info(nil), ok...)
		in[i] = v
		return in
	}
	d, _ := ops.Lookup("lstmBlock")
	out, err := d.Infer(ok, &ops.Args{})
	if err != nil || len(out) != 7 || !ndarray.SameShape(out[6].Shape, []int{5, 2, 4}) {
		t.Fatalf("lstmBlock TNS: %v %v", out, err)
	}
	// NST [batch, nIn, time] in, [batch, nOut, time] out.
	if out, err := d.Infer(with(1, info(2, 3, 5)), &ops.Args{I: []int64{0, 1}}); err != nil || !ndarray.SameShape(out[0].Shape, []int{2, 4, 5}) {
		t.Errorf("lstmBlock NST: %v %v", out, err)
	}
	for _, c := range []struct {
		in   []ops.Info
		args ops.Args
		msg  string
	}{
		{with(4, info(7, 12)), ops.Args{}, "lstmBlock: W (gate weights, columns i, z, f, o) has shape [7 12]; want [7 16] (nIn 3, nOut 4)"},
		{with(4, info(6, 16)), ops.Args{}, "W (gate weights, columns i, z, f, o) has shape [6 16]; want [7 16]"},
		{with(8, info(12)), ops.Args{}, "b (gate biases) has shape [12]; want [16]"},
		{with(6, info(3)), ops.Args{}, "Wcf (forget gate peephole)"},
		{with(2, info(3, 4)), ops.Args{}, "different batch sizes"},
		{with(1, info(5, 6)), ops.Args{}, "x has shape [5 6]; want rank 3 ([time, batch, nIn])"},
		{with(1, info(5, 2, 3)), ops.Args{I: []int64{0, 2}}, "different batch sizes"},
		{ok, ops.Args{I: []int64{0, 3}}, "int arg 1 (data format) is 3"},
		{with(0, ops.Info{DType: ndarray.Int64, Shape: []int{2}}), ops.Args{}, "maxTSLength has shape [2]; want a scalar"},
		{with(0, ops.Info{DType: ndarray.Int64, Shape: []int{}, Value: ndarray.Scalar[int64](6)}), ops.Args{}, "maxTSLength is 6; want 0 to the sequence length 5"},
		{with(0, ops.Info{DType: ndarray.Int64, Shape: []int{}, Value: ndarray.Scalar[int64](-1)}), ops.Args{}, "maxTSLength is -1"},
	} {
		_, err := d.Infer(c.in, &c.args)
		if err == nil || !strings.Contains(err.Error(), c.msg) || !strings.Contains(err.Error(), "lstmBlock") {
			t.Errorf("lstmBlock %v %v: error %v, want one mentioning %q", c.in, c.args, err, c.msg)
		}
	}

	// At run time: maxTSLength past the sequence, negative, fractional; a
	// negative clipping value; lstmBlock_bp with a gradient of the wrong
	// shape.
	z := func(s ...int) *ndarray.Array { return ndarray.Must(ndarray.Zeros(ndarray.Float64, s...)) }
	run := func(l *ndarray.Array, a ops.Args) error {
		_, err := d.Run(nil, []*ndarray.Array{l, z(3, 1, 2), z(1, 1), z(1, 1), z(3, 4), z(1), z(1), z(1), z(4)}, &a)
		return err
	}
	for _, c := range []struct {
		l    *ndarray.Array
		args ops.Args
		msg  string
	}{
		{ndarray.Scalar[int64](4), ops.Args{}, "lstmBlock: maxTSLength is 4; want 0 to the sequence length 3"},
		{ndarray.Scalar[int32](-2), ops.Args{}, "lstmBlock: maxTSLength is -2"},
		{ndarray.Scalar(1.5), ops.Args{}, "maxTSLength is 1.5; want a whole number"},
		{z(2), ops.Args{}, "lstmBlock: maxTSLength has shape [2]; want a scalar"},
		{ndarray.Scalar[int64](3), ops.Args{F: []float64{0, -1}}, "cell clipping"},
	} {
		if err := run(c.l, c.args); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("lstmBlock run: error %v, want one mentioning %q", err, c.msg)
		}
	}
	bp, _ := ops.Lookup("lstmBlock_bp")
	in := []*ndarray.Array{ndarray.Scalar[int64](3), z(3, 1, 2), z(1, 1), z(1, 1), z(3, 4), z(1), z(1), z(1), z(4)}
	for range 6 {
		in = append(in, z(3, 1, 1))
	}
	_, err = bp.Run(nil, append(in, z(1, 3, 1)), &ops.Args{})
	if err == nil || !strings.Contains(err.Error(), "lstmBlock_bp: gradient 6 is float64[1 3 1]; want float64[3 1 1]") {
		t.Errorf("lstmBlock_bp with a [1 3 1] gradient: error %v", err)
	}
}

// Zero steps run leave every output zero and pass no gradient to x;
// cLast and yLast's gradients are those of nothing, zero too.
func TestLSTMBlockZeroSteps(t *testing.T) {
	v := func(s []int, x ...float64) *ndarray.Array { return ndarray.Must(ndarray.FromSlice(x, s...)) }
	in := []*ndarray.Array{ndarray.Scalar[int64](0), v([]int{2, 1, 1}, 1, 2), v([]int{1, 1}, 0.5), v([]int{1, 1}, -0.5),
		v([]int{2, 4}, 1, 2, 3, 4, 5, 6, 7, 8), v([]int{1}, 1), v([]int{1}, 1), v([]int{1}, 1), v([]int{4}, 1, 1, 1, 1)}
	d, _ := ops.Lookup("lstmBlock")
	out, err := d.Run(nil, in, &ops.Args{I: []int64{1}})
	if err != nil {
		t.Fatal(err)
	}
	for k, o := range out {
		for _, x := range o.Float64s() {
			if x != 0 {
				t.Errorf("output %d = %v, want zeros", k, o.Float64s())
			}
		}
	}
	bp, _ := ops.Lookup("lstmBlock_bp")
	for range 7 {
		in = append(in, v([]int{2, 1, 1}, 1, 1))
	}
	g, err := bp.Run(nil, in, &ops.Args{I: []int64{1}})
	if err != nil {
		t.Fatal(err)
	}
	for k, o := range g {
		for _, x := range o.Float64s() {
			if x != 0 {
				t.Errorf("gradient %d = %v, want zeros", k, o.Float64s())
			}
		}
	}
}

func TestSRUErrors(t *testing.T) {
	info := func(s ...int) ops.Info { return ops.Info{DType: ndarray.Float64, Shape: s} }
	ok := []ops.Info{info(2, 3, 5), info(9, 3), info(6), info(2, 3)}
	with := func(i int, v ops.Info) []ops.Info {
		in := append([]ops.Info(nil), ok...)
		for len(in) <= i {
			in = append(in, info(2, 3))
		}
		in[i] = v
		return in
	}
	d, _ := ops.Lookup("sru")
	if out, err := d.Infer(ok, &ops.Args{}); err != nil || len(out) != 2 || !ndarray.SameShape(out[1].Shape, []int{2, 3, 5}) {
		t.Fatalf("sru: %v %v", out, err)
	}
	for _, c := range []struct {
		in  []ops.Info
		msg string
	}{
		{with(1, info(3, 9)), "sru: w (weights) has shape [3 9]; want [9 3] (x [2 3 5]: batch, inSize, time)"},
		{with(2, info(3)), "b (forget and reset biases) has shape [3]; want [6]"},
		{with(3, info(3, 3)), "c0 (initial cell state) has shape [3 3]; want [2 3]"},
		{with(4, info(2, 4)), "the mask has shape [2 4]; want [2 3]"},
		{with(0, info(2, 3)), "x has shape [2 3]; want [batch, inSize, time]"},
		{with(3, ops.Info{DType: ndarray.Float32, Shape: []int{2, 3}}), "one dtype"},
	} {
		_, err := d.Infer(c.in, &ops.Args{})
		if err == nil || !strings.Contains(err.Error(), c.msg) || !strings.Contains(err.Error(), "sru") {
			t.Errorf("sru %v: error %v, want one mentioning %q", c.in, err, c.msg)
		}
	}
	// sru_bp takes the gradient of every state or of the last; any other
	// shape is refused.
	bp, _ := ops.Lookup("sru_bp")
	z := func(s ...int) *ndarray.Array { return ndarray.Must(ndarray.Zeros(ndarray.Float64, s...)) }
	for _, gc := range [][]int{{2, 3, 5}, {2, 3}} {
		if _, err := bp.Run(nil, []*ndarray.Array{z(2, 3, 5), z(9, 3), z(6), z(2, 3), z(2, 3, 5), z(gc...), z(2, 3, 5)}, &ops.Args{}); err != nil {
			t.Errorf("sru_bp with a %v gradient of c: %v", gc, err)
		}
	}
	_, err := bp.Run(nil, []*ndarray.Array{z(2, 3, 5), z(9, 3), z(6), z(2, 3), z(2, 3, 5), z(2, 5), z(2, 3, 5)}, &ops.Args{})
	if err == nil || !strings.Contains(err.Error(), "sru_bp: the gradient of c is float64[2 5]; want float64[2 3 5]") {
		t.Errorf("sru_bp with a [2 5] gradient of c: error %v", err)
	}
}
