package ops_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// hostileRun runs op on in with args outside an executor, as a panic-free
// op must run, and returns its outputs and error (a panic as an error).
func hostileRun(op string, args ops.Args, in ...*ndarray.Array) (outs []*ndarray.Array, err error) {
	d, ok := ops.Lookup(op)
	if !ok {
		return nil, fmt.Errorf("op %q is not registered", op)
	}
	defer func() {
		if r := recover(); r != nil {
			outs, err = nil, fmt.Errorf("panicked: %v", r)
		}
	}()
	return d.Run(ops.NewCtx("n", nil, nil), in, &args)
}

// zeros is a float32 array of zeros: with a size 0 in its shape, of any
// other sizes at no cost.
func zeros(shape ...int) *ndarray.Array {
	return ndarray.Must(ndarray.Zeros(ndarray.Float32, shape...))
}

// The temporaries ops make for themselves (Go slices: offset tables,
// accumulators, factorization workspaces) are sized by shapes and argument
// values that a small graph can make huge: each case asked for terabytes,
// which ended the process in Go's allocator before the budget was asked.
// Each now fails at once with an error wrapping ErrTooLarge that names the
// op and the size.
func TestOpTemporariesAboveTheBudgetFail(t *testing.T) {
	defer ndarray.SetAllocLimit(ndarray.SetAllocLimit(64 << 20))
	cases := []struct {
		op   string
		args ops.Args
		in   []*ndarray.Array
	}{
		// 2^16 segments of rows of 2^20 elements, from an x of no rows.
		{"unsorted_segment_sum", ops.Args{I: []int64{1 << 16}}, []*ndarray.Array{zeros(0, 1<<20), i64([]int{0})}},
		// A reduction over an axis of size 0: one result per other element.
		{"match_condition", ops.Args{F: []float64{0, 0, 0}, I: []int64{1}}, []*ndarray.Array{zeros(1<<36, 0)}},
		// The diagonals' offset tables come before the output.
		{"eye", ops.Args{I: []int64{32, 32, 1 << 27}}, nil},
		// Factorizations of narrow matrices, whose workspaces outgrow them.
		{"qr", ops.Args{}, []*ndarray.Array{zeros(1<<20, 1)}},
		{"lstsq", ops.Args{B: []bool{false}}, []*ndarray.Array{zeros(1<<20, 1), zeros(1<<20, 1)}},
		// Frames by labels: 2^16 of each.
		{"ctc_loss", ops.Args{}, []*ndarray.Array{i64([]int{1, 1 << 16}, slices.Repeat([]int64{1}, 1<<16)...), zeros(1, 1<<16, 2),
			i64([]int{1}, 1<<16), i64([]int{1}, 1<<16)}},
		// Reflecting a rank-20 array of 2^20 elements by its own size.
		{"pad", ops.Args{I: []int64{ops.PadSymmetric}}, []*ndarray.Array{zeros(slices.Repeat([]int{2}, 20)...), i64([]int{20, 2}, slices.Repeat([]int64{2}, 40)...)}},
		// Rows of indices times slices of x; an output shape from values.
		{"gather_nd", ops.Args{}, []*ndarray.Array{zeros(1, 1<<20), i64([]int{1 << 16, 1}, make([]int64, 1<<16)...)}},
		{"gather_bp", ops.Args{I: []int64{0}}, []*ndarray.Array{i64([]int{1}, 1<<40), i64([]int{0}), zeros(0)}},
		{"repeat", ops.Args{I: []int64{1 << 20, 0}}, []*ndarray.Array{zeros(1, 1<<20)}},
		{"scatter_nd_update", ops.Args{}, []*ndarray.Array{zeros(0), i64([]int{1 << 36, 0}), zeros(1<<36, 0)}},
		// An image resized along one axis only, and a gradient of no
		// elements for a 2^36-row output.
		{"image_resize", ops.Args{I: []int64{3}}, []*ndarray.Array{zeros(1, 1, 1<<16, 1), i64([]int{2}, 1<<16, 1)}},
		{"resize_bilinear_bp", ops.Args{}, []*ndarray.Array{zeros(0, 1, 1, 1), zeros(0, 1<<36, 1, 1)}},
		// Twenty coordinates of eight bytes for each of 2^20 one-byte bools.
		{"Where", ops.Args{}, []*ndarray.Array{ndarray.Must(ndarray.Full(ndarray.Bool, 1, slices.Repeat([]int{2}, 20)...))}},
	}
	for _, c := range cases {
		_, err := hostileRun(c.op, c.args, c.in...)
		if !errors.Is(err, ndarray.ErrTooLarge) || !strings.Contains(err.Error(), c.op) {
			t.Errorf("%s: error %v; want one naming the op and wrapping ErrTooLarge", c.op, err)
		}
	}
}

// Arrays of no elements may have an axis of any size: ops whose
// temporaries that axis sized now skip them, and give the empty result.
func TestEmptyInputsSkipTheirTemporaries(t *testing.T) {
	defer ndarray.SetAllocLimit(ndarray.SetAllocLimit(64 << 20))
	cases := []struct {
		op   string
		args ops.Args
		in   []*ndarray.Array
		want []int
	}{
		{"cumprod_bp", ops.Args{I: []int64{0, 0, 1}}, []*ndarray.Array{zeros(0, 1<<36), zeros(0, 1<<36)}, []int{0, 1 << 36}},
		{"top_k", ops.Args{I: []int64{1}}, []*ndarray.Array{zeros(0, 1<<36)}, []int{0, 1}},
		{"adjust_contrast_v2", ops.Args{F: []float64{2}}, []*ndarray.Array{zeros(0, 1, 1, 1<<36)}, []int{0, 1, 1, 1 << 36}},
		// Factorizations of a batch of no matrices: their workspaces, sized
		// by one matrix, are not needed.
		{"matrix_inverse", ops.Args{}, []*ndarray.Array{zeros(0, 1<<17, 1<<17)}, []int{0, 1 << 17, 1 << 17}},
		{"matrix_determinant", ops.Args{}, []*ndarray.Array{zeros(0, 1<<17, 1<<17)}, []int{0}},
		{"logdet", ops.Args{}, []*ndarray.Array{zeros(0, 1<<17, 1<<17)}, []int{0}},
		{"qr", ops.Args{}, []*ndarray.Array{zeros(0, 1<<17, 1<<17)}, []int{0, 1 << 17, 1 << 17}},
		{"svd", ops.Args{I: []int64{0, 0, 16}}, []*ndarray.Array{zeros(0, 1<<18, 1<<18)}, []int{0, 1 << 18}},
		{"solve", ops.Args{}, []*ndarray.Array{zeros(0, 1<<17, 1<<17), zeros(0, 1<<17, 1)}, []int{0, 1 << 17, 1}},
	}
	for _, c := range cases {
		outs, err := hostileRun(c.op, c.args, c.in...)
		if err != nil || len(outs) == 0 || !ndarray.SameShape(outs[0].Shape(), c.want) {
			t.Errorf("%s: %v, %v; want an output of shape %v", c.op, outs, err, c.want)
		}
	}
	// unstack makes an output per piece: as many as inference allows.
	_, err := hostileRun("unstack", ops.Args{I: []int64{0}}, zeros(1<<36, 0))
	if err == nil || !strings.Contains(err.Error(), "at most") {
		t.Errorf("unstack into 2^36 pieces: %v", err)
	}
}

// Through the executor: a tensor array unstacked from a value of 2^36
// empty rows (its index table) and one made with 2^24 elements (a 128 MB
// table of them) fail with the op's error, under a 64 MB budget.
func TestTensorArrayTablesAboveTheBudgetFail(t *testing.T) {
	defer ndarray.SetAllocLimit(ndarray.SetAllocLimit(64 << 20))
	for _, c := range []struct {
		size  int32
		value *ndarray.Array
		op    string
	}{
		{1, zeros(1<<36, 0), "tensorarrayunstack"},
		{1 << 24, zeros(1, 1), "tensorarrayv3"},
	} {
		g := graph.New()
		arr := newTA(g, c.size, ndarray.Float32, true)
		arr.flow = g.Apply("tensorarrayunstack", ops.Args{}, arr.h, g.Const("v", c.value), arr.flow)
		out := g.Apply("tensorarraysizev3", ops.Args{}, arr.h, arr.flow).Named("n")
		if err := g.Err(); err != nil {
			t.Fatal(err)
		}
		_, err := exec.New(g).Output(nil, out.Name())
		if !errors.Is(err, ndarray.ErrTooLarge) || !strings.Contains(err.Error(), c.op) {
			t.Errorf("%s: error %v; want one naming it and wrapping ErrTooLarge", c.op, err)
		}
	}
}

// Recurrent ops: an x of no time steps may have any batch size (lstmLayer's
// sequence limits), and a scalar gradient stands for a whole sequence of
// outputs (lstmLayer_bp expands it).
func TestRecurrentTemporariesAboveTheBudgetFail(t *testing.T) {
	defer ndarray.SetAllocLimit(ndarray.SetAllocLimit(64 << 20))
	onlyH := &ops.Args{I: []int64{0, 0, 2, 0, 0}, B: []bool{false, false, false, false, false, true, false, false}, F: []float64{0}}
	cases := []struct {
		op string
		in []*ndarray.Array
	}{
		{"lstmLayer", []*ndarray.Array{zeros(0, 1<<36, 1), zeros(1, 4), zeros(1, 4)}},
		{"lstmLayer_bp", []*ndarray.Array{zeros(1<<16, 1, 1), zeros(1, 4<<10), zeros(1<<10, 4<<10), ndarray.Scalar(float32(1))}},
	}
	for _, c := range cases {
		_, err := hostileRun(c.op, *onlyH, c.in...)
		if !errors.Is(err, ndarray.ErrTooLarge) || !strings.Contains(err.Error(), c.op) {
			t.Errorf("%s: error %v; want one naming the op and wrapping ErrTooLarge", c.op, err)
		}
	}
}
