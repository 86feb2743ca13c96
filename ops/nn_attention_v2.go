package ops

import (
	"fmt"
	"math"

	"github.com/sdgo/sdgo/kernels"
	"github.com/sdgo/sdgo/ndarray"
)

// SameDiff's dotProductAttentionV2 (SDNN): libnd4j's
// dot_product_attention_v2 and dot_product_attention_v2_bp, Keras'
// Attention layer. Unlike dot_product_attention, timesteps come before
// features:
//
//   - rank 2: queries [Tq, d], values [Tv, dv], keys [Tv, d];
//   - rank 3: queries [batch, Tq, d], values [batch, Tv, dv], keys
//     [batch, Tv, d];
//   - rank 4 (batch, sequence, heads, head size): queries [batch, Tq, H, d],
//     values [batch, Tv, KVH, dv], keys [batch, Tv, KVH, d], with H a
//     multiple of KVH: query head h attends with key/value head h/(H/KVH)
//     (grouped-query attention).
//
// Inputs queries, values, then optionally keys (the values when absent),
// the query mask [batch, Tq] and the value mask [batch, Tv] ([T] or [1, T]
// at rank 2); an empty or scalar mask is no mask (SameDiff writes an empty
// constant for a mask not given). Float args: 0 the scale (1 when absent; a
// scale <= 0 means 1/√d), 1 the dropout probability (0). Bool args: 0
// useCausalMask, 1 training, 2 useFlashAttention (read and ignored: one
// path computes every case). Int arg 0, an sdgo extension SameDiff files
// never set, is the dropout's seed (a fresh one each run when absent).
//
// The logits are scale·Q·Kᵀ plus (m - 1)·1e9 where m is the value mask
// (broadcast over the queries) times, with useCausalMask, the causal mask
// (query i sees keys j <= i + max(0, Tv - Tq), aligned to the bottom
// right as libnd4j's is). The weights are softmax(logits) over the keys;
// in training with dropout p > 0 each weight is kept with probability 1-p
// and scaled by 1/(1-p) (the multiplier, 0 or 1/(1-p), from the counter-
// based streams of ops/random.go, one draw per weight). The output is
// weights·V times the query mask (a masked query's row is zero, its weights
// stay visible). Outputs: the attention [.., Tq, (H,) dv], the weights
// (after dropout) and the logits, [(batch,) (H,) Tq, Tv], and when p > 0
// the dropout multiplier of the weights' shape (all ones out of training).
// The additive bias and key/value cache inputs (5 to 7) of libnd4j's
// latest version are not supported: more than five inputs is an error.

// dpa2Geom is the geometry of one dot_product_attention_v2: the sizes,
// -1 where unknown at build time.
type dpa2Geom struct {
	rank                          int
	b, tq, tv, h, kvh, grp, d, dv int
}

// outShape is the attention's shape, scoreShape the weights'.
func (g dpa2Geom) outShape() []int {
	switch g.rank {
	case 2:
		return []int{g.tq, g.dv}
	case 3:
		return []int{g.b, g.tq, g.dv}
	}
	return []int{g.b, g.tq, g.h, g.dv}
}

func (g dpa2Geom) scoreShape() []int {
	switch g.rank {
	case 2:
		return []int{g.tq, g.tv}
	case 3:
		return []int{g.b, g.tq, g.tv}
	}
	return []int{g.b, g.h, g.tq, g.tv}
}

// s5 is the five-axis form [batch, KVH, H/KVH, rows, cols] the op
// computes in.
func (g dpa2Geom) s5(rows, cols int) []int { return []int{g.b, g.kvh, g.grp, rows, cols} }

// dpa2NoMask reports whether a mask input is absent: empty or a scalar.
func dpa2NoMask(m Info) bool {
	if m.UnknownRank {
		return false
	}
	if len(m.Shape) == 0 {
		return true
	}
	for _, d := range m.Shape {
		if d == 0 {
			return true
		}
	}
	return false
}

// dpa2Check checks dot_product_attention_v2's inputs (queries, values,
// keys, query mask, value mask; the keys and masks may be missing) as far
// as they are known. ok is false when a rank is unknown.
func dpa2Check(name string, in []Info, a *Args) (g dpa2Geom, ok bool, err error) {
	if len(in) > 5 {
		return g, false, fmt.Errorf("%s: %d inputs; sdgo takes queries, values, keys and the two masks (libnd4j's attention bias and key/value cache inputs are not supported)", name, len(in))
	}
	q, v := in[0], in[1]
	k := v
	if len(in) > 2 {
		k = in[2]
	}
	for i, x := range []Info{q, v, k} {
		if err := needFloat(name, x); err != nil {
			return g, false, err
		}
		if x.DType != q.DType {
			return g, false, fmt.Errorf("%s: input %d is %v, the queries %v; they must have one dtype", name, i, x.DType, q.DType)
		}
	}
	if p := a.Float(1, 0); !(p >= 0 && p <= 1) {
		return g, false, fmt.Errorf("%s: dropout probability (float arg 1) %v is outside [0, 1]", name, p)
	}
	if q.UnknownRank || v.UnknownRank || k.UnknownRank {
		return g, false, nil
	}
	r := len(q.Shape)
	if len(v.Shape) != r || len(k.Shape) != r || r < 2 || r > 4 {
		return g, false, fmt.Errorf("%s: queries %v, values %v and keys %v must have one rank, 2, 3 or 4 ([batch,] timesteps, [heads,] features)", name, q.Shape, v.Shape, k.Shape)
	}
	fit := func(x, y int) bool { return x < 0 || y < 0 || x == y }
	both := func(x, y int) int { return max(x, y) }
	lead := 0
	g = dpa2Geom{rank: r, b: 1, h: 1, kvh: 1, grp: 1}
	if r > 2 {
		lead = 1
		if !fit(q.Shape[0], v.Shape[0]) || !fit(v.Shape[0], k.Shape[0]) {
			return g, false, fmt.Errorf("%s: queries %v, values %v and keys %v differ in batch size (axis 0)", name, q.Shape, v.Shape, k.Shape)
		}
		g.b = both(q.Shape[0], both(v.Shape[0], k.Shape[0]))
	}
	g.tq = q.Shape[lead]
	if !fit(v.Shape[lead], k.Shape[lead]) {
		return g, false, fmt.Errorf("%s: values %v and keys %v must have one number of timesteps (axis %d)", name, v.Shape, k.Shape, lead)
	}
	g.tv = both(v.Shape[lead], k.Shape[lead])
	if !fit(q.Shape[r-1], k.Shape[r-1]) {
		return g, false, fmt.Errorf("%s: queries %v and keys %v must have one feature size (last axis)", name, q.Shape, k.Shape)
	}
	g.d, g.dv = both(q.Shape[r-1], k.Shape[r-1]), v.Shape[r-1]
	if r == 4 {
		if !fit(v.Shape[2], k.Shape[2]) {
			return g, false, fmt.Errorf("%s: values %v and keys %v must have one number of heads (axis 2)", name, v.Shape, k.Shape)
		}
		g.h, g.kvh = q.Shape[2], both(v.Shape[2], k.Shape[2])
		if g.h >= 0 && g.kvh >= 0 {
			if g.kvh == 0 || g.h%g.kvh != 0 {
				return g, false, fmt.Errorf("%s: queries %v have %d heads, keys %v %d: the key/value heads must divide the query heads", name, q.Shape, g.h, k.Shape, g.kvh)
			}
			g.grp = g.h / g.kvh
		} else {
			g.grp = -1
		}
	}
	for i, t := range []int{g.tq, g.tv} {
		if len(in) <= 3+i || dpa2NoMask(in[3+i]) {
			continue
		}
		m := in[3+i]
		what := []string{"query mask (input 3)", "value mask (input 4)"}[i]
		if m.UnknownRank {
			continue
		}
		if m.DType != ndarray.Bool && !m.DType.IsNumeric() {
			return g, false, fmt.Errorf("%s: the %s is %v; it must be numeric or bool", name, what, m.DType)
		}
		want := []int{g.b, t}
		good := len(m.Shape) == 2 && fit(m.Shape[0], g.b) && fit(m.Shape[1], t)
		if r == 2 {
			good = good || len(m.Shape) == 1 && fit(m.Shape[0], t)
			want = []int{t}
		}
		if !good {
			return g, false, fmt.Errorf("%s: the %s has shape %v; want %v", name, what, m.Shape, want)
		}
	}
	return g, true, nil
}

// dpa2Infos are the forward op's outputs.
func dpa2Infos(dt ndarray.DType, g dpa2Geom, ok bool, dropout bool) []Info {
	n := 3
	if dropout {
		n = 4
	}
	out := make([]Info, n)
	for i := range out {
		out[i] = Info{DType: dt, UnknownRank: !ok}
		if ok {
			out[i].Shape = g.scoreShape()
		}
	}
	if ok {
		out[0].Shape = g.outShape()
	}
	return out
}

// dpa2Arrays checks the arrays at run time and returns the geometry and
// the masks' values (nil for no mask).
func dpa2Arrays(name string, q, v, k, qm, vm *ndarray.Array, a *Args) (g dpa2Geom, qmv, vmv []float64, err error) {
	in := []Info{infoOf(q), infoOf(v), infoOf(k)}
	for _, m := range []*ndarray.Array{qm, vm} {
		if m == nil {
			in = append(in, Info{DType: q.DType(), Shape: []int{0}})
		} else {
			in = append(in, infoOf(m))
		}
	}
	if g, _, err = dpa2Check(name, in, a); err != nil {
		return g, nil, nil, err
	}
	vals := func(m *ndarray.Array) []float64 {
		if m == nil || dpa2NoMask(infoOf(m)) {
			return nil
		}
		return m.Float64s()
	}
	return g, vals(qm), vals(vm), nil
}

// dpa2Scale is the scale of the logits: float arg 0, 1/√d when <= 0.
func dpa2Scale(a *Args, d int) float64 {
	s := a.Float(0, 1)
	if s <= 0 {
		s = 1 / math.Sqrt(float64(d))
	}
	return s
}

// The products read Q, K, V (and the attention's gradient) where they lie
// and write the attention and the input gradients in place, whatever the
// rank: at rank 4 a head's [T, f] matrix has its rows H·f apart, which the
// GEMM reads as it reads packed rows, so no operand is copied into a
// head-major form and back.

// dpa2Mat places the [rows, cols] matrix of each batch row and query
// head in an array's buffer: the matrix of (b, h) starts at
// off + b·bs + (h/div)·hs and has its rows rs apart (columns adjacent).
// div is H/KVH for keys, values and their gradients (query head h reads
// key/value head h/div), 1 otherwise.
type dpa2Mat struct {
	x                    *ndarray.Array
	off, rs, bs, hs, div int
}

// dpa2Operand is a packed array in an input's layout ([T, f],
// [batch, T, f] or [batch, T, heads, f]) as matrices; div as in dpa2Mat.
func dpa2Operand(x *ndarray.Array, div int) dpa2Mat {
	s := x.Shape()
	t, f := s[len(s)-2], s[len(s)-1]
	if len(s) == 4 {
		t, f = s[1], s[2]*s[3]
		return dpa2Mat{x: x, off: x.Offset(), rs: f, bs: t * f, hs: s[3], div: div}
	}
	return dpa2Mat{x: x, off: x.Offset(), rs: f, bs: t * f, div: 1}
}

// dpa2Scores is a packed [batch, heads, rows, cols] array (any split of
// the heads into KVH and groups) as matrices.
func dpa2Scores(x *ndarray.Array, g dpa2Geom) dpa2Mat {
	s := x.Shape()
	r, c := s[len(s)-2], s[len(s)-1]
	return dpa2Mat{x: x, off: x.Offset(), rs: c, bs: g.h * r * c, hs: r * c, div: 1}
}

// dpa2Operands are the queries, keys and values as matrices (copied
// first when not packed).
func dpa2Operands(q, k, v *ndarray.Array, g dpa2Geom) (q5, k5, v5 dpa2Mat, err error) {
	var m [3]dpa2Mat
	for i, x := range []*ndarray.Array{q, k, v} {
		if x, err = ndarray.Contiguous(x); err != nil {
			return q5, k5, v5, err
		}
		div := g.grp // keys and values: one head for G query heads
		if i == 0 {
			div = 1
		}
		m[i] = dpa2Operand(x, div)
	}
	return m[0], m[1], m[2], nil
}

// dpa2Gemm sets C = A·B (Aᵀ with ta, Bᵀ with tb), plus beta·C, for every
// batch row and each of the query heads given, m×n from k products.
func dpa2Gemm(stop func() bool, g dpa2Geom, heads []int, m, n, k int, a dpa2Mat, ta bool, b dpa2Mat, tb bool, beta float64, c dpa2Mat) error {
	offs := make([][3]int, 0, g.b*len(heads))
	for bi := 0; bi < g.b; bi++ {
		for _, h := range heads {
			at := func(x dpa2Mat) int { return x.off + bi*x.bs + h/x.div*x.hs }
			offs = append(offs, [3]int{at(a), at(b), at(c)})
		}
	}
	strides := func(x dpa2Mat, t bool) (int, int) {
		if t {
			return 1, x.rs
		}
		return x.rs, 1
	}
	rsa, csa := strides(a, ta)
	rsb, csb := strides(b, tb)
	done := true
	byFloatDo(a.x.DType(), func() {
		done = kernels.GemmBatchStop(stop, 0, m, n, k, 1, ndarray.Raw[float32](a.x), rsa, csa, ndarray.Raw[float32](b.x), rsb, csb,
			float32(beta), ndarray.Raw[float32](c.x), c.rs, 1, offs)
	}, func() {
		done = kernels.GemmBatchStop(stop, 0, m, n, k, 1, ndarray.Raw[float64](a.x), rsa, csa, ndarray.Raw[float64](b.x), rsb, csb,
			beta, ndarray.Raw[float64](c.x), c.rs, 1, offs)
	})
	if !done {
		return ndarray.ErrStopped
	}
	return nil
}

// dpa2GemmKV is dpa2Gemm over all query heads into a key or value
// gradient c: the products of the G query heads of a key/value head add
// up in c.
func dpa2GemmKV(stop func() bool, g dpa2Geom, m, n, k int, a dpa2Mat, ta bool, b dpa2Mat, tb bool, c dpa2Mat) error {
	heads := make([]int, g.kvh)
	for gi := 0; gi < g.grp; gi++ {
		for j := range heads {
			heads[j] = j*g.grp + gi
		}
		if err := dpa2Gemm(stop, g, heads, m, n, k, a, ta, b, tb, float64(min(gi, 1)), c); err != nil {
			return err
		}
	}
	return nil
}

// allHeads is 0, ..., h-1.
func allHeads(h int) []int {
	out := make([]int, h)
	for i := range out {
		out[i] = i
	}
	return out
}

// dpa2Mask adds (m - 1)·1e9 to the logits l [B, KVH, G, Tq, Tv] (packed)
// where m is the value mask's value times the causal mask's.
func dpa2Mask[T ndarray.Float](l []T, g dpa2Geom, vm []float64, causal bool) {
	off := max(0, g.tv-g.tq)
	heads := g.kvh * g.grp
	for b := 0; b < g.b; b++ {
		for h := 0; h < heads; h++ {
			for i := 0; i < g.tq; i++ {
				row := l[((b*heads+h)*g.tq+i)*g.tv:][:g.tv]
				for j := range row {
					m := 1.0
					if vm != nil {
						m = vm[b*g.tv+j]
					}
					if causal && j > i+off {
						m = 0
					}
					if m != 1 {
						row[j] += T((m - 1) * attnMaskBig)
					}
				}
			}
		}
	}
}

// dpa2QueryMask multiplies the rows x[b, i, ...] of x in the queries'
// layout ([Tq, f], [B, Tq, f] or [B, Tq, H, f], packed; width the size of
// a row, f or H·f) by the query mask's value for (b, i).
func dpa2QueryMask[T ndarray.Float](x []T, g dpa2Geom, width int, qm []float64) {
	for r, m := range qm[:g.b*g.tq] {
		row := x[r*width:][:width]
		for j := range row {
			row[j] *= T(m)
		}
	}
}

// byFloatDo runs f32 or f64 by dtype.
func byFloatDo(dt ndarray.DType, f32, f64 func()) {
	if dt == ndarray.Float32 {
		f32()
	} else {
		f64()
	}
}

// dpa2Forward computes the four outputs: the attention in the queries'
// layout, the weights, logits and dropout multiplier (nil without dropout
// output) [B, KVH, G, Tq, Tv], all from c's pool.
func dpa2Forward(c *Ctx, name string, q, v, k *ndarray.Array, g dpa2Geom, qm, vm []float64, a *Args) (out, w, l, dm *ndarray.Array, err error) {
	wrap := func(err error) error { return fmt.Errorf("%s: %w", name, err) }
	q5, k5, v5, err := dpa2Operands(q, k, v, g)
	if err != nil {
		return nil, nil, nil, nil, wrap(err)
	}
	heads := allHeads(g.h)
	dt := q.DType()
	l = c.Alloc(dt, g.s5(g.tq, g.tv))
	if err := dpa2Gemm(c.Stop(), g, heads, g.tq, g.tv, g.d, q5, false, k5, true, 0, dpa2Scores(l, g)); err != nil {
		return nil, nil, nil, nil, wrap(err)
	}
	if s := dpa2Scale(a, g.d); s != 1 {
		if err := ndarray.UnaryInto(ndarray.ScaleBy, l, l, s); err != nil {
			return nil, nil, nil, nil, wrap(err)
		}
	}
	causal := a.Bool(0, false)
	if vm != nil || causal {
		byFloatDo(dt, func() { dpa2Mask(ndarray.Raw[float32](l)[l.Offset():], g, vm, causal) },
			func() { dpa2Mask(ndarray.Raw[float64](l)[l.Offset():], g, vm, causal) })
	}
	w = c.Alloc(dt, l.Shape())
	if err := ndarray.SoftmaxInto(w, l, 4); err != nil {
		return nil, nil, nil, nil, wrap(err)
	}
	if p := a.Float(1, 0); p > 0 {
		if a.Bool(1, false) {
			if dm, err = dropoutMask(c, name, w, nil, 1-p, seedOf(a)); err != nil {
				return nil, nil, nil, nil, err
			}
			if err := ndarray.BinaryInto(ndarray.Mul, w, w, dm); err != nil {
				return nil, nil, nil, nil, wrap(err)
			}
		} else {
			dm = c.Alloc(dt, l.Shape())
			if err := ndarray.UnaryInto(ndarray.ScaleBy, dm, w, 0); err == nil {
				err = ndarray.UnaryInto(ndarray.AddScalar, dm, dm, 1)
			}
			if err != nil {
				return nil, nil, nil, nil, wrap(err)
			}
		}
	}
	out = c.Alloc(dt, g.outShape())
	if err := dpa2Gemm(c.Stop(), g, heads, g.tq, g.dv, g.tv, dpa2Scores(w, g), false, v5, false, 0, dpa2Operand(out, 1)); err != nil {
		return nil, nil, nil, nil, wrap(err)
	}
	if qm != nil {
		byFloatDo(dt, func() { dpa2QueryMask(ndarray.Raw[float32](out)[out.Offset():], g, g.h*g.dv, qm) },
			func() { dpa2QueryMask(ndarray.Raw[float64](out)[out.Offset():], g, g.h*g.dv, qm) })
	}
	return out, w, l, dm, nil
}

// dpa2Inputs splits the forward op's inputs into queries, values, keys
// and the masks (nil when absent).
func dpa2Inputs(in []*ndarray.Array) (q, v, k, qm, vm *ndarray.Array) {
	q, v, k = in[0], in[1], in[1]
	if len(in) > 2 {
		k = in[2]
	}
	if len(in) > 3 {
		qm = in[3]
	}
	if len(in) > 4 {
		vm = in[4]
	}
	return q, v, k, qm, vm
}

// dpaV2Op is libnd4j's dot_product_attention_v2 (see the comment at the
// top of this file for the layout and arguments).
var dpaV2Op = Register(&Def{
	Name: "dot_product_attention_v2", Type: Custom, MinIn: 2, MaxIn: 8,
	Doc: "Keras-style attention softmax(scale·Q·Kᵀ + masks)·V over [batch, T, (heads,) features]: inputs queries, values[, keys, query mask, value mask]; float args scale, dropout; bool args causal, training; outputs attention, weights, logits[, dropout multiplier]",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		g, ok, err := dpa2Check("dot_product_attention_v2", in, a)
		if err != nil {
			return nil, err
		}
		return dpa2Infos(in[0].DType, g, ok, a.Float(1, 0) > 0), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		const name = "dot_product_attention_v2"
		if len(in) > 5 {
			_, _, err := dpa2Check(name, make([]Info, len(in)), a)
			return nil, err
		}
		q, v, k, qm, vm := dpa2Inputs(in)
		g, qmv, vmv, err := dpa2Arrays(name, q, v, k, qm, vm, a)
		if err != nil {
			return nil, err
		}
		out, w, l, dm, err := dpa2Forward(c, name, q, v, k, g, qmv, vmv, a)
		if err != nil {
			return nil, err
		}
		outs := []*ndarray.Array{out, w, l}
		if dm != nil {
			outs = append(outs, dm)
		}
		for i, o := range outs {
			shape := g.scoreShape()
			if i == 0 {
				shape = g.outShape()
			}
			if outs[i], err = ndarray.Reshape(o, shape...); err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
		}
		return outs, nil
	},
	NonDiff: []int{3, 4},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		in := []Value{n.In[0], n.In[1], n.In[1]}
		if len(n.In) > 2 {
			in[2] = n.In[2]
		}
		eps := d[0]
		if eps == nil {
			eps = op1(b, "zeros_as", Args{}, n.Out[0])
		}
		in = append(in, n.Out[0], n.Out[1], n.Out[2], eps)
		empty := func() Value { return b.Const(ndarray.Must(ndarray.Zeros(n.In[0].Info().DType, 0))) }
		if len(n.Out) > 3 {
			in = append(in, n.Out[3])
		} else {
			in = append(in, empty())
		}
		for i := 3; i < 5; i++ {
			if len(n.In) > i {
				in = append(in, n.In[i])
			} else {
				in = append(in, empty())
			}
		}
		args := Args{F: append([]float64(nil), n.Args.F...), B: append([]bool(nil), n.Args.B...)}
		if (len(d) > 1 && d[1] != nil) || (len(d) > 2 && d[2] != nil) {
			// sdgo's extension: the gradients of the weights and logits
			// outputs follow as inputs 10 and 11.
			args.I = []int64{1}
			for j := 1; j < 3; j++ {
				if len(d) > j && d[j] != nil {
					in = append(in, d[j])
				} else {
					in = append(in, op1(b, "zeros_as", Args{}, n.Out[j]))
				}
			}
		}
		gs := b.Op("dot_product_attention_v2_bp", args, in...)
		out := make([]Value, len(n.In))
		out[0], out[1] = gs[0], gs[1]
		if len(n.In) > 2 {
			out[2] = gs[2]
		} else {
			out[1] = op1(b, "add", Args{}, gs[1], gs[2])
		}
		return out
	},
})

// dpaV2BpOp is libnd4j's dot_product_attention_v2_bp: inputs queries,
// values, keys, the forward op's attention, weights and logits outputs,
// the attention's gradient, the dropout multiplier (empty without
// dropout), the query and value masks (empty for none); the forward op's
// float and bool args. As an sdgo extension (int arg 0 = 1), inputs 10
// and 11 are the gradients of the weights and logits outputs, which
// libnd4j's op ignores. Outputs the gradients of queries, values and keys.
// The softmax's input is the logits input and the dropout multiplier input
// is applied as given, so the gradient is that of the forward pass that
// made them.
var dpaV2BpOp = Register(&Def{
	Name: "dot_product_attention_v2_bp", Type: Custom, MinIn: 7, MaxIn: 12,
	Doc: "gradient of dot_product_attention_v2 for queries, values, keys from the forward's outputs and the attention's gradient",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		const name = "dot_product_attention_v2_bp"
		fwd := []Info{in[0], in[1], in[2]}
		for i := 8; i < 10 && i < len(in); i++ {
			fwd = append(fwd, in[i])
		}
		g, ok, err := dpa2Check(name, fwd, a)
		if err != nil {
			return nil, err
		}
		if a.Int(0, 0) == 1 && len(in) != 12 {
			return nil, fmt.Errorf("%s: int arg 0 = 1 says inputs 10 and 11 are the weights' and logits' gradients; it has %d inputs", name, len(in))
		}
		if ok {
			if err := sameShapeGrad(name, Info{DType: in[0].DType, Shape: g.outShape()}, in[6]); err != nil {
				return nil, err
			}
			if err := sameShapeGrad(name+" (the logits)", Info{DType: in[0].DType, Shape: g.scoreShape()}, in[5]); err != nil {
				return nil, err
			}
		}
		return sameInfos([]Info{in[0], in[1], in[2]}, 3), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		const name = "dot_product_attention_v2_bp"
		wrap := func(err error) error { return fmt.Errorf("%s: %w", name, err) }
		q, v, k := in[0], in[1], in[2]
		opt := func(i int) *ndarray.Array {
			if len(in) > i && in[i].Size() > 0 && in[i].Rank() > 0 {
				return in[i]
			}
			return nil
		}
		g, qm, _, err := dpa2Arrays(name, q, v, k, opt(8), opt(9), a)
		if err != nil {
			return nil, err
		}
		dt := q.DType()
		check := func(x *ndarray.Array, shape []int, what string) error {
			if x.DType() != dt || !ndarray.SameShape(x.Shape(), shape) {
				return fmt.Errorf("%s: %s is %v%v; want %v%v", name, what, x.DType(), x.Shape(), dt, shape)
			}
			return nil
		}
		var gw, gl *ndarray.Array
		if a.Int(0, 0) == 1 {
			if len(in) != 12 {
				return nil, fmt.Errorf("%s: int arg 0 = 1 says inputs 10 and 11 are the weights' and logits' gradients; it has %d inputs", name, len(in))
			}
			gw, gl = in[10], in[11]
		}
		for _, c := range []struct {
			x     *ndarray.Array
			shape []int
			what  string
		}{{in[5], g.scoreShape(), "the logits (input 5)"}, {in[6], g.outShape(), "the attention's gradient (input 6)"},
			{opt(7), g.scoreShape(), "the dropout multiplier (input 7)"}, {gw, g.scoreShape(), "the weights' gradient (input 10)"},
			{gl, g.scoreShape(), "the logits' gradient (input 11)"}} {
			if c.x != nil {
				if err := check(c.x, c.shape, c.what); err != nil {
					return nil, err
				}
			}
		}
		s5 := g.s5(g.tq, g.tv)
		l5, err := ndarray.Reshape(in[5], s5...)
		if err != nil {
			return nil, wrap(err)
		}
		// The weights before and after dropout.
		wPre := c.Alloc(dt, s5)
		defer c.Release(wPre)
		if err := ndarray.SoftmaxInto(wPre, l5, 4); err != nil {
			return nil, wrap(err)
		}
		wd, dm := wPre, (*ndarray.Array)(nil)
		if m := opt(7); m != nil {
			if dm, err = ndarray.Reshape(m, s5...); err != nil {
				return nil, wrap(err)
			}
			wd = c.Alloc(dt, s5)
			defer c.Release(wd)
			if err := ndarray.BinaryInto(ndarray.Mul, wd, wPre, dm); err != nil {
				return nil, wrap(err)
			}
		}
		// E = the attention's gradient times the query mask.
		var e *ndarray.Array
		if qm == nil {
			e, err = ndarray.Contiguous(in[6])
		} else { // masked in a copy of its own, however in[6] is laid out
			e = c.Alloc(dt, in[6].Shape())
			defer c.Release(e)
			if err = ndarray.CopyInto(e, in[6]); err == nil {
				byFloatDo(dt, func() { dpa2QueryMask(ndarray.Raw[float32](e)[e.Offset():], g, g.h*g.dv, qm) },
					func() { dpa2QueryMask(ndarray.Raw[float64](e)[e.Offset():], g, g.h*g.dv, qm) })
			}
		}
		if err != nil {
			return nil, wrap(err)
		}
		em := dpa2Operand(e, 1)
		q5, k5, v5, err := dpa2Operands(q, k, v, g)
		if err != nil {
			return nil, wrap(err)
		}
		heads := allHeads(g.h)
		outs := make([]*ndarray.Array, 3)
		// product sets output i (when needed) to the products of x and y
		// (transposed as said) in the layout of the input like, summed over
		// the query heads of each key/value head for keys and values.
		product := func(i int, like *ndarray.Array, m, n, k int, x dpa2Mat, tx bool, y dpa2Mat, ty bool) error {
			if !c.Needed(i) {
				return nil
			}
			out := c.Alloc(dt, like.Shape())
			var err error
			if i == 0 {
				err = dpa2Gemm(c.Stop(), g, heads, m, n, k, x, tx, y, ty, 0, dpa2Operand(out, 1))
			} else {
				err = dpa2GemmKV(c.Stop(), g, m, n, k, x, tx, y, ty, dpa2Operand(out, g.grp))
			}
			if err != nil {
				c.Release(out)
				return wrap(err)
			}
			outs[i] = out
			return nil
		}
		// dV = Wdᵀ·E.
		if err := product(1, v, g.tv, g.dv, g.tq, dpa2Scores(wd, g), true, em, false); err != nil {
			return nil, err
		}
		// dWd = E·Vᵀ (+ the weights' gradient); dWpre = dWd·multiplier;
		// dLogits = softmax'(dWpre) (+ the logits' gradient); dS = scale·dLogits.
		dw := c.Alloc(dt, s5)
		defer c.Release(dw)
		if err := dpa2Gemm(c.Stop(), g, heads, g.tq, g.tv, g.dv, em, false, v5, true, 0, dpa2Scores(dw, g)); err != nil {
			return nil, wrap(err)
		}
		for _, x := range []*ndarray.Array{gw, dm} {
			if x == nil {
				continue
			}
			x5, err := ndarray.Reshape(x, s5...)
			if err == nil {
				op := ndarray.Add
				if x == dm {
					op = ndarray.Mul
				}
				err = ndarray.BinaryInto(op, dw, dw, x5)
			}
			if err != nil {
				return nil, wrap(err)
			}
		}
		ds, err := softmaxBp(c, l5, dw, wPre, 4)
		if err != nil {
			return nil, wrap(err)
		}
		defer c.Release(ds)
		if gl != nil {
			gl5, err := ndarray.Reshape(gl, s5...)
			if err == nil {
				err = ndarray.BinaryInto(ndarray.Add, ds, ds, gl5)
			}
			if err != nil {
				return nil, wrap(err)
			}
		}
		if s := dpa2Scale(a, g.d); s != 1 {
			if err := ndarray.UnaryInto(ndarray.ScaleBy, ds, ds, s); err != nil {
				return nil, wrap(err)
			}
		}
		// logits = scale·Q·Kᵀ: dQ = dS·K, dK = dSᵀ·Q.
		if err := product(0, q, g.tq, g.d, g.tv, dpa2Scores(ds, g), false, k5, false); err != nil {
			return nil, err
		}
		if err := product(2, k, g.tv, g.d, g.tq, dpa2Scores(ds, g), true, q5, false); err != nil {
			return nil, err
		}
		return outs, nil
	},
})
