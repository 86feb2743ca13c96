package train_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/serialize"
	"github.com/sdgo/sdgo/train"
)

// Train, save only what inference needs, and predict from the file by the
// feature's name.
func ExamplePredictor() {
	g, tr := linearModel()
	if _, err := tr.Fit(examples([]float64{1, 0, 0, 1, 1, 1, 2, 1}, []float64{2, -1, 1, 3}), 200); err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "model")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "model.fb")
	if err := serialize.Save(path, g, &serialize.SaveOptions{InferenceOutputs: []string{"preds"}}); err != nil {
		log.Fatal(err)
	}
	p, err := train.LoadPredictor(path)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("inputs", p.Inputs(), "outputs", p.Outputs())
	out, err := p.Predict(map[string]*ndarray.Array{"x": ndarray.Must(ndarray.FromSlice([]float64{3, 1, 0, 2}, 2, 2))})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%.3f\n", out["preds"].Float64s())
	// Output:
	// inputs [x] outputs [preds]
	// [5.000 -2.000]
}
