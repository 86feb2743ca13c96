package main

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/serialize"
)

const dotUsage = `usage: sdgo dot [flags] FILE.fb

Writes the graph in Graphviz's DOT language: variables as ellipses
(trainable variables blue, constants grey, placeholders green, op outputs
white), ops as boxes (red when sdgo lacks the op), an edge for every input
and output; loop back edges (into merge from next_iteration) are dashed.
Render it with, for example, dot -Tsvg graph.dot -o graph.svg.

flags:`

// dotCmd is `sdgo dot`.
func dotCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("dot", dotUsage, stderr)
	out := fs.String("o", "", "write to `FILE` instead of standard output")
	g, _, cancel, exit := parseAndLoad(fs, args, false, stderr)
	if exit >= 0 {
		return exit
	}
	cancel()
	title := strings.TrimSuffix(filepath.Base(fs.Arg(0)), filepath.Ext(fs.Arg(0)))
	if *out == "" {
		if err := writeDOT(stdout, title, g); err != nil {
			fmt.Fprintf(stderr, "sdgo dot: %v\n", err)
			return 1
		}
		return 0
	}
	if sameFile(*out, fs.Arg(0)) {
		fmt.Fprintf(stderr, "sdgo dot: -o %s is the graph file itself\n", *out)
		return 2
	}
	if err := writeFile(*out, func(w io.Writer) error { return writeDOT(w, title, g) }); err != nil {
		fmt.Fprintf(stderr, "sdgo dot: %v\n", err)
		return 1
	}
	return 0
}

// writeDOT writes g as a DOT digraph. Variable nodes are named "v:NAME" and
// op nodes "op:NAME", since SameDiff lets an op and a variable share a name.
func writeDOT(w io.Writer, title string, g *graph.Graph) error {
	bw := bufio.NewWriter(w)
	lacking := map[string]bool{}
	if rep := serialize.ReportOf(g); rep != nil {
		for _, n := range rep.Unimplemented {
			lacking[n] = true
		}
	}
	fmt.Fprintf(bw, "digraph %s {\n", dotQuote(title))
	fmt.Fprintln(bw, "  rankdir=TB;")
	fmt.Fprintln(bw, `  node [fontname="Helvetica", fontsize=10];`)
	fmt.Fprintln(bw, `  edge [fontname="Helvetica", fontsize=8];`)
	losses := map[string]bool{}
	for _, l := range g.Losses() {
		losses[l] = true
	}
	fills := map[graph.VarType]string{
		graph.VARIABLE: "#cfe2f3", graph.CONSTANT: "#e6e6e6", graph.PLACEHOLDER: "#d9ead3",
		graph.ARRAY: "#ffffff", graph.SEQUENCE: "#fff2cc",
	}
	for _, v := range g.Variables() {
		fill := fills[v.Type()]
		label := v.Name() + "\n" + typeString(v.DType(), v.Shape())
		if v.Type() != graph.ARRAY {
			label += "\n" + v.Type().String()
		}
		extra := ""
		if losses[v.Name()] {
			label += " (loss)"
			extra = ", penwidth=2"
		}
		fmt.Fprintf(bw, "  %s [label=%s, shape=ellipse, style=filled, fillcolor=%q%s];\n",
			dotQuote("v:"+v.Name()), dotQuote(label), fill, extra)
	}
	for _, o := range g.Ops() {
		id := dotQuote("op:" + o.Name())
		style := `style=filled, fillcolor="#fce5cd"`
		if lacking[o.OpName()] {
			style = `style=filled, fillcolor="#f4cccc", color="#cc0000"`
		}
		label := o.OpName()
		if o.Name() != o.OpName() {
			label += "\n" + o.Name()
		}
		fmt.Fprintf(bw, "  %s [label=%s, shape=box, %s];\n", id, dotQuote(label), style)
		for i, in := range o.Inputs() {
			attrs := ""
			if len(o.Inputs()) > 1 {
				attrs = fmt.Sprintf("label=\"%d\"", i)
			}
			if o.IsBackEdge(i) {
				if attrs != "" {
					attrs += ", "
				}
				attrs += "style=dashed, constraint=false"
			}
			if attrs != "" {
				attrs = " [" + attrs + "]"
			}
			fmt.Fprintf(bw, "  %s -> %s%s;\n", dotQuote("v:"+in.Name()), id, attrs)
		}
		for _, out := range o.Outputs() {
			fmt.Fprintf(bw, "  %s -> %s;\n", id, dotQuote("v:"+out.Name()))
		}
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
