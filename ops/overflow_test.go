package ops_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	"github.com/sdgo/sdgo/ops/createview"
)

// TestIndexArithmeticOverflow gives each op that computes sizes or
// positions from integers it is handed one value near the int64 limits (or
// a product past them). Each must give the right answer or an error naming
// the value or the shape at fault (the executor adds the op's name), never
// a panic, a wrong answer, a negative inferred size or a huge allocation:
// every shape these cases ask for is refused before anything is allocated.
func TestIndexArithmeticOverflow(t *testing.T) {
	const X, N = math.MaxInt64, math.MinInt64
	x4 := f64([]int{4}, 1, 2, 3, 4)
	x22 := f64([]int{2, 2}, 1, 2, 3, 4)
	img := f64([]int{1, 2, 2, 1}, 1, 2, 3, 4)
	w11 := f64([]int{1, 1, 1, 1}, 1)
	pair := func(a, b int64) *ndarray.Array { return i64([]int{1, 2}, a, b) }
	zeros22 := i64([]int{2, 2}, 0, 0, 0, 0)
	view := func(d ...int64) *ndarray.Array { return i64([]int{len(d)}, d...) }
	const big, huge = "9223372036854775807", "-9223372036854775808"
	for _, c := range []struct {
		name, op string
		args     ops.Args
		in       []*ndarray.Array
		want     *ndarray.Array // nil: an error containing wantErr
		wantErr  string
	}{
		// begin + size wrapped to a negative sum that passed the bound check.
		{"slice size", "slice", ops.Args{I: []int64{1, X}}, in(x4), nil, "size " + big},
		{"slice_bp size", "slice_bp", ops.Args{I: []int64{1, X}}, in(x4, x4), nil, "size " + big},
		{"strided_slice whole", "stridedslice", ssArgs([5]int64{}, []int64{N}, []int64{X}, []int64{1}), in(x4), x4, ""},
		{"strided_slice_bp step", "strided_slice_bp", ssArgs([5]int64{}, []int64{N}, []int64{X}, []int64{X}), in(x4, f64([]int{1}, 5)), f64([]int{4}, 5, 0, 0, 0), ""},
		// Integer ranges were computed through float64: the count and the
		// values near the limits were wrong.
		{"range across int64", "range", ops.Args{I: []int64{N, X, X}}, nil, i64([]int{3}, N, -1, X-1), ""},
		{"range at the top", "range", ops.Args{I: []int64{X - 2, X, 1}}, nil, i64([]int{2}, X-2, X-1), ""},
		{"range down by MinInt64", "range", ops.Args{I: []int64{X, N, N}}, nil, i64([]int{2}, X, -1), ""},
		{"range int inputs", "range", ops.Args{}, in(ndarray.Scalar(int64(X-1)), ndarray.Scalar(int64(X)), ndarray.Scalar(int64(X))), i64([]int{1}, X-1), ""},
		{"range float bounds as int64", "range", ops.Args{F: []float64{-1e19, 0, 1e18}, D: []ndarray.DType{ndarray.Int64}}, nil, nil, "-1e+19 is beyond int64"},
		{"lin_space num", "lin_space", ops.Args{F: []float64{0, 1}, I: []int64{X}}, nil, nil, "[" + big + "]"},
		{"pad amounts", "pad", ops.Args{}, in(x4, pair(X, X)), nil, big},
		{"tile reps", "tile", ops.Args{I: []int64{1 << 32, 1 << 32}}, in(x22), nil, "[8589934592 8589934592]"},
		{"repeat count", "repeat", ops.Args{I: []int64{X, 0}}, in(x4), nil, "repeat"},
		{"reshape -1", "reshape", ops.Args{I: []int64{1 << 62, 4, -1}}, in(x4), nil, "[4611686018427387904 4 -1]"},
		{"reshape -1 of nothing", "reshape", ops.Args{I: []int64{1 << 32, 1 << 32, -1}}, in(f64([]int{0})), nil, "[4294967296 4294967296 -1]"},
		{"onehot depth", "onehot", ops.Args{I: []int64{-1, X}}, in(i64([]int{2}, 0, 1)), nil, "[2 " + big + "]"},
		{"gather index", "gather", ops.Args{I: []int64{0}}, in(x4, i64([]int{1}, N)), nil, "index " + huge},
		{"gather_nd index", "gather_nd", ops.Args{}, in(x22, pair(X, X)), nil, big},
		{"scatter_add index", "scatter_add", ops.Args{}, in(x4, i64([]int{1}, X), f64([]int{1}, 1)), nil, "index " + big},
		{"scatter_nd_update index", "scatter_nd_update", ops.Args{}, in(x22, pair(X, N), f64([]int{1}, 1)), nil, big},
		{"create_view step", createview.OpName, ops.Args{}, in(x4, view(1, 2, 1, 0, 4, X, 0)), f64([]int{1}, 1), ""},
		{"create_view inclusive step", createview.OpName, ops.Args{}, in(x4, view(1, 2, 1, 0, 3, X, 1)), f64([]int{1}, 1), ""},
		{"create_view point", createview.OpName, ops.Args{}, in(x4, view(0, 1, 1, N, 1)), nil, "point " + huge},
		{"space_to_batch block", "space_to_batch", ops.Args{I: []int64{X}}, in(img, zeros22), nil, "block size " + big},
		{"space_to_batch_nd blocks", "space_to_batch_nd", ops.Args{}, in(img, i64([]int{2}, 1<<32, 1<<32), zeros22), nil, "[4294967296 4294967296]"},
		{"batch_to_space crops", "batch_to_space", ops.Args{I: []int64{1}}, in(img, i64([]int{2, 2}, N, X, 0, 0)), nil, huge},
		{"conv2d dilated kernel", "conv2d", ops.Args{I: []int64{2, 2, 1, 1, 0, 0, 1 << 62, 1 << 62, 0, 1}}, in(img, f64([]int{2, 2, 1, 1}, 1, 1, 1, 1)), nil, "4611686018427387904"},
		{"conv2d same stride", "conv2d", ops.Args{I: []int64{1, 1, X, X, 0, 0, 1, 1, 1, 1}}, in(img, w11), nil, big},
		{"maxpool2d padding", "maxpool2d", ops.Args{I: []int64{1, 1, 1, 1, X, X, 1, 1, 0, 0, 1}}, in(img), nil, big},
		{"resize_bilinear size", "resize_bilinear", ops.Args{I: []int64{X, X}}, in(img), nil, "[" + big + " " + big + "]"},
		{"image_resize size", "image_resize", ops.Args{I: []int64{1}}, in(img, i64([]int{2}, X, X)), nil, "[" + big + " " + big + "]"},
		{"matrix_band_part all", "matrix_band_part", ops.Args{I: []int64{N, N}}, in(x22), x22, ""},
		{"matrix_band_part count", "matrix_band_part", ops.Args{I: []int64{X, 0}}, in(x22), nil, big},
		{"sequence_mask maxlen", "sequence_mask", ops.Args{I: []int64{X}}, in(i64([]int{1}, 1)), nil, "[1 " + big + "]"},
		{"top_k k", "top_k", ops.Args{I: []int64{N}}, in(x4), nil, "k " + huge},
		{"confusion_matrix classes", "confusion_matrix", ops.Args{I: []int64{1 << 32}}, in(i64([]int{1}, 0), i64([]int{1}, 0)), nil, "[4294967296 4294967296]"},
		{"confusion_matrix label", "confusion_matrix", ops.Args{}, in(i64([]int{1}, X), i64([]int{1}, 0)), nil, "class " + big},
		{"fill shape", "fill", ops.Args{}, in(i64([]int{3}, 1<<32, 1<<32, 0)), nil, "[4294967296 4294967296 0]"},
		{"create shape", "create", ops.Args{}, in(i64([]int{2}, 1<<32, 1<<32)), nil, "[4294967296 4294967296]"},
		{"distribution_uniform shape", "distribution_uniform", ops.Args{F: []float64{0, 1}}, in(i64([]int{2}, 1<<62, 4)), nil, "[4611686018427387904 4]"},
		{"eye batch", "eye", ops.Args{I: []int64{2, 2, 1 << 62, 4}}, nil, nil, "[4611686018427387904 4 2 2]"},
		// The last id + 1 wrapped to a negative number of segments, which
		// shape inference passed on as the output's size.
		// tri listed the positions of its ones before allocating (8 bytes
		// an element, outside the memory budget: 2^32 x 2^32 ran until the
		// kernel killed the process) and wrapped i+k for k near 2^63.
		{"tri size", "tri", ops.Args{I: []int64{1 << 32, 1 << 32}}, nil, nil, "[4294967296 4294967296]"},
		{"tri diagonal", "tri", ops.Args{I: []int64{2, 2, X}}, nil, f32([]int{2, 2}, 1, 1, 1, 1), ""},
		{"tri diagonal below", "tri", ops.Args{I: []int64{2, 2, N}}, nil, f32([]int{2, 2}, 0, 0, 0, 0), ""},
		{"triu diagonal", "triu", ops.Args{I: []int64{X}}, in(x22), f64([]int{2, 2}, 0, 0, 0, 0), ""},
		{"triu diagonal below", "triu", ops.Args{I: []int64{N}}, in(x22), x22, ""},
		{"triu_bp diagonal", "triu_bp", ops.Args{I: []int64{X}}, in(x22, x22), f64([]int{2, 2}, 0, 0, 0, 0), ""},
		// The most boxes to keep went through int() of a float64 2^63,
		// which is not defined, and kept none.
		{"non_max_suppression count", "non_max_suppression", ops.Args{I: []int64{X}}, in(f64([]int{1, 4}, 0, 0, 1, 1), f64([]int{1}, 1)), i32([]int{1}, 0), ""},
		{"segment_sum last id", "segment_sum", ops.Args{}, in(x4, i64([]int{4}, 0, 0, 0, X)), nil, "segment id " + big},
		{"unsorted_segment_sum count", "unsorted_segment_sum", ops.Args{I: []int64{1 << 62}}, in(x4, i64([]int{4}, 0, 0, 0, 0)), nil, "4611686018427387904 segments"},
		{"expand_dims axis", "expand_dims", ops.Args{I: []int64{N}}, in(x4), nil, "axis " + huge},
		{"split_v sizes", "split_v", ops.Args{I: []int64{0}}, in(x4, i64([]int{2}, X, -X+3)), nil, big},
		{"reverse_sequence length", "reverse_sequence", ops.Args{I: []int64{1, 0}}, in(x22, i64([]int{2}, X, X)), nil, "length " + big},
		{"upsampling2d factor", "upsampling2d", ops.Args{I: []int64{X, X, 0}}, in(img), nil, big},
		{"extract_image_patches kernel", "extract_image_patches", ops.Args{I: []int64{X, X, 1, 1, 1, 1, 0}}, in(img), nil, big},
	} {
		t.Run(c.name, func(t *testing.T) {
			checkOverflowCase(t, c.op, c.args, c.in, c.want, c.wantErr)
		})
	}
}

func in(v ...*ndarray.Array) []*ndarray.Array { return v }

// checkOverflowCase runs one case of TestIndexArithmeticOverflow through
// shape inference and the op, either of which may refuse it.
func checkOverflowCase(t *testing.T, op string, args ops.Args, ins []*ndarray.Array, want *ndarray.Array, wantErr string) {
	t.Helper()
	d, infos := lookupWithInfos(t, op, ins)
	ia, ra := args.Clone(), args.Clone()
	inferred, ierr := d.Infer(infos, &ia)
	for _, o := range inferred {
		for _, s := range o.Shape {
			if s < -1 {
				t.Errorf("inferred %v: a negative size", o)
			}
		}
	}
	var got []*ndarray.Array
	err := func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("panic: %v", r)
				t.Errorf("%s panicked: %v", op, r)
			}
		}()
		got, err = d.Run(nil, ins, &ra)
		return err
	}()
	if want == nil {
		if err == nil {
			t.Fatalf("%s gave %v, want an error containing %q", op, got, wantErr)
		}
		if !strings.Contains(err.Error(), wantErr) {
			t.Errorf("%s: error %q does not name %q", op, err, wantErr)
		}
		if ierr != nil && !strings.Contains(ierr.Error(), wantErr) {
			t.Errorf("%s: inference error %q does not name %q", op, ierr, wantErr)
		}
		return
	}
	if err != nil || ierr != nil {
		t.Fatalf("%s: inference error %v, run error %v; want %v", op, ierr, err, want)
	}
	if got[0].DType() != want.DType() || !ndarray.SameShape(got[0].Shape(), want.Shape()) ||
		fmt.Sprint(got[0].Int64s()) != fmt.Sprint(want.Int64s()) {
		t.Errorf("%s gave %v%v %v, want %v%v %v", op, got[0].DType(), got[0].Shape(), got[0].Int64s(), want.DType(), want.Shape(), want.Int64s())
	}
	if !inferred[0].Admits(got[0].Shape()) {
		t.Errorf("%s: inferred %v, ran %v", op, inferred[0], got[0].Shape())
	}
}
