package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// The window helpers the CNN files share: the convolutions are in
// cnn_conv.go, cnn_conv3d.go and cnn_deconv.go, the pooling ops in
// cnn_pool.go, the space and depth rearrangements in cnn_space.go.

// windowArgsFit refuses window sizes, strides, paddings or dilations
// larger than any array's axis, so that the window arithmetic (outSize,
// the dilated kernel's extent) cannot overflow.
func windowArgsFit(op string, v []int) error {
	for _, x := range v {
		if x > ndarray.MaxBytes {
			return fmt.Errorf("%s: int args %v: %d is too large", op, v, x)
		}
	}
	return nil
}

// dilatedFits reports whether a kernel of k cells dilated by d spans at
// most ndarray.MaxBytes cells (k and d at most that each).
func dilatedFits(k, d int) bool { return k <= 1 || d <= ndarray.MaxBytes/(k-1) }

// floats allocates the float64 values of an op's output through ndarray,
// which holds to the allocation limit: a shape from hostile arguments
// fails with an error instead of ending the program.
func floats(op string, shape ...int) ([]float64, error) {
	a, err := ndarray.Zeros(ndarray.Float64, shape...)
	if err != nil {
		return nil, fmt.Errorf("%s: output of shape %v: %w", op, shape, err)
	}
	return ndarray.Raw[float64](a), nil
}

// outSize is the output length of a window sweep along one axis, and the
// padding before (SAME mode computes it, as TensorFlow and libnd4j do: the
// extra cell of an odd total goes after).
func outSize(in, k, s, p, d int, same bool) (out, pad int) {
	ek := (k-1)*d + 1
	if same {
		out = (in + s - 1) / s
		pad = max(0, ((out-1)*s+ek-in)/2)
		return out, pad
	}
	return (in+2*p-ek)/s + 1, p
}

// channelsLast returns x's values with the channel axis last.
func channelsLast(x *ndarray.Array, nhwc bool) ([]float64, error) {
	if nhwc {
		return x.Float64s(), nil
	}
	perm := make([]int, x.Rank())
	perm[0] = 0
	for i := 1; i < x.Rank()-1; i++ {
		perm[i] = i + 1
	}
	perm[x.Rank()-1] = 1
	p, err := ndarray.Permute(x, perm...)
	if err != nil {
		return nil, err
	}
	return p.Float64s(), nil
}

// fromChannelsLast builds an array of dtype dt from channels-last values
// of shape cl, permuted back to channels-first unless nhwc. v becomes the
// array's buffer when no permutation or cast is needed.
func fromChannelsLast(v []float64, cl []int, nhwc bool, dt ndarray.DType) (*ndarray.Array, error) {
	a, err := ndarray.Wrap(v, cl...)
	if err != nil {
		return nil, err
	}
	if !nhwc {
		r := len(cl)
		perm := make([]int, r)
		perm[1] = r - 1
		for i := 2; i < r; i++ {
			perm[i] = i - 1
		}
		if a, err = ndarray.Permute(a, perm...); err != nil {
			return nil, err
		}
	}
	return ndarray.Cast(a, dt)
}

func needSameFloat(op string, in []Info) error {
	if err := needFloat(op, in[0]); err != nil {
		return err
	}
	for i, x := range in[1:] {
		if x.DType != in[0].DType {
			return fmt.Errorf("%s: input %d is %v, input 0 %v", op, i+1, x.DType, in[0].DType)
		}
	}
	return nil
}

// The convolutions (conv2d, conv3dnew, deconv2d, deconv3d,
// depthwise_conv2d) and their _bp ops share the steps around their kernels:
// one dtype for every input, a plan from the args and shapes, the bias's
// length, the gradient's shape, the outputs' allocation and the choice of
// float32 or float64 kernel. convRun and convBpRun take those steps; each
// op gives its planner and kernels.

// convPlanner checks op's args against the shapes of x and the weights and
// returns the plan, the output's shape and the bias's length (the output
// channels).
type convPlanner[P any] func(op string, a *Args, x, w []int) (p P, out []int, biasLen int, err error)

// convFwd computes a convolution into out; b is nil without a bias.
type convFwd[P any] func(c *Ctx, p P, x, w, b, out *ndarray.Array) error

// convBwd computes a convolution's gradients into outs: of x, of the
// weights and, when outs has three, of the bias; g is the output's
// gradient.
type convBwd[P any] func(c *Ctx, p P, x, w, g *ndarray.Array, outs []*ndarray.Array) error

// sameInputDTypes refuses inputs whose dtypes are not all the first's.
func sameInputDTypes(op string, in []*ndarray.Array) error {
	for _, v := range in[1:] {
		if v.DType() != in[0].DType() {
			return fmt.Errorf("%s: inputs of dtypes %v and %v differ", op, in[0].DType(), v.DType())
		}
	}
	return nil
}

// convRun is a convolution's Run: inputs x, weights and an optional bias.
func convRun[P any](c *Ctx, op string, in []*ndarray.Array, a *Args, plan convPlanner[P], f32, f64 convFwd[P]) ([]*ndarray.Array, error) {
	if err := sameInputDTypes(op, in); err != nil {
		return nil, err
	}
	x, w := in[0], in[1]
	p, shape, oC, err := plan(op, a, x.Shape(), w.Shape())
	if err != nil {
		return nil, err
	}
	var b *ndarray.Array
	if len(in) > 2 {
		if b = in[2]; b.Size() != oC {
			return nil, fmt.Errorf("%s: bias of shape %v for %d output channels", op, b.Shape(), oC)
		}
	}
	out, err := c.TryAlloc(x.DType(), shape)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	switch x.DType() {
	case ndarray.Float32:
		err = f32(c, p, x, w, b, out)
	case ndarray.Float64:
		err = f64(c, p, x, w, b, out)
	default:
		err = fmt.Errorf("%s needs float32 or float64 inputs, not %v", op, x.DType())
	}
	if err != nil {
		return nil, err
	}
	return []*ndarray.Array{out}, nil
}

// convBpRun is a convolution _bp op's Run: inputs x, weights, an optional
// bias and the output's gradient; outputs the gradients of x, the weights
// and the bias when given.
func convBpRun[P any](c *Ctx, op string, in []*ndarray.Array, a *Args, plan convPlanner[P], f32, f64 convBwd[P]) ([]*ndarray.Array, error) {
	if err := sameInputDTypes(op, in); err != nil {
		return nil, err
	}
	x, w, g := in[0], in[1], in[len(in)-1]
	p, shape, oC, err := plan(op, a, x.Shape(), w.Shape())
	if err != nil {
		return nil, err
	}
	if !ndarray.SameShape(g.Shape(), shape) {
		return nil, fmt.Errorf("%s: gradient of shape %v, the output has %v", op, g.Shape(), shape)
	}
	if len(in) == 4 && in[2].Size() != oC {
		return nil, fmt.Errorf("%s: bias of shape %v for %d output channels", op, in[2].Shape(), oC)
	}
	outs := []*ndarray.Array{c.Alloc(x.DType(), x.Shape()), c.Alloc(w.DType(), w.Shape())}
	if len(in) == 4 {
		outs = append(outs, c.Alloc(in[2].DType(), in[2].Shape()))
	}
	switch x.DType() {
	case ndarray.Float32:
		err = f32(c, p, x, w, g, outs)
	case ndarray.Float64:
		err = f64(c, p, x, w, g, outs)
	default:
		err = fmt.Errorf("%s needs float32 or float64 inputs, not %v", op, x.DType())
	}
	if err != nil {
		return nil, err
	}
	return outs, nil
}
