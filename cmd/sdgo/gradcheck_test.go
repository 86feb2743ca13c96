package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	"github.com/sdgo/sdgo/serialize"
)

// test_cli_square_bad_grad is x² with a gradient rule that is wrong at flat
// element 2 (it adds 1 there): a test-only op for this binary.
var _ = ops.Register(&ops.Def{
	Name: "test_cli_square_bad_grad", Type: ops.Custom, MinIn: 1, MaxIn: 1,
	Doc: "x², with a deliberately wrong gradient at element 2 (cmd/sdgo tests only)",
	Infer: func(in []ops.Info, _ *ops.Args) ([]ops.Info, error) {
		return []ops.Info{{DType: in[0].DType, Shape: in[0].Shape}}, nil
	},
	Run: func(_ *ops.Ctx, in []*ndarray.Array, _ *ops.Args) ([]*ndarray.Array, error) {
		y, err := ndarray.Binary(ndarray.Mul, in[0], in[0])
		return []*ndarray.Array{y}, err
	},
	Grad: func(b ops.GradBuilder, n ops.GradNode, dOut []ops.Value) []ops.Value {
		x := n.In[0]
		info := x.Info()
		two := b.Const(ndarray.Must(ndarray.ScalarOf(info.DType, 2)))
		right := b.Op("multiply", ops.Args{}, b.Op("multiply", ops.Args{}, x, two)[0], dOut[0])[0]
		v := make([]float64, 6)
		v[2] = 1
		bump := ndarray.Must(ndarray.Cast(ndarray.Must(ndarray.FromSlice(v, info.Shape...)), info.DType))
		return []ops.Value{b.Op("add", ops.Args{}, right, b.Const(bump))[0]}
	},
})

// saveGraph builds loss = Σ f(x·w + b)·c in dtype dt, with f tanh or the
// wrong op, and saves it.
func saveGraph(t *testing.T, dt ndarray.DType, wrong bool) string {
	t.Helper()
	g := graph.New()
	x := g.Placeholder("x", dt, -1, 3)
	w := g.Var("w", ndarray.Must(ndarray.Cast(ndarray.Must(ndarray.FromSlice([]float64{0.1, -0.2, 0.3, 0.4, -0.5, 0.6, 0.7, -0.8, 0.9}, 3, 3)), dt)))
	b := g.Var("b", ndarray.Must(ndarray.Cast(ndarray.Must(ndarray.FromSlice([]float64{0.05, -0.05, 0.1})), dt)))
	h := x.MatMul(w).Add(b).Named("pre")
	var y *graph.Variable
	if wrong {
		y = g.Apply("test_cli_square_bad_grad", ops.Args{}, h.Reshape(2, 3))
	} else {
		y = g.Math().Tanh(h)
	}
	loss := y.Sum().Named("loss")
	if err := loss.Err(); err != nil {
		t.Fatal(err)
	}
	if err := g.SetLoss("loss"); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "g.fb")
	if err := serialize.Save(path, g, nil); err != nil {
		t.Fatal(err)
	}
	return path
}

func gradcheck(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(append([]string{"gradcheck"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

func TestGradcheckPasses(t *testing.T) {
	for _, dt := range []ndarray.DType{ndarray.Float64, ndarray.Float32} {
		path := saveGraph(t, dt, false)
		code, out, errs := gradcheck(path)
		if code != 0 || errs != "" {
			t.Fatalf("%v: exit %d\n%s%s", dt, code, out, errs)
		}
		// x gets 2 rows (its first size is unknown in the file): 6 + 9 + 3.
		for _, want := range []string{"loss variables loss", "on a float64 copy", "gradient check passed: 18 parameters checked, 18 passed, 0 failed, largest relative error"} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: output does not contain %q:\n%s", dt, want, out)
			}
		}
	}
}

func TestGradcheckCatchesWrongGradient(t *testing.T) {
	path := saveGraph(t, ndarray.Float64, true)
	code, out, errs := gradcheck("-unknown-size", "2", path)
	if code != 1 || errs != "" {
		t.Fatalf("exit %d, want 1\n%s%s", code, out, errs)
	}
	// Element 2 of the op's input is pre[0,2]; through pre = x·w + b the
	// wrong rule shows in b[2], in column 2 of w and in row 0 of x. The
	// activation check names pre[0,2] itself.
	if !strings.Contains(out, "FAIL b[2]") || !strings.Contains(out, "gradient check FAILED") {
		t.Errorf("output:\n%s", out)
	}
	code, out, _ = gradcheck("-activations", "pre", "-vars", "w", path)
	if code != 1 || !strings.Contains(out, "FAIL pre[0,2]") || !strings.Contains(out, "activation gradient check FAILED: 6 parameters checked, 5 passed, 1 failed") {
		t.Errorf("activations: exit %d\n%s", code, out)
	}
	// Options: stop at the first failure; skip what fails; tolerances.
	code, out, _ = gradcheck("-stop-first", path)
	if code != 1 || !strings.Contains(out, "1 failed") || !strings.Contains(out, "stopped at the first failure") {
		t.Errorf("-stop-first: exit %d\n%s", code, out)
	}
	code, out, _ = gradcheck("-vars", "w", "-skip", "w", path)
	if code != 2 {
		t.Errorf("nothing to check: exit %d\n%s", code, out)
	}
	code, out, _ = gradcheck("-max-rel", "0.5", path)
	if code != 0 {
		t.Errorf("-max-rel 0.5: exit %d\n%s", code, out)
	}
	code, out, _ = gradcheck("-subset", "1", "-subset-every-n", "-vars", "b", path)
	if code != 0 || !strings.Contains(out, "1 parameters checked") {
		t.Errorf("-subset 1 (b[0] only): exit %d\n%s", code, out)
	}
	code, out, _ = gradcheck("-every", "2", "-vars", "b", "-verbose", path)
	if code != 1 || strings.Count(out, "  ok   b[") != 1 || !strings.Contains(out, "FAIL b[2]") {
		t.Errorf("-every 2: exit %d\n%s", code, out)
	}
}

func TestGradcheckOptionsAndErrors(t *testing.T) {
	path := saveGraph(t, ndarray.Float32, false)
	code, out, _ := gradcheck("-float64-copy=false", "-eps", "1e-2", "-max-rel", "1e-2", "-min-abs", "1e-3", path)
	if code != 0 || strings.Contains(out, "float64 copy") {
		t.Errorf("own dtypes: exit %d\n%s", code, out)
	}
	code, out, _ = gradcheck("-feed", "x=1,2,3", "-vars", "x", "-verbose", path)
	if code != 0 || !strings.Contains(out, "3 parameters checked") || !strings.Contains(out, "x[0,2]") {
		t.Errorf("-feed: exit %d\n%s", code, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "usage: sdgo gradcheck"},
		{[]string{"-feed", "nope=1", path}, "no placeholder"},
		{[]string{"-feed", "x=1,2", path}, "-feed x"},
		{[]string{"-skip", "nope", path}, `"nope"`},
		{[]string{"-bogus", path}, "bogus"},
	} {
		code, _, errs := gradcheck(c.args...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%q: exit %d, stderr %q (want 2 and %q)", c.args, code, errs, c.want)
		}
	}
	// A file that does not load is exit 3, apart from the usage errors.
	if code, _, errs := gradcheck(filepath.Join(t.TempDir(), "missing.fb")); code != 3 || !strings.Contains(errs, "missing.fb") {
		t.Errorf("missing file: exit %d, stderr %q (want 3)", code, errs)
	}
	var out2, errb bytes.Buffer
	if code := run([]string{"help"}, &out2, &errb); code != 0 || !strings.Contains(out2.String(), "gradcheck") {
		t.Errorf("help does not list gradcheck: %s", out2.String())
	}
}

// Flags the check cannot work with are usage errors that name the flag, and
// nothing is checked: -eps -1 ran a check with a negative step and reported
// failures (exit 1), -subset -3 and -every -2 ran as if not given. An
// -activations name the check cannot take failed (exit 2) only after
// "gradient check passed" was printed.
func TestGradcheckBadFlags(t *testing.T) {
	path := saveGraph(t, ndarray.Float64, false)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-eps", "-1"}, "-eps"},
		{[]string{"-eps", "0"}, "-eps"},
		{[]string{"-eps", "NaN"}, "-eps"},
		{[]string{"-eps", "+Inf"}, "-eps"},
		{[]string{"-max-rel", "-1"}, "-max-rel"},
		{[]string{"-max-rel", "NaN"}, "-max-rel"},
		{[]string{"-min-abs", "-1e-6"}, "-min-abs"},
		{[]string{"-min-abs", "NaN"}, "-min-abs"},
		{[]string{"-subset", "-3"}, "-subset"},
		{[]string{"-every", "-2"}, "-every"},
		{[]string{"-activations", "nope"}, `"nope"`},
		{[]string{"-activations", "w"}, `"w"`},
	} {
		code, out, errs := gradcheck(append(c.args, path)...)
		if code != 2 || !strings.Contains(errs, c.want) || strings.Contains(out, "passed") || strings.Contains(out, "FAIL") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q (want exit 2 naming %s, no result)", c.args, code, out, errs, c.want)
		}
	}
}

// -loss checks other variables as the loss, and a file without loss
// variables says to name them with -loss (a CLI user cannot call SetLoss).
func TestGradcheckLossFlag(t *testing.T) {
	path := saveGraph(t, ndarray.Float64, false)
	code, out, errs := gradcheck("-loss", "pre", path)
	if code != 0 || errs != "" || !strings.Contains(out, "loss variables pre") || !strings.Contains(out, "18 passed") {
		t.Errorf("-loss pre: exit %d\n%s%s", code, out, errs)
	}
	code, _, errs = gradcheck("-loss", "nope", path)
	if code != 2 || !strings.Contains(errs, "-loss") || !strings.Contains(errs, `"nope"`) {
		t.Errorf("-loss nope: exit %d, stderr %q", code, errs)
	}

	g := graph.New()
	w := g.Var("w", ndarray.Must(ndarray.FromSlice([]float64{1, 2})))
	g.Math().Square(w).Sum().Named("s")
	noLoss := filepath.Join(t.TempDir(), "noloss.fb")
	if err := serialize.Save(noLoss, g, nil); err != nil {
		t.Fatal(err)
	}
	code, _, errs = gradcheck(noLoss)
	if code != 2 || !strings.Contains(errs, "names no loss variables") || !strings.Contains(errs, "-loss") {
		t.Errorf("no loss: exit %d, stderr %q", code, errs)
	}
	code, out, errs = gradcheck("-loss", "s", noLoss)
	if code != 0 || !strings.Contains(out, "2 passed") {
		t.Errorf("-loss s: exit %d\n%s%s", code, out, errs)
	}
}
