package opcases

import (
	"fmt"
	"math/rand"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	cv "github.com/sdgo/sdgo/ops/createview"
	"github.com/sdgo/sdgo/validation"
)

// Cases of package ops/createview (create_view, create_view_bp and the
// writes through views), from the expectations and gradient cases of its
// tests (op_test.go, grad_test.go, exec_test.go).

func withIdx(in []*ndarray.Array, idx ...cv.Index) []*ndarray.Array {
	for _, x := range idx {
		d := x.Descriptor()
		in = append(in, ints(d...))
	}
	return in
}

func init() {
	A := func(a ...*ndarray.Array) []*ndarray.Array { return a }
	x := counting(1, 3, 4) // [[1 2 3 4] [5 6 7 8] [9 10 11 12]]
	row := f64([]int{4}, 10, 20, 30, 40)
	col := f64([]int{3, 1}, 1, 2, 3)
	P, I, IS, All, N := cv.Point, cv.Interval, cv.IntervalStep, cv.All, cv.NewAxis
	cases := []fwd{
		{"create_view point", cv.OpName, ops.Args{}, withIdx(A(x), P(-1)), A(f64([]int{4}, 9, 10, 11, 12)), 0},
		{"create_view no index", cv.OpName, ops.Args{}, A(x), A(x), 0},
		{"create_view strided column", cv.OpName, ops.Args{}, withIdx(A(x), All(), IS(-1, 4, 2, false)), A(f64([]int{3, 1}, 4, 8, 12)), 0},
		{"create_view new axis", cv.OpName, ops.Args{}, withIdx(A(x), P(1), N(), I(1, 3)), A(f64([]int{1, 2}, 6, 7)), 0},
		// libnd4j's own cases (FORMAT.md): 3x4 linspace input.
		{"create_view libnd4j point point", cv.OpName, ops.Args{}, withIdx(A(x), P(1), P(1)), A(ndarray.Scalar(6.0)), 0},
		{"create_view libnd4j inclusive interval", cv.OpName, ops.Args{}, withIdx(A(x), IS(0, 1, 1, true)), A(f64([]int{2, 4}, 1, 2, 3, 4, 5, 6, 7, 8)), 0},
		{"create_view libnd4j exclusive interval", cv.OpName, ops.Args{}, withIdx(A(x), I(0, 1)), A(f64([]int{1, 4}, 1, 2, 3, 4)), 0},
		{"create_view libnd4j all all", cv.OpName, ops.Args{}, withIdx(A(x), All(), All()), A(x), 0},
		{"create_view libnd4j scalar new axis", cv.OpName, ops.Args{}, withIdx(A(ndarray.Scalar(5.0)), N()), A(f64([]int{1}, 5)), 0},
		{"create_view_bp", cv.OpNameBP, ops.Args{}, withIdx(A(x, f64([]int{2}, -1, -2)), I(0, -1), P(-1)),
			A(f64([]int{3, 4}, 0, 0, 0, -1, 0, 0, 0, -2, 0, 0, 0, 0)), 0},
		{"create_view_bp broadcast", cv.OpNameBP, ops.Args{}, withIdx(A(x, ndarray.Scalar(2.0)), All(), P(0)),
			A(f64([]int{3, 4}, 2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0)), 0},
		{"view_assign row", cv.OpAssign, ops.Args{}, withIdx(A(x, row), P(-2)),
			A(f64([]int{3, 4}, 1, 2, 3, 4, 10, 20, 30, 40, 9, 10, 11, 12)), 0},
		{"view_assign scalar", cv.OpAssign, ops.Args{}, withIdx(A(x, ndarray.Scalar(0.0)), All(), I(1, 3)),
			A(f64([]int{3, 4}, 1, 0, 0, 4, 5, 0, 0, 8, 9, 0, 0, 12)), 0},
		{"view_add column", cv.OpAdd, ops.Args{}, withIdx(A(x, col), All(), I(-2, 4)),
			A(f64([]int{3, 4}, 1, 2, 4, 5, 5, 6, 9, 10, 9, 10, 14, 15)), 0},
		{"view_sub", cv.OpSub, ops.Args{}, withIdx(A(x, ndarray.Scalar(1.0)), P(0)),
			A(f64([]int{3, 4}, 0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12)), 0},
		{"view_mul new axis", cv.OpMul, ops.Args{}, withIdx(A(x, f64([]int{1, 4}, 2, 2, 2, 2)), N(), P(-1)),
			A(f64([]int{3, 4}, 1, 2, 3, 4, 5, 6, 7, 8, 18, 20, 22, 24)), 0},
		{"view_div", cv.OpDiv, ops.Args{}, withIdx(A(x, ndarray.Scalar(2.0)), P(1), IS(0, 3, 1, true)),
			A(f64([]int{3, 4}, 1, 2, 3, 4, 2.5, 3, 3.5, 4, 9, 10, 11, 12)), 0},
		{"view_add int64", cv.OpAdd, ops.Args{}, withIdx(A(ints(1, 2, 3), ndarray.Scalar(int64(5))), P(-1)), A(ints(1, 2, 8)), 0},
		{"view_assign bool", cv.OpAssign, ops.Args{}, withIdx(A(bools([]int{2}, false, false), ndarray.Scalar(true)), P(1)),
			A(bools([]int{2}, false, true)), 0},
	}
	cases = append(cases,
		fwd{"create_view steps", cv.OpName, ops.Args{}, withIdx(A(x), IS(0, 3, 2, false), IS(0, 4, 3, false)), A(f64([]int{2, 2}, 1, 4, 9, 12)), 0},
		fwd{"view_add steps", cv.OpAdd, ops.Args{}, withIdx(A(x, f64([]int{2}, 100, 200)), IS(-3, -1, 2, true), IS(1, 4, 2, false)),
			A(f64([]int{3, 4}, 1, 102, 3, 204, 5, 6, 7, 8, 9, 110, 11, 212)), 0},
	)
	for _, c := range cases {
		forward(c.name, c.op, c.args, c.in, c.want, c.tol)
	}

	// Writes the executor carries out in place (the base is computed, and
	// nothing reads its old version), under the non-in-place listener,
	// with the gradient of the chain. From exec_test.go's TestExecWritePaths.
	Register(cv.OpAdd, "gradient in-place chain: add, assign, mul through views", func() validation.TestCase {
		g := graph.New()
		p := g.Placeholder("p", ndarray.Float64, 3, 4)
		x0 := p.MulScalar(1).Named("x0") // computed: the run owns its buffer
		x1 := x0.View(P(-1)).AddAssign(g.Const("delta", f64([]int{4}, 1, 2, 3, 4))).Named("x1")
		x2 := x1.View(All(), I(-3, -1)).Assign(g.Scalar(ndarray.Float64, 0)).Named("x2")
		x3 := x2.View(N(), P(0)).MulAssign(g.Scalar(ndarray.Float64, 10)).Named("x3")
		feeds := map[string]*ndarray.Array{"p": counting(1, 3, 4)}
		tc := validation.TestCase{Name: "gradient in-place chain", Graph: g, Feeds: feeds, GradCheck: viewGradOptions()}
		tc.ExpectExact(x3.Name(), f64([]int{3, 4}, 10, 0, 0, 40, 5, 0, 0, 8, 10, 0, 0, 16))
		_, tc.BuildErr = weightedLoss(g, feeds, seeded(5), x3)
		return tc
	})

	for _, c := range viewGradCases() {
		name := "gradient " + c.name
		Register(c.op, name, func() validation.TestCase {
			g := graph.New()
			phs := make([]*graph.Variable, len(c.inputs))
			feeds := map[string]*ndarray.Array{}
			for i, a := range c.inputs {
				phs[i] = g.Placeholder(fmt.Sprintf("x%d", i), ndarray.Float64, a.Shape()...)
				feeds[phs[i].Name()] = a
			}
			tc := validation.TestCase{Name: name, Graph: g, Feeds: feeds, GradCheck: viewGradOptions()}
			y := c.build(g, phs)
			if tc.BuildErr = y.Err(); tc.BuildErr == nil {
				_, tc.BuildErr = weightedLoss(g, feeds, seeded(3), y)
			}
			return tc
		})
	}
}

// viewGradOptions are the tolerances of createview's gradient tests, and
// a gradient that is zero everywhere fails (the case would check nothing).
func viewGradOptions() *validation.GradCheckOptions {
	return &validation.GradCheckOptions{Eps: 1e-6, MaxRelError: 1e-6, MinAbsError: 1e-9, FailOnZeroGradient: true}
}

// viewGradCase builds y from differentiable float64 inputs; the loss is
// Σ y·R for fixed random R, so every element of y is checked with its own
// weight.
type viewGradCase struct {
	op     string // the op the case is registered under
	name   string
	inputs []*ndarray.Array
	build  func(g *graph.Graph, x []*graph.Variable) *graph.Variable
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

func viewGradCases() []viewGradCase {
	r := rand.New(rand.NewSource(7))
	n := func(shape ...int) *ndarray.Array { return randArr(r, -2, 2, shape...) }
	nz := func(shape ...int) *ndarray.Array { return randArr(r, 0.5, 2, shape...) } // away from zero
	P, I, IS, A, N := cv.Point, cv.Interval, cv.IntervalStep, cv.All, cv.NewAxis
	type writeFn func(view, value *graph.Variable) *graph.Variable
	writes := map[string]writeFn{
		"assign": (*graph.Variable).Assign, "add": (*graph.Variable).AddAssign, "sub": (*graph.Variable).SubAssign,
		"mul": (*graph.Variable).MulAssign, "div": (*graph.Variable).DivAssign,
	}
	opOf := map[string]string{"assign": cv.OpAssign, "add": cv.OpAdd, "sub": cv.OpSub, "mul": cv.OpMul, "div": cv.OpDiv}
	// Arrays the builders use, drawn here: builders run concurrently and
	// must not share the random source.
	shapeA, shapeB := n(3, 4), n(3, 4)
	cs := []viewGradCase{
		{cv.OpName, "view negative point and interval", []*ndarray.Array{n(4, 5)}, func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
			return x[0].View(I(-3, -1), N(), P(-2))
		}},
		{cv.OpName, "view new axes first", []*ndarray.Array{n(3, 4)}, func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
			return x[0].View(N(), N(), P(-1), IS(-4, -2, 1, true))
		}},
		{cv.OpName, "view strided", []*ndarray.Array{n(5, 6)}, func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
			return x[0].View(IS(-5, 5, 2, false), IS(1, -1, 3, true))
		}},
		{cv.OpName, "view of a view", []*ndarray.Array{n(4, 5)}, func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
			return x[0].View(I(1, 4)).View(A(), P(-1))
		}},
		{cv.OpName, "view used twice", []*ndarray.Array{n(3, 3)}, func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
			return x[0].View(P(0)).Mul(x[0].View(A(), P(-1)))
		}},
		{cv.OpNameBP, "create_view_bp (second order)", []*ndarray.Array{n(2)}, func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
			ins := []*graph.Variable{g.Const("shape", shapeA), x[0]}
			for _, d := range cv.Descriptors(I(0, -1), P(-1)) {
				ins = append(ins, g.Const("", ints(d...)))
			}
			return g.Apply(cv.OpNameBP, ops.Args{}, ins...)
		}},
		{cv.OpNameBP, "create_view_bp broadcast (second order)", []*ndarray.Array{n(1)}, func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
			ins := []*graph.Variable{g.Const("shape", shapeB), x[0]}
			for _, d := range cv.Descriptors(A(), P(1)) {
				ins = append(ins, g.Const("", ints(d...)))
			}
			return g.Apply(cv.OpNameBP, ops.Args{}, ins...)
		}},
	}
	for _, name := range []string{"assign", "add", "sub", "mul", "div"} {
		w, op := writes[name], opOf[name]
		val := n
		if name == "div" {
			val = nz
		}
		cs = append(cs,
			viewGradCase{op, name + " row, negative point", []*ndarray.Array{n(3, 4), val(4)}, func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
				return w(x[0].View(P(-1)), x[1])
			}},
			viewGradCase{op, name + " scalar into a block", []*ndarray.Array{n(3, 4), val()}, func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
				return w(x[0].View(I(-2, 3), IS(1, -2, 1, true)), x[1])
			}},
			viewGradCase{op, name + " column broadcast, new axis", []*ndarray.Array{n(3, 4), val(1, 3, 1)}, func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
				return w(x[0].View(N(), A(), I(-3, -1)), x[1])
			}},
			viewGradCase{op, name + " strided", []*ndarray.Array{n(4, 6), val(2, 1)}, func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
				return w(x[0].View(IS(-4, 4, 2, false), IS(0, 5, 2, true)), x[1])
			}},
			// view -> write -> view -> loss
			viewGradCase{op, name + " chain view, write, view", []*ndarray.Array{n(4, 5), val(3)}, func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
				v := x[0].View(I(1, 4))           // 3x5
				v2 := w(v.View(A(), P(-2)), x[1]) // v with column -2 written
				// Read back the written column (rows 1, 2) and, summed,
				// row 0's columns 2 and 3 (3 is the written one).
				return v2.View(N(), I(-2, 3), P(-2)).Add(v2.View(P(0), I(2, 4)).Sum())
			}},
		)
	}
	// Two writes in a row, the second's value read from the first's result
	// (it shares the base's buffer), then a view.
	cs = append(cs,
		viewGradCase{cv.OpMul, "two writes", []*ndarray.Array{n(3, 4), nz(4), n(3)}, func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
			x1 := x[0].View(P(-1)).MulAssign(x[1])
			x2 := x1.View(A(), P(0)).AddAssign(x1.View(A(), P(-1)).Mul(x[2]))
			return x2.View(I(-2, 3))
		}},
		viewGradCase{cv.OpDiv, "two writes strided", []*ndarray.Array{n(4, 6), nz(2, 1), n(3)}, func(g *graph.Graph, x []*graph.Variable) *graph.Variable {
			x1 := x[0].View(IS(0, 4, 3, false), IS(-6, 6, 2, false)).DivAssign(x[1])
			x2 := x1.View(P(-1), IS(0, 5, 2, true)).Assign(x[2])
			return x2.View(A(), IS(0, -1, 2, false)) // columns 0, 2, 4: both writes
		}},
	)
	return cs
}
