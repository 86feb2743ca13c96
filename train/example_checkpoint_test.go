package train_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/sdgo/sdgo/train"
)

// Checkpoints at the end of every epoch, keeping the last two; training
// then resumes from the newest, with its counters and updater state.
func ExampleCheckpointListener() {
	dir, err := os.MkdirTemp("", "checkpoints")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	_, tr := linearModel()
	cl, err := train.NewCheckpointListener(tr, train.CheckpointConfig{Dir: dir, EveryEpochs: 1, KeepLast: 2})
	if err != nil {
		log.Fatal(err)
	}
	data := examples([]float64{1, 0, 0, 1, 1, 1, 2, 1}, []float64{2, -1, 1, 3})
	if _, err := tr.Fit(data, 3, cl); err != nil {
		log.Fatal(err)
	}
	for _, c := range cl.Checkpoints() {
		fmt.Println(c.File)
	}
	latest, err := train.LatestCheckpoint(dir)
	if err != nil {
		log.Fatal(err)
	}
	resumed, err := train.Resume(latest)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("resumed from %s at epoch %d, iteration %d\n", filepath.Base(latest), resumed.Config().EpochCount, resumed.Config().IterationCount)
	// Output:
	// checkpoint-000001-epoch2-iter4.fb
	// checkpoint-000002-epoch3-iter6.fb
	// resumed from checkpoint-000002-epoch3-iter6.fb at epoch 3, iteration 6
}
