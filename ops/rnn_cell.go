package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// SameDiff's recurrent cells (SDRNN): gruCell, with the backprop op its
// gradient rule calls.

// gruCellDims checks gruCell's six inputs (x, hLast, W, Wc, b, bc) as far
// as they are known and returns bS, nIn, nOut (-1 where unknown).
func gruCellDims(name string, in []Info) (bS, nIn, nOut int, err error) {
	for i, v := range in[:6] {
		if err := needFloat(name, v); err != nil {
			return 0, 0, 0, err
		}
		if v.DType != in[0].DType {
			return 0, 0, 0, fmt.Errorf("%s: input %d is %v, x %v; they must have one dtype", name, i, v.DType, in[0].DType)
		}
	}
	bS, nIn, nOut = -1, -1, -1
	for _, v := range in[:6] {
		if v.UnknownRank {
			return bS, nIn, nOut, nil
		}
	}
	x, h := in[0].Shape, in[1].Shape
	if len(x) != 2 || len(h) != 2 {
		return 0, 0, 0, fmt.Errorf("%s: x %v and hLast %v must be matrices [batch, nIn] and [batch, nOut]", name, x, h)
	}
	fit := func(a, b int) bool { return a < 0 || b < 0 || a == b }
	if !fit(x[0], h[0]) {
		return 0, 0, 0, fmt.Errorf("%s: x %v and hLast %v have different batch sizes", name, x, h)
	}
	bS, nIn, nOut = max(x[0], h[0]), x[1], h[1]
	want := func(what string, got []int, shape ...int) error {
		ok := len(got) == len(shape)
		for i := 0; ok && i < len(got); i++ {
			ok = shape[i] < 0 || fit(got[i], shape[i])
		}
		if !ok {
			return fmt.Errorf("%s: %s has shape %v; want %v (nIn %d, nOut %d)", name, what, got, shape, nIn, nOut)
		}
		return nil
	}
	sum, twice := -1, -1
	if nIn >= 0 && nOut >= 0 {
		sum = nIn + nOut
	}
	if nOut >= 0 {
		twice = 2 * nOut
	}
	for _, e := range []error{
		want("W (reset and update gate weights)", in[2].Shape, sum, twice),
		want("Wc (cell gate weights)", in[3].Shape, sum, nOut),
		want("b (reset and update gate biases)", in[4].Shape, twice),
		want("bc (cell gate biases)", in[5].Shape, nOut),
	} {
		if e != nil {
			return 0, 0, 0, e
		}
	}
	return bS, nIn, nOut, nil
}

func gruCellArrays(name string, in []*ndarray.Array) (bS, nIn, nOut int, err error) {
	info := make([]Info, 6)
	for i, a := range in[:6] {
		info[i] = Info{DType: a.DType(), Shape: a.Shape()}
	}
	return gruCellDims(name, info)
}

// gruState holds a gruCell step: its gates and the matrices the gradient
// reads, from c's pool.
type gruState struct {
	xh, xrh, r, u, c, h *ndarray.Array
}

func (s *gruState) release(c *Ctx) {
	for _, a := range []*ndarray.Array{s.xh, s.xrh, s.r, s.u, s.c, s.h} {
		if a != nil {
			c.Release(a)
		}
	}
}

// gruCellForward computes a step: r = σ([x, hLast]·W[:, :nOut] + b[:nOut]),
// u = σ([x, hLast]·W[:, nOut:] + b[nOut:]), c = tanh([x, r∘hLast]·Wc + bc),
// h = u∘hLast + (1 - u)∘c.
func gruCellForward[T float32 | float64](c *Ctx, name string, in []*ndarray.Array, bS, nIn, nOut int) (*gruState, error) {
	dt := in[0].DType()
	x, hl := ndarray.Values[T](in[0]), ndarray.Values[T](in[1])
	b, bc := ndarray.Values[T](in[4]), ndarray.Values[T](in[5])
	nx := nIn + nOut
	s := &gruState{xh: c.Alloc(dt, []int{bS, nx}), xrh: c.Alloc(dt, []int{bS, nx})}
	xh, xrh := ndarray.Raw[T](s.xh)[:bS*nx], ndarray.Raw[T](s.xrh)[:bS*nx]
	for i := 0; i < bS; i++ {
		copy(xh[i*nx:], x[i*nIn:(i+1)*nIn])
		copy(xh[i*nx+nIn:], hl[i*nOut:(i+1)*nOut])
	}
	ru := c.Alloc(dt, []int{bS, 2 * nOut})
	defer c.Release(ru)
	if err := ndarray.MatMulIntoStop(c.Stop(), ru, s.xh, in[2], false, false); err != nil {
		s.release(c)
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	rus := ndarray.Raw[T](ru)[:bS*2*nOut]
	for i := 0; i < bS; i++ {
		row := rus[i*2*nOut : (i+1)*2*nOut]
		for j := range row {
			row[j] += b[j]
		}
	}
	if err := ndarray.UnaryInto(ndarray.Sigmoid, ru, ru, 0); err != nil {
		s.release(c)
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	s.r, s.u, s.c, s.h = c.Alloc(dt, []int{bS, nOut}), c.Alloc(dt, []int{bS, nOut}), c.Alloc(dt, []int{bS, nOut}), c.Alloc(dt, []int{bS, nOut})
	n := bS * nOut
	r, u, cc, h := ndarray.Raw[T](s.r)[:n], ndarray.Raw[T](s.u)[:n], ndarray.Raw[T](s.c)[:n], ndarray.Raw[T](s.h)[:n]
	for i := 0; i < bS; i++ {
		copy(r[i*nOut:], rus[i*2*nOut:i*2*nOut+nOut])
		copy(u[i*nOut:], rus[i*2*nOut+nOut:(i+1)*2*nOut])
		copy(xrh[i*nx:], x[i*nIn:(i+1)*nIn])
		for j := 0; j < nOut; j++ {
			xrh[i*nx+nIn+j] = r[i*nOut+j] * hl[i*nOut+j]
		}
	}
	if err := ndarray.MatMulIntoStop(c.Stop(), s.c, s.xrh, in[3], false, false); err != nil {
		s.release(c)
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for i := 0; i < bS; i++ {
		row := cc[i*nOut : (i+1)*nOut]
		for j := range row {
			row[j] += bc[j]
		}
	}
	if err := ndarray.UnaryInto(ndarray.Tanh, s.c, s.c, 0); err != nil {
		s.release(c)
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for i := range h {
		h[i] = cc[i] + u[i]*(hl[i]-cc[i])
	}
	return s, nil
}

// gruCellOp is libnd4j's gruCell: inputs x [batch, nIn], hLast
// [batch, nOut], W [nIn+nOut, 2·nOut] (reset then update gate weights, the
// rows of x then those of hLast), Wc [nIn+nOut, nOut] (cell gate), b
// [2·nOut], bc [nOut]; no arguments. Outputs the reset gate r, the update
// gate u, the cell gate c and the output h, each [batch, nOut]:
// r, u = σ([x, hLast]·W + b), c = tanh([x, r∘hLast]·Wc + bc),
// h = u∘hLast + (1 - u)∘c.
var gruCellOp = Register(&Def{
	Name: "gruCell", Type: Custom, MinIn: 6, MaxIn: 6,
	Doc: "one GRU step: reset, update and cell gates and the output h for x, hLast, W, Wc, b, bc",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		bS, _, nOut, err := gruCellDims("gruCell", in)
		if err != nil {
			return nil, err
		}
		o := Info{DType: in[0].DType, Shape: []int{bS, nOut}}
		return infos(o, o, o, o), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		bS, nIn, nOut, err := gruCellArrays("gruCell", in)
		if err != nil {
			return nil, err
		}
		var s *gruState
		if in[0].DType() == ndarray.Float32 {
			s, err = gruCellForward[float32](c, "gruCell", in, bS, nIn, nOut)
		} else {
			s, err = gruCellForward[float64](c, "gruCell", in, bS, nIn, nOut)
		}
		if err != nil {
			return nil, err
		}
		c.Release(s.xh)
		c.Release(s.xrh)
		return []*ndarray.Array{s.r, s.u, s.c, s.h}, nil
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		in := append(append([]Value(nil), n.In...), outGrads(b, n, d, 4)...)
		return b.Op("gruCell_bp", Args{}, in...)
	},
})

// gruCellBackward computes the six input gradients of a step from the
// gradients of its four outputs.
func gruCellBackward[T float32 | float64](c *Ctx, name string, in []*ndarray.Array, bS, nIn, nOut int) ([]*ndarray.Array, error) {
	s, err := gruCellForward[T](c, name, in, bS, nIn, nOut)
	if err != nil {
		return nil, err
	}
	defer s.release(c)
	dt := in[0].DType()
	n, nx := bS*nOut, nIn+nOut
	hl := ndarray.Values[T](in[1])
	dr, du, dc, dh := ndarray.Values[T](in[6]), ndarray.Values[T](in[7]), ndarray.Values[T](in[8]), ndarray.Values[T](in[9])
	r, u, cc := ndarray.Raw[T](s.r)[:n], ndarray.Raw[T](s.u)[:n], ndarray.Raw[T](s.c)[:n]
	// dZc = (dc + dh∘(1-u))∘(1-c²).
	dzc := c.Alloc(dt, []int{bS, nOut})
	defer c.Release(dzc)
	zc := ndarray.Raw[T](dzc)[:n]
	for i := range zc {
		zc[i] = (dc[i] + dh[i]*(1-u[i])) * (1 - cc[i]*cc[i])
	}
	// Through [x, r∘hLast]·Wc: dXrh = dZc·Wcᵀ.
	dxrh := c.Alloc(dt, []int{bS, nx})
	defer c.Release(dxrh)
	if err := ndarray.MatMulIntoStop(c.Stop(), dxrh, dzc, in[3], false, true); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	xrhd := ndarray.Raw[T](dxrh)[:bS*nx]
	// dZr = (dr + dq∘hLast)∘r(1-r), dZu = (du + dh∘(hLast-c))∘u(1-u),
	// dq the gradient of r∘hLast.
	dzru := c.Alloc(dt, []int{bS, 2 * nOut})
	defer c.Release(dzru)
	zru := ndarray.Raw[T](dzru)[:2*n]
	for i := 0; i < bS; i++ {
		for j := 0; j < nOut; j++ {
			k := i*nOut + j
			dq := xrhd[i*nx+nIn+j]
			zru[i*2*nOut+j] = (dr[k] + dq*hl[k]) * r[k] * (1 - r[k])
			zru[i*2*nOut+nOut+j] = (du[k] + dh[k]*(hl[k]-cc[k])) * u[k] * (1 - u[k])
		}
	}
	dxh := c.Alloc(dt, []int{bS, nx})
	defer c.Release(dxh)
	if err := ndarray.MatMulIntoStop(c.Stop(), dxh, dzru, in[2], false, true); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	xhd := ndarray.Raw[T](dxh)[:bS*nx]
	out := make([]*ndarray.Array, 6)
	out[0], out[1] = c.Alloc(dt, []int{bS, nIn}), c.Alloc(dt, []int{bS, nOut})
	dx, dhl := ndarray.Raw[T](out[0])[:bS*nIn], ndarray.Raw[T](out[1])[:n]
	for i := 0; i < bS; i++ {
		for j := 0; j < nIn; j++ {
			dx[i*nIn+j] = xhd[i*nx+j] + xrhd[i*nx+j]
		}
		for j := 0; j < nOut; j++ {
			k := i*nOut + j
			dhl[k] = xhd[i*nx+nIn+j] + dh[k]*u[k] + xrhd[i*nx+nIn+j]*r[k]
		}
	}
	out[2], out[3] = c.Alloc(dt, in[2].Shape()), c.Alloc(dt, in[3].Shape())
	if err := ndarray.MatMulIntoStop(c.Stop(), out[2], s.xh, dzru, true, false); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := ndarray.MatMulIntoStop(c.Stop(), out[3], s.xrh, dzc, true, false); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	out[4], out[5] = c.Alloc(dt, in[4].Shape()), c.Alloc(dt, in[5].Shape())
	for _, p := range []struct{ dst, src *ndarray.Array }{{out[4], dzru}, {out[5], dzc}} {
		flat, err := ndarray.Reshape(p.dst, p.src.Shape()[1])
		if err == nil {
			err = ndarray.ReduceInto(ndarray.Sum, flat, p.src, []int{0})
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	return out, nil
}

// gruCellBpOp is the backprop op of gruCell: inputs x, hLast, W, Wc, b,
// bc, then the gradients of r, u, c and h (libnd4j's gruCell_bp layout);
// outputs the gradients of x, hLast, W, Wc, b and bc. Each output
// gradient is that of the output alone: sdgo adds h's paths through u, c
// and r itself (libnd4j's helper expects r, u and c gradients that
// already include them; no SameDiff file names this op, gruCell has no
// backprop op in SameDiff).
var gruCellBpOp = Register(&Def{
	Name: "gruCell_bp", Type: Custom, MinIn: 10, MaxIn: 10,
	Doc: "gradient of gruCell for x, hLast, W, Wc, b, bc and the gradients of r, u, c, h",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		bS, _, nOut, err := gruCellDims("gruCell_bp", in)
		if err != nil {
			return nil, err
		}
		o := Info{DType: in[0].DType, Shape: []int{bS, nOut}}
		for _, g := range in[6:] {
			if err := sameShapeGrad("gruCell_bp", o, g); err != nil {
				return nil, err
			}
		}
		return sameInfos(in, 6), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		bS, nIn, nOut, err := gruCellArrays("gruCell_bp", in)
		if err != nil {
			return nil, err
		}
		for i, g := range in[6:] {
			if g.DType() != in[0].DType() || !ndarray.SameShape(g.Shape(), []int{bS, nOut}) {
				return nil, fmt.Errorf("gruCell_bp: gradient %d is %v%v; want %v[%d %d]", i, g.DType(), g.Shape(), in[0].DType(), bS, nOut)
			}
		}
		if in[0].DType() == ndarray.Float32 {
			return gruCellBackward[float32](c, "gruCell_bp", in, bS, nIn, nOut)
		}
		return gruCellBackward[float64](c, "gruCell_bp", in, bS, nIn, nOut)
	},
})

// lstmCellDims checks lstmBlockCell's eight inputs (xt, cLast, yLast, W,
// Wci, Wcf, Wco, b) as far as they are known and returns bS, nIn, nOut
// (-1 where unknown).
func lstmCellDims(name string, in []Info) (bS, nIn, nOut int, err error) {
	for i, v := range in[:8] {
		if err := needFloat(name, v); err != nil {
			return 0, 0, 0, err
		}
		if v.DType != in[0].DType {
			return 0, 0, 0, fmt.Errorf("%s: input %d is %v, x %v; they must have one dtype", name, i, v.DType, in[0].DType)
		}
	}
	bS, nIn, nOut = -1, -1, -1
	for _, v := range in[:8] {
		if v.UnknownRank {
			return bS, nIn, nOut, nil
		}
	}
	x, cl, yl := in[0].Shape, in[1].Shape, in[2].Shape
	if len(x) != 2 || len(cl) != 2 || len(yl) != 2 {
		return 0, 0, 0, fmt.Errorf("%s: xt %v, cLast %v and yLast %v must be matrices [batch, nIn], [batch, nOut], [batch, nOut]", name, x, cl, yl)
	}
	fit := func(a, b int) bool { return a < 0 || b < 0 || a == b }
	if !fit(x[0], cl[0]) || !fit(x[0], yl[0]) || !fit(cl[0], yl[0]) {
		return 0, 0, 0, fmt.Errorf("%s: xt %v, cLast %v and yLast %v have different batch sizes", name, x, cl, yl)
	}
	if !fit(cl[1], yl[1]) {
		return 0, 0, 0, fmt.Errorf("%s: cLast %v and yLast %v have different numbers of units", name, cl, yl)
	}
	bS, nIn, nOut = max(x[0], cl[0], yl[0]), x[1], max(cl[1], yl[1])
	want := func(what string, got []int, shape ...int) error {
		ok := len(got) == len(shape)
		for i := 0; ok && i < len(got); i++ {
			ok = shape[i] < 0 || fit(got[i], shape[i])
		}
		if !ok {
			return fmt.Errorf("%s: %s has shape %v; want %v (nIn %d, nOut %d)", name, what, got, shape, nIn, nOut)
		}
		return nil
	}
	sum, four := -1, -1
	if nIn >= 0 && nOut >= 0 {
		sum = nIn + nOut
	}
	if nOut >= 0 {
		four = 4 * nOut
	}
	for _, e := range []error{
		want("W (gate weights, columns i, z, f, o)", in[3].Shape, sum, four),
		want("Wci (input gate peephole)", in[4].Shape, nOut),
		want("Wcf (forget gate peephole)", in[5].Shape, nOut),
		want("Wco (output gate peephole)", in[6].Shape, nOut),
		want("b (gate biases)", in[7].Shape, four),
	} {
		if e != nil {
			return 0, 0, 0, e
		}
	}
	return bS, nIn, nOut, nil
}

// lstmCellOpts are lstmBlockCell's arguments: int arg 0 peephole, float
// args 0 forgetBias and 1 cellClip (0: none).
type lstmCellOpts struct {
	peephole      bool
	forgetBias    float64
	clip          float64
	bS, nIn, nOut int
}

func lstmCellArrays(name string, in []*ndarray.Array, a *Args) (lstmCellOpts, error) {
	info := make([]Info, 8)
	for i, x := range in[:8] {
		info[i] = Info{DType: x.DType(), Shape: x.Shape()}
	}
	bS, nIn, nOut, err := lstmCellDims(name, info)
	o := lstmCellOpts{peephole: a.Int(0, 0) != 0, forgetBias: a.Float(0, 0), clip: a.Float(1, 0), bS: bS, nIn: nIn, nOut: nOut}
	if err == nil && o.clip < 0 {
		err = fmt.Errorf("%s: float arg 1 (cell clipping) is %g; want 0 (none) or more", name, o.clip)
	}
	return o, err
}

// lstmState holds an lstmBlockCell step: its seven outputs (i, c, f, o, z,
// h, y), [xt, yLast], and where the cell state was clipped.
type lstmState struct {
	out     [7]*ndarray.Array
	xy      *ndarray.Array
	clipped []bool
}

// lstmCellForward computes a step in libnd4j's order: m = [xt, yLast]·W +
// b, gates i, z, f, o in that column order; i = σ(m_i + cLast∘Wci),
// z = tanh(m_z), f = σ(m_f + cLast∘Wcf + forgetBias), c = z∘i + f∘cLast
// clipped to ±cellClip, o = σ(m_o + c∘Wco), h = tanh(c), y = o∘h (the
// peephole terms only with peephole).
func lstmCellForward[T float32 | float64](c *Ctx, name string, in []*ndarray.Array, p lstmCellOpts) (*lstmState, error) {
	dt := in[0].DType()
	bS, nIn, nOut := p.bS, p.nIn, p.nOut
	x, cl, yl := ndarray.Values[T](in[0]), ndarray.Values[T](in[1]), ndarray.Values[T](in[2])
	wci, wcf, wco, b := ndarray.Values[T](in[4]), ndarray.Values[T](in[5]), ndarray.Values[T](in[6]), ndarray.Values[T](in[7])
	nx := nIn + nOut
	s := &lstmState{xy: c.Alloc(dt, []int{bS, nx}), clipped: make([]bool, bS*nOut)}
	xy := ndarray.Raw[T](s.xy)[:bS*nx]
	for i := 0; i < bS; i++ {
		copy(xy[i*nx:], x[i*nIn:(i+1)*nIn])
		copy(xy[i*nx+nIn:], yl[i*nOut:(i+1)*nOut])
	}
	m := c.Alloc(dt, []int{bS, 4 * nOut})
	defer c.Release(m)
	if err := ndarray.MatMulIntoStop(c.Stop(), m, s.xy, in[3], false, false); err != nil {
		c.Release(s.xy)
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	ms := ndarray.Raw[T](m)[:bS*4*nOut]
	for i := range s.out {
		s.out[i] = c.Alloc(dt, []int{bS, nOut})
	}
	n := bS * nOut
	var o [7][]T
	for i := range o {
		o[i] = ndarray.Raw[T](s.out[i])[:n]
	}
	ig, cs, fg, og, zg, hg, yg := o[0], o[1], o[2], o[3], o[4], o[5], o[6]
	// Pre-activations of i, z, f first; the kernels apply σ and tanh.
	for r := 0; r < bS; r++ {
		row := ms[r*4*nOut : (r+1)*4*nOut]
		for j := 0; j < nOut; j++ {
			k := r*nOut + j
			zi, zz, zf := row[j]+b[j], row[nOut+j]+b[nOut+j], row[2*nOut+j]+b[2*nOut+j]+T(p.forgetBias)
			if p.peephole {
				zi += cl[k] * wci[j]
				zf += cl[k] * wcf[j]
			}
			ig[k], zg[k], fg[k] = zi, zz, zf
		}
	}
	for _, u := range []struct {
		op ndarray.UnaryOp
		a  *ndarray.Array
	}{{ndarray.Sigmoid, s.out[0]}, {ndarray.Tanh, s.out[4]}, {ndarray.Sigmoid, s.out[2]}} {
		if err := ndarray.UnaryInto(u.op, u.a, u.a, 0); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	lim := T(p.clip)
	for r := 0; r < bS; r++ {
		row := ms[r*4*nOut : (r+1)*4*nOut]
		for j := 0; j < nOut; j++ {
			k := r*nOut + j
			v := zg[k]*ig[k] + fg[k]*cl[k]
			if lim > 0 && (v > lim || v < -lim) {
				s.clipped[k] = true
				v = max(min(v, lim), -lim)
			}
			cs[k] = v
			zo := row[3*nOut+j] + b[3*nOut+j]
			if p.peephole {
				zo += v * wco[j]
			}
			og[k] = zo
		}
	}
	if err := ndarray.UnaryInto(ndarray.Sigmoid, s.out[3], s.out[3], 0); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := ndarray.UnaryInto(ndarray.Tanh, s.out[5], s.out[1], 0); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for k := range yg {
		yg[k] = og[k] * hg[k]
	}
	return s, nil
}

// lstmBlockCellOp is libnd4j's lstmBlockCell (SameDiff's SDRNN.lstmCell):
// inputs xt [batch, nIn], cLast and yLast [batch, nOut], W
// [nIn+nOut, 4·nOut] (gate columns i, z, f, o; rows of xt then yLast),
// peepholes Wci, Wcf, Wco [nOut], b [4·nOut]; int arg 0 peephole, float
// args 0 forgetBias, 1 cellClip (0: none). Outputs, each [batch, nOut]:
// the input gate i, the cell state c, the forget gate f, the output gate
// o, the block input z, h = tanh(c) and the output y = o∘h.
var lstmBlockCellOp = Register(&Def{
	Name: "lstmBlockCell", Type: Custom, MinIn: 8, MaxIn: 8,
	Doc: "one LSTM step (i, c, f, o, z, h, y) for xt, cLast, yLast, W, Wci, Wcf, Wco, b; int arg peephole, float args forgetBias, cellClip",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		bS, _, nOut, err := lstmCellDims("lstmBlockCell", in)
		if err != nil {
			return nil, err
		}
		o := Info{DType: in[0].DType, Shape: []int{bS, nOut}}
		return infos(o, o, o, o, o, o, o), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		p, err := lstmCellArrays("lstmBlockCell", in, a)
		if err != nil {
			return nil, err
		}
		var s *lstmState
		if in[0].DType() == ndarray.Float32 {
			s, err = lstmCellForward[float32](c, "lstmBlockCell", in, p)
		} else {
			s, err = lstmCellForward[float64](c, "lstmBlockCell", in, p)
		}
		if err != nil {
			return nil, err
		}
		c.Release(s.xy)
		return s.out[:], nil
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		in := append(append([]Value(nil), n.In...), outGrads(b, n, d, 7)...)
		return b.Op("lstmBlockCell_bp", n.Args.Clone(), in...)
	},
})

// lstmCellBackward computes the eight input gradients of a step from the
// gradients of its seven outputs.
func lstmCellBackward[T float32 | float64](c *Ctx, name string, in []*ndarray.Array, p lstmCellOpts) ([]*ndarray.Array, error) {
	s, err := lstmCellForward[T](c, name, in, p)
	if err != nil {
		return nil, err
	}
	defer func() {
		c.Release(s.xy)
		for _, a := range s.out {
			c.Release(a)
		}
	}()
	dt := in[0].DType()
	bS, nIn, nOut := p.bS, p.nIn, p.nOut
	n, nx := bS*nOut, nIn+nOut
	cl := ndarray.Values[T](in[1])
	wci, wcf, wco := ndarray.Values[T](in[4]), ndarray.Values[T](in[5]), ndarray.Values[T](in[6])
	var g [7][]T
	for i := range g {
		g[i] = ndarray.Values[T](in[8+i])
	}
	var o [7][]T
	for i := range o {
		o[i] = ndarray.Raw[T](s.out[i])[:n]
	}
	ig, cs, fg, og, zg, hg := o[0], o[1], o[2], o[3], o[4], o[5]
	dm := c.Alloc(dt, []int{bS, 4 * nOut})
	defer c.Release(dm)
	dms := ndarray.Raw[T](dm)[:4*n]
	out := make([]*ndarray.Array, 8)
	out[1] = c.Alloc(dt, []int{bS, nOut})
	dcl := ndarray.Raw[T](out[1])[:n]
	dwci, dwcf, dwco := make([]T, nOut), make([]T, nOut), make([]T, nOut)
	for r := 0; r < bS; r++ {
		for j := 0; j < nOut; j++ {
			k := r*nOut + j
			do := g[3][k] + g[6][k]*hg[k]
			dh := g[5][k] + g[6][k]*og[k]
			dzo := do * og[k] * (1 - og[k])
			dc := g[1][k] + dh*(1-hg[k]*hg[k])
			if p.peephole {
				dc += dzo * wco[j]
				dwco[j] += dzo * cs[k]
			}
			if s.clipped[k] {
				dc = 0
			}
			dz := g[4][k] + dc*ig[k]
			di := g[0][k] + dc*zg[k]
			df := g[2][k] + dc*cl[k]
			dzi, dzz, dzf := di*ig[k]*(1-ig[k]), dz*(1-zg[k]*zg[k]), df*fg[k]*(1-fg[k])
			dcl[k] = dc * fg[k]
			if p.peephole {
				dcl[k] += dzi*wci[j] + dzf*wcf[j]
				dwci[j] += dzi * cl[k]
				dwcf[j] += dzf * cl[k]
			}
			row := dms[r*4*nOut:]
			row[j], row[nOut+j], row[2*nOut+j], row[3*nOut+j] = dzi, dzz, dzf, dzo
		}
	}
	dxy := c.Alloc(dt, []int{bS, nx})
	defer c.Release(dxy)
	if err := ndarray.MatMulIntoStop(c.Stop(), dxy, dm, in[3], false, true); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	xyd := ndarray.Raw[T](dxy)[:bS*nx]
	out[0], out[2] = c.Alloc(dt, []int{bS, nIn}), c.Alloc(dt, []int{bS, nOut})
	dx, dyl := ndarray.Raw[T](out[0])[:bS*nIn], ndarray.Raw[T](out[2])[:n]
	for r := 0; r < bS; r++ {
		copy(dx[r*nIn:(r+1)*nIn], xyd[r*nx:r*nx+nIn])
		copy(dyl[r*nOut:(r+1)*nOut], xyd[r*nx+nIn:(r+1)*nx])
	}
	out[3] = c.Alloc(dt, in[3].Shape())
	if err := ndarray.MatMulIntoStop(c.Stop(), out[3], s.xy, dm, true, false); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for i, v := range [][]T{dwci, dwcf, dwco} {
		out[4+i] = c.Alloc(dt, in[4+i].Shape())
		copy(ndarray.Raw[T](out[4+i])[:nOut], v)
	}
	out[7] = c.Alloc(dt, in[7].Shape())
	flat, err := ndarray.Reshape(out[7], 4*nOut)
	if err == nil {
		err = ndarray.ReduceInto(ndarray.Sum, flat, dm, []int{0})
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

// lstmBlockCellBpOp is sdgo's backprop op of lstmBlockCell (libnd4j has
// none; SameDiff differentiates lstmBlockCell by no op of its own):
// inputs the eight of lstmBlockCell, then the gradients of its seven
// outputs; its arguments; outputs the gradients of the eight inputs (the
// peephole weights' are zero without peephole; the cell state carries no
// gradient where it was clipped).
var lstmBlockCellBpOp = Register(&Def{
	Name: "lstmBlockCell_bp", Type: Custom, MinIn: 15, MaxIn: 15,
	Doc: "gradient of lstmBlockCell for its eight inputs and the gradients of its seven outputs",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		bS, _, nOut, err := lstmCellDims("lstmBlockCell_bp", in)
		if err != nil {
			return nil, err
		}
		o := Info{DType: in[0].DType, Shape: []int{bS, nOut}}
		for _, g := range in[8:] {
			if err := sameShapeGrad("lstmBlockCell_bp", o, g); err != nil {
				return nil, err
			}
		}
		return sameInfos(in, 8), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		p, err := lstmCellArrays("lstmBlockCell_bp", in, a)
		if err != nil {
			return nil, err
		}
		for i, g := range in[8:] {
			if g.DType() != in[0].DType() || !ndarray.SameShape(g.Shape(), []int{p.bS, p.nOut}) {
				return nil, fmt.Errorf("lstmBlockCell_bp: gradient %d is %v%v; want %v[%d %d]", i, g.DType(), g.Shape(), in[0].DType(), p.bS, p.nOut)
			}
		}
		if in[0].DType() == ndarray.Float32 {
			return lstmCellBackward[float32](c, "lstmBlockCell_bp", in, p)
		}
		return lstmCellBackward[float64](c, "lstmBlockCell_bp", in, p)
	},
})

// outGrads returns the gradients of the recurrent op n's first k outputs,
// zeros for those no path reaches: the cells' and sequences' backprop ops
// take them all.
func outGrads(b GradBuilder, n GradNode, d []Value, k int) []Value {
	g := make([]Value, k)
	for i := range g {
		if g[i] = d[i]; g[i] == nil {
			g[i] = op1(b, "zeros_as", Args{}, n.Out[i])
		}
	}
	return g
}
