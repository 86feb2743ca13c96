package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/kernels"
	"github.com/sdgo/sdgo/ndarray"
)

// deconv2d (transposed 2-D convolution) and deconv2d_bp. deconv2d is the
// input gradient of a conv2d whose input is deconv2d's output: weights
// [kH,kW,oC,iC] (format 0), [iC,oC,kH,kW] (1) or [iC,kH,kW,oC] (2) are
// conv2d weights of the same format with oC input and iC output channels,
// so deconv2d runs conv2d's backward GEMMs (col2im(x·W^T)) and
// deconv2d_bp its forward (the input gradient) and weights gradient.

// deconvOut is the length of deconv2d's output along an axis (libnd4j
// calcOutSizeDeconv2D): s·in in SAME mode, else s·(in-1) + (k-1)·d + 1 - 2p.
func deconvOut(in, k, s, p, d int, same bool) int {
	if same {
		return s * in
	}
	return s*(in-1) + (k-1)*d + 1 - 2*p
}

// deconv2dPlanner is deconv2d's convPlanner: the bias is per output
// channel, conv2d's input channel.
func deconv2dPlanner(op string, a *Args, x, w []int) (conv2dPlan, []int, int, error) {
	p, out, err := deconv2dPlan(op, a, x, w)
	return p, out, p.d.iC, err
}

// deconv2dPlan returns the conv2d plan whose input is deconv2d's output,
// checking that the conv2d's output has x's shape.
func deconv2dPlan(op string, a *Args, x, w []int) (conv2dPlan, []int, error) {
	cfg, err := conv2dArgs(op, a)
	if err != nil {
		return conv2dPlan{}, nil, err
	}
	if len(x) != 4 || len(w) != 4 {
		return conv2dPlan{}, nil, fmt.Errorf("%s: input %v and weights %v must both have rank 4", op, x, w)
	}
	if cfg.causal {
		return conv2dPlan{}, nil, fmt.Errorf("%s: padding mode 2 (CAUSAL) is for conv1d", op)
	}
	// In conv2d's formats: [kH,kW,Cin,Cout], [Cout,Cin,kH,kW], [Cout,kH,kW,Cin].
	hwio := []int{w[wPerm[cfg.wFormat][0]], w[wPerm[cfg.wFormat][1]], w[wPerm[cfg.wFormat][2]], w[wPerm[cfg.wFormat][3]]}
	kH, kW, oC, iC := hwio[0], hwio[1], hwio[2], hwio[3]
	bS, iH, iW, xc := x[0], x[2], x[3], x[1]
	if cfg.nhwc {
		iH, iW, xc = x[1], x[2], x[3]
	}
	if xc != iC || (cfg.kH > 0 && cfg.kH != kH) || (cfg.kW > 0 && cfg.kW != kW) {
		return conv2dPlan{}, nil, fmt.Errorf("%s: weights of shape %v (format %d) do not fit kernel %dx%d and %d input channels (input %v)",
			op, w, cfg.wFormat, cfg.kH, cfg.kW, xc, x)
	}
	if !dilatedFits(kH, cfg.dH) || !dilatedFits(kW, cfg.dW) {
		return conv2dPlan{}, nil, fmt.Errorf("%s: kernel %dx%d with dilation (%d,%d) is too large", op, kH, kW, cfg.dH, cfg.dW)
	}
	oH := deconvOut(iH, kH, cfg.sH, cfg.pH, cfg.dH, cfg.same)
	oW := deconvOut(iW, kW, cfg.sW, cfg.pW, cfg.dW, cfg.same)
	if oH <= 0 || oW <= 0 {
		return conv2dPlan{}, nil, fmt.Errorf("%s: input %v with kernel %dx%d, strides (%d,%d), paddings (%d,%d) gives no output",
			op, x, kH, kW, cfg.sH, cfg.sW, cfg.pH, cfg.pW)
	}
	out := []int{bS, oC, oH, oW}
	if cfg.nhwc {
		out = []int{bS, oH, oW, oC}
	}
	p, err := newConv2dPlan(op, a, out, w)
	if err != nil {
		return p, nil, err
	}
	if p.d.oH != iH || p.d.oW != iW {
		return p, nil, fmt.Errorf("%s: input %v does not invert to output %v", op, x, out)
	}
	return p, out, nil
}

// deconv2DOp is libnd4j's deconv2d: inputs x [bS,iC,iH,iW] (NCHW, the
// default) or [bS,iH,iW,iC] (NHWC), weights [kH,kW,oC,iC] (format 0, the
// default), [iC,oC,kH,kW] (1) or [iC,kH,kW,oC] (2) [, bias [oC]]; int args
// as conv2d's: kH, kW, sH, sW, pH, pW, dH, dW, isSameMode, dataFormat,
// weightsFormat. The output is [bS,oC,oH,oW] with oH = sH·iH (SAME) or
// sH·(iH-1) + (kH-1)·dH + 1 - 2·pH.
var deconv2DOp = Register(&Def{
	Name: "deconv2d", Type: Custom, MinIn: 2, MaxIn: 3,
	Doc: "transposed 2-D convolution; conv2d's int args kH, kW, sH, sW, pH, pW, dH, dW, isSameMode, dataFormat, weightsFormat",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		if err := needSameFloat("deconv2d", in); err != nil {
			return nil, err
		}
		x, w := in[0], in[1]
		if x.UnknownRank || w.UnknownRank || !w.ShapeKnown() || len(x.Shape) != 4 {
			if !x.UnknownRank && len(x.Shape) != 4 {
				return nil, fmt.Errorf("deconv2d: input of shape %v must have rank 4", x.Shape)
			}
			if _, err := conv2dArgs("deconv2d", a); err != nil {
				return nil, err
			}
			return infos(Info{DType: x.DType, Shape: unknownShape(4)}), nil
		}
		cfg, err := conv2dArgs("deconv2d", a)
		if err != nil {
			return nil, err
		}
		xs := append([]int(nil), x.Shape...)
		hAx, wAx, cAx := 2, 3, 1
		if cfg.nhwc {
			hAx, wAx, cAx = 1, 2, 3
		}
		if xs[0] < 0 {
			xs[0] = 1
		}
		if xs[cAx] < 0 {
			xs[cAx] = w.Shape[wPerm[cfg.wFormat][3]]
		}
		for _, ax := range []int{hAx, wAx} {
			if xs[ax] < 0 {
				xs[ax] = 1 << 20
			}
		}
		_, out, err := deconv2dPlan("deconv2d", a, xs, w.Shape)
		if err != nil {
			return nil, err
		}
		out[0] = x.Shape[0]
		for _, ax := range []int{hAx, wAx} {
			if x.Shape[ax] < 0 {
				out[ax] = -1
			}
		}
		return infos(Info{DType: x.DType, Shape: out}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		return convRun(c, "deconv2d", in, a, deconv2dPlanner, deconv2dFwd[float32], deconv2dFwd[float64])
	},
	Grad: bpOp("deconv2d_bp"),
})

func deconv2dFwd[T kernels.Float](c *Ctx, p conv2dPlan, x, w, b, out *ndarray.Array) error {
	if err := conv2dBwd[T](c, p, nil, w, x, out, nil); err != nil {
		return err
	}
	if b == nil {
		return nil
	}
	bv, bt, err := packed[T](c, b)
	if err != nil {
		return err
	}
	defer c.Release(bt)
	convAddBias(flat[T](out), bv, p.d.iH*p.d.iW, p.cfg.nhwc)
	return nil
}

// convAddBias adds its channel's bias to every output cell.
func convAddBias[T kernels.Float](ov, bv []T, P int, nhwc bool) {
	oC := len(bv)
	if oC == 0 {
		return
	}
	if nhwc {
		for i := 0; i < len(ov); i += oC {
			for j, b := range bv {
				ov[i+j] += b
			}
		}
		return
	}
	for i := 0; i < len(ov); i += P {
		v := bv[(i/P)%oC]
		for j := range ov[i : i+P] {
			ov[i+j] += v
		}
	}
}

// deconv2DBpOp is deconv2d's gradient (libnd4j deconv2d_bp): inputs x,
// weights, [bias,] gradO with deconv2d's args; outputs the gradients of x
// (conv2d of gradO), the weights and the bias.
var deconv2DBpOp = Register(&Def{
	Name: "deconv2d_bp", Type: Custom, MinIn: 3, MaxIn: 4,
	Doc: "gradients of deconv2d for inputs x, weights, [bias,] gradO; deconv2d's args",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		if err := needSameFloat("deconv2d_bp", in); err != nil {
			return nil, err
		}
		return sameInfos(in, len(in)-1), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		return convBpRun(c, "deconv2d_bp", in, a, deconv2dPlanner, deconv2dBwd[float32], deconv2dBwd[float64])
	},
})

func deconv2dBwd[T kernels.Float](c *Ctx, p conv2dPlan, x, w, g *ndarray.Array, outs []*ndarray.Array) error {
	// dx = conv2d(gradO, W); dW from conv2d's weights gradient with gradO
	// as the input and x as the output gradient.
	if err := conv2dFwd[T](c, p, g, w, nil, outs[0]); err != nil {
		return err
	}
	if err := conv2dBwd[T](c, p, g, w, x, nil, outs[1]); err != nil {
		return err
	}
	if len(outs) > 2 {
		return convBiasGrad[T](c, g, outs[2], p.d.iH*p.d.iW, p.cfg.nhwc)
	}
	return nil
}
