package train

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/internal/atomicfile"
	"github.com/sdgo/sdgo/serialize"
)

// ManifestName is the file in a checkpoint directory that lists its
// checkpoints, oldest first, with each file's size and SHA-256.
const ManifestName = "checkpoints.json"

// CheckpointConfig says where and how often a CheckpointListener saves.
type CheckpointConfig struct {
	// Dir holds the checkpoint files and their manifest; it is made if it
	// does not exist.
	Dir string
	// EveryEpochs saves at the end of every EveryEpochs-th epoch, and
	// EveryIterations after every EveryIterations-th iteration (both
	// counted over the whole training); 0 turns either off, but not both.
	EveryEpochs, EveryIterations int
	// KeepLast keeps the newest KeepLast checkpoints, removing older ones
	// once a newer one is safely written; 0 keeps all.
	KeepLast int
}

// CheckpointInfo describes a checkpoint in the manifest.
type CheckpointInfo struct {
	// Seq numbers the directory's checkpoints from 0, across trainers.
	Seq  int    `json:"seq"`
	File string `json:"file"` // in the directory
	// Epoch and Iteration are the training's counters when it was
	// saved (the configuration's EpochCount and IterationCount).
	Epoch     int       `json:"epoch"`
	Iteration int       `json:"iteration"`
	Size      int64     `json:"size"`
	SHA256    string    `json:"sha256"`
	Time      time.Time `json:"time"`
}

type manifest struct {
	Checkpoints []CheckpointInfo `json:"checkpoints"`
}

// CheckpointListener saves the trainer's graph, with its training
// configuration and updater state, during Fit (DL4J's CheckpointListener):
// Resume or LoadCheckpoint carries on from any of them.
//
// Each checkpoint is written to a temporary file and renamed into place,
// then recorded in the manifest (written the same way), and only then are
// checkpoints beyond KeepLast removed: a checkpoint that fails leaves the
// earlier ones and the manifest as they were. A checkpoint taken after an
// iteration within an epoch resumes at the start of that epoch (the
// configuration counts whole epochs), with the iterations and updater
// state of the moment it was taken.
type CheckpointListener struct {
	t    *Trainer
	cfg  CheckpointConfig
	kept []CheckpointInfo
	next int
}

// NewCheckpointListener returns a listener that checkpoints t's training
// into cfg.Dir. A directory that cannot be made or written to is an error
// now, not at the first checkpoint. Checkpoints a directory already
// holds (an earlier run's) stay listed, numbered on from, and count
// toward KeepLast.
func NewCheckpointListener(t *Trainer, cfg CheckpointConfig) (*CheckpointListener, error) {
	if t == nil {
		return nil, fmt.Errorf("train: a checkpoint listener needs a trainer")
	}
	if cfg.Dir == "" {
		return nil, fmt.Errorf("train: the checkpoint configuration names no directory")
	}
	if cfg.EveryEpochs < 0 || cfg.EveryIterations < 0 || cfg.KeepLast < 0 || cfg.EveryEpochs == 0 && cfg.EveryIterations == 0 {
		return nil, fmt.Errorf("train: checkpoints every %d epochs, every %d iterations, keeping %d: the counts must be from 0 up, and one of the every-counts above 0",
			cfg.EveryEpochs, cfg.EveryIterations, cfg.KeepLast)
	}
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("train: checkpoint directory %s cannot be made: %w", cfg.Dir, err)
	}
	f, err := os.CreateTemp(cfg.Dir, ".write-test")
	if err != nil {
		return nil, fmt.Errorf("train: checkpoint directory %s cannot be written: %w", cfg.Dir, err)
	}
	f.Close()
	os.Remove(f.Name())
	m, err := readManifest(cfg.Dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	c := &CheckpointListener{t: t, cfg: cfg}
	if m != nil {
		c.kept = m.Checkpoints
		if n := len(c.kept); n > 0 {
			c.next = c.kept[n-1].Seq + 1
		}
	}
	return c, nil
}

// IterationDone saves after every EveryIterations-th iteration.
func (c *CheckpointListener) IterationDone(e *IterationEvent) error {
	if c.cfg.EveryIterations > 0 && (e.Iteration+1)%c.cfg.EveryIterations == 0 {
		_, err := c.Save()
		return err
	}
	return nil
}

// EpochDone saves after every EveryEpochs-th epoch.
func (c *CheckpointListener) EpochDone(e *EpochEvent) error {
	if c.cfg.EveryEpochs > 0 && (e.Epoch+1)%c.cfg.EveryEpochs == 0 {
		_, err := c.Save()
		return err
	}
	return nil
}

// Checkpoints returns the checkpoints kept, oldest first.
func (c *CheckpointListener) Checkpoints() []CheckpointInfo {
	return append([]CheckpointInfo(nil), c.kept...)
}

// Save writes a checkpoint now and returns its path.
func (c *CheckpointListener) Save() (string, error) {
	cfg := c.t.cfg
	info := CheckpointInfo{Seq: c.next, Epoch: cfg.EpochCount, Iteration: cfg.IterationCount, Time: time.Now().UTC()}
	info.File = fmt.Sprintf("checkpoint-%06d-epoch%d-iter%d.fb", info.Seq, info.Epoch, info.Iteration)
	path := filepath.Join(c.cfg.Dir, info.File)
	// The configuration in the graph's meta is written as it is now.
	buf, err := serialize.Encode(c.t.g, &serialize.SaveOptions{UpdaterState: true})
	if err != nil {
		return "", fmt.Errorf("train: checkpoint %s: %w", path, err)
	}
	if err := writeFile(path, buf); err != nil {
		return "", fmt.Errorf("train: writing checkpoint %s: %w", path, err)
	}
	sum := sha256.Sum256(buf)
	info.Size, info.SHA256 = int64(len(buf)), hex.EncodeToString(sum[:])
	kept := append(append([]CheckpointInfo(nil), c.kept...), info)
	var drop []CheckpointInfo
	if k := c.cfg.KeepLast; k > 0 && len(kept) > k {
		drop, kept = kept[:len(kept)-k], kept[len(kept)-k:]
	}
	js, err := json.MarshalIndent(manifest{Checkpoints: kept}, "", "  ")
	if err == nil {
		err = writeFile(filepath.Join(c.cfg.Dir, ManifestName), js)
	}
	if err != nil {
		// Unlisted, the new file would be neither resumed from nor
		// removed in its turn.
		os.Remove(path)
		return "", fmt.Errorf("train: writing the checkpoint manifest in %s: %w", c.cfg.Dir, err)
	}
	c.kept, c.next = kept, c.next+1
	for _, d := range drop {
		if err := os.Remove(filepath.Join(c.cfg.Dir, d.File)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return path, fmt.Errorf("train: removing an old checkpoint: %w", err)
		}
	}
	return path, nil
}

func writeFile(path string, buf []byte) error {
	return atomicfile.Write(path, func(w io.Writer) error {
		n, err := w.Write(buf)
		if err == nil && n != len(buf) {
			err = io.ErrShortWrite
		}
		return err
	})
}

// readManifest reads the manifest of dir; a missing one is an error
// wrapping fs.ErrNotExist.
func readManifest(dir string) (*manifest, error) {
	p := filepath.Join(dir, ManifestName)
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("train: checkpoint manifest: %w", err)
	}
	var m manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("train: checkpoint manifest %s is corrupt: %w", p, err)
	}
	return &m, nil
}

// LatestCheckpoint returns the path of the newest checkpoint the manifest
// of dir lists.
func LatestCheckpoint(dir string) (string, error) {
	m, err := readManifest(dir)
	if err != nil {
		return "", err
	}
	if len(m.Checkpoints) == 0 {
		return "", fmt.Errorf("train: the checkpoint manifest in %s lists no checkpoint", dir)
	}
	return filepath.Join(dir, m.Checkpoints[len(m.Checkpoints)-1].File), nil
}

// LoadCheckpoint reads a checkpoint and returns its graph and training
// configuration; New(g, cfg) goes on training from it (after setting what
// the file does not keep: Config.Clipping, validation, early stopping).
// A file the manifest beside it lists must have the size and SHA-256 the
// manifest records: a checkpoint damaged after it was written is an error
// naming it, even where the damage would still decode.
func LoadCheckpoint(path string) (*graph.Graph, *Config, error) {
	buf, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("train: reading checkpoint: %w", err)
	}
	if m, err := readManifest(filepath.Dir(path)); err == nil {
		for _, info := range m.Checkpoints {
			if info.File != filepath.Base(path) {
				continue
			}
			sum := sha256.Sum256(buf)
			if got := hex.EncodeToString(sum[:]); int64(len(buf)) != info.Size || got != info.SHA256 {
				return nil, nil, fmt.Errorf("train: checkpoint %s is corrupt: it has %d bytes with SHA-256 %s; the manifest %s records %d bytes with %s",
					path, len(buf), got, filepath.Join(filepath.Dir(path), ManifestName), info.Size, info.SHA256)
			}
		}
	}
	g, err := serialize.Decode(buf)
	if err != nil {
		return nil, nil, fmt.Errorf("train: checkpoint %s is corrupt or not a graph file: %w", path, err)
	}
	cfg, err := ConfigOf(g)
	if err != nil {
		return nil, nil, fmt.Errorf("train: checkpoint %s: %w", path, err)
	}
	return g, cfg, nil
}

// Resume returns a trainer that goes on from a checkpoint: its variables,
// counters and updater state (LoadCheckpoint, then New). What the file
// does not keep (Config.Clipping, validation, early stopping) must be set
// again: on the trainer (Config, SetValidation, SetEarlyStopping), or
// between LoadCheckpoint and New.
func Resume(path string) (*Trainer, error) {
	g, cfg, err := LoadCheckpoint(path)
	if err != nil {
		return nil, err
	}
	t, err := New(g, cfg)
	if err != nil {
		return nil, fmt.Errorf("train: resuming from checkpoint %s: %w", path, err)
	}
	return t, nil
}
