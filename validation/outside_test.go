package validation_test

import (
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	cv "github.com/sdgo/sdgo/ops/createview"
)

// test_ignores_offset returns a copy of x but, like an op that forgets a
// view's offset, sets buffer position 0 of x's buffer to 42.
var ignoresOffset = ops.Register(&ops.Def{
	Name: "test_ignores_offset", Type: ops.Custom, MinIn: 1, MaxIn: 1, Infer: same,
	Doc: "a copy of x that scribbles on position 0 of x's buffer (validation tests only)",
	Run: func(_ *ops.Ctx, in []*ndarray.Array, _ *ops.Args) ([]*ndarray.Array, error) {
		ndarray.Raw[float64](in[0])[0] = 42
		return []*ndarray.Array{ndarray.Must(ndarray.Copy(in[0]))}, nil
	},
})

// An op given a view that writes into the view's buffer outside the view
// changes the array the view was made from, which later ops read: the
// listener catches it, naming the op, the input and the buffer position.
func TestListenerCatchesWriteOutsideInputView(t *testing.T) {
	g := graph.New()
	p := g.Placeholder("p", ndarray.Float64, 2, 3)
	x := p.MulScalar(1).Named("x")
	row := x.View(cv.Point(-1)).Named("row")
	y := must(t, g.Apply(ignoresOffset.Name, ops.Args{}, row).Named("y"))
	z := y.Sum().Add(x.Sum()).Named("z")
	_, err := runWith(g, map[string]*ndarray.Array{"p": f64([]int{2, 3}, 1, 2, 3, 4, 5, 6)}, z.Name())
	wantInPlaceErr(t, err, `op "test_ignores_offset" (test_ignores_offset)`, `input 0 ("row")`, "buffer position 0", "was 1, now 42")

	// The same op on a whole array is caught by the element comparison.
	g = graph.New()
	p = g.Placeholder("p", ndarray.Float64, 2, 3)
	y = must(t, g.Apply(ignoresOffset.Name, ops.Args{}, p.MulScalar(1).Named("x")).Named("y"))
	_, err = runWith(g, map[string]*ndarray.Array{"p": f64([]int{2, 3}, 1, 2, 3, 4, 5, 6)}, y.Name())
	wantInPlaceErr(t, err, `input 0 ("x")`, "element [0 0] was 1, now 42")
}

// test_writes_second sets element 1 of its vector input x (wherever x lies
// in its buffer) to 42 and returns a copy of x.
var writesSecond = ops.Register(&ops.Def{
	Name: "test_writes_second", Type: ops.Custom, MinIn: 1, MaxIn: 1, Infer: same,
	Doc: "a copy of x after setting x[1] to 42 (validation tests only)",
	Run: func(_ *ops.Ctx, in []*ndarray.Array, _ *ops.Args) ([]*ndarray.Array, error) {
		ndarray.Raw[float64](in[0])[in[0].Offset()+in[0].Strides()[0]] = 42
		return []*ndarray.Array{ndarray.Must(ndarray.Copy(in[0]))}, nil
	},
})

// A view input is snapshotted once, as its whole buffer, and a change to
// one of its elements is still reported as that element with its old value.
func TestListenerViewInputSnapshotOnce(t *testing.T) {
	g := graph.New()
	p := g.Placeholder("p", ndarray.Float64, 2, 3)
	x := p.MulScalar(1).Named("x")
	row := x.View(cv.Point(-1)).Named("row")
	keep := must(t, g.Apply("identity", ops.Args{}, row).Named("keep"))
	feeds := map[string]*ndarray.Array{"p": f64([]int{2, 3}, 1, 2, 3, 4, 5, 6)}
	without, err := runWith(g, feeds, row.Name())
	if err != nil {
		t.Fatal(err)
	}
	with, err := runWith(g, feeds, keep.Name())
	if err != nil {
		t.Fatal(err)
	}
	// identity's view input costs one copy of the 6-element buffer, not
	// that and its 3 elements again.
	if d := with.Stats().Bytes - without.Stats().Bytes; d != 6*8 {
		t.Errorf("the view input took %d bytes of snapshots, want 48", d)
	}
	y := must(t, g.Apply(writesSecond.Name, ops.Args{}, row).Named("y"))
	_, err = runWith(g, feeds, y.Name())
	wantInPlaceErr(t, err, `op "test_writes_second" (test_writes_second) changed its input 0 ("row")`, "element [1] was 5, now 42")
}
