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
	if err := ndarray.MatMulInto(ru, s.xh, in[2], false, false); err != nil {
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
	if err := ndarray.MatMulInto(s.c, s.xrh, in[3], false, false); err != nil {
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
		in := append([]Value(nil), n.In...)
		for i := range 4 {
			g := d[i]
			if g == nil {
				g = op1(b, "zeros_as", Args{}, n.Out[i])
			}
			in = append(in, g)
		}
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
	if err := ndarray.MatMulInto(dxrh, dzc, in[3], false, true); err != nil {
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
	if err := ndarray.MatMulInto(dxh, dzru, in[2], false, true); err != nil {
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
	if err := ndarray.MatMulInto(out[2], s.xh, dzru, true, false); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := ndarray.MatMulInto(out[3], s.xrh, dzc, true, false); err != nil {
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
