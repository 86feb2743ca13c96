package ops_test

import (
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// imageErr is bad input to an image op: the error inference gives (when
// infer is set) and the one Run gives on its own, each naming the op and
// mentioning want.
type imageErr struct {
	name  string
	op    string
	args  ops.Args
	in    []*ndarray.Array
	infer bool
	want  []string
}

func checkImageErrors(t *testing.T, cases []imageErr) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, ok := ops.Lookup(c.op)
			if !ok {
				t.Fatalf("no op %q", c.op)
			}
			check := func(stage string, err error) {
				if err == nil {
					t.Fatalf("%s: no error", stage)
				}
				for _, w := range append([]string{c.op}, c.want...) {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("%s: error %q does not mention %q", stage, err, w)
					}
				}
			}
			if c.infer {
				infos := make([]ops.Info, len(c.in))
				for i, a := range c.in {
					infos[i] = infoOf(a)
				}
				_, err := d.Infer(infos, &c.args)
				check("infer", err)
			}
			_, err := d.Run(nil, c.in, &c.args)
			check("run", err)
		})
	}
}

func zerosF(dt ndarray.DType, shape ...int) *ndarray.Array {
	return ndarray.Must(ndarray.Zeros(dt, shape...))
}

func TestColourOpErrors(t *testing.T) {
	img := zerosF(ndarray.Float64, 2, 2, 3)
	checkImageErrors(t, []imageErr{
		{"rgb_to_yiq 4 channels", "rgb_to_yiq", ops.Args{}, []*ndarray.Array{zerosF(ndarray.Float64, 2, 4)}, true, []string{"[2 4]", "4 channels", "needs 3"}},
		{"rgb_to_hsv channel axis 0 of 2", "rgb_to_hsv", ops.Args{I: []int64{0}}, []*ndarray.Array{img}, true, []string{"[2 2 3]", "2 channels"}},
		{"yuv_to_rgb axis out of range", "yuv_to_rgb", ops.Args{I: []int64{3}}, []*ndarray.Array{img}, true, []string{"channel axis", "axis 3", "rank 3"}},
		{"hsv_to_rgb scalar", "hsv_to_rgb", ops.Args{}, []*ndarray.Array{ndarray.Scalar(1.0)}, true, []string{"rank 0"}},
		{"rgb_to_yuv int", "rgb_to_yuv", ops.Args{}, []*ndarray.Array{i64([]int{3}, 1, 2, 3)}, true, []string{"float32 or float64", "int64"}},
		{"adjust_hue rank 2", "adjust_hue", ops.Args{F: []float64{0.1}}, []*ndarray.Array{zerosF(ndarray.Float64, 4, 3)}, true, []string{"[4 3]", "rank 3 or more"}},
		{"adjust_hue delta 1.5", "adjust_hue", ops.Args{F: []float64{1.5}}, []*ndarray.Array{img}, true, []string{"1.5", "[-1, 1]"}},
		{"adjust_hue delta input 2", "adjust_hue", ops.Args{}, []*ndarray.Array{img, ndarray.Scalar(-2.0)}, false, []string{"-2", "[-1, 1]"}},
		{"adjust_hue no delta", "adjust_hue", ops.Args{}, []*ndarray.Array{img}, true, []string{"float arg 0 or input 1"}},
		{"adjust_saturation factor vector", "adjust_saturation", ops.Args{}, []*ndarray.Array{img, f64([]int{2}, 1, 2)}, true, []string{"factor", "[2]", "one value"}},
		{"adjust_saturation 2 channels", "adjust_saturation", ops.Args{F: []float64{2}}, []*ndarray.Array{zerosF(ndarray.Float32, 1, 2, 2)}, true, []string{"[1 2 2]", "2 channels"}},
		{"adjust_contrast_v2 rank 2", "adjust_contrast_v2", ops.Args{F: []float64{2}}, []*ndarray.Array{zerosF(ndarray.Float64, 4, 3)}, true, []string{"[4 3]", "rank 3"}},
		{"adjust_contrast_v2 no factor", "adjust_contrast_v2", ops.Args{}, []*ndarray.Array{img}, true, []string{"factor"}},
	})
}

// Colour ops work along any channel axis and on empty images, and float32
// images stay float32.
func TestColourOpEdges(t *testing.T) {
	empty := zerosF(ndarray.Float32, 0, 2, 3)
	for _, op := range []string{"rgb_to_hsv", "hsv_to_rgb", "rgb_to_yiq", "yuv_to_rgb"} {
		got := runOp(t, op, ops.Args{}, empty)
		if got[0].DType() != ndarray.Float32 || !ndarray.SameShape(got[0].Shape(), []int{0, 2, 3}) {
			t.Errorf("%s of an empty image: %v%v", op, got[0].DType(), got[0].Shape())
		}
	}
	// rgb_to_hsv then hsv_to_rgb gives the pixels back, also at the hue's
	// wrap (pure red, magenta) and for black and white.
	px := f32([]int{3, 1, 2, 3}, 1, 0, 0, 1, 0, 1, 0, 0, 0, 1, 1, 1, 0.2, 0.4, 0.1, 0.05, 0.05, 0.9)
	hsv := runOp(t, "rgb_to_hsv", ops.Args{}, px)[0]
	back := runOp(t, "hsv_to_rgb", ops.Args{}, hsv)[0]
	w, g := px.Float64s(), back.Float64s()
	for i := range w {
		if d := w[i] - g[i]; d > 1e-6 || d < -1e-6 {
			t.Fatalf("hsv round trip: %v, want %v", g, w)
		}
	}
	// adjust_hue by a full turn either way changes nothing.
	for _, d := range []float64{1, -1} {
		got := runOp(t, "adjust_hue", ops.Args{F: []float64{d}}, px)[0].Float64s()
		for i := range w {
			if e := w[i] - got[i]; e > 1e-6 || e < -1e-6 {
				t.Fatalf("adjust_hue %v: %v, want %v", d, got, w)
			}
		}
	}
}

func TestResizeErrors(t *testing.T) {
	img := zerosF(ndarray.Float64, 1, 2, 3, 2)
	sz := func(v ...int64) *ndarray.Array { return i64([]int{len(v)}, v...) }
	checkImageErrors(t, []imageErr{
		{"resize_bilinear rank 2", "resize_bilinear", ops.Args{}, []*ndarray.Array{zerosF(ndarray.Float64, 2, 3), sz(4, 4)}, true, []string{"[2 3]", "rank 4"}},
		{"resize_bilinear rank 5", "resize_bilinear", ops.Args{}, []*ndarray.Array{zerosF(ndarray.Float64, 1, 1, 2, 3, 1), sz(4, 4)}, true, []string{"[1 1 2 3 1]"}},
		{"resize_bilinear negative size", "resize_bilinear", ops.Args{}, []*ndarray.Array{img, sz(-1, 4)}, true, []string{"[-1 4]", "positive"}},
		{"resize_bilinear zero size", "resize_bilinear", ops.Args{I: []int64{0, 4}}, []*ndarray.Array{img}, true, []string{"[0 4]", "positive"}},
		{"resize_bilinear three sizes", "resize_bilinear", ops.Args{}, []*ndarray.Array{img, sz(1, 2, 3)}, true, []string{"[3]", "two values"}},
		{"resize_bilinear no size", "resize_bilinear", ops.Args{}, []*ndarray.Array{img}, true, []string{"new size"}},
		{"resize_bilinear float size", "resize_bilinear", ops.Args{}, []*ndarray.Array{img, f64([]int{2}, 2, 2)}, true, []string{"integer"}},
		{"resize_bilinear align and half", "resize_bilinear", ops.Args{B: []bool{true, true}}, []*ndarray.Array{img, sz(3, 3)}, true, []string{"align corners", "half pixel"}},
		{"resize_bicubic negative size", "resize_bicubic", ops.Args{}, []*ndarray.Array{img, sz(3, -2)}, true, []string{"[3 -2]", "positive"}},
		{"resize_bicubic bool image", "resize_bicubic", ops.Args{}, []*ndarray.Array{bools([]int{1, 1, 1, 1}, true), sz(3, 3)}, true, []string{"numeric"}},
		{"image_resize method 9", "image_resize", ops.Args{I: []int64{9}}, []*ndarray.Array{img, sz(3, 3)}, true, []string{"method 9"}},
		{"image_resize bilinear asymmetric", "image_resize", ops.Args{I: []int64{0, 0}}, []*ndarray.Array{img, sz(3, 3)}, true, []string{"half pixel"}},
		{"image_resize nearest mode 7", "image_resize", ops.Args{I: []int64{1, 2, 7}}, []*ndarray.Array{img, sz(3, 3)}, true, []string{"nearest mode 7"}},
		{"image_resize rank 2", "image_resize", ops.Args{I: []int64{1}}, []*ndarray.Array{zerosF(ndarray.Float64, 2, 3), sz(3, 3)}, true, []string{"[2 3]"}},
		{"resize_bilinear_bp gradient shape", "resize_bilinear_bp", ops.Args{}, []*ndarray.Array{img, zerosF(ndarray.Float64, 1, 4, 4, 3)}, false, []string{"[1 4 4 3]", "[1 2 3 2]"}},
	})
}

// Resizing to the same size gives the image back with every sampling rule,
// and image_resize's aspect ratio option derives the width from the height.
func TestResizeIdentityAndAspect(t *testing.T) {
	x := f32([]int{1, 2, 3, 1}, 1, 2, 3, 4, 5, 6)
	sz := i32([]int{2}, 2, 3)
	for _, c := range []struct {
		op   string
		args ops.Args
	}{
		{"resize_bilinear", ops.Args{}}, {"resize_bilinear", ops.Args{B: []bool{true}}}, {"resize_bilinear", ops.Args{B: []bool{false, true}}},
		{"resize_bicubic", ops.Args{}}, {"resize_bicubic", ops.Args{B: []bool{false, true}}},
		{"image_resize", ops.Args{I: []int64{0}}}, {"image_resize", ops.Args{I: []int64{1}}}, {"image_resize", ops.Args{I: []int64{2}}},
	} {
		got := runOp(t, c.op, c.args, x, sz)[0]
		if !ndarray.Equal(got, x) {
			t.Errorf("%s %v to its own size: %v", c.op, c.args, got)
		}
	}
	got := runOp(t, "image_resize", ops.Args{I: []int64{1}, B: []bool{true}}, x, i32([]int{2}, 4, 1))[0]
	if !ndarray.SameShape(got.Shape(), []int{1, 4, 6, 1}) {
		t.Errorf("image_resize keeping the aspect ratio of a 2x3 image to height 4: shape %v, want [1 4 6 1]", got.Shape())
	}
}

func TestBoxOpErrors(t *testing.T) {
	img := zerosF(ndarray.Float64, 1, 2, 2, 1)
	box := f64([]int{1, 4}, 0, 0, 1, 1)
	boxes := f64([]int{2, 4}, 0, 0, 1, 1, 0, 0, 2, 2)
	checkImageErrors(t, []imageErr{
		{"crop_and_resize boxes [1 3]", "crop_and_resize", ops.Args{}, []*ndarray.Array{img, f64([]int{1, 3}, 0, 0, 1), i32([]int{1}, 0), i32([]int{2}, 2, 2)}, true, []string{"[1 3]", "[numBoxes, 4]"}},
		{"crop_and_resize indices mismatch", "crop_and_resize", ops.Args{}, []*ndarray.Array{img, box, i32([]int{2}, 0, 0), i32([]int{2}, 2, 2)}, true, []string{"[2]", "[1 4]"}},
		{"crop_and_resize index out of batch", "crop_and_resize", ops.Args{}, []*ndarray.Array{img, box, i32([]int{1}, 1), i32([]int{2}, 2, 2)}, false, []string{"image 1", "batch of 1"}},
		{"crop_and_resize negative size", "crop_and_resize", ops.Args{}, []*ndarray.Array{img, box, i32([]int{1}, 0), i32([]int{2}, -2, 2)}, true, []string{"[-2 2]", "positive"}},
		{"crop_and_resize rank 3", "crop_and_resize", ops.Args{}, []*ndarray.Array{zerosF(ndarray.Float64, 2, 2, 1), box, i32([]int{1}, 0), i32([]int{2}, 2, 2)}, true, []string{"[2 2 1]", "rank 4"}},
		{"crop_and_resize method 2", "crop_and_resize", ops.Args{I: []int64{2}}, []*ndarray.Array{img, box, i32([]int{1}, 0), i32([]int{2}, 2, 2)}, true, []string{"method 2"}},
		{"non_max_suppression scores mismatch", "non_max_suppression", ops.Args{I: []int64{2}}, []*ndarray.Array{boxes, f64([]int{3}, 1, 2, 3)}, true, []string{"[3]", "[2 4]"}},
		{"non_max_suppression boxes [2 3]", "non_max_suppression", ops.Args{I: []int64{2}}, []*ndarray.Array{zerosF(ndarray.Float64, 2, 3), f64([]int{2}, 1, 2)}, true, []string{"[2 3]"}},
		{"non_max_suppression no count", "non_max_suppression", ops.Args{}, []*ndarray.Array{boxes, f64([]int{2}, 1, 2)}, true, []string{"most boxes"}},
		{"non_max_suppression threshold 2", "non_max_suppression", ops.Args{I: []int64{2}, F: []float64{2}}, []*ndarray.Array{boxes, f64([]int{2}, 1, 2)}, true, []string{"threshold 2", "[0, 1]"}},
		{"random_crop too big", "random_crop", ops.Args{I: []int64{1}}, []*ndarray.Array{zerosF(ndarray.Float64, 2, 3), i64([]int{2}, 3, 1)}, true, []string{"[3 1]", "[2 3]"}},
		{"random_crop negative", "random_crop", ops.Args{I: []int64{1}}, []*ndarray.Array{zerosF(ndarray.Float64, 2, 3), i64([]int{2}, -1, 1)}, true, []string{"[-1 1]"}},
		{"random_crop rank mismatch", "random_crop", ops.Args{I: []int64{1}}, []*ndarray.Array{zerosF(ndarray.Float64, 2, 3), i64([]int{1}, 1)}, true, []string{"[1]", "2 sizes"}},
	})
}

// random_crop is reproducible: one seed gives one crop, every run; the
// crops of many seeds cover every offset.
func TestRandomCropSeeded(t *testing.T) {
	x := ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.Arange(ndarray.Float64, 0, 1, 10)), 10))
	size := i64([]int{1}, 3)
	seen := map[float64]bool{}
	for seed := int64(0); seed < 200; seed++ {
		a := runOp(t, "random_crop", ops.Args{I: []int64{seed}}, x, size)[0].Float64s()
		b := runOp(t, "random_crop", ops.Args{I: []int64{seed}}, x, size)[0].Float64s()
		if a[0] != b[0] || a[1] != a[0]+1 || a[2] != a[0]+2 {
			t.Fatalf("seed %d: crops %v and %v", seed, a, b)
		}
		seen[a[0]] = true
	}
	if len(seen) != 8 {
		t.Errorf("200 seeds gave the offsets %v; want all of 0 to 7", seen)
	}
}
