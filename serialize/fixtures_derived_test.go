package serialize

import (
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// The outputs of the fixtures, derived independently of sdgo's ops: the
// constants are read from the loaded graph, and what each graph computes
// (read from its nodes, see /work/notes/fixtures-dump.txt) is redone in
// plain Go. For the files testdata/samediff/README.md gives numbers for, the derivation
// must also give those numbers.

func loadFixture(t *testing.T, name string) *graph.Graph {
	t.Helper()
	g, err := Load(filepath.Join(fixtureDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// constant returns the values of a constant of the graph (as float64s) and
// its shape.
func constant(t *testing.T, g *graph.Graph, name string) ([]float64, []int) {
	t.Helper()
	v, ok := g.Variable(name)
	if !ok || v.Value() == nil {
		t.Fatalf("the graph has no constant %q", name)
	}
	return v.Value().Float64s(), v.Value().Shape()
}

func scalarConst(t *testing.T, g *graph.Graph, name string) float64 {
	t.Helper()
	v, s := constant(t, g, name)
	if len(v) != 1 {
		t.Fatalf("%q has shape %v, want one value", name, s)
	}
	return v[0]
}

// runOut runs the graph for one output.
func runOut(t *testing.T, g *graph.Graph, feeds map[string]*ndarray.Array, name string) *ndarray.Array {
	t.Helper()
	res, err := exec.New(g).Output(feeds, name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res[name]
}

// expectValues compares an output with derived values (float32 precision).
func expectValues(t *testing.T, got *ndarray.Array, dt ndarray.DType, shape []int, want []float64) {
	t.Helper()
	if got.DType() != dt || !ndarray.SameShape(got.Shape(), shape) {
		t.Fatalf("got %v%v, want %v%v", got.DType(), got.Shape(), dt, shape)
	}
	g := got.Float64s()
	for i := range want {
		if math.Abs(g[i]-want[i]) > 1e-6*math.Max(1, math.Abs(want[i])) {
			t.Fatalf("got %v, want %v", g, want)
		}
	}
}

func f32s(v ...float32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

func TestFixtureWhileIter3Derived(t *testing.T) {
	g := loadFixture(t, "while_iter3.fb")
	// while/Merge starts from while/Const, while/Merge_1 from in_0 (via
	// in_0/read); while Merge < Merge_1: Merge += while/add/y, Merge_1
	// passes through.
	i := float32(scalarConst(t, g, "while/Const"))
	n := float32(scalarConst(t, g, "in_0"))
	step := float32(scalarConst(t, g, "while/add/y"))
	runs := 0
	for i < n {
		i += step
		runs++
	}
	if runs == 0 {
		t.Fatal("the derivation runs no iteration; the fixture is meant to loop")
	}
	expectValues(t, runOut(t, g, nil, "while/Exit"), ndarray.Float32, []int{}, f32s(i))
	expectValues(t, runOut(t, g, nil, "while/Exit_1"), ndarray.Float32, []int{}, f32s(n))
}

// simplewhile_1: x = input_0, y = input_1; while sum(x) < y { x += Variable;
// y -= while/Sub/y }; output = x + y (Exit(x) + Exit(y)).
func TestFixtureSimpleWhileDerived(t *testing.T) {
	g := loadFixture(t, "simplewhile_1.fb")
	inc := float32(scalarConst(t, g, "Variable"))
	dec := float32(scalarConst(t, g, "while/Sub/y"))
	for _, c := range []struct {
		x0, y0   float32
		expected float32 // testdata/samediff/README.md's number
	}{{-4, 1, -1}, {-9, 1, -3}} {
		x := []float32{c.x0, c.x0, c.x0, c.x0}
		y := c.y0
		sum := func() float32 { return x[0] + x[1] + x[2] + x[3] }
		for sum() < y {
			for k := range x {
				x[k] += inc
			}
			y -= dec
		}
		want := make([]float32, 4)
		for k := range want {
			want[k] = x[k] + y
			if want[k] != c.expected {
				t.Fatalf("the derivation gives %v for input_0 %v, testdata/samediff/README.md %v", want, c.x0, c.expected)
			}
		}
		feeds := map[string]*ndarray.Array{
			"input_0": ndarray.Must(ndarray.FromSlice([]float32{c.x0, c.x0, c.x0, c.x0}, 2, 2)),
			"input_1": ndarray.Scalar(c.y0),
		}
		expectValues(t, runOut(t, g, feeds, "output"), ndarray.Float32, []int{2, 2}, f32s(want...))
		expectValues(t, runOut(t, g, feeds, "while/Exit"), ndarray.Float32, []int{2, 2}, f32s(x...))
		expectValues(t, runOut(t, g, feeds, "while/Exit_1"), ndarray.Float32, []int{}, f32s(y))
	}
}

// simpleif_0_alt: output = input_0 + Variable if sum(input_0) < input_1,
// else input_0 - Variable.
func TestFixtureSimpleIfDerived(t *testing.T) {
	g := loadFixture(t, "simpleif_0_alt.fb")
	v := float32(scalarConst(t, g, "Variable"))
	x := []float32{1, 2, 3, 4}
	for _, y := range []float32{20, 5} {
		var sum float32
		for _, e := range x {
			sum += e
		}
		want := make([]float32, 4)
		for k, e := range x {
			if sum < y {
				want[k] = e + v
			} else {
				want[k] = e - v
			}
		}
		feeds := map[string]*ndarray.Array{"input_0": ndarray.Must(ndarray.FromSlice(x, 2, 2)), "input_1": ndarray.Scalar(y)}
		expectValues(t, runOut(t, g, feeds, "output"), ndarray.Float32, []int{2, 2}, f32s(want...))
	}
}

// cond_true: cond/LinSpace is linspace(start, stop, num) of its constant
// inputs. cond/Merge joins cond/ones (input 0, the false branch in
// TensorFlow's graph) and cond/LinSpace (the true branch); the file keeps
// none of TensorFlow's control dependencies that put the branch constants
// under the switch, so both inputs are alive and the merge passes the
// first, as SameDiff's does.
func TestFixtureCondTrueDerived(t *testing.T) {
	g := loadFixture(t, "cond_true.fb")
	start := scalarConst(t, g, "cond/LinSpace/start")
	stop := scalarConst(t, g, "cond/LinSpace/stop")
	num := int(scalarConst(t, g, "cond/LinSpace/num"))
	want := make([]float64, num)
	for k := range want {
		want[k] = float64(float32(start + (stop-start)*float64(k)/float64(num-1)))
	}
	expectValues(t, runOut(t, g, nil, "cond/LinSpace"), ndarray.Float32, []int{num}, want)
	ones, shape := constant(t, g, "cond/ones")
	expectValues(t, runOut(t, g, nil, "cond/Merge"), ndarray.Float32, shape, ones)
	// The predicate in_0 is true: the switch's true side is alive, its
	// false side dead.
	pred := scalarConst(t, g, "in_0") != 0
	expectValues(t, runOut(t, g, nil, "cond/switch_t"), ndarray.Bool, []int{}, []float64{1})
	if _, err := exec.New(g).Output(nil, "cond/switch_f"); pred && (err == nil || !strings.Contains(err.Error(), "not taken")) {
		t.Errorf("cond/switch_f: %v, want an error saying the branch was not taken", err)
	}
}

// assertsomething and scalar_float32: All = all(in_0 == in_1) over the
// axes of assert_equal/Const; Add = in_0 + in_1; the guard's merge passes
// All through the branch it takes; the Assert lies in the other branch;
// NoOp gives true.
func TestFixtureAssertDerived(t *testing.T) {
	for _, name := range []string{"assertsomething.fb", "scalar_float32.fb"} {
		t.Run(name, func(t *testing.T) {
			g := loadFixture(t, name)
			x, shape := constant(t, g, "in_0")
			y, _ := constant(t, g, "in_1")
			all := true
			sum := make([]float64, len(x))
			for k := range x {
				all = all && float32(x[k]) == float32(y[k])
				sum[k] = float64(float32(x[k]) + float32(y[k]))
			}
			if !all {
				t.Fatal("the fixture's assertion is meant to hold")
			}
			expectValues(t, runOut(t, g, nil, "assert_equal/All"), ndarray.Bool, []int{}, []float64{1})
			expectValues(t, runOut(t, g, nil, "Add"), ndarray.Float32, shape, sum)
			expectValues(t, runOut(t, g, nil, "assert_equal/Assert/AssertGuard/Merge"), ndarray.Bool, []int{}, []float64{1})
			expectValues(t, runOut(t, g, nil, "assert_equal/Assert/AssertGuard/NoOp"), ndarray.Bool, []int{}, []float64{1})
			_, err := exec.New(g).Output(nil, "assert_equal/Assert/AssertGuard/Assert")
			if err == nil || !strings.Contains(err.Error(), "not taken") {
				t.Errorf("the Assert's output: %v, want an error saying its branch was not taken", err)
			}

			// With in_1 changed the assertion fails: the error names the
			// Assert node and shows the values.
			v, _ := g.Variable("in_1")
			bad := make([]float32, len(y))
			for k := range bad {
				bad[k] = float32(y[k]) + 1
			}
			if err := v.SetValue(ndarray.Must(ndarray.FromSlice(bad, shape...))); err != nil {
				t.Fatal(err)
			}
			expectValues(t, runOut(t, g, nil, "assert_equal/All"), ndarray.Bool, []int{}, []float64{0})
			_, err = exec.New(g).Output(nil, "assert_equal/Assert/AssertGuard/Assert")
			if err == nil {
				t.Fatal("a failing assertion ran without error")
			}
			for _, want := range []string{"assert_equal/Assert/AssertGuard/Assert", "false", formatF32(float32(x[0])), formatF32(bad[0])} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not mention %q", err, want)
				}
			}
		})
	}
}

func formatF32(v float32) string { return strconv.FormatFloat(float64(v), 'g', -1, 64) }

// non2d_0A: stack = [scalarA, scalarB]; output = tile(Variable, stack).
func TestFixtureNon2DDerived(t *testing.T) {
	g := loadFixture(t, "non2d_0A.fb")
	a, b := int32(3), int32(1)
	feeds := map[string]*ndarray.Array{"scalarA": ndarray.Scalar(a), "scalarB": ndarray.Scalar(b)}
	expectValues(t, runOut(t, g, feeds, "stack"), ndarray.Int32, []int{2}, []float64{float64(a), float64(b)})
	v, shape := constant(t, g, "Variable")
	rows, cols := shape[0]*int(a), shape[1]*int(b)
	want := make([]float64, rows*cols)
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			want[r*cols+c] = v[(r%shape[0])*shape[1]+c%shape[1]]
		}
	}
	expectValues(t, runOut(t, g, feeds, "output"), ndarray.Float32, []int{rows, cols}, want)
}

// The tensor array fixtures: what was written (or split) is what is read.
func TestFixtureTensorArraysDerived(t *testing.T) {
	g := loadFixture(t, "tensor_array_close_sz1_float32_nodynamic_noname_noshape.fb")
	x, shape := constant(t, g, "in_0")
	expectValues(t, runOut(t, g, nil, "TensorArrayReadV3"), ndarray.Float32, shape, x)

	g = loadFixture(t, "tensor_array_split_sz1_float32_nodynamic_noname_noshape.fb")
	x, shape = constant(t, g, "in_0")
	lengths, _ := constant(t, g, "in_1")
	first := append([]int{int(lengths[0])}, shape[1:]...)
	n := 1
	for _, d := range first {
		n *= d
	}
	expectValues(t, runOut(t, g, nil, "TensorArrayReadV3"), ndarray.Float32, first, x[:n])

	g = loadFixture(t, "tensor_array_stack_sz3-1_int32_dynamic_name_shape.fb")
	var want []float64
	for _, name := range []string{"in_0", "in_1", "in_2"} { // written at indices 0, 1, 2
		v, s := constant(t, g, name)
		want = append(want, v...)
		shape = s
	}
	expectValues(t, runOut(t, g, nil, "TensorArrayStack/TensorArrayGatherV3"), ndarray.Int32, append([]int{3}, shape...), want)
	expectValues(t, runOut(t, g, nil, "TensorArrayStack/TensorArraySizeV3"), ndarray.Int64, []int{}, []float64{3})
}
