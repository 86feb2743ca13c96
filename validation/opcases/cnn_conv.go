package opcases

import (
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Cases of the convolutions (ops/cnn_conv.go).

// convArgs is conv2d's int args: kH, kW, sH, sW, pH, pW, dH, dW,
// isSameMode, dataFormat, weightsFormat.
func convArgs(v ...int64) ops.Args { return ops.Args{I: v} }

func init() {
	// libnd4j ConvolutionTests1 TestConv2D_1: x [1,2,5,4] NCHW = 1..40,
	// weights [oC,iC,kH,kW] = [3,2,2,2] = 1..24 (the test permutes them to
	// [kH,kW,iC,oC], weightsFormat 0), 2x2 kernel, SAME.
	x := counting(1, 1, 2, 5, 4)
	wO := counting(1, 3, 2, 2, 2)
	wH := ndarray.Must(ndarray.Copy(ndarray.Must(ndarray.Permute(wO, 2, 3, 1, 0))))
	want := f64([]int{1, 3, 5, 4},
		664, 700, 736, 344, 808, 844, 880, 408, 952, 988, 1024, 472, 1096, 1132, 1168, 536, 466, 480, 494, 220,
		1528, 1628, 1728, 856, 1928, 2028, 2128, 1048, 2328, 2428, 2528, 1240, 2728, 2828, 2928, 1432, 1346, 1392, 1438, 700,
		2392, 2556, 2720, 1368, 3048, 3212, 3376, 1688, 3704, 3868, 4032, 2008, 4360, 4524, 4688, 2328, 2226, 2304, 2382, 1180)
	forward("conv2d libnd4j TestConv2D_1", "conv2d", convArgs(2, 2, 1, 1, 0, 0, 1, 1, 1, 0), arrays(x, wH), arrays(want), 0)
	forward("conv2d libnd4j TestConv2D_1 float32", "conv2d", convArgs(2, 2, 1, 1, 0, 0, 1, 1, 1, 0),
		arrays(to32(x), to32(wH)), arrays(to32(want)), 0)
	forward("conv2d libnd4j TestConv2D_1 weights [oC,iC,kH,kW]", "conv2d", convArgs(2, 2, 1, 1, 0, 0, 1, 1, 1, 0, 1),
		arrays(x, wO), arrays(want), 0)
	// The same in NHWC with weights [oC,kH,kW,iC]: the permuted inputs give
	// the permuted output.
	nhwc := func(a *ndarray.Array) *ndarray.Array {
		return ndarray.Must(ndarray.Copy(ndarray.Must(ndarray.Permute(a, 0, 2, 3, 1))))
	}
	forward("conv2d libnd4j TestConv2D_1 NHWC weights [oC,kH,kW,iC]", "conv2d", convArgs(2, 2, 1, 1, 0, 0, 1, 1, 1, 1, 2),
		arrays(to32(nhwc(x)), to32(nhwc(wO))), arrays(to32(nhwc(want))), 0)

	// By hand: x = 1..16 as [1,1,4,4], a 2x2 kernel of ones, stride 2,
	// VALID: the sums of the four 2x2 blocks, plus a bias of 0.5.
	forward("conv2d stride 2 bias", "conv2d", convArgs(2, 2, 2, 2, 0, 0, 1, 1, 0, 0),
		arrays(counting(1, 1, 1, 4, 4), f64([]int{2, 2, 1, 1}, 1, 1, 1, 1), f64([]int{1}, 0.5)),
		arrays(f64([]int{1, 1, 2, 2}, 14.5, 22.5, 46.5, 54.5)), 0)
	// Dilation 2 with explicit padding 1 on 1..9 [1,3,3,1] NHWC, a 2x2
	// kernel of ones: each output adds the cells two apart around it.
	// out(0,0): x(-1,-1)+x(-1,1)+x(1,-1)+x(1,1) = 5; out(0,1) = x(1,0)+x(1,2) = 4+6;
	// out(1,0) = x(0,1)+x(2,1) = 2+8; out(1,1) = x(0,0)+x(0,2)+x(2,0)+x(2,2) = 20.
	forward("conv2d dilation padding NHWC", "conv2d", convArgs(2, 2, 1, 1, 1, 1, 2, 2, 0, 1),
		arrays(counting(1, 1, 3, 3, 1), f64([]int{2, 2, 1, 1}, 1, 1, 1, 1)),
		arrays(f64([]int{1, 3, 3, 1}, 5, 10, 5, 10, 20, 10, 5, 10, 5)), 0)

	r := func(shape ...int) input { return in(randn(seeded(7), shape...)) }
	gradient("conv2d NCHW same stride 2 bias", "conv2d", convArgs(3, 3, 2, 2, 0, 0, 1, 1, 1, 0, 0),
		[]input{r(2, 3, 5, 6), r(3, 3, 3, 4), r(4)})
	gradient("conv2d NHWC dilation weights [oC,iC,kH,kW]", "conv2d", convArgs(2, 2, 1, 2, 1, 0, 2, 1, 0, 1, 1),
		[]input{r(2, 5, 4, 3), r(2, 3, 2, 2)})
	gradient("conv2d NCHW weights [oC,kH,kW,iC] bias", "conv2d", convArgs(2, 3, 1, 1, 1, 1, 1, 1, 0, 0, 2),
		[]input{r(1, 2, 4, 4), r(3, 2, 3, 2), r(3)})

	// conv1d by hand: x = 1..5 [1,1,5] NCW, kernel [2,1] (weights [kW,iC,oC]):
	// VALID out[i] = 2x[i] + x[i+1]; CAUSAL pads one 0 before:
	// out[0] = 2·0 + 1, out[i] = 2x[i-1] + x[i].
	k21 := f64([]int{2, 1, 1}, 2, 1)
	forward("conv1d valid", "conv1d", convArgs(2, 1, 0, 1, 0), arrays(counting(1, 1, 1, 5), k21),
		arrays(f64([]int{1, 1, 4}, 4, 7, 10, 13)), 0)
	forward("conv1d causal NWC float32", "conv1d", convArgs(2, 1, 0, 1, 2, 1),
		arrays(to32(counting(1, 1, 5, 1)), to32(k21)), arrays(f32([]int{1, 5, 1}, 1, 4, 7, 10, 13)), 0)
	// SAME, stride 2, bias 1: outputs at 0, 2, 4 with the pad (2-1)/2 = 0
	// before: 2x0+x1+1, 2x2+x3+1, 2x4+0+1.
	forward("conv1d same stride 2 bias weights [oC,iC,kW]", "conv1d", convArgs(2, 2, 0, 1, 1, 0, 1),
		arrays(counting(1, 1, 1, 5), f64([]int{1, 1, 2}, 2, 1), f64([]int{1}, 1)),
		arrays(f64([]int{1, 1, 3}, 5, 11, 11)), 0)
	gradient("conv1d NCW bias", "conv1d", convArgs(3, 1, 1, 1, 0, 0, 0), []input{r(2, 3, 6), r(3, 3, 2), r(2)})
	gradient("conv1d NWC causal dilation weights [oC,kW,iC]", "conv1d", convArgs(2, 2, 0, 2, 2, 1, 2),
		[]input{r(2, 7, 2), r(3, 2, 2)})

	// deconv2d by hand: x = [[1 2] [3 4]], a 2x2 kernel of ones. Stride 1
	// VALID spreads each value over a 2x2 block, overlapping (3x3 output);
	// stride 2 places the blocks side by side (4x4).
	x22 := f64([]int{1, 1, 2, 2}, 1, 2, 3, 4)
	ones := f64([]int{2, 2, 1, 1}, 1, 1, 1, 1)
	forward("deconv2d stride 1", "deconv2d", convArgs(2, 2, 1, 1, 0, 0, 1, 1, 0, 0), arrays(x22, ones),
		arrays(f64([]int{1, 1, 3, 3}, 1, 3, 2, 4, 10, 6, 3, 7, 4)), 0)
	forward("deconv2d stride 2 bias float32", "deconv2d", convArgs(2, 2, 2, 2, 0, 0, 1, 1, 0, 0),
		arrays(to32(x22), to32(ones), f32([]int{1}, 0.5)),
		arrays(f32([]int{1, 1, 4, 4}, 1.5, 1.5, 2.5, 2.5, 1.5, 1.5, 2.5, 2.5, 3.5, 3.5, 4.5, 4.5, 3.5, 3.5, 4.5, 4.5)), 0)
	// SAME stride 2 NHWC: output 2·2 = 4 per axis, pad (2-2)/2 = 0: the same blocks.
	forward("deconv2d same NHWC weights [iC,oC,kH,kW]", "deconv2d", convArgs(2, 2, 2, 2, 0, 0, 1, 1, 1, 1, 1),
		arrays(f64([]int{1, 2, 2, 1}, 1, 2, 3, 4), f64([]int{1, 1, 2, 2}, 1, 1, 1, 1)),
		arrays(f64([]int{1, 4, 4, 1}, 1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4)), 0)
	gradient("deconv2d NCHW stride 2 bias", "deconv2d", convArgs(3, 2, 2, 1, 1, 0, 1, 1, 0, 0, 0),
		[]input{r(2, 3, 3, 4), r(3, 2, 2, 3), r(2)})
	gradient("deconv2d NHWC same dilation weights [iC,kH,kW,oC]", "deconv2d", convArgs(2, 2, 1, 2, 0, 0, 2, 1, 1, 1, 2),
		[]input{r(1, 3, 4, 2), r(2, 2, 2, 3)})

	// im2col by hand: x = 1..9 [1,1,3,3], 2x2 windows, stride 1: for each
	// kernel cell (kh, kw) the 2x2 grid of the values it sees.
	forward("im2col", "im2col", convArgs(2, 2, 1, 1, 0, 0, 1, 1, 0), arrays(counting(1, 1, 1, 3, 3)),
		arrays(f64([]int{1, 1, 2, 2, 2, 2}, 1, 2, 4, 5, 2, 3, 5, 6, 4, 5, 7, 8, 5, 6, 8, 9)), 0)
	// Padding 1, stride 2, pad value -1 (float arg 0): windows at -1 and 1.
	forward("im2col padding value float32", "im2col", ops.Args{I: []int64{2, 2, 2, 2, 1, 1, 1, 1, 0}, F: []float64{-1}},
		arrays(to32(counting(1, 1, 1, 3, 3))),
		arrays(f32([]int{1, 1, 2, 2, 2, 2}, -1, -1, -1, 5, -1, -1, 4, 6, -1, 2, -1, 8, 1, 3, 7, 9)), 0)
	// col2im of ones: how many 2x2 windows cover each cell of a 3x3 image.
	forward("col2im", "col2im", convArgs(1, 1, 0, 0, 3, 3, 1, 1), arrays(f64([]int{1, 1, 2, 2, 2, 2},
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)), arrays(f64([]int{1, 1, 3, 3}, 1, 2, 1, 2, 4, 2, 1, 2, 1)), 0)
	gradient("im2col same stride 2", "im2col", convArgs(3, 2, 2, 1, 0, 0, 1, 1, 1), []input{r(2, 2, 5, 4)})
	gradient("col2im dilation", "col2im", convArgs(1, 2, 1, 0, 4, 5, 2, 1), []input{r(1, 2, 2, 2, 4, 2)})

	// The backprop ops by hand.
	// conv1d_bp: out[i] = 2x[i] + x[i+1] + b on x = 1, 2, 3 with gradO = 1, 1:
	// dx = (2g0, g0 + 2g1, g1), dw = (Σ x[i]g[i], Σ x[i+1]g[i]), db = Σ g.
	forward("conv1d_bp", "conv1d_bp", convArgs(2, 1, 0, 1, 0),
		arrays(counting(1, 1, 1, 3), k21, f64([]int{1}, 0), f64([]int{1, 1, 2}, 1, 1)),
		arrays(f64([]int{1, 1, 3}, 2, 3, 1), f64([]int{2, 1, 1}, 3, 5), f64([]int{1}, 2)), 0)
	// deconv2d_bp with stride 2 and a 2x2 kernel: dx is the sums of gradO's
	// 2x2 blocks, dw[kh,kw] = Σ x[i,j]·gradO[2i+kh, 2j+kw].
	forward("deconv2d_bp stride 2", "deconv2d_bp", convArgs(2, 2, 2, 2, 0, 0, 1, 1, 0, 0),
		arrays(x22, ones, counting(1, 1, 1, 4, 4)),
		arrays(f64([]int{1, 1, 2, 2}, 14, 22, 46, 54), f64([]int{2, 2, 1, 1}, 78, 88, 118, 128)), 0)
	// im2col_bp of ones: the window counts of the 3x3 image; col2im_bp of
	// 1..9: im2col's columns of 1..9.
	onesCol := f64([]int{1, 1, 2, 2, 2, 2}, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)
	forward("im2col_bp", "im2col_bp", convArgs(2, 2, 1, 1, 0, 0, 1, 1, 0), arrays(counting(1, 1, 1, 3, 3), onesCol),
		arrays(f64([]int{1, 1, 3, 3}, 1, 2, 1, 2, 4, 2, 1, 2, 1)), 0)
	forward("col2im_bp", "col2im_bp", convArgs(1, 1, 0, 0, 3, 3, 1, 1), arrays(onesCol, counting(1, 1, 1, 3, 3)),
		arrays(f64([]int{1, 1, 2, 2, 2, 2}, 1, 2, 4, 5, 2, 3, 5, 6, 4, 5, 7, 8, 5, 6, 8, 9)), 0)

	// depthwise_conv2d by hand: channel 0 = 1..4 and channel 1 = 5..8 of a
	// [1,2,2,2] NCHW image, a 2x2 kernel of 1s for channel 0 and 2s for
	// channel 1 (weights [kH,kW,iC,mC] = [2,2,2,1]), VALID: 1+2+3+4 and
	// 2·(5+6+7+8). With gradO = 1, 1: dx is the kernels, dw the images.
	dwX := counting(1, 1, 2, 2, 2)
	dwW := f64([]int{2, 2, 2, 1}, 1, 2, 1, 2, 1, 2, 1, 2)
	forward("depthwise_conv2d", "depthwise_conv2d", convArgs(2, 2, 1, 1, 0, 0, 1, 1, 0, 0), arrays(dwX, dwW),
		arrays(f64([]int{1, 2, 1, 1}, 10, 52)), 0)
	forward("depthwise_conv2d bias float32", "depthwise_conv2d", convArgs(2, 2, 1, 1, 0, 0, 1, 1, 0, 0),
		arrays(to32(dwX), to32(dwW), f32([]int{2}, 1, -1)), arrays(f32([]int{1, 2, 1, 1}, 11, 51)), 0)
	forward("depthwise_conv2d_bp", "depthwise_conv2d_bp", convArgs(2, 2, 1, 1, 0, 0, 1, 1, 0, 0),
		arrays(dwX, dwW, f64([]int{1, 2, 1, 1}, 1, 1)),
		arrays(f64([]int{1, 2, 2, 2}, 1, 1, 1, 1, 2, 2, 2, 2), f64([]int{2, 2, 2, 1}, 1, 5, 2, 6, 3, 7, 4, 8)), 0)
	gradient("depthwise_conv2d NCHW multiplier 2 bias", "depthwise_conv2d", convArgs(2, 2, 1, 2, 1, 0, 1, 1, 0, 0, 0),
		[]input{r(2, 2, 4, 5), r(2, 2, 2, 2), r(4)})
	gradient("depthwise_conv2d NHWC same weights [mC,iC,kH,kW]", "depthwise_conv2d", convArgs(3, 2, 2, 1, 0, 0, 1, 2, 1, 1, 1),
		[]input{r(1, 5, 4, 3), r(2, 3, 3, 2)})

	// sconv2d: the depthwise outputs above (10, 52) through point weights
	// [1,1,2,1] = (1, 1) plus a bias of 0.5: 62.5. sconv2d_bp (inputs x,
	// gradO, depth weights, point weights, bias) with gradO = 1: the
	// point gradient flows back as 1, 1, so dx and the depth weights'
	// gradient are depthwise_conv2d_bp's above; the point weights get the
	// depthwise outputs, the bias 1.
	wP := f64([]int{1, 1, 2, 1}, 1, 1)
	forward("sconv2d", "sconv2d", convArgs(2, 2, 1, 1, 0, 0, 1, 1, 0, 0), arrays(dwX, dwW, wP, f64([]int{1}, 0.5)),
		arrays(f64([]int{1, 1, 1, 1}, 62.5)), 0)
	forward("sconv2d no point weights float32", "sconv2d", convArgs(2, 2, 1, 1, 0, 0, 1, 1, 0, 0),
		arrays(to32(dwX), to32(dwW), f32([]int{2}, 1, -1)), arrays(f32([]int{1, 2, 1, 1}, 11, 51)), 0)
	forward("sconv2d_bp", "sconv2d_bp", convArgs(2, 2, 1, 1, 0, 0, 1, 1, 0, 0),
		arrays(dwX, f64([]int{1, 1, 1, 1}, 1), dwW, wP, f64([]int{1}, 0.5)),
		arrays(f64([]int{1, 2, 2, 2}, 1, 1, 1, 1, 2, 2, 2, 2), f64([]int{2, 2, 2, 1}, 1, 5, 2, 6, 3, 7, 4, 8),
			f64([]int{1, 1, 2, 1}, 10, 52), f64([]int{1}, 1)), 0)
	gradient("sconv2d NCHW point weights bias", "sconv2d", convArgs(2, 2, 1, 1, 0, 0, 1, 1, 0, 0, 0),
		[]input{r(2, 2, 4, 4), r(2, 2, 2, 2), r(1, 1, 4, 3), r(3)})
	gradient("sconv2d NHWC same weights [mC,kH,kW,iC] point weights", "sconv2d", convArgs(2, 3, 2, 1, 0, 0, 1, 1, 1, 1, 2),
		[]input{r(1, 4, 5, 2), r(2, 2, 3, 2), r(3, 1, 1, 4)})
	gradient("sconv2d depthwise only bias", "sconv2d", convArgs(2, 2, 1, 1, 0, 0, 1, 1, 0, 0, 0),
		[]input{r(1, 2, 3, 3), r(2, 2, 2, 1), r(2)})

	// conv3dnew by hand: x[d,h,w] = 1 + 4d + 2h + w ([1,1,2,2,2] NCDHW), a
	// 2x2x2 kernel of ones. VALID sums all 8 (36), plus a bias of 1; SAME
	// keeps 2x2x2 outputs, the padding after: each output sums the cells
	// at or after it (36, 2+4+6+8, 3+4+7+8, 4+8, 5+6+7+8, 6+8, 7+8, 8).
	x3 := counting(1, 1, 1, 2, 2, 2)
	ones3 := f64([]int{2, 2, 2, 1, 1}, 1, 1, 1, 1, 1, 1, 1, 1)
	c3 := func(same, ndhwc int64) ops.Args {
		return convArgs(2, 2, 2, 1, 1, 1, 0, 0, 0, 1, 1, 1, same, ndhwc, 0)
	}
	forward("conv3dnew valid bias", "conv3dnew", c3(0, 0), arrays(x3, ones3, f64([]int{1}, 1)),
		arrays(f64([]int{1, 1, 1, 1, 1}, 37)), 0)
	forward("conv3dnew same NDHWC float32", "conv3dnew", c3(1, 1), arrays(to32(counting(1, 1, 2, 2, 2, 1)), to32(ones3)),
		arrays(f32([]int{1, 2, 2, 2, 1}, 36, 20, 22, 12, 26, 14, 15, 8)), 0)
	// conv3dnew_bp with gradO = 1 on the VALID case: dx is the kernel (1s),
	// dw the input, db 1.
	forward("conv3dnew_bp", "conv3dnew_bp", c3(0, 0), arrays(x3, ones3, f64([]int{1}, 1), f64([]int{1, 1, 1, 1, 1}, 1)),
		arrays(f64([]int{1, 1, 2, 2, 2}, 1, 1, 1, 1, 1, 1, 1, 1), f64([]int{2, 2, 2, 1, 1}, 1, 2, 3, 4, 5, 6, 7, 8), f64([]int{1}, 1)), 0)
	gradient("conv3dnew NCDHW stride padding bias", "conv3dnew", convArgs(2, 2, 1, 2, 1, 1, 1, 0, 0, 1, 1, 1, 0, 0, 0),
		[]input{r(2, 2, 3, 4, 3), r(2, 2, 1, 2, 3), r(3)})
	gradient("conv3dnew NDHWC same dilation weights [oC,iC,kD,kH,kW]", "conv3dnew", convArgs(2, 1, 2, 1, 1, 1, 0, 0, 0, 2, 1, 1, 1, 1, 1),
		[]input{r(1, 3, 2, 4, 2), r(2, 2, 2, 1, 2)})

	// deconv3d by hand: x = (1, 2) along W ([1,1,1,1,2]), a 1x1x2 kernel
	// of ones: stride 1 overlaps the two copies (1, 3, 2), stride 2 puts
	// them side by side (1, 1, 2, 2), plus a bias of 1.
	xw := f64([]int{1, 1, 1, 1, 2}, 1, 2)
	kw2 := f64([]int{1, 1, 2, 1, 1}, 1, 1)
	d3 := func(sW int64) ops.Args { return convArgs(1, 1, 2, 1, 1, sW, 0, 0, 0, 1, 1, 1, 0, 0, 0) }
	forward("deconv3d stride 1", "deconv3d", d3(1), arrays(xw, kw2), arrays(f64([]int{1, 1, 1, 1, 3}, 1, 3, 2)), 0)
	forward("deconv3d stride 2 bias float32", "deconv3d", d3(2), arrays(to32(xw), to32(kw2), f32([]int{1}, 1)),
		arrays(f32([]int{1, 1, 1, 1, 4}, 2, 2, 3, 3)), 0)
	// deconv3d_bp, stride 2, gradO = 1..4: dx sums gradO's pairs (3, 7),
	// dw[k] = Σ x[i]·gradO[2i+k] = (1·1 + 2·3, 1·2 + 2·4), db = 10.
	forward("deconv3d_bp", "deconv3d_bp", d3(2), arrays(xw, kw2, f64([]int{1}, 0), counting(1, 1, 1, 1, 1, 4)),
		arrays(f64([]int{1, 1, 1, 1, 2}, 3, 7), f64([]int{1, 1, 2, 1, 1}, 7, 10), f64([]int{1}, 10)), 0)
	gradient("deconv3d NCDHW stride bias", "deconv3d", convArgs(2, 1, 2, 1, 2, 2, 0, 0, 1, 1, 1, 1, 0, 0, 0),
		[]input{r(1, 2, 2, 3, 2), r(2, 1, 2, 3, 2), r(3)})
	gradient("deconv3d NDHWC same weights [iC,kD,kH,kW,oC]", "deconv3d", convArgs(2, 2, 1, 2, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1, 2),
		[]input{r(2, 2, 2, 2, 2), r(2, 2, 2, 1, 3)})
}
