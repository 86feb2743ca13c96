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
