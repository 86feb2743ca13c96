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

// The space/batch rearrangements in M spatial dimensions (space_to_batch,
// batch_to_space: M = 2 of an NHWC image, one block size; the _nd forms:
// blocks and M from input 1). The space side, padded (to batch) or before
// its crop (to space), is [B, o1, b1, ..., oM, bM, rest] split by the
// blocks; the batch side [b1, ..., bM, B, o1, ..., oM, rest]: batch index
// ((i1·b2 + i2)·... + iM)·B + b, TensorFlow's order, as libnd4j's
// helpers/cpu/s_t_b.cpp has it.

// s2bEdges checks the 2M paddings or crops ((before, after) per spatial
// axis): none negative, none beyond any array's size.
func s2bEdges(op, what string, v []int, m int) error {
	if len(v) != 2*m {
		return fmt.Errorf("%s: %d %s, want %d ([%d 2])", op, len(v), what, 2*m, m)
	}
	for _, e := range v {
		if e < 0 || e > ndarray.MaxBytes {
			return fmt.Errorf("%s: %s %v must be in 0..%d", op, what, v, ndarray.MaxBytes)
		}
	}
	return nil
}

// s2bBlocks checks the block sizes.
func s2bBlocks(op string, b []int) error {
	p := 1
	for _, v := range b {
		if v < 1 || v > 1<<20 {
			return fmt.Errorf("%s: block sizes %v must be in 1..2^20", op, b)
		}
		if p *= v; p > 1<<20 {
			return fmt.Errorf("%s: block sizes %v: their product is more than 2^20", op, b)
		}
	}
	return nil
}

// s2bShape is the output shape (space to batch when toBatch) of input x,
// blocks b and edges e (paddings or crops, nil when unknown); -1 where
// unknown, an error naming the shapes where the sizes do not fit.
func s2bShape(op string, x, b, e []int, toBatch bool) ([]int, error) {
	m := len(b)
	if len(x) < m+1 {
		return nil, fmt.Errorf("%s: input %v has no room for %d spatial axes after the batch", op, x, m)
	}
	prod := 1
	for _, v := range b {
		prod *= v
	}
	out := append([]int(nil), x...)
	if out[0] >= 0 {
		if toBatch {
			out[0] *= prod
		} else if out[0]%prod != 0 {
			return nil, fmt.Errorf("%s: the batch of input %v is not a multiple of the blocks' product %d (blocks %v)", op, x, prod, b)
		} else {
			out[0] /= prod
		}
	}
	for j := 1; j <= m; j++ {
		if out[j] < 0 || e == nil {
			out[j] = -1
			continue
		}
		lo, hi, bs := e[2*(j-1)], e[2*(j-1)+1], b[j-1]
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

// s2bMove fills out from x: space to batch when toBatch, else back.
func s2bMove(c *Ctx, op string, x, out *ndarray.Array, b, e []int, toBatch bool) error {
	m := len(b)
	space, batch := x, out
	if !toBatch {
		space, batch = out, x
	}
	sp := space.Shape()
	rest := 1
	for _, v := range sp[1+m:] {
		rest *= v
	}
	edges := false
	full := []int{sp[0]}
	before, after := make([]int, len(sp)), make([]int, len(sp))
	for j := 1; j <= m; j++ {
		before[j], after[j] = e[2*(j-1)], e[2*(j-1)+1]
		edges = edges || before[j]+after[j] != 0
		full = append(full, sp[j]+before[j]+after[j])
	}
	full = append(full, sp[1+m:]...)
	// fullArr is the padded or uncropped space side.
	var fullArr *ndarray.Array
	var err error
	switch {
	case !edges:
		fullArr = space
	case toBatch:
		fullArr, err = ndarray.Pad(x, before, after, 0)
	default:
		fullArr, err = c.TryAlloc(x.DType(), full)
	}
	if err != nil {
		return err
	}
	// The split space side [B, o1, b1, ..., oM, bM, rest], the batch side
	// [b1, ..., bM, B, o1, ..., oM, rest], and for each batch axis the
	// space axis it is.
	split := []int{full[0]}
	bsh := append(append([]int(nil), b...), full[0])
	perm := make([]int, 2*m+2)
	perm[m] = 0
	for k := 0; k < m; k++ {
		o := full[1+k] / b[k]
		split = append(split, o, b[k])
		bsh = append(bsh, o)
		perm[k], perm[m+1+k] = 2+2*k, 1+2*k
	}
	split = append(split, rest)
	bsh = append(bsh, rest)
	perm[2*m+1] = 2*m + 1
	fv, err := ndarray.Reshape(fullArr, split...)
	if err != nil {
		return err
	}
	bv, err := ndarray.Reshape(batch, bsh...)
	if err != nil {
		return err
	}
	if toBatch {
		pv, err := ndarray.Permute(fv, perm...)
		if err != nil {
			return err
		}
		return ndarray.CopyInto(bv, pv)
	}
	inv := make([]int, len(perm))
	for i, p := range perm {
		inv[p] = i
	}
	pv, err := ndarray.Permute(bv, inv...)
	if err == nil {
		err = ndarray.CopyInto(fv, pv)
	}
	if err == nil && edges {
		var crop *ndarray.Array
		if crop, err = subView(fullArr, before, out.Shape()); err == nil {
			err = ndarray.CopyInto(out, crop)
		}
		c.Release(fullArr)
	}
	return err
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

// s2bEdgesInfo checks the edges input's dtype and shape for m spatial axes.
func s2bEdgesInfo(op, what string, p Info, m int) error {
	if !p.DType.IsInt() {
		return fmt.Errorf("%s: the %s must be an integer array, not %v", op, what, p.DType)
	}
	if !p.UnknownRank && (len(p.Shape) != 2 || (p.Shape[0] >= 0 && m >= 0 && p.Shape[0] != m) || (p.Shape[1] >= 0 && p.Shape[1] != 2)) {
		want := "[M 2]"
		if m >= 0 {
			want = fmt.Sprintf("[%d 2]", m)
		}
		return fmt.Errorf("%s: the %s have shape %v, want %s", op, what, p.Shape, want)
	}
	return nil
}

// s2bDef defines space_to_batch or batch_to_space (nd false: NHWC, int
// arg 0 the block size, input 1 the [2, 2] edges) or their _nd forms
// (input 1 the blocks, input 2 the [M, 2] edges).
func s2bDef(name, what, inverse string, nd, toBatch bool, doc string) *Def {
	// blocks returns the block sizes (nil, nil when not known yet).
	blocks := func(a *Args, in []Info) ([]int, error) {
		if nd {
			if !in[1].DType.IsInt() {
				return nil, fmt.Errorf("%s: the block shape must be an integer array, not %v", name, in[1].DType)
			}
			if !in[1].UnknownRank && len(in[1].Shape) != 1 {
				return nil, fmt.Errorf("%s: the block shape has shape %v; it must be a vector", name, in[1].Shape)
			}
			b, ok := constInts(in[1])
			if !ok {
				return nil, nil
			}
			return b, s2bBlocks(name, b)
		}
		if a == nil || len(a.I) < 1 {
			return nil, fmt.Errorf("%s needs int arg 0, the block size", name)
		}
		if v := a.I[0]; v < 1 || v > 1<<10 {
			return nil, fmt.Errorf("%s: block size %d is not in 1..2^10", name, v)
		}
		if x := in[0]; !x.UnknownRank && len(x.Shape) != 4 {
			return nil, fmt.Errorf("%s: the input must have rank 4 (NHWC), not shape %v", name, x.Shape)
		}
		return []int{int(a.I[0]), int(a.I[0])}, nil
	}
	ei := 1
	if nd {
		ei = 2
	}
	return &Def{
		Name: name, Type: Custom, MinIn: ei + 1, MaxIn: ei + 1, NonDiff: []int{1, ei}, Doc: doc,
		Infer: func(in []Info, a *Args) ([]Info, error) {
			b, err := blocks(a, in)
			if err != nil {
				return nil, err
			}
			m := len(b)
			if b == nil {
				m = -1
				if !in[1].UnknownRank && len(in[1].Shape) == 1 {
					m = in[1].Shape[0]
				}
			}
			if err := s2bEdgesInfo(name, what, in[ei], m); err != nil {
				return nil, err
			}
			x := in[0]
			if x.UnknownRank {
				return infos(Info{DType: x.DType, UnknownRank: true}), nil
			}
			if b == nil {
				s := unknownShape(len(x.Shape))
				if m >= 0 {
					if len(x.Shape) < m+1 {
						return nil, fmt.Errorf("%s: input %v has no room for %d spatial axes after the batch", name, x.Shape, m)
					}
					copy(s[1+m:], x.Shape[1+m:])
				}
				return infos(Info{DType: x.DType, Shape: s}), nil
			}
			e, ok := constInts(in[ei])
			if ok {
				if err := s2bEdges(name, what, e, m); err != nil {
					return nil, err
				}
			} else {
				e = nil
			}
			s, err := s2bShape(name, x.Shape, b, e, toBatch)
			if err != nil {
				return nil, err
			}
			return infos(Info{DType: x.DType, Shape: s}), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			x := in[0]
			info := make([]Info, len(in))
			for i, v := range in {
				info[i] = Info{DType: v.DType(), Shape: v.Shape()}
			}
			if nd {
				info[1].Value = in[1]
			}
			b, err := blocks(a, info)
			if err != nil {
				return nil, err
			}
			if err := s2bEdgesInfo(name, what, info[ei], len(b)); err != nil {
				return nil, err
			}
			e, err := arrayInts(name+": the "+what, in[ei])
			if err != nil {
				return nil, err
			}
			if err := s2bEdges(name, what, e, len(b)); err != nil {
				return nil, err
			}
			shape, err := s2bShape(name, x.Shape(), b, e, toBatch)
			if err != nil {
				return nil, err
			}
			out, err := c.TryAlloc(x.DType(), shape)
			if err == nil {
				err = s2bMove(c, name, x, out, b, e, toBatch)
			}
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			return []*ndarray.Array{out}, nil
		},
		Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
			in := append([]Value{d[0]}, n.In[1:]...)
			return append([]Value{op1(b, inverse, n.Args.Clone(), in...)}, make([]Value, len(n.In)-1)...)
		},
	}
}

// spaceToBatchOp is libnd4j's space_to_batch: the NHWC image, padded with
// zeros by input 1 ([[top, bottom], [left, right]], integers), cut into
// blockSize x blockSize blocks whose cells go to blockSize² batches (block
// row and column before the sample). Int arg 0 blockSize (libnd4j asks for
// 2 or more; sdgo also takes 1).
var spaceToBatchOp = Register(s2bDef("space_to_batch", "paddings", "batch_to_space", false, true,
	"pads an NHWC image by input 1 ([2,2]) and moves blockSize x blockSize blocks into the batch; int arg blockSize"))

// batchToSpaceOp is libnd4j's batch_to_space, space_to_batch's inverse:
// blockSize² batches interleaved into blocks of the image, then cropped by
// input 1 ([[top, bottom], [left, right]], integers). Int arg 0 blockSize.
var batchToSpaceOp = Register(s2bDef("batch_to_space", "crops", "space_to_batch", false, false,
	"moves blockSize² batches into blockSize x blockSize blocks of an NHWC image, cropped by input 1 ([2,2]); int arg blockSize"))

// spaceToBatchNDOp is libnd4j's space_to_batch_nd: space_to_batch over the
// M axes after the batch, input 1 the M block sizes, input 2 the [M, 2]
// paddings; the axes after them move along.
var spaceToBatchNDOp = Register(s2bDef("space_to_batch_nd", "paddings", "batch_to_space_nd", true, true,
	"pads the M axes after the batch by input 2 ([M,2]) and moves blocks of input 1's sizes into the batch"))

// batchToSpaceNDOp is libnd4j's batch_to_space_nd, space_to_batch_nd's
// inverse: input 1 the M block sizes, input 2 the [M, 2] crops.
var batchToSpaceNDOp = Register(s2bDef("batch_to_space_nd", "crops", "space_to_batch_nd", true, false,
	"moves batches into blocks of input 1's sizes over the M axes after the batch, cropped by input 2 ([M,2])"))
