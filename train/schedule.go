package train

import (
	"fmt"
	"math"
)

// Schedule gives a hyperparameter's value (usually the learning rate) at an
// iteration and epoch, both counted from 0. New requires a learning rate
// above 0 at iteration 0; each step requires the values it uses to be
// numbers from 0 up, and stops with an error otherwise.
//
// A saved configuration holds ND4J's schedules (Fixed, Step, Exponential,
// Inverse, Map, Poly, Sigmoid, Cycle, Ramp, CosineWarmup) under ND4J's
// class and field names. A schedule of another type is saved as its Go type's name
// only: ConfigOf then fails, naming it and giving the counters, and the
// configuration has to be made again with that schedule to resume; a
// Java-compatible save (serialize.SaveOptions.Java) refuses it.
type Schedule interface {
	Value(iteration, epoch int) float64
}

// Fixed is a constant value.
type Fixed float64

// Value returns f at every iteration and epoch.
func (f Fixed) Value(int, int) float64 { return float64(f) }

// ScheduleBy says whether a schedule steps with iterations or epochs.
type ScheduleBy int

// ByIteration (the zero value) steps a schedule with the iteration count,
// ByEpoch with the epoch count.
const (
	ByIteration ScheduleBy = iota
	ByEpoch
)

// String returns "ITERATION" or "EPOCH": ND4J's name for b, which a saved
// configuration's scheduleType holds.
func (b ScheduleBy) String() string {
	if b == ByEpoch {
		return "EPOCH"
	}
	return "ITERATION"
}

func (b ScheduleBy) pick(it, ep int) int {
	if b == ByEpoch {
		return ep
	}
	return it
}

// Step multiplies Initial by Decay every Step iterations (or epochs):
// Initial · Decay^floor(t/Step).
type Step struct {
	Initial, Decay float64
	Step           float64
	By             ScheduleBy
}

// Value returns Initial · Decay^floor(t/Step), t being the iteration it or
// the epoch ep as By says; with Step 0 or less it returns Initial.
func (s Step) Value(it, ep int) float64 {
	if s.Step <= 0 {
		return s.Initial
	}
	return s.Initial * math.Pow(s.Decay, math.Floor(float64(s.By.pick(it, ep))/s.Step))
}

// Exponential is Initial · Gamma^t.
type Exponential struct {
	Initial, Gamma float64
	By             ScheduleBy
}

// Value returns Initial · Gamma^t, t being the iteration it or the epoch ep
// as By says.
func (e Exponential) Value(it, ep int) float64 {
	return e.Initial * math.Pow(e.Gamma, float64(e.By.pick(it, ep)))
}

// finiteNonNeg reports whether v is a number from 0 up: not NaN, not
// infinite, not negative. Learning rates and coefficients must be, at
// every step.
func finiteNonNeg(v float64) bool { return v >= 0 && !math.IsInf(v, 0) }

func checkSchedule(name string, s Schedule) error {
	if s == nil {
		return fmt.Errorf("train: %s has no learning rate", name)
	}
	if _, ok := s.(validator); ok {
		// A schedule that checks itself may start at 0 (a warm-up).
		if err := validated(s); err != nil {
			return fmt.Errorf("train: %s learning rate: %w", name, err)
		}
		if v := s.Value(0, 0); !finiteNonNeg(v) {
			return fmt.Errorf("train: %s learning rate %v at iteration 0 must be a number from 0 up", name, v)
		}
		return nil
	}
	if v := s.Value(0, 0); !(v > 0) || math.IsInf(v, 0) {
		return fmt.Errorf("train: %s learning rate %v must be a positive number", name, v)
	}
	return nil
}
