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
}
