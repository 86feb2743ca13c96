package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// Ops of SameDiff's CNN namespace: conv2d, with its
// backprop op (the pooling ops are in cnn_pool.go).

// ---------------------------------------------------------------- conv2d

// conv2dCfg is conv2d's configuration (libnd4j int args 0-10).
type conv2dCfg struct {
	kH, kW, sH, sW, pH, pW, dH, dW int
	same                           bool
	nhwc                           bool
	wFormat                        int
}

func conv2dArgs(op string, a *Args) (conv2dCfg, error) {
	if len(a.I) < 9 {
		return conv2dCfg{}, fmt.Errorf("%s needs int args kH, kW, sH, sW, pH, pW, dH, dW, isSameMode [, dataFormat, weightsFormat]; got %d", op, len(a.I))
	}
	i := intsOf(a.I)
	cfg := conv2dCfg{kH: i[0], kW: i[1], sH: i[2], sW: i[3], pH: i[4], pW: i[5], dH: i[6], dW: i[7], same: i[8] == 1}
	if i[8] != 0 && i[8] != 1 {
		return cfg, fmt.Errorf("%s: padding mode %d is not 0 (VALID) or 1 (SAME)", op, i[8])
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

// windowArgsFit refuses window sizes, strides, paddings or dilations
// larger than any array's axis, so that the window arithmetic (outSize,
// the dilated kernel's extent) cannot overflow.
func windowArgsFit(op string, v []int) error {
	for _, x := range v {
		if x > ndarray.MaxBytes {
			return fmt.Errorf("%s: int args %v: %d is too large", op, v, x)
		}
	}
	return nil
}

// dilatedFits reports whether a kernel of k cells dilated by d spans at
// most ndarray.MaxBytes cells (k and d at most that each).
func dilatedFits(k, d int) bool { return k <= 1 || d <= ndarray.MaxBytes/(k-1) }

// floats allocates the float64 values of an op's output through ndarray,
// which holds to the allocation limit: a shape from hostile arguments
// fails with an error instead of ending the program.
func floats(op string, shape ...int) ([]float64, error) {
	a, err := ndarray.Zeros(ndarray.Float64, shape...)
	if err != nil {
		return nil, fmt.Errorf("%s: output of shape %v: %w", op, shape, err)
	}
	return ndarray.Raw[float64](a), nil
}

// wPerm permutes weights of a format into [kH, kW, iC, oC]; wInv back.
var (
	wPerm = [3][]int{{0, 1, 2, 3}, {2, 3, 1, 0}, {1, 2, 3, 0}}
	wInv  = [3][]int{{0, 1, 2, 3}, {3, 2, 0, 1}, {3, 0, 1, 2}}
)

// outSize is the output length of a window sweep along one axis, and the
// padding before (SAME mode computes it, as TensorFlow and libnd4j do: the
// extra cell of an odd total goes after).
func outSize(in, k, s, p, d int, same bool) (out, pad int) {
	ek := (k-1)*d + 1
	if same {
		out = (in + s - 1) / s
		pad = max(0, ((out-1)*s+ek-in)/2)
		return out, pad
	}
	return (in+2*p-ek)/s + 1, p
}

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
	d.oH, d.pH = outSize(d.iH, d.kH, cfg.sH, cfg.pH, cfg.dH, cfg.same)
	d.oW, d.pW = outSize(d.iW, d.kW, cfg.sW, cfg.pW, cfg.dW, cfg.same)
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

// channelsLast returns x's values with the channel axis last.
func channelsLast(x *ndarray.Array, nhwc bool) ([]float64, error) {
	if nhwc {
		return x.Float64s(), nil
	}
	perm := make([]int, x.Rank())
	perm[0] = 0
	for i := 1; i < x.Rank()-1; i++ {
		perm[i] = i + 1
	}
	perm[x.Rank()-1] = 1
	p, err := ndarray.Permute(x, perm...)
	if err != nil {
		return nil, err
	}
	return p.Float64s(), nil
}

// fromChannelsLast builds an array of dtype dt from channels-last values
// of shape cl, permuted back to channels-first unless nhwc. v becomes the
// array's buffer when no permutation or cast is needed.
func fromChannelsLast(v []float64, cl []int, nhwc bool, dt ndarray.DType) (*ndarray.Array, error) {
	a, err := ndarray.Wrap(v, cl...)
	if err != nil {
		return nil, err
	}
	if !nhwc {
		r := len(cl)
		perm := make([]int, r)
		perm[1] = r - 1
		for i := 2; i < r; i++ {
			perm[i] = i - 1
		}
		if a, err = ndarray.Permute(a, perm...); err != nil {
			return nil, err
		}
	}
	return ndarray.Cast(a, dt)
}

func weightsHWIO(w *ndarray.Array, format int) ([]float64, error) {
	p, err := ndarray.Permute(w, wPerm[format]...)
	if err != nil {
		return nil, err
	}
	return p.Float64s(), nil
}

func needSameFloat(op string, in []Info) error {
	if err := needFloat(op, in[0]); err != nil {
		return err
	}
	for i, x := range in[1:] {
		if x.DType != in[0].DType {
			return fmt.Errorf("%s: input %d is %v, input 0 %v", op, i+1, x.DType, in[0].DType)
		}
	}
	return nil
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
		if err := needSameFloat("conv2d", in); err != nil {
			return nil, err
		}
		cfg, err := conv2dArgs("conv2d", a)
		if err != nil {
			return nil, err
		}
		x, w := in[0], in[1]
		if x.UnknownRank || w.UnknownRank || !x.ShapeKnown() || !w.ShapeKnown() {
			return infos(Info{DType: x.DType, Shape: unknownShape(4)}), nil
		}
		d, err := conv2dDims("conv2d", cfg, x.Shape, w.Shape)
		if err != nil {
			return nil, err
		}
		if len(in) > 2 && in[2].ShapeKnown() && (len(in[2].Shape) != 1 || in[2].Shape[0] != d.oC) {
			return nil, fmt.Errorf("conv2d: bias of shape %v for %d output channels", in[2].Shape, d.oC)
		}
		return infos(Info{DType: x.DType, Shape: d.outShape(cfg.nhwc)}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x := in[0]
		cfg, d, xv, wv, err := conv2dOperands("conv2d", a, x, in[1])
		if err != nil {
			return nil, err
		}
		var bv []float64
		if len(in) > 2 {
			if in[2].Size() != d.oC {
				return nil, fmt.Errorf("conv2d: bias of shape %v for %d output channels", in[2].Shape(), d.oC)
			}
			bv = in[2].Float64s()
		}
		out, err := floats("conv2d", d.bS, d.oH, d.oW, d.oC)
		if err != nil {
			return nil, err
		}
		conv2dForward(d, cfg, xv, wv, bv, out)
		return one(fromChannelsLast(out, []int{d.bS, d.oH, d.oW, d.oC}, cfg.nhwc, x.DType()))
	},
	Grad: bpOp("conv2d_bp"),
})

// conv2dOperands reads conv2d's arguments, checks the shapes of x and the
// weights w against them, and returns x channels-last and w as
// [kH,kW,iC,oC], in float64.
func conv2dOperands(op string, a *Args, x, w *ndarray.Array) (cfg conv2dCfg, d convDims, xv, wv []float64, err error) {
	if cfg, err = conv2dArgs(op, a); err != nil {
		return
	}
	if d, err = conv2dDims(op, cfg, x.Shape(), w.Shape()); err != nil {
		return
	}
	if xv, err = channelsLast(x, cfg.nhwc); err != nil {
		return
	}
	wv, err = weightsHWIO(w, cfg.wFormat)
	return
}

// conv2dWalk calls f(outIndex, inIndex, weightIndex) for every product of
// the convolution (channels-last input, [kH,kW,iC,oC] weights).
func conv2dWalk(d convDims, cfg conv2dCfg, f func(o, i, w int)) {
	for b := 0; b < d.bS; b++ {
		for oh := 0; oh < d.oH; oh++ {
			for ow := 0; ow < d.oW; ow++ {
				obase := ((b*d.oH+oh)*d.oW + ow) * d.oC
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
						ibase := ((b*d.iH+ih)*d.iW + iw) * d.iC
						wbase := (kh*d.kW + kw) * d.iC * d.oC
						for ic := 0; ic < d.iC; ic++ {
							for oc := 0; oc < d.oC; oc++ {
								f(obase+oc, ibase+ic, wbase+ic*d.oC+oc)
							}
						}
					}
				}
			}
		}
	}
}

func conv2dForward(d convDims, cfg conv2dCfg, x, w, bias, out []float64) {
	if bias != nil {
		for i := range out {
			out[i] = bias[i%d.oC]
		}
	}
	conv2dWalk(d, cfg, func(o, i, k int) { out[o] += x[i] * w[k] })
}

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
		x, w, g := in[0], in[1], in[len(in)-1]
		cfg, d, xv, wv, err := conv2dOperands("conv2d_bp", a, x, w)
		if err != nil {
			return nil, err
		}
		if !ndarray.SameShape(g.Shape(), d.outShape(cfg.nhwc)) {
			return nil, fmt.Errorf("conv2d_bp: gradient of shape %v, the output has %v", g.Shape(), d.outShape(cfg.nhwc))
		}
		gv, err := channelsLast(g, cfg.nhwc)
		if err != nil {
			return nil, err
		}
		dx := make([]float64, len(xv))
		dw := make([]float64, len(wv))
		conv2dWalk(d, cfg, func(o, i, k int) {
			dx[i] += gv[o] * wv[k]
			dw[k] += gv[o] * xv[i]
		})
		gx, err := fromChannelsLast(dx, []int{d.bS, d.iH, d.iW, d.iC}, cfg.nhwc, x.DType())
		if err != nil {
			return nil, err
		}
		gw, err := ndarray.Wrap(dw, d.kH, d.kW, d.iC, d.oC)
		if err != nil {
			return nil, err
		}
		if gw, err = ndarray.Permute(gw, wInv[cfg.wFormat]...); err != nil {
			return nil, err
		}
		if gw, err = ndarray.Cast(gw, w.DType()); err != nil {
			return nil, err
		}
		outs := []*ndarray.Array{gx, gw}
		if len(in) == 4 {
			db := make([]float64, d.oC)
			for i, v := range gv {
				db[i%d.oC] += v
			}
			b, err := ndarray.Wrap(db, in[2].Shape()...)
			if err != nil {
				return nil, err
			}
			if b, err = ndarray.Cast(b, in[2].DType()); err != nil {
				return nil, err
			}
			outs = append(outs, b)
		}
		return outs, nil
	},
})
