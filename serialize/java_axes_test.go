package serialize

import (
	"fmt"
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// axesGraph: x [2,3] = [[1,9,3],[7,5,6]], its argmax and argmin along axis
// 1 and reduce_sum_bp of a sum along axis 1 (a custom op the gradient of
// reduce_sum writes, with the axes in the dimensions slot).
func axesGraph(t *testing.T) *graph.Graph {
	t.Helper()
	g := graph.New()
	x := g.Const("x", ndarray.Must(ndarray.FromSlice([]float64{1, 9, 3, 7, 5, 6}, 2, 3)))
	x.ArgMax(1).Named("amax")
	x.ArgMin(1).Named("amin")
	gk := g.Const("gk", ndarray.Must(ndarray.FromSlice([]float64{10, 20}, 2)))
	g.Apply("reduce_sum_bp", ops.Args{Dims: []int{1}}, x, gk).Named("bp")
	// A negative axis is written as it is; the AllDims marker (every axis)
	// writes no iArgs.
	x.ArgMax(-1).Named("amaxneg")
	g.Apply("argmax", ops.Args{Dims: []int{ops.AllDims}, B: []bool{false}}, x).Named("aall")
	return g
}

// TestCustomAxesInIArgs: a custom op whose axes sdgo keeps in the
// dimensions slot (argmax, argmin, reduce_sum_bp) writes them to iArgs too,
// where Java's op classes and libnd4j read them; the round trip gives the
// graph back unchanged, and the every-axis marker writes no iArgs.
func TestCustomAxesInIArgs(t *testing.T) {
	g := axesGraph(t)
	r := savedRaw(t, g, nil)
	want := map[string]string{"amax": "[1] [1]", "amin": "[1] [1]", "bp": "[1] [1]", "amaxneg": "[-1] [-1]",
		"aall": fmt.Sprintf("[] [%d]", ops.AllDims)}
	for _, n := range r.Nodes {
		if w, ok := want[n.OutputNames[0]]; ok {
			if got := fmt.Sprint(n.ExtraInteger, " ", n.Dimensions); got != w {
				t.Errorf("%s: iArgs, dimensions = %s, want %s", n.OutputNames[0], got, w)
			}
			delete(want, n.OutputNames[0])
		}
	}
	if len(want) != 0 {
		t.Errorf("nodes not written: %v", want)
	}
	g2 := roundTrip(t, g, nil)
	res := run(t, g2, nil, "amax", "amin", "bp", "amaxneg", "aall")
	for name, w := range map[string]string{"amax": "[1 0]", "amin": "[0 1]", "amaxneg": "[1 0]", "aall": "1",
		"bp": "[10 10 10 20 20 20]"} {
		var got string
		switch a := res[name]; a.DType() {
		case ndarray.Int64:
			got = fmt.Sprint(a.Int64s())
			if a.Rank() == 0 {
				got = fmt.Sprint(a.Int64s()[0])
			}
		default:
			got = fmt.Sprint(a.Float64s())
		}
		if got != w {
			t.Errorf("%s = %s, want %s", name, got, w)
		}
	}
}

// TestCustomAxesEitherSlot: a file may give a custom op's axes in iArgs
// alone (as Java writes argmax), or in the dimensions alone (as sdgo wrote
// before); both load and run along that axis.
func TestCustomAxesEitherSlot(t *testing.T) {
	for _, form := range []string{"iArgs", "dimensions"} {
		r := savedRaw(t, axesGraph(t), nil)
		for i := range r.Nodes {
			n := &r.Nodes[i]
			if o := n.OutputNames[0]; o != "amax" && o != "amin" {
				continue
			}
			if form == "iArgs" {
				n.Dimensions = nil
			} else {
				n.ExtraInteger = []int64{}
			}
		}
		g, err := decodeRaw(t, r)
		if err != nil {
			t.Fatalf("%s: %v", form, err)
		}
		res := run(t, g, nil, "amax", "amin")
		if a, b := fmt.Sprint(res["amax"].Int64s()), fmt.Sprint(res["amin"].Int64s()); a != "[1 0]" || b != "[0 1]" {
			t.Errorf("axes in %s: argmax %s, argmin %s; want [1 0], [0 1]", form, a, b)
		}
		v, _ := g.Variable("amax")
		if form == "iArgs" && fmt.Sprint(v.Op().Args().I) != "[1]" {
			t.Errorf("axes in iArgs: args %+v", *v.Op().Args())
		}
	}
}

// savedRaw is g as Encode writes it with opts, decoded to the raw form.
func savedRaw(t testing.TB, g *graph.Graph, opts *SaveOptions) *rawGraph {
	t.Helper()
	r, err := decode(must(Encode(g, opts)))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func must[T any](x T, err error) T {
	if err != nil {
		panic(err)
	}
	return x
}
