package train_test

import (
	"fmt"
	"strings"

	"github.com/sdgo/sdgo/train"
)

// A learning rate that warms up over 2 iterations, then follows a cosine
// down to 0.01 at iteration 6; and the same rate for Adam.
func ExampleCosineWarmup() {
	s := train.CosineWarmup{Max: 0.1, Min: 0.01, WarmupSteps: 2, TotalSteps: 6}
	var vs []string
	for it := 0; it <= 6; it++ {
		vs = append(vs, fmt.Sprintf("%.4f", s.Value(it, 0)))
	}
	fmt.Println(strings.Join(vs, " "))
	adam := &train.Adam{LR: s, Beta1: 0.9, Beta2: 0.999, Epsilon: 1e-8}
	fmt.Printf("%.3f\n", adam.LearningRate(4, 0))
	// Output:
	// 0.0000 0.0500 0.1000 0.0868 0.0550 0.0232 0.0100
	// 0.055
}

// Gradients clipped by their global norm before the updater.
func ExampleClipGlobalNorm() {
	cfg := &train.Config{Updater: train.NewAdam(1e-3), Clipping: train.ClipGlobalNorm(1), Features: []string{"x"}, Labels: []string{"y"}}
	fmt.Println(cfg.Clipping.Mode, cfg.Clipping.Threshold)
	// Output: ClipL2PerLayer 1
}
