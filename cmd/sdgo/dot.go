package main

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/sdgo/sdgo/graph"
)

const dotUsage = `usage: sdgo dot [flags] FILE.fb

Writes the graph in Graphviz's DOT language: variables as ellipses
(trainable variables blue, constants grey, placeholders green, op outputs
white), ops as boxes (red when sdgo lacks the op), an edge for every input
and output; loop back edges (into merge from next_iteration) are dashed.
Render it with, for example, dot -Tsvg graph.dot -o graph.svg; or, without
Graphviz, have sdgo draw the picture itself as SVG (-svg, or -o FILE.svg):
a simple layered drawing of the same nodes and edges, data flowing down.

flags:`

// dotCmd is `sdgo dot`.
func dotCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("dot", dotUsage, stderr)
	out := fs.String("o", "", "write to `FILE` instead of standard output")
	svg := fs.Bool("svg", false, "draw an SVG picture instead of writing DOT (the default for -o FILE.svg)")
	g, _, cancel, exit := parseAndLoad(fs, args, false, stderr)
	if exit >= 0 {
		return exit
	}
	cancel()
	title := strings.TrimSuffix(filepath.Base(fs.Arg(0)), filepath.Ext(fs.Arg(0)))
	write := writeDOT
	if *svg || strings.EqualFold(filepath.Ext(*out), ".svg") {
		write = writeSVG
	}
	if *out == "" {
		if err := write(stdout, title, g); err != nil {
			fmt.Fprintf(stderr, "sdgo dot: %v\n", err)
			return 1
		}
		return 0
	}
	if sameFile(*out, fs.Arg(0)) {
		fmt.Fprintf(stderr, "sdgo dot: -o %s is the graph file itself\n", *out)
		return 2
	}
	if err := writeFile(*out, func(w io.Writer) error { return write(w, title, g) }); err != nil {
		fmt.Fprintf(stderr, "sdgo dot: %v\n", err)
		return 1
	}
	return 0
}

// writeDOT writes g as a DOT digraph. Variable nodes are named "v:NAME" and
// op nodes "op:NAME", since SameDiff lets an op and a variable share a name.
func writeDOT(w io.Writer, title string, g *graph.Graph) error {
	bw := bufio.NewWriter(w)
	p := pictureOf(g)
	fmt.Fprintf(bw, "digraph %s {\n", dotQuote(title))
	fmt.Fprintln(bw, "  rankdir=TB;")
	fmt.Fprintln(bw, `  node [fontname="Helvetica", fontsize=10];`)
	fmt.Fprintln(bw, `  edge [fontname="Helvetica", fontsize=8];`)
	for _, n := range p.nodes {
		if n.op {
			style := fmt.Sprintf("style=filled, fillcolor=%q", n.fill)
			if n.stroke != "" {
				style += fmt.Sprintf(", color=%q", n.stroke)
			}
			fmt.Fprintf(bw, "  %s [label=%s, shape=box, %s];\n", dotQuote(n.id), dotQuote(n.label), style)
			continue
		}
		extra := ""
		if n.thick {
			extra = ", penwidth=2"
		}
		fmt.Fprintf(bw, "  %s [label=%s, shape=ellipse, style=filled, fillcolor=%q%s];\n",
			dotQuote(n.id), dotQuote(n.label), n.fill, extra)
	}
	for _, e := range p.edges {
		var attrs []string
		if e.label != "" {
			attrs = append(attrs, fmt.Sprintf("label=%q", e.label))
		}
		if e.back {
			attrs = append(attrs, "style=dashed, constraint=false")
		}
		a := ""
		if len(attrs) > 0 {
			a = " [" + strings.Join(attrs, ", ") + "]"
		}
		fmt.Fprintf(bw, "  %s -> %s%s;\n", dotQuote(p.nodes[e.from].id), dotQuote(p.nodes[e.to].id), a)
	}
	fmt.Fprintln(bw, "}")
	return bw.Flush()
}

// dotQuote quotes s as a DOT string; "\n" becomes a centred line break.
func dotQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
