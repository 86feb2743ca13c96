package opcases

import "github.com/sdgo/sdgo/ops"

// Cases of crop_and_resize, non_max_suppression and random_crop
// (ops/image_box.go), worked out by hand. The non_max_suppression case is
// TensorFlow's NonMaxSuppressionV2 test "SelectFromThreeClusters": boxes in
// three clusters, three kept, one per cluster, best score first.

func init() {
	img := f64([]int{1, 2, 2, 1}, 1, 2, 3, 4)
	box := f64([]int{1, 4}, 0, 0, 1, 1)
	// A 3x3 crop of the whole 2x2 image samples at 0, 0.5, 1 on each axis.
	forward("crop_and_resize bilinear", "crop_and_resize", ops.Args{}, arrays(img, box, i32([]int{1}, 0), i32([]int{2}, 3, 3)),
		arrays(f64([]int{1, 3, 3, 1}, 1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4)), 1e-12)
	// Nearest rounds 0.5 away from zero: rows and columns 0 1 1.
	forward("crop_and_resize nearest", "crop_and_resize", ops.Args{I: []int64{1}}, arrays(img, box, i32([]int{1}, 0), i32([]int{2}, 3, 3)),
		arrays(f64([]int{1, 3, 3, 1}, 1, 2, 2, 3, 4, 4, 3, 4, 4)), 0)
	// A box twice the image: samples at 0 and 2, the second outside.
	forward("crop_and_resize extrapolation", "crop_and_resize", ops.Args{F: []float64{-1}},
		arrays(img, f64([]int{1, 4}, 0, 0, 2, 2), i64([]int{1}, 0), i32([]int{2}, 2, 2)), arrays(f64([]int{1, 2, 2, 1}, 1, -1, -1, -1)), 0)

	boxes := f64([]int{6, 4}, 0, 0, 1, 1, 0, 0.1, 1, 1.1, 0, -0.1, 1, 0.9, 0, 10, 1, 11, 0, 10.1, 1, 11.1, 0, 100, 1, 101)
	scores := f64([]int{6}, 0.9, 0.75, 0.6, 0.95, 0.5, 0.3)
	forward("non_max_suppression three clusters", "non_max_suppression", ops.Args{I: []int64{3}, F: []float64{0.5}},
		arrays(boxes, scores), arrays(i32([]int{3}, 3, 0, 5)), 0)
	forward("non_max_suppression score threshold", "non_max_suppression", ops.Args{I: []int64{6}, F: []float64{0.5, 0.4}},
		arrays(boxes, scores), arrays(i32([]int{2}, 3, 0)), 0)

	// A crop the size of the input can only be the input.
	x := counting(1, 2, 3)
	forward("random_crop whole", "random_crop", ops.Args{I: []int64{7}}, arrays(x, i64([]int{2}, 2, 3)), arrays(x), 0)
}
