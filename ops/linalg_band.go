package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// The band and triangle ops of SameDiff's SDLinalg namespace:
// matrix_band_part, tri, triu (and triu_bp, its backprop op). tril is not
// a SameDiff op: matrix_band_part with (-1, 0) is the lower triangle.

// maskT writes into out x's elements (matrices [..., m, n]; a vector of n
// acts as every row of an n×n matrix) where keep(i, j), zeros elsewhere.
func maskT[T ndarray.Num](out, x *ndarray.Array, keep func(i, j int) bool) error {
	src, err := packedValues[T](x)
	if err != nil {
		return err
	}
	o := ndarray.Raw[T](out)[out.Offset() : out.Offset()+out.Size()]
	s := out.Shape()
	m, n := s[len(s)-2], s[len(s)-1]
	vec := x.Rank() == 1
	for k := range o {
		i, j := (k/n)%m, k%n
		var v T
		if keep(i, j) {
			if vec {
				v = src[j]
			} else {
				v = src[k]
			}
		}
		o[k] = v
	}
	return nil
}

// masked allocates out of shape and fills it as maskT.
func masked(c *Ctx, name string, x *ndarray.Array, shape []int, keep func(i, j int) bool) ([]*ndarray.Array, error) {
	out, err := c.TryAlloc(x.DType(), shape)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	switch x.DType() {
	case ndarray.Float32:
		err = maskT[float32](out, x, keep)
	case ndarray.Float64:
		err = maskT[float64](out, x, keep)
	case ndarray.Int32:
		err = maskT[int32](out, x, keep)
	case ndarray.Int64:
		err = maskT[int64](out, x, keep)
	default:
		err = fmt.Errorf("%s of a %v array", name, x.DType())
	}
	if err != nil {
		c.Release(out)
		return nil, err
	}
	return one(out, nil)
}

// ---------------------------------------------------------------- matrix_band_part

// bandArgs reads matrix_band_part's lower and upper band counts: int args
// 0 and 1, or scalar integer inputs 1 and 2.
func bandArgs(in []*ndarray.Array, a *Args) (lower, upper int64, err error) {
	if len(in) == 1 {
		if len(a.I) < 2 {
			return 0, 0, fmt.Errorf("matrix_band_part: %d int args; it needs 2 (lower and upper band counts) or 3 inputs", len(a.I))
		}
		return a.I[0], a.I[1], nil
	}
	for i := 1; i <= 2; i++ {
		if in[i].Size() != 1 || !in[i].DType().IsInt() {
			return 0, 0, fmt.Errorf("matrix_band_part: input %d is %v%v; the band counts must be integer scalars", i, in[i].DType(), in[i].Shape())
		}
	}
	return in[1].Int64s()[0], in[2].Int64s()[0], nil
}

// bandCheck checks the band counts against an m×n matrix as libnd4j does
// (lower < m, upper < n), except that any negative count is the whole
// triangle: libnd4j also refuses counts <= -m, so -1 for a 1×1 matrix,
// which gradient rules (cholesky's, triangular_solve's) give it.
func bandCheck(lower, upper int64, m, n int) error {
	if lower >= int64(max(m, 1)) {
		return fmt.Errorf("matrix_band_part: lower band count %d for matrices of %d rows; it must be less than %d (negative: all)", lower, m, max(m, 1))
	}
	if upper >= int64(max(n, 1)) {
		return fmt.Errorf("matrix_band_part: upper band count %d for matrices of %d columns; it must be less than %d (negative: all)", upper, n, max(n, 1))
	}
	return nil
}

// matrixBandPartOp is libnd4j's matrix_band_part: x[..., m, n] with
// element (i, j) kept where (lower < 0 or i-j <= lower) and (upper < 0 or
// j-i <= upper), zero elsewhere. The counts are int args [lower, upper] or
// scalar integer inputs 1 and 2; lower < m, upper < n (see bandCheck).
var matrixBandPartOp = Register(&Def{
	Name: "matrix_band_part", Aliases: []string{"MatrixBandPart", "band_part"}, Type: Custom, MinIn: 1, MaxIn: 3,
	NonDiff: []int{1, 2},
	Doc:     "x[..., m, n] with elements outside the band lower below and upper above the diagonal zeroed (negative: all); int args or inputs lower, upper",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		x := in[0]
		if err := needNumeric("matrix_band_part", x); err != nil {
			return nil, err
		}
		if len(in) == 2 {
			return nil, fmt.Errorf("matrix_band_part: 2 inputs; give both band counts as inputs, or both as int args")
		}
		if len(in) == 1 && len(a.I) < 2 {
			return nil, fmt.Errorf("matrix_band_part: %d int args; it needs 2 (lower and upper band counts) or 3 inputs", len(a.I))
		}
		if x.UnknownRank {
			return infos(same(x)), nil
		}
		if len(x.Shape) < 2 {
			return nil, fmt.Errorf("matrix_band_part: input of shape %v; it needs rank 2 or more", x.Shape)
		}
		if m, n := x.Shape[len(x.Shape)-2], x.Shape[len(x.Shape)-1]; len(in) == 1 && m >= 0 && n >= 0 {
			if err := bandCheck(a.I[0], a.I[1], m, n); err != nil {
				return nil, err
			}
		}
		return infos(same(x)), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x := in[0]
		if x.Rank() < 2 {
			return nil, fmt.Errorf("matrix_band_part: input of shape %v; it needs rank 2 or more", x.Shape())
		}
		lo, up, err := bandArgs(in, a)
		if err != nil {
			return nil, err
		}
		_, m, n := matsOf(x.Shape())
		if err := bandCheck(lo, up, m, n); err != nil {
			return nil, err
		}
		return masked(c, "matrix_band_part", x, x.Shape(), func(i, j int) bool {
			return (lo < 0 || int64(i-j) <= lo) && (up < 0 || int64(j-i) <= up)
		})
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		in := append([]Value{d[0]}, n.In[1:]...)
		return []Value{op1(b, "matrix_band_part", n.Args.Clone(), in...)}
	},
})

// ---------------------------------------------------------------- tri

// triParams reads tri's int args rows, [cols (default rows), [diagonal
// (default 0)]] and its dtype (dtype arg 0, float32 by default).
func triParams(a *Args) (rows, cols, k int, dt ndarray.DType, err error) {
	if len(a.I) == 0 {
		return 0, 0, 0, 0, fmt.Errorf("tri: no int args; it needs rows, [cols, [diagonal]]")
	}
	rows, cols = int(a.I[0]), int(a.I[0])
	if len(a.I) > 1 {
		cols = int(a.I[1])
	}
	if rows < 0 || cols < 0 {
		return 0, 0, 0, 0, fmt.Errorf("tri: negative size in int args %v", a.I)
	}
	if err := ndarray.CheckShape([]int{rows, cols}); err != nil {
		return 0, 0, 0, 0, fmt.Errorf("tri: int args %v: %w", a.I, err)
	}
	dt = a.DType(0, ndarray.Float32)
	if !dt.IsNumeric() {
		return 0, 0, 0, 0, fmt.Errorf("tri: the output dtype %v is not numeric", dt)
	}
	return rows, cols, int(a.Int(2, 0)), dt, nil
}

// triOp is libnd4j's tri: the rows×cols matrix with ones at and below the
// k-th diagonal (j <= i + k) and zeros above, as numpy's tri. Int args:
// rows, [cols (default rows), [k (default 0)]]; dtype arg 0 the output
// dtype (float32 by default). No inputs.
var triOp = Register(&Def{
	Name: "tri", Aliases: []string{"Tri"}, Type: Custom, MinIn: 0, MaxIn: 0,
	Doc: "rows×cols matrix of ones at and below diagonal k (j <= i+k); int args rows, [cols, [k]]; dtype arg 0",
	Infer: func(_ []Info, a *Args) ([]Info, error) {
		r, c, _, dt, err := triParams(a)
		if err != nil {
			return nil, err
		}
		return infos(Info{DType: dt, Shape: []int{r, c}}), nil
	},
	Run: func(c *Ctx, _ []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		r, cols, k, dt, err := triParams(a)
		if err != nil {
			return nil, err
		}
		// A row of ones masked into every row: no list of positions as
		// large as the output, and j-i <= k rather than j <= i+k, which
		// wraps for a diagonal near the int64 limit.
		ones, err := ndarray.Full(dt, 1, cols)
		if err != nil {
			return nil, fmt.Errorf("tri: %w", err)
		}
		return masked(c, "tri", ones, []int{r, cols}, func(i, j int) bool { return j-i <= k })
	},
})

// ---------------------------------------------------------------- triu

// triuShape is triu's output shape: x's, or [n, n] for a vector of n.
func triuShape(s []int) []int {
	if len(s) == 1 {
		return []int{s[0], s[0]}
	}
	return append([]int(nil), s...)
}

// triuOp is libnd4j's triu: x (rank >= 1) with the elements below the k-th
// diagonal zeroed (kept where j >= i + k), as numpy's triu; a vector of n
// acts as each row of an n×n matrix. Int arg 0: k (default 0).
var triuOp = Register(&Def{
	Name: "triu", Aliases: []string{"Triu"}, Type: Custom, MinIn: 1, MaxIn: 1,
	Doc: "x's upper triangle from diagonal k (j >= i+k kept), a vector as the rows of a square matrix; int arg 0: k",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		x := in[0]
		if err := needNumeric("triu", x); err != nil {
			return nil, err
		}
		if x.UnknownRank {
			return infos(same(x)), nil
		}
		if len(x.Shape) == 0 {
			return nil, fmt.Errorf("triu: a scalar input; it needs rank 1 or more")
		}
		return infos(Info{DType: x.DType, Shape: triuShape(x.Shape)}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x := in[0]
		if x.Rank() == 0 {
			return nil, fmt.Errorf("triu: a scalar input; it needs rank 1 or more")
		}
		k := int(a.Int(0, 0))
		return masked(c, "triu", x, triuShape(x.Shape()), func(i, j int) bool { return j-i >= k }) // i+k wraps for k near 2^63
	},
	Grad: bpOp("triu_bp"),
})

// triuBpOp is libnd4j's triu_bp: inputs x and the gradient of triu(x);
// the gradient of x, triu of the output gradient (summed over the rows for
// a vector x). Int arg 0: k, as triu's.
var triuBpOp = Register(&Def{
	Name: "triu_bp", Type: Custom, MinIn: 2, MaxIn: 2,
	Doc: "gradient of triu for inputs x, gradO; int arg 0: k",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		x, g := in[0], in[1]
		if err := needFloat("triu_bp", g); err != nil {
			return nil, err
		}
		if x.DType != g.DType {
			return nil, fmt.Errorf("triu_bp: the input is %v, the gradient %v", x.DType, g.DType)
		}
		if !x.UnknownRank && !g.UnknownRank {
			if len(x.Shape) == 0 || !(Info{Shape: triuShape(x.Shape)}).Admits(g.Shape) {
				return nil, fmt.Errorf("triu_bp: an input of shape %v and a gradient of shape %v", x.Shape, g.Shape)
			}
		}
		return infos(same(x)), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x, g := in[0], in[1]
		if x.Rank() == 0 || !ndarray.SameShape(triuShape(x.Shape()), g.Shape()) {
			return nil, fmt.Errorf("triu_bp: an input of shape %v and a gradient of shape %v", x.Shape(), g.Shape())
		}
		k := int(a.Int(0, 0))
		out, err := masked(c, "triu_bp", g, g.Shape(), func(i, j int) bool { return j-i >= k }) // i+k wraps for k near 2^63
		if err != nil || x.Rank() > 1 {
			return out, err
		}
		r := c.Alloc(g.DType(), x.Shape())
		err = ndarray.ReduceInto(ndarray.Sum, r, out[0], []int{0})
		c.Release(out[0])
		return one(r, err)
	},
})
