package main

import (
	"errors"
	"slices"
	"testing"
	"time"
)

// warmUp runs its functions in turn, n rounds, and stops at the first error.
func TestWarmUp(t *testing.T) {
	var calls []string
	f := func(name string, failAt int) func() error {
		return func() error {
			calls = append(calls, name)
			if len(calls) == failAt {
				return errors.New("boom")
			}
			return nil
		}
	}
	if err := warmUp(3, f("a", 0), f("b", 0)); err != nil || !slices.Equal(calls, []string{"a", "b", "a", "b", "a", "b"}) {
		t.Errorf("%v, calls %v", err, calls)
	}
	calls = nil
	if err := warmUp(3, f("a", 0), f("b", 4)); err == nil || !slices.Equal(calls, []string{"a", "b", "a", "b"}) {
		t.Errorf("%v, calls %v", err, calls)
	}
}

// med is the middle time (the upper middle of an even count) and leaves its
// argument as it was; median reports it per step.
func TestMedian(t *testing.T) {
	ts := []time.Duration{5, 1, 4, 2, 3}
	if m := med(ts); m != 3 || !slices.Equal(ts, []time.Duration{5, 1, 4, 2, 3}) {
		t.Errorf("med = %v, ts %v", m, ts)
	}
	if m := med([]time.Duration{4, 1, 3, 2}); m != 3 {
		t.Errorf("med of four = %v", m)
	}
	n := 0
	d, err := median(3, 4, func() error { n++; return nil })
	if err != nil || n != 12 || d < 0 {
		t.Errorf("median: %v, %v, %d calls", d, err, n)
	}
	if _, err := median(3, 4, func() error { return errors.New("boom") }); err == nil {
		t.Error("median hid an error")
	}
}

// interleaved alternates its two functions round by round, each running its
// own number of steps, and stops at the first error.
func TestInterleaved(t *testing.T) {
	var calls []string
	f := func(name string) func() error { return func() error { calls = append(calls, name); return nil } }
	if _, _, err := interleaved(2, 2, 1, f("a"), f("b")); err != nil || !slices.Equal(calls, []string{"a", "a", "b", "a", "a", "b"}) {
		t.Errorf("%v, calls %v", err, calls)
	}
	calls = nil
	fail := func() error { calls = append(calls, "b"); return errors.New("boom") }
	if _, _, err := interleaved(2, 1, 1, f("a"), fail); err == nil || !slices.Equal(calls, []string{"a", "b"}) {
		t.Errorf("%v, calls %v", err, calls)
	}
}
