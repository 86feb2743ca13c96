package validation_test

import (
	"fmt"
	"testing"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	"github.com/sdgo/sdgo/validation"
)

// A small float32 model: loss = mean(tanh(x·w + b)²).
func exampleGraph() (*graph.Graph, map[string]*ndarray.Array) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float32, 2, 3)
	w := g.Var("w", ndarray.Must(ndarray.FromSlice([]float32{0.1, -0.2, 0.3, 0.4, -0.5, 0.6}, 3, 2)))
	b := g.Var("b", ndarray.Must(ndarray.FromSlice([]float32{0.05, -0.05}, 2)))
	y := g.Math().Tanh(x.MatMul(w).Add(b)).Named("act")
	loss := y.Mul(y).Mean().Named("loss")
	if err := g.SetLoss(loss.Name()); err != nil {
		panic(err)
	}
	feeds := map[string]*ndarray.Array{"x": ndarray.Must(ndarray.FromSlice([]float32{1, 2, 3, -1, 0.5, 2}, 2, 3))}
	return g, feeds
}

func ExampleCheckGradients() {
	g, feeds := exampleGraph()
	// SameDiff's defaults; the float32 graph is checked on a float64 copy.
	r, err := validation.CheckGradients(g, feeds, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.OK(), r.Float64Copy, r.Checked, r.Failed)
	for _, v := range r.Vars {
		fmt.Println(v.Name, v.Shape, v.Checked)
	}
	// Output:
	// true true 14 0
	// x [2 3] 6
	// w [3 2] 6
	// b [2] 2
}

func ExampleCheckGradients_options() {
	g, feeds := exampleGraph()
	r, err := validation.CheckGradients(g, feeds, &validation.GradCheckOptions{
		Skip:        []string{"x"},                               // check the parameters only
		MaxPerParam: 3, Subset: validation.SubsetRandom, Seed: 7, // at most 3 elements each
		StopAtFirstFailure: true,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.OK(), r.Checked)
	// Output: true 5
}

func ExampleCheckGradients_wrongGradient() {
	// test_square_bad_grad is a test-only op (testops_test.go): x² with a
	// gradient rule that is wrong at element 1.
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 3)
	loss := g.Apply("test_square_bad_grad", ops.Args{}, x).Sum().Named("loss")
	g.SetLoss(loss.Name())
	r, _ := validation.CheckGradients(g, map[string]*ndarray.Array{"x": ndarray.Must(ndarray.FromSlice([]float64{0.5, 1, 2}))}, nil)
	for _, p := range r.Failures {
		fmt.Printf("%s%v: analytic %.4g, numeric %.4g\n", p.Variable, p.Index, p.Analytic, p.Numeric)
	}
	fmt.Println(r.Summary())
	// Output:
	// x[1]: analytic 3, numeric 2
	// gradient check FAILED: 3 parameters checked, 2 passed, 1 failed, largest relative error 0.2
}

func ExampleCheckActivationGradients() {
	g, feeds := exampleGraph()
	r, err := validation.CheckActivationGradients(g, feeds, []string{"act"}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.OK(), r.Checked)
	// Output: true 4
}

func ExampleNonInPlace() {
	g, feeds := exampleGraph()
	l := validation.NewNonInPlace()
	_, err := exec.New(g).Exec(exec.Request{Feeds: feeds, Outputs: []string{"loss"}, Listeners: []exec.Listener{l}})
	fmt.Println(err, l.Stats().Ops)
	// Output: <nil> 5
}

// printTB stands in for the *testing.T a test would pass to Run.
type printTB struct{ testing.TB }

func (printTB) Helper()                        {}
func (printTB) Errorf(format string, a ...any) { fmt.Printf("ERROR "+format+"\n", a...) }
func (printTB) Logf(format string, a ...any)   { fmt.Printf(format+"\n", a...) }

func ExampleRun() {
	g, feeds := exampleGraph()
	tc := validation.TestCase{Name: "tanh layer", Graph: g, Feeds: feeds}
	tc.ExpectTol("loss", ndarray.Must(ndarray.ScalarOf(ndarray.Float32, 0.6789)), 1e-3)
	// In a test: validation.Run(t, tc).
	r := validation.Run(printTB{}, tc)
	for _, s := range r.Stages {
		fmt.Println(s.Name, s.Status())
	}
	// Output:
	// round trip before execution passed
	// forward passed
	// gradient check passed
	// round trip after execution passed
}

func ExampleTestCase_Validate() {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 2)
	g.Math().Exp(x).Named("y")
	tc := validation.TestCase{Name: "exp", Graph: g, Feeds: map[string]*ndarray.Array{"x": ndarray.Must(ndarray.FromSlice([]float64{0, 1}))}}
	tc.Expect("y", ndarray.Must(ndarray.FromSlice([]float64{1, 2.7183})))
	fmt.Println(tc.Validate())
	tc.Expected = nil
	tc.ExpectExact("y", ndarray.Must(ndarray.FromSlice([]float64{1, 2.7183})))
	fmt.Println(tc.Validate() != nil)
	// Output:
	// <nil>
	// true
}
