package train_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/internal/atomicfile"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/train"
)

func fileNames(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

// Training checkpointed every epoch, stopped after 2 epochs and resumed
// from the newest checkpoint ends bit for bit where 4 uninterrupted epochs
// end. The resumed run's listener numbers on in the same directory and
// keeps the last 2 across both runs.
func TestCheckpointResumeIsBitIdentical(t *testing.T) {
	mk := resumeConfigs()["Adam/exponential by iteration"]
	data := spiralBatches(ndarray.Float64)
	want := weights(fit(t, mlp(ndarray.Float64, 6, 1), mk(), data, 4))

	dir := t.TempDir()
	tr, err := train.New(mlp(ndarray.Float64, 6, 1), mk())
	if err != nil {
		t.Fatal(err)
	}
	cl, err := train.NewCheckpointListener(tr, train.CheckpointConfig{Dir: dir, EveryEpochs: 1, KeepLast: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Fit(data, 2, cl); err != nil {
		t.Fatal(err)
	}
	latest, err := train.LatestCheckpoint(dir)
	if err != nil || filepath.Base(latest) != "checkpoint-000001-epoch2-iter8.fb" {
		t.Fatalf("latest checkpoint %q, %v", latest, err)
	}
	tr2, err := train.Resume(latest)
	if err != nil {
		t.Fatal(err)
	}
	cl2, err := train.NewCheckpointListener(tr2, train.CheckpointConfig{Dir: dir, EveryEpochs: 1, KeepLast: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tr2.Fit(data, 2, cl2); err != nil {
		t.Fatal(err)
	}
	sameWeights(t, "resumed from a checkpoint", want, weights(tr2.Session().Graph()))
	got := strings.Join(fileNames(t, dir), " ")
	if got != "checkpoint-000002-epoch3-iter12.fb checkpoint-000003-epoch4-iter16.fb checkpoints.json" {
		t.Errorf("the directory holds %s", got)
	}
	if cps := cl2.Checkpoints(); len(cps) != 2 || cps[0].Seq != 2 || cps[1].Epoch != 4 || cps[1].Iteration != 16 || len(cps[1].SHA256) != 64 {
		t.Errorf("checkpoints kept: %+v", cps)
	}
}

// Checkpoints every 3 iterations of 4-batch epochs, all kept: each has
// the counters of the moment it was taken.
func TestCheckpointEveryIterations(t *testing.T) {
	data := spiralBatches(ndarray.Float64)
	tr, err := train.New(mlp(ndarray.Float64, 6, 1), resumeConfigs()["AdamW"]())
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "made", "here")
	cl, err := train.NewCheckpointListener(tr, train.CheckpointConfig{Dir: dir, EveryIterations: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Fit(data, 2, cl); err != nil {
		t.Fatal(err)
	}
	cps := cl.Checkpoints()
	if len(cps) != 2 {
		t.Fatalf("%d checkpoints after 8 iterations, every 3", len(cps))
	}
	for i, want := range [][2]int{{0, 3}, {1, 6}} {
		_, cfg, err := train.LoadCheckpoint(filepath.Join(dir, cps[i].File))
		if err != nil {
			t.Fatal(err)
		}
		if cps[i].Epoch != want[0] || cps[i].Iteration != want[1] || cfg.EpochCount != want[0] || cfg.IterationCount != want[1] {
			t.Errorf("checkpoint %d: manifest (%d, %d), file (%d, %d); want epoch %d, iteration %d",
				i, cps[i].Epoch, cps[i].Iteration, cfg.EpochCount, cfg.IterationCount, want[0], want[1])
		}
	}
}

type failingWriter struct {
	w io.Writer
	n int
}

func (f *failingWriter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		f.w.Write(p[:f.n])
		return f.n, errors.New("disk full")
	}
	f.n -= len(p)
	return f.w.Write(p)
}

// A checkpoint whose write fails half-way leaves the last good checkpoint
// and the manifest as they were, and no partial file.
func TestFailedCheckpointKeepsTheLastGood(t *testing.T) {
	dir := t.TempDir()
	_, tr := linear(t, 0.1)
	cl, err := train.NewCheckpointListener(tr, train.CheckpointConfig{Dir: dir, EveryEpochs: 1, KeepLast: 1})
	if err != nil {
		t.Fatal(err)
	}
	good, err := cl.Save()
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(good)
	manifest, _ := os.ReadFile(filepath.Join(dir, train.ManifestName))

	atomicfile.TestHook = func(w io.Writer) io.Writer { return &failingWriter{w: w, n: 100} }
	_, err = tr.Fit(rows(t, []float64{1, 0}, []float64{1}, 1), 1, cl)
	atomicfile.TestHook = nil
	if err == nil || !strings.Contains(err.Error(), "writing checkpoint "+filepath.Join(dir, "checkpoint-000001-epoch1-iter1.fb")) ||
		!strings.Contains(err.Error(), "disk full") {
		t.Errorf("failed checkpoint: %v", err)
	}
	after, _ := os.ReadFile(good)
	manifest2, _ := os.ReadFile(filepath.Join(dir, train.ManifestName))
	if string(after) != string(before) || string(manifest2) != string(manifest) {
		t.Errorf("the failed checkpoint changed the last good one or the manifest")
	}
	if got := strings.Join(fileNames(t, dir), " "); got != filepath.Base(good)+" "+train.ManifestName {
		t.Errorf("the directory holds %s", got)
	}
	if latest, err := train.LatestCheckpoint(dir); err != nil || latest != good {
		t.Errorf("latest %q, %v; want %s", latest, err, good)
	}
	if _, err := train.Resume(good); err != nil {
		t.Errorf("resuming from the last good checkpoint: %v", err)
	}
}

func TestCheckpointBadInput(t *testing.T) {
	_, tr := linear(t, 0.1)
	tmp := t.TempDir()
	file := filepath.Join(tmp, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cfg  train.CheckpointConfig
		want string
	}{
		{train.CheckpointConfig{EveryEpochs: 1}, "names no directory"},
		{train.CheckpointConfig{Dir: tmp}, "one of the every-counts above 0"},
		{train.CheckpointConfig{Dir: tmp, EveryEpochs: 1, KeepLast: -1}, "keeping -1"},
		// A directory under a regular file can be neither made nor
		// written, whoever runs the test.
		{train.CheckpointConfig{Dir: filepath.Join(file, "sub"), EveryEpochs: 1}, "checkpoint directory " + filepath.Join(file, "sub") + " cannot be made"},
		{train.CheckpointConfig{Dir: file, EveryEpochs: 1}, "checkpoint directory " + file + " cannot be"},
	} {
		if _, err := train.NewCheckpointListener(tr, c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.cfg, err, c.want)
		}
	}
	if _, err := train.LatestCheckpoint(tmp); err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("no manifest: %v", err)
	}
	bad := t.TempDir()
	os.WriteFile(filepath.Join(bad, train.ManifestName), []byte("{"), 0o644)
	if _, err := train.LatestCheckpoint(bad); err == nil || !strings.Contains(err.Error(), filepath.Join(bad, train.ManifestName)+" is corrupt") {
		t.Errorf("corrupt manifest: %v", err)
	}
	if _, err := train.NewCheckpointListener(tr, train.CheckpointConfig{Dir: bad, EveryEpochs: 1}); err == nil || !strings.Contains(err.Error(), "is corrupt") {
		t.Errorf("listener over a corrupt manifest: %v", err)
	}
}

// A checkpoint changed after it was written is an error naming it: one
// byte flipped (caught by the manifest's SHA-256, though it may well
// decode), or truncated where no manifest tells (caught by the decoder).
func TestCorruptCheckpoint(t *testing.T) {
	dir := t.TempDir()
	_, tr := linear(t, 0.1)
	cl, err := train.NewCheckpointListener(tr, train.CheckpointConfig{Dir: dir, EveryEpochs: 1})
	if err != nil {
		t.Fatal(err)
	}
	path, err := cl.Save()
	if err != nil {
		t.Fatal(err)
	}
	buf, _ := os.ReadFile(path)
	flipped := append([]byte(nil), buf...)
	flipped[len(flipped)/2] ^= 1
	os.WriteFile(path, flipped, 0o644)
	if _, err := train.Resume(path); err == nil || !strings.Contains(err.Error(), "checkpoint "+path+" is corrupt") || !strings.Contains(err.Error(), "SHA-256") {
		t.Errorf("flipped byte: %v", err)
	}
	alone := filepath.Join(t.TempDir(), "alone.fb")
	os.WriteFile(alone, buf[:len(buf)/3], 0o644)
	if _, err := train.Resume(alone); err == nil || !strings.Contains(err.Error(), "checkpoint "+alone+" is corrupt or not a graph file") {
		t.Errorf("truncated: %v", err)
	}
	if _, err := train.Resume(filepath.Join(dir, "missing.fb")); err == nil || !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "missing.fb") {
		t.Errorf("missing: %v", err)
	}
}
