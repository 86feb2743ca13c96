package graph

import "github.com/sdgo/sdgo/ops"

// Builder methods of SameDiff's CNN namespace's convolutions
// (ops/cnn_conv.go, ops/cnn_conv1d.go, ops/cnn_deconv.go,
// ops/cnn_im2col.go). The configs are written into the ops' int args in
// libnd4j's order, so saved files hold what SameDiff writes.

// CNN groups the convolutional-network functions: g.CNN().Conv2D(...).
func (g *Graph) CNN() CNN { return CNN{g} }

// CNN is the namespace of convolutional-network functions.
type CNN struct{ g *Graph }

// PaddingMode says how a window sweep pads its input.
type PaddingMode int

// The padding modes, as libnd4j numbers them.
const (
	// PaddingValid uses the explicit paddings of the config (default 0):
	// windows stay inside the padded input.
	PaddingValid PaddingMode = 0
	// PaddingSame pads so that the output has ceil(in/stride) cells, the
	// extra cell of an odd total after (TensorFlow's SAME).
	PaddingSame PaddingMode = 1
	// PaddingCausal pads (kernel-1)·dilation cells before only (conv1d's
	// causal convolution); the output is as SAME's.
	PaddingCausal PaddingMode = 2
)

// DataFormat is the layout of image data.
type DataFormat int

// The data formats, as libnd4j numbers them.
const (
	// NCHW is [batch, channels, height, width] (NCW in 1-D); the default.
	NCHW DataFormat = 0
	// NHWC is [batch, height, width, channels] (NWC in 1-D).
	NHWC DataFormat = 1
)

// WeightFormat is the layout of convolution weights.
type WeightFormat int

// The weight formats, as libnd4j numbers them (for deconv2d the in and
// out channels swap: format 0 is [kH, kW, oC, iC], and so on).
const (
	// WeightsHWIO is [kH, kW, iC, oC]; the default.
	WeightsHWIO WeightFormat = 0
	// WeightsOIHW is [oC, iC, kH, kW] (PyTorch's).
	WeightsOIHW WeightFormat = 1
	// WeightsOHWI is [oC, kH, kW, iC].
	WeightsOHWI WeightFormat = 2
)

// Conv2DConfig holds the options of conv2d and deconv2d.
type Conv2DConfig struct {
	// Kernel is [kH, kW]. Default (zeros): taken from the weights.
	Kernel [2]int
	// Stride is [sH, sW]. Default (zeros): 1.
	Stride [2]int
	// Pad is the explicit padding [pH, pW] on each side in PaddingValid
	// mode. Default 0.
	Pad [2]int
	// Dilation is [dH, dW]. Default (zeros): 1.
	Dilation [2]int
	// Padding is the padding mode. Default PaddingValid.
	Padding PaddingMode
	// DataFormat is the layout of input and output. Default NCHW.
	DataFormat DataFormat
	// WeightFormat is the layout of the weights. Default WeightsHWIO.
	WeightFormat WeightFormat
}

func orOne(v int) int64 {
	if v == 0 {
		return 1
	}
	return int64(v)
}

// args is libnd4j's conv2d int args: kH, kW, sH, sW, pH, pW, dH, dW,
// paddingMode, dataFormat, weightsFormat.
func (c Conv2DConfig) args() ops.Args {
	return ops.Args{I: []int64{int64(c.Kernel[0]), int64(c.Kernel[1]), orOne(c.Stride[0]), orOne(c.Stride[1]),
		int64(c.Pad[0]), int64(c.Pad[1]), orOne(c.Dilation[0]), orOne(c.Dilation[1]),
		int64(c.Padding), int64(c.DataFormat), int64(c.WeightFormat)}}
}

func withBias(x, w, b *Variable) []*Variable {
	if b == nil {
		return []*Variable{x, w}
	}
	return []*Variable{x, w, b}
}

// Conv2D is the 2-D convolution of x by the weights w, plus the bias b
// [oC] unless nil (op conv2d).
func (c CNN) Conv2D(x, w, b *Variable, cfg Conv2DConfig) *Variable {
	return c.g.Apply("conv2d", cfg.args(), withBias(x, w, b)...)
}

// Deconv2D is the transposed 2-D convolution of x by the weights w
// ([kH, kW, oC, iC] in format 0), plus the bias b [oC] unless nil (op
// deconv2d): conv2d's input gradient, the output sH·(iH-1) + (kH-1)·dH + 1
// - 2·pH high (sH·iH with PaddingSame).
func (c CNN) Deconv2D(x, w, b *Variable, cfg Conv2DConfig) *Variable {
	return c.g.Apply("deconv2d", cfg.args(), withBias(x, w, b)...)
}

// DepthwiseConv2D convolves each input channel of x with its own mC
// filters (weights [kH, kW, iC, mC] in format 0, [mC, iC, kH, kW] or
// [mC, kH, kW, iC]), output channel ic·mC + m, plus the bias b [iC·mC]
// unless nil (op depthwise_conv2d).
func (c CNN) DepthwiseConv2D(x, w, b *Variable, cfg Conv2DConfig) *Variable {
	return c.g.Apply("depthwise_conv2d", cfg.args(), withBias(x, w, b)...)
}

// SeparableConv2D is depthwise_conv2d of x by the depth weights wD, then a
// 1x1 conv2d by the point weights wP ([1, 1, iC·mC, oC] in format 0),
// plus the bias b [oC] (op sconv2d). wP and b may be nil; without wP it is
// DepthwiseConv2D.
func (c CNN) SeparableConv2D(x, wD, wP, b *Variable, cfg Conv2DConfig) *Variable {
	in := []*Variable{x, wD}
	if wP != nil {
		in = append(in, wP)
	}
	if b != nil {
		in = append(in, b)
	}
	return c.g.Apply("sconv2d", cfg.args(), in...)
}

// Conv1DConfig holds conv1d's options.
type Conv1DConfig struct {
	// Kernel is kW. Default (0): taken from the weights.
	Kernel int
	// Stride is sW. Default (0): 1.
	Stride int
	// Pad is the explicit padding on each side in PaddingValid mode.
	// Default 0.
	Pad int
	// Dilation is dW. Default (0): 1.
	Dilation int
	// Padding is the padding mode (PaddingCausal too). Default
	// PaddingValid.
	Padding PaddingMode
	// DataFormat is NCHW for [bS, iC, iW] (NCW, the default) or NHWC for
	// [bS, iW, iC] (NWC).
	DataFormat DataFormat
	// WeightFormat is the layout of the weights: [kW, iC, oC] (the
	// default), [oC, iC, kW] or [oC, kW, iC].
	WeightFormat WeightFormat
}

// Conv1D is the 1-D convolution of x by the weights w, plus the bias b
// [oC] unless nil (op conv1d).
func (c CNN) Conv1D(x, w, b *Variable, cfg Conv1DConfig) *Variable {
	a := ops.Args{I: []int64{int64(cfg.Kernel), orOne(cfg.Stride), int64(cfg.Pad), orOne(cfg.Dilation),
		int64(cfg.Padding), int64(cfg.DataFormat), int64(cfg.WeightFormat)}}
	return c.g.Apply("conv1d", a, withBias(x, w, b)...)
}

// Im2ColConfig holds im2col's options.
type Im2ColConfig struct {
	// Kernel is [kH, kW]; required.
	Kernel [2]int
	// Stride is [sH, sW]. Default (zeros): 1.
	Stride [2]int
	// Pad is the explicit padding [pH, pW] in PaddingValid mode. Default 0.
	Pad [2]int
	// Dilation is [dH, dW]. Default (zeros): 1.
	Dilation [2]int
	// Same pads as PaddingSame does. Default false (explicit padding).
	Same bool
	// PadValue is the value of the padding cells. Default 0.
	PadValue float64
}

// Im2Col lays the kernel windows over the NCHW images x [bS, iC, iH, iW]
// out as columns [bS, iC, kH, kW, oH, oW] (op im2col).
func (c CNN) Im2Col(x *Variable, cfg Im2ColConfig) *Variable {
	same := int64(0)
	if cfg.Same {
		same = 1
	}
	a := ops.Args{I: []int64{int64(cfg.Kernel[0]), int64(cfg.Kernel[1]), orOne(cfg.Stride[0]), orOne(cfg.Stride[1]),
		int64(cfg.Pad[0]), int64(cfg.Pad[1]), orOne(cfg.Dilation[0]), orOne(cfg.Dilation[1]), same}}
	if cfg.PadValue != 0 {
		a.F = []float64{cfg.PadValue}
	}
	return c.g.Apply("im2col", a, x)
}

// Col2ImConfig holds col2im's options.
type Col2ImConfig struct {
	// Image is [imgH, imgW], the size of the images; required.
	Image [2]int
	// Stride is [sH, sW]. Default (zeros): 1.
	Stride [2]int
	// Pad is the padding [pH, pW] the columns were taken with. Default 0.
	Pad [2]int
	// Dilation is [dH, dW]. Default (zeros): 1.
	Dilation [2]int
}

// Col2Im sums the columns col [bS, iC, kH, kW, oH, oW] back into NCHW
// images [bS, iC, imgH, imgW] (op col2im), im2col's adjoint.
func (c CNN) Col2Im(col *Variable, cfg Col2ImConfig) *Variable {
	a := ops.Args{I: []int64{orOne(cfg.Stride[0]), orOne(cfg.Stride[1]), int64(cfg.Pad[0]), int64(cfg.Pad[1]),
		int64(cfg.Image[0]), int64(cfg.Image[1]), orOne(cfg.Dilation[0]), orOne(cfg.Dilation[1])}}
	return c.g.Apply("col2im", a, col)
}

// Conv3DConfig holds conv3dnew's options.
type Conv3DConfig struct {
	// Kernel is [kD, kH, kW]. Default (zeros): taken from the weights.
	Kernel [3]int
	// Stride is [sD, sH, sW]. Default (zeros): 1.
	Stride [3]int
	// Pad is the explicit padding [pD, pH, pW] in PaddingValid mode.
	// Default 0.
	Pad [3]int
	// Dilation is [dD, dH, dW]. Default (zeros): 1.
	Dilation [3]int
	// Padding is PaddingValid (the default) or PaddingSame.
	Padding PaddingMode
	// DataFormat is NCHW for NCDHW data (the default) or NHWC for NDHWC.
	DataFormat DataFormat
	// WeightFormat is WeightsHWIO for [kD, kH, kW, iC, oC] (the default),
	// WeightsOIHW for [oC, iC, kD, kH, kW], WeightsOHWI for
	// [oC, kD, kH, kW, iC].
	WeightFormat WeightFormat
}

// args is libnd4j's conv3dnew int args.
func (c Conv3DConfig) args() ops.Args {
	a := ops.Args{}
	for _, v := range c.Kernel {
		a.I = append(a.I, int64(v))
	}
	for _, v := range c.Stride {
		a.I = append(a.I, orOne(v))
	}
	for _, v := range c.Pad {
		a.I = append(a.I, int64(v))
	}
	for _, v := range c.Dilation {
		a.I = append(a.I, orOne(v))
	}
	a.I = append(a.I, int64(c.Padding), int64(c.DataFormat), int64(c.WeightFormat))
	return a
}

// Deconv3D is the transposed 3-D convolution of x by the weights w
// ([kD, kH, kW, oC, iC] in format 0), plus the bias b [oC] unless nil (op
// deconv3d).
func (c CNN) Deconv3D(x, w, b *Variable, cfg Conv3DConfig) *Variable {
	return c.g.Apply("deconv3d", cfg.args(), withBias(x, w, b)...)
}

// Conv3D is the 3-D convolution of x by the weights w, plus the bias b
// [oC] unless nil (op conv3dnew).
func (c CNN) Conv3D(x, w, b *Variable, cfg Conv3DConfig) *Variable {
	return c.g.Apply("conv3dnew", cfg.args(), withBias(x, w, b)...)
}
