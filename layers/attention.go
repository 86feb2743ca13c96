package layers

import (
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/weightinit"
)

// AttentionConfig holds a MultiHeadAttention layer's options.
type AttentionConfig struct {
	// Heads is the number of heads; required.
	Heads int
	// KeySize is each head's size of the projected queries and keys.
	// Default (0): the query features divided by Heads.
	KeySize int
	// ValueSize is each head's size of the projected values. Default (0):
	// KeySize.
	ValueSize int
	// OutSize is the number of output features. Default (0): the query
	// features.
	OutSize int
	// Unscaled leaves out the division of the scores by √KeySize. Default
	// false: scaled, as in "Attention Is All You Need".
	Unscaled bool
	// Init draws the four projections. Default weightinit.Xavier.
	Init weightinit.Initializer
}

// MultiHeadAttention is multi-head dot-product attention (op
// multi_head_dot_product_attention) in libnd4j's layout, features before
// time: queries [batch, qFeatures, tq], keys [batch, kFeatures, tv] and
// values [batch, vFeatures, tv] give [batch, OutSize, tq]. Each head h
// projects with name/Wq[h] [KeySize, qFeatures], name/Wk[h] and name/Wv[h],
// attends with softmax over the key steps, and the heads' results, stacked,
// are projected by name/Wo [Heads·ValueSize, OutSize]. The projections
// have no biases. mask [batch, tv] (1 keeps a key step, 0 skips it) may
// be nil; for self-attention pass the same variable three times.
func (b *Builder) MultiHeadAttention(name string, queries, keys, values, mask *graph.Variable, cfg AttentionConfig) *graph.Variable {
	l := b.layer("MultiHeadAttention", name)
	const layout = "[batch, features, time]"
	var feats [3]int
	for i, x := range []*graph.Variable{queries, keys, values} {
		if bad := l.input(x, layout, 3); bad != nil {
			return bad
		}
		var bad *graph.Variable
		if feats[i], bad = l.known(x, 1, "number of features"); bad != nil {
			return bad
		}
	}
	if mask != nil {
		if bad := l.input(mask, "[batch, key steps]", 2); bad != nil {
			return bad
		}
	}
	if cfg.Heads <= 0 {
		return l.fail("Heads is %d; it must be at least 1", cfg.Heads)
	}
	pk, pv, out := cfg.KeySize, cfg.ValueSize, cfg.OutSize
	if pk == 0 {
		if feats[0]%cfg.Heads != 0 {
			return l.fail("%d query features do not split into %d heads; set KeySize", feats[0], cfg.Heads)
		}
		pk = feats[0] / cfg.Heads
	}
	if pv == 0 {
		pv = pk
	}
	if out == 0 {
		out = feats[0]
	}
	if pk < 0 || pv < 0 || out < 0 {
		return l.fail("KeySize %d, ValueSize %d and OutSize %d must not be negative", cfg.KeySize, cfg.ValueSize, cfg.OutSize)
	}
	h := cfg.Heads
	proj := func(suffix string, size, in int) *graph.Variable {
		return l.weight(suffix, cfg.Init, weightinit.Xavier, weightinit.Fans{In: float64(in), Out: float64(h * size)}, h, size, in)
	}
	w := graph.MultiHeadWeights{Wq: proj("Wq", pk, feats[0]), Wk: proj("Wk", pk, feats[1]), Wv: proj("Wv", pv, feats[2]),
		Wo: l.dense("Wo", cfg.Init, weightinit.Xavier, h*pv, out)}
	if bad := firstErr(w.Wq, w.Wk, w.Wv, w.Wo); bad != nil {
		return bad
	}
	return b.g.NN().MultiHeadDotProductAttention(queries, keys, values, w, mask, graph.AttentionConfig{Scaled: !cfg.Unscaled})
}
