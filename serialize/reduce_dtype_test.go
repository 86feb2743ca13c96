package serialize

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	"github.com/sdgo/sdgo/serialize/internal/fb"
)

// libnd4j's REDUCE_FLOAT ops (mean, the norms, the entropies) give a
// floating-point result for integer and bool inputs: FLOAT32, the default
// floating-point type (DataTypeUtils::pickFloatingType), computed in it.
// Values by hand: mean of [3 4 -5 7] = 9/4; √(3²+4²) = 5; mean |[3 4 -5
// 7]| = 19/4; Σ[3 4]² = 25; mean of [true false true true] = 3/4.
func TestReduceFloatOfIntegers(t *testing.T) {
	i64 := ndarray.Must(ndarray.FromSlice([]int64{3, 4, -5, 7}, 4))
	i32 := ndarray.Must(ndarray.FromSlice([]int32{3, 4}, 2))
	bools := ndarray.Must(ndarray.FromSlice([]bool{true, false, true, true}, 4))
	for _, c := range []struct {
		op   string
		x    *ndarray.Array
		args ops.Args
		want string
	}{
		{"reduce_mean", i64, ops.ReduceArgs(false), "float32 [2.25]"},
		{"reduce_mean", bools, ops.ReduceArgs(false), "float32 [0.75]"},
		{"reduce_norm2", i32, ops.ReduceArgs(false), "float32 [5]"},
		{"amean", i64, ops.ReduceArgs(false), "float32 [4.75]"},
		{"reduce_sqnorm", i32, ops.ReduceArgs(false), "float32 [25]"},
		// dtype arg 0 (a declared output type) wins.
		{"reduce_mean", i64, ops.Args{B: []bool{false}, D: []ndarray.DType{ndarray.Float64}}, "float64 [2.25]"},
		// Floating-point inputs keep their type, the sum its input's.
		{"reduce_mean", ndarray.Must(ndarray.FromSlice([]float64{1, 2}, 2)), ops.ReduceArgs(false), "float64 [1.5]"},
		{"reduce_sum", i64, ops.ReduceArgs(false), "int64 [9]"},
	} {
		g := graph.New()
		outs, err := g.Op(c.op, c.args, g.Const("x", c.x))
		if err != nil {
			t.Fatalf("%s of %v: %v", c.op, c.x.DType(), err)
		}
		z := run(t, g, nil, outs[0].Name())[outs[0].Name()]
		f, _ := ndarray.Cast(z, ndarray.Float64)
		if got := fmt.Sprintf("%v %v", z.DType(), f.Float64s()); got != c.want || outs[0].DType() != z.DType() {
			t.Errorf("%s of %v: %s (inferred %v), want %s", c.op, c.x.DType(), got, outs[0].DType(), c.want)
		}
	}
}

// A file's legacy reduce_mean node on an int64 array runs as libnd4j runs
// it, in the output type the node declares, and saves back unchanged.
func TestReduceFloatDeclaredDType(t *testing.T) {
	for _, c := range []struct {
		out  fb.DType
		want string
	}{{fb.DTypeFLOAT, "float32 [2.25]"}, {fb.DTypeDOUBLE, "float64 [2.25]"}} {
		xa, err := arrayToRaw(ndarray.Must(ndarray.FromSlice([]int64{3, 4, -5, 7}, 4)), fb.ByteOrderBE, false, false)
		if err != nil {
			t.Fatal(err)
		}
		n := rNode(2, "z", "reduce_mean", p(1, 0))
		n.OpType, n.OpNum, n.ExtraBools, n.OutputTypes = fb.OpTypeREDUCE_FLOAT, 0, []bool{false, true}, []fb.DType{c.out}
		r := &rawGraph{
			Variables: []rawVariable{
				{ID: &rawIntPair{1, 0}, Name: "x", DType: fb.DTypeINT64, VarType: fb.VarTypeCONSTANT, Device: -1, Array: &xa},
				{ID: &rawIntPair{2, 0}, Name: "z", DType: c.out, VarType: fb.VarTypeARRAY, Device: -1},
			},
			Nodes: []rawNode{n},
		}
		buf := must(encode(r))
		g, err := Decode(buf)
		if err != nil {
			t.Fatal(err)
		}
		z := run(t, g, nil, "z")["z"]
		f, _ := ndarray.Cast(z, ndarray.Float64)
		if got := fmt.Sprintf("%v %v", z.DType(), f.Float64s()); got != c.want {
			t.Errorf("declared %v: %s, want %s", c.out, got, c.want)
		}
		again := must(Encode(g, &SaveOptions{BigEndian: true}))
		if !bytes.Equal(again, must(Encode(must(Decode(again)), &SaveOptions{BigEndian: true}))) {
			t.Errorf("declared %v: a second round trip changes the file", c.out)
		}
		if r2 := must(decode(again)); len(r2.Nodes[0].ExtraTypes) != 0 {
			t.Errorf("declared %v: saved back with extraTypes %v", c.out, r2.Nodes[0].ExtraTypes)
		}
	}
}
