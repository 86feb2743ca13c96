package autodiff_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ndarray/densetensor"
	"github.com/sdgo/sdgo/ops"
	"github.com/sdgo/sdgo/ops/createview"
	"github.com/sdgo/sdgo/validation/opcases"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// More ops against gorgonia, in TestOpsAgainstGorgonia: comparisons,
// floordiv and floormod, reduce_prod, unstack, pad, create_view, the writes
// through views, reduce_to_shape_of. Where gorgonia has no such op the
// oracle is built from gorgonia ops it has (each case says how).

// gTies returns halves from -1 to 1, so that comparisons meet equal values.
func gTies(r *rand.Rand, shape ...int) *ndarray.Array {
	a := gRandn(r, shape...).Float64s()
	for i := range a {
		a[i] = float64(r.IntN(5)-2) / 2
	}
	return ndarray.Must(ndarray.Wrap(a, shape...))
}

// gCompare is a comparison: sdgo's gives BOOL, gorgonia's (retSame) 1 and 0
// in the inputs' dtype; values only, neither has a gradient.
func gCompare(sdOp string, f func(a, b *G.Node, retSame bool) (*G.Node, error)) func(r *rand.Rand) gapp {
	return fwdOnly(gBinaryOp(sdOp, gTies, gTies, func(a, b *G.Node) (*G.Node, error) { return f(a, b, true) }))
}

// gShapeMin2 is gShape with every size at least 2: gorgonia's Slice drops
// axes of size 1 (see gStridedSlice).
func gShapeMin2(r *rand.Rand, lo, hi int) []int {
	s := gShape(r, lo, hi)
	for i := range s {
		s[i] = max(s[i], 2)
	}
	return s
}

// gSliceAxis is x[..., start:end:step, ...] along axis in gorgonia, the
// result reshaped to keep the axis (gorgonia's Slice drops an axis left
// with one element). One axis at a time: Slice of several miscounts axes
// after a dropped one (see gStridedSlice). A step that does not divide
// end-start (whose length gorgonia gets wrong, see gStridedSlice) is a
// concat of the rows one by one.
func gSliceAxis(x *G.Node, axis, start, end, step int) (*G.Node, error) {
	s := slices.Clone([]int(x.Shape()))
	if start == 0 && end == s[axis] && step == 1 {
		return x, nil
	}
	if (end-start)%step != 0 {
		var rows []*G.Node
		for i := start; i < end; i += step {
			row, err := gSliceAxis(x, axis, i, i+1, 1)
			if err != nil {
				return nil, err
			}
			rows = append(rows, row)
		}
		if len(rows) == 1 {
			return rows[0], nil
		}
		return G.Concat(axis, rows...)
	}
	gs := make([]tensor.Slice, axis+1)
	gs[axis] = G.S(start, end, step)
	y, err := G.Slice(x, gs...)
	if err != nil {
		return nil, err
	}
	s[axis] = (end - start + step - 1) / step
	if slices.Equal([]int(y.Shape()), s) {
		return y, nil
	}
	return G.Reshape(y, s)
}

// gPoint is x[..., i, ...] along axis in gorgonia, the axis dropped.
func gPoint(x *G.Node, axis, i int) (*G.Node, error) {
	y, err := gSliceAxis(x, axis, i, i+1, 1)
	if err != nil {
		return nil, err
	}
	s := slices.Delete(slices.Clone([]int(y.Shape())), axis, axis+1)
	if len(s) == 0 {
		return G.Sum(y) // gorgonia's scalars do not come from Reshape
	}
	return G.Reshape(y, s)
}

func gMoreOps() []gop {
	return []gop{
		{"equals", gCompare("equals", G.Eq)},
		{"not_equals", gCompare("not_equals", G.Ne)},
		{"greater", gCompare("greater", G.Gt)},
		{"greater_equal", gCompare("greater_equal", G.Gte)},
		{"less", gCompare("less", G.Lt)},
		{"less_equal", gCompare("less_equal", G.Lte)},
		// floor(x/y): gorgonia has no floor division; values only, as
		// gorgonia's Floor has no gradient (nor has sdgo's floordiv).
		{"floordiv", fwdOnly(gBinaryOp("floordiv", gRandn, gAway(0.5, 2), func(a, b *G.Node) (*G.Node, error) {
			q, err := G.HadamardDiv(a, b)
			if err != nil {
				return nil, err
			}
			return G.Floor(q)
		}))},
		// x - floor(x/y)·y, Python's %, the sign of y's: gorgonia.org/
		// tensor's Mod is C's fmod (the sign of x's) and gorgonia has no
		// graph op for either, so the oracle is the formula.
		{"floormod", fwdOnly(gBinaryOp("floormod", gRandn, gAway(0.5, 2), func(a, b *G.Node) (*G.Node, error) {
			q, err := G.HadamardDiv(a, b)
			if err != nil {
				return nil, err
			}
			if q, err = G.Floor(q); err != nil {
				return nil, err
			}
			if q, err = G.HadamardProd(q, b); err != nil {
				return nil, err
			}
			return G.Sub(a, q)
		}))},
		// Π x = exp Σ log x on positive x: gorgonia has no product
		// reduction. Zeros and negative values are left to the op's
		// forward cases and the central-difference test.
		{"reduce_prod", gReduction("reduce_prod", gUniform(0.5, 2), G.Log, G.Sum, G.Exp)},
		{"unstack", gUnstackCase},
		{"pad, constant", gPadCase(ops.PadConstant)},
		{"pad, reflect", gPadCase(ops.PadReflect)},
		{"pad, symmetric", gPadCase(ops.PadSymmetric)},
		{"create_view", gCreateViewCase},
		{"view_assign", gViewWriteCase(createview.OpAssign)},
		{"view_add", gViewWriteCase(createview.OpAdd)},
		{"view_sub", gViewWriteCase(createview.OpSub)},
		{"view_mul", gViewWriteCase(createview.OpMul)},
		{"view_div", gViewWriteCase(createview.OpDiv)},
		{"reduce_to_shape_of", gReduceToShapeCase},
	}
}

// gUnstackCase takes one of unstack's outputs (the others unused, so that
// their gradients are missing): in gorgonia the axis moved to the front,
// the rest flattened, row k, reshaped.
func gUnstackCase(r *rand.Rand) gapp {
	s := gShapeMin2(r, 1, 3)
	ax := r.IntN(len(s))
	k := r.IntN(s[ax])
	sdAx := ax - len(s)*r.IntN(2)
	rest := slices.Delete(slices.Clone(s), ax, ax+1)
	n := 1
	for _, d := range rest {
		n *= d
	}
	return gapp{
		in: []*ndarray.Array{gRandn(r, s...)},
		sd: func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
			outs, err := g.Op("unstack", ops.Args{I: []int64{int64(sdAx)}}, x[0])
			if err != nil {
				return g.Apply("unstack", ops.Args{I: []int64{int64(sdAx)}}, x[0])
			}
			return outs[k]
		},
		gg: func(x []*G.Node) (*G.Node, error) {
			if len(rest) == 0 {
				return gPoint(x[0], 0, k)
			}
			perm := append([]int{ax}, slices.Delete(intRange(len(s)), ax, ax+1)...)
			y, err := G.Transpose(x[0], perm...)
			if err != nil {
				return nil, err
			}
			if y, err = G.Reshape(y, []int{s[ax], n}); err != nil {
				return nil, err
			}
			if y, err = gPoint(y, 0, k); err != nil {
				return nil, err
			}
			return G.Reshape(y, rest)
		},
		desc: fmt.Sprintf("axis %d, output %d", sdAx, k),
	}
}

// gPadCase pads with a constant (float arg or a scalar input, whose
// gradient is compared too), reflected or symmetric borders. In gorgonia
// each axis is a concat: blocks of the constant (ones times it), or the
// mirrored rows one by one.
func gPadCase(mode int) func(r *rand.Rand) gapp {
	return func(r *rand.Rand) gapp { return gPad(r, mode) }
}

func gPad(r *rand.Rand, mode int) gapp {
	s := gShapeMin2(r, 1, 3)
	constIn := mode == ops.PadConstant && r.IntN(2) == 0
	value := 0.0
	if mode == ops.PadConstant && !constIn && r.IntN(2) == 0 {
		value = r.NormFloat64()
	}
	p := make([]int, 2*len(s))
	for i, d := range s {
		lim := 3
		switch mode {
		case ops.PadReflect:
			lim = d - 1
		case ops.PadSymmetric:
			lim = d
		}
		lim = min(lim, 4) // under gLong, gorgonia's row-by-row mirror is slow
		p[2*i], p[2*i+1] = r.IntN(lim+1), r.IntN(lim+1)
	}
	in := []*ndarray.Array{gRandn(r, s...)}
	if constIn {
		in = append(in, gRandn(r))
	}
	args := ops.Args{I: []int64{int64(mode)}}
	if value != 0 {
		args.F = []float64{value}
	}
	return gapp{
		in: in,
		sd: func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
			pads := g.Const("", ndarray.Must(ndarray.FromSlice(i64(p), len(s), 2)))
			return g.Apply("pad", args, append([]*graph.Variable{x[0], pads}, x[1:]...)...)
		},
		gg: func(x []*G.Node) (*G.Node, error) {
			y := x[0]
			for ax := range s {
				before, after := p[2*ax], p[2*ax+1]
				if before == 0 && after == 0 {
					continue
				}
				n := y.Shape()[ax]
				var parts []*G.Node
				block := func(k int) (*G.Node, error) {
					bs := slices.Clone([]int(y.Shape()))
					bs[ax] = k
					ones := G.NewTensor(y.Graph(), y.Dtype(), len(bs), G.WithShape(bs...), G.WithInit(G.Ones()))
					c := gConst(y, value)
					if constIn {
						c = x[1]
					}
					return G.HadamardProd(ones, c)
				}
				row := func(i int) (*G.Node, error) { return gSliceAxis(y, ax, i, i+1, 1) }
				var mirror []int // the rows before, then the rows after
				switch mode {
				case ops.PadReflect:
					for i := before; i >= 1; i-- {
						mirror = append(mirror, i)
					}
					for i := range after {
						mirror = append(mirror, n-2-i)
					}
				case ops.PadSymmetric:
					for i := before - 1; i >= 0; i-- {
						mirror = append(mirror, i)
					}
					for i := range after {
						mirror = append(mirror, n-1-i)
					}
				}
				add := func(k int, lo, hi int) error {
					if k == 0 {
						return nil
					}
					if mode == ops.PadConstant {
						b, err := block(k)
						parts = append(parts, b)
						return err
					}
					for _, i := range mirror[lo:hi] {
						b, err := row(i)
						if err != nil {
							return err
						}
						parts = append(parts, b)
					}
					return nil
				}
				if err := add(before, 0, before); err != nil {
					return nil, err
				}
				parts = append(parts, y)
				if err := add(after, before, before+after); err != nil {
					return nil, err
				}
				var err error
				if y, err = G.Concat(ax, parts...); err != nil {
					return nil, err
				}
			}
			return y, nil
		},
		desc: fmt.Sprintf("mode %d, paddings %v, value %g, constant input %v", mode, p, value, constIn),
	}
}

// gCreateViewCase draws a view: per axis a point (negative now and then),
// an interval of step 1 or 2 (negative bounds, inclusive ends now and
// then), or the whole axis, with a new axis inserted now and then. In
// gorgonia, the axes are sliced one at a time from the last, and new axes
// are a reshape.
func gCreateViewCase(r *rand.Rand) gapp {
	s := gShapeMin2(r, 1, 4)
	type cut struct{ point, start, end, step int }
	var idx []createview.Index
	cuts := make([]cut, len(s))
	var out []int
	var desc []string
	for i, d := range s {
		if r.IntN(6) == 0 {
			idx = append(idx, createview.NewAxis())
			out = append(out, 1)
			desc = append(desc, "new")
		}
		switch r.IntN(4) {
		case 0:
			p := r.IntN(d)
			cuts[i] = cut{point: 1, start: p}
			q := p
			if r.IntN(2) == 0 {
				q -= d
			}
			idx = append(idx, createview.Point(q))
			desc = append(desc, fmt.Sprint(q))
		case 1:
			cuts[i] = cut{start: 0, end: d, step: 1}
			idx = append(idx, createview.All())
			out = append(out, d)
			desc = append(desc, ":")
		default:
			st := 1 + r.IntN(2)
			n := 1 + r.IntN((d+st-1)/st) // 1..ceil(d/st) elements
			b := r.IntN(d - (n-1)*st)
			e := b + (n-1)*st + 1 // exclusive, just past the last one
			cuts[i] = cut{start: b, end: e, step: st}
			out = append(out, n)
			sb, se, incl := b, e, false
			if r.IntN(3) == 0 {
				se, incl = e-1, true
			}
			if r.IntN(3) == 0 {
				sb -= d
			}
			if r.IntN(3) == 0 && se < d {
				se -= d
			}
			idx = append(idx, createview.IntervalStep(sb, se, st, incl))
			desc = append(desc, createview.IntervalStep(sb, se, st, incl).String())
		}
	}
	if r.IntN(6) == 0 {
		idx = append(idx, createview.NewAxis())
		out = append(out, 1)
		desc = append(desc, "new")
	}
	return gapp{
		in: []*ndarray.Array{gRandn(r, s...)},
		sd: func(g *graph.Graph, x []*graph.Variable) *graph.Variable { return x[0].View(idx...) },
		gg: func(x []*G.Node) (*G.Node, error) {
			y := x[0]
			var err error
			for ax := len(s) - 1; ax >= 0; ax-- {
				c := cuts[ax]
				if c.point == 1 {
					// Keep the axis until the end: gPoint makes
					// a scalar of a vector's point, which the
					// slices of earlier axes cannot take.
					y, err = gSliceAxis(y, ax, c.start, c.start+1, 1)
				} else {
					y, err = gSliceAxis(y, ax, c.start, c.end, c.step)
				}
				if err != nil {
					return nil, err
				}
			}
			if len(out) == 0 {
				return G.Sum(y)
			}
			if slices.Equal([]int(y.Shape()), out) {
				return y, nil
			}
			return G.Reshape(y, out)
		},
		desc: fmt.Sprintf("x[%v]", desc),
	}
}

// gViewWriteCase writes a value (broadcast to the view) into a view that
// is an interval or a point of one axis of x. In gorgonia the result is a
// concat of the rows before, the region combined with the value, and the
// rows after; assign is the region times 0 plus the value.
func gViewWriteCase(op string) func(r *rand.Rand) gapp {
	return func(r *rand.Rand) gapp {
		s := gShapeMin2(r, 1, 3)
		ax := r.IntN(len(s))
		d := s[ax]
		point := r.IntN(3) == 0
		var b, e int
		if point {
			b = r.IntN(d)
			e = b + 1
		} else {
			b = r.IntN(d)
			e = b + 1 + r.IntN(d-b)
		}
		idx := make([]createview.Index, ax+1)
		for i := range ax {
			idx[i] = createview.All()
		}
		view := slices.Clone(s)
		view[ax] = e - b
		if point {
			q := b - d*r.IntN(2)
			idx[ax] = createview.Point(q)
			view = slices.Delete(view, ax, ax+1)
		} else {
			idx[ax] = createview.Interval(b, e)
		}
		// The value: the view's shape, or a suffix of it, sizes made 1
		// now and then.
		vs := slices.Clone(view)
		if r.IntN(2) == 0 {
			vs = vs[r.IntN(len(vs)+1):]
		}
		for i := range vs {
			if r.IntN(3) == 0 {
				vs[i] = 1
			}
		}
		vals := gvals(gRandn)
		if op == createview.OpDiv {
			vals = gAway(0.5, 2)
		}
		return gapp{
			in: []*ndarray.Array{gRandn(r, s...), vals(r, vs...)},
			sd: func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
				v := x[0].View(idx...)
				switch op {
				case createview.OpAssign:
					return v.Assign(x[1])
				case createview.OpAdd:
					return v.AddAssign(x[1])
				case createview.OpSub:
					return v.SubAssign(x[1])
				case createview.OpMul:
					return v.MulAssign(x[1])
				}
				return v.DivAssign(x[1])
			},
			gg: func(x []*G.Node) (*G.Node, error) {
				mid, err := gSliceAxis(x[0], ax, b, e, 1)
				if err != nil {
					return nil, err
				}
				if point {
					if mid, err = gPoint(mid, ax, 0); err != nil {
						return nil, err
					}
				}
				var nm *G.Node
				switch op {
				case createview.OpAssign:
					z, err := G.HadamardProd(mid, gConst(mid, 0))
					if err != nil {
						return nil, err
					}
					nm, err = gBinary(G.Add)([]*G.Node{z, x[1]})
					if err != nil {
						return nil, err
					}
				case createview.OpAdd:
					nm, err = gBinary(G.Add)([]*G.Node{mid, x[1]})
				case createview.OpSub:
					nm, err = gBinary(G.Sub)([]*G.Node{mid, x[1]})
				case createview.OpMul:
					nm, err = gBinary(G.HadamardProd)([]*G.Node{mid, x[1]})
				default:
					nm, err = gBinary(G.HadamardDiv)([]*G.Node{mid, x[1]})
				}
				if err != nil {
					return nil, err
				}
				ms := slices.Clone(s)
				ms[ax] = e - b
				if !slices.Equal([]int(nm.Shape()), ms) {
					if nm, err = G.Reshape(nm, ms); err != nil {
						return nil, err
					}
				}
				parts := []*G.Node{nm}
				if b > 0 {
					pre, err := gSliceAxis(x[0], ax, 0, b, 1)
					if err != nil {
						return nil, err
					}
					parts = append([]*G.Node{pre}, parts...)
				}
				if e < d {
					post, err := gSliceAxis(x[0], ax, e, d, 1)
					if err != nil {
						return nil, err
					}
					parts = append(parts, post)
				}
				if len(parts) == 1 {
					return parts[0], nil
				}
				return G.Concat(ax, parts...)
			},
			desc: fmt.Sprintf("%s into x%v, value of shape %v", op, idx, vs),
		}
	}
}

// gReduceToShapeCase sums x down to a shape it broadcasts from: in
// gorgonia the summed axes moved to the front and summed one at a time
// (as gReduction, and for the same reason), then reshaped.
func gReduceToShapeCase(r *rand.Rand) gapp {
	full := gShape(r, 1, 4)
	k := len(full) - r.IntN(len(full)+1)
	to := slices.Clone(full[len(full)-k:])
	for i := range to {
		if r.IntN(3) == 0 {
			to[i] = 1
		}
	}
	lead := len(full) - len(to)
	var ax []int
	for i := range full {
		if i < lead || (to[i-lead] == 1 && full[i] != 1) {
			ax = append(ax, i)
		}
	}
	return gapp{
		in: []*ndarray.Array{gRandn(r, full...)},
		sd: func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
			return g.Apply("reduce_to_shape_of", ops.Args{}, x[0], g.Const("", ndarray.Must(ndarray.Zeros(ndarray.Float32, to...))))
		},
		gg: func(x []*G.Node) (*G.Node, error) {
			y := x[0]
			if len(ax) == 0 {
				return y, nil
			}
			var err error
			perm := axesFirst(ax, len(full))
			if !slices.IsSorted(perm) {
				if y, err = G.Transpose(y, perm...); err != nil {
					return nil, err
				}
			}
			if len(ax) == len(full) {
				if y, err = G.Reshape(y, []int{y.Shape().TotalSize()}); err != nil {
					return nil, err
				}
				if y, err = G.Sum(y, 0); err != nil {
					return nil, err
				}
			} else {
				for range ax {
					if y, err = G.Sum(y, 0); err != nil {
						return nil, err
					}
				}
			}
			if len(to) == 0 {
				return y, nil
			}
			return G.Reshape(y, to)
		},
		desc: fmt.Sprintf("to shape %v", to),
	}
}

// TestArgMaxAgainstTensor compares argmax and argmin (which gorgonia's
// graph does not have) with gorgonia.org/tensor's Argmax and Argmin, on
// random shapes and axes, values with ties (both take the first) and NaN, in both
// dtypes, the input a plain array and a view.
func TestArgMaxAgainstTensor(t *testing.T) {
	for seed := uint64(1); seed <= 12; seed++ {
		r := rand.New(rand.NewPCG(seed, 99))
		s := gShape(r, 1, 4)
		ax := r.IntN(len(s))
		sdAx := ax - len(s)*r.IntN(2)
		vals := gvals(opcases.Distinct)
		if seed%2 == 0 {
			vals = gTies
		}
		x64 := vals(r, s...)
		if seed%3 == 0 {
			// NaN: both take it as the largest and the smallest.
			v := x64.Float64s()
			v[r.IntN(len(v))] = math.NaN()
			x64 = ndarray.Must(ndarray.Wrap(v, s...))
		}
		for _, dt := range []ndarray.DType{ndarray.Float64, ndarray.Float32} {
			x := ndarray.Must(ndarray.Cast(x64, dt))
			d, err := densetensor.ToDense(ndarray.Must(ndarray.Copy(x)))
			if err != nil {
				t.Fatal(err)
			}
			for _, views := range []bool{false, true} {
				g := graph.New()
				var in *graph.Variable
				if views {
					base, idx, _ := gViewOf(r, x)
					in = g.Var("base", base).View(idx...)
				} else {
					in = g.Var("x", x)
				}
				ys := []*graph.Variable{in.ArgMax(sdAx), in.ArgMin(sdAx)}
				out, err := exec.Output(g, nil, names(ys)...)
				if err != nil {
					t.Fatal(err)
				}
				for i, f := range []func(tensor.Tensor, int) (tensor.Tensor, error){tensor.Argmax, tensor.Argmin} {
					want, err := f(d, ax)
					if err != nil {
						t.Fatal(err)
					}
					got := out[ys[i].Name()]
					wi := want.Data()
					var wv []int
					switch w := wi.(type) {
					case []int:
						wv = w
					case int:
						wv = []int{w}
					default:
						t.Fatalf("tensor's %T", wi)
					}
					if !slices.Equal(got.Shape(), []int(want.Shape())) && !(got.Rank() == 0 && want.Shape().IsScalar()) {
						t.Errorf("seed %d %v views %v: %s along %d of %v: shape %v, tensor's %v", seed, dt, views, []string{"argmax", "argmin"}[i], sdAx, s, got.Shape(), want.Shape())
						continue
					}
					gv := got.Int64s()
					for j := range gv {
						if gv[j] != int64(wv[j]) {
							t.Errorf("seed %d %v views %v: %s along %d of %v = %v, tensor's %v (x %v)", seed, dt, views, []string{"argmax", "argmin"}[i], sdAx, s, gv, wv, x.Float64s())
							break
						}
					}
				}
			}
		}
	}
}
