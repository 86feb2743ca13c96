package opcases_test

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/autodiff"
	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	cv "github.com/sdgo/sdgo/ops/createview"
	"github.com/sdgo/sdgo/validation/opcases"
)

// The random differential gradient test: for every op with a gradient rule
// (the registry enumerated, not a list), random small graphs with random
// shapes (broadcasting with size-1 axes on either side and rank
// differences, scalars, negative axes, keepDims both ways, reductions over
// all or some axes, transposed and batched matmul), the reverse-mode
// gradient compared with central differences in float64. Each case is also
// built twice over the same inputs (the op applied twice, gradients
// accumulated) and, for binary ops on equal shapes, with one variable as
// both operands (x*x).

// dcase is one random application of an op.
type dcase struct {
	args ops.Args
	in   []dinput
}

// dinput is an input: differentiated (a placeholder) unless fixed.
type dinput struct {
	a     *ndarray.Array
	fixed bool
}

type dgen func(r *rand.Rand) dcase

// noRandomCase are the differentiable ops the random test leaves to other
// tests, with the reason.
var noRandomCase = map[string]string{
	"merge":                "control flow: checked by autodiff's control-flow tests",
	"switch":               "control flow: checked by autodiff's control-flow tests",
	"route":                "control flow: checked by autodiff's control-flow tests",
	"tensorarraywritev3":   taNoRandom,
	"tensorarrayreadv3":    taNoRandom,
	"tensorarraygatherv3":  taNoRandom,
	"tensorarraystack":     taNoRandom,
	"tensorarrayconcatv3":  taNoRandom,
	"tensorarrayscatterv3": taNoRandom,
	"tensorarrayunstack":   taNoRandom,
	"tensorarraysplitv3":   taNoRandom,
}

// taNoRandom: a tensor array op works on an array made by another op in
// the same run, which a graph of the op alone has not.
const taNoRandom = "tensor arrays live in a run: checked by tensorarray_grad.go's cases"

func dvar(a *ndarray.Array) dinput { return dinput{a: a} }
func dfix(a *ndarray.Array) dinput { return dinput{a: a, fixed: true} }

func rnd(r *rand.Rand, shape ...int) *ndarray.Array {
	return ndarray.Must(ndarray.RandNormal(r, ndarray.Float64, 0, 1, shape...))
}

// away returns random values with |x| in [lo, hi] and a random sign: clear
// of the kinks at 0 (abs, relu, sign, division).
func away(r *rand.Rand, lo, hi float64, shape ...int) *ndarray.Array {
	a := ndarray.Must(ndarray.RandUniform(r, ndarray.Float64, lo, hi, shape...))
	v := a.Float64s()
	for i := range v {
		if r.IntN(2) == 0 {
			v[i] = -v[i]
		}
	}
	return ndarray.Must(ndarray.Wrap(v, shape...))
}

func pos(r *rand.Rand, lo, hi float64, shape ...int) *ndarray.Array {
	return ndarray.Must(ndarray.RandUniform(r, ndarray.Float64, lo, hi, shape...))
}

// offGrid returns values at least 0.1 away from the integers and the
// half-integers (floor, ceil, round jump there).
func offGrid(r *rand.Rand, shape ...int) *ndarray.Array {
	a := rnd(r, shape...)
	v := a.Float64s()
	for i := range v {
		v[i] = math.Floor(v[i]*3)/2 + 0.1 + 0.3*r.Float64()
	}
	return ndarray.Must(ndarray.Wrap(v, shape...))
}

func i64s(v ...int64) *ndarray.Array { return ndarray.Must(ndarray.FromSlice(v, len(v))) }

// randShape returns a shape of rank 0..maxRank with sizes 1..3.
func randShape(r *rand.Rand, maxRank int) []int {
	s := make([]int, r.IntN(maxRank+1))
	for i := range s {
		s[i] = 1 + r.IntN(3)
	}
	return s
}

// broadcastPair returns two shapes that broadcast: a full shape, and for
// each operand a suffix of it (rank differences) with some sizes made 1.
func broadcastPair(r *rand.Rand) ([]int, []int) {
	full := randShape(r, 3)
	part := func() []int {
		k := len(full) - r.IntN(len(full)+1)
		if r.IntN(3) == 0 {
			k = len(full)
		}
		s := append([]int(nil), full[len(full)-k:]...)
		for i := range s {
			if r.IntN(3) == 0 {
				s[i] = 1
			}
		}
		return s
	}
	return part(), part()
}

// randAxes returns a random subset of the axes of a rank-r array, some
// written negative; nil (every axis) one time in four.
func randAxes(r *rand.Rand, rank int) []int {
	if rank == 0 || r.IntN(4) == 0 {
		return nil
	}
	var ax []int
	for _, i := range r.Perm(rank) {
		if r.IntN(2) == 0 {
			continue
		}
		if r.IntN(2) == 0 {
			i -= rank
		}
		ax = append(ax, i)
	}
	if len(ax) == 0 {
		ax = []int{r.IntN(rank) - rank}
	}
	return ax
}

func unary(vals func(r *rand.Rand, shape ...int) *ndarray.Array, args func(r *rand.Rand) ops.Args) dgen {
	return func(r *rand.Rand) dcase {
		a := ops.Args{}
		if args != nil {
			a = args(r)
		}
		return dcase{args: a, in: []dinput{dvar(vals(r, randShape(r, 3)...))}}
	}
}

func binary(vx, vy func(r *rand.Rand, shape ...int) *ndarray.Array) dgen {
	return func(r *rand.Rand) dcase {
		sx, sy := broadcastPair(r)
		return dcase{in: []dinput{dvar(vx(r, sx...)), dvar(vy(r, sy...))}}
	}
}

// reduction returns a generator of a reduction with the axes in the
// dimensions slot, the int args or a second input, and keepDims as bool
// arg 0 (or float arg 0 when floatKeep).
func reduction(vals func(r *rand.Rand, shape ...int) *ndarray.Array, floatKeep bool) dgen {
	return func(r *rand.Rand) dcase {
		s := randShape(r, 3)
		ax := randAxes(r, len(s))
		keep := r.IntN(2) == 0
		a := ops.Args{B: []bool{keep}}
		if floatKeep && r.IntN(2) == 0 {
			a.B = nil
			a.F = []float64{0}
			if keep {
				a.F[0] = 1
			}
		}
		in := []dinput{dvar(vals(r, s...))}
		switch r.IntN(3) {
		case 0:
			a.Dims = ax
		case 1:
			for _, i := range ax {
				a.I = append(a.I, int64(i))
			}
		default:
			if ax == nil {
				a.Dims = ax
				break
			}
			v := make([]int64, len(ax))
			for i, x := range ax {
				v[i] = int64(x)
			}
			a.Dims = []int{ops.AllDims}
			in = append(in, dfix(i64s(v...)))
		}
		return dcase{args: a, in: in}
	}
}

func dgens() map[string]dgen {
	none := func(*rand.Rand) ops.Args { return ops.Args{} }
	m := map[string]dgen{
		"add":             binary(rnd, rnd),
		"subtract":        binary(rnd, rnd),
		"multiply":        binary(rnd, rnd),
		"divide":          binary(rnd, func(r *rand.Rand, s ...int) *ndarray.Array { return away(r, 0.5, 2, s...) }),
		"Pow":             binary(func(r *rand.Rand, s ...int) *ndarray.Array { return pos(r, 0.5, 2, s...) }, rnd),
		"maximum":         binary(opcases.Distinct, opcases.Shifted),
		"minimum":         binary(opcases.Distinct, opcases.Shifted),
		"squaredsubtract": binary(rnd, rnd),
		"neg":             unary(rnd, nil),
		"abs":             unary(func(r *rand.Rand, s ...int) *ndarray.Array { return away(r, 0.1, 2, s...) }, nil),
		"exp":             unary(rnd, nil),
		"log":             unary(func(r *rand.Rand, s ...int) *ndarray.Array { return pos(r, 0.2, 3, s...) }, nil),
		"sqrt":            unary(func(r *rand.Rand, s ...int) *ndarray.Array { return pos(r, 0.2, 3, s...) }, nil),
		"rsqrt":           unary(func(r *rand.Rand, s ...int) *ndarray.Array { return pos(r, 0.2, 3, s...) }, nil),
		"square":          unary(rnd, nil),
		"tanh":            unary(rnd, nil),
		"sigmoid":         unary(rnd, nil),
		"relu":            unary(func(r *rand.Rand, s ...int) *ndarray.Array { return away(r, 0.1, 2, s...) }, nil),
		"leakyrelu": unary(func(r *rand.Rand, s ...int) *ndarray.Array { return away(r, 0.1, 2, s...) },
			func(r *rand.Rand) ops.Args {
				if r.IntN(2) == 0 {
					return ops.Args{}
				}
				return ops.Args{F: []float64{r.Float64()}}
			}),
		"sign":       unary(func(r *rand.Rand, s ...int) *ndarray.Array { return away(r, 0.1, 2, s...) }, nil),
		"Reciprocal": unary(func(r *rand.Rand, s ...int) *ndarray.Array { return away(r, 0.5, 2, s...) }, nil),
		"floor":      unary(offGrid, nil),
		"ceil":       unary(offGrid, nil),
		"round":      unary(offGrid, nil),
		"sin":        unary(rnd, nil),
		"cos":        unary(rnd, nil),
		"softplus":   unary(rnd, nil),
		"log1p":      unary(func(r *rand.Rand, s ...int) *ndarray.Array { return pos(r, -0.5, 3, s...) }, nil),
		"expm1":      unary(rnd, nil),
		"pow": unary(func(r *rand.Rand, s ...int) *ndarray.Array { return pos(r, 0.3, 2, s...) },
			func(r *rand.Rand) ops.Args {
				ps := []float64{0, 1, 2, 3, 0.5, -1.5, -2}
				if r.IntN(5) == 0 {
					return ops.Args{}
				}
				return ops.Args{F: []float64{ps[r.IntN(len(ps))]}}
			}),
		"identity": unary(rnd, none),
		"cast": unary(rnd, func(*rand.Rand) ops.Args {
			return ops.Args{D: []ndarray.DType{ndarray.Float64}}
		}),

		"reduce_sum":       reduction(rnd, false),
		"reduce_mean":      reduction(rnd, false),
		"reduce_max":       reduction(opcases.Distinct, false),
		"reduce_min":       reduction(opcases.Distinct, false),
		"reduce_prod":      reduction(func(r *rand.Rand, s ...int) *ndarray.Array { return away(r, 0.5, 1.5, s...) }, false),
		"reduce_norm1":     reduction(func(r *rand.Rand, s ...int) *ndarray.Array { return away(r, 0.1, 2, s...) }, false),
		"reduce_norm2":     reduction(rnd, false),
		"reduce_normmax":   reduction(opcases.Distinct, false),
		"reduce_sqnorm":    reduction(rnd, false),
		"amean":            reduction(func(r *rand.Rand, s ...int) *ndarray.Array { return away(r, 0.1, 2, s...) }, false),
		"asum":             reduction(func(r *rand.Rand, s ...int) *ndarray.Array { return away(r, 0.1, 2, s...) }, false),
		"amax":             reduction(opcases.Distinct, false),
		"amin":             reduction(opcases.Distinct, false),
		"reduce_logsumexp": reduction(rnd, true),

		"reduce_to_shape_of": func(r *rand.Rand) dcase {
			sx, sy := broadcastPair(r)
			full, _ := ndarray.BroadcastShapes(sx, sy)
			return dcase{in: []dinput{dvar(rnd(r, full...)), dfix(rnd(r, sy...))}}
		},
		"mergeadd": func(r *rand.Rand) dcase {
			s := randShape(r, 3)
			in := make([]dinput, 1+r.IntN(3))
			for i := range in {
				in[i] = dvar(rnd(r, s...))
			}
			return dcase{in: in}
		},
		"identity_n": func(r *rand.Rand) dcase {
			in := make([]dinput, 1+r.IntN(3))
			for i := range in {
				in[i] = dvar(rnd(r, randShape(r, 2)...))
			}
			return dcase{in: in}
		},
		"assign": func(r *rand.Rand) dcase {
			sx, sy := broadcastPair(r)
			if r.IntN(4) == 0 {
				return dcase{in: []dinput{dvar(rnd(r, sx...))}}
			}
			return dcase{in: []dinput{dvar(rnd(r, sx...)), dvar(rnd(r, sy...))}}
		},
		"matmul": genMatmul,
		"reshape": func(r *rand.Rand) dcase {
			s := randShape(r, 3)
			n := 1
			for _, d := range s {
				n *= d
			}
			// The new shape: n's factors in random order, one maybe -1.
			var ns []int64
			for k := n; k > 1; {
				f := 2
				for k%f != 0 {
					f++
				}
				ns = append(ns, int64(f))
				k /= f
			}
			r.Shuffle(len(ns), func(i, j int) { ns[i], ns[j] = ns[j], ns[i] })
			if r.IntN(2) == 0 {
				ns = append(ns, 1)
			}
			if len(ns) > 0 && r.IntN(2) == 0 {
				ns[r.IntN(len(ns))] = -1
			}
			x := dvar(rnd(r, s...))
			if r.IntN(2) == 0 {
				return dcase{args: ops.Args{I: ns}, in: []dinput{x}}
			}
			if ns == nil {
				ns = []int64{}
			}
			return dcase{in: []dinput{x, dfix(i64s(ns...))}}
		},
		"expand_dims": func(r *rand.Rand) dcase {
			s := randShape(r, 3)
			ax := r.IntN(2*len(s)+2) - len(s) - 1
			return dcase{args: ops.Args{I: []int64{int64(ax)}}, in: []dinput{dvar(rnd(r, s...))}}
		},
		"squeeze": func(r *rand.Rand) dcase {
			s := randShape(r, 4)
			var ax []int64
			for i := range s {
				if r.IntN(2) == 0 {
					s[i] = 1
					if r.IntN(2) == 0 {
						ax = append(ax, int64(i-len(s)*r.IntN(2)))
					}
				}
			}
			return dcase{args: ops.Args{I: ax}, in: []dinput{dvar(rnd(r, s...))}}
		},
		"permute":   genPermute,
		"transpose": genPermute,
		"concat": func(r *rand.Rand) dcase {
			s := randShape(r, 3)
			if len(s) == 0 {
				s = []int{2}
			}
			ax := r.IntN(len(s))
			in := make([]dinput, 1+r.IntN(3))
			for i := range in {
				si := append([]int(nil), s...)
				si[ax] = 1 + r.IntN(3)
				in[i] = dvar(rnd(r, si...))
			}
			if r.IntN(2) == 0 {
				ax -= len(s)
			}
			return dcase{args: ops.Args{I: []int64{int64(ax)}}, in: in}
		},
		"stack": func(r *rand.Rand) dcase {
			s := randShape(r, 2)
			ax := r.IntN(len(s)+1) - r.IntN(2)*(len(s)+1)
			in := make([]dinput, 1+r.IntN(3))
			for i := range in {
				in[i] = dvar(rnd(r, s...))
			}
			return dcase{args: ops.Args{I: []int64{int64(ax)}}, in: in}
		},
		"unstack": func(r *rand.Rand) dcase {
			s := randShape(r, 3)
			if len(s) == 0 {
				s = []int{2}
			}
			ax := r.IntN(len(s)) - r.IntN(2)*len(s)
			return dcase{args: ops.Args{I: []int64{int64(ax)}}, in: []dinput{dvar(rnd(r, s...))}}
		},
		"tile": func(r *rand.Rand) dcase {
			s := randShape(r, 3)
			reps := make([]int64, len(s))
			for i := range reps {
				reps[i] = int64(1 + r.IntN(3))
			}
			x := dvar(rnd(r, s...))
			if r.IntN(2) == 0 {
				return dcase{args: ops.Args{I: reps}, in: []dinput{x}}
			}
			if len(reps) == 0 {
				return dcase{args: ops.Args{I: reps}, in: []dinput{x}}
			}
			return dcase{in: []dinput{x, dfix(i64s(reps...))}}
		},
		"pad": func(r *rand.Rand) dcase {
			s := randShape(r, 3)
			mode := int64(r.IntN(3))
			p := make([]int64, 2*len(s))
			for i := range p {
				lim := 3
				if mode != ops.PadConstant {
					lim = s[i/2] // reflect allows size-1, symmetric size
					if mode == ops.PadReflect {
						lim--
					}
					lim++
				}
				p[i] = int64(r.IntN(lim))
			}
			pads := ndarray.Must(ndarray.FromSlice(p, len(s), 2))
			in := []dinput{dvar(rnd(r, s...)), dfix(pads)}
			if mode == ops.PadConstant && r.IntN(2) == 0 {
				in = append(in, dvar(rnd(r)))
			}
			return dcase{args: ops.Args{I: []int64{mode}}, in: in}
		},
		"stridedslice": genStridedSlice,
		"softmax": func(r *rand.Rand) dcase {
			s := randShape(r, 3)
			if len(s) == 0 {
				s = []int{3}
			}
			a := ops.Args{}
			if r.IntN(3) > 0 {
				a.I = []int64{int64(r.IntN(len(s)) - r.IntN(2)*len(s))}
			}
			return dcase{args: a, in: []dinput{dvar(rnd(r, s...))}}
		},
		"biasadd": func(r *rand.Rand) dcase {
			s := randShape(r, 3)
			if len(s) < 2 {
				s = append(s, 2, 3)
			}
			nchw := r.IntN(2) == 0
			ax := len(s) - 1
			if nchw {
				ax = 1
			}
			return dcase{args: ops.Args{B: []bool{nchw}}, in: []dinput{dvar(rnd(r, s...)), dvar(rnd(r, s[ax]))}}
		},
		"mean_sqerr_loss": func(r *rand.Rand) dcase {
			// Labels broadcast to the predictions (one way).
			s := randShape(r, 3)
			sl := broadcastable(r, s, 3, 1)
			w := rnd(r, broadcastable(r, s, 2, 3)...)
			return dcase{args: ops.Args{I: []int64{int64(r.IntN(4))}}, in: []dinput{dvar(rnd(r, s...)), dvar(w), dvar(rnd(r, sl...))}}
		},
		"softmax_cross_entropy_loss": func(r *rand.Rand) dcase {
			s := append(randShape(r, 2), 1+r.IntN(3))
			ws := broadcastable(r, s[:len(s)-1], 2, 3)
			a := ops.Args{I: []int64{int64(r.IntN(4))}}
			if r.IntN(2) == 0 {
				a.F = []float64{0.3 * r.Float64()}
			}
			return dcase{args: a, in: []dinput{dvar(rnd(r, s...)), dvar(rnd(r, ws...)), dvar(pos(r, 0, 1, s...))}}
		},
		"scatter_nd_update": func(r *rand.Rand) dcase {
			ref := randShape(r, 3)
			if len(ref) == 0 {
				ref = []int{3}
			}
			k := 1 + r.IntN(len(ref))
			rows := 1 + r.IntN(3)
			idx := make([]int64, rows*k)
			for i := range idx {
				idx[i] = int64(r.IntN(ref[i%k]))
			}
			upd := append([]int{rows}, ref[k:]...)
			return dcase{in: []dinput{dvar(rnd(r, ref...)), dfix(ndarray.Must(ndarray.FromSlice(idx, rows, k))), dvar(rnd(r, upd...))}}
		},
		"conv2d": func(r *rand.Rand) dcase {
			kH, kW := 1+r.IntN(2), 1+r.IntN(2)
			sH, sW, dH, dW := 1+r.IntN(2), 1+r.IntN(2), 1+r.IntN(2), 1+r.IntN(2)
			pH, pW := r.IntN(2), r.IntN(2)
			same, nhwc, wf := r.IntN(2), r.IntN(2), r.IntN(3)
			bS, iC, oC, iH, iW := 1+r.IntN(2), 1+r.IntN(2), 1+r.IntN(2), 3+r.IntN(2), 3+r.IntN(2)
			x := []int{bS, iC, iH, iW}
			if nhwc == 1 {
				x = []int{bS, iH, iW, iC}
			}
			w := [][]int{{kH, kW, iC, oC}, {oC, iC, kH, kW}, {oC, kH, kW, iC}}[wf]
			a := ops.Args{I: []int64{int64(kH), int64(kW), int64(sH), int64(sW), int64(pH), int64(pW), int64(dH), int64(dW), int64(same), int64(nhwc), int64(wf)}}
			in := []dinput{dvar(rnd(r, x...)), dvar(rnd(r, w...))}
			if r.IntN(2) == 0 {
				in = append(in, dvar(rnd(r, oC)))
			}
			return dcase{args: a, in: in}
		},
		"avgpool3dnew": func(r *rand.Rand) dcase {
			var I []int64
			for range 3 {
				I = append(I, int64(1+r.IntN(2)))
			}
			for range 3 {
				I = append(I, int64(1+r.IntN(2)))
			}
			for range 3 {
				I = append(I, int64(r.IntN(2)))
			}
			for range 3 {
				I = append(I, int64(1+r.IntN(2)))
			}
			nd := r.IntN(2)
			I = append(I, int64(r.IntN(2)), int64(r.IntN(2)), int64(nd))
			x := []int{1 + r.IntN(2), 1 + r.IntN(2), 3 + r.IntN(2), 3, 3 + r.IntN(2)}
			if nd == 1 {
				x = []int{x[0], x[2], x[3], x[4], x[1]}
			}
			return dcase{args: ops.Args{I: I}, in: []dinput{dvar(rnd(r, x...))}}
		},
	}
	m["log_softmax"] = m["softmax"]
	m[cv.OpName] = genCreateView
	m[cv.OpNameBP] = genCreateViewBP
	for _, w := range []string{cv.OpAssign, cv.OpAdd, cv.OpSub, cv.OpMul, cv.OpDiv} {
		m[w] = genViewWrite
	}
	for name, g := range familyDgens {
		if _, dup := m[name]; dup {
			panic("two generators for " + name)
		}
		m[name] = g
	}
	return m
}

// familyDgens holds the generators of op families whose random cases live
// in files of their own (diffgrad_<family>_test.go), each adding its
// generators from an init function.
var familyDgens = map[string]dgen{}

func genPermute(r *rand.Rand) dcase {
	s := randShape(r, 4)
	x := dvar(rnd(r, s...))
	p := r.Perm(len(s))
	pv := make([]int64, len(p))
	for i, q := range p {
		pv[i] = int64(q)
		if r.IntN(3) == 0 {
			pv[i] -= int64(len(p))
		}
	}
	switch r.IntN(3) {
	case 0:
		return dcase{in: []dinput{x}} // transpose: axes reversed
	case 1:
		return dcase{args: ops.Args{I: pv}, in: []dinput{x}}
	}
	for i := range pv {
		pv[i] = int64(p[i])
	}
	if len(pv) == 0 {
		return dcase{in: []dinput{x}}
	}
	return dcase{in: []dinput{x, dfix(i64s(pv...))}}
}

func genMatmul(r *rand.Rand) dcase {
	m, k, n := 1+r.IntN(3), 1+r.IntN(3), 1+r.IntN(3)
	tx, ty, tz := r.IntN(2), r.IntN(2), r.IntN(3)/2
	batch := randShape(r, 2)
	bx, by := append([]int(nil), batch...), append([]int(nil), batch...)
	for i := range bx {
		if r.IntN(3) == 0 {
			bx[i] = 1
		}
		if r.IntN(3) == 0 {
			by[i] = 1
		}
	}
	bx, by = bx[r.IntN(len(bx)+1):], by[r.IntN(len(by)+1):]
	xs := append(bx, m, k)
	if tx == 1 {
		xs = append(bx[:len(bx):len(bx)], k, m)
	}
	ys := append(by, k, n)
	if ty == 1 {
		ys = append(by[:len(by):len(by)], n, k)
	}
	// Vectors now and then, their transpose flags left as drawn: matmul
	// ignores them, and so must its gradient.
	if r.IntN(5) == 0 {
		xs = []int{k}
	}
	if r.IntN(5) == 0 {
		ys = []int{k}
	}
	a := ops.Args{I: []int64{int64(tx), int64(ty), int64(tz)}}
	if r.IntN(3) == 0 {
		a.F = []float64{0.5 + r.Float64()}
	}
	return dcase{args: a, in: []dinput{dvar(rnd(r, xs...)), dvar(rnd(r, ys...))}}
}

// genStridedSlice draws begin, end and strides within the shape
// (negative ones too) with random begin and end masks and now and then a
// shrunk axis or a new one.
func genStridedSlice(r *rand.Rand) dcase {
	s := randShape(r, 3)
	if len(s) == 0 {
		s = []int{3}
	}
	var begin, end, stride []int64
	var bm, em, nm, sm int64
	for i, d := range s {
		st := int64(1 + r.IntN(2))
		if r.IntN(3) == 0 {
			st = -st
		}
		b, e := int64(r.IntN(d)), int64(r.IntN(d+1))
		if st < 0 {
			b, e = int64(r.IntN(d)), int64(r.IntN(d+1))-1
		}
		if r.IntN(3) == 0 {
			b -= int64(d)
		}
		if r.IntN(4) == 0 {
			bm |= 1 << i
		}
		if r.IntN(4) == 0 {
			em |= 1 << i
		}
		if r.IntN(6) == 0 {
			sm |= 1 << i
			st, e = 1, b+1
			if b < 0 {
				e = b + 1
				if e == 0 {
					em |= 1 << i
				}
			}
			bm &^= 1 << i
		}
		begin, end, stride = append(begin, b), append(end, e), append(stride, st)
	}
	if r.IntN(5) == 0 {
		i := r.IntN(len(s) + 1)
		nm = 1 << i
		begin = append(begin[:i:i], append([]int64{0}, begin[i:]...)...)
		end = append(end[:i:i], append([]int64{1}, end[i:]...)...)
		stride = append(stride[:i:i], append([]int64{1}, stride[i:]...)...)
		bm = insertBit(bm, i)
		em = insertBit(em, i)
		sm = insertBit(sm, i)
	}
	I := append([]int64{bm, 0, em, nm, sm}, begin...)
	I = append(append(I, end...), stride...)
	return dcase{args: ops.Args{I: I}, in: []dinput{dvar(rnd(r, s...))}}
}

func insertBit(m int64, i int) int64 {
	low := m & (1<<i - 1)
	return (m&^(1<<i-1))<<1 | low
}

// randIndex returns a random CreateView index for a rank-r input of shape
// s: points, intervals (with steps, inclusive, negative bounds), all and
// new axes.
func randIndex(r *rand.Rand, s []int) []cv.Index {
	var idx []cv.Index
	for _, d := range s {
		if r.IntN(5) == 0 {
			idx = append(idx, cv.NewAxis())
		}
		switch r.IntN(4) {
		case 0:
			p := r.IntN(d)
			if r.IntN(2) == 0 {
				p -= d
			}
			idx = append(idx, cv.Point(p))
		case 1:
			idx = append(idx, cv.All())
		default:
			b := r.IntN(d)
			e := b + 1 + r.IntN(d-b)
			st := 1 + r.IntN(2)
			if r.IntN(2) == 0 {
				idx = append(idx, cv.IntervalStep(b, e-1, st, true))
			} else {
				idx = append(idx, cv.IntervalStep(b-d*r.IntN(2), e, st, false))
			}
		}
	}
	return idx
}

func idxInputs(idx []cv.Index) []dinput {
	var in []dinput
	for _, x := range idx {
		in = append(in, dfix(i64s(x.Descriptor()...)))
	}
	return in
}

func genCreateView(r *rand.Rand) dcase {
	s := randShape(r, 3)
	return dcase{in: append([]dinput{dvar(rnd(r, s...))}, idxInputs(randIndex(r, s))...)}
}

// viewShape runs create_view to learn the shape of a view.
func viewShape(x *ndarray.Array, idx []cv.Index) ([]int, error) {
	g := graph.New()
	in := []*graph.Variable{g.Const("x", x)}
	for _, i := range idx {
		in = append(in, g.Const("", i64s(i.Descriptor()...)))
	}
	v := g.Apply(cv.OpName, ops.Args{}, in...)
	if v.Err() != nil {
		return nil, v.Err()
	}
	res, err := exec.Output(g, nil, v.Name())
	if err != nil {
		return nil, err
	}
	return res[v.Name()].Shape(), nil
}

// randView returns a random array, random indices into it and the view's
// shape.
func randView(r *rand.Rand) (*ndarray.Array, []cv.Index, []int) {
	s := randShape(r, 3)
	x := rnd(r, s...)
	idx := randIndex(r, s)
	vs, err := viewShape(x, idx)
	if err != nil {
		panic(err)
	}
	return x, idx, vs
}

// broadcastable returns a random shape that broadcasts to s: each size 1
// with probability 1/oneIn, then, with probability 1/dropIn, a random
// number of leading axes dropped.
func broadcastable(r *rand.Rand, s []int, oneIn, dropIn int) []int {
	b := append([]int(nil), s...)
	for i := range b {
		if r.IntN(oneIn) == 0 {
			b[i] = 1
		}
	}
	if r.IntN(dropIn) == 0 {
		b = b[r.IntN(len(b)+1):]
	}
	return b
}

func genCreateViewBP(r *rand.Rand) dcase {
	x, idx, vs := randView(r)
	return dcase{in: append([]dinput{dfix(x), dvar(rnd(r, vs...))}, idxInputs(idx)...)}
}

func genViewWrite(r *rand.Rand) dcase {
	x, idx, vs := randView(r)
	// The value broadcasts to the view.
	us := broadcastable(r, vs, 3, 1)
	return dcase{in: append([]dinput{dvar(x), dvar(away(r, 0.5, 2, us...))}, idxInputs(idx)...)}
}

// variant says how a case is put in a graph.
type variant int

const (
	plain    variant = iota
	twice            // the op applied twice to the same inputs
	shared           // one variable as both operands of a binary op
	lossTwo          // two losses, each of one output
	float32s         // in float32, compared with the float64 gradients
	unknown          // placeholders of unknown sizes
	firstOut         // only output 0 reaches the loss
	lastIn           // only the last differentiated input is asked for
)

func (v variant) String() string {
	return [...]string{"plain", "twice", "shared", "two losses", "float32", "unknown sizes", "first output", "last input"}[v]
}

// dresult is the outcome of one case.
type dresult struct {
	skipped string // why the case did not run (the forward op rejected it)
	fail    string // a mismatch, or an error from autodiff or the run
}

// diffGraph is a case built for differentiation.
type diffGraph struct {
	sess   *exec.Session
	feeds  map[string]*ndarray.Array
	wrt    []*graph.Variable
	gnames []string // wrt's gradients
	lnames []string // the losses
}

func castAll(a *ndarray.Array, dt ndarray.DType) *ndarray.Array {
	if !a.DType().IsFloat() || a.DType() == dt {
		return a
	}
	return ndarray.Must(ndarray.Cast(a, dt))
}

// buildDiff builds the case's graph as v says in dtype dt, with loss
// weights drawn from wseed; skipped is set when the op rejects the case.
func buildDiff(opName string, c dcase, v variant, dt ndarray.DType, wseed uint64) (*diffGraph, dresult) {
	g := graph.New()
	d := &diffGraph{feeds: map[string]*ndarray.Array{}}
	vars := make([]*graph.Variable, len(c.in))
	for i, x := range c.in {
		a := castAll(x.a, dt)
		if x.fixed {
			vars[i] = g.Const(fmt.Sprintf("c%d", i), a)
			continue
		}
		shape := a.Shape()
		if v == unknown {
			shape = make([]int, len(shape))
			for j := range shape {
				shape[j] = -1
			}
		}
		vars[i] = g.Placeholder(fmt.Sprintf("x%d", i), a.DType(), shape...)
		d.feeds[vars[i].Name()] = a
		d.wrt = append(d.wrt, vars[i])
	}
	if v == shared {
		vars[1] = vars[0]
		delete(d.feeds, d.wrt[1].Name())
		d.wrt = d.wrt[:1]
	}
	outs, err := g.Op(opName, c.args, vars...)
	if err != nil {
		// Unknown sizes may leave an op without what it needs (unstack
		// without its count), which it says when the graph is built.
		if v == float32s {
			return nil, dresult{fail: "building: " + err.Error()}
		}
		return nil, dresult{skipped: err.Error()}
	}
	if v == firstOut {
		outs = outs[:1]
	}
	if v == twice {
		o2, err := g.Op(opName, c.args, vars...)
		if err != nil {
			return nil, dresult{fail: "second application: " + err.Error()}
		}
		outs = append(outs, o2...)
	}
	// Learn the outputs' shapes by running the op (a run-time error
	// means the random arguments do not fit: skipped).
	names := make([]string, len(outs))
	for i, o := range outs {
		names[i] = o.Name()
	}
	vals, err := exec.Output(g, d.feeds, names...)
	if err != nil {
		// An op that ran and gave another shape than inferred is wrong
		// whatever the arguments.
		if v == unknown || v == float32s || strings.Contains(err.Error(), ", inferred ") {
			return nil, dresult{fail: "forward run: " + err.Error()}
		}
		return nil, dresult{skipped: err.Error()}
	}
	wr := rand.New(rand.NewPCG(wseed, 3))
	var terms []*graph.Variable
	for _, o := range outs {
		if !o.DType().IsFloat() {
			continue
		}
		w := castAll(rnd(wr, vals[o.Name()].Shape()...), o.DType())
		terms = append(terms, o.Mul(g.Const("", w)).Sum())
	}
	if len(terms) == 0 {
		return nil, dresult{skipped: "no float output"}
	}
	var losses []*graph.Variable
	if v == lossTwo {
		losses = terms
	} else {
		l := terms[0]
		if len(terms) > 1 {
			l = g.Apply("mergeadd", ops.Args{}, terms...)
		}
		losses = []*graph.Variable{l}
	}
	if v == lastIn {
		d.wrt = d.wrt[len(d.wrt)-1:]
	}
	grads, err := autodiff.GradSum(losses, d.wrt...)
	if err != nil {
		return nil, dresult{fail: "autodiff: " + err.Error()}
	}
	for _, gv := range grads {
		d.gnames = append(d.gnames, gv.Name())
	}
	for _, l := range losses {
		d.lnames = append(d.lnames, l.Name())
	}
	d.sess = exec.New(g)
	return d, dresult{}
}

// gradients runs the graph's gradients, checking their shapes.
func (d *diffGraph) gradients() (map[string]*ndarray.Array, dresult) {
	an, err := d.sess.Output(d.feeds, d.gnames...)
	if err != nil {
		return nil, dresult{fail: "gradient run: " + err.Error()}
	}
	for i, w := range d.wrt {
		ga, x := an[d.gnames[i]], d.feeds[w.Name()]
		if !ndarray.SameShape(ga.Shape(), x.Shape()) || ga.DType() != x.DType() {
			return nil, dresult{fail: fmt.Sprintf("gradient of %s is %v%v, the variable %v%v", w.Name(), ga.DType(), ga.Shape(), x.DType(), x.Shape())}
		}
	}
	return an, dresult{}
}

func runDiff(opName string, c dcase, v variant, r *rand.Rand) dresult {
	wseed := r.Uint64()
	dt := ndarray.Float64
	if v == float32s {
		dt = ndarray.Float32
	}
	d, res := buildDiff(opName, c, v, dt, wseed)
	if d == nil {
		return res
	}
	an, res := d.gradients()
	if an == nil {
		return res
	}
	if v == float32s {
		// The float64 gradients of the same graph are the reference.
		ref, res := buildDiff(opName, c, plain, ndarray.Float64, wseed)
		if ref == nil {
			return res
		}
		want, res := ref.gradients()
		if want == nil {
			return res
		}
		for i, w := range d.wrt {
			got, exp := an[d.gnames[i]].Float64s(), want[ref.gnames[i]].Float64s()
			for j := range got {
				if diff := math.Abs(got[j] - exp[j]); !(diff <= 1e-3*math.Abs(exp[j])+1e-4) {
					return dresult{fail: fmt.Sprintf("float32 d/d%s[%d]: %.7g, float64 %.10g", w.Name(), j, got[j], exp[j])}
				}
			}
		}
		return dresult{}
	}
	loss := func(f map[string]*ndarray.Array) (float64, error) {
		res, err := d.sess.Output(f, d.lnames...)
		if err != nil {
			return 0, err
		}
		s := 0.0
		for _, n := range d.lnames {
			s += res[n].Float()
		}
		return s, nil
	}
	const eps = 1e-6
	for i, w := range d.wrt {
		x := d.feeds[w.Name()]
		av := an[d.gnames[i]].Float64s()
		base := x.Float64s()
		for j := range base {
			num := 0.0
			for _, sgn := range []float64{1, -1} {
				p := append([]float64(nil), base...)
				p[j] += sgn * eps
				f := maps.Clone(d.feeds)
				f[w.Name()] = ndarray.Must(ndarray.Wrap(p, x.Shape()...))
				l, err := loss(f)
				if err != nil {
					return dresult{fail: "loss run: " + err.Error()}
				}
				num += sgn * l
			}
			num /= 2 * eps
			a := av[j]
			if diff := math.Abs(a - num); !(diff <= 1e-5*(math.Abs(a)+math.Abs(num))+1e-7) {
				return dresult{fail: fmt.Sprintf("d/d%s[%d] (of %v): autodiff %.10g, central difference %.10g", w.Name(), j, x.Shape(), a, num)}
			}
		}
	}
	return dresult{}
}

func describeCase(c dcase) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "args %+v; inputs", c.args)
	for i, x := range c.in {
		if x.fixed {
			fmt.Fprintf(&sb, " c%d=%v%v", i, x.a.DType(), x.a.Float64s())
		} else {
			fmt.Fprintf(&sb, " x%d:%v", i, x.a.Shape())
		}
	}
	return sb.String()
}

// TestRandomGradients is the random differential test over the registry:
// 30 cases per op, the first 8 of them with -short and under the race
// detector (the cases are drawn in order from one generator per op, so
// those 8 are the same in every run).
func TestRandomGradients(t *testing.T) {
	n := 30
	if testing.Short() || raceEnabled {
		n = 8
	}
	// SDGO_RANDOM_GRADIENTS=k runs k cases per op, for a longer search.
	if k, err := strconv.Atoi(os.Getenv("SDGO_RANDOM_GRADIENTS")); err == nil && k > 0 {
		n = k
	}
	seed := uint64(7)
	if k, err := strconv.ParseUint(os.Getenv("SDGO_RANDOM_SEED"), 10, 64); err == nil {
		seed = k
	}
	gens := dgens()
	for _, d := range ops.All() {
		if !d.Differentiable() {
			continue
		}
		if why, ok := noRandomCase[d.Name]; ok {
			t.Logf("%s: not in the random test: %s", d.Name, why)
			continue
		}
		gen, ok := gens[d.Name]
		if !ok {
			t.Errorf("%s has a gradient rule and no generator in the random differential test", d.Name)
			continue
		}
		t.Run(d.Name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(len(d.Name)), seed))
			ran, fails := 0, 0
			for i := range n {
				c := gen(r)
				vs := []variant{plain, twice, lossTwo, float32s, unknown, firstOut}
				if len(c.in) > 1 {
					vs = append(vs, lastIn)
				}
				if d.MinIn == 2 && len(c.in) == 2 && !c.in[0].fixed && !c.in[1].fixed && ndarray.SameShape(c.in[0].a.Shape(), c.in[1].a.Shape()) {
					vs = append(vs, shared)
				}
				for _, v := range vs {
					res := runDiff(d.Name, c, v, r)
					if res.skipped != "" {
						if v == unknown {
							continue
						}
						if v == plain {
							t.Logf("case %d skipped (%s): %s", i, describeCase(c), res.skipped)
						}
						break
					}
					ran++
					if res.fail != "" {
						fails++
						if fails <= 3 {
							t.Errorf("case %d %v: %s\n\t%s", i, v, describeCase(c), res.fail)
						}
					}
				}
			}
			t.Logf("%d graphs checked", ran)
			if ran < n {
				t.Errorf("only %d of %d cases ran", ran, n)
			}
		})
	}
}
