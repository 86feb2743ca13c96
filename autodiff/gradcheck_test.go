package autodiff_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdgo/sdgo/autodiff"
	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// An input of a gradient test: an array, and whether it is differentiated
// (a placeholder) or fixed (a constant: indices, shapes, labels).
type input struct {
	a     *ndarray.Array
	fixed bool
}

func in(a *ndarray.Array) input    { return input{a: a} }
func fixed(a *ndarray.Array) input { return input{a: a, fixed: true} }

type gradCase struct {
	name string
	op   string
	args ops.Args
	in   []input
}

func randn(rng *rand.Rand, shape ...int) *ndarray.Array {
	return ndarray.Must(ndarray.RandNormal(rng, ndarray.Float64, 0, 1, shape...))
}

func randu(rng *rand.Rand, lo, hi float64, shape ...int) *ndarray.Array {
	return ndarray.Must(ndarray.RandUniform(rng, ndarray.Float64, lo, hi, shape...))
}

func ints(v ...int64) *ndarray.Array { return ndarray.Must(ndarray.FromSlice(v, len(v))) }

func gradCases() []gradCase {
	rng := rand.New(rand.NewPCG(11, 3))
	r := func(shape ...int) input { return in(randn(rng, shape...)) }
	pos := func(shape ...int) input { return in(randu(rng, 0.5, 2, shape...)) }
	onehot := func(n, k int) input {
		a := ndarray.Must(ndarray.Zeros(ndarray.Float64, n, k))
		v := ndarray.Raw[float64](a)
		for i := 0; i < n; i++ {
			v[i*k+rng.IntN(k)] = 1
		}
		return fixed(a)
	}
	var cs []gradCase
	for _, op := range []string{"add", "subtract", "multiply", "divide", "maximum", "minimum", "squaredsubtract"} {
		cs = append(cs,
			gradCase{op + " same shape", op, ops.Args{}, []input{r(2, 3), r(2, 3)}},
			gradCase{op + " broadcast row", op, ops.Args{}, []input{r(2, 3), r(3)}},
			gradCase{op + " broadcast both", op, ops.Args{}, []input{r(2, 1), r(1, 3)}},
			gradCase{op + " scalar left", op, ops.Args{}, []input{r(), r(2, 2)}},
		)
	}
	cs = append(cs,
		gradCase{"Pow", "Pow", ops.Args{}, []input{pos(2, 3), r(2, 3)}},
		gradCase{"Pow broadcast", "Pow", ops.Args{}, []input{pos(2, 3), pos(3)}},
		gradCase{"pow scalar", "pow", ops.Args{F: []float64{2.5}}, []input{pos(4)}},
		gradCase{"neg", "neg", ops.Args{}, []input{r(2, 2)}},
		gradCase{"abs", "abs", ops.Args{}, []input{r(5)}},
		gradCase{"exp", "exp", ops.Args{}, []input{r(5)}},
		gradCase{"log", "log", ops.Args{}, []input{pos(5)}},
		gradCase{"sqrt", "sqrt", ops.Args{}, []input{pos(5)}},
		gradCase{"square", "square", ops.Args{}, []input{r(5)}},
		gradCase{"tanh", "tanh", ops.Args{}, []input{r(2, 3)}},
		gradCase{"sigmoid", "sigmoid", ops.Args{}, []input{r(2, 3)}},
		gradCase{"relu", "relu", ops.Args{}, []input{r(2, 3)}},
		gradCase{"leakyrelu", "leakyrelu", ops.Args{F: []float64{0.2}}, []input{r(2, 3)}},
		gradCase{"sign", "sign", ops.Args{}, []input{r(4)}},
		gradCase{"reciprocal", "reciprocal", ops.Args{}, []input{pos(4)}},
		gradCase{"floor", "floor", ops.Args{}, []input{r(4)}},
		gradCase{"ceil", "ceil", ops.Args{}, []input{r(4)}},
		gradCase{"round", "round", ops.Args{}, []input{r(4)}},
		gradCase{"sin", "sin", ops.Args{}, []input{r(4)}},
		gradCase{"cos", "cos", ops.Args{}, []input{r(4)}},
		gradCase{"softplus", "softplus", ops.Args{}, []input{r(4)}},
		gradCase{"rsqrt", "rsqrt", ops.Args{}, []input{pos(4)}},
		gradCase{"log1p", "log1p", ops.Args{}, []input{pos(4)}},
		gradCase{"expm1", "expm1", ops.Args{}, []input{r(4)}},
		gradCase{"softmax", "softmax", ops.Args{}, []input{r(2, 4)}},
		gradCase{"softmax axis 0", "softmax", ops.Args{I: []int64{0}}, []input{r(3, 2)}},
		gradCase{"log_softmax", "log_softmax", ops.Args{}, []input{r(2, 4)}},
		gradCase{"log_softmax axis 0", "log_softmax", ops.Args{I: []int64{0}}, []input{r(3, 2)}},
		gradCase{"matmul", "matmul", ops.Args{}, []input{r(2, 3), r(3, 4)}},
		gradCase{"matmul transpose x", "matmul", ops.MatMulArgs(true, false), []input{r(3, 2), r(3, 4)}},
		gradCase{"matmul transpose y", "matmul", ops.MatMulArgs(false, true), []input{r(2, 3), r(4, 3)}},
		gradCase{"matmul transpose both", "matmul", ops.MatMulArgs(true, true), []input{r(3, 2), r(4, 3)}},
		gradCase{"matmul transpose result alpha", "matmul", ops.Args{I: []int64{0, 0, 1}, F: []float64{1.5}}, []input{r(2, 3), r(3, 4)}},
		gradCase{"matmul batched broadcast", "matmul", ops.Args{}, []input{r(2, 1, 2, 3), r(3, 3, 2)}},
		gradCase{"matmul vector-matrix", "matmul", ops.Args{}, []input{r(3), r(3, 2)}},
		gradCase{"matmul matrix-vector", "matmul", ops.Args{}, []input{r(2, 3), r(3)}},
		gradCase{"matmul dot", "matmul", ops.Args{}, []input{r(3), r(3)}},
		gradCase{"transpose", "transpose", ops.Args{}, []input{r(2, 3)}},
		gradCase{"transpose perm input", "transpose", ops.Args{}, []input{r(2, 3, 4), fixed(ints(2, 0, 1))}},
		gradCase{"permute", "permute", ops.Args{I: []int64{1, 2, 0}}, []input{r(2, 3, 4)}},
		gradCase{"reshape", "reshape", ops.Args{I: []int64{3, -1}}, []input{r(2, 3)}},
		gradCase{"reshape input", "reshape", ops.Args{}, []input{r(2, 3), fixed(ints(6))}},
		gradCase{"expand_dims", "expand_dims", ops.Args{I: []int64{1}}, []input{r(2, 3)}},
		gradCase{"squeeze", "squeeze", ops.Args{}, []input{r(2, 1, 3)}},
		gradCase{"concat", "concat", ops.Args{I: []int64{1}}, []input{r(2, 3), r(2, 1), r(2, 2)}},
		gradCase{"stack", "stack", ops.Args{I: []int64{1}}, []input{r(2, 3), r(2, 3)}},
		gradCase{"unstack", "unstack", ops.Args{I: []int64{0}}, []input{r(3, 2)}},
		gradCase{"identity", "identity", ops.Args{}, []input{r(3)}},
		gradCase{"mergeadd", "mergeadd", ops.Args{}, []input{r(2, 2), r(2, 2), r(2, 2)}},
		gradCase{"reduce_to_shape_of", "reduce_to_shape_of", ops.Args{}, []input{r(2, 3), fixed(randn(rng, 3))}},
		gradCase{"cast float64", "cast", ops.Args{D: []ndarray.DType{ndarray.Float64}}, []input{r(3)}},
	)
	for _, op := range []string{"reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod"} {
		cs = append(cs,
			gradCase{op + " all", op, ops.ReduceArgs(false), []input{r(2, 3)}},
			gradCase{op + " axis 0", op, ops.ReduceArgs(false, 0), []input{r(2, 3)}},
			gradCase{op + " axis -1 keep", op, ops.ReduceArgs(true, -1), []input{r(2, 3, 2)}},
			gradCase{op + " axes input", op, ops.Args{B: []bool{false}}, []input{r(2, 3, 2), fixed(ints(0, 2))}},
		)
	}
	// Zeros in a product: one zero, and two.
	oneZero := ndarray.Must(ndarray.FromSlice([]float64{1.5, 0, -2, 0.5, 3, 2}, 2, 3))
	twoZeros := ndarray.Must(ndarray.FromSlice([]float64{0, 0, -2, 0.5, 3, 2}, 2, 3))
	cs = append(cs,
		gradCase{"reduce_prod one zero", "reduce_prod", ops.ReduceArgs(false, 1), []input{in(oneZero)}},
		gradCase{"reduce_prod two zeros", "reduce_prod", ops.ReduceArgs(false, 1), []input{in(twoZeros)}},
	)
	for mode := 0; mode <= 3; mode++ {
		m := ops.Args{I: []int64{int64(mode)}}
		cs = append(cs,
			gradCase{fmt.Sprintf("mean_sqerr_loss mode %d", mode), "mean_sqerr_loss", m, []input{r(3, 2), in(randu(rng, 0, 2, 3, 2)), r(3, 2)}},
			gradCase{fmt.Sprintf("mean_sqerr_loss mode %d column weights", mode), "mean_sqerr_loss", m, []input{r(3, 2), in(randu(rng, 0, 2, 3, 1)), r(3, 2)}},
			gradCase{fmt.Sprintf("softmax_cross_entropy_loss mode %d", mode), "softmax_cross_entropy_loss", m, []input{r(3, 4), in(randu(rng, 0.5, 2, 3)), onehot(3, 4)}},
			gradCase{fmt.Sprintf("softmax_cross_entropy_loss mode %d soft labels", mode), "softmax_cross_entropy_loss",
				ops.Args{I: []int64{int64(mode)}, F: []float64{0.2}}, []input{r(3, 4), in(randu(rng, 0.5, 2, 3)), in(randu(rng, 0, 1, 3, 4))}},
		)
	}
	return cs
}

// buildCase makes loss = Σ_k Σ out_k·R_k over the op's float outputs, with
// fixed random weights R_k so every element's gradient differs. It returns
// the graph, the loss and the placeholders.
func buildCase(t *testing.T, c gradCase, rng *rand.Rand) (*graph.Graph, *graph.Variable, []*graph.Variable) {
	t.Helper()
	g := graph.New()
	var ins, phs []*graph.Variable
	for i, x := range c.in {
		if x.fixed {
			ins = append(ins, g.Const(fmt.Sprintf("c%d", i), x.a))
			continue
		}
		p := g.Placeholder(fmt.Sprintf("x%d", i), x.a.DType(), x.a.Shape()...)
		ins = append(ins, p)
		phs = append(phs, p)
	}
	outs, err := g.Op(c.op, c.args, ins...)
	if err != nil {
		t.Fatal(err)
	}
	feeds := feedsOf(c, phs, nil)
	res, err := exec.Output(g, feeds, names(outs)...)
	if err != nil {
		t.Fatal(err)
	}
	var terms []*graph.Variable
	for _, o := range outs {
		if !o.DType().IsFloat() {
			continue
		}
		w := g.Const("", randn(rng, res[o.Name()].Shape()...))
		terms = append(terms, o.Mul(w).Sum())
	}
	loss := terms[0]
	if len(terms) > 1 {
		loss = g.Apply("mergeadd", ops.Args{}, terms...)
	}
	if loss.Err() != nil {
		t.Fatal(loss.Err())
	}
	return g, loss, phs
}

func names(vs []*graph.Variable) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Name()
	}
	return out
}

// feedsOf feeds each placeholder its case value, or the override.
func feedsOf(c gradCase, phs []*graph.Variable, override map[string]*ndarray.Array) map[string]*ndarray.Array {
	feeds := map[string]*ndarray.Array{}
	j := 0
	for _, x := range c.in {
		if x.fixed {
			continue
		}
		feeds[phs[j].Name()] = x.a
		if o, ok := override[phs[j].Name()]; ok {
			feeds[phs[j].Name()] = o
		}
		j++
	}
	return feeds
}

// TestOpGradients compares every op's reverse-mode gradient with central
// differences in float64.
func TestOpGradients(t *testing.T) {
	for _, c := range gradCases() {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 1))
			g, loss, phs := buildCase(t, c, rng)
			grads, err := autodiff.Grad(loss, phs...)
			if err != nil {
				t.Fatal(err)
			}
			s := exec.New(g)
			base := feedsOf(c, phs, nil)
			res, err := s.Output(base, names(grads)...)
			if err != nil {
				t.Fatal(err)
			}
			const eps = 1e-6
			lossAt := func(ph string, a *ndarray.Array) float64 {
				out, err := s.Output(feedsOf(c, phs, map[string]*ndarray.Array{ph: a}), loss.Name())
				if err != nil {
					t.Fatal(err)
				}
				return out[loss.Name()].Float()
			}
			for k, p := range phs {
				x := base[p.Name()]
				analytic := res[grads[k].Name()].Float64s()
				vals := x.Float64s()
				for j := range vals {
					plus := append([]float64(nil), vals...)
					minus := append([]float64(nil), vals...)
					plus[j] += eps
					minus[j] -= eps
					fp := lossAt(p.Name(), ndarray.Must(ndarray.FromSlice(plus, x.Shape()...)))
					fm := lossAt(p.Name(), ndarray.Must(ndarray.FromSlice(minus, x.Shape()...)))
					numeric := (fp - fm) / (2 * eps)
					a := analytic[j]
					if math.Abs(a-numeric) > 1e-6*(math.Abs(a)+math.Abs(numeric)) && math.Abs(a-numeric) > 1e-8 {
						t.Errorf("input %s element %d: analytic %.10g, numeric %.10g", p.Name(), j, a, numeric)
					}
				}
			}
		})
	}
}

// Every differentiable op has a gradient case here.
func TestEveryDifferentiableOpHasGradientCase(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range gradCases() {
		d, _ := ops.Lookup(c.op)
		seen[d.Name] = true
	}
	for _, d := range ops.All() {
		if d.Differentiable() && !seen[d.Name] {
			t.Errorf("op %q has a gradient rule but no gradient case", d.Name)
		}
	}
}
