package ndarray

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
)

// Reference tests: every function against index-by-index loops over C-order
// coordinates, on random shapes, layouts and dtypes.

var computable = []DType{Float32, Float64, Int32, Int64, Bool}
var numeric = []DType{Float32, Float64, Int32, Int64}

// randShape returns a shape of rank 0..maxRank with sizes 0..maxSize; with
// SDGO_REF_LONG set, the last axis is sometimes long (up to 600), so that
// the vector kernels' main loops and the reductions' chunks are reached.
func randShape(rng *rand.Rand, maxRank, maxSize int) []int {
	s := make([]int, rng.IntN(maxRank+1))
	for i := range s {
		s[i] = rng.IntN(maxSize + 1)
	}
	if refLong && len(s) > 0 && rng.IntN(2) == 0 {
		s[len(s)-1] = rng.IntN(600)
		if len(s) > 3 {
			s = s[len(s)-3:]
		}
	}
	return s
}

var refLong = os.Getenv("SDGO_REF_LONG") != ""

// refIters is the number of random cases of a reference test: n, or a
// quarter of n under the race detector (the first quarter: the cases are
// drawn in order from one generator per test).
func refIters(n int) int {
	if raceEnabled {
		return n / 4
	}
	return n
}

// refSeed (SDGO_REF_SEED) moves every reference test to other draws.
var refSeed = func() uint64 {
	n, _ := strconv.ParseUint(os.Getenv("SDGO_REF_SEED"), 10, 64)
	return n
}()

// randVals returns n values for dt as float64s: small integers, with NaN,
// ±Inf and -0 now and then for floats.
func randVals(rng *rand.Rand, dt DType, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		switch {
		case dt == Bool:
			v[i] = float64(rng.IntN(2))
		case dt.IsFloat():
			switch rng.IntN(20) {
			case 0:
				v[i] = math.NaN()
			case 1:
				v[i] = math.Inf(1 - 2*rng.IntN(2))
			case 2:
				v[i] = math.Copysign(0, -1)
			default:
				v[i] = float64(rng.IntN(9)-4) + float64(rng.IntN(4))/4
			}
		default:
			v[i] = float64(rng.IntN(9) - 4)
		}
	}
	return v
}

// layoutKinds names the layouts randLayout makes.
var layoutKinds = []string{"packed", "offset", "padded", "stepped", "mixed", "ones", "transposed"}

// randLayoutOf returns an array of dt holding vals (C order over shape) in a
// layout of the given kind: packed, packed at a large offset, padded,
// stepped, all three, with odd strides on size-1 axes, or stored in a
// permuted axis order (an internal layout, as Permute makes: Validate
// refuses it).
func randLayoutOf(t testing.TB, rng *rand.Rand, dt DType, shape []int, vals []float64, kind string) *Array {
	t.Helper()
	r := len(shape)
	perm := make([]int, r)
	for i := range perm {
		perm[i] = i
	}
	step, pad := make([]int, r), make([]int, r)
	for i := range step {
		step[i] = 1
	}
	off := 0
	switch kind {
	case "offset":
		off = 1000 + rng.IntN(100)
	case "padded":
		for i := range pad {
			pad[i] = rng.IntN(3)
		}
		off = rng.IntN(5)
	case "stepped":
		for i := range step {
			step[i] = 1 + rng.IntN(3)
		}
	case "mixed", "ones":
		for i := range step {
			step[i] = 1 + rng.IntN(3)
			pad[i] = rng.IntN(3)
		}
		off = rng.IntN(300)
	case "transposed":
		rng.Shuffle(r, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		for i := range step {
			step[i] = 1 + rng.IntN(2)
		}
		off = rng.IntN(7)
	}
	// storage axis j holds logical axis perm[j]
	store := make([]int, r)
	for j := range store {
		store[j] = shape[perm[j]]*step[perm[j]] + pad[perm[j]]
	}
	sst := make([]int, r)
	s := 1
	for j := r - 1; j >= 0; j-- {
		sst[j] = s
		s *= max(store[j], 1)
	}
	st := make([]int, r)
	for j := range store {
		st[perm[j]] = sst[j] * step[perm[j]]
	}
	if kind == "ones" {
		for i := range st {
			if shape[i] == 1 {
				st[i] = rng.IntN(1000)
			}
		}
	}
	n := off + s + 1
	buf, err := newBuffer(dt, n)
	if err != nil {
		t.Fatal(err)
	}
	a := &Array{buf: buf, shape: append([]int(nil), shape...), strides: st, offset: off}
	if kind != "transposed" {
		if err := a.layout().Validate(buf.n); err != nil && shapeSize(shape) > 0 {
			t.Fatalf("test layout %s: %v", kind, err)
		}
	}
	// Fill the whole buffer with junk first, so that reading outside the
	// layout shows.
	whole := &Array{buf: buf, shape: []int{n}, strides: []int{1}}
	if dt.IsFloat() {
		fillValue(whole, 7777)
	} else if dt != Bool {
		fillValue(whole, 77)
	} else {
		fillValue(whole, 1)
	}
	for i, v := range vals {
		setAt(a, unravel(i, shape), v)
	}
	return a
}

func randLayout(t testing.TB, rng *rand.Rand, dt DType, shape []int, vals []float64) (*Array, string) {
	k := layoutKinds[rng.IntN(len(layoutKinds))]
	return randLayoutOf(t, rng, dt, shape, vals, k), k
}

// unravel returns the C-order coordinates of the i-th element of shape.
func unravel(i int, shape []int) []int {
	idx := make([]int, len(shape))
	for j := len(shape) - 1; j >= 0; j-- {
		if shape[j] > 0 {
			idx[j] = i % shape[j]
			i /= shape[j]
		}
	}
	return idx
}

// pos returns the buffer position of idx, naively.
func pos(a *Array, idx []int) int {
	p := a.offset
	for i, v := range idx {
		if v < 0 || v >= a.shape[i] {
			panic(fmt.Sprintf("index %v outside %v", idx, a.shape))
		}
		p += v * a.strides[i]
	}
	return p
}

func setAt(a *Array, idx []int, v float64) {
	p := pos(a, idx)
	switch a.DType() {
	case Float32:
		Raw[float32](a)[p] = float32(v)
	case Float64:
		Raw[float64](a)[p] = v
	case Int32:
		Raw[int32](a)[p] = int32(v)
	case Int64:
		Raw[int64](a)[p] = int64(v)
	case Bool:
		Raw[bool](a)[p] = v != 0
	}
}

func getAt(a *Array, idx []int) float64 {
	p := pos(a, idx)
	switch a.DType() {
	case Float32:
		return float64(Raw[float32](a)[p])
	case Float64:
		return Raw[float64](a)[p]
	case Int32:
		return float64(Raw[int32](a)[p])
	case Int64:
		return float64(Raw[int64](a)[p])
	case Bool:
		return b2f(Raw[bool](a)[p])
	}
	panic("dtype")
}

// refVals returns a's elements in C order, read index by index.
func refVals(a *Array) []float64 {
	n := a.Size()
	out := make([]float64, n)
	for i := range out {
		out[i] = getAt(a, unravel(i, a.shape))
	}
	return out
}

// bcastIdx maps an index of out to an index of a shape that broadcasts to it.
func bcastIdx(idx, shape []int) []int {
	d := len(idx) - len(shape)
	r := make([]int, len(shape))
	for i := range shape {
		if shape[i] != 1 {
			r[i] = idx[i+d]
		}
	}
	return r
}

// sameVals compares got with want: NaN matches NaN, -0 matches 0, and floats
// within tol relative.
func sameVals(got, want []float64, tol float64) (int, bool) {
	if len(got) != len(want) {
		return -1, false
	}
	for i := range got {
		g, w := got[i], want[i]
		if g == w || (g != g && w != w) {
			continue
		}
		if tol > 0 && !math.IsInf(w, 0) && math.Abs(g-w) <= tol*(1+math.Abs(w)) {
			continue
		}
		return i, false
	}
	return 0, true
}

// roundTo rounds v to dt as storing it would.
func roundTo(dt DType, v float64) float64 {
	switch dt {
	case Float32:
		return float64(float32(v))
	case Int32:
		return float64(int32(int64(v)))
	case Int64:
		return float64(int64(v))
	case Bool:
		return b2f(v != 0)
	}
	return v
}

func TestRefCopyCast(t *testing.T) {
	rng := rand.New(rand.NewPCG(1+refSeed, 2))
	for it := 0; it < refIters(3000); it++ {
		dt := computable[rng.IntN(len(computable))]
		sh := randShape(rng, 5, 4)
		vals := randVals(rng, dt, shapeSize(sh))
		a, kind := randLayout(t, rng, dt, sh, vals)
		want := refVals(a)
		c := Must(Copy(a))
		if !c.IsPacked() || c.SameBuffer(a) {
			t.Fatalf("copy of %v %s not packed/own", sh, kind)
		}
		if i, ok := sameVals(c.Float64s(), want, 0); !ok {
			t.Fatalf("Copy %v %v %s: element %d: %v want %v", dt, sh, kind, i, c.Float64s(), want)
		}
		if i, ok := sameVals(refVals(Must(Contiguous(a))), want, 0); !ok {
			t.Fatalf("Contiguous %v %v %s: element %d", dt, sh, kind, i)
		}
		if i, ok := sameVals(a.Float64s(), want, 0); !ok {
			t.Fatalf("Float64s %v %v %s: element %d", dt, sh, kind, i)
		}
		if !Equal(a, c) {
			t.Fatalf("Equal %v %v %s", dt, sh, kind)
		}
		// CopyInto a random layout from a broadcast source.
		src := make([]int, 0, len(sh))
		for _, d := range sh[rng.IntN(len(sh)+1):] {
			if rng.IntN(3) == 0 {
				d = 1
			}
			src = append(src, d)
		}
		sv := randVals(rng, dt, shapeSize(src))
		sa, skind := randLayout(t, rng, dt, src, sv)
		dst, dkind := randLayout(t, rng, dt, sh, vals)
		if err := CopyInto(dst, sa); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < shapeSize(sh); i++ {
			idx := unravel(i, sh)
			g, w := getAt(dst, idx), getAt(sa, bcastIdx(idx, src))
			if g != w && !(g != g && w != w) {
				t.Fatalf("CopyInto %v %v(%s) <- %v(%s): at %v got %v want %v", dt, sh, dkind, src, skind, idx, g, w)
			}
		}
		// Cast to every dtype.
		for _, to := range computable {
			c, err := Cast(a, to)
			if err != nil {
				t.Fatal(err)
			}
			w := make([]float64, len(want))
			for i, v := range want {
				switch {
				case to == Bool:
					w[i] = b2f(v != 0)
				case to.IsInt() && v != v:
					w[i] = 0
				case to == Int32 && dt == Int64:
					w[i] = float64(int32(int64(v)))
				case to.IsInt():
					w[i] = math.Trunc(v)
					if to == Int32 {
						w[i] = math.Max(math.MinInt32, math.Min(math.MaxInt32, w[i]))
					} else {
						w[i] = math.Max(math.MinInt64, math.Min(math.MaxInt64, w[i]))
					}
				default:
					w[i] = roundTo(to, v)
				}
			}
			if i, ok := sameVals(refVals(c), w, 0); !ok {
				t.Fatalf("Cast %v->%v %v %s: element %d: %v want %v", dt, to, sh, kind, i, refVals(c), w)
			}
		}
	}
}

// refBinary is op on one pair of elements of dtype dt, computed in float64
// and rounded to dt (exact for the small values randVals draws).
func refBinary(op BinaryOp, dt DType, x, y float64) float64 {
	var r float64
	isF := dt.IsFloat()
	switch op {
	case Add:
		r = x + y
	case Sub:
		r = x - y
	case Mul:
		r = x * y
	case Div:
		r = x / y
		if !isF {
			r = math.Trunc(r)
		}
	case Pow:
		if isF {
			r = math.Pow(x, y)
		} else {
			v := int64(1)
			for e := int64(y); e > 0; e-- {
				v *= int64(x)
			}
			r = float64(v)
		}
	case Maximum:
		if x != x || y != y {
			r = math.NaN()
		} else {
			r = math.Max(x, y)
		}
	case Minimum:
		if x != x || y != y {
			r = math.NaN()
		} else {
			r = math.Min(x, y)
		}
	case SquaredDiff:
		r = (x - y) * (x - y)
	case FloorDiv:
		r = math.Floor(x / y)
	case FloorMod:
		if isF {
			r = floorModFloat(x, y)
		} else {
			r = x - math.Floor(x/y)*y
		}
	case ReluGrad:
		if x > 0 {
			r = y
		}
	case TanhGradOut:
		r = y * (1 - x*x)
	case SigmoidGradOut:
		r = y * x * (1 - x)
	}
	return roundTo(dt, r)
}

// broadcastOf returns a shape that broadcasts against sh: a suffix of sh
// with some sizes 1.
func broadcastOf(rng *rand.Rand, sh []int) []int {
	sb := slices.Clone(sh[rng.IntN(len(sh)+1):])
	for i := range sb {
		if rng.IntN(3) == 0 {
			sb[i] = 1
		}
	}
	return sb
}

func TestRefBinary(t *testing.T) {
	rng := rand.New(rand.NewPCG(3+refSeed, 4))
	for it := 0; it < refIters(6000); it++ {
		dt := numeric[rng.IntN(len(numeric))]
		op := BinaryOp(rng.IntN(numBinary))
		sh := randShape(rng, 5, 4)
		// b's shape broadcasts against a's, or the other way round
		sb := broadcastOf(rng, sh)
		sa := sh
		if rng.IntN(2) == 0 {
			sa, sb = sb, sa
		}
		av, bv := randVals(rng, dt, shapeSize(sa)), randVals(rng, dt, shapeSize(sb))
		if !dt.IsFloat() && (op == Div || op == FloorDiv || op == FloorMod) {
			for i := range bv {
				if bv[i] == 0 {
					bv[i] = 3
				}
			}
		}
		if !dt.IsFloat() && op == Pow {
			for i := range bv {
				bv[i] = math.Abs(bv[i])
			}
		}
		a, ka := randLayout(t, rng, dt, sa, av)
		b, kb := randLayout(t, rng, dt, sb, bv)
		out, err := Binary(op, a, b)
		if err != nil {
			t.Fatalf("%v %v %v %v: %v", op, dt, sa, sb, err)
		}
		osh, _ := BroadcastShapes(sa, sb)
		if !slices.Equal(out.shape, osh) {
			t.Fatalf("shape %v want %v", out.shape, osh)
		}
		want := make([]float64, shapeSize(osh))
		for i := range want {
			idx := unravel(i, osh)
			want[i] = refBinary(op, dt, getAt(a, bcastIdx(idx, sa)), getAt(b, bcastIdx(idx, sb)))
		}
		tol := 0.0
		if op == Pow || op == Div || op == TanhGradOut || op == SigmoidGradOut {
			tol = 1e-6
		}
		got := refVals(out)
		if i, ok := sameVals(got, want, tol); !ok {
			t.Fatalf("%v %v %v(%s) %v(%s): element %d %v: got %v want %v\na=%v\nb=%v", op, dt, sa, ka, sb, kb, i, unravel(i, osh), got, want, refVals(a), refVals(b))
		}
		// Into a random layout of dst.
		dst, kd := randLayout(t, rng, dt, osh, want)
		if err := BinaryInto(op, dst, a, b); err != nil {
			t.Fatal(err)
		}
		if i, ok := sameVals(refVals(dst), want, tol); !ok {
			t.Fatalf("into %s: %v %v %v(%s) %v(%s): element %d", kd, op, dt, sa, ka, sb, kb, i)
		}
	}
}

func TestRefUnary(t *testing.T) {
	rng := rand.New(rand.NewPCG(5+refSeed, 6))
	for it := 0; it < refIters(6000); it++ {
		dt := numeric[rng.IntN(len(numeric))]
		op := UnaryOp(rng.IntN(numUnary))
		if op.FloatOnly() && !dt.IsFloat() {
			continue
		}
		sh := randShape(rng, 5, 4)
		av := randVals(rng, dt, shapeSize(sh))
		a, ka := randLayout(t, rng, dt, sh, av)
		p := 0.5
		out, err := Unary(op, a, p)
		if err != nil {
			t.Fatal(err)
		}
		f := unaryFn[float64](op, p)
		want := refVals(a)
		for i := range want {
			x := want[i]
			switch op {
			case ScaleBy, AddScalar:
				// on integers the parameter is converted first
				q := p
				if !dt.IsFloat() {
					q = math.Trunc(q)
				}
				want[i] = unaryFn[float64](op, q)(x)
			case Relu:
				want[i] = math.Max(x, 0)
				if x != x {
					want[i] = x
				}
			default:
				want[i] = f(x)
			}
			want[i] = roundTo(dt, want[i])
		}
		if i, ok := sameVals(refVals(out), want, 1e-5); !ok {
			t.Fatalf("%v %v %v(%s): element %d: got %v want %v (x=%v)", op, dt, sh, ka, i, refVals(out), want, refVals(a))
		}
		dst, kd := randLayout(t, rng, dt, sh, av)
		if err := UnaryInto(op, dst, a, p); err != nil {
			t.Fatal(err)
		}
		if i, ok := sameVals(refVals(dst), want, 1e-5); !ok {
			t.Fatalf("into %s: %v %v %v(%s): element %d", kd, op, dt, sh, ka, i)
		}
		// in place
		if err := UnaryInto(op, a, a, p); err != nil {
			t.Fatal(err)
		}
		if i, ok := sameVals(refVals(a), want, 1e-5); !ok {
			t.Fatalf("in place: %v %v %v(%s): element %d", op, dt, sh, ka, i)
		}
	}
}

func TestRefCompareWhere(t *testing.T) {
	rng := rand.New(rand.NewPCG(7+refSeed, 8))
	cmp := [...]func(a, b float64) bool{
		Eq: func(a, b float64) bool { return a == b },
		Ne: func(a, b float64) bool { return a != b },
		Lt: func(a, b float64) bool { return a < b },
		Le: func(a, b float64) bool { return a <= b },
		Gt: func(a, b float64) bool { return a > b },
		Ge: func(a, b float64) bool { return a >= b },
	}
	for it := 0; it < refIters(4000); it++ {
		dt := computable[rng.IntN(len(computable))]
		sh := randShape(rng, 5, 4)
		sb := broadcastOf(rng, sh)
		sa := sh
		if rng.IntN(2) == 0 {
			sa, sb = sb, sa
		}
		a, ka := randLayout(t, rng, dt, sa, randVals(rng, dt, shapeSize(sa)))
		b, kb := randLayout(t, rng, dt, sb, randVals(rng, dt, shapeSize(sb)))
		osh, _ := BroadcastShapes(sa, sb)
		op := CompareOp(rng.IntN(6))
		if dt == Bool {
			op = CompareOp(rng.IntN(2))
		}
		out, err := Compare(op, a, b)
		if err != nil {
			t.Fatal(err)
		}
		got := refVals(out)
		for i := range got {
			idx := unravel(i, osh)
			if w := b2f(cmp[op](getAt(a, bcastIdx(idx, sa)), getAt(b, bcastIdx(idx, sb)))); got[i] != w {
				t.Fatalf("%v %v %v(%s) %v(%s) at %v: got %v", op, dt, sa, ka, sb, kb, idx, got[i])
			}
		}
		// Where with a third broadcast shape for the condition.
		sc := slices.Clone(osh[rng.IntN(len(osh)+1):])
		for i := range sc {
			if rng.IntN(3) == 0 {
				sc[i] = 1
			}
		}
		c, kc := randLayout(t, rng, Bool, sc, randVals(rng, Bool, shapeSize(sc)))
		w, err := Where(c, a, b)
		if err != nil {
			t.Fatal(err)
		}
		got = refVals(w)
		for i := range got {
			idx := unravel(i, osh)
			want := getAt(b, bcastIdx(idx, sb))
			if getAt(c, bcastIdx(idx, sc)) != 0 {
				want = getAt(a, bcastIdx(idx, sa))
			}
			if got[i] != want && !(want != want && got[i] != got[i]) {
				t.Fatalf("where %v %v(%s) %v(%s) %v(%s) at %v: got %v want %v", dt, sc, kc, sa, ka, sb, kb, idx, got[i], want)
			}
		}
		if dt == Bool {
			for _, lop := range []LogicOp{And, Or, Xor} {
				out, err := Logic(lop, a, b)
				if err != nil {
					t.Fatal(err)
				}
				got := refVals(out)
				for i := range got {
					idx := unravel(i, osh)
					x, y := getAt(a, bcastIdx(idx, sa)) != 0, getAt(b, bcastIdx(idx, sb)) != 0
					w := [...]bool{x && y, x || y, x != y}[lop]
					if got[i] != b2f(w) {
						t.Fatalf("logic %v at %v", lop, idx)
					}
				}
			}
			n := Must(Not(a))
			for i, v := range refVals(n) {
				if v != 1-getAt(a, unravel(i, sa)) {
					t.Fatalf("not %v(%s)", sa, ka)
				}
			}
		}
	}
}

// refReduce reduces a over the axes in mask (a bit per axis) index by index.
func refReduce(op ReduceOp, a *Array, mask int) (shape []int, vals []float64) {
	r := a.Rank()
	var ax []int
	for i := 0; i < r; i++ {
		if mask>>i&1 == 1 {
			ax = append(ax, i)
		}
	}
	kshape := ReducedShape(a.shape, ax, true)
	n := shapeSize(kshape)
	isF := a.DType().IsFloat()
	fv := make([]float64, n)
	iv := make([]int64, n)
	cnt := make([]int, n)
	for i := range fv {
		switch op {
		case Max:
			fv[i], iv[i] = math.Inf(-1), math.MinInt64
			if a.DType() == Int32 {
				iv[i] = math.MinInt32
			}
		case Min:
			fv[i], iv[i] = math.Inf(1), math.MaxInt64
			if a.DType() == Int32 {
				iv[i] = math.MaxInt32
			}
		case Prod:
			fv[i], iv[i] = 1, 1
		case All:
			fv[i] = 1
		}
	}
	for i := 0; i < a.Size(); i++ {
		idx := unravel(i, a.shape)
		o := slices.Clone(idx)
		for _, k := range ax {
			o[k] = 0
		}
		j := 0
		for k := range o {
			j = j*kshape[k] + o[k]
		}
		x := getAt(a, idx)
		cnt[j]++
		switch op {
		case Sum, Mean:
			fv[j] += x
			iv[j] += int64(x)
		case Prod:
			fv[j] *= x
			iv[j] *= int64(x)
		case Max:
			if x != x || fv[j] != fv[j] {
				fv[j] = math.NaN()
			} else {
				fv[j] = math.Max(fv[j], x)
			}
			iv[j] = max(iv[j], int64(x))
		case Min:
			if x != x || fv[j] != fv[j] {
				fv[j] = math.NaN()
			} else {
				fv[j] = math.Min(fv[j], x)
			}
			iv[j] = min(iv[j], int64(x))
		case All:
			fv[j] = b2f(fv[j] != 0 && x != 0)
		case Any:
			fv[j] = b2f(fv[j] != 0 || x != 0)
		}
	}
	for i := range fv {
		switch {
		case op == All || op == Any:
		case isF && op == Mean:
			fv[i] /= float64(cnt[i])
		case isF:
		case op == Mean && a.DType() == Int32:
			fv[i] = float64(int32(iv[i]) / int32(max(cnt[i], 1)))
		case op == Mean:
			fv[i] = float64(iv[i] / int64(max(cnt[i], 1)))
		default:
			fv[i] = float64(iv[i])
			if a.DType() == Int32 {
				fv[i] = float64(int32(iv[i]))
			}
		}
	}
	return kshape, fv
}

func TestRefReduce(t *testing.T) {
	rng := rand.New(rand.NewPCG(9+refSeed, 10))
	for it := 0; it < refIters(1500); it++ {
		dt := computable[rng.IntN(len(computable))]
		sh := randShape(rng, 5, 4)
		a, ka := randLayout(t, rng, dt, sh, randVals(rng, dt, shapeSize(sh)))
		ops := []ReduceOp{Sum, Mean, Max, Min, Prod}
		if dt == Bool {
			ops = []ReduceOp{All, Any}
		}
		for _, op := range ops {
			for mask := 0; mask < 1<<len(sh); mask++ {
				var ax []int
				for i := range sh {
					if mask>>i&1 == 1 {
						ax = append(ax, i)
						if rng.IntN(2) == 0 {
							ax[len(ax)-1] -= len(sh)
						}
					}
				}
				if mask == 0 && len(sh) > 0 {
					continue // no axes means every axis
				}
				rng.Shuffle(len(ax), func(i, j int) { ax[i], ax[j] = ax[j], ax[i] })
				kshape, want := refReduce(op, a, mask)
				keep := rng.IntN(2) == 0
				got, err := Reduce(op, a, ax, keep)
				if err != nil {
					t.Fatal(err)
				}
				nax, _ := NormAxes(ax, len(sh))
				if ws := ReducedShape(sh, nax, keep); !slices.Equal(got.shape, ws) || (keep && !slices.Equal(ws, kshape)) {
					t.Fatalf("%v of %v over %v keep %v: shape %v want %v", op, sh, ax, keep, got.shape, ws)
				}
				tol := 0.0
				if dt.IsFloat() && (op == Prod || op == Mean) {
					tol = 1e-5
				}
				if i, ok := sameVals(refVals(got), want, tol); !ok {
					t.Fatalf("%v %v of %v(%s) over %v: element %d: got %v want %v\nx=%v", op, dt, sh, ka, ax, i, refVals(got), want, refVals(a))
				}
				// ReduceInto a random layout of dst, kept dims or not.
				ds := ReducedShape(sh, nax, rng.IntN(2) == 0)
				dst, kd := randLayout(t, rng, dt, ds, randVals(rng, dt, shapeSize(ds)))
				if err := ReduceInto(op, dst, a, ax); err != nil {
					t.Fatal(err)
				}
				if i, ok := sameVals(refVals(dst), want, tol); !ok {
					t.Fatalf("into %v(%s): %v %v of %v(%s) over %v: element %d: got %v want %v", ds, kd, op, dt, sh, ka, ax, i, refVals(dst), want)
				}
			}
		}
		// ArgMax/ArgMin along every axis.
		if dt == Bool {
			continue
		}
		for axis := -len(sh); axis < len(sh); axis++ {
			r := axis
			if r < 0 {
				r += len(sh)
			}
			for _, isMax := range []bool{true, false} {
				keep := rng.IntN(2) == 0
				var got *Array
				var err error
				if isMax {
					got, err = ArgMax(a, axis, keep)
				} else {
					got, err = ArgMin(a, axis, keep)
				}
				if sh[r] == 0 {
					if err == nil {
						t.Fatalf("arg on empty axis: no error")
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				ks := ReducedShape(sh, []int{r}, true)
				gv := refVals(got)
				for i := range gv {
					idx := unravel(i, ks)
					best, bi := math.NaN(), -1
					for j := 0; j < sh[r]; j++ {
						idx[r] = j
						v := getAt(a, idx)
						if bi < 0 || (v != v && best == best) || (best == best && ((isMax && v > best) || (!isMax && v < best))) {
							best, bi = v, j
						}
					}
					if gv[i] != float64(bi) {
						t.Fatalf("arg max=%v %v(%s) axis %d: element %d: got %v want %d", isMax, sh, ka, axis, i, gv, bi)
					}
				}
			}
		}
	}
}

func TestRefMatMul(t *testing.T) {
	rng := rand.New(rand.NewPCG(11+refSeed, 12))
	for it := 0; it < refIters(4000); it++ {
		dt := numeric[rng.IntN(len(numeric))]
		m, k, n := rng.IntN(5), rng.IntN(5), rng.IntN(5)
		ta, tb := rng.IntN(2) == 0, rng.IntN(2) == 0
		batch := randShape(rng, 3, 3)
		ba := slices.Clone(batch[rng.IntN(len(batch)+1):])
		bb := slices.Clone(batch[rng.IntN(len(batch)+1):])
		for i := range ba {
			if rng.IntN(3) == 0 {
				ba[i] = 1
			}
		}
		for i := range bb {
			if rng.IntN(3) == 0 {
				bb[i] = 1
			}
		}
		aVec, bVec := rng.IntN(5) == 0, rng.IntN(5) == 0
		var sa, sb []int
		if aVec {
			sa = []int{k}
		} else if ta {
			sa = append(slices.Clone(ba), k, m)
		} else {
			sa = append(slices.Clone(ba), m, k)
		}
		if bVec {
			sb = []int{k}
		} else if tb {
			sb = append(slices.Clone(bb), n, k)
		} else {
			sb = append(slices.Clone(bb), k, n)
		}
		// values small enough for float32 sums to be exact
		a, ka := randLayout(t, rng, dt, sa, smallInts(rng, shapeSize(sa)))
		b, kb := randLayout(t, rng, dt, sb, smallInts(rng, shapeSize(sb)))
		got, err := MatMul(a, b, ta, tb)
		if err != nil {
			t.Fatalf("%v %v ta=%v tb=%v: %v", sa, sb, ta, tb, err)
		}
		// reference over [batch..., m, n]
		if aVec {
			ba = nil
		}
		if bVec {
			bb = nil
		}
		bt, _ := BroadcastShapes(ba, bb)
		if aVec {
			m = 1
		}
		if bVec {
			n = 1
		}
		full := append(slices.Clone(bt), m, n)
		want := make([]float64, shapeSize(full))
		for i := range want {
			idx := unravel(i, full)
			bi, r, c := idx[:len(bt)], idx[len(bt)], idx[len(bt)+1]
			var s int64
			var fs float64
			for q := 0; q < k; q++ {
				var ia, ib []int
				switch {
				case aVec:
					ia = []int{q}
				case ta:
					ia = append(bcastIdx(bi, ba), q, r)
				default:
					ia = append(bcastIdx(bi, ba), r, q)
				}
				switch {
				case bVec:
					ib = []int{q}
				case tb:
					ib = append(bcastIdx(bi, bb), c, q)
				default:
					ib = append(bcastIdx(bi, bb), q, c)
				}
				x, y := getAt(a, ia), getAt(b, ib)
				fs += x * y
				s += int64(x) * int64(y)
			}
			want[i] = fs
		}
		wshape := slices.Clone(bt)
		if !aVec {
			wshape = append(wshape, m)
		}
		if !bVec {
			wshape = append(wshape, n)
		}
		if !slices.Equal(got.shape, wshape) {
			t.Fatalf("matmul %v(%s) %v(%s) ta=%v tb=%v: shape %v want %v", sa, ka, sb, kb, ta, tb, got.shape, wshape)
		}
		if i, ok := sameVals(refVals(got), want, 0); !ok {
			t.Fatalf("matmul %v %v(%s) %v(%s) ta=%v tb=%v: element %d: got %v want %v", dt, sa, ka, sb, kb, ta, tb, i, refVals(got), want)
		}
		dst, kd := randLayout(t, rng, dt, wshape, randVals(rng, dt, shapeSize(wshape)))
		if err := MatMulInto(dst, a, b, ta, tb); err != nil {
			t.Fatal(err)
		}
		if i, ok := sameVals(refVals(dst), want, 0); !ok {
			t.Fatalf("matmul into %s %v %v(%s) %v(%s) ta=%v tb=%v: element %d: got %v want %v", kd, dt, sa, ka, sb, kb, ta, tb, i, refVals(dst), want)
		}
	}
}

func smallInts(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = float64(rng.IntN(7) - 3)
	}
	return v
}

func TestRefShapeOps(t *testing.T) {
	rng := rand.New(rand.NewPCG(13+refSeed, 14))
	for it := 0; it < refIters(3000); it++ {
		dt := computable[rng.IntN(len(computable))]
		sh := randShape(rng, 5, 4)
		r := len(sh)
		a, ka := randLayout(t, rng, dt, sh, randVals(rng, dt, shapeSize(sh)))
		av := refVals(a)
		check := func(name string, got *Array, shape []int, at func(idx []int) float64) {
			t.Helper()
			if !slices.Equal(got.shape, shape) {
				t.Fatalf("%s of %v(%s): shape %v want %v", name, sh, ka, got.shape, shape)
			}
			gv := refVals(got)
			for i := range gv {
				idx := unravel(i, shape)
				if w := at(idx); gv[i] != w && !(w != w && gv[i] != gv[i]) {
					t.Fatalf("%s %v of %v(%s): at %v got %v want %v", name, dt, sh, ka, idx, gv[i], w)
				}
			}
		}
		// Permute
		perm := rng.Perm(r)
		ps := make([]int, r)
		for i, q := range perm {
			ps[i] = sh[q]
		}
		check("permute", Must(Permute(a, perm...)), ps, func(idx []int) float64 {
			src := make([]int, r)
			for i, q := range perm {
				src[q] = idx[i]
			}
			return getAt(a, src)
		})
		// Reshape to a random factorisation of the size
		n := shapeSize(sh)
		ns := []int{n}
		if n > 0 && n%2 == 0 && rng.IntN(2) == 0 {
			ns = []int{2, n / 2, 1}
		}
		check("reshape", Must(Reshape(a, ns...)), ns, func(idx []int) float64 {
			j := 0
			for k := range idx {
				j = j*ns[k] + idx[k]
			}
			return av[j]
		})
		// BroadcastTo a larger shape
		bs := append([]int{rng.IntN(3)}, sh...)
		check("broadcast_to", Must(BroadcastTo(a, bs...)), bs, func(idx []int) float64 { return getAt(a, idx[1:]) })
		// Tile
		reps := make([]int, r)
		ts := make([]int, r)
		for i := range reps {
			reps[i] = rng.IntN(3)
			ts[i] = reps[i] * sh[i]
		}
		check("tile", Must(Tile(a, reps...)), ts, func(idx []int) float64 {
			s := make([]int, r)
			for i := range idx {
				s[i] = idx[i] % sh[i]
			}
			return getAt(a, s)
		})
		// Pad and Slice
		if dt != Bool || true {
			bef, aft := make([]int, r), make([]int, r)
			pds := make([]int, r)
			for i := range bef {
				bef[i], aft[i] = rng.IntN(3), rng.IntN(3)
				pds[i] = sh[i] + bef[i] + aft[i]
			}
			check("pad", Must(Pad(a, bef, aft, 1)), pds, func(idx []int) float64 {
				s := make([]int, r)
				for i := range idx {
					s[i] = idx[i] - bef[i]
					if s[i] < 0 || s[i] >= sh[i] {
						return 1
					}
				}
				return getAt(a, s)
			})
			beg, end := make([]int, r), make([]int, r)
			ss := make([]int, r)
			for i := range beg {
				beg[i] = rng.IntN(sh[i] + 1)
				end[i] = beg[i] + rng.IntN(sh[i]-beg[i]+1)
				ss[i] = end[i] - beg[i]
			}
			check("slice", Must(Slice(a, beg, end)), ss, func(idx []int) float64 {
				s := make([]int, r)
				for i := range idx {
					s[i] = idx[i] + beg[i]
				}
				return getAt(a, s)
			})
		}
		// Squeeze and ExpandDims
		var sq []int
		for _, d := range sh {
			if d != 1 {
				sq = append(sq, d)
			}
		}
		check("squeeze", Must(Squeeze(a)), sq, func(idx []int) float64 {
			j := 0
			for k := range idx {
				j = j*sq[k] + idx[k]
			}
			return av[j]
		})
		e := rng.IntN(r + 1)
		es := append(append(slices.Clone(sh[:e]), 1), sh[e:]...)
		ev := Must(ExpandDims(a, e))
		check("expand_dims", ev, es, func(idx []int) float64 {
			return getAt(a, append(slices.Clone(idx[:e]), idx[e+1:]...))
		})
		// Concat along a random axis with a second array of another layout
		if r > 0 {
			ax := rng.IntN(r)
			s2 := slices.Clone(sh)
			s2[ax] = rng.IntN(4)
			b, _ := randLayout(t, rng, dt, s2, randVals(rng, dt, shapeSize(s2)))
			cs := slices.Clone(sh)
			cs[ax] += s2[ax]
			check("concat", Must(Concat(ax-r*rng.IntN(2), a, b)), cs, func(idx []int) float64 {
				if idx[ax] < sh[ax] {
					return getAt(a, idx)
				}
				j := slices.Clone(idx)
				j[ax] -= sh[ax]
				return getAt(b, j)
			})
		}
		// Stack with a copy
		if r < 5 {
			sa := rng.IntN(r + 1)
			b, _ := randLayout(t, rng, dt, sh, randVals(rng, dt, shapeSize(sh)))
			ss := append(append(slices.Clone(sh[:sa]), 2), sh[sa:]...)
			check("stack", Must(Stack(sa, a, b)), ss, func(idx []int) float64 {
				src := append(slices.Clone(idx[:sa]), idx[sa+1:]...)
				if idx[sa] == 0 {
					return getAt(a, src)
				}
				return getAt(b, src)
			})
		}
		// Softmax along each axis
		if dt.IsFloat() && r > 0 {
			ax := rng.IntN(r)
			for _, lf := range []bool{false, true} {
				got, err := softmax(a, ax, lf)
				if err != nil {
					t.Fatal(err)
				}
				gv := refVals(got)
				for i := range gv {
					idx := unravel(i, sh)
					j := slices.Clone(idx)
					mx := math.Inf(-1)
					for q := 0; q < sh[ax]; q++ {
						j[ax] = q
						v := getAt(a, j)
						if v != v || mx != mx {
							mx = math.NaN()
						} else {
							mx = math.Max(mx, v)
						}
					}
					if math.IsInf(mx, -1) {
						mx = 0
					}
					s := 0.0
					for q := 0; q < sh[ax]; q++ {
						j[ax] = q
						s += math.Exp(getAt(a, j) - mx)
					}
					x := getAt(a, idx)
					w := math.Exp(x-mx) / s
					if lf {
						w = x - mx - math.Log(s)
					}
					if _, ok := sameVals([]float64{gv[i]}, []float64{w}, 1e-5); !ok {
						t.Fatalf("softmax log=%v %v(%s) axis %d at %v: got %v want %v; x=%v", lf, sh, ka, ax, idx, gv[i], w, av)
					}
				}
			}
		}
		// gorgonia round trip
		d, err := ToDense(a)
		if err != nil {
			t.Fatalf("ToDense %v %v(%s): %v", dt, sh, ka, err)
		}
		if ds := []int(d.Shape()); !(slices.Equal(ds, sh) || (r == 0 && len(ds) == 0)) {
			t.Fatalf("ToDense %v(%s): shape %v", sh, ka, ds)
		}
		back, err := FromDense(d)
		if err != nil {
			t.Fatalf("FromDense %v %v(%s): %v", dt, sh, ka, err)
		}
		check("dense round trip", back, sh, func(idx []int) float64 { return getAt(a, idx) })
	}
}

// Reducing over axes A (kept) and then over B equals reducing over A∪B, for
// the reductions whose result does not depend on the order (integer sums
// and products wrap exactly; max and min of floats, NaN included).
func TestRefReduceComposes(t *testing.T) {
	rng := rand.New(rand.NewPCG(15+refSeed, 16))
	for it := 0; it < refIters(2000); it++ {
		dt := computable[rng.IntN(len(computable))]
		sh := randShape(rng, 5, 4)
		if len(sh) < 2 {
			continue
		}
		a, ka := randLayout(t, rng, dt, sh, randVals(rng, dt, shapeSize(sh)))
		ops := []ReduceOp{Max, Min}
		switch dt {
		case Int32, Int64:
			ops = append(ops, Sum, Prod)
		case Bool:
			ops = []ReduceOp{All, Any}
		}
		perm := rng.Perm(len(sh))
		k := 1 + rng.IntN(len(sh)-1)
		j := k + 1 + rng.IntN(len(sh)-k)
		A, B := perm[:k], perm[k:j]
		for _, op := range ops {
			step := Must(Reduce(op, Must(Reduce(op, a, A, true)), B, true))
			whole := Must(Reduce(op, a, perm[:j], true))
			if !Equal(step, whole) {
				t.Fatalf("%v %v of %v(%s): over %v then %v gives %v, over both %v", op, dt, sh, ka, A, B, step, whole)
			}
		}
	}
}
