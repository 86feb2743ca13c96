package main

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/validation"
)

const gradcheckUsage = `usage: sdgo gradcheck [flags] FILE.fb

Checks the gradients of the graph's loss variables (summed; -loss names
others) against central differences, with SameDiff's defaults, and prints every failing element and
a summary line. Exits 0 when every checked element passes, 1 when one fails
or the check stops at -timeout (which covers loading the file too), 2 on a
usage error or when the check cannot run, 3 when the graph file (or a .npy
feed) does not load, 4 when sdgo caught a bug of its own (see sdgo help).

The checked variables are every floating-point VARIABLE and placeholder
that reaches the loss (or those -vars names). Placeholders take the values
-feed gives, else the values the file stores for them, else random values:
standard normal for floating-point ones (from -seed), zeros for integers
and false for bools; sizes the file leaves unknown (-1) are -unknown-size.
Graphs in float32 are checked on a float64 copy (SameDiff refuses them).

flags:`

// runGradcheck is `sdgo gradcheck`.
func runGradcheck(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("gradcheck", gradcheckUsage, stderr)
	var (
		eps         = fs.Float64("eps", validation.DefaultEps, "central difference step")
		maxRel      = fs.Float64("max-rel", validation.DefaultMaxRelError, "maximum relative error |a-n|/(|a|+|n|)")
		minAbs      = fs.Float64("min-abs", validation.DefaultMinAbsError, "absolute error below which a point passes whatever its relative error")
		subset      = fs.Int("subset", 0, "check at most `N` elements per variable, picked at random (0: all)")
		everyN      = fs.Bool("subset-every-n", false, "with -subset, pick evenly spaced elements instead of random ones")
		every       = fs.Int("every", 0, "check only every `N`-th element of each variable")
		seed        = fs.Uint64("seed", 1, "seed of the random subset and of random placeholder values")
		skip        = fs.String("skip", "", "comma-separated variables not to check")
		vars        = fs.String("vars", "", "comma-separated variables to check (default: every float VARIABLE and placeholder reaching the loss)")
		acts        = fs.String("activations", "", "comma-separated op outputs whose gradients to check as well (activation gradient check)")
		stopFirst   = fs.Bool("stop-first", false, "stop at the first failing element")
		f64copy     = fs.Bool("float64-copy", true, "check on a float64 copy of the graph (false: in the graph's own dtypes)")
		verbose     = fs.Bool("verbose", false, "list every checked element, not only the failures")
		unknownSize = fs.Int("unknown-size", 2, "size given to placeholder axes the file leaves unknown")
		losses      = fs.String("loss", "", "comma-separated variables to check as the loss (summed), instead of the file's loss variables")
		feeds       runFeedFlags
	)
	fs.Var(&feeds, "feed", "a placeholder's values, `name=v1,v2,...[:shape]` or name=file.npy (repeatable)")
	fs.Var(&feeds, "ph", "the same as -feed")
	g, ctx, cancel, exit := parseAndLoad(fs, args, false, stderr)
	if exit >= 0 {
		return exit
	}
	defer cancel()
	path := fs.Arg(0)
	// Values the check would run with but not make sense of (a negative or
	// NaN step, a NaN tolerance that passes everything) are refused.
	for _, bad := range []struct {
		flag string
		v    float64
		ok   bool
	}{
		{"eps", *eps, *eps > 0 && !math.IsInf(*eps, 0)},
		{"max-rel", *maxRel, *maxRel >= 0},
		{"min-abs", *minAbs, *minAbs >= 0},
		{"subset", float64(*subset), *subset >= 0},
		{"every", float64(*every), *every >= 0},
		{"unknown-size", float64(*unknownSize), *unknownSize >= 0},
	} {
		if !bad.ok {
			fmt.Fprintf(stderr, "sdgo gradcheck: -%s %v is out of range\n", bad.flag, bad.v)
			return 2
		}
	}
	values, err := placeholderValues(g, feeds, *seed, *unknownSize)
	if err != nil {
		fmt.Fprintf(stderr, "sdgo gradcheck: %s: %v\n", path, err)
		return exitFor(err, exitUsage)
	}
	if names := splitList(*losses); len(names) > 0 {
		if err := g.SetLoss(names...); err != nil {
			fmt.Fprintf(stderr, "sdgo gradcheck: %s: -loss: %v\n", path, err)
			return 2
		}
	} else if len(g.Losses()) == 0 {
		fmt.Fprintf(stderr, "sdgo gradcheck: %s: the file names no loss variables; name the variables to check as the loss with -loss\n", path)
		return 2
	}
	opts := &validation.GradCheckOptions{
		Eps: *eps, MaxRelError: *maxRel, MinAbsError: *minAbs,
		MaxPerParam: *subset, Every: *every, Seed: *seed,
		Skip: splitList(*skip), Variables: splitList(*vars),
		StopAtFirstFailure: *stopFirst, KeepDTypes: !*f64copy, Verbose: *verbose,
		Context: ctx,
	}
	if *everyN {
		opts.Subset = validation.SubsetEveryN
	}
	if opts.MinAbsError == 0 {
		opts.MinAbsError = -1 // a literal 0, not the default
	}
	// Both checks run before anything is printed, so that one the
	// activation check refuses does not follow a printed pass.
	r, err := validation.CheckGradients(g, values, opts)
	if err != nil {
		fmt.Fprintf(stderr, "sdgo gradcheck: %s: %v\n", path, err)
		return exitFor(err, exitUsage)
	}
	var a *validation.GradCheckResult
	if names := splitList(*acts); len(names) > 0 {
		if a, err = validation.CheckActivationGradients(g, values, names, opts); err != nil {
			fmt.Fprintf(stderr, "sdgo gradcheck: %s: -activations: %v\n", path, err)
			return exitFor(err, exitUsage)
		}
	}
	fmt.Fprintf(stdout, "%s: loss variables %s\n", path, strings.Join(g.Losses(), ", "))
	fmt.Fprintln(stdout, r)
	failed := !r.OK()
	if a != nil {
		fmt.Fprintln(stdout, a)
		failed = failed || !a.OK()
	}
	if failed {
		return 1
	}
	return 0
}

// placeholderValues returns a value for every placeholder: the file's, the
// -feed flag's, or random (seeded).
func placeholderValues(g *graph.Graph, feeds runFeedFlags, seed uint64, unknown int) (map[string]*ndarray.Array, error) {
	phs, stored, err := placeholders(g, feeds)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, 0x9e37))
	out := map[string]*ndarray.Array{}
	for _, p := range phs {
		if spec, ok := feeds[p.Name()]; ok {
			a, err := feedFromStrings(p, spec)
			if err != nil {
				return nil, err
			}
			out[p.Name()] = a
			continue
		}
		shape := p.Shape()
		for i, d := range shape {
			if d < 0 {
				shape[i] = unknown
			}
		}
		if a := stored[p.Name()]; a != nil {
			out[p.Name()] = a
			continue
		}
		var a *ndarray.Array
		var err error
		if p.DType().IsFloat() {
			a, err = ndarray.RandNormal(rng, p.DType(), 0, 1, shape...)
		} else {
			a, err = ndarray.Zeros(p.DType(), shape...)
		}
		if err != nil {
			return nil, fmt.Errorf("placeholder %q: %v", p.Name(), err)
		}
		out[p.Name()] = a
	}
	return out, nil
}
