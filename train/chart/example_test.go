package chart_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/sdgo/sdgo/train"
	"github.com/sdgo/sdgo/train/chart"
)

// The loss curve with the validation loss, and the validation metric's
// curve, of a history such as Fit returns with validation data.
func ExampleWriteMetric() {
	h := &train.History{
		Loss:      []float64{1.2, 0.9, 0.7, 0.6, 0.5, 0.45},
		EpochLoss: []float64{1.05, 0.65, 0.475},
		ValLoss:   []float64{0.8, 0.6, 0.55},
		ValMetric: []float64{0.6, 0.75, 0.8},
		Metric:    "accuracy",
	}
	dir, err := os.MkdirTemp("", "charts")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := chart.WriteLoss(filepath.Join(dir, "loss.png"), h, 2, chart.Options{}); err != nil {
		log.Fatal(err)
	}
	if err := chart.WriteMetric(filepath.Join(dir, "accuracy.svg"), h, chart.Options{}); err != nil {
		log.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		fmt.Println(e.Name())
	}
	// Output:
	// accuracy.svg
	// loss.png
}
