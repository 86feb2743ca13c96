package ops

import (
	"fmt"
	"math"

	"github.com/sdgo/sdgo/ndarray"
)

// SameDiff's attention ops (SDNN): dot_product_attention and
// multi_head_dot_product_attention, with their _bp ops.
//
// The layout is libnd4j's: features before timesteps. queries are
// [batch, (heads,) dk, tq], keys [batch, (heads,) dk, tv], values
// [batch, (heads,) dv, tv]; the attention weights are
// softmax over tv of keysᵀ·queries (divided by √dk when scaled), shaped
// [batch, (heads,) tv, tq], and the output is values·weights,
// [batch, (heads,) dv, tq]. A mask [batch, tv] (1 keep, 0 skip) adds
// (mask - 1)·1e9 to the scores before the softmax, as libnd4j does.
//
// The _bp ops take, as an sdgo extension that SameDiff files never set,
// int arg 1 = 1 to say their last input is the gradient of the weights
// output (libnd4j's _bp ops ignore that output's gradient).

// attnMaskBig is libnd4j's stand-in for infinity in masked scores.
const attnMaskBig = 1e9

// dpaCheck checks dot_product_attention's inputs as far as they are
// known and returns the weights and output infos.
func dpaCheck(name string, q, k, v Info, mask *Info) (out, w Info, err error) {
	for i, x := range []Info{q, k, v} {
		if err := needFloat(name, x); err != nil {
			return Info{}, Info{}, err
		}
		if x.DType != q.DType {
			return Info{}, Info{}, fmt.Errorf("%s: input %d is %v, the queries %v; they must have one dtype", name, i, x.DType, q.DType)
		}
	}
	if q.UnknownRank || k.UnknownRank || v.UnknownRank {
		return Info{DType: q.DType, UnknownRank: true}, Info{DType: q.DType, UnknownRank: true}, nil
	}
	r := len(q.Shape)
	if len(k.Shape) != r || len(v.Shape) != r {
		return Info{}, Info{}, fmt.Errorf("%s: queries %v, keys %v and values %v must have one rank", name, q.Shape, k.Shape, v.Shape)
	}
	if r != 3 && r != 4 {
		return Info{}, Info{}, fmt.Errorf("%s: queries %v must have rank 3 ([batch, features, timesteps]) or 4 ([batch, heads, features, timesteps])", name, q.Shape)
	}
	fit := func(a, b int) bool { return a < 0 || b < 0 || a == b }
	for ax := 0; ax < r-2; ax++ {
		if !fit(q.Shape[ax], k.Shape[ax]) || !fit(k.Shape[ax], v.Shape[ax]) {
			return Info{}, Info{}, fmt.Errorf("%s: queries %v, keys %v and values %v differ in axis %d (batch or heads)", name, q.Shape, k.Shape, v.Shape, ax)
		}
	}
	if !fit(q.Shape[r-2], k.Shape[r-2]) {
		return Info{}, Info{}, fmt.Errorf("%s: queries %v and keys %v must have one feature size (axis %d)", name, q.Shape, k.Shape, r-2)
	}
	if !fit(k.Shape[r-1], v.Shape[r-1]) {
		return Info{}, Info{}, fmt.Errorf("%s: keys %v and values %v must have one number of timesteps (last axis)", name, k.Shape, v.Shape)
	}
	batch := append([]int(nil), q.Shape[:r-2]...)
	for ax := range batch {
		if batch[ax] < 0 {
			batch[ax] = max(k.Shape[ax], v.Shape[ax])
		}
	}
	tv := max(k.Shape[r-1], v.Shape[r-1])
	if mask != nil && !mask.UnknownRank {
		if len(mask.Shape) != 2 || !fit(mask.Shape[0], batch[0]) || !fit(mask.Shape[1], tv) {
			return Info{}, Info{}, fmt.Errorf("%s: the mask has shape %v; want [%d %d] ([batch, key timesteps])", name, mask.Shape, batch[0], tv)
		}
	}
	out = Info{DType: q.DType, Shape: append(append([]int(nil), batch...), v.Shape[r-2], q.Shape[r-1])}
	w = Info{DType: q.DType, Shape: append(append([]int(nil), batch...), tv, q.Shape[r-1])}
	return out, w, nil
}

// dpaArrays checks the arrays at run time, where every size is known.
func dpaArrays(name string, q, k, v, mask *ndarray.Array) error {
	info := func(a *ndarray.Array) Info { return Info{DType: a.DType(), Shape: a.Shape()} }
	var m *Info
	if mask != nil {
		mi := info(mask)
		m = &mi
	}
	_, _, err := dpaCheck(name, info(q), info(k), info(v), m)
	return err
}

// dpaForward computes the weights and the output of dot-product
// attention. The weights are from c's pool; out is nil unless wantOut.
func dpaForward(c *Ctx, name string, q, k, v, mask *ndarray.Array, scaled, wantOut bool) (out, w *ndarray.Array, err error) {
	r := q.Rank()
	wShape, err := ndarray.MatMulShape(k.Shape(), q.Shape(), true, false)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	// The scores, then the softmax into w (SoftmaxInto refuses to
	// write over its input).
	w = c.Alloc(q.DType(), wShape)
	sc := c.Alloc(q.DType(), wShape)
	defer c.Release(sc)
	if err := ndarray.MatMulIntoStop(c.Stop(), sc, k, q, true, false); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	if scaled {
		if err := ndarray.UnaryInto(ndarray.ScaleBy, sc, sc, 1/math.Sqrt(float64(k.Shape()[r-2]))); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	if mask != nil {
		// (mask - 1)·1e9 in the scores' dtype, [batch, (1,) tv, 1].
		ms := []int{mask.Shape()[0], mask.Shape()[1], 1}
		if r == 4 {
			ms = []int{mask.Shape()[0], 1, mask.Shape()[1], 1}
		}
		mc, err := castFor(c, mask, q.DType())
		if err != nil {
			return nil, nil, fmt.Errorf("%s: the mask: %w", name, err)
		}
		bias := c.Alloc(q.DType(), mask.Shape())
		if mc != mask {
			defer c.Release(mc)
		}
		defer c.Release(bias)
		if err := ndarray.UnaryInto(ndarray.AddScalar, bias, mc, -1); err != nil {
			return nil, nil, fmt.Errorf("%s: the mask: %w", name, err)
		}
		if err := ndarray.UnaryInto(ndarray.ScaleBy, bias, bias, attnMaskBig); err != nil {
			return nil, nil, fmt.Errorf("%s: the mask: %w", name, err)
		}
		br, err := ndarray.Reshape(bias, ms...)
		if err == nil {
			err = ndarray.BinaryInto(ndarray.Add, sc, sc, br)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s: the mask: %w", name, err)
		}
	}
	if err := ndarray.SoftmaxInto(w, sc, r-2); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	if !wantOut {
		return nil, w, nil
	}
	oShape, err := ndarray.MatMulShape(v.Shape(), wShape, false, false)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	out = c.Alloc(q.DType(), oShape)
	if err := ndarray.MatMulIntoStop(c.Stop(), out, v, w, false, false); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, w, nil
}

// dpaBackward computes the gradients of queries, keys and values from
// the weights w, the output gradient g and, when not nil, the weights'
// gradient gw. All three are from c's pool.
func dpaBackward(c *Ctx, name string, q, k, v, w, g, gw *ndarray.Array, scaled bool) (dq, dk, dv *ndarray.Array, err error) {
	r := q.Rank()
	wrap := func(err error) error { return fmt.Errorf("%s: %w", name, err) }
	// dv = g·wᵀ; dw = vᵀ·g (+ gw).
	dv = c.Alloc(v.DType(), v.Shape())
	if err := ndarray.MatMulIntoStop(c.Stop(), dv, g, w, false, true); err != nil {
		return nil, nil, nil, wrap(err)
	}
	dw := c.Alloc(w.DType(), w.Shape())
	defer c.Release(dw)
	if err := ndarray.MatMulIntoStop(c.Stop(), dw, v, g, true, false); err != nil {
		return nil, nil, nil, wrap(err)
	}
	if gw != nil {
		if !ndarray.SameShape(gw.Shape(), w.Shape()) || gw.DType() != w.DType() {
			return nil, nil, nil, fmt.Errorf("%s: the weights' gradient is %v%v; want %v%v", name, gw.DType(), gw.Shape(), w.DType(), w.Shape())
		}
		if err := ndarray.BinaryInto(ndarray.Add, dw, dw, gw); err != nil {
			return nil, nil, nil, wrap(err)
		}
	}
	// The softmax's gradient along axis r-2: ds = w·(dw - Σ dw·w).
	ds, err := softmaxBp(c, w, dw, w, r-2)
	if err != nil {
		return nil, nil, nil, wrap(err)
	}
	defer c.Release(ds)
	if scaled {
		if err := ndarray.UnaryInto(ndarray.ScaleBy, ds, ds, 1/math.Sqrt(float64(k.Shape()[r-2]))); err != nil {
			return nil, nil, nil, wrap(err)
		}
	}
	// scores = kᵀ·q: dq = k·ds, dk = q·dsᵀ.
	dq = c.Alloc(q.DType(), q.Shape())
	if err := ndarray.MatMulIntoStop(c.Stop(), dq, k, ds, false, false); err != nil {
		return nil, nil, nil, wrap(err)
	}
	dk = c.Alloc(k.DType(), k.Shape())
	if err := ndarray.MatMulIntoStop(c.Stop(), dk, q, ds, false, true); err != nil {
		return nil, nil, nil, wrap(err)
	}
	return dq, dk, dv, nil
}

// dpaOp is libnd4j's dot_product_attention: inputs queries, keys, values
// and optionally a mask [batch, tv]; int args 0 scaled (divide the scores
// by √dk), 1 withWeights (also return the weights). Outputs the attention
// [batch, (heads,) dv, tq] and, with withWeights, the weights
// [batch, (heads,) tv, tq].
var dpaOp = Register(&Def{
	Name: "dot_product_attention", Type: Custom, MinIn: 3, MaxIn: 4,
	Doc: "softmax(keysᵀ·queries [/√dk] + mask) attention over values, features before timesteps; int args scaled, withWeights",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		var m *Info
		if len(in) > 3 {
			m = &in[3]
		}
		out, w, err := dpaCheck("dot_product_attention", in[0], in[1], in[2], m)
		if err != nil {
			return nil, err
		}
		if a.Int(1, 0) != 0 {
			return infos(out, w), nil
		}
		return infos(out), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		var mask *ndarray.Array
		if len(in) > 3 {
			mask = in[3]
		}
		if err := dpaArrays("dot_product_attention", in[0], in[1], in[2], mask); err != nil {
			return nil, err
		}
		out, w, err := dpaForward(c, "dot_product_attention", in[0], in[1], in[2], mask, a.Int(0, 0) != 0, true)
		if err != nil {
			return nil, err
		}
		if a.Int(1, 0) != 0 {
			return []*ndarray.Array{out, w}, nil
		}
		c.Release(w)
		return []*ndarray.Array{out}, nil
	},
	NonDiff: []int{3},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		return attnGrad(b, "dot_product_attention_bp", 3, n, d)
	},
})

// attnGrad calls an attention _bp op: the nIn forward inputs, the output
// gradient (zeros when the output does not reach the loss), the mask when
// the forward op had one and, when the weights output reaches the loss,
// its gradient with int arg 1 set. The mask gets no gradient.
func attnGrad(b GradBuilder, bp string, nIn int, n GradNode, d []Value) []Value {
	in := append([]Value(nil), n.In[:nIn]...)
	g := d[0]
	if g == nil {
		g = op1(b, "zeros_as", Args{}, n.Out[0])
	}
	in = append(in, g)
	if len(n.In) > nIn {
		in = append(in, n.In[nIn])
	}
	args := Args{I: []int64{n.Args.Int(0, 0), 0}}
	if len(d) > 1 && d[1] != nil {
		args.I[1] = 1
		in = append(in, d[1])
	}
	gs := b.Op(bp, args, in...)
	if len(n.In) > nIn {
		gs = append(gs[:nIn:nIn], nil)
	}
	return gs
}

// attnBpInfer checks an attention _bp op's inputs: nIn forward inputs,
// the output gradient, an optional mask and (int arg 1) the weights'
// gradient, with the forward check fwd.
func attnBpInfer(name string, nIn int, in []Info, a *Args, fwd func(in []Info) (out, w Info, err error)) ([]Info, error) {
	extra := in[nIn+1:]
	hasGW := a.Int(1, 0) != 0
	var gw *Info
	if hasGW {
		if len(extra) == 0 {
			return nil, fmt.Errorf("%s: int arg 1 says the weights' gradient is the last input, but there is none", name)
		}
		gw = &extra[len(extra)-1]
		extra = extra[:len(extra)-1]
	}
	if len(extra) > 1 {
		return nil, fmt.Errorf("%s: %d inputs; want %d, the mask and (int arg 1) the weights' gradient", name, len(in), nIn+1)
	}
	fin := append(append([]Info(nil), in[:nIn]...), extra...)
	out, w, err := fwd(fin)
	if err != nil {
		return nil, err
	}
	if err := sameShapeGrad(name, out, in[nIn]); err != nil {
		return nil, err
	}
	if gw != nil {
		if err := sameShapeGrad(name, w, *gw); err != nil {
			return nil, fmt.Errorf("%s (the weights' gradient)", err)
		}
	}
	return sameInfos(in, nIn), nil
}

// attnBpInputs splits a _bp op's arrays after the nIn forward inputs and
// the output gradient into the mask and the weights' gradient.
func attnBpInputs(name string, nIn int, in []*ndarray.Array, a *Args) (mask, gw *ndarray.Array, err error) {
	extra := in[nIn+1:]
	if a.Int(1, 0) != 0 {
		if len(extra) == 0 {
			return nil, nil, fmt.Errorf("%s: int arg 1 says the weights' gradient is the last input, but there is none", name)
		}
		gw, extra = extra[len(extra)-1], extra[:len(extra)-1]
	}
	if len(extra) > 1 {
		return nil, nil, fmt.Errorf("%s: %d inputs; want %d, the mask and (int arg 1) the weights' gradient", name, len(in), nIn+1)
	}
	if len(extra) == 1 {
		mask = extra[0]
	}
	return mask, gw, nil
}

// dpaBpOp is libnd4j's dot_product_attention_bp: inputs queries, keys,
// values, the output gradient and optionally the mask; int arg 0 scaled
// (int arg 1 = 1: an sdgo extension, the weights' gradient follows as the
// last input). Outputs the gradients of queries, keys and values.
var dpaBpOp = Register(&Def{
	Name: "dot_product_attention_bp", Type: Custom, MinIn: 4, MaxIn: 6,
	Doc: "gradient of dot_product_attention for queries, keys, values, gradO[, mask]; int arg 0 scaled",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		return attnBpInfer("dot_product_attention_bp", 3, in, a, func(in []Info) (Info, Info, error) {
			var m *Info
			if len(in) > 3 {
				m = &in[3]
			}
			return dpaCheck("dot_product_attention_bp", in[0], in[1], in[2], m)
		})
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		const name = "dot_product_attention_bp"
		mask, gw, err := attnBpInputs(name, 3, in, a)
		if err != nil {
			return nil, err
		}
		q, k, v, g := in[0], in[1], in[2], in[3]
		if err := dpaArrays(name, q, k, v, mask); err != nil {
			return nil, err
		}
		scaled := a.Int(0, 0) != 0
		_, w, err := dpaForward(c, name, q, k, v, mask, scaled, false)
		if err != nil {
			return nil, err
		}
		defer c.Release(w)
		want, _ := ndarray.MatMulShape(v.Shape(), w.Shape(), false, false)
		if !ndarray.SameShape(g.Shape(), want) || g.DType() != q.DType() {
			return nil, fmt.Errorf("%s: the gradient is %v%v; want %v%v", name, g.DType(), g.Shape(), q.DType(), want)
		}
		dq, dk, dv, err := dpaBackward(c, name, q, k, v, w, g, gw, scaled)
		if err != nil {
			return nil, err
		}
		return []*ndarray.Array{dq, dk, dv}, nil
	},
})

// mhaCheck checks multi_head_dot_product_attention's inputs (queries,
// keys, values, Wq, Wk, Wv, Wo and optionally the mask) and returns the
// output [batch, outSize, tq] and weights [batch, heads, tv, tq] infos.
func mhaCheck(name string, in []Info) (out, w Info, err error) {
	for i, x := range in[:7] {
		if err := needFloat(name, x); err != nil {
			return Info{}, Info{}, err
		}
		if x.DType != in[0].DType {
			return Info{}, Info{}, fmt.Errorf("%s: input %d is %v, the queries %v; they must have one dtype", name, i, x.DType, in[0].DType)
		}
	}
	dt := in[0].DType
	for _, x := range in[:7] {
		if x.UnknownRank {
			return Info{DType: dt, UnknownRank: true}, Info{DType: dt, UnknownRank: true}, nil
		}
	}
	q, k, v, wq, wk, wv, wo := in[0].Shape, in[1].Shape, in[2].Shape, in[3].Shape, in[4].Shape, in[5].Shape, in[6].Shape
	if len(q) != 3 || len(k) != 3 || len(v) != 3 {
		return Info{}, Info{}, fmt.Errorf("%s: queries %v, keys %v and values %v must have rank 3 ([batch, features, timesteps])", name, q, k, v)
	}
	if len(wq) != 3 || len(wk) != 3 || len(wv) != 3 {
		return Info{}, Info{}, fmt.Errorf("%s: Wq %v, Wk %v and Wv %v must have rank 3 ([heads, projected size, input size])", name, wq, wk, wv)
	}
	if len(wo) != 2 {
		return Info{}, Info{}, fmt.Errorf("%s: Wo %v must have rank 2 ([heads·projected value size, output size])", name, wo)
	}
	fit := func(a, b int) bool { return a < 0 || b < 0 || a == b }
	if !fit(wq[0], wk[0]) || !fit(wk[0], wv[0]) {
		return Info{}, Info{}, fmt.Errorf("%s: Wq %v, Wk %v and Wv %v must have one number of heads (axis 0)", name, wq, wk, wv)
	}
	for _, p := range []struct {
		w, x   []int
		wn, xn string
	}{{wq, q, "Wq", "queries"}, {wk, k, "Wk", "keys"}, {wv, v, "Wv", "values"}} {
		if !fit(p.w[2], p.x[1]) {
			return Info{}, Info{}, fmt.Errorf("%s: %s %v does not project %s %v: want %s[2] = %s[1]", name, p.wn, p.w, p.xn, p.x, p.wn, p.xn)
		}
	}
	if !fit(wq[1], wk[1]) {
		return Info{}, Info{}, fmt.Errorf("%s: Wq %v and Wk %v must project to one size (axis 1)", name, wq, wk)
	}
	heads := max(wq[0], wk[0], wv[0])
	if heads >= 0 && wv[1] >= 0 && !fit(wo[0], heads*wv[1]) {
		return Info{}, Info{}, fmt.Errorf("%s: Wo %v: want Wo[0] = heads·Wv[1] = %d (Wv %v)", name, wo, heads*wv[1], wv)
	}
	if !fit(q[0], k[0]) || !fit(k[0], v[0]) {
		return Info{}, Info{}, fmt.Errorf("%s: queries %v, keys %v and values %v must have one batch size", name, q, k, v)
	}
	if !fit(k[2], v[2]) {
		return Info{}, Info{}, fmt.Errorf("%s: keys %v and values %v must have one number of timesteps", name, k, v)
	}
	batch, tv := max(q[0], k[0], v[0]), max(k[2], v[2])
	if len(in) > 7 && !in[7].UnknownRank {
		m := in[7].Shape
		if len(m) != 2 || !fit(m[0], batch) || !fit(m[1], tv) {
			return Info{}, Info{}, fmt.Errorf("%s: the mask has shape %v; want [%d %d] ([batch, key timesteps])", name, m, batch, tv)
		}
	}
	return Info{DType: dt, Shape: []int{batch, wo[1], q[2]}}, Info{DType: dt, Shape: []int{batch, heads, tv, q[2]}}, nil
}

// mhaProject computes the projection [batch, heads, p, t] of x
// [batch, nIn, t] by w [heads, p, nIn], from c's pool.
func mhaProject(c *Ctx, name string, x, w *ndarray.Array) (*ndarray.Array, error) {
	ws := w.Shape()
	wr, err := ndarray.Reshape(w, ws[0]*ws[1], ws[2])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	p := c.Alloc(x.DType(), []int{x.Shape()[0], ws[0] * ws[1], x.Shape()[2]})
	if err := ndarray.MatMulIntoStop(c.Stop(), p, wr, x, false, false); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return ndarray.Reshape(p, x.Shape()[0], ws[0], ws[1], x.Shape()[2])
}

// mhaProjectBack returns the gradients of x and w from that of their
// projection dp [batch, heads, p, t], from c's pool (nil where not needed).
func mhaProjectBack(c *Ctx, name string, x, w, dp *ndarray.Array, needX, needW bool) (dx, dw *ndarray.Array, err error) {
	ws, xs := w.Shape(), x.Shape()
	wr, err := ndarray.Reshape(w, ws[0]*ws[1], ws[2])
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	dpr, err := ndarray.Reshape(dp, xs[0], ws[0]*ws[1], xs[2])
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	if needX {
		dx = c.Alloc(x.DType(), xs)
		if err := ndarray.MatMulIntoStop(c.Stop(), dx, wr, dpr, true, false); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	if needW {
		t := c.Alloc(x.DType(), []int{xs[0], ws[0] * ws[1], ws[2]})
		defer c.Release(t)
		if err := ndarray.MatMulIntoStop(c.Stop(), t, dpr, x, false, true); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
		dw = c.Alloc(w.DType(), ws)
		flat, err := ndarray.Reshape(dw, ws[0]*ws[1], ws[2])
		if err == nil {
			err = ndarray.ReduceInto(ndarray.Sum, flat, t, []int{0})
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	return dx, dw, nil
}

// mhaForward projects the inputs and attends: the projections, the
// attention [batch, heads·pv, tq] and the weights, all from c's pool.
func mhaForward(c *Ctx, name string, in []*ndarray.Array, mask *ndarray.Array, scaled bool) (proj [3]*ndarray.Array, att, w *ndarray.Array, err error) {
	for i := range proj {
		if proj[i], err = mhaProject(c, name, in[i], in[3+i]); err != nil {
			return proj, nil, nil, err
		}
	}
	a, w, err := dpaForward(c, name, proj[0], proj[1], proj[2], mask, scaled, true)
	if err != nil {
		return proj, nil, nil, err
	}
	s := a.Shape()
	att, err = ndarray.Reshape(a, s[0], s[1]*s[2], s[3])
	if err != nil {
		return proj, nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	return proj, att, w, nil
}

func mhaArrays(name string, in []*ndarray.Array) error {
	info := make([]Info, len(in))
	for i, a := range in {
		info[i] = Info{DType: a.DType(), Shape: a.Shape()}
	}
	_, _, err := mhaCheck(name, info)
	return err
}

// mhaOp is libnd4j's multi_head_dot_product_attention: inputs queries
// [batch, nIn, tq], keys [batch, nInK, tv], values [batch, nInV, tv], the
// projections Wq [heads, pk, nIn], Wk [heads, pk, nInK], Wv
// [heads, pv, nInV], Wo [heads·pv, outSize], optionally a mask
// [batch, tv]; int args 0 scaled, 1 withWeights. Each head attends
// (dot_product_attention) over its projections; the heads' results,
// stacked head by head, are projected by Wo. Outputs [batch, outSize, tq]
// and, with withWeights, the weights [batch, heads, tv, tq].
var mhaOp = Register(&Def{
	Name: "multi_head_dot_product_attention", Type: Custom, MinIn: 7, MaxIn: 8,
	Doc: "multi-head dot-product attention with projections Wq, Wk, Wv, Wo and an optional mask; int args scaled, withWeights",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		out, w, err := mhaCheck("multi_head_dot_product_attention", in)
		if err != nil {
			return nil, err
		}
		if a.Int(1, 0) != 0 {
			return infos(out, w), nil
		}
		return infos(out), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		const name = "multi_head_dot_product_attention"
		if err := mhaArrays(name, in); err != nil {
			return nil, err
		}
		var mask *ndarray.Array
		if len(in) > 7 {
			mask = in[7]
		}
		proj, att, w, err := mhaForward(c, name, in, mask, a.Int(0, 0) != 0)
		for _, p := range proj {
			if p != nil {
				c.Release(p)
			}
		}
		if err != nil {
			return nil, err
		}
		defer c.Release(att)
		wo := in[6]
		out := c.Alloc(wo.DType(), []int{att.Shape()[0], wo.Shape()[1], att.Shape()[2]})
		if err := ndarray.MatMulIntoStop(c.Stop(), out, wo, att, true, false); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if a.Int(1, 0) != 0 {
			return []*ndarray.Array{out, w}, nil
		}
		c.Release(w)
		return []*ndarray.Array{out}, nil
	},
	NonDiff: []int{7},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		return attnGrad(b, "multi_head_dot_product_attention_bp", 7, n, d)
	},
})

// mhaBpOp is libnd4j's multi_head_dot_product_attention_bp: inputs the
// seven of the forward op, the output gradient and optionally the mask;
// int arg 0 scaled (int arg 1 = 1: an sdgo extension, the weights'
// gradient follows as the last input). Outputs the gradients of queries,
// keys, values, Wq, Wk, Wv and Wo.
var mhaBpOp = Register(&Def{
	Name: "multi_head_dot_product_attention_bp", Type: Custom, MinIn: 8, MaxIn: 10,
	Doc: "gradient of multi_head_dot_product_attention for its seven inputs, gradO[, mask]; int arg 0 scaled",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		return attnBpInfer("multi_head_dot_product_attention_bp", 7, in, a, func(in []Info) (Info, Info, error) {
			return mhaCheck("multi_head_dot_product_attention_bp", in)
		})
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		const name = "multi_head_dot_product_attention_bp"
		mask, gw, err := attnBpInputs(name, 7, in, a)
		if err != nil {
			return nil, err
		}
		fwd := append([]*ndarray.Array(nil), in[:7]...)
		if mask != nil {
			fwd = append(fwd, mask)
		}
		if err := mhaArrays(name, fwd); err != nil {
			return nil, err
		}
		scaled := a.Int(0, 0) != 0
		proj, att, w, err := mhaForward(c, name, in, mask, scaled)
		defer func() {
			for _, p := range proj {
				if p != nil {
					c.Release(p)
				}
			}
		}()
		if err != nil {
			return nil, err
		}
		defer c.Release(att)
		defer c.Release(w)
		wo, g := in[6], in[7]
		as := att.Shape()
		want := []int{as[0], wo.Shape()[1], as[2]}
		if !ndarray.SameShape(g.Shape(), want) || g.DType() != wo.DType() {
			return nil, fmt.Errorf("%s: the gradient is %v%v; want %v%v", name, g.DType(), g.Shape(), wo.DType(), want)
		}
		out := make([]*ndarray.Array, 7)
		// out = Woᵀ·att: dAtt = Wo·g, dWo = Σ_batch att·gᵀ.
		datt := c.Alloc(g.DType(), as)
		defer c.Release(datt)
		if err := ndarray.MatMulIntoStop(c.Stop(), datt, wo, g, false, false); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if c.Needed(6) {
			t := c.Alloc(g.DType(), []int{as[0], as[1], want[1]})
			err := ndarray.MatMulIntoStop(c.Stop(), t, att, g, false, true)
			if err == nil {
				out[6] = c.Alloc(wo.DType(), wo.Shape())
				err = ndarray.ReduceInto(ndarray.Sum, out[6], t, []int{0})
			}
			c.Release(t)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
		}
		ds := proj[2].Shape()
		datt4, err := ndarray.Reshape(datt, ds[0], ds[1], ds[2], as[2])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		dq, dk, dv, err := dpaBackward(c, name, proj[0], proj[1], proj[2], w, datt4, gw, scaled)
		if err != nil {
			return nil, err
		}
		for i, dp := range []*ndarray.Array{dq, dk, dv} {
			dx, dW, err := mhaProjectBack(c, name, in[i], in[3+i], dp, c.Needed(i), c.Needed(3+i))
			c.Release(dp)
			if err != nil {
				return nil, err
			}
			out[i], out[3+i] = dx, dW
		}
		return out, nil
	},
})
