package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/kernels"
	"github.com/sdgo/sdgo/ndarray"
)

// depthwise_conv2d and depthwise_conv2d_bp: each input channel convolved
// with its own mC filters, output channel ic·mC + m. A direct channels-
// last loop (the inner loop runs along the iC·mC contiguous output
// channels of a pixel), float32 in float32; NCHW data goes through
// channels-last scratch copies.

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
		x, w := in[0], in[1]
		for _, v := range in[1:] {
			if v.DType() != x.DType() {
				return nil, fmt.Errorf("depthwise_conv2d: inputs of dtypes %v and %v differ", x.DType(), v.DType())
			}
		}
		p, err := dwPlan("depthwise_conv2d", a, x.Shape(), w.Shape())
		if err != nil {
			return nil, err
		}
		if len(in) > 2 && in[2].Size() != p.d.iC*p.d.oC {
			return nil, fmt.Errorf("depthwise_conv2d: bias of shape %v for %d output channels", in[2].Shape(), p.d.iC*p.d.oC)
		}
		out, err := c.TryAlloc(x.DType(), dwOutShape(p))
		if err != nil {
			return nil, fmt.Errorf("depthwise_conv2d: %w", err)
		}
		switch x.DType() {
		case ndarray.Float32:
			err = dwFwd[float32](c, p, in, out)
		case ndarray.Float64:
			err = dwFwd[float64](c, p, in, out)
		default:
			err = fmt.Errorf("depthwise_conv2d needs float32 or float64 inputs, not %v", x.DType())
		}
		if err != nil {
			return nil, err
		}
		return []*ndarray.Array{out}, nil
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

func dwFwd[T kernels.Float](c *Ctx, p conv2dPlan, in []*ndarray.Array, out *ndarray.Array) error {
	d, cfg := p.d, p.cfg
	xv, xt, err := channelsLastScratch[T](c, in[0], cfg.nhwc)
	if err != nil {
		return err
	}
	defer c.Release(xt)
	wv, wt, err := convWeights[T](c, in[1], cfg.wFormat, true)
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
	if len(in) > 2 {
		bv, bt, err := packed[T](c, in[2])
		if err != nil {
			return err
		}
		convFillBias(ov, bv, 0, true)
		c.Release(bt)
	} else {
		clear(ov)
	}
	for b := 0; b < d.bS; b++ {
		for oh := 0; oh < d.oH; oh++ {
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
		x, w, g := in[0], in[1], in[len(in)-1]
		for _, v := range in[1:] {
			if v.DType() != x.DType() {
				return nil, fmt.Errorf("depthwise_conv2d_bp: inputs of dtypes %v and %v differ", x.DType(), v.DType())
			}
		}
		p, err := dwPlan("depthwise_conv2d_bp", a, x.Shape(), w.Shape())
		if err != nil {
			return nil, err
		}
		if !ndarray.SameShape(g.Shape(), dwOutShape(p)) {
			return nil, fmt.Errorf("depthwise_conv2d_bp: gradient of shape %v, the output has %v", g.Shape(), dwOutShape(p))
		}
		if len(in) == 4 && in[2].Size() != p.d.iC*p.d.oC {
			return nil, fmt.Errorf("depthwise_conv2d_bp: bias of shape %v for %d output channels", in[2].Shape(), p.d.iC*p.d.oC)
		}
		outs := []*ndarray.Array{c.Alloc(x.DType(), x.Shape()), c.Alloc(w.DType(), w.Shape())}
		if len(in) == 4 {
			outs = append(outs, c.Alloc(in[2].DType(), in[2].Shape()))
		}
		switch x.DType() {
		case ndarray.Float32:
			err = dwBwd[float32](c, p, x, w, g, outs)
		case ndarray.Float64:
			err = dwBwd[float64](c, p, x, w, g, outs)
		default:
			err = fmt.Errorf("depthwise_conv2d_bp needs float32 or float64 inputs, not %v", x.DType())
		}
		if err != nil {
			return nil, err
		}
		return outs, nil
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
	for b := 0; b < d.bS; b++ {
		for oh := 0; oh < d.oH; oh++ {
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
