package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// sconv2d (separable 2-D convolution: depthwise, then a 1x1 pointwise
// conv2d) and sconv2d_bp, composed of depthwise_conv2d and conv2d.

// sconvInputs splits sconv2d's optional inputs after x and the depth
// weights: one rank-4 input is the point weights, one of lower rank the
// bias; two are both, in that order (libnd4j's rule).
func sconvInputs(rest []*ndarray.Array) (wP, b *ndarray.Array) {
	switch len(rest) {
	case 1:
		if rest[0].Rank() == 4 {
			return rest[0], nil
		}
		return nil, rest[0]
	case 2:
		return rest[0], rest[1]
	}
	return nil, nil
}

// pointArgs is the 1x1 conv2d of sconv2d's pointwise step.
func pointArgs(a *Args) *Args {
	nhwc, wf := a.Int(9, 0), a.Int(10, 0)
	return &Args{I: []int64{1, 1, 1, 1, 0, 0, 1, 1, 0, nhwc, wf}}
}

// sconv2DOp is libnd4j's sconv2d: inputs x, depth weights [kH,kW,iC,mC]
// (format 0; [mC,iC,kH,kW] or [mC,kH,kW,iC]), [point weights
// [1,1,iC·mC,oC] (format 0; [oC,iC·mC,1,1] or [oC,1,1,iC·mC]),] [bias
// [oC]]; conv2d's int args for the depthwise step (the pointwise one is a
// 1x1 conv2d in the same formats). Without point weights it is
// depthwise_conv2d.
var sconv2DOp = Register(&Def{
	Name: "sconv2d", Type: Custom, MinIn: 2, MaxIn: 4,
	Doc: "separable 2-D convolution (depthwise, then pointwise 1x1); inputs x, depthW [, pointW] [, bias]; conv2d's int args",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		if err := needSameFloat("sconv2d", in); err != nil {
			return nil, err
		}
		dw, err := depthwiseConv2DOp.Infer(in[:2], a)
		if err != nil {
			return nil, err
		}
		var wP *Info
		if len(in) == 4 || (len(in) == 3 && !in[2].UnknownRank && len(in[2].Shape) == 4) {
			wP = &in[2]
		}
		if wP == nil {
			return dw, nil
		}
		out := []Info{dw[0], *wP}
		if len(in) == 4 {
			out = append(out, in[3])
		}
		return conv2dInfer("sconv2d", out, pointArgs(a))
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		wP, b := sconvInputs(in[2:])
		if wP == nil {
			return depthwiseConv2DOp.Run(c, in, a)
		}
		y, err := depthwiseConv2DOp.Run(c, in[:2], a)
		if err != nil {
			return nil, err
		}
		defer c.Release(y[0])
		pin := []*ndarray.Array{y[0], wP}
		if b != nil {
			pin = append(pin, b)
		}
		return conv2dRun(c, "sconv2d", pin, pointArgs(a))
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		in := append([]Value{n.In[0], d[0]}, n.In[1:]...)
		return b.Op("sconv2d_bp", n.Args.Clone(), in...)
	},
})

// sconv2DBpOp is sconv2d's gradient (libnd4j sconv2d_bp): inputs x,
// gradO, depth weights [, point weights] [, bias] (libnd4j's order, gradO
// second) with sconv2d's args; outputs the gradients of x, the depth
// weights [, the point weights] [, the bias].
var sconv2DBpOp = Register(&Def{
	Name: "sconv2d_bp", Type: Custom, MinIn: 3, MaxIn: 5,
	Doc: "gradients of sconv2d for inputs x, gradO, depthW [, pointW] [, bias]; sconv2d's args",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		if err := needSameFloat("sconv2d_bp", in); err != nil {
			return nil, err
		}
		out := []Info{same(in[0])}
		for _, x := range in[2:] {
			out = append(out, same(x))
		}
		return out, nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x, g, wD := in[0], in[1], in[2]
		wP, bias := sconvInputs(in[3:])
		if wP == nil {
			din := []*ndarray.Array{x, wD}
			if bias != nil {
				din = append(din, bias)
			}
			return depthwiseConv2DBpOp.Run(c, append(din, g), a)
		}
		y, err := depthwiseConv2DOp.Run(c, []*ndarray.Array{x, wD}, a)
		if err != nil {
			return nil, err
		}
		defer c.Release(y[0])
		pin := []*ndarray.Array{y[0], wP}
		if bias != nil {
			pin = append(pin, bias)
		}
		pg, err := conv2dBpRun(c, "sconv2d_bp", append(pin, g), pointArgs(a))
		if err != nil {
			return nil, err
		}
		defer c.Release(pg[0])
		dg, err := depthwiseConv2DBpOp.Run(c, []*ndarray.Array{x, wD, pg[0]}, a)
		if err != nil {
			return nil, fmt.Errorf("sconv2d_bp: %w", err)
		}
		return append(dg, pg[1:]...), nil
	},
})
