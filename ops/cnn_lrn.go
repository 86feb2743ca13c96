package ops

import (
	"fmt"
	"math"

	"github.com/sdgo/sdgo/ndarray"
)

// Local response normalization (SameDiff's SDCNN localResponseNormalization,
// libnd4j's lrn and lrn_bp), across the last axis (the channels of an NHWC
// batch), as TensorFlow defines it:
//
//	y_j = x_j · N_j^-β,  N_j = bias + α · Σ_{|k-j| ≤ depth} x_k²
//
// Float args 0 bias, 1 alpha, 2 beta; int arg 0 depth (the half-width of
// the window). Absent args take SameDiff's LocalResponseNormalizationConfig
// defaults: bias 1, alpha 1e-4, beta 0.75, depth 5. The input has rank 4.
//
// The gradient is the exact vector-Jacobian product
//
//	dx_j = g_j · N_j^-β − 2αβ · x_j · Σ_{|k-j| ≤ depth} g_k · x_k · N_k^(−β−1)
//
// libnd4j's CPU lrn_bp multiplies g_j into its second term instead of g_k,
// which is the same only where g is constant along the window.

// lrnCfg holds lrn's arguments.
type lrnCfg struct {
	bias, alpha, beta float64
	depth             int
}

func lrnArgs(op string, a *Args, x Info) (lrnCfg, error) {
	c := lrnCfg{bias: a.Float(0, 1), alpha: a.Float(1, 1e-4), beta: a.Float(2, 0.75)}
	d := a.Int(0, 5)
	if d < 0 || d > ndarray.MaxBytes {
		return c, fmt.Errorf("%s: depth (int arg 0) %d must be in 0..%d", op, d, ndarray.MaxBytes)
	}
	c.depth = int(d)
	for _, v := range []float64{c.bias, c.alpha, c.beta} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return c, fmt.Errorf("%s: bias, alpha, beta (float args) %v, %v, %v must be finite", op, c.bias, c.alpha, c.beta)
		}
	}
	if err := needFloat(op, x); err != nil {
		return c, err
	}
	if !x.UnknownRank && len(x.Shape) != 4 {
		return c, fmt.Errorf("%s: the input must have rank 4, not shape %v", op, x.Shape)
	}
	return c, nil
}

// window is the range of channels around j of a row of n.
func (c lrnCfg) window(j, n int) (lo, hi int) {
	return max(0, j-min(j, c.depth)), min(n-1, j+min(n, c.depth))
}

// norms fills nrm with N_j for each row of n elements of x.
func lrnNorms[T ndarray.Float](x, nrm []T, n int, c lrnCfg) {
	bias, alpha := T(c.bias), T(c.alpha)
	for r := 0; r < len(x); r += n {
		row := x[r : r+n]
		for j := range row {
			lo, hi := c.window(j, n)
			var s T
			for _, v := range row[lo : hi+1] {
				s += v * v
			}
			nrm[r+j] = bias + alpha*s
		}
	}
}

func lrnPow[T ndarray.Float](v T, p float64) T { return T(math.Pow(float64(v), p)) }

func lrnForward[T ndarray.Float](x, y []T, n int, c lrnCfg) {
	lrnNorms(x, y, n, c)
	for i, v := range x {
		y[i] = v * lrnPow(y[i], -c.beta)
	}
}

// lrnBackward computes dx from x and g, with nrm as scratch.
func lrnBackward[T ndarray.Float](x, g, dx, nrm []T, n int, c lrnCfg) {
	lrnNorms(x, nrm, n, c)
	// dx first holds g_k · x_k · N_k^(−β−1), the terms the windows sum.
	for i := range x {
		dx[i] = g[i] * x[i] * lrnPow(nrm[i], -c.beta-1)
	}
	k := T(2 * c.alpha * c.beta)
	tmp := make([]T, n)
	for r := 0; r < len(x); r += n {
		copy(tmp, dx[r:r+n])
		for j := 0; j < n; j++ {
			lo, hi := c.window(j, n)
			var s T
			for _, v := range tmp[lo : hi+1] {
				s += v
			}
			i := r + j
			dx[i] = g[i]*lrnPow(nrm[i], -c.beta) - k*x[i]*s
		}
	}
}

// lrnRun runs lrn (g nil) or lrn_bp.
func lrnRun(c *Ctx, op string, x, g *ndarray.Array, a *Args) ([]*ndarray.Array, error) {
	cfg, err := lrnArgs(op, a, Info{DType: x.DType(), Shape: x.Shape()})
	if err != nil {
		return nil, err
	}
	if g != nil && (g.DType() != x.DType() || !ndarray.SameShape(x.Shape(), g.Shape())) {
		return nil, fmt.Errorf("%s: gradient %v%v for input %v%v", op, g.DType(), g.Shape(), x.DType(), x.Shape())
	}
	out, err := c.TryAlloc(x.DType(), x.Shape())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	n := x.Shape()[3]
	if x.DType() == ndarray.Float32 {
		err = lrnTyped[float32](c, x, g, out, n, cfg)
	} else {
		err = lrnTyped[float64](c, x, g, out, n, cfg)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	return []*ndarray.Array{out}, nil
}

func lrnTyped[T ndarray.Float](c *Ctx, x, g, out *ndarray.Array, n int, cfg lrnCfg) error {
	if n == 0 || x.Size() == 0 {
		return nil
	}
	xv, err := packedValues[T](x)
	if err != nil {
		return err
	}
	ov := ndarray.Raw[T](out)[out.Offset() : out.Offset()+out.Size()]
	if g == nil {
		lrnForward(xv, ov, n, cfg)
		return nil
	}
	gv, err := packedValues[T](g)
	if err != nil {
		return err
	}
	nrm, err := c.TryAlloc(x.DType(), x.Shape())
	if err != nil {
		return err
	}
	lrnBackward(xv, gv, ov, ndarray.Raw[T](nrm)[nrm.Offset():nrm.Offset()+nrm.Size()], n, cfg)
	c.Release(nrm)
	return nil
}

// lrnOp is libnd4j's lrn: local response normalization across the last
// axis of a rank-4 input. Float args bias, alpha, beta; int arg depth.
var lrnOp = Register(&Def{
	Name: "lrn", Aliases: []string{"local_response_normalization"}, Type: Custom, MinIn: 1, MaxIn: 1,
	Doc: "x_j·(bias + alpha·Σ_{|k-j|≤depth} x_k²)^-beta across the last axis of a rank-4 input; float args bias, alpha, beta, int arg depth",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		if _, err := lrnArgs("lrn", a, in[0]); err != nil {
			return nil, err
		}
		return infos(same(in[0])), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		return lrnRun(c, "lrn", in[0], nil, a)
	},
	Grad: bpOp("lrn_bp"),
})

// lrnBpOp is libnd4j's lrn_bp: inputs x, gradO; lrn's arguments. It
// computes the exact gradient (see above).
var lrnBpOp = Register(gradOfInput(bpDef("lrn_bp", 1, "gradient of lrn for inputs x, gradO; float args bias, alpha, beta, int arg depth",
	func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		return lrnRun(c, "lrn_bp", in[0], in[1], a)
	})))
