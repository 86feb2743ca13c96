package main

import (
	"math"
	"math/rand/v2"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/train"
)

// The transformer encoder block of issue 24: 32 sequences of 128 tokens
// of width 256, 4 heads, a feed-forward layer of 1024, as PyTorch's
// nn.TransformerEncoderLayer computes it by default (post-norm, ReLU, no
// dropout): h = LN(x + MHA(x)), out = LN(h + W2·relu(W1·h)). The tokens'
// mean goes through a dense layer into 10 classes.
const (
	tfWidth  = 256
	tfHeads  = 4
	tfHidden = 1024
)

// sdgoTransformer builds the block with the builders (g.NN().Linear,
// DotProductAttentionV2, LayerNorm) and returns its trainer, batch and
// the arrays the PyTorch peer starts from.
func sdgoTransformer() (*train.Trainer, *train.Batch, map[string]*ndarray.Array, error) {
	g := graph.New()
	p := &seqParams{g: g, rng: rand.New(rand.NewPCG(24, 9))}
	nn := g.NN()
	linear := func(in *graph.Variable, name string, from, to int) *graph.Variable {
		return nn.Linear(in, p.v(name+"_w", 1/math.Sqrt(float64(from)), from, to), p.v(name+"_b", 0, to), graph.LinearConfig{})
	}
	norm := func(in *graph.Variable, name string) *graph.Variable {
		gain := p.g.Var(name+"_g", ndarray.Must(ndarray.Full(ndarray.Float32, 1, tfWidth)))
		p.names = append(p.names, name+"_g")
		return nn.LayerNorm(in, gain, p.v(name+"_b", 0, tfWidth), graph.LayerNormConfig{Axes: []int{1}})
	}
	heads := func(v *graph.Variable) *graph.Variable { return v.Reshape(-1, seqSteps, tfHeads, tfWidth/tfHeads) }
	x := g.Placeholder("x", ndarray.Float32, -1, seqSteps, tfWidth)
	rows := x.Reshape(-1, tfWidth)
	q, k, v := linear(rows, "q", tfWidth, tfWidth), linear(rows, "k", tfWidth, tfWidth), linear(rows, "v", tfWidth, tfWidth)
	att := nn.DotProductAttentionV2(heads(q), heads(v), graph.AttentionV2Config{Keys: heads(k)})
	h := norm(rows.Add(linear(att.Out.Reshape(-1, tfWidth), "o", tfWidth, tfWidth)), "ln1")
	h = norm(h.Add(linear(nn.Relu(linear(h, "ff1", tfWidth, tfHidden)), "ff2", tfHidden, tfWidth)), "ln2")
	logits := linear(h.Reshape(-1, seqSteps, tfWidth).Mean(1), "out", tfWidth, seqClasses)
	return p.trainer(logits, tfWidth)
}

func transformerBench(o options) ([]result, error) {
	return seqBench("transformer", "32x128", sdgoTransformer, o)
}
