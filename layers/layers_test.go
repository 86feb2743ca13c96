package layers_test

import (
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/layers"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	"github.com/sdgo/sdgo/serialize"
	"github.com/sdgo/sdgo/validation"
	"github.com/sdgo/sdgo/weightinit"
)

const f64 = ndarray.Float64

// seq is testdata/torch_layers.py's seq: sin(a·i + b) over the shape.
func seq(a, b float64, shape ...int) *ndarray.Array {
	n := 1
	for _, d := range shape {
		n *= d
	}
	v := make([]float64, n)
	for i := range v {
		v[i] = math.Sin(a*float64(i) + b)
	}
	return ndarray.Must(ndarray.FromSlice(v, shape...))
}

// affine is s·a + o elementwise.
func affine(a *ndarray.Array, s, o float64) *ndarray.Array {
	v := a.Float64s()
	for i := range v {
		v[i] = s*v[i] + o
	}
	return ndarray.Must(ndarray.FromSlice(v, a.Shape()...))
}

// permuted is a packed copy of a with its axes permuted.
func permuted(a *ndarray.Array, perm ...int) *ndarray.Array {
	return ndarray.Must(ndarray.Copy(ndarray.Must(ndarray.Permute(a, perm...))))
}

// float64s builds a new float64 builder for g.
func float64s(g *graph.Graph) *layers.Builder { return layers.New(g, 1).WithDType(f64) }

// set gives the variable (or constant) name of g the value a.
func set(t *testing.T, g *graph.Graph, name string, a *ndarray.Array) {
	t.Helper()
	v, ok := g.Variable(name)
	if !ok {
		t.Fatalf("no variable %q", name)
	}
	if err := v.SetValue(a); err != nil {
		t.Fatal(err)
	}
}

// output runs g and returns y's value.
func output(t *testing.T, g *graph.Graph, feeds map[string]*ndarray.Array, y *graph.Variable) *ndarray.Array {
	t.Helper()
	if err := g.Err(); err != nil {
		t.Fatal(err)
	}
	out, err := exec.New(g).Output(feeds, y.Name())
	if err != nil {
		t.Fatal(err)
	}
	return out[y.Name()]
}

// near fails unless got has the shape and the values of want.
func near(t *testing.T, what string, got *ndarray.Array, shape []int, want []float64, tol float64) {
	t.Helper()
	if !ndarray.SameShape(got.Shape(), shape) {
		t.Fatalf("%s: shape %v, want %v", what, got.Shape(), shape)
	}
	for i, g := range got.Float64s() {
		if math.Abs(g-want[i]) > tol*(1+math.Abs(want[i])) {
			t.Fatalf("%s: element %d is %.12g, want %.12g", what, i, g, want[i])
		}
	}
}

// gradCheck checks the gradients of sum(y·c) for a fixed c of y's shape
// with respect to every VARIABLE and the placeholder x.
func gradCheck(t *testing.T, g *graph.Graph, feeds map[string]*ndarray.Array, y *graph.Variable, skip ...string) {
	t.Helper()
	out := output(t, g, feeds, y)
	c := g.Const("", seq(0.61, 0.3, out.Shape()...))
	if err := g.SetLoss(y.Mul(c).Sum().Named("loss").Name()); err != nil {
		t.Fatal(err)
	}
	res, err := validation.CheckGradients(g, feeds, &validation.GradCheckOptions{Skip: skip, FailOnZeroGradient: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Err(); err != nil {
		t.Fatal(err)
	}
	if res.Checked == 0 {
		t.Fatal("no element checked")
	}
}

func TestDense(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", f64, -1, 3)
	y := float64s(g).Dense("fc", x, layers.DenseConfig{Units: 2, Activation: g.NN().Relu})
	set(t, g, "fc/W", ndarray.Must(ndarray.FromSlice([]float64{1, 0, 0, 1, 1, -2}, 3, 2)))
	set(t, g, "fc/b", ndarray.Must(ndarray.FromSlice([]float64{0.5, -1}, 2)))
	in := ndarray.Must(ndarray.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3))
	// [1 2 3]·W + b = [4.5, -5], relu [4.5, 0]; [4 5 6]·W + b = [10.5, -8].
	near(t, "dense", output(t, g, map[string]*ndarray.Array{"x": in}, y), []int{2, 2}, []float64{4.5, 0, 10.5, 0}, 1e-15)

	g = graph.New()
	x = g.Placeholder("x", f64, 2, 3)
	y = float64s(g).Dense("fc", x, layers.DenseConfig{Units: 4, NoBias: true, Activation: g.NN().Tanh})
	if _, ok := g.Variable("fc/b"); ok {
		t.Error("NoBias made a bias")
	}
	gradCheck(t, g, map[string]*ndarray.Array{"x": seq(0.7, 0.1, 2, 3)}, y)
}

func TestConv(t *testing.T) {
	for _, c := range []struct {
		name                string
		x, w                *ndarray.Array
		perm                []int
		cfg                 layers.ConvConfig
		build               func(*layers.Builder, *graph.Variable, layers.ConvConfig) *graph.Variable
		shape               []int
		want                []float64
		gradShape, gradKern []int
	}{
		{"Conv1D", seq(0.7, 0.1, 2, 3, 6), seq(0.3, 0.5, 4, 3, 3), []int{2, 1, 0},
			layers.ConvConfig{Filters: 4, Kernel: [3]int{3}, Stride: [3]int{2}, Pad: [3]int{1}},
			func(b *layers.Builder, x *graph.Variable, c layers.ConvConfig) *graph.Variable {
				return b.Conv1D("conv", x, c)
			},
			[]int{2, 4, 3}, torchConv1D, []int{1, 2, 5}, []int{2}},
		{"Conv2D", seq(0.7, 0.1, 2, 2, 5, 5), seq(0.3, 0.5, 3, 2, 3, 3), []int{2, 3, 1, 0},
			layers.ConvConfig{Filters: 3, Kernel: [3]int{3, 3}, Padding: graph.PaddingSame},
			func(b *layers.Builder, x *graph.Variable, c layers.ConvConfig) *graph.Variable {
				return b.Conv2D("conv", x, c)
			},
			[]int{2, 3, 5, 5}, torchConv2D, []int{1, 2, 4, 4}, []int{2, 2}},
		{"Conv3D", seq(0.7, 0.1, 1, 2, 3, 4, 4), seq(0.3, 0.5, 2, 2, 2, 2, 2), []int{2, 3, 4, 1, 0},
			layers.ConvConfig{Filters: 2, Kernel: [3]int{2, 2, 2}},
			func(b *layers.Builder, x *graph.Variable, c layers.ConvConfig) *graph.Variable {
				return b.Conv3D("conv", x, c)
			},
			[]int{1, 2, 2, 3, 3}, torchConv3D, []int{1, 2, 3, 3, 3}, []int{2, 2, 2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := graph.New()
			x := g.Placeholder("x", f64, append([]int{-1}, c.x.Shape()[1:]...)...)
			y := c.build(float64s(g), x, c.cfg)
			set(t, g, "conv/W", permuted(c.w, c.perm...))
			set(t, g, "conv/b", seq(1.1, 0.2, c.cfg.Filters))
			near(t, c.name, output(t, g, map[string]*ndarray.Array{"x": c.x}, y), c.shape, c.want, 1e-10)

			// A smaller one for the gradient check: 2 filters, kernel 2.
			g = graph.New()
			x = g.Placeholder("x", f64, c.gradShape...)
			cfg := layers.ConvConfig{Filters: 2, Activation: g.NN().Tanh}
			copy(cfg.Kernel[:], c.gradKern)
			y = c.build(float64s(g), x, cfg)
			gradCheck(t, g, map[string]*ndarray.Array{"x": seq(0.7, 0.1, c.gradShape...)}, y)
		})
	}
}

// The kernel is drawn in DL4J's layout [oC, iC, k...] with DL4J's fans:
// Identity gives identity kernels, laid out [k..., iC, oC] for the op.
func TestConvInit(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", f64, -1, 2, 5, 5)
	y := float64s(g).Conv2D("id", x, layers.ConvConfig{Filters: 2, Kernel: [3]int{3, 3}, Padding: graph.PaddingSame, Init: weightinit.Identity})
	in := seq(0.7, 0.1, 1, 2, 5, 5)
	near(t, "identity conv", output(t, g, map[string]*ndarray.Array{"x": in}, y), []int{1, 2, 5, 5}, in.Float64s(), 0)

	// XAVIER_UNIFORM's bound for a [4, 3, 5, 5] kernel with stride 2:
	// fan-in 75, fan-out 100/4, a = √(6/100).
	g = graph.New()
	x = g.Placeholder("x", f64, -1, 3, 9, 9)
	float64s(g).Conv2D("c", x, layers.ConvConfig{Filters: 4, Kernel: [3]int{5, 5}, Stride: [3]int{2, 2}, Init: weightinit.XavierUniform})
	w, _ := g.Variable("c/W")
	bound, lo, hi := math.Sqrt(6.0/100), 0.0, 0.0
	for _, v := range w.Value().Float64s() {
		lo, hi = min(lo, v), max(hi, v)
	}
	if !ndarray.SameShape(w.Shape(), []int{5, 5, 3, 4}) || lo < -bound || hi > bound || hi < 0.8*bound || lo > -0.8*bound {
		t.Errorf("kernel %v in [%v, %v], want [5 5 3 4] filling ±%v", w.Shape(), lo, hi, bound)
	}
}

func TestPool(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", f64, -1, 1, 4, 4)
	b := float64s(g)
	mx := b.MaxPool2D(x, layers.PoolConfig{Kernel: [3]int{2, 2}})
	av := b.AvgPool2D(x, layers.PoolConfig{Kernel: [3]int{2, 2}})
	in := ndarray.Must(ndarray.FromSlice([]float64{
		1, 2, 5, 3,
		4, 0, 1, 1,
		-1, -2, 6, 8,
		-3, -6, 7, 3}, 1, 1, 4, 4))
	feeds := map[string]*ndarray.Array{"x": in}
	near(t, "max", output(t, g, feeds, mx), []int{1, 1, 2, 2}, []float64{4, 5, -1, 8}, 0)
	near(t, "avg", output(t, g, feeds, av), []int{1, 1, 2, 2}, []float64{7.0 / 4, 10.0 / 4, -12.0 / 4, 24.0 / 4}, 1e-15)

	g = graph.New()
	x = g.Placeholder("x", f64, -1, 2, 4, 4, 4)
	b = float64s(g)
	mx = b.MaxPool3D(x, layers.PoolConfig{Kernel: [3]int{2, 2, 2}})
	av = b.AvgPool3D(x, layers.PoolConfig{Kernel: [3]int{2, 2, 2}})
	feeds = map[string]*ndarray.Array{"x": seq(0.7, 0.1, 1, 2, 4, 4, 4)}
	near(t, "max3d", output(t, g, feeds, mx), []int{1, 2, 2, 2, 2}, torchMaxPool3D, 1e-12)
	near(t, "avg3d", output(t, g, feeds, av), []int{1, 2, 2, 2, 2}, torchAvgPool3D, 1e-12)
	gradCheck(t, g, feeds, av.Add(mx))
}

func TestBatchNorm(t *testing.T) {
	in := affine(seq(0.7, 0.1, 4, 3, 2, 2), 2, 0.5)
	gamma, beta := affine(seq(0.9, 0.3, 3), 1, 1.5), seq(0.4, 0.7, 3)
	for _, training := range []bool{true, false} {
		g := graph.New()
		x := g.Placeholder("x", f64, -1, 3, 2, 2)
		y := float64s(g).WithTraining(training).BatchNorm("bn", x, layers.BatchNormConfig{})
		set(t, g, "bn/gamma", gamma)
		set(t, g, "bn/beta", beta)
		set(t, g, "bn/mean", affine(seq(0.5, 0.2, 3), 0.3, 0))
		set(t, g, "bn/variance", affine(seq(0.6, 0.4, 3), 0.2, 1))
		want := torchBatchNormInfer
		if training {
			want = torchBatchNormTrain
		}
		feeds := map[string]*ndarray.Array{"x": in}
		near(t, "batchnorm", output(t, g, feeds, y), []int{4, 3, 2, 2}, want, 1e-9)
		if _, ok := g.Variable("bn/batch_mean"); ok != training {
			t.Errorf("training %v: batch mean named: %v", training, ok)
		}
		gradCheck(t, g, feeds, y)
	}

	// Channels last: [batch, features] with the features on axis 1 is the
	// same as ChannelsLast; [N, H, W, C] normalizes per C.
	g := graph.New()
	x := g.Placeholder("x", f64, 4, 2, 2, 3)
	y := float64s(g).WithTraining(true).BatchNorm("bn", x, layers.BatchNormConfig{ChannelsLast: true})
	set(t, g, "bn/gamma", gamma)
	set(t, g, "bn/beta", beta)
	got := output(t, g, map[string]*ndarray.Array{"x": permuted(in, 0, 2, 3, 1)}, y)
	near(t, "batchnorm NHWC", permuted(got, 0, 3, 1, 2), []int{4, 3, 2, 2}, torchBatchNormTrain, 1e-9)
}

func TestLayerNorm(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", f64, -1, 3, 4)
	y := float64s(g).LayerNorm("ln", x, layers.LayerNormConfig{})
	set(t, g, "ln/gain", affine(seq(0.9, 0.3, 4), 1, 1.5))
	set(t, g, "ln/b", seq(0.4, 0.7, 4))
	feeds := map[string]*ndarray.Array{"x": affine(seq(0.7, 0.1, 2, 3, 4), 3, 0)}
	near(t, "layernorm", output(t, g, feeds, y), []int{2, 3, 4}, torchLayerNorm, 1e-10)
	gradCheck(t, g, feeds, y)
}

// LSTM and GRU against torch.nn.LSTM and torch.nn.GRU, time-major and
// batch-first, the batch known or not; their weights are PyTorch's
// transposed (gates in the same order), the bias PyTorch's input bias.
func TestRecurrent(t *testing.T) {
	for _, c := range []struct {
		kind       string
		gates      int
		batchFirst bool
		batch      int
	}{{"lstm", 4, false, 2}, {"lstm", 4, true, -1}, {"gru", 3, false, -1}, {"gru", 3, true, 2}} {
		g := graph.New()
		in := seq(0.7, 0.1, 3, 2, 3)
		x := g.Placeholder("x", f64, 3, c.batch, 3)
		if c.batchFirst {
			in = permuted(in, 1, 0, 2)
			x = g.Placeholder("xb", f64, c.batch, 3, 3)
		}
		cfg := layers.RecurrentConfig{Units: 2, BatchFirst: c.batchFirst}
		var y, hLast, cLast *graph.Variable
		want := torchGRU
		if c.kind == "lstm" {
			o := float64s(g).LSTM("rnn", x, cfg)
			y, hLast, cLast, want = o.H, o.HLast, o.CLast, torchLSTM
		} else {
			y = float64s(g).GRU("rnn", x, cfg)
		}
		set(t, g, "rnn/Wx", permuted(seq(0.3, 0.5, 2*c.gates, 3), 1, 0))
		set(t, g, "rnn/Wr", permuted(seq(0.45, 0.2, 2*c.gates, 2), 1, 0))
		set(t, g, "rnn/b", seq(1.1, 0.2, 2*c.gates))
		feeds := map[string]*ndarray.Array{x.Name(): in}
		h := output(t, g, feeds, y)
		if c.batchFirst {
			h = permuted(h, 1, 0, 2)
		}
		near(t, c.kind, h, []int{3, 2, 2}, want, 1e-10)
		if hLast != nil {
			near(t, "lstm last h", output(t, g, feeds, hLast), []int{2, 2}, torchLSTM[8:], 1e-10)
			near(t, "lstm last c", output(t, g, feeds, cLast), []int{2, 2}, torchLSTMLastC, 1e-10)
		}
		gradCheck(t, g, feeds, y)
	}
}

func TestMultiHeadAttention(t *testing.T) {
	g := graph.New()
	q := g.Placeholder("q", f64, -1, 4, 3)
	k := g.Placeholder("k", f64, -1, 3, 4)
	v := g.Placeholder("v", f64, -1, 5, 4)
	y := float64s(g).MultiHeadAttention("mha", q, k, v, nil, layers.AttentionConfig{Heads: 2})
	set(t, g, "mha/Wq", ndarray.Must(ndarray.Reshape(seq(0.3, 0.5, 4, 4), 2, 2, 4)))
	set(t, g, "mha/Wk", ndarray.Must(ndarray.Reshape(seq(0.45, 0.2, 4, 3), 2, 2, 3)))
	set(t, g, "mha/Wv", ndarray.Must(ndarray.Reshape(seq(0.55, 0.9, 4, 5), 2, 2, 5)))
	set(t, g, "mha/Wo", permuted(seq(0.35, 0.6, 4, 4), 1, 0))
	feeds := map[string]*ndarray.Array{
		"q": permuted(seq(0.7, 0.1, 2, 3, 4), 0, 2, 1),
		"k": permuted(seq(0.8, 0.3, 2, 4, 3), 0, 2, 1),
		"v": permuted(seq(0.9, 0.4, 2, 4, 5), 0, 2, 1),
	}
	got := permuted(output(t, g, feeds, y), 0, 2, 1)
	near(t, "attention", got, []int{2, 3, 4}, torchMHA, 1e-10)
	gradCheck(t, g, feeds, y)
}

func TestEmbedding(t *testing.T) {
	g := graph.New()
	ids := g.Placeholder("ids", ndarray.Int64, -1, 2)
	y := float64s(g).Embedding("emb", ids, layers.EmbeddingConfig{Vocab: 4, Dim: 3})
	table := seq(0.7, 0.1, 4, 3)
	set(t, g, "emb/W", table)
	feeds := map[string]*ndarray.Array{"ids": ndarray.Must(ndarray.FromSlice([]int64{3, 0, 1, 1}, 2, 2))}
	tv := table.Float64s()
	var want []float64
	for _, id := range []int{3, 0, 1, 1} {
		want = append(want, tv[3*id:3*id+3]...)
	}
	near(t, "embedding", output(t, g, feeds, y), []int{2, 2, 3}, want, 0)
	gradCheck(t, g, feeds, y.Mul(y))

	bad := float64s(g).Embedding("e2", g.Placeholder("f", f64, 2), layers.EmbeddingConfig{Vocab: 4, Dim: 3})
	if err := bad.Err(); err == nil || !strings.Contains(err.Error(), `Embedding "e2": ids "f" are float64`) {
		t.Errorf("float ids: %v", err)
	}
}

func TestDropout(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", f64, -1, 100)
	if y := float64s(g).Dropout(x, layers.DropoutConfig{Rate: 0.5}); y != x {
		t.Error("inference dropout is not the input itself")
	}
	b := float64s(g).WithTraining(true)
	fixed := b.Dropout(x, layers.DropoutConfig{Rate: 0.25, Seed: 7})
	fresh := b.Dropout(x, layers.DropoutConfig{Rate: 0.25})
	ones := ndarray.Must(ndarray.FromSlice(make([]float64, 100*100), 100, 100))
	ones = affine(ones, 0, 1)
	feeds := map[string]*ndarray.Array{"x": ones}
	masks := map[string][]float64{}
	for range 2 {
		for name, y := range map[string]*graph.Variable{"fixed": fixed, "fresh": fresh} {
			v := output(t, g, feeds, y).Float64s()
			dropped := 0
			for _, e := range v {
				switch e {
				case 0:
					dropped++
				case 1 / 0.75:
				default:
					t.Fatalf("%s dropout: element %v, want 0 or 1/0.75", name, e)
				}
			}
			// 10,000 draws at p = 0.25: σ of the count is 43.
			if dropped < 2300 || dropped > 2700 {
				t.Errorf("%s dropout dropped %d of 10000 at rate 0.25", name, dropped)
			}
			if prev, ok := masks[name]; ok {
				same := slicesEqual(prev, v)
				if same != (name == "fixed") {
					t.Errorf("%s dropout: two runs give the same mask: %v", name, same)
				}
			}
			masks[name] = v
		}
	}
	// ops.SetRandomSeed makes the fresh masks repeat: a training run with
	// dropout can be run again to the same numbers.
	var seqs [2][]float64
	for i := range seqs {
		ops.SetRandomSeed(21)
		seqs[i] = append(output(t, g, feeds, fresh).Float64s(), output(t, g, feeds, fresh).Float64s()...)
	}
	if !slicesEqual(seqs[0], seqs[1]) {
		t.Error("fresh dropout: two runs after ops.SetRandomSeed(21) drew different masks")
	}
	g2 := graph.New()
	x2 := g2.Placeholder("x", f64, 3, 4)
	y2 := float64s(g2).WithTraining(true).Dropout(x2, layers.DropoutConfig{Rate: 0.5, Seed: 3})
	gradCheck(t, g2, map[string]*ndarray.Array{"x": seq(0.7, 0.1, 3, 4)}, y2)
}

func slicesEqual(a, b []float64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}

func TestFlattenReshapeResidual(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", f64, -1, 2, 3, 4)
	b := float64s(g)
	if s := b.Flatten(x).Shape(); !ndarray.SameShape(s, []int{-1, 24}) {
		t.Errorf("flatten: %v", s)
	}
	if s := b.Reshape(x, 6, -1).Shape(); !ndarray.SameShape(s, []int{-1, 6, 4}) {
		t.Errorf("reshape: %v", s)
	}
	y := b.Residual(x, func(h *graph.Variable) *graph.Variable { return h.MulScalar(2) })
	in := seq(0.7, 0.1, 1, 2, 3, 4)
	near(t, "residual", output(t, g, map[string]*ndarray.Array{"x": in}, y), []int{1, 2, 3, 4}, affine(in, 3, 0).Float64s(), 1e-15)

	bad := b.Residual(x, func(h *graph.Variable) *graph.Variable { return b.Flatten(h) })
	if err := bad.Err(); err == nil || !strings.Contains(err.Error(), "[-1 2 3 4]") || !strings.Contains(err.Error(), "[-1 24]") {
		t.Errorf("residual changing the shape: %v", err)
	}
	if err := b.Flatten(g.Placeholder("u", f64, -1, -1)).Err(); err == nil || !strings.Contains(err.Error(), "must be known") {
		t.Errorf("flatten of an unknown size: %v", err)
	}
}

// Each layer given an input of the wrong rank fails while building, with
// an error naming the layer, the input and its shape, and later layers
// pass the error on.
func TestWrongRank(t *testing.T) {
	for _, c := range []struct {
		kind  string
		build func(b *layers.Builder, x *graph.Variable) *graph.Variable
	}{
		{`Dense "l"`, func(b *layers.Builder, x *graph.Variable) *graph.Variable {
			return b.Dense("l", x, layers.DenseConfig{Units: 2})
		}},
		{`Conv1D "l"`, func(b *layers.Builder, x *graph.Variable) *graph.Variable {
			return b.Conv1D("l", x, layers.ConvConfig{Filters: 2, Kernel: [3]int{2}})
		}},
		{`Conv2D "l"`, func(b *layers.Builder, x *graph.Variable) *graph.Variable {
			return b.Conv2D("l", x, layers.ConvConfig{Filters: 2, Kernel: [3]int{2, 2}})
		}},
		{`Conv3D "l"`, func(b *layers.Builder, x *graph.Variable) *graph.Variable {
			return b.Conv3D("l", x, layers.ConvConfig{Filters: 2, Kernel: [3]int{2, 2, 2}})
		}},
		{`MaxPool2D "maxpool2d"`, func(b *layers.Builder, x *graph.Variable) *graph.Variable {
			return b.MaxPool2D(x, layers.PoolConfig{Kernel: [3]int{2, 2}})
		}},
		{`AvgPool3D "avgpool3d"`, func(b *layers.Builder, x *graph.Variable) *graph.Variable {
			return b.AvgPool3D(x, layers.PoolConfig{Kernel: [3]int{2, 2, 2}})
		}},
		{`BatchNorm "l"`, func(b *layers.Builder, x *graph.Variable) *graph.Variable {
			return b.BatchNorm("l", x.Sum(), layers.BatchNormConfig{})
		}},
		{`LayerNorm "l"`, func(b *layers.Builder, x *graph.Variable) *graph.Variable {
			return b.LayerNorm("l", x.Sum(), layers.LayerNormConfig{})
		}},
		{`LSTM "l"`, func(b *layers.Builder, x *graph.Variable) *graph.Variable {
			return b.LSTM("l", x, layers.RecurrentConfig{Units: 2}).H
		}},
		{`GRU "l"`, func(b *layers.Builder, x *graph.Variable) *graph.Variable {
			return b.GRU("l", x, layers.RecurrentConfig{Units: 2})
		}},
		{`MultiHeadAttention "l"`, func(b *layers.Builder, x *graph.Variable) *graph.Variable {
			return b.MultiHeadAttention("l", x, x, x, nil, layers.AttentionConfig{Heads: 2})
		}},
	} {
		g := graph.New()
		x := g.Placeholder("pixels", ndarray.Float32, 8, 4, 4, 4, 4, 4)
		if c.kind[:5] == "Batch" || c.kind[:5] == "Layer" {
			x = g.Placeholder("pixels6", ndarray.Float32, 2, 2, 2, 2, 2, 2)
		}
		y := c.build(layers.New(g, 1), x)
		err := y.Err()
		if err == nil {
			t.Errorf("%s: no error for a rank-6 input", c.kind)
			continue
		}
		msg := err.Error()
		if !errors.Is(err, graph.ErrBuild) || !strings.Contains(msg, c.kind) || !strings.Contains(msg, "(rank ") {
			t.Errorf("%s: error %q", c.kind, msg)
		}
		if !strings.Contains(msg, `input "pixels`) && !strings.Contains(msg, `input "reduce_sum`) {
			t.Errorf("%s: error %q does not name the input", c.kind, msg)
		}
		if g.Err() == nil {
			t.Errorf("%s: the graph keeps no error", c.kind)
		}
		if next := layers.New(g, 1).Dense("next", y, layers.DenseConfig{Units: 1}); !errors.Is(next.Err(), err) {
			t.Errorf("%s: the next layer's error %v is not the first", c.kind, next.Err())
		}
	}
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float32, 8, 4, 3)
	err := layers.New(g, 1).Dense("fc", x, layers.DenseConfig{Units: 2}).Err()
	want := `layers: Dense "fc": input "x" has shape [8 4 3] (rank 3); want rank 2 [batch, features]`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want it to say %s", err, want)
	}
}

// The same seed gives the same weights; names are scoped and numbered.
func TestSeedsAndNames(t *testing.T) {
	build := func(seed uint64) *graph.Graph {
		g := graph.New()
		x := g.Placeholder("x", ndarray.Float32, -1, 3)
		b := layers.New(g, seed)
		h := b.Dense("", x, layers.DenseConfig{Units: 4})
		h = b.Dense("", h, layers.DenseConfig{Units: 4, Init: weightinit.Constant(0.5)})
		b.Scope("block").Dense("", h, layers.DenseConfig{Units: 2, Init: weightinit.HeUniform})
		if err := g.Err(); err != nil {
			t.Fatal(err)
		}
		return g
	}
	a, b, c := build(1), build(1), build(2)
	var names []string
	for _, v := range a.VariablesOf(graph.VARIABLE) {
		names = append(names, v.Name())
		vb, _ := b.Variable(v.Name())
		vc, _ := c.Variable(v.Name())
		if !ndarray.Equal(v.Value(), vb.Value()) {
			t.Errorf("%s differs with the same seed", v.Name())
		}
		if strings.HasSuffix(v.Name(), "/W") && v.Name() != "dense_1/W" && ndarray.Equal(v.Value(), vc.Value()) {
			t.Errorf("%s is the same with another seed", v.Name())
		}
	}
	if got := strings.Join(names, " "); got != "dense/W dense/b dense_1/W dense_1/b block/dense/W block/dense/b" {
		t.Errorf("names %s", got)
	}
	w, _ := a.Variable("dense_1/W")
	for _, v := range w.Value().Float64s() {
		if v != 0.5 {
			t.Fatalf("Constant(0.5) init gave %v", v)
		}
	}
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float32, -1, 3)
	l := layers.New(g, 1)
	l.Dense("fc", x, layers.DenseConfig{Units: 2})
	if err := l.Dense("fc", x, layers.DenseConfig{Units: 2}).Err(); err == nil || !strings.Contains(err.Error(), `"fc/W" already exists`) {
		t.Errorf("a second layer named fc: %v", err)
	}
}

// everyLayer builds a model of every layer; dropout is the Dropout
// layer's seed.
func everyLayer(t *testing.T, b *layers.Builder, dropout int64) *graph.Graph {
	g := b.Graph()
	relu := g.NN().Relu
	img := g.Placeholder("img", ndarray.Float32, -1, 2, 8, 8)
	h := b.Conv2D("conv", img, layers.ConvConfig{Filters: 3, Kernel: [3]int{3, 3}, Padding: graph.PaddingSame, Activation: relu})
	h = b.BatchNorm("bn", h, layers.BatchNormConfig{})
	h = b.MaxPool2D(h, layers.PoolConfig{Kernel: [3]int{2, 2}})
	h = b.AvgPool2D(h, layers.PoolConfig{Kernel: [3]int{2, 2}})
	h = b.Dropout(b.Flatten(h), layers.DropoutConfig{Rate: 0.5, Seed: dropout})
	h = b.Residual(b.Dense("fc", h, layers.DenseConfig{Units: 6, Activation: relu}), func(v *graph.Variable) *graph.Variable {
		return b.LayerNorm("ln", v, layers.LayerNormConfig{})
	})
	seqIn := g.Placeholder("seq", ndarray.Float32, 4, -1, 3)
	s := b.LSTM("lstm", seqIn, layers.RecurrentConfig{Units: 6}).HLast
	s = s.Add(b.GRU("gru", seqIn, layers.RecurrentConfig{Units: 6}).Sum(0))
	ids := g.Placeholder("ids", ndarray.Int64, -1, 4)
	e := b.Embedding("emb", ids, layers.EmbeddingConfig{Vocab: 10, Dim: 5}).Permute(0, 2, 1)
	a := b.MultiHeadAttention("att", e, e, e, nil, layers.AttentionConfig{Heads: 1, OutSize: 6}).Mean(2)
	conv1 := b.Conv1D("c1", e, layers.ConvConfig{Filters: 6, Kernel: [3]int{2}, Padding: graph.PaddingCausal}).Mean(2)
	vol := g.Placeholder("vol", ndarray.Float32, -1, 1, 4, 4, 4)
	v := b.Flatten(b.MaxPool3D(b.Conv3D("c3", vol, layers.ConvConfig{Filters: 6, Kernel: [3]int{3, 3, 3}}), layers.PoolConfig{Kernel: [3]int{2, 2, 2}}))
	v = b.AvgPool3D(b.Reshape(v, 6, 1, 1, 1), layers.PoolConfig{Kernel: [3]int{1, 1, 1}})
	b.Dense("head", h.Add(s).Add(a).Add(conv1).Add(b.Flatten(v)), layers.DenseConfig{Units: 2}).Named("out")
	if err := g.Err(); err != nil {
		t.Fatal(err)
	}
	return g
}

// A model built with layers is a graph of SameDiff ops: saved to a file
// and loaded back, it runs to the same values, bit for bit, and Java's
// SameDiff finds a class for every node. The training path (batch
// statistics, a seeded dropout) too; the unseeded dropout's file is
// checked for Java only, its mask differing from run to run.
func TestSaveLoad(t *testing.T) {
	f32 := func(a *ndarray.Array) *ndarray.Array { return ndarray.Must(ndarray.Cast(a, ndarray.Float32)) }
	feeds := map[string]*ndarray.Array{
		"img": f32(seq(0.7, 0.1, 2, 2, 8, 8)), "seq": f32(seq(0.3, 0.2, 4, 2, 3)), "vol": f32(seq(0.5, 0.4, 2, 1, 4, 4, 4)),
		"ids": ndarray.Must(ndarray.FromSlice([]int64{1, 2, 3, 9, 0, 0, 5, 5}, 2, 4)),
	}
	for _, c := range []struct {
		name     string
		training bool
		seed     int64
	}{{"inference", false, 0}, {"training", true, 5}, {"fresh dropout", true, 0}} {
		g := everyLayer(t, layers.New(graph.New(), 3).WithTraining(c.training), c.seed)
		path := filepath.Join(t.TempDir(), "model.fb")
		if err := serialize.Save(path, g, nil); err != nil {
			t.Fatal(err)
		}
		fs, err := serialize.CheckJavaFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if bl := serialize.Blockers(fs); len(bl) > 0 {
			t.Errorf("%s: Java cannot load the file: %v", c.name, bl)
		}
		loaded, err := serialize.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if n1, n2 := len(g.Ops()), len(loaded.Ops()); n1 != n2 {
			t.Errorf("%s: %d ops built, %d loaded", c.name, n1, n2)
		}
		out, _ := g.Variable("out")
		lo, _ := loaded.Variable("out")
		want, got := output(t, g, feeds, out), output(t, loaded, feeds, lo)
		if c.training && c.seed == 0 {
			continue
		}
		if !ndarray.Equal(got, want) {
			t.Errorf("%s: loaded model gives %v, built one %v", c.name, got, want)
		}
	}
}

func TestReshapeErrors(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", f64, -1, 2, 3, 4)
	for _, dims := range [][]int{{5, -1}, {6, 5}, {-1, -1}, {0, 24}} {
		if err := float64s(g).Reshape(x, dims...).Err(); err == nil || !strings.Contains(err.Error(), "Reshape") {
			t.Errorf("reshape to %v: %v", dims, err)
		}
	}
}

// The population statistics: the averages of the batch means and of the
// unbiased batch variances, worked by hand.
func TestSetBatchNormStats(t *testing.T) {
	build := func(training bool) *graph.Graph {
		g := graph.New()
		x := g.Placeholder("x", f64, -1, 2)
		float64s(g).WithTraining(training).BatchNorm("bn", x, layers.BatchNormConfig{}).Named("y")
		return g
	}
	trained, infer := build(true), build(false)
	rows := func(v ...float64) map[string]*ndarray.Array {
		return map[string]*ndarray.Array{"x": ndarray.Must(ndarray.FromSlice(v, len(v)/2, 2))}
	}
	// Batch 1: means [2 12], unbiased variances [2 8]; batch 2: means
	// [2 0], unbiased variances [4 4].
	batches := []map[string]*ndarray.Array{rows(1, 10, 3, 14), rows(0, 0, 2, 2, 4, -2)}
	if err := layers.SetBatchNormStats(infer, trained, batches); err != nil {
		t.Fatal(err)
	}
	mean, _ := infer.Variable("bn/mean")
	variance, _ := infer.Variable("bn/variance")
	near(t, "mean", mean.Value(), []int{2}, []float64{2, 6}, 1e-15)
	near(t, "variance", variance.Value(), []int{2}, []float64{3, 6}, 1e-15)
	y, _ := infer.Variable("y")
	near(t, "normalized", output(t, infer, rows(2, 6, 5, 12), y), []int{2, 2},
		[]float64{0, 0, 3 / math.Sqrt(3+1e-5), 6 / math.Sqrt(6+1e-5)}, 1e-15)

	if err := layers.SetBatchNormStats(infer, build(false), batches); err == nil || !strings.Contains(err.Error(), `"bn/batch_mean" for layer "bn"`) {
		t.Errorf("an inference graph as the trained one: %v", err)
	}
	if err := layers.SetBatchNormStats(graph.New(), trained, batches); err == nil || !strings.Contains(err.Error(), "no BatchNorm layer") {
		t.Errorf("no BatchNorm layer: %v", err)
	}
	if err := layers.SetBatchNormStats(infer, trained, []map[string]*ndarray.Array{rows(1, 2)}); err == nil || !strings.Contains(err.Error(), "needs 2 or more") {
		t.Errorf("a batch of one: %v", err)
	}
	if err := layers.SetBatchNormStats(infer, trained, nil); err == nil {
		t.Error("no batches: no error")
	}
}

func TestCopyVariables(t *testing.T) {
	build := func(units int) *graph.Graph {
		g := graph.New()
		layers.New(g, uint64(units)).Dense("fc", g.Placeholder("x", ndarray.Float32, -1, 3), layers.DenseConfig{Units: units})
		return g
	}
	src, dst := build(2), build(2)
	if err := layers.CopyVariables(dst, src); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"fc/W", "fc/b"} {
		a, _ := src.Variable(n)
		b, _ := dst.Variable(n)
		if !ndarray.Equal(a.Value(), b.Value()) {
			t.Errorf("%s not copied", n)
		}
	}
	if err := layers.CopyVariables(dst, build(3)); err == nil || !strings.Contains(err.Error(), `"fc/W" is float32[3 3] in the source, float32[3 2]`) {
		t.Errorf("another shape: %v", err)
	}
	if err := layers.CopyVariables(dst, graph.New()); err == nil || !strings.Contains(err.Error(), `no VARIABLE "fc/W"`) {
		t.Errorf("a missing variable: %v", err)
	}
}

// Channels last gives the channels-first results with the axes moved.
func TestChannelsLast(t *testing.T) {
	in := seq(0.7, 0.1, 2, 2, 5, 5)
	run := func(last bool) *ndarray.Array {
		g := graph.New()
		shape, x := []int{-1, 2, 5, 5}, in
		if last {
			shape, x = []int{-1, 5, 5, 2}, permuted(in, 0, 2, 3, 1)
		}
		b := float64s(g)
		h := b.Conv2D("conv", g.Placeholder("x", f64, shape...), layers.ConvConfig{Filters: 3, Kernel: [3]int{3, 3}, ChannelsLast: last})
		y := b.AvgPool2D(b.MaxPool2D(h, layers.PoolConfig{Kernel: [3]int{2, 1}, Stride: [3]int{1, 1}, ChannelsLast: last}),
			layers.PoolConfig{Kernel: [3]int{2, 2}, ChannelsLast: last})
		out := output(t, g, map[string]*ndarray.Array{"x": x}, y)
		if last {
			out = permuted(out, 0, 3, 1, 2)
		}
		return out
	}
	first, last := run(false), run(true)
	near(t, "channels last", last, first.Shape(), first.Float64s(), 1e-12)
	if !ndarray.SameShape(first.Shape(), []int{2, 3, 1, 1}) {
		t.Errorf("shape %v", first.Shape())
	}
}

// A mask that skips a key step gives the attention over the other steps.
func TestAttentionMask(t *testing.T) {
	run := func(tv int, mask *ndarray.Array) *ndarray.Array {
		g := graph.New()
		q := g.Placeholder("q", f64, 2, 4, 3)
		kv := g.Placeholder("kv", f64, 2, 3, tv)
		var m *graph.Variable
		feeds := map[string]*ndarray.Array{"q": seq(0.7, 0.1, 2, 4, 3), "kv": seq(0.8, 0.3, 2, 3, 4)}
		if tv == 3 {
			feeds["kv"] = ndarray.Must(ndarray.Slice(feeds["kv"], []int{0, 0, 0}, []int{2, 3, 3}))
		}
		if mask != nil {
			m = g.Placeholder("m", f64, 2, tv)
			feeds["m"] = mask
		}
		y := layers.New(g, 9).WithDType(f64).MultiHeadAttention("mha", q, kv, kv, m, layers.AttentionConfig{Heads: 2, KeySize: 3, ValueSize: 2, OutSize: 5})
		return output(t, g, feeds, y)
	}
	masked := run(4, ndarray.Must(ndarray.FromSlice([]float64{1, 1, 1, 0, 1, 1, 1, 0}, 2, 4)))
	short := run(3, nil)
	near(t, "masked attention", masked, []int{2, 5, 3}, short.Float64s(), 1e-12)
	if full := run(4, nil); ndarray.AllClose(full, masked, 1e-6, 1e-9) {
		t.Error("the mask changed nothing")
	}
}
