package opcases

import (
	"github.com/sdgo/sdgo/autodiff"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	"github.com/sdgo/sdgo/validation"
)

// Gradients through tensor arrays (ops/tensorarray.go's rules and their
// two gradient ops), checked by central differences: straight-line
// graphs that store and give elements in every layout, and loops that
// write and read a tensor array, an RNN's pattern.

func init() {
	elem := ops.Args{D: []ndarray.DType{ndarray.Float64}}
	newTA := func(g *graph.Graph) (h, flow *graph.Variable, err error) {
		outs, err := g.Op("tensorarrayv3", ops.TensorArrayArgs(ndarray.Float64, true), g.Const("", ndarray.Scalar(int32(0))))
		if err != nil {
			return nil, nil, err
		}
		return outs[0], outs[1], nil
	}
	at := func(g *graph.Graph, i int32) *graph.Variable { return g.Const("", ndarray.Scalar(i)) }
	gradCase := func(name string, feeds map[string]*ndarray.Array, build func(g *graph.Graph, p map[string]*graph.Variable) ([]*graph.Variable, error)) func() validation.TestCase {
		return func() validation.TestCase {
			g := graph.New()
			p := map[string]*graph.Variable{}
			for k, v := range feeds {
				p[k] = g.Placeholder(k, v.DType(), v.Shape()...)
			}
			tc := validation.TestCase{Name: name, Graph: g, Feeds: feeds, GradCheck: strict()}
			outs, err := build(g, p)
			if err == nil {
				err = firstError(outs...)
			}
			if err == nil {
				_, err = weightedLoss(g, feeds, seeded(31), outs...)
			}
			tc.BuildErr = err
			return tc
		}
	}

	// Two elements written, then read (element 1 twice, so its gradient
	// adds up), gathered in reverse, stacked and joined.
	registerFor([]string{"tensorarraywritev3", "tensorarrayreadv3", "tensorarraygatherv3", "tensorarraystack", "tensorarrayconcatv3"}, "gradient tensor array write, read, gather, stack, concat",
		gradCase("tensor array gradient", map[string]*ndarray.Array{"a": f64([]int{2}, 0.5, -1), "b": f64([]int{2}, 2, 0.25)},
			func(g *graph.Graph, p map[string]*graph.Variable) ([]*graph.Variable, error) {
				h, flow, err := newTA(g)
				if err != nil {
					return nil, err
				}
				flow = g.Apply("tensorarraywritev3", ops.Args{}, h, at(g, 0), p["a"], flow)
				flow = g.Apply("tensorarraywritev3", ops.Args{}, h, at(g, 1), g.Math().Sin(p["b"]), flow)
				read := g.Apply("tensorarrayreadv3", elem, h, at(g, 1), flow)
				return []*graph.Variable{read, g.Math().Square(read),
					g.Apply("tensorarraygatherv3", elem, h, g.Const("", i32([]int{2}, 1, 0)), flow),
					g.Apply("tensorarraystack", elem, h, flow),
					g.Apply("tensorarrayconcatv3", elem, h, flow)}, nil
			}))

	// scatter, unstack and split store a matrix's rows; reads and a
	// concat give them back.
	registerFor([]string{"tensorarrayscatterv3", "tensorarrayunstack", "tensorarraysplitv3"},
		"gradient tensor array scatter, unstack, split",
		gradCase("tensor array store gradient", map[string]*ndarray.Array{"m": f64([]int{3, 2}, 0.1, -0.7, 1.2, 0.4, -0.3, 0.9)},
			func(g *graph.Graph, p map[string]*graph.Variable) ([]*graph.Variable, error) {
				m := p["m"]
				h1, f1, err := newTA(g)
				if err != nil {
					return nil, err
				}
				f1 = g.Apply("tensorarrayscatterv3", ops.Args{}, h1, g.Const("", i64([]int{3}, 2, 0, 1)), m, f1)
				h2, f2, _ := newTA(g)
				f2 = g.Apply("tensorarrayunstack", ops.Args{}, h2, g.Math().Tanh(m), f2)
				h3, f3, _ := newTA(g)
				f3 = g.Apply("tensorarraysplitv3", ops.Args{}, h3, m.Mul(m), g.Const("", i64([]int{2}, 1, 2)), f3)
				return []*graph.Variable{
					g.Apply("tensorarrayreadv3", elem, h1, at(g, 0), f1),
					g.Apply("tensorarraygatherv3", elem, h1, g.Const("", i64([]int{2}, 1, 2)), f1),
					g.Apply("tensorarrayreadv3", elem, h2, at(g, 2), f2),
					g.Apply("tensorarrayconcatv3", elem, h3, f3)}, nil
			}))

	// An RNN in a loop: the inputs unstacked into one tensor array, read
	// at step i, the state s = tanh(s·w + x_i) written into another at
	// step i, which is stacked after the loop.
	registerFor([]string{"tensorarrayunstack", "tensorarrayreadv3", "tensorarraywritev3", "tensorarraystack"},
		"gradient tensor arrays in a loop",
		gradCase("tensor array loop gradient", map[string]*ndarray.Array{"xs": f64([]int{3, 2}, 0.3, -0.5, 0.8, 0.1, -0.9, 0.6),
			"w": f64([]int{2}, 1.3, -0.7), "s0": f64([]int{2}, 0.2, -0.4)},
			func(g *graph.Graph, p map[string]*graph.Variable) ([]*graph.Variable, error) {
				in, inFlow, err := newTA(g)
				if err != nil {
					return nil, err
				}
				inFlow = g.Apply("tensorarrayunstack", ops.Args{}, in, p["xs"], inFlow)
				out, outFlow, _ := newTA(g)
				exits, err := g.While([]*graph.Variable{at(g, 0), p["s0"], outFlow},
					func(v []*graph.Variable) *graph.Variable { return v[0].Lt(at(g, 3)) },
					func(v []*graph.Variable) []*graph.Variable {
						x := g.Apply("tensorarrayreadv3", elem, in, v[0], inFlow)
						s := g.Math().Tanh(v[1].Mul(p["w"]).Add(x))
						f := g.Apply("tensorarraywritev3", ops.Args{}, out, v[0], s, v[2])
						return []*graph.Variable{v[0].Add(at(g, 1)), s, f}
					})
				if err != nil {
					return nil, err
				}
				return []*graph.Variable{g.Apply("tensorarraystack", elem, out, exits[2]), exits[1]}, nil
			}))

	// The gradient ops' values, worked by hand: out = 3·read(1) + read(0)
	// for a written at 0 and b at 1, so d out/d a = 1, d out/d b = 3; c,
	// stored by a scatter and gathered into the loss twice, gets 2.
	registerFor([]string{"tensorarray_grad_add", "tensorarray_grad_get"}, "forward tensor array gradient graph", func() validation.TestCase {
		g := graph.New()
		feeds := map[string]*ndarray.Array{"a": f64([]int{2}, 1, 2), "b": f64([]int{2}, 3, 4), "c": f64([]int{2, 1}, 5, 6)}
		a, b, c := g.Placeholder("a", ndarray.Float64, 2), g.Placeholder("b", ndarray.Float64, 2), g.Placeholder("c", ndarray.Float64, 2, 1)
		tc := validation.TestCase{Name: "tensor array gradient graph", Graph: g, Feeds: feeds, SkipGradCheck: "the graph is itself a gradient graph"}
		h, flow, err := newTA(g)
		if err != nil {
			tc.BuildErr = err
			return tc
		}
		flow = g.Apply("tensorarraywritev3", ops.Args{}, h, at(g, 0), a, flow)
		flow = g.Apply("tensorarraywritev3", ops.Args{}, h, at(g, 1), b, flow)
		out := g.Apply("tensorarrayreadv3", elem, h, at(g, 1), flow).MulScalar(3).Add(g.Apply("tensorarrayreadv3", elem, h, at(g, 0), flow))
		h2, f2, _ := newTA(g)
		f2 = g.Apply("tensorarrayscatterv3", ops.Args{}, h2, g.Const("", i64([]int{2}, 0, 1)), c, f2)
		gathered := g.Apply("tensorarraygatherv3", elem, h2, g.Const("", i64([]int{1}, -1)), f2)
		total := out.Sum().Add(gathered.Sum()).Add(gathered.Sum())
		if err := total.Err(); err != nil {
			tc.BuildErr = err
			return tc
		}
		grads, err := autodiff.Grad(total, a, b, c)
		if err != nil {
			tc.BuildErr = err
			return tc
		}
		tc.ExpectExact(grads[0].Name(), f64([]int{2}, 1, 1))
		tc.ExpectExact(grads[1].Name(), f64([]int{2}, 3, 3))
		tc.ExpectExact(grads[2].Name(), f64([]int{2, 1}, 2, 2))
		return tc
	})

	// concat's second output, with bool arg 0: the elements' lengths.
	registerFor([]string{"tensorarrayconcatv3"}, "forward tensor array concat lengths", func() validation.TestCase {
		g := graph.New()
		m := g.Placeholder("m", ndarray.Float64, 3, 2)
		tc := validation.TestCase{Name: "tensor array concat lengths", Graph: g, SkipGradCheck: "forward values only",
			Feeds: map[string]*ndarray.Array{"m": f64([]int{3, 2}, 1, 2, 3, 4, 5, 6)}}
		h, flow, err := newTA(g)
		if err != nil {
			tc.BuildErr = err
			return tc
		}
		flow = g.Apply("tensorarraysplitv3", ops.Args{}, h, m, g.Const("", i64([]int{3}, 2, 0, 1)), flow)
		outs, err := g.Op("tensorarrayconcatv3", ops.Args{D: elem.D, B: []bool{true}}, h, flow)
		if err != nil {
			tc.BuildErr = err
			return tc
		}
		tc.ExpectExact(outs[0].Name(), f64([]int{3, 2}, 1, 2, 3, 4, 5, 6))
		tc.ExpectExact(outs[1].Name(), i64([]int{3}, 2, 0, 1))
		return tc
	})
}
