package opcases

import (
	"github.com/sdgo/sdgo/autodiff"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	"github.com/sdgo/sdgo/validation"
)

// Cases of the control-flow primitives (ops/control.go), built with the
// graph builder's If and While, which lower to them as SameDiff files hold
// them. The primitives have no gradient rules.

// registerFor registers one case under several ops (those its graph uses).
func registerFor(opNames []string, name string, build func() validation.TestCase) {
	for _, op := range opNames {
		Register(op, name, build)
	}
}

func init() {
	ifCase := func(cond bool) func() validation.TestCase {
		return func() validation.TestCase {
			g := graph.New()
			x := g.Placeholder("x", ndarray.Float64, 3)
			c := g.Placeholder("c", ndarray.Bool)
			tc := validation.TestCase{Name: "if", Graph: g, SkipGradCheck: "control-flow ops have no gradient rules",
				Feeds: map[string]*ndarray.Array{"x": f64([]int{3}, 1, -2, 0.5), "c": ndarray.Scalar(cond)}}
			out, err := g.If(c, []*graph.Variable{x},
				func(in []*graph.Variable) []*graph.Variable { return []*graph.Variable{in[0].MulScalar(2)} },
				func(in []*graph.Variable) []*graph.Variable { return []*graph.Variable{in[0].AddScalar(1)} })
			if err != nil {
				tc.BuildErr = err
				return tc
			}
			want := f64([]int{3}, 2, -1, 1.5) // the else branch: x+1
			if cond {
				want = f64([]int{3}, 2, -4, 1) // the then branch: 2x
			}
			tc.ExpectExact(out[0].Name(), want)
			return tc
		}
	}
	registerFor([]string{"switch", "merge"}, "forward if, condition true", ifCase(true))
	registerFor([]string{"switch", "merge"}, "forward if, condition false", ifCase(false))

	// i, acc := 0, x; while i < n { i, acc = i+1, acc*2 }
	whileCase := func(n float64, wantI float64, wantAcc *ndarray.Array) func() validation.TestCase {
		return func() validation.TestCase {
			g := graph.New()
			x := g.Placeholder("x", ndarray.Float64, 2)
			limit := g.Placeholder("n", ndarray.Float64)
			tc := validation.TestCase{Name: "while", Graph: g, SkipGradCheck: "control-flow ops have no gradient rules",
				Feeds: map[string]*ndarray.Array{"x": f64([]int{2}, 1, -0.5), "n": ndarray.Scalar(n)}}
			out, err := g.While([]*graph.Variable{g.Scalar(ndarray.Float64, 0), x},
				func(v []*graph.Variable) *graph.Variable { return v[0].Lt(limit) },
				func(v []*graph.Variable) []*graph.Variable {
					return []*graph.Variable{v[0].AddScalar(1), v[1].MulScalar(2)}
				})
			if err != nil {
				tc.BuildErr = err
				return tc
			}
			tc.ExpectExact(out[0].Name(), ndarray.Scalar(wantI))
			tc.ExpectExact(out[1].Name(), wantAcc)
			return tc
		}
	}
	loopOps := []string{"enter", "merge", "loop_cond", "switch", "exit", "next_iteration"}
	registerFor(loopOps, "forward while, five iterations", whileCase(5, 5, f64([]int{2}, 32, -16)))
	registerFor(loopOps, "forward while, no iteration", whileCase(0, 0, f64([]int{2}, 1, -0.5)))
}

func init() {
	P := func(g *graph.Graph, name string, a *ndarray.Array) *graph.Variable {
		return g.Placeholder(name, a.DType(), a.Shape()...)
	}
	// Gradients through a conditional: switch's and merge's rules (route
	// carries the gradient along the branch taken).
	ifGrad := func(cond bool) func() validation.TestCase {
		return func() validation.TestCase {
			g := graph.New()
			xv := f64([]int{2, 2}, 0.3, -1.1, 0.8, 2.1)
			feeds := map[string]*ndarray.Array{"x": xv, "c": ndarray.Scalar(cond)}
			x, c := P(g, "x", xv), g.Placeholder("c", ndarray.Bool)
			tc := validation.TestCase{Name: "if gradient", Graph: g, Feeds: feeds, GradCheck: strict()}
			out, err := g.If(c, []*graph.Variable{x},
				func(in []*graph.Variable) []*graph.Variable { return []*graph.Variable{g.Math().Square(in[0])} },
				func(in []*graph.Variable) []*graph.Variable { return []*graph.Variable{g.Math().Sin(in[0])} })
			if err == nil {
				_, err = weightedLoss(g, feeds, seeded(7), out...)
			}
			tc.BuildErr = err
			return tc
		}
	}
	registerFor([]string{"switch", "merge"}, "gradient if, condition true", ifGrad(true))
	registerFor([]string{"switch", "merge"}, "gradient if, condition false", ifGrad(false))

	// route on its own: input 0 passed on.
	forward("route", "route", ops.Args{}, []*ndarray.Array{f64([]int{2}, 1.5, -2), f64([]int{1}, 9)}, []*ndarray.Array{f64([]int{2}, 1.5, -2)}, 0)
	gradient("route", "route", ops.Args{}, []input{in(f64([]int{2, 3}, 0.1, -0.2, 0.3, 1, 2, -3)), fixed(f64([]int{1}, 9))})

	// Gradients through a loop: x·w three times, w read from outside the
	// loop (loop-invariant) and x carried round.
	whileGrad := func() validation.TestCase {
		g := graph.New()
		xv, wv := f64([]int{2}, 0.7, -1.3), f64([]int{2}, 1.1, 0.9)
		feeds := map[string]*ndarray.Array{"x": xv, "w": wv}
		x, w := P(g, "x", xv), P(g, "w", wv)
		tc := validation.TestCase{Name: "while gradient", Graph: g, Feeds: feeds, GradCheck: strict()}
		out, err := g.While([]*graph.Variable{g.Scalar(ndarray.Float64, 0), x},
			func(v []*graph.Variable) *graph.Variable { return v[0].Lt(g.Scalar(ndarray.Float64, 3)) },
			func(v []*graph.Variable) []*graph.Variable {
				return []*graph.Variable{v[0].AddScalar(1), g.Math().Tanh(v[1].Mul(w))}
			})
		if err == nil {
			_, err = weightedLoss(g, feeds, seeded(9), out[1])
		}
		tc.BuildErr = err
		return tc
	}
	registerFor([]string{"enter", "merge", "loop_cond", "switch", "exit", "next_iteration"}, "gradient while", whileGrad)

	// The backward loop's own ops, loop_count and loop_value, in the graph
	// of a loop's gradient: x·1.5 three times has the gradient 1.5³ = 3.375
	// for each element of x.
	registerFor([]string{"loop_count", "loop_value"}, "forward gradient of a loop", func() validation.TestCase {
		g := graph.New()
		x := g.Placeholder("x", ndarray.Float64, 2)
		tc := validation.TestCase{Name: "loop gradient graph", Graph: g,
			SkipGradCheck: "the graph is itself a gradient graph",
			Feeds:         map[string]*ndarray.Array{"x": f64([]int{2}, 0.5, -2)}}
		out, err := g.While([]*graph.Variable{g.Scalar(ndarray.Float64, 0), x},
			func(v []*graph.Variable) *graph.Variable { return v[0].Lt(g.Scalar(ndarray.Float64, 3)) },
			func(v []*graph.Variable) []*graph.Variable {
				return []*graph.Variable{v[0].AddScalar(1), v[1].Mul(v[1]).Div(v[1]).MulScalar(1.5)}
			})
		if err != nil {
			tc.BuildErr = err
			return tc
		}
		grads, err := autodiff.Grad(out[1].Sum(), x)
		if err != nil {
			tc.BuildErr = err
			return tc
		}
		tc.ExpectTol(out[1].Name(), f64([]int{2}, 0.5*3.375, -2*3.375), 1e-12)
		tc.ExpectTol(grads[0].Name(), f64([]int{2}, 3.375, 3.375), 1e-12)
		return tc
	})
}
