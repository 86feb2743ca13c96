package opcases

import (
	"math"
	"math/rand/v2"

	"github.com/sdgo/sdgo/ops"
)

// Cases of ctc_loss and ctc_loss_grad (ops/loss_ctc.go), worked by hand;
// ops/loss_ctc_test.go checks both against a brute-force sum over every
// path on random inputs. Inputs: labels, log-probabilities [batch, frames,
// classes], label lengths, frame lengths; int arg 0 the blank.
//   - Two frames, blank 0, label 1, p = [[0.6 0.4] [0.3 0.7]]: the paths
//     giving "1" are 1 1, 0 1, 1 0, so P = 0.4·0.7 + 0.6·0.7 + 0.4·0.3 =
//     0.82 and the loss is -ln 0.82. Class occupancies γ: frame 0 class 1
//     (0.28+0.12)/0.82, class 0 0.42/0.82; frame 1 class 1 (0.28+0.42)/0.82,
//     class 0 0.12/0.82. libnd4j's gradient is p - γ; with the loss's
//     gradient g (sdgo's fifth input) it is -g·γ.
//   - Labels 1 1 over three frames: the only path is 1 0 1 (a repeat needs
//     a blank between), so the loss is -(x[0,1] + x[1,0] + x[2,1]) =
//     0.5 + 0.25 + 0.125 with the log-probabilities below.
//   - Blank 2 of 3 classes, a batch of two: example 0 has label 0 over two
//     frames p = [[0.5 0.2 0.3] [0.1 0.6 0.3]], paths 0 0, 0 b, b 0: P =
//     0.05 + 0.15 + 0.03 = 0.23; example 1 has label 1 over one frame (its
//     second frame is past its length), p = 0.5: loss ln 2.
func init() {
	none := ops.Args{}
	s := func(sh ...int) []int { return sh }
	I := func(v ...int64) ops.Args { return ops.Args{I: v} }
	ln := math.Log
	x1 := []float64{ln(0.6), ln(0.4), ln(0.3), ln(0.7)}
	gamma := []float64{0.42 / 0.82, 0.4 / 0.82, 0.12 / 0.82, 0.7 / 0.82}
	p1 := []float64{0.6, 0.4, 0.3, 0.7}
	lib := make([]float64, 4)
	sdgo := make([]float64, 4)
	for i := range lib {
		lib[i] = p1[i] - gamma[i]
		sdgo[i] = -2 * gamma[i]
	}
	xRep := []float64{-1, -0.5, -0.25, -2, -3, -0.125}
	xBatch := []float64{ln(0.5), ln(0.2), ln(0.3), ln(0.1), ln(0.6), ln(0.3), ln(0.25), ln(0.5), ln(0.25), 7, 7, 7}
	for _, c := range []fwd{
		{"ctc_loss two frames", "ctc_loss", none, arrays(i64(s(1, 1), 1), f64(s(1, 2, 2), x1...), i64(s(1), 1), i64(s(1), 2)),
			arrays(f64(s(1), -ln(0.82))), 1e-12},
		{"ctc_loss repeated label", "ctc_loss", none, arrays(i32(s(1, 2), 1, 1), f64(s(1, 3, 2), xRep...), i32(s(1), 2), i32(s(1), 3)),
			arrays(f64(s(1), 0.875)), 1e-15},
		{"ctc_loss repeated label float32", "ctc_loss", I(0), arrays(i32(s(1, 2), 1, 1), f32(s(1, 3, 2), -1, -0.5, -0.25, -2, -3, -0.125), i32(s(1), 2), i32(s(1), 3)),
			arrays(f32(s(1), 0.875)), 1e-6},
		{"ctc_loss batch, blank 2, lengths", "ctc_loss", I(2), arrays(i64(s(2, 1), 0, 1), f64(s(2, 2, 3), xBatch...), i64(s(2), 1, 1), i64(s(2), 2, 1)),
			arrays(f64(s(2), -ln(0.23), ln(2))), 1e-12},
		{"ctc_loss_grad libnd4j's p - γ", "ctc_loss_grad", none, arrays(i64(s(1, 1), 1), f64(s(1, 2, 2), x1...), i64(s(1), 1), i64(s(1), 2)),
			arrays(f64(s(1, 2, 2), lib...)), 1e-12},
		{"ctc_loss_grad with the loss's gradient", "ctc_loss_grad", none,
			arrays(i64(s(1, 1), 1), f64(s(1, 2, 2), x1...), i64(s(1), 1), i64(s(1), 2), f64(s(1), 2)),
			arrays(f64(s(1, 2, 2), sdgo...)), 1e-12},
	} {
		forward(c.name, c.op, c.args, c.in, c.want, c.tol)
	}
	rng := rand.New(rand.NewPCG(26, 7))
	for _, c := range []grd{
		{"ctc_loss", "ctc_loss", none, []input{fixed(i64(s(2, 2), 1, 2, 2, 2)), in(randn(rng, 2, 4, 3)), fixed(i64(s(2), 2, 2)), fixed(i64(s(2), 4, 3))}},
		{"ctc_loss blank 2, padded", "ctc_loss", I(2), []input{fixed(i32(s(1, 4), 0, 1, 0, 1)), in(randn(rng, 1, 6, 3)), fixed(i32(s(1), 3)), fixed(i32(s(1), 5))}},
	} {
		gradient(c.name, c.op, c.args, c.in)
	}
}
