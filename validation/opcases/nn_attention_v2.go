package opcases

import (
	"math"
	"math/rand/v2"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Cases of dot_product_attention_v2 (ops/nn_attention_v2.go), worked by
// hand, inputs queries, values, keys[, query mask, value mask]:
//   - q = [[1] [2]] (Tq 2, d 1), k = [[1] [-1]], v = [[1 0] [0 2]], scale
//     1: logits [[1 -1] [2 -2]]; a row [a -a] softmaxes to [σ(2a) σ(-2a)]
//     (σ the logistic function), so the weights are [[σ(2) σ(-2)] [σ(4)
//     σ(-4)]] and the attention [[σ(2) 2σ(-2)] [σ(4) 2σ(-4)]].
//   - causal: query 0 sees key 0 only: logits row 0 [1, -1-1e9], weights
//     [1 0], attention [1 0]; row 1 as before.
//   - value mask [1 0]: every query sees key 0 only; query mask [1 0]:
//     the attention's row 1 is zero, its weights unchanged.
//   - scale <= 0 means 1/√d: with d = 4, q = [[1 1 1 1]], k = [[1 1 1 1]
//     [0 0 0 0]]: logits (4/2, 0).
//   - rank 4 with two query heads sharing one key/value head: each head is
//     the rank-3 case of its own queries.
func init() {
	none := ops.Args{}
	s := func(sh ...int) []int { return sh }
	sig := func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
	q := f64(s(1, 2, 1), 1, 2)
	k := f64(s(1, 2, 1), 1, -1)
	v := f64(s(1, 2, 2), 1, 0, 0, 2)
	w := []float64{sig(2), sig(-2), sig(4), sig(-4)}
	att := []float64{sig(2), 2 * sig(-2), sig(4), 2 * sig(-4)}
	logits := []float64{1, -1, 2, -2}
	causal := ops.Args{B: []bool{true}}
	sp := sig(2) * sig(-2) // σ'(2)
	empty := f64(s(0))
	for _, c := range []fwd{
		{"dot_product_attention_v2", "dot_product_attention_v2", none, arrays(q, v, k),
			arrays(f64(s(1, 2, 2), att...), f64(s(1, 2, 2), w...), f64(s(1, 2, 2), logits...)), 1e-15},
		{"dot_product_attention_v2 rank 2, keys the values", "dot_product_attention_v2", none, arrays(f64(s(2, 1), 1, 2), f64(s(2, 1), 1, -1)),
			arrays(f64(s(2, 1), sig(2)-sig(-2), sig(4)-sig(-4)), f64(s(2, 2), w...), f64(s(2, 2), logits...)), 1e-15},
		{"dot_product_attention_v2 causal", "dot_product_attention_v2", causal, arrays(q, v, k),
			arrays(f64(s(1, 2, 2), 1, 0, att[2], att[3]), f64(s(1, 2, 2), 1, 0, w[2], w[3]), f64(s(1, 2, 2), 1, -1-1e9, 2, -2)), 1e-15},
		{"dot_product_attention_v2 empty masks (as SameDiff writes none)", "dot_product_attention_v2", none, arrays(q, v, k, empty, empty),
			arrays(f64(s(1, 2, 2), att...), f64(s(1, 2, 2), w...), f64(s(1, 2, 2), logits...)), 1e-15},
		{"dot_product_attention_v2 value mask", "dot_product_attention_v2", none, arrays(q, v, k, empty, f64(s(1, 2), 1, 0)),
			arrays(f64(s(1, 2, 2), 1, 0, 1, 0), f64(s(1, 2, 2), 1, 0, 1, 0), f64(s(1, 2, 2), 1, -1-1e9, 2, -2-1e9)), 1e-15},
		{"dot_product_attention_v2 query mask (bool)", "dot_product_attention_v2", none, arrays(q, v, k, bools(s(1, 2), true, false)),
			arrays(f64(s(1, 2, 2), att[0], att[1], 0, 0), f64(s(1, 2, 2), w...), f64(s(1, 2, 2), logits...)), 1e-15},
		{"dot_product_attention_v2 scale 1/√d float32", "dot_product_attention_v2", ops.Args{F: []float64{0}},
			arrays(f32(s(1, 1, 4), 1, 1, 1, 1), f32(s(1, 2, 1), 3, 5), f32(s(1, 2, 4), 1, 1, 1, 1, 0, 0, 0, 0)),
			arrays(f32(s(1, 1, 1), float32(3*sig(2)+5*sig(-2))), f32(s(1, 1, 2), float32(sig(2)), float32(sig(-2))), f32(s(1, 1, 2), 2, 0)), 1e-6},
		{"dot_product_attention_v2 rank 4, two query heads per key/value head", "dot_product_attention_v2", none,
			// q [1, 2, 2, 1]: head 0 the queries 1, 2, head 1 the queries -1, 0.
			arrays(f64(s(1, 2, 2, 1), 1, -1, 2, 0), f64(s(1, 2, 1, 2), 1, 0, 0, 2), f64(s(1, 2, 1, 1), 1, -1)),
			arrays(f64(s(1, 2, 2, 2), att[0], att[1], sig(-2), 2*sig(2), att[2], att[3], 0.5, 1),
				f64(s(1, 2, 2, 2), w[0], w[1], w[2], w[3], sig(-2), sig(2), 0.5, 0.5),
				f64(s(1, 2, 2, 2), 1, -1, 2, -2, -1, 1, 0, 0)), 1e-15},
		// The gradient of out[0][0] = w00 = σ(q0·(k0-k1)) alone (eps one-hot):
		// dq0 = σ'(2)·(k0-k1) = 2σ(2)σ(-2), dk = ±σ(2)σ(-2)·q0, dv[j][0] = w0j.
		{"dot_product_attention_v2_bp", "dot_product_attention_v2_bp", none,
			arrays(q, v, k, f64(s(1, 2, 2), att...), f64(s(1, 2, 2), w...), f64(s(1, 2, 2), logits...), f64(s(1, 2, 2), 1, 0, 0, 0), empty, empty, empty),
			arrays(f64(s(1, 2, 1), 2*sp, 0), f64(s(1, 2, 2), sig(2), 0, sig(-2), 0), f64(s(1, 2, 1), sp, -sp)), 1e-15},
		// With the dropout multiplier [[2 0] [2 2]] the dropped weight w01
		// is 0 and w00 doubles: every gradient of row 0 doubles, dv[1][0] = 0.
		{"dot_product_attention_v2_bp dropout multiplier", "dot_product_attention_v2_bp", ops.Args{F: []float64{1, 0.5}, B: []bool{false, true}},
			arrays(q, v, k, f64(s(1, 2, 2), att...), f64(s(1, 2, 2), w...), f64(s(1, 2, 2), logits...), f64(s(1, 2, 2), 1, 0, 0, 0),
				f64(s(1, 2, 2), 2, 0, 2, 2), empty, empty),
			arrays(f64(s(1, 2, 1), 4*sp, 0), f64(s(1, 2, 2), 2*sig(2), 0, 0, 0), f64(s(1, 2, 1), 2*sp, -2*sp)), 1e-15},
	} {
		forward(c.name, c.op, c.args, c.in, c.want, c.tol)
	}
	rng := rand.New(rand.NewPCG(24, 2))
	r := func(sh ...int) input { return in(randn(rng, sh...)) }
	mask := func(v ...float64) input { return fixed(ndarray.Must(ndarray.FromSlice(v, 2, len(v)/2))) }
	emptyIn := fixed(empty)
	for _, c := range []grd{
		{"dot_product_attention_v2", "dot_product_attention_v2", none, []input{r(2, 3, 2), r(2, 4, 3), r(2, 4, 2)}},
		{"dot_product_attention_v2 rank 2, keys the values", "dot_product_attention_v2", ops.Args{F: []float64{0.5}}, []input{r(3, 2), r(4, 2)}},
		{"dot_product_attention_v2 rank 4 grouped heads", "dot_product_attention_v2", ops.Args{F: []float64{0.7}}, []input{r(1, 2, 4, 2), r(1, 3, 2, 3), r(1, 3, 2, 2)}},
		{"dot_product_attention_v2 dropout 0, training", "dot_product_attention_v2", ops.Args{F: []float64{1, 0}, B: []bool{false, true}}, []input{r(1, 2, 2), r(1, 3, 2), r(1, 3, 2)}},
	} {
		gradient(c.name, c.op, c.args, c.in)
	}
	// With masks the logits output holds -1e9 where a key is masked: the
	// loss is made of the attention and the weights only.
	for _, c := range []grd{
		{"dot_product_attention_v2 causal, scale 1/√d", "dot_product_attention_v2", ops.Args{F: []float64{-1}, B: []bool{true}}, []input{r(2, 3, 2), r(2, 4, 3), r(2, 4, 2)}},
		{"dot_product_attention_v2 masks", "dot_product_attention_v2", ops.Args{B: []bool{true}},
			[]input{r(2, 3, 2), r(2, 3, 3), r(2, 3, 2), mask(1, 0, 1, 1, 1, 0), mask(1, 1, 0, 1, 0, 1)}},
		{"dot_product_attention_v2 value mask only", "dot_product_attention_v2", none,
			[]input{r(2, 2, 2), r(2, 3, 1), r(2, 3, 2), emptyIn, mask(0, 1, 1, 1, 0, 1)}},
		{"dot_product_attention_v2 rank 4 grouped heads, causal", "dot_product_attention_v2", ops.Args{F: []float64{0.7}, B: []bool{true}},
			[]input{r(2, 3, 4, 2), r(2, 2, 2, 3), r(2, 2, 2, 2), mask(1, 1, 0, 1, 0, 1), emptyIn}},
	} {
		gradientOf(c.name, c.op, c.args, c.in, []int{0, 1})
	}
}
