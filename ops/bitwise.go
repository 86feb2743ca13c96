package ops

import (
	"fmt"
	"math/bits"

	"github.com/sdgo/sdgo/ndarray"
)

// Ops of SameDiff's bitwise namespace (SDBitwise, and SDMath's bitShift*
// methods): integer ops, without gradients (their inputs are integers).
//
// The elementwise ones take two inputs of one integer dtype (int32 or
// int64, the integer dtypes sdgo computes with), broadcast by numpy's rules
// as libnd4j's broadcastable ops do, and give that dtype; they take no
// arguments. Shift amounts follow Go's rules where libnd4j's C++ leaves
// them undefined: a shift by the bit width or more gives 0 (a right shift
// of a negative value gives -1, the sign filling in), a negative shift
// amount is an error; the rotations take their amount modulo the bit
// width, a negative one rotating the other way.

// intBinaryDef defines an elementwise bitwise op: f32 and f64 compute one
// element of int32 and int64 arrays; neg is whether a negative second
// operand is allowed.
func intBinaryDef(name, doc string, neg bool, f32 func(x, y int32) int32, f64 func(x, y int64) int64) *Def {
	return &Def{
		Name: name, Type: Custom, MinIn: 2, MaxIn: 2, Doc: doc,
		Infer: func(in []Info, _ *Args) ([]Info, error) {
			if err := needSameInt(name, in[0], in[1]); err != nil {
				return nil, err
			}
			if in[0].UnknownRank || in[1].UnknownRank {
				return infos(Info{DType: in[0].DType, UnknownRank: true}), nil
			}
			out, err := BroadcastInfo(in[0], in[1])
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			return infos(Info{DType: in[0].DType, Shape: out.Shape}), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
			x, y := in[0], in[1]
			if err := needSameInt(name, infoOfArray(x), infoOfArray(y)); err != nil {
				return nil, err
			}
			shape, err := ndarray.BroadcastShapes(x.Shape(), y.Shape())
			if err != nil {
				return nil, fmt.Errorf("%s: shapes %v and %v: %w", name, x.Shape(), y.Shape(), err)
			}
			if x.DType() == ndarray.Int32 {
				return intBinaryRun(c, name, neg, x, y, shape, f32)
			}
			return intBinaryRun(c, name, neg, x, y, shape, f64)
		},
	}
}

// intBinaryRun broadcasts x and y to shape and applies f elementwise into an
// array from c's pool.
func intBinaryRun[T int32 | int64](c *Ctx, name string, neg bool, x, y *ndarray.Array, shape []int, f func(x, y T) T) ([]*ndarray.Array, error) {
	xs, err := broadcastValues[T](x, shape)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	ys, err := broadcastValues[T](y, shape)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if !neg {
		for _, s := range ys {
			if s < 0 {
				return nil, fmt.Errorf("%s: shift amount %d is negative", name, s)
			}
		}
	}
	for i := range xs {
		xs[i] = f(xs[i], ys[i])
	}
	return one(intOut(c, xs, shape))
}

// broadcastValues returns a's elements broadcast to shape, in C order, as a
// new slice.
func broadcastValues[T int32 | int64](a *ndarray.Array, shape []int) ([]T, error) {
	if !ndarray.SameShape(a.Shape(), shape) {
		b, err := ndarray.BroadcastTo(a, shape...)
		if err != nil {
			return nil, err
		}
		a = b
	}
	return ndarray.Values[T](a), nil
}

// intOut copies v into an array of shape from c's pool.
func intOut[T int32 | int64](c *Ctx, v []T, shape []int) (*ndarray.Array, error) {
	src, err := ndarray.Wrap(v, shape...)
	if err != nil {
		return nil, err
	}
	out := c.Alloc(src.DType(), shape)
	return out, ndarray.CopyInto(out, src)
}

// needSameInt checks that x and y have one integer dtype sdgo computes
// with.
func needSameInt(name string, x, y Info) error {
	if x.DType != ndarray.Int32 && x.DType != ndarray.Int64 {
		return fmt.Errorf("%s needs int32 or int64 inputs, not %v", name, x.DType)
	}
	if y.DType != x.DType {
		return fmt.Errorf("%s: the inputs are %v and %v; they must have one dtype", name, x.DType, y.DType)
	}
	return nil
}

// infoOfArray is what inference knows of an array: its dtype and shape.
func infoOfArray(a *ndarray.Array) Info { return Info{DType: a.DType(), Shape: a.Shape()} }

func shl32(x, y int32) int32 { return x << uint32(y) }
func shl64(x, y int64) int64 { return x << uint64(y) }
func shr32(x, y int32) int32 { return x >> uint32(y) }
func shr64(x, y int64) int64 { return x >> uint64(y) }

// rotl32 and rotl64 rotate the bits of x left by y (right when y is
// negative), modulo the bit width.
func rotl32(x, y int32) int32 { return int32(bits.RotateLeft32(uint32(x), int(y%32))) }
func rotl64(x, y int64) int64 { return int64(bits.RotateLeft64(uint64(x), int(y%64))) }
func rotr32(x, y int32) int32 { return int32(bits.RotateLeft32(uint32(x), -int(y%32))) }
func rotr64(x, y int64) int64 { return int64(bits.RotateLeft64(uint64(x), -int(y%64))) }

var (
	bitwiseAndOp = Register(intBinaryDef("bitwise_and", "x & y, elementwise, for integers (broadcast)", true,
		func(x, y int32) int32 { return x & y }, func(x, y int64) int64 { return x & y }))
	bitwiseOrOp = Register(intBinaryDef("bitwise_or", "x | y, elementwise, for integers (broadcast)", true,
		func(x, y int32) int32 { return x | y }, func(x, y int64) int64 { return x | y }))
	bitwiseXorOp = Register(intBinaryDef("bitwise_xor", "x ^ y, elementwise, for integers (broadcast)", true,
		func(x, y int32) int32 { return x ^ y }, func(x, y int64) int64 { return x ^ y }))
	shiftBitsOp = Register(intBinaryDef("shift_bits", "x << y, elementwise, for integers (broadcast); y >= 0, a shift by the bit width or more gives 0", false,
		shl32, shl64))
	rshiftBitsOp = Register(intBinaryDef("rshift_bits", "x >> y (arithmetic), elementwise, for integers (broadcast); y >= 0", false,
		shr32, shr64))
	cyclicShiftBitsOp = Register(intBinaryDef("cyclic_shift_bits", "x's bits rotated left by y (modulo the bit width), elementwise, for integers (broadcast)", true,
		rotl32, rotl64))
	cyclicRshiftBitsOp = Register(intBinaryDef("cyclic_rshift_bits", "x's bits rotated right by y (modulo the bit width), elementwise, for integers (broadcast)", true,
		rotr32, rotr64))
)

// bitsHammingDistanceOp is libnd4j's bits_hamming_distance: inputs x and y
// of one integer dtype and one length (any shapes); output the int64 scalar
// count of the bits in which they differ, over all elements in C order.
var bitsHammingDistanceOp = Register(&Def{
	Name: "bits_hamming_distance", Type: Custom, MinIn: 2, MaxIn: 2,
	Doc: "the number of differing bits of two integer arrays of one length (an int64 scalar)",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		if err := needSameInt("bits_hamming_distance", in[0], in[1]); err != nil {
			return nil, err
		}
		if in[0].ShapeKnown() && in[1].ShapeKnown() {
			if nx, ny := ndarray.Packed(in[0].Shape...).Size(), ndarray.Packed(in[1].Shape...).Size(); nx != ny {
				return nil, fmt.Errorf("bits_hamming_distance: the inputs have shapes %v and %v; they must have one length", in[0].Shape, in[1].Shape)
			}
		}
		return infos(Info{DType: ndarray.Int64, Shape: []int{}}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		x, y := in[0], in[1]
		if err := needSameInt("bits_hamming_distance", infoOfArray(x), infoOfArray(y)); err != nil {
			return nil, err
		}
		if x.Size() != y.Size() {
			return nil, fmt.Errorf("bits_hamming_distance: the inputs have shapes %v and %v; they must have one length", x.Shape(), y.Shape())
		}
		var n int64
		if x.DType() == ndarray.Int32 {
			xs, ys := ndarray.Values[int32](x), ndarray.Values[int32](y)
			for i := range xs {
				n += int64(bits.OnesCount32(uint32(xs[i] ^ ys[i])))
			}
		} else {
			xs, ys := ndarray.Values[int64](x), ndarray.Values[int64](y)
			for i := range xs {
				n += int64(bits.OnesCount64(uint64(xs[i] ^ ys[i])))
			}
		}
		return one(intOut(c, []int64{n}, []int{}))
	},
})
