package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/serialize"
)

const fixtures = "../../testdata/samediff"

func sdgo(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// Every fixture runs, with feeds where it has placeholders, and prints
// what testdata/samediff/README.md (or the derivation in package serialize's tests) says.
func TestRunFixtures(t *testing.T) {
	cases := map[string]struct {
		flags []string
		want  []string
	}{
		"identity_n_2.fb":             {nil, []string{"IdentityN: float32[2 3]", "[[0.7787856 0.80119777 0.72437465]", "IdentityN:1: float32[2]"}},
		"pad_1D.fb":                   {nil, []string{"PadV2: float32[7]", "[10 0.7787856 0.80119777 0.72437465 0.23089433 0.72714126 10]"}},
		"reduce_all_rank2_d0_keep.fb": {nil, []string{"All: bool[1 4]", "[[true false false false]]"}},
		"tensor_array_close_sz1_float32_nodynamic_noname_noshape.fb": {nil, []string{"TensorArrayReadV3: float32[2 3]",
			"[[0.7787856 0.80119777 0.72437465]\n [0.23089433 0.72714126 0.18039072]]"}},
		"tensor_array_split_sz1_float32_nodynamic_noname_noshape.fb": {nil, []string{"TensorArrayReadV3: float32[2 3]",
			"[[0.7787856 0.80119777 0.72437465]\n [0.23089433 0.72714126 0.18039072]]"}},
		"tensor_array_stack_sz3-1_int32_dynamic_name_shape.fb": {nil, []string{"TensorArrayStack/TensorArrayGatherV3: int32[3 2 3]",
			"[[[7 2 9]\n  [4 3 3]]\n [[8 7 0]\n  [0 6 8]]\n [[7 9 0]\n  [1 1 4]]]"}},
		"simplewhile_1.fb": {[]string{"-feed", "input_0=-4,-4,-4,-4", "-feed", "input_1=1"}, []string{"output: float32[2 2]", "[[-1 -1]\n [-1 -1]]"}},
		"while_iter3.fb":   {nil, []string{"while/Exit: float32[]\n3\n", "while/Exit_1: float32[]\n3\n"}},
		"cond_true.fb":     {nil, []string{"cond/Merge: float32[5]", "cond/switch_f: not computed (in a branch that was not taken)"}},
		"simpleif_0_alt.fb": {[]string{"-feed", "input_0=1,2,3,4", "-feed", "input_1=20"},
			[]string{"output: float32[2 2]\n[[3 4]\n [5 6]]"}},
		"assertsomething.fb": {nil, []string{"Add: float32[3 4]", "assert_equal/Assert/AssertGuard/Merge: bool[]\ntrue",
			"assert_equal/Assert/AssertGuard/Assert: not computed"}},
		"scalar_float32.fb": {nil, []string{"Add: float32[]\n2\n", "assert_equal/Assert/AssertGuard/Merge: bool[]\ntrue"}},
		// The file stores values for its placeholders (3 and 1): they are used
		// when no -feed gives others.
		"non2d_0A.fb": {nil, []string{"output: float32[9 4]"}},
	}
	files, err := filepath.Glob(filepath.Join(fixtures, "*.fb"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures in %s: %v", fixtures, err)
	}
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			c, ok := cases[name]
			if !ok {
				t.Fatalf("no case for %s", name)
			}
			code, out, errs := sdgo(t, append(append([]string{"run"}, c.flags...), f)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
	if len(files) != len(cases) {
		t.Errorf("%d fixtures, %d cases", len(files), len(cases))
	}
}

func TestRunOutputsAndFeeds(t *testing.T) {
	simpleif := filepath.Join(fixtures, "simpleif_0_alt.fb")
	// The other branch, a named output, shapes given explicitly.
	code, out, errs := sdgo(t, "run", "-feed", "input_0=1,2,3,4:2x2", "-feed", "input_1=5:", simpleif, "output", "Sum")
	if code != 0 || out != "output: float32[2 2]\n[[-1 0]\n [1 2]]\nSum: float32[]\n10\n" {
		t.Errorf("exit %d, output %q, %s", code, out, errs)
	}
	// Feeds from a JSON file, printed as JSON.
	dir := t.TempDir()
	feeds := filepath.Join(dir, "feeds.json")
	if err := os.WriteFile(feeds, []byte(`{"input_0": [[-9, -9], [-9, -9]], "input_1": {"shape": [], "values": [1]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = sdgo(t, "run", "-feeds", feeds, "-json", "-out", "output", filepath.Join(fixtures, "simplewhile_1.fb"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var res map[string]struct {
		DType  string    `json:"dtype"`
		Shape  []int     `json:"shape"`
		Values []float64 `json:"values"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if r := res["output"]; r.DType != "float32" || len(r.Shape) != 2 || len(r.Values) != 4 || r.Values[0] != -3 {
		t.Errorf("json output %+v", res)
	}
	// Feeds override the values the file stores.
	code, out, _ = sdgo(t, "run", "-feed", "scalarA=1", "-feed", "scalarB=2", filepath.Join(fixtures, "non2d_0A.fb"), "stack", "output")
	if code != 0 || !strings.Contains(out, "stack: int32[2]\n[1 2]") || !strings.Contains(out, "output: float32[3 8]") {
		t.Errorf("exit %d, output %s", code, out)
	}
	// -max cuts long outputs.
	code, out, _ = sdgo(t, "run", "-max", "3", filepath.Join(fixtures, "identity_n_2.fb"), "IdentityN")
	if code != 0 || !strings.Contains(out, "[[0.7787856 0.80119777 0.72437465]\n ...]\n") {
		t.Errorf("exit %d, output %q", code, out)
	}
}

func TestRunErrors(t *testing.T) {
	simplewhile := filepath.Join(fixtures, "simplewhile_1.fb")
	for _, c := range []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"no file", []string{"run"}, 2, []string{"usage: sdgo run"}},
		{"missing file", []string{"run", "nope.fb"}, 3, []string{"nope.fb"}},
		{"placeholder not fed", []string{"run", simplewhile}, 2, []string{`placeholder "input_0"`, "-feed"}},
		{"unknown placeholder", []string{"run", "-feed", "bogus=1", simplewhile}, 2, []string{"bogus"}},
		{"wrong count", []string{"run", "-feed", "input_0=1,2,3", "-feed", "input_1=1", simplewhile}, 2, []string{"input_0", "3 values"}},
		{"not a number", []string{"run", "-feed", "input_0=1,2,x,4", "-feed", "input_1=1", simplewhile}, 2, []string{`"x"`}},
		{"unknown output", []string{"run", simplewhile, "nothing"}, 2, []string{`"nothing"`}},
		// An op that fails is named, with its inputs.
		{"op fails", []string{"run", "-feed", "scalarA=-1", filepath.Join(fixtures, "non2d_0A.fb")}, 1,
			[]string{`op "output" (tile)`, "negative repetition"}},
		// An output explicitly asked for that lies in the branch not taken.
		{"dead output", []string{"run", "-feed", "input_0=1,2,3,4", "-feed", "input_1=20", filepath.Join(fixtures, "simpleif_0_alt.fb"), "cond/falsefn"}, 1,
			[]string{`"cond/falsefn"`, "not taken"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, errs := sdgo(t, c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d: %s", code, c.code, errs)
			}
			for _, w := range c.want {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr lacks %q: %s", w, errs)
				}
			}
		})
	}
	code, _, errs := sdgo(t, "run", "-h")
	if code != 0 || !strings.Contains(errs, "-feeds") || !strings.Contains(errs, "Exit status") {
		t.Errorf("run -h: exit %d, %s", code, errs)
	}
	code, out, _ := sdgo(t, "help")
	if code != 0 || !strings.Contains(out, "run ") {
		t.Errorf("help does not list run: %s", out)
	}
}

// -timeout stops a run that would loop until the iteration cap.
func TestRunTimeout(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64)
	out, err := g.While([]*graph.Variable{x},
		func(v []*graph.Variable) *graph.Variable { return v[0].Ge(v[0]) }, // always true
		func(v []*graph.Variable) []*graph.Variable { return []*graph.Variable{v[0].AddScalar(1)} })
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "loop.fb")
	if err := serialize.Save(path, g, nil); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	code, stdout, errs := sdgo(t, "run", "-timeout", "100ms", "-ph", "x=0:", path, out[0].Name())
	if code != 1 || stdout != "" || !strings.Contains(errs, "stopped before op") || !strings.Contains(errs, "deadline exceeded") {
		t.Errorf("exit %d, stdout %q, stderr %s", code, stdout, errs)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("stopped after %v", d)
	}
	if code, _, errs := sdgo(t, "run", "-timeout", "-1s", "-ph", "x=0:", path); code != 2 || !strings.Contains(errs, "-timeout -1s is negative") {
		t.Errorf("negative timeout: exit %d, %s", code, errs)
	}
}
