package createview_test

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	cv "github.com/sdgo/sdgo/ops/createview"
	"github.com/sdgo/sdgo/validation"
)

// bruteView is a second, coordinate-by-coordinate reference for a view:
// for every output coordinate it works out the input coordinate and its
// buffer position. ok is false when an index is out of range.
func bruteView(shape, strides []int, offset int, idx []cv.Index) (vshape, pos []int, ok bool) {
	type ax struct{ in, start, step, n int } // in < 0: new axis
	var axes []ax
	fixed := offset
	a := 0
	norm := func(v int64, n int) int64 {
		if v < 0 {
			return v + int64(n)
		}
		return v
	}
	for _, x := range idx {
		if x.Kind() == cv.NewAxisType {
			axes = append(axes, ax{in: -1, n: 1})
			continue
		}
		if a >= len(shape) {
			return nil, nil, false
		}
		n := shape[a]
		switch x.Kind() {
		case cv.PointType:
			p := norm(x.Point(), n)
			if p < 0 || p >= int64(n) {
				return nil, nil, false
			}
			fixed += int(p) * strides[a]
		case cv.AllType:
			axes = append(axes, ax{in: a, start: 0, step: 1, n: n})
		case cv.IntervalType:
			s, e, step, incl := x.Bounds()
			s, e = norm(s, n), norm(e, n)
			hi := int64(n)
			if incl {
				hi--
			}
			if step < 1 || s < 0 || s > int64(n) || e < 0 || e > hi || e < s {
				return nil, nil, false
			}
			cnt := 0
			for c := s; c < e || (incl && c == e); c += step {
				cnt++
			}
			axes = append(axes, ax{in: a, start: int(s), step: int(step), n: cnt})
		}
		a++
	}
	for ; a < len(shape); a++ {
		axes = append(axes, ax{in: a, start: 0, step: 1, n: shape[a]})
	}
	vshape = make([]int, len(axes))
	total := 1
	for i, x := range axes {
		vshape[i] = x.n
		total *= x.n
	}
	coord := make([]int, len(axes))
	for k := 0; k < total; k++ {
		p := fixed
		for i, x := range axes {
			if x.in >= 0 {
				p += (x.start + coord[i]*x.step) * strides[x.in]
			}
		}
		pos = append(pos, p)
		for i := len(coord) - 1; i >= 0; i-- {
			coord[i]++
			if coord[i] < axes[i].n {
				break
			}
			coord[i] = 0
		}
	}
	return vshape, pos, true
}

// randIndices returns random indices for shape, mostly valid, with negative
// bounds, steps, inclusive ends and new axes.
func randIndices(r *rand.Rand, shape []int) []cv.Index {
	var idx []cv.Index
	a := 0
	for a < len(shape) && r.Intn(4) != 0 || r.Intn(8) == 0 {
		n := 3
		if a < len(shape) {
			n = shape[a]
		}
		v := func() int {
			x := r.Intn(n + 1)
			if r.Intn(3) == 0 {
				x -= n
			}
			if r.Intn(30) == 0 {
				x += 2*r.Intn(2)*n - n - 1 // out of range
			}
			return x
		}
		switch r.Intn(7) {
		case 0, 1:
			idx = append(idx, cv.Point(v()))
		case 2, 3, 4:
			s, e := v(), v()
			idx = append(idx, cv.IntervalStep(s, e, 1+r.Intn(3), r.Intn(2) == 0))
		case 5:
			idx = append(idx, cv.All())
		default:
			idx = append(idx, cv.NewAxis())
			continue
		}
		a++
	}
	return idx
}

// randInput returns an array of random shape (rank 0..3) holding its
// buffer positions: packed, padded, or itself a strided view of a bigger
// array.
func randInput(r *rand.Rand) *ndarray.Array {
	rank := r.Intn(4)
	shape := make([]int, rank)
	for i := range shape {
		shape[i] = r.Intn(4) + 1
	}
	var a *ndarray.Array
	switch r.Intn(3) {
	case 0:
		a = ndarray.Must(ndarray.Zeros(ndarray.Float64, shape...))
	case 1:
		pad, off := make([]int, rank), make([]int, rank)
		for i := range pad {
			pad[i] = r.Intn(3)
			off[i] = r.Intn(pad[i] + 1)
		}
		a = ndarray.Must(ndarray.NewPadded(ndarray.Float64, shape, pad, off))
	default:
		// every other element of a bigger array, at an offset
		big := make([]int, rank)
		idx := make([]cv.Index, rank)
		for i := range big {
			big[i] = 2*shape[i] + 1
			idx[i] = cv.IntervalStep(1, 2*shape[i]+1, 2, false)
		}
		b := ndarray.Must(ndarray.Zeros(ndarray.Float64, big...))
		v, err := cv.View(b, idxArrays(idx...)...)
		if err != nil {
			panic(err)
		}
		a = v
	}
	raw := ndarray.Raw[float64](a)
	for i := range raw {
		raw[i] = float64(i)
	}
	return a
}

// View and Resolve agree with bruteView on random inputs (packed, padded,
// strided views) and on views of those views.
func TestReviewResolveBruteForce(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	ok1, bad := 0, 0
	for iter := 0; iter < 20000; iter++ {
		x := randInput(r)
		for level := 0; level < 2; level++ {
			idx := randIndices(r, x.Shape())
			vs, pos, ok := bruteView(x.Shape(), x.Strides(), x.Offset(), idx)
			if len(vs) > ndarray.MaxRank {
				ok = false
			}
			v, err := cv.View(x, idxArrays(idx...)...)
			if (err == nil) != ok {
				t.Fatalf("x %v %v indices %v: View error %v, brute force ok %v", x.Shape(), x.Layout(), idx, err, ok)
			}
			if err != nil {
				bad++
				break
			}
			ok1++
			if !v.SameBuffer(x) || !slices.Equal(v.Shape(), vs) {
				t.Fatalf("x %v indices %v: view %v, want shape %v", x.Layout(), idx, v.Layout(), vs)
			}
			got := v.Float64s()
			want := make([]float64, len(pos))
			for i, p := range pos {
				want[i] = float64(p)
			}
			if len(got) != len(want) || (len(got) > 0 && !slices.Equal(got, want)) {
				t.Fatalf("x %v indices %v: view %v elements %v, want %v", x.Layout(), idx, v.Layout(), got, want)
			}
			x = v
		}
	}
	t.Logf("%d views checked, %d rejected", ok1, bad)
}

// validIndices draws indices until they select a non-empty view of shape.
func validIndices(r *rand.Rand, shape []int) ([]cv.Index, []int) {
	for {
		idx := randIndices(r, shape)
		vs, _, _, err := cv.ResolveIndex(shape, ndarray.PackedStrides(shape), 0, idx...)
		if err == nil && len(vs) <= 4 && ndarray.Packed(vs...).Size() > 0 {
			return idx, vs
		}
	}
}

func randArray(r *rand.Rand, shape []int, away float64) *ndarray.Array {
	a := ndarray.Must(ndarray.Zeros(ndarray.Float64, shape...))
	raw := ndarray.Raw[float64](a)
	for i := range raw {
		raw[i] = r.Float64()*2 - 1
		if away > 0 {
			raw[i] = away + r.Float64() // away from zero, for division
		}
	}
	return a
}

// valueShape returns a random shape that broadcasts to vs.
func valueShape(r *rand.Rand, vs []int) []int {
	k := r.Intn(len(vs) + 1)
	out := slices.Clone(vs[k:])
	for i := range out {
		if r.Intn(3) == 0 {
			out[i] = 1
		}
	}
	return out
}

// Gradients through writes (in place and copied), writes into strided
// bases, and writes through views of views, against central differences.
func TestReviewWriteGradients(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	writes := []func(v, val *graph.Variable) *graph.Variable{
		func(v, val *graph.Variable) *graph.Variable { return v.Assign(val) },
		func(v, val *graph.Variable) *graph.Variable { return v.AddAssign(val) },
		func(v, val *graph.Variable) *graph.Variable { return v.SubAssign(val) },
		func(v, val *graph.Variable) *graph.Variable { return v.MulAssign(val) },
		func(v, val *graph.Variable) *graph.Variable { return v.DivAssign(val) },
	}
	checked, graphs, inPlace := 0, 0, 0
	for iter := 0; iter < 150; iter++ {
		g := graph.New()
		rank := 1 + r.Intn(3)
		shape := make([]int, rank)
		for i := range shape {
			shape[i] = 1 + r.Intn(4)
		}
		x0 := g.Var("x0", randArray(r, shape, 0))
		// An op output, so the executor may write into it.
		x := x0.Mul(g.Scalar(ndarray.Float64, 1.5))
		desc := fmt.Sprintf("x %v", shape)
		base := x
		if r.Intn(3) == 0 { // a strided or squeezed base: a view of x
			idx, _ := validIndices(r, shape)
			base = x.View(idx...)
			desc += fmt.Sprintf(" base x%v", idx)
		}
		bshape := base.Shape()
		if len(bshape) == 0 || ndarray.Packed(bshape...).Size() == 0 {
			continue
		}
		idx, vs := validIndices(r, bshape)
		view := base.View(idx...)
		if r.Intn(3) == 0 { // a view of a view
			idx2, vs2 := validIndices(r, vs)
			if len(vs2) > 0 {
				view = view.View(idx2...)
				vs = vs2
				desc += fmt.Sprintf(" view%v%v", idx, idx2)
			}
		} else {
			desc += fmt.Sprintf(" view%v", idx)
		}
		k := r.Intn(len(writes))
		away := 0.0
		if k == 4 {
			away = 0.5
		}
		val := g.Var("val", randArray(r, valueShape(r, vs), away))
		y := writes[k](view, val)
		desc += fmt.Sprintf(" write %d", k)
		loss := y.Mul(g.Const("w", randArray(r, y.Shape(), 0))).Sum()
		if r.Intn(2) == 0 { // the old version is read too: the write copies
			loss = loss.Add(x.Mul(g.Const("w2", randArray(r, x.Shape(), 0))).Sum())
			desc += " +old"
		}
		if r.Intn(3) == 0 { // a second write on the new version
			idx3, vs3 := validIndices(r, y.Shape())
			val2 := g.Var("val2", randArray(r, valueShape(r, vs3), 0))
			y2 := y.View(idx3...).AddAssign(val2)
			loss = loss.Add(y2.Mul(g.Const("w3", randArray(r, y2.Shape(), 0))).Sum())
			desc += fmt.Sprintf(" then +=%v", idx3)
		}
		loss = loss.Named("loss")
		if err := g.Err(); err != nil {
			t.Fatalf("%s: %v", desc, err)
		}
		if err := g.SetLoss("loss"); err != nil {
			t.Fatal(err)
		}
		res, err := validation.CheckGradients(g, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", desc, err)
		}
		if !res.OK() {
			t.Fatalf("%s:\n%v", desc, res)
		}
		checked += res.Checked
		graphs++
		if res.InPlace.InPlace > 0 {
			inPlace++
		}
	}
	t.Logf("%d graphs, %d parameters checked, %d with an in-place write", graphs, checked, inPlace)
	if graphs < 100 || inPlace < 20 {
		t.Errorf("poor coverage")
	}
}

// A random program of views, writes (through views and views of views) and
// readers, run by the executor (sequential and parallel, twice per session
// so recycled buffers come back) under the non-in-place listener, agrees
// with the same program computed functionally by View and Write, and leaves
// feeds, variables and constants alone.
func TestReviewExecRandomPrograms(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	wops := []string{cv.OpAssign, cv.OpAdd, cv.OpSub, cv.OpMul, cv.OpDiv}
	inPlace, copied := 0, 0
	for iter := 0; iter < 150; iter++ {
		g := graph.New()
		shape := []int{1 + r.Intn(4), 1 + r.Intn(4)}
		if r.Intn(2) == 0 {
			shape = append(shape, 1+r.Intn(3))
		}
		pv, cvv, wv := randArray(r, shape, 0), randArray(r, shape, 0), randArray(r, shape, 0)
		pc, cc, wc := ndarray.Must(ndarray.Copy(pv)), ndarray.Must(ndarray.Copy(cvv)), ndarray.Must(ndarray.Copy(wv))
		type val struct {
			v    *graph.Variable
			ref  *ndarray.Array
			view bool // made by View: writable through
			base int  // the view's input, for a view
			idx  []cv.Index
		}
		vals := []val{
			{v: g.Placeholder("p", ndarray.Float64, shape...), ref: pv},
			{v: g.Const("c", cvv), ref: cvv},
			{v: g.Var("w", wv), ref: wv},
		}
		vals = append(vals, val{v: vals[0].v.AddScalar(0), ref: pv})
		prog := ""
		for step := 0; step < 8; step++ {
			k := r.Intn(len(vals))
			c := r.Intn(5)
			if c == 2 || c == 3 { // write through the latest view, mostly
				for j := len(vals) - 1; j >= 0; j-- {
					if vals[j].view && (r.Intn(3) != 0 || j == 0) {
						k = j
						break
					}
				}
				c = 2
			}
			x := vals[k]
			switch {
			case c <= 1 && x.ref.Size() > 0 && x.ref.Rank() > 0:
				idx, _ := validIndices(r, x.ref.Shape())
				ref, err := cv.View(x.ref, idxArrays(idx...)...)
				if err != nil {
					t.Fatal(err)
				}
				vals = append(vals, val{v: x.v.View(idx...), ref: ref, view: true, base: k, idx: idx})
				prog += fmt.Sprintf(" v%d=v%d%v", len(vals)-1, k, idx)
			case c == 2 && x.view:
				op := wops[r.Intn(len(wops))]
				away := 0.0
				if op == cv.OpDiv {
					away = 0.5
				}
				value := randArray(r, valueShape(r, x.ref.Shape()), away)
				b := vals[x.base]
				ref, err := cv.Write(op, b.ref, value, idxArrays(x.idx...)...)
				if err != nil {
					t.Fatal(err)
				}
				var nv *graph.Variable
				cst := g.Const("", value)
				switch op {
				case cv.OpAssign:
					nv = x.v.Assign(cst)
				case cv.OpAdd:
					nv = x.v.AddAssign(cst)
				case cv.OpSub:
					nv = x.v.SubAssign(cst)
				case cv.OpMul:
					nv = x.v.MulAssign(cst)
				default:
					nv = x.v.DivAssign(cst)
				}
				vals = append(vals, val{v: nv, ref: ref})
				prog += fmt.Sprintf(" v%d=%s(v%d)", len(vals)-1, op, k)
			default:
				ref, err := ndarray.Binary(ndarray.Add, x.ref, ndarray.Scalar(1.0))
				if err != nil {
					t.Fatal(err)
				}
				vals = append(vals, val{v: x.v.AddScalar(1), ref: ref})
				prog += fmt.Sprintf(" v%d=v%d+1", len(vals)-1, k)
			}
		}
		if err := g.Err(); err != nil {
			t.Fatalf("%s: %v", prog, err)
		}
		var outs []int
		var names []string
		for i := 3; i < len(vals); i++ {
			if r.Intn(5) == 0 || i == len(vals)-1 {
				outs = append(outs, i)
				names = append(names, vals[i].v.Name())
			}
		}
		for _, parallel := range []int{0, 2} {
			s := exec.New(g)
			s.Parallel = parallel
			for rep := 0; rep < 2; rep++ {
				rec := newRecorder()
				req := exec.Request{Feeds: map[string]*ndarray.Array{"p": pv}, Outputs: names}
				if parallel == 0 {
					req.Listeners = []exec.Listener{rec, validation.NewNonInPlace()}
				}
				res, err := s.Exec(req)
				if err != nil {
					t.Fatalf("%s: %v", prog, err)
				}
				for _, i := range outs {
					if got := res[vals[i].v.Name()]; !ndarray.AllClose(got, vals[i].ref, 1e-12, 1e-12) {
						t.Fatalf("parallel %d run %d, program%s: v%d = %v, want %v", parallel, rep, prog, i, got, vals[i].ref)
					}
				}
				for name, o := range rec.ops {
					if strings.HasPrefix(name, "view_") {
						if o.shared && o.overwritable {
							inPlace++
						} else {
							copied++
						}
					}
				}
			}
			for name, a := range map[string][2]*ndarray.Array{"feed": {pv, pc}, "constant": {cvv, cc}, "variable": {wv, wc}} {
				if !ndarray.Equal(a[0], a[1]) {
					t.Fatalf("program%s: the %s changed", prog, name)
				}
			}
		}
	}
	t.Logf("%d writes in place, %d copied", inPlace, copied)
	if inPlace < 50 || copied < 50 {
		t.Errorf("poor coverage")
	}
}
