package serialize

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"unsafe"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	"github.com/sdgo/sdgo/serialize/internal/fb"
)

// Helpers shared by the graph-level tests.

// graphDiff describes how two graphs differ (variables, kinds, dtypes,
// shapes, values, ops, op names, arguments, inputs, outputs, losses,
// placeholders, training configuration, updater state); "" when they agree.
func graphDiff(a, b *graph.Graph) string {
	var d []string
	add := func(format string, args ...any) { d = append(d, fmt.Sprintf(format, args...)) }
	av, bv := a.Variables(), b.Variables()
	if len(av) != len(bv) {
		add("%d variables, %d", len(av), len(bv))
	}
	for i := 0; i < len(av) && i < len(bv); i++ {
		x, y := av[i], bv[i]
		if x.Name() != y.Name() || x.Type() != y.Type() || x.DType() != y.DType() {
			add("variable %d: %v vs %v", i, x, y)
			continue
		}
		if fmt.Sprint(x.Shape()) != fmt.Sprint(y.Shape()) || (x.Shape() == nil) != (y.Shape() == nil) {
			add("variable %q: shape %v vs %v", x.Name(), x.Shape(), y.Shape())
		}
		if why := arrayDiff(x.Value(), y.Value()); why != "" {
			add("variable %q: value %s", x.Name(), why)
		}
		xo, yo := x.Op(), y.Op()
		if (xo == nil) != (yo == nil) || xo != nil && (xo.Name() != yo.Name() || x.OutputIndex() != y.OutputIndex()) {
			add("variable %q: produced by %v vs %v", x.Name(), xo, yo)
		}
	}
	ao, bo := a.Ops(), b.Ops()
	if len(ao) != len(bo) {
		add("%d ops, %d", len(ao), len(bo))
	}
	for i := 0; i < len(ao) && i < len(bo); i++ {
		x, y := ao[i], bo[i]
		if x.Name() != y.Name() || x.OpName() != y.OpName() || (x.Def() == nil) != (y.Def() == nil) {
			add("op %d: %s (%s) vs %s (%s)", i, x.Name(), x.OpName(), y.Name(), y.OpName())
			continue
		}
		if !argsEqual(x.Args(), y.Args()) {
			add("op %q: args %+v vs %+v", x.Name(), *x.Args(), *y.Args())
		}
		if names(x.Inputs()) != names(y.Inputs()) {
			add("op %q: inputs %s vs %s", x.Name(), names(x.Inputs()), names(y.Inputs()))
		}
		if names(x.Outputs()) != names(y.Outputs()) {
			add("op %q: outputs %s vs %s", x.Name(), names(x.Outputs()), names(y.Outputs()))
		}
		xf, _ := x.Opaque().(*FileNode)
		yf, _ := y.Opaque().(*FileNode)
		if xf != nil && yf != nil {
			if fmt.Sprint(xf.Inputs()) != fmt.Sprint(yf.Inputs()) || fmt.Sprint(xf.Properties()) != fmt.Sprint(yf.Properties()) ||
				xf.OpName() != yf.OpName() || xf.OpNum() != yf.OpNum() || xf.OpType() != yf.OpType() {
				add("op %q: file node %v %v %v vs %v %v %v", x.Name(), xf.OpName(), xf.Inputs(), xf.Properties(),
					yf.OpName(), yf.Inputs(), yf.Properties())
			}
		}
	}
	if fmt.Sprint(a.Losses()) != fmt.Sprint(b.Losses()) {
		add("losses %v vs %v", a.Losses(), b.Losses())
	}
	ph := func(g *graph.Graph) string { return names(g.VariablesOf(graph.PLACEHOLDER)) }
	if ph(a) != ph(b) {
		add("placeholders %s vs %s", ph(a), ph(b))
	}
	metaText := func(g *graph.Graph) string {
		v, ok := g.GetMeta(graph.MetaTrainingConfig)
		if !ok {
			return ""
		}
		s, err := graph.MetaJSON(v)
		if err != nil {
			return err.Error()
		}
		return s
	}
	if ta, tb := metaText(a), metaText(b); ta != tb {
		add("training config %v vs %v", ta, tb)
	}
	ua, _ := a.GetMeta(graph.MetaUpdaterState)
	ub, _ := b.GetMeta(graph.MetaUpdaterState)
	if why := stateDiff(ua, ub); why != "" {
		add("updater state: %s", why)
	}
	return strings.Join(d, "\n")
}

func stateDiff(a, b any) string {
	ma, _ := a.(map[string]map[string]*ndarray.Array)
	mb, _ := b.(map[string]map[string]*ndarray.Array)
	if len(ma) != len(mb) {
		return fmt.Sprintf("%d params vs %d", len(ma), len(mb))
	}
	for p, ka := range ma {
		kb := mb[p]
		if len(ka) != len(kb) {
			return fmt.Sprintf("%q: %d keys vs %d", p, len(ka), len(kb))
		}
		for k, x := range ka {
			if why := arrayDiff(x, kb[k]); why != "" {
				return fmt.Sprintf("%q %q: %s", p, k, why)
			}
		}
	}
	return ""
}

func names(vs []*graph.Variable) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = v.Name()
	}
	return strings.Join(s, ",")
}

// arrayDiff compares two arrays exactly (dtype, shape, elements; strings by
// value, other non-computable dtypes by bytes).
func arrayDiff(x, y *ndarray.Array) string {
	if x == nil || y == nil {
		if x != y {
			return fmt.Sprintf("%v vs %v", x, y)
		}
		return ""
	}
	if x.DType() != y.DType() || !ndarray.SameShape(x.Shape(), y.Shape()) {
		return fmt.Sprintf("%v%v vs %v%v", x.DType(), x.Shape(), y.DType(), y.Shape())
	}
	switch {
	case isString(x.DType()):
		sx, e1 := ndarray.Strings(x)
		sy, e2 := ndarray.Strings(y)
		if e1 != nil || e2 != nil || fmt.Sprintf("%q", sx) != fmt.Sprintf("%q", sy) {
			return fmt.Sprintf("%q vs %q (%v %v)", sx, sy, e1, e2)
		}
	case x.DType().Computable():
		if !ndarray.Equal(x, y) {
			return fmt.Sprintf("%v vs %v", x, y)
		}
	default:
		if !bytes.Equal(mustBytes(x), mustBytes(y)) {
			return "bytes differ"
		}
	}
	return ""
}

// roundTrip saves g with opts, loads it back and checks the graphs agree.
func roundTrip(t *testing.T, g *graph.Graph, opts *SaveOptions) *graph.Graph {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, g, opts); err != nil {
		t.Fatal(err)
	}
	first := append([]byte(nil), buf.Bytes()...)
	g2, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if d := graphDiff(g, g2); d != "" {
		t.Fatalf("graph changed in a round trip:\n%s", d)
	}
	// Saving what was loaded gives the same bytes.
	again, err := Encode(g2, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, again) {
		t.Fatalf("save(load(save(g))) differs from save(g): %d vs %d bytes", len(again), len(first))
	}
	return g2
}

func run(t *testing.T, g *graph.Graph, feeds map[string]*ndarray.Array, outs ...string) map[string]*ndarray.Array {
	t.Helper()
	res, err := exec.New(g).Output(feeds, outs...)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// mlp builds a two-layer perceptron with a mean squared error loss:
// placeholders x [-1,4] and y [-1,2], variables w1, b1, w2, b2, a constant
// scale, and the ops matmul, add, tanh, multiply, pow (a legacy scalar op),
// reduce_mean (a legacy reduction), mean_sqerr_loss.
func mlp(t testing.TB) *graph.Graph {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, -1, 4)
	y := g.Placeholder("y", ndarray.Float64, -1, 2)
	w1 := g.Var("w1", ndarray.Must(ndarray.RandNormal(rng, ndarray.Float64, 0, 0.5, 4, 8)))
	b1 := g.Var("b1", ndarray.Must(ndarray.Zeros(ndarray.Float64, 8)))
	w2 := g.Var("w2", ndarray.Must(ndarray.RandNormal(rng, ndarray.Float64, 0, 0.5, 8, 2)))
	b2 := g.Var("b2", ndarray.Must(ndarray.FromSlice([]float64{0.1, -0.1})))
	scale := g.Const("scale", ndarray.Scalar(0.5))
	h := g.Apply("tanh", ops.Args{}, x.MatMul(w1).Add(b1)).Named("hidden")
	out := h.MatMul(w2).Add(b2).Mul(scale).Named("out")
	sq := out.PowScalar(2).Named("sq")
	_ = sq.Mean().Named("meansq")
	loss := g.Apply("mean_sqerr_loss", ops.Args{I: []int64{3}}, out, g.Scalar(ndarray.Float64, 1), y).Named("loss")
	if err := g.Err(); err != nil {
		t.Fatal(err)
	}
	if err := g.SetLoss(loss.Name()); err != nil {
		t.Fatal(err)
	}
	g.SetMeta(graph.MetaTrainingConfig, `{"updater":{"@class":"org.nd4j.linalg.learning.config.Adam","learningRate":0.001},"minimize":true,"iterationCount":3,"epochCount":1}`)
	g.SetMeta(graph.MetaUpdaterState, map[string]map[string]*ndarray.Array{
		"w1": {"M": ndarray.Must(ndarray.Full(ndarray.Float64, 0.25, 4, 8)), "V": ndarray.Must(ndarray.Full(ndarray.Float64, 0.5, 4, 8))},
		"b2": {"M": ndarray.Must(ndarray.FromSlice([]float64{1, 2})), "V": ndarray.Must(ndarray.FromSlice([]float64{3, 4}))},
	})
	return g
}

func mlpFeeds() map[string]*ndarray.Array {
	rng := rand.New(rand.NewPCG(3, 4))
	return map[string]*ndarray.Array{
		"x": ndarray.Must(ndarray.RandUniform(rng, ndarray.Float64, -1, 1, 5, 4)),
		"y": ndarray.Must(ndarray.RandUniform(rng, ndarray.Float64, -1, 1, 5, 2)),
	}
}

func TestRoundTripMLP(t *testing.T) {
	for _, big := range []bool{false, true} {
		t.Run(fmt.Sprintf("bigEndian=%v", big), func(t *testing.T) {
			g := mlp(t)
			g2 := roundTrip(t, g, &SaveOptions{BigEndian: big, UpdaterState: true})
			feeds := mlpFeeds()
			want := run(t, g, feeds, "loss", "out", "meansq")
			got := run(t, g2, feeds, "loss", "out", "meansq")
			for k := range want {
				if !ndarray.Equal(want[k], got[k]) {
					t.Errorf("%s: %v after the round trip, %v before", k, got[k], want[k])
				}
			}
			if l := g2.Losses(); len(l) != 1 || l[0] != "loss" {
				t.Errorf("losses %v", l)
			}
			if ReportOf(g2) == nil || len(ReportOf(g2).Opaque) != 0 {
				t.Errorf("report %+v", ReportOf(g2))
			}
		})
	}
}

// TestSaveNumbering: ids, outputs and inputs as SameDiff writes them, the
// arguments in their slots, the legacy numbers of legacy ops.
func TestSaveNumbering(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float32, -1, 3)
	w := g.Var("w", ndarray.Must(ndarray.Zeros(ndarray.Float32, 3, 2)))
	c := g.Const("c", ndarray.Must(ndarray.FromSlice([]float32{1, 2})))
	y := x.MatMul(w).Named("y")
	z := y.Add(c).Named("z")
	outs, err := g.Op("identity_n", ops.Args{}, z, y)
	if err != nil {
		t.Fatal(err)
	}
	s := z.SumKeep(1).Named("s")
	p := z.PowScalar(3).Named("p")
	_, _, _ = outs, s, p
	buf, err := Encode(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := decode(buf)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]rawIntPair{}
	for i, v := range r.Variables {
		ids[v.Name] = *v.ID
		if v.Name == "x" && fmt.Sprint(v.Shape) != "[-1 3]" {
			t.Errorf("placeholder shape %v", v.Shape)
		}
		if (v.Array != nil) != (v.Name == "w" || v.Name == "c") {
			t.Errorf("variable %d %q: array %v", i, v.Name, v.Array != nil)
		}
		if v.Array != nil && v.Array.ByteOrder != nativeBO {
			t.Errorf("array of %q is %v", v.Name, v.Array.ByteOrder)
		}
	}
	want := map[string]rawIntPair{"x": {1, 0}, "w": {2, 0}, "c": {3, 0}, "y": {4, 0}, "z": {5, 0},
		"identity_n": {6, 0}, "identity_n:1": {6, 1}, "s": {7, 0}, "p": {8, 0}}
	if fmt.Sprint(ids) != fmt.Sprint(want) {
		t.Fatalf("ids %v\nwant %v", ids, want)
	}
	if fmt.Sprint(r.Placeholders) != "[x]" || r.LossVariables == nil || r.Outputs == nil {
		t.Errorf("placeholders %v losses %v outputs %v", r.Placeholders, r.LossVariables, r.Outputs)
	}
	pos := map[string]int32{}
	for i, v := range r.Variables {
		pos[v.Name] = int32(i)
	}
	for _, n := range r.Nodes {
		d, _ := ops.Lookup(n.OpName)
		if int64(n.OpType) != int64(d.Type) || n.OpNum != d.Num {
			t.Errorf("node %q: opType %v opNum %d, want %v %d", n.Name, n.OpType, n.OpNum, d.Type, d.Num)
		}
		if n.ID != ids[n.OutputNames[0]].First {
			t.Errorf("node %q: id %d", n.Name, n.ID)
		}
		for k, o := range n.OutputNames {
			if n.Output[k] != pos[o] {
				t.Errorf("node %q: output %v", n.Name, n.Output)
			}
		}
		switch n.OpName {
		case "matmul":
			if fmt.Sprint(n.InputPaired) != "[{1 0} {2 0}]" {
				t.Errorf("matmul inputs %v", n.InputPaired)
			}
		case "identity_n":
			if fmt.Sprint(n.InputPaired) != "[{5 0} {4 0}]" || fmt.Sprint(n.OutputNames) != "[identity_n identity_n:1]" {
				t.Errorf("identity_n %v %v", n.InputPaired, n.OutputNames)
			}
		case "reduce_sum":
			if fmt.Sprint(n.Dimensions) != "[1]" || fmt.Sprint(n.ExtraBools) != "[true]" {
				t.Errorf("reduce_sum dims %v bools %v", n.Dimensions, n.ExtraBools)
			}
		case "pow":
			if fmt.Sprint(n.ExtraParams) != "[3]" || n.Scalar == nil {
				t.Fatalf("pow params %v scalar %v", n.ExtraParams, n.Scalar)
			}
			if v, err := rawNumbers(n.Scalar); err != nil || v[0] != 3 || n.Scalar.DType != 5 {
				t.Errorf("pow scalar %v %v", v, err)
			}
		}
		if n.ExtraInteger == nil || n.ExtraParams == nil || n.ExtraBools == nil || n.Dimensions == nil || n.Input == nil {
			t.Errorf("node %q: argument vectors not all written", n.Name)
		}
	}
}

// powRaw returns the raw form of a graph of x^2 ("p"), a legacy scalar op,
// for a test to edit.
func powRaw(t *testing.T) *rawGraph {
	t.Helper()
	g := graph.New()
	x := g.Const("x", ndarray.Must(ndarray.FromSlice([]float64{1, 2, 3})))
	x.PowScalar(2).Named("p")
	buf, err := Encode(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := decode(buf)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestLegacyScalarInFlatNodeScalar: a legacy scalar op whose value sits in
// FlatNode.scalar (not extraParams) gets it as float arg 0, and saves back
// as it was.
func TestLegacyScalarInFlatNodeScalar(t *testing.T) {
	r := powRaw(t)
	for i := range r.Nodes {
		r.Nodes[i].ExtraParams = []float64{} // only the scalar remains
		sc, _ := scalarRaw(2, ndarray.Float64, fb.ByteOrderBE, false)
		r.Nodes[i].Scalar = &sc
	}
	buf, err := encode(r)
	if err != nil {
		t.Fatal(err)
	}
	g2, err := Decode(buf)
	if err != nil {
		t.Fatal(err)
	}
	pv, _ := g2.Variable("p")
	op := pv.Op()
	if fmt.Sprint(op.Args().F) != "[2]" {
		t.Fatalf("args %+v", *op.Args())
	}
	res := run(t, g2, nil, "p")
	if fmt.Sprint(res["p"].Float64s()) != "[1 4 9]" {
		t.Fatalf("p = %v", res["p"])
	}
	buf2, err := Encode(g2, nil)
	if err != nil {
		t.Fatal(err)
	}
	r2, _ := decode(buf2)
	if len(r2.Nodes[0].ExtraParams) != 0 || r2.Nodes[0].Scalar == nil {
		t.Fatalf("saved back as %v %v", r2.Nodes[0].ExtraParams, r2.Nodes[0].Scalar)
	}
}

// TestLegacyScalarTooBig: a node's scalar that is not one element is not
// the op's scalar; loading does not read it whole (it cost 8 bytes of
// float64 per byte of an int8 array, twice, for a value then dropped).
func TestLegacyScalarTooBig(t *testing.T) {
	r := powRaw(t)
	const n = 8 << 20
	r.Nodes[0].ExtraParams = []float64{}
	r.Nodes[0].Scalar = &rawArray{ShapeInfo: []int64{1, n, 1, arrayChar, 1, 'c'}, Buffer: make([]byte, n), DType: fb.DTypeINT8}
	buf, err := encode(r)
	if err != nil {
		t.Fatal(err)
	}
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	g2, err := Decode(buf)
	runtime.ReadMemStats(&m1)
	if err != nil {
		t.Fatal(err)
	}
	if got := m1.TotalAlloc - m0.TotalAlloc; got > n {
		t.Errorf("loading a %d-byte file allocated %d bytes", len(buf), got)
	}
	pv, _ := g2.Variable("p")
	if f := pv.Op().Args().F; len(f) != 0 {
		t.Errorf("float args %d long", len(f))
	}
}

// TestDTypesRoundTrip: every dtype of the schema, in both byte orders,
// including the ones sdgo cannot compute with (kept byte for byte and
// reported), strings, empty arrays, rank 0, and views.
func TestDTypesRoundTrip(t *testing.T) {
	g := graph.New()
	var noncomp []string
	for _, dt := range []ndarray.DType{ndarray.Bool, ndarray.Float8, ndarray.Half, ndarray.Half2, ndarray.Float32,
		ndarray.Float64, ndarray.Int8, ndarray.Int16, ndarray.Int32, ndarray.Int64, ndarray.Uint8, ndarray.Uint16,
		ndarray.Uint32, ndarray.Uint64, ndarray.QInt8, ndarray.QInt16, ndarray.BFloat16} {
		w := dt.Size()
		b := make([]byte, 6*w)
		for i := range b {
			b[i] = byte(i*7 + 1)
		}
		if dt == ndarray.Bool {
			copy(b, []byte{1, 0, 1, 1, 0, 0})
		}
		buf, err := ndarray.BufferFromBytes(dt, 6, b)
		if err != nil {
			t.Fatal(err)
		}
		g.Const("c_"+dt.String(), ndarray.Must(ndarray.NewView(buf, ndarray.Packed(2, 3))))
		sc, _ := ndarray.BufferFromBytes(dt, 1, b[:w])
		g.Var("s_"+dt.String(), ndarray.Must(ndarray.NewView(sc, ndarray.Packed())))
		eb, _ := ndarray.BufferFromBytes(dt, 0, nil)
		g.Const("e_"+dt.String(), ndarray.Must(ndarray.NewView(eb, ndarray.Packed(2, 0))))
		if !dt.Computable() {
			noncomp = append(noncomp, "c_"+dt.String(), "e_"+dt.String(), "s_"+dt.String())
		}
	}
	eb, _ := ndarray.BufferFromBytes(ndarray.UTF8, 0, nil)
	g.Const("no_strings", ndarray.Must(ndarray.NewView(eb, ndarray.Packed(0, 2))))
	noncomp = append(noncomp, "no_strings")
	str := ndarray.Must(ndarray.FromStrings([]string{"a", "", "héllo", "xyz"}, 2, 2))
	g.Const("strings", str)
	g.Const("string_scalar", ndarray.Must(ndarray.FromStrings([]string{"one"})))
	// A transposed view of strings and of floats: saved as compact copies.
	tv, err := str.WithLayout(ndarray.Layout{Shape: []int{2, 2}, Strides: []int{1, 2}})
	if err == nil {
		g.Const("strings_t", tv)
	}
	m := ndarray.Must(ndarray.FromSlice([]float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 3, 4))
	g.Const("view", ndarray.Must(m.WithLayout(ndarray.Layout{Shape: []int{2, 2}, Strides: []int{4, 2}, Offset: 1})))
	noncomp = append(noncomp, "string_scalar", "strings")
	if tv != nil {
		noncomp = append(noncomp, "strings_t")
	}
	sort.Strings(noncomp)
	for _, big := range []bool{false, true} {
		t.Run(fmt.Sprintf("bigEndian=%v", big), func(t *testing.T) {
			g2 := roundTrip(t, g, &SaveOptions{BigEndian: big})
			if got := ReportOf(g2).NonComputable; fmt.Sprint(got) != fmt.Sprint(noncomp) {
				t.Errorf("non-computable %v\nwant %v", got, noncomp)
			}
			v, _ := g2.Variable("view")
			if fmt.Sprint(v.Value().Float64s()) != "[2 4 6 8]" {
				t.Errorf("view saved as %v", v.Value())
			}
			if tv != nil {
				v, _ = g2.Variable("strings_t")
				if s, _ := ndarray.Strings(v.Value()); fmt.Sprintf("%q", s) != `["a" "héllo" "" "xyz"]` {
					t.Errorf("transposed strings saved as %q", s)
				}
			}
		})
	}
}

// TestZeroCopy: arrays of a little-endian file are used in place when
// aligned (sdgo aligns array data in the files it writes); big-endian ones
// are copied.
func TestZeroCopy(t *testing.T) {
	g := graph.New()
	g.Var("w", ndarray.Must(ndarray.Zeros(ndarray.Float64, 1000)))
	g.Var("v", ndarray.Must(ndarray.Zeros(ndarray.Float32, 3)))
	for _, big := range []bool{false, true} {
		b, err := Encode(g, &SaveOptions{BigEndian: big})
		if err != nil {
			t.Fatal(err)
		}
		buf := alignedBytes(len(b))
		copy(buf, b)
		r, _ := decode(buf)
		for _, v := range r.Variables {
			if v.Name == "w" {
				if off := uintptr(unsafe.Pointer(&v.Array.Buffer[0])) - uintptr(unsafe.Pointer(&buf[0])); off%64 != 0 {
					t.Errorf("array data at offset %d, not 64-byte aligned", off)
				}
			}
		}
		g2, err := Decode(buf)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := uintptr(unsafe.Pointer(&buf[0])), uintptr(unsafe.Pointer(&buf[0]))+uintptr(len(buf))
		for _, name := range []string{"w", "v"} {
			v, _ := g2.Variable(name)
			p := uintptr(unsafe.Pointer(&v.Value().Buffer().Bytes()[0]))
			if inside := p >= lo && p < hi; inside == big {
				t.Errorf("big-endian %v: %s in the file buffer: %v", big, name, inside)
			}
		}
	}
}

// TestStringArrayLayouts: string arrays are written in libnd4j's layout,
// little-endian offsets then the bytes, in either byte order (ND4J's writer
// copies its Utf8Buffer, which holds that layout, under byteOrder BE); the
// legacy layouts write big-endian ones as older ND4J did, the count first
// and the offsets big-endian. Every form reads back.
func TestStringArrayLayouts(t *testing.T) {
	a := ndarray.Must(ndarray.FromStrings([]string{"ab", "c"}))
	le := []byte{0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0}
	be := []byte{0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3}
	for _, c := range []struct {
		bo     fb.ByteOrder
		legacy bool
		head   []byte
	}{
		{fb.ByteOrderLE, false, le}, {fb.ByteOrderBE, false, le}, {fb.ByteOrderLE, true, le}, {fb.ByteOrderBE, true, be},
	} {
		ra, err := arrayToRaw(a, c.bo, false, c.legacy)
		if err != nil {
			t.Fatal(err)
		}
		if want := append(slices.Clone(c.head), "abc"...); !bytes.Equal(ra.Buffer, want) || ra.ByteOrder != c.bo {
			t.Fatalf("order %v, legacy %v: buffer %v (order %v), want %v", c.bo, c.legacy, ra.Buffer, ra.ByteOrder, want)
		}
		la, err := arrayFromRaw(&ra, 0)
		if err != nil {
			t.Fatal(err)
		}
		if s, _ := ndarray.Strings(la.arr); fmt.Sprint(s) != "[ab c]" {
			t.Fatalf("order %v, legacy %v: read back %q", c.bo, c.legacy, s)
		}
	}
}

// TestFOrderStringArray: a string array stored in 'f' order reads in C
// order, in both layouts (libnd4j's little-endian one and ND4J's big-endian
// one with the count first), like the fixed-width arrays do.
func TestFOrderStringArray(t *testing.T) {
	// Element (i,j) of the 2x3 array is "ij"; 'f' order lists column by column.
	f := []string{"00", "10", "01", "11", "02", "12"}
	offs := []uint64{0}
	var data []byte
	for _, s := range f {
		data = append(data, s...)
		offs = append(offs, uint64(len(data)))
	}
	for _, bo := range []fb.ByteOrder{fb.ByteOrderLE, fb.ByteOrderBE} {
		a := rawArray{ShapeInfo: []int64{2, 2, 3, 1, 2, arrayUTF8, 1, 'f'}, DType: fb.DTypeUTF8, ByteOrder: bo,
			Buffer: encodeStringBuffer(offs, data, bo, bo == fb.ByteOrderBE)}
		la, err := arrayFromRaw(&a, 0)
		if err != nil {
			t.Fatal(err)
		}
		s, err := ndarray.Strings(la.arr)
		if err != nil || fmt.Sprint(la.arr.Shape(), s) != "[2 3] [00 01 02 10 11 12]" {
			t.Errorf("byte order %v: %v %q %v", bo, la.arr.Shape(), s, err)
		}
	}
}

// TestArrayFromRawLayouts: 'f' order, non-canonical strides of size-1 axes,
// the two rank-0 lengths, empty arrays (also rank-0 ones), bools other than 0
// and 1, and zero-copy use of little-endian buffers.
func TestArrayFromRawLayouts(t *testing.T) {
	le := func(v ...float32) []byte {
		b := make([]byte, 4*len(v))
		for i, x := range v {
			bits := math.Float32bits(x)
			b[4*i], b[4*i+1], b[4*i+2], b[4*i+3] = byte(bits), byte(bits>>8), byte(bits>>16), byte(bits>>24)
		}
		return b
	}
	cases := []struct {
		name  string
		a     rawArray
		shape string
		vals  string
	}{
		{"f order", rawArray{ShapeInfo: []int64{2, 2, 3, 1, 2, arrayFloat, 1, 'f'}, Buffer: le(1, 4, 2, 5, 3, 6), DType: 5},
			"[2 3]", "[1 2 3 4 5 6]"},
		{"f order 3d", rawArray{ShapeInfo: []int64{3, 2, 1, 2, 1, 2, 2, arrayFloat, 1, 'f'}, Buffer: le(1, 3, 2, 4), DType: 5},
			"[2 1 2]", "[1 2 3 4]"},
		{"size-1 strides", rawArray{ShapeInfo: []int64{2, 1, 2, 1, 1, arrayFloat, 1, 'c'}, Buffer: le(7, 8), DType: 5},
			"[1 2]", "[7 8]"},
		{"rank 0 of 4", rawArray{ShapeInfo: []int64{0, arrayFloat, 1, 'c'}, Buffer: le(3), DType: 5}, "[]", "[3]"},
		{"rank 0 of 6", rawArray{ShapeInfo: []int64{0, 0, 0, arrayFloat, 1, 'c'}, Buffer: le(3), DType: 5}, "[]", "[3]"},
		{"empty", rawArray{ShapeInfo: []int64{2, 0, 3, 0, 0, arrayFloat | arrayEmpty, 0, 'c'}, DType: 5}, "[0 3]", "[]"},
		{"empty scalar", rawArray{ShapeInfo: []int64{0, arrayInt | arrayEmpty, 1, 'c'}, DType: 6}, "[0]", "[]"},
		{"bools", rawArray{ShapeInfo: []int64{1, 3, 1, arrayBool, 1, 'c'}, Buffer: []byte{0, 7, 1}, DType: 1}, "[3]", "[0 1 1]"},
	}
	for _, c := range cases {
		la, err := arrayFromRaw(&c.a, ndarray.Int32)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if fmt.Sprint(la.arr.Shape()) != c.shape || fmt.Sprint(la.arr.Float64s()) != c.vals {
			t.Errorf("%s: %v%v %v", c.name, la.arr.DType(), la.arr.Shape(), la.arr.Float64s())
		}
		if c.name == "empty scalar" && (!la.emptyScalar || la.arr.DType() != ndarray.Int32) {
			t.Errorf("empty scalar: %+v %v", la, la.arr.DType())
		}
	}
	// 'f' order of a dtype sdgo does not compute with (HALF, kept as bytes),
	// in both byte orders: element (i,j) = 10i+j.
	for _, bo := range []fb.ByteOrder{fb.ByteOrderLE, fb.ByteOrderBE} {
		f := make([]byte, 12)
		for j := range 3 {
			for i := range 2 {
				byteOrderOf(bo).PutUint16(f[2*(2*j+i):], uint16(10*i+j))
			}
		}
		a := rawArray{ShapeInfo: []int64{2, 2, 3, 1, 2, arrayHalf, 1, 'f'}, Buffer: f, DType: fb.DTypeHALF, ByteOrder: bo}
		la, err := arrayFromRaw(&a, 0)
		if err != nil {
			t.Fatal(err)
		}
		var got []uint16
		for k, pb := 0, mustBytes(la.arr); k < len(pb); k += 2 {
			got = append(got, binary.NativeEndian.Uint16(pb[k:]))
		}
		if fmt.Sprint(la.arr.Shape(), got) != "[2 3] [0 1 2 10 11 12]" {
			t.Errorf("f-order HALF (%v): %v %v", bo, la.arr.Shape(), got)
		}
	}
	// Little-endian and aligned: no copy.
	b := alignedBytes(16)
	copy(b, le(1, 2, 3, 4))
	a := rawArray{ShapeInfo: []int64{1, 4, 1, arrayFloat, 1, 'c'}, Buffer: b, DType: 5}
	la, err := arrayFromRaw(&a, 0)
	if err != nil {
		t.Fatal(err)
	}
	if &la.arr.Buffer().Bytes()[0] != &b[0] {
		t.Error("an aligned little-endian buffer was copied")
	}
	for _, bad := range []rawArray{
		{ShapeInfo: []int64{1, 4, 1, arrayFloat, 1, 'c'}, Buffer: le(1, 2), DType: 5},                       // short
		{ShapeInfo: []int64{2, 2, 2, 2, 1, arrayFloat | arrayEmpty, 1, 'c'}, DType: 5},                      // empty yet sized
		{ShapeInfo: []int64{40, 1}, DType: 5},                                                               // absurd rank
		{ShapeInfo: []int64{1, 2, 1, arrayUTF8, 1, 'c'}, Buffer: []byte{0, 0, 0, 0, 0, 0, 0, 9}, DType: 50}, // bad offsets
		{ShapeInfo: []int64{1, 1, 1, 0, 1, 'c'}, Buffer: []byte{1}, DType: 60},                              // unknown dtype
	} {
		if _, err := arrayFromRaw(&bad, 0); err == nil {
			t.Errorf("accepted %+v", bad)
		}
	}
}

// mustBytes is packedBytes for arrays the test knows fit in memory.
func mustBytes(a *ndarray.Array) []byte {
	b, err := packedBytes(a)
	if err != nil {
		panic(err)
	}
	return b
}
