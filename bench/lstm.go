package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"time"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/train"
)

// The sequence models of issue 24, timed on one core beside PyTorch: an
// LSTM classifier (32 sequences of 128 steps of 256 features, 256 units,
// the last output through a dense layer into 10 classes) and a
// transformer encoder block (bench/transformer.go). Both train with
// softmax cross-entropy and Adam (lr 1e-3) in float32.
const (
	seqBatch   = 32
	seqSteps   = 128
	seqClasses = 10
	lstmUnits  = 256
	lstmIn     = 256
)

// seqData is a batch of seqBatch sequences of seqSteps steps of width
// features, normal, and one-hot labels.
func seqData(width int) (x, y *ndarray.Array) {
	rng := rand.New(rand.NewPCG(24, 7))
	x = ndarray.Must(ndarray.RandNormal(rng, ndarray.Float32, 0, 1, seqBatch, seqSteps, width))
	lab := make([]float32, seqBatch*seqClasses)
	for i := 0; i < seqBatch; i++ {
		lab[i*seqClasses+rng.IntN(seqClasses)] = 1
	}
	return x, ndarray.Must(ndarray.FromSlice(lab, seqBatch, seqClasses))
}

// seqParams makes float32 variables in g, normal with the given standard
// deviation (0: zeros), by the names torch_peer.py reads.
type seqParams struct {
	g     *graph.Graph
	rng   *rand.Rand
	names []string
}

func (p *seqParams) v(name string, std float64, shape ...int) *graph.Variable {
	p.names = append(p.names, name)
	if std == 0 {
		return p.g.Var(name, ndarray.Must(ndarray.Zeros(ndarray.Float32, shape...)))
	}
	return p.g.Var(name, ndarray.Must(ndarray.RandNormal(p.rng, ndarray.Float32, 0, std, shape...)))
}

// arrays are the batch and copies of the parameters' initial values.
func (p *seqParams) arrays(x, y *ndarray.Array) (map[string]*ndarray.Array, error) {
	m := map[string]*ndarray.Array{"x": x, "y": y}
	for _, n := range p.names {
		v, _ := p.g.Variable(n)
		c, err := ndarray.Copy(v.Value())
		if err != nil {
			return nil, err
		}
		m[n] = c
	}
	return m, nil
}

// trainer finishes a sequence model of inputs of width features: logits
// into the loss, Adam. It returns the trainer, a batch, and the arrays the
// PyTorch peer starts from.
func (p *seqParams) trainer(logits *graph.Variable, width int) (*train.Trainer, *train.Batch, map[string]*ndarray.Array, error) {
	g := p.g
	g.Loss().SoftmaxCrossEntropy(g.Placeholder("y", ndarray.Float32, -1, seqClasses), logits).Named("loss")
	if err := g.Err(); err != nil {
		return nil, nil, nil, err
	}
	tr, err := train.New(g, &train.Config{Updater: train.NewAdam(1e-3), Features: []string{"x"}, Labels: []string{"y"}, Losses: []string{"loss"}})
	if err != nil {
		return nil, nil, nil, err
	}
	xs, ys := seqData(width)
	arrays, err := p.arrays(xs, ys)
	return tr, &train.Batch{Features: []*ndarray.Array{xs}, Labels: []*ndarray.Array{ys}}, arrays, err
}

// sdgoLSTM builds the LSTM classifier with g.RNN().LSTMLayer and returns
// its trainer, batch and the arrays the PyTorch peer starts from.
func sdgoLSTM() (*train.Trainer, *train.Batch, map[string]*ndarray.Array, error) {
	g := graph.New()
	p := &seqParams{g: g, rng: rand.New(rand.NewPCG(24, 8))}
	x := g.Placeholder("x", ndarray.Float32, -1, seqSteps, lstmIn)
	w := graph.LSTMLayerWeights{Wx: p.v("wx", 1/math.Sqrt(lstmIn), lstmIn, 4*lstmUnits), Wr: p.v("wr", 1/math.Sqrt(lstmUnits), lstmUnits, 4*lstmUnits),
		B: p.v("b", 0, 4*lstmUnits)}
	o := g.RNN().LSTMLayer(x, w, graph.LSTMLayerState{}, graph.LSTMLayerConfig{DataFormat: graph.LSTMBatchTime, ReturnLastH: true})
	logits := o.HLast.MatMul(p.v("wo", 1/math.Sqrt(lstmUnits), lstmUnits, seqClasses)).Add(p.v("bo", 0, seqClasses))
	return p.trainer(logits, lstmIn)
}

func lstmBench(o options) ([]result, error) {
	return seqBench("lstm", "32x128", sdgoLSTM, o)
}

// seqBench times a training step of a sequence model in sdgo and in
// PyTorch (model, in torch_peer.py) on one core, in alternating rounds of
// a tenth of -steps (at least 2), after checking that both compute the
// same first loss from the same parameters and batch.
func seqBench(model, batch string, build func() (*train.Trainer, *train.Batch, map[string]*ndarray.Array, error), o options) ([]result, error) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	tr, b, arrays, err := build()
	if err != nil {
		return nil, err
	}
	step := func() error { _, err := tr.Step(b); return err }
	var tp *childPeer
	if torchVersion() != "" {
		if tp, err = startTorch(model, ndarray.Float32, 1, arrays); err != nil {
			return nil, err
		}
		defer tp.close()
	}
	loss, err := tr.Step(b)
	if err != nil {
		return nil, err
	}
	// float32 sums over long sequences and wide rows round differently in
	// the two engines: the first losses agree to 1e-4 relative.
	if tp != nil && !(math.Abs(loss-tp.firstLoss) <= 1e-4*math.Max(1, math.Abs(loss))) {
		return nil, fmt.Errorf("%s: the first step's loss is %v in sdgo and %v in PyTorch, from the same parameters", model, loss, tp.firstLoss)
	}
	if err := warmUp(1, step); err != nil {
		return nil, err
	}
	steps := max(o.steps/10, 2)
	allocs, bytes, err := allocsPerStep(steps, step)
	if err != nil {
		return nil, err
	}
	runs := []func() (time.Duration, error){func() (time.Duration, error) { return median(1, steps, step) }}
	r := result{model: model + "-float32", batch: batch, threads: 1, allocs: allocs, bytes: bytes}
	if tp != nil {
		r.note = fmt.Sprintf("first loss %.7g in sdgo, %.7g in PyTorch\n", loss, tp.firstLoss)
	}
	if tp != nil {
		if _, err := tp.round(1); err != nil { // warm-up
			return nil, err
		}
		runs = append(runs, func() (time.Duration, error) { return tp.round(steps) })
	}
	ts, err := interleavedN(o.rounds, runs...)
	if err != nil {
		return nil, err
	}
	r.sdgo = ts[0]
	if tp != nil {
		r.torch = ts[1]
	}
	return []result{r}, nil
}
