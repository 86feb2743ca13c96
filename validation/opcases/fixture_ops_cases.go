package opcases

import (
	"math"
	"math/rand/v2"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	"github.com/sdgo/sdgo/validation"
)

// Cases of the ops added for real SameDiff files (tile, range, linspace,
// assign, noop, Assert, strided_slice, scatter_nd_update, conv2d,
// avgpool3dnew, biasadd, the math reductions, the tensor arrays, and the
// gradient rules of pad and identity_n): hand-worked forward expectations (the same
// as the ops package's tests), forward cases of the backprop ops, gradient
// checks, and tensor arrays in graphs (they need an executor), in loops
// too.

func init() {
	for _, c := range append(append(fixtureOpForwardCases(), fixtureBpForwardCases()...), fixtureReduceForwardCases()...) {
		forward(c.name, c.op, c.args, c.in, c.want, c.tol)
	}
	for _, c := range fixtureGradCases() {
		gradient(c.name, c.op, c.args, c.in)
	}
	registerTensorArrayCases()
}

// ssI builds stridedslice's int args: the masks (begin, ellipsis, end, new
// axis, shrink), then begin, end and strides.
func ssI(masks [5]int64, begin, end, strides []int64) ops.Args {
	i := append([]int64(nil), masks[:]...)
	return ops.Args{I: append(append(append(i, begin...), end...), strides...)}
}

func fixtureOpForwardCases() []fwd {
	A := func(a ...*ndarray.Array) []*ndarray.Array { return a }
	m := f64([]int{2, 2}, 1, 2, 3, 4)
	x12 := counting(0, 3, 4)
	v5 := counting(0, 5)
	x33 := f64([]int{1, 3, 3, 1}, 1, 2, 3, 4, 5, 6, 7, 8, 9)
	diag := f64([]int{2, 2, 1, 1}, 1, 0, 0, 1)
	conv := func(same, nhwc int64, s, p, d int64) ops.Args {
		return ops.Args{I: []int64{2, 2, s, s, p, p, d, d, same, nhwc}}
	}
	pool := func(k, s, p, same, div, ndhwc int64) ops.Args {
		return ops.Args{I: []int64{k, k, k, s, s, s, p, p, p, 1, 1, 1, same, div, ndhwc}}
	}
	cube := counting(0, 1, 1, 2, 2, 2)
	return []fwd{
		{"tile rows", "tile", ops.Args{}, A(m, i32([]int{2}, 2, 1)), A(f64([]int{4, 2}, 1, 2, 3, 4, 1, 2, 3, 4)), 0},
		{"tile args", "tile", ops.Args{I: []int64{1, 2}}, A(m), A(f64([]int{2, 4}, 1, 2, 1, 2, 3, 4, 3, 4)), 0},
		{"tile int32", "tile", ops.Args{I: []int64{3}}, A(i32([]int{2}, 7, 8)), A(i32([]int{6}, 7, 8, 7, 8, 7, 8)), 0},
		{"range int32", "range", ops.Args{}, A(ndarray.Scalar(int32(0)), ndarray.Scalar(int32(5)), ndarray.Scalar(int32(1))), A(i32([]int{5}, 0, 1, 2, 3, 4)), 0},
		{"range mixed ints", "range", ops.Args{}, A(ndarray.Scalar(int32(0)), ndarray.Scalar(int64(3)), ndarray.Scalar(int32(1))), A(i32([]int{3}, 0, 1, 2)), 0},
		{"range float", "range", ops.Args{}, A(ndarray.Scalar(1.0), ndarray.Scalar(2.0), ndarray.Scalar(0.25)), A(f64([]int{4}, 1, 1.25, 1.5, 1.75)), 0},
		{"range down", "range", ops.Args{}, A(ndarray.Scalar(int64(5)), ndarray.Scalar(int64(0)), ndarray.Scalar(int64(-2))), A(i64([]int{3}, 5, 3, 1)), 0},
		{"range args", "range", ops.Args{I: []int64{2, 8, 3}}, nil, A(i64([]int{2}, 2, 5)), 0},
		{"linspace inputs", "linspace", ops.Args{F: []float64{1, 5}}, A(ndarray.Scalar(float32(1)), ndarray.Scalar(float32(5)), ndarray.Scalar(int32(5))),
			A(f32([]int{5}, 1, 2, 3, 4, 5)), 0},
		{"linspace args", "linspace", ops.Args{F: []float64{2, 3}, I: []int64{3}}, nil, A(f32([]int{3}, 2, 2.5, 3)), 0},
		{"lin_space", "lin_space", ops.Args{}, A(ndarray.Scalar(-1.0), ndarray.Scalar(1.0), ndarray.Scalar(int32(5))), A(f64([]int{5}, -1, -0.5, 0, 0.5, 1)), 0},
		{"assign broadcast", "assign", ops.Args{}, A(ndarray.Must(ndarray.Zeros(ndarray.Float64, 2, 2)), f64([]int{2}, 1, 2)), A(f64([]int{2, 2}, 1, 2, 1, 2)), 0},
		{"assign copy", "assign", ops.Args{}, A(m), A(m), 0},
		{"noop", "noop", ops.Args{}, nil, A(ndarray.Scalar(true)), 0},
		{"Assert holds", "Assert", ops.Args{}, A(ndarray.Scalar(true), m), A(ndarray.Scalar(true)), 0},
		{"stridedslice inputs", "stridedslice", ssI([5]int64{}, nil, nil, nil),
			A(x12, i64([]int{2}, 0, 1), i64([]int{2}, 2, 3), i64([]int{2}, 1, 1)), A(f64([]int{2, 2}, 1, 2, 5, 6)), 0},
		{"stridedslice reverse", "stridedslice", ssI([5]int64{1, 0, 1, 0, 0}, []int64{0}, []int64{0}, []int64{-1}), A(v5), A(f64([]int{5}, 4, 3, 2, 1, 0)), 0},
		{"stridedslice negative indices", "stridedslice", ssI([5]int64{}, []int64{-1}, []int64{-6}, []int64{-2}), A(v5), A(f64([]int{3}, 4, 2, 0)), 0},
		{"stridedslice shrink", "stridedslice", ssI([5]int64{0, 0, 0, 0, 1}, []int64{1}, []int64{2}, []int64{1}), A(x12), A(f64([]int{4}, 4, 5, 6, 7)), 0},
		{"stridedslice new axis", "stridedslice", ssI([5]int64{0, 0, 0, 1, 0}, []int64{0, 0}, []int64{0, 1}, []int64{1, 1}), A(x12), A(f64([]int{1, 1, 4}, 0, 1, 2, 3)), 0},
		{"stridedslice ellipsis", "stridedslice", ssI([5]int64{0, 1, 0, 0, 2}, []int64{0, 1}, []int64{0, 2}, []int64{1, 1}), A(x12), A(f64([]int{3}, 1, 5, 9)), 0},
		{"scatter_nd_update", "scatter_nd_update", ops.Args{},
			A(f64([]int{8}, 1, 2, 3, 4, 5, 6, 7, 8), i64([]int{4, 1}, 4, 3, 1, 7), f64([]int{4}, 9, 10, 11, 12)), A(f64([]int{8}, 1, 11, 3, 10, 9, 6, 7, 12)), 0},
		{"scatter_nd_update rows", "scatter_nd_update", ops.Args{},
			A(f64([]int{3, 2}, 1, 2, 3, 4, 5, 6), i32([]int{2, 1}, 2, 0), f64([]int{2, 2}, 9, 9, 8, 8)), A(f64([]int{3, 2}, 8, 8, 3, 4, 9, 9)), 0},
		{"biasadd NHWC", "biasadd", ops.Args{}, A(f64([]int{2, 3}, 1, 2, 3, 4, 5, 6), f64([]int{3}, 10, 20, 30)), A(f64([]int{2, 3}, 11, 22, 33, 14, 25, 36)), 0},
		{"biasadd NCHW", "biasadd", ops.Args{B: []bool{true}}, A(counting(0, 1, 2, 2, 2), f64([]int{2}, 100, 200)),
			A(f64([]int{1, 2, 2, 2}, 100, 101, 102, 103, 204, 205, 206, 207)), 0},
		{"conv2d NHWC valid", "conv2d", conv(0, 1, 1, 0, 1), A(x33, diag), A(f64([]int{1, 2, 2, 1}, 6, 8, 12, 14)), 0},
		{"conv2d NHWC same bias", "conv2d", conv(1, 1, 1, 0, 1), A(x33, diag, f64([]int{1}, 1)), A(f64([]int{1, 3, 3, 1}, 7, 9, 4, 13, 15, 7, 8, 9, 10)), 0},
		{"conv2d NHWC dilation", "conv2d", conv(0, 1, 1, 0, 2), A(x33, diag), A(f64([]int{1, 1, 1, 1}, 10)), 0},
		{"conv2d NCHW", "conv2d", conv(0, 0, 1, 0, 1), A(f64([]int{1, 1, 3, 3}, 1, 2, 3, 4, 5, 6, 7, 8, 9), diag), A(f64([]int{1, 1, 2, 2}, 6, 8, 12, 14)), 0},
		{"conv2d channels", "conv2d", ops.Args{I: []int64{1, 1, 1, 1, 0, 0, 1, 1, 0, 1}}, A(f64([]int{1, 1, 1, 2}, 1, 2), f64([]int{1, 1, 2, 2}, 1, 2, 3, 4)),
			A(f64([]int{1, 1, 1, 2}, 7, 10)), 0},
		{"avgpool3d valid", "avgpool3dnew", pool(2, 1, 0, 0, 0, 0), A(cube), A(f64([]int{1, 1, 1, 1, 1}, 3.5)), 0},
		{"avgpool3d same exclude padding", "avgpool3dnew", pool(2, 1, 0, 1, 0, 0), A(cube), A(f64([]int{1, 1, 2, 2, 2}, 3.5, 4, 4.5, 5, 5.5, 6, 6.5, 7)), 0},
		{"avgpool3d same include padding", "avgpool3dnew", pool(2, 1, 0, 1, 1, 0), A(cube),
			A(f64([]int{1, 1, 2, 2, 2}, 28.0/8, 16.0/8, 18.0/8, 10.0/8, 22.0/8, 12.0/8, 13.0/8, 7.0/8)), 0},
		{"avgpool3d NDHWC", "avgpool3dnew", pool(2, 1, 0, 0, 0, 1), A(f64([]int{1, 2, 2, 2, 1}, 0, 1, 2, 3, 4, 5, 6, 7)), A(f64([]int{1, 1, 1, 1, 1}, 3.5)), 0},
	}
}

func fixtureReduceForwardCases() []fwd {
	A := func(a ...*ndarray.Array) []*ndarray.Array { return a }
	x := f64([]int{2, 2}, 1, -2, 3, -4)
	s := ndarray.Scalar[float64]
	ax := func(keep bool, axes ...int) ops.Args { return ops.ReduceArgs(keep, axes...) }
	return []fwd{
		{"reduce_norm1", "reduce_norm1", ax(false), A(x), A(s(10)), 0},
		{"reduce_norm1 axis 1 keep", "reduce_norm1", ax(true, 1), A(x), A(f64([]int{2, 1}, 3, 7)), 0},
		{"reduce_norm2", "reduce_norm2", ax(false, 1), A(x), A(f64([]int{2}, math.Sqrt(5), 5)), 1e-15},
		{"reduce_normmax", "reduce_normmax", ax(false, 0), A(x), A(f64([]int{2}, 3, 4)), 0},
		{"reduce_sqnorm", "reduce_sqnorm", ax(false), A(x), A(s(30)), 0},
		{"amean", "amean", ax(false, 1), A(x), A(f64([]int{2}, 1.5, 3.5)), 0},
		{"asum int32", "asum", ax(false), A(i32([]int{2, 2}, 1, -2, 3, -4)), A(ndarray.Scalar(int32(10))), 0},
		{"amax", "amax", ax(false), A(x), A(s(4)), 0},
		{"amin", "amin", ax(false, 1), A(x), A(f64([]int{2}, 1, 3)), 0},
		{"reduce_logsumexp", "reduce_logsumexp", ops.Args{}, A(f64([]int{2}, 0, math.Log(3))), A(s(math.Log(4))), 1e-15},
		{"reduce_logsumexp axes, keepDims float arg", "reduce_logsumexp", ops.Args{I: []int64{1}, F: []float64{1}},
			A(f64([]int{2, 2}, 0, 0, 1000, 1000)), A(f64([]int{2, 1}, math.Ln2, 1000+math.Ln2)), 1e-12},
		{"countNonZero", "countNonZero", ax(false), A(f64([]int{2, 2}, 0, 1, 2, 0)), A(ndarray.Scalar(int64(2))), 0},
		{"countZero", "countZero", ax(false, 0), A(i32([]int{2, 2}, 0, 1, 0, 0)), A(i64([]int{2}, 2, 1)), 0},
	}
}

// The backprop ops on their own, worked by hand.
func fixtureBpForwardCases() []fwd {
	A := func(a ...*ndarray.Array) []*ndarray.Array { return a }
	z := func(shape ...int) *ndarray.Array { return ndarray.Must(ndarray.Zeros(ndarray.Float64, shape...)) }
	s := ndarray.Scalar[float64]
	x := f64([]int{2}, 1, -2)
	return []fwd{
		// The six elements of a 3-fold tile of a 2-vector sum back in pairs.
		{"tile_bp", "tile_bp", ops.Args{I: []int64{3}}, A(z(2), f64([]int{6}, 1, 2, 3, 4, 5, 6)), A(f64([]int{2}, 9, 12)), 0},
		// pad [1,2] around 3 values: the interior gets g[1:4], the
		// constant the rest (1+5+6).
		{"pad_bp constant", "pad_bp", ops.Args{}, A(z(3), i32([]int{1, 2}, 1, 2), s(0), f64([]int{6}, 1, 2, 3, 4, 5, 6)),
			A(f64([]int{3}, 2, 3, 4), s(12)), 0},
		// reflect [2,1]: the padded array is x2 x1 x0 x1 x2 x1.
		{"pad_bp reflect", "pad_bp", ops.Args{I: []int64{1}}, A(z(3), i32([]int{1, 2}, 2, 1), f64([]int{6}, 1, 2, 3, 4, 5, 6)),
			A(f64([]int{3}, 3, 12, 6)), 0},
		{"strided_slice_bp", "strided_slice_bp", ssI([5]int64{}, []int64{1}, []int64{3}, []int64{1}), A(z(4), f64([]int{2}, 5, 6)),
			A(f64([]int{4}, 0, 5, 6, 0)), 0},
		// Rows 0 and 2 of the updates both go to index 2: the last wins and
		// gets the gradient; index 0 gets row 1's.
		{"scatter_nd_update_bp", "scatter_nd_update_bp", ops.Args{}, A(z(3), i32([]int{3, 1}, 2, 0, 2), z(3), f64([]int{3}, 1, 2, 3)),
			A(f64([]int{3}, 0, 2, 0), f64([]int{3}, 0, 1, 3)), 0},
		{"biasadd_bp", "biasadd_bp", ops.Args{}, A(z(2, 2), z(2), f64([]int{2, 2}, 1, 2, 3, 4)), A(f64([]int{2, 2}, 1, 2, 3, 4), f64([]int{2}, 4, 6)), 0},
		// One output cell x00·w00 + x01·w01 + x10·w10 + x11·w11 with gradient 2.
		{"conv2d_bp", "conv2d_bp", ops.Args{I: []int64{2, 2, 1, 1, 0, 0, 1, 1, 0, 1}},
			A(f64([]int{1, 2, 2, 1}, 1, 2, 3, 4), f64([]int{2, 2, 1, 1}, 1, 0, 0, 1), f64([]int{1}, 0), f64([]int{1, 1, 1, 1}, 2)),
			A(f64([]int{1, 2, 2, 1}, 2, 0, 0, 2), f64([]int{2, 2, 1, 1}, 2, 4, 6, 8), f64([]int{1}, 2)), 0},
		{"avgpool3dnew_bp", "avgpool3dnew_bp", ops.Args{I: []int64{2, 2, 2, 1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0}},
			A(z(1, 1, 2, 2, 2), f64([]int{1, 1, 1, 1, 1}, 8)), A(ndarray.Must(ndarray.Full(ndarray.Float64, 1, 1, 1, 2, 2, 2))), 0},
		// x = [1, -2], gradient 2 over every axis.
		{"reduce_norm1_bp", "reduce_norm1_bp", ops.Args{}, A(x, s(2)), A(f64([]int{2}, 2, -2)), 0},
		{"reduce_norm2_bp", "reduce_norm2_bp", ops.Args{}, A(x, s(2)), A(f64([]int{2}, 2/math.Sqrt(5), -4/math.Sqrt(5))), 1e-15},
		{"reduce_normmax_bp", "reduce_normmax_bp", ops.Args{}, A(x, s(2)), A(f64([]int{2}, 0, -2)), 0},
		{"reduce_sqnorm_bp", "reduce_sqnorm_bp", ops.Args{}, A(x, s(2)), A(f64([]int{2}, 4, -8)), 0},
		{"amean_bp", "amean_bp", ops.Args{}, A(x, s(2)), A(f64([]int{2}, 1, -1)), 0},
		{"asum_bp", "asum_bp", ops.Args{}, A(x, s(2)), A(f64([]int{2}, 2, -2)), 0},
		{"amax_bp", "amax_bp", ops.Args{}, A(x, s(2)), A(f64([]int{2}, 0, -2)), 0},
		{"amin_bp", "amin_bp", ops.Args{}, A(x, s(2)), A(f64([]int{2}, 2, 0)), 0},
		// The softmax of [0, ln 3] is [1/4, 3/4].
		{"reduce_logsumexp_bp", "reduce_logsumexp_bp", ops.Args{}, A(f64([]int{2}, 0, math.Log(3)), s(2)), A(f64([]int{2}, 0.5, 1.5)), 1e-15},
	}
}

func fixtureGradCases() []grd {
	rng := rand.New(rand.NewPCG(23, 5))
	r := func(shape ...int) input { return in(randn(rng, shape...)) }
	// Distinct absolute values, away from 0: no ties for the max-like
	// reductions, no kink of |x|.
	distinct := func(shape ...int) input {
		n := 1
		for _, d := range shape {
			n *= d
		}
		v := make([]float64, n)
		for i := range v {
			v[i] = (0.5 + 0.37*float64(i)) * float64(1-2*(i%2))
		}
		return in(f64(shape, v...))
	}
	conv := func(k, s, p, d, same, nhwc, wf int64) ops.Args {
		return ops.Args{I: []int64{k, k, s, s, p, p, d, d, same, nhwc, wf}}
	}
	pool := func(k, s, p, same, div, ndhwc int64) ops.Args {
		return ops.Args{I: []int64{k, k, k, s, s, s, p, p, p, 1, 1, 1, same, div, ndhwc}}
	}
	cs := []grd{
		{"tile", "tile", ops.Args{}, []input{r(2, 3), fixed(i32([]int{2}, 2, 3))}},
		{"tile args", "tile", ops.Args{I: []int64{3, 1, 2}}, []input{r(2, 1, 2)}},
		{"pad constant", "pad", ops.Args{I: []int64{0}}, []input{r(2, 3), fixed(i32([]int{2, 2}, 1, 0, 2, 1)), in(ndarray.Scalar(0.5))}},
		{"pad reflect", "pad", ops.Args{I: []int64{1}}, []input{r(3, 4), fixed(i32([]int{2, 2}, 2, 1, 1, 3))}},
		{"pad symmetric", "pad", ops.Args{I: []int64{2}}, []input{r(3, 4), fixed(i32([]int{2, 2}, 3, 1, 0, 4))}},
		{"identity_n", "identity_n", ops.Args{}, []input{r(2, 3), r(4)}},
		{"assign", "assign", ops.Args{}, []input{r(2, 3), r(3)}},
		{"assign copy", "assign", ops.Args{}, []input{r(2, 2)}},
		{"stridedslice inputs", "stridedslice", ssI([5]int64{}, nil, nil, nil),
			[]input{r(3, 4), fixed(i64([]int{2}, 0, 1)), fixed(i64([]int{2}, 3, 4)), fixed(i64([]int{2}, 2, 2))}},
		{"stridedslice reverse shrink new axis", "stridedslice", ssI([5]int64{1, 0, 1, 4, 2}, []int64{0, 1, 0}, []int64{0, 2, 0}, []int64{-1, 1, 1}),
			[]input{r(3, 4)}},
		{"stridedslice ellipsis", "stridedslice", ssI([5]int64{0, 1, 0, 0, 0}, []int64{0, 1}, []int64{0, 3}, []int64{1, 1}), []input{r(2, 3, 4)}},
		{"scatter_nd_update", "scatter_nd_update", ops.Args{}, []input{r(4, 2), fixed(i32([]int{3, 1}, 2, 0, 2)), r(3, 2)}},
		{"biasadd NHWC", "biasadd", ops.Args{}, []input{r(2, 3, 4), r(4)}},
		{"biasadd NCHW", "biasadd", ops.Args{B: []bool{true}}, []input{r(2, 3, 2, 2), r(3)}},
		{"conv2d NHWC valid bias", "conv2d", conv(2, 1, 0, 1, 0, 1, 0), []input{r(2, 4, 4, 2), r(2, 2, 2, 3), r(3)}},
		{"conv2d NHWC same stride 2", "conv2d", conv(3, 2, 0, 1, 1, 1, 0), []input{r(1, 5, 4, 2), r(3, 3, 2, 2)}},
		{"conv2d NCHW padding dilation", "conv2d", conv(2, 1, 1, 2, 0, 0, 0), []input{r(1, 2, 4, 5), r(2, 2, 2, 2)}},
		{"conv2d weights [oC,iC,kH,kW]", "conv2d", conv(2, 1, 0, 1, 0, 1, 1), []input{r(1, 3, 3, 2), r(3, 2, 2, 2), r(3)}},
		{"conv2d weights [oC,kH,kW,iC]", "conv2d", conv(2, 1, 0, 1, 1, 1, 2), []input{r(1, 3, 3, 2), r(3, 2, 2, 2)}},
		{"avgpool3dnew NCDHW valid", "avgpool3dnew", pool(2, 1, 0, 0, 0, 0), []input{r(1, 2, 3, 3, 3)}},
		{"avgpool3dnew NDHWC same", "avgpool3dnew", pool(2, 2, 0, 1, 0, 1), []input{r(2, 3, 3, 3, 2)}},
		{"avgpool3dnew padding include", "avgpool3dnew", pool(3, 2, 1, 0, 1, 0), []input{r(1, 1, 4, 4, 4)}},
		{"reduce_norm1", "reduce_norm1", ops.ReduceArgs(false, 1), []input{distinct(3, 4)}},
		{"reduce_norm2", "reduce_norm2", ops.ReduceArgs(false), []input{distinct(3, 4)}},
		{"reduce_norm2 axes input keep", "reduce_norm2", ops.Args{B: []bool{true}}, []input{distinct(2, 3, 2), fixed(i32([]int{2}, 0, 2))}},
		{"reduce_normmax", "reduce_normmax", ops.ReduceArgs(false, 0), []input{distinct(3, 4)}},
		{"reduce_sqnorm", "reduce_sqnorm", ops.ReduceArgs(true, 1), []input{distinct(3, 4)}},
		{"amean", "amean", ops.ReduceArgs(false), []input{distinct(3, 4)}},
		{"asum", "asum", ops.ReduceArgs(false, 0), []input{distinct(3, 4)}},
		{"amax", "amax", ops.ReduceArgs(false, 1), []input{distinct(3, 4)}},
		{"amin", "amin", ops.ReduceArgs(false), []input{distinct(3, 4)}},
		{"reduce_logsumexp", "reduce_logsumexp", ops.Args{I: []int64{1}, F: []float64{1}}, []input{r(3, 4)}},
		{"reduce_logsumexp all", "reduce_logsumexp", ops.Args{}, []input{r(2, 3)}},
	}
	return cs
}

// Tensor arrays, in graphs: their state lives in a run.

// taOps are the tensor array ops a case's graph uses.
var taOps = []string{"tensorarrayv3", "tensorarraywritev3", "tensorarrayreadv3", "tensorarraygatherv3", "tensorarraystack",
	"tensorarrayconcatv3", "tensorarraysizev3"}

func registerTensorArrayCases() {
	const noGrad = "forward values; tensorarray_grad.go checks the gradients"
	elem := ops.Args{D: []ndarray.DType{ndarray.Float64}}
	create := func(g *graph.Graph, size int32) (h, flow *graph.Variable, err error) {
		outs, err := g.Op("tensorarrayv3", ops.TensorArrayArgs(ndarray.Float64, true), g.Const("", ndarray.Scalar(size)))
		if err != nil {
			return nil, nil, err
		}
		return outs[0], outs[1], nil
	}
	idx := func(g *graph.Graph, i int32) *graph.Variable { return g.Const("", ndarray.Scalar(i)) }

	// write, read, size, gather, stack, concat, close.
	registerFor(taOps, "forward tensor array write and read", func() validation.TestCase {
		g := graph.New()
		feeds := map[string]*ndarray.Array{"a": f64([]int{2}, 1, 2), "b": f64([]int{2}, 3, 4)}
		a, b := g.Placeholder("a", ndarray.Float64, 2), g.Placeholder("b", ndarray.Float64, 2)
		tc := validation.TestCase{Name: "tensor array", Graph: g, Feeds: feeds, SkipGradCheck: noGrad}
		h, flow, err := create(g, 1)
		if err != nil {
			tc.BuildErr = err
			return tc
		}
		flow = g.Apply("tensorarraywritev3", ops.Args{}, h, idx(g, 0), a, flow)
		flow = g.Apply("tensorarraywritev3", ops.Args{}, h, idx(g, 1), b, flow)
		read := g.Apply("tensorarrayreadv3", elem, h, idx(g, 1), flow)
		size := g.Apply("tensorarraysizev3", ops.Args{}, h, flow)
		gather := g.Apply("tensorarraygatherv3", elem, h, g.Const("", i32([]int{2}, 1, 0)), flow)
		stack := g.Apply("tensorarraystack", elem, h, flow)
		concat := g.Apply("tensorarrayconcatv3", elem, h, flow)
		if err := firstError(read, size, gather, stack, concat); err != nil {
			tc.BuildErr = err
			return tc
		}
		tc.ExpectExact(read.Name(), f64([]int{2}, 3, 4))
		tc.ExpectExact(size.Name(), ndarray.Scalar(int64(2)))
		tc.ExpectExact(gather.Name(), f64([]int{2, 2}, 3, 4, 1, 2))
		tc.ExpectExact(stack.Name(), f64([]int{2, 2}, 1, 2, 3, 4))
		tc.ExpectExact(concat.Name(), f64([]int{4}, 1, 2, 3, 4))
		return tc
	})

	// close after a write (close orders after its flow input only: nothing
	// else may use the array then).
	registerFor([]string{"tensorarrayv3", "tensorarraywritev3", "tensorarrayclosev3"}, "forward tensor array close", func() validation.TestCase {
		g := graph.New()
		a := g.Placeholder("a", ndarray.Float64, 2)
		tc := validation.TestCase{Name: "tensor array close", Graph: g, Feeds: map[string]*ndarray.Array{"a": f64([]int{2}, 1, 2)}, SkipGradCheck: noGrad}
		h, flow, err := create(g, 1)
		if err != nil {
			tc.BuildErr = err
			return tc
		}
		closed := g.Apply("tensorarrayclosev3", ops.Args{}, h, g.Apply("tensorarraywritev3", ops.Args{}, h, idx(g, 0), a, flow))
		if err := closed.Err(); err != nil {
			tc.BuildErr = err
			return tc
		}
		tc.ExpectExact(closed.Name(), ndarray.Scalar(true))
		return tc
	})

	// scatter, unstack and split fill arrays that reads look into.
	registerFor([]string{"tensorarrayv3", "tensorarrayscatterv3", "tensorarrayunstack", "tensorarraysplitv3", "tensorarrayreadv3"},
		"forward tensor array scatter, unstack, split", func() validation.TestCase {
			g := graph.New()
			mv := f64([]int{3, 2}, 1, 2, 3, 4, 5, 6)
			m := g.Placeholder("m", ndarray.Float64, 3, 2)
			tc := validation.TestCase{Name: "tensor array scatter", Graph: g, Feeds: map[string]*ndarray.Array{"m": mv}, SkipGradCheck: noGrad}
			h1, f1, err := create(g, 0)
			if err != nil {
				tc.BuildErr = err
				return tc
			}
			f1 = g.Apply("tensorarrayscatterv3", ops.Args{}, h1, g.Const("", i64([]int{3}, 2, 0, 1)), m, f1)
			h2, f2, _ := create(g, 0)
			f2 = g.Apply("tensorarrayunstack", ops.Args{}, h2, m, f2)
			h3, f3, _ := create(g, 0)
			f3 = g.Apply("tensorarraysplitv3", ops.Args{}, h3, m, g.Const("", i64([]int{2}, 1, 2)), f3)
			r1 := g.Apply("tensorarrayreadv3", elem, h1, idx(g, 0), f1)
			r2 := g.Apply("tensorarrayreadv3", elem, h2, idx(g, 2), f2)
			r3 := g.Apply("tensorarrayreadv3", elem, h3, idx(g, 1), f3)
			if err := firstError(r1, r2, r3); err != nil {
				tc.BuildErr = err
				return tc
			}
			tc.ExpectExact(r1.Name(), f64([]int{2}, 3, 4))
			tc.ExpectExact(r2.Name(), f64([]int{2}, 5, 6))
			tc.ExpectExact(r3.Name(), f64([]int{2, 2}, 3, 4, 5, 6))
			return tc
		})

	// A tensor array created outside a loop, written at index i in
	// iteration i (TensorFlow's pattern), stacked after the loop.
	registerFor([]string{"tensorarrayv3", "tensorarraywritev3", "tensorarraystack", "tensorarraysizev3"},
		"forward tensor array in a loop", func() validation.TestCase {
			g := graph.New()
			x := g.Placeholder("x", ndarray.Float64, 2)
			tc := validation.TestCase{Name: "tensor array loop", Graph: g, Feeds: map[string]*ndarray.Array{"x": f64([]int{2}, 1, -2)}, SkipGradCheck: noGrad}
			h, flow, err := create(g, 0)
			if err != nil {
				tc.BuildErr = err
				return tc
			}
			exits, err := g.While([]*graph.Variable{idx(g, 0), flow},
				func(v []*graph.Variable) *graph.Variable { return v[0].Lt(idx(g, 3)) },
				func(v []*graph.Variable) []*graph.Variable {
					f := g.Apply("tensorarraywritev3", ops.Args{}, h, v[0], x.Mul(v[0].Cast(ndarray.Float64)), v[1])
					return []*graph.Variable{v[0].Add(idx(g, 1)), f}
				})
			if err != nil {
				tc.BuildErr = err
				return tc
			}
			stack := g.Apply("tensorarraystack", elem, h, exits[1])
			size := g.Apply("tensorarraysizev3", ops.Args{}, h, exits[1])
			if err := firstError(stack, size); err != nil {
				tc.BuildErr = err
				return tc
			}
			tc.ExpectExact(stack.Name(), f64([]int{3, 2}, 0, 0, 1, -2, 2, -4))
			tc.ExpectExact(size.Name(), ndarray.Scalar(int64(3)))
			return tc
		})
}

func firstError(vs ...*graph.Variable) error {
	for _, v := range vs {
		if err := v.Err(); err != nil {
			return err
		}
	}
	return nil
}
