package ops_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Tests of lstmLayer beside its values and gradients in
// validation/opcases: bad input, the data formats agreeing, float32, and
// the gradient where the cell state is clipped.

// lstmTestArgs: dataFormat, directionMode, sigmoid/tanh/tanh, the bool
// args, cellClip.
func lstmTestArgs(format, mode int64, bools [8]bool, clip float64) *ops.Args {
	return &ops.Args{I: []int64{format, mode, 2, 0, 0}, B: bools[:], F: []float64{clip}}
}

func lstmRand(r *rand.Rand, shape ...int) *ndarray.Array {
	return ndarray.Must(ndarray.RandNormal(r, ndarray.Float64, 0, 0.5, shape...))
}

func TestLSTMLayerErrors(t *testing.T) {
	info := func(s ...int) ops.Info { return ops.Info{DType: ndarray.Float32, Shape: s} }
	d, _ := ops.Lookup("lstmLayer")
	// x [5, 2, 3] (TNS), nOut 4, biases, hI.
	bools := [8]bool{true, false, true, false, false, true, true, false}
	ok := []ops.Info{info(5, 2, 3), info(3, 16), info(4, 16), info(16), info(2, 4)}
	if out, err := d.Infer(ok, lstmTestArgs(0, 0, bools, 0)); err != nil || len(out) != 2 || !ndarray.SameShape(out[0].Shape, []int{5, 2, 4}) {
		t.Fatalf("lstmLayer's outputs: %v, %v", out, err)
	}
	with := func(i int, v ops.Info) []ops.Info {
		in := append([]ops.Info(nil), ok...)
		in[i] = v
		return in
	}
	for _, c := range []struct {
		in   []ops.Info
		args *ops.Args
		msg  string
	}{
		{with(1, info(2, 16)), lstmTestArgs(0, 0, bools, 0), "Wx (input weights) has shape [2 16]; want [3 16]"},
		{with(1, info(3, 14)), lstmTestArgs(0, 0, bools, 0), "Wx has shape [3 14]; its last size must be 4·nOut"},
		{with(2, info(4, 12)), lstmTestArgs(0, 0, bools, 0), "Wr (recurrent weights) has shape [4 12]; want [4 16]"},
		{with(3, info(12)), lstmTestArgs(0, 0, bools, 0), "b (biases) has shape [12]; want [16]"},
		{with(4, info(3, 4)), lstmTestArgs(0, 0, bools, 0), "hI (initial output) has shape [3 4]; want [2 4]"},
		{with(1, info(3, 16)), lstmTestArgs(0, 2, bools, 0), "Wx (input weights) has shape [3 16]; want [2 3 16]"},
		{with(0, info(5, 3)), lstmTestArgs(0, 0, bools, 0), "x has shape [5 3]; want rank 3"},
		{with(4, ops.Info{DType: ndarray.Float64, Shape: []int{2, 4}}), lstmTestArgs(0, 0, bools, 0), "one dtype"},
		{ok[:4], lstmTestArgs(0, 0, bools, 0), "announce 5 inputs"},
		{ok, lstmTestArgs(0, 0, bools, -1), "cellClip) is -1"},
		{ok, lstmTestArgs(3, 0, bools, 0), "dataFormat 3 needs directionMode 4"},
		{ok, lstmTestArgs(1, 4, bools, 0), "directionMode 4"},
		{ok, lstmTestArgs(5, 0, bools, 0), "int arg 0 (dataFormat) is 5"},
		{ok, lstmTestArgs(0, 0, [8]bool{true, false, true}, 0), "want at least one output"},
		{ok, &ops.Args{I: []int64{0, 0, 4, 0, 0}, B: bools[:], F: []float64{0}}, "gateAct 4 takes an alpha: float arg 1 is missing"},
		{ok, &ops.Args{I: []int64{0, 0, 2, 11, 0}, B: bools[:], F: []float64{0}}, "int arg 3 (cellAct) is 11"},
	} {
		_, err := d.Infer(c.in, c.args)
		if err == nil || !strings.Contains(err.Error(), c.msg) || !strings.Contains(err.Error(), "lstmLayer") {
			t.Errorf("lstmLayer %v: error %v, want one mentioning %q", c.in, err, c.msg)
		}
	}
	// Sequence lengths past the sequence, negative or fractional are
	// refused at run time, naming the length and x's shape.
	r := rand.New(rand.NewPCG(1, 2))
	withSeq := [8]bool{false, true, false, false, false, true, false, false}
	x, wx, wr := lstmRand(r, 3, 2, 2), lstmRand(r, 2, 8), lstmRand(r, 2, 8)
	for _, c := range []struct {
		seq []int64
		msg string
	}{{[]int64{4, 1}, "seqLen[0] is 4; want a whole number from 0 to 3 (the time steps of x [3 2 2])"}, {[]int64{1, -1}, "seqLen[1] is -1"}} {
		seq := ndarray.Must(ndarray.FromSlice(c.seq, 2))
		for _, name := range []string{"lstmLayer", "lstmLayer_bp"} {
			in := []*ndarray.Array{x, wx, wr, seq}
			if name == "lstmLayer_bp" {
				in = append(in, lstmRand(r, 3, 2, 2))
			}
			op, _ := ops.Lookup(name)
			_, err := op.Run(nil, in, lstmTestArgs(0, 0, withSeq, 0))
			if err == nil || !strings.Contains(err.Error(), c.msg) || !strings.Contains(err.Error(), name+":") {
				t.Errorf("%s with seqLen %v: error %v, want one mentioning %q", name, c.seq, err, c.msg)
			}
		}
	}
	half := ndarray.Must(ndarray.FromSlice([]float64{1.5, 1}, 2))
	if _, err := d.Run(nil, []*ndarray.Array{x, wx, wr, half}, lstmTestArgs(0, 0, withSeq, 0)); err == nil || !strings.Contains(err.Error(), "seqLen[0] is 1.5") {
		t.Errorf("seqLen 1.5: error %v", err)
	}
	// A gradient of the wrong shape for lstmLayer_bp.
	bp, _ := ops.Lookup("lstmLayer_bp")
	_, err := bp.Infer([]ops.Info{info(5, 2, 3), info(3, 16), info(4, 16), info(16), info(2, 4), info(5, 2, 3)}, lstmTestArgs(0, 0, [8]bool{true, false, true, false, false, true}, 0))
	if err == nil || !strings.Contains(err.Error(), "lstmLayer_bp: output gradient 0 has shape [5 2 3]; want [5 2 4]") {
		t.Errorf("lstmLayer_bp with a [5 2 3] gradient: error %v", err)
	}
}

// transpose3 returns a with its axes permuted to perm, packed.
func transpose3(t *testing.T, a *ndarray.Array, perm ...int) *ndarray.Array {
	t.Helper()
	p, err := ndarray.Permute(a, perm...)
	if err != nil {
		t.Fatal(err)
	}
	return ndarray.Must(ndarray.Copy(p))
}

func lstmClose(t *testing.T, what string, got, want *ndarray.Array, tol float64) {
	t.Helper()
	if !ndarray.SameShape(got.Shape(), want.Shape()) {
		t.Fatalf("%s: shape %v, want %v", what, got.Shape(), want.Shape())
	}
	g, w := got.Float64s(), want.Float64s()
	for i := range g {
		if math.Abs(g[i]-w[i]) > tol {
			t.Fatalf("%s: element %d is %v, want %v", what, i, g[i], w[i])
		}
	}
}

// The three data formats give the same sequences, transposed, in each
// direction mode, with sequence lengths, and so do their gradients.
func TestLSTMLayerFormatsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	sL, bS, nIn, nOut := 4, 3, 2, 3
	xT := lstmRand(r, sL, bS, nIn)
	seq := ndarray.Must(ndarray.FromSlice([]int64{4, 2, 0}, bS))
	bools := [8]bool{true, true, true, true, true, true, true, true}
	fw, _ := ops.Lookup("lstmLayer")
	bp, _ := ops.Lookup("lstmLayer_bp")
	for mode := int64(0); mode < 4; mode++ {
		dirs := []int{}
		if mode >= 2 {
			dirs = []int{2}
		}
		shape := func(s ...int) []int { return append(append([]int(nil), dirs...), s...) }
		w := []*ndarray.Array{lstmRand(r, shape(nIn, 4*nOut)...), lstmRand(r, shape(nOut, 4*nOut)...), lstmRand(r, shape(4*nOut)...), seq,
			lstmRand(r, shape(bS, nOut)...), lstmRand(r, shape(bS, nOut)...), lstmRand(r, shape(3*nOut)...)}
		width := nOut
		if mode == 3 {
			width = 2 * nOut
		}
		gh, ghl, gcl := lstmRand(r, sL, bS, width), lstmRand(r, shape(bS, nOut)...), lstmRand(r, shape(bS, nOut)...)
		run := func(format int64, x, g *ndarray.Array) ([]*ndarray.Array, []*ndarray.Array) {
			in := append([]*ndarray.Array{x}, w...)
			out, err := fw.Run(nil, in, lstmTestArgs(format, mode, bools, 0))
			if err != nil {
				t.Fatal(err)
			}
			grads, err := bp.Run(nil, append(in, g, ghl, gcl), lstmTestArgs(format, mode, bools, 0))
			if err != nil {
				t.Fatal(err)
			}
			return out, grads
		}
		out0, g0 := run(0, xT, gh)
		for _, f := range []struct {
			format int64
			perm   []int
		}{{1, []int{1, 0, 2}}, {2, []int{1, 2, 0}}} {
			out, g := run(f.format, transpose3(t, xT, f.perm...), transpose3(t, gh, f.perm...))
			lstmClose(t, "h", transpose3(t, out[0], invPerm(f.perm)...), out0[0], 1e-14)
			for i := 1; i < 3; i++ {
				lstmClose(t, "hL, cL", out[i], out0[i], 1e-14)
			}
			lstmClose(t, "dLdx", transpose3(t, g[0], invPerm(f.perm)...), g0[0], 1e-13)
			for i := 1; i < len(g); i++ {
				lstmClose(t, "a parameter's gradient", g[i], g0[i], 1e-13)
			}
		}
	}
}

func invPerm(p []int) []int {
	q := make([]int, len(p))
	for i, v := range p {
		q[v] = i
	}
	return q
}

// float32 runs in float32 and agrees with float64 to float32's precision.
func TestLSTMLayerFloat32(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	bools := [8]bool{true, false, true, true, true, true, true, true}
	in := []*ndarray.Array{lstmRand(r, 5, 2, 3), lstmRand(r, 2, 3, 16), lstmRand(r, 2, 4, 16), lstmRand(r, 2, 16),
		lstmRand(r, 2, 2, 4), lstmRand(r, 2, 2, 4), lstmRand(r, 2, 12)}
	in32 := make([]*ndarray.Array, len(in))
	for i, a := range in {
		in32[i] = ndarray.Must(ndarray.Cast(a, ndarray.Float32))
	}
	for _, name := range []string{"lstmLayer", "lstmLayer_bp"} {
		d, _ := ops.Lookup(name)
		a64, a32 := in, in32
		if name == "lstmLayer_bp" {
			g := []*ndarray.Array{lstmRand(r, 5, 2, 8), lstmRand(r, 2, 2, 4), lstmRand(r, 2, 2, 4)}
			a64 = append(append([]*ndarray.Array(nil), in...), g...)
			a32 = append([]*ndarray.Array(nil), in32...)
			for _, v := range g {
				a32 = append(a32, ndarray.Must(ndarray.Cast(v, ndarray.Float32)))
			}
		}
		o64, err := d.Run(nil, a64, lstmTestArgs(0, 3, bools, 0))
		if err != nil {
			t.Fatal(err)
		}
		o32, err := d.Run(nil, a32, lstmTestArgs(0, 3, bools, 0))
		if err != nil {
			t.Fatal(err)
		}
		for i := range o64 {
			if o32[i].DType() != ndarray.Float32 {
				t.Fatalf("%s output %d is %v", name, i, o32[i].DType())
			}
			lstmClose(t, name, o32[i], o64[i], 2e-5)
		}
	}
}

// Where the cell state is clipped it carries no gradient: lstmLayer_bp
// agrees with central differences of the forward pass at a point where
// some cell states are clipped and none is near the bound.
func TestLSTMLayerClipGradient(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	const clip = 0.25
	bools := [8]bool{true, false, false, true, false, false, false, true}
	args := lstmTestArgs(0, 0, bools, clip)
	in := []*ndarray.Array{lstmRand(r, 3, 2, 2), lstmRand(r, 2, 8), lstmRand(r, 2, 8), lstmRand(r, 8), lstmRand(r, 2, 2)}
	fw, _ := ops.Lookup("lstmLayer")
	bp, _ := ops.Lookup("lstmLayer_bp")
	g := ndarray.Must(ndarray.FromSlice([]float64{1, -2, 0.5, 3}, 2, 2))
	loss := func() float64 {
		out, err := fw.Run(nil, in, args)
		if err != nil {
			t.Fatal(err)
		}
		s := 0.0
		for i, v := range out[0].Float64s() {
			s += v * g.Float64s()[i]
		}
		return s
	}
	out, _ := fw.Run(nil, in, args)
	clipped := 0
	for _, v := range out[0].Float64s() {
		if math.Abs(v) == clip {
			clipped++
		}
	}
	if clipped == 0 || clipped == 4 {
		t.Fatalf("%d of the 4 last cell states are clipped; the test wants some", clipped)
	}
	grads, err := bp.Run(nil, append(append([]*ndarray.Array(nil), in...), g), args)
	if err != nil {
		t.Fatal(err)
	}
	for k, a := range in {
		v := ndarray.Raw[float64](a)
		for i := range v {
			old := v[i]
			v[i] = old + 1e-6
			lp := loss()
			v[i] = old - 1e-6
			lm := loss()
			v[i] = old
			num, got := (lp-lm)/2e-6, grads[k].Float64s()[i]
			if math.Abs(num-got) > 1e-7 {
				t.Errorf("input %d element %d: gradient %v, central differences %v", k, i, got, num)
			}
		}
	}
}

// Empty sequences and batches run (no panic) and give empty or zero
// outputs; lstmLayer_bp takes a rank-0 gradient for every element.
func TestLSTMLayerEdges(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	fw, _ := ops.Lookup("lstmLayer")
	bp, _ := ops.Lookup("lstmLayer_bp")
	bools := [8]bool{false, false, true, false, false, true, true, true}
	for _, s := range [][2]int{{0, 2}, {3, 0}} {
		sL, bS := s[0], s[1]
		in := []*ndarray.Array{lstmRand(r, sL, bS, 2), lstmRand(r, 2, 4), lstmRand(r, 1, 4), lstmRand(r, bS, 1)}
		out, err := fw.Run(nil, in, lstmTestArgs(0, 0, bools, 0))
		if err != nil {
			t.Fatalf("time %d batch %d: %v", sL, bS, err)
		}
		if !ndarray.SameShape(out[0].Shape(), []int{sL, bS, 1}) || !ndarray.SameShape(out[2].Shape(), []int{bS, 1}) {
			t.Errorf("time %d batch %d: shapes %v %v", sL, bS, out[0].Shape(), out[2].Shape())
		}
		for _, v := range out[2].Float64s() {
			if v != 0 {
				t.Errorf("time %d: last cell state %v, want 0 (no step ran from a zero state)", sL, v)
			}
		}
		if _, err := bp.Run(nil, append(in, lstmRand(r, sL, bS, 1), lstmRand(r, bS, 1), lstmRand(r, bS, 1)), lstmTestArgs(0, 0, bools, 0)); err != nil {
			t.Fatalf("lstmLayer_bp, time %d batch %d: %v", sL, bS, err)
		}
	}
	in := []*ndarray.Array{lstmRand(r, 3, 2, 2), lstmRand(r, 2, 8), lstmRand(r, 2, 8), lstmRand(r, 2, 2)}
	full := ndarray.Must(ndarray.Full(ndarray.Float64, 0.7, 3, 2, 2))
	one := [8]bool{false, false, true, false, false, true, false, false}
	a, err := bp.Run(nil, append(append([]*ndarray.Array(nil), in...), ndarray.Scalar(0.7)), lstmTestArgs(0, 0, one, 0))
	if err != nil {
		t.Fatal(err)
	}
	b, err := bp.Run(nil, append(append([]*ndarray.Array(nil), in...), full), lstmTestArgs(0, 0, one, 0))
	if err != nil {
		t.Fatal(err)
	}
	for i := range a {
		lstmClose(t, "a rank-0 gradient", a[i], b[i], 0)
	}
}

// Shape inference with sizes known only at run time: the batch comes from
// the initial state when x does not know it.
func TestLSTMLayerInferUnknown(t *testing.T) {
	d, _ := ops.Lookup("lstmLayer")
	f := func(s ...int) ops.Info { return ops.Info{DType: ndarray.Float32, Shape: s} }
	bools := [8]bool{false, false, true, false, false, true, true, false}
	out, err := d.Infer([]ops.Info{f(-1, -1, 3), f(3, 8), f(2, 8), f(5, 2)}, lstmTestArgs(1, 3, bools, 0))
	if err == nil {
		t.Fatalf("concat mode with unidirectional weights inferred %v", out)
	}
	out, err = d.Infer([]ops.Info{f(-1, -1, 3), f(3, 8), f(2, 8), f(5, 2)}, lstmTestArgs(1, 0, bools, 0))
	if err != nil {
		t.Fatal(err)
	}
	if !ndarray.SameShape(out[0].Shape, []int{5, -1, 2}) || !ndarray.SameShape(out[1].Shape, []int{5, 2}) {
		t.Errorf("inferred %v, want h [5 -1 2] and hL [5 2]", out)
	}
	out, err = d.Infer([]ops.Info{{DType: ndarray.Float32, UnknownRank: true}, f(3, 8), f(2, 8), f(5, 2)}, lstmTestArgs(2, 0, bools, 0))
	if err != nil || !ndarray.SameShape(out[0].Shape, []int{5, 2, -1}) {
		t.Errorf("x of unknown rank: %v, %v; want h [5 2 -1]", out, err)
	}
}
