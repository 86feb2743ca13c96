package serialize

import (
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// Rank-0 arrays (a constant and a legacy scalar op's FlatNode.scalar) are
// written with libnd4j's 6-long shape-info [0, 0, 1, extra, 1, 'c'] in
// every mode but the legacy layouts, which write the 4-long one; string
// arrays in libnd4j's layout in either byte order. Each file loads back
// equal.
func TestArrayLayoutsOnSave(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float32, 2)
	k := g.Const("k", ndarray.Must(ndarray.ScalarOf(ndarray.Float32, 2.5)))
	g.Const("words", ndarray.Must(ndarray.FromStrings([]string{"ab", "", "héllo"})))
	x.Mul(k).AddScalar(1.5).Named("y")
	if err := g.Err(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		opts *SaveOptions
		want int // rank-0 shape-info length
	}{
		{"default", nil, 6}, {"big-endian", &SaveOptions{BigEndian: true}, 6}, {"Java", &SaveOptions{Java: true, BigEndian: true}, 6},
		{"legacy", &SaveOptions{LegacyArrayLayouts: true}, 4}, {"legacy big-endian", &SaveOptions{LegacyArrayLayouts: true, BigEndian: true}, 4},
	} {
		r := savedRaw(t, g, c.opts)
		var si [][]int64
		for _, v := range r.Variables {
			if v.Name == "k" {
				si = append(si, v.Array.ShapeInfo)
			}
			if v.Name == "words" {
				big := c.opts != nil && c.opts.BigEndian && c.opts.LegacyArrayLayouts
				if count := v.Array.Buffer[7] == 3; count != big {
					t.Errorf("%s: the string buffer %v starts with the count: %v, want %v", c.name, v.Array.Buffer[:16], count, big)
				}
			}
		}
		for _, n := range r.Nodes {
			if n.Scalar != nil {
				si = append(si, n.Scalar.ShapeInfo)
			}
		}
		if len(si) != 2 {
			t.Fatalf("%s: found %d rank-0 arrays, want the constant and the scalar op's", c.name, len(si))
		}
		for _, s := range si {
			if len(s) != c.want || c.want == 6 && (s[1] != 0 || s[2] != 1 || s[5] != 'c') {
				t.Errorf("%s: rank-0 shape-info %v, want %d longs", c.name, s, c.want)
			}
		}
		g2, err := Decode(must(Encode(g, c.opts)))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if d := graphDiff(g, g2); d != "" {
			t.Errorf("%s: reloaded graph differs: %s", c.name, d)
		}
	}
}
