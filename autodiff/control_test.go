package autodiff_test

import (
	"math"
	"testing"

	"github.com/sdgo/sdgo/autodiff"
	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// checkCentral compares autodiff's gradients of loss with respect to the
// placeholders with central differences, for the given feeds.
func checkCentral(t *testing.T, g *graph.Graph, loss *graph.Variable, feeds map[string]*ndarray.Array, wrt ...string) {
	t.Helper()
	vars := make([]*graph.Variable, len(wrt))
	for i, n := range wrt {
		v, ok := g.Variable(n)
		if !ok {
			t.Fatalf("no variable %q", n)
		}
		vars[i] = v
	}
	grads, err := autodiff.Grad(loss, vars...)
	if err != nil {
		t.Fatal(err)
	}
	s := exec.New(g)
	res, err := s.Output(feeds, names(grads)...)
	if err != nil {
		t.Fatal(err)
	}
	at := func(name string, a *ndarray.Array) float64 {
		f := map[string]*ndarray.Array{}
		for k, v := range feeds {
			f[k] = v
		}
		f[name] = a
		out, err := s.Output(f, loss.Name())
		if err != nil {
			t.Fatal(err)
		}
		return out[loss.Name()].Float()
	}
	const eps = 1e-6
	for k, n := range wrt {
		x := feeds[n]
		analytic := res[grads[k].Name()].Float64s()
		vals := x.Float64s()
		for j := range vals {
			plus := append([]float64(nil), vals...)
			minus := append([]float64(nil), vals...)
			plus[j] += eps
			minus[j] -= eps
			num := (at(n, ndarray.Must(ndarray.FromSlice(plus, x.Shape()...))) - at(n, ndarray.Must(ndarray.FromSlice(minus, x.Shape()...)))) / (2 * eps)
			a := analytic[j]
			if math.Abs(a-num) > 1e-6*(math.Abs(a)+math.Abs(num)) && math.Abs(a-num) > 1e-8 {
				t.Errorf("d/d%s[%d]: analytic %.10g, numeric %.10g", n, j, a, num)
			}
		}
	}
}

func TestGradientThroughIf(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 3)
	w := g.Placeholder("w", ndarray.Float64, 3)
	p := g.Placeholder("p", ndarray.Bool)
	// then: tanh(x)·w (w captured from outside); else: x³ (w unused).
	out, err := g.If(p, []*graph.Variable{x},
		func(in []*graph.Variable) []*graph.Variable { return []*graph.Variable{g.Math().Tanh(in[0]).Mul(w)} },
		func(in []*graph.Variable) []*graph.Variable { return []*graph.Variable{in[0].PowScalar(3)} })
	if err != nil {
		t.Fatal(err)
	}
	loss := out[0].Mul(x).Sum()
	for _, pv := range []bool{true, false} {
		feeds := map[string]*ndarray.Array{
			"x": ndarray.Must(ndarray.FromSlice([]float64{0.3, -1.2, 2})),
			"w": ndarray.Must(ndarray.FromSlice([]float64{1.5, 0.5, -2})),
			"p": ndarray.Scalar(pv),
		}
		checkCentral(t, g, loss, feeds, "x", "w")
	}
}

// A loop that runs a data-dependent number of times: while s < limit:
// s = s·a + b (elementwise, summed for the test), with a, b read from
// outside. The number of iterations depends on the inputs.
func TestGradientThroughWhile(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 2)
	a := g.Placeholder("a", ndarray.Float64, 2)
	limit := g.Placeholder("limit", ndarray.Float64)
	out, err := g.While([]*graph.Variable{x, g.Scalar(ndarray.Float64, 0)},
		func(v []*graph.Variable) *graph.Variable { return v[0].Sum().Lt(limit) },
		func(v []*graph.Variable) []*graph.Variable {
			next := g.Math().Tanh(v[0].Mul(a)).Add(v[0]).AddScalar(0.5)
			return []*graph.Variable{next, v[1].AddScalar(1)}
		})
	if err != nil {
		t.Fatal(err)
	}
	loss := g.Math().Square(out[0]).Sum().Named("loss")
	iters := out[1].Named("iterations")
	for _, c := range []struct {
		x, lim float64
		runs   float64
	}{
		{5, 1, 0}, // the condition is false at once
		{0.2, 1.2, 1},
		{0.1, 8, -1}, // several iterations
	} {
		feeds := map[string]*ndarray.Array{
			"x":     ndarray.Must(ndarray.FromSlice([]float64{c.x, c.x / 2})),
			"a":     ndarray.Must(ndarray.FromSlice([]float64{0.7, -0.4})),
			"limit": ndarray.Scalar(c.lim),
		}
		res, err := exec.Output(g, feeds, iters.Name())
		if err != nil {
			t.Fatal(err)
		}
		n := res[iters.Name()].Float()
		if c.runs >= 0 && n != c.runs {
			t.Errorf("limit %v: %v iterations, want %v", c.lim, n, c.runs)
		}
		if c.runs < 0 && n < 3 {
			t.Errorf("limit %v: only %v iterations", c.lim, n)
		}
		checkCentral(t, g, loss, feeds, "x", "a")
	}
}

// Nested loops with a conditional inside, and a loop inside a conditional.
func TestGradientThroughNestedControlFlow(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 2)
	w := g.Placeholder("w", ndarray.Float64, 2)
	n := g.Placeholder("n", ndarray.Float64)
	zero := g.Scalar(ndarray.Float64, 0)
	one := g.Scalar(ndarray.Float64, 1)
	out, err := g.While([]*graph.Variable{n, x},
		func(v []*graph.Variable) *graph.Variable { return v[0].Gt(zero) },
		func(v []*graph.Variable) []*graph.Variable {
			// inner: repeat j = i times: y = y·w + sin(y) if sum(y) > 0 else y·0.9
			inner, err := g.While([]*graph.Variable{v[0], v[1]},
				func(u []*graph.Variable) *graph.Variable { return u[0].Gt(zero) },
				func(u []*graph.Variable) []*graph.Variable {
					y, err := g.If(u[1].Sum().Gt(zero), []*graph.Variable{u[1]},
						func(in []*graph.Variable) []*graph.Variable {
							return []*graph.Variable{in[0].Mul(w).Add(g.Math().Sin(in[0]))}
						},
						func(in []*graph.Variable) []*graph.Variable { return []*graph.Variable{in[0].MulScalar(0.9)} })
					if err != nil {
						t.Fatal(err)
					}
					return []*graph.Variable{u[0].Sub(one), y[0]}
				})
			if err != nil {
				t.Fatal(err)
			}
			return []*graph.Variable{v[0].Sub(one), inner[1]}
		})
	if err != nil {
		t.Fatal(err)
	}
	loss := out[1].Mul(out[1]).Sum().Named("loss")
	for _, xs := range [][]float64{{0.5, 0.2}, {-0.6, 0.1}} {
		feeds := map[string]*ndarray.Array{
			"x": ndarray.Must(ndarray.FromSlice(xs)),
			"w": ndarray.Must(ndarray.FromSlice([]float64{0.8, -0.3})),
			"n": ndarray.Scalar(3.0),
		}
		checkCentral(t, g, loss, feeds, "x", "w")
	}
}
