package graph

import (
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Builder methods of SameDiff's attention ops (ops/nn_attention.go). The
// layout is libnd4j's: features before timesteps, queries
// [batch, features, tq], keys [batch, features, tv], values
// [batch, valueFeatures, tv].

// AttentionConfig holds the attention ops' options.
type AttentionConfig struct {
	// Scaled divides the scores keysᵀ·queries by √(key features) before
	// the softmax. Default false: libnd4j's default, unscaled.
	Scaled bool
}

func (c AttentionConfig) args(withWeights bool) ops.Args {
	return ops.Args{I: []int64{b2i(c.Scaled), b2i(withWeights)}}
}

// MultiHeadWeights are the projections of multi-head attention: Wq
// [heads, pk, queryFeatures], Wk [heads, pk, keyFeatures], Wv
// [heads, pv, valueFeatures] and Wo [heads·pv, outSize].
type MultiHeadWeights struct {
	Wq, Wk, Wv, Wo *Variable
}

// withMask appends mask to in when it is not nil.
func withMask(in []*Variable, mask *Variable) []*Variable {
	if mask != nil {
		in = append(in, mask)
	}
	return in
}

// twoOutputs adds an op with two outputs; on error both carry it.
func (g *Graph) twoOutputs(op string, args ops.Args, in ...*Variable) (*Variable, *Variable) {
	for _, v := range in {
		if v != nil && v.err != nil {
			return v, v
		}
	}
	outs, err := g.Op(op, args, in...)
	if err != nil {
		f := g.fail(err)
		return f, f
	}
	return outs[0], outs[1]
}

// DotProductAttention is values·softmax(keysᵀ·queries + mask) over the key
// timesteps, [batch, valueFeatures, tq] (op dot_product_attention).
// Inputs may also be [batch, heads, features, timesteps]. mask, [batch, tv]
// with 1 to keep a key and 0 to skip it, may be nil.
func (n NN) DotProductAttention(queries, keys, values, mask *Variable, cfg AttentionConfig) *Variable {
	return n.g.Apply("dot_product_attention", cfg.args(false), withMask([]*Variable{queries, keys, values}, mask)...)
}

// DotProductAttentionWithWeights is DotProductAttention that also returns
// the attention weights [batch, tv, tq].
func (n NN) DotProductAttentionWithWeights(queries, keys, values, mask *Variable, cfg AttentionConfig) (out, weights *Variable) {
	return n.g.twoOutputs("dot_product_attention", cfg.args(true), withMask([]*Variable{queries, keys, values}, mask)...)
}

// MultiHeadDotProductAttention projects queries, keys and values per head
// with w.Wq, w.Wk, w.Wv, attends in each head, and projects the heads'
// results, stacked, with w.Wo: [batch, outSize, tq] (op
// multi_head_dot_product_attention). mask [batch, tv] may be nil.
func (n NN) MultiHeadDotProductAttention(queries, keys, values *Variable, w MultiHeadWeights, mask *Variable, cfg AttentionConfig) *Variable {
	in := withMask([]*Variable{queries, keys, values, w.Wq, w.Wk, w.Wv, w.Wo}, mask)
	return n.g.Apply("multi_head_dot_product_attention", cfg.args(false), in...)
}

// MultiHeadDotProductAttentionWithWeights is MultiHeadDotProductAttention
// that also returns the weights [batch, heads, tv, tq].
func (n NN) MultiHeadDotProductAttentionWithWeights(queries, keys, values *Variable, w MultiHeadWeights, mask *Variable, cfg AttentionConfig) (out, weights *Variable) {
	in := withMask([]*Variable{queries, keys, values, w.Wq, w.Wk, w.Wv, w.Wo}, mask)
	return n.g.twoOutputs("multi_head_dot_product_attention", cfg.args(true), in...)
}

// AttentionV2Config are DotProductAttentionV2's options. The zero value is
// scaled attention over the values as keys, without masks or dropout.
type AttentionV2Config struct {
	// Keys [.., Tv, (KVH,) d]; nil (the default) uses the values as keys.
	Keys *Variable
	// QueryMask [batch, Tq] zeroes the attention of a query where it is 0;
	// ValueMask [batch, Tv] hides a key where it is 0 (at rank 2, [T]).
	// nil (the default) is no mask.
	QueryMask, ValueMask *Variable
	// Scale multiplies the logits Q·Kᵀ; 0 (the default), or any value
	// <= 0, means 1/√d, d the queries' feature size.
	Scale float64
	// Dropout is the probability of dropping each weight in training (the
	// kept ones scaled by 1/(1-Dropout)); 0 by default. With Dropout > 0
	// the op has a fourth output, the multiplier it drew.
	Dropout float64
	// Causal lets query i see only keys j <= i + max(0, Tv - Tq); false by
	// default.
	Causal bool
	// Training turns dropout on; false by default.
	Training bool
	// Seed picks the dropout's draws: the same seed gives the same
	// multiplier in every run (written as int arg 0, an sdgo extension).
	Seed int64
}

// AttentionV2 are DotProductAttentionV2's outputs.
type AttentionV2 struct {
	// Out is the attention [(batch,) Tq, (H,) dv].
	Out *Variable
	// Weights [(batch,) (H,) Tq, Tv] are the softmax of the logits (after
	// dropout) and Logits the scaled, masked scores before it.
	Weights, Logits *Variable
	// DropoutMask is the multiplier of the weights (0 or 1/(1-p)); nil
	// without dropout.
	DropoutMask *Variable
}

// DotProductAttentionV2 is Keras-style attention, timesteps before
// features (op dot_product_attention_v2): softmax(scale·Q·Kᵀ + masks)·V
// for queries [(batch,) Tq, d] and values [(batch,) Tv, dv], or
// [batch, T, heads, head size] with the query heads a multiple of the
// key/value heads (grouped-query attention). Unlike DotProductAttention,
// whose layout is features before timesteps.
func (n NN) DotProductAttentionV2(queries, values *Variable, cfg AttentionV2Config) AttentionV2 {
	empty := func() *Variable {
		if queries == nil || queries.err != nil {
			return queries
		}
		return n.g.Const("", ndarray.Must(ndarray.Zeros(queries.DType(), 0)))
	}
	keys, qm, vm := cfg.Keys, cfg.QueryMask, cfg.ValueMask
	if keys == nil {
		keys = values
	}
	if qm == nil {
		qm = empty()
	}
	if vm == nil {
		vm = empty()
	}
	for _, v := range []*Variable{queries, values, keys, qm, vm} {
		if v != nil && v.err != nil {
			return AttentionV2{Out: v, Weights: v, Logits: v}
		}
	}
	args := ops.Args{F: []float64{cfg.Scale, cfg.Dropout}, B: []bool{cfg.Causal, cfg.Training}, I: []int64{cfg.Seed}}
	outs, err := n.g.Op("dot_product_attention_v2", args, queries, values, keys, qm, vm)
	if err != nil {
		f := n.g.fail(err)
		return AttentionV2{Out: f, Weights: f, Logits: f}
	}
	r := AttentionV2{Out: outs[0], Weights: outs[1], Logits: outs[2]}
	if len(outs) > 3 {
		r.DropoutMask = outs[3]
	}
	return r
}
