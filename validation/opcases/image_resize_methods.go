package opcases

import "github.com/sdgo/sdgo/ops"

// image_resize's area method in a case (with its file round trip), worked
// by hand: a 2x3 image enlarged to 3x5. Output row 1 covers [2/3, 4/3) of
// the rows, a third of each; output column 1 covers [0.6, 1.2), 0.4 of
// column 0 and 0.2 of column 1, so it is (0.4·0.5 + 0.2·(-1))/0.6 = 0 in
// row 0. ops/image_resize_methods_test.go checks every method against
// testdata/image/image_resize_ref.py.
func init() {
	third := 1.0 / 3
	forward("image_resize area 2x3 to 3x5", "image_resize", ops.Args{I: []int64{3}},
		arrays(f64([]int{1, 2, 3, 1}, 0.5, -1, 2, 1.5, 0, -0.5), i64([]int{2}, 3, 5)),
		arrays(to32(f64([]int{1, 3, 5, 1}, 0.5, 0, -1, 1, 2, 1, 0.5, -0.5, third, 0.75, 1.5, 1, 0, -third, -0.5))), 1e-6)
}
