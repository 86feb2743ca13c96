package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// matmul (SameDiff's mmul, also in its linear-algebra namespace) and
// matmul_bp.

// MatMulArgs returns matmul's arguments: integer args transpose x, transpose
// y, transpose the result (libnd4j's order).
func MatMulArgs(transX, transY bool) Args {
	return Args{I: []int64{b2i(transX), b2i(transY), 0}}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

var matMulOp = Register(&Def{
	Name: "matmul", Aliases: []string{"mmul"}, Type: Custom, MinIn: 2, MaxIn: 2,
	Doc: "matrix product over broadcast batch axes; int args: transpose x, transpose y, transpose result; float arg 0: alpha",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		if err := needNumeric("matmul", in[0]); err != nil {
			return nil, err
		}
		if in[0].DType != in[1].DType {
			return nil, fmt.Errorf("matmul of %v and %v: dtypes differ", in[0].DType, in[1].DType)
		}
		if in[0].UnknownRank || in[1].UnknownRank {
			return infos(Info{DType: in[0].DType, UnknownRank: true}), nil
		}
		// Check with unknown sizes replaced by sizes that fit, then put
		// the unknowns back where they land in the result.
		if len(in[0].Shape) == 0 || len(in[1].Shape) == 0 {
			return nil, fmt.Errorf("matmul of %v and %v: a matrix product needs operands of rank 1 or more (use multiply for scalars)", in[0].Shape, in[1].Shape)
		}
		x, y := append([]int(nil), in[0].Shape...), append([]int(nil), in[1].Shape...)
		tx, ty := a.Int(0, 0) != 0, a.Int(1, 0) != 0
		fillUnknownMatmul(x, y, tx, ty)
		s, err := ndarray.MatMulShape(x, y, tx, ty)
		if err != nil {
			// MatMulShape's error names the shapes it was given; name the
			// declared ones too only when unknown sizes were filled in.
			if !ndarray.SameShape(x, in[0].Shape) || !ndarray.SameShape(y, in[1].Shape) {
				return nil, fmt.Errorf("matmul of shapes %v and %v: %w", in[0].Shape, in[1].Shape, err)
			}
			return nil, err
		}
		s = restoreUnknown(s, in[0].Shape, in[1].Shape, tx, ty)
		if a.Int(2, 0) != 0 && len(s) >= 2 {
			s[len(s)-1], s[len(s)-2] = s[len(s)-2], s[len(s)-1]
		}
		return infos(Info{DType: in[0].DType, Shape: s}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		tx, ty := a.Int(0, 0) != 0, a.Int(1, 0) != 0
		s, err := ndarray.MatMulShape(in[0].Shape(), in[1].Shape(), tx, ty)
		if err != nil {
			return nil, err
		}
		out := c.Alloc(in[0].DType(), s)
		if err := ndarray.MatMulIntoStop(c.Stop(), out, in[0], in[1], tx, ty); err != nil {
			return nil, err
		}
		if alpha := a.Float(0, 1); alpha != 1 {
			if err := ndarray.UnaryInto(ndarray.ScaleBy, out, out, alpha); err != nil {
				return nil, err
			}
		}
		if a.Int(2, 0) != 0 && out.Rank() >= 2 {
			return one(ndarray.Permute(out, swapLast(out.Rank())...))
		}
		return one(out, nil)
	},
	Grad: bpOp("matmul_bp"),
})

// fillUnknownMatmul replaces -1 sizes by sizes that make the product valid,
// so that the known sizes can be checked.
func fillUnknownMatmul(x, y []int, tx, ty bool) {
	inner := func(s []int, t bool, left bool) int {
		if len(s) == 1 {
			return 0
		}
		if left != t { // x's inner axis is its last unless transposed
			return len(s) - 1
		}
		return len(s) - 2
	}
	ix, iy := inner(x, tx, true), inner(y, ty, false)
	switch {
	case x[ix] < 0 && y[iy] < 0:
		x[ix], y[iy] = 1, 1
	case x[ix] < 0:
		x[ix] = y[iy]
	case y[iy] < 0:
		y[iy] = x[ix]
	}
	for i := range x {
		if x[i] < 0 {
			x[i] = 1
		}
	}
	for i := range y {
		if y[i] < 0 {
			y[i] = 1
		}
	}
}

// restoreUnknown marks the result's m and n axes unknown when they came from
// unknown sizes, and batch axes unknown when neither side knows them.
func restoreUnknown(s, x, y []int, tx, ty bool) []int {
	if len(x) >= 2 {
		m := x[len(x)-2]
		if tx {
			m = x[len(x)-1]
		}
		if m < 0 {
			if len(y) == 1 {
				s[len(s)-1] = -1
			} else {
				s[len(s)-2] = -1
			}
		}
	}
	if len(y) >= 2 {
		n := y[len(y)-1]
		if ty {
			n = y[len(y)-2]
		}
		if n < 0 {
			s[len(s)-1] = -1
		}
	}
	// Batch axes: all but the last two of s, or but the last one when a
	// vector operand's axis was dropped (a vector has no batch axes, and
	// batchSize gives it 1 on each).
	nb := len(s) - 2
	if len(x) == 1 || len(y) == 1 {
		nb = len(s) - 1
	}
	if len(x) == 1 && len(y) == 1 {
		nb = 0
	}
	for i := 0; i < nb; i++ {
		bx, by := batchSize(x, nb, i), batchSize(y, nb, i)
		if (bx < 0 && by <= 1) || (by < 0 && bx <= 1) {
			s[i] = -1
		}
	}
	return s
}

func batchSize(shape []int, nb, i int) int {
	j := i - (nb - (len(shape) - 2))
	if j < 0 {
		return 1
	}
	return shape[j]
}

// matMulBpOp returns the gradients of matmul for inputs x, y and gradO, with
// matmul's arguments. For C = op(X)·op(Y): d op(X) = G·op(Y)ᵀ and
// d op(Y) = op(X)ᵀ·G, transposed back where X or Y was transposed, scaled by
// alpha, and summed over broadcast batch axes.
var matMulBpOp = Register(bpDef("matmul_bp", 2, "gradients of matmul for inputs x, y, gradO; matmul's arguments",
	func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x, y, g := in[0], in[1], in[2]
		tx, ty := a.Int(0, 0) != 0, a.Int(1, 0) != 0
		// Vectors act as a 1×k row (x) and a k×1 column (y).
		x2, y2 := x, y
		var err error
		if x.Rank() == 1 {
			if x2, err = ndarray.Reshape(x, 1, x.Shape()[0]); err != nil {
				return nil, err
			}
			tx = false
		}
		if y.Rank() == 1 {
			if y2, err = ndarray.Reshape(y, y.Shape()[0], 1); err != nil {
				return nil, err
			}
			ty = false
		}
		full, err := ndarray.MatMulShape(x2.Shape(), y2.Shape(), tx, ty)
		if err != nil {
			return nil, err
		}
		g2 := g
		if a.Int(2, 0) != 0 && g.Rank() >= 2 {
			// The forward result was transposed: G is the gradient of Cᵀ.
			if g2, err = ndarray.Permute(g, swapLast(g.Rank())...); err != nil {
				return nil, err
			}
		}
		if g2, err = ndarray.Reshape(g2, full...); err != nil {
			return nil, err
		}
		alpha := a.Float(0, 1)
		var dx, dy *ndarray.Array
		if c.Needed(0) {
			var err error
			if !tx {
				dx, err = matmulGrad(c, x2, x.Shape(), g2, y2, false, !ty, alpha)
			} else {
				dx, err = matmulGrad(c, x2, x.Shape(), y2, g2, ty, true, alpha)
			}
			if err != nil {
				return nil, err
			}
		}
		if c.Needed(1) {
			var err error
			if !ty {
				dy, err = matmulGrad(c, y2, y.Shape(), x2, g2, !tx, false, alpha)
			} else {
				dy, err = matmulGrad(c, y2, y.Shape(), g2, x2, true, tx, alpha)
			}
			if err != nil {
				return nil, err
			}
		}
		return []*ndarray.Array{dx, dy}, nil
	}))

// matmulGrad computes alpha·op(a)·op(b), the gradient of the operand whose
// matrix form has shape2 and own shape shape. When no batch axes were
// broadcast the product is written straight into an array from the
// executor's pool.
func matmulGrad(c *Ctx, operand *ndarray.Array, shape []int, a, b *ndarray.Array, ta, tb bool, alpha float64) (*ndarray.Array, error) {
	full, err := ndarray.MatMulShape(a.Shape(), b.Shape(), ta, tb)
	if err != nil {
		return nil, err
	}
	var d *ndarray.Array
	if ndarray.SameShape(full, operand.Shape()) {
		d = c.Alloc(operand.DType(), full)
		if err := ndarray.MatMulIntoStop(c.Stop(), d, a, b, ta, tb); err != nil {
			return nil, err
		}
	} else if d, err = ndarray.MatMulStop(c.Stop(), a, b, ta, tb); err != nil {
		return nil, err
	}
	if alpha != 1 {
		if err := ndarray.UnaryInto(ndarray.ScaleBy, d, d, alpha); err != nil {
			return nil, err
		}
	}
	return sumToRankShape(d, operand.Shape(), shape)
}

// sumToRankShape sums d over broadcast batch axes down to shape2 (the
// operand as a matrix), then gives it the operand's own shape.
func sumToRankShape(d *ndarray.Array, shape2, shape []int) (*ndarray.Array, error) {
	d, err := SumToShape(d, shape2)
	if err != nil {
		return nil, err
	}
	return ndarray.Reshape(d, shape...)
}

// swapLast returns the permutation of r >= 2 axes that swaps the last two:
// matmul's transposed result and the gradient that comes back for it.
func swapLast(r int) []int {
	p := make([]int, r)
	for i := range p {
		p[i] = i
	}
	p[r-1], p[r-2] = r-2, r-1
	return p
}
