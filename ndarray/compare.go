package ndarray

import "fmt"

// CompareOp is an elementwise comparison; its result is a Bool array.
type CompareOp uint8

const (
	Eq CompareOp = iota
	Ne
	Lt
	Le
	Gt
	Ge
)

var compareNames = [...]string{"equals", "not_equals", "less", "less_equal", "greater", "greater_equal"}

func (op CompareOp) String() string {
	if int(op) < len(compareNames) {
		return compareNames[op]
	}
	return fmt.Sprintf("compare(%d)", op)
}

// Compare returns the Bool array op(a, b) with broadcasting. a and b must have
// the same dtype; Bool operands support Eq and Ne.
func Compare(op CompareOp, a, b *Array) (*Array, error) {
	if a.DType() != b.DType() {
		return nil, fmt.Errorf("ndarray: %v of %v and %v arrays: dtypes differ", op, a.DType(), b.DType())
	}
	shape, err := BroadcastShapes(a.shape, b.shape)
	if err != nil {
		return nil, fmt.Errorf("ndarray: %v: %w", op, err)
	}
	out := alloc(Bool, shape)
	nn, ok := newNest(shape, 3, [3][]int{out.strides, broadcastStrides(a, shape), broadcastStrides(b, shape)},
		[3]int{out.offset, a.offset, b.offset})
	if !ok {
		return out, nil
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
			return nil, fmt.Errorf("ndarray: %v is not defined on bool arrays", op)
		}
		x, y := Raw[bool](a), Raw[bool](b)
		ne := op == Ne
		nn.each(func(off [3]int, n int, inc [3]int) {
			for i := 0; i < n; i++ {
				d[off[0]+i*inc[0]] = (x[off[1]+i*inc[1]] != y[off[2]+i*inc[2]]) == ne
			}
		})
	default:
		return nil, fmt.Errorf("ndarray: %v is not defined on %v arrays", op, a.DType())
	}
	return out, nil
}

func compareRuns[T Num](op CompareOp, d []bool, x, y []T, nn *nest) {
	var f func(a, b T) bool
	switch op {
	case Eq:
		f = func(a, b T) bool { return a == b }
	case Ne:
		f = func(a, b T) bool { return a != b }
	case Lt:
		f = func(a, b T) bool { return a < b }
	case Le:
		f = func(a, b T) bool { return a <= b }
	case Gt:
		f = func(a, b T) bool { return a > b }
	default:
		f = func(a, b T) bool { return a >= b }
	}
	nn.each(func(off [3]int, n int, inc [3]int) {
		for i := 0; i < n; i++ {
			d[off[0]+i*inc[0]] = f(x[off[1]+i*inc[1]], y[off[2]+i*inc[2]])
		}
	})
}

// LogicOp is an elementwise operation on Bool arrays.
type LogicOp uint8

const (
	And LogicOp = iota
	Or
	Xor
)

// Logic returns op(a, b) on Bool arrays, with broadcasting.
func Logic(op LogicOp, a, b *Array) (*Array, error) {
	if a.DType() != Bool || b.DType() != Bool {
		return nil, fmt.Errorf("ndarray: logical op on %v and %v arrays: both must be bool", a.DType(), b.DType())
	}
	shape, err := BroadcastShapes(a.shape, b.shape)
	if err != nil {
		return nil, fmt.Errorf("ndarray: logical op: %w", err)
	}
	out := alloc(Bool, shape)
	nn, ok := newNest(shape, 3, [3][]int{out.strides, broadcastStrides(a, shape), broadcastStrides(b, shape)},
		[3]int{out.offset, a.offset, b.offset})
	if !ok {
		return out, nil
	}
	d, x, y := Raw[bool](out), Raw[bool](a), Raw[bool](b)
	nn.each(func(off [3]int, n int, inc [3]int) {
		for i := 0; i < n; i++ {
			p, q := x[off[1]+i*inc[1]], y[off[2]+i*inc[2]]
			var r bool
			switch op {
			case And:
				r = p && q
			case Or:
				r = p || q
			default:
				r = p != q
			}
			d[off[0]+i*inc[0]] = r
		}
	})
	return out, nil
}

// Not returns the elementwise negation of a Bool array.
func Not(a *Array) (*Array, error) {
	if a.DType() != Bool {
		return nil, fmt.Errorf("ndarray: not of a %v array: must be bool", a.DType())
	}
	out := alloc(Bool, a.shape)
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
// where it is false.
func Where(cond, x, y *Array) (*Array, error) {
	if cond.DType() != Bool {
		return nil, fmt.Errorf("ndarray: where: condition is %v, must be bool", cond.DType())
	}
	if x.DType() != y.DType() {
		return nil, fmt.Errorf("ndarray: where: %v and %v values: dtypes differ", x.DType(), y.DType())
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
