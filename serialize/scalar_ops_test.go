package serialize

import (
	"fmt"
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	"github.com/sdgo/sdgo/serialize/internal/fb"
)

// A legacy scalar op as Java writes it (x.rsub(1.0), x.gt(0.5): opType
// SCALAR or SCALAR_BOOL, the number only in FlatNode.scalar, in x's dtype)
// loads with the number as float arg 0, runs, and saves back the same way.
func TestJavaScalarNodes(t *testing.T) {
	for _, c := range []struct {
		op   string
		typ  fb.OpType
		want string
	}{
		{"rsub_scalar", fb.OpTypeSCALAR, "[0.5 -0.5 -1.5]"}, // 1.5 - x
		{"greaterthan_scalar", fb.OpTypeSCALAR_BOOL, "[false true true]"},
	} {
		g := graph.New()
		x := g.Const("x", ndarray.Must(ndarray.FromSlice([]float32{1, 2, 3})))
		g.Apply(c.op, ops.Args{F: []float64{7}}, x).Named("y")
		buf, err := Encode(g, nil)
		if err != nil {
			t.Fatal(err)
		}
		r, err := decode(buf)
		if err != nil {
			t.Fatal(err)
		}
		for i := range r.Nodes {
			if r.Nodes[i].OpType != c.typ {
				t.Fatalf("%s written as op type %v, want %v", c.op, r.Nodes[i].OpType, c.typ)
			}
			r.Nodes[i].ExtraParams = nil
			sc, _ := scalarRaw(1.5, ndarray.Float32, fb.ByteOrderBE, false)
			r.Nodes[i].Scalar = &sc
		}
		if buf, err = encode(r); err != nil {
			t.Fatal(err)
		}
		g2, err := Decode(buf)
		if err != nil {
			t.Fatal(err)
		}
		y, _ := g2.Variable("y")
		if fmt.Sprint(y.Op().Args().F) != "[1.5]" {
			t.Fatalf("%s: args %+v", c.op, *y.Op().Args())
		}
		res := run(t, g2, nil, "y")
		var got string
		if c.typ == fb.OpTypeSCALAR_BOOL {
			got = fmt.Sprint(ndarray.Raw[bool](res["y"]))
		} else {
			got = fmt.Sprint(res["y"].Float64s())
		}
		if got != c.want {
			t.Errorf("%s: y = %s, want %s", c.op, got, c.want)
		}
	}
}
