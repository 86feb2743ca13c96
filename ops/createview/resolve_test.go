package createview_test

import (
	"encoding/binary"
	"errors"
	"math"
	"math/rand"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	cv "github.com/sdgo/sdgo/ops/createview"
)

func TestConstants(t *testing.T) {
	if cv.PointType != 0 || cv.IntervalType != 1 || cv.AllType != 2 || cv.NewAxisType != 3 || cv.DefaultInclusive != 1 {
		t.Fatal("ADR 0021 constants changed")
	}
}

// The exact layouts of ADR 0021 / FORMAT.md.
func TestDescriptors(t *testing.T) {
	cases := []struct {
		idx  cv.Index
		want []int64
	}{
		{cv.Point(3), []int64{0, 1, 1, 3, 1}},
		{cv.Point(-1), []int64{0, 1, 1, -1, 1}},
		{cv.IntervalStep(0, 1, 1, true), []int64{1, 2, 1, 0, 1, 1, 1}},
		{cv.IntervalStep(2, 9, 3, false), []int64{1, 2, 1, 2, 9, 3, 0}},
		{cv.Interval(1, -1), []int64{1, 2, 1, 1, -1, 1, 0}},
		{cv.All(), []int64{2, 0, 1, 1}},
		{cv.NewAxis(), []int64{3, 1, 1, 0, 1}},
	}
	for _, c := range cases {
		if got := c.idx.Descriptor(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%v: descriptor %v, want %v", c.idx, got, c.want)
		}
		back, err := cv.Parse(c.want)
		if err != nil || back != c.idx {
			t.Errorf("Parse(%v) = %v, %v; want %v", c.want, back, err, c.idx)
		}
	}
	// Java's new axis.
	if x, err := cv.Parse([]int64{3, 1, 10, 1}); err != nil || x != cv.NewAxis() {
		t.Errorf("Java new axis: %v, %v", x, err)
	}
	if x, err := cv.Parse([]int64{3, 1, 10, 0}); err != nil || x != cv.NewAxis() {
		t.Errorf("Java new axis, inclusive 0: %v, %v", x, err)
	}
	// Inclusive 0 is accepted where the flag means nothing.
	if x, err := cv.Parse([]int64{0, 1, 1, 4, 0}); err != nil || x != cv.Point(4) {
		t.Errorf("point with inclusive 0: %v, %v", x, err)
	}
	if x := cv.Point(-2); x.Kind() != cv.PointType || x.Point() != -2 {
		t.Errorf("Point accessors: %v", x)
	}
	if s, e, st, in := cv.IntervalStep(1, 5, 2, true).Bounds(); s != 1 || e != 5 || st != 2 || !in {
		t.Errorf("Bounds: %d %d %d %v", s, e, st, in)
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		d    []int64
		want []string
	}{
		{nil, []string{"empty"}},
		{[]int64{7, 1, 1, 0, 1}, []string{"unknown index type 7"}},
		{[]int64{-1}, []string{"unknown index type -1"}},
		{[]int64{0, 1, 1, 3}, []string{"point", "4 values, not 5"}},
		{[]int64{0, 2, 1, 3, 1}, []string{"point", "count"}},
		{[]int64{0, 1, 2, 3, 1}, []string{"point", "stride slot"}},
		{[]int64{0, 1, 1, 3, 2}, []string{"point", "inclusive flag"}},
		{[]int64{1, 2, 1, 0, 4, 1}, []string{"interval", "6 values, not 7"}},
		{[]int64{1, 2, 1, 0, 4, 0, 0}, []string{"interval", "step (slot 5) is 0"}},
		{[]int64{1, 2, 1, 4, 0, -1, 0}, []string{"interval", "negative steps"}},
		{[]int64{1, 2, 2, 0, 4, 1, 0}, []string{"interval", "slot 2", "the step is slot 5"}},
		{[]int64{1, 3, 1, 0, 4, 1, 0}, []string{"interval", "count"}},
		{[]int64{1, 2, 1, 0, 4, 1, 5}, []string{"interval", "inclusive flag"}},
		{[]int64{2, 0, 1}, []string{"all", "3 values"}},
		{[]int64{2, 1, 1, 1}, []string{"all", "count"}},
		{[]int64{2, 0, 2, 1}, []string{"all", "stride slot"}},
		{[]int64{3, 1, 1, 5, 1}, []string{"new axis", "value slot"}},
		{[]int64{3, 1, 9, 1}, []string{"new axis", "not 10"}},
		{[]int64{3, 1, 1}, []string{"new axis", "3 values"}},
	}
	for _, c := range cases {
		_, err := cv.Parse(c.d)
		if err == nil {
			t.Errorf("Parse(%v) accepted", c.d)
			continue
		}
		var ie *cv.IndexError
		if !errors.As(err, &ie) || !errors.Is(err, cv.ErrIndex) || ie.Pos != -1 {
			t.Errorf("Parse(%v): error %#v is not an *IndexError with Pos -1", c.d, err)
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("Parse(%v): %q does not mention %q", c.d, err, w)
			}
		}
	}
}

// libnd4j's own cases (FORMAT.md), on linspace inputs.
func TestLibnd4jCases(t *testing.T) {
	cases := []struct {
		shape []int
		idx   []cv.Index
		want  []int
		vals  []float64 // nil: not checked
	}{
		{[]int{3, 4}, []cv.Index{cv.Point(1), cv.Point(1)}, []int{}, []float64{6}},
		{[]int{3, 4}, []cv.Index{cv.IntervalStep(0, 1, 1, true)}, []int{2, 4}, []float64{1, 2, 3, 4, 5, 6, 7, 8}},
		{[]int{3, 4}, []cv.Index{cv.IntervalStep(0, 1, 1, false)}, []int{1, 4}, []float64{1, 2, 3, 4}},
		{[]int{3, 4}, []cv.Index{cv.All(), cv.All()}, []int{3, 4}, nil},
		{[]int{3, 4}, []cv.Index{cv.All()}, []int{3, 4}, nil},
		{[]int{}, []cv.Index{cv.NewAxis()}, []int{1}, []float64{1}},
		{[]int{5, 5, 5}, []cv.Index{cv.Interval(0, 1)}, []int{1, 5, 5}, nil},
		{[]int{5, 5}, []cv.Index{cv.All(), cv.Interval(0, 1)}, []int{5, 1}, []float64{1, 6, 11, 16, 21}},
		{[]int{5, 5}, []cv.Index{cv.Interval(0, 1), cv.Point(1)}, []int{1}, []float64{2}},
	}
	for _, c := range cases {
		x := linspace(c.shape...)
		v, err := cv.View(x, idxArrays(c.idx...)...)
		if err != nil {
			t.Errorf("%v %v: %v", c.shape, c.idx, err)
			continue
		}
		if !slices.Equal(v.Shape(), c.want) {
			t.Errorf("%v %v: shape %v, want %v", c.shape, c.idx, v.Shape(), c.want)
		}
		if !v.SameBuffer(x) {
			t.Errorf("%v %v: the view does not share the input's buffer", c.shape, c.idx)
		}
		if c.vals != nil && !reflect.DeepEqual(v.Float64s(), c.vals) {
			t.Errorf("%v %v: values %v, want %v", c.shape, c.idx, v.Float64s(), c.vals)
		}
		if c.vals == nil && !reflect.DeepEqual(v.Float64s(), x.Float64s()[:v.Size()]) { // leading blocks of x
			t.Errorf("%v %v: values %v", c.shape, c.idx, v.Float64s())
		}
	}
}

// numpy slicing with negative bounds, steps and new axes; the expected
// layouts are worked out by hand on a packed 4x6 array (strides 6, 1).
func TestNumpyEquivalents(t *testing.T) {
	sh, st := []int{4, 6}, []int{6, 1}
	cases := []struct {
		numpy   string
		idx     []cv.Index
		shape   []int
		strides []int // new axes: ExpandDims's stride
		offset  int
	}{
		{"x[-1]", []cv.Index{cv.Point(-1)}, []int{6}, []int{1}, 18},
		{"x[-4]", []cv.Index{cv.Point(-4)}, []int{6}, []int{1}, 0},
		{"x[:, -1]", []cv.Index{cv.All(), cv.Point(-1)}, []int{4}, []int{6}, 5},
		{"x[-3:-1]", []cv.Index{cv.Interval(-3, -1)}, []int{2, 6}, []int{6, 1}, 6},
		{"x[:, 1:-1:2]", []cv.Index{cv.All(), cv.IntervalStep(1, -1, 2, false)}, []int{4, 2}, []int{6, 2}, 1},
		{"x[:, 0:6:4]", []cv.Index{cv.All(), cv.IntervalStep(0, 6, 4, false)}, []int{4, 2}, []int{6, 4}, 0},
		{"x[::3]", []cv.Index{cv.IntervalStep(0, 4, 3, false)}, []int{2, 6}, []int{18, 1}, 0},
		{"x[1:4:2, -2]", []cv.Index{cv.IntervalStep(1, 4, 2, false), cv.Point(-2)}, []int{2}, []int{12}, 10},
		{"x[:, 1:5:2] inclusive end 5", []cv.Index{cv.All(), cv.IntervalStep(1, 5, 2, true)}, []int{4, 3}, []int{6, 2}, 1},
		{"x[:, -5:-1] inclusive end -1", []cv.Index{cv.All(), cv.IntervalStep(-5, -1, 1, true)}, []int{4, 5}, []int{6, 1}, 1},
		{"x[None, -1, 0:6:4]", []cv.Index{cv.NewAxis(), cv.Point(-1), cv.IntervalStep(0, 6, 4, false)}, []int{1, 2}, []int{8, 4}, 18},
		{"x[1, None, -2]", []cv.Index{cv.Point(1), cv.NewAxis(), cv.Point(-2)}, []int{1}, []int{1}, 10},
		{"x[None, None, -1, -1]", []cv.Index{cv.NewAxis(), cv.NewAxis(), cv.Point(-1), cv.Point(-1)}, []int{1, 1}, []int{1, 1}, 23},
		{"x[:, None]", []cv.Index{cv.All(), cv.NewAxis()}, []int{4, 1, 6}, []int{6, 6, 1}, 0},
		{"x[2:2]", []cv.Index{cv.Interval(2, 2)}, []int{0, 6}, []int{6, 1}, 0},
		{"x[4:4] (empty at the end)", []cv.Index{cv.Interval(4, 4)}, []int{0, 6}, []int{6, 1}, 0},
		{"x[:, -6:]", []cv.Index{cv.All(), cv.Interval(-6, 6)}, []int{4, 6}, []int{6, 1}, 0},
	}
	for _, c := range cases {
		s, str, off, err := cv.ResolveIndex(sh, st, 0, c.idx...)
		if err != nil {
			t.Errorf("%s: %v", c.numpy, err)
			continue
		}
		if !slices.Equal(s, c.shape) || !slices.Equal(str, c.strides) || off != c.offset {
			t.Errorf("%s: shape %v strides %v offset %d, want %v %v %d", c.numpy, s, str, off, c.shape, c.strides, c.offset)
		}
		l := ndarray.Layout{Shape: s, Strides: str, Offset: off}
		checkView(t, l, 24)
		if err := extentOK(l, 24); err != nil {
			t.Errorf("%s: %v", c.numpy, err)
		}
	}
}

// Errors name the index, the axis and the shape, whatever comes before.
func TestResolveErrors(t *testing.T) {
	sh, st := []int{3, 4}, []int{4, 1}
	cases := []struct {
		idx  [][]int64
		pos  int
		axis int
		want []string
	}{
		{[][]int64{cv.Point(3).Descriptor()}, 0, 0, []string{"index 0", "point 3", "axis 0 of size 3", "[3 4]"}},
		{[][]int64{cv.Point(-4).Descriptor()}, 0, 0, []string{"point -4", "axis 0 of size 3"}},
		// After a new axis and a point, index 2 is on input axis 1 (size 4).
		{[][]int64{cv.NewAxis().Descriptor(), cv.Point(0).Descriptor(), cv.Point(-5).Descriptor()}, 2, 1, []string{"index 2", "point -5", "axis 1 of size 4"}},
		{[][]int64{cv.All().Descriptor(), cv.Interval(0, 5).Descriptor()}, 1, 1, []string{"index 1", "exclusive end 5", "axis 1 of size 4"}},
		{[][]int64{cv.IntervalStep(0, 3, 1, true).Descriptor()}, 0, 0, []string{"inclusive end 3", "axis 0 of size 3"}},
		{[][]int64{cv.Interval(-4, 2).Descriptor()}, 0, 0, []string{"start -4"}},
		{[][]int64{cv.Interval(2, 1).Descriptor()}, 0, 0, []string{"ends (1) before it starts (2)"}},
		{[][]int64{cv.Interval(-1, -2).Descriptor()}, 0, 0, []string{"ends (-2) before it starts (-1)"}},
		{[][]int64{cv.Point(0).Descriptor(), cv.Point(0).Descriptor(), cv.All().Descriptor()}, 2, -1, []string{"index 2", "more indices than axes"}},
		{[][]int64{cv.All().Descriptor(), {9, 9}}, 1, -1, []string{"index 1", "unknown index type 9", "[3 4]"}},
		{[][]int64{cv.All().Descriptor(), cv.IntervalStep(0, 2, 0, false).Descriptor()}, 1, -1, []string{"index 1", "step (slot 5) is 0"}},
	}
	for _, c := range cases {
		_, _, _, err := cv.Resolve(sh, st, 0, c.idx...)
		var ie *cv.IndexError
		if !errors.As(err, &ie) {
			t.Errorf("%v: error %v is not an *IndexError", c.idx, err)
			continue
		}
		if ie.Pos != c.pos || ie.Axis != c.axis {
			t.Errorf("%v: position %d axis %d, want %d %d (%v)", c.idx, ie.Pos, ie.Axis, c.pos, c.axis, err)
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: %q does not mention %q", c.idx, err, w)
			}
		}
	}
	// Bad input layouts are errors, not panics.
	for _, l := range []ndarray.Layout{
		{Shape: []int{2}, Strides: []int{1, 1}},
		{Shape: []int{-1}, Strides: []int{1}},
		{Shape: []int{2}, Strides: []int{-1}},
		{Shape: []int{2}, Strides: []int{1}, Offset: -1},
		{Shape: []int{3, 3}, Strides: []int{math.MaxInt / 2, 1}},
		{Shape: make([]int, ndarray.MaxRank+1), Strides: make([]int, ndarray.MaxRank+1)},
	} {
		if _, _, _, err := cv.Resolve(l.Shape, l.Strides, l.Offset); err == nil {
			t.Errorf("layout %v accepted", l)
		}
	}
	// Too many new axes.
	many := make([][]int64, ndarray.MaxRank+1)
	for i := range many {
		many[i] = cv.NewAxis().Descriptor()
	}
	if _, _, _, err := cv.Resolve(nil, nil, 0, many...); err == nil || !strings.Contains(err.Error(), "rank") {
		t.Errorf("%d new axes: %v", len(many), err)
	}
}

// Views of views, of padded layouts and of offsets compose: the view of a
// view equals the reference applied to the inner view's layout, and
// matches the values numpy-style indexing of the logical array gives.
func TestViewsOfViewsAndPadded(t *testing.T) {
	// A 4x5 array inside a padded 6x8 box, starting at (1, 2).
	x := ndarray.Must(ndarray.NewPadded(ndarray.Float64, []int{4, 5}, []int{2, 3}, []int{1, 2}))
	logical := linspace(4, 5)
	if err := ndarray.CopyInto(x, logical); err != nil {
		t.Fatal(err)
	}
	bufLen := x.Buffer().Len()
	v1, err := cv.View(x, idxArrays(cv.Interval(1, 4), cv.Interval(-4, 5))...) // x[1:4, -4:5] -> 3x4
	if err != nil {
		t.Fatal(err)
	}
	checkView(t, v1.Layout(), bufLen)
	want1 := []float64{7, 8, 9, 10, 12, 13, 14, 15, 17, 18, 19, 20}
	if !reflect.DeepEqual(v1.Float64s(), want1) {
		t.Fatalf("x[1:4, -4:5] = %v, want %v", v1.Float64s(), want1)
	}
	v2, err := cv.View(v1, idxArrays(cv.Point(-1), cv.NewAxis(), cv.Interval(1, -1))...) // v1[-1, None, 1:-1]
	if err != nil {
		t.Fatal(err)
	}
	checkView(t, v2.Layout(), bufLen)
	if !slices.Equal(v2.Shape(), []int{1, 2}) || !reflect.DeepEqual(v2.Float64s(), []float64{18, 19}) {
		t.Fatalf("v1[-1, None, 1:-1] = %v", v2)
	}
	// Writing through the view of a view changes the padded array.
	ndarray.Raw[float64](v2)[v2.Offset()] = -1
	if got := x.Float(3, 2); got != -1 {
		t.Fatalf("x[3, 2] = %v after writing through the view, want -1", got)
	}
	// A strided view of the padded array.
	v3, err := cv.View(x, idxArrays(cv.IntervalStep(0, 4, 2, false), cv.IntervalStep(0, 5, 2, false))...)
	if err != nil {
		t.Fatal(err)
	}
	checkView(t, v3.Layout(), bufLen)
	if !v3.SameBuffer(x) || !reflect.DeepEqual(v3.Float64s(), []float64{1, 3, 5, 11, 13, 15}) {
		t.Fatalf("x[::2, ::2] = %v (shares x's buffer: %v)", v3, v3.SameBuffer(x))
	}
	// A "transposed" input: sdgo's transpose is a packed copy (layouts are
	// C order), so a view of it is a view of a packed array with the
	// transposed values.
	tr := ndarray.Must(ndarray.Permute(linspace(2, 3), 1, 0)) // [[1 4] [2 5] [3 6]]
	v4, err := cv.View(tr, idxArrays(cv.All(), cv.Point(-1))...)
	if err != nil || !reflect.DeepEqual(v4.Float64s(), []float64{4, 5, 6}) {
		t.Fatalf("transpose(x)[:, -1] = %v, %v", v4, err)
	}
}

// randomLayout returns a random valid input layout and the buffer length it
// lives in: packed, padded, at an offset, or (when strided) with strides that
// step over elements.
func randomLayout(r *rand.Rand, strided bool) (ndarray.Layout, int) {
	rank := r.Intn(5)
	shape := make([]int, rank)
	for i := range shape {
		shape[i] = r.Intn(5) + 1
		if r.Intn(12) == 0 {
			shape[i] = 0
		}
	}
	strides := make([]int, rank)
	ext := 1
	for i := rank - 1; i >= 0; i-- {
		s := ext
		switch r.Intn(3) {
		case 1:
			s += r.Intn(4) // padding
		case 2:
			if strided && i == rank-1 {
				s = 1 + r.Intn(3) // a strided innermost axis
			}
		}
		if strided && s < ext {
			s = ext
		}
		if !strided {
			// ndarray's rule: strides[i] >= strides[i+1]*shape[i+1].
			if i+1 < rank && s < strides[i+1]*max(shape[i+1], 1) {
				s = strides[i+1] * max(shape[i+1], 1)
			}
		}
		strides[i] = s
		ext = s*(shape[i]-1) + ext
		if shape[i] == 0 {
			ext = s
		}
	}
	l := ndarray.Layout{Shape: shape, Strides: strides, Offset: r.Intn(4)}
	n := l.BufferLen() + r.Intn(3)
	return l, n
}

func randomDesc(r *rand.Rand, n int) []int64 {
	v := func() int64 { return int64(r.Intn(2*n+5) - n - 2) }
	switch r.Intn(12) {
	case 0, 1, 2:
		return cv.Point(int(v())).Descriptor()
	case 3, 4, 5:
		step := int64(1 + r.Intn(3))
		if r.Intn(15) == 0 {
			step = int64(r.Intn(3) - 2)
		}
		return []int64{1, 2, 1, v(), v(), step, int64(r.Intn(2))}
	case 6, 7:
		return cv.All().Descriptor()
	case 8:
		return cv.NewAxis().Descriptor()
	case 9:
		return []int64{3, 1, 10, 1}
	case 10:
		return []int64{1, 2, 1, 0, int64(n), 1, 0}
	default: // malformed
		d := cv.IntervalStep(0, 1, 1, false).Descriptor()
		d[r.Intn(len(d))] += int64(r.Intn(3) - 1)
		return d[:r.Intn(len(d)+1)]
	}
}

// Differential test against the slow reference, on packed, padded, offset
// and strided input layouts, with valid and invalid indices.
func TestResolveMatchesReference(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	accepted, rejected := 0, 0
	for iter := 0; iter < 20000; iter++ {
		strided := iter%2 == 1
		l, bufLen := randomLayout(r, strided)
		nIdx := r.Intn(l.Rank() + 3)
		descs := make([][]int64, nIdx)
		axis := 0
		for i := range descs {
			n := 3
			if axis < l.Rank() {
				n = l.Shape[axis]
			}
			descs[i] = randomDesc(r, n)
			if descs[i] != nil && len(descs[i]) > 0 && descs[i][0] != 3 {
				axis++
			}
		}
		vs, vst, vo, err := cv.Resolve(l.Shape, l.Strides, l.Offset, descs...)
		rshape, rpos, ok := refView(l.Shape, l.Strides, l.Offset, descs, 1<<16)
		if (err == nil) != ok {
			t.Fatalf("layout %v indices %v: Resolve error %v, reference ok %v", l, descs, err, ok)
		}
		if err != nil {
			rejected++
			if !errors.Is(err, cv.ErrIndex) && !strings.Contains(err.Error(), "rank") {
				t.Fatalf("layout %v indices %v: error %v is not an index error", l, descs, err)
			}
			continue
		}
		accepted++
		out := ndarray.Layout{Shape: vs, Strides: vst, Offset: vo}
		if !slices.Equal(vs, rshape) {
			t.Fatalf("layout %v indices %v: shape %v, reference %v", l, descs, vs, rshape)
		}
		if rpos != nil && !slices.Equal(positionsOf(out), rpos) {
			t.Fatalf("layout %v indices %v: view %v has positions %v, reference %v", l, descs, out, positionsOf(out), rpos)
		}
		if strided {
			if err := extentOK(out, bufLen); err != nil {
				t.Fatalf("layout %v indices %v: %v", l, descs, err)
			}
		} else {
			checkView(t, out, bufLen)
			if err := extentOK(out, bufLen); err != nil {
				t.Fatalf("layout %v indices %v: %v", l, descs, err)
			}
		}
	}
	t.Logf("%d accepted, %d rejected", accepted, rejected)
	if accepted < 5000 || rejected < 2000 {
		t.Errorf("poor coverage: %d accepted, %d rejected", accepted, rejected)
	}
}

// ViewShape with unknown sizes agrees with Resolve where sizes are known.
func TestViewShapeUnknownSizes(t *testing.T) {
	cases := []struct {
		shape []int
		idx   []cv.Index
		want  []int
	}{
		{[]int{-1, 4}, []cv.Index{cv.Point(-1)}, []int{4}},
		{[]int{-1, 4}, []cv.Index{cv.Interval(1, 3), cv.Point(-1)}, []int{2}},
		{[]int{-1, 4}, []cv.Index{cv.Interval(-3, -1)}, []int{2, 4}},
		{[]int{-1, 4}, []cv.Index{cv.Interval(1, -1)}, []int{-1, 4}},
		{[]int{-1, 4}, []cv.Index{cv.NewAxis(), cv.All(), cv.IntervalStep(0, 4, 2, false)}, []int{1, -1, 2}},
		{[]int{3, -1}, []cv.Index{cv.All(), cv.IntervalStep(0, 5, 2, true)}, []int{3, 3}},
	}
	for _, c := range cases {
		got, err := cv.ViewShape(c.shape, cv.Descriptors(c.idx...)...)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("ViewShape(%v, %v) = %v, %v; want %v", c.shape, c.idx, got, err, c.want)
		}
	}
	// Known sizes still give errors.
	if _, err := cv.ViewShape([]int{-1, 4}, cv.Descriptors(cv.All(), cv.Point(4))...); err == nil || !strings.Contains(err.Error(), "axis 1 of size 4") {
		t.Errorf("point 4 on an axis of size 4: %v", err)
	}
	if _, err := cv.ViewShape([]int{-1}, cv.Descriptors(cv.Interval(3, 1))...); err == nil {
		t.Error("interval(3, 1) on an unknown size accepted")
	}
}

// fuzzInts decodes fuzz bytes into int64s: mostly small values, with an
// escape to full 64-bit ones.
type fuzzInts struct{ b []byte }

func (f *fuzzInts) next() int64 {
	if len(f.b) == 0 {
		return 0
	}
	c := f.b[0]
	f.b = f.b[1:]
	if c&0x80 == 0 {
		return int64(c&0x7f) - 40
	}
	if c&0x40 != 0 && len(f.b) >= 8 {
		v := int64(binary.LittleEndian.Uint64(f.b))
		f.b = f.b[8:]
		return v
	}
	return int64(c&0x3f) * 7
}

// FuzzResolve: no input panics; an accepted view of a valid input layout
// validates against the input's buffer and matches the reference.
func FuzzResolve(f *testing.F) {
	f.Add([]byte{2 + 40, 3 + 40, 4 + 40, 4 + 40, 1 + 40, 0 + 40}, []byte{1 + 40, 0 + 40, 0 + 40, 1 + 40, 1 + 40, 1 + 40, 1 + 40})
	f.Add([]byte{1 + 40, 5 + 40, 1 + 40, 0 + 40}, []byte{3 + 40, 1 + 40, 1 + 40, 0 + 40, 1 + 40, 0 + 40, 1 + 40, 1 + 40, 39, 1 + 40})
	f.Add([]byte{2 + 40, 5 + 40, 5 + 40, 7 + 40, 1 + 40, 3 + 40}, []byte{1 + 40, 2 + 40, 1 + 40, 39, 37, 2 + 40, 0 + 40, 0 + 40, 1 + 40, 1 + 40, 38, 1 + 40})
	f.Add([]byte{0xff, 1, 2, 3, 4, 5, 6, 7, 8}, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f})
	f.Fuzz(func(t *testing.T, layoutBytes, indexBytes []byte) {
		lb := &fuzzInts{layoutBytes}
		rank := int(uint64(lb.next()) % 7)
		shape, strides := make([]int, rank), make([]int, rank)
		for i := range shape {
			shape[i] = int(lb.next())
		}
		for i := range strides {
			strides[i] = int(lb.next())
		}
		offset := int(lb.next())
		ib := &fuzzInts{indexBytes}
		var descs [][]int64
		for len(ib.b) > 0 && len(descs) < 40 {
			n := int(uint64(ib.next()) % 9)
			d := make([]int64, n)
			for i := range d {
				d[i] = ib.next()
			}
			descs = append(descs, d)
		}
		vs, vst, vo, err := cv.Resolve(shape, strides, offset, descs...)
		in := ndarray.Layout{Shape: shape, Strides: strides, Offset: offset}
		// small: the reference can run without overflow or huge loops.
		small := offset >= 0 && offset < 1<<40
		for i := range shape {
			small = small && shape[i] >= 0 && shape[i] < 1<<10 && strides[i] >= 0 && strides[i] < 1<<30
		}
		if err != nil {
			if small {
				if _, _, ok := refView(shape, strides, offset, descs, 0); ok && errors.Is(err, cv.ErrIndex) {
					t.Fatalf("layout %v indices %v: rejected (%v), the reference accepts", in, descs, err)
				}
			}
			return
		}
		// Accepted: the input layout was in bounds, so these cannot overflow.
		out := ndarray.Layout{Shape: vs, Strides: vst, Offset: vo}
		bufLen := in.BufferLen()
		if out.Size() > 0 && out.BufferLen() > bufLen {
			t.Fatalf("layout %v indices %v: view %v reaches past the input's elements (%d)", in, descs, out, bufLen)
		}
		if extentOK(in, bufLen) == nil {
			if err := extentOK(out, bufLen); err != nil {
				t.Fatalf("layout %v indices %v: view %v: %v", in, descs, out, err)
			}
		}
		if in.Validate(bufLen) == nil {
			checkView(t, out, bufLen)
		}
		if small {
			rshape, rpos, ok := refView(shape, strides, offset, descs, 1<<12)
			if !ok || !slices.Equal(rshape, vs) || (rpos != nil && !slices.Equal(rpos, positionsOf(out))) {
				t.Fatalf("layout %v indices %v: view %v, reference %v %v %v", in, descs, out, rshape, rpos, ok)
			}
		}
	})
}

// FuzzParse: no descriptor panics; an accepted one round-trips.
func FuzzParse(f *testing.F) {
	for _, d := range [][]int64{{0, 1, 1, 3, 1}, {1, 2, 1, 0, 4, 2, 0}, {2, 0, 1, 1}, {3, 1, 1, 0, 1}, {3, 1, 10, 1}} {
		b := make([]byte, 8*len(d))
		for i, v := range d {
			binary.LittleEndian.PutUint64(b[8*i:], uint64(v))
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		d := make([]int64, len(b)/8)
		for i := range d {
			d[i] = int64(binary.LittleEndian.Uint64(b[8*i:]))
		}
		x, err := cv.Parse(d)
		if err != nil {
			if !errors.Is(err, cv.ErrIndex) || err.Error() == "" {
				t.Fatalf("Parse(%v): error %v", d, err)
			}
			return
		}
		y, err := cv.Parse(x.Descriptor())
		if err != nil || y != x {
			t.Fatalf("Parse(%v) = %v, but its descriptor %v parses to %v, %v", d, x, x.Descriptor(), y, err)
		}
		if x.Kind() != cv.NewAxisType && !(x.Kind() == cv.PointType && d[4] == 0) && !(x.Kind() == cv.AllType && d[3] == 0) &&
			!reflect.DeepEqual(x.Descriptor(), d) {
			t.Fatalf("Parse(%v) = %v with descriptor %v", d, x, x.Descriptor())
		}
	})
}
