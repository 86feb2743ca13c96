// Command bench compares sdgo with gorgonia on whole training steps and
// prints a table: model, batch, time per step for each engine and their
// ratio, and sdgo's allocations and peak heap per step. It is what
// `make bench` runs.
//
//	go run ./bench [-rounds 5] [-steps 20] [-models mlp-f32,mlp-f64,chain50,views,parallel] [-long 1000]
//
// Times are medians over rounds, each timing a run of steps; the machine is
// shared, so ratios measured in the same run mean more than absolute times.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/sdgo/sdgo/kernels"
)

// result is one row of the table.
type result struct {
	model, batch     string
	sdgo, peer       time.Duration // per step; peer 0 when there is none
	peerName         string
	allocs, bytes    float64 // sdgo, per step; allocs < 0 when not measured
	peakHeap, budget int64   // sdgo: peak heap in a step, and the bytes it should stay within / 1.5
	note             string
}

func main() {
	rounds := flag.Int("rounds", 5, "timing rounds (the median is reported)")
	steps := flag.Int("steps", 20, "steps per timing round")
	models := flag.String("models", "mlp-f32,mlp-f64,chain50,views,parallel", "models to run")
	long := flag.Int("long", 1000, "steps of the long run that checks the heap does not grow (0: skip)")
	flag.Parse()

	fmt.Printf("sdgo bench: %s/%s, %d CPUs, GOMAXPROCS %d, kernels %s, %s\n\n", runtime.GOOS, runtime.GOARCH,
		runtime.NumCPU(), runtime.GOMAXPROCS(0), kernels.ISA(), runtime.Version())
	var rows []result
	for _, m := range strings.Split(*models, ",") {
		var r []result
		var err error
		switch strings.TrimSpace(m) {
		case "mlp-f32":
			r, err = mlpBench(false, *rounds, *steps, *long)
		case "mlp-f64":
			r, err = mlpBench(true, *rounds, *steps, *long)
		case "chain50":
			r, err = chainBench(*rounds, *steps*50)
		case "views":
			r, err = viewsBench(*rounds, *steps)
		case "parallel":
			r, err = parallelBench(*rounds, *steps)
		default:
			err = fmt.Errorf("unknown model %q", m)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		rows = append(rows, r...)
	}
	w := tabwriter.NewWriter(os.Stdout, 2, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "model\tbatch\tsdgo/step\tpeer/step\tpeer\tspeed-up\tsdgo allocs/step\tsdgo bytes/step\tpeak heap/step\tbudget (1.5x)\t")
	for _, r := range rows {
		peer, ratio := "-", "-"
		if r.peer > 0 {
			peer = r.peer.String()
			ratio = fmt.Sprintf("%.1fx", float64(r.peer)/float64(r.sdgo))
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
		fmt.Fprintf(w, "%s\t%s\t%v\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.model, r.batch, r.sdgo, peer, r.peerName, ratio,
			allocs, bytes, peak, budget)
	}
	w.Flush()
	for _, r := range rows {
		if r.note != "" {
			fmt.Printf("\n%s: %s", r.model, r.note)
		}
	}
	fmt.Println()
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
	var as, bs []time.Duration
	for r := 0; r < rounds; r++ {
		t, err := median(1, stepsA, a)
		if err != nil {
			return 0, 0, err
		}
		as = append(as, t)
		if t, err = median(1, stepsB, b); err != nil {
			return 0, 0, err
		}
		bs = append(bs, t)
	}
	return med(as), med(bs), nil
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
