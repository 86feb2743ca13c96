package ndarray

import (
	"errors"
	"fmt"
	"math"

	"github.com/sdgo/sdgo/kernels"
)

// chunk is the number of elements of a strided run a reduction gathers
// into contiguous scratch at a time (elementwise ops take a whole part of
// the scratch); a reduction's rounding depends on it.
const chunk = 256

// ErrDivideByZero is returned by integer division and modulo by zero.
var ErrDivideByZero = errors.New("integer division by zero")

// BinaryOp is an elementwise operation of two operands.
type BinaryOp uint8

// The binary operations, element by element on x and y: Add x+y, Sub x-y,
// Mul x·y, Div x/y (integer division truncates, and a zero divisor is
// ErrDivideByZero), Pow x^y (on integers a negative power truncates to 0
// but for bases ±1), Maximum and Minimum (on floats a NaN operand gives
// NaN), and those commented below.
const (
	Add BinaryOp = iota
	Sub
	Mul
	Div
	Pow
	Maximum
	Minimum
	SquaredDiff // (x-y)²
	FloorDiv    // floor(x/y)
	FloorMod    // x mod y with the sign of y, as Python's %; on floats exact, NaN when y is 0 or x infinite

	// Activation gradients, x being the activation's input or output as
	// named and y the gradient flowing back.
	ReluGrad       // y where x > 0, else 0
	TanhGradOut    // y·(1-x²), x = tanh's output
	SigmoidGradOut // y·x·(1-x), x = the sigmoid's output
)

var binaryNames = [...]string{"add", "sub", "mul", "div", "pow", "maximum", "minimum", "squared_difference", "floordiv", "floormod",
	"relu_grad", "tanh_grad", "sigmoid_grad"}

// String returns the op's lower-case name, as errors give it, for example
// "squared_difference".
func (op BinaryOp) String() string {
	if int(op) < len(binaryNames) {
		return binaryNames[op]
	}
	return fmt.Sprintf("binary(%d)", op)
}

// binK holds an operation's kernels for one element type: on two vectors, a
// vector and a scalar on the right or on the left, and on two scalars.
type binK[T Num] struct {
	vec func(d, x, y []T)
	scR func(d, x []T, s T)
	scL func(d []T, s T, x []T)
	one func(x, y T) T
	// str computes a leading part of a run whose output is contiguous and
	// whose operands are strided, one or both (kernels.Table.AddStrided);
	// nil where there is no such kernel.
	str func(d, x []T, incx int, y []T, incy int) int
}

// asT converts a function over float32 or float64 to the same function over T
// when T is that type. The caller guarantees it is.
func asT[F any](f any) F { return f.(F) }

func floatBinK[T kernels.Float](tab *kernels.Table[T], op BinaryOp) (k binK[T], ok bool) {
	switch op {
	case Add:
		return binK[T]{tab.Add, tab.AddScalar, func(d []T, s T, x []T) { tab.AddScalar(d, x, s) }, nil, tab.AddStrided}, true
	case Sub:
		return binK[T]{tab.Sub, tab.SubScalar, tab.ScalarSub, nil, tab.SubStrided}, true
	case Mul:
		return binK[T]{tab.Mul, tab.Scale, func(d []T, s T, x []T) { tab.Scale(d, x, s) }, nil, tab.MulStrided}, true
	case Div:
		return binK[T]{tab.Div, tab.DivScalar, tab.ScalarDiv, nil, tab.DivStrided}, true
	// No scalar-on-the-left kernel for Maximum and Minimum: MaxScalar(x, s)
	// is not max(s, x[i]) when the two tie, +0 against -0, since a tie
	// keeps the right operand's zero (and when both are NaN, its NaN);
	// binaryRuns spreads the scalar into scratch instead.
	case Maximum:
		return binK[T]{tab.Max, tab.MaxScalar, nil, nil, tab.MaxStrided}, true
	case Minimum:
		return binK[T]{tab.Min, tab.MinScalar, nil, nil, tab.MinStrided}, true
	}
	return k, false
}

// numBinary is the number of BinaryOps.
const numBinary = int(SigmoidGradOut) + 1

// The kernels of every binary op for every element type, built once: the
// vector kernels of package kernels (fixed at its init, before ours) for
// floats where one exists, Go loops otherwise.
var (
	binF32 = buildBinTable[float32]()
	binF64 = buildBinTable[float64]()
	binI32 = buildBinTable[int32]()
	binI64 = buildBinTable[int64]()
)

func buildBinTable[T Num]() *[numBinary]binK[T] {
	var t [numBinary]binK[T]
	for op := range t {
		t[op] = makeBinK[T](BinaryOp(op))
	}
	return &t
}

// binKernels returns op's kernels for T.
func binKernels[T Num](op BinaryOp) *binK[T] {
	var z T
	switch any(z).(type) {
	case float32:
		return &any(binF32).(*[numBinary]binK[T])[op]
	case float64:
		return &any(binF64).(*[numBinary]binK[T])[op]
	case int32:
		return &any(binI32).(*[numBinary]binK[T])[op]
	default:
		return &any(binI64).(*[numBinary]binK[T])[op]
	}
}

func makeBinK[T Num](op BinaryOp) binK[T] {
	one := binFn[T](op)
	var z T
	switch any(z).(type) {
	case float32:
		if op == ReluGrad {
			return binK[T]{vec: asT[func(d, x, y []T)](reluGrad32), one: one}
		}
		if k, ok := floatBinK(kernels.F32, op); ok {
			return binK[T]{asT[func(d, x, y []T)](k.vec), asT[func(d, x []T, s T)](k.scR), asT[func(d []T, s T, x []T)](k.scL), one,
				asT[func(d, x []T, incx int, y []T, incy int) int](k.str)}
		}
	case float64:
		if op == ReluGrad {
			return binK[T]{vec: asT[func(d, x, y []T)](reluGrad64), one: one}
		}
		if k, ok := floatBinK(kernels.F64, op); ok {
			return binK[T]{asT[func(d, x, y []T)](k.vec), asT[func(d, x []T, s T)](k.scR), asT[func(d []T, s T, x []T)](k.scL), one,
				asT[func(d, x []T, incx int, y []T, incy int) int](k.str)}
		}
	}
	// No vector kernel: a Go loop per op, with the op chosen outside the
	// loop. Scalar operands are spread into scratch by binaryRuns.
	return binK[T]{vec: func(d, x, y []T) { binLoop(op, d, x, y) }, one: one}
}

func isFloat[T Num]() bool {
	var z T
	switch any(z).(type) {
	case float32, float64:
		return true
	}
	return false
}

// binLoop computes d[i] = op(x[i], y[i]) for the ops without a vector kernel.
func binLoop[T Num](op BinaryOp, d, x, y []T) {
	x, y = x[:len(d)], y[:len(d)]
	switch op {
	case Add:
		for i := range d {
			d[i] = x[i] + y[i]
		}
	case Sub:
		for i := range d {
			d[i] = x[i] - y[i]
		}
	case Mul:
		for i := range d {
			d[i] = x[i] * y[i]
		}
	case SquaredDiff:
		for i := range d {
			v := x[i] - y[i]
			d[i] = v * v
		}
	case ReluGrad: // integers; floats take reluGrad32/64
		for i := range d {
			if x[i] > 0 {
				d[i] = y[i]
			} else {
				d[i] = 0
			}
		}
	case TanhGradOut:
		for i := range d {
			d[i] = y[i] * (1 - x[i]*x[i])
		}
	case SigmoidGradOut:
		for i := range d {
			d[i] = y[i] * x[i] * (1 - x[i])
		}
	default:
		// The rest (division of integers, powers, floor division and
		// modulo, integer max/min) cost more per element than a call.
		f := binFn[T](op)
		for i := range d {
			d[i] = f(x[i], y[i])
		}
	}
}

// binFn returns op on one pair of elements.
func binFn[T Num](op BinaryOp) func(x, y T) T {
	fl := isFloat[T]()
	switch op {
	case Add:
		return func(x, y T) T { return x + y }
	case Sub:
		return func(x, y T) T { return x - y }
	case Mul:
		return func(x, y T) T { return x * y }
	case Div:
		return func(x, y T) T { return x / y } // integer zero divisors are rejected before
	case Pow:
		if fl {
			return func(x, y T) T { return T(math.Pow(float64(x), float64(y))) }
		}
		return ipow[T]
	case Maximum:
		if fl {
			return func(x, y T) T {
				if x != x || x > y {
					return x
				}
				return y
			}
		}
		return func(x, y T) T { return max(x, y) }
	case Minimum:
		if fl {
			return func(x, y T) T {
				if x != x || x < y {
					return x
				}
				return y
			}
		}
		return func(x, y T) T { return min(x, y) }
	case SquaredDiff:
		return func(x, y T) T { return (x - y) * (x - y) }
	case ReluGrad:
		return func(x, y T) T {
			if x > 0 {
				return y
			}
			return 0
		}
	case TanhGradOut:
		return func(x, y T) T { return y * (1 - x*x) }
	case SigmoidGradOut:
		return func(x, y T) T { return y * x * (1 - x) }
	case FloorDiv:
		if fl {
			return func(x, y T) T { return T(math.Floor(float64(x) / float64(y))) }
		}
		return func(x, y T) T { return T(floorDivInt(int64(x), int64(y))) }
	case FloorMod:
		if fl {
			return func(x, y T) T { return T(floorModFloat(float64(x), float64(y))) }
		}
		return func(x, y T) T { return T(floorModInt(int64(x), int64(y))) }
	}
	panic("ndarray: unknown binary op")
}

// ipow raises an integer to a non-negative integer power; negative powers
// give the truncated result (0 except for bases ±1).
func ipow[T Num](x, y T) T {
	if y < 0 {
		switch x {
		case 1:
			return 1
		case -1:
			if int64(y)%2 == 0 {
				return 1
			}
			return x
		}
		return 0
	}
	r := T(1)
	for e := int64(y); e > 0; e >>= 1 {
		if e&1 == 1 {
			r *= x
		}
		x *= x
	}
	return r
}

// Binary returns op(a, b) with broadcasting. a and b must have the same dtype.
func Binary(op BinaryOp, a, b *Array) (*Array, error) {
	shape, err := BinaryShape(op, a, b)
	if err != nil {
		return nil, err
	}
	out, err := alloc(a.DType(), shape)
	if err != nil {
		return nil, err
	}
	return out, BinaryInto(op, out, a, b)
}

// BinaryShape returns the shape of Binary(op, a, b), or the error Binary
// gives for these arrays before it allocates. A caller with its own buffers
// (an executor's pool) checks with it, allocates, and calls BinaryInto.
func BinaryShape(op BinaryOp, a, b *Array) ([]int, error) {
	if a.DType() != b.DType() {
		return nil, fmt.Errorf("ndarray: %v of %v and %v arrays: dtypes differ", op, a.DType(), b.DType())
	}
	if !a.DType().IsNumeric() {
		return nil, fmt.Errorf("ndarray: %v needs numeric arrays, not %v", op, a.DType())
	}
	shape, err := BroadcastShapes(a.shape, b.shape)
	if err != nil {
		return nil, fmt.Errorf("ndarray: %v: %w", op, err)
	}
	return shape, nil
}

// BinaryInto writes op(a, b), broadcast, into dst, whose shape must be the
// broadcast shape. dst may be a or b (or share their buffer exactly), but must
// not overlap them otherwise.
func BinaryInto(op BinaryOp, dst, a, b *Array) error {
	// Checked without building the broadcast shape, which would allocate
	// on every op a graph runs; only an error computes it.
	if a.DType() != b.DType() || !a.DType().IsNumeric() || dst.DType() != a.DType() || !broadcastsTo(dst.shape, a.shape, b.shape) {
		shape, err := BinaryShape(op, a, b)
		if err != nil {
			return err
		}
		return fmt.Errorf("ndarray: %v into a %v%v array, want %v%v", op, dst.DType(), dst.shape, a.DType(), shape)
	}
	switch a.DType() {
	case Float32:
		binaryTyped[float32](op, dst, a, b)
	case Float64:
		binaryTyped[float64](op, dst, a, b)
	case Int32:
		if (op == Div || op == FloorDiv || op == FloorMod) && hasZero[int32](b) {
			return fmt.Errorf("ndarray: %v: %w", op, ErrDivideByZero)
		}
		binaryTyped[int32](op, dst, a, b)
	case Int64:
		if (op == Div || op == FloorDiv || op == FloorMod) && hasZero[int64](b) {
			return fmt.Errorf("ndarray: %v: %w", op, ErrDivideByZero)
		}
		binaryTyped[int64](op, dst, a, b)
	}
	return nil
}

func hasZero[T Num](a *Array) bool {
	d := Raw[T](a)
	found := false
	eachRun1(a, func(o, n, inc int) {
		for i := 0; i < n; i++ {
			if d[o+i*inc] == 0 {
				found = true
			}
		}
	})
	return found
}

func binaryTyped[T Num](op BinaryOp, dst, a, b *Array) {
	shape := dst.shape
	var sa, sb [MaxRank]int
	nn, ok := newNest(shape, 3, [3][]int{dst.strides, broadcastStridesInto(sa[:len(shape)], a, shape), broadcastStridesInto(sb[:len(shape)], b, shape)},
		[3]int{dst.offset, a.offset, b.offset})
	if !ok {
		return
	}
	k, d, x, y := binKernels[T](op), Raw[T](dst), Raw[T](a), Raw[T](b)
	// the float ops of a vector kernel
	minPart := partMin
	if isFloat[T]() && op <= Minimum && op != Pow {
		minPart = fastPartMin
	}
	if splits(&nn, minPart) {
		inParts(nn, minPart, func(p *nest) { binaryRuns(k, d, x, y, p) })
		return
	}
	binaryRuns(k, d, x, y, &nn)
}

// binaryRuns applies k over every run of the nest. Runs whose operands are
// not contiguous are gathered into scratch a part at a time.
func binaryRuns[T Num](k *binK[T], d, x, y []T, nn *nest) {
	if binaryTiled(k, d, x, y, nn) {
		return
	}
	var sc *scratch
	// op(a, a): where the runs of x and y are the same elements, they are
	// gathered once.
	same := len(x) > 0 && len(y) > 0 && &x[0] == &y[0]
	cnt, inc := nn.runOf()
	// The common kinds of run with nothing to gather, one kernel call
	// each: contiguous (padded rows, a view's rows), and one operand's
	// element repeated along the run (x[N C] - m[N 1]).
	switch {
	case inc == [3]int{1, 1, 1}:
		nn.eachAt(func(o0, o1, o2, _, _, _ int, _ bool) {
			k.vec(d[o0:o0+cnt], x[o1:o1+cnt], y[o2:o2+cnt])
		})
		return
	case inc == [3]int{1, 1, 0} && k.scR != nil:
		nn.eachAt(func(o0, o1, o2, _, _, _ int, _ bool) {
			k.scR(d[o0:o0+cnt], x[o1:o1+cnt], y[o2])
		})
		return
	case inc == [3]int{1, 0, 1} && k.scL != nil:
		nn.eachAt(func(o0, o1, o2, _, _, _ int, _ bool) {
			k.scL(d[o0:o0+cnt], x[o1], y[o2:o2+cnt])
		})
		return
	}
	nn.eachAt(func(o0, o1, o2, n0, n1, n2 int, more bool) {
		off, next, n := [3]int{o0, o1, o2}, [3]int{n0, n1, n2}, cnt
		if inc[1] == 0 && inc[2] == 0 {
			v := k.one(x[off[1]], y[off[2]])
			for i := 0; i < n; i++ {
				d[off[0]+i*inc[0]] = v
			}
			return
		}
		if k.str != nil && inc[0] == 1 && inc[1] > 0 && inc[2] > 0 {
			done := k.str(d[off[0]:off[0]+n], x[off[1]:], inc[1], y[off[2]:], inc[2])
			n -= done
			off[0], off[1], off[2] = off[0]+done, off[1]+done*inc[1], off[2]+done*inc[2]
			if n <= shortRest {
				// the few elements past its last whole vector, one at a
				// time: through scratch they cost more than the rest of
				// a row of 1000
				for i := 0; i < n; i++ {
					d[off[0]+i] = k.one(x[off[1]+i*inc[1]], y[off[2]+i*inc[2]])
				}
				return
			}
		}
		if sc == nil {
			sc = getScratch()
		}
		tx, ty, td := part[T](sc, 0), part[T](sc, 1), part[T](sc, 2)
		once := same && off[1] == off[2] && inc[1] == inc[2]
		for s := 0; s < n; s += len(tx) {
			m := min(len(tx), n-s)
			var gx, gy []T
			if inc[1] != 0 {
				prefetchChunk(x, off[1], next[1], s, len(tx), n, inc[1], more)
				gx = gather(x, off[1]+s*inc[1], m, inc[1], tx)
			}
			if once {
				gy = gx
			} else if inc[2] != 0 {
				prefetchChunk(y, off[2], next[2], s, len(ty), n, inc[2], more)
				gy = gather(y, off[2]+s*inc[2], m, inc[2], ty)
			}
			dd := span(d, off[0]+s*inc[0], m, inc[0], td)
			switch {
			case inc[2] == 0 && k.scR != nil:
				k.scR(dd, gx, y[off[2]])
			case inc[1] == 0 && k.scL != nil:
				k.scL(dd, x[off[1]], gy)
			case inc[2] == 0:
				k.vec(dd, gx, fill(ty[:m], y[off[2]]))
			case inc[1] == 0:
				k.vec(dd, fill(tx[:m], x[off[1]]), gy)
			default:
				k.vec(dd, gx, gy)
			}
			if inc[0] != 1 {
				scatter(d, off[0]+s*inc[0], inc[0], dd)
			}
		}
	})
	if sc != nil {
		putScratch(sc)
	}
}

// binaryTiled computes the nest when its runs are short rows, one after
// another in d and in one operand, and the other operand's row repeats
// (a bias add x[N C] + b[C]): it copies the repeated row r times into
// scratch and calls the kernel once per r rows, where the runs would cost a
// call (and a step of the nest) per row, some 15 ns, as long as the 8
// elements of a row take to add. Each element is computed by the same
// kernel from the same two values, so the results are the same bits. It
// reports false, having done nothing, for any other nest, and when the
// repeated row lies on d's buffer: d's rows could then change it as they
// are written, run by run.
func binaryTiled[T Num](k *binK[T], d, x, y []T, nn *nest) bool {
	if nn.rank < 2 {
		return false
	}
	last, p := nn.rank-1, nn.rank-2
	n := nn.shape[last]
	if nn.st[0][last] != 1 || nn.st[1][last] != 1 || nn.st[2][last] != 1 || nn.st[0][p] != n || 2*n > partLen[T]() {
		return false
	}
	rep := 2 // the operand whose row repeats
	switch {
	case nn.st[1][p] == n && nn.st[2][p] == 0:
	case nn.st[1][p] == 0 && nn.st[2][p] == n:
		rep = 1
	default:
		return false
	}
	row := y
	if rep == 1 {
		row = x
	}
	if &row[0] == &d[0] {
		return false
	}
	sc := getScratch()
	defer putScratch(sc)
	t := part[T](sc, 0)
	r := len(t) / n
	rows := nn.shape[p]
	at := -1 // the offset of the row t holds copies of
	nn.eachRowStart(p, func(off [3]int) {
		if off[rep] != at {
			at = off[rep]
			for i := 0; i < min(r, rows); i++ {
				copy(t[i*n:(i+1)*n], row[at:at+n])
			}
		}
		for i := 0; i < rows; i += r {
			m := min(r, rows-i) * n
			o0, o := off[0]+i*n, off[3-rep]+i*n
			if rep == 2 {
				k.vec(d[o0:o0+m], x[o:o+m], t[:m])
			} else {
				k.vec(d[o0:o0+m], t[:m], y[o:o+m])
			}
		}
	})
	return true
}

// shortRest is the most elements of a run left after a strided kernel
// that binaryRuns computes one at a time: more than the lanes of any
// kernel's vector, less than a gather into scratch costs to set up.
const shortRest = 32

// prefetchChunk is called before gathering the chunk of a run (n elements
// of s from o, inc apart) that starts at element i, chunks being c long. It
// asks for the chunk after it to be fetched: the rest of the run, or the
// start of the next run at next. Asked for this early, it has the gather
// and the computation of this chunk to arrive in: the hardware prefetchers
// lose a strided operand at every jump to the next run, and a gather that
// comes in bursts between long computations finds nothing fetched ahead.
func prefetchChunk[T any](s []T, o, next, i, c, n, inc int, more bool) {
	switch {
	case inc <= 1 || n*inc < 16:
		// contiguous (the hardware follows it), one element, or runs so
		// short that asking costs more than the few lines it could bring
	case i+c < n:
		kernels.Prefetch(s[o+(i+c)*inc:], min(c, n-i-c), inc)
	case more:
		kernels.Prefetch(s[next:], min(c, n), inc)
	}
}

// span returns the m elements of s from o on when they are contiguous, or the
// scratch to compute them in.
func span[T any](s []T, o, m, inc int, scratch []T) []T {
	if inc == 1 {
		return s[o : o+m]
	}
	return scratch[:m]
}

// gather returns the m elements of s at o, o+inc, ...: the slice itself when
// inc is 1, a copy in scratch otherwise.
func gather[T any](s []T, o, m, inc int, scratch []T) []T {
	if inc == 1 {
		return s[o : o+m]
	}
	g := scratch[:m]
	// The kernels want the whole rest of the array: a longer strided side
	// lets the vector code run to the end.
	switch sv := any(s).(type) {
	case []float32:
		kernels.F32.Gather(any(g).([]float32), sv[o:], inc)
		return g
	case []float64:
		kernels.F64.Gather(any(g).([]float64), sv[o:], inc)
		return g
	}
	s = s[o : o+(m-1)*inc+1]
	j := 0
	for i := range g {
		g[i] = s[j]
		j += inc
	}
	return g
}

// fill sets every element of s to v and returns s.
func fill[T any](s []T, v T) []T {
	for i := range s {
		s[i] = v
	}
	return s
}

// scatter writes v to s at o, o+inc, ...
func scatter[T any](s []T, o, inc int, v []T) {
	if len(v) == 0 {
		return
	}
	switch sv := any(s).(type) {
	case []float32:
		kernels.F32.Scatter(sv[o:], inc, any(v).([]float32))
		return
	case []float64:
		kernels.F64.Scatter(sv[o:], inc, any(v).([]float64))
		return
	}
	s = s[o : o+(len(v)-1)*inc+1]
	j := 0
	for _, e := range v {
		s[j] = e
		j += inc
	}
}

func floorDivInt(x, y int64) int64 {
	q := x / y
	if x%y != 0 && (x < 0) != (y < 0) {
		q--
	}
	return q
}

// floorModFloat is Python's float %: the exact remainder math.Mod gives,
// moved by y when its sign differs from y's, and a zero with y's sign. The
// formula x - floor(x/y)*y rounds x/y and then the product, and when x/y is
// large the error is the whole remainder (it gives 0 for 1e17 mod 3 and -32
// for 2e17 mod 0.3). On float32 operands the remainder is exact in float64,
// and the sum m+y, rounded to float64 and then to float32, is the correctly
// rounded float32 sum (53 >= 2·24+2 bits), as float32 arithmetic gives.
//
// The edge cases follow from math.Mod: y = ±0, x = ±Inf or a NaN operand
// give NaN; an infinite y gives x when x is zero or has y's sign, and y
// otherwise (Python: -1 % inf is inf).
func floorModFloat(x, y float64) float64 {
	m := math.Mod(x, y)
	switch {
	case m == 0:
		m = math.Copysign(0, y)
	case (m < 0) != (y < 0):
		m += y
	}
	return m
}

func floorModInt(x, y int64) int64 {
	m := x % y
	if m != 0 && (m < 0) != (y < 0) {
		m += y
	}
	return m
}
