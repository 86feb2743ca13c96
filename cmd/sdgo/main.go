package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/kernels"
	"github.com/sdgo/sdgo/serialize"
)

// version is sdgo's release.
const version = "0.1.0-dev"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "version":
		fmt.Fprintf(stdout, "sdgo %s (%s, %s/%s, kernels %s)\n", version, runtime.Version(), runtime.GOOS, runtime.GOARCH, kernels.ISA())
		return 0
	case "gradcheck":
		return runGradcheck(args[1:], stdout, stderr)
	case "run":
		return runGraphCmd(args[1:], stdout, stderr)
	case "info":
		return infoCmd(args[1:], stdout, stderr)
	case "dot":
		return dotCmd(args[1:], stdout, stderr)
	case "check":
		return checkCmd(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		usage(stdout)
		return 0
	}
	fmt.Fprintf(stderr, "sdgo: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, `usage: sdgo <command> [arguments]

commands:
  check      report per node whether SameDiff (Java) can load a graph file (sdgo check -h)
  dot        write a graph file as Graphviz DOT, or draw it as SVG (sdgo dot -h)
  gradcheck  check a graph file's gradients against central differences (sdgo gradcheck -h)
  info       summarize a graph file: variables, ops, placeholders, losses (sdgo info -h)
  run        run a graph file and print its outputs (sdgo run -h)
  version    print the version, the Go runtime and the kernel instruction set

exit status: 0 done, 1 the run or check failed or stopped at -timeout, 2 usage,
3 a graph or input file that does not load, 4 an internal failure (a bug in
sdgo, caught: please report it)`)
}

// newFlagSet returns a command's flag set, whose -h prints the command's
// usage text above the flags.
func newFlagSet(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, usage)
		fs.PrintDefaults()
	}
	return fs
}

// parseAndLoad parses a command's arguments and loads the graph file its
// first argument names; more arguments are allowed only with moreArgs. It
// adds the -timeout flag, which bounds the loading and what the command
// does after it: ctx (and its cancel, to call when done) carries that
// deadline. When it returns exit >= 0, the command exits with that status.
func parseAndLoad(fs *flag.FlagSet, args []string, moreArgs bool, stderr io.Writer) (g *graph.Graph, ctx context.Context, cancel context.CancelFunc, exit int) {
	timeout := fs.Duration("timeout", 0, "stop after `D` (such as 30s; 0: no limit), loading included")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, nil, nil, 0
		}
		return nil, nil, nil, 2
	}
	if fs.NArg() < 1 {
		fs.Usage()
		return nil, nil, nil, 2
	}
	if fs.NArg() > 1 && !moreArgs {
		// Go's flag package stops at the first argument that is not a
		// flag, so flags after the file end up here.
		fmt.Fprintf(stderr, "sdgo %s: unexpected argument %q after the file (flags go before the file)\n", fs.Name(), fs.Arg(1))
		fs.Usage()
		return nil, nil, nil, 2
	}
	if *timeout < 0 {
		fmt.Fprintf(stderr, "sdgo %s: -timeout %v is negative\n", fs.Name(), *timeout)
		return nil, nil, nil, 2
	}
	ctx, cancel = context.WithCancel(context.Background())
	if *timeout > 0 {
		ctx, cancel = context.WithTimeout(context.Background(), *timeout)
	}
	g, err := serialize.LoadContext(ctx, fs.Arg(0))
	if err != nil {
		cancel()
		fmt.Fprintf(stderr, "sdgo %s: %v\n", fs.Name(), err)
		if strings.Contains(err.Error(), "internal error") {
			return nil, nil, nil, exitInternal // the loader caught a bug of its own
		}
		return nil, nil, nil, exitFor(err, exitBadFile)
	}
	return g, ctx, cancel, -1
}

// splitList splits a comma-separated list, dropping blanks and empty items.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
