package graph

import "github.com/sdgo/sdgo/ops"

// Builder methods of SameDiff's bitwise namespace (ops/bitwise.go). The
// inputs are integer arrays (int32 or int64) of one dtype, broadcast
// against each other; none of these ops has a gradient.

// Bitwise groups the bitwise integer functions: g.Bitwise().And(x, y).
func (g *Graph) Bitwise() Bitwise { return Bitwise{g} }

// Bitwise is the namespace of bitwise integer functions (SameDiff's
// SDBitwise).
type Bitwise struct{ g *Graph }

func (b Bitwise) bin(op string, x, y *Variable) *Variable { return b.g.Apply(op, ops.Args{}, x, y) }

// And is x & y elementwise (op bitwise_and).
func (b Bitwise) And(x, y *Variable) *Variable { return b.bin("bitwise_and", x, y) }

// Or is x | y elementwise (op bitwise_or).
func (b Bitwise) Or(x, y *Variable) *Variable { return b.bin("bitwise_or", x, y) }

// Xor is x ^ y elementwise (op bitwise_xor).
func (b Bitwise) Xor(x, y *Variable) *Variable { return b.bin("bitwise_xor", x, y) }

// LeftShift is x << shift elementwise (op shift_bits); shift must not be
// negative, and a shift by the bit width or more gives 0.
func (b Bitwise) LeftShift(x, shift *Variable) *Variable { return b.bin("shift_bits", x, shift) }

// RightShift is x >> shift elementwise, the sign filling in (op
// rshift_bits); shift must not be negative.
func (b Bitwise) RightShift(x, shift *Variable) *Variable { return b.bin("rshift_bits", x, shift) }

// LeftShiftCyclic rotates x's bits left by shift, modulo the bit width (op
// cyclic_shift_bits).
func (b Bitwise) LeftShiftCyclic(x, shift *Variable) *Variable {
	return b.bin("cyclic_shift_bits", x, shift)
}

// RightShiftCyclic rotates x's bits right by shift, modulo the bit width
// (op cyclic_rshift_bits).
func (b Bitwise) RightShiftCyclic(x, shift *Variable) *Variable {
	return b.bin("cyclic_rshift_bits", x, shift)
}

// BitsHammingDistance is the number of bits in which x and y, of one dtype
// and one length, differ: an int64 scalar (op bits_hamming_distance).
func (b Bitwise) BitsHammingDistance(x, y *Variable) *Variable {
	return b.bin("bits_hamming_distance", x, y)
}
