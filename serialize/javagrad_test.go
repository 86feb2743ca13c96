package serialize

import (
	"strings"
	"testing"

	"github.com/sdgo/sdgo/autodiff"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/serialize/internal/fb"
)

// TestJavaSaveOmitsGradients: saved for Java, the gradients autodiff built
// (through views and in-place writes; conv2d, softmax, concat, casts; a
// loop holding a conditional, whose gradient is a backward loop with
// sdgo's internal ops) are
// not in the file, as SameDiff saves no gradient: no blocker, no
// "-grad" variable Java would build again, none of sdgo's gradient ops.
// Loaded by sdgo, they are built again: the same graph, values and
// gradients; saving it again gives the same bytes.
func TestJavaSaveOmitsGradients(t *testing.T) {
	for _, c := range []struct {
		name  string
		build func(testing.TB) *graph.Graph
		wrt   []string
		feeds map[string]*ndarray.Array
	}{
		{"view writes", viewWrites, []string{"x"}, idxFeed(-1)},
		{"conv2d, softmax, concat, cast", propsGraph, []string{"x", "w"}, nil},
		{"loop and conditional", controlGraph, []string{"x"},
			map[string]*ndarray.Array{"x": ndarray.Must(ndarray.FromSlice([]float64{-0.3, 0.1})), "n": ndarray.Scalar(4.0)}},
	} {
		g := c.build(t)
		loss, _ := g.Variable("loss")
		grads, err := autodiff.Grad(loss, varsNamed(g, c.wrt...)...)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, gv := range grads {
			names = append(names, gv.Name())
		}
		feeds := c.feeds
		want := run(t, g, feeds, names...)

		opts := &SaveOptions{Java: true}
		buf := javaSaved(t, c.name, g)
		r := savedRaw(t, g, opts)
		for _, n := range r.Nodes {
			if strings.HasSuffix(n.OpName, "_bp") || n.OpName == "reduce_to_shape_of" {
				t.Errorf("%s: gradient op %s (%s) saved", c.name, n.Name, n.OpName)
			}
		}
		for _, v := range r.Variables {
			if strings.HasSuffix(v.Name, "-grad") {
				t.Errorf("%s: gradient variable %s saved", c.name, v.Name)
			}
		}
		// One variable more than the graph without its gradient: the mark,
		// a UTF8 constant no node reads (Java loads it as an unused
		// constant). No UpdaterState entry: Java's fromFlatBuffers would
		// instantiate the updater from it and fail.
		if fwd := savedRaw(t, c.build(t), opts); len(r.Nodes) != len(fwd.Nodes) || len(r.Variables) != len(fwd.Variables)+1 {
			t.Errorf("%s: %d nodes and %d variables saved; the graph without its gradient saves %d and %d, plus the mark",
				c.name, len(r.Nodes), len(r.Variables), len(fwd.Nodes), len(fwd.Variables))
		}
		if len(r.UpdaterState) != 0 {
			t.Errorf("%s: %d UpdaterState entries saved", c.name, len(r.UpdaterState))
		}
		var mark rawVariable
		for _, v := range r.Variables {
			if v.Name == gradMarker {
				mark = v
			}
		}
		if mark.Name != gradMarker || mark.VarType != fb.VarTypeCONSTANT || ndarray.DType(mark.DType) != ndarray.UTF8 || gradMarkRead(r, &mark) {
			t.Errorf("%s: mark %q (type %v, dtype %v), want an unread UTF8 constant", c.name, mark.Name, mark.VarType, mark.DType)
		}

		g2, err := Decode(buf)
		if err != nil {
			t.Fatal(err)
		}
		if d := graphDiff(g, g2); d != "" {
			t.Fatalf("%s: graph changed in the Java round trip:\n%s", c.name, d)
		}
		got := run(t, g2, feeds, names...)
		for _, n := range names {
			if d := arrayDiff(want[n], got[n]); d != "" {
				t.Errorf("%s: gradient %s: %s", c.name, n, d)
			}
		}
		// Asked again, the reloaded graph's gradient is the one built on load.
		loss2, _ := g2.Variable("loss")
		again, err := autodiff.Grad(loss2, varsNamed(g2, c.wrt...)...)
		if err != nil || again[0].Name() != names[0] || len(g2.Ops()) != len(g.Ops()) {
			t.Errorf("%s: Grad after the load: %v, %v (%d ops, %d)", c.name, again, err, len(g2.Ops()), len(g.Ops()))
		}
		if b2 := must(Encode(g2, opts)); string(b2) != string(buf) {
			t.Errorf("%s: save(load(save(g))) for Java differs: %d vs %d bytes", c.name, len(b2), len(buf))
		}
	}
}

// An op of the graph that reads a gradient cannot be saved for Java, which
// leaves the gradient out; the error names it. The ordinary save keeps
// the gradient as ops.
func TestJavaSaveRefusesReadersOfGradients(t *testing.T) {
	g := propsGraph(t)
	loss, _ := g.Variable("loss")
	w, _ := g.Variable("w")
	d, err := autodiff.Grad(loss, w)
	if err != nil {
		t.Fatal(err)
	}
	w.Sub(d[0].MulScalar(0.1)).Named("stepped")
	_, err = Encode(g, &SaveOptions{Java: true})
	if err == nil || !strings.Contains(err.Error(), `reads "w-grad"`) {
		t.Errorf("save for Java: %v", err)
	}
	if _, err := Encode(g, nil); err != nil {
		t.Errorf("ordinary save: %v", err)
	}
}

// A file written before the mark moved to a constant holds it as an
// UpdaterState entry; it still loads with its gradients built again.
func TestGradMarkInUpdaterStateLoads(t *testing.T) {
	g := propsGraph(t)
	loss, _ := g.Variable("loss")
	grads, err := autodiff.Grad(loss, varsNamed(g, "x", "w")...)
	if err != nil {
		t.Fatal(err)
	}
	r := savedRaw(t, g, &SaveOptions{Java: true})
	old := rawUpdaterState{ParamName: gradMarker}
	for i, v := range r.Variables {
		if v.Name != gradMarker {
			continue
		}
		la, err := arrayFromRaw(v.Array, ndarray.UTF8)
		if err != nil {
			t.Fatal(err)
		}
		old.Keys = must(ndarray.Strings(la.arr))
		for k := range old.Keys {
			old.Values = append(old.Values, must(arrayToRaw(ndarray.Must(ndarray.ScalarOf(ndarray.Int64, float64(k))), fb.ByteOrderLE, false, false)))
		}
		r.Variables = append(r.Variables[:i:i], r.Variables[i+1:]...)
		break
	}
	if len(old.Keys) != 1 {
		t.Fatalf("mark keys %q, want one differentiation", old.Keys)
	}
	r.UpdaterState = append(r.UpdaterState, old)
	g2, err := decodeRaw(t, r)
	if err != nil {
		t.Fatal(err)
	}
	want := run(t, g, nil, grads[0].Name(), grads[1].Name())
	got := run(t, g2, nil, grads[0].Name(), grads[1].Name())
	for k := range want {
		if d := arrayDiff(want[k], got[k]); d != "" {
			t.Errorf("gradient %s: %s", k, d)
		}
	}
}
