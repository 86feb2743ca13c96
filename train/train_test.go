package train_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/train"
)

// oneParam builds loss = Σ (w - target)² / 2 with w a vector, so the
// gradient is w - target, and returns a trainer over it with the updater.
func oneParam(t *testing.T, u train.Updater, reg ...train.Regularization) (*train.Trainer, *graph.Variable) {
	return oneParamOf(t, ndarray.Float64, u, reg...)
}

// oneParamOf is oneParam in dtype dt.
func oneParamOf(t *testing.T, dt ndarray.DType, u train.Updater, reg ...train.Regularization) (*train.Trainer, *graph.Variable) {
	t.Helper()
	g := graph.New()
	x := g.Placeholder("x", dt, 2) // the target
	w := g.Var("w", ndarray.Must(ndarray.Cast(ndarray.Must(ndarray.FromSlice([]float64{1, -2})), dt)))
	loss := g.Math().Square(w.Sub(x)).Sum().MulScalar(0.5).Named("loss")
	if err := g.SetLoss(loss.Name()); err != nil {
		t.Fatal(err)
	}
	tr, err := train.New(g, &train.Config{Updater: u, Regularization: reg, Features: []string{"x"}})
	if err != nil {
		t.Fatal(err)
	}
	return tr, w
}

func zeroTarget() *train.Batch { return zeroTargetOf(ndarray.Float64) }

func zeroTargetOf(dt ndarray.DType) *train.Batch {
	return &train.Batch{Features: []*ndarray.Array{ndarray.Must(ndarray.Zeros(dt, 2))}}
}

// tolerance is the relative error allowed against hand-worked values.
func tolerance(dt ndarray.DType) float64 {
	if dt == ndarray.Float32 {
		return 1e-6
	}
	return 1e-12
}

func checkW(t *testing.T, w *graph.Variable, want ...float64) {
	t.Helper()
	got := w.Value().Float64s()
	tol := tolerance(w.DType())
	for i := range want {
		if math.Abs(got[i]-want[i]) > tol*(1+math.Abs(want[i])) {
			t.Fatalf("w = %v, want %v", got, want)
		}
	}
}

// Each updater's first steps against the formulas worked by hand, in both
// float dtypes (the updaters' loops are instantiated per dtype). With target
// 0 the gradient is w itself.
func TestUpdaterSteps(t *testing.T) {
	for _, dt := range []ndarray.DType{ndarray.Float64, ndarray.Float32} {
		t.Run(dt.String(), func(t *testing.T) { updaterSteps(t, dt) })
	}
}

func updaterSteps(t *testing.T, dt ndarray.DType) {
	t.Run("SGD", func(t *testing.T) {
		tr, w := oneParamOf(t, dt, train.NewSGD(0.1))
		tr.Step(zeroTargetOf(dt))
		checkW(t, w, 0.9, -1.8)
	})
	t.Run("Momentum", func(t *testing.T) {
		tr, w := oneParamOf(t, dt, train.NewMomentum(0.1, 0.9, false))
		tr.Step(zeroTargetOf(dt)) // v = -0.1·w0 = (-0.1, 0.2); w = (0.9, -1.8)
		tr.Step(zeroTargetOf(dt)) // v = 0.9·v - 0.1·w = (-0.18, 0.36); w = (0.72, -1.44)
		checkW(t, w, 0.72, -1.44)
	})
	t.Run("Nesterov", func(t *testing.T) {
		tr, w := oneParamOf(t, dt, train.NewMomentum(0.1, 0.9, true))
		tr.Step(zeroTargetOf(dt)) // v=(-0.1,0.2); w += -0.9·0 + 1.9·v = (0.81, -1.62)
		checkW(t, w, 0.81, -1.62)
	})
	t.Run("Adam", func(t *testing.T) {
		tr, w := oneParamOf(t, dt, train.NewAdam(0.01))
		tr.Step(zeroTargetOf(dt))
		// Step 1: m̂ = g, v̂ = g², so w -= lr·g/(|g|+ε): each moves by 0.01.
		checkW(t, w, 1-0.01/(1+1e-8), -2+0.02/(2+1e-8))
		w1 := w.Value().Float64s()
		tr.Step(zeroTargetOf(dt))
		// Step 2 from the definitions.
		b1, b2 := 0.9, 0.999
		for i, w0 := range []float64{1, -2} {
			g0, g1 := w0, w1[i]
			m := b1*(1-b1)*g0 + (1-b1)*g1
			v := b2*(1-b2)*g0*g0 + (1-b2)*g1*g1
			mh, vh := m/(1-b1*b1), v/(1-b2*b2)
			want := w1[i] - 0.01*mh/(math.Sqrt(vh)+1e-8)
			if got := w.Value().Float64s()[i]; math.Abs(got-want) > tolerance(dt)*(1+math.Abs(want)) {
				t.Errorf("Adam step 2, element %d: %v, want %v", i, got, want)
			}
		}
	})
	t.Run("AdamW", func(t *testing.T) {
		tr, w := oneParamOf(t, dt, train.NewAdamW(0.01, 0.1))
		tr.Step(zeroTargetOf(dt))
		// Adam's step plus the decoupled decay lr·wd·w0.
		checkW(t, w, 1-0.01/(1+1e-8)-0.001*1, -2+0.02/(2+1e-8)+0.001*2)
	})
	t.Run("L2", func(t *testing.T) {
		tr, w := oneParamOf(t, dt, train.NewSGD(0.1), train.NewL2(0.5))
		tr.Step(zeroTargetOf(dt)) // g = w + 0.5w = 1.5w
		checkW(t, w, 0.85, -1.7)
	})
	t.Run("WeightDecay", func(t *testing.T) {
		tr, w := oneParamOf(t, dt, train.NewSGD(0.1), train.NewWeightDecay(0.5))
		tr.Step(zeroTargetOf(dt)) // w -= 0.1·w + 0.1·0.5·w, w as before the step (DL4J)
		checkW(t, w, 0.85, -1.7)
	})
}

func TestSchedules(t *testing.T) {
	s := train.Step{Initial: 1, Decay: 0.5, Step: 10}
	if s.Value(9, 0) != 1 || s.Value(10, 0) != 0.5 || s.Value(25, 0) != 0.25 {
		t.Errorf("step schedule: %v %v %v", s.Value(9, 0), s.Value(10, 0), s.Value(25, 0))
	}
	e := train.Exponential{Initial: 2, Gamma: 0.5, By: train.ByEpoch}
	if e.Value(100, 0) != 2 || e.Value(100, 2) != 0.5 {
		t.Errorf("exponential schedule by epoch: %v %v", e.Value(100, 0), e.Value(100, 2))
	}
	// A schedule drives the learning rate of a step.
	tr, w := oneParam(t, &train.SGD{LR: train.Step{Initial: 0.1, Decay: 0.5, Step: 1}})
	tr.Step(zeroTarget()) // lr 0.1
	tr.Step(zeroTarget()) // lr 0.05
	checkW(t, w, 0.9*0.95, -1.8*0.95)
}

func TestConfigJSON(t *testing.T) {
	cfg := &train.Config{
		Updater:        &train.Adam{LR: train.Exponential{Initial: 0.01, Gamma: 0.99}, Beta1: 0.9, Beta2: 0.999, Epsilon: 1e-8},
		Regularization: []train.Regularization{train.NewL2(1e-4), train.NewWeightDecay(0.01)},
		Features:       []string{"x"}, Labels: []string{"y"}, Losses: []string{"loss"},
		IterationCount: 7, EpochCount: 2,
	}
	js, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"@class":"org.nd4j.linalg.learning.config.Adam"`, `"dataSetFeatureMapping":["x"]`,
		`"dataSetLabelMapping":["y"]`, `"lossVariables":["loss"]`, `"iterationCount":7`, `"epochCount":2`,
		`"org.nd4j.linalg.learning.regularization.L2Regularization"`, `"org.nd4j.linalg.schedule.ExponentialSchedule"`} {
		if !strings.Contains(string(js), want) {
			t.Errorf("JSON lacks %s: %s", want, js)
		}
	}
	var back train.Config
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	js2, _ := json.Marshal(&back)
	if string(js) != string(js2) {
		t.Errorf("round trip changed the JSON:\n%s\n%s", js, js2)
	}
	// A SameDiff file's configuration, as Java writes it.
	java := `{"updater":{"@class":"org.nd4j.linalg.learning.config.Nesterovs","learningRate":0.1,"learningRateSchedule":null,"momentum":0.9,"momentumISchedule":null},` +
		`"regularization":[],"minimize":true,"dataSetFeatureMapping":["in"],"dataSetLabelMapping":["label"],"dataSetFeatureMaskMapping":null,` +
		`"dataSetLabelMaskMapping":null,"lossVariables":["loss"],"iterationCount":0,"epochCount":0,"initialLossDataType":"FLOAT","trainEvaluations":{},` +
		`"trainEvaluationLabels":{},"validationEvaluations":{},"validationEvaluationLabels":{}}`
	var jc train.Config
	if err := json.Unmarshal([]byte(java), &jc); err != nil {
		t.Fatal(err)
	}
	m, ok := jc.Updater.(*train.Momentum)
	if !ok || !m.Nesterov || m.Momentum != 0.9 || m.LearningRate(0, 0) != 0.1 || jc.Features[0] != "in" {
		t.Errorf("parsed %+v / %+v", jc, jc.Updater)
	}
	if err := json.Unmarshal([]byte(`{"updater":{"@class":"org.nd4j.linalg.learning.config.AdaGrad"}}`), &jc); err == nil {
		t.Error("unknown updater accepted")
	}
}

func TestConfigErrors(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, -1, 2)
	w := g.Var("w", ndarray.Must(ndarray.Zeros(ndarray.Float64, 2, 1)))
	loss := x.MatMul(w).Mean().Named("loss")
	_ = loss
	cases := []struct {
		cfg  *train.Config
		want string
	}{
		{&train.Config{Features: []string{"x"}, Losses: []string{"loss"}}, "no updater"},
		{&train.Config{Updater: train.NewSGD(-1), Features: []string{"x"}, Losses: []string{"loss"}}, "positive"},
		{&train.Config{Updater: train.NewSGD(0.1), Losses: []string{"loss"}}, "feature"},
		{&train.Config{Updater: train.NewSGD(0.1), Features: []string{"nope"}, Losses: []string{"loss"}}, `"nope"`},
		{&train.Config{Updater: train.NewSGD(0.1), Features: []string{"x"}}, "loss"},
		{&train.Config{Updater: train.NewSGD(0.1), Features: []string{"x"}, Losses: []string{"loss"}, Trainable: []string{"x"}}, `"x"`},
	}
	for _, c := range cases {
		_, err := train.New(g, c.cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("config %+v: error %v, want one mentioning %s", c.cfg, err, c.want)
		}
	}
}

// mlp builds a 2-h-h-2 tanh MLP with a softmax cross-entropy loss.
func mlp(dt ndarray.DType, h int, seed uint64) *graph.Graph {
	rng := rand.New(rand.NewPCG(seed, 7))
	g := graph.New()
	x := g.Placeholder("x", dt, -1, 2)
	y := g.Placeholder("y", dt, -1, 2)
	init := func(in, out int) *ndarray.Array {
		return ndarray.Must(ndarray.RandNormal(rng, dt, 0, math.Sqrt(1/float64(in)), in, out))
	}
	zeros := func(n int) *ndarray.Array { return ndarray.Must(ndarray.Zeros(dt, n)) }
	h1 := g.Math().Tanh(x.MatMul(g.Var("w1", init(2, h))).Add(g.Var("b1", zeros(h))))
	h2 := g.Math().Tanh(h1.MatMul(g.Var("w2", init(h, h))).Add(g.Var("b2", zeros(h))))
	logits := h2.MatMul(g.Var("w3", init(h, 2))).Add(g.Var("b3", zeros(2))).Named("logits")
	loss := g.Loss().SoftmaxCrossEntropy(y, logits).Named("loss")
	if err := g.SetLoss(loss.Name()); err != nil {
		panic(err)
	}
	if err := g.Err(); err != nil {
		panic(err)
	}
	return g
}

type recorder struct {
	iters, epochs int
	stopAt        int
}

func (r *recorder) IterationDone(e *train.IterationEvent) error {
	r.iters++
	if r.stopAt > 0 && r.iters == r.stopAt {
		return fmt.Errorf("stop requested")
	}
	return nil
}
func (r *recorder) EpochDone(e *train.EpochEvent) error { r.epochs++; return nil }

// A 2-layer MLP trained with Adam learns the two spirals.
func TestSpirals(t *testing.T) {
	for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
		rng := rand.New(rand.NewPCG(3, 4))
		f, l := spirals(t, rng, 200, 0.01, dt)
		data, err := train.NewArrayIterator([]*ndarray.Array{f}, []*ndarray.Array{l}, 32, rng)
		if err != nil {
			t.Fatal(err)
		}
		g := mlp(dt, 32, 1)
		tr, err := train.New(g, &train.Config{Updater: train.NewAdam(0.01), Features: []string{"x"}, Labels: []string{"y"}, Losses: []string{"loss"}})
		if err != nil {
			t.Fatal(err)
		}
		rec := &recorder{}
		h, err := tr.Fit(data, 150, rec)
		if err != nil {
			t.Fatal(err)
		}
		if rec.epochs != 150 || rec.iters != 150*data.Batches() || len(h.Loss) != rec.iters || len(h.EpochLoss) != 150 {
			t.Errorf("events: %d epochs, %d iterations, history %d/%d", rec.epochs, rec.iters, len(h.Loss), len(h.EpochLoss))
		}
		if !(h.EpochLoss[149] < h.EpochLoss[0]/5) {
			t.Errorf("%v: loss went from %v to %v", dt, h.EpochLoss[0], h.EpochLoss[149])
		}
		ev, err := tr.Evaluate(data, "logits")
		if err != nil {
			t.Fatal(err)
		}
		if ev.Accuracy() < 0.95 || ev.Total != 400 {
			t.Errorf("%v: accuracy %.3f on %d examples", dt, ev.Accuracy(), ev.Total)
		}
		if tr.Config().EpochCount != 150 || tr.Config().IterationCount != rec.iters {
			t.Errorf("counters %d/%d", tr.Config().EpochCount, tr.Config().IterationCount)
		}
		// The configuration and the updater state are in the graph, for saving.
		meta, _ := g.GetMeta(graph.MetaTrainingConfig)
		js, err := graph.MetaJSON(meta)
		if err != nil || !strings.Contains(js, `"epochCount":150`) {
			t.Errorf("training config meta: %v", js)
		}
		back, err := train.ConfigOf(g)
		if err != nil || back.EpochCount != 150 || back.Features[0] != "x" || back.Updater.Name() != "Adam" {
			t.Errorf("ConfigOf: %+v, %v", back, err)
		}
		st, _ := g.GetMeta(graph.MetaUpdaterState)
		if m := st.(map[string]map[string]*ndarray.Array); m["w1"]["M"] == nil || m["w1"]["V"] == nil {
			t.Errorf("updater state meta lacks w1's M and V")
		}
	}
}

func TestListenerStopsAndProgress(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	f, l := spirals(t, rng, 50, 0.01, ndarray.Float32)
	data, _ := train.NewArrayIterator([]*ndarray.Array{f}, []*ndarray.Array{l}, 10, nil)
	g := mlp(ndarray.Float32, 8, 1)
	tr, err := train.New(g, &train.Config{Updater: train.NewSGD(0.1), Features: []string{"x"}, Labels: []string{"y"}})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	h, err := tr.Fit(data, 3, train.NewProgress(&buf), &recorder{stopAt: 25})
	if err == nil || !strings.Contains(err.Error(), "stop requested") || len(h.Loss) != 25 {
		t.Errorf("stop: %v after %d steps", err, len(h.Loss))
	}
	out := buf.String()
	if strings.Count(out, "\n") != 2 || !strings.Contains(out, "epoch 1/3") || !strings.Contains(out, "loss ") || strings.Contains(out, "\r") {
		t.Errorf("plain progress output:\n%s", out)
	}
}

// Trained arrays are copies: what the caller passed in is never changed.
func TestCallerArraysUntouched(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 2)
	init := ndarray.Must(ndarray.FromSlice([]float64{1, 2}))
	w := g.Var("w", init)
	g.Math().Square(w.Sub(x)).Sum().Named("loss")
	tr, err := train.New(g, &train.Config{Updater: train.NewSGD(0.1), Features: []string{"x"}, Losses: []string{"loss"}})
	if err != nil {
		t.Fatal(err)
	}
	tr.Step(zeroTarget())
	if init.Float64s()[0] != 1 || w.Value().Float64s()[0] == 1 {
		t.Errorf("init %v, trained %v", init, w.Value())
	}
}

// L2 adds to each gradient; gradients that share a buffer (add's gradient
// hands one array to both operands) or that are a feed must each get their
// own term and leave the feed alone.
func TestL2WithSharedGradients(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 2)
	a := g.Var("a", ndarray.Must(ndarray.FromSlice([]float64{1, 2})))
	b := g.Var("b", ndarray.Must(ndarray.FromSlice([]float64{3, 4})))
	c := g.Var("c", ndarray.Must(ndarray.FromSlice([]float64{5, 6})))
	// loss = Σ (a+b)·x + Σ c·x: the gradients of a and b are both x, and
	// c's is x too.
	a.Add(b).Mul(x).Sum().Add(c.Mul(x).Sum()).Named("loss")
	tr, err := train.New(g, &train.Config{Updater: train.NewSGD(1), Regularization: []train.Regularization{train.NewL2(1)},
		Features: []string{"x"}, Losses: []string{"loss"}})
	if err != nil {
		t.Fatal(err)
	}
	feed := ndarray.Must(ndarray.FromSlice([]float64{1, 1}))
	if _, err := tr.Step(&train.Batch{Features: []*ndarray.Array{feed}}); err != nil {
		t.Fatal(err)
	}
	// p ← p - (x + p) = -x for every parameter.
	checkW(t, a, -1, -1)
	checkW(t, b, -1, -1)
	checkW(t, c, -1, -1)
	if got := feed.Float64s(); got[0] != 1 || got[1] != 1 {
		t.Errorf("the feed changed to %v", got)
	}
}

// An array a session handed out stays as it was when a training step then
// updates the variable it came from: the trainer updates its variables'
// arrays in place (each updater in its own loop), and exec copies outputs on
// them, from any session, the trainer's own included.
func TestStepLeavesEarlierOutputsAlone(t *testing.T) {
	for _, u := range []train.Updater{train.NewSGD(0.1), train.NewMomentum(0.1, 0.9, false), train.NewMomentum(0.1, 0.9, true),
		train.NewAdam(0.1), train.NewAdamW(0.1, 0.1)} {
		g := graph.New()
		x := g.Placeholder("x", ndarray.Float64, -1, 1)
		y := g.Placeholder("y", ndarray.Float64, -1, 1)
		w := g.Var("w", ndarray.Must(ndarray.FromSlice([]float64{1}, 1, 1)))
		w.Reshape(1).Named("wview")
		g.Loss().MeanSquaredError(y, x.MatMul(w)).Named("loss")
		tr, err := train.New(g, &train.Config{Updater: u, Regularization: []train.Regularization{train.NewWeightDecay(0.1)},
			Features: []string{"x"}, Labels: []string{"y"}, Losses: []string{"loss"}})
		if err != nil {
			t.Fatal(err)
		}
		before, err := exec.New(g).Output(nil, "w", "wview")
		if err != nil {
			t.Fatal(err)
		}
		own, err := tr.Session().Output(nil, "w", "wview")
		if err != nil {
			t.Fatal(err)
		}
		b := &train.Batch{Features: []*ndarray.Array{ndarray.Must(ndarray.FromSlice([]float64{1}, 1, 1))},
			Labels: []*ndarray.Array{ndarray.Must(ndarray.FromSlice([]float64{3}, 1, 1))}}
		if _, err := tr.Step(b); err != nil {
			t.Fatal(err)
		}
		if got := w.Value().Float64s()[0]; got == 1 {
			t.Errorf("%s: w did not change", u.Name())
		} else if _, sgd := u.(*train.SGD); sgd && math.Abs(got-1.39) > 1e-12 { // 1 - 0.1·2(1-3) - 0.1·0.1·1
			t.Errorf("w after one SGD step = %v, want 1.39", got)
		}
		for _, m := range []map[string]*ndarray.Array{before, own} {
			for _, n := range []string{"w", "wview"} {
				if got := m[n].Float64s()[0]; got != 1 {
					t.Errorf("%s: the output %q fetched before the step changed to %v", u.Name(), n, got)
				}
			}
		}
	}
}

// Evaluating on the training iterator between Fit calls leaves the order of
// the following epochs alone: the two trainings, one with an evaluation in
// between, end with the same weights. Evaluate's Reset drew a new shuffle
// from the iterator's random source, so the training after it saw other
// batches than it would have.
func TestEvaluateKeepsTheShuffle(t *testing.T) {
	run := func(evaluate bool) map[string]*ndarray.Array {
		rng := rand.New(rand.NewPCG(7, 8))
		f, l := spirals(t, rng, 40, 0.01, ndarray.Float64)
		data, err := train.NewArrayIterator([]*ndarray.Array{f}, []*ndarray.Array{l}, 16, rng)
		if err != nil {
			t.Fatal(err)
		}
		g := mlp(ndarray.Float64, 8, 1)
		tr, err := train.New(g, &train.Config{Updater: train.NewAdam(0.01), Features: []string{"x"}, Labels: []string{"y"}, Losses: []string{"loss"}})
		if err != nil {
			t.Fatal(err)
		}
		if evaluate {
			// Before any training, too.
			if _, err := tr.Evaluate(data, "logits"); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := tr.Fit(data, 2); err != nil {
			t.Fatal(err)
		}
		if evaluate {
			ev, err := tr.Evaluate(data, "logits")
			if err != nil {
				t.Fatal(err)
			}
			if ev.Total != 80 {
				t.Errorf("evaluation over %d examples, want 80", ev.Total)
			}
		}
		if _, err := tr.Fit(data, 2); err != nil {
			t.Fatal(err)
		}
		return weights(g)
	}
	sameWeights(t, "trained with evaluations in between", run(false), run(true))
}

// spirals is train.Spirals for tests and benchmarks, which t (nil: panic)
// fails on an error.
func spirals(t testing.TB, rng *rand.Rand, n int, noise float64, dt ndarray.DType) (f, l *ndarray.Array) {
	f, l, err := train.Spirals(rng, n, noise, dt)
	if err != nil {
		if t == nil {
			panic(err)
		}
		t.Fatal(err)
	}
	return f, l
}

// Spirals of a dtype that cannot hold them, or of a negative count, is an
// error (it gave nil arrays, and no error, for a dtype Cast refuses).
func TestSpiralsRefusesBadArguments(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, c := range []struct {
		n  int
		dt ndarray.DType
	}{{10, ndarray.UTF8}, {10, ndarray.Int32}, {-1, ndarray.Float32}} {
		if f, l, err := train.Spirals(rng, c.n, 0.01, c.dt); err == nil || f != nil || l != nil {
			t.Errorf("Spirals(%d, %v): %v, %v, %v; want an error", c.n, c.dt, f, l, err)
		}
	}
}

// A configuration that asks for what the trainer cannot do (maximizing the
// loss, masks, an older SameDiff's l1/l2 coefficients) is refused when read,
// naming the field: read as if those fields were absent, it trained the
// other way, or without the regularization, without a word.
func TestConfigJSONRefusesWhatItCannotTrain(t *testing.T) {
	const base = `{"updater":{"@class":"org.nd4j.linalg.learning.config.Sgd","learningRate":0.1},"dataSetFeatureMapping":["in"],` +
		`"dataSetLabelMapping":["label"],"lossVariables":["loss"],"iterationCount":3,"epochCount":1`
	for _, c := range []struct{ extra, want string }{
		{`"minimize":false`, "minimize false"},
		{`"dataSetFeatureMaskMapping":["m"]`, `feature mask placeholders ["m"]`},
		{`"dataSetLabelMaskMapping":["lm"]`, `label mask placeholders ["lm"]`},
		{`"l2":0.001`, "l2 0.001"},
		{`"l1":0.5`, "l1 0.5"},
	} {
		var cfg train.Config
		err := json.Unmarshal([]byte(base+","+c.extra+"}"), &cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "3 iterations") {
			t.Errorf("%s: error %v, want one saying %s and the counters", c.extra, err, c.want)
		}
	}
	for _, ok := range []string{`"minimize":true`, `"dataSetFeatureMaskMapping":null,"dataSetLabelMaskMapping":[]`, `"l1":0,"l2":0.0`} {
		var cfg train.Config
		if err := json.Unmarshal([]byte(base+","+ok+"}"), &cfg); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
}

// WriteCSV: a line per step with its epoch, then a line per epoch mean.
func TestHistoryCSV(t *testing.T) {
	h := &train.History{Loss: []float64{1.5, 1, 0.75, 0.25}, EpochLoss: []float64{1.25, 0.5}}
	var b strings.Builder
	if err := h.WriteCSV(&b, 2); err != nil {
		t.Fatal(err)
	}
	want := "iteration,epoch,loss,epoch_mean_loss\n1,1,1.5,\n2,1,1,\n3,2,0.75,\n4,2,0.25,\n,1,,1.25\n,2,,0.5\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
