package serialize

import (
	"fmt"
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	"github.com/sdgo/sdgo/serialize/internal/fb"
)

// SDMath's legacy elementwise nodes as Java writes them: reciprocal as
// "Reciprocal" TRANSFORM_SAME 11, isnan TRANSFORM_BOOL 2, and PAIRWISE_BOOL 7
// with its comparand in extraParams. sdgo writes the name, type and number
// Java resolves; a node with only the type and number (Java ignores a legacy
// node's name) loads too, as does sdgo's old lower-case "reciprocal".
func TestJavaMathLegacyNodes(t *testing.T) {
	for _, c := range []struct {
		build          string // the name the graph is built with
		args           ops.Args
		name           string // the name Java writes
		typ            fb.OpType
		num            int64
		renameTo, want string
	}{
		{"reciprocal", ops.Args{}, "Reciprocal", fb.OpTypeTRANSFORM_SAME, 11, "", "[0.5 -0.25 4]"},
		{"Reciprocal", ops.Args{}, "Reciprocal", fb.OpTypeTRANSFORM_SAME, 11, "reciprocal", "[0.5 -0.25 4]"},
		{"Reciprocal", ops.Args{}, "Reciprocal", fb.OpTypeTRANSFORM_SAME, 11, "-", "[0.5 -0.25 4]"},
		{"isnan", ops.Args{}, "isnan", fb.OpTypeTRANSFORM_BOOL, 2, "-", "[false false false]"},
		{"tan", ops.Args{}, "tan", fb.OpTypeTRANSFORM_STRICT, 41, "-", ""},
		{"and", ops.Args{F: []float64{0}}, "and", fb.OpTypePAIRWISE_BOOL, 7, "-", "[true true true]"},
		{"log_x", ops.Args{F: []float64{2}}, "log_x", fb.OpTypeSCALAR, 38, "-", "[1 -2 -3]"},
	} {
		g := graph.New()
		vals := []float32{2, -4, 0.25}
		if c.build == "log_x" {
			vals = []float32{2, 0.25, 0.125}
		}
		x := g.Const("x", ndarray.Must(ndarray.FromSlice(vals)))
		in := []*graph.Variable{x}
		if c.typ == fb.OpTypePAIRWISE_BOOL {
			in = append(in, x)
		}
		g.Apply(c.build, c.args, in...).Named("y")
		buf, err := Encode(g, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.build, err)
		}
		r, err := decode(buf)
		if err != nil {
			t.Fatal(err)
		}
		for i := range r.Nodes {
			n := &r.Nodes[i]
			if n.OpName != c.name || n.OpType != c.typ || n.OpNum != c.num {
				t.Fatalf("%s written as %q %v %d, want %q %v %d", c.build, n.OpName, n.OpType, n.OpNum, c.name, c.typ, c.num)
			}
			switch c.renameTo {
			case "-":
				n.OpName = ""
			case "":
			default:
				n.OpName = c.renameTo
			}
		}
		if buf, err = encode(r); err != nil {
			t.Fatal(err)
		}
		g2, err := Decode(buf)
		if err != nil {
			t.Fatalf("%s (op name %q): %v", c.build, c.renameTo, err)
		}
		y, _ := g2.Variable("y")
		if y.Op().OpName() != c.name && !(c.name == "Reciprocal" && y.Op().OpName() == "reciprocal") {
			t.Errorf("%s loads as %q", c.build, y.Op().OpName())
		}
		res := run(t, g2, nil, "y")
		if c.want == "" {
			continue
		}
		var got string
		if res["y"].DType() == ndarray.Bool {
			got = fmt.Sprint(ndarray.Raw[bool](res["y"]))
		} else {
			got = fmt.Sprint(res["y"].Float64s())
		}
		if got != c.want {
			t.Errorf("%s (op name %q): y = %s, want %s", c.build, c.renameTo, got, c.want)
		}
	}
}
