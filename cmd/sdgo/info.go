package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/serialize"
	"github.com/sdgo/sdgo/train"
)

const infoUsage = `usage: sdgo info [flags] FILE.fb

Prints what a SameDiff graph file holds: its variables by type with dtype
and shape (-1 for sizes a placeholder leaves open), its ops by name with
counts, placeholders, loss variables, the training configuration, and what
sdgo cannot do with it (ops it lacks, which load and save unchanged but fail
when run; dtypes it stores but cannot compute with).

flags:`

// infoCmd is `sdgo info`.
func infoCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("info", infoUsage, stderr)
	arrays := fs.Bool("arrays", true, "list op outputs (ARRAY variables) one by one, not only their count")
	g, _, cancel, exit := parseAndLoad(fs, args, false, stderr)
	if exit >= 0 {
		return exit
	}
	cancel()
	writeInfo(stdout, fs.Arg(0), g, *arrays)
	return 0
}

func writeInfo(w io.Writer, path string, g *graph.Graph, listArrays bool) {
	rep := serialize.ReportOf(g)
	if rep == nil {
		rep = &serialize.Report{}
	}
	vars := g.Variables()
	fmt.Fprintf(w, "%s: %d variables, %d ops\n", path, len(vars), len(g.Ops()))

	noncomp := map[string]bool{}
	for _, n := range rep.NonComputable {
		noncomp[n] = true
	}
	for _, t := range []graph.VarType{graph.VARIABLE, graph.CONSTANT, graph.PLACEHOLDER, graph.ARRAY, graph.SEQUENCE} {
		vs := g.VariablesOf(t)
		if len(vs) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s (%d)\n", t, len(vs))
		if t == graph.ARRAY && !listArrays {
			continue
		}
		for _, v := range vs {
			line := fmt.Sprintf("  %-32s %s", v.Name(), typeString(v.DType(), v.Shape()))
			switch {
			case t == graph.PLACEHOLDER && rep.PlaceholderValues[v.Name()] != nil:
				a := rep.PlaceholderValues[v.Name()]
				// An array's rank is known: its nil shape is a scalar's.
				line += fmt.Sprintf("  (the file stores a value: %v%v)", a.DType(), a.Shape())
			case t == graph.ARRAY && v.Op() != nil:
				line += "  from " + v.Op().OpName()
			}
			if noncomp[v.Name()] {
				line += "  (stored, not computable)"
			}
			fmt.Fprintln(w, line)
		}
	}

	counts := map[string]int{}
	for _, o := range g.Ops() {
		counts[o.OpName()]++
	}
	names := make([]string, 0, len(counts))
	for n := range counts {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if counts[names[i]] != counts[names[j]] {
			return counts[names[i]] > counts[names[j]]
		}
		return names[i] < names[j]
	})
	lacking := map[string]bool{}
	for _, n := range rep.Unimplemented {
		lacking[n] = true
	}
	fmt.Fprintf(w, "\nops (%d, %d kinds)\n", len(g.Ops()), len(names))
	for _, n := range names {
		mark := ""
		if lacking[n] {
			mark = "  (not implemented: kept, fails when run)"
		}
		fmt.Fprintf(w, "  %-32s %d%s\n", n, counts[n], mark)
	}

	fmt.Fprintln(w)
	if l := g.Losses(); len(l) > 0 {
		fmt.Fprintf(w, "loss variables: %s\n", strings.Join(l, ", "))
	} else {
		fmt.Fprintln(w, "loss variables: none")
	}
	if c, err := train.ConfigOf(g); err == nil {
		fmt.Fprintf(w, "training configuration: %s\n", configSummary(c))
	} else if _, ok := g.GetMeta(graph.MetaTrainingConfig); ok {
		// There is one: say why it cannot be shown (a schedule of the
		// program's own, an updater sdgo lacks).
		fmt.Fprintf(w, "training configuration: unreadable: %v\n", err)
	} else {
		fmt.Fprintln(w, "training configuration: none")
	}
	if len(rep.Unimplemented) > 0 {
		fmt.Fprintf(w, "ops sdgo lacks: %s\n", strings.Join(rep.Unimplemented, ", "))
	} else {
		fmt.Fprintln(w, "ops sdgo lacks: none")
	}
	if len(rep.NonComputable) > 0 {
		fmt.Fprintf(w, "variables sdgo cannot compute with: %s\n", strings.Join(rep.NonComputable, ", "))
	}
	for _, warn := range rep.Warnings {
		fmt.Fprintf(w, "note: %s\n", warn)
	}
}

// typeString prints a dtype and shape as float32[-1 784]; an unknown rank
// prints as float32[?].
func typeString(dt ndarray.DType, shape []int) string {
	if shape == nil {
		return dt.String() + "[?]"
	}
	return fmt.Sprintf("%v%v", dt, shape)
}

// configSummary is a training configuration on one line.
func configSummary(c *train.Config) string {
	s := "no updater"
	if c.Updater != nil {
		s = fmt.Sprintf("%s (learning rate %g)", c.Updater.Name(), c.Updater.LearningRate(c.IterationCount, c.EpochCount))
	}
	if len(c.Regularization) > 0 {
		s += fmt.Sprintf(", %d regularization terms", len(c.Regularization))
	}
	s += fmt.Sprintf(", features %v, labels %v, %d iterations and %d epochs done",
		c.Features, c.Labels, c.IterationCount, c.EpochCount)
	return s
}
