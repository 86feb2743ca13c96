package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"time"

	"github.com/sdgo/sdgo/autodiff"
	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/train"
)

// The convolution models of issue 21, float32, NCHW:
//
//   - conv3x3: a 3x3 SAME conv2d of x [32,16,32,32] to 32 channels, its
//     forward pass and the gradients of sum(y) with respect to x and the
//     weights;
//   - lenet: one training step of LeNet-5 on a 28x28 batch of 64 (the
//     network of examples/internal/lenet: conv 5x5 SAME to 6 channels, relu,
//     2x2 max pooling, conv 5x5 VALID to 16, relu, 2x2 max pooling, dense
//     400-120-84-10 with relu, softmax cross-entropy, Adam 1e-3).
//
// Both run in PyTorch (torch_peer.py) and gorgonia (conv_gorgonia.go)
// from the same arrays; the first losses must agree before anything is
// timed.
const (
	convB, convIC, convHW, convOC, convK = 32, 16, 32, 32, 3
	lenetBatch                           = 64
)

// convModel is a model sdgo runs as a step function, with the arrays
// torch_peer.py builds the same model from.
type convModel struct {
	step   func() (float64, error) // one step; its loss
	arrays map[string]*ndarray.Array
	tol    float64 // the relative tolerance of the first losses' agreement
}

// conv3x3Model builds conv3x3. The input and weights are uniform in
// [0, 1) and [0, 0.1): sum(y) then adds a million positive terms, so the
// engines' orders of summation change the sum only by float32 rounding.
func conv3x3Model() (*convModel, error) {
	rng := rand.New(rand.NewPCG(21, 3))
	dt := ndarray.Float32
	xv := ndarray.Must(ndarray.RandUniform(rng, dt, 0, 1, convB, convIC, convHW, convHW))
	wv := ndarray.Must(ndarray.RandUniform(rng, dt, 0, 0.1, convK, convK, convIC, convOC)) // [kH, kW, iC, oC]
	g := graph.New()
	x := g.Var("x", xv)
	w := g.Var("w", wv)
	y := g.CNN().Conv2D(x, w, nil, graph.Conv2DConfig{Padding: graph.PaddingSame})
	loss := y.Sum().Named("loss")
	if err := g.Err(); err != nil {
		return nil, err
	}
	if err := g.SetLoss("loss"); err != nil {
		return nil, err
	}
	grads, err := autodiff.Gradients(g, x, w)
	if err != nil {
		return nil, err
	}
	s := exec.New(g)
	names := []string{loss.Name(), grads[0].Name(), grads[1].Name()}
	step := func() (float64, error) {
		out, err := s.Exec(exec.Request{Outputs: names, Recyclable: true})
		if err != nil {
			return 0, err
		}
		l := out[names[0]].Float64s()[0]
		for _, n := range names {
			s.Recycle(out[n])
		}
		return l, nil
	}
	// PyTorch's weights are [oC, iC, kH, kW].
	wp, err := ndarray.Permute(wv, 3, 2, 0, 1)
	if err != nil {
		return nil, err
	}
	wt, err := ndarray.Copy(wp)
	if err != nil {
		return nil, err
	}
	xc, err := ndarray.Copy(xv)
	if err != nil {
		return nil, err
	}
	// A sum of 10^6 float32 terms: rounding differs by the order.
	return &convModel{step: step, arrays: map[string]*ndarray.Array{"x": xc, "w": wt}, tol: 1e-4}, nil
}

// lenetModel builds the LeNet-5 step, its weights He-normal from a fixed
// seed, its batch random: the timing does not depend on the digits.
func lenetModel() (*convModel, error) {
	rng := rand.New(rand.NewPCG(21, 5))
	dt := ndarray.Float32
	he := func(fanIn int, shape ...int) *ndarray.Array {
		return ndarray.Must(ndarray.RandNormal(rng, dt, 0, math.Sqrt(2/float64(fanIn)), shape...))
	}
	zeros := func(n int) *ndarray.Array { return ndarray.Must(ndarray.Zeros(dt, n)) }
	params := map[string]*ndarray.Array{
		"conv1_w": he(25, 5, 5, 1, 6), "conv1_b": zeros(6),
		"conv2_w": he(150, 5, 5, 6, 16), "conv2_b": zeros(16),
	}
	dense := [][2]int{{400, 120}, {120, 84}, {84, 10}}
	for i, l := range dense {
		params[fmt.Sprintf("fc%d_w", i+1)] = he(l[0], l[0], l[1])
		params[fmt.Sprintf("fc%d_b", i+1)] = zeros(l[1])
	}
	g := graph.New()
	v := func(name string) *graph.Variable { return g.Var(name, ndarray.Must(ndarray.Copy(params[name]))) }
	x := g.Placeholder("x", dt, -1, 28*28)
	y := g.Placeholder("y", dt, -1, 10)
	cnn := g.CNN()
	pool := graph.Pooling2DConfig{Kernel: [2]int{2, 2}, Stride: [2]int{2, 2}}
	h := x.Reshape(-1, 1, 28, 28)
	h = cnn.Conv2D(h, v("conv1_w"), v("conv1_b"), graph.Conv2DConfig{Padding: graph.PaddingSame})
	h = cnn.MaxPool2D(g.NN().Relu(h), pool)
	h = cnn.Conv2D(h, v("conv2_w"), v("conv2_b"), graph.Conv2DConfig{})
	h = cnn.MaxPool2D(g.NN().Relu(h), pool).Reshape(-1, 16*5*5)
	for i := range dense {
		h = h.MatMul(v(fmt.Sprintf("fc%d_w", i+1))).Add(v(fmt.Sprintf("fc%d_b", i+1)))
		if i < len(dense)-1 {
			h = g.NN().Relu(h)
		}
	}
	g.Loss().SoftmaxCrossEntropy(y, h).Named("loss")
	if err := g.Err(); err != nil {
		return nil, err
	}
	tr, err := train.New(g, &train.Config{Updater: train.NewAdam(1e-3), Features: []string{"x"}, Labels: []string{"y"}, Losses: []string{"loss"}})
	if err != nil {
		return nil, err
	}
	xs := ndarray.Must(ndarray.RandNormal(rng, dt, 0, 1, lenetBatch, 28*28))
	lab := make([]float32, lenetBatch*10)
	for i := 0; i < lenetBatch; i++ {
		lab[i*10+rng.IntN(10)] = 1
	}
	ys := ndarray.Must(ndarray.FromSlice(lab, lenetBatch, 10))
	b := &train.Batch{Features: []*ndarray.Array{xs}, Labels: []*ndarray.Array{ys}}
	arrays := map[string]*ndarray.Array{"x": ndarray.Must(ndarray.Copy(xs)), "y": ndarray.Must(ndarray.Copy(ys))}
	for n, a := range params {
		arrays[n] = a // the initial values: the graph's variables are copies
	}
	return &convModel{step: func() (float64, error) { return tr.Step(b) }, arrays: arrays, tol: 1e-5}, nil
}

// convBench times model (conv3x3 or lenet) in sdgo and PyTorch on each
// core count of o.threads, in alternating rounds.
func convBench(model string, o options) ([]result, error) {
	var rows []result
	for _, threads := range o.threads {
		r, err := convTimes(model, threads, o)
		if err != nil {
			return nil, err
		}
		rows = append(rows, r)
	}
	return rows, nil
}

func convTimes(model string, threads int, o options) (result, error) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(threads))
	build, batch := conv3x3Model, fmt.Sprint(convB)
	if model == "lenet" {
		build, batch = lenetModel, fmt.Sprint(lenetBatch)
	}
	m, err := build()
	if err != nil {
		return result{}, err
	}
	var tp *childPeer
	if torchVersion() != "" {
		if tp, err = startTorch(model, ndarray.Float32, threads, m.arrays); err != nil {
			return result{}, err
		}
		defer tp.close()
	}
	loss, err := m.step()
	if err != nil {
		return result{}, err
	}
	if tp != nil && !(math.Abs(loss-tp.firstLoss) <= m.tol*math.Max(1, math.Abs(tp.firstLoss))) {
		return result{}, fmt.Errorf("%s: the first step's loss is %v in sdgo and %v in PyTorch, from the same arrays", model, loss, tp.firstLoss)
	}
	gc, err := newGorgoniaConv(model, m.arrays)
	if err != nil {
		return result{}, err
	}
	if err := gc.step(); err != nil {
		return result{}, fmt.Errorf("gorgonia %s: %w", model, err)
	}
	if !(math.Abs(loss-gc.lastLoss) <= m.tol*math.Max(1, math.Abs(gc.lastLoss))) {
		return result{}, fmt.Errorf("%s: the first step's loss is %v in sdgo and %v in gorgonia, from the same arrays", model, loss, gc.lastLoss)
	}
	step := func() error { _, err := m.step(); return err }
	if err := warmUp(3, step, gc.step); err != nil {
		return result{}, err
	}
	allocs, bytes, err := allocsPerStep(o.steps, step)
	if err != nil {
		return result{}, err
	}
	r := result{model: model, batch: batch, threads: threads, allocs: allocs, bytes: bytes, peerName: "gorgonia"}
	// gorgonia's convolutions are many times slower than sdgo's: a tenth
	// of the steps in a round.
	runs := []func() (time.Duration, error){
		func() (time.Duration, error) { return median(1, o.steps, step) },
		func() (time.Duration, error) { return median(1, max(o.steps/10, 1), gc.step) },
	}
	if tp != nil {
		if _, err := tp.round(2); err != nil { // warm-up
			return result{}, err
		}
		runs = append(runs, func() (time.Duration, error) { return tp.round(o.steps) })
	}
	ts, err := interleavedN(o.rounds, runs...)
	if err != nil {
		return result{}, err
	}
	r.sdgo, r.peer = ts[0], ts[1]
	if tp != nil {
		r.torch = ts[2]
	}
	return r, nil
}
