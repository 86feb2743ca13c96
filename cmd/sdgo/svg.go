package main

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"slices"
	"strings"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/serialize"
)

// picture is what `sdgo dot` draws, in DOT or SVG: variables (ellipses)
// and ops (boxes), and an edge for every op input and output.
type picture struct {
	nodes []picNode
	edges []picEdge
}

type picNode struct {
	id     string // "v:NAME" or "op:NAME": an op and a variable may share a name
	label  string // lines separated by "\n"
	op     bool
	fill   string
	stroke string // "" for the default
	thick  bool   // a loss variable
}

type picEdge struct {
	from, to int // indices into nodes
	label    string
	back     bool // a loop back edge, into merge from next_iteration
}

func pictureOf(g *graph.Graph) *picture {
	lacking := map[string]bool{}
	if rep := serialize.ReportOf(g); rep != nil {
		for _, n := range rep.Unimplemented {
			lacking[n] = true
		}
	}
	losses := map[string]bool{}
	for _, l := range g.Losses() {
		losses[l] = true
	}
	fills := map[graph.VarType]string{
		graph.VARIABLE: "#cfe2f3", graph.CONSTANT: "#e6e6e6", graph.PLACEHOLDER: "#d9ead3",
		graph.ARRAY: "#ffffff", graph.SEQUENCE: "#fff2cc",
	}
	p := &picture{}
	index := map[string]int{}
	add := func(n picNode) int {
		index[n.id] = len(p.nodes)
		p.nodes = append(p.nodes, n)
		return len(p.nodes) - 1
	}
	for _, v := range g.Variables() {
		label := v.Name() + "\n" + typeString(v.DType(), v.Shape())
		if v.Type() != graph.ARRAY {
			label += "\n" + v.Type().String()
		}
		if losses[v.Name()] {
			label += " (loss)"
		}
		add(picNode{id: "v:" + v.Name(), label: label, fill: fills[v.Type()], thick: losses[v.Name()]})
	}
	for _, o := range g.Ops() {
		n := picNode{id: "op:" + o.Name(), label: o.OpName(), op: true, fill: "#fce5cd"}
		if lacking[o.OpName()] {
			n.fill, n.stroke = "#f4cccc", "#cc0000"
		}
		if o.Name() != o.OpName() {
			n.label += "\n" + o.Name()
		}
		k := add(n)
		for i, in := range o.Inputs() {
			e := picEdge{from: index["v:"+in.Name()], to: k, back: o.IsBackEdge(i)}
			if len(o.Inputs()) > 1 {
				e.label = fmt.Sprint(i)
			}
			p.edges = append(p.edges, e)
		}
		for _, out := range o.Outputs() {
			p.edges = append(p.edges, picEdge{from: k, to: index["v:"+out.Name()]})
		}
	}
	return p
}

// Sizes of the SVG drawing, in pixels.
const (
	svgCharWidth  = 6.6 // of the 11px sans-serif font, on average
	svgLineHeight = 14
	svgPadX       = 12
	svgPadY       = 8
	svgGapX       = 24
	svgGapY       = 48
	svgMargin     = 20
)

// layout places the nodes in layers, every forward edge going down: a
// node's layer is one more than the deepest of its inputs', and a variable
// no op makes (a placeholder, a weight, a constant) sits just above its
// first reader. Within a layer, nodes are ordered by the mean position of
// their neighbours (the barycentre heuristic), sweeping down and up a few
// times to uncross edges.
func (p *picture) layout() (x, y, w, h []float64, width, height float64) {
	n := len(p.nodes)
	ins := make([][]int, n)
	outs := make([][]int, n)
	for _, e := range p.edges {
		if !e.back {
			ins[e.to] = append(ins[e.to], e.from)
			outs[e.from] = append(outs[e.from], e.to)
		}
	}
	// Longest path from the sources, in a topological order (Kahn's).
	layer := make([]int, n)
	indeg := make([]int, n)
	for i := range ins {
		indeg[i] = len(ins[i])
	}
	queue := []int{}
	for i := range indeg {
		if indeg[i] == 0 {
			queue = append(queue, i)
		}
	}
	order := make([]int, 0, n)
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		order = append(order, i)
		for _, j := range outs[i] {
			layer[j] = max(layer[j], layer[i]+1)
			if indeg[j]--; indeg[j] == 0 {
				queue = append(queue, j)
			}
		}
	}
	if len(order) < n { // not reached: only back edges close cycles
		seen := make([]bool, n)
		for _, i := range order {
			seen[i] = true
		}
		for i := range seen {
			if !seen[i] {
				order = append(order, i)
			}
		}
	}
	// Sources move down to just above their first reader.
	for _, i := range order {
		if len(ins[i]) == 0 && len(outs[i]) > 0 {
			first := layer[outs[i][0]]
			for _, j := range outs[i] {
				first = min(first, layer[j])
			}
			layer[i] = first - 1
		}
	}
	depth := 0
	for _, l := range layer {
		depth = max(depth, l+1)
	}
	rows := make([][]int, depth)
	for _, i := range order {
		rows[layer[i]] = append(rows[layer[i]], i)
	}
	w, h = make([]float64, n), make([]float64, n)
	for i, nd := range p.nodes {
		lines := strings.Split(nd.label, "\n")
		longest := 0
		for _, l := range lines {
			longest = max(longest, len([]rune(l)))
		}
		w[i] = float64(longest)*svgCharWidth + 2*svgPadX
		h[i] = float64(len(lines))*svgLineHeight + 2*svgPadY
		if !nd.op { // an ellipse needs room around its text
			w[i] *= 1.3
			h[i] *= 1.2
		}
	}
	x, y = make([]float64, n), make([]float64, n)
	place := func() {
		for _, r := range rows {
			pos := 0.0
			for _, i := range r {
				x[i] = pos + w[i]/2
				pos += w[i] + svgGapX
			}
		}
	}
	place()
	mean := func(i int, nbrs []int) float64 {
		if len(nbrs) == 0 {
			return x[i]
		}
		s := 0.0
		for _, j := range nbrs {
			s += x[j]
		}
		return s / float64(len(nbrs))
	}
	sweep := func(r []int, nbrs [][]int) {
		key := make(map[int]float64, len(r))
		for _, i := range r {
			key[i] = mean(i, nbrs[i])
		}
		slices.SortStableFunc(r, func(a, b int) int {
			switch {
			case key[a] < key[b]:
				return -1
			case key[a] > key[b]:
				return 1
			}
			return 0
		})
	}
	for range 4 {
		for _, r := range rows[1:] {
			sweep(r, ins)
		}
		place()
		for l := len(rows) - 2; l >= 0; l-- {
			sweep(rows[l], outs)
		}
		place()
	}
	// Centre the rows on the widest.
	for _, r := range rows {
		if len(r) > 0 {
			last := r[len(r)-1]
			width = max(width, x[last]+w[last]/2)
		}
	}
	top := float64(svgMargin)
	for _, r := range rows {
		if len(r) == 0 {
			continue
		}
		last := r[len(r)-1]
		shift := svgMargin + (width-(x[last]+w[last]/2))/2
		tall := 0.0
		for _, i := range r {
			tall = max(tall, h[i])
		}
		for _, i := range r {
			x[i] += shift
			y[i] = top + tall/2
		}
		top += tall + svgGapY
	}
	return x, y, w, h, width + 2*svgMargin, top - svgGapY + svgMargin
}

// writeSVG draws g as an SVG picture without Graphviz: a layered drawing
// of the same nodes and edges writeDOT writes.
func writeSVG(wr io.Writer, title string, g *graph.Graph) error {
	p := pictureOf(g)
	x, y, w, h, width, height := p.layout()
	bw := bufio.NewWriter(wr)
	esc := html.EscapeString
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="Helvetica, Arial, sans-serif" font-size="11">`+"\n",
		width, height, width, height)
	fmt.Fprintf(bw, "<title>%s</title>\n", esc(title))
	fmt.Fprintln(bw, `<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#444"/></marker></defs>`)
	fmt.Fprintf(bw, `<rect width="100%%" height="100%%" fill="#ffffff"/>`+"\n")
	fmt.Fprintln(bw, `<g fill="none" stroke="#444" stroke-width="1">`)
	for _, e := range p.edges {
		x1, y1 := x[e.from], y[e.from]+h[e.from]/2
		x2, y2 := x[e.to], y[e.to]-h[e.to]/2
		dash := ""
		if e.back {
			// Up the side, from below the next_iteration to above the merge.
			x1, y1, x2, y2 = x[e.from]+w[e.from]/2, y[e.from], x[e.to]+w[e.to]/2, y[e.to]
			dash = ` stroke-dasharray="5,3"`
			bend := max(x1, x2) + 60
			fmt.Fprintf(bw, `<path d="M%.1f,%.1f C%.1f,%.1f %.1f,%.1f %.1f,%.1f"%s marker-end="url(#arrow)"/>`+"\n",
				x1, y1, bend, y1, bend, y2, x2, y2, dash)
			continue
		}
		dy := (y2 - y1) / 2
		fmt.Fprintf(bw, `<path d="M%.1f,%.1f C%.1f,%.1f %.1f,%.1f %.1f,%.1f" marker-end="url(#arrow)"/>`+"\n",
			x1, y1, x1, y1+dy, x2, y2-dy, x2, y2)
	}
	fmt.Fprintln(bw, "</g>")
	for _, e := range p.edges {
		if e.label != "" && !e.back {
			// The input's index, beside the end of its edge.
			fmt.Fprintf(bw, `<text x="%.1f" y="%.1f" font-size="9" fill="#666">%s</text>`+"\n",
				(x[e.from]+3*x[e.to])/4+4, y[e.to]-h[e.to]/2-6, esc(e.label))
		}
	}
	for i, nd := range p.nodes {
		stroke, sw := "#444", 1.0
		if nd.stroke != "" {
			stroke = nd.stroke
		}
		if nd.thick {
			sw = 2.5
		}
		fmt.Fprintf(bw, `<g id="%s">`, esc(nd.id))
		if nd.op {
			fmt.Fprintf(bw, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s" stroke="%s" stroke-width="%.1f"/>`,
				x[i]-w[i]/2, y[i]-h[i]/2, w[i], h[i], nd.fill, stroke, sw)
		} else {
			fmt.Fprintf(bw, `<ellipse cx="%.1f" cy="%.1f" rx="%.1f" ry="%.1f" fill="%s" stroke="%s" stroke-width="%.1f"/>`,
				x[i], y[i], w[i]/2, h[i]/2, nd.fill, stroke, sw)
		}
		lines := strings.Split(nd.label, "\n")
		first := y[i] - float64(len(lines)-1)*svgLineHeight/2 + 4
		for k, l := range lines {
			fmt.Fprintf(bw, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, x[i], first+float64(k)*svgLineHeight, esc(l))
		}
		fmt.Fprintln(bw, "</g>")
	}
	fmt.Fprintln(bw, "</svg>")
	return bw.Flush()
}
