package ops

import (
	"fmt"
	"math"

	"github.com/sdgo/sdgo/kernels"
	"github.com/sdgo/sdgo/ndarray"
)

// Resizing and cropping ops of SameDiff's image namespace: resize_bilinear,
// resize_bicubic, image_resize and crop_and_resize. Images are [batch,
// height, width, channels], or [height, width, channels] for one image
// (kept rank 3 in the output). A new size is [height, width]. Float images
// give outputs of their dtype and integer ones float32 (image_resize, as
// libnd4j's, gives float32 for every method but nearest, which keeps the
// input's dtype). Sampling follows TensorFlow's kernels, which libnd4j
// ports: the source coordinate of output pixel i is i·scale ("asymmetric",
// legacy), (i+0.5)·scale - 0.5 (half pixel centers) or, for nearest
// neighbours, (i+0.5)·scale; scale is in/out, or (in-1)/(out-1) with
// align corners.
//
// resize_bilinear is linear in its image and has a gradient, the adjoint
// resize_bilinear_bp (TensorFlow's ResizeBilinearGrad; sdgo's own op, as
// libnd4j has none). The bicubic and nearest resizes and crop_and_resize
// have none, as in SameDiff.

// imageDims splits an image shape into batch, height, width and channels.
func imageDims(name string, s []int) (n, h, w, c int, err error) {
	switch len(s) {
	case 4:
		return s[0], s[1], s[2], s[3], nil
	case 3:
		return 1, s[0], s[1], s[2], nil
	}
	return 0, 0, 0, 0, fmt.Errorf("%s: the image has shape %v; it must have rank 4 [batch, height, width, channels] or 3 [height, width, channels]", name, s)
}

// resizedShape is the image shape s with height and width replaced.
func resizedShape(s []int, h, w int) []int {
	out := append([]int(nil), s...)
	out[len(s)-3], out[len(s)-2] = h, w
	return out
}

// checkNewSize checks a requested [height, width].
func checkNewSize(name string, hw []int) error {
	if len(hw) != 2 {
		return fmt.Errorf("%s: the new size %v must be two values, [height, width]", name, hw)
	}
	if hw[0] <= 0 || hw[1] <= 0 {
		return fmt.Errorf("%s: the new size %v must be positive", name, hw)
	}
	return nil
}

// newSizeInfo is what inference knows of the size input (index i) of a
// resize: the sizes when constant, -1s otherwise; ok reports whether they
// were found, iArgs whether int args 0 and 1 stand in for a missing input.
func newSizeInfo(name string, in []Info, i int, a *Args, iArgs bool) ([]int, error) {
	if len(in) > i {
		if !in[i].DType.IsInt() {
			return nil, fmt.Errorf("%s: the new size (input %d) must be integers, not %v", name, i, in[i].DType)
		}
		if in[i].ShapeKnown() && ndarray.Packed(in[i].Shape...).Size() != 2 {
			return nil, fmt.Errorf("%s: the new size (input %d) has shape %v; it must hold two values, [height, width]", name, i, in[i].Shape)
		}
		if v, ok := constInts(in[i]); ok {
			return v, checkNewSize(name, v)
		}
		return []int{-1, -1}, nil
	}
	if iArgs && a != nil && len(a.I) >= 2 {
		hw := intsOf(a.I[:2])
		return hw, checkNewSize(name, hw)
	}
	return nil, fmt.Errorf("%s needs the new size [height, width] as input %d", name, i)
}

// newSize reads the new size at run time.
func newSize(name string, in []*ndarray.Array, i int, a *Args, iArgs bool) ([]int, error) {
	if len(in) > i {
		if in[i].Size() != 2 {
			return nil, fmt.Errorf("%s: the new size (input %d) has shape %v; it must hold two values, [height, width]", name, i, in[i].Shape())
		}
		hw, err := arrayInts(name+"'s new size", in[i])
		if err != nil {
			return nil, err
		}
		return hw, checkNewSize(name, hw)
	}
	if iArgs && a != nil && len(a.I) >= 2 {
		hw := intsOf(a.I[:2])
		return hw, checkNewSize(name, hw)
	}
	return nil, fmt.Errorf("%s needs the new size [height, width] as input %d", name, i)
}

// resizeDType is the output dtype of a resize of an image of dtype dt.
func resizeDType(name string, dt ndarray.DType) (ndarray.DType, error) {
	switch {
	case dt == ndarray.Float32 || dt == ndarray.Float64:
		return dt, nil
	case dt.IsNumeric():
		return ndarray.Float32, nil
	}
	return dt, fmt.Errorf("%s needs a numeric image, not %v", name, dt)
}

// floatImage returns the image as floats: itself when float, else a float32
// copy (to release with the second result).
func floatImage(c *Ctx, x *ndarray.Array) (*ndarray.Array, *ndarray.Array, error) {
	if x.DType() == ndarray.Float32 || x.DType() == ndarray.Float64 {
		return x, nil, nil
	}
	f, err := castFor(c, x, ndarray.Float32)
	return f, f, err
}

// resizeInfer is the inference of a resize whose size is input 1 (or int
// args 0 and 1 when iArgs): the image's shape with the new height and
// width.
func resizeInfer(name string, iArgs bool, dtype func(a *Args, dt ndarray.DType) (ndarray.DType, error)) func(in []Info, a *Args) ([]Info, error) {
	return func(in []Info, a *Args) ([]Info, error) {
		dt, err := dtype(a, in[0].DType)
		if err != nil {
			return nil, err
		}
		hw, err := newSizeInfo(name, in, 1, a, iArgs)
		if err != nil {
			return nil, err
		}
		if in[0].UnknownRank {
			return infos(Info{DType: dt, UnknownRank: true}), nil
		}
		if _, _, _, _, err := imageDims(name, in[0].Shape); err != nil {
			return nil, err
		}
		return infos(Info{DType: dt, Shape: resizedShape(in[0].Shape, hw[0], hw[1])}), nil
	}
}

// resizeScale is the ratio of an input size to an output size.
func resizeScale(in, out int, align bool) float64 {
	if align && out > 1 {
		return float64(in-1) / float64(out-1)
	}
	return float64(in) / float64(out)
}

// Coordinate transformations (libnd4j's CoordinateTransformationMode).
const (
	coordAsymmetric  = 0 // i·scale
	coordHalfPixel   = 1 // (i+0.5)·scale - 0.5
	coordHalfPixelNN = 2 // (i+0.5)·scale
)

func sourceCoord(i int, scale float64, mode int) float64 {
	switch mode {
	case coordHalfPixel:
		return (float64(i)+0.5)*scale - 0.5
	case coordHalfPixelNN:
		return (float64(i) + 0.5) * scale
	}
	return float64(i) * scale
}

// A linear tap: output pixel i reads lo and hi, weighted 1-t and t.
type linearTap struct {
	lo, hi int
	t      float64
}

// linearTaps are TensorFlow's bilinear interpolation weights along one
// axis.
func linearTaps(in, out int, align, half bool) []linearTap {
	scale := resizeScale(in, out, align)
	mode := coordAsymmetric
	if half {
		mode = coordHalfPixel
	}
	taps := make([]linearTap, out)
	for i := range taps {
		src := sourceCoord(i, scale, mode)
		f := math.Floor(src)
		taps[i] = linearTap{lo: max(int(f), 0), hi: min(int(math.Ceil(src)), in-1), t: src - f}
	}
	return taps
}

// bilinear resizes src [n, inH, inW, ch] into dst [n, len(ty), len(tx), ch].
func bilinear[T kernels.Float](src, dst []T, n, inH, inW, ch int, ty, tx []linearTap) {
	o := 0
	for b := 0; b < n; b++ {
		img := src[b*inH*inW*ch:]
		for _, y := range ty {
			top, bot := img[y.lo*inW*ch:], img[y.hi*inW*ch:]
			ly := T(y.t)
			for _, x := range tx {
				lx := T(x.t)
				for k := 0; k < ch; k++ {
					tl, tr := top[x.lo*ch+k], top[x.hi*ch+k]
					bl, br := bot[x.lo*ch+k], bot[x.hi*ch+k]
					t := tl + (tr-tl)*lx
					u := bl + (br-bl)*lx
					dst[o] = t + (u-t)*ly
					o++
				}
			}
		}
	}
}

// bilinearAdjoint adds the gradient d [n, len(ty), len(tx), ch] of a
// bilinear resize into g [n, inH, inW, ch] (zeroed by the caller).
func bilinearAdjoint[T kernels.Float](d, g []T, n, inH, inW, ch int, ty, tx []linearTap) {
	o := 0
	for b := 0; b < n; b++ {
		img := g[b*inH*inW*ch:]
		for _, y := range ty {
			top, bot := img[y.lo*inW*ch:], img[y.hi*inW*ch:]
			ly := T(y.t)
			for _, x := range tx {
				lx := T(x.t)
				for k := 0; k < ch; k++ {
					v := d[o]
					o++
					a, bb := v*(1-ly), v*ly
					top[x.lo*ch+k] += a * (1 - lx)
					top[x.hi*ch+k] += a * lx
					bot[x.lo*ch+k] += bb * (1 - lx)
					bot[x.hi*ch+k] += bb * lx
				}
			}
		}
	}
}

// bilinearFlags reads resize_bilinear's and resize_bicubic's bool args:
// align corners (0) and half pixel centers (1), not both.
func bilinearFlags(name string, a *Args) (align, half bool, err error) {
	align, half = a.Bool(0, false), a.Bool(1, false)
	if align && half {
		return false, false, fmt.Errorf("%s: align corners (bool arg 0) and half pixel centers (bool arg 1) cannot both be set", name)
	}
	return align, half, nil
}

func floatOrF32(name string) func(a *Args, dt ndarray.DType) (ndarray.DType, error) {
	return func(a *Args, dt ndarray.DType) (ndarray.DType, error) {
		if _, _, err := bilinearFlags(name, a); err != nil {
			return dt, err
		}
		return resizeDType(name, dt)
	}
}

// resize_bilinear: image, and the new size [height, width] as input 1 or
// int args 0 and 1; bool args align corners and half pixel centers.
var resizeBilinearOp = Register(&Def{
	Name: "resize_bilinear", Type: Custom, MinIn: 1, MaxIn: 2, Flags: NoInference,
	Doc:   "bilinear resize of [n,h,w,c] images to size [height, width] (input 1 or int args 0,1); bool args alignCorners, halfPixelCenters",
	Infer: resizeInfer("resize_bilinear", true, floatOrF32("resize_bilinear")),
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		return resizeRun(c, "resize_bilinear", in, a, true, func(x, out *ndarray.Array, n, h, w, ch int, hw []int) error {
			align, half, err := bilinearFlags("resize_bilinear", a)
			if err != nil {
				return err
			}
			ty, tx := linearTaps(h, hw[0], align, half), linearTaps(w, hw[1], align, half)
			if x.DType() == ndarray.Float32 {
				return withPacked(x, func(s []float32) { bilinear(s, flat[float32](out), n, h, w, ch, ty, tx) })
			}
			return withPacked(x, func(s []float64) { bilinear(s, flat[float64](out), n, h, w, ch, ty, tx) })
		})
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		return []Value{op1(b, "resize_bilinear_bp", Args{B: []bool{n.Args.Bool(0, false), n.Args.Bool(1, false)}}, n.In[0], d[0])}
	},
})

// resize_bilinear_bp: image, output gradient -> the image's gradient; bool
// args as resize_bilinear's. The gradient is linear and has no rule of its
// own.
var resizeBilinearBpOp = Register(&Def{
	Name: "resize_bilinear_bp", Type: Custom, MinIn: 2, MaxIn: 2, NonDiff: []int{0, 1},
	Doc: "gradient of resize_bilinear with respect to its image, given the output gradient (input 1)",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		const name = "resize_bilinear_bp"
		if _, _, err := bilinearFlags(name, a); err != nil {
			return nil, err
		}
		if err := needFloat(name, in[1]); err != nil {
			return nil, err
		}
		if in[0].UnknownRank {
			return infos(Info{DType: in[1].DType, UnknownRank: true}), nil
		}
		if _, _, _, _, err := imageDims(name, in[0].Shape); err != nil {
			return nil, err
		}
		return infos(Info{DType: in[1].DType, Shape: in[0].Shape}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		const name = "resize_bilinear_bp"
		x, g := in[0], in[1]
		align, half, err := bilinearFlags(name, a)
		if err != nil {
			return nil, err
		}
		if err := needFloat(name, infoOfArray(g)); err != nil {
			return nil, err
		}
		n, h, w, ch, err := imageDims(name, x.Shape())
		if err != nil {
			return nil, err
		}
		gs := g.Shape()
		if len(gs) != len(x.Shape()) || (len(gs) == 4 && gs[0] != n) || gs[len(gs)-1] != ch {
			return nil, fmt.Errorf("%s: the gradient of shape %v does not fit an image of shape %v", name, gs, x.Shape())
		}
		oh, ow := gs[len(gs)-3], gs[len(gs)-2]
		if (h == 0 || w == 0) && g.Size() > 0 {
			return nil, fmt.Errorf("%s: a gradient of shape %v cannot come from an empty image of shape %v", name, gs, x.Shape())
		}
		if err := reserve[linearTap](name, oh+ow); err != nil {
			return nil, err // g may have no elements, whatever its height and width
		}
		out := c.Alloc(g.DType(), x.Shape())
		ty, tx := linearTaps(h, oh, align, half), linearTaps(w, ow, align, half)
		if g.DType() == ndarray.Float32 {
			dst := flat[float32](out)
			clear(dst)
			return []*ndarray.Array{out}, withPacked(g, func(s []float32) { bilinearAdjoint(s, dst, n, h, w, ch, ty, tx) })
		}
		dst := flat[float64](out)
		clear(dst)
		return []*ndarray.Array{out}, withPacked(g, func(s []float64) { bilinearAdjoint(s, dst, n, h, w, ch, ty, tx) })
	},
})

// withPacked calls f with a's elements in C order.
func withPacked[T kernels.Float](a *ndarray.Array, f func([]T)) error {
	s, err := packedValues[T](a)
	if err != nil {
		return err
	}
	f(s)
	return nil
}

// resizeRun is the common part of the resizes: it checks the image, reads
// the new size, makes the image float, allocates the output and calls
// fill.
func resizeRun(c *Ctx, name string, in []*ndarray.Array, a *Args, iArgs bool,
	fill func(x, out *ndarray.Array, n, h, w, ch int, hw []int) error) ([]*ndarray.Array, error) {
	if _, err := resizeDType(name, in[0].DType()); err != nil {
		return nil, err
	}
	n, h, w, ch, err := imageDims(name, in[0].Shape())
	if err != nil {
		return nil, err
	}
	hw, err := newSize(name, in, 1, a, iArgs)
	if err != nil {
		return nil, err
	}
	x, tmp, err := floatImage(c, in[0])
	if err != nil {
		return nil, err
	}
	defer c.Release(tmp)
	out, err := c.TryAlloc(x.DType(), resizedShape(in[0].Shape(), hw[0], hw[1]))
	if err != nil {
		return nil, fmt.Errorf("%s to %v: %w", name, hw, err)
	}
	if out.Size() == 0 {
		return []*ndarray.Array{out}, nil
	}
	if h == 0 || w == 0 {
		return nil, fmt.Errorf("%s: cannot resize an empty image of shape %v to %v", name, in[0].Shape(), hw)
	}
	return []*ndarray.Array{out}, fill(x, out, n, h, w, ch, hw)
}

// Bicubic interpolation, as TensorFlow computes it: Keys' cubic kernel with
// coefficient A, tabulated at 1/1024 steps of the distance to the sample's
// floor, four taps per axis.

const cubicTable = 1024

// cubicCoeffs tabulates the kernel: at 2i, its value at distance i/1024; at
// 2i+1, at distance 1 + i/1024.
func cubicCoeffs(A float64) []float64 {
	t := make([]float64, (cubicTable+1)*2)
	for i := 0; i <= cubicTable; i++ {
		x := float64(i) / cubicTable
		t[i*2] = ((A+2)*x-(A+3))*x*x + 1
		x++
		t[i*2+1] = ((A*x-5*A)*x+8*A)*x - 4*A
	}
	return t
}

// A cubic tap: output pixel reads idx[k] with weight w[k].
type cubicTap struct {
	idx [4]int
	w   [4]float64
}

// cubicTaps are the bicubic weights along one axis. With exclude, taps
// outside the image get weight 0 and the others are scaled to sum to 1;
// without, edge pixels repeat.
func cubicTaps(in, out int, scale float64, mode int, table []float64, exclude bool) []cubicTap {
	taps := make([]cubicTap, out)
	for i := range taps {
		src := sourceCoord(i, scale, mode)
		fl := math.Floor(src)
		loc := int(fl)
		off := int(math.Round((src - fl) * cubicTable))
		w := [4]float64{table[off*2+1], table[off*2], table[(cubicTable-off)*2], table[(cubicTable-off)*2+1]}
		var tp cubicTap
		sum := 0.0
		for k := 0; k < 4; k++ {
			j := loc - 1 + k
			tp.idx[k] = min(max(j, 0), in-1)
			tp.w[k] = w[k]
			if exclude && tp.idx[k] != j {
				tp.w[k] = 0
			}
			sum += tp.w[k]
		}
		if exclude && math.Abs(sum) >= 1000*math.SmallestNonzeroFloat32 {
			for k := range tp.w {
				tp.w[k] /= sum
			}
		}
		taps[i] = tp
	}
	return taps
}

// bicubic resizes src [n, inH, inW, ch] into dst with separable taps.
func bicubic[T kernels.Float](src, dst []T, n, inH, inW, ch int, ty, tx []cubicTap) {
	o := 0
	for b := 0; b < n; b++ {
		img := src[b*inH*inW*ch:]
		for _, y := range ty {
			for _, x := range tx {
				for k := 0; k < ch; k++ {
					var s T
					for i := 0; i < 4; i++ {
						row := img[y.idx[i]*inW*ch:]
						var r T
						for j := 0; j < 4; j++ {
							r += T(x.w[j]) * row[x.idx[j]*ch+k]
						}
						s += T(y.w[i]) * r
					}
					dst[o] = s
					o++
				}
			}
		}
	}
}

// bicubicFill fills out with the bicubic resize of x.
func bicubicFill(x, out *ndarray.Array, n, h, w, ch int, ty, tx []cubicTap) error {
	if x.DType() == ndarray.Float32 {
		return withPacked(x, func(s []float32) { bicubic(s, flat[float32](out), n, h, w, ch, ty, tx) })
	}
	return withPacked(x, func(s []float64) { bicubic(s, flat[float64](out), n, h, w, ch, ty, tx) })
}

// resize_bicubic: image and the new size [height, width] (input 1); bool
// args align corners and half pixel centers. As in TensorFlow, half pixel
// centers use Keys' coefficient -0.5 and leave out taps beyond the edges;
// otherwise the coefficient is -0.75 and edge pixels repeat.
var resizeBicubicOp = Register(&Def{
	Name: "resize_bicubic", Type: Custom, MinIn: 2, MaxIn: 2, Flags: NoInference,
	Doc:   "bicubic resize of [n,h,w,c] images to size [height, width] (input 1); bool args alignCorners, halfPixelCenters",
	Infer: resizeInfer("resize_bicubic", false, floatOrF32("resize_bicubic")),
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		const name = "resize_bicubic"
		align, half, err := bilinearFlags(name, a)
		if err != nil {
			return nil, err
		}
		return resizeRun(c, name, in, a, false, func(x, out *ndarray.Array, n, h, w, ch int, hw []int) error {
			A, mode := -0.75, coordAsymmetric
			if half {
				A, mode = -0.5, coordHalfPixel
			}
			table := cubicCoeffs(A)
			ty := cubicTaps(h, hw[0], resizeScale(h, hw[0], align), mode, table, half)
			tx := cubicTaps(w, hw[1], resizeScale(w, hw[1], align), mode, table, half)
			return bicubicFill(x, out, n, h, w, ch, ty, tx)
		})
	},
})

// image_resize's methods (libnd4j's ImageResizeMethods) and nearest modes.
const (
	resizeMethodBilinear = 0
	resizeMethodNearest  = 1
	resizeMethodBicubic  = 2
	resizeMethodArea     = 3
	resizeMethodGaussian = 4
	resizeMethodLanczos3 = 5
	resizeMethodLanczos5 = 6
	resizeMethodMitchell = 7

	nearestFloor     = 0
	nearestRoundDown = 1 // round half down
	nearestRoundUp   = 2 // round half up
	nearestCeil      = 3
)

// imageResizeConfig is image_resize's arguments: int args method,
// coordinate mode, nearest mode; bool args preserve aspect ratio,
// antialias, exclude outside; float arg the cubic coefficient.
type imageResizeConfig struct {
	method, coord, nearest     int
	aspect, antialias, exclude bool
	coef                       float64
}

func imageResizeArgs(a *Args) (imageResizeConfig, error) {
	const name = "image_resize"
	r := imageResizeConfig{method: int(a.Int(0, resizeMethodBilinear)), nearest: int(a.Int(2, nearestFloor)),
		aspect: a.Bool(0, false), antialias: a.Bool(1, false), exclude: a.Bool(2, true), coef: a.Float(0, -0.5)}
	r.coord = coordHalfPixel
	if r.method == resizeMethodNearest {
		r.coord = coordHalfPixelNN
	}
	r.coord = int(a.Int(1, int64(r.coord)))
	switch {
	case r.method < resizeMethodBilinear || r.method > resizeMethodMitchell:
		return r, fmt.Errorf("%s: resize method %d (int arg 0) is not one of libnd4j's 0 to 7", name, r.method)
	case r.coord < coordAsymmetric || r.coord > coordHalfPixelNN:
		return r, fmt.Errorf("%s: coordinate mode %d (int arg 1) is not 0 asymmetric, 1 half pixel or 2 half pixel for nearest", name, r.coord)
	case r.nearest < nearestFloor || r.nearest > nearestCeil:
		return r, fmt.Errorf("%s: nearest mode %d (int arg 2) is not between 0 floor and 3 ceil", name, r.nearest)
	case r.method == resizeMethodBilinear && !r.antialias && (r.coord != coordHalfPixel || !r.exclude):
		return r, fmt.Errorf("%s: bilinear resizing supports only half pixel coordinates (int arg 1 = 1) with exclude outside (bool arg 2) set", name)
	case r.method == resizeMethodBicubic && !r.antialias && r.coord == coordHalfPixelNN:
		return r, fmt.Errorf("%s: bicubic resizing takes coordinate mode 0 or 1, not 2", name)
	}
	return r, nil
}

// imageResizeSize is the output [height, width]: the requested size, the
// width recomputed from the height and the image's aspect ratio when asked.
func imageResizeSize(r imageResizeConfig, hw []int, h, w int) []int {
	if r.aspect && h > 0 && w > 0 && hw[0] > 0 {
		return []int{hw[0], int(math.Ceil(float64(hw[0]) * float64(w) / float64(h)))}
	}
	return hw
}

// image_resize: image and new size [height, width] (input 1); int args
// method (libnd4j's ImageResizeMethods: 0 bilinear, 1 nearest, 2 bicubic,
// 3 area, 4 Gaussian, 5 Lanczos3, 6 Lanczos5, 7 Mitchell cubic),
// coordinate mode (0 asymmetric, 1 half pixel, 2 half pixel for nearest;
// default 1, 2 for nearest), nearest mode (0 floor, 1 round half down, 2
// round half up, 3 ceil); bool args preserve aspect ratio (the width
// becomes ceil(height·w/h)), antialias (widens the kernel when shrinking,
// for bilinear, bicubic and methods 4 to 7; nearest and area ignore it),
// exclude outside (default true); float arg the bicubic coefficient
// (default -0.5). As in libnd4j, antialiased bilinear and bicubic and
// methods 4 to 7 resample with TensorFlow's scale_and_translate kernels
// (ops/image_resample.go) and ignore the coordinate mode.
var imageResizeOp = Register(&Def{
	Name: "image_resize", Type: Custom, MinIn: 2, MaxIn: 2, Flags: NoInference,
	Doc: "resize of [n,h,w,c] images to size [height, width] (input 1) by int arg 0's method: 0 bilinear, 1 nearest, 2 bicubic, 3 area, 4 Gaussian, 5 Lanczos3, 6 Lanczos5, 7 Mitchell cubic; bool arg 1 antialias",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		const name = "image_resize"
		r, err := imageResizeArgs(a)
		if err != nil {
			return nil, err
		}
		dt, err := resizeDType(name, in[0].DType)
		if err != nil {
			return nil, err
		}
		if r.method != resizeMethodNearest {
			dt = ndarray.Float32
		} else {
			dt = in[0].DType
		}
		hw, err := newSizeInfo(name, in, 1, a, false)
		if err != nil {
			return nil, err
		}
		if in[0].UnknownRank {
			return infos(Info{DType: dt, UnknownRank: true}), nil
		}
		_, h, w, _, err := imageDims(name, in[0].Shape)
		if err != nil {
			return nil, err
		}
		if r.aspect && (h < 0 || w < 0 || hw[0] < 0) {
			hw = []int{hw[0], -1}
		} else {
			hw = imageResizeSize(r, hw, h, w)
		}
		return infos(Info{DType: dt, Shape: resizedShape(in[0].Shape, hw[0], hw[1])}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		const name = "image_resize"
		r, err := imageResizeArgs(a)
		if err != nil {
			return nil, err
		}
		if r.method == resizeMethodNearest {
			return nearestResize(c, name, in, r)
		}
		_, h, w, _, err := imageDims(name, in[0].Shape())
		if err != nil {
			return nil, err
		}
		hw, err := newSize(name, in, 1, &Args{}, false)
		if err != nil {
			return nil, err
		}
		hw = imageResizeSize(r, hw, h, w)
		sized := []*ndarray.Array{in[0], ndarray.Must(ndarray.FromSlice([]int64{int64(hw[0]), int64(hw[1])}))}
		x32 := in[0]
		if x32.DType() != ndarray.Float32 {
			if _, err := resizeDType(name, x32.DType()); err != nil {
				return nil, err
			}
			if x32, err = castFor(c, in[0], ndarray.Float32); err != nil {
				return nil, err
			}
			defer c.Release(x32)
			sized[0] = x32
		}
		return resizeRun(c, name, sized, a, false, func(x, out *ndarray.Array, n, h, w, ch int, hw []int) error {
			var rows, cols []span
			switch {
			case r.method == resizeMethodArea:
				rows, cols = areaSpans(hw[0], h), areaSpans(hw[1], w)
			case r.antialias || r.method > resizeMethodArea:
				k := resampleKernelFor(r.method, r.coef)
				rows, cols = kernelSpans(k, hw[0], h, r.antialias), kernelSpans(k, hw[1], w, r.antialias)
			case r.method == resizeMethodBilinear:
				ty, tx := linearTaps(h, hw[0], false, true), linearTaps(w, hw[1], false, true)
				return withPacked(x, func(s []float32) { bilinear(s, flat[float32](out), n, h, w, ch, ty, tx) })
			default:
				table := cubicCoeffs(r.coef)
				ty := cubicTaps(h, hw[0], resizeScale(h, hw[0], false), r.coord, table, r.exclude)
				tx := cubicTaps(w, hw[1], resizeScale(w, hw[1], false), r.coord, table, r.exclude)
				return bicubicFill(x, out, n, h, w, ch, ty, tx)
			}
			if err := reserve[float32](name, hw[0], w, ch); err != nil {
				return err // resample's image resized along one axis only
			}
			return withPacked(x, func(s []float32) { resample(s, flat[float32](out), n, h, w, ch, rows, cols) })
		})
	},
})

// nearestIndex rounds a source coordinate as the nearest mode says and
// clamps it into [0, in).
func nearestIndex(src float64, mode, in int) int {
	var f float64
	switch mode {
	case nearestRoundDown:
		f = math.Ceil(src - 0.5)
	case nearestRoundUp:
		f = math.Floor(src + 0.5)
	case nearestCeil:
		f = math.Ceil(src)
	default:
		f = math.Floor(src)
	}
	return min(max(int(f), 0), in-1)
}

// nearestResize is image_resize by nearest neighbours, in the image's own
// dtype.
func nearestResize(c *Ctx, name string, in []*ndarray.Array, r imageResizeConfig) ([]*ndarray.Array, error) {
	x := in[0]
	if !x.DType().IsNumeric() {
		return nil, fmt.Errorf("%s needs a numeric image, not %v", name, x.DType())
	}
	n, h, w, ch, err := imageDims(name, x.Shape())
	if err != nil {
		return nil, err
	}
	hw, err := newSize(name, in, 1, &Args{}, false)
	if err != nil {
		return nil, err
	}
	hw = imageResizeSize(r, hw, h, w)
	shape := resizedShape(x.Shape(), hw[0], hw[1])
	out, err := c.TryAlloc(x.DType(), shape)
	if err != nil {
		return nil, fmt.Errorf("%s to %v: %w", name, hw, err)
	}
	if out.Size() == 0 {
		return []*ndarray.Array{out}, nil
	}
	if h == 0 || w == 0 {
		return nil, fmt.Errorf("%s: cannot resize an empty image of shape %v", name, x.Shape())
	}
	rows := make([]int, hw[0])
	for i := range rows {
		rows[i] = nearestIndex(sourceCoord(i, resizeScale(h, hw[0], false), r.coord), r.nearest, h)
	}
	cols := make([]int, hw[1])
	for i := range cols {
		cols[i] = nearestIndex(sourceCoord(i, resizeScale(w, hw[1], false), r.coord), r.nearest, w)
	}
	// Gather the element offsets and let gather's typed copy move them.
	if err := reserve[int](name, n, hw[0], hw[1], ch); err != nil {
		return nil, err
	}
	offs := make([]int, 0, n*hw[0]*hw[1]*ch)
	for b := 0; b < n; b++ {
		for _, y := range rows {
			for _, xx := range cols {
				base := ((b*h+y)*w + xx) * ch
				for k := 0; k < ch; k++ {
					offs = append(offs, base+k)
				}
			}
		}
	}
	var res *ndarray.Array
	switch x.DType() {
	case ndarray.Float32:
		res, err = gatherT[float32](x, offs, shape)
	case ndarray.Float64:
		res, err = gatherT[float64](x, offs, shape)
	case ndarray.Int32:
		res, err = gatherT[int32](x, offs, shape)
	case ndarray.Int64:
		res, err = gatherT[int64](x, offs, shape)
	default:
		return nil, fmt.Errorf("%s: nearest resizing of %v images is not supported", name, x.DType())
	}
	if err != nil {
		return nil, err
	}
	return []*ndarray.Array{out}, ndarray.CopyInto(out, res)
}
