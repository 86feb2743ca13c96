package serialize

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/autodiff"
	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/serialize/internal/fb"
)

// propsGraph: conv2d (2x2 kernel, SAME), relu, softmax along the channels,
// concat along them, casts to float32 and back, loss = Σ c².
func propsGraph(t testing.TB) *graph.Graph {
	t.Helper()
	g := graph.New()
	xs := make([]float64, 2*4*4)
	for i := range xs {
		xs[i] = math.Sin(float64(i)) // both signs, for relu
	}
	ws := make([]float64, 2*2*2*3)
	for i := range ws {
		ws[i] = math.Cos(float64(3*i)) / 2
	}
	x := g.Var("x", ndarray.Must(ndarray.FromSlice(xs, 1, 2, 4, 4)))
	w := g.Var("w", ndarray.Must(ndarray.FromSlice(ws, 2, 2, 2, 3)))
	conv := g.CNN().Conv2D(x, w, nil, graph.Conv2DConfig{Kernel: [2]int{2, 2}, Padding: graph.PaddingSame}).Named("conv")
	r := g.NN().Relu(conv).Named("r")
	s := g.NN().Softmax(r, 1).Named("s")
	cat := g.Concat(1, s, r).Named("cat")
	c := cat.Cast(ndarray.Float32).Named("c32").Cast(ndarray.Float64).Named("c")
	c.Mul(c).Sum().Named("loss")
	if err := g.Err(); err != nil {
		t.Fatal(err)
	}
	return g
}

// javaSaved saves g for Java and reports any blocker CheckJava finds.
func javaSaved(t *testing.T, what string, g *graph.Graph) []byte {
	t.Helper()
	buf := must(Encode(g, &SaveOptions{Java: true}))
	fs, err := CheckJava(buf)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range Blockers(fs) {
		t.Errorf("%s: %v", what, f)
	}
	return buf
}

// varsNamed returns g's variables of the given names.
func varsNamed(g *graph.Graph, names ...string) []*graph.Variable {
	out := make([]*graph.Variable, len(names))
	for i, n := range names {
		out[i], _ = g.Variable(n)
	}
	return out
}

func propOf(n *rawNode, name string) string {
	for _, p := range n.Properties {
		if p.Name == name {
			return fmt.Sprint(p.I, p.L, p.S, p.B)
		}
	}
	return "absent"
}

// TestJavaSaveProperties: conv2d, softmax, concat and cast carry the
// properties Java's classes restore (Conv2DConfig's fields, SoftMax's
// dimension, Concat's concatDimension, Cast's typeDst), relu its cutoff in
// FlatNode.scalar (RectifiedLinear reads it there, for its gradient too);
// saved for Java the file has no blocker, and loads back into sdgo as the
// same graph with the same values and gradients.
func TestJavaSaveProperties(t *testing.T) {
	g := propsGraph(t)
	opts := &SaveOptions{Java: true}
	buf := javaSaved(t, "", g)
	r := savedRaw(t, g, opts)
	want := map[string]map[string]string{
		"conv": {"kH": "[] [2] [] []", "kW": "[] [2] [] []", "sH": "[] [1] [] []", "pW": "[] [0] [] []", "dW": "[] [1] [] []",
			"paddingMode": "[] [] [SAME] []", "dataFormat": "[] [] [NCHW] []", "weightsFormat": "[] [] [YXIO] []"},
		"s":   {"dimension": "[1] [] [] []"},
		"cat": {"concatDimension": "[1] [] [] []", "isDynamicAxis": "[] [] [] [false]"},
		"c32": {"typeDst": "[] [] [FLOAT] []"},
		"c":   {"typeDst": "[] [] [DOUBLE] []"},
	}
	seen := 0
	for i := range r.Nodes {
		n := &r.Nodes[i]
		out := n.OutputNames[0]
		if want[out] != nil || out == "r" {
			seen++
		}
		for p, v := range want[out] {
			if got := propOf(n, p); got != v {
				t.Errorf("node %s (%s): property %s = %s, want %s", n.Name, n.OpName, p, got, v)
			}
		}
		if out == "r" {
			if n.Scalar == nil {
				t.Fatal("relu written without its scalar")
			}
			v, err := rawNumbers(n.Scalar)
			if err != nil || len(v) != 1 || v[0] != 0 || ndarray.DType(n.Scalar.DType) != ndarray.Float64 || len(n.Scalar.ShapeInfo) != 6 {
				t.Errorf("relu's scalar %v %v (%v, shape-info %v), want a rank-0 double 0", v, err, n.Scalar.DType, n.Scalar.ShapeInfo)
			}
		}
	}
	if seen != len(want)+1 {
		t.Fatalf("found %d of the %d nodes checked", seen, len(want)+1)
	}
	g2, err := Decode(buf)
	if err != nil {
		t.Fatal(err)
	}
	if d := graphDiff(g, g2); d != "" {
		t.Fatalf("graph changed in the Java round trip:\n%s", d)
	}
	a, b := run(t, g, nil, "c", "loss"), run(t, g2, nil, "c", "loss")
	for _, k := range []string{"c", "loss"} {
		if d := arrayDiff(a[k], b[k]); d != "" {
			t.Errorf("%s: %s", k, d)
		}
	}
	grads := func(g *graph.Graph) map[string]*ndarray.Array {
		loss, _ := g.Variable("loss")
		x, _ := g.Variable("x")
		w, _ := g.Variable("w")
		d, err := autodiff.Grad(loss, x, w)
		if err != nil {
			t.Fatal(err)
		}
		return run(t, g, nil, d[0].Name(), d[1].Name())
	}
	ga, gb := grads(g), grads(g2)
	if len(ga) != 2 {
		t.Fatalf("gradients %v", ga)
	}
	for k := range ga {
		if d := arrayDiff(ga[k], gb[k]); d != "" {
			t.Errorf("gradient %s: %s", k, d)
		}
	}
}

// A relu whose scalar (libnd4j's cutoff) is not 0 is refused, naming it:
// sdgo computes relu with cutoff 0 only, and running another as 0 would
// give other values without a word.
func TestReluCutoffRefused(t *testing.T) {
	r := savedRaw(t, propsGraph(t), nil)
	for i := range r.Nodes {
		if r.Nodes[i].OutputNames[0] == "r" {
			sc, err := scalarRaw(0.5, ndarray.Float64, fb.ByteOrderLE, false)
			if err != nil {
				t.Fatal(err)
			}
			r.Nodes[i].Scalar = &sc
		}
	}
	g, err := decodeRaw(t, r)
	if err == nil {
		_, err = exec.New(g).Output(nil, "r")
	}
	if err == nil || !strings.Contains(err.Error(), "cutoff 0.5") {
		t.Errorf("relu with cutoff 0.5: %v", err)
	}
}
