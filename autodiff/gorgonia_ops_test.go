package autodiff_test

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sdgo/sdgo/autodiff"
	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	"github.com/sdgo/sdgo/ops/createview"
	"github.com/sdgo/sdgo/validation/opcases"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// The op-level differential test against gorgonia: every sdgo op that has a
// gorgonia counterpart is applied in both libraries to the same random
// inputs (several seeds and shapes, size-1 axes and broadcasting, float64
// and float32), and the outputs and the gradients of a random weighted sum
// of the output (the vector-Jacobian product with random weights) are
// compared. Where gorgonia's convention differs (conv2d's weight layout,
// NHWC, reductions that drop axes, SAME padding) the gorgonia side converts;
// where gorgonia is wrong the case says so and builds the oracle from
// gorgonia ops that are right.

// gapp is one application of an op: the inputs (float64 values, cast to the
// dtype under test) and the op built in each library.
type gapp struct {
	in []*ndarray.Array
	sd func(g *graph.Graph, x []*graph.Variable) *graph.Variable
	gg func(x []*G.Node) (*G.Node, error)
	// fwdOnly: only the values are compared, because gorgonia gives the
	// op no gradient (sign, floor, ceil, GlobalAveragePool2D) or a wrong
	// one (the case says which).
	fwdOnly bool
	desc    string // the arguments, for failure messages
}

// gop draws random applications of an op.
type gop struct {
	name string
	gen  func(r *rand.Rand) gapp
}

// gSeeds is the number of random applications of each op, each run in
// float64 and float32; the first gViewSeeds of them run again with every
// input a view on the sdgo side.
const (
	gSeeds     = 6
	gViewSeeds = 2
)

// TestOpsAgainstGorgonia compares every op with gorgonia on gSeeds random
// applications; under the race detector on the first two, and the first
// as views.
func TestOpsAgainstGorgonia(t *testing.T) {
	seeds, viewSeeds := uint64(gSeeds), uint64(gViewSeeds)
	if raceEnabled {
		seeds, viewSeeds = 2, 1
	}
	for _, op := range gorgoniaOps() {
		t.Run(op.name, func(t *testing.T) {
			h := fnv.New64a()
			h.Write([]byte(op.name))
			for seed := uint64(1); seed <= seeds; seed++ {
				r := rand.New(rand.NewPCG(seed, h.Sum64()))
				app := op.gen(r)
				for _, dt := range []ndarray.DType{ndarray.Float64, ndarray.Float32} {
					if err := compareWithGorgonia(app, dt, seed, false); err != nil {
						t.Errorf("seed %d, %v, %s, inputs %v: %v", seed, dt, app.desc, shapesOf(app.in), err)
					}
					// The same inputs as views (stepped, offset and
					// whole axes of larger arrays) on the sdgo side.
					if seed <= viewSeeds {
						if err := compareWithGorgonia(app, dt, seed, true); err != nil {
							t.Errorf("seed %d, %v, inputs as views, %s, inputs %v: %v", seed, dt, app.desc, shapesOf(app.in), err)
						}
					}
				}
			}
		})
	}
}

// TestOpsAgainstGorgoniaLong is TestOpsAgainstGorgonia on shapes with a
// long last axis, one seed, plain and as views, in float64 and float32;
// under the race detector each op in one of those four ways, in turn.
func TestOpsAgainstGorgoniaLong(t *testing.T) {
	gLong = true
	defer func() { gLong = false }()
	for i, op := range gorgoniaOps() {
		t.Run(op.name, func(t *testing.T) {
			h := fnv.New64a()
			h.Write([]byte(op.name))
			seed := uint64(gSeeds + 1)
			app := op.gen(rand.New(rand.NewPCG(seed, h.Sum64())))
			for j, dt := range []ndarray.DType{ndarray.Float64, ndarray.Float32} {
				for k, views := range []bool{false, true} {
					if raceEnabled && (i+2*j+k)%4 != 0 {
						continue
					}
					if err := compareWithGorgonia(app, dt, seed, views); err != nil {
						t.Errorf("%v, views %v, %s, inputs %v: %v", dt, views, app.desc, shapesOf(app.in), err)
					}
				}
			}
		})
	}
}

func shapesOf(in []*ndarray.Array) [][]int {
	var s [][]int
	for _, a := range in {
		s = append(s, a.Shape())
	}
	return s
}

// gTol is the tolerance of a comparison in dtype dt: |got-want| must be
// within tol·(|want| + the largest |want| of the array, at least 1), which
// allows for sums whose terms (all of order 1 here) cancel.
func gTol(dt ndarray.DType) float64 {
	if dt == ndarray.Float32 {
		return 2e-5
	}
	return 1e-11
}

// compareWithGorgonia applies app in both libraries in dtype dt and compares
// the outputs and the gradients of Σ w·y. With views, each sdgo input is a
// create_view of a larger variable (see gViewOf), so that the op reads
// strided and offset layouts, and the gradient of the larger variable must
// be gorgonia's gradient inside the view and zero outside it.
func compareWithGorgonia(app gapp, dt ndarray.DType, seed uint64, views bool) error {
	xs := make([]*ndarray.Array, len(app.in))
	for i, a := range app.in {
		xs[i] = ndarray.Must(ndarray.Cast(a, dt))
	}

	// sdgo: the output, then the gradient of Σ w·y.
	g := graph.New()
	vars := make([]*graph.Variable, len(xs))
	wrt := vars
	var inView [][]int // with views: the base's flat indices of each view's elements
	if views {
		wrt = make([]*graph.Variable, len(xs))
		vr := rand.New(rand.NewPCG(seed, 11))
		for i, x := range xs {
			base, idx, pos := gViewOf(vr, x)
			wrt[i] = g.Var(fmt.Sprintf("base%d", i), base)
			vars[i] = wrt[i].View(idx...)
			inView = append(inView, pos)
		}
	} else {
		for i, x := range xs {
			vars[i] = g.Var(fmt.Sprintf("x%d", i), x)
		}
	}
	y := app.sd(g, vars)
	if y.Err() != nil {
		return fmt.Errorf("sdgo: %w", y.Err())
	}
	out, err := exec.Output(g, nil, y.Name())
	if err != nil {
		return fmt.Errorf("sdgo: %w", err)
	}
	yv := out[y.Name()]
	wr := rand.New(rand.NewPCG(seed, 7))
	w := ndarray.Must(ndarray.Cast(ndarray.Must(ndarray.RandNormal(wr, ndarray.Float64, 0, 1, yv.Shape()...)), dt))
	var grads []*graph.Variable
	if !app.fwdOnly {
		loss := y.Mul(g.Const("w", w)).Sum()
		if grads, err = autodiff.Grad(loss, wrt...); err != nil {
			return fmt.Errorf("sdgo gradient: %w", err)
		}
		if out, err = exec.Output(g, nil, append(names(grads), y.Name())...); err != nil {
			return fmt.Errorf("sdgo: %w", err)
		}
	}

	// gorgonia, on the same values.
	gg := G.NewGraph()
	nodes := make([]*G.Node, len(xs))
	for i, x := range xs {
		if nodes[i], err = gNode(gg, x, fmt.Sprintf("x%d", i)); err != nil {
			return err
		}
	}
	gy, err := gBuild(app.gg, nodes)
	if err != nil {
		return fmt.Errorf("gorgonia: %w", err)
	}
	if gs := []int(gy.Shape()); !ndarray.SameShape(gs, yv.Shape()) && !(len(gs) == 0 && yv.Rank() == 0) {
		return fmt.Errorf("output shape %v, gorgonia's %v", yv.Shape(), gs)
	}
	// The tape machine reuses the output's memory for the backward pass:
	// the value is copied out as soon as it is computed.
	var gyv G.Value
	G.Read(gy, &gyv)
	if !app.fwdOnly {
		gw, err := gNode(gg, w, "w")
		if err != nil {
			return err
		}
		prod, err := G.HadamardProd(gy, gw)
		if err != nil {
			return fmt.Errorf("gorgonia: %w", err)
		}
		gloss, err := G.Sum(prod)
		if err != nil {
			return fmt.Errorf("gorgonia: %w", err)
		}
		if _, err := G.Grad(gloss, nodes...); err != nil {
			return fmt.Errorf("gorgonia gradient: %w", err)
		}
	}
	m := G.NewTapeMachine(gg)
	defer m.Close()
	if err := m.RunAll(); err != nil {
		return fmt.Errorf("gorgonia: %w", err)
	}

	tol := gTol(dt)
	if err := closeAll(out[y.Name()], gyv, tol); err != nil {
		return fmt.Errorf("output: %w", err)
	}
	for i := range grads {
		gv, err := nodes[i].Grad()
		if err != nil {
			return fmt.Errorf("gorgonia gradient of input %d: %w", i, err)
		}
		got := out[grads[i].Name()]
		if views {
			if got, err = gInView(got, inView[i], xs[i].Shape()); err != nil {
				return fmt.Errorf("gradient of input %d's base: %w", i, err)
			}
		}
		if err := closeAll(got, gv, tol); err != nil {
			return fmt.Errorf("gradient of input %d: %w", i, err)
		}
	}
	return nil
}

// gViewOf returns a base array and indices whose create_view is x, and the
// base's flat (C-order) indices of the view's elements in order. Each axis
// of x is, at random, every second element of an axis of 2n+1 from 1, an
// interval of an axis of n+2 from 1 (its start written negative now and
// then), or the whole axis; a scalar is a point of a [3]. The rest of the
// base is random.
func gViewOf(r *rand.Rand, x *ndarray.Array) (*ndarray.Array, []createview.Index, []int) {
	s := x.Shape()
	if len(s) == 0 {
		v := gRandn(r, 3).Float64s()
		v[1] = x.Float()
		base := ndarray.Must(ndarray.Cast(ndarray.Must(ndarray.Wrap(v, 3)), x.DType()))
		return base, []createview.Index{createview.Point(1 - 3*r.IntN(2))}, []int{1}
	}
	bs := make([]int, len(s))
	start, step := make([]int, len(s)), make([]int, len(s))
	idx := make([]createview.Index, len(s))
	for i, n := range s {
		switch r.IntN(3) {
		case 0:
			bs[i], start[i], step[i] = 2*n+1, 1, 2
			idx[i] = createview.IntervalStep(1, 2*n+1, 2, false)
		case 1:
			bs[i], start[i], step[i] = n+2, 1, 1
			idx[i] = createview.Interval(1, n+1)
			if r.IntN(2) == 0 {
				idx[i] = createview.Interval(-n-1, -1)
			}
		default:
			bs[i], start[i], step[i] = n, 0, 1
			idx[i] = createview.All()
		}
	}
	bv := gRandn(r, bs...).Float64s()
	xv := x.Float64s()
	pos := make([]int, len(xv))
	coord := make([]int, len(s))
	for k := range xv {
		p := 0
		for i := range s {
			p = p*bs[i] + start[i] + step[i]*coord[i]
		}
		pos[k] = p
		bv[p] = xv[k]
		for i := len(s) - 1; i >= 0; i-- {
			if coord[i]++; coord[i] < s[i] {
				break
			}
			coord[i] = 0
		}
	}
	return ndarray.Must(ndarray.Cast(ndarray.Must(ndarray.Wrap(bv, bs...)), x.DType())), idx, pos
}

// gInView returns the elements of a base's gradient at pos, as an array of
// shape s, after checking that the gradient is zero everywhere else.
func gInView(grad *ndarray.Array, pos []int, s []int) (*ndarray.Array, error) {
	v := grad.Float64s()
	in := make([]bool, len(v))
	out := make([]float64, len(pos))
	for k, p := range pos {
		out[k], in[p] = v[p], true
	}
	for p, x := range v {
		if !in[p] && x != 0 {
			return nil, fmt.Errorf("element %d of the base (shape %v) is outside the view and has gradient %g, not 0", p, grad.Shape(), x)
		}
	}
	return ndarray.Wrap(out, s...)
}

// gBuild runs a gorgonia builder, whose panics (gorgonia panics on some
// shapes it does not handle) become errors.
func gBuild(f func([]*G.Node) (*G.Node, error), x []*G.Node) (y *G.Node, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return f(x)
}

// gNode adds a as a gorgonia node with that value.
func gNode(g *G.ExprGraph, a *ndarray.Array, name string) (*G.Node, error) {
	dt := tensor.Float64
	if a.DType() == ndarray.Float32 {
		dt = tensor.Float32
	}
	if a.Rank() == 0 {
		var v G.Value = G.NewF64(a.Float())
		if dt == tensor.Float32 {
			v = G.NewF32(float32(a.Float()))
		}
		return G.NewScalar(g, dt, G.WithName(name), G.WithValue(v)), nil
	}
	d, err := ndarray.ToDense(ndarray.Must(ndarray.Copy(a)))
	if err != nil {
		return nil, err
	}
	return G.NewTensor(g, dt, a.Rank(), G.WithShape(a.Shape()...), G.WithName(name), G.WithValue(d)), nil
}

// gValues returns a gorgonia value's elements as float64s.
func gValues(v G.Value) ([]float64, error) {
	switch d := v.Data().(type) {
	case float64:
		return []float64{d}, nil
	case float32:
		return []float64{float64(d)}, nil
	case []float64:
		return d, nil
	case []float32:
		out := make([]float64, len(d))
		for i, x := range d {
			out[i] = float64(x)
		}
		return out, nil
	}
	return nil, fmt.Errorf("gorgonia value of type %T", v.Data())
}

func closeAll(got *ndarray.Array, want G.Value, tol float64) error {
	wv, err := gValues(want)
	if err != nil {
		return err
	}
	gv := got.Float64s()
	if len(gv) != len(wv) {
		return fmt.Errorf("%d elements (shape %v), gorgonia %d (shape %v)", len(gv), got.Shape(), len(wv), want.Shape())
	}
	scale := 1.0
	for _, x := range wv {
		scale = math.Max(scale, math.Abs(x))
	}
	for i := range gv {
		if d := math.Abs(gv[i] - wv[i]); !(d <= tol*(math.Abs(wv[i])+scale)) {
			return fmt.Errorf("element %d of shape %v: %.10g, gorgonia %.10g\nsdgo     %v\ngorgonia %v", i, got.Shape(), gv[i], wv[i], gv, wv)
		}
	}
	return nil
}

// ---------------------------------------------------------------- inputs

// gShape returns a shape of rank lo..hi with sizes 1..4, a 1 one time in
// four; under gLong the last axis has 33 to 72 elements.
func gShape(r *rand.Rand, lo, hi int) []int {
	s := make([]int, lo+r.IntN(hi-lo+1))
	for i := range s {
		s[i] = 2 + r.IntN(3)
		if r.IntN(4) == 0 {
			s[i] = 1
		}
	}
	if gLong && len(s) > 0 {
		s[len(s)-1] = 33 + r.IntN(40)
	}
	return s
}

// gDim returns a matrix size of 1..hi, or of 20..99 under gLong (past the
// GEMM kernels' register blocks).
func gDim(r *rand.Rand, hi int) int {
	if gLong {
		return 20 + r.IntN(80)
	}
	return 1 + r.IntN(hi)
}

// gLong, set by TestOpsAgainstGorgoniaLong only (the tests of this package
// do not run in parallel), makes gShape's last axis long enough for the
// kernels' vector loops and their tails: the sizes of 1 to 4 elsewhere
// reach only the scalar tails.
var gLong bool

func gRandn(r *rand.Rand, shape ...int) *ndarray.Array {
	return ndarray.Must(ndarray.RandNormal(r, ndarray.Float64, 0, 1, shape...))
}

func gUniform(lo, hi float64) func(r *rand.Rand, shape ...int) *ndarray.Array {
	return func(r *rand.Rand, shape ...int) *ndarray.Array {
		return ndarray.Must(ndarray.RandUniform(r, ndarray.Float64, lo, hi, shape...))
	}
}

// gAway returns values with |x| in [lo, hi] and random signs: clear of the
// kinks at 0.
func gAway(lo, hi float64) func(r *rand.Rand, shape ...int) *ndarray.Array {
	return func(r *rand.Rand, shape ...int) *ndarray.Array {
		v := gUniform(lo, hi)(r, shape...).Float64s()
		for i := range v {
			if r.IntN(2) == 0 {
				v[i] = -v[i]
			}
		}
		return ndarray.Must(ndarray.Wrap(v, shape...))
	}
}

// gOffGrid returns values at least 0.1 from the integers (floor and ceil
// jump there; float32 rounding must not move a value across one).
func gOffGrid(r *rand.Rand, shape ...int) *ndarray.Array {
	v := gUniform(-3, 3)(r, shape...).Float64s()
	for i := range v {
		f := v[i] - math.Floor(v[i])
		v[i] = math.Floor(v[i]) + 0.1 + 0.8*f
	}
	return ndarray.Must(ndarray.Wrap(v, shape...))
}

type gvals func(r *rand.Rand, shape ...int) *ndarray.Array

// ---------------------------------------------------------------- helpers

// gConst returns a gorgonia scalar constant of x's dtype.
func gConst(x *G.Node, v float64) *G.Node {
	if x.Dtype() == tensor.Float32 {
		return G.NewConstant(float32(v))
	}
	return G.NewConstant(v)
}

// gBroadcast gives a and b numpy's broadcast shape in gorgonia, which
// broadcasts only operands of one rank along size-1 axes: the operand of
// lower rank gets leading 1s first.
func gBroadcast(a, b *G.Node) (*G.Node, *G.Node, error) {
	as, bs := []int(a.Shape()), []int(b.Shape())
	if slices.Equal(as, bs) || len(as) == 0 || len(bs) == 0 {
		return a, b, nil
	}
	full, err := ndarray.BroadcastShapes(as, bs)
	if err != nil {
		return nil, nil, err
	}
	pad := func(n *G.Node, s []int) (*G.Node, []int, error) {
		if len(s) == len(full) {
			return n, s, nil
		}
		ps := append(slices.Repeat([]int{1}, len(full)-len(s)), s...)
		n, err := gReshapeCopy(n, ps)
		return n, ps, err
	}
	if a, as, err = pad(a, as); err != nil {
		return nil, nil, err
	}
	if b, bs, err = pad(b, bs); err != nil {
		return nil, nil, err
	}
	var left, right []byte
	for i := range full {
		if as[i] != full[i] {
			left = append(left, byte(i))
		}
		if bs[i] != full[i] {
			right = append(right, byte(i))
		}
	}
	return G.Broadcast(a, b, G.NewBroadcastPattern(left, right))
}

// gFresh is x+0 in gorgonia: a copy, to reshape instead of x. gorgonia's
// Reshape returns a value sharing its input's memory and declares that it
// overwrites its input (reshapeOp.OverwritesInput is 0), so the tape
// machine lets a later op write over the reshaped value in place while the
// input is still needed, by a later op or by the backward pass. Seen in
// the compositions: in a/b → reshape → /c gorgonia's d/db came out with an
// extra factor 1/c² (0.1520 for a = -0.4, b = 1.9, c = 0.9, where
// -a/(b²c) = 0.1231, sdgo's, which passes central differences): the second
// division had overwritten a/b, which divide's gradient reads, with
// a/(bc). And a/b used after (a/b)+c, the sum taken with a/b reshaped to
// broadcast, read as the sum. The single-op tests did not show it: there
// nothing after the op needs its input.
func gFresh(x *G.Node) (*G.Node, error) { return G.Add(x, gConst(x, 0)) }

// gReshapeCopy is gorgonia's Reshape of a copy (see gFresh).
func gReshapeCopy(x *G.Node, s []int) (*G.Node, error) {
	y, err := gFresh(x)
	if err != nil {
		return nil, err
	}
	return G.Reshape(y, s)
}

// gBinaryStep combines the chain with a fresh input: of the chain's shape,
// of a suffix of it with sizes made 1, or of a larger rank (a new leading
// axis), so that either side is broadcast.
func gBinaryStep(name, sdOp string, vals gvals, f func(a, b *G.Node) (*G.Node, error)) gStep {
	return gStep{name, func([]int) bool { return true }, func(c *gChainState) error {
		s := slices.Clone(c.shape)
		switch c.r.IntN(3) {
		case 0:
			s = s[c.r.IntN(len(s)):]
			for i := range s {
				if c.r.IntN(2) == 0 {
					s[i] = 1
				}
			}
		case 1:
			if len(s) < 3 {
				s = append([]int{1 + c.r.IntN(3)}, s...)
			}
		}
		sv, gv, err := c.leaf(vals(c.r, s...))
		if err != nil {
			return err
		}
		a, b := c.gn, gv
		if c.r.IntN(2) == 0 && name != "divide" {
			a, b = b, a
		}
		gn, err := gBinary(f)([]*G.Node{a, b})
		if err != nil {
			return err
		}
		x, y := c.sd, sv
		if a != c.gn {
			x, y = y, x
		}
		c.sd, c.gn = c.g.Apply(sdOp, ops.Args{}, x, y), gn
		c.shape = []int(gn.Shape())
		c.bounded = false
		return nil
	}}
}

// gBinaryNoScalars applies a gorgonia binary op that takes neither scalars
// nor a scalar with a tensor (MaxBetween, MinBetween): scalars become
// arrays of ones of the other's rank (of shape [1] when both are scalars,
// the result summed to a scalar again).
func gBinaryNoScalars(f func(a, b *G.Node) (*G.Node, error)) func(x []*G.Node) (*G.Node, error) {
	return func(x []*G.Node) (*G.Node, error) {
		a, b := x[0], x[1]
		rank := max(a.Dims(), b.Dims(), 1)
		var err error
		if a.Dims() == 0 {
			if a, err = gReshapeCopy(a, slices.Repeat([]int{1}, rank)); err != nil {
				return nil, err
			}
		}
		if b.Dims() == 0 {
			if b, err = gReshapeCopy(b, slices.Repeat([]int{1}, rank)); err != nil {
				return nil, err
			}
		}
		out, err := gBinary(f)([]*G.Node{a, b})
		if err != nil || x[0].Dims() > 0 || x[1].Dims() > 0 {
			return out, err
		}
		return G.Sum(out) // a [1] back to a scalar (gorgonia's Reshape to [] gives a rank-0 tensor its ops refuse)
	}
}

// gBinary applies a gorgonia binary op with numpy broadcasting.
func gBinary(f func(a, b *G.Node) (*G.Node, error)) func(x []*G.Node) (*G.Node, error) {
	return func(x []*G.Node) (*G.Node, error) {
		a, b, err := gBroadcast(x[0], x[1])
		if err != nil {
			return nil, err
		}
		return f(a, b)
	}
}

// gUnary is an elementwise op of one input in both libraries.
func gUnary(sdOp string, args ops.Args, vals gvals, f func(*G.Node) (*G.Node, error)) func(r *rand.Rand) gapp {
	return func(r *rand.Rand) gapp {
		return gapp{
			in:   []*ndarray.Array{vals(r, gShape(r, 0, 3)...)},
			sd:   func(g *graph.Graph, x []*graph.Variable) *graph.Variable { return g.Apply(sdOp, args, x[0]) },
			gg:   func(x []*G.Node) (*G.Node, error) { return f(x[0]) },
			desc: fmt.Sprintf("args %+v", args),
		}
	}
}

// gBroadcastPair returns two shapes that broadcast to a full shape of rank
// 0..4: each a suffix of it (rank differences) with some sizes made 1.
//
// Neither is broadcast along axis 2 of a rank-4 result: gorgonia's
// gradient of a broadcast sums along the broadcast axes, and
// gorgonia.org/tensor's reductions along axis 2 of a rank-4 tensor are
// wrong (see gReduction): element 1 of d/dx of Σw·(x+y) for x [1 4 1 1],
// y [4 3 1] came out 0.2370 in gorgonia, -0.8711 in sdgo, whose
// reductions agree with a plain loop where gorgonia's do not.
func gBroadcastPair(r *rand.Rand) ([]int, []int) {
	full := gShape(r, 0, 4)
	part := func() []int {
		for {
			k := len(full) - r.IntN(len(full)+1)
			if r.IntN(2) == 0 {
				k = len(full)
			}
			s := append([]int(nil), full[len(full)-k:]...)
			for i := range s {
				if r.IntN(3) == 0 {
					s[i] = 1
				}
			}
			if len(full) < 4 || (len(s) >= 2 && s[len(s)-2] == full[2]) {
				return s
			}
		}
	}
	return part(), part()
}

// gAddAlong adds the vector b along axis of x in gorgonia, x seen as
// [before, n, after] so that b [1 n 1] is broadcast along axes 0 and 2 of
// a rank-3 tensor (gorgonia's gradient of a broadcast along axis 2 of a
// rank-4 one is wrong: see gBroadcastPair).
func gAddAlong(x, b *G.Node, axis int) (*G.Node, error) {
	s := []int(x.Shape())
	pre, post := 1, 1
	for _, d := range s[:axis] {
		pre *= d
	}
	for _, d := range s[axis+1:] {
		post *= d
	}
	x3, err := G.Reshape(x, []int{pre, s[axis], post})
	if err != nil {
		return nil, err
	}
	b3, err := G.Reshape(b, []int{1, s[axis], 1})
	if err != nil {
		return nil, err
	}
	y, err := gBinary(G.Add)([]*G.Node{x3, b3})
	if err != nil {
		return nil, err
	}
	return G.Reshape(y, s)
}

func gBinaryOp(sdOp string, vx, vy gvals, f func(a, b *G.Node) (*G.Node, error)) func(r *rand.Rand) gapp {
	return gBinaryWith(sdOp, vx, vy, gBinary(f))
}

func gBinaryWith(sdOp string, vx, vy gvals, f func(x []*G.Node) (*G.Node, error)) func(r *rand.Rand) gapp {
	return func(r *rand.Rand) gapp {
		sx, sy := gBroadcastPair(r)
		return gapp{
			in: []*ndarray.Array{vx(r, sx...), vy(r, sy...)},
			sd: func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
				return g.Apply(sdOp, ops.Args{}, x[0], x[1])
			},
			gg: f,
		}
	}
}

// ---------------------------------------------------------------- the ops

func gorgoniaOps() []gop {
	away := gAway(0.1, 2)
	posv := gUniform(0.2, 3)
	list := []gop{
		{"abs", gUnary("abs", ops.Args{}, away, G.Abs)},
		{"neg", gUnary("neg", ops.Args{}, gRandn, G.Neg)},
		{"exp", gUnary("exp", ops.Args{}, gRandn, G.Exp)},
		{"log", gUnary("log", ops.Args{}, posv, G.Log)},
		{"log1p", gUnary("log1p", ops.Args{}, gUniform(-0.5, 3), G.Log1p)},
		{"expm1", gUnary("expm1", ops.Args{}, gRandn, G.Expm1)},
		{"sqrt", gUnary("sqrt", ops.Args{}, posv, G.Sqrt)},
		// gorgonia's InverseSqrt has a wrong gradient: -g/(2y³) for y =
		// x^-1/2, where d/dx x^-1/2 = -y³/2 (inverseSqrtDiffExpr divides
		// by y³ where it should multiply): -4 at x = 4, where it is
		// -1/16. Its values are compared; the gradient against 1/sqrt(x).
		{"rsqrt", fwdOnly(gUnary("rsqrt", ops.Args{}, posv, G.InverseSqrt))},
		{"rsqrt (gradient, against 1/sqrt)", gUnary("rsqrt", ops.Args{}, posv, func(x *G.Node) (*G.Node, error) {
			s, err := G.Sqrt(x)
			if err != nil {
				return nil, err
			}
			return G.Inverse(s)
		})},
		{"square", gUnary("square", ops.Args{}, gRandn, G.Square)},
		{"pow 3 (cube)", gUnary("pow", ops.Args{F: []float64{3}}, gRandn, G.Cube)},
		{"reciprocal", gUnary("reciprocal", ops.Args{}, gAway(0.5, 2), G.Inverse)},
		{"sin", gUnary("sin", ops.Args{}, gRandn, G.Sin)},
		{"cos", gUnary("cos", ops.Args{}, gRandn, G.Cos)},
		{"tanh", gUnary("tanh", ops.Args{}, gRandn, G.Tanh)},
		{"sigmoid", gUnary("sigmoid", ops.Args{}, gRandn, G.Sigmoid)},
		{"softplus", gUnary("softplus", ops.Args{}, gRandn, G.Softplus)},
		{"relu", gUnary("relu", ops.Args{}, away, G.Rectify)},
		{"sign", fwdOnly(gUnary("sign", ops.Args{}, away, G.Sign))},
		{"floor", fwdOnly(gUnary("floor", ops.Args{}, gOffGrid, G.Floor))},
		{"ceil", fwdOnly(gUnary("ceil", ops.Args{}, gOffGrid, G.Ceil))},
		{"leakyrelu", func(r *rand.Rand) gapp {
			alpha := 0.5 * r.Float64()
			return gUnary("leakyrelu", ops.Args{F: []float64{alpha}}, away,
				func(x *G.Node) (*G.Node, error) { return G.LeakyRelu(x, alpha) })(r)
		}},
		{"pow", func(r *rand.Rand) gapp {
			p := []float64{0.5, 2, -1.5, 3, 1.7}[r.IntN(5)]
			return gUnary("pow", ops.Args{F: []float64{p}}, gUniform(0.3, 2),
				func(x *G.Node) (*G.Node, error) { return G.Pow(x, gConst(x, p)) })(r)
		}},

		{"add", gBinaryOp("add", gRandn, gRandn, G.Add)},
		{"subtract", gBinaryOp("subtract", gRandn, gRandn, G.Sub)},
		{"multiply", gBinaryOp("multiply", gRandn, gRandn, G.HadamardProd)},
		{"divide", gBinaryOp("divide", gRandn, gAway(0.5, 2), G.HadamardDiv)},
		{"Pow", gBinaryOp("Pow", gUniform(0.5, 2), gRandn, G.Pow)},
		{"maximum", gBinaryWith("maximum", opcases.Distinct, opcases.Shifted, gBinaryNoScalars(G.MaxBetween))},
		{"minimum", gBinaryWith("minimum", opcases.Distinct, opcases.Shifted, gBinaryNoScalars(G.MinBetween))},
		{"mergeadd", func(r *rand.Rand) gapp {
			s := gShape(r, 0, 3)
			in := make([]*ndarray.Array, 2+r.IntN(3))
			for i := range in {
				in[i] = gRandn(r, s...)
			}
			return gapp{
				in: in,
				sd: func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
					return g.Apply("mergeadd", ops.Args{}, x...)
				},
				gg: func(x []*G.Node) (*G.Node, error) { return G.ReduceAdd(x) },
			}
		}},
		{"squaredsubtract", gBinaryOp("squaredsubtract", gRandn, gRandn, func(a, b *G.Node) (*G.Node, error) {
			d, err := G.Sub(a, b)
			if err != nil {
				return nil, err
			}
			return G.Square(d)
		})},
	}
	list = append(list, gLinalgOps()...)
	list = append(list, gReduceOps()...)
	list = append(list, gShapeOps()...)
	list = append(list, gNNOps()...)
	list = append(list, gMoreOps()...)
	return list
}

func fwdOnly(f func(r *rand.Rand) gapp) func(r *rand.Rand) gapp {
	return func(r *rand.Rand) gapp {
		a := f(r)
		a.fwdOnly = true
		return a
	}
}

// gChain applies gorgonia functions in turn, stopping at the first error.
func gChain(x *G.Node, fs ...func(*G.Node) (*G.Node, error)) (*G.Node, error) {
	var err error
	for _, f := range fs {
		if x, err = f(x); err != nil {
			return nil, err
		}
	}
	return x, nil
}

func gT(x *G.Node) (*G.Node, error) { return G.Transpose(x) }

// gSwapLast transposes the last two axes.
func gSwapLast(x *G.Node) (*G.Node, error) {
	p := make([]int, x.Dims())
	for i := range p {
		p[i] = i
	}
	p[len(p)-1], p[len(p)-2] = p[len(p)-2], p[len(p)-1]
	return G.Transpose(x, p...)
}

// gBatchBroadcast gives a and b (of rank 3 or more) one batch shape: the
// operand of lower rank gets leading 1s, then size-1 batch axes repeat.
func gBatchBroadcast(a, b *G.Node) (*G.Node, *G.Node, error) {
	as, bs := []int(a.Shape()), []int(b.Shape())
	rank := max(len(as), len(bs))
	var err error
	if len(as) < rank {
		as = append(slices.Repeat([]int{1}, rank-len(as)), as...)
		if a, err = gReshapeCopy(a, as); err != nil {
			return nil, nil, err
		}
	}
	if len(bs) < rank {
		bs = append(slices.Repeat([]int{1}, rank-len(bs)), bs...)
		if b, err = gReshapeCopy(b, bs); err != nil {
			return nil, nil, err
		}
	}
	var left, right []byte
	for i := 0; i < rank-2; i++ {
		if as[i] < bs[i] {
			left = append(left, byte(i))
		} else if bs[i] < as[i] {
			right = append(right, byte(i))
		}
	}
	if left == nil && right == nil {
		return a, b, nil
	}
	return G.Broadcast(a, b, G.NewBroadcastPattern(left, right))
}

func gLinalgOps() []gop {
	return []gop{
		// A matrix product, either operand transposed, the result
		// transposed now and then, scaled by alpha now and then.
		{"matmul", func(r *rand.Rand) gapp {
			m, k, n := gDim(r, 4), gDim(r, 4), gDim(r, 4)
			tx, ty, tz := r.IntN(2) == 1, r.IntN(2) == 1, r.IntN(3) == 0
			alpha := 1.0
			if r.IntN(3) == 0 {
				alpha = 0.5 + r.Float64()
			}
			xs, ys := []int{m, k}, []int{k, n}
			if tx {
				xs = []int{k, m}
			}
			if ty {
				ys = []int{n, k}
			}
			args := ops.MatMulArgs(tx, ty)
			if tz {
				args.I[2] = 1
			}
			if alpha != 1 {
				args.F = []float64{alpha}
			}
			return gapp{
				in: []*ndarray.Array{gRandn(r, xs...), gRandn(r, ys...)},
				sd: func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
					return g.Apply("matmul", args, x[0], x[1])
				},
				gg: func(x []*G.Node) (*G.Node, error) {
					a, b := x[0], x[1]
					var err error
					if tx {
						if a, err = gT(a); err != nil {
							return nil, err
						}
					}
					if ty {
						if b, err = gT(b); err != nil {
							return nil, err
						}
					}
					// gorgonia's Mul takes a [1 k] or [k 1] matrix for
					// a vector (a matrix-vector or dot product whose
					// result has another shape): a batch of one is a
					// plain matrix product.
					if a, err = G.Reshape(a, []int{1, m, k}); err != nil {
						return nil, err
					}
					if b, err = G.Reshape(b, []int{1, k, n}); err != nil {
						return nil, err
					}
					out, err := G.BatchedMatMul(a, b)
					if err != nil {
						return nil, err
					}
					if out, err = G.Reshape(out, []int{m, n}); err != nil {
						return nil, err
					}
					if tz {
						if out, err = gT(out); err != nil {
							return nil, err
						}
					}
					if alpha != 1 {
						return G.HadamardProd(out, gConst(out, alpha))
					}
					return out, nil
				},
				desc: fmt.Sprintf("transpose x %v, y %v, z %v, alpha %g", tx, ty, tz, alpha),
			}
		}},
		// Matrix-vector, vector-matrix and vector-vector products.
		{"matmul of vectors", func(r *rand.Rand) gapp {
			m, k := 2+r.IntN(3), 2+r.IntN(3)
			kind := r.IntN(3)
			shapes := [][][]int{{{m, k}, {k}}, {{k}, {k, m}}, {{k}, {k}}}[kind]
			return gapp{
				in: []*ndarray.Array{gRandn(r, shapes[0]...), gRandn(r, shapes[1]...)},
				sd: func(g *graph.Graph, x []*graph.Variable) *graph.Variable { return x[0].MatMul(x[1]) },
				gg: func(x []*G.Node) (*G.Node, error) { return G.Mul(x[0], x[1]) },
			}
		}},
		// A batched product: one or two batch axes, the batch axes
		// broadcast (size 1, or missing in one operand), either operand
		// transposed.
		{"matmul, batched", func(r *rand.Rand) gapp {
			m, k, n := gDim(r, 3), gDim(r, 3), gDim(r, 3)
			tx, ty := r.IntN(2) == 1, r.IntN(2) == 1
			batch := gShape(r, 1, 2)
			if gLong {
				batch[len(batch)-1] = 2 // long matrices, short batches
			}
			bx, by := slices.Clone(batch), slices.Clone(batch)
			for i := range batch {
				switch r.IntN(4) {
				case 0:
					bx[i] = 1
				case 1:
					by[i] = 1
				}
			}
			if len(batch) == 2 && r.IntN(3) == 0 {
				if r.IntN(2) == 0 {
					bx = bx[1:]
				} else {
					by = by[1:]
				}
			}
			xs, ys := append(slices.Clone(bx), m, k), append(slices.Clone(by), k, n)
			if tx {
				xs = append(slices.Clone(bx), k, m)
			}
			if ty {
				ys = append(slices.Clone(by), n, k)
			}
			return gapp{
				in: []*ndarray.Array{gRandn(r, xs...), gRandn(r, ys...)},
				sd: func(g *graph.Graph, x []*graph.Variable) *graph.Variable { return x[0].MatMulT(x[1], tx, ty) },
				gg: func(x []*G.Node) (*G.Node, error) {
					a, b, err := gBatchBroadcast(x[0], x[1])
					if err != nil {
						return nil, err
					}
					return G.BatchedMatMul(a, b, tx, ty)
				},
				desc: fmt.Sprintf("transpose x %v, y %v", tx, ty),
			}
		}},
		// The outer product of two vectors, as sdgo writes it: [n 1]·[1 m].
		// Values only: gorgonia's OuterProd has wrong gradients
		// (outerProdDiffExpr takes x·gradZ for d/dx and y·gradZ for d/dy,
		// where they are gradZ·y and gradZᵀ·x: for Σ a⊗b with a = [1 2],
		// b = [3 4] it gives [6 6] for both, where d/da = [7 7] and d/db
		// = [3 3], and it fails for vectors of different lengths); the
		// gradient of the same product is compared under "matmul".
		{"matmul as outer product", fwdOnly(func(r *rand.Rand) gapp {
			n, m := 1+r.IntN(4), 1+r.IntN(4)
			return gapp{
				in: []*ndarray.Array{gRandn(r, n), gRandn(r, m)},
				sd: func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
					return x[0].Reshape(n, 1).MatMul(x[1].Reshape(1, m))
				},
				gg: func(x []*G.Node) (*G.Node, error) { return G.OuterProd(x[0], x[1]) },
			}
		})},
	}
}

// gAxes returns a sorted random non-empty subset of the axes of a rank-r
// array, or nil (every axis) one time in four.
func gAxes(r *rand.Rand, rank int) []int {
	if r.IntN(4) == 0 {
		return nil
	}
	var ax []int
	for i := range rank {
		if r.IntN(2) == 0 {
			ax = append(ax, i)
		}
	}
	if len(ax) == 0 {
		ax = []int{r.IntN(rank)}
	}
	return ax
}

// gReduction is a reduction over random axes with keepDims either way.
// In gorgonia, pre (elementwise), then red (a reduction of one axis), then
// post (elementwise).
//
// gorgonia.org/tensor v0.9.24 can reduce wrongly along an axis of a tensor
// of rank 4 or more that is neither one of the first two nor the last (seen
// for axis 2 of [3 2 3 3] and [2 3 4 5], axes 2 and 3 of [2 3 4 5 2]): Sum
// and Max along axis 2 of a [3 2 3 3] tensor give out[0,1,:] =
// [-0.834 2.405 0.986] where Σ_c x[0,1,c,:] = [-4.269 1.276 2.666] (sdgo
// and a plain loop agree). So the oracle moves the reduced axes to the
// front and reduces axis 0 once for each; a reduction of every axis is one
// of the flattened values. gorgonia drops reduced axes: kept ones are put
// back by a reshape (of a [1], not a scalar: gorgonia's backward pass
// refuses a scalar reshaped).
func gReduction(sdOp string, vals gvals, pre func(*G.Node) (*G.Node, error),
	red func(*G.Node, ...int) (*G.Node, error), post func(*G.Node) (*G.Node, error)) func(r *rand.Rand) gapp {
	return func(r *rand.Rand) gapp {
		s := gShape(r, 1, 4)
		ax := gAxes(r, len(s))
		keep := r.IntN(2) == 0
		sdAx := slices.Clone(ax)
		for i := range sdAx {
			if r.IntN(2) == 0 {
				sdAx[i] -= len(s)
			}
		}
		n := 1
		for _, d := range s {
			n *= d
		}
		all := ax == nil || len(ax) == len(s)
		if ax == nil {
			for i := range s {
				ax = append(ax, i)
			}
		}
		return gapp{
			in: []*ndarray.Array{vals(r, s...)},
			sd: func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
				return g.Apply(sdOp, ops.ReduceArgs(keep, sdAx...), x[0])
			},
			gg: func(x []*G.Node) (*G.Node, error) {
				y := x[0]
				var err error
				if pre != nil {
					if y, err = pre(y); err != nil {
						return nil, err
					}
				}
				switch {
				case all && keep:
					if y, err = G.Reshape(y, []int{1, n}); err != nil {
						return nil, err
					}
					if y, err = red(y, 1); err != nil {
						return nil, err
					}
				case all:
					if y, err = G.Reshape(y, []int{n}); err != nil {
						return nil, err
					}
					if y, err = red(y, 0); err != nil {
						return nil, err
					}
				default:
					perm := axesFirst(ax, len(s))
					if !slices.IsSorted(perm) {
						if y, err = G.Transpose(y, perm...); err != nil {
							return nil, err
						}
					}
					for range ax {
						if y, err = red(y, 0); err != nil {
							return nil, err
						}
					}
				}
				if keep {
					if y, err = G.Reshape(y, ndarray.ReducedShape(s, ax, true)); err != nil {
						return nil, err
					}
				}
				if post != nil {
					return post(y)
				}
				return y, nil
			},
			desc: fmt.Sprintf("axes %v, keepDims %v", sdAx, keep),
		}
	}
}

func gReduceOps() []gop {
	away := gAway(0.1, 2)
	return []gop{
		{"reduce_sum", gReduction("reduce_sum", gRandn, nil, G.Sum, nil)},
		{"reduce_mean", gReduction("reduce_mean", gRandn, nil, G.Mean, nil)},
		{"reduce_max", gReduction("reduce_max", opcases.Distinct, nil, G.Max, nil)},
		// min(x) = -max(-x): gorgonia has no min reduction.
		{"reduce_min", gReduction("reduce_min", opcases.Distinct, G.Neg, G.Max, G.Neg)},
		{"reduce_sqnorm", gReduction("reduce_sqnorm", gRandn, G.Square, G.Sum, nil)},
		{"asum", gReduction("asum", away, G.Abs, G.Sum, nil)},
		{"amean", gReduction("amean", away, G.Abs, G.Mean, nil)},
		{"amax", gReduction("amax", opcases.Distinct, G.Abs, G.Max, nil)},
		{"amin", gReduction("amin", opcases.Distinct, func(x *G.Node) (*G.Node, error) { return gChain(x, G.Abs, G.Neg) }, G.Max, G.Neg)},
		{"reduce_normmax", gReduction("reduce_normmax", opcases.Distinct, G.Abs, G.Max, nil)},
		// gorgonia's Norm(x, axis, p) raises x, not |x|, to p (for p = 1
		// it is Σx), and reduces along one axis: the 1-norm is Σ|x|, the
		// 2-norm √Σx².
		{"reduce_norm1", gReduction("reduce_norm1", away, G.Abs, G.Sum, nil)},
		{"reduce_norm2", gReduction("reduce_norm2", gRandn, G.Square, G.Sum, G.Sqrt)},
		// gorgonia's LogSumExp computes log(Σe^(x-m) + m), m the max, not
		// m + log Σe^(x-m): 1.5048 for [1 2 3], where log Σe^x is 3.4076;
		// and it fails to build for a matrix ("Shape mismatch: (2, 3) and
		// (2)", x - max without a broadcast). The oracle is log Σe^x, safe
		// for these values.
		{"reduce_logsumexp", gReduction("reduce_logsumexp", gRandn, G.Exp, G.Sum, G.Log)},
	}
}

func intRange(n int) []int {
	r := make([]int, n)
	for i := range r {
		r[i] = i
	}
	return r
}

func i64(v []int) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}

// gSameSize returns a random shape of n elements: n's prime factors in
// random order, with a 1 now and then.
func gSameSize(r *rand.Rand, n int) []int {
	var s []int
	for k := n; k > 1; {
		f := 2
		for k%f != 0 {
			f++
		}
		s = append(s, f)
		k /= f
	}
	if r.IntN(2) == 0 && len(s) > 1 {
		i := r.IntN(len(s) - 1)
		s[i] *= s[i+1]
		s = slices.Delete(s, i+1, i+2)
	}
	if r.IntN(2) == 0 || len(s) == 0 {
		i := r.IntN(len(s) + 1)
		s = slices.Insert(s, i, 1)
	}
	r.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
	return s
}

func gShapeOps() []gop {
	return []gop{
		{"transpose", func(r *rand.Rand) gapp {
			return gapp{
				in: []*ndarray.Array{gRandn(r, gShape(r, 2, 4)...)},
				sd: func(g *graph.Graph, x []*graph.Variable) *graph.Variable { return x[0].Transpose() },
				gg: func(x []*G.Node) (*G.Node, error) { return G.Transpose(x[0]) },
			}
		}},
		{"permute", func(r *rand.Rand) gapp {
			s := gShape(r, 2, 4)
			p := r.Perm(len(s))
			for slices.IsSorted(p) {
				p = r.Perm(len(s))
			}
			sp := slices.Clone(p)
			for i := range sp {
				if r.IntN(3) == 0 {
					sp[i] -= len(s)
				}
			}
			return gapp{
				in:   []*ndarray.Array{gRandn(r, s...)},
				sd:   func(g *graph.Graph, x []*graph.Variable) *graph.Variable { return x[0].Permute(sp...) },
				gg:   func(x []*G.Node) (*G.Node, error) { return G.Transpose(x[0], p...) },
				desc: fmt.Sprintf("permutation %v", sp),
			}
		}},
		{"reshape", func(r *rand.Rand) gapp {
			s := gShape(r, 1, 4)
			n := 1
			for _, d := range s {
				n *= d
			}
			ns := gSameSize(r, n)
			sdns := slices.Clone(ns)
			if r.IntN(2) == 0 {
				sdns[r.IntN(len(ns))] = -1
			}
			return gapp{
				in:   []*ndarray.Array{gRandn(r, s...)},
				sd:   func(g *graph.Graph, x []*graph.Variable) *graph.Variable { return x[0].Reshape(sdns...) },
				gg:   func(x []*G.Node) (*G.Node, error) { return G.Reshape(x[0], ns) },
				desc: fmt.Sprintf("shape %v", sdns),
			}
		}},
		{"expand_dims", func(r *rand.Rand) gapp {
			s := gShape(r, 1, 3)
			ax := r.IntN(len(s) + 1)
			ns := slices.Insert(slices.Clone(s), ax, 1)
			if r.IntN(2) == 0 {
				ax -= len(s) + 1
			}
			return gapp{
				in:   []*ndarray.Array{gRandn(r, s...)},
				sd:   func(g *graph.Graph, x []*graph.Variable) *graph.Variable { return x[0].ExpandDims(ax) },
				gg:   func(x []*G.Node) (*G.Node, error) { return G.Reshape(x[0], ns) },
				desc: fmt.Sprintf("axis %d", ax),
			}
		}},
		{"squeeze", func(r *rand.Rand) gapp {
			s := gShape(r, 2, 4)
			s[r.IntN(len(s))] = 1
			var ax []int
			var ns []int
			for i, d := range s {
				if d == 1 && r.IntN(3) > 0 {
					ax = append(ax, i-len(s)*r.IntN(2))
					continue
				}
				ns = append(ns, d)
			}
			if len(ax) == 0 {
				ns = nil
				for _, d := range s {
					if d != 1 {
						ns = append(ns, d)
					}
				}
			}
			if len(ns) == 0 {
				ns = []int{1} // gorgonia's scalars do not come from Reshape
				s = append(s, 1)
				ax = nil
				for i := range s[:len(s)-1] {
					ax = append(ax, i)
				}
			}
			return gapp{
				in:   []*ndarray.Array{gRandn(r, s...)},
				sd:   func(g *graph.Graph, x []*graph.Variable) *graph.Variable { return x[0].Squeeze(ax...) },
				gg:   func(x []*G.Node) (*G.Node, error) { return G.Reshape(x[0], ns) },
				desc: fmt.Sprintf("axes %v", ax),
			}
		}},
		{"concat", func(r *rand.Rand) gapp {
			s := gShape(r, 1, 4)
			ax := r.IntN(len(s))
			in := make([]*ndarray.Array, 2+r.IntN(2))
			for i := range in {
				si := slices.Clone(s)
				si[ax] = 1 + r.IntN(3)
				in[i] = gRandn(r, si...)
			}
			sdAx := ax - len(s)*r.IntN(2)
			return gapp{
				in:   in,
				sd:   func(g *graph.Graph, x []*graph.Variable) *graph.Variable { return g.Concat(sdAx, x...) },
				gg:   func(x []*G.Node) (*G.Node, error) { return G.Concat(ax, x...) },
				desc: fmt.Sprintf("axis %d", sdAx),
			}
		}},
		// stack is a concat of the inputs with a size-1 axis inserted.
		{"stack", func(r *rand.Rand) gapp {
			s := gShape(r, 1, 3)
			ax := r.IntN(len(s) + 1)
			in := make([]*ndarray.Array, 2+r.IntN(2))
			for i := range in {
				in[i] = gRandn(r, s...)
			}
			sdAx := ax - (len(s)+1)*r.IntN(2)
			return gapp{
				in: in,
				sd: func(g *graph.Graph, x []*graph.Variable) *graph.Variable { return g.Stack(sdAx, x...) },
				gg: func(x []*G.Node) (*G.Node, error) {
					e := make([]*G.Node, len(x))
					for i := range x {
						var err error
						if e[i], err = G.Reshape(x[i], slices.Insert(slices.Clone(s), ax, 1)); err != nil {
							return nil, err
						}
					}
					return G.Concat(ax, e...)
				},
				desc: fmt.Sprintf("axis %d", sdAx),
			}
		}},
		// tile is a concat of copies along each axis.
		{"tile", func(r *rand.Rand) gapp {
			s := gShape(r, 1, 3)
			reps := make([]int, len(s))
			for i := range reps {
				reps[i] = 1 + r.IntN(3)
			}
			return gapp{
				in: []*ndarray.Array{gRandn(r, s...)},
				sd: func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
					return g.Apply("tile", ops.Args{I: i64(reps)}, x[0])
				},
				gg: func(x []*G.Node) (*G.Node, error) {
					y := x[0]
					for ax, k := range reps {
						if k == 1 {
							continue
						}
						var err error
						if y, err = G.Concat(ax, slices.Repeat([]*G.Node{y}, k)...); err != nil {
							return nil, err
						}
					}
					return y, nil
				},
				desc: fmt.Sprintf("reps %v", reps),
			}
		}},
		{"stridedslice", gStridedSlice},
	}
}

// gStridedSlice draws a strided slice with begin and end written negative
// now and then, begin and end masks, and shrunk axes (gorgonia's S(i)),
// in the part of the op gorgonia's Slice gets right: positive strides (it
// has no negative steps), no axis of size 1 before or after (shrunk axes
// aside), and ranges whose length the step divides:
//
//   - gorgonia.org/tensor's Shape.S sizes a range as floor((end-start)/step),
//     not the ceiling: [0:3:2] of a [4] is inferred as a scalar, where it
//     has 2 elements (the node then panics: "Node T[0:3:2...] :: Vector,
//     has 1 dimensions(Shape: ())");
//   - Slice drops every axis a slice leaves with one element, not only the
//     ones indexed with S(i) (x[1:3, 0:1] of a [3 1] is [2], not [2 1]),
//     and then slices the following axes counting only the ranges with
//     end-start = 1 as dropped: x[1:2, 0:1] of a [2 1] panics at run time
//     (index out of range in sliceOp.Do);
//   - the ops that could stand in (ByIndices, which keeps axes) panic in
//     their gradient (slice bounds out of range in selectByIndicesB).
//
// Size-1 axes, one-element ranges, uneven steps, negative strides and new
// axes are left to the central-difference test (validation/opcases'
// TestRandomGradients) and the op's forward cases.
func gStridedSlice(r *rand.Rand) gapp {
	s := gShape(r, 1, 4)
	for i := range s {
		s[i] = max(s[i], 2)
	}
	var begin, end, stride []int
	var bm, em, sm int
	var gs []tensor.Slice
	var desc []string
	for i, d := range s {
		var b, e, st int
		if r.IntN(5) == 0 { // shrink
			b = r.IntN(d)
			sm |= 1 << i
			gs = append(gs, G.S(b))
			desc = append(desc, fmt.Sprint(b))
			e, st = b+1, 1
			if r.IntN(2) == 0 {
				b -= d
				e = b + 1
				if e == 0 {
					em |= 1 << i
				}
			}
			begin, end, stride = append(begin, b), append(end, e), append(stride, st)
			continue
		}
		st = 1
		if d >= 4 && r.IntN(2) == 0 {
			st = 2
		}
		n := 2 + r.IntN(d/st-1) // 2..d/st elements
		b = r.IntN(d - n*st + 1)
		e = b + n*st
		if b == 0 && e == d && st == 1 {
			gs = append(gs, nil)
		} else {
			gs = append(gs, G.S(b, e, st))
		}
		desc = append(desc, fmt.Sprintf("%d:%d:%d", b, e, st))
		if b == 0 && r.IntN(2) == 0 {
			bm |= 1 << i
			b = d - 1 // ignored under the mask
		} else if r.IntN(3) == 0 {
			b -= d
		}
		if e == d && r.IntN(2) == 0 {
			em |= 1 << i
			e = 0 // ignored under the mask
		} else if e < d && r.IntN(3) == 0 {
			e -= d
		}
		begin, end, stride = append(begin, b), append(end, e), append(stride, st)
	}
	I := append([]int64{int64(bm), 0, int64(em), 0, int64(sm)}, i64(begin)...)
	I = append(append(I, i64(end)...), i64(stride)...)
	return gapp{
		in: []*ndarray.Array{gRandn(r, s...)},
		sd: func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
			return g.Apply("stridedslice", ops.Args{I: I}, x[0])
		},
		gg:   func(x []*G.Node) (*G.Node, error) { return G.Slice(x[0], gs...) },
		desc: fmt.Sprintf("int args %v (x[%v])", I, desc),
	}
}

// gZeros returns a gorgonia node of zeros of x's dtype.
func gZeros(g *G.ExprGraph, dt tensor.Dtype, shape ...int) *G.Node {
	return G.NewTensor(g, dt, len(shape), G.WithShape(shape...), G.WithInit(G.Zeroes()))
}

// gPadEnd appends n zeros along axis of x (4-D).
func gPadEnd(x *G.Node, axis, n int) (*G.Node, error) {
	if n <= 0 {
		return x, nil
	}
	s := slices.Clone([]int(x.Shape()))
	s[axis] = n
	return G.Concat(axis, x, gZeros(x.Graph(), x.Dtype(), s...))
}

// gWindow is one spatial axis of a window op: kernel, stride, padding,
// dilation. For SAME mode gorgonia's symmetric padding is the padding
// before, and the extra cell of an odd total (which TensorFlow and libnd4j
// put after) is appended as zeros.
type gWindow struct{ k, s, p, d int }

func (w gWindow) pads(in int, same bool) (before, extra int) {
	if !same {
		return w.p, 0
	}
	out := (in + w.s - 1) / w.s
	total := (out-1)*w.s + (w.k-1)*w.d + 1 - in
	if total <= 0 {
		return 0, 0
	}
	return total / 2, total - 2*(total/2)
}

// gConv2d is a convolution in gorgonia of x [b c h w] by w [o c kh kw]
// with windows along h and w, in SAME mode or with explicit paddings.
func gConv2d(x, w *G.Node, wh, ww gWindow, same bool) (*G.Node, error) {
	ph, eh := wh.pads(x.Shape()[2], same)
	pw, ew := ww.pads(x.Shape()[3], same)
	x, err := gPadEnd(x, 2, eh)
	if err != nil {
		return nil, err
	}
	if x, err = gPadEnd(x, 3, ew); err != nil {
		return nil, err
	}
	return G.Conv2d(x, w, tensor.Shape{wh.k, ww.k}, []int{ph, pw}, []int{wh.s, ww.s}, []int{wh.d, ww.d})
}

func gTranspose(perm ...int) func(*G.Node) (*G.Node, error) {
	return func(x *G.Node) (*G.Node, error) { return G.Transpose(x, perm...) }
}

func gNNOps() []gop {
	return []gop{
		{"softmax", gSoftmax("softmax", G.SoftMax)},
		{"log_softmax", gSoftmax("log_softmax", G.LogSoftMax)},
		{"biasadd", func(r *rand.Rand) gapp {
			s := gShape(r, 2, 4)
			nchw := r.IntN(2) == 0
			ax := len(s) - 1
			if nchw {
				ax = 1
			}
			return gapp{
				in: []*ndarray.Array{gRandn(r, s...), gRandn(r, s[ax])},
				sd: func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
					return g.Apply("biasadd", ops.Args{B: []bool{nchw}}, x[0], x[1])
				},
				gg:   func(x []*G.Node) (*G.Node, error) { return gAddAlong(x[0], x[1], ax) },
				desc: fmt.Sprintf("NCHW %v", nchw),
			}
		}},
		{"conv2d", gConv2dCase},
		{"avgpool3dnew", gAvgPoolCase},
		// Values only: gorgonia's GlobalAveragePool2D has no gradient
		// (G.Grad panics in forwardDiffAnalysis).
		{"reduce_mean as global average pool", fwdOnly(func(r *rand.Rand) gapp {
			s := []int{1 + r.IntN(2), 1 + r.IntN(3), 1 + r.IntN(4), 1 + r.IntN(4)}
			return gapp{
				in: []*ndarray.Array{gRandn(r, s...)},
				sd: func(g *graph.Graph, x []*graph.Variable) *graph.Variable { return x[0].MeanKeep(2, 3) },
				gg: func(x []*G.Node) (*G.Node, error) { return G.GlobalAveragePool2D(x[0]) },
			}
		})},
		{"mean_sqerr_loss", gLossCase("mean_sqerr_loss", func(r *rand.Rand) ([]int, []int, *ndarray.Array) {
			s := gShape(r, 1, 3)
			return s, s, gRandn(r, s...)
		}, func(x []*G.Node, _ float64) (*G.Node, error) {
			d, err := G.Sub(x[0], x[2])
			if err != nil {
				return nil, err
			}
			return G.Square(d)
		})},
		{"softmax_cross_entropy_loss", gLossCase("softmax_cross_entropy_loss", func(r *rand.Rand) ([]int, []int, *ndarray.Array) {
			s := append(gShape(r, 0, 2), 2+r.IntN(3))
			lab := ndarray.Must(ndarray.Softmax(gRandn(r, s...), -1))
			return s, s[:len(s)-1], lab
		}, func(x []*G.Node, smooth float64) (*G.Node, error) {
			last := x[0].Dims() - 1
			ls, err := G.LogSoftMax(x[0], last)
			if err != nil {
				return nil, err
			}
			lab := x[2]
			if smooth != 0 {
				k := float64(x[0].Shape()[last])
				if lab, err = G.HadamardProd(lab, gConst(lab, 1-smooth)); err != nil {
					return nil, err
				}
				if lab, err = G.Add(lab, gConst(lab, smooth/k)); err != nil {
					return nil, err
				}
			}
			p, err := G.HadamardProd(ls, lab)
			if err != nil {
				return nil, err
			}
			if p, err = G.Sum(p, last); err != nil {
				return nil, err
			}
			return G.Neg(p)
		})},
	}
}

// gSoftmax is softmax or log-softmax along a random axis.
func gSoftmax(sdOp string, f func(*G.Node, ...int) (*G.Node, error)) func(r *rand.Rand) gapp {
	return func(r *rand.Rand) gapp {
		s := gShape(r, 1, 4)
		ax := r.IntN(len(s))
		sdAx := ax - len(s)*r.IntN(2)
		return gapp{
			in: []*ndarray.Array{gRandn(r, s...)},
			sd: func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
				return g.Apply(sdOp, ops.Args{I: []int64{int64(sdAx)}}, x[0])
			},
			gg:   func(x []*G.Node) (*G.Node, error) { return f(x[0], ax) },
			desc: fmt.Sprintf("axis %d", sdAx),
		}
	}
}

// gConv2dCase draws a conv2d: kernel 1..3, strides and dilations 1..2,
// paddings 0..2 or SAME, NCHW or NHWC, each of the three weight layouts,
// with a bias now and then. gorgonia's Conv2d takes NCHW and weights [oC,
// iC, kH, kW] (sdgo's format 1): the others are transposed.
func gConv2dCase(r *rand.Rand) gapp {
	var wh, ww gWindow
	var iH, iW int
	for {
		wh = gWindow{1 + r.IntN(3), 1 + r.IntN(2), r.IntN(3), 1 + r.IntN(2)}
		ww = gWindow{1 + r.IntN(3), 1 + r.IntN(2), r.IntN(3), 1 + r.IntN(2)}
		iH, iW = 2+r.IntN(5), 2+r.IntN(5)
		if iH+2*wh.p >= (wh.k-1)*wh.d+1 && iW+2*ww.p >= (ww.k-1)*ww.d+1 {
			break
		}
	}
	same, nhwc, wf := r.IntN(3) == 0, r.IntN(2) == 1, r.IntN(3)
	bS, iC, oC := 1+r.IntN(2), 1+r.IntN(3), 1+r.IntN(3)
	bias := r.IntN(2) == 0
	xs := []int{bS, iC, iH, iW}
	if nhwc {
		xs = []int{bS, iH, iW, iC}
	}
	wsh := [][]int{{wh.k, ww.k, iC, oC}, {oC, iC, wh.k, ww.k}, {oC, wh.k, ww.k, iC}}[wf]
	toOIHW := [][]int{{3, 2, 0, 1}, nil, {0, 3, 1, 2}}[wf]
	args := ops.Args{I: i64([]int{wh.k, ww.k, wh.s, ww.s, wh.p, ww.p, wh.d, ww.d, b2int(same), b2int(nhwc), wf})}
	in := []*ndarray.Array{gRandn(r, xs...), gRandn(r, wsh...)}
	if bias {
		in = append(in, gRandn(r, oC))
	}
	return gapp{
		in: in,
		sd: func(g *graph.Graph, x []*graph.Variable) *graph.Variable { return g.Apply("conv2d", args, x...) },
		gg: func(x []*G.Node) (*G.Node, error) {
			im, w := x[0], x[1]
			var err error
			if nhwc {
				if im, err = G.Transpose(im, 0, 3, 1, 2); err != nil {
					return nil, err
				}
			}
			if toOIHW != nil {
				if w, err = G.Transpose(w, toOIHW...); err != nil {
					return nil, err
				}
			}
			out, err := gConv2d(im, w, wh, ww, same)
			if err != nil {
				return nil, err
			}
			if bias {
				if out, err = gAddAlong(out, x[2], 1); err != nil {
					return nil, err
				}
			}
			if nhwc {
				return G.Transpose(out, 0, 2, 3, 1)
			}
			return out, nil
		},
		desc: fmt.Sprintf("int args %v, bias %v", args.I, bias),
	}
}

func b2int(b bool) int {
	if b {
		return 1
	}
	return 0
}

// gAvgPoolCase draws an avgpool3dnew with a depth window of 1 (gorgonia
// has no 3-D pooling, so depth is folded into the batch) and H and W
// windows with kernels 1..3, strides, dilations, paddings or SAME, either
// divisor, NCDHW or NDHWC. gorgonia's AveragePool2D divides every window's
// sum by the input's width (op_avg_pool.go: outData[i] /= inW, in f32s and
// f64s), not by the window's size: 2x2 windows of ones in a [1 1 2 6]
// average to 0.667, not 1. It also has no dilation. The oracle is
// gorgonia's Conv2d with the channel-identity kernel, divided by the
// kernel area (divisor 1) or by the count of input cells in each window,
// itself the convolution of ones by ones (divisor 0).
func gAvgPoolCase(r *rand.Rand) gapp {
	var wh, ww gWindow
	var iH, iW int
	for {
		wh = gWindow{1 + r.IntN(3), 1 + r.IntN(2), r.IntN(2), 1 + r.IntN(2)}
		ww = gWindow{1 + r.IntN(3), 1 + r.IntN(2), r.IntN(2), 1 + r.IntN(2)}
		iH, iW = 2+r.IntN(4), 2+r.IntN(4)
		// libnd4j's pooling pads less than the kernel: a window of
		// padding only has no cells to average.
		if iH+2*wh.p >= (wh.k-1)*wh.d+1 && iW+2*ww.p >= (ww.k-1)*ww.d+1 && wh.p < wh.k && ww.p < ww.k {
			break
		}
	}
	same, ndhwc, divisor := r.IntN(3) == 0, r.IntN(2) == 1, r.IntN(2)
	bS, C, D := 1+r.IntN(2), 1+r.IntN(3), 1+r.IntN(2)
	xs := []int{bS, C, D, iH, iW}
	if ndhwc {
		xs = []int{bS, D, iH, iW, C}
	}
	args := ops.Args{I: i64([]int{1, wh.k, ww.k, 1, wh.s, ww.s, 0, wh.p, ww.p, 1, wh.d, ww.d, b2int(same), divisor, b2int(ndhwc)})}
	return gapp{
		in: []*ndarray.Array{gRandn(r, xs...)},
		sd: func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
			return g.Apply("avgpool3dnew", args, x[0])
		},
		gg: func(x []*G.Node) (*G.Node, error) {
			gg, dt := x[0].Graph(), x[0].Dtype()
			y := x[0]
			var err error
			if ndhwc {
				if y, err = G.Transpose(y, 0, 4, 1, 2, 3); err != nil {
					return nil, err
				}
			}
			if y, err = gChain(y, gTranspose(0, 2, 1, 3, 4), func(n *G.Node) (*G.Node, error) {
				return G.Reshape(n, []int{bS * D, C, iH, iW})
			}); err != nil {
				return nil, err
			}
			eye := make([]float64, C*C*wh.k*ww.k)
			for c := range C {
				for k := range wh.k * ww.k {
					eye[(c*C+c)*wh.k*ww.k+k] = 1
				}
			}
			kern, err := gNode(gg, ndarray.Must(ndarray.Cast(ndarray.Must(ndarray.Wrap(eye, C, C, wh.k, ww.k)), ndarrayDT(dt))), "")
			if err != nil {
				return nil, err
			}
			sum, err := gConv2d(y, kern, wh, ww, same)
			if err != nil {
				return nil, err
			}
			var avg *G.Node
			if divisor == 1 {
				avg, err = G.HadamardDiv(sum, gConst(sum, float64(wh.k*ww.k)))
			} else {
				ones := G.NewTensor(gg, dt, 4, G.WithShape(1, 1, iH, iW), G.WithInit(G.Ones()))
				onesK := G.NewTensor(gg, dt, 4, G.WithShape(1, 1, wh.k, ww.k), G.WithInit(G.Ones()))
				var count *G.Node
				if count, err = gConv2d(ones, onesK, wh, ww, same); err != nil {
					return nil, err
				}
				avg, err = gBinary(G.HadamardDiv)([]*G.Node{sum, count})
			}
			if err != nil {
				return nil, err
			}
			oH, oW := avg.Shape()[2], avg.Shape()[3]
			if y, err = gChain(avg, func(n *G.Node) (*G.Node, error) {
				return G.Reshape(n, []int{bS, D, C, oH, oW})
			}, gTranspose(0, 2, 1, 3, 4)); err != nil {
				return nil, err
			}
			if ndhwc {
				return G.Transpose(y, 0, 2, 3, 4, 1)
			}
			return y, nil
		},
		desc: fmt.Sprintf("int args %v", args.I),
	}
}

func ndarrayDT(dt tensor.Dtype) ndarray.DType {
	if dt == tensor.Float32 {
		return ndarray.Float32
	}
	return ndarray.Float64
}

// gLossCase draws a loss op's inputs (predictions of shape ps, labels, and
// positive weights of the per-example losses' shape ls, a suffix of it or a
// scalar) and a reduction; per builds the per-example losses in gorgonia,
// which the oracle weights and reduces as SameDiff's LossReduce says.
func gLossCase(sdOp string, shapes func(r *rand.Rand) (ps, ls []int, labels *ndarray.Array),
	per func(x []*G.Node, smooth float64) (*G.Node, error)) func(r *rand.Rand) gapp {
	return func(r *rand.Rand) gapp {
		ps, ls, lab := shapes(r)
		ws := ls[r.IntN(len(ls)+1):]
		mode := r.IntN(4)
		smooth := 0.0
		if sdOp == "softmax_cross_entropy_loss" && r.IntN(2) == 0 {
			smooth = 0.3 * r.Float64()
		}
		n := 1
		for _, d := range ls {
			n *= d
		}
		args := ops.Args{I: []int64{int64(mode)}}
		if smooth != 0 {
			args.F = []float64{smooth}
		}
		return gapp{
			in: []*ndarray.Array{gRandn(r, ps...), gUniform(0.5, 2)(r, ws...), lab},
			sd: func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
				return g.Apply(sdOp, args, x[0], x[1], x[2])
			},
			gg: func(x []*G.Node) (*G.Node, error) {
				l, err := per(x, smooth)
				if err != nil {
					return nil, err
				}
				lb, wb, err := gBroadcast(l, x[1])
				if err != nil {
					return nil, err
				}
				wl, err := G.HadamardProd(lb, wb)
				if err != nil || mode == 0 {
					return wl, err
				}
				sum, err := G.Sum(wl)
				if err != nil || mode == 1 {
					return sum, err
				}
				if mode == 2 {
					// Σw over the losses' shape: wb is w broadcast
					// unless w is a scalar.
					if wb.Dims() == 0 {
						wb, err = G.HadamardProd(wb, gConst(wb, float64(n)))
					} else {
						wb, err = G.Sum(wb)
					}
					if err != nil {
						return nil, err
					}
					return G.HadamardDiv(sum, wb)
				}
				return G.HadamardDiv(sum, gConst(sum, float64(n))) // no weight is 0
			},
			desc: fmt.Sprintf("reduction %d, label smoothing %g, weights %v", mode, smooth, ws),
		}
	}
}

// axesFirst is the permutation that brings axes ax to the front, the other
// axes of a rank-n array after them in order: gorgonia reduces the leading
// axes of the transposed node.
func axesFirst(ax []int, n int) []int {
	perm := slices.Clone(ax)
	for i := 0; i < n; i++ {
		if !slices.Contains(ax, i) {
			perm = append(perm, i)
		}
	}
	return perm
}
