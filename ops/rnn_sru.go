package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// SameDiff's SRU ops (SDRNN): sruCell and sru (sruCell's step over a
// sequence), with the backprop ops their gradient rules call.

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
		in := append(append([]Value(nil), n.In...), outGrads(b, n, d, 2)...)
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

// sruDims checks sru's inputs x [batch, K, time], w [3K, K], b [2K], c0
// [batch, K] and the optional mask [batch, K] as far as they are known,
// and returns batch, K and time (-1 where unknown).
func sruDims(name string, in []Info) (bS, k, sL int, err error) {
	if err := sruFloats(name, in); err != nil || in[0].UnknownRank {
		return -1, -1, -1, err
	}
	x := in[0].Shape
	if len(x) != 3 {
		return 0, 0, 0, fmt.Errorf("%s: x has shape %v; want [batch, inSize, time]", name, x)
	}
	bS, k, sL = x[0], x[1], x[2]
	mul := func(m int) int {
		if k < 0 {
			return -1
		}
		return m * k
	}
	check := sruShapeCheck(name, x, "batch, inSize, time")
	errs := []error{
		check("w (weights)", in[1], mul(3), k),
		check("b (forget and reset biases)", in[2], mul(2)),
		check("c0 (initial cell state)", in[3], bS, k),
	}
	if len(in) > 4 {
		errs = append(errs, check("the mask", in[4], bS, k))
	}
	for _, e := range errs {
		if e != nil {
			return 0, 0, 0, e
		}
	}
	if bS < 0 && !in[3].UnknownRank {
		bS = in[3].Shape[0]
	}
	return bS, k, sL, nil
}

// sruFloats checks that the inputs are float32 or float64, all of one
// dtype.
func sruFloats(name string, in []Info) error {
	for i, v := range in {
		if err := needFloat(name, v); err != nil {
			return err
		}
		if v.DType != in[0].DType {
			return fmt.Errorf("%s: input %d is %v, x %v; they must have one dtype", name, i, v.DType, in[0].DType)
		}
	}
	return nil
}

// sruShapeCheck returns a check of an input's shape against the sizes
// want (-1 matches any), its error naming the input and x's shape x,
// whose axes layout names. A [1, n] row passes for a vector [n], as
// libnd4j's biases may come.
func sruShapeCheck(name string, x []int, layout string) func(what string, v Info, want ...int) error {
	return func(what string, v Info, want ...int) error {
		s := v.Shape
		if v.UnknownRank {
			return nil
		}
		if len(want) == 1 && len(s) == 2 && s[0] == 1 {
			s = s[1:]
		}
		ok := len(s) == len(want)
		for i := 0; ok && i < len(want); i++ {
			ok = s[i] < 0 || want[i] < 0 || s[i] == want[i]
		}
		if !ok {
			return fmt.Errorf("%s: %s has shape %v; want %v (x %v: %s)", name, what, v.Shape, want, x, layout)
		}
		return nil
	}
}

// sruPrep returns sru's input time-major [time, batch, K] with the mask
// applied, and the weights transposed to sruCell's [K, 3K], from c's pool.
func sruPrep[T float32 | float64](c *Ctx, name string, x, w, mask *ndarray.Array) (xs, wT *ndarray.Array, err error) {
	xs, err = timeMajor(c, name, x, 1)
	if err != nil {
		return nil, nil, err
	}
	if mask != nil {
		m := ndarray.Values[T](mask)
		v := ndarray.Raw[T](xs)[:xs.Size()]
		for i := range v {
			v[i] *= m[i%len(m)]
		}
	}
	if wT, err = permuted(c, name, w, []int{1, 0}); err != nil {
		c.Release(xs)
		return nil, nil, err
	}
	return xs, wT, nil
}

// sruRun runs sruCell's step over the time-major masked input xs and
// returns h and c, time-major, from c's pool.
func sruRun[T float32 | float64](ctx *Ctx, name string, xs, wT, b, c0 *ndarray.Array, bS, k, sL int) (hs, cs *ndarray.Array, err error) {
	dt := xs.DType()
	n := bS * k
	hs, cs = ctx.Alloc(dt, []int{sL, bS, k}), ctx.Alloc(dt, []int{sL, bS, k})
	hv, cv, xv := ndarray.Raw[T](hs)[:sL*n], ndarray.Raw[T](cs)[:sL*n], ndarray.Raw[T](xs)[:sL*n]
	prev := c0
	for t := range sL {
		if err := ctx.Err(); err != nil { // a deadline ends a long sequence between steps
			ctx.Release(hs)
			ctx.Release(cs)
			return nil, nil, err
		}
		xt := ndarray.Must(ndarray.Wrap(xv[t*n:(t+1)*n], bS, k))
		h, c, f, r, z, err := sruCellForward[T](ctx, name, []*ndarray.Array{xt, prev, wT, b}, bS, k)
		if err != nil {
			ctx.Release(hs)
			ctx.Release(cs)
			return nil, nil, err
		}
		copy(hv[t*n:(t+1)*n], ndarray.Raw[T](h)[:n])
		copy(cv[t*n:(t+1)*n], ndarray.Raw[T](c)[:n])
		for _, a := range []*ndarray.Array{h, c, f, r, z} {
			ctx.Release(a)
		}
		prev = ndarray.Must(ndarray.Wrap(cv[t*n:(t+1)*n], bS, k))
	}
	return hs, cs, nil
}

func sruForwardRun[T float32 | float64](c *Ctx, in []*ndarray.Array, bS, k, sL int) ([]*ndarray.Array, error) {
	const name = "sru"
	var mask *ndarray.Array
	if len(in) > 4 {
		mask = in[4]
	}
	xs, wT, err := sruPrep[T](c, name, in[0], in[1], mask)
	if err != nil {
		return nil, err
	}
	defer c.Release(xs)
	defer c.Release(wT)
	hs, cs, err := sruRun[T](c, name, xs, wT, in[2], in[3], bS, k, sL)
	if err != nil {
		return nil, err
	}
	defer c.Release(hs)
	defer c.Release(cs)
	h, err := fromTimeMajor(c, name, hs, 1)
	if err != nil {
		return nil, err
	}
	cc, err := fromTimeMajor(c, name, cs, 1)
	if err != nil {
		c.Release(h)
		return nil, err
	}
	return []*ndarray.Array{h, cc}, nil
}

// sruOp is libnd4j's sru, the simple recurrent unit over a sequence:
// inputs x [batch, K, time], w [3K, K] (row blocks: candidate, forget
// gate, reset gate), b [2K] (forget then reset biases), the initial cell
// state c0 [batch, K] and an optional mask [batch, K] that multiplies x
// at every step (dropout); no arguments. Each step is sruCell's with wᵀ:
// z = x_t·wᵀ, f = σ(z_f + b_f), r = σ(z_r + b_r),
// c_t = f∘c_{t-1} + (1 - f)∘z_c, h_t = r∘tanh(c_t) + (1 - r)∘x_t. Outputs
// h and c of every step, [batch, K, time].
var sruOp = Register(sruSequenceDef("sru", "sru_bp",
	"simple recurrent unit over a sequence: h and c [batch, K, time] for x, w [3K, K], b [2K], c0 and an optional mask",
	func(name string, in []Info) ([]int, error) {
		bS, k, sL, err := sruDims(name, in)
		return []int{bS, k, sL}, err
	},
	func(c *Ctx, in []*ndarray.Array, seq []int) ([]*ndarray.Array, error) {
		if in[0].DType() == ndarray.Float32 {
			return sruForwardRun[float32](c, in, seq[0], seq[1], seq[2])
		}
		return sruForwardRun[float64](c, in, seq[0], seq[1], seq[2])
	}))

// sruBackward is backpropagation through time with sruCell_bp's step,
// from the last step to the first.
func sruBackward[T float32 | float64](ctx *Ctx, in []*ndarray.Array, bS, k, sL int) ([]*ndarray.Array, error) {
	const name = "sru_bp"
	var mask *ndarray.Array
	if len(in) > 7 {
		mask = in[7]
	}
	xs, wT, err := sruPrep[T](ctx, name, in[0], in[1], mask)
	if err != nil {
		return nil, err
	}
	defer ctx.Release(xs)
	defer ctx.Release(wT)
	var tm []*ndarray.Array
	defer func() {
		for _, a := range tm {
			ctx.Release(a)
		}
	}()
	for _, i := range []int{4, 6, 5} {
		if i == 5 && in[5].Rank() == 2 {
			break
		}
		a, err := timeMajor(ctx, name, in[i], 1)
		if err != nil {
			return nil, err
		}
		tm = append(tm, a)
	}
	dt := xs.DType()
	n := bS * k
	xv, cv, gh := ndarray.Raw[T](xs)[:sL*n], ndarray.Raw[T](tm[0])[:sL*n], ndarray.Raw[T](tm[1])[:sL*n]
	var gc []T
	if len(tm) > 2 {
		gc = ndarray.Raw[T](tm[2])[:sL*n]
	}
	dxs := ctx.Alloc(dt, []int{sL, bS, k})
	defer ctx.Release(dxs)
	dx := ndarray.Raw[T](dxs)[:sL*n]
	dwT, db := make([]T, 3*k*k), make([]T, 2*k)
	carry := make([]T, n)
	if gc == nil {
		copy(carry, ndarray.Values[T](in[5]))
	}
	wrap := func(v []T) *ndarray.Array { return ndarray.Must(ndarray.Wrap(v, bS, k)) }
	for t := sL - 1; t >= 0; t-- {
		if err := ctx.Err(); err != nil { // a deadline ends a long sequence between steps
			return nil, err
		}
		prev := in[3]
		if t > 0 {
			prev = wrap(cv[(t-1)*n : t*n])
		}
		dc := carry
		if gc != nil {
			dc = addInto(make([]T, n), gc[t*n:(t+1)*n], carry)
		}
		d, err := sruCellBackward[T](ctx, []*ndarray.Array{wrap(xv[t*n : (t+1)*n]), prev, wT, in[2], wrap(gh[t*n : (t+1)*n]), wrap(dc)}, bS, k)
		if err != nil {
			return nil, err
		}
		copy(dx[t*n:(t+1)*n], ndarray.Raw[T](d[0])[:n])
		copy(carry, ndarray.Raw[T](d[1])[:n])
		addInto(dwT, dwT, ndarray.Raw[T](d[2])[:len(dwT)])
		addInto(db, db, ndarray.Raw[T](d[3])[:len(db)])
		for _, a := range d {
			ctx.Release(a)
		}
	}
	out := make([]*ndarray.Array, 4, 5)
	if mask != nil {
		// x·mask's gradient dx: x's is dx·mask, the mask's Σ_t dx·x.
		m, x := ndarray.Values[T](mask), ndarray.Values[T](in[0])
		dm := ctx.Alloc(dt, mask.Shape())
		dms := ndarray.Raw[T](dm)[:n]
		clear(dms)
		for e := range n {
			for t := range sL {
				dms[e] += dx[t*n+e] * x[e*sL+t]
				dx[t*n+e] *= m[e]
			}
		}
		out = append(out, dm)
	}
	fail := func(err error) ([]*ndarray.Array, error) {
		for _, a := range out {
			if a != nil {
				ctx.Release(a)
			}
		}
		return nil, err
	}
	if out[0], err = fromTimeMajor(ctx, name, dxs, 1); err != nil {
		return fail(err)
	}
	out[1] = ctx.Alloc(dt, []int{3 * k, k})
	ws := ndarray.Raw[T](out[1])[:3*k*k]
	for i := range k {
		for j := range 3 * k {
			ws[j*k+i] = dwT[i*3*k+j]
		}
	}
	out[2], out[3] = ctx.Alloc(dt, []int{2 * k}), ctx.Alloc(dt, []int{bS, k})
	copy(ndarray.Raw[T](out[2])[:2*k], db)
	copy(ndarray.Raw[T](out[3])[:n], carry)
	return out, nil
}

// sruBpOp is the backprop op of sru, in libnd4j's sru_bp input layout: x,
// w, b, c0, the cell states c sru returned [batch, K, time], the gradient
// of c, the gradient of h [batch, K, time] and the optional mask. Outputs
// the gradients of x, w [3K, K], b [2K], c0 and, with a mask, the mask.
// The gradient of c is that of every step's state [batch, K, time] or, as
// in libnd4j, that of the last state only [batch, K]. libnd4j's own sru_bp
// returns w's gradient per example [batch, 3K, K] and b's as [1, 2K]; no
// SameDiff file names sru_bp (Java has no class for it), so sdgo returns
// the gradients in the inputs' shapes.
var sruBpOp = Register(sruSequenceBpDef("sru_bp",
	"gradient of sru for x, w, b, c0, its states c, the gradients of c and h, and the optional mask",
	func(name string, in []Info) ([]int, error) {
		bS, k, sL, err := sruDims(name, in)
		return []int{bS, k, sL}, err
	},
	func(seq []int) []int { return seq[:2] },
	func(c *Ctx, in []*ndarray.Array, seq []int) ([]*ndarray.Array, error) {
		if in[0].DType() == ndarray.Float32 {
			return sruBackward[float32](c, in, seq[0], seq[1], seq[2])
		}
		return sruBackward[float64](c, in, seq[0], seq[1], seq[2])
	}))

// sruSequenceDef builds the definition of sru or sru_bi: name's inputs
// are x, w, b, c0 and an optional mask, its outputs h and c of x's shape,
// which dims checks the inputs against (the sizes in x's order, -1 where
// unknown). Its gradient is the backprop op bp.
func sruSequenceDef(name, bp, doc string, dims func(string, []Info) ([]int, error),
	run func(c *Ctx, in []*ndarray.Array, seq []int) ([]*ndarray.Array, error)) *Def {
	return &Def{
		Name: name, Type: Custom, MinIn: 4, MaxIn: 5, Doc: doc,
		Infer: func(in []Info, _ *Args) ([]Info, error) {
			seq, err := dims(name, in)
			if err != nil {
				return nil, err
			}
			o := Info{DType: in[0].DType, Shape: seq}
			if in[0].UnknownRank {
				o = Info{DType: in[0].DType, UnknownRank: true}
			}
			return infos(o, o), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
			seq, err := dims(name, arrayInfos(in))
			if err != nil {
				return nil, err
			}
			return run(c, in, seq)
		},
		Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
			g := outGrads(b, n, d, 2)
			in := append(append([]Value(nil), n.In[:4]...), n.Out[1], g[1], g[0])
			return b.Op(bp, Args{}, append(in, n.In[4:]...)...)
		},
	}
}

// sruSequenceBpDef builds the definition of sru_bp or sru_bi_bp: inputs
// x, w, b, c0, the states c, the gradient of c (of every state, or of the
// last, of shape last(x's)), the gradient of h and the optional mask;
// outputs the gradients of x, w, b, c0 and the mask.
func sruSequenceBpDef(name, doc string, dims func(string, []Info) ([]int, error), last func([]int) []int,
	run func(c *Ctx, in []*ndarray.Array, seq []int) ([]*ndarray.Array, error)) *Def {
	check := func(in []Info) ([]Info, []int, error) {
		fwd := append(append([]Info(nil), in[:4]...), in[7:]...)
		seq, err := dims(name, fwd)
		if err != nil || in[0].UnknownRank {
			return fwd, seq, err
		}
		for i, what := range []string{"the cell states", "the gradient of c", "the gradient of h"} {
			v := in[4+i]
			want := Info{DType: in[0].DType, Shape: seq}
			if i == 1 && !v.UnknownRank && len(v.Shape) == 2 {
				want.Shape = last(seq)
			}
			if v.DType != want.DType || !v.UnknownRank && !want.Admits(v.Shape) {
				return nil, nil, fmt.Errorf("%s: %s is %v%v; want %v%v", name, what, v.DType, v.Shape, in[0].DType, seq)
			}
		}
		return fwd, seq, nil
	}
	return &Def{
		Name: name, Type: Custom, MinIn: 7, MaxIn: 8, Doc: doc,
		Infer: func(in []Info, _ *Args) ([]Info, error) {
			fwd, _, err := check(in)
			if err != nil {
				return nil, err
			}
			return sameInfos(fwd, len(fwd)), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
			_, seq, err := check(arrayInfos(in))
			if err != nil {
				return nil, err
			}
			return run(c, in, seq)
		},
	}
}

// arrayInfos are the arrays' dtypes and shapes.
func arrayInfos(in []*ndarray.Array) []Info {
	info := make([]Info, len(in))
	for i, a := range in {
		info[i] = Info{DType: a.DType(), Shape: a.Shape()}
	}
	return info
}
