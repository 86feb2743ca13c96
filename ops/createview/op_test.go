package createview_test

import (
	"errors"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	cv "github.com/sdgo/sdgo/ops/createview"
)

func infoOf(a *ndarray.Array) ops.Info {
	return ops.Info{DType: a.DType(), Shape: a.Shape(), Value: a}
}

// runOp infers and runs an op on constant inputs (ctx may be nil), and checks
// that the run agrees with the inference.
func runOp(t *testing.T, ctx *ops.Ctx, name string, in ...*ndarray.Array) *ndarray.Array {
	t.Helper()
	def, ok := ops.Lookup(name)
	if !ok {
		t.Fatalf("op %q is not registered", name)
	}
	infos := make([]ops.Info, len(in))
	for i, a := range in {
		infos[i] = infoOf(a)
	}
	want, err := def.Infer(infos, &ops.Args{})
	if err != nil {
		t.Fatalf("%s: infer: %v", name, err)
	}
	got, err := def.Run(ctx, in, &ops.Args{})
	if err != nil {
		t.Fatalf("%s: run: %v", name, err)
	}
	if len(got) != 1 || len(want) != 1 {
		t.Fatalf("%s: %d outputs, inferred %d", name, len(got), len(want))
	}
	if got[0].DType() != want[0].DType || want[0].UnknownRank || !slices.Equal(got[0].Shape(), want[0].Shape) {
		t.Fatalf("%s: output %v%v, inferred %v", name, got[0].DType(), got[0].Shape(), want[0])
	}
	return got[0]
}

type forwardCase struct {
	name string
	op   string
	in   []*ndarray.Array
	want *ndarray.Array
}

func withIdx(in []*ndarray.Array, idx ...cv.Index) []*ndarray.Array {
	return append(in, idxArrays(idx...)...)
}

func forwardCases() []forwardCase {
	x := linspace(3, 4) // [[1 2 3 4] [5 6 7 8] [9 10 11 12]]
	row := f64([]int{4}, 10, 20, 30, 40)
	col := f64([]int{3, 1}, 1, 2, 3)
	return []forwardCase{
		{"create_view point", cv.OpName, withIdx([]*ndarray.Array{x}, cv.Point(-1)), f64([]int{4}, 9, 10, 11, 12)},
		{"create_view no index", cv.OpName, []*ndarray.Array{x}, x},
		{"create_view strided column", cv.OpName, withIdx([]*ndarray.Array{x}, cv.All(), cv.IntervalStep(-1, 4, 2, false)), f64([]int{3, 1}, 4, 8, 12)},
		{"create_view new axis", cv.OpName, withIdx([]*ndarray.Array{x}, cv.Point(1), cv.NewAxis(), cv.Interval(1, 3)), f64([]int{1, 2}, 6, 7)},
		{"create_view_bp", cv.OpNameBP, withIdx([]*ndarray.Array{x, f64([]int{2}, -1, -2)}, cv.Interval(0, -1), cv.Point(-1)),
			f64([]int{3, 4}, 0, 0, 0, -1, 0, 0, 0, -2, 0, 0, 0, 0)},
		{"create_view_bp broadcast", cv.OpNameBP, withIdx([]*ndarray.Array{x, ndarray.Scalar(2.0)}, cv.All(), cv.Point(0)),
			f64([]int{3, 4}, 2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0)},
		{"view_assign row", cv.OpAssign, withIdx([]*ndarray.Array{x, row}, cv.Point(-2)),
			f64([]int{3, 4}, 1, 2, 3, 4, 10, 20, 30, 40, 9, 10, 11, 12)},
		{"view_assign scalar", cv.OpAssign, withIdx([]*ndarray.Array{x, ndarray.Scalar(0.0)}, cv.All(), cv.Interval(1, 3)),
			f64([]int{3, 4}, 1, 0, 0, 4, 5, 0, 0, 8, 9, 0, 0, 12)},
		{"view_add column", cv.OpAdd, withIdx([]*ndarray.Array{x, col}, cv.All(), cv.Interval(-2, 4)),
			f64([]int{3, 4}, 1, 2, 4, 5, 5, 6, 9, 10, 9, 10, 14, 15)},
		{"view_sub", cv.OpSub, withIdx([]*ndarray.Array{x, ndarray.Scalar(1.0)}, cv.Point(0)),
			f64([]int{3, 4}, 0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12)},
		{"view_mul new axis", cv.OpMul, withIdx([]*ndarray.Array{x, f64([]int{1, 4}, 2, 2, 2, 2)}, cv.NewAxis(), cv.Point(-1)),
			f64([]int{3, 4}, 1, 2, 3, 4, 5, 6, 7, 8, 18, 20, 22, 24)},
		{"view_div", cv.OpDiv, withIdx([]*ndarray.Array{x, ndarray.Scalar(2.0)}, cv.Point(1), cv.IntervalStep(0, 3, 1, true)),
			f64([]int{3, 4}, 1, 2, 3, 4, 2.5, 3, 3.5, 4, 9, 10, 11, 12)},
		{"view_add int64", cv.OpAdd, withIdx([]*ndarray.Array{i64v(1, 2, 3), ndarray.Scalar(int64(5))}, cv.Point(-1)), i64v(1, 2, 8)},
		{"view_assign bool", cv.OpAssign, withIdx([]*ndarray.Array{ndarray.Must(ndarray.FromSlice([]bool{false, false})), ndarray.Scalar(true)}, cv.Point(1)),
			ndarray.Must(ndarray.FromSlice([]bool{false, true}))},
	}
}

// stepCases select with interval steps, giving stepped layouts.
func stepCases() []forwardCase {
	x := linspace(3, 4)
	return []forwardCase{
		{"create_view steps", cv.OpName, withIdx([]*ndarray.Array{x}, cv.IntervalStep(0, 3, 2, false), cv.IntervalStep(0, 4, 3, false)), f64([]int{2, 2}, 1, 4, 9, 12)},
		{"view_add steps", cv.OpAdd, withIdx([]*ndarray.Array{x, f64([]int{2}, 100, 200)}, cv.IntervalStep(-3, -1, 2, true), cv.IntervalStep(1, 4, 2, false)),
			f64([]int{3, 4}, 1, 102, 3, 204, 5, 6, 7, 8, 9, 110, 11, 212)},
	}
}

func TestForward(t *testing.T) {
	cases := append(forwardCases(), stepCases()...)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := make([][]float64, len(c.in))
			for i, a := range c.in {
				before[i] = a.Float64s()
			}
			got := runOp(t, nil, c.op, c.in...)
			if !ndarray.Equal(got, c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
			// Without a context that allows it, nothing is written in place.
			for i, a := range c.in {
				if !reflect.DeepEqual(a.Float64s(), before[i]) {
					t.Fatalf("input %d changed: %v", i, a)
				}
			}
		})
	}
}

// Interval steps give views whose strides step over elements: they share
// the input's buffer (no copy), and ndarray accepts their layouts.
func TestStepsNeedStridedLayouts(t *testing.T) {
	x := linspace(3, 4)
	for _, c := range []struct {
		idx     []cv.Index
		shape   []int
		strides []int
		offset  int
		want    []float64
	}{
		{[]cv.Index{cv.IntervalStep(0, 3, 2, false), cv.IntervalStep(0, 4, 3, false)}, []int{2, 2}, []int{8, 3}, 0, []float64{1, 4, 9, 12}},
		{[]cv.Index{cv.All(), cv.IntervalStep(1, 4, 2, false)}, []int{3, 2}, []int{4, 2}, 1, []float64{2, 4, 6, 8, 10, 12}},
		{[]cv.Index{cv.Point(1), cv.IntervalStep(0, 4, 2, false)}, []int{2}, []int{2}, 4, []float64{5, 7}},
	} {
		v := runOp(t, nil, cv.OpName, withIdx([]*ndarray.Array{x}, c.idx...)...)
		l := v.Layout()
		if !v.SameBuffer(x) || !slices.Equal(l.Shape, c.shape) || !slices.Equal(l.Strides, c.strides) || l.Offset != c.offset {
			t.Errorf("%v: layout %v (shares the buffer: %v), want shape %v strides %v offset %d", c.idx, l, v.SameBuffer(x), c.shape, c.strides, c.offset)
			continue
		}
		if err := l.Validate(x.Buffer().Len()); err != nil {
			t.Errorf("%v: %v", c.idx, err)
		}
		if !reflect.DeepEqual(v.Float64s(), c.want) {
			t.Errorf("%v: %v, want %v", c.idx, v.Float64s(), c.want)
		}
	}
}

// Every op of the package has a forward case (ops' own coverage test only
// sees the ops of packages its test binary imports).
func TestEveryOpHasForwardCase(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range append(forwardCases(), stepCases()...) {
		seen[c.op] = true
	}
	def := func(name string) *ops.Def {
		d, ok := ops.Lookup(name)
		if !ok {
			t.Fatalf("op %q is not registered", name)
		}
		return d
	}
	views := []*ops.Def{def("view_assign"), def("view_add"), def("view_sub"), def("view_mul"), def("view_div")}
	createView := def("create_view")
	for _, d := range append([]*ops.Def{createView, def("create_view_bp")}, views...) {
		if !seen[d.Name] {
			t.Errorf("op %q has no forward case", d.Name)
		}
		if d.Grad == nil {
			t.Errorf("op %q has no gradient rule", d.Name)
		}
		if d.Num != ops.Hash(d.Name) {
			t.Errorf("op %q: hash %d", d.Name, d.Num)
		}
	}
	if createView.Num != -6201726597031682680 {
		t.Errorf("create_view hash %d, want libnd4j's -6201726597031682680", createView.Num)
	}
	if createView.Flags&ops.View == 0 || def("view_add").Flags&ops.InPlace == 0 {
		t.Error("flags")
	}
	for _, d := range views {
		if !strings.Contains(d.Doc, "SameDiff has no such op") {
			t.Errorf("%s: Doc does not say it is an sdgo extension: %q", d.Name, d.Doc)
		}
	}
}

// The view shares the input's buffer: a write through it shows in the
// input; and a view of a view still does.
func TestViewAliasesInput(t *testing.T) {
	x := linspace(3, 4)
	v := runOp(t, nil, cv.OpName, withIdx([]*ndarray.Array{x}, cv.Point(-1), cv.Interval(1, 3))...)
	if !v.SameBuffer(x) {
		t.Fatal("the view has its own buffer")
	}
	if v.Offset() != 9 || !slices.Equal(v.Strides(), []int{1}) {
		t.Fatalf("view layout %v", v.Layout())
	}
	raw := ndarray.Raw[float64](v)
	raw[v.Offset()] = 100
	raw[v.Offset()+v.Strides()[0]] = 200
	if x.Float(2, 1) != 100 || x.Float(2, 2) != 200 {
		t.Fatalf("writes through the view not seen in the input: %v", x)
	}
	w := runOp(t, nil, cv.OpName, withIdx([]*ndarray.Array{v}, cv.Point(-1))...)
	ndarray.Raw[float64](w)[w.Offset()] = 300
	if x.Float(2, 2) != 300 || !w.SameBuffer(x) {
		t.Fatalf("view of a view: %v", x)
	}
}

func TestInfer(t *testing.T) {
	def, _ := ops.Lookup(cv.OpName)
	x := ops.Info{DType: ndarray.Float32, Shape: []int{3, 4}}
	c := func(idx cv.Index) ops.Info { return infoOf(i64v(idx.Descriptor()...)) }
	ph := ops.Info{DType: ndarray.Int64, Shape: []int{-1}}
	// Constant indices: resolved while building.
	out, err := def.Infer([]ops.Info{x, c(cv.Point(-1)), c(cv.NewAxis())}, &ops.Args{})
	if err != nil || !slices.Equal(out[0].Shape, []int{1, 4}) || out[0].DType != ndarray.Float32 {
		t.Errorf("constant indices: %v, %v", out, err)
	}
	// An index known only at run time: the rank is unknown.
	out, err = def.Infer([]ops.Info{x, c(cv.Point(-1)), ph}, &ops.Args{})
	if err != nil || !out[0].UnknownRank {
		t.Errorf("placeholder index: %v, %v", out, err)
	}
	// Unknown sizes.
	out, err = def.Infer([]ops.Info{{DType: ndarray.Float32, Shape: []int{-1, 4}}, c(cv.All()), c(cv.Interval(1, -1))}, &ops.Args{})
	if err != nil || !slices.Equal(out[0].Shape, []int{-1, 2}) {
		t.Errorf("unknown size: %v, %v", out, err)
	}
	// Errors name the input, the index, the axis and the shape.
	for _, tc := range []struct {
		in   []ops.Info
		want []string
	}{
		{[]ops.Info{x, c(cv.All()), c(cv.Point(4))}, []string{"create_view", "input 2", "index 1", "axis 1 of size 4", "[3 4]"}},
		{[]ops.Info{x, c(cv.NewAxis()), c(cv.Point(0)), c(cv.Interval(0, 5))}, []string{"input 3", "index 2", "axis 1 of size 4"}},
		{[]ops.Info{x, c(cv.All()), c(cv.All()), c(cv.All())}, []string{"input 3", "more indices than axes"}},
		{[]ops.Info{x, infoOf(i64v(1, 2, 1, 0, 2, 0, 0))}, []string{"input 1", "step (slot 5) is 0"}},
		{[]ops.Info{{DType: ndarray.Float32, UnknownRank: true}, infoOf(i64v(8, 0))}, []string{"input 1", "unknown index type 8"}},
		{[]ops.Info{x, {DType: ndarray.Float32, Shape: []int{5}}}, []string{"input 1", "INT64 vector"}},
		{[]ops.Info{x, {DType: ndarray.Int64, Shape: []int{5, 1}}}, []string{"input 1", "INT64 vector"}},
	} {
		_, err := def.Infer(tc.in, &ops.Args{})
		if err == nil {
			t.Errorf("%v: accepted", tc.in)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: %q does not mention %q", tc.in, err, w)
			}
		}
	}
	// The write ops check the value against the view.
	wdef, _ := ops.Lookup(cv.OpAdd)
	for _, tc := range []struct {
		in   []ops.Info
		want string
	}{
		{[]ops.Info{x, {DType: ndarray.Float32, Shape: []int{3}}, c(cv.Point(0))}, "does not broadcast to the view's shape [4]"},
		{[]ops.Info{x, {DType: ndarray.Float64, Shape: []int{}}, c(cv.Point(0))}, "float64"},
		{[]ops.Info{x, {DType: ndarray.Float32, Shape: []int{}}, c(cv.Point(3))}, "input 2"},
		{[]ops.Info{{DType: ndarray.Bool, Shape: []int{2}}, {DType: ndarray.Bool, Shape: []int{}}}, "numeric"},
	} {
		if _, err := wdef.Infer(tc.in, &ops.Args{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("view_add %v: %v, want an error mentioning %q", tc.in, err, tc.want)
		}
	}
	out, err = wdef.Infer([]ops.Info{x, {DType: ndarray.Float32, Shape: []int{-1}}, ph}, &ops.Args{})
	if err != nil || !slices.Equal(out[0].Shape, []int{3, 4}) {
		t.Errorf("view_add with a run-time index: %v, %v", out, err)
	}
	// create_view_bp writes its gradient into the view as the write ops
	// write their value, and is checked the same way.
	bdef, _ := ops.Lookup(cv.OpNameBP)
	for _, tc := range []struct {
		in   []ops.Info
		want []string
	}{
		{[]ops.Info{x, {DType: ndarray.Float32, Shape: []int{3}}, c(cv.Point(0))}, []string{"the gradient (input 1)", "does not broadcast to the view's shape [4]"}},
		{[]ops.Info{x, {DType: ndarray.Float32, Shape: []int{}}, c(cv.Point(3))}, []string{"input 2", "axis 0 of size 3"}},
		{[]ops.Info{x, {DType: ndarray.Float64, Shape: []int{}}, c(cv.Point(0))}, []string{"float64"}},
	} {
		_, err := bdef.Infer(tc.in, &ops.Args{})
		for _, w := range tc.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%s %v: %v, want an error mentioning %q", cv.OpNameBP, tc.in, err, w)
			}
		}
	}
	for _, in := range [][]ops.Info{
		{x, {DType: ndarray.Float32, Shape: []int{4}}, c(cv.Point(0))},
		{x, {DType: ndarray.Float32, Shape: []int{-1}}, ph},
		{{DType: ndarray.Float32, UnknownRank: true}, {DType: ndarray.Float32, Shape: []int{}}, c(cv.Point(0))},
	} {
		out, err := bdef.Infer(in, &ops.Args{})
		if err != nil || len(out) != 1 || out[0].DType != ndarray.Float32 || out[0].UnknownRank != in[0].UnknownRank || !slices.Equal(out[0].Shape, in[0].Shape) {
			t.Errorf("%s %v: %v, %v; want input 0's dtype and shape", cv.OpNameBP, in, out, err)
		}
	}
}

func TestRunErrors(t *testing.T) {
	x := linspace(3, 4)
	run := func(op string, in ...*ndarray.Array) error {
		d, _ := ops.Lookup(op)
		_, err := d.Run(nil, in, &ops.Args{})
		return err
	}
	for _, tc := range []struct {
		op   string
		in   []*ndarray.Array
		want []string
	}{
		{cv.OpName, withIdx([]*ndarray.Array{x}, cv.All(), cv.Point(-5)), []string{"create_view", "input 2", "index 1", "point -5", "axis 1 of size 4", "[3 4]"}},
		{cv.OpName, []*ndarray.Array{x, f64([]int{5}, 0, 1, 1, 0, 1)}, []string{"input 1", "INT64 vector"}},
		{cv.OpName, []*ndarray.Array{x, i64v(0, 1, 1)}, []string{"input 1", "5"}},
		{cv.OpAssign, withIdx([]*ndarray.Array{x, f64([]int{3}, 1, 2, 3)}, cv.Point(0)), []string{"view_assign", "[3]", "[4]"}},
		{cv.OpAssign, withIdx([]*ndarray.Array{x, ndarray.Scalar(float32(1))}, cv.Point(0)), []string{"float32"}},
		{cv.OpDiv, withIdx([]*ndarray.Array{i64v(1, 2), ndarray.Scalar(int64(0))}, cv.Point(0)), []string{"division by zero"}},
		{cv.OpNameBP, withIdx([]*ndarray.Array{x, f64([]int{3}, 1, 2, 3)}, cv.Point(0)), []string{"create_view_bp", "[3]", "[4]"}},
		{cv.OpNameBP, withIdx([]*ndarray.Array{x, ndarray.Scalar(1.0)}, cv.Point(7)), []string{"input 2", "point 7"}},
	} {
		err := run(tc.op, tc.in...)
		if err == nil {
			t.Errorf("%s %v: accepted", tc.op, tc.in)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q does not mention %q", tc.op, err, w)
			}
		}
	}
	// Failed writes leave the base alone, in place or not.
	base := i64v(1, 2)
	d, _ := ops.Lookup(cv.OpDiv)
	ctx := ops.NewCtx("t", nil, func(int) bool { return true })
	if _, err := d.Run(ctx, withIdx([]*ndarray.Array{base, ndarray.Scalar(int64(0))}, cv.Point(0)), &ops.Args{}); err == nil {
		t.Error("integer division by zero accepted")
	}
	if !reflect.DeepEqual(base.Int64s(), []int64{1, 2}) {
		t.Errorf("a failed in-place write changed the base: %v", base)
	}
	var ie *cv.IndexError
	_, err := cv.View(x, idxArrays(cv.Point(3))...)
	if !errors.As(err, &ie) || ie.Pos != 0 || ie.Axis != 0 {
		t.Errorf("View error %v", err)
	}
}

// Write runs a write outside a graph and never changes its inputs.
func TestWriteHelper(t *testing.T) {
	x := linspace(2, 2)
	got, err := cv.Write(cv.OpMul, x, ndarray.Scalar(10.0), idxArrays(cv.All(), cv.Point(-1))...)
	if err != nil || !ndarray.Equal(got, f64([]int{2, 2}, 1, 20, 3, 40)) {
		t.Fatalf("Write = %v, %v", got, err)
	}
	if !ndarray.Equal(x, linspace(2, 2)) || got.SameBuffer(x) {
		t.Fatal("Write changed its base")
	}
	if _, err := cv.Write("add", x, x); err == nil {
		t.Error(`Write("add") accepted`)
	}
}

// The in-place path writes into the base's buffer and returns its layout;
// the copy path leaves it; both give the same values, on padded bases too.
func TestWritePaths(t *testing.T) {
	def, _ := ops.Lookup(cv.OpAdd)
	yes := ops.NewCtx("t", nil, func(i int) bool { return i == 0 })
	for _, padded := range []bool{false, true} {
		mk := func() *ndarray.Array {
			if !padded {
				return linspace(3, 4)
			}
			a := ndarray.Must(ndarray.NewPadded(ndarray.Float64, []int{3, 4}, []int{1, 2}, []int{1, 1}))
			if err := ndarray.CopyInto(a, linspace(3, 4)); err != nil {
				t.Fatal(err)
			}
			return a
		}
		idx := idxArrays(cv.Interval(1, 3), cv.Point(-2))
		b1, b2 := mk(), mk()
		in1 := append([]*ndarray.Array{b1, f64([]int{2}, 100, 200)}, idx...)
		in2 := append([]*ndarray.Array{b2, f64([]int{2}, 100, 200)}, idx...)
		copied, err := def.Run(nil, in1, &ops.Args{})
		if err != nil {
			t.Fatal(err)
		}
		inPlace, err := def.Run(yes, in2, &ops.Args{})
		if err != nil {
			t.Fatal(err)
		}
		want := f64([]int{3, 4}, 1, 2, 3, 4, 5, 6, 107, 8, 9, 10, 211, 12)
		if !ndarray.Equal(copied[0], want) || !ndarray.Equal(inPlace[0], want) {
			t.Fatalf("padded %v: copy %v, in place %v, want %v", padded, copied[0], inPlace[0], want)
		}
		if copied[0].SameBuffer(b1) || !ndarray.Equal(b1, linspace(3, 4)) {
			t.Fatalf("padded %v: the copy path touched the base", padded)
		}
		if !inPlace[0].SameBuffer(b2) || !reflect.DeepEqual(inPlace[0].Layout(), b2.Layout()) {
			t.Fatalf("padded %v: the in-place path returned %v, base %v", padded, inPlace[0].Layout(), b2.Layout())
		}
	}
	// A value on the base's buffer forces a copy even when overwriting is
	// allowed.
	b := linspace(2, 2)
	row0, _ := cv.View(b, idxArrays(cv.Point(0))...)
	out, err := def.Run(yes, append([]*ndarray.Array{b, row0}, idxArrays(cv.Point(1))...), &ops.Args{})
	if err != nil || out[0].SameBuffer(b) || !ndarray.Equal(out[0], f64([]int{2, 2}, 1, 2, 4, 6)) {
		t.Fatalf("value on the base's buffer: %v, %v", out, err)
	}
}

// Write outside a graph copies base; a copy above the allocation limit
// (ndarray.SetAllocLimit) is an error wrapping ErrTooLarge, as it is when
// the op runs in a graph. Ctx.Alloc, which has no error to return, panicked
// out of Write.
func TestWriteAboveAllocLimit(t *testing.T) {
	base := linspace(1000, 1000)
	runtime.GC()
	defer ndarray.SetAllocLimit(ndarray.SetAllocLimit(ndarray.MemoryInUse() + 1<<20)) // less than base's 8 MB
	_, err := cv.Write(cv.OpAdd, base, f64([]int{}, 1), idxArrays(cv.Point(0))...)
	if !errors.Is(err, ndarray.ErrTooLarge) || !strings.Contains(err.Error(), cv.OpAdd) {
		t.Errorf("Write above the allocation limit: %v, want an error wrapping ErrTooLarge naming %s", err, cv.OpAdd)
	}
}
