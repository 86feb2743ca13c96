package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/kernels"
	"github.com/sdgo/sdgo/ndarray"
)

// conv3dnew and conv3dnew_bp, deconv3d and deconv3d_bp: 3-D convolutions
// on the packed GEMM. Data is lowered channels-last (an NCDHW input goes
// through a channels-last scratch copy) to columns [P, K], one row per
// output voxel and one column per (kd, kh, kw, ic) cell, which multiply
// the weights as [kD·kH·kW·iC, oC].

// conv3Plan is a checked 3-D convolution.
type conv3Plan struct {
	bS, iC, oC          int
	in, out, k, s, d, p [3]int
	K, P                int
	ndhwc               bool
	wf                  int
}

// w3Perm permutes weights of a format into [kD,kH,kW,iC,oC]; w3Inv back.
var (
	w3Perm = [3][]int{{0, 1, 2, 3, 4}, {2, 3, 4, 1, 0}, {1, 2, 3, 4, 0}}
	w3Inv  = [3][]int{{0, 1, 2, 3, 4}, {4, 3, 0, 1, 2}, {4, 0, 1, 2, 3}}
)

// conv3Args reads libnd4j's conv3dnew int args: kD, kH, kW, sD, sH, sW,
// pD, pH, pW, dD, dH, dW, paddingMode, dataFormat (0 NCDHW, 1 NDHWC),
// weightsFormat.
func conv3Args(op string, a *Args) (k, s, p, d [3]int, same, ndhwc bool, wf int, err error) {
	if len(a.I) < 13 {
		err = fmt.Errorf("%s needs int args kD, kH, kW, sD, sH, sW, pD, pH, pW, dD, dH, dW, paddingMode [, dataFormat, weightsFormat]; got %d", op, len(a.I))
		return
	}
	i := intsOf(a.I)
	if err = windowArgsFit(op, i[:12]); err != nil {
		return
	}
	for j := 0; j < 3; j++ {
		k[j], s[j], p[j], d[j] = i[j], i[3+j], i[6+j], i[9+j]
		if k[j] < 0 || s[j] <= 0 || d[j] <= 0 || p[j] < 0 {
			err = fmt.Errorf("%s: kernel %v must not be negative, strides %v and dilations %v positive, paddings %v not negative", op, i[0:3], i[3:6], i[9:12], i[6:9])
			return
		}
	}
	if i[12] != 0 && i[12] != 1 {
		err = fmt.Errorf("%s: padding mode %d is not 0 (VALID) or 1 (SAME)", op, i[12])
		return
	}
	same = i[12] == 1
	if len(i) > 13 {
		if i[13] != 0 && i[13] != 1 {
			err = fmt.Errorf("%s: data format %d is not 0 (NCDHW) or 1 (NDHWC)", op, i[13])
			return
		}
		ndhwc = i[13] == 1
	}
	if len(i) > 14 {
		wf = i[14]
		if wf < 0 || wf > 2 {
			err = fmt.Errorf("%s: weights format %d is not 0 [kD,kH,kW,iC,oC], 1 [oC,iC,kD,kH,kW] or 2 [oC,kD,kH,kW,iC]", op, wf)
		}
	}
	return
}

// newConv3Plan checks a conv3dnew call of input x and weights w.
func newConv3Plan(op string, a *Args, x, w []int) (conv3Plan, error) {
	var p conv3Plan
	k, s, pd, d, same, ndhwc, wf, err := conv3Args(op, a)
	if err != nil {
		return p, err
	}
	if len(x) != 5 || len(w) != 5 {
		return p, fmt.Errorf("%s: input %v and weights %v must both have rank 5", op, x, w)
	}
	p.ndhwc, p.wf, p.s, p.d = ndhwc, wf, s, d
	if ndhwc {
		p.bS, p.in, p.iC = x[0], [3]int{x[1], x[2], x[3]}, x[4]
	} else {
		p.bS, p.iC, p.in = x[0], x[1], [3]int{x[2], x[3], x[4]}
	}
	var kw [5]int
	for j, ax := range w3Perm[wf] {
		kw[j] = w[ax]
	}
	p.k, p.oC = [3]int{kw[0], kw[1], kw[2]}, kw[4]
	if kw[3] != p.iC {
		return p, fmt.Errorf("%s: weights of shape %v (format %d) do not fit %d input channels (input %v)", op, w, wf, p.iC, x)
	}
	for j := 0; j < 3; j++ {
		if k[j] > 0 && k[j] != p.k[j] {
			return p, fmt.Errorf("%s: weights of shape %v (format %d) do not fit kernel %v", op, w, wf, k)
		}
		if !dilatedFits(p.k[j], d[j]) {
			return p, fmt.Errorf("%s: kernel %v with dilations %v is too large", op, p.k, d)
		}
		p.out[j], p.p[j] = outSize(p.in[j], p.k[j], s[j], pd[j], d[j], same)
		if p.out[j] <= 0 {
			return p, fmt.Errorf("%s: input %v is too small for kernel %v with dilations %v and paddings %v", op, x, p.k, d, pd)
		}
	}
	p.K = p.k[0] * p.k[1] * p.k[2] * p.iC
	p.P = p.out[0] * p.out[1] * p.out[2]
	return p, nil
}

func (p conv3Plan) outShape() []int {
	if p.ndhwc {
		return []int{p.bS, p.out[0], p.out[1], p.out[2], p.oC}
	}
	return []int{p.bS, p.oC, p.out[0], p.out[1], p.out[2]}
}

func (p conv3Plan) inShape() []int {
	if p.ndhwc {
		return []int{p.bS, p.in[0], p.in[1], p.in[2], p.iC}
	}
	return []int{p.bS, p.iC, p.in[0], p.in[1], p.in[2]}
}

// walk3 calls f(row, colOffset, inOffset) for every kernel cell of every
// output voxel of one image that falls inside the input (channels-last
// offsets; the iC values there are contiguous).
func (p conv3Plan) walk3(f func(row, col, in int)) {
	for o0 := 0; o0 < p.out[0]; o0++ {
		for o1 := 0; o1 < p.out[1]; o1++ {
			for o2 := 0; o2 < p.out[2]; o2++ {
				row := (o0*p.out[1]+o1)*p.out[2] + o2
				for k0 := 0; k0 < p.k[0]; k0++ {
					i0 := o0*p.s[0] - p.p[0] + k0*p.d[0]
					if i0 < 0 || i0 >= p.in[0] {
						continue
					}
					for k1 := 0; k1 < p.k[1]; k1++ {
						i1 := o1*p.s[1] - p.p[1] + k1*p.d[1]
						if i1 < 0 || i1 >= p.in[1] {
							continue
						}
						for k2 := 0; k2 < p.k[2]; k2++ {
							i2 := o2*p.s[2] - p.p[2] + k2*p.d[2]
							if i2 < 0 || i2 >= p.in[2] {
								continue
							}
							f(row, ((k0*p.k[1]+k1)*p.k[2]+k2)*p.iC, ((i0*p.in[1]+i1)*p.in[2]+i2)*p.iC)
						}
					}
				}
			}
		}
	}
}

// cl5 returns a's values channels-last (a's own buffer when already so
// and packed) and the scratch to release.
func cl5[T kernels.Float](c *Ctx, a *ndarray.Array, ndhwc bool) ([]T, *ndarray.Array, error) {
	if ndhwc {
		return packed[T](c, a)
	}
	v, err := ndarray.Permute(a, 0, 2, 3, 4, 1)
	if err != nil {
		return nil, nil, err
	}
	tmp := c.Alloc(a.DType(), v.Shape())
	if err := ndarray.CopyInto(tmp, v); err != nil {
		return nil, nil, err
	}
	return flat[T](tmp), tmp, nil
}

// clTarget returns the channels-last array to write for out (out itself
// when ndhwc); fromCL copies it into out.
func clTarget(c *Ctx, out *ndarray.Array, ndhwc bool) *ndarray.Array {
	if ndhwc {
		return out
	}
	s := out.Shape()
	return c.Alloc(out.DType(), []int{s[0], s[2], s[3], s[4], s[1]})
}

func fromCL(out, tgt *ndarray.Array) error {
	if tgt == out {
		return nil
	}
	v, err := ndarray.Permute(tgt, 0, 4, 1, 2, 3)
	if err != nil {
		return err
	}
	return ndarray.CopyInto(out, v)
}

// w3 returns the weights as [kD,kH,kW,iC,oC] packed.
func w3[T kernels.Float](c *Ctx, w *ndarray.Array, wf int) ([]T, *ndarray.Array, error) {
	if wf == 0 {
		return packed[T](c, w)
	}
	v, err := ndarray.Permute(w, w3Perm[wf]...)
	if err != nil {
		return nil, nil, err
	}
	tmp := c.Alloc(w.DType(), v.Shape())
	if err := ndarray.CopyInto(tmp, v); err != nil {
		return nil, nil, err
	}
	return flat[T](tmp), tmp, nil
}

// conv3Fwd writes conv3d(x, w) (+ bias b unless nil) into out.
func conv3Fwd[T kernels.Float](c *Ctx, p conv3Plan, x, w, b, out *ndarray.Array) error {
	xv, xt, err := cl5[T](c, x, p.ndhwc)
	if err != nil {
		return err
	}
	defer c.Release(xt)
	wv, wt, err := w3[T](c, w, p.wf)
	if err != nil {
		return err
	}
	defer c.Release(wt)
	tgt := clTarget(c, out, p.ndhwc)
	if tgt != out {
		defer c.Release(tgt)
	}
	ov := flat[T](tgt)
	beta := T(0)
	if b != nil {
		bv, bt, err := packed[T](c, b)
		if err != nil {
			return err
		}
		convFillBias(ov, bv, 0, true)
		c.Release(bt)
		beta = 1
	}
	col, ct := scratch[T](c, x.DType(), p.K*p.P)
	defer c.Release(ct)
	iSz := p.in[0] * p.in[1] * p.in[2] * p.iC
	for n := 0; n < p.bS; n++ {
		clear(col)
		im := xv[n*iSz:]
		p.walk3(func(row, cc, in int) { copy(col[row*p.K+cc:][:p.iC], im[in:in+p.iC]) })
		if !kernels.GemmStop(c.Stop(), 0, p.P, p.oC, p.K, 1, col, p.K, 1, wv, p.oC, 1, beta, ov[n*p.P*p.oC:], p.oC, 1) {
			return c.Err()
		}
	}
	return fromCL(out, tgt)
}

// conv3Bwd writes the gradients of conv3d's input (dx) and weights (dw)
// from gradO g; either may be nil.
func conv3Bwd[T kernels.Float](c *Ctx, p conv3Plan, x, w, g, dx, dw *ndarray.Array) error {
	gv, gt, err := cl5[T](c, g, p.ndhwc)
	if err != nil {
		return err
	}
	defer c.Release(gt)
	iSz := p.in[0] * p.in[1] * p.in[2] * p.iC
	col, ct := scratch[T](c, g.DType(), p.K*p.P)
	defer c.Release(ct)
	if dw != nil {
		xv, xt, err := cl5[T](c, x, p.ndhwc)
		if err != nil {
			return err
		}
		defer c.Release(xt)
		dwArr := dw
		if p.wf != 0 {
			dwArr = c.Alloc(dw.DType(), []int{p.k[0], p.k[1], p.k[2], p.iC, p.oC})
			defer c.Release(dwArr)
		}
		dwv := flat[T](dwArr)
		clear(dwv)
		for n := 0; n < p.bS; n++ {
			clear(col)
			im := xv[n*iSz:]
			p.walk3(func(row, cc, in int) { copy(col[row*p.K+cc:][:p.iC], im[in:in+p.iC]) })
			if !kernels.GemmStop(c.Stop(), 0, p.K, p.oC, p.P, 1, col, 1, p.K, gv[n*p.P*p.oC:], p.oC, 1, 1, dwv, p.oC, 1) {
				return c.Err()
			}
		}
		if dwArr != dw {
			v, err := ndarray.Permute(dwArr, w3Inv[p.wf]...)
			if err != nil {
				return err
			}
			if err := ndarray.CopyInto(dw, v); err != nil {
				return err
			}
		}
	}
	if dx == nil {
		return nil
	}
	wv, wt, err := w3[T](c, w, p.wf)
	if err != nil {
		return err
	}
	defer c.Release(wt)
	tgt := clTarget(c, dx, p.ndhwc)
	if tgt != dx {
		defer c.Release(tgt)
	}
	dxv := flat[T](tgt)
	clear(dxv)
	for n := 0; n < p.bS; n++ {
		if !kernels.GemmStop(c.Stop(), 0, p.P, p.K, p.oC, 1, gv[n*p.P*p.oC:], p.oC, 1, wv, 1, p.oC, 0, col, p.K, 1) {
			return c.Err()
		}
		im := dxv[n*iSz:]
		p.walk3(func(row, cc, in int) {
			dst := im[in : in+p.iC]
			for i, v := range col[row*p.K+cc:][:p.iC] {
				dst[i] += v
			}
		})
	}
	return fromCL(dx, tgt)
}

// conv3dInfer is conv3dnew's shape inference (exact for every known axis).
func conv3dInfer(op string, in []Info, a *Args) ([]Info, error) {
	if err := needSameFloat(op, in); err != nil {
		return nil, err
	}
	if _, _, _, _, _, _, _, err := conv3Args(op, a); err != nil {
		return nil, err
	}
	x, w := in[0], in[1]
	if x.UnknownRank || w.UnknownRank || !w.ShapeKnown() || len(x.Shape) != 5 {
		if !x.UnknownRank && len(x.Shape) != 5 {
			return nil, fmt.Errorf("%s: input of shape %v must have rank 5", op, x.Shape)
		}
		return infos(Info{DType: x.DType, Shape: unknownShape(5)}), nil
	}
	_, _, _, _, _, ndhwc, _, _ := conv3Args(op, a)
	xs := append([]int(nil), x.Shape...)
	sp, cAx := []int{2, 3, 4}, 1
	if ndhwc {
		sp, cAx = []int{1, 2, 3}, 4
	}
	if xs[0] < 0 {
		xs[0] = 1
	}
	if xs[cAx] < 0 {
		xs[cAx] = 0 // filled from the weights below
	}
	for _, ax := range sp {
		if xs[ax] < 0 {
			xs[ax] = 1 << 20
		}
	}
	if xs[cAx] == 0 {
		wf := int(a.Int(14, 0))
		if wf >= 0 && wf <= 2 {
			xs[cAx] = w.Shape[w3Perm[wf][3]]
		}
	}
	p, err := newConv3Plan(op, a, xs, w.Shape)
	if err != nil {
		return nil, err
	}
	out := p.outShape()
	out[0] = x.Shape[0]
	for _, ax := range sp {
		if x.Shape[ax] < 0 {
			out[ax] = -1
		}
	}
	return infos(Info{DType: x.DType, Shape: out}), nil
}

// conv3DOp is libnd4j's conv3dnew: inputs x [bS,iC,iD,iH,iW] (NCDHW, the
// default) or [bS,iD,iH,iW,iC] (NDHWC), weights [kD,kH,kW,iC,oC] (format
// 0, the default), [oC,iC,kD,kH,kW] (1) or [oC,kD,kH,kW,iC] (2) [, bias
// [oC]]; int args kD, kH, kW (0: from the weights), sD, sH, sW, pD, pH,
// pW, dD, dH, dW, paddingMode (0 VALID, 1 SAME), dataFormat (1 NDHWC),
// weightsFormat.
var conv3DOp = Register(&Def{
	Name: "conv3dnew", Type: Custom, MinIn: 2, MaxIn: 3,
	Doc: "3-D convolution; int args kD, kH, kW, sD, sH, sW, pD, pH, pW, dD, dH, dW, paddingMode, dataFormat (1 NDHWC), weightsFormat",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		return conv3dInfer("conv3dnew", in, a)
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		return convRun(c, "conv3dnew", in, a, conv3Planner, conv3Fwd[float32], conv3Fwd[float64])
	},
	Grad: bpOp("conv3dnew_bp"),
})

// conv3DBpOp is conv3dnew's gradient (libnd4j conv3dnew_bp): inputs x,
// weights, [bias,] gradO with conv3dnew's args; outputs the gradients of
// x, the weights and the bias.
var conv3DBpOp = Register(&Def{
	Name: "conv3dnew_bp", Type: Custom, MinIn: 3, MaxIn: 4,
	Doc: "gradients of conv3dnew for inputs x, weights, [bias,] gradO; conv3dnew's args",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		if err := needSameFloat("conv3dnew_bp", in); err != nil {
			return nil, err
		}
		return sameInfos(in, len(in)-1), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		return convBpRun(c, "conv3dnew_bp", in, a, conv3Planner, conv3BwdAll[float32], conv3BwdAll[float64])
	},
})

// conv3Planner is conv3dnew's convPlanner.
func conv3Planner(op string, a *Args, x, w []int) (conv3Plan, []int, int, error) {
	p, err := newConv3Plan(op, a, x, w)
	if err != nil {
		return p, nil, 0, err
	}
	return p, p.outShape(), p.oC, nil
}

func conv3BwdAll[T kernels.Float](c *Ctx, p conv3Plan, x, w, g *ndarray.Array, outs []*ndarray.Array) error {
	if err := conv3Bwd[T](c, p, x, w, g, outs[0], outs[1]); err != nil {
		return err
	}
	if len(outs) > 2 {
		return convBiasGrad[T](c, g, outs[2], p.P, p.ndhwc)
	}
	return nil
}
