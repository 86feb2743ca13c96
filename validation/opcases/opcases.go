// Package opcases is the library of op test cases: for every registered op,
// one or more validation.TestCases with hand-worked forward expectations
// and, for differentiable ops, float64 gradient checks. Its tests run every
// case (gradient check and non-in-place listener included, save/load round
// trip where the file format supports the op) and fail when a registered op
// has no forward case or, when it has a gradient rule, no gradient check.
//
// The package imports every package that registers ops, so that ops.All()
// sees them all. An op's owner adds its cases here, in a file of its own,
// with Register from an init function: a registry fed from the _test files
// of other packages would be invisible to the coverage test's binary.
package opcases

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"sync"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	_ "github.com/sdgo/sdgo/ops/createview" // registers create_view and the view writes
	"github.com/sdgo/sdgo/validation"
)

// Case is one test case of one op.
type Case struct {
	// Op is the registered name of the op the case covers.
	Op string
	// Name tells the case apart from the op's other cases.
	Name string
	// Build makes the test case: a fresh graph each call, the same every
	// call. Builds run concurrently: a builder must not share mutable state
	// (a random source, say) with others.
	Build func() validation.TestCase
}

var (
	mu    sync.Mutex
	cases []Case
)

// Register adds cases for op.
func Register(op, name string, build func() validation.TestCase) {
	mu.Lock()
	defer mu.Unlock()
	cases = append(cases, Case{Op: op, Name: name, Build: build})
}

// All returns every case, sorted by op (in registration order within an op).
func All() []Case {
	mu.Lock()
	defer mu.Unlock()
	out := append([]Case(nil), cases...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Op < out[j].Op })
	return out
}

// For returns the cases of one op (by its registered name or an alias).
func For(op string) []Case {
	name := op
	if d, ok := ops.Lookup(op); ok {
		name = d.Name
	}
	var out []Case
	for _, c := range All() {
		if c.Op == name {
			out = append(out, c)
		}
	}
	return out
}

// canonical returns the registered name of op (an alias's op).
func canonical(op string) string {
	if d, ok := ops.Lookup(op); ok {
		return d.Name
	}
	return op
}

// Array helpers.
func f64(shape []int, v ...float64) *ndarray.Array {
	return ndarray.Must(ndarray.FromSlice(v, shape...))
}
func f32(shape []int, v ...float32) *ndarray.Array {
	return ndarray.Must(ndarray.FromSlice(v, shape...))
}
func i64(shape []int, v ...int64) *ndarray.Array { return ndarray.Must(ndarray.FromSlice(v, shape...)) }
func i32(shape []int, v ...int32) *ndarray.Array { return ndarray.Must(ndarray.FromSlice(v, shape...)) }
func bools(shape []int, v ...bool) *ndarray.Array {
	return ndarray.Must(ndarray.FromSlice(v, shape...))
}
func ints(v ...int64) *ndarray.Array { return ndarray.Must(ndarray.FromSlice(v, len(v))) }

// counting returns the float64 array from, from+1, ... of the given shape.
func counting(from float64, shape ...int) *ndarray.Array {
	n := ndarray.Packed(shape...).Size()
	return ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.Arange(ndarray.Float64, from, 1, n)), shape...))
}

func randn(rng *rand.Rand, shape ...int) *ndarray.Array {
	return ndarray.Must(ndarray.RandNormal(rng, ndarray.Float64, 0, 1, shape...))
}

func randu(rng *rand.Rand, lo, hi float64, shape ...int) *ndarray.Array {
	return ndarray.Must(ndarray.RandUniform(rng, ndarray.Float64, lo, hi, shape...))
}

// forward registers a forward case: op applied to the inputs (floating-point
// ones as fed placeholders x0, x1, ..., the others as constants c0, c1, ...),
// each output compared with want: exactly when tol is 0, else within tol.
// The gradient is not checked (forward expectations are worked out at
// points chosen for the values, not for differentiability; gradient cases
// check the gradients).
func forward(name, op string, args ops.Args, in, want []*ndarray.Array, tol float64) {
	name = "forward " + name
	Register(canonical(op), name, func() validation.TestCase {
		g := graph.New()
		feeds := map[string]*ndarray.Array{}
		vs := make([]*graph.Variable, len(in))
		for i, a := range in {
			if a.DType().IsFloat() {
				vs[i] = g.Placeholder(fmt.Sprintf("x%d", i), a.DType(), a.Shape()...)
				feeds[vs[i].Name()] = a
			} else {
				vs[i] = g.Const(fmt.Sprintf("c%d", i), a)
			}
		}
		tc := validation.TestCase{Name: name, Graph: g, Feeds: feeds,
			SkipGradCheck: "a forward case; the op's gradient cases check its gradients"}
		outs, err := g.Op(op, args, vs...)
		if err != nil {
			tc.BuildErr = err
			return tc
		}
		if len(outs) != len(want) {
			tc.BuildErr = fmt.Errorf("%s has %d outputs, the case expects %d", op, len(outs), len(want))
			return tc
		}
		for i, w := range want {
			if tol == 0 {
				tc.ExpectExact(outs[i].Name(), w)
			} else {
				tc.ExpectTol(outs[i].Name(), w, tol)
			}
		}
		return tc
	})
}

// An input of a gradient case: an array, and whether it is differentiated
// (a placeholder) or fixed (a constant: indices, shapes, labels).
type input struct {
	a     *ndarray.Array
	fixed bool
}

func in(a *ndarray.Array) input    { return input{a: a} }
func fixed(a *ndarray.Array) input { return input{a: a, fixed: true} }

// strict are the tolerances of the library's gradient cases: tighter than
// SameDiff's defaults, as the tests they replace were.
func strict() *validation.GradCheckOptions {
	return &validation.GradCheckOptions{Eps: 1e-6, MaxRelError: 1e-6, MinAbsError: 1e-8}
}

// gradient registers a gradient case: op applied to the inputs (placeholders
// x0, x1, ... for the differentiated ones, constants c0, c1, ... for the
// fixed), loss = Σ_k Σ out_k·R_k over the float outputs with fixed random
// weights R_k, so that every element's gradient differs; checked in float64.
func gradient(name, op string, args ops.Args, ins []input) {
	gradientOf(name, op, args, ins, nil)
}

// gradientOf is gradient with the loss made of the outputs listed in outs
// only (every output when outs is nil): an output that holds huge
// constants (the -1e9 of masked attention logits) would drown the central
// differences of the others.
func gradientOf(name, op string, args ops.Args, ins []input, outs []int) {
	name = "gradient " + name
	Register(canonical(op), name, func() validation.TestCase {
		g := graph.New()
		feeds := map[string]*ndarray.Array{}
		vs := make([]*graph.Variable, len(ins))
		for i, x := range ins {
			if x.fixed {
				vs[i] = g.Const(fmt.Sprintf("c%d", i), x.a)
				continue
			}
			vs[i] = g.Placeholder(fmt.Sprintf("x%d", i), x.a.DType(), x.a.Shape()...)
			feeds[vs[i].Name()] = x.a
		}
		tc := validation.TestCase{Name: name, Graph: g, Feeds: feeds, GradCheck: strict()}
		all, err := g.Op(op, args, vs...)
		if err == nil {
			picked := all
			if outs != nil {
				picked = nil
				for _, i := range outs {
					picked = append(picked, all[i])
				}
			}
			_, err = weightedLoss(g, feeds, seeded(1), picked...)
		}
		tc.BuildErr = err
		return tc
	})
}

// weightedLoss sets g's loss to Σ_k Σ out_k·R_k over the floating-point
// outputs, R_k random normal of out_k's shape (run once to learn it when
// shape inference leaves it open).
func weightedLoss(g *graph.Graph, feeds map[string]*ndarray.Array, rng *rand.Rand, outs ...*graph.Variable) (*graph.Variable, error) {
	var terms []*graph.Variable
	for _, o := range outs {
		if !o.DType().IsFloat() {
			continue
		}
		shape := o.Shape()
		if !known(shape) {
			res, err := exec.Output(g, feeds, o.Name())
			if err != nil {
				return nil, err
			}
			shape = res[o.Name()].Shape()
		}
		w := ndarray.Must(ndarray.RandNormal(rng, o.DType(), 0, 1, shape...))
		terms = append(terms, o.Mul(g.Const("", w)).Sum())
	}
	if len(terms) == 0 {
		return nil, fmt.Errorf("no floating-point output to make a loss of")
	}
	loss := terms[0]
	if len(terms) > 1 {
		loss = g.Apply("mergeadd", ops.Args{}, terms...)
	}
	loss = loss.Named("loss")
	if err := loss.Err(); err != nil {
		return nil, err
	}
	return loss, g.SetLoss(loss.Name())
}

// seeded returns a random source for a case's fixed weights.
func seeded(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 1)) }

func known(shape []int) bool {
	if shape == nil {
		return false
	}
	for _, d := range shape {
		if d < 0 {
			return false
		}
	}
	return true
}

// Distinct returns values of the given shape whose absolute values differ
// pairwise by at least 0.1, with random signs: inputs on which max, min,
// their absolute forms and their gradients have no ties, for tests that
// check gradients against central differences (or another library).
func Distinct(r *rand.Rand, shape ...int) *ndarray.Array {
	n := 1
	for _, d := range shape {
		n *= d
	}
	v := make([]float64, n)
	for i, p := range r.Perm(n) {
		v[i] = (0.3 + 0.1*float64(p)) * float64(1-2*r.IntN(2))
	}
	return ndarray.Must(ndarray.Wrap(v, shape...))
}

// Shifted is Distinct moved by 0.05: none of its values is one of
// Distinct's, so maximum and minimum of the two have no ties either.
func Shifted(r *rand.Rand, shape ...int) *ndarray.Array {
	return ndarray.Must(ndarray.Unary(ndarray.AddScalar, Distinct(r, shape...), 0.05))
}
