package train

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// The rest of ND4J's schedules (org.nd4j.linalg.schedule), computing what
// ND4J's valueAt computes, and written to and read from a configuration's
// JSON under ND4J's class and field names.

// validator is a schedule that can say what is wrong with its fields
// (checked by New, with the value at iteration 0).
type validator interface{ validate() error }

// validated returns what a validator finds wrong with s (nil for other
// schedules).
func validated(s Schedule) error {
	if v, ok := s.(validator); ok {
		return v.validate()
	}
	return nil
}

// Inverse is Initial / (1 + Gamma·t)^Power (ND4J's InverseSchedule).
type Inverse struct {
	Initial, Gamma, Power float64
	By                    ScheduleBy
}

// Value returns Initial / (1 + Gamma·t)^Power, t the iteration or epoch.
func (s Inverse) Value(it, ep int) float64 {
	return s.Initial / math.Pow(1+s.Gamma*float64(s.By.pick(it, ep)), s.Power)
}

// Map gives Values[k] from step k until the next key (ND4J's MapSchedule):
// with {0: 1, 10: 0.5, 20: 0.2}, steps 0 to 9 have 1, 10 to 19 have 0.5,
// 20 on 0.2. It must have a key 0.
type Map struct {
	Values map[int]float64
	By     ScheduleBy
}

// Value returns Values at the largest key not above t, the iteration or
// epoch (NaN when there is none: validate refuses such a map).
func (s Map) Value(it, ep int) float64 {
	t := s.By.pick(it, ep)
	if v, ok := s.Values[t]; ok {
		return v
	}
	best, found := 0, false
	for k := range s.Values {
		if k <= t && (!found || k > best) {
			best, found = k, true
		}
	}
	if !found {
		return math.NaN()
	}
	return s.Values[best]
}

func (s Map) validate() error {
	if _, ok := s.Values[0]; !ok {
		return fmt.Errorf("a Map schedule needs a value at 0 (its keys: %v)", slices.Sorted(maps.Keys(s.Values)))
	}
	return nil
}

// Poly is ND4J's PolySchedule: Initial·(1 + t/MaxIter)^Power before step
// MaxIter, 0 from it on. (ND4J's documentation says the power is
// negated; its code, which this follows so that a configuration trains
// alike in both, does not: with Power above 0 the value grows until it
// drops to 0.)
type Poly struct {
	Initial, Power float64
	MaxIter        int
	By             ScheduleBy
}

// Value returns Initial·(1 + t/MaxIter)^Power for t below MaxIter, else 0.
func (s Poly) Value(it, ep int) float64 {
	t := s.By.pick(it, ep)
	if t >= s.MaxIter {
		return 0
	}
	return s.Initial * math.Pow(1+float64(t)/float64(s.MaxIter), s.Power)
}

// Sigmoid is Initial / (1 + e^(-Gamma·(t - StepSize))) (ND4J's
// SigmoidSchedule).
type Sigmoid struct {
	Initial, Gamma float64
	StepSize       int
	By             ScheduleBy
}

// Value returns Initial / (1 + e^(-Gamma·(t - StepSize))).
func (s Sigmoid) Value(it, ep int) float64 {
	return s.Initial / (1 + math.Exp(-s.Gamma*float64(s.By.pick(it, ep)-s.StepSize)))
}

// Cycle is ND4J's CycleSchedule, the 1cycle policy (Smith, 2018): over
// each cycle of CycleLength steps the value climbs linearly from Initial
// to Max in (CycleLength-AnnealingLength)/2 steps (integer division),
// falls back as fast, then anneals below Initial over the last steps,
// Initial·AnnealingDecay^(AnnealingLength - (CycleLength - position)).
type Cycle struct {
	Initial, Max                 float64
	CycleLength, AnnealingLength int
	AnnealingDecay               float64
	By                           ScheduleBy
}

// NewCycle returns ND4J's default cycle for a maximum: Initial max/10,
// annealing over a tenth of the cycle (rounded) with decay 0.1.
func NewCycle(by ScheduleBy, max float64, cycleLength int) Cycle {
	return Cycle{Initial: max * 0.1, Max: max, CycleLength: cycleLength,
		AnnealingLength: int(math.Round(float64(cycleLength) * 0.1)), AnnealingDecay: 0.1, By: by}
}

// Value returns the cycle's value at step t (the iteration or epoch) as
// ND4J's CycleSchedule computes it; NaN for a cycle length below 1.
func (s Cycle) Value(it, ep int) float64 {
	if s.CycleLength <= 0 {
		return math.NaN()
	}
	step := (s.CycleLength - s.AnnealingLength) / 2
	inc := (s.Max - s.Initial) / float64(step)
	pos := s.By.pick(it, ep) % s.CycleLength
	switch {
	case pos < step:
		return s.Initial + inc*float64(pos)
	case pos < 2*step:
		return s.Max - inc*float64(pos-step)
	}
	return s.Initial * math.Pow(s.AnnealingDecay, float64(s.AnnealingLength-(s.CycleLength-pos)))
}

func (s Cycle) validate() error {
	switch {
	case s.CycleLength <= 0:
		return fmt.Errorf("a Cycle schedule's cycle length %d must be above 0", s.CycleLength)
	case s.Initial > s.Max:
		return fmt.Errorf("a Cycle schedule's initial value %v is above its maximum %v", s.Initial, s.Max)
	case s.AnnealingLength < 0 || s.AnnealingLength > s.CycleLength:
		return fmt.Errorf("a Cycle schedule's annealing length %d must be in [0, %d], the cycle length", s.AnnealingLength, s.CycleLength)
	}
	return nil
}

// Ramp is a linear warm-up (ND4J's RampSchedule): Base's value times
// (t+1)/NumIter over the first NumIter-1 iterations, Base's value from
// then on. It counts iterations (ND4J's has no epoch setting). A
// configuration holding one does not move to Java: ND4J's class has no
// constructor its JSON reader can call, so a save for Java refuses it.
type Ramp struct {
	Base    Schedule
	NumIter int
}

// Value returns Base's value, scaled by (it+1)/NumIter below iteration
// NumIter-1.
func (s Ramp) Value(it, ep int) float64 {
	base := s.Base.Value(it, ep)
	if it >= s.NumIter-1 {
		return base
	}
	return float64(it+1) / float64(s.NumIter) * base
}

func (s Ramp) validate() error {
	if s.Base == nil {
		return fmt.Errorf("a Ramp schedule has no base schedule")
	}
	return validated(s.Base)
}

// CosineWarmup is cosine annealing after a linear warm-up (ND4J's
// CosineWarmupSchedule), by iteration: Max·it/WarmupSteps during the
// warm-up, then Min + (Max-Min)·(1 + cos(π·p))/2 with p = (it -
// WarmupSteps)/(TotalSteps - WarmupSteps), and Min from TotalSteps on.
// With WarmupSteps 0 it is plain cosine annealing from Max to Min.
type CosineWarmup struct {
	Max, Min                float64
	WarmupSteps, TotalSteps int
}

// Value returns the warm-up or cosine value at iteration it.
func (s CosineWarmup) Value(it, _ int) float64 {
	if it < s.WarmupSteps {
		return s.Max * float64(it) / float64(s.WarmupSteps)
	}
	if it >= s.TotalSteps {
		return s.Min
	}
	p := float64(it-s.WarmupSteps) / float64(s.TotalSteps-s.WarmupSteps)
	return s.Min + 0.5*(s.Max-s.Min)*(1+math.Cos(math.Pi*p))
}

func (s CosineWarmup) validate() error {
	if !(s.Max > 0) || math.IsInf(s.Max, 0) || !finiteNonNeg(s.Min) || s.Min > s.Max {
		return fmt.Errorf("a CosineWarmup schedule's maximum %v must be a positive number and its minimum %v a number in [0, maximum]", s.Max, s.Min)
	}
	return nil
}

// moreScheduleJSON writes the schedules of this file as ND4J does.
func moreScheduleJSON(s Schedule) (map[string]any, bool) {
	class := func(name string) string { return nd4jSchedule + name }
	switch s := s.(type) {
	case Inverse:
		return map[string]any{"@class": class("InverseSchedule"), "scheduleType": s.By.String(), "initialValue": s.Initial, "gamma": s.Gamma, "power": s.Power}, true
	case Map:
		vals := map[string]any{}
		for k, v := range s.Values {
			vals[strconv.Itoa(k)] = v
		}
		return map[string]any{"@class": class("MapSchedule"), "scheduleType": s.By.String(), "values": vals}, true
	case Poly:
		return map[string]any{"@class": class("PolySchedule"), "scheduleType": s.By.String(), "initialValue": s.Initial, "power": s.Power, "maxIter": s.MaxIter}, true
	case Sigmoid:
		return map[string]any{"@class": class("SigmoidSchedule"), "scheduleType": s.By.String(), "initialValue": s.Initial, "gamma": s.Gamma, "stepSize": s.StepSize}, true
	case Cycle:
		return map[string]any{"@class": class("CycleSchedule"), "scheduleType": s.By.String(), "initialLearningRate": s.Initial, "maxLearningRate": s.Max,
			"cycleLength": s.CycleLength, "annealingLength": s.AnnealingLength, "annealingDecay": s.AnnealingDecay}, true
	case Ramp:
		return map[string]any{"@class": class("RampSchedule"), "baseSchedule": scheduleJSON(s.Base), "numIter": s.NumIter}, true
	case CosineWarmup:
		return map[string]any{"@class": class("CosineWarmupSchedule"), "maxLR": s.Max, "minLR": s.Min, "warmupSteps": s.WarmupSteps, "totalSteps": s.TotalSteps}, true
	}
	return nil, false
}

// parseMoreSchedule reads the schedules of this file from ND4J's JSON;
// name is the class's last part.
func parseMoreSchedule(name string, v map[string]any, by ScheduleBy) (Schedule, bool, error) {
	in := func(key string) int { return int(num(v, key, 0)) }
	var s Schedule
	switch name {
	case "InverseSchedule":
		s = Inverse{Initial: num(v, "initialValue", 0), Gamma: num(v, "gamma", 0), Power: num(v, "power", 1), By: by}
	case "MapSchedule":
		m, _ := v["values"].(map[string]any)
		vals := map[int]float64{}
		for k, x := range m {
			i, err := strconv.Atoi(strings.TrimSpace(k))
			f, ok := x.(float64)
			if err != nil || !ok {
				return nil, true, fmt.Errorf("train: a MapSchedule's entry %q: %v is not a step and a number", k, x)
			}
			vals[i] = f
		}
		s = Map{Values: vals, By: by}
	case "PolySchedule":
		s = Poly{Initial: num(v, "initialValue", 0), Power: num(v, "power", 1), MaxIter: in("maxIter"), By: by}
	case "SigmoidSchedule":
		s = Sigmoid{Initial: num(v, "initialValue", 0), Gamma: num(v, "gamma", 0), StepSize: in("stepSize"), By: by}
	case "CycleSchedule":
		s = Cycle{Initial: num(v, "initialLearningRate", 0), Max: num(v, "maxLearningRate", 0), CycleLength: in("cycleLength"),
			AnnealingLength: in("annealingLength"), AnnealingDecay: num(v, "annealingDecay", 0.1), By: by}
	case "RampSchedule":
		base, err := parseSchedule(v["baseSchedule"])
		if err != nil {
			return nil, true, fmt.Errorf("train: a RampSchedule's base: %w", err)
		}
		s = Ramp{Base: base, NumIter: in("numIter")}
	case "CosineWarmupSchedule":
		s = CosineWarmup{Max: num(v, "maxLR", 0), Min: num(v, "minLR", 0), WarmupSteps: in("warmupSteps"), TotalSteps: in("totalSteps")}
	default:
		return nil, false, nil
	}
	if err := validated(s); err != nil {
		return nil, true, fmt.Errorf("train: %w", err)
	}
	return s, true, nil
}
