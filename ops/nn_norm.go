package ops

import (
	"fmt"
	"math"
	"slices"

	"github.com/sdgo/sdgo/kernels"
	"github.com/sdgo/sdgo/ndarray"
)

// SameDiff's normalisation ops: batchnorm and layer_norm, with their _bp
// ops. They compute in the inputs' float dtype; the sums and means over
// the normalised axes are ndarray's reductions, which accumulate float32
// in blocks widened to float64.

// bnLayout is what batchnorm's arguments say about its inputs.
type bnLayout struct {
	scale, offset bool  // gamma and beta given
	axes          []int // the axes the parameters run along, sorted
	excl          []int // the other axes, summed over by the gradient
	param         []int // the parameters' shape
	bcast         []int // the parameters' shape broadcast against x
}

// bnArgs reads batchnorm's arguments for x of shape xs and nIn inputs
// (gradO not counted): int args 0 applyScale, 1 applyOffset (both default
// to whether the input is there: 4 inputs mean gamma), 2... the axes
// (default the last).
func bnArgs(name string, xs []int, nIn int, a *Args) (bnLayout, error) {
	var l bnLayout
	l.scale = a.Int(0, b2i(nIn > 3)) != 0
	l.offset = a.Int(1, b2i(nIn > 4 || (nIn > 3 && !l.scale))) != 0
	if want := 3 + int(b2i(l.scale)+b2i(l.offset)); nIn != want {
		return l, fmt.Errorf("%s: applyScale %v and applyOffset %v want %d inputs (x, mean, variance[, gamma][, beta]), got %d", name, l.scale, l.offset, want, nIn)
	}
	r := len(xs)
	if r == 0 {
		return l, fmt.Errorf("%s of a scalar", name)
	}
	ax := []int{r - 1}
	if len(a.I) > 2 {
		ax = intsOf(a.I[2:])
	}
	axes, err := ndarray.NormAxes(ax, r)
	if err != nil {
		return l, fmt.Errorf("%s: %w", name, err)
	}
	l.axes = axes
	l.bcast = make([]int, r)
	for i := range l.bcast {
		l.bcast[i] = 1
		if slices.Contains(axes, i) {
			l.bcast[i] = xs[i]
		} else {
			l.excl = append(l.excl, i)
		}
	}
	l.param = l.bcast
	if len(axes) == 1 {
		l.param = []int{xs[axes[0]]}
	}
	return l, nil
}

// checkParams checks the parameter inputs (1 to 3+scale+offset) against
// x: one float dtype, the parameter shape where known.
func (l bnLayout) checkParams(name string, in []Info) error {
	names := []string{"x", "mean", "variance"}
	if l.scale {
		names = append(names, "gamma")
	}
	if l.offset {
		names = append(names, "beta")
	}
	if err := needFloat(name, in[0]); err != nil {
		return err
	}
	for i := 1; i < len(names); i++ {
		if in[i].DType != in[0].DType {
			return fmt.Errorf("%s: %s is %v, x %v; they must have one dtype", name, names[i], in[i].DType, in[0].DType)
		}
		if !in[i].UnknownRank && !(Info{Shape: l.param}).Admits(in[i].Shape) {
			return fmt.Errorf("%s: %s has shape %v; want %v for x %v and axes %v", name, names[i], in[i].Shape, l.param, in[0].Shape, l.axes)
		}
	}
	return nil
}

// bcastParam is a parameter reshaped to broadcast against x.
func (l bnLayout) bcastParam(name string, p *ndarray.Array) (*ndarray.Array, error) {
	if !ndarray.SameShape(p.Shape(), l.param) {
		return nil, fmt.Errorf("%s: a parameter has shape %v; want %v", name, p.Shape(), l.param)
	}
	return ndarray.Reshape(p, l.bcast...)
}

// bnPrep checks batchnorm's inputs at run time and returns the layout, the
// broadcast parameters (gamma and beta nil when absent) and
// rsqrt(variance + epsilon).
func bnPrep(name string, in []*ndarray.Array, a *Args) (l bnLayout, m, gam, beta, s *ndarray.Array, err error) {
	x := in[0]
	if l, err = bnArgs(name, x.Shape(), len(in), a); err != nil {
		return
	}
	infos := make([]Info, len(in))
	for i, v := range in {
		infos[i] = infoOfArray(v)
	}
	if err = l.checkParams(name, infos); err != nil {
		return
	}
	var ps [4]*ndarray.Array
	for i := 1; i < len(in); i++ {
		if ps[i-1], err = l.bcastParam(name, in[i]); err != nil {
			return
		}
	}
	m = ps[0]
	if l.scale {
		gam = ps[2]
	}
	if l.offset {
		beta = ps[2+int(b2i(l.scale))]
	}
	if s, err = ndarray.Unary(ndarray.AddScalar, ps[1], a.Float(0, 1e-5)); err == nil {
		err = ndarray.UnaryInto(ndarray.Rsqrt, s, s, 0)
	}
	return
}

// batchnormOp is libnd4j's batchnorm: inputs x, mean, variance, [gamma],
// [beta]; int args 0 applyScale, 1 applyOffset (gamma and beta given;
// default: as many as there are inputs, gamma first), 2... the axes the
// parameters run along (default the last: the channels of NHWC; axis 1
// for NCHW); float arg 0 epsilon (default 1e-5). The parameters have
// shape [C] for one axis, x's rank with 1 off the axes for several.
// Output (x - mean)·gamma/√(variance + epsilon) + beta.
var batchnormOp = Register(&Def{
	Name: "batchnorm", Type: Custom, MinIn: 3, MaxIn: 5,
	Doc: "(x - mean)·gamma/√(variance + eps) + beta along axes (int args 2...); int args applyScale, applyOffset; float arg eps",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		if in[0].UnknownRank {
			if err := needFloat("batchnorm", in[0]); err != nil {
				return nil, err
			}
			return infos(same(in[0])), nil
		}
		l, err := bnArgs("batchnorm", in[0].Shape, len(in), a)
		if err != nil {
			return nil, err
		}
		return infos(same(in[0])), l.checkParams("batchnorm", in)
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		_, m, gam, beta, s, err := bnPrep("batchnorm", in, a)
		if err != nil {
			return nil, err
		}
		if gam != nil {
			if err := ndarray.BinaryInto(ndarray.Mul, s, s, gam); err != nil {
				return nil, err
			}
		}
		x := in[0]
		out := c.Alloc(x.DType(), x.Shape())
		if err := ndarray.BinaryInto(ndarray.Sub, out, x, m); err != nil {
			return nil, err
		}
		if err := ndarray.BinaryInto(ndarray.Mul, out, out, s); err != nil {
			return nil, err
		}
		if beta != nil {
			if err := ndarray.BinaryInto(ndarray.Add, out, out, beta); err != nil {
				return nil, err
			}
		}
		return one(out, nil)
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		// sdgo's bool arg 0: the partial derivatives, mean and variance
		// being inputs of their own (a graph that computes them from x
		// differentiates that computation itself).
		args := n.Args.Clone()
		args.B = []bool{true}
		return b.Op("batchnorm_bp", args, append(slices.Clone(n.In), d[0])...)
	},
})

// batchnormBpOp is libnd4j's batchnorm_bp: inputs x, mean, variance,
// [gamma], [beta], gradO with batchnorm's arguments; outputs dL/dx,
// dL/dmean, dL/dvariance, [dL/dgamma], [dL/dbeta]. As libnd4j computes it,
// mean and variance are taken for x's batch statistics over the other
// axes: dL/dx includes the paths through them, and their own gradients are
// zero. sdgo's bool arg 0 (default false), which batchnorm's gradient rule
// sets, takes them for independent inputs instead: dL/dx is
// gradO·gamma/√(variance + eps), and dL/dmean, dL/dvariance their partial
// derivatives.
var batchnormBpOp = Register(&Def{
	Name: "batchnorm_bp", Type: Custom, MinIn: 4, MaxIn: 6,
	Doc: "gradient of batchnorm for inputs x, mean, variance, [gamma], [beta], gradO; batchnorm's args; bool arg 0 (sdgo's) mean and variance independent of x",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		fw, g := in[:len(in)-1], in[len(in)-1]
		if err := sameShapeGrad("batchnorm_bp", fw[0], g); err != nil {
			return nil, err
		}
		if !fw[0].UnknownRank {
			l, err := bnArgs("batchnorm_bp", fw[0].Shape, len(fw), a)
			if err != nil {
				return nil, err
			}
			if err := l.checkParams("batchnorm_bp", fw); err != nil {
				return nil, err
			}
		} else if err := needFloat("batchnorm_bp", fw[0]); err != nil {
			return nil, err
		}
		return sameInfos(fw, len(fw)), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		fw, g := in[:len(in)-1], in[len(in)-1]
		x := fw[0]
		if g.DType() != x.DType() || !ndarray.SameShape(g.Shape(), x.Shape()) {
			return nil, fmt.Errorf("batchnorm_bp: the gradient is %v%v, x %v%v; they must match", g.DType(), g.Shape(), x.DType(), x.Shape())
		}
		l, m, gam, _, s, err := bnPrep("batchnorm_bp", fw, a)
		if err != nil {
			return nil, err
		}
		bn := &bnBp{c: c, l: l}
		xc := c.Alloc(x.DType(), x.Shape())
		bn.do(ndarray.BinaryInto(ndarray.Sub, xc, x, m))
		sg := bn.sum(g)
		t := c.Alloc(x.DType(), x.Shape())
		bn.do(ndarray.BinaryInto(ndarray.Mul, t, xc, g))
		sgx := bn.sum(t)
		dG := bn.bin(ndarray.Mul, sgx, s) // Σ g·(x-m) / √(v+eps)
		gs := s                           // gamma/√(v+eps)
		if gam != nil {
			gs = bn.bin(ndarray.Mul, s, gam)
		}
		// -0.5·gamma·Σ g·(x-m) / (v+eps)^1.5: the partial derivative of
		// the variance.
		dV := bn.scale(bn.bin(ndarray.Mul, bn.bin(ndarray.Mul, dG, s), gs), -0.5)
		dx := c.Alloc(x.DType(), x.Shape())
		var dM *ndarray.Array
		if a.Bool(0, false) {
			dM = bn.scale(bn.bin(ndarray.Mul, gs, sg), -1)
			bn.do(ndarray.BinaryInto(ndarray.Mul, dx, g, gs))
		} else {
			// Batch statistics: with N the elements per parameter,
			// dx = gamma·s·(g - Σg/N) + (x - m - Σ(x-m)/N)·(-gamma·s³·Σ g(x-m)/N).
			ninv := float64(ndarray.Packed(l.bcast...).Size()) / float64(max(x.Size(), 1))
			dvdm := bn.scale(bn.sum(xc), -ninv)
			dfdv := bn.scale(dV, 2*ninv)
			bn.do(ndarray.BinaryInto(ndarray.Sub, dx, g, bn.scale(sg, ninv)))
			bn.do(ndarray.BinaryInto(ndarray.Mul, dx, dx, gs))
			bn.do(ndarray.BinaryInto(ndarray.Add, t, xc, dvdm))
			bn.do(ndarray.BinaryInto(ndarray.Mul, t, t, dfdv))
			bn.do(ndarray.BinaryInto(ndarray.Add, dx, dx, t))
			dM = bn.scale(sg, 0)
			dV = bn.scale(sg, 0)
		}
		c.Release(xc)
		c.Release(t)
		outs := []*ndarray.Array{dx, bn.out(dM), bn.out(dV)}
		if l.scale {
			outs = append(outs, bn.out(dG))
		}
		if l.offset {
			outs = append(outs, bn.out(sg))
		}
		if bn.err != nil {
			return nil, fmt.Errorf("batchnorm_bp: %w", bn.err)
		}
		return outs, nil
	},
})

// bnBp carries batchnorm_bp's first error through its steps.
type bnBp struct {
	c   *Ctx
	l   bnLayout
	err error
}

func (b *bnBp) do(err error) {
	if b.err == nil {
		b.err = err
	}
}

// sum is a summed over the axes the parameters do not run along, kept as
// size 1.
func (b *bnBp) sum(a *ndarray.Array) *ndarray.Array {
	out, err := ndarray.Reduce(ndarray.Sum, a, b.l.excl, true)
	if err != nil {
		b.do(err)
		return b.zero(a.DType())
	}
	return out
}

func (b *bnBp) zero(dt ndarray.DType) *ndarray.Array {
	return ndarray.Must(ndarray.Zeros(dt, b.l.bcast...))
}

func (b *bnBp) bin(op ndarray.BinaryOp, x, y *ndarray.Array) *ndarray.Array {
	out, err := ndarray.Binary(op, x, y)
	if err != nil {
		b.do(err)
		return b.zero(x.DType())
	}
	return out
}

func (b *bnBp) scale(x *ndarray.Array, k float64) *ndarray.Array {
	out, err := ndarray.Unary(ndarray.ScaleBy, x, k)
	if err != nil {
		b.do(err)
		return b.zero(x.DType())
	}
	return out
}

// out copies a parameter gradient into an output of the parameters'
// shape.
func (b *bnBp) out(a *ndarray.Array) *ndarray.Array {
	o := b.c.Alloc(a.DType(), b.l.param)
	r, err := ndarray.Reshape(a, b.l.param...)
	if err == nil {
		err = ndarray.CopyInto(o, r)
	}
	b.do(err)
	return o
}

// lnLayout is what layer_norm's arguments say: the axes normalised over
// (int args, required), the channel axis gain and bias run along (bool
// arg 0 channelsFirst, default true: axis 1, else the last).
type lnLayout struct {
	axes  []int
	dimC  int
	exclC []int // every axis but dimC
	bcast []int // gain's shape broadcast against x
}

func lnArgs(name string, xs []int, a *Args) (lnLayout, error) {
	var l lnLayout
	r := len(xs)
	if len(a.I) == 0 {
		return l, fmt.Errorf("%s needs the axes to normalise over (int args)", name)
	}
	axes, err := ndarray.NormAxes(intsOf(a.I), r)
	if err != nil {
		return l, fmt.Errorf("%s: %w", name, err)
	}
	l.axes = axes
	l.dimC = r - 1
	if a.Bool(0, true) {
		l.dimC = 1
	}
	if r < 2 && l.dimC == 1 {
		l.dimC = r - 1
	}
	l.bcast = make([]int, r)
	for i := range l.bcast {
		l.bcast[i] = 1
		if i == l.dimC {
			l.bcast[i] = xs[i]
		} else {
			l.exclC = append(l.exclC, i)
		}
	}
	return l, nil
}

// lnCheck checks layer_norm's inputs x, gain[, bias] (Infos).
func lnCheck(name string, in []Info, a *Args) error {
	x := in[0]
	if err := needFloat(name, x); err != nil {
		return err
	}
	for i, v := range in[1:] {
		if v.DType != x.DType {
			return fmt.Errorf("%s: input %d is %v, x %v; they must have one dtype", name, i+1, v.DType, x.DType)
		}
	}
	if x.UnknownRank {
		return nil
	}
	if len(x.Shape) == 0 {
		return fmt.Errorf("%s of a scalar", name)
	}
	l, err := lnArgs(name, x.Shape, a)
	if err != nil {
		return err
	}
	for i, v := range in[1:] {
		if !v.UnknownRank && !(Info{Shape: []int{x.Shape[l.dimC]}}).Admits(v.Shape) {
			what := "gain"
			if i == 1 {
				what = "bias"
			}
			return fmt.Errorf("%s: the %s has shape %v; want [%d], the size of x %v's channel axis %d", name, what, v.Shape, x.Shape[l.dimC], x.Shape, l.dimC)
		}
	}
	return nil
}

// lnStandardize returns the layout, z = (x - mean)/σ over the axes (σ the
// population standard deviation; 0 where σ is 0, as libnd4j's NaNs
// replaced) in an array from c's pool, and 1/σ (0 where σ is 0).
func lnStandardize(c *Ctx, name string, in []*ndarray.Array, a *Args) (lnLayout, *ndarray.Array, *ndarray.Array, error) {
	infos := make([]Info, len(in))
	for i, v := range in {
		infos[i] = infoOfArray(v)
	}
	if err := lnCheck(name, infos, a); err != nil {
		return lnLayout{}, nil, nil, err
	}
	x := in[0]
	l, err := lnArgs(name, x.Shape(), a)
	if err != nil {
		return l, nil, nil, err
	}
	m, err := ndarray.Reduce(ndarray.Mean, x, l.axes, true)
	if err != nil {
		return l, nil, nil, err
	}
	z := c.Alloc(x.DType(), x.Shape())
	t := c.Alloc(x.DType(), x.Shape())
	if err := ndarray.BinaryInto(ndarray.Sub, z, x, m); err != nil {
		return l, nil, nil, err
	}
	if err := ndarray.UnaryInto(ndarray.Square, t, z, 0); err != nil {
		return l, nil, nil, err
	}
	v, err := ndarray.Reduce(ndarray.Mean, t, l.axes, true)
	c.Release(t)
	if err != nil {
		return l, nil, nil, err
	}
	err = ndarray.MapFloatInto(v, v, rsqrtOrZero[float32], rsqrtOrZero[float64])
	if err == nil {
		err = ndarray.BinaryInto(ndarray.Mul, z, z, v)
	}
	return l, z, v, err
}

// rsqrtOrZero is 1/√x, 0 for x = 0 (there x - mean is 0 too).
func rsqrtOrZero[T float32 | float64](d, x []T) {
	for i, v := range x {
		d[i] = rsqrt0(v)
	}
}

func rsqrt0[T float32 | float64](v T) T {
	if v == 0 {
		return 0
	}
	return T(1 / math.Sqrt(float64(v)))
}

// lnRowsLayout reports whether layer_norm's inputs take the row path (lnRows): a packed x normalised over its last axis alone,
// which the gain runs along too, as in a transformer. Inputs that fail
// the checks take the general path, which reports them.
func lnRowsLayout(name string, in []*ndarray.Array, a *Args) bool {
	infos := make([]Info, len(in))
	for i, v := range in {
		infos[i] = infoOfArray(v)
	}
	if lnCheck(name, infos, a) != nil {
		return false
	}
	x := in[0]
	l, err := lnArgs(name, x.Shape(), a)
	r := x.Rank()
	return err == nil && r > 0 && x.Size() > 0 && x.IsPacked() && slices.Equal(l.axes, []int{r - 1}) && l.dimC == r-1
}

// lnRows computes layer_norm (g nil) or layer_norm_bp (g the output's
// gradient) one row of the last axis at a time, each row staying in the
// caches through all its passes instead of each pass running over the
// whole array. Its sums are the kernels' vector sums in the element type,
// over rows of one layer's width. outs are out, or dx, dgain and, with a
// bias, dbias (nil where not needed).
func lnRows[T float32 | float64](in []*ndarray.Array, g *ndarray.Array, outs []*ndarray.Array) error {
	tab := kernels.For[T]()
	vals := make([][]T, len(in)+1)
	for i, a := range append(slices.Clip(in), g) {
		if a == nil {
			continue
		}
		var err error
		if vals[i], err = packedValues[T](a); err != nil {
			return err
		}
	}
	x, gain := vals[0], vals[1]
	w := len(gain)
	n := T(w)
	raw := func(a *ndarray.Array) []T {
		if a == nil {
			return nil
		}
		return ndarray.Raw[T](a)[a.Offset():][:a.Size()]
	}
	dst := raw(outs[0])
	// standardize writes z = (x - mean)/σ of row x into z and returns 1/σ
	// (0, with z zero, where σ is 0), as lnStandardize computes them.
	standardize := func(z, x []T) T {
		tab.SubScalar(z, x, tab.Sum(x)/n)
		rs := rsqrt0(tab.Dot(z, z) / n)
		tab.Scale(z, z, rs)
		return rs
	}
	if g == nil {
		var bias []T
		if len(in) > 2 {
			bias = vals[2]
		}
		for r := 0; r < len(x); r += w {
			o := dst[r : r+w]
			standardize(o, x[r:r+w])
			tab.Mul(o, o, gain)
			if bias != nil {
				tab.Add(o, o, bias)
			}
		}
		return nil
	}
	gv := vals[len(in)]
	dgain, dbias := raw(outs[1]), []T(nil)
	if len(outs) > 2 {
		dbias = raw(outs[2])
	}
	clear(dgain)
	clear(dbias)
	z := make([]T, w)
	for r := 0; r < len(x); r += w {
		rs := standardize(z, x[r:r+w])
		gr, dz := gv[r:r+w], dst[r:r+w]
		// dz = g·gain; dx = (dz - z·mean(dz·z) - mean(dz))/σ.
		tab.Mul(dz, gr, gain)
		m1, m2 := tab.Sum(dz)/n, tab.Dot(dz, z)/n
		tab.Axpy(dz, -m2, z)
		tab.SubScalar(dz, dz, m1)
		tab.Scale(dz, dz, rs)
		if dgain != nil {
			tab.FMA(dgain, gr, z, dgain)
		}
		if dbias != nil {
			tab.Add(dbias, dbias, gr)
		}
	}
	return nil
}

// layerNormOp is libnd4j's layer_norm: inputs x, gain, [bias]; int args
// the axes to standardise over (required); bool arg 0 channelsFirst
// (default true: gain and bias run along axis 1, else the last). Output
// (x - mean)/σ·gain + bias, mean and σ (the population standard deviation,
// no epsilon; where σ is 0 the standardised value is 0) over the axes.
var layerNormOp = Register(&Def{
	Name: "layer_norm", Type: Custom, MinIn: 2, MaxIn: 3,
	Doc: "(x - mean)/σ·gain + bias over the axes (int args); bool arg 0 channelsFirst (gain along axis 1, default) or last",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		return infos(same(in[0])), lnCheck("layer_norm", in, a)
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		if lnRowsLayout("layer_norm", in, a) {
			out := []*ndarray.Array{c.Alloc(in[0].DType(), in[0].Shape())}
			var err error
			byFloatDo(in[0].DType(), func() { err = lnRows[float32](in, nil, out) }, func() { err = lnRows[float64](in, nil, out) })
			if err != nil {
				return nil, fmt.Errorf("layer_norm: %w", err)
			}
			return out, nil
		}
		l, z, _, err := lnStandardize(c, "layer_norm", in, a)
		if err != nil {
			return nil, err
		}
		for _, p := range in[1:] {
			pr, err := ndarray.Reshape(p, l.bcast...)
			if err != nil {
				return nil, fmt.Errorf("layer_norm: %w", err)
			}
			op := ndarray.Mul
			if p != in[1] {
				op = ndarray.Add
			}
			if err := ndarray.BinaryInto(op, z, z, pr); err != nil {
				return nil, err
			}
		}
		return one(z, nil)
	},
	Grad: bpOp("layer_norm_bp"),
})

// layerNormBpOp is libnd4j's layer_norm_bp: inputs x, gain, [bias], gradO
// with layer_norm's arguments; outputs dL/dx, dL/dgain, [dL/dbias].
var layerNormBpOp = Register(&Def{
	Name: "layer_norm_bp", Type: Custom, MinIn: 3, MaxIn: 4,
	Doc: "gradient of layer_norm for inputs x, gain, [bias], gradO; layer_norm's args",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		fw, g := in[:len(in)-1], in[len(in)-1]
		if err := sameShapeGrad("layer_norm_bp", fw[0], g); err != nil {
			return nil, err
		}
		return sameInfos(fw, len(fw)), lnCheck("layer_norm_bp", fw, a)
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		fw, g := in[:len(in)-1], in[len(in)-1]
		x := fw[0]
		if g.DType() != x.DType() || !ndarray.SameShape(g.Shape(), x.Shape()) {
			return nil, fmt.Errorf("layer_norm_bp: the gradient is %v%v, x %v%v; they must match", g.DType(), g.Shape(), x.DType(), x.Shape())
		}
		if lnRowsLayout("layer_norm_bp", fw, a) {
			var err error
			outs := make([]*ndarray.Array, len(fw))
			for i, v := range fw {
				outs[i] = c.Alloc(x.DType(), v.Shape())
			}
			byFloatDo(x.DType(), func() { err = lnRows[float32](fw, g, outs) }, func() { err = lnRows[float64](fw, g, outs) })
			if err != nil {
				return nil, fmt.Errorf("layer_norm_bp: %w", err)
			}
			return outs, nil
		}
		l, z, rs, err := lnStandardize(c, "layer_norm_bp", fw, a)
		if err != nil {
			return nil, err
		}
		bn := &bnBp{c: c}
		gain, err := ndarray.Reshape(fw[1], l.bcast...)
		bn.do(err)
		if bn.err != nil {
			return nil, fmt.Errorf("layer_norm_bp: %w", bn.err)
		}
		// dz = g·gain; dx = (dz - mean(dz) - z·mean(dz·z))/σ over the axes.
		dx := c.Alloc(x.DType(), x.Shape())
		t := c.Alloc(x.DType(), x.Shape())
		bn.do(ndarray.BinaryInto(ndarray.Mul, dx, g, gain))
		m1, err := ndarray.Reduce(ndarray.Mean, dx, l.axes, true)
		bn.do(err)
		bn.do(ndarray.BinaryInto(ndarray.Mul, t, dx, z))
		m2, err := ndarray.Reduce(ndarray.Mean, t, l.axes, true)
		bn.do(err)
		// dgain = Σ g·z over all axes but the channel's.
		bn.do(ndarray.BinaryInto(ndarray.Mul, t, g, z))
		dgain := c.Alloc(x.DType(), fw[1].Shape())
		bn.do(sumInto(dgain, t, l.exclC))
		if bn.err == nil {
			bn.do(ndarray.BinaryInto(ndarray.Mul, t, z, m2))
			bn.do(ndarray.BinaryInto(ndarray.Sub, dx, dx, t))
			bn.do(ndarray.BinaryInto(ndarray.Sub, dx, dx, m1))
			bn.do(ndarray.BinaryInto(ndarray.Mul, dx, dx, rs))
		}
		c.Release(t)
		c.Release(z)
		outs := []*ndarray.Array{dx, dgain}
		if len(fw) > 2 {
			db := c.Alloc(x.DType(), fw[2].Shape())
			bn.do(sumInto(db, g, l.exclC))
			outs = append(outs, db)
		}
		if bn.err != nil {
			return nil, fmt.Errorf("layer_norm_bp: %w", bn.err)
		}
		return outs, nil
	},
})

// sumInto sums a over axes into dst, whatever dst's shape of the right
// size (a parameter's [C]).
func sumInto(dst, a *ndarray.Array, axes []int) error {
	v, err := ndarray.Reshape(dst, ndarray.ReducedShape(a.Shape(), axes, false)...)
	if err != nil {
		return err
	}
	return ndarray.ReduceInto(ndarray.Sum, v, a, axes)
}
