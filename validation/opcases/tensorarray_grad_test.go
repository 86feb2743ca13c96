package opcases

import (
	"strings"
	"testing"

	"github.com/sdgo/sdgo/autodiff"
	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// An element stored twice has no gradient sdgo can give (the first value
// would get the second's): running the gradient is an error naming the op
// and the element, not a silently wrong number. A layout the gradient ops
// do not know is a build error.
func TestTensorArrayGradientErrors(t *testing.T) {
	g := graph.New()
	a := g.Placeholder("a", ndarray.Float64, 2)
	outs, err := g.Op("tensorarrayv3", ops.TensorArrayArgs(ndarray.Float64, true), g.Const("", ndarray.Scalar(int32(0))))
	if err != nil {
		t.Fatal(err)
	}
	h, flow := outs[0], outs[1]
	zero := g.Const("", ndarray.Scalar(int32(0)))
	flow = g.Apply("tensorarraywritev3", ops.Args{}, h, zero, a, flow)
	flow = g.Apply("tensorarraywritev3", ops.Args{}, h, zero, a.MulScalar(2), flow)
	read := g.Apply("tensorarrayreadv3", ops.Args{D: []ndarray.DType{ndarray.Float64}}, h, zero, flow)
	grads, err := autodiff.Grad(read.Sum(), a)
	if err != nil {
		t.Fatal(err)
	}
	_, err = exec.Output(g, map[string]*ndarray.Array{"a": f64([]int{2}, 1, 2)}, grads[0].Name())
	if err == nil || !strings.Contains(err.Error(), "tensorarray_grad_get") || !strings.Contains(err.Error(), "element 0") || !strings.Contains(err.Error(), "stored 2 times") {
		t.Errorf("gradient through an element stored twice: error %v; want tensorarray_grad_get naming element 0 stored 2 times", err)
	}

	bad := g.Apply("tensorarray_grad_get", ops.Args{I: []int64{7}}, h, zero, a, flow)
	if err := bad.Err(); err == nil || !strings.Contains(err.Error(), "int arg 0 (layout) is 7") {
		t.Errorf("layout 7: error %v; want one naming int arg 0", err)
	}
}

// A concat's gradient splits by the elements' lengths, which it still
// finds when the array was closed before the gradient runs: split rows
// [1, 2] of m, concatenated and weighted by w, give m the gradient w
// whether the close runs before the gradient or after it.
func TestTensorArrayConcatGradientAfterClose(t *testing.T) {
	g := graph.New()
	m := g.Placeholder("m", ndarray.Float64, 3, 2)
	outs, err := g.Op("tensorarrayv3", ops.TensorArrayArgs(ndarray.Float64, true), g.Const("", ndarray.Scalar(int32(0))))
	if err != nil {
		t.Fatal(err)
	}
	h, flow := outs[0], outs[1]
	flow = g.Apply("tensorarraysplitv3", ops.Args{}, h, m, g.Const("", i64([]int{2}, 1, 2)), flow)
	joined := g.Apply("tensorarrayconcatv3", ops.Args{D: []ndarray.DType{ndarray.Float64}}, h, flow)
	// The close takes a value of the concat as its flow, to run after it
	// (a flow input may be any value).
	closed := g.Apply("tensorarrayclosev3", ops.Args{}, h, joined.Sum())
	w := f64([]int{3, 2}, 1, -2, 3, 0.5, -1, 4)
	grads, err := autodiff.Grad(joined.Mul(g.Const("w", w)).Sum(), m)
	if err != nil {
		t.Fatal(err)
	}
	res, err := exec.Output(g, map[string]*ndarray.Array{"m": f64([]int{3, 2}, 1, 2, 3, 4, 5, 6)}, closed.Name(), grads[0].Name())
	if err != nil {
		t.Fatal(err)
	}
	if got := res[grads[0].Name()]; !ndarray.Equal(got, w) {
		t.Errorf("gradient %v, want %v", got.Float64s(), w.Float64s())
	}
}
