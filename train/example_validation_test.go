package train_test

import (
	"fmt"
	"log"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/train"
)

// linearModel is y = x·w with w [2 1] starting at 0, trained by SGD on a
// mean squared error.
func linearModel() (*graph.Graph, *train.Trainer) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, -1, 2)
	y := g.Placeholder("y", ndarray.Float64, -1, 1)
	w := g.Var("w", ndarray.Must(ndarray.Zeros(ndarray.Float64, 2, 1)))
	g.Loss().MeanSquaredError(y, x.MatMul(w).Named("preds")).Named("loss")
	tr, err := train.New(g, &train.Config{Updater: train.NewSGD(0.1), Features: []string{"x"}, Labels: []string{"y"}, Losses: []string{"loss"}})
	if err != nil {
		log.Fatal(err)
	}
	return g, tr
}

// examples makes an iterator over rows of x (two columns) and y.
func examples(x, y []float64) train.Iterator {
	it, err := train.NewArrayIterator([]*ndarray.Array{ndarray.Must(ndarray.FromSlice(x, len(y), 2))},
		[]*ndarray.Array{ndarray.Must(ndarray.FromSlice(y, len(y), 1))}, 2, nil)
	if err != nil {
		log.Fatal(err)
	}
	return it
}

// Held-out data evaluated after every epoch: the history records its loss
// and metric, and the progress lines show them.
func ExampleTrainer_SetValidation() {
	_, tr := linearModel()
	// Made with w = [2 -1], as the training data.
	val := examples([]float64{1, 2, 3, 1}, []float64{0, 5})
	if err := tr.SetValidation(&train.Validation{Data: val, Output: "preds", Metric: train.MAE()}); err != nil {
		log.Fatal(err)
	}
	h, err := tr.Fit(examples([]float64{1, 0, 0, 1, 1, 1, 2, 1}, []float64{2, -1, 1, 3}), 100)
	if err != nil {
		log.Fatal(err)
	}
	last := len(h.ValLoss) - 1
	fmt.Printf("%d validations; last: loss %.4f, %s %.4f\n", len(h.ValLoss), h.ValLoss[last], h.Metric, h.ValMetric[last])
	// Output:
	// 100 validations; last: loss 0.0000, mae 0.0000
}

// Training toward w = [2 -1] while the validation data says w = [1 -1]:
// the validation loss falls, then rises. Early stopping ends the training
// after two epochs without improvement and puts back the best epoch's w.
func ExampleTrainer_SetEarlyStopping() {
	g, tr := linearModel()
	val := examples([]float64{1, 0, 0, 1}, []float64{1, -1})
	if err := tr.SetValidation(&train.Validation{Data: val}); err != nil {
		log.Fatal(err)
	}
	es := &train.EarlyStopping{Monitor: "val_loss", Patience: 2, RestoreBest: true}
	if err := tr.SetEarlyStopping(es); err != nil {
		log.Fatal(err)
	}
	h, err := tr.Fit(examples([]float64{1, 0, 0, 1, 1, 1, 2, 1}, []float64{2, -1, 1, 3}), 100)
	if err != nil {
		log.Fatal(err)
	}
	w, _ := g.Variable("w")
	fmt.Printf("stopped %v after epoch %d of %d; best validation loss %.4f after epoch %d\n",
		es.Stopped, es.StoppedEpoch, len(h.EpochLoss), es.Best, es.BestEpoch)
	r, err := tr.Validate()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("w restored: %.4f, validation loss %.4f\n", w.Value().Float64s(), r.Loss)
	// Output:
	// stopped true after epoch 12 of 13; best validation loss 0.3620 after epoch 10
	// w restored: [1.7330 -0.5680], validation loss 0.3620
}
