package serialize

import (
	"math"
	"testing"

	"github.com/sdgo/sdgo/autodiff"
	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	"github.com/sdgo/sdgo/serialize/internal/fb"
)

// An MLP in the form Deeplearning4j writes it runs and differentiates: the
// arithmetic with numbers as legacy scalar ops whose number sits only in
// FlatNode.scalar (x.mul(0.5), x.add(0.1), 1 - labels), dropout as libnd4j's
// custom op with its seed, and a sigmoid cross-entropy loss over
// [predictions, weights, labels] with SameDiff's default reduction (issue
// 26). The file's graph gives the loss and gradients the graph built in Go
// gives.
func TestDL4JStyleMLP(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("input", ndarray.Float32, -1, 4)
	labels := g.Placeholder("labels", ndarray.Float32, -1, 1)
	r := ndarray.Must(ndarray.Arange(ndarray.Float32, -0.35, 0.0213, 32))
	w0 := g.Var("w0", ndarray.Must(ndarray.Reshape(r, 4, 8)))
	b0 := g.Var("b0", ndarray.Must(ndarray.Full(ndarray.Float32, 0.05, 8)))
	w1 := g.Var("w1", ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.Arange(ndarray.Float32, 0.3, -0.07, 8)), 8, 1)))
	b1 := g.Var("b1", ndarray.Must(ndarray.Full(ndarray.Float32, -0.1, 1)))
	scalar := func(op string, v float64, in *graph.Variable) *graph.Variable {
		return g.Apply(op, ops.Args{F: []float64{v}}, in)
	}
	h := g.Apply("relu", ops.Args{}, g.Apply("biasadd", ops.Args{}, x.MatMul(w0), b0))
	h = scalar("add_scalar", 0.1, scalar("mul_scalar", 0.5, h))
	h = g.Apply("dropout", ops.Args{F: []float64{0.75}, I: []int64{42}}, h)
	logits := g.Apply("biasadd", ops.Args{}, h.MatMul(w1), b1)
	target := scalar("rsub_scalar", 1, scalar("rsub_scalar", 1, labels)) // 1 - (1 - labels)
	g.Loss().SigmoidCrossEntropy(target, logits, nil).Named("loss")
	if err := g.Err(); err != nil {
		t.Fatal(err)
	}

	buf, err := Encode(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := decode(buf)
	if err != nil {
		t.Fatal(err)
	}
	scalars := 0
	for i := range raw.Nodes {
		n := &raw.Nodes[i]
		if n.OpType != fb.OpTypeSCALAR || len(n.ExtraParams) == 0 {
			continue
		}
		// Java writes the number in FlatNode.scalar only.
		sc, err := scalarRaw(n.ExtraParams[0], ndarray.Float32, fb.ByteOrderBE, false)
		if err != nil {
			t.Fatal(err)
		}
		n.ExtraParams, n.Scalar = nil, &sc
		scalars++
	}
	if scalars != 4 {
		t.Fatalf("%d scalar nodes rewritten, want 4", scalars)
	}
	if buf, err = encode(raw); err != nil {
		t.Fatal(err)
	}
	loaded, err := Decode(buf)
	if err != nil {
		t.Fatal(err)
	}
	if un := ReportOf(loaded).Unimplemented; len(un) > 0 {
		t.Fatalf("ops sdgo lacks: %v", un)
	}

	feeds := map[string]*ndarray.Array{
		"input":  ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.Arange(ndarray.Float32, -1, 0.17, 12)), 3, 4)),
		"labels": ndarray.Must(ndarray.FromSlice([]float32{1, 0, 1}, 3, 1)),
	}
	lossAndGrads := func(g *graph.Graph) []float64 {
		lv, _ := g.Variable("loss")
		var wrt []*graph.Variable
		for _, n := range []string{"w0", "b0", "w1", "b1"} {
			v, _ := g.Variable(n)
			wrt = append(wrt, v)
		}
		grads, err := autodiff.Grad(lv, wrt...)
		if err != nil {
			t.Fatal(err)
		}
		names := []string{"loss"}
		for _, gv := range grads {
			names = append(names, gv.Name())
		}
		out, err := exec.New(g).Output(feeds, names...)
		if err != nil {
			t.Fatal(err)
		}
		var all []float64
		for _, n := range names {
			all = append(all, out[n].Float64s()...)
		}
		return all
	}
	want := lossAndGrads(g)
	got := lossAndGrads(loaded)
	if len(got) != len(want) {
		t.Fatalf("%d values from the file's graph, %d from Go's", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] || math.IsNaN(got[i]) {
			t.Fatalf("value %d: %v from the file's graph, %v from Go's", i, got[i], want[i])
		}
	}
	if want[0] <= 0 || want[0] > 2 {
		t.Errorf("loss %v: not a plausible mean sigmoid cross-entropy of 3 examples", want[0])
	}
}
