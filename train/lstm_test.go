package train_test

import (
	"math/rand/v2"
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/train"
)

// lstmData makes n sequences of 8 steps of one random normal feature
// ([n, 8, 1], batch first), labelled one-hot by the sign of the first
// step: the class has to be carried through seven more steps.
func lstmData(r *rand.Rand, n int) (x, y *ndarray.Array) {
	const steps = 8
	xs, ys := make([]float32, n*steps), make([]float32, 2*n)
	for i := 0; i < n; i++ {
		for t := 0; t < steps; t++ {
			xs[i*steps+t] = float32(r.NormFloat64())
		}
		if xs[i*steps] > 0 {
			ys[2*i+1] = 1
		} else {
			ys[2*i] = 1
		}
	}
	return ndarray.Must(ndarray.FromSlice(xs, n, steps, 1)), ndarray.Must(ndarray.FromSlice(ys, n, 2))
}

// An LSTM classifier built with g.RNN().LSTMLayer (float32, batch-first
// data, the last output into a dense layer and a softmax cross-entropy)
// learns to remember the first step's sign over eight steps: at least 90%
// accuracy on sequences it did not train on (chance is 50%).
func TestLSTMClassifierTrains(t *testing.T) {
	const units = 8
	r := rand.New(rand.NewPCG(24, 1))
	g := graph.New()
	v := func(name string, scale float64, s ...int) *graph.Variable {
		return g.Var(name, ndarray.Must(ndarray.RandNormal(r, ndarray.Float32, 0, scale, s...)))
	}
	x := g.Placeholder("x", ndarray.Float32, -1, 8, 1)
	labels := g.Placeholder("labels", ndarray.Float32, -1, 2)
	weights := graph.LSTMLayerWeights{Wx: v("wx", 0.5, 1, 4*units), Wr: v("wr", 0.3, units, 4*units),
		B: g.Var("b", ndarray.Must(ndarray.Zeros(ndarray.Float32, 4*units)))}
	o := g.RNN().LSTMLayer(x, weights, graph.LSTMLayerState{}, graph.LSTMLayerConfig{DataFormat: graph.LSTMBatchTime, ReturnLastH: true})
	logits := o.HLast.MatMul(v("wo", 0.5, units, 2)).Add(g.Var("bo", ndarray.Must(ndarray.Zeros(ndarray.Float32, 2)))).Named("logits")
	g.Loss().SoftmaxCrossEntropyWithLogits(labels, logits, 1).Mean().Named("loss")
	if err := g.Err(); err != nil {
		t.Fatal(err)
	}
	tr, err := train.New(g, &train.Config{Updater: train.NewAdam(0.03), Features: []string{"x"}, Labels: []string{"labels"}, Losses: []string{"loss"}})
	if err != nil {
		t.Fatal(err)
	}
	xTrain, yTrain := lstmData(r, 512)
	xTest, yTest := lstmData(r, 512)
	fitAndScore(t, tr, [4]*ndarray.Array{xTrain, yTrain, xTest, yTest}, 40, 0.9)
}
