package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// conv1d and conv1d_bp: conv2d over a height of 1, as libnd4j runs them.

// conv1dArgs maps conv1d's int args (kW, sW, pW, dW, paddingMode,
// dataFormat, weightsFormat) to conv2d's.
func conv1dArgs(op string, a *Args) (*Args, error) {
	if len(a.I) < 5 {
		return nil, fmt.Errorf("%s needs int args kW, sW, pW, dW, paddingMode [, dataFormat, weightsFormat]; got %d", op, len(a.I))
	}
	i := a.I
	nwc, wf := int64(0), int64(0)
	if len(i) > 5 {
		nwc = i[5]
	}
	if len(i) > 6 {
		wf = i[6]
	}
	if nwc != 0 && nwc != 1 {
		return nil, fmt.Errorf("%s: data format %d is not 0 (NCW) or 1 (NWC)", op, nwc)
	}
	return &Args{I: []int64{1, i[0], 1, i[1], 0, i[2], 1, i[3], i[4], nwc, wf}}, nil
}

// conv1dShapes returns the 4-D shapes conv2d sees for x [bS,iW,iC] (NWC)
// or [bS,iC,iW] (NCW) and the weights ([kW,iC,oC], [oC,iC,kW] or
// [oC,kW,iC] by format): a height axis of 1 inserted.
func conv1dShapes(op string, x, w []int, a2 *Args) (xs, ws []int, err error) {
	if len(x) != 3 || len(w) != 3 {
		return nil, nil, fmt.Errorf("%s: input %v and weights %v must both have rank 3", op, x, w)
	}
	if a2.I[9] == 1 {
		xs = []int{x[0], 1, x[1], x[2]}
	} else {
		xs = []int{x[0], x[1], 1, x[2]}
	}
	switch a2.I[10] {
	case 0:
		ws = []int{1, w[0], w[1], w[2]}
	case 1:
		ws = []int{w[0], w[1], 1, w[2]}
	default:
		ws = []int{w[0], 1, w[1], w[2]}
	}
	return xs, ws, nil
}

// dropH removes the height axis of 1 from a 4-D conv2d shape.
func dropH(s []int, nhwc bool) []int {
	if nhwc {
		return []int{s[0], s[2], s[3]}
	}
	return []int{s[0], s[1], s[3]}
}

func reshapeAll(op string, in []*ndarray.Array, shapes ...[]int) ([]*ndarray.Array, error) {
	out := append([]*ndarray.Array(nil), in...)
	for i, s := range shapes {
		r, err := ndarray.Reshape(in[i], s...)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		out[i] = r
	}
	return out, nil
}

// conv1DOp is libnd4j's conv1d: inputs x [bS,iC,iW] (NCW, the default) or
// [bS,iW,iC] (NWC), weights [kW,iC,oC] (format 0, the default), [oC,iC,kW]
// (1) or [oC,kW,iC] (2) [, bias [oC]]; int args kW (0: from the weights),
// sW, pW, dW, paddingMode (0 VALID, 1 SAME, 2 CAUSAL: all padding before),
// dataFormat (0 NCW, 1 NWC), weightsFormat.
var conv1DOp = Register(&Def{
	Name: "conv1d", Type: Custom, MinIn: 2, MaxIn: 3,
	Doc: "1-D convolution; int args kW, sW, pW, dW, paddingMode (2 causal), dataFormat (1 NWC), weightsFormat",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		a2, err := conv1dArgs("conv1d", a)
		if err != nil {
			return nil, err
		}
		if err := needSameFloat("conv1d", in); err != nil {
			return nil, err
		}
		x, w := in[0], in[1]
		if x.UnknownRank || w.UnknownRank {
			return infos(Info{DType: x.DType, Shape: unknownShape(3)}), nil
		}
		xs, ws, err := conv1dShapes("conv1d", x.Shape, w.Shape, a2)
		if err != nil {
			return nil, err
		}
		in4 := append([]Info{{DType: x.DType, Shape: xs}, {DType: w.DType, Shape: ws}}, in[2:]...)
		out, err := conv2dInfer("conv1d", in4, a2)
		if err != nil {
			return nil, err
		}
		return infos(Info{DType: x.DType, Shape: dropH(out[0].Shape, a2.I[9] == 1)}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		a2, err := conv1dArgs("conv1d", a)
		if err != nil {
			return nil, err
		}
		xs, ws, err := conv1dShapes("conv1d", in[0].Shape(), in[1].Shape(), a2)
		if err != nil {
			return nil, err
		}
		in4, err := reshapeAll("conv1d", in, xs, ws)
		if err != nil {
			return nil, err
		}
		out, err := conv2dRun(c, "conv1d", in4, a2)
		if err != nil {
			return nil, err
		}
		return one(ndarray.Reshape(out[0], dropH(out[0].Shape(), a2.I[9] == 1)...))
	},
	Grad: bpOp("conv1d_bp"),
})

// conv1DBpOp is conv1d's gradient (libnd4j conv1d_bp): inputs x, weights,
// [bias,] gradO with conv1d's args; outputs the gradients of x, the weights
// and the bias.
var conv1DBpOp = Register(&Def{
	Name: "conv1d_bp", Type: Custom, MinIn: 3, MaxIn: 4,
	Doc: "gradients of conv1d for inputs x, weights, [bias,] gradO; conv1d's args",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		if err := needSameFloat("conv1d_bp", in); err != nil {
			return nil, err
		}
		return sameInfos(in, len(in)-1), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		a2, err := conv1dArgs("conv1d_bp", a)
		if err != nil {
			return nil, err
		}
		xs, ws, err := conv1dShapes("conv1d_bp", in[0].Shape(), in[1].Shape(), a2)
		if err != nil {
			return nil, err
		}
		g := in[len(in)-1]
		if g.Rank() != 3 {
			return nil, fmt.Errorf("conv1d_bp: gradient of shape %v must have rank 3", g.Shape())
		}
		gs := []int{g.Shape()[0], g.Shape()[1], 1, g.Shape()[2]}
		if a2.I[9] == 1 {
			gs = []int{g.Shape()[0], 1, g.Shape()[1], g.Shape()[2]}
		}
		in4, err := reshapeAll("conv1d_bp", in, xs, ws)
		if err != nil {
			return nil, err
		}
		if in4[len(in)-1], err = ndarray.Reshape(g, gs...); err != nil {
			return nil, fmt.Errorf("conv1d_bp: %w", err)
		}
		outs, err := conv2dBpRun(c, "conv1d_bp", in4, a2)
		if err != nil {
			return nil, err
		}
		for i := range outs {
			if outs[i], err = ndarray.Reshape(outs[i], in[i].Shape()...); err != nil {
				return nil, err
			}
		}
		return outs, nil
	},
})
