package ops_test

import (
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Errors of the recurrent cells (ops/rnn_cell.go); values and gradients
// are checked in validation/opcases.
func TestRNNCellErrors(t *testing.T) {
	info := func(s ...int) ops.Info { return ops.Info{DType: ndarray.Float32, Shape: s} }
	ok := []ops.Info{info(2, 3), info(2, 4), info(7, 8), info(7, 4), info(8), info(4)}
	with := func(i int, v ops.Info) []ops.Info {
		in := append([]ops.Info(nil), ok...)
		in[i] = v
		return in
	}
	for _, c := range []struct {
		in  []ops.Info
		msg string
	}{
		{with(1, info(3, 4)), "different batch sizes"},
		{with(0, info(2, 3, 1)), "must be matrices"},
		{with(2, info(7, 6)), "W (reset and update gate weights) has shape [7 6]; want [7 8]"},
		{with(3, info(6, 4)), "Wc (cell gate weights) has shape [6 4]; want [7 4]"},
		{with(4, info(4)), "b (reset and update gate biases)"},
		{with(5, info(8)), "bc (cell gate biases)"},
		{with(5, ops.Info{DType: ndarray.Float64, Shape: []int{4}}), "one dtype"},
	} {
		d, _ := ops.Lookup("gruCell")
		_, err := d.Infer(c.in, &ops.Args{})
		if err == nil || !strings.Contains(err.Error(), c.msg) || !strings.Contains(err.Error(), "gruCell") {
			t.Errorf("gruCell %v: error %v, want one mentioning %q", c.in, err, c.msg)
		}
	}
	// Known shapes pass; gruCell_bp refuses a gradient of the wrong shape.
	if d, _ := ops.Lookup("gruCell"); d != nil {
		if _, err := d.Infer(ok, &ops.Args{}); err != nil {
			t.Error(err)
		}
	}
	d, _ := ops.Lookup("gruCell_bp")
	_, err := d.Infer(append(append([]ops.Info(nil), ok...), info(2, 4), info(2, 4), info(2, 3), info(2, 4)), &ops.Args{})
	if err == nil || !strings.Contains(err.Error(), "gruCell_bp") {
		t.Errorf("gruCell_bp with a [2 3] gradient: error %v", err)
	}
}

func TestLSTMBlockCellErrors(t *testing.T) {
	info := func(s ...int) ops.Info { return ops.Info{DType: ndarray.Float64, Shape: s} }
	ok := []ops.Info{info(2, 3), info(2, 4), info(2, 4), info(7, 16), info(4), info(4), info(4), info(16)}
	with := func(i int, v ops.Info) []ops.Info {
		in := append([]ops.Info(nil), ok...)
		in[i] = v
		return in
	}
	d, _ := ops.Lookup("lstmBlockCell")
	if _, err := d.Infer(ok, &ops.Args{}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		in  []ops.Info
		msg string
	}{
		{with(2, info(3, 4)), "different batch sizes"},
		{with(2, info(2, 5)), "different numbers of units"},
		{with(3, info(7, 12)), "W (gate weights, columns i, z, f, o) has shape [7 12]; want [7 16]"},
		{with(5, info(3)), "Wcf (forget gate peephole)"},
		{with(7, info(4, 4)), "b (gate biases)"},
	} {
		_, err := d.Infer(c.in, &ops.Args{})
		if err == nil || !strings.Contains(err.Error(), c.msg) || !strings.Contains(err.Error(), "lstmBlockCell") {
			t.Errorf("lstmBlockCell %v: error %v, want one mentioning %q", c.in, err, c.msg)
		}
	}
	// A negative clipping value is refused at run time.
	z := func(s ...int) *ndarray.Array { return ndarray.Must(ndarray.Zeros(ndarray.Float64, s...)) }
	_, err := d.Run(nil, []*ndarray.Array{z(1, 1), z(1, 1), z(1, 1), z(2, 4), z(1), z(1), z(1), z(4)}, &ops.Args{F: []float64{0, -1}})
	if err == nil || !strings.Contains(err.Error(), "cell clipping") {
		t.Errorf("a clipping value of -1: error %v", err)
	}
}

func TestSRUCellErrors(t *testing.T) {
	info := func(s ...int) ops.Info { return ops.Info{DType: ndarray.Float64, Shape: s} }
	d, _ := ops.Lookup("sruCell")
	for _, c := range []struct {
		in  []ops.Info
		msg string
	}{
		{[]ops.Info{info(2, 3), info(2, 4), info(3, 9), info(6)}, "previous cell state has shape [2 4]; want [2 3]"},
		{[]ops.Info{info(2, 3), info(2, 3), info(3, 6), info(6)}, "weights have shape [3 6]; want [3 9]"},
		{[]ops.Info{info(2, 3), info(2, 3), info(3, 9), info(3)}, "biases have shape [3]; want [6]"},
		{[]ops.Info{info(2, 3, 1), info(2, 3), info(3, 9), info(6)}, "must be a matrix"},
	} {
		_, err := d.Infer(c.in, &ops.Args{})
		if err == nil || !strings.Contains(err.Error(), c.msg) || !strings.Contains(err.Error(), "sruCell") {
			t.Errorf("sruCell %v: error %v, want one mentioning %q", c.in, err, c.msg)
		}
	}
}

func TestGRUErrors(t *testing.T) {
	info := func(s ...int) ops.Info { return ops.Info{DType: ndarray.Float32, Shape: s} }
	d, _ := ops.Lookup("gru")
	for _, c := range []struct {
		in  []ops.Info
		msg string
	}{
		{[]ops.Info{info(4, 2, 3), info(3, 5), info(3, 15), info(5, 15), info(15)}, "different batch sizes"},
		{[]ops.Info{info(4, 2, 3), info(2, 5), info(3, 12), info(5, 15), info(15)}, "Wx (input weights) has shape [3 12]; want [3 15]"},
		{[]ops.Info{info(4, 2, 3), info(2, 5), info(3, 15), info(4, 15), info(15)}, "Wh (recurrent weights)"},
		{[]ops.Info{info(4, 2, 3), info(2, 5), info(3, 15), info(5, 15), info(5)}, "b (biases)"},
		{[]ops.Info{info(2, 3), info(2, 5), info(3, 15), info(5, 15), info(15)}, "[time, batch, nIn]"},
	} {
		_, err := d.Infer(c.in, &ops.Args{})
		if err == nil || !strings.Contains(err.Error(), c.msg) || !strings.Contains(err.Error(), "gru") {
			t.Errorf("gru %v: error %v, want one mentioning %q", c.in, err, c.msg)
		}
	}
}
