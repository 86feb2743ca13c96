package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/kernels"
	"github.com/sdgo/sdgo/ndarray"
)

// Ops of SameDiff's image namespace (SDImage): colour conversions and
// adjustments here, resizing and cropping in image_resize.go, box
// selection and random crops in image_box.go.
//
// The colour ops take a float32 or float64 array with an axis of three
// channels: int arg 0 names it (negative counts from the end), the last
// axis when absent, as libnd4j lays them out. The conversions accept any
// rank of at least 1; the adjustments, like libnd4j's, want images of rank
// 3 or more. HSV values are all in [0, 1]: a hue of h is h·360 degrees.
// The linear conversions (YIQ and YUV, both ways) have gradients: a 3x3
// matrix's transpose applied along the channel axis. The HSV conversions
// and the hue and saturation adjustments are piecewise and SameDiff gives
// them no gradient; sdgo neither. adjust_contrast_v2 is linear in its
// image and has a gradient.

// channelAxis resolves the channel axis of a colour op (int arg 0, the last
// axis when absent) against a shape, and checks it holds three channels.
func channelAxis(name string, shape []int, a *Args) (int, error) {
	ax, err := normAxis(name, int(a.Int(0, -1)), len(shape))
	if err != nil {
		return 0, fmt.Errorf("%s: the channel axis (int arg 0): %w", name, err)
	}
	if shape[ax] >= 0 && shape[ax] != 3 {
		return 0, fmt.Errorf("%s: input of shape %v has %d channels on axis %d; it needs 3", name, shape, shape[ax], ax)
	}
	return ax, nil
}

// colourInfer is the inference of a colour op: a float input of rank
// minRank or more with three channels on its channel axis, giving an output
// of its dtype and shape.
func colourInfer(name string, minRank int) func(in []Info, a *Args) ([]Info, error) {
	return func(in []Info, a *Args) ([]Info, error) {
		if err := needFloat(name, in[0]); err != nil {
			return nil, err
		}
		if in[0].UnknownRank {
			return infos(same(in[0])), nil
		}
		if err := needImageRank(name, in[0].Shape, minRank); err != nil {
			return nil, err
		}
		if _, err := channelAxis(name, in[0].Shape, a); err != nil {
			return nil, err
		}
		return infos(same(in[0])), nil
	}
}

// needImageRank checks that an image has rank minRank or more.
func needImageRank(name string, shape []int, minRank int) error {
	if len(shape) < minRank {
		return fmt.Errorf("%s: input of shape %v has rank %d; it needs rank %d or more", name, shape, len(shape), minRank)
	}
	return nil
}

// pixelFunc maps one pixel's three channels to three new ones.
type pixelFunc func(a, b, c float64) (float64, float64, float64)

// colourRun applies a pixel function along the channel axis of input 0
// (param, when the op has one, is float arg 0 or the scalar input 1).
func colourRun(name string, minRank int, f32 func(p float32) func(a, b, c float32) (float32, float32, float32),
	f64 func(p float64) func(a, b, c float64) (float64, float64, float64), param bool) func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
	return func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x := in[0]
		if err := needFloat(name, infoOfArray(x)); err != nil {
			return nil, err
		}
		if err := needImageRank(name, x.Shape(), minRank); err != nil {
			return nil, err
		}
		ax, err := channelAxis(name, x.Shape(), a)
		if err != nil {
			return nil, err
		}
		var p float64
		if param {
			if p, err = scalarParam(name, in, a); err != nil {
				return nil, err
			}
		}
		if x.DType() == ndarray.Float32 {
			return one(pixelMap(c, x, ax, f32(float32(p))))
		}
		return one(pixelMap(c, x, ax, f64(p)))
	}
}

// scalarParam is an adjustment's factor: input 1 when given (one element),
// else float arg 0.
func scalarParam(name string, in []*ndarray.Array, a *Args) (float64, error) {
	if len(in) > 1 {
		if in[1].Size() != 1 {
			return 0, fmt.Errorf("%s: the factor (input 1) has shape %v; it must hold one value", name, in[1].Shape())
		}
		return in[1].Float64s()[0], nil
	}
	if a == nil || len(a.F) == 0 {
		return 0, fmt.Errorf("%s needs its factor as float arg 0 or input 1", name)
	}
	return a.F[0], nil
}

// pixelMap applies f to every pixel of x, the channels on axis ax.
func pixelMap[T kernels.Float](c *Ctx, x *ndarray.Array, ax int, f func(a, b, c T) (T, T, T)) (*ndarray.Array, error) {
	src, err := packedValues[T](x)
	if err != nil {
		return nil, err
	}
	out := c.Alloc(x.DType(), x.Shape())
	dst := flat[T](out)
	outer, inner := splitAt(x.Shape(), ax)
	for o := 0; o < outer; o++ {
		base := o * 3 * inner
		for i := 0; i < inner; i++ {
			k := base + i
			dst[k], dst[k+inner], dst[k+2*inner] = f(src[k], src[k+inner], src[k+2*inner])
		}
	}
	return out, nil
}

// splitAt returns the number of elements before axis ax and after it.
func splitAt(shape []int, ax int) (outer, inner int) {
	outer, inner = 1, 1
	for _, d := range shape[:ax] {
		outer *= d
	}
	for _, d := range shape[ax+1:] {
		inner *= d
	}
	return outer, inner
}

// A colour matrix m maps channels (a, b, c) to (m[k][0]·a + m[k][1]·b +
// m[k][2]·c) for k = 0, 1, 2: libnd4j's coefficients, rows the output
// channels.
type colourMatrix [3][3]float64

var (
	rgbToYiqM = colourMatrix{
		{0.299, 0.587, 0.114},
		{0.59590059, -0.27455667, -0.32134392},
		{0.2115, -0.52273617, 0.31119955},
	}
	yiqToRgbM = colourMatrix{
		{1, 0.95598634, 0.6208248},
		{1, -0.27201283, -0.64720424},
		{1, -1.10674021, 1.70423049},
	}
	rgbToYuvM = colourMatrix{
		{0.299, 0.587, 0.114},
		{-0.14714119, -0.2888691, 0.43601035},
		{0.61497538, -0.51496512, -0.10001026},
	}
	yuvToRgbM = colourMatrix{
		{1, 0, 1.13988303},
		{1, -0.394642334, -0.58062185},
		{1, 2.03206185, 0},
	}
)

func matrixPixel[T kernels.Float](m colourMatrix) func(a, b, c T) (T, T, T) {
	var t [3][3]T
	for i := range m {
		for j := range m[i] {
			t[i][j] = T(m[i][j])
		}
	}
	return func(a, b, c T) (T, T, T) {
		return t[0][0]*a + t[0][1]*b + t[0][2]*c, t[1][0]*a + t[1][1]*b + t[1][2]*c, t[2][0]*a + t[2][1]*b + t[2][2]*c
	}
}

// colourMatrixDef defines a linear colour conversion. Its gradient applies
// m's transpose along the channel axis: the channels of the output gradient
// unstacked, combined with m's columns and stacked again.
func colourMatrixDef(name, doc string, m colourMatrix) *Def {
	return &Def{
		Name: name, Type: Custom, MinIn: 1, MaxIn: 1, Doc: doc,
		Infer: colourInfer(name, 1),
		Run: colourRun(name, 1, func(float32) func(a, b, c float32) (float32, float32, float32) { return matrixPixel[float32](m) },
			func(float64) func(a, b, c float64) (float64, float64, float64) { return matrixPixel[float64](m) }, false),
		Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
			x := n.In[0].Info()
			ax := int(n.Args.Int(0, -1))
			if ax < 0 && !x.UnknownRank {
				ax += len(x.Shape)
			}
			ch := b.Op("unstack", Args{I: []int64{int64(ax), 3}}, d[0])
			parts := make([]Value, 3)
			for j := range parts {
				var sum Value
				for k := 0; k < 3; k++ {
					if m[k][j] == 0 {
						continue
					}
					t := mul(b, ch[k], scalarLike(b, d[0], m[k][j]))
					if sum == nil {
						sum = t
					} else {
						sum = op1(b, "add", Args{}, sum, t)
					}
				}
				parts[j] = sum
			}
			return []Value{op1(b, "stack", Args{I: []int64{int64(ax)}}, parts...)}
		},
	}
}

var (
	rgbToYiqOp = Register(colourMatrixDef("rgb_to_yiq", "RGB to YIQ along the channel axis (int arg 0, default last)", rgbToYiqM))
	yiqToRgbOp = Register(colourMatrixDef("yiq_to_rgb", "YIQ to RGB along the channel axis (int arg 0, default last)", yiqToRgbM))
	rgbToYuvOp = Register(colourMatrixDef("rgb_to_yuv", "RGB to YUV along the channel axis (int arg 0, default last)", rgbToYuvM))
	yuvToRgbOp = Register(colourMatrixDef("yuv_to_rgb", "YUV to RGB along the channel axis (int arg 0, default last)", yuvToRgbM))
)

// rgbToHsv converts one pixel: h, s, v in [0, 1]; a grey pixel has hue 0,
// a black one saturation 0.
func rgbToHsv[T kernels.Float](r, g, b T) (h, s, v T) {
	mx := max(r, g, b)
	mn := min(r, g, b)
	c := mx - mn
	switch {
	case c == 0:
		h = 0
	case mx == r:
		h = (g - b) / c / 6
		if g < b {
			h++
		}
	case mx == g:
		h = ((b-r)/c + 2) / 6
	default:
		h = ((r-g)/c + 4) / 6
	}
	if mx != 0 {
		s = c / mx
	}
	return h, s, mx
}

// hsvToRgb converts one pixel back: the hue's sixth of the circle picks
// which channel is the value, which the value less the chroma, and which
// lies between.
func hsvToRgb[T kernels.Float](h, s, v T) (r, g, b T) {
	sector := h * 6
	c := v * s
	switch {
	case sector >= 0 && sector < 1:
		return v, v - c*(1-sector), v - c
	case sector >= 1 && sector < 2:
		return v - c*(sector-1), v, v - c
	case sector >= 2 && sector < 3:
		return v - c, v, v - c*(3-sector)
	case sector >= 3 && sector < 4:
		return v - c, v - c*(sector-3), v
	case sector >= 4 && sector < 5:
		return v - c*(5-sector), v - c, v
	default:
		return v, v - c, v - c*(sector-5)
	}
}

// hueShift returns the pixel function of adjust_hue: the hue turned by
// delta (a fraction of the circle) and wrapped into [0, 1).
func hueShift[T kernels.Float](delta T) func(r, g, b T) (T, T, T) {
	return func(r, g, b T) (T, T, T) {
		h, s, v := rgbToHsv(r, g, b)
		h += delta
		if h < 0 {
			h++
		} else if h >= 1 {
			h--
		}
		return hsvToRgb(h, s, v)
	}
}

// saturationScale returns the pixel function of adjust_saturation: the
// saturation times f, clipped to [0, 1].
func saturationScale[T kernels.Float](f T) func(r, g, b T) (T, T, T) {
	return func(r, g, b T) (T, T, T) {
		h, s, v := rgbToHsv(r, g, b)
		return hsvToRgb(h, min(max(s*f, 0), 1), v)
	}
}

func fixed3[T kernels.Float](f func(a, b, c T) (T, T, T)) func(T) func(a, b, c T) (T, T, T) {
	return func(T) func(a, b, c T) (T, T, T) { return f }
}

var (
	rgbToHsvOp = Register(&Def{
		Name: "rgb_to_hsv", Type: Custom, MinIn: 1, MaxIn: 1,
		Doc:   "RGB to HSV (each in [0, 1]) along the channel axis (int arg 0, default last)",
		Infer: colourInfer("rgb_to_hsv", 1),
		Run:   colourRun("rgb_to_hsv", 1, fixed3(rgbToHsv[float32]), fixed3(rgbToHsv[float64]), false),
	})
	hsvToRgbOp = Register(&Def{
		Name: "hsv_to_rgb", Type: Custom, MinIn: 1, MaxIn: 1,
		Doc:   "HSV (each in [0, 1]) to RGB along the channel axis (int arg 0, default last)",
		Infer: colourInfer("hsv_to_rgb", 1),
		Run:   colourRun("hsv_to_rgb", 1, fixed3(hsvToRgb[float32]), fixed3(hsvToRgb[float64]), false),
	})
)

// adjustInfer is colourInfer for the adjustments, which also check their
// factor: float arg 0, or a one-element input 1.
func adjustInfer(name string, check func(p float64) error) func(in []Info, a *Args) ([]Info, error) {
	base := colourInfer(name, 3)
	return func(in []Info, a *Args) ([]Info, error) {
		if len(in) > 1 {
			if !in[1].UnknownRank && in[1].ShapeKnown() && ndarray.Packed(in[1].Shape...).Size() != 1 {
				return nil, fmt.Errorf("%s: the factor (input 1) has shape %v; it must hold one value", name, in[1].Shape)
			}
		} else if a == nil || len(a.F) == 0 {
			return nil, fmt.Errorf("%s needs its factor as float arg 0 or input 1", name)
		} else if check != nil {
			if err := check(a.F[0]); err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
		}
		return base(in, a)
	}
}

func hueDelta(d float64) error {
	if !(d >= -1 && d <= 1) {
		return fmt.Errorf("the hue delta %v is outside [-1, 1]", d)
	}
	return nil
}

var (
	adjustHueOp = Register(&Def{
		Name: "adjust_hue", Type: Custom, MinIn: 1, MaxIn: 2, NonDiff: []int{1},
		Doc:   "hue turned by delta (float arg 0 or input 1, a fraction of the circle in [-1, 1]); channel axis int arg 0, default last",
		Infer: adjustInfer("adjust_hue", hueDelta),
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			d, err := scalarParam("adjust_hue", in, a)
			if err != nil {
				return nil, err
			}
			if err := hueDelta(d); err != nil {
				return nil, fmt.Errorf("adjust_hue: %w", err)
			}
			return colourRun("adjust_hue", 3, hueShift[float32], hueShift[float64], true)(c, in, a)
		},
	})
	adjustSaturationOp = Register(&Def{
		Name: "adjust_saturation", Type: Custom, MinIn: 1, MaxIn: 2, NonDiff: []int{1},
		Doc:   "saturation times a factor (float arg 0 or input 1), clipped to [0, 1]; channel axis int arg 0, default last",
		Infer: adjustInfer("adjust_saturation", nil),
		Run:   colourRun("adjust_saturation", 3, saturationScale[float32], saturationScale[float64], true),
	})
)

// adjust_contrast_v2 moves each channel of each image away from its mean
// over the image's height and width by a factor: (x - mean)·f + mean, on
// images [..., H, W, C] of rank 3 or more, the factor float arg 0 or a
// one-element input 1. It is linear in x and its own adjoint: the gradient
// of x is adjust_contrast_v2 of the output gradient with the same factor;
// that of the factor, Σ d·(x - mean), mean being adjust_contrast_v2(x, 0).
var adjustContrastV2Op = Register(&Def{
	Name: "adjust_contrast_v2", Type: Custom, MinIn: 1, MaxIn: 2,
	Doc: "(x - mean over height and width)·factor + mean, per image and channel; factor float arg 0 or input 1",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		const name = "adjust_contrast_v2"
		if err := needFloat(name, in[0]); err != nil {
			return nil, err
		}
		if len(in) > 1 {
			if err := needFloat(name+"'s factor", in[1]); err != nil {
				return nil, err
			}
			if in[1].ShapeKnown() && ndarray.Packed(in[1].Shape...).Size() != 1 {
				return nil, fmt.Errorf("%s: the factor (input 1) has shape %v; it must hold one value", name, in[1].Shape)
			}
		} else if a == nil || len(a.F) == 0 {
			return nil, fmt.Errorf("%s needs its factor as float arg 0 or input 1", name)
		}
		if !in[0].UnknownRank {
			if err := needImageRank(name, in[0].Shape, 3); err != nil {
				return nil, err
			}
		}
		return infos(same(in[0])), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		const name = "adjust_contrast_v2"
		x := in[0]
		if err := needFloat(name, infoOfArray(x)); err != nil {
			return nil, err
		}
		if err := needImageRank(name, x.Shape(), 3); err != nil {
			return nil, err
		}
		f, err := scalarParam(name, in, a)
		if err != nil {
			return nil, err
		}
		if x.DType() == ndarray.Float32 {
			return one(contrast(c, x, float32(f)))
		}
		return one(contrast(c, x, f))
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		dx := op1(b, "adjust_contrast_v2", n.Args.Clone(), append([]Value{d[0]}, n.In[1:]...)...)
		if len(n.In) == 1 {
			return []Value{dx}
		}
		x := n.In[0]
		mean := op1(b, "adjust_contrast_v2", Args{F: []float64{0}}, x)
		dev := op1(b, "subtract", Args{}, x, mean)
		return []Value{dx, op1(b, "reduce_to_shape_of", Args{}, mul(b, d[0], dev), n.In[1])}
	},
})

// contrast computes adjust_contrast_v2 in T: the means over each image's
// pixels, per channel, then (x - mean)·f + mean.
func contrast[T kernels.Float](c *Ctx, x *ndarray.Array, f T) (*ndarray.Array, error) {
	src, err := packedValues[T](x)
	if err != nil {
		return nil, err
	}
	s := x.Shape()
	ch := s[len(s)-1]
	px := s[len(s)-2] * s[len(s)-3]
	out := c.Alloc(x.DType(), s)
	dst := flat[T](out)
	if len(src) == 0 {
		return out, nil // no image: ch may be any size
	}
	mean := make([]T, ch)
	for base := 0; base < len(src); base += px * ch {
		img := src[base : base+px*ch]
		clear(mean)
		for p := 0; p < px; p++ {
			for k, v := range img[p*ch : p*ch+ch] {
				mean[k] += v
			}
		}
		for k := range mean {
			mean[k] /= T(px)
		}
		o := dst[base : base+px*ch]
		for p := 0; p < px; p++ {
			for k := 0; k < ch; k++ {
				o[p*ch+k] = (img[p*ch+k]-mean[k])*f + mean[k]
			}
		}
	}
	return out, nil
}
