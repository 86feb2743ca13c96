package graph

import "github.com/sdgo/sdgo/ops"

// Builder methods of SameDiff's CNN ops on NHWC images that are neither
// convolutions nor pooling: extract_image_patches (ops/cnn_patches.go).

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
