package main

import (
	"strings"
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

func TestParseBytes(t *testing.T) {
	for in, want := range map[string]int{
		"": 0, "0": 0, "1000": 1000, "1e9": 1e9, "256MiB": 256 << 20, "256 MiB": 256 << 20, "2GiB": 2 << 30,
		"2G": 2 << 30, "500MB": 500e6, "1.5GB": 1.5e9, "4kb": 4000, "3KiB": 3072, "7B": 7, "0.1": 1,
		"5TiB": ndarray.MaxBytes, "1e30": ndarray.MaxBytes,
	} {
		if got, err := parseBytes(in); err != nil || got != want {
			t.Errorf("parseBytes(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"-1", "NaN", "lots", "5 parsecs", "2GiBs", "1e", "GB"} {
		if got, err := parseBytes(in); err == nil {
			t.Errorf("parseBytes(%q) = %d, want an error", in, got)
		}
	}
}

// -max-memory sets the budget for the command and no longer: the next
// command in the process has the default again. A bad size is a usage
// error naming the flag.
func TestMaxMemoryFlag(t *testing.T) {
	g := graph.New()
	g.Scalar(ndarray.Float32, 1).AddScalar(1).Named("y")
	path := saveTemp(t, g, "s.fb")
	before := ndarray.AllocLimit()
	if code, _, errs := sdgo(t, "run", "-max-memory", "64MiB", path); code != 0 {
		t.Fatalf("run -max-memory 64MiB: exit %d: %s", code, errs)
	}
	if got := ndarray.AllocLimit(); got != before {
		t.Errorf("the budget after the command is %d, was %d", got, before)
	}
	for _, cmd := range []string{"run", "gradcheck", "info", "dot"} {
		code, _, errs := sdgo(t, cmd, "-max-memory", "12 furlongs", path)
		if code != 2 || !strings.Contains(errs, "-max-memory") || !strings.Contains(errs, "unknown unit") {
			t.Errorf("%s -max-memory '12 furlongs': exit %d, %s", cmd, code, errs)
		}
	}
}
