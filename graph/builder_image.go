package graph

import (
	"math"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Builder methods of SameDiff's image namespace (ops/image.go,
// ops/image_resize.go, ops/image_box.go). Images are laid out as libnd4j
// and TensorFlow lay them out: [batch, height, width, channels] (or one
// image [height, width, channels]), colour channels RGB on the last axis.

// Image groups the image functions: g.Image().RgbToHsv(x).
func (g *Graph) Image() Image { return Image{g} }

// Image is the namespace of image functions (SameDiff's SDImage).
type Image struct{ g *Graph }

// RgbToYiq converts RGB to YIQ along the last axis (op rgb_to_yiq).
func (m Image) RgbToYiq(x *Variable) *Variable { return m.g.Apply("rgb_to_yiq", ops.Args{}, x) }

// YiqToRgb converts YIQ to RGB along the last axis (op yiq_to_rgb).
func (m Image) YiqToRgb(x *Variable) *Variable { return m.g.Apply("yiq_to_rgb", ops.Args{}, x) }

// RgbToYuv converts RGB to YUV along the last axis (op rgb_to_yuv).
func (m Image) RgbToYuv(x *Variable) *Variable { return m.g.Apply("rgb_to_yuv", ops.Args{}, x) }

// YuvToRgb converts YUV to RGB along the last axis (op yuv_to_rgb).
func (m Image) YuvToRgb(x *Variable) *Variable { return m.g.Apply("yuv_to_rgb", ops.Args{}, x) }

// RgbToHsv converts RGB to HSV along the last axis, hue, saturation and
// value each in [0, 1] (op rgb_to_hsv). It has no gradient.
func (m Image) RgbToHsv(x *Variable) *Variable { return m.g.Apply("rgb_to_hsv", ops.Args{}, x) }

// HsvToRgb converts HSV (each in [0, 1]) to RGB along the last axis (op
// hsv_to_rgb). It has no gradient.
func (m Image) HsvToRgb(x *Variable) *Variable { return m.g.Apply("hsv_to_rgb", ops.Args{}, x) }

// AdjustContrast moves each channel of each image away from its mean over
// the image's pixels by factor: (x - mean)·factor + mean (op
// adjust_contrast_v2). x has rank 3 or more, channels last.
func (m Image) AdjustContrast(x *Variable, factor float64) *Variable {
	return m.g.Apply("adjust_contrast_v2", ops.Args{F: []float64{factor}}, x)
}

// AdjustHue turns the hue of RGB images by delta, a fraction of the colour
// circle in [-1, 1] (op adjust_hue). It has no gradient.
func (m Image) AdjustHue(x *Variable, delta float64) *Variable {
	return m.g.Apply("adjust_hue", ops.Args{F: []float64{delta}}, x)
}

// AdjustSaturation multiplies the saturation of RGB images by factor,
// clipped to [0, 1] (op adjust_saturation). It has no gradient.
func (m Image) AdjustSaturation(x *Variable, factor float64) *Variable {
	return m.g.Apply("adjust_saturation", ops.Args{F: []float64{factor}}, x)
}

// ResizeConfig is the sampling of ResizeBilinear and ResizeBicubic. The
// zero value is TensorFlow's legacy sampling (output pixel i reads source
// coordinate i·in/out).
type ResizeConfig struct {
	// AlignCorners maps the corner pixels of input and output onto each
	// other (scale (in-1)/(out-1)). Default false.
	AlignCorners bool
	// HalfPixelCenters samples at pixel centres ((i+0.5)·in/out - 0.5); for
	// bicubic it also selects Keys' coefficient -0.5 and leaves out samples
	// beyond the edges. Default false; not with AlignCorners.
	HalfPixelCenters bool
}

func sizeConst(g *Graph, h, w int) *Variable {
	return g.Const("", ndarray.Must(ndarray.FromSlice([]int64{int64(h), int64(w)})))
}

// ResizeBilinear resizes images [batch, height, width, channels] (or one
// image, rank 3) to h x w by bilinear interpolation (op resize_bilinear);
// it has a gradient.
func (m Image) ResizeBilinear(x *Variable, h, w int, cfg ResizeConfig) *Variable {
	return m.g.Apply("resize_bilinear", ops.Args{B: []bool{cfg.AlignCorners, cfg.HalfPixelCenters}}, x, sizeConst(m.g, h, w))
}

// ResizeBicubic resizes images to h x w by bicubic interpolation (op
// resize_bicubic). It has no gradient.
func (m Image) ResizeBicubic(x *Variable, h, w int, cfg ResizeConfig) *Variable {
	return m.g.Apply("resize_bicubic", ops.Args{B: []bool{cfg.AlignCorners, cfg.HalfPixelCenters}}, x, sizeConst(m.g, h, w))
}

// ResizeMethod is image_resize's method (libnd4j's numbering).
type ResizeMethod int

// The methods, libnd4j's ImageResizeMethods.
const (
	ResizeBilinear ResizeMethod = 0
	ResizeNearest  ResizeMethod = 1
	ResizeBicubic  ResizeMethod = 2
	// ResizeArea averages the source pixels each output pixel covers,
	// weighted by overlap (always antialiased).
	ResizeArea ResizeMethod = 3
	// ResizeGaussian, ResizeLanczos3, ResizeLanczos5 and ResizeMitchellCubic
	// resample with TensorFlow's kernels of those names (scale_and_translate).
	ResizeGaussian      ResizeMethod = 4
	ResizeLanczos3      ResizeMethod = 5
	ResizeLanczos5      ResizeMethod = 6
	ResizeMitchellCubic ResizeMethod = 7
)

// ImageResizeConfig is ImageResize's configuration. The zero value is a
// bilinear resize with half pixel centres.
type ImageResizeConfig struct {
	// Method: bilinear (default) or another of the ResizeMethod constants.
	Method ResizeMethod
	// Antialias widens the kernel by the shrinking factor when shrinking,
	// so that it filters out what the smaller image cannot hold; for
	// bilinear, bicubic, Gaussian, Lanczos and Mitchell (nearest and area
	// ignore it). Bilinear and bicubic then ignore Asymmetric and
	// IncludeOutside, as in libnd4j. Default false.
	Antialias bool
	// Asymmetric samples at i·in/out instead of at pixel centres; for
	// nearest and bicubic only. Default false.
	Asymmetric bool
	// NearestMode rounds nearest-neighbour coordinates: 0 floor (default),
	// 1 round half down, 2 round half up, 3 ceil.
	NearestMode int
	// PreserveAspectRatio derives the width from the height and the image's
	// aspect ratio. Default false.
	PreserveAspectRatio bool
	// CubicCoefficient is Keys' coefficient for bicubic; 0 means -0.5.
	CubicCoefficient float64
	// IncludeOutside keeps bicubic samples beyond the edges (edge pixels
	// repeat) instead of leaving them out. Default false.
	IncludeOutside bool
}

// ImageResize resizes images to h x w (op image_resize). The output is
// float32 except for nearest neighbours, which keep the dtype. It has no
// gradient.
func (m Image) ImageResize(x *Variable, h, w int, cfg ImageResizeConfig) *Variable {
	coord := int64(1)
	if cfg.Method == ResizeNearest {
		coord = 2
	}
	if cfg.Asymmetric {
		coord = 0
	}
	coef := cfg.CubicCoefficient
	if coef == 0 {
		coef = -0.5
	}
	return m.g.Apply("image_resize", ops.Args{I: []int64{int64(cfg.Method), coord, int64(cfg.NearestMode)},
		B: []bool{cfg.PreserveAspectRatio, cfg.Antialias, !cfg.IncludeOutside}, F: []float64{coef}}, x, sizeConst(m.g, h, w))
}

// CropConfig is CropAndResize's configuration.
type CropConfig struct {
	// Nearest samples the nearest pixel instead of interpolating. Default
	// false (bilinear).
	Nearest bool
	// Extrapolation is the value of crop pixels outside the image. Default 0.
	Extrapolation float64
}

// CropAndResize crops boxes [numBoxes, 4] ([y1, x1, y2, x2], normalised)
// from images [batch, height, width, channels], boxIndices [numBoxes]
// naming each box's image, and resizes each crop to h x w (op
// crop_and_resize). It has no gradient.
func (m Image) CropAndResize(images, boxes, boxIndices *Variable, h, w int, cfg CropConfig) *Variable {
	method := int64(0)
	if cfg.Nearest {
		method = 1
	}
	return m.g.Apply("crop_and_resize", ops.Args{I: []int64{method}, F: []float64{cfg.Extrapolation}}, images, boxes, boxIndices, sizeConst(m.g, h, w))
}

// NMSConfig is NonMaxSuppression's configuration; every field is used as
// given (DefaultNMS gives TensorFlow's defaults).
type NMSConfig struct {
	// MaxOutput is the most boxes to keep.
	MaxOutput int
	// IoUThreshold: a box overlapping a kept one by more than this
	// (intersection over union, in [0, 1]) is dropped.
	IoUThreshold float64
	// ScoreThreshold: boxes scoring below it are dropped.
	ScoreThreshold float64
}

// DefaultNMS keeps up to maxOutput boxes with an IoU threshold of 0.5 and
// no score threshold.
func DefaultNMS(maxOutput int) NMSConfig {
	return NMSConfig{MaxOutput: maxOutput, IoUThreshold: 0.5, ScoreThreshold: math.Inf(-1)}
}

// NonMaxSuppression selects boxes [n, 4] greedily by scores [n], giving
// the kept boxes' indices (int32), best first (op non_max_suppression).
func (m Image) NonMaxSuppression(boxes, scores *Variable, cfg NMSConfig) *Variable {
	return m.g.Apply("non_max_suppression", ops.Args{I: []int64{int64(cfg.MaxOutput)}, F: []float64{cfg.IoUThreshold, cfg.ScoreThreshold}}, boxes, scores)
}

// RandomCrop cuts a crop of the given shape from x at a random offset drawn
// from seed's stream: the same seed gives the same crop (op random_crop).
func (m Image) RandomCrop(x *Variable, shape []int, seed int64) *Variable {
	s := make([]int64, len(shape))
	for i, d := range shape {
		s[i] = int64(d)
	}
	return m.g.Apply("random_crop", ops.Args{I: []int64{seed}}, x, m.g.Const("", ndarray.Must(ndarray.FromSlice(s, len(s)))))
}
