package graph

import (
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// SDMath's (and SDLinalg's) diagonal ops, eye, trace and cross
// (ops/linalg_diag.go). sdgo has no separate linear-algebra namespace
// type: these sit on g.Math(), as SameDiff's SDMath has them.

// Diag puts x's elements (x of rank <= 3) on the diagonal of a zero array
// of shape x ++ x; a vector of n gives an n×n matrix (op diag).
func (m Math) Diag(x *Variable) *Variable { return m.g.Apply("diag", ops.Args{}, x) }

// DiagPart is the inverse of Diag: the elements x[i..., i...] of x of shape
// s ++ s (rank 2, 4 or 6), of shape s (op diag_part).
func (m Math) DiagPart(x *Variable) *Variable { return m.g.Apply("diag_part", ops.Args{}, x) }

// MatrixDiagPart is the main diagonal of each matrix of x[..., m, n], of
// shape [..., min(m, n)] (op matrix_diag_part).
func (m Math) MatrixDiagPart(x *Variable) *Variable {
	return m.g.Apply("matrix_diag_part", ops.Args{}, x)
}

// SetDiag is x[..., m, n] with each matrix's main diagonal replaced by
// diag[..., min(m, n)] (op matrix_set_diag).
func (m Math) SetDiag(x, diag *Variable) *Variable {
	return m.g.Apply("matrix_set_diag", ops.Args{}, x, diag)
}

// Trace is the sum of each matrix's main diagonal: x[..., m, n] gives
// [...] (op trace).
func (m Math) Trace(x *Variable) *Variable { return m.g.Apply("trace", ops.Args{}, x) }

// Cross is the cross product a × b along the last axis, of size 3, of two
// arrays of one shape (op cross).
func (m Math) Cross(a, b *Variable) *Variable { return m.g.Apply("cross", ops.Args{}, a, b) }

// EyeConfig are Eye's options.
type EyeConfig struct {
	// Cols is the number of columns; 0 (the default) means as many as rows.
	Cols int
	// Batch is the shape of the batch of matrices in front; none by default.
	Batch []int
	// DType is the output dtype; Invalid (the default) means float32.
	DType ndarray.DType
}

// Eye is the rows×cols identity matrix, or a batch of them, of shape
// [batch..., rows, cols] (op eye). A nil config is the defaults.
func (m Math) Eye(rows int, cfg *EyeConfig) *Variable {
	var c EyeConfig
	if cfg != nil {
		c = *cfg
	}
	cols := c.Cols
	if cols == 0 {
		cols = rows
	}
	dt := c.DType
	if dt == ndarray.Invalid {
		dt = ndarray.Float32
	}
	args := ops.Args{I: append([]int64{int64(rows), int64(cols)}, toInt64(c.Batch)...), F: []float64{float64(dt)}}
	return m.g.Apply("eye", args)
}
