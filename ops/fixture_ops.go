package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// Ops that real SameDiff graph files use (see the fixtures in
// shared/samediff/fixtures): identity_n and pad.

// IdentityNOp passes N inputs through as N outputs (TensorFlow's IdentityN).
var IdentityNOp = Register(&Def{
	Name: "identity_n", Type: Custom, MinIn: 1, MaxIn: -1, Doc: "every input passed through unchanged, one output each",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		out := make([]Info, len(in))
		for i, x := range in {
			out[i] = same(x)
			out[i].Value = x.Value
		}
		return out, nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		return append([]*ndarray.Array(nil), in...), nil
	},
})

// Pad modes, libnd4j's int arg 0 of pad.
const (
	PadConstant  = 0
	PadReflect   = 1 // mirror without repeating the edge: [1 2 3] -> 3 2 [1 2 3] 2 1
	PadSymmetric = 2 // mirror repeating the edge: [1 2 3] -> 2 1 [1 2 3] 3 2
)

// PadOp pads x: input 1 is an integer [rank, 2] array of (before, after)
// sizes per axis; the constant comes from input 2 (a scalar) when given, else
// from float arg 0 (default 0); int arg 0 is the mode.
var PadOp = Register(&Def{
	Name: "pad", Type: Custom, MinIn: 2, MaxIn: 3, NonDiff: []int{1},
	Doc: "x padded by the [rank,2] sizes of input 1; int arg 0: 0 constant (input 2 or float arg 0), 1 reflect, 2 symmetric",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		x, p := in[0], in[1]
		if err := needNumericOrBool("pad", x); err != nil {
			return nil, err
		}
		if !p.DType.IsInt() {
			return nil, fmt.Errorf("pad: the paddings must be an integer array, not %v", p.DType)
		}
		if len(in) > 2 && in[2].DType != x.DType {
			return nil, fmt.Errorf("pad: the constant is %v, x is %v", in[2].DType, x.DType)
		}
		if m := a.Int(0, PadConstant); m < PadConstant || m > PadSymmetric {
			return nil, fmt.Errorf("pad: mode %d is not 0 (constant), 1 (reflect) or 2 (symmetric)", m)
		}
		if x.UnknownRank {
			return infos(Info{DType: x.DType, UnknownRank: true}), nil
		}
		r := len(x.Shape)
		if !p.UnknownRank && (len(p.Shape) != 2 || (p.Shape[0] >= 0 && p.Shape[0] != r) || (p.Shape[1] >= 0 && p.Shape[1] != 2)) {
			return nil, fmt.Errorf("pad of shape %v: the paddings have shape %v, want [%d 2]", x.Shape, p.Shape, r)
		}
		v, ok := constInts(p)
		if !ok {
			return infos(Info{DType: x.DType, Shape: unknownShape(r)}), nil
		}
		before, after, err := padSizes(x.Shape, v, a.Int(0, PadConstant))
		if err != nil {
			return nil, err
		}
		s := make([]int, r)
		for i, d := range x.Shape {
			s[i] = -1
			if d >= 0 {
				s[i] = d + before[i] + after[i]
			}
		}
		return infos(Info{DType: x.DType, Shape: s}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		x := in[0]
		p, err := arrayInts("the paddings input", in[1])
		if err != nil {
			return nil, err
		}
		if in[1].Size() != 2*x.Rank() {
			return nil, fmt.Errorf("pad of shape %v: the paddings have shape %v, want [%d 2]", x.Shape(), in[1].Shape(), x.Rank())
		}
		mode := a.Int(0, PadConstant)
		before, after, err := padSizes(x.Shape(), p, mode)
		if err != nil {
			return nil, err
		}
		value := a.Float(0, 0)
		if len(in) > 2 {
			if in[2].Size() != 1 {
				return nil, fmt.Errorf("pad: the constant must hold one value, it has shape %v", in[2].Shape())
			}
			value = in[2].Float64s()[0]
		}
		if mode == PadConstant {
			return one(ndarray.Pad(x, before, after, value))
		}
		// Reflected and symmetric borders copy input elements: padMap has
		// no constant (-1) entries in these modes.
		shape := make([]int, x.Rank())
		for i, d := range x.Shape() {
			shape[i] = d + before[i] + after[i]
		}
		out, err := gatherOffsets(x, padMap(x.Shape(), before, after, mode), shape)
		if err != nil {
			return nil, fmt.Errorf("pad: cannot pad %v arrays", x.DType())
		}
		return one(out, nil)
	},
})

func needNumericOrBool(name string, in Info) error {
	if in.DType == ndarray.Bool {
		return nil
	}
	return needNumeric(name, in)
}

// padSizes splits the [rank,2] paddings and checks them against the shape
// (sizes of -1 are not checked) and the mode's limits.
func padSizes(shape []int, p []int, mode int64) (before, after []int, err error) {
	r := len(shape)
	if len(p) != 2*r {
		return nil, nil, fmt.Errorf("pad of shape %v: %d padding sizes, want %d", shape, len(p), 2*r)
	}
	before, after = make([]int, r), make([]int, r)
	for i := 0; i < r; i++ {
		before[i], after[i] = p[2*i], p[2*i+1]
		if before[i] < 0 || after[i] < 0 {
			return nil, nil, fmt.Errorf("pad of shape %v: negative padding (%d, %d) on axis %d", shape, before[i], after[i], i)
		}
		if before[i] > ndarray.MaxBytes || after[i] > ndarray.MaxBytes {
			return nil, nil, fmt.Errorf("pad of shape %v: padding (%d, %d) on axis %d is too large", shape, before[i], after[i], i)
		}
		if shape[i] < 0 || mode == PadConstant {
			continue
		}
		limit := shape[i] // symmetric repeats the edge: at most the axis length
		if mode == PadReflect {
			limit = shape[i] - 1
		}
		if before[i] > limit || after[i] > limit {
			return nil, nil, fmt.Errorf("pad of shape %v: padding (%d, %d) on axis %d exceeds %d, the most mode %d allows",
				shape, before[i], after[i], i, limit, mode)
		}
	}
	return before, after, nil
}
