package graph

import (
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
