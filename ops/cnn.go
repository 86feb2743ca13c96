package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// Ops of SameDiff's CNN namespace: avgpool3dnew with its backprop op, and
// the window helpers the CNN files share (the convolutions are in
// cnn_conv.go).

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

// ---------------------------------------------------------------- avgpool3dnew

// pool3dCfg is avgpool3dnew's configuration (libnd4j int args 0-14).
type pool3dCfg struct {
	k, s, p, d [3]int
	same       bool
	divisor    int // 0: the window's cells inside the input; 1: the kernel volume
	ndhwc      bool
}

func pool3dArgs(op string, a *Args) (pool3dCfg, error) {
	var c pool3dCfg
	if len(a.I) < 14 {
		return c, fmt.Errorf("%s needs int args kD, kH, kW, sD, sH, sW, pD, pH, pW, dD, dH, dW, isSameMode, divisor [, dataFormat]; got %d", op, len(a.I))
	}
	i := intsOf(a.I)
	for j := 0; j < 3; j++ {
		c.k[j], c.s[j], c.p[j], c.d[j] = i[j], i[3+j], i[6+j], i[9+j]
		if c.k[j] <= 0 || c.s[j] <= 0 || c.d[j] <= 0 || c.p[j] < 0 {
			return c, fmt.Errorf("%s: kernel %v, strides %v and dilations %v must be positive, paddings %v not negative", op, i[0:3], i[3:6], i[9:12], i[6:9])
		}
	}
	if err := windowArgsFit(op, i[:12]); err != nil {
		return c, err
	}
	for j := 0; j < 3; j++ {
		if !dilatedFits(c.k[j], c.d[j]) {
			return c, fmt.Errorf("%s: kernel %v with dilations %v is too large", op, c.k, c.d)
		}
	}
	if i[12] != 0 && i[12] != 1 {
		return c, fmt.Errorf("%s: padding mode %d is not 0 (VALID) or 1 (SAME)", op, i[12])
	}
	c.same = i[12] == 1
	c.divisor = i[13]
	if c.divisor != 0 && c.divisor != 1 {
		return c, fmt.Errorf("%s: divisor mode %d is not 0 (exclude padding) or 1 (include padding)", op, c.divisor)
	}
	if len(i) > 14 {
		c.ndhwc = i[14] == 1
	}
	return c, nil
}

type pool3dDims struct {
	bS, C int
	in    [3]int
	out   [3]int
	pad   [3]int
}

func pool3dGeom(op string, c pool3dCfg, x []int) (pool3dDims, error) {
	var d pool3dDims
	if len(x) != 5 {
		return d, fmt.Errorf("%s: the input must have rank 5, not shape %v", op, x)
	}
	if c.ndhwc {
		d.bS, d.in, d.C = x[0], [3]int{x[1], x[2], x[3]}, x[4]
	} else {
		d.bS, d.C, d.in = x[0], x[1], [3]int{x[2], x[3], x[4]}
	}
	for j := 0; j < 3; j++ {
		d.out[j], d.pad[j] = outSize(d.in[j], c.k[j], c.s[j], c.p[j], c.d[j], c.same)
		if d.out[j] <= 0 {
			return d, fmt.Errorf("%s: input %v is too small for kernel %v with dilations %v and paddings %v", op, x, c.k, c.d, c.p)
		}
	}
	return d, nil
}

func (d pool3dDims) outShape(ndhwc bool) []int {
	if ndhwc {
		return []int{d.bS, d.out[0], d.out[1], d.out[2], d.C}
	}
	return []int{d.bS, d.C, d.out[0], d.out[1], d.out[2]}
}

// pool3dWalk calls f(outIndex, inIndexes, divisor) for every output cell
// (channels-last layouts).
func pool3dWalk(d pool3dDims, c pool3dCfg, f func(o int, in []int, div float64)) {
	var pos [3][]int
	var in []int
	for b := 0; b < d.bS; b++ {
		for o0 := 0; o0 < d.out[0]; o0++ {
			for o1 := 0; o1 < d.out[1]; o1++ {
				for o2 := 0; o2 < d.out[2]; o2++ {
					o := [3]int{o0, o1, o2}
					for j := 0; j < 3; j++ {
						pos[j] = pos[j][:0]
						// Only the kernel cells that fall inside the input,
						// computed rather than searched: a kernel may be
						// far larger than the input (SAME mode pads it).
						base := o[j]*c.s[j] - d.pad[j]
						lo, hi := 0, c.k[j]
						if base < 0 {
							lo = (-base + c.d[j] - 1) / c.d[j]
						}
						if lim := (d.in[j] - base + c.d[j] - 1) / c.d[j]; lim < hi {
							hi = lim
						}
						for k := lo; k < hi; k++ {
							pos[j] = append(pos[j], base+k*c.d[j])
						}
					}
					div := float64(c.k[0]) * float64(c.k[1]) * float64(c.k[2])
					if c.divisor == 0 {
						div = float64(len(pos[0]) * len(pos[1]) * len(pos[2]))
					}
					obase := (((b*d.out[0]+o0)*d.out[1]+o1)*d.out[2] + o2) * d.C
					for ch := 0; ch < d.C; ch++ {
						in = in[:0]
						for _, p0 := range pos[0] {
							for _, p1 := range pos[1] {
								for _, p2 := range pos[2] {
									in = append(in, (((b*d.in[0]+p0)*d.in[1]+p1)*d.in[2]+p2)*d.C+ch)
								}
							}
						}
						f(obase+ch, in, div)
					}
				}
			}
		}
	}
}

// avgPool3DOp is libnd4j's avgpool3dnew: input [bS, iC, iD, iH, iW]
// (NCDHW, the default) or [bS, iD, iH, iW, iC] (NDHWC: int arg 14 is 1);
// int args kD, kH, kW, sD, sH, sW, pD, pH, pW, dD, dH, dW, isSameMode, the
// divisor (0: the window's cells inside the input, 1: the kernel volume)
// and the data format, in libnd4j's order. (Some versions of SameDiff's
// Java Pooling3D write the W sizes before the H ones, and older ones only
// 14 args with the format last; files from those read as libnd4j reads
// them.)
var avgPool3DOp = Register(&Def{
	Name: "avgpool3dnew", Aliases: []string{"avgpool3d"}, Type: Custom, MinIn: 1, MaxIn: 1,
	Doc: "3-D average pooling; int args kD, kH, kW, sD, sH, sW, pD, pH, pW, dD, dH, dW, isSameMode, divisor, dataFormat (1 NDHWC)",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		x := in[0]
		if err := needFloat("avgpool3dnew", x); err != nil {
			return nil, err
		}
		c, err := pool3dArgs("avgpool3dnew", a)
		if err != nil {
			return nil, err
		}
		if !x.ShapeKnown() {
			return infos(Info{DType: x.DType, Shape: unknownShape(5)}), nil
		}
		d, err := pool3dGeom("avgpool3dnew", c, x.Shape)
		if err != nil {
			return nil, err
		}
		return infos(Info{DType: x.DType, Shape: d.outShape(c.ndhwc)}), nil
	},
	Run: func(ctx *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		c, err := pool3dArgs("avgpool3dnew", a)
		if err != nil {
			return nil, err
		}
		x := in[0]
		d, err := pool3dGeom("avgpool3dnew", c, x.Shape())
		if err != nil {
			return nil, err
		}
		xv, err := channelsLast(x, c.ndhwc)
		if err != nil {
			return nil, err
		}
		out, err := floats("avgpool3dnew", d.bS, d.out[0], d.out[1], d.out[2], d.C)
		if err != nil {
			return nil, err
		}
		pool3dWalk(d, c, func(o int, idx []int, div float64) {
			s := 0.0
			for _, i := range idx {
				s += xv[i]
			}
			if div > 0 {
				out[o] = s / div
			}
		})
		return one(fromChannelsLast(out, []int{d.bS, d.out[0], d.out[1], d.out[2], d.C}, c.ndhwc, x.DType()))
	},
	Grad: bpOp("avgpool3dnew_bp"),
})

// avgPool3DBpOp is avgpool3dnew's gradient (libnd4j avgpool3dnew_bp):
// inputs x, gradO with avgpool3dnew's args.
var avgPool3DBpOp = Register(bpDef("avgpool3dnew_bp", 1, "gradient of avgpool3dnew for inputs x, gradO; avgpool3dnew's args",
	func(ctx *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		c, err := pool3dArgs("avgpool3dnew_bp", a)
		if err != nil {
			return nil, err
		}
		x, g := in[0], in[1]
		d, err := pool3dGeom("avgpool3dnew_bp", c, x.Shape())
		if err != nil {
			return nil, err
		}
		if !ndarray.SameShape(g.Shape(), d.outShape(c.ndhwc)) {
			return nil, fmt.Errorf("avgpool3dnew_bp: gradient of shape %v, the output has %v", g.Shape(), d.outShape(c.ndhwc))
		}
		gv, err := channelsLast(g, c.ndhwc)
		if err != nil {
			return nil, err
		}
		dx := make([]float64, x.Size())
		pool3dWalk(d, c, func(o int, idx []int, div float64) {
			if div == 0 {
				return
			}
			v := gv[o] / div
			for _, i := range idx {
				dx[i] += v
			}
		})
		return one(fromChannelsLast(dx, []int{d.bS, d.in[0], d.in[1], d.in[2], d.C}, c.ndhwc, x.DType()))
	}))
