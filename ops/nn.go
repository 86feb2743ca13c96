package ops

import (
	"fmt"
	"strings"

	"github.com/sdgo/sdgo/ndarray"
)

// Ops of SameDiff's NN namespace: activations, softmax, bias add, pad.

// Activations SameDiff keeps in its NN namespace; they share unaryDef with
// the math functions.
var (
	sigmoidOp   = Register(legacy(unaryDef("sigmoid", ndarray.Sigmoid, "1/(1+e^-x)", 0, bpOp("sigmoid_bp")), TransformStrict, 26))
	reluOp      = Register(legacy(zeroCutoff(unaryDef("relu", ndarray.Relu, "max(x, 0); the scalar (float arg 0), libnd4j's cutoff, must be 0", 0, bpOp("relu_bp"))), Scalar, 39))
	leakyReluOp = Register(legacy(unaryDef("leakyrelu", ndarray.LeakyRelu, "x if x > 0 else alpha*x; float arg 0 is alpha (default 0.01)", 0.01, bpOp("lrelu_bp")), Scalar, 35))
	softplusOp  = Register(legacy(unaryDef("softplus", ndarray.Softplus, "ln(1+e^x)", 0, fromXY(func(b GradBuilder, x, y Value) Value { return op1(b, "sigmoid", Args{}, x) })), TransformStrict, 28))
)

// zeroCutoff makes relu refuse a cutoff other than 0: libnd4j's legacy relu
// takes one as its scalar (files from SameDiff carry it in FlatNode.scalar),
// and sdgo's kernels compute max(x, 0) only, so another cutoff would be
// silently ignored.
func zeroCutoff(d *Def) *Def {
	check := func(a *Args) error {
		if c := a.Float(0, 0); c != 0 {
			return fmt.Errorf("%s: cutoff %v (its scalar): sdgo computes relu with cutoff 0 only", d.Name, c)
		}
		return nil
	}
	infer, run := d.Infer, d.Run
	d.Infer = func(in []Info, a *Args) ([]Info, error) {
		if err := check(a); err != nil {
			return nil, err
		}
		return infer(in, a)
	}
	d.Run = func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		if err := check(a); err != nil {
			return nil, err
		}
		return run(c, in, a)
	}
	return d
}

// The fused backprop ops of the activations (libnd4j's tanh_bp, sigmoid_bp,
// relu_bp, lrelu_bp): inputs x and the output gradient g, output dL/dx.
// tanh_bp and sigmoid_bp also take the activation's output as an optional
// third input, sdgo's extension, so that a caller holding it spares
// recomputing the activation. sdgo's own gradient rules (bpOp) pass only x
// and g, so that the graphs they build keep libnd4j's form of the ops.

// outGradDef defines tanh_bp or sigmoid_bp: g·f'(x), computed from f(x)
// (given, or recomputed with fwd).
func outGradDef(name string, fwd ndarray.UnaryOp, grad ndarray.BinaryOp) *Def {
	return &Def{
		Name: name, Type: Custom, MinIn: 2, MaxIn: 3,
		Doc: "gradient of " + strings.TrimSuffix(name, "_bp") + " for inputs x, gradO and optionally its output",
		Infer: func(in []Info, _ *Args) ([]Info, error) {
			if err := needFloat(name, in[0]); err != nil {
				return nil, err
			}
			return sameInfos(in, 1), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
			x, g := in[0], in[1]
			out := c.Alloc(x.DType(), x.Shape())
			y := out
			if len(in) > 2 {
				y = in[2]
			} else if err := ndarray.UnaryInto(fwd, out, x, 0); err != nil {
				return nil, err
			}
			return one(out, ndarray.BinaryInto(grad, out, y, g))
		},
	}
}

var (
	tanhBpOp    = Register(outGradDef("tanh_bp", ndarray.Tanh, ndarray.TanhGradOut))
	sigmoidBpOp = Register(outGradDef("sigmoid_bp", ndarray.Sigmoid, ndarray.SigmoidGradOut))
	reluBpOp    = Register(bpDef("relu_bp", 1, "gradient of relu for inputs x, gradO",
		func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
			out := c.Alloc(in[0].DType(), in[0].Shape())
			return one(out, ndarray.BinaryInto(ndarray.ReluGrad, out, in[0], in[1]))
		}))
	leakyReluBpOp = Register(bpDef("lrelu_bp", 1, "gradient of leakyrelu for inputs x, gradO; float arg 0 alpha",
		func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			// g where x > 0, alpha·g elsewhere: relu_grad(x, g)·(1-alpha) + alpha·g.
			alpha := a.Float(0, 0.01)
			out := c.Alloc(in[0].DType(), in[0].Shape())
			if err := ndarray.BinaryInto(ndarray.ReluGrad, out, in[0], in[1]); err != nil {
				return nil, err
			}
			if err := ndarray.UnaryInto(ndarray.ScaleBy, out, out, 1-alpha); err != nil {
				return nil, err
			}
			ag, err := ndarray.Unary(ndarray.ScaleBy, in[1], alpha)
			if err != nil {
				return nil, err
			}
			return one(out, ndarray.BinaryInto(ndarray.Add, out, out, ag))
		}))
)

// Softmax-like ops along one axis: integer argument 0 (default -1, the last).

func softmaxDef(name string, logForm bool, doc string, grad GradFunc) *Def {
	return &Def{
		Name: name, Type: Custom, MinIn: 1, MaxIn: 1, Doc: doc, Grad: grad,
		Infer: func(in []Info, a *Args) ([]Info, error) {
			if err := needFloat(name, in[0]); err != nil {
				return nil, err
			}
			if !in[0].UnknownRank {
				if len(in[0].Shape) == 0 {
					return nil, fmt.Errorf("%s of a scalar", name)
				}
				if _, err := ndarray.NormAxes([]int{int(a.Int(0, -1))}, len(in[0].Shape)); err != nil {
					return nil, fmt.Errorf("%s of shape %v: %w", name, in[0].Shape, err)
				}
			}
			return infos(same(in[0])), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			alloc, into := ndarray.Softmax, ndarray.SoftmaxInto
			if logForm {
				alloc, into = ndarray.LogSoftmax, ndarray.LogSoftmaxInto
			}
			x, axis := in[0], int(a.Int(0, -1))
			if !softmaxable(x) {
				return one(alloc(x, axis)) // its error, before Alloc's panic on strings
			}
			// Into a pooled buffer: softmax runs every training step.
			out := c.Alloc(x.DType(), x.Shape())
			return one(out, into(out, x, axis))
		},
	}
}

var (
	softmaxOp = Register(softmaxDef("softmax", false, "e^x / Σe^x along an axis (int arg 0, default -1)",
		func(b GradBuilder, n GradNode, d []Value) []Value {
			// Passing the output saves recomputing it.
			return b.Op("softmax_bp", n.Args.Clone(), n.In[0], d[0], n.Out[0])
		}))
	logSoftmaxOp = Register(softmaxDef("log_softmax", true, "x - log Σe^x along an axis (int arg 0, default -1)", bpOp("log_softmax_bp")))
)

// softmaxable reports whether the softmax functions take x's dtype (they
// give the error otherwise).
func softmaxable(x *ndarray.Array) bool { return x.DType().IsFloat() && x.DType().IsNumeric() }

// softmaxBp computes the softmax gradient y·(g - Σ g·y) along the axis, into
// a pooled buffer.
func softmaxBp(c *Ctx, x, g, y *ndarray.Array, axis int) (*ndarray.Array, error) {
	if err := bpCheck("softmax_bp", x, axis, g, y); err != nil {
		return nil, err
	}
	d := c.Alloc(x.DType(), x.Shape())
	if y == nil {
		// Needed whole beside d: allocated (the gradient rule passes y).
		var err error
		if y, err = ndarray.Softmax(x, axis); err != nil {
			return nil, err
		}
	}
	if err := ndarray.BinaryInto(ndarray.Mul, d, g, y); err != nil {
		return nil, err
	}
	s, err := ndarray.Reduce(ndarray.Sum, d, []int{axis}, true)
	if err != nil {
		return nil, err
	}
	if err := ndarray.BinaryInto(ndarray.Sub, d, g, s); err != nil {
		return nil, err
	}
	return d, ndarray.BinaryInto(ndarray.Mul, d, d, y)
}

// bpCheck refuses what the gradients of softmax and log_softmax cannot
// take, before they ask for a buffer (Alloc panics on strings): x must be
// a float array with axis one of its axes, the others (nil ones skipped)
// of its dtype and shape.
func bpCheck(name string, x *ndarray.Array, axis int, others ...*ndarray.Array) error {
	if !softmaxable(x) || x.Rank() == 0 {
		return fmt.Errorf("%s needs a float32 or float64 input of rank 1 or more, not %v%v", name, x.DType(), x.Shape())
	}
	if _, err := ndarray.NormAxes([]int{axis}, x.Rank()); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	for _, o := range others {
		if o != nil && (o.DType() != x.DType() || !ndarray.SameShape(o.Shape(), x.Shape())) {
			return fmt.Errorf("%s: the gradient (or softmax output) is %v%v, the input %v%v: they must match", name, o.DType(), o.Shape(), x.DType(), x.Shape())
		}
	}
	return nil
}

var (
	softmaxBpOp = Register(&Def{
		Name: "softmax_bp", Type: Custom, MinIn: 2, MaxIn: 3,
		Doc: "gradient of softmax for inputs x, gradO and optionally the softmax output; int arg 0 the axis",
		Infer: func(in []Info, _ *Args) ([]Info, error) {
			if err := needFloat("softmax_bp", in[0]); err != nil {
				return nil, err
			}
			// The gradient, and the softmax output when given, have x's
			// shape and dtype.
			for _, v := range in[1:] {
				if err := sameShapeGrad("softmax_bp", in[0], v); err != nil {
					return nil, err
				}
			}
			return sameInfos(in, 1), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			var y *ndarray.Array
			if len(in) > 2 {
				y = in[2]
			}
			return one(softmaxBp(c, in[0], in[1], y, int(a.Int(0, -1))))
		},
	})
	logSoftmaxBpOp = Register(gradOfInput(bpDef("log_softmax_bp", 1, "gradient of log_softmax for inputs x, gradO; int arg 0 the axis",
		func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			// d = g - softmax(x)·Σg along the axis.
			x, g, axis := in[0], in[1], int(a.Int(0, -1))
			if err := bpCheck("log_softmax_bp", x, axis, g); err != nil {
				return nil, err
			}
			d := c.Alloc(x.DType(), x.Shape())
			if err := ndarray.SoftmaxInto(d, x, axis); err != nil {
				return nil, err
			}
			s, err := ndarray.Reduce(ndarray.Sum, g, []int{axis}, true)
			if err != nil {
				return nil, err
			}
			if err := ndarray.BinaryInto(ndarray.Mul, d, d, s); err != nil {
				return nil, err
			}
			return one(d, ndarray.BinaryInto(ndarray.Sub, d, g, d))
		})))
)

// Convolution-family ops with libnd4j's positional arguments: biasadd,
// conv2d and avgpool3dnew, each with its backprop op. They compute in
// float64 internally (for float32 inputs too: the result is rounded once)
// on a channels-last layout; channels-first inputs are permuted on the way
// in and out.

// ---------------------------------------------------------------- biasadd

// biasAxis is the channel axis of biasadd: 1 when bool arg 0 (NCHW) is
// set, else the last.
func biasAxis(rank int, a *Args) int {
	if a.Bool(0, false) {
		return 1
	}
	return rank - 1
}

func checkBias(op string, x, b []int, axis int) error {
	if axis < 0 || axis >= len(x) {
		return fmt.Errorf("%s: input of shape %v has no channel axis %d", op, x, axis)
	}
	if len(b) != 1 || (x[axis] >= 0 && b[0] >= 0 && b[0] != x[axis]) {
		return fmt.Errorf("%s: bias of shape %v for input %v with %d channels on axis %d", op, b, x, x[axis], axis)
	}
	return nil
}

// biasShape is the bias's shape broadcast against an input of rank r.
func biasShape(r, axis, c int) []int {
	s := make([]int, r)
	for i := range s {
		s[i] = 1
	}
	s[axis] = c
	return s
}

// biasAddOp is libnd4j's biasadd: input x, bias (a vector with one value
// per channel); bool arg 0 true means NCHW (channels on axis 1), false
// (default) NHWC (channels last).
var biasAddOp = Register(&Def{
	Name: "biasadd", Aliases: []string{"BiasAdd"}, Type: Custom, MinIn: 2, MaxIn: 2,
	Doc: "x + bias along the channel axis (bool arg 0: NCHW, axis 1; default NHWC, the last axis)",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		x, b := in[0], in[1]
		if err := needNumeric("biasadd", x); err != nil {
			return nil, err
		}
		if b.DType != x.DType {
			return nil, fmt.Errorf("biasadd: the bias is %v, the input %v", b.DType, x.DType)
		}
		if !x.UnknownRank && !b.UnknownRank {
			if err := checkBias("biasadd", x.Shape, b.Shape, biasAxis(len(x.Shape), a)); err != nil {
				return nil, err
			}
		}
		return infos(same(x)), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x, b := in[0], in[1]
		axis := biasAxis(x.Rank(), a)
		if err := checkBias("biasadd", x.Shape(), b.Shape(), axis); err != nil {
			return nil, err
		}
		bb, err := ndarray.Reshape(b, biasShape(x.Rank(), axis, b.Size())...)
		if err != nil {
			return nil, err
		}
		out := c.Alloc(x.DType(), x.Shape())
		return one(out, ndarray.BinaryInto(ndarray.Add, out, x, bb))
	},
	Grad: bpOp("biasadd_bp"),
})

// biasAddBpOp is biasadd's gradient: inputs x, bias, gradO with biasadd's
// args; outputs gradO and gradO summed over every axis but the channels.
var biasAddBpOp = Register(gradOfInput(bpDef("biasadd_bp", 2, "gradients of biasadd for inputs x, bias, gradO; bool arg 0: NCHW",
	func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x, g := in[0], in[2]
		axis := biasAxis(x.Rank(), a)
		if err := checkBias("biasadd_bp", x.Shape(), in[1].Shape(), axis); err != nil {
			return nil, err
		}
		var axes []int
		for i := 0; i < g.Rank(); i++ {
			if i != axis {
				axes = append(axes, i)
			}
		}
		if !g.DType().IsNumeric() {
			_, err := ndarray.Reduce(ndarray.Sum, g, axes, false)
			return nil, err // Reduce's error, before Alloc's panic on strings
		}
		// Into a pooled buffer: a gradient, every step.
		if len(axes) == 0 {
			// a rank-1 input: nothing to sum, the bias gradient is gradO
			// (to Reduce and ReduceInto, no axes would mean all of them)
			db := c.Alloc(g.DType(), g.Shape())
			return []*ndarray.Array{g, db}, ndarray.CopyInto(db, g)
		}
		ax, err := ndarray.NormAxes(axes, g.Rank())
		if err != nil {
			return nil, err
		}
		db := c.Alloc(g.DType(), ndarray.ReducedShape(g.Shape(), ax, false))
		if err := ndarray.ReduceInto(ndarray.Sum, db, g, axes); err != nil {
			return nil, err
		}
		return []*ndarray.Array{g, db}, nil
	})))

// ---------------------------------------------------------------- pad

// padMap returns, for every element of the padded array in C order, the
// packed offset of the input element it copies, or -1 for the constant.
func padMap(in, before, after []int, mode int64) []int {
	r := len(in)
	shape := make([]int, r)
	n := 1
	for i := range shape {
		shape[i] = in[i] + before[i] + after[i]
		n *= shape[i]
	}
	strides := ndarray.PackedStrides(in)
	out := make([]int, n)
	idx := make([]int, r)
	for k := range out {
		off := 0
		for i := 0; i < r && off >= 0; i++ {
			j := idx[i] - before[i]
			switch {
			case j >= 0 && j < in[i]:
			case mode == PadConstant:
				off = -1
				continue
			case j < 0:
				j = -j
				if mode == PadSymmetric {
					j--
				}
			default:
				j = 2*(in[i]-1) - j
				if mode == PadSymmetric {
					j++
				}
			}
			off += j * strides[i]
		}
		out[k] = off
		for i := r - 1; i >= 0; i-- {
			idx[i]++
			if idx[i] < shape[i] {
				break
			}
			idx[i] = 0
		}
	}
	return out
}

// padBpOp is pad's gradient: inputs x, paddings, [constant,] gradO with
// pad's args; outputs the gradients of x (gradO's elements summed onto the
// input elements they copy: the interior, plus the mirrored borders in
// reflect and symmetric modes) and, with a constant input, of the constant
// (the sum of gradO over the constant border).
var padBpOp = Register(&Def{
	Name: "pad_bp", Type: Custom, MinIn: 3, MaxIn: 4, NonDiff: []int{1},
	Doc: "gradient of pad for inputs x, paddings, [constant,] gradO",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		if len(in) == 4 {
			return gradInfos("pad_bp", in[3], in[0], in[2])
		}
		return gradInfos("pad_bp", in[2], in[0])
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x, g := in[0], in[len(in)-1]
		p, err := arrayInts("the paddings input", in[1])
		if err != nil {
			return nil, err
		}
		mode := a.Int(0, PadConstant)
		before, after, err := padSizes(x.Shape(), p, mode)
		if err != nil {
			return nil, err
		}
		// The gradient must have the padded shape, checked before padMap
		// allocates an entry per padded element: constant paddings may be
		// huge.
		ok := g.Rank() == x.Rank()
		for i, d := range x.Shape() {
			ok = ok && g.Shape()[i] == d+before[i]+after[i]
		}
		if !ok {
			return nil, fmt.Errorf("pad_bp: gradient of shape %v for a pad of %v by %v", g.Shape(), x.Shape(), p)
		}
		m := padMap(x.Shape(), before, after, mode)
		dx, err := scatterAddOffsets(g, m, x.Shape())
		if err != nil {
			return nil, err
		}
		outs := []*ndarray.Array{dx}
		if len(in) == 4 {
			s := 0.0
			gv := g.Float64s()
			for k, o := range m {
				if o < 0 {
					s += gv[k]
				}
			}
			if in[2].Size() != 1 {
				return nil, fmt.Errorf("pad_bp: the constant has shape %v; it must hold one value", in[2].Shape())
			}
			dc, err := ndarray.Full(g.DType(), s, in[2].Shape()...)
			if err != nil {
				return nil, err
			}
			outs = append(outs, dc)
		}
		return outs, nil
	},
})

// Pad modes, libnd4j's int arg 0 of pad.
const (
	PadConstant  = 0
	PadReflect   = 1 // mirror without repeating the edge: [1 2 3] -> 3 2 [1 2 3] 2 1
	PadSymmetric = 2 // mirror repeating the edge: [1 2 3] -> 2 1 [1 2 3] 3 2
)

// padOp pads x: input 1 is an integer [rank, 2] array of (before, after)
// sizes per axis; the constant comes from input 2 (a scalar) when given, else
// from float arg 0 (default 0); int arg 0 is the mode.
var padOp = Register(&Def{
	Name: "pad", Type: Custom, MinIn: 2, MaxIn: 3, NonDiff: []int{1},
	Doc: "x padded by the [rank,2] sizes of input 1; int arg 0: 0 constant (input 2 or float arg 0), 1 reflect, 2 symmetric",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		x, p := in[0], in[1]
		if err := needNumericOrBool("pad", x); err != nil {
			return nil, err
		}
		if !p.DType.IsInt() {
			return nil, fmt.Errorf("pad: the paddings must be an integer array, not %v", p.DType)
		}
		if len(in) > 2 && in[2].DType != x.DType {
			return nil, fmt.Errorf("pad: the constant is %v, x is %v", in[2].DType, x.DType)
		}
		if m := a.Int(0, PadConstant); m < PadConstant || m > PadSymmetric {
			return nil, fmt.Errorf("pad: mode %d is not 0 (constant), 1 (reflect) or 2 (symmetric)", m)
		}
		if x.UnknownRank {
			return infos(Info{DType: x.DType, UnknownRank: true}), nil
		}
		r := len(x.Shape)
		if !p.UnknownRank && (len(p.Shape) != 2 || (p.Shape[0] >= 0 && p.Shape[0] != r) || (p.Shape[1] >= 0 && p.Shape[1] != 2)) {
			return nil, fmt.Errorf("pad of shape %v: the paddings have shape %v, want [%d 2]", x.Shape, p.Shape, r)
		}
		v, ok := constInts(p)
		if !ok {
			return infos(Info{DType: x.DType, Shape: unknownShape(r)}), nil
		}
		before, after, err := padSizes(x.Shape, v, a.Int(0, PadConstant))
		if err != nil {
			return nil, err
		}
		s := make([]int, r)
		for i, d := range x.Shape {
			s[i] = -1
			if d >= 0 {
				s[i] = d + before[i] + after[i]
			}
		}
		return infos(Info{DType: x.DType, Shape: s}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x := in[0]
		p, err := arrayInts("the paddings input", in[1])
		if err != nil {
			return nil, err
		}
		if in[1].Size() != 2*x.Rank() {
			return nil, fmt.Errorf("pad of shape %v: the paddings have shape %v, want [%d 2]", x.Shape(), in[1].Shape(), x.Rank())
		}
		mode := a.Int(0, PadConstant)
		before, after, err := padSizes(x.Shape(), p, mode)
		if err != nil {
			return nil, err
		}
		value := a.Float(0, 0)
		if len(in) > 2 {
			if in[2].Size() != 1 {
				return nil, fmt.Errorf("pad: the constant must hold one value, it has shape %v", in[2].Shape())
			}
			value = in[2].Float64s()[0]
		}
		if mode == PadConstant {
			return one(ndarray.Pad(x, before, after, value))
		}
		// Reflected and symmetric borders copy input elements: padMap has
		// no constant (-1) entries in these modes.
		shape := make([]int, x.Rank())
		for i, d := range x.Shape() {
			shape[i] = d + before[i] + after[i]
		}
		if err := reserve[int]("pad", shape...); err != nil {
			return nil, err // padMap's offsets: up to 3^rank times x's size
		}
		out, err := gatherOffsets(x, padMap(x.Shape(), before, after, mode), shape)
		if err != nil {
			return nil, fmt.Errorf("pad: cannot pad %v arrays", x.DType())
		}
		return one(out, nil)
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		out := bpOp("pad_bp")(b, n, d)
		res := []Value{out[0], nil}
		if len(n.In) > 2 {
			res = append(res, out[1])
		}
		return res
	},
})

func needNumericOrBool(name string, in Info) error {
	if in.DType == ndarray.Bool {
		return nil
	}
	return needNumeric(name, in)
}

// padSizes splits the [rank,2] paddings and checks them against the shape
// (sizes of -1 are not checked) and the mode's limits.
func padSizes(shape []int, p []int, mode int64) (before, after []int, err error) {
	r := len(shape)
	if len(p) != 2*r {
		return nil, nil, fmt.Errorf("pad of shape %v: %d padding sizes, want %d", shape, len(p), 2*r)
	}
	before, after = make([]int, r), make([]int, r)
	for i := 0; i < r; i++ {
		before[i], after[i] = p[2*i], p[2*i+1]
		if before[i] < 0 || after[i] < 0 {
			return nil, nil, fmt.Errorf("pad of shape %v: negative padding (%d, %d) on axis %d", shape, before[i], after[i], i)
		}
		if before[i] > ndarray.MaxBytes || after[i] > ndarray.MaxBytes {
			return nil, nil, fmt.Errorf("pad of shape %v: padding (%d, %d) on axis %d is too large", shape, before[i], after[i], i)
		}
		if shape[i] < 0 || mode == PadConstant {
			continue
		}
		limit := shape[i] // symmetric repeats the edge: at most the axis length
		if mode == PadReflect {
			limit = shape[i] - 1
		}
		if before[i] > limit || after[i] > limit {
			return nil, nil, fmt.Errorf("pad of shape %v: padding (%d, %d) on axis %d exceeds %d, the most mode %d allows",
				shape, before[i], after[i], i, limit, mode)
		}
	}
	return before, after, nil
}
