package serialize

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// lstmGraph: a bidirectional-concat lstmLayer over x [batch 2, time 3,
// nIn 2] (NTS), nOut 2, whose cell and output activations differ (softsign,
// hard sigmoid) so that swapping them changes the values, with a cell clip;
// it returns h and the last cell state, and loss = Σ h² + Σ cL.
func lstmGraph(t testing.TB, cfg graph.LSTMLayerConfig) *graph.Graph {
	t.Helper()
	g := graph.New()
	vals := func(n int, k float64) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = math.Sin(k*float64(i+1)) / 2
		}
		return v
	}
	x := g.Var("x", ndarray.Must(ndarray.FromSlice(vals(12, 1.3), 2, 3, 2)))
	wx := g.Var("wx", ndarray.Must(ndarray.FromSlice(vals(32, 0.7), 2, 2, 8)))
	wr := g.Var("wr", ndarray.Must(ndarray.FromSlice(vals(32, 1.9), 2, 2, 8)))
	o := g.RNN().LSTMLayer(x, graph.LSTMLayerWeights{Wx: wx, Wr: wr}, graph.LSTMLayerState{}, cfg)
	o.H.Named("h")
	o.CLast.Named("cl")
	o.H.Mul(o.H).Sum().Add(o.CLast.Sum()).Named("loss")
	if err := g.Err(); err != nil {
		t.Fatal(err)
	}
	return g
}

var lstmJavaCfg = graph.LSTMLayerConfig{
	DataFormat: graph.LSTMBatchTime, Direction: graph.LSTMBidirectionalConcat,
	CellAct: graph.LSTMActivation{Kind: graph.LSTMSoftsign}, OutAct: graph.LSTMActivation{Kind: graph.LSTMHardSigmoid},
	CellClip: 0.5, ReturnSequence: true, ReturnLastC: true,
}

// TestJavaSaveLSTMLayer: Java's LSTMLayer builds its config from the
// node's properties and computes the int args it runs with from the config,
// outAct at 3 and cellAct at 4, where libnd4j reads cellAct at 3. The file
// keeps libnd4j's order (dataFormat, directionMode, gateAct, cellAct,
// outAct) and names in the properties the codes that make Java's int args
// equal to the file's; the graph loads back into sdgo with equal values.
func TestJavaSaveLSTMLayer(t *testing.T) {
	g := lstmGraph(t, lstmJavaCfg)
	buf := javaSaved(t, "lstmLayer", g)
	r := savedRaw(t, g, &SaveOptions{Java: true})
	var n *rawNode
	for i := range r.Nodes {
		if r.Nodes[i].OpName == "lstmLayer" {
			n = &r.Nodes[i]
		}
	}
	if n == nil {
		t.Fatal("no lstmLayer node in the file")
	}
	// NTS 1, BIDIR_CONCAT 3, sigmoid 2, cellAct softsign 9, outAct hard sigmoid 7.
	if got := fmt.Sprint(n.ExtraInteger); got != "[1 3 2 9 7]" {
		t.Errorf("int args %s, want libnd4j's [1 3 2 9 7]", got)
	}
	want := map[string]string{
		"gateAct": "[] [] [] [SIGMOID] []", "outAct": "[] [] [] [SOFTSIGN] []", "cellAct": "[] [] [] [HARD_SIGMOID] []",
		"retFullSequence": "[] [] [] [] [true]", "retLastH": "[] [] [] [] [false]", "retLastC": "[] [] [] [] [true]",
		"cellClip": "[] [] [0.5] [] []", "lstmdataformat": "[] [] [] [NTS] []", "directionMode": "[] [] [] [BIDIR_CONCAT] []",
	}
	for name, w := range want {
		p := prop(n, name)
		got := "absent"
		if p != nil {
			got = fmt.Sprint(p.I, p.L, p.D, p.S, p.B)
			if len(p.Shape) != 0 {
				got += fmt.Sprint(" shape ", p.Shape)
			}
		}
		if got != w {
			t.Errorf("property %s = %s, want %s", name, got, w)
		}
	}
	if len(n.Properties) != len(want) {
		t.Errorf("%d properties, want %d", len(n.Properties), len(want))
	}
	// Java's LSTMLayer.iArgs(): lstmdataformat, directionMode, gateAct,
	// outAct, cellAct ordinals of the config the properties built.
	ord := func(name string, names []string) int64 { return int64(slices.Index(names, prop(n, name).S[0])) }
	javaI := []int64{ord("lstmdataformat", javaLSTMFormats), ord("directionMode", javaLSTMDirections),
		ord("gateAct", javaLSTMActs), ord("outAct", javaLSTMActs), ord("cellAct", javaLSTMActs)}
	if !slices.Equal(javaI, n.ExtraInteger) {
		t.Errorf("Java would run int args %v, the file says %v", javaI, n.ExtraInteger)
	}
	g2, err := Decode(buf)
	if err != nil {
		t.Fatal(err)
	}
	if d := graphDiff(g, g2); d != "" {
		t.Fatalf("graph changed in the Java round trip:\n%s", d)
	}
	a, b := run(t, g, nil, "h", "cl", "loss"), run(t, g2, nil, "h", "cl", "loss")
	for _, k := range []string{"h", "cl", "loss"} {
		if d := arrayDiff(a[k], b[k]); d != "" {
			t.Errorf("%s: %s", k, d)
		}
	}
	// Swapping the cell and output activations changes the values, so the
	// order above is tested by the values too.
	sw := lstmJavaCfg
	sw.CellAct, sw.OutAct = sw.OutAct, sw.CellAct
	c := run(t, lstmGraph(t, sw), nil, "loss")
	if d := arrayDiff(a["loss"], c["loss"]); d == "" {
		t.Errorf("loss %v unchanged when cellAct and outAct swap", a["loss"])
	}
}

// An lstmLayer activation that takes an alpha cannot go to Java (its
// LSTMLayer hands libnd4j the cell clip alone as float args): saving for
// Java fails naming the node and the reason; the default save writes it.
func TestJavaSaveLSTMLayerAlphaRefused(t *testing.T) {
	cfg := lstmJavaCfg
	cfg.OutAct = graph.LSTMActivation{Kind: graph.LSTMLeakyRelu, Alpha: 0.1}
	g := lstmGraph(t, cfg)
	_, err := Encode(g, &SaveOptions{Java: true})
	if err == nil || !strings.Contains(err.Error(), `op "lstmLayer"`) || !strings.Contains(err.Error(), "alpha") {
		t.Errorf("Java save of an lstmLayer with leaky relu: %v", err)
	}
	if _, err := Encode(g, nil); err != nil {
		t.Errorf("default save: %v", err)
	}
}

// CheckJava blocks an lstmLayer node whose properties would give Java's
// LSTMLayer other int args, outputs or clip than the node's, and a conv2d
// whose weights are not in the layout Java's gradient assumes.
func TestCheckJavaPropsMisread(t *testing.T) {
	r := savedRaw(t, lstmGraph(t, lstmJavaCfg), &SaveOptions{Java: true})
	tab := javaTable()
	found := false
	for i := range r.Nodes {
		if r.Nodes[i].OpName != "lstmLayer" {
			continue
		}
		found = true
		if f := tab.check(&r.Nodes[i]); f.Level == JavaBlocker {
			t.Fatalf("as saved: %v", f)
		}
		for _, c := range []struct {
			name, what string
			edit       func(n *rawNode)
		}{
			{"no properties", "[0 0 2 0 0]", func(n *rawNode) { n.Properties = nil }},
			{"acts as Java names them", "[1 3 2 7 9]", func(n *rawNode) {
				prop(n, "outAct").S, prop(n, "cellAct").S = []string{"HARD_SIGMOID"}, []string{"SOFTSIGN"}
			}},
			{"retLastC", "retLastC", func(n *rawNode) { prop(n, "retLastC").B = []bool{false} }},
			{"cellClip", "cellClip, 0", func(n *rawNode) { prop(n, "cellClip").D = []float64{0} }},
		} {
			n := r.Nodes[i]
			n.Properties = slices.Clone(n.Properties)
			for k := range n.Properties {
				n.Properties[k].S = slices.Clone(n.Properties[k].S)
				n.Properties[k].B = slices.Clone(n.Properties[k].B)
				n.Properties[k].D = slices.Clone(n.Properties[k].D)
			}
			c.edit(&n)
			if f := tab.check(&n); f.Level != JavaBlocker || !strings.Contains(f.Message, c.what) {
				t.Errorf("%s: %v, want a blocker naming %s", c.name, f, c.what)
			}
		}
	}
	if !found {
		t.Fatal("the Java save holds no lstmLayer node to check")
	}
	g := graph.New()
	x := g.Var("x", ndarray.Must(ndarray.FromSlice(make([]float64, 16), 1, 1, 4, 4)))
	w := g.Var("w", ndarray.Must(ndarray.FromSlice(make([]float64, 4), 1, 1, 2, 2)))
	g.CNN().Conv2D(x, w, nil, graph.Conv2DConfig{Kernel: [2]int{2, 2}, WeightFormat: graph.WeightsOIHW}).Named("conv")
	if err := g.Err(); err != nil {
		t.Fatal(err)
	}
	_, err := Encode(g, &SaveOptions{Java: true})
	if err == nil || !strings.Contains(err.Error(), `op "conv2d"`) || !strings.Contains(err.Error(), "weightsFormat") {
		t.Errorf("Java save of conv2d with OIYX weights: %v", err)
	}
}
