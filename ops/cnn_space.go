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

// ------------------------------------------------- space_to_batch, batch_to_space

// s2bArgs reads space_to_batch's and batch_to_space's arguments: int arg 0
// the block size, input 1 the [2, 2] paddings or crops ((top, bottom),
// (left, right)). libnd4j asks for a block size of at least 2; sdgo also
// takes 1 (the identity with the padding or crop).
func s2bArgs(op, what string, a *Args, x, p Info) (bs int, err error) {
	if a == nil || len(a.I) < 1 {
		return 0, fmt.Errorf("%s needs int arg 0, the block size", op)
	}
	if v := a.I[0]; v < 1 || v > 1<<20 {
		return 0, fmt.Errorf("%s: block size %d is not in 1..2^20", op, v)
	}
	if !x.UnknownRank && len(x.Shape) != 4 {
		return 0, fmt.Errorf("%s: the input must have rank 4 (NHWC), not shape %v", op, x.Shape)
	}
	if !p.DType.IsInt() {
		return 0, fmt.Errorf("%s: the %s must be an integer array, not %v", op, what, p.DType)
	}
	if !p.UnknownRank && (len(p.Shape) != 2 || (p.Shape[0] >= 0 && p.Shape[0] != 2) || (p.Shape[1] >= 0 && p.Shape[1] != 2)) {
		return 0, fmt.Errorf("%s: the %s have shape %v, want [2 2]", op, what, p.Shape)
	}
	return int(a.I[0]), nil
}

// s2bEdges checks the four paddings or crops (top, bottom, left, right):
// none negative, none beyond any array's size.
func s2bEdges(op, what string, v []int) error {
	if len(v) != 4 {
		return fmt.Errorf("%s: %d %s, want 4 ([2 2])", op, len(v), what)
	}
	for _, e := range v {
		if e < 0 || e > ndarray.MaxBytes {
			return fmt.Errorf("%s: %s %v must be in 0..%d", op, what, v, ndarray.MaxBytes)
		}
	}
	return nil
}

// s2bShape is space_to_batch's output shape (toBatch) or batch_to_space's
// from input x, edges e (paddings or crops) and block size bs; -1 where
// unknown, an error naming the shapes where the sizes do not fit.
func s2bShape(op string, x, e []int, bs int, toBatch bool) ([]int, error) {
	out := append([]int(nil), x...)
	if toBatch {
		if out[0] >= 0 {
			out[0] *= bs * bs
		}
	} else if out[0] >= 0 {
		if out[0]%(bs*bs) != 0 {
			return nil, fmt.Errorf("%s: the batch of input %v is not a multiple of the block size %d squared", op, x, bs)
		}
		out[0] /= bs * bs
	}
	for j := 1; j <= 2; j++ {
		if out[j] < 0 || e == nil {
			out[j] = -1
			continue
		}
		lo, hi := e[2*(j-1)], e[2*(j-1)+1]
		if toBatch {
			padded := out[j] + lo + hi
			if padded%bs != 0 {
				return nil, fmt.Errorf("%s: input %v padded by %v: size %d of axis %d is not a multiple of the block size %d", op, x, e, padded, j, bs)
			}
			out[j] = padded / bs
		} else {
			full := out[j] * bs
			if lo+hi > full {
				return nil, fmt.Errorf("%s: crops %v are larger than input %v's axis %d times the block size %d (%d)", op, e, x, j, bs, full)
			}
			out[j] = full - lo - hi
		}
	}
	return out, nil
}

func s2bInfer(op, what string, toBatch bool) func(in []Info, a *Args) ([]Info, error) {
	return func(in []Info, a *Args) ([]Info, error) {
		bs, err := s2bArgs(op, what, a, in[0], in[1])
		if err != nil {
			return nil, err
		}
		if in[0].UnknownRank {
			return infos(Info{DType: in[0].DType, Shape: unknownShape(4)}), nil
		}
		e, ok := constInts(in[1])
		if ok {
			if err := s2bEdges(op, what, e); err != nil {
				return nil, err
			}
		} else {
			e = nil
		}
		s, err := s2bShape(op, in[0].Shape, e, bs, toBatch)
		if err != nil {
			return nil, err
		}
		return infos(Info{DType: in[0].DType, Shape: s}), nil
	}
}

// subView is the view of a at begin with the given sizes (no copy).
func subView(a *ndarray.Array, begin, size []int) (*ndarray.Array, error) {
	l := a.Layout()
	off := l.Offset
	for i, b := range begin {
		off += b * l.Strides[i]
	}
	return a.WithLayout(ndarray.Layout{Shape: size, Strides: l.Strides, Offset: off})
}

// s2bRun moves the blocks. The space side, padded (space_to_batch) or
// uncropped (batch_to_space), is [B, h, bs, w, bs, C] in 6-D; the batch
// side [bs, bs, B, h, w, C]: batch index (row offset·bs + column
// offset)·B + b, TensorFlow's order.
func s2bRun(c *Ctx, op, what string, in []*ndarray.Array, a *Args, toBatch bool) ([]*ndarray.Array, error) {
	x := in[0]
	bs, err := s2bArgs(op, what, a, Info{DType: x.DType(), Shape: x.Shape()}, Info{DType: in[1].DType(), Shape: in[1].Shape()})
	if err != nil {
		return nil, err
	}
	e, err := arrayInts(op+": the "+what, in[1])
	if err != nil {
		return nil, err
	}
	if err := s2bEdges(op, what, e); err != nil {
		return nil, err
	}
	shape, err := s2bShape(op, x.Shape(), e, bs, toBatch)
	if err != nil {
		return nil, err
	}
	out, err := c.TryAlloc(x.DType(), shape)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	space, batch := x, out
	if !toBatch {
		space, batch = out, x
	}
	sp := space.Shape()
	edges := e[0]+e[1]+e[2]+e[3] != 0
	full := []int{sp[0], sp[1] + e[0] + e[1], sp[2] + e[2] + e[3], sp[3]}
	// full is the padded or uncropped image.
	var fullArr *ndarray.Array
	switch {
	case !edges:
		fullArr = space
	case toBatch:
		fullArr, err = ndarray.Pad(x, []int{0, e[0], e[2], 0}, []int{0, e[1], e[3], 0}, 0)
	default:
		fullArr, err = c.TryAlloc(x.DType(), full)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	h, w := full[1]/bs, full[2]/bs
	fv, err := ndarray.Reshape(fullArr, full[0], h, bs, w, bs, full[3])
	var bv *ndarray.Array
	if err == nil {
		bv, err = ndarray.Reshape(batch, bs, bs, full[0], h, w, full[3])
	}
	if err == nil {
		if toBatch {
			// batch[i, j, b, y, x, c] = full[b, y, i, x, j, c]
			var pv *ndarray.Array
			if pv, err = ndarray.Permute(fv, 2, 4, 0, 1, 3, 5); err == nil {
				err = ndarray.CopyInto(bv, pv)
			}
		} else {
			var pv *ndarray.Array
			if pv, err = ndarray.Permute(bv, 2, 3, 0, 4, 1, 5); err == nil {
				err = ndarray.CopyInto(fv, pv)
			}
			if err == nil && edges {
				var crop *ndarray.Array
				if crop, err = subView(fullArr, []int{0, e[0], e[2], 0}, shape); err == nil {
					err = ndarray.CopyInto(out, crop)
				}
				c.Release(fullArr)
			}
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	return []*ndarray.Array{out}, nil
}

// spaceToBatchOp is libnd4j's space_to_batch: the NHWC image, padded with
// zeros by input 1 ([[top, bottom], [left, right]], integers), cut into
// blockSize x blockSize blocks whose cells go to blockSize² batches (block
// row and column before the sample). Int arg 0 blockSize.
var spaceToBatchOp = Register(&Def{
	Name: "space_to_batch", Type: Custom, MinIn: 2, MaxIn: 2, NonDiff: []int{1},
	Doc:   "pads an NHWC image by input 1 ([2,2]) and moves blockSize x blockSize blocks into the batch; int arg blockSize",
	Infer: s2bInfer("space_to_batch", "paddings", true),
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		return s2bRun(c, "space_to_batch", "paddings", in, a, true)
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		return []Value{op1(b, "batch_to_space", n.Args.Clone(), d[0], n.In[1]), nil}
	},
})

// batchToSpaceOp is libnd4j's batch_to_space, space_to_batch's inverse:
// blockSize² batches interleaved into blocks of the image, then cropped by
// input 1 ([[top, bottom], [left, right]], integers). Int arg 0 blockSize.
var batchToSpaceOp = Register(&Def{
	Name: "batch_to_space", Type: Custom, MinIn: 2, MaxIn: 2, NonDiff: []int{1},
	Doc:   "moves blockSize² batches into blockSize x blockSize blocks of an NHWC image, cropped by input 1 ([2,2]); int arg blockSize",
	Infer: s2bInfer("batch_to_space", "crops", false),
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		return s2bRun(c, "batch_to_space", "crops", in, a, false)
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		return []Value{op1(b, "space_to_batch", n.Args.Clone(), d[0], n.In[1]), nil}
	},
})
