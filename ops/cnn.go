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
