package ops

import (
	"fmt"
	"math"

	"github.com/sdgo/sdgo/ndarray"
)

// SameDiff's lstmBlock (SDRNN.lstmblock): lstmBlockCell (rnn_cell.go) run
// over a whole sequence, with sdgo's backprop op lstmBlock_bp, which runs
// lstmBlockCell_bp's step backwards through time.

// seqToTime and seqFromTime are the permutations between a sequence in
// RnnDataFormat f (0 TNS [time, batch, size], 1 NST [batch, size, time],
// 2 NTS [batch, time, size]) and time-major [time, batch, size].
var (
	seqToTime   = [3][]int{{0, 1, 2}, {2, 0, 1}, {1, 0, 2}}
	seqFromTime = [3][]int{{0, 1, 2}, {1, 2, 0}, {1, 0, 2}}
)

// seqShape returns the shape of a [time, batch, size] sequence in
// RnnDataFormat f.
func seqShape(f, sL, bS, n int) []int {
	p := seqFromTime[f]
	tbs := []int{sL, bS, n}
	return []int{tbs[p[0]], tbs[p[1]], tbs[p[2]]}
}

// timeMajor copies a sequence in RnnDataFormat f into a packed
// [time, batch, size] array from c's pool.
func timeMajor(c *Ctx, name string, a *ndarray.Array, f int) (*ndarray.Array, error) {
	return permuted(c, name, a, seqToTime[f])
}

// fromTimeMajor writes the time-major sequence tm [time, batch, size] into
// a new array from c's pool in RnnDataFormat f.
func fromTimeMajor(c *Ctx, name string, tm *ndarray.Array, f int) (*ndarray.Array, error) {
	return permuted(c, name, tm, seqFromTime[f])
}

// permuted returns a packed copy of a with its axes permuted, from c's
// pool.
func permuted(c *Ctx, name string, a *ndarray.Array, perm []int) (*ndarray.Array, error) {
	v, err := ndarray.Permute(a, perm...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	out := c.Alloc(a.DType(), v.Shape())
	if err := ndarray.CopyInto(out, v); err != nil {
		c.Release(out)
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

// lstmBlockDims checks lstmBlock's nine inputs (maxTSLength, x, cLast,
// yLast, W, Wci, Wcf, Wco, b) and its data format as far as they are
// known, and returns the sequence length, batch, nIn and nOut (-1 where
// unknown).
func lstmBlockDims(name string, in []Info, a *Args) (sL, bS, nIn, nOut int, err error) {
	f := a.Int(1, 0)
	if f < 0 || f > 2 {
		return 0, 0, 0, 0, fmt.Errorf("%s: int arg 1 (data format) is %d; want 0 (TNS), 1 (NST) or 2 (NTS)", name, f)
	}
	if err := needNumeric(name+" maxTSLength", in[0]); err != nil {
		return 0, 0, 0, 0, err
	}
	if !in[0].UnknownRank && (len(in[0].Shape) > 1 || len(in[0].Shape) == 1 && in[0].Shape[0] > 1) {
		return 0, 0, 0, 0, fmt.Errorf("%s: maxTSLength has shape %v; want a scalar", name, in[0].Shape)
	}
	step := append([]Info(nil), in[1:9]...)
	sL = -1
	if !in[1].UnknownRank {
		x := in[1].Shape
		if len(x) != 3 {
			return 0, 0, 0, 0, fmt.Errorf("%s: x has shape %v; want rank 3 (%s)", name, x, [3]string{"[time, batch, nIn]", "[batch, nIn, time]", "[batch, time, nIn]"}[f])
		}
		p := seqToTime[f]
		sL = x[p[0]]
		step[0] = Info{DType: in[1].DType, Shape: []int{x[p[1]], x[p[2]]}}
	}
	bS, nIn, nOut, err = lstmCellDims(name, step)
	if err != nil {
		if !in[1].UnknownRank {
			err = fmt.Errorf("%w (xt is a step of x %v)", err, in[1].Shape)
		}
		return 0, 0, 0, 0, err
	}
	if v, ok := constInts(in[0]); ok && len(v) == 1 && sL >= 0 {
		if err := checkMaxTS(name, int64(v[0]), sL); err != nil {
			return 0, 0, 0, 0, err
		}
	}
	return sL, bS, nIn, nOut, nil
}

// checkMaxTS checks that maxTSLength l is a usable step count for a
// sequence of sL steps.
func checkMaxTS(name string, l int64, sL int) error {
	if l < 0 || l > int64(sL) {
		return fmt.Errorf("%s: maxTSLength is %d; want 0 to the sequence length %d", name, l, sL)
	}
	return nil
}

// maxTS reads maxTSLength at run time: a one-element numeric array holding
// a whole number from 0 to sL.
func maxTS(name string, a *ndarray.Array, sL int) (int, error) {
	if a.Size() != 1 || !a.DType().IsNumeric() {
		return 0, fmt.Errorf("%s: maxTSLength is %v%v; want a numeric scalar", name, a.DType(), a.Shape())
	}
	v := a.Float64s()[0]
	if v != math.Trunc(v) {
		return 0, fmt.Errorf("%s: maxTSLength is %g; want a whole number", name, v)
	}
	if v < 0 || v > float64(sL) {
		return 0, fmt.Errorf("%s: maxTSLength is %g; want 0 to the sequence length %d", name, v, sL)
	}
	return int(v), nil
}

// lstmBlockArrays checks a run's inputs and returns the step options, the
// sequence length, the number of steps run and the data format.
func lstmBlockArrays(name string, in []*ndarray.Array, a *Args) (p lstmCellOpts, sL, steps, f int, err error) {
	info := make([]Info, 9)
	for i, x := range in[:9] {
		info[i] = Info{DType: x.DType(), Shape: x.Shape()}
	}
	sL, bS, nIn, nOut, err := lstmBlockDims(name, info, a)
	if err != nil {
		return p, 0, 0, 0, err
	}
	p = lstmCellOpts{peephole: a.Int(0, 0) != 0, forgetBias: a.Float(0, 0), clip: a.Float(1, 0), bS: bS, nIn: nIn, nOut: nOut}
	if p.clip < 0 {
		return p, 0, 0, 0, fmt.Errorf("%s: float arg 1 (cell clipping) is %g; want 0 (none) or more", name, p.clip)
	}
	steps, err = maxTS(name, in[0], sL)
	return p, sL, steps, int(a.Int(1, 0)), err
}

// lstmBlockRun runs the steps: xs is x time-major [time, batch, nIn]; it
// returns the seven outputs time-major [time, batch, nOut], zero from step
// `steps` on, from c's pool.
func lstmBlockRun[T float32 | float64](c *Ctx, name string, in []*ndarray.Array, xs *ndarray.Array, p lstmCellOpts, sL, steps int) ([7]*ndarray.Array, error) {
	dt := xs.DType()
	var outs [7]*ndarray.Array
	n, nx := p.bS*p.nOut, p.bS*p.nIn
	var o [7][]T
	for k := range outs {
		outs[k] = c.Alloc(dt, []int{sL, p.bS, p.nOut})
		o[k] = ndarray.Raw[T](outs[k])[:sL*n]
		clear(o[k][steps*n:])
	}
	fail := func(err error) ([7]*ndarray.Array, error) {
		for _, a := range outs {
			c.Release(a)
		}
		return [7]*ndarray.Array{}, err
	}
	xv := ndarray.Raw[T](xs)[:sL*nx]
	step := append([]*ndarray.Array{nil, in[2], in[3]}, in[4:9]...)
	for t := range steps {
		if err := c.Err(); err != nil { // a deadline ends a long sequence between steps
			return fail(fmt.Errorf("%s: %w", name, err))
		}
		xt, err := ndarray.Wrap(xv[t*nx:(t+1)*nx], p.bS, p.nIn)
		if err != nil {
			return fail(fmt.Errorf("%s: %w", name, err))
		}
		step[0] = xt
		s, err := lstmCellForward[T](c, name, step, p)
		if err != nil {
			return fail(err)
		}
		c.Release(s.xy)
		for k, a := range s.out {
			copy(o[k][t*n:(t+1)*n], ndarray.Raw[T](a)[:n])
			c.Release(a)
		}
		// The next step reads this one's cell state and output where
		// they were stored.
		step[1] = ndarray.Must(ndarray.Wrap(o[1][t*n:(t+1)*n], p.bS, p.nOut))
		step[2] = ndarray.Must(ndarray.Wrap(o[6][t*n:(t+1)*n], p.bS, p.nOut))
	}
	return outs, nil
}

// lstmBlockOp is libnd4j's lstmBlock: inputs maxTSLength (a scalar), x
// (int arg 1 dataFormat: 0 TNS [time, batch, nIn], 1 NST [batch, nIn,
// time], 2 NTS [batch, time, nIn]), the initial cell state cLast and output
// yLast [batch, nOut], and lstmBlockCell's weights W [nIn+nOut, 4·nOut]
// (gate columns i, z, f, o), Wci, Wcf, Wco [nOut], b [4·nOut]; int arg 0
// peephole, float args 0 forgetBias, 1 clippingCellValue (0: none).
// Outputs the seven step outputs of every step (i, c, f, o, z, h, y) in
// x's format with nOut for nIn. The first maxTSLength steps run; the
// outputs of later steps are zero (TensorFlow's BlockLSTM, whose seq_len_max
// this is; libnd4j's helper ignores it, and reads the step count from x's
// first axis whatever the format, which sdgo does not copy).
var lstmBlockOp = Register(&Def{
	Name: "lstmBlock", Type: Custom, MinIn: 9, MaxIn: 9, NonDiff: []int{0},
	Doc: "lstmBlockCell over a sequence: i, c, f, o, z, h, y of every step for maxTSLength, x, cLast, yLast, W, Wci, Wcf, Wco, b",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		sL, bS, _, nOut, err := lstmBlockDims("lstmBlock", in, a)
		if err != nil {
			return nil, err
		}
		o := Info{DType: in[1].DType, Shape: seqShape(int(a.Int(1, 0)), sL, bS, nOut)}
		return infos(o, o, o, o, o, o, o), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		const name = "lstmBlock"
		p, sL, steps, f, err := lstmBlockArrays(name, in, a)
		if err != nil {
			return nil, err
		}
		xs, err := timeMajor(c, name, in[1], f)
		if err != nil {
			return nil, err
		}
		defer c.Release(xs)
		var tm [7]*ndarray.Array
		if xs.DType() == ndarray.Float32 {
			tm, err = lstmBlockRun[float32](c, name, in, xs, p, sL, steps)
		} else {
			tm, err = lstmBlockRun[float64](c, name, in, xs, p, sL, steps)
		}
		if err != nil {
			return nil, err
		}
		if f == 0 {
			return tm[:], nil
		}
		out := make([]*ndarray.Array, 7)
		for k, t := range tm {
			if err == nil {
				out[k], err = fromTimeMajor(c, name, t, f)
			}
			c.Release(t)
		}
		if err != nil {
			for _, o := range out {
				if o != nil {
					c.Release(o)
				}
			}
			return nil, err
		}
		return out, nil
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		in := append(append([]Value(nil), n.In...), outGrads(b, n, d, 7)...)
		return append([]Value{nil}, b.Op("lstmBlock_bp", n.Args.Clone(), in...)...)
	},
})

// lstmBlockBackward is backpropagation through time: the forward steps
// again, then lstmBlockCell_bp's step from the last step run to the first,
// each with the carried gradients of its cell state and output added to
// those of its outputs. xs and gs are time-major.
func lstmBlockBackward[T float32 | float64](c *Ctx, name string, in []*ndarray.Array, xs *ndarray.Array, gs [7]*ndarray.Array, p lstmCellOpts, sL, steps int) ([]*ndarray.Array, error) {
	fwd, err := lstmBlockRun[T](c, name, in, xs, p, sL, steps)
	if err != nil {
		return nil, err
	}
	defer func() {
		for _, a := range fwd {
			c.Release(a)
		}
	}()
	dt := xs.DType()
	n, nx := p.bS*p.nOut, p.bS*p.nIn
	cs, ys := ndarray.Raw[T](fwd[1])[:sL*n], ndarray.Raw[T](fwd[6])[:sL*n]
	var g [7][]T
	for k, a := range gs {
		g[k] = ndarray.Raw[T](a)[:sL*n]
	}
	xv := ndarray.Raw[T](xs)[:sL*nx]
	dxs := c.Alloc(dt, []int{sL, p.bS, p.nIn})
	dx := ndarray.Raw[T](dxs)[:sL*nx]
	clear(dx[steps*nx:])
	// Sums of the weights' gradients over the steps.
	sums := make([][]T, 5)
	for i := range sums {
		sums[i] = make([]T, in[4+i].Size())
	}
	carryC, carryY := make([]T, n), make([]T, n)
	step := make([]*ndarray.Array, 15)
	copy(step[3:8], in[4:9])
	wrap := func(v []T, cols int) *ndarray.Array { return ndarray.Must(ndarray.Wrap(v, p.bS, cols)) }
	for t := steps - 1; t >= 0; t-- {
		if err := c.Err(); err != nil { // a deadline ends a long sequence between steps
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		step[0] = wrap(xv[t*nx:(t+1)*nx], p.nIn)
		if t == 0 {
			step[1], step[2] = in[2], in[3]
		} else {
			step[1], step[2] = wrap(cs[(t-1)*n:t*n], p.nOut), wrap(ys[(t-1)*n:t*n], p.nOut)
		}
		for k := range 7 {
			gt := g[k][t*n : (t+1)*n]
			switch k {
			case 1:
				gt = addInto(make([]T, n), gt, carryC)
			case 6:
				gt = addInto(make([]T, n), gt, carryY)
			}
			step[8+k] = wrap(gt, p.nOut)
		}
		d, err := lstmCellBackward[T](c, name, step, p)
		if err != nil {
			c.Release(dxs)
			return nil, err
		}
		copy(dx[t*nx:(t+1)*nx], ndarray.Raw[T](d[0])[:nx])
		copy(carryC, ndarray.Raw[T](d[1])[:n])
		copy(carryY, ndarray.Raw[T](d[2])[:n])
		for i, s := range sums {
			addInto(s, s, ndarray.Raw[T](d[3+i])[:len(s)])
		}
		for _, a := range d {
			c.Release(a)
		}
	}
	out := make([]*ndarray.Array, 8)
	out[0] = dxs
	out[1], out[2] = c.Alloc(dt, in[2].Shape()), c.Alloc(dt, in[3].Shape())
	copy(ndarray.Raw[T](out[1])[:n], carryC)
	copy(ndarray.Raw[T](out[2])[:n], carryY)
	for i, s := range sums {
		out[3+i] = c.Alloc(dt, in[4+i].Shape())
		copy(ndarray.Raw[T](out[3+i])[:len(s)], s)
	}
	return out, nil
}

// addInto sets dst = a + b elementwise and returns dst.
func addInto[T float32 | float64](dst, a, b []T) []T {
	for i := range dst {
		dst[i] = a[i] + b[i]
	}
	return dst
}

// lstmBlockBpOp is sdgo's backprop op of lstmBlock (libnd4j has none):
// inputs lstmBlock's nine, then the gradients of its seven outputs (in x's
// data format); lstmBlock's arguments. Outputs the gradients of x, cLast,
// yLast, W, Wci, Wcf, Wco and b (maxTSLength has none); the steps from
// maxTSLength on pass no gradient.
var lstmBlockBpOp = Register(&Def{
	Name: "lstmBlock_bp", Type: Custom, MinIn: 16, MaxIn: 16, NonDiff: []int{0},
	Doc: "gradient of lstmBlock for its nine inputs and the gradients of its seven outputs",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		const name = "lstmBlock_bp"
		sL, bS, _, nOut, err := lstmBlockDims(name, in, a)
		if err != nil {
			return nil, err
		}
		o := Info{DType: in[1].DType, Shape: seqShape(int(a.Int(1, 0)), sL, bS, nOut)}
		for _, g := range in[9:] {
			if err := sameShapeGrad(name, o, g); err != nil {
				return nil, err
			}
		}
		return sameInfos(in[1:], 8), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		const name = "lstmBlock_bp"
		p, sL, steps, f, err := lstmBlockArrays(name, in, a)
		if err != nil {
			return nil, err
		}
		want := seqShape(f, sL, p.bS, p.nOut)
		for i, g := range in[9:] {
			if g.DType() != in[1].DType() || !ndarray.SameShape(g.Shape(), want) {
				return nil, fmt.Errorf("%s: gradient %d is %v%v; want %v%v", name, i, g.DType(), g.Shape(), in[1].DType(), want)
			}
		}
		var tm []*ndarray.Array
		defer func() {
			for _, t := range tm {
				c.Release(t)
			}
		}()
		for _, a := range append([]*ndarray.Array{in[1]}, in[9:]...) {
			t, err := timeMajor(c, name, a, f)
			if err != nil {
				return nil, err
			}
			tm = append(tm, t)
		}
		gs := [7]*ndarray.Array(tm[1:])
		var out []*ndarray.Array
		if in[1].DType() == ndarray.Float32 {
			out, err = lstmBlockBackward[float32](c, name, in, tm[0], gs, p, sL, steps)
		} else {
			out, err = lstmBlockBackward[float64](c, name, in, tm[0], gs, p, sL, steps)
		}
		if err != nil || f == 0 {
			return out, err
		}
		dx, err := fromTimeMajor(c, name, out[0], f)
		c.Release(out[0])
		if err != nil {
			for _, o := range out[1:] {
				c.Release(o)
			}
			return nil, err
		}
		out[0] = dx
		return out, nil
	},
})
