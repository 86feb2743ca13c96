package graph

import "github.com/sdgo/sdgo/ops"

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
