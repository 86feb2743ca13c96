package graph

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// SameDiff's base-namespace ops of ops/base_misc.go, ops/base_gemm.go and
// ops/base_partition.go: dot, tensordot, create, set_scalar, set_shape,
// is_numeric_tensor, min_max_datatype, batched_gemm, car, cas and the
// partition ops.

// DotConfig are Dot's options.
type DotConfig struct {
	// Axes are the axes summed over; none (the default) means all.
	Axes []int
	// KeepDims keeps the summed axes with size 1; false by default.
	KeepDims bool
}

// Dot is Σ x·y over the axes of two arrays of one shape (op dot). A nil
// config sums over every axis.
func (g *Graph) Dot(x, y *Variable, cfg *DotConfig) *Variable {
	var c DotConfig
	if cfg != nil {
		c = *cfg
	}
	return g.Apply("dot", ops.Args{Dims: append([]int(nil), c.Axes...), B: []bool{c.KeepDims}}, x, y)
}

// TensorDot contracts a and b over the paired axes axesA[i], axesB[i]; the
// result has a's remaining axes then b's (op tensordot, libnd4j's
// tensormmul).
func (g *Graph) TensorDot(a, b *Variable, axesA, axesB []int) *Variable {
	args := append(append(append([]int64{int64(len(axesA))}, toInt64(axesA)...), int64(len(axesB))), toInt64(axesB)...)
	return g.Apply("tensordot", ops.Args{I: args}, a, b)
}

// Create returns zeros of dtype dt in the shape held by the integer vector
// shape (op create).
func (g *Graph) Create(shape *Variable, dt ndarray.DType) *Variable {
	return g.Apply("create", ops.Args{I: []int64{'c', int64(dt)}}, shape)
}

// SetScalar returns s in every element of x's shape and dtype (op
// set_scalar).
func (g *Graph) SetScalar(x *Variable, s float64) *Variable {
	return g.Apply("set_scalar", ops.Args{F: []float64{s}}, x)
}

// SetShape returns x's elements in the shape held by the integer vector
// shape (op set_shape).
func (g *Graph) SetShape(x, shape *Variable) *Variable {
	return g.Apply("set_shape", ops.Args{}, x, shape)
}

// IsNumericTensor is a bool scalar, true when x holds floating-point or
// integer numbers (op is_numeric_tensor).
func (g *Graph) IsNumericTensor(x *Variable) *Variable {
	return g.Apply("is_numeric_tensor", ops.Args{}, x)
}

// MinMaxDataType is the smallest (max false) or largest value of dtype dt
// as libnd4j gives it: for floats the smallest positive normal number and
// the largest finite one (op min_max_datatype).
func (g *Graph) MinMaxDataType(dt ndarray.DType, max bool) *Variable {
	m := int64(0)
	if max {
		m = 1
	}
	return g.Apply("min_max_datatype", ops.Args{I: []int64{int64(dt), m}})
}

// DynamicPartition splits x's slices by the integer partitions (whose
// shape begins x's) into n outputs: output p holds, in order, the slices
// whose partition number is p (op dynamic_partition).
func (g *Graph) DynamicPartition(x, partitions *Variable, n int) ([]*Variable, error) {
	return g.Op("dynamic_partition", ops.Args{I: []int64{int64(n)}}, x, partitions)
}

// DynamicStitch interleaves data[j] into one array: out[indices[j][i...]] =
// data[j][i...] (op dynamic_stitch); rows no index names are zero.
func (g *Graph) DynamicStitch(indices, data []*Variable) *Variable {
	return g.Apply("dynamic_stitch", ops.Args{}, append(append([]*Variable(nil), indices...), data...)...)
}

// BatchMmulConfig are BatchMmul's options.
type BatchMmulConfig struct {
	// TransA and TransB transpose every A or every B; false by default.
	TransA, TransB bool
	// Alpha scales every product; 0 (the default) means 1.
	Alpha float64
}

// BatchMmul returns alpha·op(as[e])·op(bs[e]) for each pair of matrices
// (op batched_gemm). The matrices' sizes must be known when the graph is
// built: the op stores M, N and K. A nil config is the defaults.
func (g *Graph) BatchMmul(as, bs []*Variable, cfg *BatchMmulConfig) ([]*Variable, error) {
	var c BatchMmulConfig
	if cfg != nil {
		c = *cfg
	}
	if len(as) == 0 || len(as) != len(bs) {
		return nil, fmt.Errorf("BatchMmul: %d As and %d Bs; there must be as many, at least one", len(as), len(bs))
	}
	sa, sb := as[0].Shape(), bs[0].Shape()
	if len(sa) != 2 || len(sb) != 2 || sa[0] < 0 || sa[1] < 0 || sb[0] < 0 || sb[1] < 0 {
		return nil, fmt.Errorf("BatchMmul: matrices of known sizes needed, got shapes %v and %v", sa, sb)
	}
	m, k, n := sa[0], sa[1], sb[1]
	if c.TransA {
		m, k = k, m
	}
	if c.TransB {
		n = sb[0]
	}
	lda, ldb := m, k
	if c.TransA {
		lda = k
	}
	if c.TransB {
		ldb = n
	}
	alpha := c.Alpha
	if alpha == 0 {
		alpha = 1
	}
	dt := as[0].DType()
	args := ops.Args{I: []int64{b01(c.TransA), b01(c.TransB), int64(m), int64(n), int64(k), int64(lda), int64(ldb), int64(m), int64(len(as))}}
	in := append(append([]*Variable{g.Scalar(dt, alpha), g.Scalar(dt, 0)}, as...), bs...)
	return g.Op("batched_gemm", args, in...)
}

func b01(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// ReplaceWhere returns from's elements where the condition holds for x's,
// x's elsewhere (op car). The compare-and-replace ops read modes 14 and 15
// as libnd4j's do: 14 not infinite, 15 infinite.
func (g *Graph) ReplaceWhere(x, from *Variable, c Condition) *Variable {
	return g.Apply("car", ops.Args{F: []float64{c.Value, 0, c.Eps, float64(c.Mode)}}, x, from)
}

// ReplaceWhereValue returns set where the condition holds for x's
// elements, x's elsewhere (op cas).
func (g *Graph) ReplaceWhereValue(x *Variable, set float64, c Condition) *Variable {
	return g.Apply("cas", ops.Args{F: []float64{c.Value, set, c.Eps, float64(c.Mode)}}, x)
}

// SparseToDense returns the dense array of the shape held by the integer
// vector shape, with values at the indices ([n, rank], or a vector into a
// vector) and def elsewhere; def may be nil for 0 (op
// compat_sparse_to_dense).
func (g *Graph) SparseToDense(indices, shape, values, def *Variable) *Variable {
	in := []*Variable{indices, shape, values}
	if def != nil {
		in = append(in, def)
	}
	return g.Apply("compat_sparse_to_dense", ops.Args{}, in...)
}
