package main

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/serialize"
)

var svgPath = regexp.MustCompile(`<path d="M([\d.]+),([\d.]+) C[\d.]+,[\d.]+ [\d.]+,[\d.]+ ([\d.]+),([\d.]+)"( stroke-dasharray="5,3")? marker-end`)

// The SVG picture is well-formed XML with a shape for every variable
// (ellipse) and op (box) and an arrow for every op input and output; every
// edge but the loop's two back edges (dashed) goes down the picture, from
// the bottom of one node to the top of the next.
func TestDotSVG(t *testing.T) {
	path := withUnknownOp(t)
	g, err := serialize.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := sdgo(t, "dot", "-svg", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	d := xml.NewDecoder(strings.NewReader(out))
	counts := map[string]int{}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			counts[se.Name.Local]++
		}
	}
	want := 0
	for _, o := range g.Ops() {
		want += len(o.Inputs()) + len(o.Outputs())
	}
	// One rect is the background.
	if counts["svg"] != 1 || counts["ellipse"] != len(g.Variables()) || counts["rect"] != len(g.Ops())+1 || counts["path"] != want+1 {
		t.Errorf("elements %v; want %d ellipses, %d rects, %d paths", counts, len(g.Variables()), len(g.Ops())+1, want+1)
	}
	edges, dashed := 0, 0
	for _, m := range svgPath.FindAllStringSubmatch(out, -1) {
		edges++
		if m[5] != "" {
			dashed++
			continue
		}
		y1, _ := strconv.ParseFloat(m[2], 64)
		y2, _ := strconv.ParseFloat(m[4], 64)
		if y2 <= y1 {
			t.Errorf("a forward edge goes up: %s", m[0])
		}
	}
	if edges != want || dashed != 2 {
		t.Errorf("%d edges, %d dashed; want %d, 2", edges, dashed, want)
	}
	if !strings.Contains(out, `<g id="op:while/Sum"><rect`) || !strings.Contains(out, `stroke="#cc0000"`) || !strings.Contains(out, ">reduce_sux</text>") {
		t.Errorf("the lacking op is not drawn red")
	}
	// -o FILE.svg draws SVG without -svg.
	svg := filepath.Join(t.TempDir(), "g.svg")
	if code, _, errs := sdgo(t, "dot", "-o", svg, path); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if b, _ := os.ReadFile(svg); !bytes.Equal(b, []byte(out)) {
		t.Errorf("-o g.svg wrote other than -svg")
	}
}

// Names are escaped: a variable named with XML's special characters
// stays text, and the loss is drawn thick.
func TestDotSVGEscapes(t *testing.T) {
	g := graph.New()
	x := g.Placeholder(`a<b>&"c"`, ndarray.Float32, 2)
	x.Sum().Named("loss")
	if err := g.SetLoss("loss"); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "g.fb")
	if err := serialize.Save(path, g, nil); err != nil {
		t.Fatal(err)
	}
	code, out, errs := sdgo(t, "dot", "-svg", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if err := xml.Unmarshal([]byte(out), new(struct{})); err != nil {
		t.Fatalf("not well-formed XML: %v", err)
	}
	if !strings.Contains(out, ">a&lt;b&gt;&amp;&#34;c&#34;</text>") || !strings.Contains(out, `stroke-width="2.5"`) {
		t.Errorf("SVG:\n%s", out)
	}
}
