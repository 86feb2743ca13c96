package opcases

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Cases of the base namespace's gathering, slicing and scattering ops
// (ops/base_gather.go, ops/base_slice.go, ops/base_scatter.go). The forward
// values were computed with numpy 1.24 (np.take, slicing, np.split,
// np.cumsum/np.cumprod, np.add.at and kin; the script is in the comment
// below) and checked by hand on the small ones:
//
//	x = np.arange(1, 13.).reshape(3, 4); y = np.arange(1, 7.).reshape(2, 3)
//	np.take(x, [[3, 0], [1, 1]], axis=1); x[1:3, 1:]; np.split(x.reshape(4, 3), 3, 1)
//	np.cumsum(y[:, ::-1], 1)[:, ::-1]  # reverse
//	ref = np.arange(1, 9.).reshape(4, 2); np.add.at(ref, [1, 3, 1], upd)  # and subtract, multiply, ...
//
// cumprod_bp at x = [2, 0, 3] with gradient [1, 10, 100]: the Jacobian
// summed by hand, dx = [1 + 10·0 + 100·0, 10·2 + 100·2·3, 100·2·0].

func init() {
	I := func(v ...int64) ops.Args { return ops.Args{I: v} }
	T, F := true, false
	x := counting(1, 3, 4)
	y := counting(1, 2, 3)
	ref := counting(1, 4, 2)
	rows := i64([]int{3}, 1, 3, 1)
	upd := f64([]int{3, 2}, 10, 20, 30, 40, 1, 2)
	s := func(sh ...int) []int { return sh }
	for _, c := range []fwd{
		// gather
		{"gather rows", "gather", I(0), arrays(x, i64(s(2), 2, 0)), arrays(f64(s(2, 4), 9, 10, 11, 12, 1, 2, 3, 4)), 0},
		{"gather axis 1, 2-d indices", "gather", I(1), arrays(x, i32(s(2, 2), 3, 0, 1, 1)),
			arrays(f64(s(3, 2, 2), 4, 1, 2, 2, 8, 5, 6, 6, 12, 9, 10, 10)), 0},
		{"gather axis -1", "gather", I(-1), arrays(x, i64(s(2), 1, 3)), arrays(f64(s(3, 2), 2, 4, 6, 8, 10, 12)), 0},
		{"gather one index in the int args drops the axis", "gather", I(1, 2), arrays(x), arrays(f64(s(3), 3, 7, 11)), 0},
		{"gather indices in the int args", "gather", I(0, 2, 0), arrays(x), arrays(f64(s(2, 4), 9, 10, 11, 12, 1, 2, 3, 4)), 0},
		{"gather float32", "gather", I(0), arrays(f32(s(3), 1.5, -2, 4), i32(s(4), 2, 2, 0, 1)), arrays(f32(s(4), 4, 4, 1.5, -2)), 0},
		{"gather int64 axis input", "gather", ops.Args{}, arrays(i64(s(2, 2), 1, 2, 3, 4), i64(s(1), 1), i64(s(1), 1)), arrays(i64(s(2, 1), 2, 4)), 0},
		{"gather_bp repeated indices add", "gather_bp", I(0), arrays(i64(s(2), 3, 2), i64(s(3), 0, 2, 0), f64(s(3, 2), 1, 2, 3, 4, 5, 6)),
			arrays(f64(s(3, 2), 6, 8, 0, 0, 3, 4)), 0},
		// gather_nd
		{"gather_nd elements", "gather_nd", ops.Args{}, arrays(y, i64(s(2, 2), 1, 2, 0, 0)), arrays(f64(s(2), 6, 1)), 0},
		{"gather_nd rows", "gather_nd", ops.Args{}, arrays(y, i32(s(1, 1), 1)), arrays(f64(s(1, 3), 4, 5, 6)), 0},
		{"gather_nd bool", "gather_nd", ops.Args{}, arrays(bools(s(2, 2), T, F, F, T), i64(s(2, 2), 0, 1, 1, 1)), arrays(bools(s(2), F, T)), 0},
		// onehot
		{"onehot last axis, out of range gives off", "onehot", I(-1, 3), arrays(i64(s(4), 0, 2, -1, 1)),
			arrays(f32(s(4, 3), 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0)), 0},
		{"onehot axis 0, on/off, int32", "onehot", ops.Args{I: []int64{0, 3}, F: []float64{5, -1}, D: []ndarray.DType{ndarray.Int32}},
			arrays(i32(s(2), 2, 0)), arrays(i32(s(3, 2), -1, 5, -1, -1, 5, -1)), 0},
		{"onehot depth input, float64", "onehot", ops.Args{D: []ndarray.DType{ndarray.Float64}}, arrays(i64(s(2), 1, 0), i64(nil, 2)),
			arrays(f64(s(2, 2), 0, 1, 1, 0)), 0},
		// Where and where_np
		{"Where coordinates", "Where", ops.Args{}, arrays(bools(s(2, 2), T, F, F, T)), arrays(i64(s(2, 2), 0, 0, 1, 1)), 0},
		{"Where coordinates of non-zeros, none", "Where", ops.Args{}, arrays(i32(s(3), 0, 0, 0)), arrays(i64(s(0, 1))), 0},
		{"Where select", "Where", ops.Args{}, arrays(bools(s(2, 3), T, F, T, F, F, T), y, f64(s(2, 3), -1, -2, -3, -4, -5, -6)),
			arrays(f64(s(2, 3), 1, -2, 3, -4, -5, 6)), 0},
		{"Where select rows", "Where", ops.Args{}, arrays(bools(s(2), F, T), y, f64(s(2, 3), -1, -2, -3, -4, -5, -6)),
			arrays(f64(s(2, 3), -1, -2, -3, 4, 5, 6)), 0},
		{"where_np select float32", "where_np", ops.Args{}, arrays(bools(s(2), T, F), f32(s(2), 1, 2), f32(s(2), 3, 4)), arrays(f32(s(2), 1, 4)), 0},
		{"where_np coordinates", "where_np", ops.Args{}, arrays(f64(s(3), 0, 2, -1)), arrays(i64(s(2, 1), 1, 2)), 0},
		// sequence_mask
		{"sequence_mask maxlen arg", "sequence_mask", I(4), arrays(i32(s(3), 1, 3, 2)),
			arrays(bools(s(3, 4), T, F, F, F, T, T, T, F, T, T, F, F)), 0},
		{"sequence_mask longest length", "sequence_mask", ops.Args{}, arrays(i64(s(2), 0, 2)), arrays(bools(s(2, 2), F, F, T, T)), 0},
		{"sequence_mask maxlen input, float32", "sequence_mask", ops.Args{D: []ndarray.DType{ndarray.Float32}}, arrays(i64(s(2), 1, 2), i64(nil, 3)),
			arrays(f32(s(2, 3), 1, 0, 0, 1, 1, 0)), 0},
		// slice
		{"slice int args, size -1", "slice", I(1, 1, 2, -1), arrays(x), arrays(f64(s(2, 3), 6, 7, 8, 10, 11, 12)), 0},
		{"slice inputs", "slice", ops.Args{}, arrays(x, i32(s(2), 1, 1), i32(s(2), 2, -1)), arrays(f64(s(2, 3), 6, 7, 8, 10, 11, 12)), 0},
		{"slice empty", "slice", I(3, 0, 0, 4), arrays(x), arrays(ndarray.Must(ndarray.Zeros(ndarray.Float64, 0, 4))), 0},
		{"slice int32", "slice", I(1, 1), arrays(i32(s(3), 1, 2, 3)), arrays(i32(s(1), 2)), 0},
		{"slice_bp", "slice_bp", I(1, 1, 2, -1), arrays(x, counting(1, 2, 3)), arrays(f64(s(3, 4), 0, 0, 0, 0, 0, 1, 2, 3, 0, 4, 5, 6)), 0},
		// split, split_v
		{"split rows", "split", I(2), arrays(counting(1, 4, 3)), arrays(f64(s(2, 3), 1, 2, 3, 4, 5, 6), f64(s(2, 3), 7, 8, 9, 10, 11, 12)), 0},
		{"split axis input first", "split", I(3), arrays(i64(nil, 1), counting(1, 4, 3)),
			arrays(f64(s(4, 1), 1, 4, 7, 10), f64(s(4, 1), 2, 5, 8, 11), f64(s(4, 1), 3, 6, 9, 12)), 0},
		{"split axis int arg", "split", I(3, -1), arrays(i32(s(1, 3), 1, 2, 3)), arrays(i32(s(1, 1), 1), i32(s(1, 1), 2), i32(s(1, 1), 3)), 0},
		{"split_v", "split_v", I(1), arrays(y, i64(s(2), 1, 2)), arrays(f64(s(2, 1), 1, 4), f64(s(2, 2), 2, 3, 5, 6)), 0},
		{"split_v -1 size, axis input", "split_v", ops.Args{}, arrays(y, i64(s(2), -1, 2), i64(nil, 1)), arrays(f64(s(2, 1), 1, 4), f64(s(2, 2), 2, 3, 5, 6)), 0},
		// reverse
		{"reverse axis 1", "reverse", I(1), arrays(y), arrays(f64(s(2, 3), 3, 2, 1, 6, 5, 4)), 0},
		{"reverse all axes", "reverse", ops.Args{}, arrays(y), arrays(f64(s(2, 3), 6, 5, 4, 3, 2, 1)), 0},
		{"reverse axis input -2, bool", "reverse", ops.Args{}, arrays(bools(s(2, 1), T, F), i64(s(1), -2)), arrays(bools(s(2, 1), F, T)), 0},
		{"reverse_bp", "reverse_bp", I(0), arrays(y, counting(1, 2, 3)), arrays(f64(s(2, 3), 4, 5, 6, 1, 2, 3)), 0},
		// cumsum, cumprod
		{"cumsum axis 1", "cumsum", I(0, 0, 1), arrays(y), arrays(f64(s(2, 3), 1, 3, 6, 4, 9, 15)), 0},
		{"cumsum exclusive", "cumsum", I(1, 0, 1), arrays(y), arrays(f64(s(2, 3), 0, 1, 3, 0, 4, 9)), 0},
		{"cumsum reverse", "cumsum", I(0, 1, -1), arrays(y), arrays(f64(s(2, 3), 6, 5, 3, 15, 11, 6)), 0},
		{"cumsum exclusive reverse", "cumsum", I(1, 1, 1), arrays(y), arrays(f64(s(2, 3), 5, 3, 0, 11, 6, 0)), 0},
		{"cumsum all elements", "cumsum", I(0, 0), arrays(y), arrays(f64(s(2, 3), 1, 3, 6, 10, 15, 21)), 0},
		{"cumsum axis input 0, int32", "cumsum", I(0, 0), arrays(i32(s(2, 3), 1, 2, 3, 4, 5, 6), i64(nil, 0)), arrays(i32(s(2, 3), 1, 2, 3, 5, 7, 9)), 0},
		{"cumsum float32", "cumsum", I(0, 0, 0), arrays(f32(s(3), 0.5, 1.25, -2)), arrays(f32(s(3), 0.5, 1.75, -0.25)), 0},
		{"cumsum_bp", "cumsum_bp", I(0, 0, 1), arrays(y, counting(1, 2, 3)), arrays(f64(s(2, 3), 6, 5, 3, 15, 11, 6)), 0},
		{"cumsum_bp axis input", "cumsum_bp", I(0, 0), arrays(y, i64(nil, 1), counting(1, 2, 3)),
			arrays(f64(s(2, 3), 6, 5, 3, 15, 11, 6), ndarray.Scalar(1.0)), 0},
		{"cumprod axis 1", "cumprod", I(0, 0, 1), arrays(y), arrays(f64(s(2, 3), 1, 2, 6, 4, 20, 120)), 0},
		{"cumprod exclusive", "cumprod", I(1, 0, 1), arrays(y), arrays(f64(s(2, 3), 1, 1, 2, 1, 4, 20)), 0},
		{"cumprod reverse", "cumprod", I(0, 1, 1), arrays(y), arrays(f64(s(2, 3), 6, 6, 3, 120, 30, 6)), 0},
		{"cumprod exclusive reverse", "cumprod", I(1, 1, 1), arrays(y), arrays(f64(s(2, 3), 6, 3, 1, 30, 6, 1)), 0},
		{"cumprod int64", "cumprod", I(0, 0), arrays(i64(s(3), 2, -3, 4)), arrays(i64(s(3), 2, -6, -24)), 0},
		{"cumprod_bp through a zero", "cumprod_bp", I(0, 0), arrays(f64(s(3), 2, 0, 3), f64(s(3), 1, 10, 100)), arrays(f64(s(3), 1, 620, 0)), 0},
		{"cumprod_bp no zero", "cumprod_bp", I(0, 0), arrays(f64(s(3), 2, 5, 3), f64(s(3), 1, 10, 100)),
			// dx0 = 1 + 10·5 + 100·15, dx1 = 10·2 + 100·6, dx2 = 100·10
			arrays(f64(s(3), 1551, 620, 1000)), 0},
		// scatter along the first axis: ref rows 1 and 3 take updates (row 1 twice)
		{"scatter_add", "scatter_add", ops.Args{}, arrays(ref, rows, upd), arrays(f64(s(4, 2), 1, 2, 14, 26, 5, 6, 37, 48)), 0},
		{"scatter_sub", "scatter_sub", ops.Args{}, arrays(ref, rows, upd), arrays(f64(s(4, 2), 1, 2, -8, -18, 5, 6, -23, -32)), 0},
		{"scatter_mul", "scatter_mul", ops.Args{}, arrays(ref, rows, upd), arrays(f64(s(4, 2), 1, 2, 30, 160, 5, 6, 210, 320)), 0},
		{"scatter_div", "scatter_div", ops.Args{}, arrays(ref, rows, upd), arrays(f64(s(4, 2), 1, 2, 0.3, 0.1, 5, 6, 7.0/30, 0.2)), 1e-15},
		{"scatter_max", "scatter_max", ops.Args{}, arrays(ref, rows, upd), arrays(f64(s(4, 2), 1, 2, 10, 20, 5, 6, 30, 40)), 0},
		{"scatter_min", "scatter_min", ops.Args{}, arrays(ref, rows, upd), arrays(f64(s(4, 2), 1, 2, 1, 2, 5, 6, 7, 8)), 0},
		{"scatter_upd the last wins", "scatter_upd", ops.Args{}, arrays(ref, rows, upd), arrays(f64(s(4, 2), 1, 2, 1, 2, 5, 6, 30, 40)), 0},
		{"scatter_add scalar index, int32", "scatter_add", ops.Args{}, arrays(i32(s(2, 2), 1, 2, 3, 4), i64(nil, 1), i32(s(2), 10, 20)),
			arrays(i32(s(2, 2), 1, 2, 13, 24)), 0},
		{"scatter_upd float32", "scatter_upd", ops.Args{}, arrays(f32(s(3), 1, 2, 3), i32(s(1), 2), f32(s(1), 0.5)), arrays(f32(s(3), 1, 2, 0.5)), 0},
		{"scatter_nd_add repeated tuples add", "scatter_nd_add", ops.Args{}, arrays(ref, i64(s(3, 2), 0, 1, 3, 0, 0, 1), f64(s(3), 5, 6, 7)),
			arrays(f64(s(4, 2), 1, 14, 3, 4, 5, 6, 13, 8)), 0},
		{"scatter_nd_sub", "scatter_nd_sub", ops.Args{}, arrays(ref, i64(s(3, 2), 0, 1, 3, 0, 0, 1), f64(s(3), 5, 6, 7)),
			arrays(f64(s(4, 2), 1, -10, 3, 4, 5, 6, 1, 8)), 0},
	} {
		forward(c.name, c.op, c.args, c.in, c.want, c.tol)
	}

	rng := rand.New(rand.NewPCG(26, 8))
	r := func(sh ...int) input { return in(randn(rng, sh...)) }
	ix := func(v ...int64) input { return fixed(ints(v...)) }
	// distinct values, for scatter_max and scatter_min: no ties
	dref := in(Distinct(rng, 4, 2))
	dupd := in(Shifted(rng, 3, 2))
	for _, c := range []grd{
		{"gather axis 0, repeated indices", "gather", I(0), []input{r(4, 3), ix(2, 0, 2)}},
		{"gather axis 1, 2-d indices", "gather", I(1), []input{r(2, 4), fixed(i32([]int{2, 2}, 3, 0, 1, 3))}},
		{"gather indices in the int args", "gather", I(1, 2), []input{r(3, 4)}},
		{"gather_nd", "gather_nd", ops.Args{}, []input{r(3, 4), fixed(i64([]int{3, 2}, 0, 1, 2, 3, 0, 1))}},
		{"slice", "slice", I(1, 0, 2, -1), []input{r(3, 4)}},
		{"slice inputs", "slice", ops.Args{}, []input{r(3, 4), ix(0, 2), ix(-1, 2)}},
		{"split", "split", I(2, 1), []input{r(3, 4)}},
		{"split_v", "split_v", I(0), []input{r(3, 2), ix(2, 1)}},
		{"reverse", "reverse", I(0, 1), []input{r(2, 3)}},
		{"cumsum", "cumsum", I(0, 0, 1), []input{r(2, 4)}},
		{"cumsum exclusive reverse", "cumsum", I(1, 1, 0), []input{r(3, 2)}},
		{"cumprod", "cumprod", I(0, 0, 1), []input{r(2, 4)}},
		{"cumprod exclusive reverse through a zero", "cumprod", I(1, 1), []input{in(f64([]int{5}, 1.5, 0, -0.5, 2, 0.7))}},
		{"cumprod inclusive through a zero", "cumprod", I(0, 0), []input{in(f64([]int{4}, 1.5, -0.8, 0, 2))}},
		{"Where", "Where", ops.Args{}, []input{fixed(bools([]int{2, 2}, true, false, false, true)), r(2, 2), r(2, 2)}},
		{"where_np rows", "where_np", ops.Args{}, []input{fixed(bools([]int{2}, false, true)), r(2, 3), r(2, 3)}},
		{"scatter_add", "scatter_add", ops.Args{}, []input{r(4, 2), ix(1, 3, 1), r(3, 2)}},
		{"scatter_sub", "scatter_sub", ops.Args{}, []input{r(4, 2), ix(1, 3, 1), r(3, 2)}},
		{"scatter_mul", "scatter_mul", ops.Args{}, []input{r(4, 2), ix(1, 3, 1), in(randu(rng, 0.5, 2, 3, 2))}},
		{"scatter_div", "scatter_div", ops.Args{}, []input{r(4, 2), ix(1, 3, 1), in(randu(rng, 0.5, 2, 3, 2))}},
		{"scatter_max", "scatter_max", ops.Args{}, []input{dref, ix(1, 3, 1), dupd}},
		{"scatter_min", "scatter_min", ops.Args{}, []input{dref, ix(1, 3, 1), dupd}},
		{"scatter_upd repeated index", "scatter_upd", ops.Args{}, []input{r(4, 2), ix(1, 3, 1), r(3, 2)}},
		{"scatter_nd_add", "scatter_nd_add", ops.Args{}, []input{r(4, 2), fixed(i64([]int{3, 2}, 0, 1, 3, 0, 0, 1)), r(3)}},
		{"scatter_nd_sub", "scatter_nd_sub", ops.Args{}, []input{r(4, 2), fixed(i64([]int{2, 1}, 2, 0)), r(2, 2)}},
	} {
		gradient(c.name, c.op, c.args, c.in)
	}
}
