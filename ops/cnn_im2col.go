package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/kernels"
	"github.com/sdgo/sdgo/ndarray"
)

// im2col, im2col_bp and col2im: conv2d's lowering as ops, NCHW images and
// [bS, iC, kH, kW, oH, oW] columns (the layout conv2d's NCHW path uses).

// im2colPlan returns the plan of a conv2d with one output channel of the
// given kernel over x [bS,iC,iH,iW]: int args kH, kW, sH, sW, pH, pW, dH,
// dW, isSameMode.
func im2colPlan(op string, a *Args, x []int) (conv2dPlan, error) {
	if len(a.I) < 9 {
		return conv2dPlan{}, fmt.Errorf("%s needs int args kH, kW, sH, sW, pH, pW, dH, dW, isSameMode; got %d", op, len(a.I))
	}
	if len(x) != 4 {
		return conv2dPlan{}, fmt.Errorf("%s: input of shape %v must have rank 4 [bS, iC, iH, iW]", op, x)
	}
	if a.I[0] <= 0 || a.I[1] <= 0 {
		return conv2dPlan{}, fmt.Errorf("%s: kernel %dx%d must be positive", op, a.I[0], a.I[1])
	}
	a2 := &Args{I: append(append([]int64(nil), a.I[:9]...), 0, 1)}
	return newConv2dPlan(op, a2, x, []int{1, x[1], int(a.I[0]), int(a.I[1])})
}

func colShape(p conv2dPlan) []int {
	return []int{p.d.bS, p.d.iC, p.d.kH, p.d.kW, p.d.oH, p.d.oW}
}

// im2ColOp is libnd4j's im2col: input [bS,iC,iH,iW]; int args kH, kW, sH,
// sW, pH, pW, dH, dW, isSameMode; float arg 0 the value of padding cells
// (default 0); output [bS,iC,kH,kW,oH,oW].
var im2ColOp = Register(&Def{
	Name: "im2col", Type: Custom, MinIn: 1, MaxIn: 1,
	Doc: "image patches as columns [bS,iC,kH,kW,oH,oW]; int args kH, kW, sH, sW, pH, pW, dH, dW, isSameMode; float arg pad value",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		x := in[0]
		if err := needFloat("im2col", x); err != nil {
			return nil, err
		}
		if x.UnknownRank || !x.ShapeKnown() {
			if _, err := conv2dArgs("im2col", &Args{I: a.I}); err != nil {
				return nil, err
			}
			return infos(Info{DType: x.DType, Shape: unknownShape(6)}), nil
		}
		p, err := im2colPlan("im2col", a, x.Shape)
		if err != nil {
			return nil, err
		}
		return infos(Info{DType: x.DType, Shape: colShape(p)}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x := in[0]
		p, err := im2colPlan("im2col", a, x.Shape())
		if err != nil {
			return nil, err
		}
		out, err := c.TryAlloc(x.DType(), colShape(p))
		if err != nil {
			return nil, fmt.Errorf("im2col: %w", err)
		}
		pad := a.Float(0, 0)
		switch x.DType() {
		case ndarray.Float32:
			err = im2colRun[float32](c, p, x, out, float32(pad))
		case ndarray.Float64:
			err = im2colRun[float64](c, p, x, out, pad)
		default:
			err = fmt.Errorf("im2col needs a float32 or float64 input, not %v", x.DType())
		}
		if err != nil {
			return nil, err
		}
		return []*ndarray.Array{out}, nil
	},
	Grad: bpOp("im2col_bp"),
})

func im2colRun[T kernels.Float](c *Ctx, p conv2dPlan, x, out *ndarray.Array, pad T) error {
	xv, xt, err := packed[T](c, x)
	if err != nil {
		return err
	}
	defer c.Release(xt)
	ov := flat[T](out)
	iSz, cSz := p.d.iC*p.d.iH*p.d.iW, p.K*p.P
	for b := 0; b < p.d.bS; b++ {
		im2colNCHWPad(p, xv[b*iSz:(b+1)*iSz], ov[b*cSz:(b+1)*cSz], pad)
	}
	return nil
}

func col2imRun[T kernels.Float](c *Ctx, p conv2dPlan, col, out *ndarray.Array) error {
	cv, ct, err := packed[T](c, col)
	if err != nil {
		return err
	}
	defer c.Release(ct)
	ov := flat[T](out)
	clear(ov)
	iSz, cSz := p.d.iC*p.d.iH*p.d.iW, p.K*p.P
	for b := 0; b < p.d.bS; b++ {
		col2imNCHW(p, cv[b*cSz:(b+1)*cSz], ov[b*iSz:(b+1)*iSz], false)
	}
	return nil
}

func col2imDispatch(c *Ctx, op string, p conv2dPlan, col *ndarray.Array, shape []int) ([]*ndarray.Array, error) {
	out, err := c.TryAlloc(col.DType(), shape)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	switch col.DType() {
	case ndarray.Float32:
		err = col2imRun[float32](c, p, col, out)
	case ndarray.Float64:
		err = col2imRun[float64](c, p, col, out)
	default:
		err = fmt.Errorf("%s needs a float32 or float64 input, not %v", op, col.DType())
	}
	if err != nil {
		return nil, err
	}
	return []*ndarray.Array{out}, nil
}

// im2ColBpOp is im2col's gradient (libnd4j im2col_bp): inputs x, gradO
// [bS,iC,kH,kW,oH,oW] with im2col's args; the columns added back into an
// image of x's shape (SAME mode's padding computed as im2col computes it).
var im2ColBpOp = Register(bpDef("im2col_bp", 1, "gradient of im2col for inputs x, gradO; im2col's args",
	func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x, g := in[0], in[1]
		p, err := im2colPlan("im2col_bp", a, x.Shape())
		if err != nil {
			return nil, err
		}
		if !ndarray.SameShape(g.Shape(), colShape(p)) {
			return nil, fmt.Errorf("im2col_bp: gradient of shape %v, im2col's output has %v", g.Shape(), colShape(p))
		}
		return col2imDispatch(c, "im2col_bp", p, g, x.Shape())
	}))

// col2imPlan reads col2im's args (sH, sW, pH, pW, imgH, imgW, dH, dW) and
// the columns' shape [bS,iC,kH,kW,oH,oW].
func col2imPlan(op string, a *Args, col []int) (conv2dPlan, []int, error) {
	if len(a.I) < 8 {
		return conv2dPlan{}, nil, fmt.Errorf("%s needs int args sH, sW, pH, pW, imgH, imgW, dH, dW; got %d", op, len(a.I))
	}
	if len(col) != 6 {
		return conv2dPlan{}, nil, fmt.Errorf("%s: columns of shape %v must have rank 6 [bS, iC, kH, kW, oH, oW]", op, col)
	}
	i := a.I
	if i[4] <= 0 || i[5] <= 0 {
		return conv2dPlan{}, nil, fmt.Errorf("%s: image size %dx%d must be positive", op, i[4], i[5])
	}
	img := []int{col[0], col[1], int(i[4]), int(i[5])}
	if err := windowArgsFit(op, img[2:]); err != nil {
		return conv2dPlan{}, nil, err
	}
	a2 := &Args{I: []int64{int64(col[2]), int64(col[3]), i[0], i[1], i[2], i[3], i[6], i[7], 0, 0, 1}}
	p, err := newConv2dPlan(op, a2, img, []int{1, col[1], col[2], col[3]})
	if err != nil {
		return p, nil, err
	}
	if p.d.oH != col[4] || p.d.oW != col[5] {
		return p, nil, fmt.Errorf("%s: columns %v do not fit an image %dx%d with strides (%d,%d), paddings (%d,%d), dilations (%d,%d): %dx%d windows",
			op, col, i[4], i[5], i[0], i[1], i[2], i[3], i[6], i[7], p.d.oH, p.d.oW)
	}
	return p, img, nil
}

// col2ImOp is libnd4j's col2im: columns [bS,iC,kH,kW,oH,oW] added back
// into images [bS,iC,imgH,imgW]; int args sH, sW, pH, pW, imgH, imgW, dH,
// dW.
var col2ImOp = Register(&Def{
	Name: "col2im", Type: Custom, MinIn: 1, MaxIn: 1,
	Doc: "columns [bS,iC,kH,kW,oH,oW] summed back into images [bS,iC,imgH,imgW]; int args sH, sW, pH, pW, imgH, imgW, dH, dW",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		x := in[0]
		if err := needFloat("col2im", x); err != nil {
			return nil, err
		}
		if x.UnknownRank || !x.ShapeKnown() {
			if len(a.I) < 8 {
				return nil, fmt.Errorf("col2im needs int args sH, sW, pH, pW, imgH, imgW, dH, dW; got %d", len(a.I))
			}
			s := unknownShape(4)
			if !x.UnknownRank && len(x.Shape) == 6 {
				s[0], s[1] = x.Shape[0], x.Shape[1]
			}
			s[2], s[3] = int(a.I[4]), int(a.I[5])
			return infos(Info{DType: x.DType, Shape: s}), nil
		}
		_, img, err := col2imPlan("col2im", a, x.Shape)
		if err != nil {
			return nil, err
		}
		return infos(Info{DType: x.DType, Shape: img}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		p, img, err := col2imPlan("col2im", a, in[0].Shape())
		if err != nil {
			return nil, err
		}
		return col2imDispatch(c, "col2im", p, in[0], img)
	},
	Grad: bpOp("col2im_bp"),
})

// col2ImBpOp is col2im's gradient (sdgo's; libnd4j has none): inputs the
// columns and gradO; im2col of gradO with the columns' kernel and col2im's
// geometry.
var col2ImBpOp = Register(bpDef("col2im_bp", 1, "gradient of col2im for inputs columns, gradO; col2im's args",
	func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		col, g := in[0], in[1]
		p, img, err := col2imPlan("col2im_bp", a, col.Shape())
		if err != nil {
			return nil, err
		}
		if !ndarray.SameShape(g.Shape(), img) {
			return nil, fmt.Errorf("col2im_bp: gradient of shape %v, col2im's output has %v", g.Shape(), img)
		}
		out := c.Alloc(g.DType(), col.Shape())
		switch g.DType() {
		case ndarray.Float32:
			err = im2colRun[float32](c, p, g, out, 0)
		case ndarray.Float64:
			err = im2colRun[float64](c, p, g, out, 0)
		default:
			err = fmt.Errorf("col2im_bp needs float32 or float64 inputs, not %v", g.DType())
		}
		if err != nil {
			return nil, err
		}
		return []*ndarray.Array{out}, nil
	}))
