package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// Rearranging ops of SameDiff's CNN namespace: space_to_depth,
// depth_to_space and nearest-neighbour upsampling, as views of the input
// copied once into the output (any dtype; float32 stays float32).

// s2dArgs reads space_to_depth's and depth_to_space's int args: block
// size, and isNHWC (1 channels last; 0, the default, channels first).
func s2dArgs(op string, a *Args, x Info) (bs int, nhwc bool, err error) {
	if a == nil || len(a.I) < 1 {
		return 0, false, fmt.Errorf("%s needs int args blockSize [, isNHWC]", op)
	}
	bs = int(a.I[0])
	if bs < 1 || bs > 1<<20 {
		return 0, false, fmt.Errorf("%s: block size %d is not in 1..2^20", op, a.I[0])
	}
	switch f := a.Int(1, 0); f {
	case 0, 1:
		nhwc = f == 1
	default:
		return 0, false, fmt.Errorf("%s: data format %d is not 0 (NCHW) or 1 (NHWC)", op, f)
	}
	if !x.UnknownRank && len(x.Shape) != 4 {
		return 0, false, fmt.Errorf("%s: the input must have rank 4, not shape %v", op, x.Shape)
	}
	return bs, nhwc, nil
}

// s2dShape is the output shape of space_to_depth (toDepth) or
// depth_to_space, -1 where unknown; an error when the sizes do not divide.
func s2dShape(op string, x []int, bs int, nhwc, toDepth bool) ([]int, error) {
	b, c, h, w := x[0], x[1], x[2], x[3]
	if nhwc {
		h, w, c = x[1], x[2], x[3]
	}
	div := func(v, by int) int {
		if v < 0 {
			return -1
		}
		return v / by
	}
	mul := func(v, by int) int {
		if v < 0 {
			return -1
		}
		return v * by
	}
	if toDepth {
		if (h >= 0 && h%bs != 0) || (w >= 0 && w%bs != 0) {
			return nil, fmt.Errorf("%s: height and width of input %v are not multiples of the block size %d", op, x, bs)
		}
		h, w, c = div(h, bs), div(w, bs), mul(c, bs*bs)
	} else {
		if c >= 0 && c%(bs*bs) != 0 {
			return nil, fmt.Errorf("%s: the channels of input %v are not a multiple of the block size %d squared", op, x, bs)
		}
		h, w, c = mul(h, bs), mul(w, bs), div(c, bs*bs)
	}
	if nhwc {
		return []int{b, h, w, c}, nil
	}
	return []int{b, c, h, w}, nil
}

// s2dRun moves the blocks: the 6-D views of input and output, one
// permutation between them.
func s2dRun(c *Ctx, op string, x *ndarray.Array, a *Args, toDepth bool) ([]*ndarray.Array, error) {
	bs, nhwc, err := s2dArgs(op, a, Info{Shape: x.Shape()})
	if err != nil {
		return nil, err
	}
	shape, err := s2dShape(op, x.Shape(), bs, nhwc, toDepth)
	if err != nil {
		return nil, err
	}
	out, err := c.TryAlloc(x.DType(), shape)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	// Space side [b, h, bs, w, bs, C] (NHWC) or [b, C, h, bs, w, bs]
	// (NCHW); depth side [b, h, w, bs, bs, C] or [b, bs, bs, C, h, w].
	sp := x.Shape()
	if !toDepth {
		sp = shape
	}
	var space, depth []int
	var perm []int // depth axes from space axes
	if nhwc {
		b, h, w, ch := sp[0], sp[1]/bs, sp[2]/bs, sp[3]
		space = []int{b, h, bs, w, bs, ch}
		depth = []int{b, h, w, bs, bs, ch}
		perm = []int{0, 1, 3, 2, 4, 5}
	} else {
		b, ch, h, w := sp[0], sp[1], sp[2]/bs, sp[3]/bs
		space = []int{b, ch, h, bs, w, bs}
		depth = []int{b, bs, bs, ch, h, w}
		perm = []int{0, 3, 5, 1, 2, 4}
	}
	src, dst := space, depth
	if !toDepth {
		src, dst = depth, space
		inv := make([]int, 6)
		for i, p := range perm {
			inv[p] = i
		}
		perm = inv
	}
	xv, err := ndarray.Reshape(x, src...)
	if err == nil {
		xv, err = ndarray.Permute(xv, perm...)
	}
	var ov *ndarray.Array
	if err == nil {
		ov, err = ndarray.Reshape(out, dst...)
	}
	if err == nil {
		err = ndarray.CopyInto(ov, xv)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	return []*ndarray.Array{out}, nil
}

func s2dInfer(op string, toDepth bool) func(in []Info, a *Args) ([]Info, error) {
	return func(in []Info, a *Args) ([]Info, error) {
		bs, nhwc, err := s2dArgs(op, a, in[0])
		if err != nil {
			return nil, err
		}
		if in[0].UnknownRank {
			return infos(Info{DType: in[0].DType, Shape: unknownShape(4)}), nil
		}
		s, err := s2dShape(op, in[0].Shape, bs, nhwc, toDepth)
		if err != nil {
			return nil, err
		}
		return infos(Info{DType: in[0].DType, Shape: s}), nil
	}
}

// spaceToDepthOp is libnd4j's space_to_depth: each blockSize x blockSize
// block of the image becomes blockSize² times the channels, the block's
// row and column before the channel (TensorFlow's order). Int args
// blockSize, isNHWC.
var spaceToDepthOp = Register(&Def{
	Name: "space_to_depth", Type: Custom, MinIn: 1, MaxIn: 1,
	Doc:   "moves blockSize x blockSize spatial blocks into the channels; int args blockSize, isNHWC",
	Infer: s2dInfer("space_to_depth", true),
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		return s2dRun(c, "space_to_depth", in[0], a, true)
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		return b.Op("depth_to_space", n.Args.Clone(), d[0])
	},
})

// depthToSpaceOp is libnd4j's depth_to_space, space_to_depth's inverse.
// Int args blockSize, isNHWC.
var depthToSpaceOp = Register(&Def{
	Name: "depth_to_space", Type: Custom, MinIn: 1, MaxIn: 1,
	Doc:   "moves channels into blockSize x blockSize spatial blocks; int args blockSize, isNHWC",
	Infer: s2dInfer("depth_to_space", false),
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		return s2dRun(c, "depth_to_space", in[0], a, false)
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		return b.Op("space_to_depth", n.Args.Clone(), d[0])
	},
})

// ---------------------------------------------------------------- upsampling

// upArgs reads upsampling's int args: nd factors, then isNCHW (libnd4j's
// code reads 1 as channels first; 0, the default, as channels last).
func upArgs(op string, nd int, a *Args, x Info) (f []int, ncw bool, err error) {
	if a == nil || len(a.I) < nd {
		return nil, false, fmt.Errorf("%s needs %d int args (the factors) and isNCHW", op, nd)
	}
	for _, v := range a.I[:nd] {
		if v < 1 || v > 1<<20 {
			return nil, false, fmt.Errorf("%s: factors %v must be in 1..2^20", op, a.I[:nd])
		}
		f = append(f, int(v))
	}
	ncw = a.Int(nd, 0) == 1
	if !x.UnknownRank && len(x.Shape) != nd+2 {
		return nil, false, fmt.Errorf("%s: the input must have rank %d, not shape %v", op, nd+2, x.Shape)
	}
	return f, ncw, nil
}

// upSpatial returns the first spatial axis.
func upSpatial(ncw bool) int {
	if ncw {
		return 2
	}
	return 1
}

func upShape(x []int, f []int, ncw bool) []int {
	s := append([]int(nil), x...)
	for j, v := range f {
		if i := upSpatial(ncw) + j; s[i] >= 0 {
			s[i] *= v
		}
	}
	return s
}

// upViews returns the input's shape with a unit axis after each spatial
// one, and the output's with the factor there.
func upViews(x []int, f []int, ncw bool) (small, big []int) {
	first := upSpatial(ncw)
	for i, v := range x {
		small, big = append(small, v), append(big, v)
		if j := i - first; j >= 0 && j < len(f) {
			small, big = append(small, 1), append(big, f[j])
		}
	}
	return small, big
}

func upDef(name string, nd int, doc string) *Def {
	return &Def{
		Name: name, Type: Custom, MinIn: 1, MaxIn: 1, Doc: doc,
		Infer: func(in []Info, a *Args) ([]Info, error) {
			if err := needFloat(name, in[0]); err != nil {
				return nil, err
			}
			f, ncw, err := upArgs(name, nd, a, in[0])
			if err != nil {
				return nil, err
			}
			if in[0].UnknownRank {
				return infos(Info{DType: in[0].DType, Shape: unknownShape(nd + 2)}), nil
			}
			return infos(Info{DType: in[0].DType, Shape: upShape(in[0].Shape, f, ncw)}), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			x := in[0]
			f, ncw, err := upArgs(name, nd, a, Info{Shape: x.Shape()})
			if err != nil {
				return nil, err
			}
			out, err := c.TryAlloc(x.DType(), upShape(x.Shape(), f, ncw))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			small, big := upViews(x.Shape(), f, ncw)
			xv, err := ndarray.Reshape(x, small...)
			if err == nil {
				xv, err = ndarray.BroadcastTo(xv, big...)
			}
			var ov *ndarray.Array
			if err == nil {
				ov, err = ndarray.Reshape(out, big...)
			}
			if err == nil {
				err = ndarray.CopyInto(ov, xv)
			}
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			return []*ndarray.Array{out}, nil
		},
		Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
			return b.Op(name+"_bp", Args{I: []int64{n.Args.Int(nd, 0)}}, n.In[0], d[0])
		},
	}
}

// upBpDef is upsampling's gradient: inputs x, gradO; int arg 0 isNCHW (the
// factors are the sizes' ratios). Each input cell gets the sum of the
// gradients of its copies.
func upBpDef(name string, nd int, doc string) *Def {
	return bpDef(name, 1, doc, func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x, g := in[0], in[1]
		ncw := a.Int(0, 0) == 1
		xs, gs := x.Shape(), g.Shape()
		if len(xs) != nd+2 || len(gs) != nd+2 {
			return nil, fmt.Errorf("%s: input %v and gradient %v must have rank %d", name, xs, gs, nd+2)
		}
		f := make([]int, nd)
		for j := range f {
			i := upSpatial(ncw) + j
			if xs[i] == 0 || gs[i]%xs[i] != 0 {
				return nil, fmt.Errorf("%s: gradient %v is not a whole upsampling of input %v", name, gs, xs)
			}
			f[j] = gs[i] / xs[i]
		}
		if !ndarray.SameShape(upShape(xs, f, ncw), gs) {
			return nil, fmt.Errorf("%s: gradient %v is not an upsampling of input %v", name, gs, xs)
		}
		dx, err := c.TryAlloc(x.DType(), xs)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		_, big := upViews(xs, f, ncw)
		axes := make([]int, nd)
		for j := range axes {
			axes[j] = upSpatial(ncw) + 2*j + 1
		}
		gv, err := ndarray.Reshape(g, big...)
		if err == nil {
			err = ndarray.ReduceInto(ndarray.Sum, dx, gv, axes)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return []*ndarray.Array{dx}, nil
	})
}

// upsampling2DOp is libnd4j's upsampling2d: nearest-neighbour repetition;
// int args factorH, factorW, isNCHW (1 NCHW; 0, the default, NHWC).
var upsampling2DOp = Register(upDef("upsampling2d", 2, "nearest-neighbour 2-D upsampling; int args factorH, factorW, isNCHW (1 NCHW, 0 NHWC the default)"))

// upsampling2DBpOp is upsampling2d's gradient; int arg 0 isNCHW.
var upsampling2DBpOp = Register(upBpDef("upsampling2d_bp", 2, "gradient of upsampling2d for inputs x, gradO; int arg isNCHW"))

// upsampling3DOp is libnd4j's upsampling3d; int args factorD, factorH,
// factorW, isNCDHW (1 NCDHW; 0, the default, NDHWC).
var upsampling3DOp = Register(upDef("upsampling3d", 3, "nearest-neighbour 3-D upsampling; int args factorD, factorH, factorW, isNCDHW (1 NCDHW, 0 NDHWC the default)"))

// upsampling3DBpOp is upsampling3d's gradient; int arg 0 isNCDHW.
var upsampling3DBpOp = Register(upBpDef("upsampling3d_bp", 3, "gradient of upsampling3d for inputs x, gradO; int arg isNCDHW"))
