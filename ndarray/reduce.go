package ndarray

import (
	"fmt"
	"slices"
	"sort"

	"github.com/sdgo/sdgo/kernels"
)

// ReduceOp is a reduction along axes.
type ReduceOp uint8

// The reductions: Sum, Mean (the sum over the count), Max and Min (the
// extreme element; NaN propagates), Prod (the product), All and Any (the
// logical and and or). Reduce's comment gives their values over no
// elements.
const (
	Sum ReduceOp = iota
	Mean
	Max
	Min
	Prod
	All // Bool arrays only
	Any // Bool arrays only
)

var reduceNames = [...]string{"sum", "mean", "max", "min", "prod", "all", "any"}

// String returns the op's lower-case name, for example "prod".
func (op ReduceOp) String() string {
	if int(op) < len(reduceNames) {
		return reduceNames[op]
	}
	return fmt.Sprintf("reduce(%d)", op)
}

// NormAxes checks axes against rank, resolves negative ones (-1 is the last
// axis) and returns them sorted. No axes means every axis.
func NormAxes(axes []int, rank int) ([]int, error) {
	if len(axes) == 0 {
		all := make([]int, rank)
		for i := range all {
			all[i] = i
		}
		return all, nil
	}
	out := make([]int, len(axes))
	seen := make([]bool, rank)
	for i, a := range axes {
		r := a
		if r < 0 {
			r += rank
		}
		if r < 0 || r >= rank {
			return nil, fmt.Errorf("axis %d is out of range for rank %d", a, rank)
		}
		if seen[r] {
			return nil, fmt.Errorf("axis %d is given twice in %v", a, axes)
		}
		seen[r] = true
		out[i] = r
	}
	sort.Ints(out)
	return out, nil
}

// ReducedShape returns the shape of a reduction of shape over the (normalised)
// axes: reduced axes have size 1 with keepDims, and are dropped without.
func ReducedShape(shape, axes []int, keepDims bool) []int {
	out := make([]int, 0, len(shape))
	j := 0
	for i, d := range shape {
		if j < len(axes) && axes[j] == i {
			j++
			if keepDims {
				out = append(out, 1)
			}
			continue
		}
		out = append(out, d)
	}
	return out
}

// Reduce returns op over the given axes of a (all axes when none are given).
//
// Over no elements (an axis of size 0), Sum gives 0, Prod 1, Max -Inf and
// Min +Inf (on integers their smallest and largest values), Mean NaN on
// floats and 0 on integers, All true and Any false. NaN propagates through
// Max and Min. Integer sums and products wrap around on overflow, as Go's
// and Java's integer arithmetic do; integer means truncate the wrapped sum.
func Reduce(op ReduceOp, a *Array, axes []int, keepDims bool) (*Array, error) {
	ax, err := NormAxes(axes, a.Rank())
	if err != nil {
		return nil, fmt.Errorf("ndarray: %v of shape %v: %w", op, a.shape, err)
	}
	if err := reduceCheck(op, a); err != nil {
		return nil, err
	}
	out, err := alloc(a.DType(), ReducedShape(a.shape, ax, keepDims))
	if err != nil {
		return nil, err
	}
	return out, reduceInto(op, out, a, ax)
}

func reduceCheck(op ReduceOp, a *Array) error {
	switch {
	case (op == All || op == Any) && a.DType() != Bool:
		return fmt.Errorf("ndarray: %v needs a bool array, not %v", op, a.DType())
	case op != All && op != Any && !a.DType().IsNumeric():
		return fmt.Errorf("ndarray: %v needs a numeric array, not %v", op, a.DType())
	}
	return nil
}

// ReduceInto writes op over axes of a into dst, whose shape is the reduced
// shape with or without kept dimensions. dst must not share a's buffer.
func ReduceInto(op ReduceOp, dst, a *Array, axes []int) error {
	ax, err := NormAxes(axes, a.Rank())
	if err != nil {
		return fmt.Errorf("ndarray: %v of shape %v: %w", op, a.shape, err)
	}
	if err := reduceCheck(op, a); err != nil {
		return err
	}
	if dst.DType() != a.DType() || (!slices.Equal(dst.shape, ReducedShape(a.shape, ax, true)) && !slices.Equal(dst.shape, ReducedShape(a.shape, ax, false))) {
		return fmt.Errorf("ndarray: %v of %v%v over axes %v into a %v%v array", op, a.DType(), a.shape, ax, dst.DType(), dst.shape)
	}
	if dst.SameBuffer(a) {
		// dst is set to the identity before a is read: a dst on a's
		// buffer (even a itself, when the reduced axes have size 1)
		// would change a under the reduction.
		return fmt.Errorf("ndarray: %v of %v%v over axes %v into an array that shares its buffer", op, a.DType(), a.shape, ax)
	}
	return reduceInto(op, dst, a, ax)
}

// reduceInto does the work once shapes are checked. dst's strides are spread
// over a's axes with stride 0 on reduced axes, so one loop nest walks a once
// and folds each element into its place in dst: a run along a reduced axis
// collapses into one element with a reduction kernel, a run along a kept axis
// is combined elementwise into a run of dst with a vector kernel.
func reduceInto(op ReduceOp, dst, a *Array, ax []int) error {
	dstSt := make([]int, a.Rank())
	keep := dst.Rank() == a.Rank()
	j, k := 0, 0
	for i := range a.shape {
		if j < len(ax) && ax[j] == i {
			j++
			if keep {
				k++
			}
			continue
		}
		dstSt[i] = dst.strides[k]
		k++
	}
	count := 1
	for _, i := range ax {
		count *= a.shape[i]
	}
	switch a.DType() {
	case Float32:
		reduceTyped[float32](op, dst, a, dstSt, count)
	case Float64:
		reduceTyped[float64](op, dst, a, dstSt, count)
	case Int32:
		reduceTyped[int32](op, dst, a, dstSt, count)
	case Int64:
		reduceTyped[int64](op, dst, a, dstSt, count)
	case Bool:
		reduceBool(op == All, dst, a, dstSt)
	}
	return nil
}

// redK holds a reduction's pieces for one element type.
type redK[T Num] struct {
	id    T
	whole func(x []T) T     // reduce a contiguous run
	comb  func(a, b T) T    // combine two partial results
	vec   func(d, x, y []T) // d[i] = comb(x[i], y[i])
}

func redKernels[T Num](op ReduceOp) redK[T] {
	var k redK[T]
	var bop BinaryOp
	switch op {
	case Sum, Mean:
		bop = Add
	case Max:
		k.id, bop = lowest[T](), Maximum
	case Min:
		k.id, bop = highest[T](), Minimum
	case Prod:
		k.id, bop = 1, Mul
	}
	bk := binKernels[T](bop)
	k.comb, k.vec = bk.one, bk.vec
	var z T
	switch any(z).(type) {
	case float32:
		if w := floatWhole(kernels.F32, op); w != nil {
			k.whole = asT[func([]T) T](w)
		}
	case float64:
		if w := floatWhole(kernels.F64, op); w != nil {
			k.whole = asT[func([]T) T](w)
		}
	}
	if k.whole == nil {
		id, comb := k.id, k.comb
		k.whole = func(x []T) T {
			r := id
			for _, v := range x {
				r = comb(r, v)
			}
			return r
		}
	}
	return k
}

func floatWhole[T kernels.Float](tab *kernels.Table[T], op ReduceOp) func([]T) T {
	switch op {
	case Sum, Mean:
		return tab.Sum
	case Max:
		return tab.MaxReduce
	case Min:
		return tab.MinReduce
	}
	return nil
}

func reduceTyped[T Num](op ReduceOp, dst, a *Array, dstSt []int, count int) {
	k := redKernels[T](op)
	d, x := Raw[T](dst), Raw[T](a)
	fillRaw(dst, k.id)
	nn, ok := newNest(a.shape, 2, [3][]int{dstSt, a.strides}, [3]int{dst.offset, a.offset})
	if ok {
		sc := getScratch()
		defer putScratch(sc)
		tx, td := part[T](sc, 0), part[T](sc, 1)
		// A float sum adds its chunks' sums in float64, in carry, until the
		// runs move on to another element of dst (the runs of one element
		// come one after another when the reduced axes are the inner
		// ones): a float32 sum of 1e7 elements added 39,000 chunk sums in
		// float32, and lost 3.7e-4 of its value where float64 loses none.
		wide := isFloat[T]() && (op == Sum || op == Mean)
		var carry float64
		at := -1
		flush := func() {
			if at >= 0 {
				d[at] += T(carry)
				carry, at = 0, -1
			}
		}
		n, inc := nn.runOf()
		// each run, given by nest.eachAt (a run can be short: the
		// columns of [N 8], the rows of [N 8])
		run := func(o0, o1, _, _, _, _ int, _ bool) {
			off := [2]int{o0, o1}
			if wide && inc[0] == 0 && off[0] != at {
				flush()
				at = off[0]
			}
			for s := 0; s < n; s += chunk {
				m := min(chunk, n-s)
				xs := gather(x, off[1]+s*inc[1], m, inc[1], tx)
				if inc[0] == 0 {
					if wide {
						carry += float64(k.whole(xs))
					} else {
						d[off[0]] = k.comb(d[off[0]], k.whole(xs))
					}
					continue
				}
				o := off[0] + s*inc[0]
				ds := gather(d, o, m, inc[0], td)
				k.vec(ds, ds, xs)
				if inc[0] != 1 {
					scatter(d, o, inc[0], ds)
				}
			}
		}
		// Over outer axes each output element gets one addition per
		// row, in float32: 1e6 rows of 0.1 summed to 1.0096e5. The rows
		// are taken in blocks of about blockRows additions, summed into
		// dst as before; after each block but the last, dst is added
		// into acc (vector adds) and set to 0, and after spillBlocks
		// blocks acc is added into acc64, in float64. So no element's
		// sum has a chain of more than about blockRows + spillBlocks
		// float32 additions.
		if wide && sumShortRows(k.vec, d, x, &nn, dst, sc) {
			// done
		} else if p, bp := outerBlocks(&nn, dst); wide && bp > 0 {
			acc := make([]T, dst.Size())
			var acc64 []float64
			var runs [][3]int // dst's runs: offset, length, step
			eachRun1(dst, func(o, n, inc int) { runs = append(runs, [3]int{o, n, inc}) })
			nb := nn
			for s, b := 0, 1; s < nn.shape[p]; s, b = s+bp, b+1 {
				nb.shape[p] = min(bp, nn.shape[p]-s)
				nb.off[1] = nn.off[1] + s*nn.st[1][p]
				nb.eachAt(run)
				flush()
				if s+bp >= nn.shape[p] {
					break
				}
				spill(k.vec, acc, d, runs)
				if b%spillBlocks == 0 {
					if acc64 == nil {
						acc64 = make([]float64, len(acc))
					}
					widen(acc64, acc)
				}
			}
			merge(k.vec, d, acc, acc64, runs)
		} else {
			nn.eachAt(run)
			flush()
		}
	}
	if op == Mean {
		if isFloat[T]() {
			// Divided, not scaled by 1/count: that rounds twice, and
			// the float32 mean of three 0.1 came to 0.10000001. Over
			// no elements, 0/0 gives NaN.
			_ = BinaryInto(Div, dst, dst, Must(ScalarOf(dst.DType(), float64(count))))
		} else {
			// Integer means divide (truncating); an empty mean is 0.
			c := T(max(count, 1))
			eachRun1(dst, func(o, n, inc int) {
				for i := 0; i < n; i++ {
					d[o+i*inc] /= c
				}
			})
		}
	}
}

// A float sum over outer axes makes about blockRows additions of rows into
// dst before it adds dst into a float32 accumulator (a vector pass), and
// spillBlocks such blocks before it adds that accumulator into float64 (a
// scalar pass). The rounding error of each element's sum grows with
// blockRows + spillBlocks, the cost of the passes falls with each: 64 and
// 16 cost a few percent where dst stays in the cache (column sums of a
// 1000×1000 float32 matrix: 87 µs against 85, fastest of 10 runs each).
const (
	blockRows   = 64
	spillBlocks = 16
)

// outerBlocks chooses how to split a sum whose nest is nn into blocks: it
// returns the outer reduced axis p to split (the longest) and the length
// bp of its blocks, or bp = 0 where the elements of dst get no more than
// blockRows additions each from the outer reduced axes (the additions along
// a reduced inner run are carried in float64 already), or where dst has
// one element (all its runs come one after another and are carried too),
// or where dst repeats elements (stride 0: spill could not tell them
// apart).
func outerBlocks(nn *nest, dst *Array) (p, bp int) {
	if dst.Size() <= 1 || repeats(dst) {
		return 0, 0
	}
	adds := 1
	p = -1
	for i := 0; i < nn.rank-1; i++ {
		if nn.st[0][i] != 0 {
			continue
		}
		adds *= nn.shape[i]
		if p < 0 || nn.shape[i] > nn.shape[p] {
			p = i
		}
	}
	if p < 0 || adds <= blockRows {
		return 0, 0
	}
	// The other outer reduced axes run whole inside each block.
	return p, max(1, blockRows/(adds/nn.shape[p]))
}

// sumShortRows sums a float nest whose runs are short rows, one after
// another in x, each added into the same row of d (column sums of [N C],
// the batch axis of a bias gradient), where a kernel call per row costs
// some 20 ns, more than adding its 8 elements. It takes r rows at once as
// one run of r·n elements, into r partial rows: in g, blockRows runs (the
// first copied), then g is added into acc, and every spillBlocks blocks
// acc into acc64, in float64, as reduceTyped's blocks do for each element;
// at the end each element of d gets its r partial sums added in float64.
// So no partial sum has a chain of more than blockRows + spillBlocks
// float32 additions, as before; the additions are grouped differently, so
// the results are not the same bits, but the errors are the same: the
// float32 column sums of [1e6 C] 0.1 are 6.4e-7 off (each block of 64 is
// 6.4 with the same rounding either way) and of random uniform values
// 3.3e-8, the rounding of the result, for C = 4, 8 and 64. It reports
// false, having done nothing, for any other nest: rows not one after
// another, rows longer than half a part of the scratch (a kernel call per
// row costs little then), outer axes that are reduced too, or a d with
// repeated elements (stride 0).
func sumShortRows[T Num](add func(d, x, y []T), d, x []T, nn *nest, dst *Array, sc *scratch) bool {
	if nn.rank < 2 {
		return false
	}
	last, p := nn.rank-1, nn.rank-2
	n, rows := nn.shape[last], nn.shape[p]
	g := part[T](sc, 0)
	if nn.st[0][last] != 1 || nn.st[1][last] != 1 || nn.st[0][p] != 0 || nn.st[1][p] != n || 2*n > len(g) {
		return false
	}
	for i := 0; i < p; i++ {
		if nn.st[0][i] == 0 {
			return false
		}
	}
	if repeats(dst) {
		return false
	}
	r := min(len(g)/n, rows)
	w := r * n
	g, acc := g[:w], part[T](sc, 1)[:w]
	var acc64 []float64
	whole := rows / r                     // groups of r rows; the rows past them go into acc
	nn.eachRowStart(p, func(off [3]int) { // the kept axes around the rows
		clear(acc)
		if acc64 != nil {
			clear(acc64)
		}
		for i, b := 0, 0; i < whole; i++ {
			o := off[1] + i*w
			if i%blockRows == 0 {
				copy(g, x[o:o+w])
			} else {
				add(g, g, x[o:o+w])
			}
			if (i+1)%blockRows != 0 && i+1 < whole {
				continue
			}
			add(acc, acc, g)
			if b++; b%spillBlocks == 0 && i+1 < whole {
				if acc64 == nil {
					acc64 = make([]float64, w)
				}
				widen(acc64, acc)
			}
		}
		if m := (rows - whole*r) * n; m > 0 {
			o := off[1] + whole*w
			add(acc[:m], acc[:m], x[o:o+m])
		}
		// d's row is 0 (the identity) and no other run reaches it: the
		// outer axes are kept. acc64, once made, is all zeros in a row
		// that never widened, which adds nothing.
		for j := 0; j < n; j++ {
			s := 0.0
			for i := j; i < w; i += n {
				if acc64 != nil {
					s += acc64[i]
				}
				s += float64(acc[i])
			}
			d[off[0]+j] = T(s)
		}
	})
	return true
}

// repeats reports whether a has an element at more than one index (a
// stride 0 along an axis longer than 1).
func repeats(a *Array) bool {
	for i, d := range a.shape {
		if d > 1 && a.strides[i] == 0 {
			return true
		}
	}
	return false
}

// spill adds dst's elements (raw d, in its runs), in order, into acc with
// add (acc[i] += d[...]), and sets them to 0.
func spill[T Num](add func(d, x, y []T), acc, d []T, runs [][3]int) {
	i := 0
	for _, r := range runs {
		o, n, inc := r[0], r[1], r[2]
		a := acc[i : i+n]
		if inc == 1 {
			add(a, a, d[o:o+n])
			clear(d[o : o+n])
		} else {
			for j := range a {
				a[j] += d[o+j*inc]
				d[o+j*inc] = 0
			}
		}
		i += n
	}
}

// widen adds acc into acc64 and sets acc to 0.
func widen[T Num](acc64 []float64, acc []T) {
	for i, v := range acc {
		acc64[i] += float64(v)
	}
	clear(acc)
}

// merge adds acc and acc64 (nil when never widened) into dst's elements
// (raw d, in its runs).
func merge[T Num](add func(d, x, y []T), d, acc []T, acc64 []float64, runs [][3]int) {
	i := 0
	for _, r := range runs {
		o, n, inc := r[0], r[1], r[2]
		switch {
		case acc64 != nil:
			for j := 0; j < n; j++ {
				p := &d[o+j*inc]
				*p = T(acc64[i+j] + float64(acc[i+j]) + float64(*p))
			}
		case inc == 1:
			add(d[o:o+n], d[o:o+n], acc[i:i+n])
		default:
			for j := 0; j < n; j++ {
				d[o+j*inc] += acc[i+j]
			}
		}
		i += n
	}
}

func reduceBool(all bool, dst, a *Array, dstSt []int) {
	d, x := Raw[bool](dst), Raw[bool](a)
	fillRaw(dst, all)
	nn, ok := newNest(a.shape, 2, [3][]int{dstSt, a.strides}, [3]int{dst.offset, a.offset})
	if !ok {
		return
	}
	nn.each(func(off [3]int, n int, inc [3]int) {
		for i := 0; i < n; i++ {
			v := x[off[1]+i*inc[1]]
			p := &d[off[0]+i*inc[0]]
			if all {
				*p = *p && v
			} else {
				*p = *p || v
			}
		}
	})
}

// ArgMax returns the Int64 indices of the largest elements along axis (ties
// and NaN: the first); a must have rank 1 or more. ArgMin likewise for the
// smallest.
func ArgMax(a *Array, axis int, keepDims bool) (*Array, error) {
	return argReduce(a, axis, keepDims, true)
}

// ArgMin returns the Int64 indices of the smallest elements along axis.
func ArgMin(a *Array, axis int, keepDims bool) (*Array, error) {
	return argReduce(a, axis, keepDims, false)
}

func argReduce(a *Array, axis int, keepDims, isMax bool) (*Array, error) {
	name := "argmin"
	if isMax {
		name = "argmax"
	}
	if !a.DType().IsNumeric() {
		return nil, fmt.Errorf("ndarray: %s needs a numeric array, not %v", name, a.DType())
	}
	// A scalar has no axis to search along: every axis is out of range, as
	// in Reduce.
	ax, err := NormAxes([]int{axis}, a.Rank())
	if err != nil {
		return nil, fmt.Errorf("ndarray: %s of shape %v: %w", name, a.shape, err)
	}
	r := ax[0]
	if a.shape[r] == 0 {
		return nil, fmt.Errorf("ndarray: %s along axis %d of shape %v: the axis is empty", name, axis, a.shape)
	}
	out, err := alloc(Int64, ReducedShape(a.shape, ax, keepDims))
	if err != nil {
		return nil, err
	}
	// Walk a with axis r removed; each element starts a scan along r.
	shape := make([]int, 0, a.Rank())
	st := make([]int, 0, a.Rank())
	for i := range a.shape {
		if i != r {
			shape = append(shape, a.shape[i])
			st = append(st, a.strides[i])
		}
	}
	nn, ok := newNest(shape, 2, [3][]int{PackedStrides(shape), st}, [3]int{0, a.offset})
	if !ok {
		return out, nil
	}
	d := Raw[int64](out)
	switch a.DType() {
	case Float32:
		argRuns(d, Raw[float32](a), a.shape[r], a.strides[r], isMax, &nn)
	case Float64:
		argRuns(d, Raw[float64](a), a.shape[r], a.strides[r], isMax, &nn)
	case Int32:
		argRuns(d, Raw[int32](a), a.shape[r], a.strides[r], isMax, &nn)
	case Int64:
		argRuns(d, Raw[int64](a), a.shape[r], a.strides[r], isMax, &nn)
	}
	return out, nil
}

func argRuns[T Num](d []int64, x []T, length, stride int, isMax bool, nn *nest) {
	nn.each(func(off [3]int, n int, inc [3]int) {
		for i := 0; i < n; i++ {
			base := off[1] + i*inc[1]
			best, bi := x[base], 0
			for j := 1; j < length && best == best; j++ {
				v := x[base+j*stride]
				if v != v || (isMax && v > best) || (!isMax && v < best) {
					best, bi = v, j
				}
			}
			d[off[0]+i*inc[0]] = int64(bi)
		}
	})
}
