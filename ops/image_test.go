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
