package train_test

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/train"
)

type schedPoint struct {
	it, ep int
	want   float64
}

// Values worked out by hand from ND4J's valueAt formulas.
var nd4jSchedules = []struct {
	name string
	s    train.Schedule
	pts  []schedPoint
}{
	// 0.1/(1 + 0.5·t)²: t = 2 gives 0.1/4.
	{"inverse", train.Inverse{Initial: 0.1, Gamma: 0.5, Power: 2}, []schedPoint{{0, 9, 0.1}, {2, 0, 0.025}, {6, 0, 0.00625}}},
	// By epoch: 0.1/(1 + 1·3)^1.
	{"inverse by epoch", train.Inverse{Initial: 0.1, Gamma: 1, Power: 1, By: train.ByEpoch}, []schedPoint{{50, 3, 0.025}}},
	{"map", train.Map{Values: map[int]float64{0: 1, 10: 0.5, 20: 0.2}},
		[]schedPoint{{0, 0, 1}, {9, 0, 1}, {10, 0, 0.5}, {15, 0, 0.5}, {20, 0, 0.2}, {25, 0, 0.2}}},
	{"map by epoch", train.Map{Values: map[int]float64{0: 1, 2: 0.5}, By: train.ByEpoch}, []schedPoint{{100, 1, 1}, {0, 2, 0.5}}},
	// 0.1·(1 + t/10)² below 10, 0 from 10: t = 5 gives 0.1·2.25.
	{"poly", train.Poly{Initial: 0.1, Power: 2, MaxIter: 10}, []schedPoint{{0, 0, 0.1}, {5, 0, 0.225}, {10, 0, 0}, {11, 0, 0}}},
	// 1/(1 + e^(-0.5·(t-4))): ½ at 4, 1/(1+e^-1) = 0.7310585786300049 at
	// 6, 1/(1+e) = 0.2689414213699951 at 2.
	{"sigmoid", train.Sigmoid{Initial: 1, Gamma: 0.5, StepSize: 4}, []schedPoint{{4, 0, 0.5}, {6, 0, 0.7310585786300049}, {2, 0, 0.2689414213699951}}},
	// Cycle of 12, annealing 2: step size (12-2)/2 = 5, increment
	// (1-0.1)/5 = 0.18; up 0.1, 0.64 at 3, 1 at 5; down 0.64 at 7;
	// annealing 0.1·0.1^(2-(12-10)) = 0.1 at 10, 0.1·0.1^(2-1) = 0.01 at
	// 11; again from 12.
	{"cycle", train.Cycle{Initial: 0.1, Max: 1, CycleLength: 12, AnnealingLength: 2, AnnealingDecay: 0.1},
		[]schedPoint{{0, 0, 0.1}, {3, 0, 0.64}, {5, 0, 1}, {7, 0, 0.64}, {9, 0, 0.28}, {10, 0, 0.1}, {11, 0, 0.01}, {12, 0, 0.1}, {15, 0, 0.64}}},
	// NewCycle(max 2, length 20): initial 0.2, annealing round(2) = 2 with
	// decay 0.1, step size 9, increment 1.8/9 = 0.2: 1.0 at 4, 2 at 9.
	{"cycle defaults", train.NewCycle(train.ByEpoch, 2, 20), []schedPoint{{0, 4, 1.0}, {0, 9, 2}, {0, 19, 0.02}}},
	// Ramp over 4 iterations of 0.4: 0.1, 0.2, 0.3, then 0.4.
	{"ramp", train.Ramp{Base: train.Fixed(0.4), NumIter: 4}, []schedPoint{{0, 0, 0.1}, {1, 0, 0.2}, {2, 0, 0.3}, {3, 0, 0.4}, {10, 0, 0.4}}},
	// Ramp of a step schedule: at 1, (2/4)·0.4·0.5^floor(1/1).
	{"ramp of step", train.Ramp{Base: train.Step{Initial: 0.4, Decay: 0.5, Step: 1}, NumIter: 4}, []schedPoint{{1, 0, 0.1}, {3, 0, 0.05}}},
	// Warm-up 2 then cosine to 6, from 1 to 0.1: 0, 0.5 during the
	// warm-up; 1 at 2; at 3 p = 1/4, 0.1 + 0.45·(1 + cos(π/4)) =
	// 0.8681980515339464; at 4 p = ½, 0.1 + 0.45 = 0.55; 0.1 from 6.
	{"cosine warm-up", train.CosineWarmup{Max: 1, Min: 0.1, WarmupSteps: 2, TotalSteps: 6},
		[]schedPoint{{0, 0, 0}, {1, 0, 0.5}, {2, 0, 1}, {3, 0, 0.8681980515339464}, {4, 0, 0.55}, {6, 0, 0.1}, {100, 0, 0.1}}},
	// Plain cosine from 0.2 to 0 over 4: 0.2, 0.1·(1 + cos(π/4)) =
	// 0.17071067811865476, 0.1, ..., 0.
	{"cosine", train.CosineWarmup{Max: 0.2, TotalSteps: 4}, []schedPoint{{0, 0, 0.2}, {1, 0, 0.17071067811865476}, {2, 0, 0.1}, {4, 0, 0}}},
}

func TestND4JSchedules(t *testing.T) {
	for _, c := range nd4jSchedules {
		for _, p := range c.pts {
			if got := c.s.Value(p.it, p.ep); math.Abs(got-p.want) > 1e-12 {
				t.Errorf("%s at iteration %d, epoch %d: %v, want %v", c.name, p.it, p.ep, got, p.want)
			}
		}
	}
}

// Each schedule is written under ND4J's class and field names, and read
// back to the same values.
func TestND4JSchedulesJSON(t *testing.T) {
	want := map[string]string{
		"inverse": `{"@class":"org.nd4j.linalg.schedule.InverseSchedule","gamma":0.5,"initialValue":0.1,"power":2,"scheduleType":"ITERATION"}`,
		"map":     `{"@class":"org.nd4j.linalg.schedule.MapSchedule","scheduleType":"ITERATION","values":{"0":1,"10":0.5,"20":0.2}}`,
		"poly":    `{"@class":"org.nd4j.linalg.schedule.PolySchedule","initialValue":0.1,"maxIter":10,"power":2,"scheduleType":"ITERATION"}`,
		"sigmoid": `{"@class":"org.nd4j.linalg.schedule.SigmoidSchedule","gamma":0.5,"initialValue":1,"scheduleType":"ITERATION","stepSize":4}`,
		"cycle": `{"@class":"org.nd4j.linalg.schedule.CycleSchedule","annealingDecay":0.1,"annealingLength":2,"cycleLength":12,` +
			`"initialLearningRate":0.1,"maxLearningRate":1,"scheduleType":"ITERATION"}`,
		"ramp of step": `{"@class":"org.nd4j.linalg.schedule.RampSchedule","baseSchedule":{"@class":"org.nd4j.linalg.schedule.StepSchedule",` +
			`"decayRate":0.5,"initialValue":0.4,"scheduleType":"ITERATION","step":1},"numIter":4}`,
		"cosine warm-up": `{"@class":"org.nd4j.linalg.schedule.CosineWarmupSchedule","maxLR":1,"minLR":0.1,"totalSteps":6,"warmupSteps":2}`,
	}
	for _, c := range nd4jSchedules {
		js, err := json.Marshal(&train.Config{Updater: &train.SGD{LR: c.s}, Features: []string{"x"}})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if w, ok := want[c.name]; ok {
			var j struct {
				Updater struct {
					Schedule json.RawMessage `json:"learningRateSchedule"`
				} `json:"updater"`
			}
			if err := json.Unmarshal(js, &j); err != nil {
				t.Fatal(err)
			}
			if string(j.Updater.Schedule) != w {
				t.Errorf("%s written as\n%s\nwant\n%s", c.name, j.Updater.Schedule, w)
			}
		}
		var back train.Config
		if err := json.Unmarshal(js, &back); err != nil {
			t.Fatalf("%s: reading %s: %v", c.name, js, err)
		}
		for _, p := range c.pts {
			if got := back.Updater.LearningRate(p.it, p.ep); math.Abs(got-p.want) > 1e-12 {
				t.Errorf("%s read back, at %d, %d: %v, want %v", c.name, p.it, p.ep, got, p.want)
			}
		}
	}
}

// A schedule with fields ND4J refuses is refused by New (and when read),
// with an error naming the schedule; a warm-up starting at 0 is allowed.
func TestND4JScheduleErrors(t *testing.T) {
	cases := []struct {
		s    train.Schedule
		want string
	}{
		{train.Map{Values: map[int]float64{5: 1, 10: 0.5}}, "Map schedule needs a value at 0 (its keys: [5 10])"},
		{train.Cycle{Initial: 1, Max: 0.5, CycleLength: 10}, "Cycle schedule's initial value 1 is above its maximum 0.5"},
		{train.Cycle{Initial: 0.1, Max: 1}, "Cycle schedule's cycle length 0"},
		{train.Cycle{Initial: 0.1, Max: 1, CycleLength: 4, AnnealingLength: 5}, "annealing length 5"},
		{train.Ramp{NumIter: 3}, "Ramp schedule has no base"},
		{train.CosineWarmup{Max: 0, TotalSteps: 3}, "CosineWarmup schedule's maximum 0"},
		{train.CosineWarmup{Max: 1, Min: 2, TotalSteps: 3}, "minimum 2"},
	}
	for _, c := range cases {
		_, err := train.New(tinyGraph(), &train.Config{Updater: &train.SGD{LR: c.s}, Features: []string{"x"}, Losses: []string{"loss"}})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "Sgd learning rate") {
			t.Errorf("%+v: New error %v, want %q", c.s, err, c.want)
		}
		_, err = train.New(tinyGraph(), &train.Config{Updater: train.NewSGD(0.1), Regularization: []train.Regularization{&train.L2{Coeff: c.s}},
			Features: []string{"x"}, Losses: []string{"loss"}})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v as an L2 coefficient: New error %v, want %q", c.s, err, c.want)
		}
	}
	if _, err := train.New(tinyGraph(), &train.Config{Updater: &train.SGD{LR: train.CosineWarmup{Max: 1, WarmupSteps: 5, TotalSteps: 10}},
		Features: []string{"x"}, Losses: []string{"loss"}}); err != nil {
		t.Errorf("a warm-up from 0: %v", err)
	}
	var c train.Config
	err := json.Unmarshal([]byte(`{"updater":{"@class":"org.nd4j.linalg.learning.config.Sgd","learningRate":0.1,"learningRateSchedule":`+
		`{"@class":"org.nd4j.linalg.schedule.MapSchedule","scheduleType":"EPOCH","values":{"3":0.5}}},"dataSetFeatureMapping":["x"]}`), &c)
	if err == nil || !strings.Contains(err.Error(), "needs a value at 0") {
		t.Errorf("reading a map without 0: %v", err)
	}
	err = json.Unmarshal([]byte(`{"updater":{"@class":"org.nd4j.linalg.learning.config.Sgd","learningRate":0.1,"learningRateSchedule":`+
		`{"@class":"org.nd4j.linalg.schedule.MapSchedule","scheduleType":"EPOCH","values":{"0":0.5,"x":1}}},"dataSetFeatureMapping":["x"]}`), &c)
	if err == nil || !strings.Contains(err.Error(), `entry "x"`) {
		t.Errorf("reading a map with key x: %v", err)
	}
}

// tinyGraph is a graph with placeholder x and loss Σ(w-x)².
func tinyGraph() *graph.Graph {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 2)
	w := g.Var("w", ndarray.Must(ndarray.FromSlice([]float64{1, 2})))
	g.Math().Square(w.Sub(x)).Sum().Named("loss")
	return g
}
