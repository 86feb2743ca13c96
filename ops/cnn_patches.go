package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// extract_image_patches (SameDiff's SDCNN/SDImage extractImagePatches) and
// its gradient. The input is an NHWC image batch; each output pixel holds
// the kH x kW patch around it, row by row, each cell's channels together:
// output [B, oH, oW, kH·kW·C], TensorFlow's layout. Int args, as libnd4j
// lays them out: kH, kW, sH, sW, rateH, rateW, isSameMode. The rates
// dilate the patch; SAME mode (1) gives ceil(in/stride) outputs with the
// padding TensorFlow computes (the odd cell after), cells outside the
// image reading zero; VALID (0) keeps patches inside the image.
// (libnd4j's CPU helper pads SAME by one cell before when kH·rateH is 3 or
// more, else none, whatever the stride: that agrees with TensorFlow at
// stride 1 for dilated spans of 2 to 4 cells and for 1-cell kernels at
// rates 1 and 2; sdgo follows TensorFlow everywhere.)

// patchCfg is extract_image_patches' geometry for one input shape.
type patchCfg struct {
	k, s, r  [2]int // kernel, strides, rates: height, width
	same     bool
	in, out  [2]int // input and output height, width
	pad      [2]int // padding before
	b, c     int    // batch, channels
	cellSize int    // kH·kW·C, the output's last axis
}

// patchArgs reads the int args and checks the input's rank.
func patchArgs(op string, a *Args, x Info) (patchCfg, error) {
	var p patchCfg
	if a == nil || len(a.I) < 7 {
		return p, fmt.Errorf("%s needs 7 int args kH, kW, sH, sW, rateH, rateW, isSameMode", op)
	}
	v := intsOf(a.I[:7])
	for j := 0; j < 2; j++ {
		p.k[j], p.s[j], p.r[j] = v[j], v[2+j], v[4+j]
	}
	if p.k[0] < 1 || p.k[1] < 1 || p.s[0] < 1 || p.s[1] < 1 || p.r[0] < 1 || p.r[1] < 1 {
		return p, fmt.Errorf("%s: kernel %v, strides %v and rates %v must be positive", op, v[0:2], v[2:4], v[4:6])
	}
	if err := windowArgsFit(op, v[:6]); err != nil {
		return p, err
	}
	if !dilatedFits(p.k[0], p.r[0]) || !dilatedFits(p.k[1], p.r[1]) || p.k[0] > ndarray.MaxBytes/p.k[1] {
		return p, fmt.Errorf("%s: kernel %v with rates %v is too large", op, v[0:2], v[4:6])
	}
	switch v[6] {
	case 0, 1:
		p.same = v[6] == 1
	default:
		return p, fmt.Errorf("%s: padding mode %d is not 0 (VALID) or 1 (SAME)", op, v[6])
	}
	if !x.UnknownRank && len(x.Shape) != 4 {
		return p, fmt.Errorf("%s: the input must have rank 4 (NHWC), not shape %v", op, x.Shape)
	}
	return p, nil
}

// shape fills the sizes from the input shape (-1 where unknown) and
// returns the output shape, or an error when a patch does not fit.
func (p *patchCfg) shape(op string, x []int) ([]int, error) {
	out := []int{x[0], -1, -1, -1}
	p.b, p.c = x[0], x[3]
	for j := 0; j < 2; j++ {
		p.in[j] = x[1+j]
		if p.in[j] < 0 {
			p.out[j] = -1
			continue
		}
		p.out[j], p.pad[j] = outSize(p.in[j], p.k[j], p.s[j], 0, p.r[j], p.same)
		if p.out[j] < 1 {
			return nil, fmt.Errorf("%s: kernel %dx%d with rates %dx%d spans %dx%d cells, more than input %v holds (VALID padding)",
				op, p.k[0], p.k[1], p.r[0], p.r[1], (p.k[0]-1)*p.r[0]+1, (p.k[1]-1)*p.r[1]+1, x)
		}
		out[1+j] = p.out[j]
	}
	if x[3] >= 0 {
		if x[3] > 0 && p.k[0]*p.k[1] > ndarray.MaxBytes/x[3] {
			return nil, fmt.Errorf("%s: kernel %v times the %d channels of input %v is too large", op, p.k, x[3], x)
		}
		p.cellSize = p.k[0] * p.k[1] * x[3]
		out[3] = p.cellSize
	}
	return out, nil
}

// walk calls f for every (output pixel, kernel cell) pair with the offset
// of the cell's first channel in the output and in the input (-1 when the
// cell lies in the padding).
func (p *patchCfg) walk(f func(yo, xo int)) {
	yo := 0
	for b := 0; b < p.b; b++ {
		for i := 0; i < p.out[0]; i++ {
			for j := 0; j < p.out[1]; j++ {
				for ki := 0; ki < p.k[0]; ki++ {
					r := i*p.s[0] - p.pad[0] + ki*p.r[0]
					for kj := 0; kj < p.k[1]; kj++ {
						c := j*p.s[1] - p.pad[1] + kj*p.r[1]
						xo := -1
						if r >= 0 && r < p.in[0] && c >= 0 && c < p.in[1] {
							xo = ((b*p.in[0]+r)*p.in[1] + c) * p.c
						}
						f(yo, xo)
						yo += p.c
					}
				}
			}
		}
	}
}

func patchesT[T ndarray.Elem](x *ndarray.Array, out *ndarray.Array, p *patchCfg) error {
	xv, err := packedValues[T](x)
	if err != nil {
		return err
	}
	y := ndarray.Raw[T](out)[out.Offset() : out.Offset()+out.Size()]
	var zero T
	p.walk(func(yo, xo int) {
		dst := y[yo : yo+p.c]
		if xo < 0 {
			for k := range dst {
				dst[k] = zero
			}
			return
		}
		copy(dst, xv[xo:xo+p.c])
	})
	return nil
}

// patchesBackT adds each patch cell's gradient into the input cell it
// was read from: dx is zeroed first.
func patchesBackT[T ndarray.Float](g, dx *ndarray.Array, p *patchCfg) error {
	gv, err := packedValues[T](g)
	if err != nil {
		return err
	}
	d := ndarray.Raw[T](dx)[dx.Offset() : dx.Offset()+dx.Size()]
	clear(d)
	p.walk(func(yo, xo int) {
		if xo < 0 {
			return
		}
		src, dst := gv[yo:yo+p.c], d[xo:xo+p.c]
		for k, v := range src {
			dst[k] += v
		}
	})
	return nil
}

// patchSetup reads the arguments of a run on x: the geometry and the
// output shape.
func patchSetup(op string, a *Args, x *ndarray.Array) (patchCfg, []int, error) {
	p, err := patchArgs(op, a, Info{Shape: x.Shape()})
	if err != nil {
		return p, nil, err
	}
	shape, err := p.shape(op, x.Shape())
	return p, shape, err
}

func patchInfer(in []Info, a *Args) ([]Info, error) {
	const op = "extract_image_patches"
	x := in[0]
	if !x.DType.IsNumeric() {
		return nil, fmt.Errorf("%s needs a numeric input, not %v", op, x.DType)
	}
	p, err := patchArgs(op, a, x)
	if err != nil {
		return nil, err
	}
	if x.UnknownRank {
		return infos(Info{DType: x.DType, Shape: unknownShape(4)}), nil
	}
	s, err := p.shape(op, x.Shape)
	if err != nil {
		return nil, err
	}
	return infos(Info{DType: x.DType, Shape: s}), nil
}

// extractImagePatchesOp is libnd4j's extract_image_patches: each output
// pixel of an NHWC batch gets its kH x kW (dilated) patch's values in the
// channels. Int args kH, kW, sH, sW, rateH, rateW, isSameMode.
var extractImagePatchesOp = Register(&Def{
	Name: "extract_image_patches", Type: Custom, MinIn: 1, MaxIn: 1,
	Doc:   "the kH x kW patches of an NHWC image batch, each in an output pixel's channels; int args kH, kW, sH, sW, rateH, rateW, isSameMode",
	Infer: patchInfer,
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		const op = "extract_image_patches"
		x := in[0]
		p, shape, err := patchSetup(op, a, x)
		if err != nil {
			return nil, err
		}
		out, err := c.TryAlloc(x.DType(), shape)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		switch x.DType() {
		case ndarray.Float32:
			err = patchesT[float32](x, out, &p)
		case ndarray.Float64:
			err = patchesT[float64](x, out, &p)
		case ndarray.Int32:
			err = patchesT[int32](x, out, &p)
		case ndarray.Int64:
			err = patchesT[int64](x, out, &p)
		default:
			err = fmt.Errorf("cannot take patches of %v arrays", x.DType())
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		return []*ndarray.Array{out}, nil
	},
	Grad: bpOp("extract_image_patches_bp"),
})

// extractImagePatchesBpOp is extract_image_patches' gradient (sdgo's own
// op): inputs x, gradO; each patch cell's gradient is added back into the
// input cell it copies (cells in the padding drop theirs). Int args as the
// forward op's.
var extractImagePatchesBpOp = Register(bpDef("extract_image_patches_bp", 1,
	"gradient of extract_image_patches for inputs x, gradO: the patch cells' gradients added back into the image; int args as the forward op's",
	func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		const op = "extract_image_patches_bp"
		x, g := in[0], in[1]
		p, shape, err := patchSetup(op, a, x)
		if err != nil {
			return nil, err
		}
		if !ndarray.SameShape(shape, g.Shape()) {
			return nil, fmt.Errorf("%s: gradient of shape %v for the patches %v of input %v", op, g.Shape(), shape, x.Shape())
		}
		dx, err := c.TryAlloc(g.DType(), x.Shape())
		if err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		if g.DType() == ndarray.Float32 {
			err = patchesBackT[float32](g, dx, &p)
		} else {
			err = patchesBackT[float64](g, dx, &p)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		return []*ndarray.Array{dx}, nil
	}))
