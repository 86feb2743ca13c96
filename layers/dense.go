package layers

import (
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	"github.com/sdgo/sdgo/weightinit"
)

// DenseConfig holds a Dense layer's options.
type DenseConfig struct {
	// Units is the number of outputs; required.
	Units int
	// Init draws the weight W [in, Units]. Default weightinit.Xavier
	// (DL4J's default for its layers).
	Init weightinit.Initializer
	// BiasInit draws the bias b [Units]. Default zeros.
	BiasInit weightinit.Initializer
	// NoBias leaves the bias out.
	NoBias bool
	// Activation is applied to x·W + b. Default none.
	Activation Activation
}

// Dense is the fully connected layer x·W + b for x [batch, in], with the
// variables name/W and name/b (ops matmul and add). An empty name gets
// "dense", "dense_1", ...
func (b *Builder) Dense(name string, x *graph.Variable, cfg DenseConfig) *graph.Variable {
	l := b.layer("Dense", name)
	if bad := l.input(x, "[batch, features]", 2); bad != nil {
		return bad
	}
	in, bad := l.known(x, 1, "number of features")
	if bad != nil {
		return bad
	}
	if cfg.Units <= 0 {
		return l.fail("Units is %d; it must be at least 1", cfg.Units)
	}
	w := l.dense("W", cfg.Init, weightinit.Xavier, in, cfg.Units)
	if bad := firstErr(w); bad != nil {
		return bad
	}
	y := x.MatMul(w)
	if !cfg.NoBias {
		y = y.Add(l.bias("b", cfg.BiasInit, cfg.Units))
	}
	return cfg.Activation.apply(y)
}

// Flatten reshapes x [batch, d1, d2, ...] to [batch, d1·d2·...]; the sizes
// after the batch must be known when building.
func (b *Builder) Flatten(x *graph.Variable) *graph.Variable {
	l := b.layer("Flatten", "")
	if x == nil || x.Err() != nil {
		return l.input(x, "")
	}
	if len(x.Shape()) < 2 {
		return l.fail("input %q has shape %v (rank %d); want rank 2 or more [batch, ...]", x.Name(), x.Shape(), len(x.Shape()))
	}
	n := 1
	for i := 1; i < len(x.Shape()); i++ {
		d, bad := l.known(x, i, "size")
		if bad != nil {
			return bad
		}
		n *= d
	}
	return x.Reshape(-1, n)
}

// Reshape reshapes each example of x: [batch, ...] to [batch, dims...]
// (one of dims may be -1).
func (b *Builder) Reshape(x *graph.Variable, dims ...int) *graph.Variable {
	l := b.layer("Reshape", "")
	if x == nil || x.Err() != nil {
		return l.input(x, "")
	}
	if len(x.Shape()) < 1 {
		return l.fail("input %q is a scalar; want rank 1 or more [batch, ...]", x.Name())
	}
	// A -1 among dims is resolved here when x's example size is known:
	// the op would leave two sizes unknown, the batch and that one.
	size, free := 1, -1
	for i := 1; i < len(x.Shape()); i++ {
		size *= x.Shape()[i]
	}
	rest := 1
	for i, d := range dims {
		if d == -1 && free < 0 {
			free = i
			continue
		}
		if d <= 0 {
			return l.fail("dims %v: sizes must be at least 1, with at most one -1", dims)
		}
		rest *= d
	}
	if size > 0 {
		if free >= 0 && size%rest == 0 {
			dims = append([]int{}, dims...)
			dims[free] = size / rest
		} else if free >= 0 || rest != size {
			return l.fail("input %q of shape %v cannot be reshaped to [batch %v]", x.Name(), x.Shape(), dims)
		}
	}
	return x.Reshape(append([]int{-1}, dims...)...)
}

// Residual is x + f(x), the skip connection of a residual block; f must
// keep x's shape.
func (b *Builder) Residual(x *graph.Variable, f func(*graph.Variable) *graph.Variable) *graph.Variable {
	l := b.layer("Residual", "")
	if x == nil || x.Err() != nil {
		return l.input(x, "")
	}
	y := f(x)
	if y == nil {
		return l.fail("the block returned no variable")
	}
	if y.Err() != nil {
		return y
	}
	if !sameShape(x.Shape(), y.Shape()) {
		return l.fail("the block maps input %q of shape %v to %q of shape %v; a residual block keeps the shape", x.Name(), x.Shape(), y.Name(), y.Shape())
	}
	return x.Add(y)
}

// sameShape reports whether a and b can be the same shape (-1 matches any
// size).
func sameShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && a[i] >= 0 && b[i] >= 0 {
			return false
		}
	}
	return true
}

// EmbeddingConfig holds an Embedding layer's options.
type EmbeddingConfig struct {
	// Vocab is the number of rows of the table (the ids run from 0 to
	// Vocab-1) and Dim the size of each; both required.
	Vocab, Dim int
	// Init draws the table. Default weightinit.Normal{Std: 1} (PyTorch's
	// nn.Embedding).
	Init weightinit.Initializer
}

// Embedding looks integer ids of any shape up in the table name/W
// [Vocab, Dim]: the output has the ids' shape and one more axis of Dim (op
// gather). An id outside the table is an error when the graph runs.
func (b *Builder) Embedding(name string, ids *graph.Variable, cfg EmbeddingConfig) *graph.Variable {
	l := b.layer("Embedding", name)
	if ids == nil || ids.Err() != nil {
		return l.input(ids, "")
	}
	if ids.DType().IsFloat() {
		return l.fail("ids %q are %v; want an integer dtype", ids.Name(), ids.DType())
	}
	if cfg.Vocab <= 0 || cfg.Dim <= 0 {
		return l.fail("Vocab %d and Dim %d must be at least 1", cfg.Vocab, cfg.Dim)
	}
	w := l.dense("W", cfg.Init, weightinit.Normal{Std: 1}, cfg.Vocab, cfg.Dim)
	if bad := firstErr(w); bad != nil {
		return bad
	}
	return b.g.Gather(w, ids, 0)
}

// DropoutConfig holds a Dropout layer's options.
type DropoutConfig struct {
	// Rate is the probability of dropping an element, in [0, 1).
	Rate float64
	// Seed, when not 0, fixes the mask: every run drops the same elements
	// (op dropout, whose gradient draws the mask again from the seed), as
	// a gradient check needs. The default, 0, draws a new mask each run
	// (ops distribution_bernoulli without a seed, times x), which is what
	// training wants: a graph trained by Fit runs once a step. Calling
	// ops.SetRandomSeed before training makes those masks, and so the
	// training run, repeat.
	Seed int64
}

// Dropout, when the builder is for training, sets each element of x to 0
// with probability cfg.Rate and scales the others by 1/(1 - Rate)
// (inverted dropout); for inference it returns x unchanged and adds no op.
func (b *Builder) Dropout(x *graph.Variable, cfg DropoutConfig) *graph.Variable {
	l := b.layer("Dropout", "")
	if x == nil || x.Err() != nil {
		return l.input(x, "")
	}
	if !(cfg.Rate >= 0 && cfg.Rate < 1) {
		return l.fail("rate %v is outside [0, 1)", cfg.Rate)
	}
	if !x.DType().IsFloat() {
		return l.fail("input %q is %v; want float32 or float64", x.Name(), x.DType())
	}
	if !b.training || cfg.Rate == 0 {
		return x
	}
	keep := 1 - cfg.Rate
	if cfg.Seed != 0 {
		return b.g.NN().Dropout(x, keep, graph.DropoutConfig{Seed: cfg.Seed})
	}
	mask := b.g.Apply("distribution_bernoulli", ops.Args{F: []float64{keep}, D: []ndarray.DType{x.DType()}}, b.g.ShapeOf(x))
	return x.Mul(mask.MulScalar(1 / keep))
}
