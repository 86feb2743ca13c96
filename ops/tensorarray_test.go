package ops_test

import (
	"strings"
	"testing"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Tensor arrays live in a run's state, so they are tested through graphs
// and the executor.

// ta is a tensor array under construction: its handle and current flow.
type ta struct {
	g    *graph.Graph
	h    *graph.Variable
	flow *graph.Variable
	dt   ndarray.DType
}

func newTA(g *graph.Graph, size int32, dt ndarray.DType, dynamic bool) *ta {
	outs, err := g.Op("tensorarrayv3", ops.TensorArrayArgs(dt, dynamic), g.Const("", ndarray.Scalar(size)))
	if err != nil {
		panic(err)
	}
	return &ta{g: g, h: outs[0], flow: outs[1], dt: dt}
}

func (t *ta) write(i int32, v *graph.Variable) *ta {
	t.flow = t.g.Apply("tensorarraywritev3", ops.Args{}, t.h, t.g.Const("", ndarray.Scalar(i)), v, t.flow)
	return t
}

func (t *ta) elem() ops.Args { return ops.Args{D: []ndarray.DType{t.dt}} }

func (t *ta) read(i int32) *graph.Variable {
	return t.g.Apply("tensorarrayreadv3", t.elem(), t.h, t.g.Const("", ndarray.Scalar(i)), t.flow)
}

func mustRun(t *testing.T, g *graph.Graph, feeds map[string]*ndarray.Array, vs ...*graph.Variable) []*ndarray.Array {
	t.Helper()
	names := make([]string, len(vs))
	for i, v := range vs {
		if err := v.Err(); err != nil {
			t.Fatal(err)
		}
		names[i] = v.Name()
	}
	res, err := exec.Output(g, feeds, names...)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]*ndarray.Array, len(vs))
	for i, n := range names {
		out[i] = res[n]
	}
	return out
}

func runErr(t *testing.T, g *graph.Graph, v *graph.Variable, want ...string) {
	t.Helper()
	if err := v.Err(); err != nil {
		t.Fatal(err)
	}
	_, err := exec.Output(g, nil, v.Name())
	if err == nil {
		t.Fatalf("%s ran without error", v.Name())
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not mention %q", err, w)
		}
	}
}

func expectArr(t *testing.T, got, want *ndarray.Array) {
	t.Helper()
	if got.DType() != want.DType() || !ndarray.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestTensorArrayOps(t *testing.T) {
	g := graph.New()
	a := g.Const("a", f64([]int{2}, 1, 2))
	b := g.Const("b", f64([]int{2}, 3, 4))
	c := g.Const("c", f64([]int{2}, 5, 6))
	arr := newTA(g, 2, ndarray.Float64, true)
	arr.write(0, a).write(1, b)
	first := arr.read(0)
	arr.write(1, c) // replaces element 1 (SameDiff's behaviour)
	arr.write(3, a) // grows the array to 4 elements; element 2 stays unwritten
	second := arr.read(1)
	size := g.Apply("tensorarraysizev3", ops.Args{}, arr.h, arr.flow)
	gather := g.Apply("tensorarraygatherv3", arr.elem(), arr.h, g.Const("", i32([]int{3}, 3, 0, 1)), arr.flow)
	outs := mustRun(t, g, nil, first, second, size, gather)
	expectArr(t, outs[0], f64([]int{2}, 1, 2)) // the read saw only the first two writes
	expectArr(t, outs[1], f64([]int{2}, 5, 6))
	expectArr(t, outs[2], ndarray.Scalar(int64(4)))
	expectArr(t, outs[3], f64([]int{3, 2}, 1, 2, 1, 2, 5, 6))

	runErr(t, g, arr.read(2), "tensorarrayreadv3", "element 2", "never written")
	runErr(t, g, arr.read(7), "tensorarrayreadv3", "index 7", "outside")
	runErr(t, g, g.Apply("tensorarraystack", arr.elem(), arr.h, arr.flow), "element 2", "never written")
}

func TestTensorArrayScatterSplitStack(t *testing.T) {
	g := graph.New()
	m := g.Const("m", f64([]int{3, 2}, 1, 2, 3, 4, 5, 6))
	// scatter rows 0, 1, 2 of m at indices 2, 0, 1
	arr := newTA(g, 0, ndarray.Float64, true)
	arr.flow = g.Apply("tensorarrayscatterv3", ops.Args{}, arr.h, g.Const("", i64([]int{3}, 2, 0, 1)), m, arr.flow)
	stacked := g.Apply("tensorarraystack", arr.elem(), arr.h, arr.flow)
	all := g.Apply("tensorarraygatherv3", arr.elem(), arr.h, g.Const("", i32([]int{1}, -1)), arr.flow) // SameDiff's stack
	// unstack, and SameDiff's unstack: scatter with [-1]
	u := newTA(g, 0, ndarray.Float64, true)
	u.flow = g.Apply("tensorarrayunstack", ops.Args{}, u.h, m, u.flow)
	u2 := newTA(g, 0, ndarray.Float64, true)
	u2.flow = g.Apply("tensorarrayscatterv3", ops.Args{}, u2.h, g.Const("", i32([]int{1}, -1)), m, u2.flow)
	// split m into pieces of 1 and 2 rows; concat joins them back
	s := newTA(g, 0, ndarray.Float64, true)
	s.flow = g.Apply("tensorarraysplitv3", ops.Args{}, s.h, m, g.Const("", i64([]int{2}, 1, 2)), s.flow)
	piece := s.read(1)
	concat := g.Apply("tensorarrayconcatv3", s.elem(), s.h, s.flow)
	outs := mustRun(t, g, nil, stacked, all, u.read(2), u2.read(0), piece, concat)
	expectArr(t, outs[0], f64([]int{3, 2}, 3, 4, 5, 6, 1, 2))
	expectArr(t, outs[1], outs[0])
	expectArr(t, outs[2], f64([]int{2}, 5, 6))
	expectArr(t, outs[3], f64([]int{2}, 1, 2))
	expectArr(t, outs[4], f64([]int{2, 2}, 3, 4, 5, 6))
	expectArr(t, outs[5], f64([]int{3, 2}, 1, 2, 3, 4, 5, 6))
	// The pieces differ in their first axis: stacking them fails.
	runErr(t, g, g.Apply("tensorarraystack", s.elem(), s.h, s.flow), "tensorarraystack", "[1 2]", "[2 2]", "one shape")
	runErr(t, g, g.Apply("tensorarraysplitv3", ops.Args{}, s.h, m, g.Const("", i64([]int{2}, 1, 1)), s.flow), "add up to 2", "3 rows")
}

func TestTensorArrayErrors(t *testing.T) {
	g := graph.New()
	x := g.Const("x", f64([]int{2}, 1, 2))
	fixedArr := newTA(g, 1, ndarray.Float64, false)
	fixedArr.write(0, x)
	runErr(t, g, fixedArr.write(1, x).flow, "tensorarraywritev3", "index 1", "cannot grow")

	// A growing array refuses an index that would need a huge allocation.
	huge := newTA(g, 0, ndarray.Float64, true)
	runErr(t, g, huge.write(0x7f000000, x).flow, "index 2130706432", "past 16777216 elements")

	typed := newTA(g, 1, ndarray.Float64, true)
	runErr(t, g, typed.write(0, g.Const("", i32([]int{2}, 1, 2))).flow, "int32", "float64")

	shaped := newTA(g, 2, ndarray.Invalid, true)
	shaped.write(0, x)
	runErr(t, g, shaped.write(1, g.Const("", f64([]int{3}, 1, 2, 3))).flow, "shape [3]", "shape [2]")

	notHandle := g.Apply("tensorarrayreadv3", ops.Args{}, g.Const("", ndarray.Scalar(true)), g.Const("", ndarray.Scalar(int32(0))))
	runErr(t, g, notHandle, "not the handle of a tensor array")

	closed := newTA(g, 1, ndarray.Float64, true)
	closed.write(0, x)
	done := g.Apply("tensorarrayclosev3", ops.Args{}, closed.h, closed.flow)
	after := g.Apply("tensorarrayreadv3", closed.elem(), closed.h, g.Const("", ndarray.Scalar(int32(0))), done)
	runErr(t, g, after, "closed by", done.Op().Name())

	// The read declares int64 elements; the array holds float64.
	wrong := newTA(g, 1, ndarray.Invalid, true)
	wrong.write(0, x)
	runErr(t, g, g.Apply("tensorarrayreadv3", ops.Args{D: []ndarray.DType{ndarray.Int64}}, wrong.h, g.Const("", ndarray.Scalar(int32(0))), wrong.flow),
		"int64", "float64")
}

// Each run has its own tensor arrays: a session run twice sees the same
// results.
func TestTensorArrayPerRun(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 2)
	arr := newTA(g, 0, ndarray.Float64, true)
	arr.write(0, x)
	size := g.Apply("tensorarraysizev3", ops.Args{}, arr.h, arr.flow)
	r := arr.read(0)
	s := exec.New(g)
	for _, v := range []float64{1, 2} {
		res, err := s.Output(map[string]*ndarray.Array{"x": f64([]int{2}, v, v)}, size.Name(), r.Name())
		if err != nil {
			t.Fatal(err)
		}
		expectArr(t, res[size.Name()], ndarray.Scalar(int64(1)))
		expectArr(t, res[r.Name()], f64([]int{2}, v, v))
	}
}

// A tensor array created outside a loop and written inside it (with
// g.While, whose body reads the handle from the enclosing frame): element
// i is i·x, for 0, 1 and many iterations.
func TestTensorArrayInWhile(t *testing.T) {
	for _, n := range []int32{0, 1, 5} {
		g := graph.New()
		x := g.Placeholder("x", ndarray.Float64, 2)
		limit := g.Placeholder("n", ndarray.Int32)
		arr := newTA(g, 0, ndarray.Float64, true)
		exits, err := g.While([]*graph.Variable{g.Const("i0", ndarray.Scalar(int32(0))), arr.flow},
			func(v []*graph.Variable) *graph.Variable { return v[0].Lt(limit) },
			func(v []*graph.Variable) []*graph.Variable {
				val := x.Mul(v[0].Cast(ndarray.Float64))
				f := g.Apply("tensorarraywritev3", ops.Args{}, arr.h, v[0], val, v[1])
				return []*graph.Variable{v[0].Add(g.Const("", ndarray.Scalar(int32(1)))), f}
			})
		if err != nil {
			t.Fatal(err)
		}
		arr.flow = exits[1]
		size := g.Apply("tensorarraysizev3", ops.Args{}, arr.h, arr.flow)
		stack := g.Apply("tensorarraystack", arr.elem(), arr.h, arr.flow)
		feeds := map[string]*ndarray.Array{"x": f64([]int{2}, 1, -2), "n": ndarray.Scalar(n)}
		res := mustRun(t, g, feeds, size, exits[0])
		expectArr(t, res[0], ndarray.Scalar(int64(n)))
		expectArr(t, res[1], ndarray.Scalar(n))
		if n == 0 {
			_, err := exec.Output(g, feeds, stack.Name())
			if err == nil || !strings.Contains(err.Error(), "no element") {
				t.Errorf("stack of an empty array: %v", err)
			}
			continue
		}
		var want []float64
		for i := 0; i < int(n); i++ {
			want = append(want, float64(i), -2*float64(i))
		}
		expectArr(t, mustRun(t, g, feeds, stack)[0], f64([]int{int(n), 2}, want...))
	}
}

// Reads inside a loop see the writes of earlier iterations, ordered by
// the flow: element 0 is x, element i is element i-1 + x.
func TestTensorArrayReadAfterWriteInLoop(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 2)
	arr := newTA(g, 1, ndarray.Float64, true)
	arr.write(0, x)
	exits, err := g.While([]*graph.Variable{g.Const("i0", ndarray.Scalar(int32(1))), arr.flow},
		func(v []*graph.Variable) *graph.Variable { return v[0].Lt(g.Const("", ndarray.Scalar(int32(4)))) },
		func(v []*graph.Variable) []*graph.Variable {
			prev := g.Apply("tensorarrayreadv3", arr.elem(), arr.h, v[0].Sub(g.Const("", ndarray.Scalar(int32(1)))), v[1])
			f := g.Apply("tensorarraywritev3", ops.Args{}, arr.h, v[0], prev.Add(x), v[1])
			return []*graph.Variable{v[0].Add(g.Const("", ndarray.Scalar(int32(1)))), f}
		})
	if err != nil {
		t.Fatal(err)
	}
	stack := g.Apply("tensorarraygatherv3", arr.elem(), arr.h, g.Const("", i32([]int{1}, -1)), exits[1])
	res := mustRun(t, g, map[string]*ndarray.Array{"x": f64([]int{2}, 1, 10)}, stack)
	expectArr(t, res[0], f64([]int{4, 2}, 1, 10, 2, 20, 3, 30, 4, 40))
}

// The loop as TensorFlow (and SameDiff files imported from it) builds it:
// the handle enters the frame as a loop invariant (enter with isConstant),
// the flow is a loop variable.
func TestTensorArrayTFLoop(t *testing.T) {
	for _, n := range []int32{0, 1, 3} {
		g := graph.New()
		x := g.Placeholder("x", ndarray.Float64, 2)
		arr := newTA(g, 0, ndarray.Float64, true)
		const frame = "ta_while"
		op := func(name string, args ops.Args, in ...*graph.Variable) []*graph.Variable {
			outs, err := g.Op(name, args, in...)
			if err != nil {
				t.Fatal(err)
			}
			return outs
		}
		hE := op("enter", ops.EnterArgs(frame, true), arr.h)[0]
		xE := op("enter", ops.EnterArgs(frame, true), x)[0]
		nE := op("enter", ops.EnterArgs(frame, true), g.Const("n", ndarray.Scalar(n)))[0]
		iM := op("merge", ops.Args{}, op("enter", ops.EnterArgs(frame, false), g.Const("i0", ndarray.Scalar(int32(0))))[0])[0]
		fM := op("merge", ops.Args{}, op("enter", ops.EnterArgs(frame, false), arr.flow)[0])[0]
		lc := op("loop_cond", ops.Args{}, iM.Lt(nE))[0]
		iS := op("switch", ops.Args{}, iM, lc)
		fS := op("switch", ops.Args{}, fM, lc)
		fX := op("exit", ops.Args{}, fS[0])[0]
		i := op("identity", ops.Args{}, iS[1])[0]
		w := op("tensorarraywritev3", ops.Args{}, hE, i, xE.Add(i.Cast(ndarray.Float64)), fS[1])[0]
		if err := g.AddBackEdge(iM.Op(), op("next_iteration", ops.Args{}, i.Add(g.Const("", ndarray.Scalar(int32(1)))))[0]); err != nil {
			t.Fatal(err)
		}
		if err := g.AddBackEdge(fM.Op(), op("next_iteration", ops.Args{}, w)[0]); err != nil {
			t.Fatal(err)
		}
		size := g.Apply("tensorarraysizev3", ops.Args{}, arr.h, fX)
		feeds := map[string]*ndarray.Array{"x": f64([]int{2}, 10, 20)}
		expectArr(t, mustRun(t, g, feeds, size)[0], ndarray.Scalar(int64(n)))
		if n == 0 {
			continue
		}
		var want []float64
		for k := 0; k < int(n); k++ {
			want = append(want, 10+float64(k), 20+float64(k))
		}
		stack := g.Apply("tensorarraystack", arr.elem(), arr.h, fX)
		expectArr(t, mustRun(t, g, feeds, stack)[0], f64([]int{int(n), 2}, want...))
	}
}

// A tensor array created inside a loop body is a new one every
// iteration: acc += (write i, then read it back).
func TestTensorArrayPerIteration(t *testing.T) {
	g := graph.New()
	exits, err := g.While([]*graph.Variable{g.Const("i0", ndarray.Scalar(int32(0))), g.Const("acc0", ndarray.Scalar(int32(0)))},
		func(v []*graph.Variable) *graph.Variable { return v[0].Lt(g.Const("", ndarray.Scalar(int32(4)))) },
		func(v []*graph.Variable) []*graph.Variable {
			outs, err := g.Op("tensorarrayv3", ops.TensorArrayArgs(ndarray.Int32, false), g.Const("", ndarray.Scalar(int32(1))))
			if err != nil {
				t.Fatal(err)
			}
			zero := g.Const("", ndarray.Scalar(int32(0)))
			f := g.Apply("tensorarraywritev3", ops.Args{}, outs[0], zero, v[0], outs[1])
			size := g.Apply("tensorarraysizev3", ops.Args{D: []ndarray.DType{ndarray.Int32}}, outs[0], f)
			r := g.Apply("tensorarrayreadv3", ops.Args{D: []ndarray.DType{ndarray.Int32}}, outs[0], zero, f)
			return []*graph.Variable{v[0].Add(size), v[1].Add(r)}
		})
	if err != nil {
		t.Fatal(err)
	}
	res := mustRun(t, g, nil, exits[1])
	expectArr(t, res[0], ndarray.Scalar(int32(0+1+2+3)))
}

// Tensor array ops are Stateful: an executor running independent ops
// concurrently runs them alone; two arrays filled side by side stay apart.
func TestTensorArrayParallel(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, 2)
	var reads []string
	for k := 0; k < 4; k++ {
		arr := newTA(g, 0, ndarray.Float64, true)
		for i := int32(0); i < 3; i++ {
			arr.write(i, x.MulScalar(float64(10*k)+float64(i)))
		}
		reads = append(reads, g.Apply("tensorarraystack", arr.elem(), arr.h, arr.flow).Name())
	}
	s := exec.New(g)
	s.Parallel = 4
	for run := 0; run < 3; run++ {
		res, err := s.Output(map[string]*ndarray.Array{"x": f64([]int{2}, 1, -1)}, reads...)
		if err != nil {
			t.Fatal(err)
		}
		for k, n := range reads {
			var want []float64
			for i := 0; i < 3; i++ {
				v := float64(10*k + i)
				want = append(want, v, -v)
			}
			expectArr(t, res[n], f64([]int{3, 2}, want...))
		}
	}
}

// Files store a tensor array op's number as the hash of the libnd4j list op
// it runs as; a hash of a name libnd4j does not have (sdgo's concat wrote
// concat_list's) leaves a saved graph that SameDiff cannot resolve.
func TestTensorArrayOpNumsAreLibnd4jOps(t *testing.T) {
	// libnd4j's list ops (ops/declarable/generic/list)
	lib := []string{"create_list", "write_list", "read_list", "size_list", "stack_list", "unstack_list",
		"gather_list", "scatter_list", "split_list", "pick_list", "clone_list", "delete_list"}
	hashes := map[int64]string{}
	for _, n := range lib {
		hashes[ops.Hash(n)] = n
	}
	for _, d := range ops.All() {
		// The gradient ops are sdgo's own, as loop_value is: they are in
		// the gradient graphs autodiff builds, not in SameDiff's files.
		if !strings.HasPrefix(d.Name, "tensorarray") || strings.HasPrefix(d.Name, "tensorarray_grad_") {
			continue
		}
		if _, ok := hashes[d.Num]; !ok {
			t.Errorf("%s: number %d is the hash of no libnd4j list op", d.Name, d.Num)
		}
	}
	if d, _ := ops.Lookup("tensorarrayconcatv3"); d.Num != ops.Hash("stack_list") {
		t.Errorf("tensorarrayconcatv3's number is %d, want stack_list's %d (ND4J's TensorArrayConcat)", d.Num, ops.Hash("stack_list"))
	}
	if d, _ := ops.Lookup("stack_list"); d == nil || d.Name != "tensorarraystack" {
		t.Errorf("a file's stack_list names %v, want tensorarraystack", d)
	}
}
