package train_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/serialize"
	"github.com/sdgo/sdgo/train"
)

// javaReload saves g in the Java-compatible mode with its updater state,
// checks that SameDiff (Java) would load every part of the file, and loads
// it back.
func javaReload(t *testing.T, g *graph.Graph) *graph.Graph {
	t.Helper()
	buf, err := serialize.Encode(g, &serialize.SaveOptions{UpdaterState: true, Java: true})
	if err != nil {
		t.Fatal(err)
	}
	found, err := serialize.CheckJava(buf)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range serialize.Blockers(found) {
		t.Errorf("saved for Java: %v", f)
	}
	g2, err := serialize.Decode(buf)
	if err != nil {
		t.Fatal(err)
	}
	return g2
}

// Training configurations with every updater ND4J has a class for and every
// schedule, saved for Java, pass the checker and resume in sdgo bit for bit
// where uninterrupted training ends: AdamW travels as ND4J's Adam plus a
// WeightDecay regularization scaled by the learning rate, which takes off
// the same lr·wd·p.
func TestJavaConfigResumes(t *testing.T) {
	data := spiralBatches(ndarray.Float64)
	mk := func(u train.Updater, r ...train.Regularization) func() *train.Config {
		return func() *train.Config {
			return &train.Config{Updater: u, Regularization: r, Features: []string{"x"}, Labels: []string{"y"}, Losses: []string{"loss"}}
		}
	}
	cases := map[string]func() *train.Config{
		"Adam":                  mk(train.NewAdam(0.01)),
		"AdamW":                 mk(train.NewAdamW(0.01, 0.05)),
		"AdamW+L2+WeightDecay":  mk(train.NewAdamW(0.01, 0.05), train.NewL2(1e-3), &train.WeightDecay{Coeff: train.Fixed(1e-2)}),
		"Nesterovs":             mk(train.NewMomentum(0.05, 0.9, true)),
		"Sgd":                   mk(train.NewSGD(0.1)),
		"step":                  mk(&train.SGD{LR: train.Step{Initial: 0.1, Decay: 0.7, Step: 3}}),
		"exponential by epoch":  mk(&train.SGD{LR: train.Exponential{Initial: 0.1, Gamma: 0.9, By: train.ByEpoch}}),
		"inverse":               mk(&train.SGD{LR: train.Inverse{Initial: 0.1, Gamma: 0.2, Power: 2}}),
		"map":                   mk(&train.SGD{LR: train.Map{Values: map[int]float64{0: 0.1, 5: 0.05}}}),
		"poly":                  mk(&train.SGD{LR: train.Poly{Initial: 0.1, Power: 2, MaxIter: 30}}),
		"sigmoid":               mk(&train.SGD{LR: train.Sigmoid{Initial: 0.1, Gamma: 0.5, StepSize: 4}}),
		"cycle":                 mk(&train.SGD{LR: train.NewCycle(train.ByIteration, 0.2, 10)}),
		"cosine warm-up":        mk(&train.SGD{LR: train.CosineWarmup{Max: 0.1, Min: 0.01, WarmupSteps: 3, TotalSteps: 12}}),
		"Nesterovs/step+L2":     mk(&train.Momentum{LR: train.Step{Initial: 0.1, Decay: 0.5, Step: 1, By: train.ByEpoch}, Momentum: 0.9, Nesterov: true}, train.NewL2(1e-3)),
		"Sgd/WeightDecay(step)": mk(train.NewSGD(0.1), &train.WeightDecay{Coeff: train.Step{Initial: 1e-2, Decay: 0.5, Step: 2}, ApplyLR: true}),
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			want := weights(fit(t, mlp(ndarray.Float64, 4, 1), c(), data, 2))
			g2 := javaReload(t, fit(t, mlp(ndarray.Float64, 4, 1), c(), data, 1))
			cfg, err := train.ConfigOf(g2)
			if err != nil {
				t.Fatal(err)
			}
			sameWeights(t, name+" resumed from a Java-compatible file", want, weights(fit(t, g2, cfg, data, 1)))
		})
	}
}

// AdamW is written as ND4J writes Adam with weight decay: the Adam class
// without a weightDecay field, and a WeightDecay regularization (applyLR
// true, the coefficient a FixedSchedule) after the configuration's own.
func TestAdamWJSONIsND4JAdamAndWeightDecay(t *testing.T) {
	cfg := &train.Config{Updater: train.NewAdamW(0.01, 0.05), Regularization: []train.Regularization{train.NewL2(1e-3)}, Features: []string{"x"}}
	b, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var j struct {
		Updater        map[string]any   `json:"updater"`
		Regularization []map[string]any `json:"regularization"`
	}
	if err := json.Unmarshal(b, &j); err != nil {
		t.Fatal(err)
	}
	if j.Updater["@class"] != "org.nd4j.linalg.learning.config.Adam" || j.Updater["weightDecay"] != nil {
		t.Errorf("updater %v, want ND4J's Adam without weightDecay", j.Updater)
	}
	if len(j.Regularization) != 2 {
		t.Fatalf("regularization %v, want L2 then WeightDecay", j.Regularization)
	}
	wd := j.Regularization[1]
	coeff, _ := wd["coeff"].(map[string]any)
	if wd["@class"] != "org.nd4j.linalg.learning.regularization.WeightDecay" || wd["applyLR"] != true ||
		coeff["@class"] != "org.nd4j.linalg.schedule.FixedSchedule" || coeff["value"] != 0.05 {
		t.Errorf("weight decay %v, want WeightDecay{coeff FixedSchedule 0.05, applyLR true}", wd)
	}
	if len(cfg.Regularization) != 1 {
		t.Errorf("marshalling changed the configuration's regularization: %v", cfg.Regularization)
	}
	// A file an earlier sdgo wrote with its AdamW class still reads.
	old := `{"updater":{"@class":"org.nd4j.linalg.learning.config.AdamW","learningRate":0.01,"beta1":0.9,"beta2":0.999,"epsilon":1e-8,"weightDecay":0.05},` +
		`"dataSetFeatureMapping":["x"]}`
	var c2 train.Config
	if err := json.Unmarshal([]byte(old), &c2); err != nil {
		t.Fatal(err)
	}
	if a, ok := c2.Updater.(*train.Adam); !ok || a.WeightDecay != 0.05 {
		t.Errorf("old AdamW configuration read as %#v", c2.Updater)
	}
}

type halfLife struct{}

func (halfLife) Value(it, _ int) float64 { return 0.1 / float64(it+1) }

// What ND4J's classes cannot express fails a Java-compatible save, naming
// the setting; sdgo's own files keep it.
func TestJavaSaveRefusesConfigsND4JLacks(t *testing.T) {
	for _, c := range []struct {
		u    train.Updater
		want string
	}{
		{train.NewMomentum(0.1, 0.9, false), "classic momentum (momentum 0.9"},
		{&train.SGD{LR: halfLife{}}, "Go type train_test.halfLife"},
		// ND4J's RampSchedule has no constructor Jackson can call.
		{&train.SGD{LR: train.Ramp{Base: halfLife{}, NumIter: 3}}, "Ramp schedule (numIter 3)"},
		{&train.Adam{LR: train.Ramp{Base: train.Step{Initial: 0.01, Decay: 0.5, Step: 4}, NumIter: 5}, Beta1: 0.9, Beta2: 0.999, Epsilon: 1e-8}, "Ramp schedule (numIter 5)"},
	} {
		g := mlp(ndarray.Float64, 4, 1)
		cfg := &train.Config{Updater: c.u, Features: []string{"x"}, Labels: []string{"y"}, Losses: []string{"loss"}}
		if _, err := train.New(g, cfg); err != nil {
			t.Fatal(err)
		}
		_, err := serialize.Encode(g, &serialize.SaveOptions{Java: true})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "saving for Java") {
			t.Errorf("%s: Java-compatible save: error %v, want one naming %q", c.u.Name(), err, c.want)
		}
		if _, err := serialize.Encode(g, nil); err != nil {
			t.Errorf("%s: native save: %v", c.u.Name(), err)
		}
	}
}
