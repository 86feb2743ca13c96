package graph

import "github.com/sdgo/sdgo/ops"

// Builder methods of SameDiff's CNN ops on NHWC images that are neither
// convolutions nor pooling: extract_image_patches (ops/cnn_patches.go),
// lrn (ops/cnn_lrn.go) and dilation2d (ops/cnn_dilation.go).

// PatchesConfig holds the options of ExtractImagePatches. Sizes are
// [height, width].
type PatchesConfig struct {
	// Kernel is the patch's size; required.
	Kernel [2]int
	// Stride is the step between patches. Default (0) means 1.
	Stride [2]int
	// Rate spaces the patch's cells (a dilation). Default (0) means 1.
	Rate [2]int
	// Padding is PaddingValid (default: patches inside the image) or
	// PaddingSame (ceil(in/stride) patches, cells outside reading zero).
	Padding PaddingMode
}

// ExtractImagePatches puts each patch of a 4-D NHWC image batch into the
// channels of an output pixel, row by row, each cell's channels together:
// [B, oH, oW, kH·kW·C] (op extract_image_patches).
func (n CNN) ExtractImagePatches(x *Variable, cfg PatchesConfig) *Variable {
	return n.g.Apply("extract_image_patches", ops.Args{I: []int64{int64(cfg.Kernel[0]), int64(cfg.Kernel[1]),
		orOne(cfg.Stride[0]), orOne(cfg.Stride[1]), orOne(cfg.Rate[0]), orOne(cfg.Rate[1]), int64(cfg.Padding)}}, x)
}

// LRNConfig holds the options of LocalResponseNormalization; zero fields
// take SameDiff's LocalResponseNormalizationConfig defaults.
type LRNConfig struct {
	// Bias is added to the scaled sum of squares. Default (0) means 1.
	Bias float64
	// Alpha scales the sum of squares. Default (0) means 1e-4.
	Alpha float64
	// Beta is the exponent of the divisor. Default (0) means 0.75.
	Beta float64
	// Depth is the number of neighbours on each side in the window.
	// Default (0) means 5; see OwnChannelOnly.
	Depth int
	// OwnChannelOnly makes the window the channel alone (depth 0).
	OwnChannelOnly bool
}

func orFloat(v, def float64) float64 {
	if v == 0 {
		return def
	}
	return v
}

// LocalResponseNormalization divides each channel of a 4-D NHWC batch by
// (Bias + Alpha·Σ x²)^Beta, the sum over the channels within Depth of it
// (op lrn).
func (n CNN) LocalResponseNormalization(x *Variable, cfg LRNConfig) *Variable {
	depth := int64(cfg.Depth)
	switch {
	case cfg.OwnChannelOnly:
		depth = 0
	case depth == 0:
		depth = 5
	}
	return n.g.Apply("lrn", ops.Args{F: []float64{orFloat(cfg.Bias, 1), orFloat(cfg.Alpha, 1e-4), orFloat(cfg.Beta, 0.75)}, I: []int64{depth}}, x)
}

// Dilation2DConfig holds the options of Dilation2D. Sizes are [height,
// width].
type Dilation2DConfig struct {
	// Stride is the step between windows. Default (0) means 1.
	Stride [2]int
	// Rate spaces the window's cells. Default (0) means 1.
	Rate [2]int
	// Padding is PaddingValid (default: windows inside the image) or
	// PaddingSame (ceil(in/stride) windows; cells outside are skipped).
	Padding PaddingMode
}

// Dilation2D is the grayscale morphological dilation of a 4-D NHWC batch
// x by the [kH, kW, C] structuring function w: the maximum over each
// window of x + w, per channel (op dilation2d).
func (n CNN) Dilation2D(x, w *Variable, cfg Dilation2DConfig) *Variable {
	return n.g.Apply("dilation2d", ops.Args{I: []int64{int64(cfg.Padding),
		1, orOne(cfg.Rate[0]), orOne(cfg.Rate[1]), 1, 1, orOne(cfg.Stride[0]), orOne(cfg.Stride[1]), 1}}, x, w)
}
