package ops

import (
	"fmt"
	"math"

	"github.com/sdgo/sdgo/ndarray"
)

// dilation2d (SameDiff's SDCNN dilation2D): the grayscale morphological
// dilation of an NHWC batch x by a [kH, kW, C] structuring function w,
// TensorFlow's definition:
//
//	y[b, i, j, c] = max_{h, w} x[b, i·sH − pH + h·rH, j·sW − pW + w·rW, c] + w[h, w, c]
//
// over the window's cells inside the image (libnd4j's and TensorFlow's
// CPU code skip the padding; a window with no cell inside gives the
// lowest finite value). Layout, as libnd4j's: inputs x, w, and either int
// args isSameMode, rates[4], strides[4] (rates and strides as TensorFlow's
// [1, rH, rW, 1] and [1, sH, sW, 1]) or int arg isSameMode with inputs 2
// and 3 the rates and strides arrays. SAME pads as TensorFlow does.
//
// The gradient goes through each maximum's position (the first of equal
// maxima, rows then columns): the output gradient is added to the x cell
// and the w cell that gave it, as TensorFlow's Dilation2DBackpropInput
// and Dilation2DBackpropFilter do. libnd4j has no backprop op for
// dilation2d; sdgo's own dilation2d_bp computes both.

// dilCfg is dilation2d's geometry for one input shape.
type dilCfg struct {
	same       bool
	r, s       [2]int // rates, strides
	in, k, out [2]int
	pad        [2]int
	b, c       int
}

// dilArgs reads isSameMode and the rates and strides (from the int args,
// or from inputs 2 and 3 given by vals; nil vals when those are not known
// yet, and ok false).
func dilArgs(op string, a *Args, nIn int, vals func(i int) ([]int, bool, error)) (d dilCfg, ok bool, err error) {
	if a == nil || len(a.I) < 1 {
		return d, false, fmt.Errorf("%s needs int arg 0, isSameMode", op)
	}
	switch a.I[0] {
	case 0, 1:
		d.same = a.I[0] == 1
	default:
		return d, false, fmt.Errorf("%s: padding mode %d is not 0 (VALID) or 1 (SAME)", op, a.I[0])
	}
	var rates, strides []int
	switch {
	case nIn >= 4:
		var ok1, ok2 bool
		if rates, ok1, err = vals(2); err != nil {
			return d, false, err
		}
		if strides, ok2, err = vals(3); err != nil {
			return d, false, err
		}
		if !ok1 || !ok2 {
			return d, false, nil
		}
	case nIn == 3:
		return d, false, fmt.Errorf("%s: 3 inputs; give the rates and the strides both as inputs 2 and 3, or both as int args", op)
	case len(a.I) >= 9:
		rates, strides = intsOf(a.I[1:5]), intsOf(a.I[5:9])
	default:
		return d, false, fmt.Errorf("%s needs int args isSameMode, rates[4], strides[4] (or the rates and strides as inputs 2 and 3); got %d int args", op, len(a.I))
	}
	if len(rates) != 4 || len(strides) != 4 {
		return d, false, fmt.Errorf("%s: rates %v and strides %v must have 4 values each ([1, h, w, 1])", op, rates, strides)
	}
	for j := 0; j < 2; j++ {
		d.r[j], d.s[j] = rates[1+j], strides[1+j]
	}
	if d.r[0] < 1 || d.r[1] < 1 || d.s[0] < 1 || d.s[1] < 1 {
		return d, false, fmt.Errorf("%s: rates %v and strides %v must be positive", op, rates, strides)
	}
	if err := windowArgsFit(op, []int{d.r[0], d.r[1], d.s[0], d.s[1]}); err != nil {
		return d, false, err
	}
	return d, true, nil
}

// shape fills the sizes from x's and w's shapes (-1 where unknown) and
// returns the output shape, or an error naming the shapes when they do not
// fit.
func (d *dilCfg) shape(op string, x, w []int) ([]int, error) {
	if len(x) != 4 || len(w) != 3 {
		return nil, fmt.Errorf("%s: x must have rank 4 (NHWC) and w rank 3 ([kH kW C]), not shapes %v and %v", op, x, w)
	}
	if x[3] >= 0 && w[2] >= 0 && x[3] != w[2] {
		return nil, fmt.Errorf("%s: x %v has %d channels, w %v %d", op, x, x[3], w, w[2])
	}
	d.b, d.c = x[0], x[3]
	out := []int{x[0], -1, -1, x[3]}
	if out[3] < 0 {
		out[3] = w[2]
	}
	for j := 0; j < 2; j++ {
		d.in[j], d.k[j] = x[1+j], w[j]
		if d.k[j] >= 0 && !dilatedFits(d.k[j], d.r[j]) {
			return nil, fmt.Errorf("%s: kernel %v with rates %v is too large", op, w[:2], d.r)
		}
		if d.in[j] < 0 || d.k[j] < 0 {
			continue
		}
		if d.k[j] == 0 {
			return nil, fmt.Errorf("%s: w %v has an empty window", op, w)
		}
		d.out[j], d.pad[j] = outSize(d.in[j], d.k[j], d.s[j], 0, d.r[j], d.same)
		if d.out[j] < 1 {
			return nil, fmt.Errorf("%s: w %v with rates %v spans %dx%d cells, more than x %v holds (VALID padding)",
				op, w, d.r, (w[0]-1)*d.r[0]+1, (w[1]-1)*d.r[1]+1, x)
		}
		out[1+j] = d.out[j]
	}
	return out, nil
}

// argmax returns, for output pixel (b, i, j) and channel c, the offsets in
// x and w of the window cell with the largest x + w, or -1, -1.
func dilArgmax[T ndarray.Float](x, w []T, d *dilCfg, b, i, j, c int) (xo, wo int) {
	xo, wo = -1, -1
	var best T
	for h := 0; h < d.k[0]; h++ {
		r := i*d.s[0] - d.pad[0] + h*d.r[0]
		if r < 0 || r >= d.in[0] {
			continue
		}
		for v := 0; v < d.k[1]; v++ {
			col := j*d.s[1] - d.pad[1] + v*d.r[1]
			if col < 0 || col >= d.in[1] {
				continue
			}
			xi := ((b*d.in[0]+r)*d.in[1]+col)*d.c + c
			wi := (h*d.k[1]+v)*d.c + c
			if s := x[xi] + w[wi]; xo < 0 || s > best {
				best, xo, wo = s, xi, wi
			}
		}
	}
	return xo, wo
}

// dilEach calls f for every output element, in C order, with its argmax.
func dilEach[T ndarray.Float](x, w []T, d *dilCfg, f func(yo, xo, wo int)) {
	yo := 0
	for b := 0; b < d.b; b++ {
		for i := 0; i < d.out[0]; i++ {
			for j := 0; j < d.out[1]; j++ {
				for c := 0; c < d.c; c++ {
					xo, wo := dilArgmax(x, w, d, b, i, j, c)
					f(yo, xo, wo)
					yo++
				}
			}
		}
	}
}

func dilForward[T ndarray.Float](x, w, y []T, d *dilCfg, lowest T) {
	dilEach(x, w, d, func(yo, xo, wo int) {
		if xo < 0 {
			y[yo] = lowest
			return
		}
		y[yo] = x[xo] + w[wo]
	})
}

func dilBackward[T ndarray.Float](x, w, g, dx, dw []T, d *dilCfg) {
	clear(dx)
	clear(dw)
	dilEach(x, w, d, func(yo, xo, wo int) {
		if xo >= 0 {
			dx[xo] += g[yo]
			dw[wo] += g[yo]
		}
	})
}

// dilSetup reads the arguments of a run: the geometry and output shape.
func dilSetup(op string, in []*ndarray.Array, a *Args) (dilCfg, []int, error) {
	d, _, err := dilArgs(op, a, len(in), func(i int) ([]int, bool, error) {
		v, err := arrayInts(op+": input "+fmt.Sprint(i), in[i])
		return v, err == nil, err
	})
	if err != nil {
		return d, nil, err
	}
	shape, err := d.shape(op, in[0].Shape(), in[1].Shape())
	return d, shape, err
}

// dilRun runs dilation2d on its inputs in, or with g its backprop.
func dilRun[T ndarray.Float](c *Ctx, op string, in []*ndarray.Array, g *ndarray.Array, a *Args) ([]*ndarray.Array, error) {
	d, shape, err := dilSetup(op, in, a)
	if err != nil {
		return nil, err
	}
	x, w := in[0], in[1]
	xv, err := packedValues[T](x)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	wv, err := packedValues[T](w)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	if g == nil {
		out, err := c.TryAlloc(x.DType(), shape)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		lowest := -math.MaxFloat32
		if x.DType() == ndarray.Float64 {
			lowest = -math.MaxFloat64
		}
		dilForward(xv, wv, ndarray.Raw[T](out)[out.Offset():out.Offset()+out.Size()], &d, T(lowest))
		return []*ndarray.Array{out}, nil
	}
	if !ndarray.SameShape(g.Shape(), shape) {
		return nil, fmt.Errorf("%s: gradient of shape %v for the output %v of x %v and w %v", op, g.Shape(), shape, x.Shape(), w.Shape())
	}
	gv, err := packedValues[T](g)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	dx, err := c.TryAlloc(x.DType(), x.Shape())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	dw, err := c.TryAlloc(x.DType(), w.Shape())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	dilBackward(xv, wv, gv, ndarray.Raw[T](dx)[dx.Offset():dx.Offset()+dx.Size()], ndarray.Raw[T](dw)[dw.Offset():dw.Offset()+dw.Size()], &d)
	return []*ndarray.Array{dx, dw}, nil
}

// dilRunAny dispatches on the dtype.
func dilRunAny(c *Ctx, op string, in []*ndarray.Array, g *ndarray.Array, a *Args) ([]*ndarray.Array, error) {
	data := []Info{{DType: in[0].DType()}, {DType: in[1].DType()}}
	if g != nil {
		data = append(data, Info{DType: g.DType()})
	}
	if err := needSameFloat(op, data); err != nil {
		return nil, err
	}
	if in[0].DType() == ndarray.Float32 {
		return dilRun[float32](c, op, in, g, a)
	}
	return dilRun[float64](c, op, in, g, a)
}

// dilInfer checks dilation2d's inputs in (x, w and the rates and strides
// arrays) and returns the output shape, -1 where unknown.
func dilInfer(op string, in []Info, a *Args) ([]int, error) {
	x, w := in[0], in[1]
	if err := needSameFloat(op, in[:2]); err != nil {
		return nil, err
	}
	for i, what := range []string{"rates", "strides"} {
		if len(in) > 2+i && !in[2+i].DType.IsInt() {
			return nil, fmt.Errorf("%s: input %d (the %s) must be an integer array, not %v", op, 2+i, what, in[2+i].DType)
		}
	}
	d, ok, err := dilArgs(op, a, len(in), func(i int) ([]int, bool, error) {
		v, ok := constInts(in[i])
		return v, ok, nil
	})
	if err != nil {
		return nil, err
	}
	if x.UnknownRank || w.UnknownRank {
		return unknownShape(4), nil
	}
	if !ok {
		// Rates and strides known at run time: only the batch and channels.
		if len(x.Shape) != 4 || len(w.Shape) != 3 {
			return nil, fmt.Errorf("%s: x must have rank 4 (NHWC) and w rank 3 ([kH kW C]), not shapes %v and %v", op, x.Shape, w.Shape)
		}
		return []int{x.Shape[0], -1, -1, x.Shape[3]}, nil
	}
	return d.shape(op, x.Shape, w.Shape)
}

// dilation2DOp is libnd4j's dilation2d: the max over each (dilated)
// window of x + w, per channel. Inputs x [B,H,W,C], w [kH,kW,C] (and the
// rates and strides arrays); int args isSameMode, rates[4], strides[4].
var dilation2DOp = Register(&Def{
	Name: "dilation2d", Type: Custom, MinIn: 2, MaxIn: 4, NonDiff: []int{2, 3},
	Doc: "max over each window of x + w (NHWC x, [kH,kW,C] w); int args isSameMode, rates[4], strides[4], or inputs 2, 3 the rates and strides",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		s, err := dilInfer("dilation2d", in, a)
		if err != nil {
			return nil, err
		}
		return infos(Info{DType: in[0].DType, Shape: s}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		return dilRunAny(c, "dilation2d", in, nil, a)
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		in := append(append([]Value(nil), n.In...), d[0])
		out := b.Op("dilation2d_bp", n.Args.Clone(), in...)
		return append(out, make([]Value, len(n.In)-2)...)
	},
})

// dilation2DBpOp is dilation2d's gradient (sdgo's own op): inputs x, w
// (the rates and strides when the forward op had them), gradO; outputs the
// gradients of x and w, the output gradient added at each maximum's cells.
// Int args as dilation2d's.
var dilation2DBpOp = Register(&Def{
	Name: "dilation2d_bp", Type: Custom, MinIn: 3, MaxIn: 5,
	Doc: "gradient of dilation2d for inputs x, w, [rates, strides,] gradO: gradO added at each maximum's x and w cells; int args as dilation2d's",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		const op = "dilation2d_bp"
		g := in[len(in)-1]
		s, err := dilInfer(op, in[:len(in)-1], a)
		if err != nil {
			return nil, err
		}
		if g.DType != in[0].DType {
			return nil, fmt.Errorf("%s: the gradient is %v, x %v", op, g.DType, in[0].DType)
		}
		if !g.UnknownRank && !(Info{Shape: s}).Admits(g.Shape) {
			return nil, fmt.Errorf("%s: gradient of shape %v for the output %v", op, g.Shape, s)
		}
		return infos(same(in[0]), same(in[1])), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		return dilRunAny(c, "dilation2d_bp", in[:len(in)-1], in[len(in)-1], a)
	},
})
