package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/kernels"
	"github.com/sdgo/sdgo/ndarray"
)

// deconv3d and deconv3d_bp: conv3dnew's transpose, as deconv2d is
// conv2d's (cnn_deconv.go): weights [kD,kH,kW,oC,iC] (format 0),
// [iC,oC,kD,kH,kW] (1) or [iC,kD,kH,kW,oC] (2) are conv3dnew weights of
// the same format with oC input and iC output channels.

// deconv3dPlanner is deconv3d's convPlanner.
func deconv3dPlanner(op string, a *Args, x, w []int) (conv3Plan, []int, int, error) {
	p, out, err := deconv3dPlan(op, a, x, w)
	return p, out, p.iC, err
}

// deconv3dPlan returns the conv3dnew plan whose input is deconv3d's
// output, and that output's shape.
func deconv3dPlan(op string, a *Args, x, w []int) (conv3Plan, []int, error) {
	k, s, pd, d, same, ndhwc, wf, err := conv3Args(op, a)
	if err != nil {
		return conv3Plan{}, nil, err
	}
	if len(x) != 5 || len(w) != 5 {
		return conv3Plan{}, nil, fmt.Errorf("%s: input %v and weights %v must both have rank 5", op, x, w)
	}
	var kw [5]int
	for j, ax := range w3Perm[wf] {
		kw[j] = w[ax]
	}
	oC, iC := kw[3], kw[4]
	bS, in, xc := x[0], [3]int{x[2], x[3], x[4]}, x[1]
	if ndhwc {
		in, xc = [3]int{x[1], x[2], x[3]}, x[4]
	}
	if xc != iC {
		return conv3Plan{}, nil, fmt.Errorf("%s: weights of shape %v (format %d) do not fit %d input channels (input %v)", op, w, wf, xc, x)
	}
	var out [3]int
	for j := 0; j < 3; j++ {
		if k[j] > 0 && k[j] != kw[j] {
			return conv3Plan{}, nil, fmt.Errorf("%s: weights of shape %v (format %d) do not fit kernel %v", op, w, wf, k)
		}
		if !dilatedFits(kw[j], d[j]) {
			return conv3Plan{}, nil, fmt.Errorf("%s: kernel %v with dilations %v is too large", op, kw[:3], d)
		}
		if out[j] = deconvOut(in[j], kw[j], s[j], pd[j], d[j], same); out[j] <= 0 {
			return conv3Plan{}, nil, fmt.Errorf("%s: input %v with kernel %v, strides %v, paddings %v gives no output", op, x, kw[:3], s, pd)
		}
	}
	shape := []int{bS, oC, out[0], out[1], out[2]}
	if ndhwc {
		shape = []int{bS, out[0], out[1], out[2], oC}
	}
	p, err := newConv3Plan(op, a, shape, w)
	if err != nil {
		return p, nil, err
	}
	if p.out != in {
		return p, nil, fmt.Errorf("%s: input %v does not invert to output %v", op, x, shape)
	}
	return p, shape, nil
}

// deconv3DOp is libnd4j's deconv3d: inputs x [bS,iC,iD,iH,iW] (NCDHW, the
// default) or [bS,iD,iH,iW,iC] (NDHWC), weights [kD,kH,kW,oC,iC] (format
// 0), [iC,oC,kD,kH,kW] (1) or [iC,kD,kH,kW,oC] (2) [, bias [oC]];
// conv3dnew's int args. Each output size is s·in (SAME) or
// s·(in-1) + (k-1)·d + 1 - 2p.
var deconv3DOp = Register(&Def{
	Name: "deconv3d", Type: Custom, MinIn: 2, MaxIn: 3,
	Doc: "transposed 3-D convolution; conv3dnew's int args",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		if err := needSameFloat("deconv3d", in); err != nil {
			return nil, err
		}
		if _, _, _, _, _, _, _, err := conv3Args("deconv3d", a); err != nil {
			return nil, err
		}
		x, w := in[0], in[1]
		batch := -1
		if !x.UnknownRank && len(x.Shape) == 5 && x.Shape[0] < 0 {
			// an unknown batch alone: the other sizes stay exact
			x.Shape = append([]int{1}, x.Shape[1:]...)
			batch = -2
		}
		if x.UnknownRank || w.UnknownRank || !x.ShapeKnown() || !w.ShapeKnown() {
			if !x.UnknownRank && len(x.Shape) != 5 {
				return nil, fmt.Errorf("deconv3d: input of shape %v must have rank 5", x.Shape)
			}
			s := unknownShape(5)
			if !x.UnknownRank && batch != -2 {
				s[0] = x.Shape[0]
			}
			return infos(Info{DType: x.DType, Shape: s}), nil
		}
		_, shape, err := deconv3dPlan("deconv3d", a, x.Shape, w.Shape)
		if err != nil {
			return nil, err
		}
		if batch == -2 {
			shape[0] = -1
		}
		return infos(Info{DType: x.DType, Shape: shape}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		return convRun(c, "deconv3d", in, a, deconv3dPlanner, deconv3Fwd[float32], deconv3Fwd[float64])
	},
	Grad: bpOp("deconv3d_bp"),
})

func deconv3Fwd[T kernels.Float](c *Ctx, p conv3Plan, x, w, b, out *ndarray.Array) error {
	if err := conv3Bwd[T](c, p, nil, w, x, out, nil); err != nil {
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
	convAddBias(flat[T](out), bv, p.in[0]*p.in[1]*p.in[2], p.ndhwc)
	return nil
}

// deconv3DBpOp is deconv3d's gradient (libnd4j deconv3d_bp): inputs x,
// weights, [bias,] gradO with deconv3d's args; outputs the gradients of x
// (conv3dnew of gradO), the weights and the bias.
var deconv3DBpOp = Register(&Def{
	Name: "deconv3d_bp", Type: Custom, MinIn: 3, MaxIn: 4,
	Doc: "gradients of deconv3d for inputs x, weights, [bias,] gradO; deconv3d's args",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		if err := needSameFloat("deconv3d_bp", in); err != nil {
			return nil, err
		}
		return sameInfos(in, len(in)-1), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		return convBpRun(c, "deconv3d_bp", in, a, deconv3dPlanner, deconv3Bwd[float32], deconv3Bwd[float64])
	},
})

func deconv3Bwd[T kernels.Float](c *Ctx, p conv3Plan, x, w, g *ndarray.Array, outs []*ndarray.Array) error {
	if err := conv3Fwd[T](c, p, g, w, nil, outs[0]); err != nil {
		return err
	}
	if err := conv3Bwd[T](c, p, g, w, x, nil, outs[1]); err != nil {
		return err
	}
	if len(outs) > 2 {
		return convBiasGrad[T](c, g, outs[2], p.in[0]*p.in[1]*p.in[2], p.ndhwc)
	}
	return nil
}
