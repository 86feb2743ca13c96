// Command demo is what `make demo` runs: it builds LeNet-5 in Go code,
// trains it on the MNIST digits and reports the loss falling and the test
// accuracy, and draws the loss curve into a PNG whose path it prints;
// gradient-checks the trained network; saves it with its updater state,
// loads it back and resumes training; then it updates a state array in
// place through views and shows the gradients through the writes. Each step
// checks its result (test accuracy at least 98%, the gradient check
// passing, the reloaded logits and updater state identical bit for bit, the
// views' values and gradients as computed by hand), and the demo exits 1 at
// the first that fails. The quicker example of a small MLP on two spirals
// is train's Example.
package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/sdgo/sdgo/autodiff"
	"github.com/sdgo/sdgo/examples/internal/lenet"
	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/kernels"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops/createview"
	"github.com/sdgo/sdgo/serialize"
	"github.com/sdgo/sdgo/train"
	"github.com/sdgo/sdgo/train/chart"
	"github.com/sdgo/sdgo/validation"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}

// epochs of MNIST training: two reach 98% on the test set.
const epochs = 2

func run() error {
	start := time.Now()
	d, err := lenet.Load(60000, 64, 1)
	if err != nil {
		return err
	}
	g, err := lenet.Build(1)
	if err != nil {
		return err
	}
	fmt.Printf("sdgo demo (kernels: %s, %d cores)\n\n%s\n", kernels.ISA(), runtime.GOMAXPROCS(0), g.Summary())
	tr, err := train.New(g, lenet.Config())
	if err != nil {
		return err
	}
	fmt.Printf("training LeNet-5 on %d MNIST digits, %d epochs, batches of 64\n", d.TrainSet.Len(), epochs)
	hist, err := tr.Fit(d.Train, epochs, train.NewProgress(os.Stdout))
	if err != nil {
		return err
	}
	after, err := tr.Evaluate(d.Test, "logits")
	if err != nil {
		return err
	}
	fmt.Printf("loss %.4f -> %.4f (epoch means) over %d steps; test accuracy %.2f%% (%d/%d)\n",
		hist.Loss[0], hist.EpochLoss[len(hist.EpochLoss)-1], len(hist.Loss), 100*after.Accuracy(), after.Correct, after.Total)
	if after.Accuracy() < 0.98 {
		return fmt.Errorf("test accuracy %.4f is below 98%%", after.Accuracy())
	}
	pic, err := lossPicture(hist, d.Train.Batches())
	if err != nil {
		return err
	}
	fmt.Printf("loss curve: %s (and the history as CSV beside it)\n", pic)
	if err := gradientCheck(g, d.TestX, d.TestSet.OneHot); err != nil {
		return err
	}
	if err := saveAndReload(g, d, after); err != nil {
		return err
	}
	if err := views(); err != nil {
		return err
	}
	fmt.Printf("done in %v\n", time.Since(start).Round(time.Millisecond))
	return nil
}

// lossPicture draws the history into sdgo-demo/loss.png under the
// system's temporary directory, writes it as loss.csv beside it, and
// returns the picture's path. Both stay after the demo, for a person to
// open.
func lossPicture(h *train.History, steps int) (string, error) {
	dir := filepath.Join(os.TempDir(), "sdgo-demo")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	pic := filepath.Join(dir, "loss.png")
	if err := chart.WriteLoss(pic, h, steps, chart.Options{Title: "LeNet-5 on MNIST: training loss", LogScale: true}); err != nil {
		return "", err
	}
	var csv bytes.Buffer
	if err := h.WriteCSV(&csv, steps); err != nil {
		return "", err
	}
	return pic, os.WriteFile(filepath.Join(dir, "loss.csv"), csv.Bytes(), 0o644)
}

// gradientCheck compares the trained graph's reverse-mode gradients with
// central differences, as a CI job would: on a float64 copy of the float32
// graph, with SameDiff's tolerances, on a random subset of each parameter's
// elements and a few examples.
func gradientCheck(g *graph.Graph, features, labels *ndarray.Array) error {
	x := ndarray.Must(ndarray.Slice(features, []int{0, 0}, []int{4, features.Shape()[1]}))
	y := ndarray.Must(ndarray.Slice(labels, []int{0, 0}, []int{4, labels.Shape()[1]}))
	res, err := validation.CheckGradients(g, map[string]*ndarray.Array{"x": x, "y": y},
		&validation.GradCheckOptions{Variables: params(g), MaxPerParam: 12, Subset: validation.SubsetRandom, Seed: 1})
	if err != nil {
		return err
	}
	fmt.Printf("\ngradient check (central differences on a float64 copy, 4 test images): %s\n", res.Summary())
	return res.Err()
}

// params names g's trainable variables.
func params(g *graph.Graph) []string {
	var names []string
	for _, v := range g.VariablesOf(graph.VARIABLE) {
		names = append(names, v.Name())
	}
	return names
}

// saveAndReload saves the trained graph (with its training configuration
// and Adam's state) as a SameDiff file, loads it back, checks that it
// computes exactly the same logits, and resumes training from the file.
func saveAndReload(g *graph.Graph, d *lenet.Data, before *train.Evaluation) error {
	dir, err := os.MkdirTemp("", "sdgo-demo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "lenet5.fb")
	if err := serialize.Save(path, g, &serialize.SaveOptions{UpdaterState: true}); err != nil {
		return err
	}
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	g2, err := serialize.Load(path)
	if err != nil {
		return err
	}
	cfg, err := train.ConfigOf(g2)
	if err != nil {
		return err
	}
	if err := sameUpdaterState(g, g2); err != nil {
		return err
	}
	ev, err := train.Evaluate(exec.New(g2), d.Test, cfg.Features, "logits")
	if err != nil {
		return err
	}
	fmt.Printf("\nsaved %s (%d bytes, SameDiff FlatBuffers) and loaded it back: test accuracy %.2f%% (%d/%d)\n",
		filepath.Base(path), st.Size(), 100*ev.Accuracy(), ev.Correct, ev.Total)
	if ev.Correct != before.Correct {
		return fmt.Errorf("the reloaded graph classifies %d images right, the trained one %d", ev.Correct, before.Correct)
	}
	// The same logits, bit for bit, for the first 1,000 test images.
	x := ndarray.Must(ndarray.Slice(d.TestX, []int{0, 0}, []int{1000, d.TestX.Shape()[1]}))
	feeds := map[string]*ndarray.Array{cfg.Features[0]: x}
	a, err := exec.Output(g, feeds, "logits")
	if err != nil {
		return err
	}
	b, err := exec.Output(g2, feeds, "logits")
	if err != nil {
		return err
	}
	if !sameBits(a["logits"], b["logits"]) {
		return fmt.Errorf("the reloaded graph computes other logits")
	}
	fmt.Printf("the logits of %d test images are identical, bit for bit, before and after the round trip\n", a["logits"].Shape()[0])
	tr, err := train.New(g2, cfg)
	if err != nil {
		return err
	}
	// A tenth of an epoch more, from the file.
	small, err := train.NewArrayIterator([]*ndarray.Array{ndarray.Must(ndarray.Slice(d.TrainX, []int{0, 0}, []int{6400, d.TrainX.Shape()[1]}))},
		[]*ndarray.Array{ndarray.Must(ndarray.Slice(d.TrainSet.OneHot, []int{0, 0}, []int{6400, 10}))}, 64, nil)
	if err != nil {
		return err
	}
	h, err := tr.Fit(small, 1)
	if err != nil {
		return err
	}
	fmt.Printf("resumed training from the file (epoch %d, %s state restored): mean loss %.4f over %d more steps\n",
		cfg.EpochCount-1, cfg.Updater.Name(), h.EpochLoss[0], len(h.Loss))
	return nil
}

// sameUpdaterState checks that loaded holds the updater state (every
// parameter's, every key's) saved holds, bit for bit: the trainer would
// resume from zeros without it.
func sameUpdaterState(saved, loaded *graph.Graph) error {
	a, _ := saved.GetMeta(graph.MetaUpdaterState)
	b, _ := loaded.GetMeta(graph.MetaUpdaterState)
	want, _ := a.(map[string]map[string]*ndarray.Array)
	got, _ := b.(map[string]map[string]*ndarray.Array)
	if len(want) == 0 {
		return fmt.Errorf("the trained graph holds no updater state")
	}
	for p, keys := range want {
		for k, w := range keys {
			if g := got[p][k]; g == nil || !sameBits(g, w) {
				return fmt.Errorf("the reloaded graph's updater state %q of %q differs from the saved one", k, p)
			}
		}
		if len(got[p]) != len(keys) {
			return fmt.Errorf("the reloaded graph has %d updater state arrays for %q, the saved one %d", len(got[p]), p, len(keys))
		}
	}
	return nil
}

// sameBits reports whether two arrays have the same dtype, shape and element
// bytes. ndarray.Equal compares values, for which -0 equals 0 and a NaN
// equals any NaN; a file must give back the very bits.
func sameBits(a, b *ndarray.Array) bool {
	ca, errA := ndarray.Copy(a)
	cb, errB := ndarray.Copy(b)
	return errA == nil && errB == nil && a.DType() == b.DType() && slices.Equal(a.Shape(), b.Shape()) &&
		bytes.Equal(ca.Buffer().Bytes(), cb.Buffer().Bytes())
}

// views shows CreateView: an in-place write through a view of a state
// array, whether the executor really wrote in place, and the exact
// gradients through the write.
func views() error {
	g := graph.New()
	state := g.Placeholder("state", ndarray.Float64, 3, 4)
	delta := g.Placeholder("delta", ndarray.Float64, 4)
	// state[-1, :] *= delta, then state[:, 1:3] += 1: each write gives a
	// new version of the state; the old one stays valid for whoever reads it.
	s1 := state.View(createview.Point(-1)).MulAssign(delta)
	s2 := s1.View(createview.All(), createview.Interval(1, 3)).AddAssign(g.Scalar(ndarray.Float64, 1)).Named("new_state")
	w := g.Const("w", ndarray.Must(ndarray.Arange(ndarray.Float64, 1, 1, 12)))
	loss := s2.Reshape(-1).Mul(w).Sum().Named("weighted_sum")
	grads, err := autodiff.Grad(loss, state, delta)
	if err != nil {
		return err
	}
	feeds := map[string]*ndarray.Array{
		"state": ndarray.Must(ndarray.Full(ndarray.Float64, 2, 3, 4)),
		"delta": ndarray.Must(ndarray.FromSlice([]float64{1, 10, 100, 1000})),
	}
	inPlace := &writeWatcher{ops: map[*graph.Op]bool{s1.Op(): true, s2.Op(): true}}
	out, err := exec.New(g).Exec(exec.Request{Feeds: feeds, Outputs: []string{s2.Name(), grads[0].Name(), grads[1].Name()},
		Listeners: []exec.Listener{inPlace}})
	if err != nil {
		return err
	}
	fmt.Printf("\nviews: state[-1,:] *= delta, then state[:,1:3] += 1\n")
	fmt.Printf("  new state      %v\n", out[s2.Name()])
	fmt.Printf("  forward writes done in place: %d of %d (the first copies: the fed state must not change)\n", inPlace.inPlace, inPlace.writes)
	fmt.Printf("  d sum(w·new)/d state %v\n", out[grads[0].Name()])
	fmt.Printf("  d sum(w·new)/d delta %v\n", out[grads[1].Name()])
	if !ndarray.Equal(feeds["state"], ndarray.Must(ndarray.Full(ndarray.Float64, 2, 3, 4))) {
		return fmt.Errorf("views: the fed state changed: %v", feeds["state"])
	}
	return checkViews(out[s2.Name()], out[grads[0].Name()], out[grads[1].Name()], inPlace.inPlace, inPlace.writes)
}

// viewsWant is what views computes, by hand: every element of the state is
// 2; the last row times delta is [2 20 200 2000], and columns 1 and 2 get 1
// more. The gradient of sum(w·new) is w, with its last row times delta
// (w is 1..12 in C order); the gradient for delta is the old last row (2)
// times w's last row [9 10 11 12]. Every value is exact in float64.
var viewsWant = struct{ state, dState, dDelta *ndarray.Array }{
	state:  ndarray.Must(ndarray.FromSlice([]float64{2, 3, 3, 2, 2, 3, 3, 2, 2, 21, 201, 2000}, 3, 4)),
	dState: ndarray.Must(ndarray.FromSlice([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 100, 1100, 12000}, 3, 4)),
	dDelta: ndarray.Must(ndarray.FromSlice([]float64{18, 20, 22, 24}, 4)),
}

// checkViews compares what views computed with viewsWant, and checks that
// the second write, whose input nothing else reads, was done in place.
func checkViews(state, dState, dDelta *ndarray.Array, inPlace, writes int) error {
	for _, c := range []struct {
		name      string
		got, want *ndarray.Array
	}{{"new state", state, viewsWant.state}, {"d/d state", dState, viewsWant.dState}, {"d/d delta", dDelta, viewsWant.dDelta}} {
		if !ndarray.Equal(c.got, c.want) {
			return fmt.Errorf("views: %s is %v, want %v", c.name, c.got, c.want)
		}
	}
	if writes != 2 || inPlace != 1 {
		return fmt.Errorf("views: %d of %d forward writes were done in place, want 1 of 2", inPlace, writes)
	}
	return nil
}

// writeWatcher counts which of the watched writes the executor allowed to
// work in place.
type writeWatcher struct {
	ops             map[*graph.Op]bool
	writes, inPlace int
}

func (w *writeWatcher) PreOp(ev *exec.OpEvent) error {
	if w.ops[ev.Op] {
		w.writes++
		if ev.Overwritable[0] {
			w.inPlace++
		}
	}
	return nil
}

func (w *writeWatcher) PostOp(*exec.OpEvent) error { return nil }
