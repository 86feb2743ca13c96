package createview_test

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/sdgo/sdgo/autodiff"
	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	cv "github.com/sdgo/sdgo/ops/createview"
)

// gradCase builds y from differentiable float64 inputs; the loss is
// sum(y * c) for a fixed random c, so every element of y is checked with its
// own weight.
type gradCase struct {
	name    string
	inputs  []*ndarray.Array
	build   func(g *graph.Graph, x []*graph.Variable) *graph.Variable
	strided bool // needs strided layouts (stridedLayoutsOK)
}

func randArr(r *rand.Rand, lo, hi float64, shape ...int) *ndarray.Array {
	n := 1
	for _, d := range shape {
		n *= d
	}
	v := make([]float64, n)
	for i := range v {
		v[i] = lo + (hi-lo)*r.Float64()
		if r.Intn(2) == 0 && lo >= 0 {
			v[i] = -v[i] // away from zero, either sign
		}
	}
	return f64(shape, v...)
}

func gradCases() []gradCase {
	r := rand.New(rand.NewSource(7))
	n := func(shape ...int) *ndarray.Array { return randArr(r, -2, 2, shape...) }
	nz := func(shape ...int) *ndarray.Array { return randArr(r, 0.5, 2, shape...) } // away from zero
	P, I, IS, A, N := cv.Point, cv.Interval, cv.IntervalStep, cv.All, cv.NewAxis
	type writeFn func(view, value *graph.Variable) *graph.Variable
	writes := map[string]writeFn{
		"assign": (*graph.Variable).Assign, "add": (*graph.Variable).AddAssign, "sub": (*graph.Variable).SubAssign,
		"mul": (*graph.Variable).MulAssign, "div": (*graph.Variable).DivAssign,
	}
	cs := []gradCase{
		{"view negative point and interval", []*ndarray.Array{n(4, 5)}, func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
			return x[0].View(I(-3, -1), N(), P(-2))
		}, false},
		{"view new axes first", []*ndarray.Array{n(3, 4)}, func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
			return x[0].View(N(), N(), P(-1), IS(-4, -2, 1, true))
		}, false},
		{"view strided", []*ndarray.Array{n(5, 6)}, func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
			return x[0].View(IS(-5, 5, 2, false), IS(1, -1, 3, true))
		}, true},
		{"view of a view", []*ndarray.Array{n(4, 5)}, func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
			return x[0].View(I(1, 4)).View(A(), P(-1))
		}, false},
		{"view used twice", []*ndarray.Array{n(3, 3)}, func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
			return x[0].View(P(0)).Mul(x[0].View(A(), P(-1)))
		}, false},
		{"create_view_bp (second order)", []*ndarray.Array{n(2)}, func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
			shapeOf := g.Const("shape", n(3, 4))
			ins := []*graph.Variable{shapeOf, x[0]}
			for _, d := range cv.Descriptors(I(0, -1), P(-1)) {
				ins = append(ins, g.Const("", i64v(d...)))
			}
			return g.Apply(cv.OpNameBP, ops.Args{}, ins...)
		}, false},
		{"create_view_bp broadcast (second order)", []*ndarray.Array{n(1)}, func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
			ins := []*graph.Variable{g.Const("shape", n(3, 4)), x[0]}
			for _, d := range cv.Descriptors(A(), P(1)) {
				ins = append(ins, g.Const("", i64v(d...)))
			}
			return g.Apply(cv.OpNameBP, ops.Args{}, ins...)
		}, false},
	}
	for _, name := range []string{"assign", "add", "sub", "mul", "div"} {
		w := writes[name]
		val := n
		if name == "div" {
			val = nz
		}
		cs = append(cs,
			gradCase{name + " row, negative point", []*ndarray.Array{n(3, 4), val(4)}, func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
				return w(x[0].View(P(-1)), x[1])
			}, false},
			gradCase{name + " scalar into a block", []*ndarray.Array{n(3, 4), val()}, func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
				return w(x[0].View(I(-2, 3), IS(1, -2, 1, true)), x[1])
			}, false},
			gradCase{name + " column broadcast, new axis", []*ndarray.Array{n(3, 4), val(1, 3, 1)}, func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
				return w(x[0].View(N(), A(), I(-3, -1)), x[1])
			}, false},
			gradCase{name + " strided", []*ndarray.Array{n(4, 6), val(2, 1)}, func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
				return w(x[0].View(IS(-4, 4, 2, false), IS(0, 5, 2, true)), x[1])
			}, true},
			// view -> write -> view -> loss
			gradCase{name + " chain view, write, view", []*ndarray.Array{n(4, 5), val(3)}, func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
				v := x[0].View(I(1, 4))           // 3x5
				v2 := w(v.View(A(), P(-2)), x[1]) // v with column -2 written
				// Read back the written column (rows 1, 2) and, summed,
				// row 0's columns 2 and 3 (3 is the written one).
				return v2.View(N(), I(-2, 3), P(-2)).Add(v2.View(P(0), I(2, 4)).Sum())
			}, false},
		)
	}
	// Two writes in a row, the second's value read from the first's result
	// (it shares the base's buffer), then a view.
	cs = append(cs,
		gradCase{"two writes", []*ndarray.Array{n(3, 4), nz(4), n(3)}, func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
			x1 := x[0].View(P(-1)).MulAssign(x[1])
			x2 := x1.View(A(), P(0)).AddAssign(x1.View(A(), P(-1)).Mul(x[2]))
			return x2.View(I(-2, 3))
		}, false},
		gradCase{"two writes strided", []*ndarray.Array{n(4, 6), nz(2, 1), n(3)}, func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
			x1 := x[0].View(IS(0, 4, 3, false), IS(-6, 6, 2, false)).DivAssign(x[1])
			x2 := x1.View(P(-1), IS(0, 5, 2, true)).Assign(x[2])
			return x2.View(A(), IS(0, -1, 2, false)) // columns 0, 2, 4: both writes
		}, true},
	)
	return cs
}

// Every gradient rule against central differences in float64, through
// autodiff.Grad and the executor.
func TestGradients(t *testing.T) {
	for _, c := range gradCases() {
		t.Run(c.name, func(t *testing.T) {
			if c.strided {
				needStrided(t)
			}
			checkGradient(t, c)
		})
	}
}

func checkGradient(t *testing.T, c gradCase) {
	t.Helper()
	g := graph.New()
	phs := make([]*graph.Variable, len(c.inputs))
	feeds := map[string]*ndarray.Array{}
	for i, a := range c.inputs {
		phs[i] = g.Placeholder(fmt.Sprintf("x%d", i), ndarray.Float64, a.Shape()...)
		feeds[phs[i].Name()] = a
	}
	y := c.build(g, phs)
	if err := y.Err(); err != nil {
		t.Fatal(err)
	}
	s := exec.New(g)
	yv, err := s.Output(feeds, y.Name())
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewSource(3))
	weights := randArr(r, -1, 1, yv[y.Name()].Shape()...)
	loss := y.Mul(g.Const("weights", weights)).Sum().Named("loss")
	grads, err := autodiff.Grad(loss, phs...)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(grads))
	for i, gv := range grads {
		names[i] = gv.Name()
	}
	res, err := s.Output(feeds, names...)
	if err != nil {
		t.Fatal(err)
	}
	lossAt := func(name string, a *ndarray.Array) float64 {
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
	for k, p := range phs {
		x := feeds[p.Name()]
		analytic := res[grads[k].Name()]
		if !ndarray.SameShape(analytic.Shape(), x.Shape()) {
			t.Fatalf("gradient of %s has shape %v, the input %v", p.Name(), analytic.Shape(), x.Shape())
		}
		av := analytic.Float64s()
		vals := x.Float64s()
		nonzero := 0
		for j := range vals {
			plus := append([]float64(nil), vals...)
			minus := append([]float64(nil), vals...)
			plus[j] += eps
			minus[j] -= eps
			fp := lossAt(p.Name(), f64(x.Shape(), plus...))
			fm := lossAt(p.Name(), f64(x.Shape(), minus...))
			num := (fp - fm) / (2 * eps)
			a := av[j]
			if a != 0 {
				nonzero++
			}
			diff := math.Abs(a - num)
			rel := 0.0
			if a != 0 || num != 0 {
				rel = diff / (math.Abs(a) + math.Abs(num))
			}
			if rel > 1e-6 && diff > 1e-9 {
				t.Errorf("d loss / d %s[%d]: analytic %.12g, numeric %.12g (relative error %.2g)", p.Name(), j, a, num, rel)
			}
		}
		if nonzero == 0 {
			t.Errorf("the gradient of %s is zero everywhere: the case checks nothing", p.Name())
		}
	}
	// The inputs were fed, so nothing may have changed them.
	for i, a := range c.inputs {
		if !ndarray.Equal(a, feeds[phs[i].Name()]) {
			t.Fatalf("input %d changed", i)
		}
	}
}

// The gradient of create_view is a scatter into the input's shape, not a
// view of the output gradient (the upstream defect).
func TestViewGradientIsScatter(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 3, 4)
	y := x.View(cv.Point(-1), cv.Interval(1, 3))
	grads, err := autodiff.Grad(y.Sum(), x)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Output(g, map[string]*ndarray.Array{"x": linspace(3, 4)}, grads[0].Name())
	if err != nil {
		t.Fatal(err)
	}
	want := f64([]int{3, 4}, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0)
	if !ndarray.Equal(out[grads[0].Name()], want) {
		t.Fatalf("gradient %v, want %v", out[grads[0].Name()], want)
	}
}
