package serialize

import (
	"slices"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/autodiff"
	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// trainedLinear is preds = x·w with a mean squared error loss against y,
// its gradient built into the graph and training meta set, as a trainer
// leaves a graph.
func trainedLinear(t *testing.T) *graph.Graph {
	t.Helper()
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float32, -1, 2)
	y := g.Placeholder("y", ndarray.Float32, -1, 1)
	w := g.Var("w", ndarray.Must(ndarray.FromSlice([]float32{2, -1}, 2, 1)))
	preds := x.MatMul(w).Named("preds")
	g.Loss().MeanSquaredError(y, preds).Named("loss")
	if err := g.SetLoss("loss"); err != nil {
		t.Fatal(err)
	}
	if _, err := autodiff.Gradients(g, w); err != nil {
		t.Fatal(err)
	}
	g.SetMeta(graph.MetaTrainingConfig, `{"lossVariables":["loss"]}`)
	g.SetMeta(graph.MetaUpdaterState, map[string]map[string]*ndarray.Array{"w": {"M": ndarray.Must(ndarray.Zeros(ndarray.Float32, 2, 1))}})
	return g
}

// An inference file keeps what its outputs need (x, w, the matmul) and
// nothing of training: no labels, loss, gradient, configuration or
// updater state; it names the outputs, and computes what the full graph
// does.
func TestInferenceFile(t *testing.T) {
	g := trainedLinear(t)
	full := savedRaw(t, g, &SaveOptions{UpdaterState: true})
	r := savedRaw(t, g, &SaveOptions{InferenceOutputs: []string{"preds"}})
	var names []string
	for _, v := range r.Variables {
		names = append(names, v.Name)
	}
	if strings.Join(names, " ") != "x w preds" || len(r.Nodes) != 1 || r.Nodes[0].OpName != "matmul" {
		t.Errorf("inference file: variables %q, %d nodes; the full file has %d variables, %d nodes", names, len(r.Nodes), len(full.Variables), len(full.Nodes))
	}
	if r.TrainingConfig != "" || len(r.UpdaterState) != 0 || len(r.LossVariables) != 0 || !slices.Equal(r.Placeholders, []string{"x"}) {
		t.Errorf("inference file keeps training: config %q, %d updater states, losses %q, placeholders %q", r.TrainingConfig, len(r.UpdaterState), r.LossVariables, r.Placeholders)
	}
	if len(r.Outputs) != 1 || *r.Variables[2].ID != r.Outputs[0] {
		t.Errorf("outputs %v, preds is %v", r.Outputs, r.Variables[2].ID)
	}
	buf, err := Encode(g, &SaveOptions{InferenceOutputs: []string{"preds"}})
	if err != nil {
		t.Fatal(err)
	}
	g2, err := Decode(buf)
	if err != nil {
		t.Fatal(err)
	}
	if got := OutputsOf(g2); !slices.Equal(got, []string{"preds"}) {
		t.Errorf("OutputsOf: %q", got)
	}
	if OutputsOf(g) != nil {
		t.Errorf("OutputsOf a graph not loaded: %q", OutputsOf(g))
	}
	feed := map[string]*ndarray.Array{"x": ndarray.Must(ndarray.FromSlice([]float32{1, 2, 3, 4}, 2, 2))}
	want, err := exec.Output(g, feed, "preds")
	if err != nil {
		t.Fatal(err)
	}
	got, err := exec.Output(g2, feed, "preds")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got["preds"].Float64s(), want["preds"].Float64s()) || !slices.Equal(got["preds"].Float64s(), []float64{0, 2}) {
		t.Errorf("preds %v, the full graph's %v, want [0 2]", got["preds"], want["preds"])
	}
	if _, err := Encode(g, &SaveOptions{InferenceOutputs: []string{"nope"}}); err == nil || !strings.Contains(err.Error(), `InferenceOutputs names "nope"`) {
		t.Errorf("unknown output: %v", err)
	}
	if _, err := Encode(g, &SaveOptions{InferenceOutputs: []string{"preds"}, UpdaterState: true}); err == nil || !strings.Contains(err.Error(), "no updater state") {
		t.Errorf("with updater state: %v", err)
	}
}

// A loaded file's control dependencies on what an inference file leaves
// out are dropped; those on what it keeps stay.
func TestInferenceFileControlDeps(t *testing.T) {
	r := chain() // c = a + b, d = c * a
	r.Variables = append(r.Variables, rOut(5, 0, "e"))
	r.Nodes = append(r.Nodes, rNode(5, "e", "subtract", p(1, 0), p(2, 0)))
	r.Nodes[1].ControlDeps = []string{"e", "c"}
	r.Variables[0].ControlDepForOp = []string{"e", "d"}
	g, err := decodeRaw(t, r)
	if err != nil {
		t.Fatal(err)
	}
	r2 := savedRaw(t, g, &SaveOptions{InferenceOutputs: []string{"d"}})
	if len(r2.Nodes) != 2 || !slices.Equal(r2.Nodes[1].ControlDeps, []string{"c"}) || !slices.Equal(r2.Variables[0].ControlDepForOp, []string{"d"}) {
		t.Errorf("nodes %d, d's control deps %q, a's control dep for ops %q", len(r2.Nodes), r2.Nodes[1].ControlDeps, r2.Variables[0].ControlDepForOp)
	}
	if _, err := decodeRaw(t, r2); err != nil {
		t.Errorf("reloading: %v", err)
	}
}

// A loop survives: the inference file of simplewhile_1's Exit_1 (y at the
// loop's end) keeps the whole loop, x's half included since the loop's
// condition reads sum(x), and leaves out x's exit and the Add and
// identity after the loop; reloaded, it gives what the full file gives.
func TestInferenceFileKeepsLoops(t *testing.T) {
	g := loadFixture(t, "simplewhile_1.fb")
	buf, err := Encode(g, &SaveOptions{InferenceOutputs: []string{"while/Exit_1"}})
	if err != nil {
		t.Fatal(err)
	}
	g2, err := Decode(buf)
	if err != nil {
		t.Fatal(err)
	}
	var dropped []string
	for _, o := range g.Ops() {
		if _, ok := g2.OpByName(o.Name()); !ok {
			dropped = append(dropped, o.Name())
		}
	}
	slices.Sort(dropped)
	if !slices.Equal(dropped, []string{"Add", "output", "while/Exit"}) || len(g2.Ops()) != len(g.Ops())-3 {
		t.Errorf("the inference file leaves out %q, keeps %d of %d ops", dropped, len(g2.Ops()), len(g.Ops()))
	}
	feeds := map[string]*ndarray.Array{
		"input_0": ndarray.Must(ndarray.FromSlice([]float32{-4, -4, -4, -4}, 2, 2)),
		"input_1": ndarray.Scalar(float32(1)),
	}
	want := runOut(t, g, feeds, "while/Exit_1")
	got := runOut(t, g2, feeds, "while/Exit_1")
	if !slices.Equal(got.Float64s(), want.Float64s()) {
		t.Errorf("Exit_1 %v, the full file's %v", got, want)
	}
}
