//go:build unix

package serialize

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// longChain is a chain of n neg nodes after a constant, whose nodes name
// their outputs only through the variables' ids (no outputNames, no
// output field), as older SameDiff files do; with oldInputs, their inputs
// are node ids (the input field) rather than (id, index) pairs.
func longChain(n int, oldInputs bool) *rawGraph {
	r := &rawGraph{Variables: []rawVariable{rConst(1, "x", 1, 2)}}
	for i := 0; i < n; i++ {
		id := int32(i + 2)
		name := fmt.Sprintf("n%d", i)
		r.Variables = append(r.Variables, rOut(id, 0, name))
		nd := rNode(id, name, "neg", p(id-1, 0))
		nd.OutputNames = nil
		if oldInputs {
			nd.InputPaired, nd.Input = nil, []int32{id - 1}
		}
		r.Nodes = append(r.Nodes, nd)
	}
	return r
}

// Loading is linear in the number of nodes whatever names their outputs: a
// file ten times larger takes about ten times as long. Matching each node
// without outputNames to its variables by scanning all of them made 40k
// nodes take 7.2 s and 200k over a minute (issue 23). A quadratic load
// gave a ratio of 249 (5k and 50k nodes), a linear one 10 to 20 (the GC
// works harder on the larger heap); the bound leaves room for noise.
func TestLoadLinearWithoutOutputNames(t *testing.T) {
	small, large := 3000, 30000
	if testing.Short() || raceEnabled {
		small, large = 1000, 10000
	}
	for _, old := range []bool{false, true} {
		t.Run(fmt.Sprintf("oldInputs=%v", old), func(t *testing.T) { checkLinearLoad(t, small, large, old) })
	}
}

func checkLinearLoad(t *testing.T, small, large int, oldInputs bool) {
	bufs := map[int][]byte{}
	for _, n := range []int{small, large} {
		buf, err := encode(longChain(n, oldInputs))
		if err != nil {
			t.Fatal(err)
		}
		bufs[n] = buf
	}
	best := map[int]time.Duration{small: 1 << 62, large: 1 << 62}
	// Interleaved, best of three, in the process's CPU time where there is
	// one (other processes' load does not count): a busy machine made
	// wall-clock ratios vary from 10 to 50.
	for k := 0; k < 3; k++ {
		for _, n := range []int{small, large} {
			start, cpu0 := time.Now(), cpuTime()
			g, err := Decode(bufs[n])
			d := time.Since(start)
			if c := cpuTime() - cpu0; cpu0 >= 0 {
				d = c
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := len(g.Ops()); got != n {
				t.Fatalf("%d ops, want %d", got, n)
			}
			if v, ok := g.Variable(fmt.Sprintf("n%d", n-1)); !ok || v.Op() == nil {
				t.Fatalf("the last node's output is not its variable")
			}
			best[n] = min(best[n], d)
		}
	}
	ts, tl := best[small], best[large]
	ratio := float64(tl) / float64(ts)
	t.Logf("%d nodes %v, %d nodes %v: ratio %.1f", small, ts, large, tl, ratio)
	if ratio > 50 {
		t.Errorf("loading %d nodes took %.1fx as long as %d (%v against %v); want about 10x", large, ratio, small, tl, ts)
	}
}

// cpuTime is the process's user and system CPU time, -1 where getrusage
// fails.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// LoadContext and DecodeContext give up once their context is done, while
// decoding and building (issue 23: a 60k-node file ran 8.2 s under
// -timeout 2s and exited 0), with an error wrapping the context's.
func TestLoadContextStops(t *testing.T) {
	n := 30000
	if raceEnabled {
		n = 10000
	}
	buf, err := encode(longChain(n, false))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "chain.fb")
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		t.Fatal(err)
	}
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := LoadContext(canceled, path); !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "loading stopped") {
		t.Errorf("LoadContext, canceled: %v", err)
	}
	start := time.Now()
	if _, err := Decode(buf); err != nil {
		t.Fatal(err)
	}
	whole := time.Since(start)
	ctx, cancel := context.WithTimeout(context.Background(), whole/10)
	defer cancel()
	start = time.Now()
	_, err = DecodeContext(ctx, buf)
	d := time.Since(start)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("DecodeContext with %v of the %v it needs: %v", whole/10, whole, err)
	}
	t.Logf("%d nodes: %v to load, stopped after %v at a deadline of %v", n, whole, d, whole/10)
	if g, err := LoadContext(context.Background(), path); err != nil || len(g.Ops()) != n {
		t.Errorf("LoadContext, live context: %v", err)
	}
}
