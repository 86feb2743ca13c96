package ops_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// ctc_loss and ctc_loss_grad against a brute-force sum over every path of
// classes through the frames; their hand-worked values and gradient
// checks are in validation/opcases/loss.go.

// ctcBrute returns -log Σ P(π) over the paths π of the T×K log-probabilities
// x that collapse (repeats merged, blanks dropped) to lab, and the
// derivative of that loss with respect to each x[t][k]: -Σ_{π: π_t = k}
// P(π) / Σ P(π).
func ctcBrute(x []float64, T, K int, lab []int, blank int) (loss float64, grad []float64) {
	grad = make([]float64, T*K)
	path := make([]int, T)
	var z float64
	for {
		var got []int
		prev := -1
		for _, k := range path {
			if k != prev && k != blank {
				got = append(got, k)
			}
			prev = k
		}
		if slices.Equal(got, lab) {
			lp := 0.0
			for t, k := range path {
				lp += x[t*K+k]
			}
			p := math.Exp(lp)
			z += p
			for t, k := range path {
				grad[t*K+k] -= p
			}
		}
		// Next path, like counting in base K.
		i := T - 1
		for i >= 0 && path[i] == K-1 {
			path[i] = 0
			i--
		}
		if i < 0 {
			break
		}
		path[i]++
	}
	for i := range grad {
		grad[i] /= z
	}
	return -math.Log(z), grad
}

func TestCTCBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	for _, c := range []struct {
		T, K, blank int
		lab         []int
	}{
		{1, 2, 0, []int{1}},
		{3, 3, 0, []int{1, 2}},
		{4, 3, 0, []int{1, 1}}, // a repeat needs a blank between
		{5, 4, 3, []int{0, 2, 0}},
		{5, 3, 1, []int{}},
		{6, 3, 0, []int{2, 1, 2}},
		{3, 2, 0, []int{1, 1}}, // exactly enough frames: 1 0 1
	} {
		// Unnormalized inputs: ctc_loss reads them as given.
		x := make([]float64, c.T*c.K)
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		want, wantGrad := ctcBrute(x, c.T, c.K, c.lab, c.blank)
		// Batch of two: the example, and the example padded with an extra
		// frame and label past its lengths.
		lab := make([]int64, 2*(len(c.lab)+1))
		for i, l := range c.lab {
			lab[i] = int64(l)
			lab[len(c.lab)+1+i] = int64(l)
		}
		lab[len(c.lab)], lab[2*len(c.lab)+1] = int64((c.blank+1)%c.K), int64((c.blank+1)%c.K)
		xs := make([]float64, 2*(c.T+1)*c.K)
		copy(xs, x)
		copy(xs[(c.T+1)*c.K:], x)
		for k := 0; k < c.K; k++ {
			xs[c.T*c.K+k], xs[(2*c.T+1)*c.K+k] = 5, 5
		}
		in := []*ndarray.Array{
			i64([]int{2, len(c.lab) + 1}, lab...), f64([]int{2, c.T + 1, c.K}, xs...),
			i64([]int{2}, int64(len(c.lab)), int64(len(c.lab))), i32([]int{2}, int32(c.T), int32(c.T)),
		}
		args := ops.Args{I: []int64{int64(c.blank)}}
		loss := runOp(t, "ctc_loss", args, in...)[0].Float64s()
		for b := range loss {
			if math.Abs(loss[b]-want) > 1e-12*max(1, math.Abs(want)) {
				t.Errorf("T=%d K=%d labels %v: loss %d is %v, brute force %v", c.T, c.K, c.lab, b, loss[b], want)
			}
		}
		g := ndarray.Must(ndarray.FromSlice([]float64{1, -2}, 2))
		dx := runOp(t, "ctc_loss_grad", args, append(in, g)...)[0].Float64s()
		lib := runOp(t, "ctc_loss_grad", args, in...)[0].Float64s()
		for b, s := range []float64{1, -2} {
			for i := 0; i < (c.T+1)*c.K; i++ {
				want, wantLib := 0.0, 0.0
				if i < c.T*c.K {
					want, wantLib = s*wantGrad[i], wantGrad[i]+math.Exp(x[i])
				}
				got, gotLib := dx[b*(c.T+1)*c.K+i], lib[b*(c.T+1)*c.K+i]
				if math.Abs(got-want) > 1e-12 || math.Abs(gotLib-wantLib) > 1e-12 {
					t.Errorf("T=%d K=%d labels %v: gradient %d of example %d is %v (libnd4j's %v), brute force %v (%v)", c.T, c.K, c.lab, i, b, got, gotLib, want, wantLib)
				}
			}
		}
	}
}

func TestCTCEdges(t *testing.T) {
	args := ops.Args{}
	// No alignment: the labels 1 1 need three frames; two give +Inf and a
	// zero gradient.
	x := f64([]int{1, 2, 2}, -0.1, -2, -0.5, -1)
	in := []*ndarray.Array{i64([]int{1, 2}, 1, 1), x, i64([]int{1}, 2), i64([]int{1}, 2)}
	if l := runOp(t, "ctc_loss", args, in...)[0].Float64s()[0]; !math.IsInf(l, 1) {
		t.Errorf("ctc_loss without an alignment: %v, want +Inf", l)
	}
	for _, v := range runOp(t, "ctc_loss_grad", args, append(in, f64([]int{1}, 1))...)[0].Float64s() {
		if v != 0 {
			t.Errorf("ctc_loss_grad without an alignment: %v, want 0", v)
		}
	}
	// Lengths past the arrays are clipped; a label length past the frame
	// length is clipped to it (libnd4j's): labels 1 1 over one frame are
	// the label 1.
	in = []*ndarray.Array{i64([]int{1, 2}, 1, 1), x, i64([]int{1}, 5), i64([]int{1}, 1)}
	if l := runOp(t, "ctc_loss", args, in...)[0].Float64s()[0]; l != 2 {
		t.Errorf("ctc_loss with the label length clipped to one frame: %v, want 2", l)
	}
	// No frames, no labels: loss 0.
	in = []*ndarray.Array{i64([]int{1, 2}, 1, 1), x, i64([]int{1}, 0), i64([]int{1}, 0)}
	if l := runOp(t, "ctc_loss", args, in...)[0].Float64s()[0]; l != 0 {
		t.Errorf("ctc_loss of nothing: %v, want 0", l)
	}
	// float32 computes in float32.
	x32 := ndarray.Must(ndarray.FromSlice([]float32{-0.1, -2, -0.5, -1}, 1, 2, 2))
	out := runOp(t, "ctc_loss", args, i64([]int{1, 1}, 1), x32, i64([]int{1}, 1), i64([]int{1}, 2))[0]
	// Paths 1 1, 0 1, 1 0: e^-3 + e^-1.1 + e^-2.5.
	want := -math.Log(math.Exp(-3) + math.Exp(-1.1) + math.Exp(-2.5))
	if out.DType() != ndarray.Float32 || math.Abs(out.Float64s()[0]-want) > 1e-6 {
		t.Errorf("ctc_loss float32: %v %v, want %v", out.DType(), out.Float64s(), want)
	}
}

func TestCTCErrors(t *testing.T) {
	x := f64([]int{2, 3, 3}, make([]float64, 18)...)
	lab := i64([]int{2, 2}, 1, 2, 2, 1)
	two := i64([]int{2}, 2, 2)
	for _, c := range []struct {
		args ops.Args
		in   []*ndarray.Array
		msg  []string
	}{
		{ops.Args{}, []*ndarray.Array{lab, f64([]int{2, 3}, make([]float64, 6)...), two, two}, []string{"ctc_loss", "input 1", "[2 3]", "rank 3"}},
		{ops.Args{}, []*ndarray.Array{lab, x, i64([]int{3}, 1, 1, 1), two}, []string{"ctc_loss", "input 2", "[3]", "batch"}},
		{ops.Args{}, []*ndarray.Array{f64([]int{2, 2}, 1, 2, 2, 1), x, two, two}, []string{"ctc_loss", "targetLabels", "float64"}},
		{ops.Args{I: []int64{3}}, []*ndarray.Array{lab, x, two, two}, []string{"ctc_loss", "blank index", "3"}},
		{ops.Args{}, []*ndarray.Array{lab, x, two, i64([]int{2}, 2, -1)}, []string{"ctc_loss", "example 1", "negative"}},
		{ops.Args{}, []*ndarray.Array{i64([]int{2, 2}, 1, 3, 1, 1), x, two, two}, []string{"ctc_loss", "label 1 of example 0", "3"}},
		{ops.Args{}, []*ndarray.Array{i64([]int{2, 2}, 1, 0, 1, 1), x, two, two}, []string{"ctc_loss", "blank"}},
	} {
		d, _ := ops.Lookup("ctc_loss")
		_, err := d.Run(nil, c.in, &c.args)
		if err == nil {
			t.Errorf("%v: no error", c.msg)
			continue
		}
		for _, m := range c.msg {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("error %q does not mention %q", err, m)
			}
		}
	}
	d, _ := ops.Lookup("ctc_loss_grad")
	if _, err := d.Run(nil, []*ndarray.Array{lab, x, two, two, f64([]int{3}, 1, 1, 1)}, &ops.Args{}); err == nil || !strings.Contains(err.Error(), "input 4") {
		t.Errorf("ctc_loss_grad with a gradient of the wrong shape: %v", err)
	}
}
