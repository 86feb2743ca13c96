package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/sdgo/sdgo/serialize"
)

const checkUsage = `usage: sdgo check [flags] FILE.fb

Reports, node by node, whether SameDiff (Java) can load a graph file: the
Java class its loader would instantiate for each node (by libnd4j hash, by
name, or by legacy op type and number, as FlatBuffersMapper.fromFlatNode
does), and a BLOCKER where it finds no class, finds the class of another op,
or would drop the op's axes. Warnings are nodes Java loads that are worth a
look. The exit status is 1 when there is a blocker, 0 otherwise (3 for a
file that cannot be read or is not a graph file, as for every command), so
a CI pipeline can refuse a model that would not move to Java.

flags:`

// checkCmd is `sdgo check`.
func checkCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("check", checkUsage, stderr)
	quiet := fs.Bool("q", false, "print only warnings and blockers, and the summary")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	path := fs.Arg(0)
	found, err := serialize.CheckJavaFile(path)
	if err != nil {
		fmt.Fprintf(stderr, "sdgo check: %v\n", err)
		return exitFor(err, exitBadFile)
	}
	var warnings, blockers int
	for _, f := range found {
		switch f.Level {
		case serialize.JavaWarning:
			warnings++
		case serialize.JavaBlocker:
			blockers++
		}
		if *quiet && f.Level == serialize.JavaOK {
			continue
		}
		line := f.String()
		if f.JavaClass != "" {
			line += " [Java class " + f.JavaClass + "]"
		}
		fmt.Fprintln(stdout, line)
	}
	fmt.Fprintf(stdout, "%s: %d nodes, %d blockers, %d warnings", path, len(found), blockers, warnings)
	if blockers > 0 {
		fmt.Fprintln(stdout, ": SameDiff (Java) cannot load it as sdgo runs it")
		return 1
	}
	fmt.Fprintln(stdout, ": SameDiff (Java) can load every node")
	return 0
}
