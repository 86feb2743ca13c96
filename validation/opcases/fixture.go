package opcases

import (
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Cases of identity_n and pad, the ops of the SameDiff files in testdata,
// from the expectations of ops/pad_test.go.

func init() {
	A := func(a ...*ndarray.Array) []*ndarray.Array { return a }
	a := f32([]int{2, 3}, 1, 2, 3, 4, 5, 6)
	b := i64([]int{2}, 7, 8)
	forward("identity_n two inputs", "identity_n", ops.Args{}, A(a, b), A(a, b), 0)
	forward("identity_n one input", "identity_n", ops.Args{}, A(b), A(b), 0)

	x := f32([]int{5}, 1, 2, 3, 4, 5)
	m := f64([]int{2, 3}, 1, 2, 3, 4, 5, 6)
	for _, c := range []fwd{
		// The pad_1D fixture: [1,1] around a vector with the constant 10 from input 2.
		{"pad constant input", "pad", ops.Args{I: []int64{0}}, A(x, i32([]int{1, 2}, 1, 1), ndarray.Scalar[float32](10)),
			A(f32([]int{7}, 10, 1, 2, 3, 4, 5, 10)), 0},
		{"pad constant arg", "pad", ops.Args{F: []float64{-1}}, A(x, i64([]int{1, 2}, 2, 0)),
			A(f32([]int{7}, -1, -1, 1, 2, 3, 4, 5)), 0},
		{"pad constant default 0", "pad", ops.Args{}, A(m, i32([]int{2, 2}, 1, 0, 0, 1)),
			A(f64([]int{3, 4}, 0, 0, 0, 0, 1, 2, 3, 0, 4, 5, 6, 0)), 0},
		{"pad reflect", "pad", ops.Args{I: []int64{1}}, A(x, i32([]int{1, 2}, 2, 3)),
			A(f32([]int{10}, 3, 2, 1, 2, 3, 4, 5, 4, 3, 2)), 0},
		{"pad symmetric", "pad", ops.Args{I: []int64{2}}, A(x, i32([]int{1, 2}, 2, 3)),
			A(f32([]int{10}, 2, 1, 1, 2, 3, 4, 5, 5, 4, 3)), 0},
		// TensorFlow's MirrorPad documentation example (reflect, [[1,1],[2,2]] on [[1,2,3],[4,5,6]]).
		{"pad reflect 2d", "pad", ops.Args{I: []int64{1}}, A(m, i32([]int{2, 2}, 1, 1, 2, 2)),
			A(f64([]int{4, 7},
				6, 5, 4, 5, 6, 5, 4,
				3, 2, 1, 2, 3, 2, 1,
				6, 5, 4, 5, 6, 5, 4,
				3, 2, 1, 2, 3, 2, 1)), 0},
		// ... and its symmetric example ([[1,1],[2,2]]).
		{"pad symmetric 2d", "pad", ops.Args{I: []int64{2}}, A(m, i32([]int{2, 2}, 1, 1, 2, 2)),
			A(f64([]int{4, 7},
				2, 1, 1, 2, 3, 3, 2,
				2, 1, 1, 2, 3, 3, 2,
				5, 4, 4, 5, 6, 6, 5,
				5, 4, 4, 5, 6, 6, 5)), 0},
		{"pad int32 constant", "pad", ops.Args{F: []float64{7}}, A(i32([]int{2}, 1, 2), i32([]int{1, 2}, 0, 1)),
			A(i32([]int{3}, 1, 2, 7)), 0},
		{"pad bool", "pad", ops.Args{}, A(bools([]int{1}, true), i32([]int{1, 2}, 1, 1)),
			A(bools([]int{3}, false, true, false)), 0},
		{"pad rank 0", "pad", ops.Args{}, A(ndarray.Scalar(2.5), ndarray.Must(ndarray.Zeros(ndarray.Int32, 0, 2))),
			A(ndarray.Scalar(2.5)), 0},
	} {
		forward(c.name, c.op, c.args, c.in, c.want, c.tol)
	}
}
