package train

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/serialize"
)

// Predictor runs a model on new inputs: it computes the named outputs
// from the placeholders they depend on (Inputs), given by name.
type Predictor struct {
	s       *exec.Session
	outputs []*graph.Variable
	inputs  []*graph.Variable
}

// NewPredictor returns a predictor of g's outputs (at least one).
func NewPredictor(g *graph.Graph, outputs ...string) (*Predictor, error) {
	if g == nil {
		return nil, fmt.Errorf("train: NewPredictor of a nil graph")
	}
	if len(outputs) == 0 {
		return nil, fmt.Errorf("train: a predictor needs the names of the outputs it computes")
	}
	p := &Predictor{s: exec.New(g)}
	for _, n := range outputs {
		v, ok := g.Variable(n)
		if !ok {
			return nil, withBuildErr(g, fmt.Errorf("train: predictor output %q is not a variable of the graph", n))
		}
		p.outputs = append(p.outputs, v)
	}
	// The placeholders the outputs depend on, in the graph's order.
	need := map[*graph.Variable]bool{}
	seen := map[*graph.Op]bool{}
	stack := slices.Clone(p.outputs)
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if v.Type() == graph.PLACEHOLDER {
			need[v] = true
		}
		if op := v.Op(); op != nil && !seen[op] {
			seen[op] = true
			stack = append(stack, op.Inputs()...)
		}
	}
	for _, v := range g.VariablesOf(graph.PLACEHOLDER) {
		if need[v] {
			p.inputs = append(p.inputs, v)
		}
	}
	return p, nil
}

// LoadPredictor loads a graph file (an inference file saved with
// serialize.SaveOptions.InferenceOutputs, or any other) and returns a
// predictor of outputs; none means the outputs the file names.
func LoadPredictor(path string, outputs ...string) (*Predictor, error) {
	g, err := serialize.Load(path)
	if err != nil {
		return nil, fmt.Errorf("train: loading a model to predict with: %w", err)
	}
	if len(outputs) == 0 {
		if outputs = serialize.OutputsOf(g); len(outputs) == 0 {
			return nil, fmt.Errorf("train: %s names no outputs: name the variables to predict", path)
		}
	}
	return NewPredictor(g, outputs...)
}

// Inputs returns the names of the placeholders the outputs depend on: the
// inputs Predict needs.
func (p *Predictor) Inputs() []string { return varNames(p.inputs) }

// Outputs returns the names of the outputs Predict computes.
func (p *Predictor) Outputs() []string { return varNames(p.outputs) }

func varNames(vs []*graph.Variable) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Name()
	}
	return out
}

// Predict computes the outputs, by name, from inputs given by the names
// of the placeholders (Inputs). A missing input, a name that is not one,
// or an array of the wrong dtype or shape is an error naming it.
func (p *Predictor) Predict(inputs map[string]*ndarray.Array) (map[string]*ndarray.Array, error) {
	want := p.Inputs()
	for n := range inputs {
		if !slices.Contains(want, n) {
			return nil, fmt.Errorf("train: predict: %q is not an input of %s; the inputs are %s", n, strings.Join(p.Outputs(), ", "), quoteAll(want))
		}
	}
	for _, v := range p.inputs {
		if _, ok := inputs[v.Name()]; !ok {
			return nil, fmt.Errorf("train: predict: no value for input %q (%v of shape %v); the inputs are %s", v.Name(), v.DType(), v.Shape(), quoteAll(want))
		}
	}
	out, err := p.s.Output(inputs, p.Outputs()...)
	if err != nil {
		return nil, fmt.Errorf("train: predict: %w", err)
	}
	return out, nil
}

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}
