// Command bench compares sdgo with its peers on whole training steps and
// prints a table: model, batch, cores, time per step for sdgo, gorgonia
// and PyTorch and their ratios, and sdgo's allocations and peak heap per
// step. It is what `make bench` runs.
//
//	go run ./bench [-rounds 5] [-steps 20] [-models mlp-f32,mlp-f64,chain50,views,parallel] [-threads 1,2] [-long 1000]
//
// Times are medians over rounds, the engines' rounds alternating; the
// machine is shared, so ratios measured in the same run mean more than
// absolute times. Before timing, each model checks that sdgo and its peers
// compute the same thing (the same output, or the same first loss from the
// same parameters); the bench fails rather than time a wrong result.
//
// PyTorch is a peer when a python imports torch ($PYTHON, else python3,
// else /usr/bin/python3, where Debian's python3-torch installs): the MLP
// runs in torch_peer.py, in a child process given the same batch and
// initial parameters as a .npz file, with torch's, OpenBLAS's and OpenMP's
// thread counts set to the row's cores. The MLP rows are timed on each
// core count of -threads (GOMAXPROCS for sdgo and gorgonia).
package main

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/sdgo/sdgo/kernels"
)

// result is one row of the table.
type result struct {
	model, batch     string
	threads          int           // cores the engines were given; 0: the default
	sdgo, peer       time.Duration // per step; peer 0 when there is none
	peerName         string
	torch, gomlx     time.Duration // PyTorch's and GoMLX's times per step; 0 when not run
	allocs, bytes    float64       // sdgo, per step; allocs < 0 when not measured
	peakHeap, budget int64         // sdgo: peak heap in a step, and the bytes it should stay within / 1.5
	note             string
}

// benches are the models, by the name -models gives them, in the order
// they run by default.
var benches = []struct {
	name string
	run  func(o options) ([]result, error)
}{
	{"mlp-f32", func(o options) ([]result, error) { return mlpBench(false, o) }},
	{"mlp-f64", func(o options) ([]result, error) { return mlpBench(true, o) }},
	{"chain50", func(o options) ([]result, error) { return chainBench(o.rounds, o.steps*50) }},
	{"views", func(o options) ([]result, error) { return viewsBench(o.rounds, o.steps) }},
	{"parallel", func(o options) ([]result, error) { return parallelBench(o.rounds, o.steps) }},
	{"lstm", lstmBench},
	{"transformer", transformerBench},
	{"conv3x3", func(o options) ([]result, error) { return convBench("conv3x3", o) }},
	{"lenet", func(o options) ([]result, error) { return convBench("lenet", o) }},
}

// bench returns the model named name, or nil.
func bench(name string) func(o options) ([]result, error) {
	for _, b := range benches {
		if b.name == name {
			return b.run
		}
	}
	return nil
}

// allModels is every model, as -models takes them.
var allModels = func() string {
	names := make([]string, len(benches))
	for i, b := range benches {
		names[i] = b.name
	}
	return strings.Join(names, ",")
}()

// printedError is an error the flag set has already printed.
type printedError struct{ error }

func (e printedError) Unwrap() error { return e.error }

type options struct {
	rounds, steps, long int
	models              []string
	threads             []int // the core counts the MLP rows are timed on
}

// parseFlags reads the command line. It checks everything before any model
// runs: a bad model name found after minutes of benchmarks would lose the
// rows measured, no round or no step would leave an empty median or divide
// by zero, and an argument that is not a flag would end flag parsing,
// leaving the flags after it silently ignored.
func parseFlags(args []string) (options, error) {
	var o options
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.IntVar(&o.rounds, "rounds", 5, "timing rounds (the median is reported)")
	fs.IntVar(&o.steps, "steps", 20, "steps per timing round")
	models := fs.String("models", allModels, "models to run")
	threads := fs.String("threads", "1,2", "core counts to time the MLP on, each a row")
	fs.IntVar(&o.long, "long", 1000, "steps of the long run that checks the heap does not grow (0: skip; else more than the 100 it measures from)")
	if err := fs.Parse(args); err != nil {
		return o, printedError{err} // the flag set has printed it, with the usage
	}
	switch {
	case fs.NArg() > 0:
		return o, fmt.Errorf("unexpected argument %q (models are chosen with -models)", fs.Arg(0))
	case o.rounds < 1:
		return o, fmt.Errorf("-rounds %d: at least 1 is needed for a median", o.rounds)
	case o.steps < 1:
		return o, fmt.Errorf("-steps %d: at least 1 is needed", o.steps)
	case o.long != 0 && o.long <= 100:
		return o, fmt.Errorf("-long %d: the heap is measured after 100 steps and again after -long steps, so it must be 0 or above 100", o.long)
	}
	for _, t := range strings.Split(*threads, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(t))
		if err != nil || n < 1 {
			return o, fmt.Errorf("-threads %q: want core counts of 1 or more, separated by commas", *threads)
		}
		o.threads = append(o.threads, n)
	}
	for _, m := range strings.Split(*models, ",") {
		m = strings.TrimSpace(m)
		if m == "" {
			continue
		}
		if bench(m) == nil {
			return o, fmt.Errorf("unknown model %q (models: %s)", m, allModels)
		}
		o.models = append(o.models, m)
	}
	if len(o.models) == 0 {
		return o, fmt.Errorf("-models %q: no model to run (models: %s)", *models, allModels)
	}
	return o, nil
}

func main() {
	o, err := parseFlags(os.Args[1:])
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		if !errors.As(err, new(printedError)) {
			fmt.Fprintln(os.Stderr, "bench:", err)
		}
		os.Exit(2)
	}

	fmt.Printf("sdgo bench: %s/%s, %d CPUs, GOMAXPROCS %d, kernels %s, %s\n\n", runtime.GOOS, runtime.GOARCH,
		runtime.NumCPU(), runtime.GOMAXPROCS(0), kernels.ISA(), runtime.Version())
	var rows []result
	for _, m := range o.models {
		r, err := bench(m)(o)
		if err != nil {
			fmt.Fprintf(os.Stderr, "bench: %s: %v\n", m, err)
			os.Exit(1)
		}
		rows = append(rows, r...)
	}
	torch := "PyTorch not found (neither $PYTHON, python3 nor /usr/bin/python3 imports torch; Debian: apt-get install python3-torch)"
	if v := torchVersion(); v != "" {
		torch = "PyTorch " + v + " (" + torchOnce.python + "; OPENBLAS_NUM_THREADS, OMP_NUM_THREADS and torch.set_num_threads set to the cores"
		if ct := openblasCoreType(); ct != "" {
			torch += "; OPENBLAS_CORETYPE=" + ct
		}
		for _, kv := range inheritedOpenBLASTuning() {
			torch += "; inherited " + kv
		}
		torch += ")"
	}
	gomlx := "GoMLX v0.26.0 (simplego backend, bench/gomlx; parallelism and GOMAXPROCS set to the cores)"
	if _, err := gomlxPeerBinary(); err != nil {
		gomlx = fmt.Sprintf("GoMLX not run: %v", err)
	}
	defer removeGomlxPeer()
	fmt.Printf("peers: gorgonia (one goroutine's BLAS); %s; %s\n\n", torch, gomlx)
	w := tabwriter.NewWriter(os.Stdout, 2, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "model\tbatch\tcores\tsdgo/step\tpeer/step\tpeer\tspeed-up\tPyTorch/step\tvs PyTorch\tGoMLX/step\tvs GoMLX\tsdgo allocs/step\tsdgo bytes/step\tpeak heap/step\tbudget (1.5x)\t")
	for _, r := range rows {
		peer, ratio := "-", "-"
		if r.peer > 0 {
			peer = r.peer.String()
			ratio = fmt.Sprintf("%.2fx", float64(r.peer)/float64(r.sdgo))
		}
		torch, tratio := peerCells(r.torch, r.sdgo)
		gomlx, gratio := peerCells(r.gomlx, r.sdgo)
		cores := "-"
		if r.threads > 0 {
			cores = strconv.Itoa(r.threads)
		}
		peak, budget := "-", "-"
		if r.peakHeap > 0 {
			peak = mib(r.peakHeap)
			budget = mib(r.budget * 3 / 2)
		}
		allocs, bytes := "-", "-"
		if r.allocs >= 0 {
			allocs, bytes = fmt.Sprintf("%.0f", r.allocs), kib(r.bytes)
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%v\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.model, r.batch, cores, r.sdgo, peer, r.peerName, ratio,
			torch, tratio, gomlx, gratio, allocs, bytes, peak, budget)
	}
	w.Flush()
	for _, r := range rows {
		if r.note != "" {
			fmt.Printf("\n%s: %s", r.model, r.note)
		}
	}
	fmt.Println()
}

// peerCells are a peer's time per step and its ratio to sdgo's, "-" when
// the peer did not run.
func peerCells(peer, sdgo time.Duration) (string, string) {
	if peer <= 0 {
		return "-", "-"
	}
	return peer.String(), fmt.Sprintf("%.2fx", float64(peer)/float64(sdgo))
}

func mib(b int64) string   { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }
func kib(b float64) string { return fmt.Sprintf("%.1f KiB", b/1024) }

// warmUp runs each of fs n times, in turn, so that pools, plans and caches
// are filled before anything is measured.
func warmUp(n int, fs ...func() error) error {
	for i := 0; i < n; i++ {
		for _, f := range fs {
			if err := f(); err != nil {
				return err
			}
		}
	}
	return nil
}

// median times f (which runs steps steps) over rounds and returns the
// median time per step.
func median(rounds, steps int, f func() error) (time.Duration, error) {
	var ts []time.Duration
	for r := 0; r < rounds; r++ {
		start := time.Now()
		for i := 0; i < steps; i++ {
			if err := f(); err != nil {
				return 0, err
			}
		}
		ts = append(ts, time.Since(start)/time.Duration(steps))
	}
	return med(ts), nil
}

// interleaved times a (stepsA steps a round) and b (stepsB) in
// alternating rounds, so that both see the same load, and returns each
// one's median time per step.
func interleaved(rounds, stepsA, stepsB int, a, b func() error) (ta, tb time.Duration, err error) {
	ts, err := interleavedN(rounds,
		func() (time.Duration, error) { return median(1, stepsA, a) },
		func() (time.Duration, error) { return median(1, stepsB, b) })
	if err != nil {
		return 0, 0, err
	}
	return ts[0], ts[1], nil
}

// interleavedN runs each of runs (one timing round, returning its time per
// step) once a round, in turn, for rounds rounds, so that every engine sees
// the same load, and returns each one's median.
func interleavedN(rounds int, runs ...func() (time.Duration, error)) ([]time.Duration, error) {
	ts := make([][]time.Duration, len(runs))
	for r := 0; r < rounds; r++ {
		for i, run := range runs {
			t, err := run()
			if err != nil {
				return nil, err
			}
			ts[i] = append(ts[i], t)
		}
	}
	meds := make([]time.Duration, len(runs))
	for i := range ts {
		meds[i] = med(ts[i])
	}
	return meds, nil
}

// med is the median of ts (the upper one of an even count).
func med(ts []time.Duration) time.Duration {
	s := slices.Clone(ts)
	slices.Sort(s)
	return s[len(s)/2]
}

// allocsPerStep measures what f allocates per call, on average over n calls.
func allocsPerStep(n int, f func() error) (allocs, bytes float64, err error) {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	for i := 0; i < n; i++ {
		if err := f(); err != nil {
			return 0, 0, err
		}
	}
	runtime.ReadMemStats(&b)
	return float64(b.Mallocs-a.Mallocs) / float64(n), float64(b.TotalAlloc-a.TotalAlloc) / float64(n), nil
}

// heapSampler reads the bytes of heap objects (live or not yet swept)
// cheaply, without stopping the world.
type heapSampler struct {
	s   []metrics.Sample
	max uint64
}

func newHeapSampler() *heapSampler {
	return &heapSampler{s: []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}}
}

func (h *heapSampler) sample() uint64 {
	metrics.Read(h.s)
	v := h.s[0].Value.Uint64()
	h.max = max(h.max, v)
	return v
}

// liveHeap returns the heap's live bytes after a full collection.
func liveHeap() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// sameValues checks got against want elementwise, to a relative tolerance
// (absolute below 1), and names the first element that differs.
func sameValues[T float32 | float64](what string, got, want []T, tol float64) error {
	if len(got) != len(want) {
		return fmt.Errorf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range got {
		g, w := float64(got[i]), float64(want[i])
		if !(math.Abs(g-w) <= tol*math.Max(1, math.Abs(w))) { // NaN fails
			return fmt.Errorf("%s: element %d is %v, want %v", what, i, g, w)
		}
	}
	return nil
}
