package ndarray

import (
	"encoding/binary"
	"fmt"
	"slices"
)

// CompareOp is an elementwise comparison; its result is a Bool array.
type CompareOp uint8

// The comparisons, element by element: Eq x == y, Ne x != y, Lt x < y, Le
// x <= y, Gt x > y, Ge x >= y. Any comparison with a NaN is false, but for
// Ne, which is true, as in Go.
const (
	Eq CompareOp = iota
	Ne
	Lt
	Le
	Gt
	Ge
)

var compareNames = [...]string{"equals", "not_equals", "less", "less_equal", "greater", "greater_equal"}

// String returns the op's lower-case name, as errors give it, for example
// "less_equal".
func (op CompareOp) String() string {
	if int(op) < len(compareNames) {
		return compareNames[op]
	}
	return fmt.Sprintf("compare(%d)", op)
}

// Compare returns the Bool array op(a, b) with broadcasting. a and b must have
// the same dtype; Bool operands support Eq and Ne.
func Compare(op CompareOp, a, b *Array) (*Array, error) {
	shape, err := CompareShape(op, a, b)
	if err != nil {
		return nil, err
	}
	out, err := alloc(Bool, shape)
	if err != nil {
		return nil, err
	}
	return out, compareInto(op, out, a, b)
}

// CompareShape returns the shape of Compare(op, a, b), or Compare's error
// for operands of different dtypes or shapes that do not broadcast.
func CompareShape(op CompareOp, a, b *Array) ([]int, error) {
	if a.DType() != b.DType() {
		return nil, fmt.Errorf("ndarray: %v of %v and %v arrays: dtypes differ", op, a.DType(), b.DType())
	}
	shape, err := BroadcastShapes(a.shape, b.shape)
	if err != nil {
		return nil, fmt.Errorf("ndarray: %v: %w", op, err)
	}
	return shape, nil
}

// CompareInto writes Compare(op, a, b) into dst, a Bool array of the
// broadcast shape in any layout, not on a's or b's buffer. The errors are
// Compare's.
func CompareInto(op CompareOp, dst, a, b *Array) error {
	shape, err := CompareShape(op, a, b)
	if err != nil {
		return err
	}
	if dst.DType() != Bool || !slices.Equal(dst.shape, shape) {
		return fmt.Errorf("ndarray: %v into a %v%v array, want %v%v", op, dst.DType(), dst.shape, Bool, shape)
	}
	if dst.SameBuffer(a) || dst.SameBuffer(b) {
		return fmt.Errorf("ndarray: %v into an array sharing an operand's buffer", op)
	}
	return compareInto(op, dst, a, b)
}

// compareInto is Compare's loop, into out of the checked shape.
func compareInto(op CompareOp, out, a, b *Array) error {
	shape := out.shape
	nn, ok := newNest(shape, 3, [3][]int{out.strides, broadcastStrides(a, shape), broadcastStrides(b, shape)},
		[3]int{out.offset, a.offset, b.offset})
	if !ok {
		return nil
	}
	d := Raw[bool](out)
	switch a.DType() {
	case Float32:
		compareRuns(op, d, Raw[float32](a), Raw[float32](b), &nn)
	case Float64:
		compareRuns(op, d, Raw[float64](a), Raw[float64](b), &nn)
	case Int32:
		compareRuns(op, d, Raw[int32](a), Raw[int32](b), &nn)
	case Int64:
		compareRuns(op, d, Raw[int64](a), Raw[int64](b), &nn)
	case Bool:
		if op != Eq && op != Ne {
			return fmt.Errorf("ndarray: %v is not defined on bool arrays", op)
		}
		// On bools, a == b is !(a != b): Xor, negated for Eq.
		logicRuns(Xor, op == Eq, out.buf.bytes, a.buf.bytes, b.buf.bytes, &nn)
	default:
		return fmt.Errorf("ndarray: %v is not defined on %v arrays", op, a.DType())
	}
	return nil
}

// flipped returns the comparison that gives the same result with its
// operands swapped: a < b is b > a (also for NaN, where both are false).
func (op CompareOp) flipped() CompareOp {
	switch op {
	case Lt:
		return Gt
	case Le:
		return Ge
	case Gt:
		return Lt
	case Ge:
		return Le
	}
	return op
}

// compareRuns writes op(x, y) over every run of the nest: a plain loop per op
// on contiguous runs and on runs against a broadcast scalar, a strided loop
// per op otherwise. The op is chosen once per run, never per element.
func compareRuns[T Num](op CompareOp, d []bool, x, y []T, nn *nest) {
	nn.each(func(off [3]int, n int, inc [3]int) {
		switch {
		case inc == [3]int{1, 1, 1}:
			cmpVec(op, d[off[0]:off[0]+n], x[off[1]:off[1]+n], y[off[2]:off[2]+n])
		case inc == [3]int{1, 1, 0}:
			cmpScalar(op, d[off[0]:off[0]+n], x[off[1]:off[1]+n], y[off[2]])
		case inc == [3]int{1, 0, 1}:
			cmpScalar(op.flipped(), d[off[0]:off[0]+n], y[off[2]:off[2]+n], x[off[1]])
		default:
			cmpStrided(op, d, x, y, off, n, inc)
		}
	})
}

// cmpVec sets d[i] = op(x[i], y[i]).
func cmpVec[T Num](op CompareOp, d []bool, x, y []T) {
	x, y = x[:len(d)], y[:len(d)]
	switch op {
	case Eq:
		for i := range d {
			d[i] = x[i] == y[i]
		}
	case Ne:
		for i := range d {
			d[i] = x[i] != y[i]
		}
	case Lt:
		for i := range d {
			d[i] = x[i] < y[i]
		}
	case Le:
		for i := range d {
			d[i] = x[i] <= y[i]
		}
	case Gt:
		for i := range d {
			d[i] = x[i] > y[i]
		}
	default:
		for i := range d {
			d[i] = x[i] >= y[i]
		}
	}
}

// cmpScalar sets d[i] = op(x[i], s).
func cmpScalar[T Num](op CompareOp, d []bool, x []T, s T) {
	x = x[:len(d)]
	switch op {
	case Eq:
		for i := range d {
			d[i] = x[i] == s
		}
	case Ne:
		for i := range d {
			d[i] = x[i] != s
		}
	case Lt:
		for i := range d {
			d[i] = x[i] < s
		}
	case Le:
		for i := range d {
			d[i] = x[i] <= s
		}
	case Gt:
		for i := range d {
			d[i] = x[i] > s
		}
	default:
		for i := range d {
			d[i] = x[i] >= s
		}
	}
}

// cmpStrided writes op over one run of n elements with any steps.
func cmpStrided[T Num](op CompareOp, d []bool, x, y []T, off [3]int, n int, inc [3]int) {
	i, j, k := off[0], off[1], off[2]
	switch op {
	case Eq:
		for c := 0; c < n; c, i, j, k = c+1, i+inc[0], j+inc[1], k+inc[2] {
			d[i] = x[j] == y[k]
		}
	case Ne:
		for c := 0; c < n; c, i, j, k = c+1, i+inc[0], j+inc[1], k+inc[2] {
			d[i] = x[j] != y[k]
		}
	case Lt:
		for c := 0; c < n; c, i, j, k = c+1, i+inc[0], j+inc[1], k+inc[2] {
			d[i] = x[j] < y[k]
		}
	case Le:
		for c := 0; c < n; c, i, j, k = c+1, i+inc[0], j+inc[1], k+inc[2] {
			d[i] = x[j] <= y[k]
		}
	case Gt:
		for c := 0; c < n; c, i, j, k = c+1, i+inc[0], j+inc[1], k+inc[2] {
			d[i] = x[j] > y[k]
		}
	default:
		for c := 0; c < n; c, i, j, k = c+1, i+inc[0], j+inc[1], k+inc[2] {
			d[i] = x[j] >= y[k]
		}
	}
}

// LogicOp is an elementwise operation on Bool arrays.
type LogicOp uint8

// The logical operations on Bool elements: And x && y, Or x || y, Xor
// x != y.
const (
	And LogicOp = iota
	Or
	Xor
)

var logicNames = [...]string{"and", "or", "xor"}

// String returns the op's lower-case name: "and", "or" or "xor".
func (op LogicOp) String() string {
	if int(op) < len(logicNames) {
		return logicNames[op]
	}
	return fmt.Sprintf("logic(%d)", op)
}

// Logic returns op(a, b) on Bool arrays, with broadcasting.
func Logic(op LogicOp, a, b *Array) (*Array, error) {
	if a.DType() != Bool || b.DType() != Bool {
		return nil, fmt.Errorf("ndarray: %v of %v%v and %v%v arrays: both must be bool", op, a.DType(), a.shape, b.DType(), b.shape)
	}
	shape, err := BroadcastShapes(a.shape, b.shape)
	if err != nil {
		return nil, fmt.Errorf("ndarray: %v: %w", op, err)
	}
	out, err := alloc(Bool, shape)
	if err != nil {
		return nil, err
	}
	nn, ok := newNest(shape, 3, [3][]int{out.strides, broadcastStrides(a, shape), broadcastStrides(b, shape)},
		[3]int{out.offset, a.offset, b.offset})
	if !ok {
		return out, nil
	}
	logicRuns(op, false, out.buf.bytes, a.buf.bytes, b.buf.bytes, &nn)
	return out, nil
}

// logicRuns writes op(x, y), negated when neg is set, over every run of the
// nest, with the op chosen once per run. d, x and y are Bool buffers' bytes,
// each 0 or 1 (Go writes bools so, and BufferFromBytes, the one way to give
// a Bool buffer other bytes, normalizes them), so that And, Or and Xor are
// the bitwise operations, eight elements a word on contiguous runs.
func logicRuns(op LogicOp, neg bool, d, x, y []byte, nn *nest) {
	var nb byte
	if neg {
		nb = 1
	}
	nn.each(func(off [3]int, n int, inc [3]int) {
		if inc == [3]int{1, 1, 1} {
			logicVec(op, nb, d[off[0]:off[0]+n], x[off[1]:off[1]+n], y[off[2]:off[2]+n])
			return
		}
		i, j, k := off[0], off[1], off[2]
		switch op {
		case And:
			for c := 0; c < n; c, i, j, k = c+1, i+inc[0], j+inc[1], k+inc[2] {
				d[i] = x[j]&y[k] ^ nb
			}
		case Or:
			for c := 0; c < n; c, i, j, k = c+1, i+inc[0], j+inc[1], k+inc[2] {
				d[i] = (x[j] | y[k]) ^ nb
			}
		default:
			for c := 0; c < n; c, i, j, k = c+1, i+inc[0], j+inc[1], k+inc[2] {
				d[i] = x[j] ^ y[k] ^ nb
			}
		}
	})
}

// logicVec sets d[i] = op(x[i], y[i]) ^ nb on 0/1 bytes.
func logicVec(op LogicOp, nb byte, d, x, y []byte) {
	x, y = x[:len(d)], y[:len(d)]
	m := uint64(nb) * 0x0101010101010101
	le := binary.LittleEndian
	i := 0
	switch op {
	case And:
		for ; i+8 <= len(d); i += 8 {
			le.PutUint64(d[i:], le.Uint64(x[i:])&le.Uint64(y[i:])^m)
		}
		for ; i < len(d); i++ {
			d[i] = x[i]&y[i] ^ nb
		}
	case Or:
		for ; i+8 <= len(d); i += 8 {
			le.PutUint64(d[i:], (le.Uint64(x[i:])|le.Uint64(y[i:]))^m)
		}
		for ; i < len(d); i++ {
			d[i] = (x[i] | y[i]) ^ nb
		}
	default:
		for ; i+8 <= len(d); i += 8 {
			le.PutUint64(d[i:], le.Uint64(x[i:])^le.Uint64(y[i:])^m)
		}
		for ; i < len(d); i++ {
			d[i] = x[i] ^ y[i] ^ nb
		}
	}
}

// Not returns the elementwise negation of a Bool array.
func Not(a *Array) (*Array, error) {
	if a.DType() != Bool {
		return nil, fmt.Errorf("ndarray: not of a %v array: must be bool", a.DType())
	}
	out, err := alloc(Bool, a.shape)
	if err != nil {
		return nil, err
	}
	d, x := Raw[bool](out), Raw[bool](a)
	i := 0
	eachRun1(a, func(o, n, inc int) {
		for j := 0; j < n; j++ {
			d[i] = !x[o+j*inc]
			i++
		}
	})
	return out, nil
}

// Where returns, elementwise with broadcasting, x where cond is true and y
// where it is false. x and y may have any dtype of fixed element size.
func Where(cond, x, y *Array) (*Array, error) {
	if cond.DType() != Bool {
		return nil, fmt.Errorf("ndarray: where: condition is %v, must be bool", cond.DType())
	}
	if x.DType() != y.DType() {
		return nil, fmt.Errorf("ndarray: where: %v and %v values: dtypes differ", x.DType(), y.DType())
	}
	if err := needFixedSize("where", x.DType()); err != nil {
		return nil, err
	}
	s, err := BroadcastShapes(x.shape, y.shape)
	if err == nil {
		s, err = BroadcastShapes(cond.shape, s)
	}
	if err != nil {
		return nil, fmt.Errorf("ndarray: where: %w", err)
	}
	cx, err := BroadcastTo(x, s...)
	if err != nil {
		return nil, err
	}
	out := cx
	c := broadcastStrides(cond, s)
	ys := broadcastStrides(y, s)
	nn, ok := newNest(s, 3, [3][]int{out.strides, c, ys}, [3]int{out.offset, cond.offset, y.offset})
	if !ok {
		return out, nil
	}
	cb := Raw[bool](cond)
	switch x.DType() {
	case Float32:
		whereRuns(Raw[float32](out), cb, Raw[float32](y), &nn)
	case Float64:
		whereRuns(Raw[float64](out), cb, Raw[float64](y), &nn)
	case Int32:
		whereRuns(Raw[int32](out), cb, Raw[int32](y), &nn)
	case Int64:
		whereRuns(Raw[int64](out), cb, Raw[int64](y), &nn)
	case Bool:
		whereRuns(Raw[bool](out), cb, Raw[bool](y), &nn)
	default:
		// Dtypes sdgo stores but does not compute with: element bytes.
		whereBytes(out.buf.bytes, cb, y.buf.bytes, x.DType().Size(), &nn)
	}
	return out, nil
}

// whereRuns replaces d's elements by y's where c is false.
func whereRuns[T Elem](d []T, c []bool, y []T, nn *nest) {
	nn.each(func(off [3]int, n int, inc [3]int) {
		for i := 0; i < n; i++ {
			if !c[off[1]+i*inc[1]] {
				d[off[0]+i*inc[0]] = y[off[2]+i*inc[2]]
			}
		}
	})
}

// whereBytes is whereRuns on buffers of sz-byte elements.
func whereBytes(d []byte, c []bool, y []byte, sz int, nn *nest) {
	nn.each(func(off [3]int, n int, inc [3]int) {
		for i := 0; i < n; i++ {
			if !c[off[1]+i*inc[1]] {
				p, q := (off[0]+i*inc[0])*sz, (off[2]+i*inc[2])*sz
				copy(d[p:p+sz], y[q:q+sz])
			}
		}
	})
}
