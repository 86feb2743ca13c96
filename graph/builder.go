package graph

import (
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// The chainable builder. Every method adds one op and returns its output; a
// failure yields a Variable carrying the error (see the package comment).

func (v *Variable) apply(opName string, args ops.Args, others ...*Variable) *Variable {
	if v.err != nil {
		return v
	}
	return v.g.Apply(opName, args, append([]*Variable{v}, others...)...)
}

// Add returns v + y, broadcast.
func (v *Variable) Add(y *Variable) *Variable { return v.apply("add", ops.Args{}, y) }

// Sub returns v - y, broadcast.
func (v *Variable) Sub(y *Variable) *Variable { return v.apply("subtract", ops.Args{}, y) }

// Mul returns v * y elementwise, broadcast.
func (v *Variable) Mul(y *Variable) *Variable { return v.apply("multiply", ops.Args{}, y) }

// Div returns v / y elementwise, broadcast.
func (v *Variable) Div(y *Variable) *Variable { return v.apply("divide", ops.Args{}, y) }

// Pow returns v raised to y elementwise, broadcast.
func (v *Variable) Pow(y *Variable) *Variable { return v.apply("Pow", ops.Args{}, y) }

// scalarLike adds a rank-0 constant of v's dtype.
func (v *Variable) scalarLike(s float64) *Variable {
	if v.err != nil {
		return v
	}
	return v.g.Scalar(v.info.DType, s)
}

// The arithmetic with a number builds SameDiff's legacy scalar ops, as Java
// writes x.add(2.0): the number is the op's argument (taken in v's dtype),
// not a constant of the graph.

// AddScalar returns v + s (op add_scalar).
func (v *Variable) AddScalar(s float64) *Variable { return v.scalarOp("add_scalar", s) }

// SubScalar returns v - s (op sub_scalar).
func (v *Variable) SubScalar(s float64) *Variable { return v.scalarOp("sub_scalar", s) }

// MulScalar returns v * s (op mul_scalar).
func (v *Variable) MulScalar(s float64) *Variable { return v.scalarOp("mul_scalar", s) }

// DivScalar returns v / s (op div_scalar).
func (v *Variable) DivScalar(s float64) *Variable { return v.scalarOp("div_scalar", s) }

// RSubScalar returns s - v (op rsub_scalar).
func (v *Variable) RSubScalar(s float64) *Variable { return v.scalarOp("rsub_scalar", s) }

// RDivScalar returns s / v (op rdiv_scalar).
func (v *Variable) RDivScalar(s float64) *Variable { return v.scalarOp("rdiv_scalar", s) }

// MaxScalar returns the larger of v and s, elementwise (op max_scalar).
func (v *Variable) MaxScalar(s float64) *Variable { return v.scalarOp("max_scalar", s) }

// MinScalar returns the smaller of v and s, elementwise (op scalar_min).
func (v *Variable) MinScalar(s float64) *Variable { return v.scalarOp("scalar_min", s) }

func (v *Variable) scalarOp(op string, s float64) *Variable {
	return v.apply(op, ops.Args{F: []float64{s}})
}

// PowScalar returns v raised to p.
func (v *Variable) PowScalar(p float64) *Variable {
	return v.apply("pow", ops.Args{F: []float64{p}})
}

// Neg returns -v.
func (v *Variable) Neg() *Variable { return v.apply("neg", ops.Args{}) }

// MatMul returns the matrix product v·y (batched over leading axes).
func (v *Variable) MatMul(y *Variable) *Variable {
	return v.apply("matmul", ops.MatMulArgs(false, false), y)
}

// MatMulT returns the matrix product with either operand transposed.
func (v *Variable) MatMulT(y *Variable, transV, transY bool) *Variable {
	return v.apply("matmul", ops.MatMulArgs(transV, transY), y)
}

// Reshape returns v with a new shape of the same size (one size may be -1).
func (v *Variable) Reshape(shape ...int) *Variable {
	return v.apply("reshape", ops.Args{I: toInt64(shape)})
}

// Permute returns v with its axes reordered.
func (v *Variable) Permute(perm ...int) *Variable {
	return v.apply("permute", ops.Args{I: toInt64(perm)})
}

// Transpose returns v with its axes reversed (a matrix transposed).
func (v *Variable) Transpose() *Variable { return v.apply("transpose", ops.Args{}) }

// ExpandDims inserts a size-1 axis at axis.
func (v *Variable) ExpandDims(axis int) *Variable {
	return v.apply("expand_dims", ops.Args{I: []int64{int64(axis)}})
}

// Squeeze removes the given size-1 axes (all of them when none are given).
func (v *Variable) Squeeze(axes ...int) *Variable {
	return v.apply("squeeze", ops.Args{I: toInt64(axes)})
}

// Sum sums over the axes (all axes when none are given).
func (v *Variable) Sum(axes ...int) *Variable { return v.reduce("reduce_sum", false, axes) }

// SumKeep sums over the axes, keeping them with size 1.
func (v *Variable) SumKeep(axes ...int) *Variable { return v.reduce("reduce_sum", true, axes) }

// Mean averages over the axes (all axes when none are given).
func (v *Variable) Mean(axes ...int) *Variable { return v.reduce("reduce_mean", false, axes) }

// MeanKeep averages over the axes, keeping them with size 1.
func (v *Variable) MeanKeep(axes ...int) *Variable { return v.reduce("reduce_mean", true, axes) }

// Max returns the largest element over the axes.
func (v *Variable) Max(axes ...int) *Variable { return v.reduce("reduce_max", false, axes) }

// Min returns the smallest element over the axes.
func (v *Variable) Min(axes ...int) *Variable { return v.reduce("reduce_min", false, axes) }

// Prod multiplies the elements over the axes.
func (v *Variable) Prod(axes ...int) *Variable { return v.reduce("reduce_prod", false, axes) }

func (v *Variable) reduce(op string, keep bool, axes []int) *Variable {
	return v.apply(op, ops.ReduceArgs(keep, axes...))
}

// ArgMax returns the int64 index of the largest element along axis.
func (v *Variable) ArgMax(axis int) *Variable {
	return v.apply("argmax", ops.ReduceArgs(false, axis))
}

// ArgMin returns the int64 index of the smallest element along axis.
func (v *Variable) ArgMin(axis int) *Variable {
	return v.apply("argmin", ops.ReduceArgs(false, axis))
}

// Cast converts v to dt.
func (v *Variable) Cast(dt ndarray.DType) *Variable {
	return v.apply("cast", ops.Args{D: []ndarray.DType{dt}})
}

// Eq is x == y, elementwise, a bool variable; so are Ne, Lt, Le, Gt and
// Ge.
func (v *Variable) Eq(y *Variable) *Variable { return v.apply("equals", ops.Args{}, y) }

// Ne is x != y, elementwise.
func (v *Variable) Ne(y *Variable) *Variable { return v.apply("not_equals", ops.Args{}, y) }

// Lt is x < y, elementwise.
func (v *Variable) Lt(y *Variable) *Variable { return v.apply("less", ops.Args{}, y) }

// Le is x <= y, elementwise.
func (v *Variable) Le(y *Variable) *Variable { return v.apply("less_equal", ops.Args{}, y) }

// Gt is x > y, elementwise.
func (v *Variable) Gt(y *Variable) *Variable { return v.apply("greater", ops.Args{}, y) }

// Ge is x >= y, elementwise.
func (v *Variable) Ge(y *Variable) *Variable { return v.apply("greater_equal", ops.Args{}, y) }

func toInt64(v []int) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}

// Identity returns a variable equal to x.
func (g *Graph) Identity(x *Variable) *Variable { return g.Apply("identity", ops.Args{}, x) }

// Concat joins variables along axis.
func (g *Graph) Concat(axis int, vs ...*Variable) *Variable {
	return g.Apply("concat", ops.Args{I: []int64{int64(axis)}}, vs...)
}

// Stack joins variables of one shape along a new axis.
func (g *Graph) Stack(axis int, vs ...*Variable) *Variable {
	return g.Apply("stack", ops.Args{I: []int64{int64(axis)}}, vs...)
}

// ZerosLike returns zeros of x's shape and dtype.
func (g *Graph) ZerosLike(x *Variable) *Variable { return g.Apply("zeros_as", ops.Args{}, x) }

// OnesLike returns ones of x's shape and dtype.
func (g *Graph) OnesLike(x *Variable) *Variable { return g.Apply("ones_as", ops.Args{}, x) }

// Fill returns an array of the shape held by the int vector shape, filled
// with value, of dtype dt.
func (g *Graph) Fill(shape *Variable, dt ndarray.DType, value float64) *Variable {
	return g.Apply("fill", ops.Args{F: []float64{value}, D: []ndarray.DType{dt}}, shape)
}

// ShapeOf returns x's shape as an int64 vector, known at run time.
func (g *Graph) ShapeOf(x *Variable) *Variable { return g.Apply("shape_of", ops.Args{}, x) }

// Math groups the elementwise math functions: g.Math().Tanh(x).
func (g *Graph) Math() Math { return Math{g} }

// Math is the namespace of elementwise math functions.
type Math struct{ g *Graph }

// Abs is |x|, elementwise (op abs).
func (m Math) Abs(x *Variable) *Variable { return m.g.Apply("abs", ops.Args{}, x) }

// Neg is -x, elementwise (op neg).
func (m Math) Neg(x *Variable) *Variable { return m.g.Apply("neg", ops.Args{}, x) }

// Exp is e^x, elementwise (op exp).
func (m Math) Exp(x *Variable) *Variable { return m.g.Apply("exp", ops.Args{}, x) }

// Log is ln x, elementwise (op log).
func (m Math) Log(x *Variable) *Variable { return m.g.Apply("log", ops.Args{}, x) }

// Sqrt is √x, elementwise (op sqrt).
func (m Math) Sqrt(x *Variable) *Variable { return m.g.Apply("sqrt", ops.Args{}, x) }

// Square is x², elementwise (op square).
func (m Math) Square(x *Variable) *Variable { return m.g.Apply("square", ops.Args{}, x) }

// Tanh is tanh x, elementwise (op tanh).
func (m Math) Tanh(x *Variable) *Variable { return m.g.Apply("tanh", ops.Args{}, x) }

// Sigmoid is 1/(1+e^-x), elementwise (op sigmoid).
func (m Math) Sigmoid(x *Variable) *Variable { return m.g.Apply("sigmoid", ops.Args{}, x) }

// Sign is -1, 0 or 1, elementwise (op sign).
func (m Math) Sign(x *Variable) *Variable { return m.g.Apply("sign", ops.Args{}, x) }

// Reciprocal is 1/x, elementwise (op Reciprocal).
func (m Math) Reciprocal(x *Variable) *Variable { return m.g.Apply("Reciprocal", ops.Args{}, x) }

// Floor is ⌊x⌋, elementwise (op floor).
func (m Math) Floor(x *Variable) *Variable { return m.g.Apply("floor", ops.Args{}, x) }

// Ceil is ⌈x⌉, elementwise (op ceil).
func (m Math) Ceil(x *Variable) *Variable { return m.g.Apply("ceil", ops.Args{}, x) }

// Round is x rounded half away from zero, elementwise (op round).
func (m Math) Round(x *Variable) *Variable { return m.g.Apply("round", ops.Args{}, x) }

// Sin is sin x, elementwise (op sin).
func (m Math) Sin(x *Variable) *Variable { return m.g.Apply("sin", ops.Args{}, x) }

// Cos is cos x, elementwise (op cos).
func (m Math) Cos(x *Variable) *Variable { return m.g.Apply("cos", ops.Args{}, x) }

// Rsqrt is 1/√x, elementwise (op rsqrt).
func (m Math) Rsqrt(x *Variable) *Variable { return m.g.Apply("rsqrt", ops.Args{}, x) }

// Log1p is ln(1+x), elementwise (op log1p).
func (m Math) Log1p(x *Variable) *Variable { return m.g.Apply("log1p", ops.Args{}, x) }

// Expm1 is e^x - 1, elementwise (op expm1).
func (m Math) Expm1(x *Variable) *Variable { return m.g.Apply("expm1", ops.Args{}, x) }

// Max is the larger of x and y (NaN wins), elementwise (op maximum).
func (m Math) Max(x, y *Variable) *Variable { return m.g.Apply("maximum", ops.Args{}, x, y) }

// Min is the smaller of x and y (NaN wins), elementwise (op minimum).
func (m Math) Min(x, y *Variable) *Variable { return m.g.Apply("minimum", ops.Args{}, x, y) }
func (m Math) SquaredDifference(x, y *Variable) *Variable {
	return m.g.Apply("squaredsubtract", ops.Args{}, x, y)
}

// NN groups the neural-network functions: g.NN().Relu(x).
func (g *Graph) NN() NN { return NN{g} }

// NN is the namespace of neural-network functions.
type NN struct{ g *Graph }

// Relu is max(x, 0), elementwise (op relu).
func (n NN) Relu(x *Variable) *Variable { return n.g.Apply("relu", ops.Args{}, x) }

// Sigmoid is 1/(1+e^-x), elementwise (op sigmoid).
func (n NN) Sigmoid(x *Variable) *Variable { return n.g.Apply("sigmoid", ops.Args{}, x) }

// Tanh is tanh x, elementwise (op tanh).
func (n NN) Tanh(x *Variable) *Variable { return n.g.Apply("tanh", ops.Args{}, x) }

// Softplus is ln(1+e^x), elementwise (op softplus).
func (n NN) Softplus(x *Variable) *Variable { return n.g.Apply("softplus", ops.Args{}, x) }

// LeakyRelu returns x where x > 0 and alpha*x elsewhere.
func (n NN) LeakyRelu(x *Variable, alpha float64) *Variable {
	return n.g.Apply("leakyrelu", ops.Args{F: []float64{alpha}}, x)
}

// Softmax normalises e^x along axis (-1 for the last).
func (n NN) Softmax(x *Variable, axis int) *Variable {
	return n.g.Apply("softmax", ops.Args{I: []int64{int64(axis)}}, x)
}

// LogSoftmax returns log(softmax(x)) along axis, computed stably.
func (n NN) LogSoftmax(x *Variable, axis int) *Variable {
	return n.g.Apply("log_softmax", ops.Args{I: []int64{int64(axis)}}, x)
}

// Loss groups the loss functions: g.Loss().MeanSquaredError(labels, preds).
func (g *Graph) Loss() Loss { return Loss{g} }

// Loss is the namespace of loss functions (SameDiff's SDLoss). Unless a
// config says otherwise each returns a scalar: the mean of the per-element
// or per-example losses (SameDiff's default reduction,
// MEAN_BY_NONZERO_WEIGHT_COUNT, with unit weights). Every loss built here
// is recorded as a loss of the graph (Graph.AddLoss), as SameDiff's SDLoss
// marks its outputs; Graph.SetLoss replaces the list.
type Loss struct{ g *Graph }

// MeanSquaredError returns the mean of (predictions - labels)².
func (l Loss) MeanSquaredError(labels, predictions *Variable) *Variable {
	return l.weighted("mean_sqerr_loss", labels, predictions, nil, ops.LossMeanByNonzeroWeightCount, ops.Args{})
}

// SoftmaxCrossEntropy returns the mean over examples of
// -Σ labels·log softmax(logits) along the last axis.
func (l Loss) SoftmaxCrossEntropy(labels, logits *Variable) *Variable {
	return l.weighted("softmax_cross_entropy_loss", labels, logits, nil, ops.LossMeanByNonzeroWeightCount, ops.Args{F: []float64{0}})
}

// Weighted adds a loss op with explicit weights and reduction: opName is
// one of the losses taking predictions, weights and labels
// ("mean_sqerr_loss", "softmax_cross_entropy_loss", "hinge_loss", ...);
// weights nil means 1. Losses with float arguments (huber_loss's delta)
// have methods of their own.
func (l Loss) Weighted(opName string, labels, predictions, weights *Variable, reduce ops.LossReduce) *Variable {
	return l.weighted(opName, labels, predictions, weights, reduce, ops.Args{})
}

func (l Loss) weighted(opName string, labels, predictions, weights *Variable, reduce ops.LossReduce, args ops.Args) *Variable {
	if predictions.err != nil {
		return predictions
	}
	if labels.err != nil {
		return labels
	}
	if weights == nil {
		weights = predictions.scalarLike(1)
	}
	args.I = append([]int64{int64(reduce)}, args.I...)
	return l.mark(l.g.Apply(opName, args, predictions, weights, labels))
}
