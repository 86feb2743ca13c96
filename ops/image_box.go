package ops

import (
	"fmt"
	"math"
	"sort"

	"github.com/sdgo/sdgo/kernels"
	"github.com/sdgo/sdgo/ndarray"
)

// Box ops of SameDiff's image namespace: crop_and_resize, non_max_suppression
// and random_crop. A box is [y1, x1, y2, x2]: for crop_and_resize in
// coordinates normalised to [0, 1] (y1 = 0 the top row, y2 = 1 the bottom
// one; y1 > y2 flips the crop), for non_max_suppression in any units, the
// corners in either order. None of them has a gradient: SameDiff defines
// none, box selection gives integer indices, and a random crop's offsets
// are random.

// crop_and_resize: image [batch, height, width, channels], boxes
// [numBoxes, 4], box indices [numBoxes] (integers: which image each box
// crops), crop size [cropHeight, cropWidth] -> [numBoxes, cropHeight,
// cropWidth, channels] in the image's dtype (float32 for an integer
// image). Int arg 0 is the method, 0 bilinear (default) or 1 nearest;
// float arg 0 the value of crop pixels that fall outside the image
// (default 0). A crop of height 1 samples the box's vertical middle, as
// TensorFlow does (width likewise).
var cropAndResizeOp = Register(&Def{
	Name: "crop_and_resize", Type: Custom, MinIn: 4, MaxIn: 4, NonDiff: []int{0, 1, 2, 3}, Flags: NoInference,
	Doc: "boxes [n,4] of images [b,h,w,c] (box indices input 2) cropped and resized to input 3's [height, width]; int arg 0 method (0 bilinear, 1 nearest), float arg 0 extrapolation value",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		const name = "crop_and_resize"
		dt, err := resizeDType(name, in[0].DType)
		if err != nil {
			return nil, err
		}
		if err := cropArgs(a); err != nil {
			return nil, err
		}
		if !in[1].DType.IsFloat() {
			return nil, fmt.Errorf("%s: the boxes (input 1) must be floats, not %v", name, in[1].DType)
		}
		if !in[2].DType.IsInt() {
			return nil, fmt.Errorf("%s: the box indices (input 2) must be integers, not %v", name, in[2].DType)
		}
		hw, err := newSizeInfo(name, in, 3, a, false)
		if err != nil {
			return nil, err
		}
		nb, ch := -1, -1
		if !in[0].UnknownRank {
			if len(in[0].Shape) != 4 {
				return nil, fmt.Errorf("%s: the image has shape %v; it must have rank 4 [batch, height, width, channels]", name, in[0].Shape)
			}
			ch = in[0].Shape[3]
		}
		if !in[1].UnknownRank {
			if len(in[1].Shape) != 2 || (in[1].Shape[1] >= 0 && in[1].Shape[1] != 4) {
				return nil, fmt.Errorf("%s: the boxes (input 1) have shape %v; they must be [numBoxes, 4]", name, in[1].Shape)
			}
			nb = in[1].Shape[0]
		}
		if !in[2].UnknownRank {
			if len(in[2].Shape) != 1 || (nb >= 0 && in[2].Shape[0] >= 0 && in[2].Shape[0] != nb) {
				return nil, fmt.Errorf("%s: the box indices (input 2) have shape %v; they must be [numBoxes] for boxes of shape %v", name, in[2].Shape, in[1].Shape)
			}
		}
		return infos(Info{DType: dt, Shape: []int{nb, hw[0], hw[1], ch}}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		const name = "crop_and_resize"
		if err := cropArgs(a); err != nil {
			return nil, err
		}
		img, boxes, idx := in[0], in[1], in[2]
		if _, err := resizeDType(name, img.DType()); err != nil {
			return nil, err
		}
		is, bs := img.Shape(), boxes.Shape()
		if len(is) != 4 {
			return nil, fmt.Errorf("%s: the image has shape %v; it must have rank 4 [batch, height, width, channels]", name, is)
		}
		if !boxes.DType().IsFloat() || len(bs) != 2 || bs[1] != 4 {
			return nil, fmt.Errorf("%s: the boxes (input 1) are %v%v; they must be floats of shape [numBoxes, 4]", name, boxes.DType(), bs)
		}
		if !ndarray.SameShape(idx.Shape(), bs[:1]) {
			return nil, fmt.Errorf("%s: the box indices (input 2) have shape %v; they must be [%d] for boxes of shape %v", name, idx.Shape(), bs[0], bs)
		}
		bi, err := arrayInts(name+"'s box indices", idx)
		if err != nil {
			return nil, err
		}
		for i, b := range bi {
			if b < 0 || b >= is[0] {
				return nil, fmt.Errorf("%s: box %d crops image %d of a batch of %d (image shape %v)", name, i, b, is[0], is)
			}
		}
		hw, err := newSize(name, in, 3, a, false)
		if err != nil {
			return nil, err
		}
		x, tmp, err := floatImage(c, img)
		if err != nil {
			return nil, err
		}
		defer c.Release(tmp)
		out, err := c.TryAlloc(x.DType(), []int{bs[0], hw[0], hw[1], is[3]})
		if err != nil {
			return nil, fmt.Errorf("%s to %v: %w", name, hw, err)
		}
		if out.Size() == 0 {
			return []*ndarray.Array{out}, nil
		}
		bv := boxes.Float64s()
		nearest, extra := a.Int(0, 0) == 1, a.Float(0, 0)
		if x.DType() == ndarray.Float32 {
			return []*ndarray.Array{out}, withPacked(x, func(s []float32) { cropResize(s, flat[float32](out), is, bv, bi, hw, nearest, float32(extra)) })
		}
		return []*ndarray.Array{out}, withPacked(x, func(s []float64) { cropResize(s, flat[float64](out), is, bv, bi, hw, nearest, extra) })
	},
})

func cropArgs(a *Args) error {
	if m := a.Int(0, 0); m != 0 && m != 1 {
		return fmt.Errorf("crop_and_resize: method %d (int arg 0) is not 0 bilinear or 1 nearest", m)
	}
	return nil
}

// cropCoord is the image coordinate of crop pixel i of n along an axis of
// size size, for a box edge from lo to hi.
func cropCoord(i, n, size int, lo, hi float64) float64 {
	if n > 1 {
		return lo*float64(size-1) + float64(i)*(hi-lo)*float64(size-1)/float64(n-1)
	}
	return 0.5 * (lo + hi) * float64(size-1)
}

// cropResize fills dst [numBoxes, cropH, cropW, ch] from src [b, h, w, ch].
func cropResize[T kernels.Float](src, dst []T, is []int, boxes []float64, bi, hw []int, nearest bool, extra T) {
	h, w, ch := is[1], is[2], is[3]
	o := 0
	for k, b := range bi {
		y1, x1, y2, x2 := boxes[4*k], boxes[4*k+1], boxes[4*k+2], boxes[4*k+3]
		img := src[b*h*w*ch:]
		for y := 0; y < hw[0]; y++ {
			iy := cropCoord(y, hw[0], h, y1, y2)
			if !(iy >= 0 && iy <= float64(h-1)) {
				for i := 0; i < hw[1]*ch; i++ {
					dst[o+i] = extra
				}
				o += hw[1] * ch
				continue
			}
			for x := 0; x < hw[1]; x++ {
				ix := cropCoord(x, hw[1], w, x1, x2)
				if !(ix >= 0 && ix <= float64(w-1)) {
					for i := 0; i < ch; i++ {
						dst[o+i] = extra
					}
					o += ch
					continue
				}
				if nearest {
					p := img[(int(math.Round(iy))*w+int(math.Round(ix)))*ch:]
					copy(dst[o:o+ch], p[:ch])
					o += ch
					continue
				}
				top, left := math.Floor(iy), math.Floor(ix)
				ly, lx := T(iy-top), T(ix-left)
				t, bo := img[int(top)*w*ch:], img[int(math.Ceil(iy))*w*ch:]
				l, r := int(left)*ch, int(math.Ceil(ix))*ch
				for k := 0; k < ch; k++ {
					tv := t[l+k] + (t[r+k]-t[l+k])*lx
					bv := bo[l+k] + (bo[r+k]-bo[l+k])*lx
					dst[o] = tv + (bv-tv)*ly
					o++
				}
			}
		}
	}
}

// non_max_suppression: boxes [n, 4], scores [n]; the most boxes to keep as
// int arg 0 or input 2; the overlap threshold (intersection over union,
// default 0.5, in [0, 1]) as float arg 0 or input 3; the score threshold
// (default -∞: boxes scoring below it are dropped) as float arg 1 or input
// 4. The output is the kept boxes' indices (int32), best score first: a
// box is kept when its overlap with every box kept before it is at most
// the threshold. As TensorFlow's (and unlike libnd4j, which pads its
// output with zeros to the count it guessed), the output holds just the
// kept boxes.
var nonMaxSuppressionOp = Register(&Def{
	Name: "non_max_suppression", Type: Custom, MinIn: 2, MaxIn: 5, NonDiff: []int{0, 1, 2, 3, 4}, Flags: NoInference,
	Doc: "indices (int32) of boxes [n,4] kept greedily by score (input 1), overlapping kept ones by at most a threshold; max count int arg 0 or input 2",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		const name = "non_max_suppression"
		for i, what := range []string{"boxes", "scores"} {
			if err := needFloat(name+"'s "+what, in[i]); err != nil {
				return nil, err
			}
		}
		if !in[0].UnknownRank && (len(in[0].Shape) != 2 || (in[0].Shape[1] >= 0 && in[0].Shape[1] != 4)) {
			return nil, fmt.Errorf("%s: the boxes (input 0) have shape %v; they must be [numBoxes, 4]", name, in[0].Shape)
		}
		if !in[1].UnknownRank && (len(in[1].Shape) != 1 || (!in[0].UnknownRank && in[0].Shape[0] >= 0 && in[1].Shape[0] >= 0 && in[1].Shape[0] != in[0].Shape[0])) {
			return nil, fmt.Errorf("%s: the scores (input 1) have shape %v; they must be [numBoxes] for boxes of shape %v", name, in[1].Shape, in[0].Shape)
		}
		if len(in) < 3 && (a == nil || len(a.I) == 0) {
			return nil, fmt.Errorf("%s needs the most boxes to keep as int arg 0 or input 2", name)
		}
		if len(in) < 4 {
			if err := iouThreshold(a.Float(0, 0.5)); err != nil {
				return nil, err
			}
		}
		return infos(Info{DType: ndarray.Int32, Shape: []int{-1}}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		const name = "non_max_suppression"
		boxes, scores := in[0], in[1]
		bs := boxes.Shape()
		if !boxes.DType().IsFloat() || !scores.DType().IsFloat() {
			return nil, fmt.Errorf("%s: the boxes and scores must be floats, not %v and %v", name, boxes.DType(), scores.DType())
		}
		if len(bs) != 2 || bs[1] != 4 {
			return nil, fmt.Errorf("%s: the boxes (input 0) have shape %v; they must be [numBoxes, 4]", name, bs)
		}
		if !ndarray.SameShape(scores.Shape(), bs[:1]) {
			return nil, fmt.Errorf("%s: the scores (input 1) have shape %v; they must be [%d] for boxes of shape %v", name, scores.Shape(), bs[0], bs)
		}
		maxOut, err := scalarInput(name, "the most boxes to keep", in, 2, func() (float64, bool) {
			if a == nil || len(a.I) == 0 {
				return 0, false
			}
			return float64(a.I[0]), true
		})
		if err != nil {
			return nil, err
		}
		iou, err := scalarInput(name, "the overlap threshold", in, 3, func() (float64, bool) { return a.Float(0, 0.5), true })
		if err != nil {
			return nil, err
		}
		if err := iouThreshold(iou); err != nil {
			return nil, err
		}
		minScore, err := scalarInput(name, "the score threshold", in, 4, func() (float64, bool) { return a.Float(1, math.Inf(-1)), true })
		if err != nil {
			return nil, err
		}
		if math.IsNaN(maxOut) {
			return nil, fmt.Errorf("%s: the most boxes to keep is NaN", name)
		}
		// Bounded by the number of boxes before the conversion: int() of a
		// float at or past 2^63 is not defined, and gave no boxes at all.
		keep := suppress(boxes.Float64s(), scores.Float64s(), int(min(max(maxOut, 0), float64(bs[0]))), iou, minScore)
		out := c.Alloc(ndarray.Int32, []int{len(keep)})
		d := ndarray.Raw[int32](out)[out.Offset():]
		for i, k := range keep {
			d[i] = int32(k)
		}
		return []*ndarray.Array{out}, nil
	},
})

func iouThreshold(t float64) error {
	if !(t >= 0 && t <= 1) {
		return fmt.Errorf("non_max_suppression: the overlap threshold %v is outside [0, 1]", t)
	}
	return nil
}

// scalarInput reads a one-value input i when the op has it, else def.
func scalarInput(name, what string, in []*ndarray.Array, i int, def func() (float64, bool)) (float64, error) {
	if len(in) > i {
		if in[i].Size() != 1 || !in[i].DType().IsNumeric() {
			return 0, fmt.Errorf("%s: %s (input %d) is %v%v; it must be one number", name, what, i, in[i].DType(), in[i].Shape())
		}
		return in[i].Float64s()[0], nil
	}
	v, ok := def()
	if !ok {
		return 0, fmt.Errorf("%s needs %s as an argument or input %d", name, what, i)
	}
	return v, nil
}

// suppress is greedy non-maximum suppression: candidates scoring at least
// minScore in order of decreasing score (ties by index), each kept unless
// it overlaps a kept box by more than iou, until maxOut are kept.
func suppress(boxes, scores []float64, maxOut int, iou, minScore float64) []int {
	var cand []int
	for i, s := range scores {
		if s >= minScore {
			cand = append(cand, i)
		}
	}
	sort.SliceStable(cand, func(i, j int) bool { return scores[cand[i]] > scores[cand[j]] })
	var keep []int
	for _, i := range cand {
		if len(keep) >= maxOut {
			break
		}
		ok := true
		for _, k := range keep {
			if overlap(boxes[4*i:4*i+4], boxes[4*k:4*k+4]) > iou {
				ok = false
				break
			}
		}
		if ok {
			keep = append(keep, i)
		}
	}
	return keep
}

// overlap is the intersection over union of two boxes, 0 when either is
// empty.
func overlap(a, b []float64) float64 {
	ay1, ay2 := min(a[0], a[2]), max(a[0], a[2])
	ax1, ax2 := min(a[1], a[3]), max(a[1], a[3])
	by1, by2 := min(b[0], b[2]), max(b[0], b[2])
	bx1, bx2 := min(b[1], b[3]), max(b[1], b[3])
	areaA, areaB := (ay2-ay1)*(ax2-ax1), (by2-by1)*(bx2-bx1)
	if areaA <= 0 || areaB <= 0 {
		return 0
	}
	ih := max(min(ay2, by2)-max(ay1, by1), 0)
	iw := max(min(ax2, bx2)-max(ax1, bx1), 0)
	inter := ih * iw
	return inter / (areaA + areaB - inter)
}

// saltCrop keeps random_crop's stream apart from the distributions'.
const saltCrop uint64 = 0x63726f70

// random_crop: an array and the crop's shape (an integer vector, one size
// per axis, none above the array's) -> the crop at a random offset, in the
// array's dtype. The offset along axis k is uniform over its possible
// positions, drawn from the op's counter-based stream (random.go's): the
// seed is int arg 0, and a node without one draws a fresh seed each run.
var randomCropOp = Register(&Def{
	Name: "random_crop", Type: Custom, MinIn: 2, MaxIn: 2, NonDiff: []int{0, 1}, Flags: NoInference,
	Doc: "a crop of input 1's shape at a random offset of input 0 (seed int arg 0)",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		const name = "random_crop"
		if !in[1].DType.IsInt() {
			return nil, fmt.Errorf("%s: the crop shape (input 1) must be integers, not %v", name, in[1].DType)
		}
		if in[0].UnknownRank {
			return infos(Info{DType: in[0].DType, UnknownRank: true}), nil
		}
		r := len(in[0].Shape)
		if !in[1].UnknownRank && in[1].ShapeKnown() && (len(in[1].Shape) != 1 || in[1].Shape[0] != r) {
			return nil, fmt.Errorf("%s: the crop shape (input 1) has shape %v; it must be a vector of %d sizes for an input of shape %v", name, in[1].Shape, r, in[0].Shape)
		}
		if s, ok := constInts(in[1]); ok {
			if err := checkCrop(s, in[0].Shape); err != nil {
				return nil, err
			}
			return infos(Info{DType: in[0].DType, Shape: s}), nil
		}
		return infos(Info{DType: in[0].DType, Shape: unknownShape(r)}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x := in[0]
		xs := x.Shape()
		if in[1].Rank() != 1 || in[1].Size() != len(xs) {
			return nil, fmt.Errorf("random_crop: the crop shape (input 1) has shape %v; it must be a vector of %d sizes for an input of shape %v", in[1].Shape(), len(xs), xs)
		}
		s, err := arrayInts("random_crop's crop shape", in[1])
		if err != nil {
			return nil, err
		}
		if err := checkCrop(s, xs); err != nil {
			return nil, err
		}
		st := newStream(seedOf(a), saltCrop)
		begin, end := make([]int, len(xs)), make([]int, len(xs))
		for k := range xs {
			begin[k] = int(st.uniform(uint64(k), 0) * float64(xs[k]-s[k]+1))
			end[k] = begin[k] + s[k]
		}
		v, err := ndarray.Slice(x, begin, end)
		if err != nil {
			return nil, fmt.Errorf("random_crop: %w", err)
		}
		out := c.Alloc(x.DType(), s)
		return []*ndarray.Array{out}, ndarray.CopyInto(out, v)
	},
})

// checkCrop checks a crop shape against the array's.
func checkCrop(s, xs []int) error {
	for k := range s {
		if s[k] < 0 || (xs[k] >= 0 && s[k] > xs[k]) {
			return fmt.Errorf("random_crop: crop shape %v does not fit in an input of shape %v (axis %d)", s, xs, k)
		}
	}
	return nil
}
