package train

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/sdgo/sdgo/graph"
)

// Config says how to train a graph: the updater, the regularization, which
// placeholders take a batch's features and labels, which variables are the
// loss and which are trained. It reads and writes SameDiff's TrainingConfig
// JSON, which graph files carry, with ND4J's updater, schedule and
// regularization classes: AdamW as ND4J's Adam plus a WeightDecay
// regularization scaled by the learning rate (which trains alike, and reads
// back as that pair). Classic momentum (Momentum without Nesterov) has no
// ND4J class; it is written under an sdgo class that sdgo reads back and
// that a Java-compatible save (serialize.SaveOptions.Java) refuses.
type Config struct {
	Updater        Updater
	Regularization []Regularization
	// Features and Labels name the placeholders fed from a batch's
	// features and labels, in order (SameDiff's dataSetFeatureMapping and
	// dataSetLabelMapping).
	Features, Labels []string
	// Losses names the loss variables; empty means the graph's.
	Losses []string
	// Trainable names the variables to train; empty means every VARIABLE.
	Trainable []string
	// IterationCount and EpochCount count the training done so far; Fit
	// continues from them (they drive schedules and Adam's bias correction).
	IterationCount, EpochCount int
	// Clipping normalizes or clips the gradients (nil: none). The JSON
	// does not hold it (see Clipping).
	Clipping *Clipping
}

func (c *Config) check() error {
	if c.Updater == nil {
		return fmt.Errorf("train: the configuration has no updater")
	}
	if err := c.Updater.check(); err != nil {
		return err
	}
	for _, r := range c.Regularization {
		if err := r.check(); err != nil {
			return err
		}
	}
	if c.Clipping != nil {
		if err := c.Clipping.check(); err != nil {
			return err
		}
	}
	if len(c.Features) == 0 {
		return fmt.Errorf("train: the configuration names no feature placeholders")
	}
	return nil
}

// Java class names in SameDiff's JSON.
const (
	nd4jConfig   = "org.nd4j.linalg.learning.config."
	nd4jReg      = "org.nd4j.linalg.learning.regularization."
	nd4jSchedule = "org.nd4j.linalg.schedule."
	// sdgoClass marks what SameDiff has no class for (classic momentum).
	sdgoClass = "sdgo."
)

type jsonConfig struct {
	Updater                    map[string]any   `json:"updater"`
	Regularization             []map[string]any `json:"regularization"`
	Minimize                   *bool            `json:"minimize"`     // absent means true
	L1                         float64          `json:"l1,omitempty"` // an older SameDiff's regularization
	L2                         float64          `json:"l2,omitempty"`
	DataSetFeatureMapping      []string         `json:"dataSetFeatureMapping"`
	DataSetLabelMapping        []string         `json:"dataSetLabelMapping"`
	DataSetFeatureMaskMapping  []string         `json:"dataSetFeatureMaskMapping"`
	DataSetLabelMaskMapping    []string         `json:"dataSetLabelMaskMapping"`
	LossVariables              []string         `json:"lossVariables"`
	TrainableParams            []string         `json:"trainableParams,omitempty"`
	IterationCount             int              `json:"iterationCount"`
	EpochCount                 int              `json:"epochCount"`
	InitialLossDataType        string           `json:"initialLossDataType"`
	TrainEvaluations           map[string]any   `json:"trainEvaluations"`
	TrainEvaluationLabels      map[string]any   `json:"trainEvaluationLabels"`
	ValidationEvaluations      map[string]any   `json:"validationEvaluations"`
	ValidationEvaluationLabels map[string]any   `json:"validationEvaluationLabels"`
}

// MarshalJSON writes SameDiff's TrainingConfig JSON.
func (c *Config) MarshalJSON() ([]byte, error) {
	j := jsonConfig{
		Minimize: new(true), DataSetFeatureMapping: c.Features, DataSetLabelMapping: c.Labels,
		LossVariables: c.Losses, TrainableParams: c.Trainable,
		IterationCount: c.IterationCount, EpochCount: c.EpochCount, InitialLossDataType: "FLOAT",
		TrainEvaluations: map[string]any{}, TrainEvaluationLabels: map[string]any{},
		ValidationEvaluations: map[string]any{}, ValidationEvaluationLabels: map[string]any{},
	}
	if c.Updater != nil {
		u, err := updaterJSON(c.Updater)
		if err != nil {
			return nil, err
		}
		j.Updater = u
	}
	j.Regularization = []map[string]any{}
	regs := c.Regularization
	if a, ok := c.Updater.(*Adam); ok && a.WeightDecay > 0 {
		// ND4J has no AdamW: its Adam with a WeightDecay regularization
		// scaled by the learning rate takes lr·wd·p off each parameter
		// apart from the gradient, as AdamW does. Appended last, its
		// term joins the other decays' sum in an order that gives the
		// same bits as AdamW's (x+y is y+x in floating point).
		regs = append(slices.Clip(regs), &WeightDecay{Coeff: Fixed(a.WeightDecay), ApplyLR: true})
	}
	for _, r := range regs {
		switch r := r.(type) {
		case *L2:
			j.Regularization = append(j.Regularization, map[string]any{"@class": nd4jReg + "L2Regularization", "l2": scheduleJSON(r.Coeff)})
		case *WeightDecay:
			j.Regularization = append(j.Regularization, map[string]any{"@class": nd4jReg + "WeightDecay", "coeff": scheduleJSON(r.Coeff), "applyLR": r.ApplyLR})
		default:
			return nil, fmt.Errorf("train: cannot write regularization %T", r)
		}
	}
	return json.Marshal(j)
}

// learningRate writes a schedule as SameDiff does: a fixed rate as
// learningRate, anything else as learningRateSchedule.
func learningRate(m map[string]any, s Schedule) {
	if f, ok := s.(Fixed); ok {
		m["learningRate"] = float64(f)
		m["learningRateSchedule"] = nil
		return
	}
	m["learningRate"] = s.Value(0, 0)
	m["learningRateSchedule"] = scheduleJSON(s)
}

func updaterJSON(u Updater) (map[string]any, error) {
	m := map[string]any{}
	switch u := u.(type) {
	case *SGD:
		m["@class"] = nd4jConfig + "Sgd"
		learningRate(m, u.LR)
	case *Momentum:
		if u.Nesterov {
			m["@class"] = nd4jConfig + "Nesterovs"
		} else {
			m["@class"] = sdgoClass + "Momentum"
		}
		learningRate(m, u.LR)
		m["momentum"] = u.Momentum
		m["momentumISchedule"] = nil
	case *Adam:
		// AdamW's decay is written by MarshalJSON as a regularization.
		m["@class"] = nd4jConfig + "Adam"
		learningRate(m, u.LR)
		m["beta1"], m["beta2"], m["epsilon"] = u.Beta1, u.Beta2, u.Epsilon
	default:
		return nil, fmt.Errorf("train: cannot write updater %T", u)
	}
	return m, nil
}

func scheduleJSON(s Schedule) map[string]any {
	switch s := s.(type) {
	case Fixed:
		return map[string]any{"@class": nd4jSchedule + "FixedSchedule", "value": float64(s)}
	case Step:
		return map[string]any{"@class": nd4jSchedule + "StepSchedule", "scheduleType": s.By.String(), "initialValue": s.Initial, "decayRate": s.Decay, "step": s.Step}
	case Exponential:
		return map[string]any{"@class": nd4jSchedule + "ExponentialSchedule", "scheduleType": s.By.String(), "initialValue": s.Initial, "gamma": s.Gamma}
	}
	if m, ok := moreScheduleJSON(s); ok {
		return m
	}
	// A schedule of the program's own: the JSON cannot hold it, only say
	// what it was, so that reading it back can say why it cannot.
	return map[string]any{"@class": sdgoClass + "Schedule", "type": fmt.Sprintf("%T", s), "value": s.Value(0, 0)}
}

// UnmarshalJSON reads SameDiff's TrainingConfig JSON. A configuration that
// asks for what the trainer cannot do (maximize the loss, feed masks, an
// older SameDiff's l1/l2 coefficients) is an error that names the field.
func (c *Config) UnmarshalJSON(b []byte) error {
	var j jsonConfig
	if err := json.Unmarshal(b, &j); err != nil {
		return fmt.Errorf("train: training configuration: %w", err)
	}
	*c = Config{Features: j.DataSetFeatureMapping, Labels: j.DataSetLabelMapping, Losses: j.LossVariables,
		Trainable: j.TrainableParams, IterationCount: j.IterationCount, EpochCount: j.EpochCount}
	// The counters are what a caller who makes the configuration again
	// cannot know otherwise.
	counts := func(err error) error {
		return fmt.Errorf("%w (the configuration's counters: %d iterations, %d epochs)", err, j.IterationCount, j.EpochCount)
	}
	// Fields read as if absent would have the trainer train otherwise
	// than the configuration says, without a word.
	switch {
	case j.Minimize != nil && !*j.Minimize:
		return counts(fmt.Errorf("train: the configuration maximizes its loss (minimize false); sdgo's trainer only minimizes"))
	case len(j.DataSetFeatureMaskMapping) > 0:
		return counts(fmt.Errorf("train: the configuration names feature mask placeholders %q (dataSetFeatureMaskMapping); sdgo's batches carry no masks",
			j.DataSetFeatureMaskMapping))
	case len(j.DataSetLabelMaskMapping) > 0:
		return counts(fmt.Errorf("train: the configuration names label mask placeholders %q (dataSetLabelMaskMapping); sdgo's batches carry no masks",
			j.DataSetLabelMaskMapping))
	case j.L1 != 0 || j.L2 != 0:
		return counts(fmt.Errorf("train: the configuration has l1 %v, l2 %v (an older SameDiff's regularization fields), which sdgo does not read; "+
			"make the configuration again with that regularization (L2: train.NewL2)", j.L1, j.L2))
	}
	if j.Updater != nil {
		u, err := parseUpdater(j.Updater)
		if err != nil {
			return counts(err)
		}
		c.Updater = u
	}
	for _, r := range j.Regularization {
		class, _ := r["@class"].(string)
		switch strings.TrimPrefix(class, nd4jReg) {
		case "L2Regularization":
			s, err := parseSchedule(r["l2"])
			if err != nil {
				return counts(err)
			}
			c.Regularization = append(c.Regularization, &L2{Coeff: s})
		case "WeightDecay":
			s, err := parseSchedule(r["coeff"])
			if err != nil {
				return counts(err)
			}
			apply, _ := r["applyLR"].(bool)
			c.Regularization = append(c.Regularization, &WeightDecay{Coeff: s, ApplyLR: apply})
		default:
			return counts(fmt.Errorf("train: unsupported regularization %q", class))
		}
	}
	return nil
}

func num(m map[string]any, key string, def float64) float64 {
	if v, ok := m[key].(float64); ok {
		return v
	}
	return def
}

func parseLR(m map[string]any) (Schedule, error) {
	if s, ok := m["learningRateSchedule"]; ok && s != nil {
		return parseSchedule(s)
	}
	return Fixed(num(m, "learningRate", 0)), nil
}

func parseUpdater(m map[string]any) (Updater, error) {
	class, _ := m["@class"].(string)
	lr, err := parseLR(m)
	if err != nil {
		return nil, err
	}
	name := class[strings.LastIndex(class, ".")+1:]
	switch name {
	case "Sgd":
		return &SGD{LR: lr}, nil
	case "Nesterovs", "Momentum":
		return &Momentum{LR: lr, Momentum: num(m, "momentum", 0.9), Nesterov: name == "Nesterovs"}, nil
	case "Adam", "AdamW":
		return &Adam{LR: lr, Beta1: num(m, "beta1", 0.9), Beta2: num(m, "beta2", 0.999), Epsilon: num(m, "epsilon", 1e-8),
			WeightDecay: num(m, "weightDecay", 0)}, nil
	}
	return nil, fmt.Errorf("train: unsupported updater %q", class)
}

func parseSchedule(v any) (Schedule, error) {
	switch v := v.(type) {
	case float64:
		return Fixed(v), nil
	case map[string]any:
		class, _ := v["@class"].(string)
		by := ByIteration
		if v["scheduleType"] == "EPOCH" {
			by = ByEpoch
		}
		switch class[strings.LastIndex(class, ".")+1:] {
		case "FixedSchedule":
			return Fixed(num(v, "value", 0)), nil
		case "StepSchedule":
			return Step{Initial: num(v, "initialValue", 0), Decay: num(v, "decayRate", 1), Step: num(v, "step", 1), By: by}, nil
		case "ExponentialSchedule":
			return Exponential{Initial: num(v, "initialValue", 0), Gamma: num(v, "gamma", 1), By: by}, nil
		}
		if s, ok, err := parseMoreSchedule(class[strings.LastIndex(class, ".")+1:], v, by); ok {
			return s, err
		}
		if class == sdgoClass+"Schedule" {
			typ, _ := v["type"].(string)
			if typ == "" {
				typ = "of the program's own" // written before the type was
			}
			return nil, fmt.Errorf("train: the configuration has a schedule %s (value %v at iteration 0), which cannot be read back: "+
				"make the configuration again with that schedule", typ, v["value"])
		}
		return nil, fmt.Errorf("train: unsupported schedule %q", class)
	}
	return nil, fmt.Errorf("train: unreadable schedule %v", v)
}

// updaterKind names the kind of an updater (its JSON class's last part):
// kinds whose state is alike share one, Adam and AdamW, Nesterovs and
// momentum.
func updaterKind(u Updater) string {
	m, err := updaterJSON(u)
	if err != nil {
		return fmt.Sprintf("%T", u)
	}
	return classKind(m["@class"].(string))
}

func classKind(class string) string {
	switch name := class[strings.LastIndex(class, ".")+1:]; name {
	case "AdamW":
		return "Adam"
	case "Nesterovs":
		return "Momentum"
	default:
		return name
	}
}

// savedUpdaterKind returns the kind of the updater g's training
// configuration names. It reads the updater's class alone: ConfigOf fails
// on a configuration with a schedule it cannot read back, whose updater
// state New must still tell from another kind's.
func savedUpdaterKind(g *graph.Graph) (string, bool) {
	v, ok := g.GetMeta(graph.MetaTrainingConfig)
	if !ok {
		return "", false
	}
	js, err := graph.MetaJSON(v)
	if err != nil || js == "" {
		return "", false
	}
	var j struct {
		Updater struct {
			Class string `json:"@class"`
		} `json:"updater"`
	}
	if json.Unmarshal([]byte(js), &j) != nil || j.Updater.Class == "" {
		return "", false
	}
	return classKind(j.Updater.Class), true
}

// ConfigOf returns the training configuration a graph carries (saved with
// it, or set by a Trainer), so that training can resume after a load.
func ConfigOf(g *graph.Graph) (*Config, error) {
	v, ok := g.GetMeta(graph.MetaTrainingConfig)
	if !ok {
		return nil, fmt.Errorf("train: the graph has no training configuration")
	}
	js, err := graph.MetaJSON(v)
	if err != nil {
		// Not JSON text, or a value that could not write it (a file's
		// configuration whose names a rename made ambiguous).
		return nil, fmt.Errorf("train: the graph's training configuration: %w", err)
	}
	if js == "" {
		return nil, fmt.Errorf("train: the graph's training configuration is empty")
	}
	var c Config
	if err := json.Unmarshal([]byte(js), &c); err != nil {
		return nil, err
	}
	return &c, nil
}
