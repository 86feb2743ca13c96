package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// SameDiff's SRU ops (SDRNN): sruCell, with the backprop op its gradient
// rule calls.

// sruCellDims checks sruCell's inputs (xt, ct_1, w, b) and returns bS, K.
func sruCellDims(name string, in []Info) (bS, k int, err error) {
	for i, v := range in[:4] {
		if err := needFloat(name, v); err != nil {
			return 0, 0, err
		}
		if v.DType != in[0].DType {
			return 0, 0, fmt.Errorf("%s: input %d is %v, x %v; they must have one dtype", name, i, v.DType, in[0].DType)
		}
	}
	for _, v := range in[:4] {
		if v.UnknownRank {
			return -1, -1, nil
		}
	}
	x, c0, w, b := in[0].Shape, in[1].Shape, in[2].Shape, in[3].Shape
	if len(x) != 2 {
		return 0, 0, fmt.Errorf("%s: xt %v must be a matrix [batch, inSize]", name, x)
	}
	bS, k = x[0], x[1]
	fit := func(a, b int) bool { return a < 0 || b < 0 || a == b }
	mul := func(m int) int {
		if k < 0 {
			return -1
		}
		return m * k
	}
	if len(c0) != 2 || !fit(c0[0], bS) || !fit(c0[1], k) {
		return 0, 0, fmt.Errorf("%s: the previous cell state has shape %v; want [%d %d], xt's", name, c0, bS, k)
	}
	if len(w) != 2 || !fit(w[0], k) || !fit(w[1], mul(3)) {
		return 0, 0, fmt.Errorf("%s: the weights have shape %v; want [%d %d] ([inSize, 3·inSize])", name, w, k, mul(3))
	}
	if len(b) != 1 || !fit(b[0], mul(2)) {
		return 0, 0, fmt.Errorf("%s: the biases have shape %v; want [%d] ([2·inSize])", name, b, mul(2))
	}
	return max(bS, c0[0]), k, nil
}

// sruCellForward computes z = x·w, f = σ(z_f + b_f), r = σ(z_r + b_r),
// c = f∘c0 + (1 - f)∘z_c, h = r∘tanh(c) + (1 - r)∘x (z's column blocks
// c, f, r in that order). It returns h, c, f, r and z from c's pool.
func sruCellForward[T float32 | float64](ctx *Ctx, name string, in []*ndarray.Array, bS, k int) (h, c, f, r, z *ndarray.Array, err error) {
	dt := in[0].DType()
	z = ctx.Alloc(dt, []int{bS, 3 * k})
	if err := ndarray.MatMulInto(z, in[0], in[2], false, false); err != nil {
		ctx.Release(z)
		return nil, nil, nil, nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	x, c0, b := ndarray.Values[T](in[0]), ndarray.Values[T](in[1]), ndarray.Values[T](in[3])
	zs := ndarray.Raw[T](z)[:bS*3*k]
	h, c, f, r = ctx.Alloc(dt, []int{bS, k}), ctx.Alloc(dt, []int{bS, k}), ctx.Alloc(dt, []int{bS, k}), ctx.Alloc(dt, []int{bS, k})
	n := bS * k
	hs, cs, fs, rs := ndarray.Raw[T](h)[:n], ndarray.Raw[T](c)[:n], ndarray.Raw[T](f)[:n], ndarray.Raw[T](r)[:n]
	for i := 0; i < bS; i++ {
		for j := 0; j < k; j++ {
			fs[i*k+j] = zs[i*3*k+k+j] + b[j]
			rs[i*k+j] = zs[i*3*k+2*k+j] + b[k+j]
		}
	}
	for _, a := range []*ndarray.Array{f, r} {
		if err := ndarray.UnaryInto(ndarray.Sigmoid, a, a, 0); err != nil {
			return nil, nil, nil, nil, nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	for i := 0; i < bS; i++ {
		for j := 0; j < k; j++ {
			e := i*k + j
			cs[e] = fs[e]*c0[e] + (1-fs[e])*zs[i*3*k+j]
		}
	}
	if err := ndarray.UnaryInto(ndarray.Tanh, h, c, 0); err != nil {
		return nil, nil, nil, nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	for e := range hs {
		hs[e] = rs[e]*hs[e] + (1-rs[e])*x[e]
	}
	return h, c, f, r, z, nil
}

func sruCellRun[T float32 | float64](c *Ctx, in []*ndarray.Array, bS, k int) ([]*ndarray.Array, error) {
	h, cs, f, r, z, err := sruCellForward[T](c, "sruCell", in, bS, k)
	if err != nil {
		return nil, err
	}
	c.Release(f)
	c.Release(r)
	c.Release(z)
	return []*ndarray.Array{h, cs}, nil
}

// sruCellOp is libnd4j's sruCell: inputs xt [batch, inSize], the previous
// cell state ct_1 [batch, inSize], w [inSize, 3·inSize] (column blocks:
// candidate, forget gate, reset gate), b [2·inSize] (forget then reset
// biases); no arguments. Outputs h = r∘tanh(c) + (1 - r)∘xt and the cell
// state c = f∘ct_1 + (1 - f)∘(xt·w_c), both [batch, inSize].
var sruCellOp = Register(&Def{
	Name: "sruCell", Type: Custom, MinIn: 4, MaxIn: 4,
	Doc: "one SRU step: output h and cell state c for xt, ct_1, w, b",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		bS, k, err := sruCellDims("sruCell", in)
		if err != nil {
			return nil, err
		}
		o := Info{DType: in[0].DType, Shape: []int{bS, k}}
		return infos(o, o), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		info := make([]Info, 4)
		for i, a := range in {
			info[i] = Info{DType: a.DType(), Shape: a.Shape()}
		}
		bS, k, err := sruCellDims("sruCell", info)
		if err != nil {
			return nil, err
		}
		if in[0].DType() == ndarray.Float32 {
			return sruCellRun[float32](c, in, bS, k)
		}
		return sruCellRun[float64](c, in, bS, k)
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		in := append([]Value(nil), n.In...)
		for i := range 2 {
			g := d[i]
			if g == nil {
				g = op1(b, "zeros_as", Args{}, n.Out[i])
			}
			in = append(in, g)
		}
		return b.Op("sruCell_bp", Args{}, in...)
	},
})

// sruCellBackward computes the gradients of xt, ct_1, w and b from those
// of h and c.
func sruCellBackward[T float32 | float64](ctx *Ctx, in []*ndarray.Array, bS, k int) ([]*ndarray.Array, error) {
	const name = "sruCell_bp"
	h, c, f, r, z, err := sruCellForward[T](ctx, name, in, bS, k)
	if err != nil {
		return nil, err
	}
	defer func() {
		for _, a := range []*ndarray.Array{h, c, f, r, z} {
			ctx.Release(a)
		}
	}()
	dt := in[0].DType()
	n := bS * k
	x, c0 := ndarray.Values[T](in[0]), ndarray.Values[T](in[1])
	dh, dcIn := ndarray.Values[T](in[4]), ndarray.Values[T](in[5])
	zs, fs, rs := ndarray.Raw[T](z)[:3*n], ndarray.Raw[T](f)[:n], ndarray.Raw[T](r)[:n]
	dz := ctx.Alloc(dt, []int{bS, 3 * k})
	defer ctx.Release(dz)
	dzs := ndarray.Raw[T](dz)[:3*n]
	out := []*ndarray.Array{ctx.Alloc(dt, []int{bS, k}), ctx.Alloc(dt, []int{bS, k}), ctx.Alloc(dt, in[2].Shape()), ctx.Alloc(dt, in[3].Shape())}
	dx, dc0 := ndarray.Raw[T](out[0])[:n], ndarray.Raw[T](out[1])[:n]
	db := make([]T, 2*k)
	// tanh(c), over h (read no more).
	if err := ndarray.UnaryInto(ndarray.Tanh, h, c, 0); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	th := ndarray.Raw[T](h)[:n]
	for i := 0; i < bS; i++ {
		for j := 0; j < k; j++ {
			e := i*k + j
			tcv := th[e]
			// h = r∘tanh(c) + (1-r)∘x.
			dr := dh[e] * (tcv - x[e])
			dct := dcIn[e] + dh[e]*rs[e]*(1-tcv*tcv)
			dzr := dr * rs[e] * (1 - rs[e])
			zc := zs[i*3*k+j]
			df := dct * (c0[e] - zc)
			dzf := df * fs[e] * (1 - fs[e])
			dzs[i*3*k+j] = dct * (1 - fs[e])
			dzs[i*3*k+k+j] = dzf
			dzs[i*3*k+2*k+j] = dzr
			dc0[e] = dct * fs[e]
			dx[e] = dh[e] * (1 - rs[e])
			db[j] += dzf
			db[k+j] += dzr
		}
	}
	dxz := ctx.Alloc(dt, []int{bS, k})
	defer ctx.Release(dxz)
	if err := ndarray.MatMulInto(dxz, dz, in[2], false, true); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for e, v := range ndarray.Raw[T](dxz)[:n] {
		dx[e] += v
	}
	if err := ndarray.MatMulInto(out[2], in[0], dz, true, false); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	copy(ndarray.Raw[T](out[3])[:2*k], db)
	return out, nil
}

// sruCellBpOp is sdgo's backprop op of sruCell (libnd4j has none):
// inputs xt, ct_1, w, b and the gradients of h and c; outputs the
// gradients of xt, ct_1, w and b.
var sruCellBpOp = Register(&Def{
	Name: "sruCell_bp", Type: Custom, MinIn: 6, MaxIn: 6,
	Doc: "gradient of sruCell for xt, ct_1, w, b and the gradients of h and c",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		bS, k, err := sruCellDims("sruCell_bp", in)
		if err != nil {
			return nil, err
		}
		o := Info{DType: in[0].DType, Shape: []int{bS, k}}
		for _, g := range in[4:] {
			if err := sameShapeGrad("sruCell_bp", o, g); err != nil {
				return nil, err
			}
		}
		return sameInfos(in, 4), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		info := make([]Info, 4)
		for i, a := range in[:4] {
			info[i] = Info{DType: a.DType(), Shape: a.Shape()}
		}
		bS, k, err := sruCellDims("sruCell_bp", info)
		if err != nil {
			return nil, err
		}
		for i, g := range in[4:] {
			if g.DType() != in[0].DType() || !ndarray.SameShape(g.Shape(), []int{bS, k}) {
				return nil, fmt.Errorf("sruCell_bp: gradient %d is %v%v; want %v[%d %d]", i, g.DType(), g.Shape(), in[0].DType(), bS, k)
			}
		}
		if in[0].DType() == ndarray.Float32 {
			return sruCellBackward[float32](c, in, bS, k)
		}
		return sruCellBackward[float64](c, in, bS, k)
	},
})
