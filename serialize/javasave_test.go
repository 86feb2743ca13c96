package serialize

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/autodiff"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	cv "github.com/sdgo/sdgo/ops/createview"
)

// viewWrites builds x [3,4] (1..12, a VARIABLE) written through views, one
// write of each kind, the last with its index a placeholder "idx" (fed a
// negative point, which resolves at run time), and loss = Σ w².
func viewWrites(t testing.TB) *graph.Graph {
	t.Helper()
	g := graph.New()
	xv := make([]float64, 12)
	for i := range xv {
		xv[i] = float64(i + 1)
	}
	x := g.Var("x", ndarray.Must(ndarray.FromSlice(xv, 3, 4)))
	row := g.Const("row", ndarray.Must(ndarray.FromSlice([]float64{10, 20, 30, 40}, 4)))
	two := g.Const("two", ndarray.Scalar(2.0))
	col := g.Const("col", ndarray.Must(ndarray.FromSlice([]float64{-1, -2}, 2, 1)))
	a := x.View(cv.Point(-1)).AddAssign(row).Named("a")                              // x[-1] += row
	b := a.View(cv.All(), cv.IntervalStep(0, 4, 2, false)).MulAssign(two).Named("b") // a[:, ::2] *= 2
	c := b.View(cv.Interval(1, 3), cv.Point(1)).SubAssign(col.View(cv.All(), cv.Point(0))).Named("c")
	d := c.View(cv.Point(0)).DivAssign(two).Named("d") // d[0] /= 2
	idx := g.Placeholder("idx", ndarray.Int64, 5)
	w := d.ViewDyn(idx).Assign(g.Const("seven", ndarray.Scalar(7.0))).Named("w")
	w.Mul(w).Sum().Named("loss")
	if err := g.Err(); err != nil {
		t.Fatal(err)
	}
	return g
}

func idxFeed(p int64) map[string]*ndarray.Array {
	return map[string]*ndarray.Array{"idx": ndarray.Must(ndarray.FromSlice(cv.Point(int(p)).Descriptor(), 5))}
}

// TestJavaSaveViewWrites: saved for Java, writes through views are
// SameDiff ops (CheckJava finds no blocker) that compute the write's values
// (run as they are, unfolded); loaded by sdgo, they are the writes again:
// the same graph (ops, inputs, args), the same values, in-place ops, and
// the same gradients; saving that again gives the same bytes.
func TestJavaSaveViewWrites(t *testing.T) {
	g := viewWrites(t)
	opts := &SaveOptions{Java: true}
	buf, err := Encode(g, opts)
	if err != nil {
		t.Fatal(err)
	}
	fs, err := CheckJava(buf)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fs {
		if f.Level != JavaOK {
			t.Errorf("%v", f)
		}
		if strings.HasPrefix(f.OpName, "view_") {
			t.Errorf("%s written as itself", f.OpName)
		}
	}
	want := map[string]*ndarray.Array{}
	for _, p := range []int64{-1, 0, 2} {
		for k, v := range run(t, g, idxFeed(p), "w", "loss") {
			want[fmt.Sprint(k, p)] = v
		}
	}
	// w for idx = point -1, by hand: x[2] += row -> [19 30 41 52];
	// [:, ::2] *= 2 -> rows [2 2 6 4] [10 6 14 8] [38 30 82 52];
	// rows 1..2 of column 1 -= [-1 -2] -> 7, 32; row 0 /= 2 -> [1 1 3 2];
	// row -1 = 7.
	if got := fmt.Sprint(want["w-1"].Float64s()); got != "[1 1 3 2 10 7 14 8 7 7 7 7]" {
		t.Fatalf("w = %s", got)
	}

	// The SameDiff ops alone compute the same values: load without
	// folding (the group's last node renamed, so it does not match).
	raw := savedRaw(t, g, opts)
	for i := range raw.Nodes {
		if strings.HasSuffix(raw.Nodes[i].Name, viewWriteMark+"written") {
			raw.Nodes[i].Name += "_"
			raw.Nodes[i].OutputNames = []string{raw.Nodes[i].Name}
			for j := range raw.Variables {
				if strings.HasSuffix(raw.Variables[j].Name, viewWriteMark+"written") {
					raw.Variables[j].Name += "_"
				}
			}
		}
	}
	unfolded, err := decodeRaw(t, raw)
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range unfolded.Ops() {
		if strings.HasPrefix(op.OpName(), "view_") || op.Def() == nil {
			t.Fatalf("unfolded graph has op %s (%s)", op.Name(), op.OpName())
		}
	}
	for _, p := range []int64{-1, 0, 2} {
		res := run(t, unfolded, idxFeed(p), "w", "loss")
		for _, k := range []string{"w", "loss"} {
			if d := arrayDiff(want[fmt.Sprint(k, p)], res[k]); d != "" {
				t.Errorf("unfolded %s (idx %d): %s: %v vs %v", k, p, d, want[fmt.Sprint(k, p)], res[k])
			}
		}
	}

	// Loaded by sdgo: the writes again.
	g2, err := Decode(buf)
	if err != nil {
		t.Fatal(err)
	}
	if d := graphDiff(g, g2); d != "" {
		t.Fatalf("graph changed in the Java round trip:\n%s", d)
	}
	for _, op := range g2.Ops() {
		if strings.HasPrefix(op.OpName(), "view_") && op.Def().Flags&ops.InPlace == 0 {
			t.Errorf("%s is not in place", op.Name())
		}
	}
	for _, p := range []int64{-1, 0, 2} {
		res := run(t, g2, idxFeed(p), "w", "loss")
		for _, k := range []string{"w", "loss"} {
			if d := arrayDiff(want[fmt.Sprint(k, p)], res[k]); d != "" {
				t.Errorf("loaded %s (idx %d): %s", k, p, d)
			}
		}
	}
	again, err := Encode(g2, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf, again) {
		t.Errorf("save(load(save(g))) for Java differs: %d vs %d bytes", len(again), len(buf))
	}

	// Gradients: the same in the original and the loaded graph.
	grad := func(g *graph.Graph) *ndarray.Array {
		t.Helper()
		loss, _ := g.Variable("loss")
		x, _ := g.Variable("x")
		dx, err := autodiff.Grad(loss, x)
		if err != nil {
			t.Fatal(err)
		}
		return run(t, g, idxFeed(-1), dx[0].Name())[dx[0].Name()]
	}
	g3, _ := Decode(buf)
	if d := arrayDiff(grad(g), grad(g3)); d != "" {
		t.Errorf("gradients differ: %s", d)
	}
}

// TestJavaSaveNames: zeros_as is written as zeroslike, which Java places in
// ZerosLike, and loads back as zeros_as.
func TestJavaSaveNames(t *testing.T) {
	g := graph.New()
	x := g.Const("x", ndarray.Must(ndarray.FromSlice([]float64{1, 2}, 2)))
	g.ZerosLike(x).Named("z")
	buf, err := Encode(g, &SaveOptions{Java: true})
	if err != nil {
		t.Fatal(err)
	}
	fs, _ := CheckJava(buf)
	if len(fs) != 1 || fs[0].OpName != "zeroslike" || fs[0].JavaClass != "ZerosLike" || fs[0].Level != JavaOK {
		t.Fatalf("findings %v", fs)
	}
	g2, err := Decode(buf)
	if err != nil {
		t.Fatal(err)
	}
	z, _ := g2.Variable("z")
	if z.Op().Def() == nil || z.Op().Def().Name != "zeros_as" {
		t.Errorf("loaded as %v", z.Op())
	}
	if got := run(t, g2, nil, "z")["z"].Float64s(); fmt.Sprint(got) != "[0 0]" {
		t.Errorf("z = %v", got)
	}
}

// TestJavaSaveRefuses: an op with no SameDiff form Java loads fails the
// save for Java, naming the node and the op; the ordinary save still works.
func TestJavaSaveRefuses(t *testing.T) {
	g := graph.New()
	x := g.Const("x", ndarray.Must(ndarray.FromSlice([]float64{1, 2, 3, 4}, 2, 2)))
	y := g.Const("y", ndarray.Must(ndarray.FromSlice([]float64{1, 2}, 2)))
	g.Apply("reduce_to_shape_of", ops.Args{}, x, y).Named("r")
	_, err := Encode(g, &SaveOptions{Java: true})
	if err == nil || !strings.Contains(err.Error(), `"reduce_to_shape_of"`) || !strings.Contains(err.Error(), "Java") {
		t.Errorf("save for Java: %v", err)
	}
	if _, err := Encode(g, nil); err != nil {
		t.Errorf("ordinary save: %v", err)
	}
	// A graph variable with a helper's name would clash.
	g = viewWrites(t)
	g.Const("view_add"+viewWriteMark+"ones", ndarray.Scalar(1.0))
	if _, err := Encode(g, &SaveOptions{Java: true}); err == nil || !strings.Contains(err.Error(), "view_add/sdgo_view_write/ones") {
		t.Errorf("save for Java with a clashing name: %v", err)
	}
}

// TestFoldViewWritesMismatch: a group of helper nodes that does not have
// the structure a save for Java writes is not folded: with its input
// rewired it loads as the SameDiff ops it is; with a helper gone the file
// is refused with an error, never a panic.
func TestFoldViewWritesMismatch(t *testing.T) {
	g, java := viewWrites(t), &SaveOptions{Java: true}
	// The first write's value: its multiply takes ones twice instead of
	// (value, ones). It still computes something, but not the write.
	r := savedRaw(t, g, java)
	var ones rawIntPair
	for i := range r.Nodes {
		if r.Nodes[i].Name == "view_add"+viewWriteMark+"ones" {
			ones = rawIntPair{r.Nodes[i].ID, 0}
		}
	}
	for i := range r.Nodes {
		if r.Nodes[i].Name == "view_add"+viewWriteMark+"value" {
			r.Nodes[i].InputPaired[0] = ones
		}
	}
	loaded, err := decodeRaw(t, r)
	if err != nil {
		t.Fatal(err)
	}
	folded := 0
	for _, op := range loaded.Ops() {
		if strings.HasPrefix(op.OpName(), "view_") {
			folded++
		}
		if op.Name() == "view_add" && op.OpName() != "reshape" {
			t.Errorf("the rewired group was folded into %s", op.OpName())
		}
	}
	if folded != 4 {
		t.Errorf("%d writes folded, want the 4 intact ones", folded)
	}
	// A helper removed: its consumers name an input nothing produces.
	r = savedRaw(t, g, java)
	for i := range r.Nodes {
		if r.Nodes[i].Name == "view_mul"+viewWriteMark+"shape" {
			r.Nodes = append(r.Nodes[:i], r.Nodes[i+1:]...)
			break
		}
	}
	if _, err := decodeRaw(t, r); err == nil {
		t.Error("a graph with a helper node gone loaded")
	}
}
