package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"unicode"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/kernels"
	"github.com/sdgo/sdgo/ndarray"
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
// deadline. It adds -max-memory too, the memory budget from the loading
// on, which cancel restores. When it returns exit >= 0, the command exits with that status.
func parseAndLoad(fs *flag.FlagSet, args []string, moreArgs bool, stderr io.Writer) (g *graph.Graph, ctx context.Context, cancel context.CancelFunc, exit int) {
	timeout := fs.Duration("timeout", 0, "stop after `D` (such as 30s; 0: no limit), loading included")
	maxMem := fs.String("max-memory", "", "the memory budget, `SIZE` such as 2GiB, 500MB or 1e9 bytes: an array that would take\n"+
		"the heap in use past it is an error (default: what the rlimits, the cgroup's limit and the\n"+
		"machine's available memory leave, less a quarter)")
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
	budget, err := parseBytes(*maxMem)
	if err != nil {
		fmt.Fprintf(stderr, "sdgo %s: -max-memory: %v\n", fs.Name(), err)
		return nil, nil, nil, 2
	}
	ctx, cancelCtx := context.WithCancel(context.Background())
	if *timeout > 0 {
		ctx, cancelCtx = context.WithTimeout(context.Background(), *timeout)
	}
	restore := setBudget(budget)
	cancel = func() { cancelCtx(); restore() }
	g, err = serialize.LoadContext(ctx, fs.Arg(0))
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

// setBudget sets the memory budget (ndarray.SetAllocLimit; 0: the
// default) and the Go runtime's soft memory limit to the same, so that the
// GC collects harder as the heap nears the budget rather than leaving
// every allocation near it to force a collection. It returns what undoes
// both, for commands run one after another in one process (the tests).
func setBudget(n int) (restore func()) {
	prev := ndarray.SetAllocLimit(n)
	prevGC := debug.SetMemoryLimit(int64(ndarray.AllocLimit()))
	return func() {
		ndarray.SetAllocLimit(prev)
		debug.SetMemoryLimit(prevGC)
	}
}

// parseBytes reads a -max-memory size: a number of bytes, possibly with a
// fraction or an exponent, and an optional unit, decimal (kB, MB, GB, TB)
// or binary (KiB, MiB, GiB, TiB; K, M, G, T too). Empty or 0 is 0, the
// default budget; a size past ndarray.MaxBytes is MaxBytes.
func parseBytes(s string) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	num := strings.TrimRightFunc(s, func(r rune) bool { return unicode.IsLetter(r) })
	unit := strings.TrimSpace(s[len(num):])
	mult, ok := byteUnits[strings.ToLower(unit)]
	if !ok {
		return 0, fmt.Errorf("%q: unknown unit %q (use B, kB, MB, GB, TB, KiB, MiB, GiB or TiB)", s, unit)
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || v < 0 || math.IsNaN(v) {
		return 0, fmt.Errorf("%q is not a size in bytes", s)
	}
	b := v * mult
	if b >= ndarray.MaxBytes {
		return ndarray.MaxBytes, nil
	}
	if b > 0 && b < 1 {
		return 1, nil
	}
	return int(b), nil
}

var byteUnits = map[string]float64{
	"": 1, "b": 1,
	"kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
	"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40,
	"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
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
