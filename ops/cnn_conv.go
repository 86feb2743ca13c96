package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/kernels"
	"github.com/sdgo/sdgo/ndarray"
)

// SDCNN's 2-D convolution (conv2d, conv2d_bp) on the packed GEMM of
// package kernels: im2col into a pooled scratch, then GEMMs.
//
// Layouts: an NHWC input is lowered to a column matrix of one row per
// output pixel and one column per (kh, kw, ic) cell, which multiplies the
// weights as [kH·kW·iC, oC] and gives NHWC output rows directly; an NCHW
// input is lowered to the transpose, one row per (ic, kh, kw) cell and one
// column per output pixel, which the weights as [oC, iC·kH·kW] multiply
// into the NCHW output of each image. Neither path permutes the input or
// the output; only the (small) weights are repacked when their format is
// not the one the path reads.

// conv2dCfg is conv2d's configuration (libnd4j int args 0-10).
type conv2dCfg struct {
	kH, kW, sH, sW, pH, pW, dH, dW int
	same                           bool
	causal                         bool // padding mode 2: all padding before
	nhwc                           bool
	wFormat                        int
}

func conv2dArgs(op string, a *Args) (conv2dCfg, error) {
	if len(a.I) < 9 {
		return conv2dCfg{}, fmt.Errorf("%s needs int args kH, kW, sH, sW, pH, pW, dH, dW, isSameMode [, dataFormat, weightsFormat]; got %d", op, len(a.I))
	}
	i := intsOf(a.I)
	cfg := conv2dCfg{kH: i[0], kW: i[1], sH: i[2], sW: i[3], pH: i[4], pW: i[5], dH: i[6], dW: i[7], same: i[8] == 1, causal: i[8] == 2}
	if i[8] < 0 || i[8] > 2 {
		return cfg, fmt.Errorf("%s: padding mode %d is not 0 (VALID), 1 (SAME) or 2 (CAUSAL)", op, i[8])
	}
	if len(i) > 9 {
		cfg.nhwc = i[9] == 1
	}
	if len(i) > 10 {
		cfg.wFormat = i[10]
		if cfg.wFormat < 0 || cfg.wFormat > 2 {
			return cfg, fmt.Errorf("%s: weights format %d is not 0 [kH,kW,iC,oC], 1 [oC,iC,kH,kW] or 2 [oC,kH,kW,iC]", op, cfg.wFormat)
		}
	}
	if cfg.sH <= 0 || cfg.sW <= 0 || cfg.dH <= 0 || cfg.dW <= 0 || cfg.pH < 0 || cfg.pW < 0 {
		return cfg, fmt.Errorf("%s: strides (%d,%d) and dilations (%d,%d) must be positive, paddings (%d,%d) not negative",
			op, cfg.sH, cfg.sW, cfg.dH, cfg.dW, cfg.pH, cfg.pW)
	}
	if err := windowArgsFit(op, i[:8]); err != nil {
		return cfg, err
	}
	return cfg, nil
}

// wPerm permutes weights of a format into [kH, kW, iC, oC]; wInv back.
var (
	wPerm = [3][]int{{0, 1, 2, 3}, {2, 3, 1, 0}, {1, 2, 3, 0}}
	wInv  = [3][]int{{0, 1, 2, 3}, {3, 2, 0, 1}, {3, 0, 1, 2}}
)

// conv2dShapes checks input and weights shapes ([4] each, in their
// formats) and returns the channels-last sizes.
type convDims struct {
	bS, iH, iW, iC, oH, oW, oC, kH, kW, pH, pW int
}

func conv2dDims(op string, cfg conv2dCfg, x, w []int) (convDims, error) {
	var d convDims
	if len(x) != 4 || len(w) != 4 {
		return d, fmt.Errorf("%s: input %v and weights %v must both have rank 4", op, x, w)
	}
	hwc := x
	if !cfg.nhwc {
		hwc = []int{x[0], x[2], x[3], x[1]}
	}
	kw := []int{w[wPerm[cfg.wFormat][0]], w[wPerm[cfg.wFormat][1]], w[wPerm[cfg.wFormat][2]], w[wPerm[cfg.wFormat][3]]}
	d.bS, d.iH, d.iW, d.iC = hwc[0], hwc[1], hwc[2], hwc[3]
	d.kH, d.kW, d.oC = kw[0], kw[1], kw[3]
	if (cfg.kH > 0 && cfg.kH != d.kH) || (cfg.kW > 0 && cfg.kW != d.kW) || kw[2] != d.iC {
		return d, fmt.Errorf("%s: weights of shape %v (format %d) do not fit kernel %dx%d and %d input channels (input %v)",
			op, w, cfg.wFormat, cfg.kH, cfg.kW, d.iC, x)
	}
	if !dilatedFits(d.kH, cfg.dH) || !dilatedFits(d.kW, cfg.dW) {
		return d, fmt.Errorf("%s: kernel %dx%d with dilation (%d,%d) is too large", op, d.kH, d.kW, cfg.dH, cfg.dW)
	}
	d.oH, d.pH = convOutSize(d.iH, d.kH, cfg.sH, cfg.pH, cfg.dH, cfg)
	d.oW, d.pW = convOutSize(d.iW, d.kW, cfg.sW, cfg.pW, cfg.dW, cfg)
	if d.oH <= 0 || d.oW <= 0 {
		return d, fmt.Errorf("%s: input %v is too small for kernel %dx%d with dilation (%d,%d) and padding (%d,%d)",
			op, x, d.kH, d.kW, cfg.dH, cfg.dW, cfg.pH, cfg.pW)
	}
	return d, nil
}

func (d convDims) outShape(nhwc bool) []int {
	if nhwc {
		return []int{d.bS, d.oH, d.oW, d.oC}
	}
	return []int{d.bS, d.oC, d.oH, d.oW}
}

// convOutSize is outSize with libnd4j's causal mode besides: the output
// as SAME's, all the padding ((k-1)·d cells) before.
func convOutSize(in, k, s, p, d int, cfg conv2dCfg) (out, pad int) {
	if cfg.causal {
		return (in-1)/s + 1, (k - 1) * d
	}
	return outSize(in, k, s, p, d, cfg.same)
}

// convColLimit caps a column scratch at about this many elements: images
// are lowered in groups that fit, each group one GEMM (NHWC) or one batch
// of GEMMs (NCHW).
const convColLimit = 1 << 20

// conv2dPlan is a checked conv2d call: its geometry and configuration.
type conv2dPlan struct {
	d   convDims
	cfg conv2dCfg
	K   int // kH·kW·iC, the depth of the products
	P   int // oH·oW, the pixels of one output image
	nb  int // images lowered per group
}

func newConv2dPlan(op string, a *Args, x, w []int) (conv2dPlan, error) {
	cfg, err := conv2dArgs(op, a)
	if err != nil {
		return conv2dPlan{}, err
	}
	d, err := conv2dDims(op, cfg, x, w)
	if err != nil {
		return conv2dPlan{}, err
	}
	p := conv2dPlan{d: d, cfg: cfg, K: d.kH * d.kW * d.iC, P: d.oH * d.oW}
	p.nb = max(1, min(d.bS, convColLimit/max(1, p.K*p.P)))
	return p, nil
}

// conv2dInfer is conv2d's shape inference: exact sizes for every axis whose
// size the inputs give, -1 for the rest (an unknown batch keeps the
// spatial sizes and channels).
func conv2dInfer(op string, in []Info, a *Args) ([]Info, error) {
	if err := needSameFloat(op, in); err != nil {
		return nil, err
	}
	cfg, err := conv2dArgs(op, a)
	if err != nil {
		return nil, err
	}
	x, w := in[0], in[1]
	if x.UnknownRank || w.UnknownRank || !w.ShapeKnown() || len(x.Shape) != 4 {
		if !x.UnknownRank && len(x.Shape) != 4 {
			return nil, fmt.Errorf("%s: input of shape %v must have rank 4", op, x.Shape)
		}
		return infos(Info{DType: x.DType, Shape: unknownShape(4)}), nil
	}
	// Stand-ins for unknown sizes: the weights' channels, and a spatial
	// size large enough for any kernel; their outputs become -1 again.
	xs := append([]int(nil), x.Shape...)
	hAx, wAx, cAx := 2, 3, 1
	if cfg.nhwc {
		hAx, wAx, cAx = 1, 2, 3
	}
	if xs[0] < 0 {
		xs[0] = 1
	}
	if xs[cAx] < 0 {
		xs[cAx] = w.Shape[wPerm[cfg.wFormat][2]]
	}
	const big = 1 << 30
	if xs[hAx] < 0 {
		xs[hAx] = big
	}
	if xs[wAx] < 0 {
		xs[wAx] = big
	}
	d, err := conv2dDims(op, cfg, xs, w.Shape)
	if err != nil {
		return nil, err
	}
	if len(in) > 2 && in[2].ShapeKnown() && (len(in[2].Shape) != 1 || in[2].Shape[0] != d.oC) {
		return nil, fmt.Errorf("%s: bias of shape %v for %d output channels", op, in[2].Shape, d.oC)
	}
	d.bS = x.Shape[0]
	if x.Shape[hAx] < 0 {
		d.oH = -1
	}
	if x.Shape[wAx] < 0 {
		d.oW = -1
	}
	return infos(Info{DType: x.DType, Shape: d.outShape(cfg.nhwc)}), nil
}

// conv2DOp is libnd4j's conv2d: inputs x, weights [, bias]; int args kH,
// kW (0: from the weights), sH, sW, pH, pW, dH, dW, isSameMode (0 VALID with
// the explicit paddings, 1 SAME), dataFormat (0 NCHW, the default; 1 NHWC)
// and weightsFormat (0 [kH,kW,iC,oC], the default; 1 [oC,iC,kH,kW]; 2
// [oC,kH,kW,iC]).
var conv2DOp = Register(&Def{
	Name: "conv2d", Type: Custom, MinIn: 2, MaxIn: 3,
	Doc: "2-D convolution; int args kH, kW, sH, sW, pH, pW, dH, dW, isSameMode, dataFormat (1 NHWC), weightsFormat",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		return conv2dInfer("conv2d", in, a)
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		return conv2dRun(c, "conv2d", in, a)
	},
	Grad: bpOp("conv2d_bp"),
})

// conv2DBpOp is conv2d's gradient (libnd4j conv2d_bp): inputs x, weights,
// [bias,] gradO with conv2d's args; outputs the gradients of x, the weights
// and the bias.
var conv2DBpOp = Register(&Def{
	Name: "conv2d_bp", Type: Custom, MinIn: 3, MaxIn: 4,
	Doc: "gradients of conv2d for inputs x, weights, [bias,] gradO; conv2d's args",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		if err := needSameFloat("conv2d_bp", in); err != nil {
			return nil, err
		}
		return sameInfos(in, len(in)-1), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		if !c.Needed(0) {
			// The input's gradient nobody reads (the first layer's,
			// whose input is the data) is not computed: nil.
			return convBpRun(c, "conv2d_bp", in, a, conv2dPlanner, convBwdNoInput[float32], convBwdNoInput[float64])
		}
		return conv2dBpRun(c, "conv2d_bp", in, a)
	},
})

func conv2dRun(c *Ctx, op string, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
	return convRun(c, op, in, a, conv2dPlanner, conv2dFwd[float32], conv2dFwd[float64])
}

func conv2dBpRun(c *Ctx, op string, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
	return convBpRun(c, op, in, a, conv2dPlanner, convBwdAll[float32], convBwdAll[float64])
}

// conv2dPlanner is conv2d's convPlanner.
func conv2dPlanner(op string, a *Args, x, w []int) (conv2dPlan, []int, int, error) {
	p, err := newConv2dPlan(op, a, x, w)
	if err != nil {
		return p, nil, 0, err
	}
	return p, p.d.outShape(p.cfg.nhwc), p.d.oC, nil
}

// packed returns a's elements in C order as a []T: a's own buffer when a
// is packed, else a scratch copy from c (tmp is then that scratch, for
// c.Release).
func packed[T kernels.Float](c *Ctx, a *ndarray.Array) (v []T, tmp *ndarray.Array, err error) {
	if a.IsPacked() {
		return ndarray.Raw[T](a)[a.Offset() : a.Offset()+a.Size()], nil, nil
	}
	tmp = c.Alloc(a.DType(), a.Shape())
	if err = ndarray.CopyInto(tmp, a); err != nil {
		return nil, nil, err
	}
	return ndarray.Raw[T](tmp)[tmp.Offset() : tmp.Offset()+tmp.Size()], tmp, nil
}

// flat returns the elements of a packed array (one from c.Alloc).
func flat[T kernels.Float](a *ndarray.Array) []T {
	return ndarray.Raw[T](a)[a.Offset() : a.Offset()+a.Size()]
}

// scratch returns n elements of scratch from c, and the array to release.
func scratch[T kernels.Float](c *Ctx, dt ndarray.DType, n int) ([]T, *ndarray.Array) {
	a := c.Alloc(dt, []int{n})
	return ndarray.Raw[T](a)[a.Offset() : a.Offset()+n], a
}

// convWeights returns the weights packed as [kH,kW,iC,oC] (hwio) or as
// [oC,iC,kH,kW] (otherwise), copied into scratch unless already so.
func convWeights[T kernels.Float](c *Ctx, w *ndarray.Array, format int, hwio bool) ([]T, *ndarray.Array, error) {
	perm := wPerm[format]
	if !hwio {
		perm = wToOIHW[format]
	}
	if (hwio && format == 0) || (!hwio && format == 1) {
		return packed[T](c, w)
	}
	v, err := ndarray.Permute(w, perm...)
	if err != nil {
		return nil, nil, err
	}
	tmp := c.Alloc(w.DType(), v.Shape())
	if err := ndarray.CopyInto(tmp, v); err != nil {
		return nil, nil, err
	}
	return ndarray.Raw[T](tmp)[tmp.Offset() : tmp.Offset()+tmp.Size()], tmp, nil
}

// wToOIHW permutes weights of a format into [oC, iC, kH, kW].
var (
	wToOIHW = [3][]int{{3, 2, 0, 1}, {0, 1, 2, 3}, {0, 3, 1, 2}}
)

func conv2dFwd[T kernels.Float](c *Ctx, p conv2dPlan, x, w, b, out *ndarray.Array) error {
	d := p.d
	xv, xt, err := packed[T](c, x)
	if err != nil {
		return err
	}
	defer c.Release(xt)
	wv, wt, err := convWeights[T](c, w, p.cfg.wFormat, p.cfg.nhwc)
	if err != nil {
		return err
	}
	defer c.Release(wt)
	ov := flat[T](out)
	var bv []T
	if b != nil {
		v, bt, err := packed[T](c, b)
		if err != nil {
			return err
		}
		defer c.Release(bt)
		bv = v
	}
	if !p.cfg.nhwc {
		return conv2dFwdNCHW(c, p, x.DType(), xv, wv, bv, ov)
	}
	beta := T(0)
	if bv != nil {
		convFillBias(ov, bv, p.P, p.cfg.nhwc)
		beta = 1
	}
	col, ct := scratch[T](c, x.DType(), p.nb*p.K*p.P)
	defer c.Release(ct)
	iSz, oSz := d.iH*d.iW*d.iC, p.P*d.oC
	for b0 := 0; b0 < d.bS; b0 += p.nb {
		nb := min(p.nb, d.bS-b0)
		for i := 0; i < nb; i++ {
			im2colNHWC(p, xv[(b0+i)*iSz:(b0+i+1)*iSz], col[i*p.K*p.P:(i+1)*p.K*p.P])
		}
		// out[nb·P, oC] = col[nb·P, K] · W[K, oC]
		if !kernels.GemmStop(c.Stop(), 0, nb*p.P, d.oC, p.K, 1, col, p.K, 1, wv, d.oC, 1, beta, ov[b0*oSz:], d.oC, 1) {
			return c.Err()
		}
	}
	return nil
}

// convFillBias sets every output cell to its channel's bias (NHWC: rows of
// oC; NCHW: planes of P cells per channel).
func convFillBias[T kernels.Float](ov, bv []T, P int, nhwc bool) {
	oC := len(bv)
	if nhwc {
		for i := 0; i < len(ov); i += oC {
			copy(ov[i:i+oC], bv)
		}
		return
	}
	for i := 0; i < len(ov); i += P {
		v := bv[(i/P)%oC]
		pl := ov[i : i+P]
		for j := range pl {
			pl[j] = v
		}
	}
}

// conv2dBwd writes conv2d's input gradient into dx and its weights
// gradient into dw (either may be nil: not computed) from the output
// gradient g; x is read only for dw. NCHW runs in cnn_conv_nchw.go.
func conv2dBwd[T kernels.Float](c *Ctx, p conv2dPlan, x, w, g, dx, dw *ndarray.Array) error {
	if !p.cfg.nhwc {
		return conv2dBwdNCHWArrays[T](c, p, x, w, g, dx, dw)
	}
	d := p.d
	var xv []T
	if dw != nil {
		v, xt, err := packed[T](c, x)
		if err != nil {
			return err
		}
		defer c.Release(xt)
		xv = v
	}
	gv, gt, err := packed[T](c, g)
	if err != nil {
		return err
	}
	defer c.Release(gt)
	var wv []T
	if dx != nil {
		v, wt, err := convWeights[T](c, w, p.cfg.wFormat, true)
		if err != nil {
			return err
		}
		defer c.Release(wt)
		wv = v
	}
	var dxv, dwv []T
	if dx != nil {
		dxv = flat[T](dx)
		clear(dxv)
	}
	// dW as [kH, kW, iC, oC]: the output itself when it has that format.
	dwArr := dw
	if dw != nil && p.cfg.wFormat != 0 {
		dwArr = c.Alloc(w.DType(), []int{d.kH, d.kW, d.iC, d.oC})
		defer c.Release(dwArr)
	}
	if dwArr != nil {
		dwv = flat[T](dwArr)
		clear(dwv)
	}
	n := p.nb * p.K * p.P
	var col, dcol []T
	if dw != nil {
		v, ct := scratch[T](c, g.DType(), n)
		defer c.Release(ct)
		col = v
	}
	if dx != nil {
		v, dct := scratch[T](c, g.DType(), n)
		defer c.Release(dct)
		dcol = v
	}
	iSz, oSz := d.iH*d.iW*d.iC, p.P*d.oC
	for b0 := 0; b0 < d.bS; b0 += p.nb {
		nb := min(p.nb, d.bS-b0)
		gb := gv[b0*oSz:]
		if dw != nil {
			for i := 0; i < nb; i++ {
				im2colNHWC(p, xv[(b0+i)*iSz:(b0+i+1)*iSz], col[i*p.K*p.P:(i+1)*p.K*p.P])
			}
			// dW[K, oC] += col^T · gO[nb·P, oC]
			if !kernels.GemmStop(c.Stop(), 0, p.K, d.oC, nb*p.P, 1, col, 1, p.K, gb, d.oC, 1, 1, dwv, d.oC, 1) {
				return c.Err()
			}
		}
		if dx == nil {
			continue
		}
		// dcol[nb·P, K] = gO · W^T
		if !kernels.GemmStop(c.Stop(), 0, nb*p.P, p.K, d.oC, 1, gb, d.oC, 1, wv, 1, d.oC, 0, dcol, p.K, 1) {
			return c.Err()
		}
		for i := 0; i < nb; i++ {
			col2imNHWC(p, dcol[i*p.K*p.P:(i+1)*p.K*p.P], dxv[(b0+i)*iSz:(b0+i+1)*iSz])
		}
	}
	if dw != nil && dwArr != dw {
		v, err := ndarray.Permute(dwArr, wInv[p.cfg.wFormat]...)
		if err != nil {
			return err
		}
		if err := ndarray.CopyInto(dw, v); err != nil {
			return err
		}
	}
	return nil
}

// convBwdAll is conv2d_bp: the gradients of x, w and (outs has three) the
// bias.
func convBwdAll[T kernels.Float](c *Ctx, p conv2dPlan, x, w, g *ndarray.Array, outs []*ndarray.Array) error {
	if err := conv2dBwd[T](c, p, x, w, g, outs[0], outs[1]); err != nil {
		return err
	}
	if len(outs) < 3 {
		return nil
	}
	return convBiasGrad[T](c, g, outs[2], p.P, p.cfg.nhwc)
}

// convBwdNoInput is convBwdAll without the input's gradient: outs[0]
// becomes nil.
func convBwdNoInput[T kernels.Float](c *Ctx, p conv2dPlan, x, w, g *ndarray.Array, outs []*ndarray.Array) error {
	c.Release(outs[0])
	outs[0] = nil
	return convBwdAll[T](c, p, x, w, g, outs)
}

// convBiasGrad writes into db the sums of g over every axis but the
// channels (the last when nhwc, else axis 1 with planes of P cells).
func convBiasGrad[T kernels.Float](c *Ctx, g, db *ndarray.Array, P int, nhwc bool) error {
	gv, gt, err := packed[T](c, g)
	if err != nil {
		return err
	}
	defer c.Release(gt)
	dbv := flat[T](db)
	clear(dbv)
	oC := len(dbv)
	if oC == 0 {
		return nil
	}
	if nhwc {
		for i := 0; i < len(gv); i += oC {
			for j, v := range gv[i : i+oC] {
				dbv[j] += v
			}
		}
		return nil
	}
	sum := kernels.For[T]().Sum
	for i := 0; i < len(gv); i += P {
		dbv[(i/P)%oC] += sum(gv[i : i+P])
	}
	return nil
}

// im2colNHWC lowers one NHWC image [iH, iW, iC] to col [P, K], a row per
// output pixel, the columns in (kh, kw, ic) order; cells in the padding
// are zero.
func im2colNHWC[T kernels.Float](p conv2dPlan, im, col []T) {
	d, cfg := p.d, p.cfg
	for oh := 0; oh < d.oH; oh++ {
		for ow := 0; ow < d.oW; ow++ {
			row := col[(oh*d.oW+ow)*p.K : (oh*d.oW+ow+1)*p.K]
			for kh := 0; kh < d.kH; kh++ {
				ih := oh*cfg.sH - d.pH + kh*cfg.dH
				seg := row[kh*d.kW*d.iC : (kh+1)*d.kW*d.iC]
				if ih < 0 || ih >= d.iH {
					clear(seg)
					continue
				}
				for kw := 0; kw < d.kW; kw++ {
					iw := ow*cfg.sW - d.pW + kw*cfg.dW
					dst := seg[kw*d.iC : (kw+1)*d.iC]
					if iw < 0 || iw >= d.iW {
						clear(dst)
						continue
					}
					copy(dst, im[(ih*d.iW+iw)*d.iC:])
				}
			}
		}
	}
}

// col2imNHWC adds col [P, K] (im2colNHWC's layout) into the image.
func col2imNHWC[T kernels.Float](p conv2dPlan, col, im []T) {
	d, cfg := p.d, p.cfg
	for oh := 0; oh < d.oH; oh++ {
		for ow := 0; ow < d.oW; ow++ {
			row := col[(oh*d.oW+ow)*p.K:]
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
					src := row[(kh*d.kW+kw)*d.iC : (kh*d.kW+kw+1)*d.iC]
					dst := im[(ih*d.iW+iw)*d.iC : (ih*d.iW+iw+1)*d.iC]
					for i, v := range src {
						dst[i] += v
					}
				}
			}
		}
	}
}

// owRange returns the output columns [lo, hi) whose input column
// ow·s - pad + off lies in [0, n).
func owRange(oW, s, pad, off, n int) (lo, hi int) {
	// ow·s >= pad - off, ow·s <= n - 1 + pad - off
	a := pad - off
	if a > 0 {
		lo = (a + s - 1) / s
	}
	lim := n - 1 + pad - off
	if lim < 0 {
		return 0, 0
	}
	hi = min(oW, lim/s+1)
	return min(lo, hi), hi
}

// fillT sets every element of s to v.
func fillT[T kernels.Float](s []T, v T) {
	if v == 0 {
		clear(s)
		return
	}
	// A long run is filled by doubling copies: copy's vector moves beat
	// one store per cell.
	n := min(len(s), 64)
	for i := range s[:n] {
		s[i] = v
	}
	for ; n < len(s); n *= 2 {
		copy(s[n:], s[:n])
	}
}

// im2colNCHW lowers one NCHW image [iC, iH, iW] to colT [K, P], a row per
// (ic, kh, kw) cell and a column per output pixel.
func im2colNCHW[T kernels.Float](p conv2dPlan, im, col []T) { im2colNCHWPad(p, im, col, 0) }

// im2colNCHWPad is im2colNCHW with the padding cells set to pad.
func im2colNCHWPad[T kernels.Float](p conv2dPlan, im, col []T, pad T) {
	d, cfg := p.d, p.cfg
	whole := p.wholeRows()
	for ic := 0; ic < d.iC; ic++ {
		plane := im[ic*d.iH*d.iW : (ic+1)*d.iH*d.iW]
		for kh := 0; kh < d.kH; kh++ {
			for kw := 0; kw < d.kW; kw++ {
				r := (ic*d.kH+kh)*d.kW + kw
				row := col[r*p.P : (r+1)*p.P]
				off := kw * cfg.dW
				lo, hi := owRange(d.oW, cfg.sW, d.pW, off, d.iW)
				if whole {
					im2colShifted(p, plane, row, kh, lo, hi, off, pad)
					continue
				}
				if s0, ok := p.insideRows(kh, lo, hi, off); ok {
					// every cell inside: rows of oW from rows iW apart
					for oh := 0; oh < d.oH; oh++ {
						dst, src := row[oh*d.oW:(oh+1)*d.oW], plane[s0+oh*d.iW:s0+oh*d.iW+d.oW]
						for i := range dst {
							dst[i] = src[i]
						}
					}
					continue
				}
				for oh := 0; oh < d.oH; oh++ {
					dst := row[oh*d.oW : (oh+1)*d.oW]
					ih := oh*cfg.sH - d.pH + kh*cfg.dH
					if ih < 0 || ih >= d.iH {
						fillT(dst, pad)
						continue
					}
					src := plane[ih*d.iW : (ih+1)*d.iW]
					for i := range dst[:lo] {
						dst[i] = pad
					}
					for i := hi; i < len(dst); i++ {
						dst[i] = pad
					}
					if cfg.sW == 1 && hi-lo >= 32 {
						copy(dst[lo:hi], src[lo-d.pW+off:])
						continue
					}
					if cfg.sW == 1 && lo < hi {
						// short rows: a loop costs less than the call
						for i, v := range src[lo-d.pW+off : hi-d.pW+off] {
							dst[lo+i] = v
						}
						continue
					}
					for ow := lo; ow < hi; ow++ {
						dst[ow] = src[ow*cfg.sW-d.pW+off]
					}
				}
			}
		}
	}
}

// insideRows reports whether, with unit strides, every cell of the column
// row of kernel cell (kh, kw at offset off, its inside columns [lo, hi))
// lies inside the image, as in a VALID convolution; s0 is then the input
// cell of its first.
func (p conv2dPlan) insideRows(kh, lo, hi, off int) (s0 int, ok bool) {
	d := p.d
	ih0 := kh*p.cfg.dH - d.pH
	if p.cfg.sH != 1 || p.cfg.sW != 1 || lo != 0 || hi != d.oW || ih0 < 0 || ih0+d.oH > d.iH {
		return 0, false
	}
	return ih0*d.iW + off - d.pW, true
}

// wholeRows reports whether a row of the NCHW column matrix is, over the
// output rows whose input row is inside the image, one contiguous run of
// the input plane shifted (unit strides and as many output columns as
// input columns, as SAME gives): it is then copied in one piece and only
// the cells of each output row that wrapped around to the next input row
// are set apart.
func (p conv2dPlan) wholeRows() bool {
	return p.cfg.sH == 1 && p.cfg.sW == 1 && p.d.oW == p.d.iW
}

// shiftedRun returns, for the column row of kernel row kh, the output rows
// [ohLo, ohHi) inside the image, and the part [a, b) of their cells (from
// the first of them) whose input cell s+i is inside the plane.
func shiftedRun(p conv2dPlan, kh, off int) (ohLo, ohHi, s, a, b int) {
	d := p.d
	ohLo, ohHi = owRange(d.oH, 1, d.pH, kh*p.cfg.dH, d.iH)
	n := (ohHi - ohLo) * d.oW
	s = (ohLo-d.pH+kh*p.cfg.dH)*d.iW + off - d.pW
	return ohLo, ohHi, s, max(0, -s), min(n, d.iH*d.iW-s)
}

// im2colShifted fills one column row when wholeRows holds; [lo, hi) are
// the output columns inside the image.
func im2colShifted[T kernels.Float](p conv2dPlan, plane, row []T, kh, lo, hi, off int, pad T) {
	oW := p.d.oW
	ohLo, ohHi, s, a, b := shiftedRun(p, kh, off)
	fillT(row[:ohLo*oW], pad)
	fillT(row[ohHi*oW:], pad)
	if a < b {
		copy(row[ohLo*oW+a:ohLo*oW+b], plane[s+a:s+b])
	}
	for oh := ohLo; oh < ohHi; oh++ {
		r := row[oh*oW : (oh+1)*oW]
		for i := range r[:lo] {
			r[i] = pad
		}
		for i := hi; i < oW; i++ {
			r[i] = pad
		}
	}
}

// col2imNCHW adds colT [K, P] (im2colNCHW's layout) into the image. With
// scratch set (col is the caller's to change) and wholeRows holding, it
// first zeroes the cells of col that lie in the padding, so that each row
// adds into the plane in one run.
func col2imNCHW[T kernels.Float](p conv2dPlan, col, im []T, scratch bool) {
	d, cfg := p.d, p.cfg
	whole := scratch && p.wholeRows()
	add := kernels.For[T]().Add
	for ic := 0; ic < d.iC; ic++ {
		plane := im[ic*d.iH*d.iW : (ic+1)*d.iH*d.iW]
		for kh := 0; kh < d.kH; kh++ {
			for kw := 0; kw < d.kW; kw++ {
				r := (ic*d.kH+kh)*d.kW + kw
				row := col[r*p.P : (r+1)*p.P]
				off := kw * cfg.dW
				lo, hi := owRange(d.oW, cfg.sW, d.pW, off, d.iW)
				if whole {
					ohLo, ohHi, s, a, b := shiftedRun(p, kh, off)
					for oh := ohLo; oh < ohHi; oh++ {
						r := row[oh*d.oW : (oh+1)*d.oW]
						clear(r[:lo])
						clear(r[hi:])
					}
					if a < b {
						dst := plane[s+a : s+b]
						add(dst, dst, row[ohLo*d.oW+a:ohLo*d.oW+b])
					}
					continue
				}
				if s0, ok := p.insideRows(kh, lo, hi, off); ok {
					for oh := 0; oh < d.oH; oh++ {
						src, dst := row[oh*d.oW:(oh+1)*d.oW], plane[s0+oh*d.iW:s0+oh*d.iW+d.oW]
						for i := range src {
							dst[i] += src[i]
						}
					}
					continue
				}
				for oh := 0; oh < d.oH; oh++ {
					ih := oh*cfg.sH - d.pH + kh*cfg.dH
					if ih < 0 || ih >= d.iH {
						continue
					}
					src := row[oh*d.oW : (oh+1)*d.oW]
					dst := plane[ih*d.iW : (ih+1)*d.iW]
					if cfg.sW == 1 && hi-lo >= 64 {
						dd := dst[lo-d.pW+off : hi-d.pW+off]
						add(dd, dd, src[lo:hi])
						continue
					}
					if cfg.sW == 1 && lo < hi {
						// short rows: the call would cost more than the loop
						dd := dst[lo-d.pW+off : hi-d.pW+off]
						for i, v := range src[lo:hi] {
							dd[i] += v
						}
						continue
					}
					for ow := lo; ow < hi; ow++ {
						dst[ow*cfg.sW-d.pW+off] += src[ow]
					}
				}
			}
		}
	}
}
