package main

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	G "gorgonia.org/gorgonia"

	"github.com/sdgo/sdgo/ndarray"
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
	run := func(name string) func() (time.Duration, error) {
		return func() (time.Duration, error) { calls = append(calls, name); return time.Duration(len(calls)), nil }
	}
	if ts, err := interleavedN(3, run("a"), run("b"), run("c")); err != nil || !slices.Equal(calls, []string{"a", "b", "c", "a", "b", "c", "a", "b", "c"}) ||
		!slices.Equal(ts, []time.Duration{4, 5, 6}) {
		t.Errorf("interleavedN: %v %v, calls %v", ts, err, calls)
	}
	calls = nil
	fail := func() error { calls = append(calls, "b"); return errors.New("boom") }
	if _, _, err := interleaved(2, 1, 1, f("a"), fail); err == nil || !slices.Equal(calls, []string{"a", "b"}) {
		t.Errorf("%v, calls %v", err, calls)
	}
}

// parseFlags refuses what would make the bench panic (no rounds or steps:
// an empty median, a division by zero), a long run too short to measure
// growth after its first 100 steps, an unknown model before any model has
// run, and arguments that are not flags, which would stop flag parsing and
// leave the flags after them silently ignored.
func TestParseFlags(t *testing.T) {
	o, err := parseFlags([]string{"-rounds", "3", "-steps", "2", "-models", "chain50, views", "-long", "0", "-threads", "2, 1"})
	if err != nil || o.rounds != 3 || o.steps != 2 || o.long != 0 || !slices.Equal(o.models, []string{"chain50", "views"}) || !slices.Equal(o.threads, []int{2, 1}) {
		t.Errorf("good flags: %+v, %v", o, err)
	}
	if o, err := parseFlags(nil); err != nil || len(o.models) != len(benches) || o.long != 1000 || !slices.Equal(o.threads, []int{1, 2}) {
		t.Errorf("defaults: %+v, %v", o, err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-rounds", "0"}, "-rounds"},
		{[]string{"-steps", "0"}, "-steps"},
		{[]string{"-steps", "-3"}, "-steps"},
		{[]string{"-long", "50"}, "-long"},
		{[]string{"-long", "-1"}, "-long"},
		{[]string{"-models", "chain50,bogus"}, `"bogus"`},
		{[]string{"-models", ""}, "no model"},
		{[]string{"chain50", "-rounds", "1"}, `"chain50"`},
		{[]string{"-nosuchflag"}, "nosuchflag"},
		{[]string{"-threads", "0"}, "-threads"},
		{[]string{"-threads", "1,two"}, "-threads"},
	} {
		if _, err := parseFlags(c.args); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one mentioning %s", c.args, err, c.want)
		}
	}
}

// The checks the benches run before timing reject what differs: a wrong
// element (NaN included), a length, a view state with a row not updated or
// one updated too often, a loss that is not gorgonia's.
func TestOutputChecks(t *testing.T) {
	if err := sameValues("c", []float32{1, 2, 1000}, []float32{1, 2.000001, 1000.001}, 1e-5); err != nil {
		t.Errorf("close values refused: %v", err)
	}
	for _, got := range [][]float32{{1, 2.1, 1000}, {1, 2, 1001}, {1, float32(math.NaN()), 1000}, {1, 2}} {
		if err := sameValues("c", got, []float32{1, 2, 1000}, 1e-5); err == nil {
			t.Errorf("%v accepted for [1 2 1000]", got)
		}
	}
	vals := make([]float32, viewRows*viewCols)
	for i := 0; i < viewUpdates; i++ {
		r := viewRowsUpdated(i)
		for j := 0; j < viewCols; j++ {
			vals[r*viewCols+j] = 3
		}
	}
	state := func() *ndarray.Array { return ndarray.Must(ndarray.FromSlice(vals, viewRows, viewCols)) }
	if err := checkViewState("v", state(), 3); err != nil {
		t.Errorf("right state refused: %v", err)
	}
	if err := checkViewState("v", state(), 2); err == nil {
		t.Error("state of 3 steps accepted after 2")
	}
	vals[viewRowsUpdated(5)*viewCols+7] = 0
	if err := checkViewState("v", state(), 3); err == nil || !strings.Contains(err.Error(), "state[") {
		t.Errorf("an element not updated: %v", err)
	}
	f32, f64 := G.F32(3.2167332), G.F64(3.216733095664113)
	if err := sameLoss(ndarray.Float32, 3.216733, &f32); err != nil {
		t.Errorf("same float32 loss refused: %v", err)
	}
	if err := sameLoss(ndarray.Float64, 3.2167330956641136, &f64); err != nil {
		t.Errorf("same float64 loss refused: %v", err)
	}
	if err := sameLoss(ndarray.Float32, 3.3, &f32); err == nil {
		t.Error("float32 losses 3.3 and 3.2167 accepted")
	}
	if err := sameLoss(ndarray.Float64, math.NaN(), &f64); err == nil {
		t.Error("NaN loss accepted")
	}
}
