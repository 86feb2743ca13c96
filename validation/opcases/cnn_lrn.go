package opcases

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ops"
)

// Cases of lrn and lrn_bp (ops/cnn_lrn.go). The forward values are
// libnd4j's DeclarableOpsTests12 lrn_1 and lrn_2 (float32 numbers, hence
// the tolerance); the lrn_bp case is worked by hand: x = (1, 2), depth 1,
// bias = alpha = beta = 1 give N = 1 + 1 + 4 = 6 for both channels, and
// for g = (1, 0) dx_j = g_j/6 − 2·x_j·(g_0·x_0)/36 = (1/9, −1/9).

func init() {
	lrn := func(bias, alpha, beta float64, depth int64) ops.Args {
		return ops.Args{F: []float64{bias, alpha, beta}, I: []int64{depth}}
	}
	forward("lrn libnd4j lrn_1", "lrn", lrn(1, 2, 0.5, 2), arrays(counting(-20, 2, 2, 2, 5)),
		arrays(f64([]int{2, 2, 2, 5},
			-0.42923987, -0.3623817, -0.3152079, -0.34268343, -0.3836809, -0.43648192, -0.3652726, -0.31428117, -0.3379276, -0.3731494,
			-0.45129365, -0.37083852, -0.3111639, -0.3260225, -0.34698898, -0.4975186, -0.3831305, -0.2847474, -0.25607377, -0.18569534,
			0., 0.18569534, 0.25607377, 0.38411066, 0.52075565, 0.33633637, 0.32117262, 0.30966178, 0.37259716, 0.45631808,
			0.36986336, 0.33643705, 0.31394684, 0.36608824, 0.43857202, 0.3821113, 0.34197718, 0.31508508, 0.36284128, 0.4303756)), 1e-6)
	forward("lrn libnd4j lrn_2 float32", "lrn", lrn(0.1, 2, 0.5, 5), arrays(to32(counting(1, 1, 1, 1, 5))),
		arrays(to32(f64([]int{1, 1, 1, 5}, 0.09530295, 0.1906059, 0.28590885, 0.3812118, 0.47651473))), 1e-6)
	forward("lrn_bp by hand", "lrn_bp", lrn(1, 1, 1, 1), arrays(f64([]int{1, 1, 1, 2}, 1, 2), f64([]int{1, 1, 1, 2}, 1, 0)),
		arrays(f64([]int{1, 1, 1, 2}, 1.0/9, -1.0/9)), 1e-15)

	r := rand.New(rand.NewPCG(21, 10))
	gradient("lrn depth 1", "lrn", lrn(1, 0.5, 0.75, 1), []input{in(randn(r, 2, 2, 1, 5))})
	gradient("lrn depth 3 over 4 channels", "lrn", lrn(2, 0.3, 0.5, 3), []input{in(randn(r, 1, 2, 2, 4))})
}
