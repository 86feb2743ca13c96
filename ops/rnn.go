package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// SameDiff's whole-sequence recurrent ops (SDRNN): gru with its libnd4j
// backprop op gru_bp. The cells are in rnn_cell.go and rnn_sru.go.

// gruDims checks gru's inputs (x [time, batch, nIn], hI [batch, nOut],
// Wx [nIn, 3·nOut], Wh [nOut, 3·nOut], b [3·nOut]) and returns time,
// batch, nIn, nOut (-1 where unknown).
func gruDims(name string, in []Info) (sL, bS, nIn, nOut int, err error) {
	for i, v := range in[:5] {
		if err := needFloat(name, v); err != nil {
			return 0, 0, 0, 0, err
		}
		if v.DType != in[0].DType {
			return 0, 0, 0, 0, fmt.Errorf("%s: input %d is %v, x %v; they must have one dtype", name, i, v.DType, in[0].DType)
		}
	}
	for _, v := range in[:5] {
		if v.UnknownRank {
			return -1, -1, -1, -1, nil
		}
	}
	x, h := in[0].Shape, in[1].Shape
	if len(x) != 3 || len(h) != 2 {
		return 0, 0, 0, 0, fmt.Errorf("%s: x %v must be [time, batch, nIn] and hI %v [batch, nOut]", name, x, h)
	}
	fit := func(a, b int) bool { return a < 0 || b < 0 || a == b }
	if !fit(x[1], h[0]) {
		return 0, 0, 0, 0, fmt.Errorf("%s: x %v and hI %v have different batch sizes", name, x, h)
	}
	sL, bS, nIn, nOut = x[0], max(x[1], h[0]), x[2], h[1]
	three := -1
	if nOut >= 0 {
		three = 3 * nOut
	}
	for _, c := range []struct {
		what string
		got  []int
		want []int
	}{{"Wx (input weights)", in[2].Shape, []int{nIn, three}}, {"Wh (recurrent weights)", in[3].Shape, []int{nOut, three}}, {"b (biases)", in[4].Shape, []int{three}}} {
		ok := len(c.got) == len(c.want)
		for i := 0; ok && i < len(c.got); i++ {
			ok = fit(c.got[i], c.want[i])
		}
		if !ok {
			return 0, 0, 0, 0, fmt.Errorf("%s: %s has shape %v; want %v (nIn %d, nOut %d)", name, c.what, c.got, c.want, nIn, nOut)
		}
	}
	return sL, bS, nIn, nOut, nil
}

func gruArrays(name string, in []*ndarray.Array) (sL, bS, nIn, nOut int, err error) {
	info := make([]Info, 5)
	for i, a := range in[:5] {
		info[i] = Info{DType: a.DType(), Shape: a.Shape()}
	}
	return gruDims(name, info)
}

// gruTrace is what gru's forward pass keeps for the backward one, per
// step: the gates r, u, c and the recurrent cell term hPrev·Wh_c.
type gruTrace[T float32 | float64] struct {
	r, u, c, ghc []T
}

// gruForward runs the sequence: zx = x·Wx + b for all steps in one GEMM,
// then per step gh = hPrev·Wh, r = σ(zx_r + gh_r), u = σ(zx_u + gh_u),
// c = tanh(zx_c + r∘gh_c), h = u∘hPrev + (1 - u)∘c (libnd4j's helper
// applies the reset gate after the recurrent product). It writes h
// [time, batch, nOut] and, when tr is not nil, the trace.
func gruForward[T float32 | float64](ctx *Ctx, name string, in []*ndarray.Array, h *ndarray.Array, tr *gruTrace[T], sL, bS, nOut int) error {
	dt := in[0].DType()
	n3 := 3 * nOut
	zx := ctx.Alloc(dt, []int{sL, bS, n3})
	defer ctx.Release(zx)
	if err := ndarray.MatMulInto(zx, in[0], in[2], false, false); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	zs, b := ndarray.Raw[T](zx)[:sL*bS*n3], ndarray.Values[T](in[4])
	hPrev := ctx.Alloc(dt, []int{bS, nOut})
	gh := ctx.Alloc(dt, []int{bS, n3})
	ru := ctx.Alloc(dt, []int{bS, 2 * nOut})
	cc := ctx.Alloc(dt, []int{bS, nOut})
	defer func() {
		for _, a := range []*ndarray.Array{hPrev, gh, ru, cc} {
			ctx.Release(a)
		}
	}()
	n := bS * nOut
	hp, ghs, rus, cs := ndarray.Raw[T](hPrev)[:n], ndarray.Raw[T](gh)[:bS*n3], ndarray.Raw[T](ru)[:2*n], ndarray.Raw[T](cc)[:n]
	copy(hp, ndarray.Values[T](in[1]))
	hs := ndarray.Raw[T](h)[:sL*n]
	for t := 0; t < sL; t++ {
		if err := ctx.Err(); err != nil { // a deadline ends a long sequence between steps
			return fmt.Errorf("%s: %w", name, err)
		}
		if err := ndarray.MatMulInto(gh, hPrev, in[3], false, false); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		z := zs[t*bS*n3 : (t+1)*bS*n3]
		for i := 0; i < bS; i++ {
			for j := 0; j < 2*nOut; j++ {
				rus[i*2*nOut+j] = z[i*n3+j] + b[j] + ghs[i*n3+j]
			}
		}
		if err := ndarray.UnaryInto(ndarray.Sigmoid, ru, ru, 0); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		for i := 0; i < bS; i++ {
			for j := 0; j < nOut; j++ {
				cs[i*nOut+j] = z[i*n3+2*nOut+j] + b[2*nOut+j] + rus[i*2*nOut+j]*ghs[i*n3+2*nOut+j]
			}
		}
		if err := ndarray.UnaryInto(ndarray.Tanh, cc, cc, 0); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		ht := hs[t*n : (t+1)*n]
		for i := 0; i < bS; i++ {
			for j := 0; j < nOut; j++ {
				e := i*nOut + j
				u := rus[i*2*nOut+nOut+j]
				ht[e] = u*hp[e] + (1-u)*cs[e]
				if tr != nil {
					tr.r[t*n+e], tr.u[t*n+e], tr.c[t*n+e], tr.ghc[t*n+e] = rus[i*2*nOut+j], u, cs[e], ghs[i*n3+2*nOut+j]
				}
			}
		}
		copy(hp, ht)
	}
	return nil
}

// gruOp is libnd4j's gru: inputs x [time, batch, nIn], the initial output
// hI [batch, nOut], Wx [nIn, 3·nOut] and Wh [nOut, 3·nOut] (gate column
// blocks reset, update, cell), b [3·nOut]; no arguments. Output h
// [time, batch, nOut], the output of every step.
var gruOp = Register(&Def{
	Name: "gru", Type: Custom, MinIn: 5, MaxIn: 5,
	Doc: "a GRU over a whole sequence x [time, batch, nIn] from hI with Wx, Wh, b; the outputs of every step",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		sL, bS, _, nOut, err := gruDims("gru", in)
		if err != nil {
			return nil, err
		}
		if in[0].UnknownRank || in[1].UnknownRank {
			return infos(Info{DType: in[0].DType, UnknownRank: true}), nil
		}
		return infos(Info{DType: in[0].DType, Shape: []int{sL, bS, nOut}}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		sL, bS, _, nOut, err := gruArrays("gru", in)
		if err != nil {
			return nil, err
		}
		h := c.Alloc(in[0].DType(), []int{sL, bS, nOut})
		if in[0].DType() == ndarray.Float32 {
			err = gruForward[float32](c, "gru", in, h, nil, sL, bS, nOut)
		} else {
			err = gruForward[float64](c, "gru", in, h, nil, sL, bS, nOut)
		}
		return one(h, err)
	},
	Grad: bpOp("gru_bp"),
})

// gruBackward is backpropagation through time: the forward pass again
// with its trace, then the steps in reverse, the recurrent GEMMs per step
// and the input ones for all steps at once.
func gruBackward[T float32 | float64](ctx *Ctx, in []*ndarray.Array, sL, bS, nIn, nOut int) ([]*ndarray.Array, error) {
	const name = "gru_bp"
	dt := in[0].DType()
	n, n3 := bS*nOut, 3*nOut
	if err := reserve[T](name, 4, sL, n); err != nil {
		return nil, err
	}
	tr := &gruTrace[T]{r: make([]T, sL*n), u: make([]T, sL*n), c: make([]T, sL*n), ghc: make([]T, sL*n)}
	h := ctx.Alloc(dt, []int{sL, bS, nOut})
	defer ctx.Release(h)
	if err := gruForward(ctx, name, in, h, tr, sL, bS, nOut); err != nil {
		return nil, err
	}
	hs, hI, g := ndarray.Raw[T](h)[:sL*n], ndarray.Values[T](in[1]), ndarray.Values[T](in[5])
	dzx := ctx.Alloc(dt, []int{sL, bS, n3})
	defer ctx.Release(dzx)
	dgh := ctx.Alloc(dt, []int{bS, n3})
	hPrev := ctx.Alloc(dt, []int{bS, nOut})
	dhPrev := ctx.Alloc(dt, []int{bS, nOut})
	dwhStep := ctx.Alloc(dt, in[3].Shape())
	defer func() {
		for _, a := range []*ndarray.Array{dgh, hPrev, dhPrev, dwhStep} {
			ctx.Release(a)
		}
	}()
	dzs, dghs, hp, dhp := ndarray.Raw[T](dzx)[:sL*bS*n3], ndarray.Raw[T](dgh)[:bS*n3], ndarray.Raw[T](hPrev)[:n], ndarray.Raw[T](dhPrev)[:n]
	dwhs := ndarray.Raw[T](dwhStep)[:nOut*n3]
	out := make([]*ndarray.Array, 5)
	out[3] = ctx.Alloc(dt, in[3].Shape())
	dwh := ndarray.Raw[T](out[3])[:nOut*n3]
	clear(dwh)
	dNext := make([]T, n)
	for t := sL - 1; t >= 0; t-- {
		if err := ctx.Err(); err != nil { // a deadline ends a long sequence between steps
			return nil, err
		}
		if t > 0 {
			copy(hp, hs[(t-1)*n:t*n])
		} else {
			copy(hp, hI)
		}
		dz := dzs[t*bS*n3 : (t+1)*bS*n3]
		for i := 0; i < bS; i++ {
			for j := 0; j < nOut; j++ {
				e, k := i*nOut+j, t*n+i*nOut+j
				r, u, c, ghc := tr.r[k], tr.u[k], tr.c[k], tr.ghc[k]
				dh := g[k] + dNext[e]
				dzc := dh * (1 - u) * (1 - c*c)
				dzr := dzc * ghc * r * (1 - r)
				dzu := dh * (hp[e] - c) * u * (1 - u)
				dz[i*n3+j], dz[i*n3+nOut+j], dz[i*n3+2*nOut+j] = dzr, dzu, dzc
				dghs[i*n3+j], dghs[i*n3+nOut+j], dghs[i*n3+2*nOut+j] = dzr, dzu, dzc*r
				dNext[e] = dh * u
			}
		}
		// dWh += hPrevᵀ·dgh; dhPrev += dgh·Whᵀ.
		if err := ndarray.MatMulInto(dwhStep, hPrev, dgh, true, false); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		for i, v := range dwhs {
			dwh[i] += v
		}
		if err := ndarray.MatMulInto(dhPrev, dgh, in[3], false, true); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		for e, v := range dhp {
			dNext[e] += v
		}
	}
	out[0] = ctx.Alloc(dt, in[0].Shape())
	if err := ndarray.MatMulInto(out[0], dzx, in[2], false, true); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	out[1] = ctx.Alloc(dt, in[1].Shape())
	copy(ndarray.Raw[T](out[1])[:n], dNext)
	x2, err := ndarray.Reshape(in[0], sL*bS, nIn)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	dz2, err := ndarray.Reshape(dzx, sL*bS, n3)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	out[2] = ctx.Alloc(dt, in[2].Shape())
	if err := ndarray.MatMulInto(out[2], x2, dz2, true, false); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	out[4] = ctx.Alloc(dt, in[4].Shape())
	flat, err := ndarray.Reshape(out[4], n3)
	if err == nil {
		err = ndarray.ReduceInto(ndarray.Sum, flat, dz2, []int{0})
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

// gruBpOp is libnd4j's gru_bp: inputs x, hI, Wx, Wh, b and the gradient
// of h [time, batch, nOut]; outputs the gradients of x, hI, Wx, Wh, b.
var gruBpOp = Register(&Def{
	Name: "gru_bp", Type: Custom, MinIn: 6, MaxIn: 6,
	Doc: "gradient of gru for x, hI, Wx, Wh, b and the gradient of h",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		sL, bS, _, nOut, err := gruDims("gru_bp", in)
		if err != nil {
			return nil, err
		}
		if !in[0].UnknownRank && !in[1].UnknownRank {
			if err := sameShapeGrad("gru_bp", Info{DType: in[0].DType, Shape: []int{sL, bS, nOut}}, in[5]); err != nil {
				return nil, err
			}
		}
		return sameInfos(in, 5), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		sL, bS, nIn, nOut, err := gruArrays("gru_bp", in)
		if err != nil {
			return nil, err
		}
		if g := in[5]; g.DType() != in[0].DType() || !ndarray.SameShape(g.Shape(), []int{sL, bS, nOut}) {
			return nil, fmt.Errorf("gru_bp: the gradient is %v%v; want %v[%d %d %d]", g.DType(), g.Shape(), in[0].DType(), sL, bS, nOut)
		}
		if in[0].DType() == ndarray.Float32 {
			return gruBackward[float32](c, in, sL, bS, nIn, nOut)
		}
		return gruBackward[float64](c, in, sL, bS, nIn, nOut)
	},
})
