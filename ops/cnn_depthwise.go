package ops

import (
	"github.com/sdgo/sdgo/kernels"
	"github.com/sdgo/sdgo/ndarray"
)

// depthwise_conv2d and depthwise_conv2d_bp: each input channel convolved
// with its own mC filters, output channel ic·mC + m. A direct channels-
// last loop (the inner loop runs along the iC·mC contiguous output
// channels of a pixel), float32 in float32; NCHW data goes through
// channels-last scratch copies.

// dwPlanner is depthwise_conv2d's convPlanner: iC·mC output channels.
func dwPlanner(op string, a *Args, x, w []int) (conv2dPlan, []int, int, error) {
	p, err := dwPlan(op, a, x, w)
	if err != nil {
		return p, nil, 0, err
	}
	return p, dwOutShape(p), p.d.iC * p.d.oC, nil
}

// dwPlan checks depthwise_conv2d's arguments: the weights [kH,kW,iC,mC]
// (format 0), [mC,iC,kH,kW] (1) or [mC,kH,kW,iC] (2) read as conv2d's
// weights with mC output channels.
func dwPlan(op string, a *Args, x, w []int) (conv2dPlan, error) {
	p, err := newConv2dPlan(op, a, x, w)
	if err != nil {
		return p, err
	}
	return p, nil
}

// dwOutShape is depthwise_conv2d's output shape: iC·mC channels.
func dwOutShape(p conv2dPlan) []int {
	d := p.d
	d.oC *= d.iC
	return d.outShape(p.cfg.nhwc)
}

// depthwiseConv2DOp is libnd4j's depthwise_conv2d: inputs x, weights
// [kH,kW,iC,mC] (format 0, the default), [mC,iC,kH,kW] (1) or
// [mC,kH,kW,iC] (2) [, bias [iC·mC]]; conv2d's int args kH, kW, sH, sW,
// pH, pW, dH, dW, isSameMode, dataFormat (1 NHWC), weightsFormat.
var depthwiseConv2DOp = Register(&Def{
	Name: "depthwise_conv2d", Type: Custom, MinIn: 2, MaxIn: 3,
	Doc: "depthwise 2-D convolution (output channel ic·mC+m); conv2d's int args",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		if len(in) > 2 {
			// the bias has iC·mC cells, not conv2d's mC: checked at run time
			in = in[:2]
		}
		out, err := conv2dInfer("depthwise_conv2d", in, a)
		if err != nil {
			return nil, err
		}
		cfg, _ := conv2dArgs("depthwise_conv2d", a)
		s := out[0].Shape
		cAx := 1
		if cfg.nhwc {
			cAx = 3
		}
		iC := -1
		if !in[0].UnknownRank && len(in[0].Shape) == 4 {
			iC = in[0].Shape[cAx]
		}
		if iC < 0 || s[cAx] < 0 {
			s[cAx] = -1
		} else {
			s[cAx] *= iC
		}
		return out, nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		return convRun(c, "depthwise_conv2d", in, a, dwPlanner, dwFwd[float32], dwFwd[float64])
	},
	Grad: bpOp("depthwise_conv2d_bp"),
})

// channelsLastScratch returns a's values channels-last ([b, h, w, c]) as
// a packed []T: a's own when nhwc and packed, else a scratch copy.
func channelsLastScratch[T kernels.Float](c *Ctx, a *ndarray.Array, nhwc bool) ([]T, *ndarray.Array, error) {
	if nhwc {
		return packed[T](c, a)
	}
	v, err := ndarray.Permute(a, 0, 2, 3, 1)
	if err != nil {
		return nil, nil, err
	}
	tmp := c.Alloc(a.DType(), v.Shape())
	if err := ndarray.CopyInto(tmp, v); err != nil {
		return nil, nil, err
	}
	return flat[T](tmp), tmp, nil
}

// toOutput writes channels-last values v of shape cl into out (NCHW
// unless nhwc); v is out's own buffer when nhwc.
func toOutput(c *Ctx, out, tmp *ndarray.Array, nhwc bool) error {
	if nhwc {
		return nil
	}
	v, err := ndarray.Permute(tmp, 0, 3, 1, 2)
	if err != nil {
		return err
	}
	return ndarray.CopyInto(out, v)
}

// dwTarget returns the channels-last array an op writes: out itself when
// nhwc, else a scratch of the channels-last shape.
func dwTarget(c *Ctx, out *ndarray.Array, nhwc bool) *ndarray.Array {
	if nhwc {
		return out
	}
	s := out.Shape()
	return c.Alloc(out.DType(), []int{s[0], s[2], s[3], s[1]})
}

func dwFwd[T kernels.Float](c *Ctx, p conv2dPlan, x, w, bias, out *ndarray.Array) error {
	d, cfg := p.d, p.cfg
	xv, xt, err := channelsLastScratch[T](c, x, cfg.nhwc)
	if err != nil {
		return err
	}
	defer c.Release(xt)
	wv, wt, err := convWeights[T](c, w, cfg.wFormat, true)
	if err != nil {
		return err
	}
	defer c.Release(wt)
	tgt := dwTarget(c, out, cfg.nhwc)
	if tgt != out {
		defer c.Release(tgt)
	}
	ov := flat[T](tgt)
	mC, oC := d.oC, d.iC*d.oC
	if bias != nil {
		bv, bt, err := packed[T](c, bias)
		if err != nil {
			return err
		}
		convFillBias(ov, bv, 0, true)
		c.Release(bt)
	} else {
		clear(ov)
	}
	pc := c.pace()
	for b := 0; b < d.bS; b++ {
		for oh := 0; oh < d.oH; oh++ {
			if err := pc.tick(d.oW * d.kH * d.kW * oC); err != nil {
				return err
			}
			for ow := 0; ow < d.oW; ow++ {
				orow := ov[((b*d.oH+oh)*d.oW+ow)*oC:][:oC]
				for kh := 0; kh < d.kH; kh++ {
					ih := oh*cfg.sH - d.pH + kh*cfg.dH
					if ih < 0 || ih >= d.iH {
						continue
					}
					for kw := 0; kw < d.kW; kw++ {
						iw := ow*cfg.sW - d.pW + kw*cfg.dW
						if iw < 0 || iw >= d.iW {
							continue
						}
						xs := xv[((b*d.iH+ih)*d.iW+iw)*d.iC:][:d.iC]
						ws := wv[(kh*d.kW+kw)*oC:][:oC]
						for ic, xval := range xs {
							o, wr := orow[ic*mC:][:mC], ws[ic*mC:][:mC]
							for m, wval := range wr {
								o[m] += xval * wval
							}
						}
					}
				}
			}
		}
	}
	return toOutput(c, out, tgt, cfg.nhwc)
}

// depthwiseConv2DBpOp is depthwise_conv2d's gradient (libnd4j
// depthwise_conv2d_bp): inputs x, weights, [bias,] gradO with
// depthwise_conv2d's args; outputs the gradients of x, the weights and the
// bias.
var depthwiseConv2DBpOp = Register(&Def{
	Name: "depthwise_conv2d_bp", Type: Custom, MinIn: 3, MaxIn: 4,
	Doc: "gradients of depthwise_conv2d for inputs x, weights, [bias,] gradO; depthwise_conv2d's args",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		if err := needSameFloat("depthwise_conv2d_bp", in); err != nil {
			return nil, err
		}
		return sameInfos(in, len(in)-1), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		return convBpRun(c, "depthwise_conv2d_bp", in, a, dwPlanner, dwBwd[float32], dwBwd[float64])
	},
})

func dwBwd[T kernels.Float](c *Ctx, p conv2dPlan, x, w, g *ndarray.Array, outs []*ndarray.Array) error {
	d, cfg := p.d, p.cfg
	xv, xt, err := channelsLastScratch[T](c, x, cfg.nhwc)
	if err != nil {
		return err
	}
	defer c.Release(xt)
	gv, gt, err := channelsLastScratch[T](c, g, cfg.nhwc)
	if err != nil {
		return err
	}
	defer c.Release(gt)
	wv, wt, err := convWeights[T](c, w, cfg.wFormat, true)
	if err != nil {
		return err
	}
	defer c.Release(wt)
	dxT := dwTarget(c, outs[0], cfg.nhwc)
	if dxT != outs[0] {
		defer c.Release(dxT)
	}
	dxv := flat[T](dxT)
	clear(dxv)
	dwArr := outs[1]
	if cfg.wFormat != 0 {
		dwArr = c.Alloc(w.DType(), []int{d.kH, d.kW, d.iC, d.oC})
		defer c.Release(dwArr)
	}
	dwv := flat[T](dwArr)
	clear(dwv)
	mC, oC := d.oC, d.iC*d.oC
	pc := c.pace()
	for b := 0; b < d.bS; b++ {
		for oh := 0; oh < d.oH; oh++ {
			if err := pc.tick(d.oW * d.kH * d.kW * oC); err != nil {
				return err
			}
			for ow := 0; ow < d.oW; ow++ {
				grow := gv[((b*d.oH+oh)*d.oW+ow)*oC:][:oC]
				for kh := 0; kh < d.kH; kh++ {
					ih := oh*cfg.sH - d.pH + kh*cfg.dH
					if ih < 0 || ih >= d.iH {
						continue
					}
					for kw := 0; kw < d.kW; kw++ {
						iw := ow*cfg.sW - d.pW + kw*cfg.dW
						if iw < 0 || iw >= d.iW {
							continue
						}
						base := ((b*d.iH+ih)*d.iW + iw) * d.iC
						xs, dxs := xv[base:][:d.iC], dxv[base:][:d.iC]
						ws, dws := wv[(kh*d.kW+kw)*oC:][:oC], dwv[(kh*d.kW+kw)*oC:][:oC]
						for ic, xval := range xs {
							gr, wr, dwr := grow[ic*mC:][:mC], ws[ic*mC:][:mC], dws[ic*mC:][:mC]
							var s T
							for m, gval := range gr {
								s += gval * wr[m]
								dwr[m] += xval * gval
							}
							dxs[ic] += s
						}
					}
				}
			}
		}
	}
	if err := toOutput(c, outs[0], dxT, cfg.nhwc); err != nil {
		return err
	}
	if dwArr != outs[1] {
		v, err := ndarray.Permute(dwArr, wInv[cfg.wFormat]...)
		if err != nil {
			return err
		}
		if err := ndarray.CopyInto(outs[1], v); err != nil {
			return err
		}
	}
	if len(outs) > 2 {
		// gradO is channels-last here whatever the data format.
		db := flat[T](outs[2])
		clear(db)
		for i := 0; i < len(gv); i += oC {
			for j, v := range gv[i : i+oC] {
				db[j] += v
			}
		}
	}
	return nil
}
