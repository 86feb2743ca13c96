package serialize

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/serialize/internal/fb"
)

// mixedRaw is a graph like libnd4j's assert_type_rank2_int64.fb (which is
// not in testdata: only its expected value is known, from libnd4j's
// OneOffTests.test_assert_4): an int64 [2,2] array and a double scalar
// combined by a custom op whose node declares the output type out.
func mixedRaw(t *testing.T, op string, x []int64, y float64, out fb.DType) *rawGraph {
	t.Helper()
	xa, err := arrayToRaw(ndarray.Must(ndarray.FromSlice(x, 2, 2)), fb.ByteOrderBE, false, false)
	if err != nil {
		t.Fatal(err)
	}
	ya, err := arrayToRaw(ndarray.Scalar(y), fb.ByteOrderBE, false, false)
	if err != nil {
		t.Fatal(err)
	}
	n := rNode(3, "z", op, p(1, 0), p(2, 0))
	n.OutputTypes = []fb.DType{out}
	return &rawGraph{
		Variables: []rawVariable{
			{ID: &rawIntPair{1, 0}, Name: "x", DType: fb.DTypeINT64, VarType: fb.VarTypeCONSTANT, Device: -1, Array: &xa},
			{ID: &rawIntPair{2, 0}, Name: "y", DType: fb.DTypeDOUBLE, VarType: fb.VarTypeCONSTANT, Device: -1, Array: &ya},
			{ID: &rawIntPair{3, 0}, Name: "z", DType: out, VarType: fb.VarTypeARRAY, Device: -1},
		},
		Nodes: []rawNode{n},
	}
}

// TestDeclaredOutputDType: a pairwise op on an int64 array and a double
// scalar runs as libnd4j runs it, in double, converted to the node's
// declared output type (truncating towards zero for an integer), and the
// graph saves back to the same bytes.
func TestDeclaredOutputDType(t *testing.T) {
	cases := []struct {
		op   string
		x    []int64
		y    float64
		out  fb.DType
		want string
	}{
		// libnd4j's OneOffTests.test_assert_4 expects int64 [[1,1],[1,1]].
		{"add", []int64{1, 1, 1, 1}, 0, fb.DTypeINT64, "int64 [1 1 1 1]"},
		// 1-0.5, 2-0.5, ... = 0.5 1.5 2.5 3.5, truncated (not 1+0, ...).
		{"add", []int64{1, 2, 3, 4}, -0.5, fb.DTypeINT64, "int64 [0 1 2 3]"},
		// 1.5 3 4.5 6.
		{"multiply", []int64{1, 2, 3, 4}, 1.5, fb.DTypeINT64, "int64 [1 3 4 6]"},
		{"multiply", []int64{1, 2, 3, 4}, 1.5, fb.DTypeDOUBLE, "float64 [1.5 3 4.5 6]"},
		// -7/2 = -3.5 truncates to -3; 7/2 = 3.5 to 3.
		{"divide", []int64{-7, 7, 1, 0}, 2, fb.DTypeINT64, "int64 [-3 3 0 0]"},
		{"subtract", []int64{1, 2, 3, 4}, 0.25, fb.DTypeFLOAT, "float32 [0.75 1.75 2.75 3.75]"},
	}
	for _, c := range cases {
		name := fmt.Sprintf("%s %v %v -> %v", c.op, c.x, c.y, c.out)
		buf, err := encode(mixedRaw(t, c.op, c.x, c.y, c.out))
		if err != nil {
			t.Fatal(err)
		}
		g, err := Decode(buf)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if rep := ReportOf(g); rep != nil && len(rep.Opaque) > 0 {
			t.Errorf("%s: kept opaque: %v", name, rep.Opaque)
		}
		z := run(t, g, nil, "z")["z"]
		got, err := ndarray.Cast(z, ndarray.Float64)
		if err != nil {
			t.Fatal(err)
		}
		if s := fmt.Sprintf("%v %v", z.DType(), got.Float64s()); s != c.want || fmt.Sprint(z.Shape()) != "[2 2]" {
			t.Errorf("%s: %s %v, want %s [2 2]", name, s, z.Shape(), c.want)
		}
		again, err := Encode(g, &SaveOptions{BigEndian: true})
		if err != nil {
			t.Fatal(err)
		}
		r2, _ := decode(again)
		if n := r2.Nodes[0]; len(n.ExtraTypes) != 0 || fmt.Sprint(n.OutputTypes) != fmt.Sprint([]fb.DType{c.out}) {
			t.Errorf("%s: saved back with extraTypes %v, outputTypes %v", name, n.ExtraTypes, n.OutputTypes)
		}
		if !bytes.Equal(again, must(Encode(must(Decode(again)), &SaveOptions{BigEndian: true}))) {
			t.Errorf("%s: a second round trip changes the file", name)
		}
	}
}
