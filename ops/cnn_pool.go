package ops

import (
	"fmt"
	"math"

	"github.com/sdgo/sdgo/ndarray"
)

// Pooling ops of SameDiff's CNN namespace: maxpool2d, avgpool2d,
// pnormpool2d, maxpool3dnew, avgpool3dnew and max_pool_with_argmax, with
// libnd4j's _bp ops. One engine serves them all: 2-D pooling is 3-D
// pooling with a depth of one, and the window's cells inside the input are
// computed once per output position and shared by every channel. float32
// inputs pool in float32.
//
// Int args, as libnd4j lays them out (n = 2 or 3 spatial axes):
//
//	2-D: kH, kW, sH, sW, pH, pW, dH, dW, isSameMode, extraParam0, dataFormat
//	3-D: kD, kH, kW, sD, sH, sW, pD, pH, pW, dD, dH, dW, isSameMode, extraParam0, dataFormat
//
// isSameMode 1 is SAME (the output is ceil(in/stride), the padding computed,
// its odd cell after), 0 VALID with the explicit paddings. extraParam0 is
// the average's divisor mode (0: the window's cells inside the input,
// padding excluded, the default; 1: the whole kernel, padding included) and
// pnorm's p; max pooling ignores it. dataFormat 0 is channels first
// (NCHW/NCDHW, the default), 1 channels last (NHWC/NDHWC).

// poolMode is what a pooling op computes over a window.
type poolMode int

const (
	poolMax poolMode = iota
	poolAvg
	poolPnorm
)

// poolCfg is a pooling op's configuration; 2-D pooling uses axes 1 and 2,
// axis 0 a unit depth.
type poolCfg struct {
	nd         int
	k, s, p, d [3]int
	same       bool
	extra      int
	cl         bool // channels last
}

// poolArgLimit bounds window sizes, strides, paddings and dilations so that
// the window arithmetic cannot overflow (no array axis is longer).
const poolArgLimit = ndarray.MaxBytes

func poolArgs(op string, nd int, a *Args) (poolCfg, error) {
	c := poolCfg{nd: nd, k: [3]int{1, 1, 1}, s: [3]int{1, 1, 1}, d: [3]int{1, 1, 1}}
	names := "kH, kW, sH, sW, pH, pW, dH, dW, isSameMode [, extraParam0, dataFormat]"
	if nd == 3 {
		names = "kD, kH, kW, sD, sH, sW, pD, pH, pW, dD, dH, dW, isSameMode [, extraParam0, dataFormat]"
	}
	if a == nil || len(a.I) < 4*nd+1 {
		n := 0
		if a != nil {
			n = len(a.I)
		}
		return c, fmt.Errorf("%s needs int args %s; got %d", op, names, n)
	}
	i := intsOf(a.I)
	off := 3 - nd
	for j := 0; j < nd; j++ {
		k, s, p, d := i[j], i[nd+j], i[2*nd+j], i[3*nd+j]
		if k <= 0 || s <= 0 || d <= 0 || p < 0 {
			return c, fmt.Errorf("%s: kernel %v, strides %v and dilations %v must be positive, paddings %v not negative",
				op, i[:nd], i[nd:2*nd], i[3*nd:4*nd], i[2*nd:3*nd])
		}
		if k > poolArgLimit || s > poolArgLimit || d > poolArgLimit || p > poolArgLimit || (k > 1 && d > poolArgLimit/(k-1)) {
			return c, fmt.Errorf("%s: int args %v: a window size, stride, padding or dilation is too large", op, i[:4*nd])
		}
		c.k[off+j], c.s[off+j], c.p[off+j], c.d[off+j] = k, s, p, d
	}
	switch i[4*nd] {
	case 0, 1:
		c.same = i[4*nd] == 1
	default:
		return c, fmt.Errorf("%s: padding mode %d is not 0 (VALID) or 1 (SAME)", op, i[4*nd])
	}
	if len(i) > 4*nd+1 {
		c.extra = i[4*nd+1]
	}
	if len(i) > 4*nd+2 {
		switch i[4*nd+2] {
		case 0, 1:
			c.cl = i[4*nd+2] == 1
		default:
			return c, fmt.Errorf("%s: data format %d is not 0 (channels first) or 1 (channels last)", op, i[4*nd+2])
		}
	}
	return c, nil
}

// checkExtra validates extraParam0 for a mode.
func (c poolCfg) checkExtra(op string, mode poolMode) error {
	switch mode {
	case poolAvg:
		if c.extra != 0 && c.extra != 1 {
			return fmt.Errorf("%s: divisor mode %d is not 0 (exclude padding) or 1 (include padding)", op, c.extra)
		}
	case poolPnorm:
		if c.extra <= 0 {
			return fmt.Errorf("%s: the norm's p (extraParam0) is %d, not positive", op, c.extra)
		}
	}
	return nil
}

// poolSize is the output length along one axis and the padding before it
// (-1, 0 when the input length is unknown).
func poolSize(in, k, s, p, d int, same bool) (out, pad int) {
	if in < 0 {
		return -1, 0
	}
	ek := (k-1)*d + 1
	if same {
		out = (in + s - 1) / s
		return out, max(0, ((out-1)*s+ek-in)/2)
	}
	return (in+2*p-ek)/s + 1, p
}

// poolGeom is the geometry of one pooling: sizes and the element strides of
// the input and output layouts.
type poolGeom struct {
	bS, C          int
	in, out, pad   [3]int
	inSp, outSp    [3]int // spatial strides
	inC, outC      int    // channel strides
	inB, outB      int    // batch strides
	inSize, outVol int
	// pc, when set, asks the run's context as the windows go; err is
	// its answer when the run must stop (poolWindows then stops early).
	pc  *pacer
	err error
}

func poolShapes(op string, c poolCfg, x []int) (bS, C int, in [3]int, err error) {
	if len(x) != c.nd+2 {
		return 0, 0, in, fmt.Errorf("%s: the input must have rank %d, not shape %v", op, c.nd+2, x)
	}
	in = [3]int{1, 1, 1}
	off := 3 - c.nd
	if c.cl {
		bS, C = x[0], x[c.nd+1]
		copy(in[off:], x[1:c.nd+1])
	} else {
		bS, C = x[0], x[1]
		copy(in[off:], x[2:])
	}
	return bS, C, in, nil
}

// poolOutShape is the output shape for input shape x, exact in every size
// that x gives (-1 elsewhere).
func poolOutShape(op string, c poolCfg, x []int) ([]int, error) {
	bS, C, in, err := poolShapes(op, c, x)
	if err != nil {
		return nil, err
	}
	off := 3 - c.nd
	sp := make([]int, c.nd)
	for j := 0; j < c.nd; j++ {
		o, _ := poolSize(in[off+j], c.k[off+j], c.s[off+j], c.p[off+j], c.d[off+j], c.same)
		if in[off+j] >= 0 && o <= 0 {
			return nil, fmt.Errorf("%s: input %v is too small for kernel %v with dilations %v and paddings %v",
				op, x, c.k[off:], c.d[off:], c.p[off:])
		}
		sp[j] = o
	}
	if c.cl {
		return append(append([]int{bS}, sp...), C), nil
	}
	return append([]int{bS, C}, sp...), nil
}

func poolGeometry(op string, c poolCfg, x []int) (poolGeom, []int, error) {
	var g poolGeom
	outShape, err := poolOutShape(op, c, x)
	if err != nil {
		return g, nil, err
	}
	if g.bS, g.C, g.in, err = poolShapes(op, c, x); err != nil {
		return g, nil, err
	}
	for j := 0; j < 3; j++ {
		g.out[j], g.pad[j] = poolSize(g.in[j], c.k[j], c.s[j], c.p[j], c.d[j], c.same)
	}
	inVol, outVol := g.in[0]*g.in[1]*g.in[2], g.out[0]*g.out[1]*g.out[2]
	g.inSize, g.outVol = g.bS*g.C*inVol, outVol
	cs := 1
	if c.cl {
		cs = g.C
		g.inC, g.outC = 1, 1
	} else {
		g.inC, g.outC = inVol, outVol
	}
	g.inB, g.outB = inVol*g.C, outVol*g.C
	g.inSp = [3]int{g.in[1] * g.in[2] * cs, g.in[2] * cs, cs}
	g.outSp = [3]int{g.out[1] * g.out[2] * cs, g.out[2] * cs, cs}
	return g, outShape, nil
}

// tickPlane counts work multiply-adds with g's pacer, when it has one.
func (g *poolGeom) tickPlane(work int) error {
	if g.pc == nil {
		return nil
	}
	return g.pc.tick(work)
}

// poolWindows calls f for every output position with the output offset of
// its channel 0, the input offsets of channel 0 of the window's cells
// inside the input, and the kernel volume.
func poolWindows(g *poolGeom, c *poolCfg, f func(o int, cells []int)) {
	var lo, hi, base [3]int
	cells := make([]int, 0, 16)
	rowWork := g.out[1] * g.out[2] * g.C * c.k[0] * c.k[1] * c.k[2]
	for b := 0; b < g.bS; b++ {
		for o0 := 0; o0 < g.out[0]; o0++ {
			if g.pc != nil {
				if g.err = g.pc.tick(rowWork); g.err != nil {
					return
				}
			}
			for o1 := 0; o1 < g.out[1]; o1++ {
				for o2 := 0; o2 < g.out[2]; o2++ {
					o := [3]int{o0, o1, o2}
					empty := false
					for j := 0; j < 3; j++ {
						// The kernel cells inside the input, computed rather
						// than searched: SAME mode may pad a kernel far
						// larger than the input.
						base[j] = o[j]*c.s[j] - g.pad[j]
						lo[j], hi[j] = 0, c.k[j]
						if base[j] < 0 {
							lo[j] = (-base[j] + c.d[j] - 1) / c.d[j]
						}
						if lim := (g.in[j] - base[j] + c.d[j] - 1) / c.d[j]; lim < hi[j] {
							hi[j] = lim
						}
						if lo[j] >= hi[j] {
							empty = true
						}
					}
					cells = cells[:0]
					if !empty {
						for k0 := lo[0]; k0 < hi[0]; k0++ {
							r0 := b*g.inB + (base[0]+k0*c.d[0])*g.inSp[0]
							for k1 := lo[1]; k1 < hi[1]; k1++ {
								r1 := r0 + (base[1]+k1*c.d[1])*g.inSp[1]
								for k2 := lo[2]; k2 < hi[2]; k2++ {
									cells = append(cells, r1+(base[2]+k2*c.d[2])*g.inSp[2])
								}
							}
						}
					}
					f(b*g.outB+o0*g.outSp[0]+o1*g.outSp[1]+o2*g.outSp[2], cells)
				}
			}
		}
	}
}

// kernelVolume is the kernel's cell count (the include-padding divisor).
func (c *poolCfg) kernelVolume() float64 { return float64(c.k[0]) * float64(c.k[1]) * float64(c.k[2]) }

// lowest is the most negative finite value of T: a max pooling window
// entirely in the padding gives it, as libnd4j's does.
func lowest[T float32 | float64]() T {
	var z T
	if _, ok := any(z).(float32); ok {
		return T(float32(-math.MaxFloat32))
	}
	m := -math.MaxFloat64
	return T(m)
}

// poolForward pools x into out; arg, when not nil, receives each output's
// argmax as an offset within its sample's input.
func poolForward[T float32 | float64](g *poolGeom, c *poolCfg, mode poolMode, x, out []T, arg []int64) {
	low := lowest[T]()
	kv := T(c.kernelVolume())
	p := float64(c.extra)
	poolWindows(g, c, func(o int, cells []int) {
		for ch := 0; ch < g.C; ch++ {
			ci, oi := ch*g.inC, o+ch*g.outC
			switch mode {
			case poolMax:
				m, at := low, -1
				for _, i := range cells {
					if v := x[i+ci]; v > m || at < 0 {
						m, at = v, i+ci
					}
				}
				out[oi] = m
				if arg != nil {
					if at >= 0 {
						at %= g.inB
					}
					arg[oi] = int64(at)
				}
			case poolAvg:
				var s T
				for _, i := range cells {
					s += x[i+ci]
				}
				div := kv
				if c.extra == 0 {
					div = T(len(cells))
				}
				if div > 0 {
					s /= div
				}
				out[oi] = s
			case poolPnorm:
				var s T
				if c.extra == 2 {
					for _, i := range cells {
						s += x[i+ci] * x[i+ci]
					}
					out[oi] = T(math.Sqrt(float64(s)))
					continue
				}
				for _, i := range cells {
					s += T(math.Pow(math.Abs(float64(x[i+ci])), p))
				}
				out[oi] = T(math.Pow(float64(s), 1/p))
			}
		}
	})
}

// poolBackward accumulates the input gradient dx (zeroed) of the pooling
// from the output gradient gO.
func poolBackward[T float32 | float64](g *poolGeom, c *poolCfg, mode poolMode, x, gO, dx []T) {
	kv := T(c.kernelVolume())
	p := float64(c.extra)
	poolWindows(g, c, func(o int, cells []int) {
		if len(cells) == 0 {
			return
		}
		for ch := 0; ch < g.C; ch++ {
			ci, gv := ch*g.inC, gO[o+ch*g.outC]
			switch mode {
			case poolMax:
				at := cells[0] + ci
				for _, i := range cells[1:] {
					if x[i+ci] > x[at] {
						at = i + ci
					}
				}
				dx[at] += gv
			case poolAvg:
				div := kv
				if c.extra == 0 {
					div = T(len(cells))
				}
				for _, i := range cells {
					dx[i+ci] += gv / div
				}
			case poolPnorm:
				// d(Σ|x|^p)^(1/p)/dx_i = |x_i|^(p-1)·sign(x_i)·(Σ|x|^p)^(1/p-1)
				s := 0.0
				for _, i := range cells {
					s += math.Pow(math.Abs(float64(x[i+ci])), p)
				}
				if s == 0 {
					continue
				}
				f := float64(gv) * math.Pow(s, 1/p-1)
				for _, i := range cells {
					v := float64(x[i+ci])
					dx[i+ci] += T(f * math.Pow(math.Abs(v), p-1) * sign(v))
				}
			}
		}
	})
}

func sign(v float64) float64 {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// poolInfer is the shape inference of the pooling ops.
func poolInfer(op string, nd int, mode poolMode) func(in []Info, a *Args) ([]Info, error) {
	return func(in []Info, a *Args) ([]Info, error) {
		x := in[0]
		if err := needFloat(op, x); err != nil {
			return nil, err
		}
		c, err := poolArgs(op, nd, a)
		if err != nil {
			return nil, err
		}
		if err := c.checkExtra(op, mode); err != nil {
			return nil, err
		}
		if x.UnknownRank {
			return infos(Info{DType: x.DType, Shape: unknownShape(nd + 2)}), nil
		}
		s, err := poolOutShape(op, c, x.Shape)
		if err != nil {
			return nil, err
		}
		return infos(Info{DType: x.DType, Shape: s}), nil
	}
}

// poolPrepare reads a pooling op's args and checks x against them.
func poolPrepare(op string, nd int, mode poolMode, a *Args, x *ndarray.Array) (poolCfg, poolGeom, []int, error) {
	c, err := poolArgs(op, nd, a)
	if err != nil {
		return c, poolGeom{}, nil, err
	}
	if err := c.checkExtra(op, mode); err != nil {
		return c, poolGeom{}, nil, err
	}
	if !x.DType().IsFloat() {
		return c, poolGeom{}, nil, fmt.Errorf("%s: the input is %v, not a float", op, x.DType())
	}
	g, shape, err := poolGeometry(op, c, x.Shape())
	return c, g, shape, err
}

// poolRun runs a pooling op forward; withArg adds the argmax output.
func poolRun(ctx *Ctx, op string, nd int, mode poolMode, a *Args, x *ndarray.Array, withArg bool, argType ndarray.DType) ([]*ndarray.Array, error) {
	c, g, shape, err := poolPrepare(op, nd, mode, a, x)
	if err != nil {
		return nil, err
	}
	out, err := ctx.TryAlloc(x.DType(), shape)
	if err != nil {
		return nil, fmt.Errorf("%s: output of shape %v: %w", op, shape, err)
	}
	pc := ctx.pace()
	g.pc = &pc
	var arg []int64
	if withArg {
		if err := reserve[int64](op, out.Size()); err != nil {
			return nil, err
		}
		arg = make([]int64, out.Size())
	}
	switch x.DType() {
	case ndarray.Float32:
		err = poolForwardOn[float32](&g, &c, mode, x, out, arg)
	case ndarray.Float64:
		err = poolForwardOn[float64](&g, &c, mode, x, out, arg)
	default:
		err = fmt.Errorf("%s: input dtype %v is not float32 or float64", op, x.DType())
	}
	if err != nil {
		return nil, err
	}
	if !withArg {
		return []*ndarray.Array{out}, nil
	}
	ia, err := ndarray.Wrap(arg, shape...)
	if err == nil && argType != ndarray.Int64 {
		ia, err = ndarray.Cast(ia, argType)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	return []*ndarray.Array{out, ia}, nil
}

func poolForwardOn[T float32 | float64](g *poolGeom, c *poolCfg, mode poolMode, x, out *ndarray.Array, arg []int64) error {
	xv, err := packedValues[T](x)
	if err != nil {
		return err
	}
	ov := ndarray.Raw[T](out)[out.Offset() : out.Offset()+out.Size()]
	if arg == nil && poolPlanar(g, c, mode) {
		return poolPlanesForward(g, c, mode, xv, ov)
	}
	poolForward(g, c, mode, xv, ov, arg)
	return g.err
}

// poolBpRun is a pooling op's backprop: inputs x and gradO.
func poolBpRun(ctx *Ctx, op string, nd int, mode poolMode, a *Args, x, gO *ndarray.Array) ([]*ndarray.Array, error) {
	c, g, shape, err := poolPrepare(op, nd, mode, a, x)
	if err != nil {
		return nil, err
	}
	if !ndarray.SameShape(gO.Shape(), shape) || gO.DType() != x.DType() {
		return nil, fmt.Errorf("%s: gradient %v of shape %v, the output is %v of shape %v", op, gO.DType(), gO.Shape(), x.DType(), shape)
	}
	dx, err := ctx.TryAlloc(x.DType(), x.Shape())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	pc := ctx.pace()
	g.pc = &pc
	switch x.DType() {
	case ndarray.Float32:
		err = poolBackwardOn[float32](&g, &c, mode, x, gO, dx)
	default:
		err = poolBackwardOn[float64](&g, &c, mode, x, gO, dx)
	}
	if err != nil {
		return nil, err
	}
	return []*ndarray.Array{dx}, nil
}

func poolBackwardOn[T float32 | float64](g *poolGeom, c *poolCfg, mode poolMode, x, gO, dx *ndarray.Array) error {
	xv, err := packedValues[T](x)
	if err != nil {
		return err
	}
	gv, err := packedValues[T](gO)
	if err != nil {
		return err
	}
	d := ndarray.Raw[T](dx)[dx.Offset() : dx.Offset()+dx.Size()]
	clear(d)
	if poolPlanar(g, c, mode) {
		return poolPlanesBackward(g, c, mode, xv, gv, d)
	}
	poolBackward(g, c, mode, xv, gv, d)
	return g.err
}

// poolPlanar reports whether a pooling runs on poolPlanesForward and
// poolPlanesBackward: max or average pooling of channels-first planes
// (depth one), without dilation, every window inside the input. Then no
// window needs its cells computed and checked one by one, and an
// average's divisor is the kernel's size in either divisor mode.
func poolPlanar(g *poolGeom, c *poolCfg, mode poolMode) bool {
	if mode == poolPnorm || c.cl || g.in[0] != 1 || g.out[0] != 1 || c.k[0] != 1 {
		return false
	}
	for j := 1; j < 3; j++ {
		if c.d[j] != 1 || g.pad[j] != 0 || (g.out[j]-1)*c.s[j]+c.k[j] > g.in[j] {
			return false
		}
	}
	return true
}

// poolPlanesForward is poolForward when poolPlanar holds: each output
// cell the maximum (the first one, as poolForward keeps) or the mean of
// its window, plane by plane. It asks g's pacer before each plane, as
// poolForward does before each row of windows.
func poolPlanesForward[T float32 | float64](g *poolGeom, c *poolCfg, mode poolMode, x, out []T) error {
	iH, iW, oH, oW := g.in[1], g.in[2], g.out[1], g.out[2]
	kH, kW, sH, sW := c.k[1], c.k[2], c.s[1], c.s[2]
	inv := 1 / T(kH*kW)
	for pl := 0; pl < g.bS*g.C; pl++ {
		if err := g.tickPlane(oH * oW * kH * kW); err != nil {
			return err
		}
		xp, op := x[pl*iH*iW:(pl+1)*iH*iW], out[pl*oH*oW:(pl+1)*oH*oW]
		for oh := 0; oh < oH; oh++ {
			orow := op[oh*oW : (oh+1)*oW]
			top := oh * sH * iW
			if mode == poolMax && kH == 2 && kW == 2 {
				r0, r1 := xp[top:top+iW], xp[top+iW:top+2*iW]
				for ow := range orow {
					i := ow * sW
					m := max(r0[i], r0[i+1], r1[i], r1[i+1])
					if m != m || m == 0 {
						// a NaN, or a zero whose sign the first one decides
						m, _ = max2x2Rule(r0[i], r0[i+1], r1[i], r1[i+1])
					}
					orow[ow] = m
				}
				continue
			}
			for ow := range orow {
				base := top + ow*sW
				if mode == poolMax {
					m := xp[base]
					for kh := 0; kh < kH; kh++ {
						for _, v := range xp[base+kh*iW : base+kh*iW+kW] {
							if v > m {
								m = v
							}
						}
					}
					orow[ow] = m
					continue
				}
				var sum T
				for kh := 0; kh < kH; kh++ {
					for _, v := range xp[base+kh*iW : base+kh*iW+kW] {
						sum += v
					}
				}
				orow[ow] = sum * inv
			}
		}
	}
	return nil
}

// The 2x2 max pooling loops take a window's maximum with the builtin max,
// which differs from poolForward's rule (the first value, then each later
// one greater than the maximum so far; its branches mispredict about half
// the time on random data) only when a NaN is in the window or the
// maximum is a zero, whose sign the rule takes from the first zero; the
// forward loop takes the rule itself (max2x2Rule) for those windows. The
// backward loop needs the maximum's place, not its sign: the rule's
// choice is the first value equal to the maximum as floats (of a +0 and
// a -0, the first, as neither is greater), found without a branch, so
// that only windows with a NaN take the rule; a branch on a zero maximum
// mispredicts on the windows a relu zeroed.

// max2x2Rule returns the maximum of a 2x2 window (a, b over c, d) by
// poolForward's rule, and which of the four it is.
func max2x2Rule[T float32 | float64](a, b, c, d T) (T, int) {
	m, k := a, 0
	for j, v := range [3]T{b, c, d} {
		if v > m {
			m, k = v, j+1
		}
	}
	return m, k
}

// poolPlanesBackward is poolBackward when poolPlanar holds: dx, zeroed,
// receives each output's gradient at its window's first maximum, or
// spread evenly over its window.
func poolPlanesBackward[T float32 | float64](g *poolGeom, c *poolCfg, mode poolMode, x, gO, dx []T) error {
	iH, iW, oH, oW := g.in[1], g.in[2], g.out[1], g.out[2]
	kH, kW, sH, sW := c.k[1], c.k[2], c.s[1], c.s[2]
	div := T(kH * kW)
	for pl := 0; pl < g.bS*g.C; pl++ {
		if err := g.tickPlane(oH * oW * kH * kW); err != nil {
			return err
		}
		xp, gp, dp := x[pl*iH*iW:(pl+1)*iH*iW], gO[pl*oH*oW:(pl+1)*oH*oW], dx[pl*iH*iW:(pl+1)*iH*iW]
		for oh := 0; oh < oH; oh++ {
			grow := gp[oh*oW : (oh+1)*oW]
			top := oh * sH * iW
			if mode == poolMax && kH == 2 && kW == 2 {
				r0, r1 := xp[top:top+iW], xp[top+iW:top+2*iW]
				for ow, gv := range grow {
					i := ow * sW
					a, b, c, d := r0[i], r0[i+1], r1[i], r1[i+1]
					m := max(a, b, c, d)
					k := notEqual(a, m) * (1 + notEqual(b, m)*(1+notEqual(c, m)))
					if m != m {
						_, k = max2x2Rule(a, b, c, d)
					}
					dp[top+(k>>1)*iW+i+k&1] += gv
				}
				continue
			}
			for ow, gv := range grow {
				base := top + ow*sW
				if mode == poolMax {
					at := base
					for kh := 0; kh < kH; kh++ {
						r := base + kh*iW
						for i, v := range xp[r : r+kW] {
							if v > xp[at] {
								at = r + i
							}
						}
					}
					dp[at] += gv
					continue
				}
				v := gv / div
				for kh := 0; kh < kH; kh++ {
					r := dp[base+kh*iW : base+kh*iW+kW]
					for i := range r {
						r[i] += v
					}
				}
			}
		}
	}
	return nil
}

// poolDef defines a pooling op; its gradient is the bp op bp.
func poolDef(name string, aliases []string, nd int, mode poolMode, doc string, grad GradFunc) *Def {
	return &Def{
		Name: name, Aliases: aliases, Type: Custom, MinIn: 1, MaxIn: 1, Doc: doc,
		Infer: poolInfer(name, nd, mode),
		Run: func(ctx *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			return poolRun(ctx, name, nd, mode, a, in[0], false, 0)
		},
		Grad: grad,
	}
}

// poolBpDef defines a pooling op's backprop op: inputs x, gradO, the
// forward op's args; output the gradient of x.
func poolBpDef(name string, nd int, mode poolMode, doc string) *Def {
	return bpDef(name, 1, doc, func(ctx *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		return poolBpRun(ctx, name, nd, mode, a, in[0], in[1])
	})
}

// maxPool2DOp is libnd4j's maxpool2d (int args: see the top of the file).
var maxPool2DOp = Register(poolDef("maxpool2d", []string{"maxpool"}, 2, poolMax,
	"2-D max pooling; int args kH, kW, sH, sW, pH, pW, dH, dW, isSameMode, extraParam0 (unused), dataFormat (1 NHWC)",
	bpOp("maxpool2d_bp")))

// maxPool2DBpOp is maxpool2d's gradient: the output gradient goes to the
// first maximum of each window.
var maxPool2DBpOp = Register(poolBpDef("maxpool2d_bp", 2, poolMax, "gradient of maxpool2d for inputs x, gradO; maxpool2d's args"))

// avgPool2DOp is libnd4j's avgpool2d; extraParam0 0 divides by the cells
// inside the input, 1 by the kernel's size.
var avgPool2DOp = Register(poolDef("avgpool2d", []string{"avgpool"}, 2, poolAvg,
	"2-D average pooling; int args kH, kW, sH, sW, pH, pW, dH, dW, isSameMode, extraParam0 (divisor: 0 exclude padding, 1 include), dataFormat (1 NHWC)",
	bpOp("avgpool2d_bp")))

// avgPool2DBpOp is avgpool2d's gradient.
var avgPool2DBpOp = Register(poolBpDef("avgpool2d_bp", 2, poolAvg, "gradient of avgpool2d for inputs x, gradO; avgpool2d's args"))

// pnormPool2DOp is libnd4j's pnormpool2d: (Σ|x|^p)^(1/p) over each window,
// p = extraParam0.
var pnormPool2DOp = Register(poolDef("pnormpool2d", nil, 2, poolPnorm,
	"2-D p-norm pooling; int args kH, kW, sH, sW, pH, pW, dH, dW, isSameMode, p, dataFormat (1 NHWC)",
	bpOp("pnormpool2d_bp")))

// pnormPool2DBpOp is pnormpool2d's gradient.
var pnormPool2DBpOp = Register(poolBpDef("pnormpool2d_bp", 2, poolPnorm, "gradient of pnormpool2d for inputs x, gradO; pnormpool2d's args"))

// maxPool3DOp is libnd4j's maxpool3dnew.
var maxPool3DOp = Register(poolDef("maxpool3dnew", nil, 3, poolMax,
	"3-D max pooling; int args kD, kH, kW, sD, sH, sW, pD, pH, pW, dD, dH, dW, isSameMode, extraParam0 (unused), dataFormat (1 NDHWC)",
	bpOp("maxpool3dnew_bp")))

// maxPool3DBpOp is maxpool3dnew's gradient.
var maxPool3DBpOp = Register(poolBpDef("maxpool3dnew_bp", 3, poolMax, "gradient of maxpool3dnew for inputs x, gradO; maxpool3dnew's args"))

// avgPool3DOp is libnd4j's avgpool3dnew. (Some versions of SameDiff's Java
// Pooling3D write the W sizes before the H ones, and older ones only 14
// args with the format last; files from those read as libnd4j reads them.)
var avgPool3DOp = Register(poolDef("avgpool3dnew", []string{"avgpool3d"}, 3, poolAvg,
	"3-D average pooling; int args kD, kH, kW, sD, sH, sW, pD, pH, pW, dD, dH, dW, isSameMode, divisor (0 exclude padding, 1 include), dataFormat (1 NDHWC)",
	bpOp("avgpool3dnew_bp")))

// avgPool3DBpOp is avgpool3dnew's gradient.
var avgPool3DBpOp = Register(poolBpDef("avgpool3dnew_bp", 3, poolAvg, "gradient of avgpool3dnew for inputs x, gradO; avgpool3dnew's args"))

// maxPoolWithArgmaxOp is libnd4j's max_pool_with_argmax: maxpool2d's args
// and outputs, plus the index of each maximum (dtype arg 0, int64 by
// default) as an offset into its sample's input, in the input's layout.
// libnd4j's own kernel gives both outputs the input's shape and fills the
// indices with 0, 1, ... per sample whatever the maxima; sdgo gives the
// pooled shape and the real positions.
var maxPoolWithArgmaxOp = Register(&Def{
	Name: "max_pool_with_argmax", Type: Custom, MinIn: 1, MaxIn: 1,
	Doc: "2-D max pooling and the input offset of each maximum; maxpool2d's int args, dtype arg 0 the indices' type",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		o, err := poolInfer("max_pool_with_argmax", 2, poolMax)(in, a)
		if err != nil {
			return nil, err
		}
		it := a.DType(0, ndarray.Int64)
		if !it.IsInt() {
			return nil, fmt.Errorf("max_pool_with_argmax: index dtype %v is not an integer type", it)
		}
		return append(o, Info{DType: it, Shape: o[0].Shape, UnknownRank: o[0].UnknownRank}), nil
	},
	Run: func(ctx *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		it := a.DType(0, ndarray.Int64)
		if !it.IsInt() {
			return nil, fmt.Errorf("max_pool_with_argmax: index dtype %v is not an integer type", it)
		}
		return poolRun(ctx, "max_pool_with_argmax", 2, poolMax, a, in[0], true, it)
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		if d[0] == nil {
			return []Value{nil}
		}
		return b.Op("maxpool2d_bp", n.Args.Clone(), n.In[0], d[0])
	},
})

// notEqual is 1 when v != m as floats (-0 equals +0), else 0.
func notEqual[T float32 | float64](v, m T) int {
	if v != m {
		return 1
	}
	return 0
}
