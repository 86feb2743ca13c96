package metrics_test

import (
	"fmt"
	"strings"

	"github.com/sdgo/sdgo/metrics"
	"github.com/sdgo/sdgo/ndarray"
)

// A classifier's predictions for four examples of three classes, with
// class indices as labels.
func ExampleEvaluation() {
	labels := ndarray.Must(ndarray.FromSlice([]int64{0, 1, 2, 2}, 4))
	pred := ndarray.Must(ndarray.FromSlice([]float64{
		0.8, 0.1, 0.1,
		0.2, 0.7, 0.1,
		0.1, 0.6, 0.3,
		0.1, 0.2, 0.7,
	}, 4, 3))
	e := metrics.NewEvaluation(3)
	if err := e.Eval(labels, pred); err != nil {
		panic(err)
	}
	fmt.Printf("accuracy %.2f, F1 of class 2 %.3f, macro F1 %.3f\n", e.Accuracy(), e.F1(2), e.AvgF1(metrics.Macro))
	fmt.Println(e.ConfusionString())
	// Output:
	// accuracy 0.75, F1 of class 2 0.667, macro F1 0.778
	//  0 1 2
	// -------
	//  1 0 0 | 0 = 0
	//  0 1 0 | 1 = 1
	//  0 1 1 | 2 = 2
	//
	// Confusion matrix format: Actual (rowClass) predicted as (columnClass) N times
}

// The area under the ROC curve of a binary classifier.
func ExampleROC() {
	r := metrics.NewROC()
	labels := ndarray.Must(ndarray.FromSlice([]float64{1, 0, 1, 0}, 4, 1))
	scores := ndarray.Must(ndarray.FromSlice([]float64{0.9, 0.6, 0.4, 0.1}, 4, 1))
	if err := r.Eval(labels, scores); err != nil {
		panic(err)
	}
	fmt.Println(r.AUC())
	// Output: 0.75
}

// A regression's errors per column, as DL4J's RegressionEvaluation reports
// them.
func ExampleRegressionEvaluation() {
	e := metrics.NewRegressionEvaluation("price")
	labels := ndarray.Must(ndarray.FromSlice([]float64{1, 2, 3}, 3, 1))
	pred := ndarray.Must(ndarray.FromSlice([]float64{1.5, 2, 2.5}, 3, 1))
	if err := e.Eval(labels, pred); err != nil {
		panic(err)
	}
	fmt.Printf("MSE %.4f, R² %.2f\n", e.MSE(0), e.RSquared(0))
	for _, line := range strings.Split(strings.TrimSpace(e.Stats()), "\n") {
		fmt.Println(strings.TrimRight(line, " ")) // the columns are padded
	}
	// Output:
	// MSE 0.1667, R² 0.75
	// Column    MSE            MAE            RMSE           RSE            PC             R^2
	// price     1.66667e-01    3.33333e-01    4.08248e-01    2.50000e-01    1.00000e+00    7.50000e-01
}
