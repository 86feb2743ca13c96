package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/kernels"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ndarray/densetensor"
	"github.com/sdgo/sdgo/train"
)

// The MLP of issue 9: 784-512-512-10, relu hidden layers, softmax
// cross-entropy, Adam (lr 1e-3), batch 128.
const (
	batch          = 128
	nIn, nHid, nOu = 784, 512, 10
)

var layers = [][2]int{{nIn, nHid}, {nHid, nHid}, {nHid, nOu}}

func mlpData(dt ndarray.DType) (x, y *ndarray.Array) {
	rng := rand.New(rand.NewPCG(7, 7))
	x = ndarray.Must(ndarray.RandNormal(rng, dt, 0, 1, batch, nIn))
	lab := make([]float64, batch*nOu)
	for i := 0; i < batch; i++ {
		lab[i*nOu+rng.IntN(nOu)] = 1
	}
	y, _ = ndarray.Cast(ndarray.Must(ndarray.FromSlice(lab, batch, nOu)), dt)
	return x, y
}

func sdgoMLP(dt ndarray.DType) (*train.Trainer, *train.Batch, error) {
	rng := rand.New(rand.NewPCG(1, 1))
	g := graph.New()
	x := g.Placeholder("x", dt, -1, nIn)
	y := g.Placeholder("y", dt, -1, nOu)
	h := x
	for i, l := range layers {
		w := g.Var(fmt.Sprintf("w%d", i), ndarray.Must(ndarray.RandNormal(rng, dt, 0, math.Sqrt(2/float64(l[0])), l[0], l[1])))
		b := g.Var(fmt.Sprintf("b%d", i), ndarray.Must(ndarray.Zeros(dt, l[1])))
		h = h.MatMul(w).Add(b)
		if i < len(layers)-1 {
			h = g.NN().Relu(h)
		}
	}
	g.Loss().SoftmaxCrossEntropy(y, h).Named("loss")
	if err := g.Err(); err != nil {
		return nil, nil, err
	}
	tr, err := train.New(g, &train.Config{Updater: train.NewAdam(1e-3), Features: []string{"x"}, Labels: []string{"y"}, Losses: []string{"loss"}})
	if err != nil {
		return nil, nil, err
	}
	xs, ys := mlpData(dt)
	return tr, &train.Batch{Features: []*ndarray.Array{xs}, Labels: []*ndarray.Array{ys}}, nil
}

// mlpBudget is what a training step must hold: parameters, their gradients,
// Adam's two state arrays, the batch, and the activations the backward pass
// reads (each layer's input and its pre-activation, the logits).
func mlpBudget(dt ndarray.DType) int64 {
	params := 0
	for _, l := range layers {
		params += l[0]*l[1] + l[1]
	}
	acts := batch*nIn + batch*nOu // the batch
	for _, l := range layers {
		acts += 2 * batch * l[1] // pre-activation and activation
	}
	acts += batch * nOu // softmax of the logits, for the loss gradient
	return int64(dt.Size()) * int64(4*params+acts)
}

type gorgoniaMLP struct {
	m        G.VM
	solver   G.Solver
	params   G.Nodes
	x, y     *G.Node
	loss     *G.Node
	lastLoss G.Value // the loss of the last step, before its update
	xv, yv   *tensor.Dense
}

// newGorgoniaMLP builds the MLP in gorgonia, its parameters starting from
// copies of sdgo's (g's variables w0, b0, ...), so that both compute the
// same first loss: the bench checks it before timing them.
func newGorgoniaMLP(dt ndarray.DType, sg *graph.Graph) (*gorgoniaMLP, error) {
	tdt := tensor.Float32
	if dt == ndarray.Float64 {
		tdt = tensor.Float64
	}
	g := G.NewGraph()
	x := G.NewMatrix(g, tdt, G.WithShape(batch, nIn), G.WithName("x"))
	y := G.NewMatrix(g, tdt, G.WithShape(batch, nOu), G.WithName("y"))
	h := x
	var params G.Nodes
	initial := func(name string) (*tensor.Dense, error) {
		v, ok := sg.Variable(name)
		if !ok {
			return nil, fmt.Errorf("gorgonia MLP: sdgo's graph has no %q", name)
		}
		c, err := ndarray.Copy(v.Value()) // ToDense shares the buffer, which sdgo's trainer updates
		if err != nil {
			return nil, err
		}
		return densetensor.ToDense(c)
	}
	for i, l := range layers {
		wv, err := initial(fmt.Sprintf("w%d", i))
		if err != nil {
			return nil, err
		}
		bv, err := initial(fmt.Sprintf("b%d", i))
		if err != nil {
			return nil, err
		}
		w := G.NewMatrix(g, tdt, G.WithShape(l[0], l[1]), G.WithName(fmt.Sprintf("w%d", i)), G.WithValue(wv))
		b := G.NewVector(g, tdt, G.WithShape(l[1]), G.WithName(fmt.Sprintf("b%d", i)), G.WithValue(bv))
		params = append(params, w, b)
		h = G.Must(G.BroadcastAdd(G.Must(G.Mul(h, w)), b, nil, []byte{0}))
		if i < len(layers)-1 {
			h = G.Must(G.Rectify(h))
		}
	}
	logp := G.Must(G.Log(G.Must(G.SoftMax(h))))
	loss := G.Must(G.Neg(G.Must(G.Mean(G.Must(G.Sum(G.Must(G.HadamardProd(logp, y)), 1))))))
	if _, err := G.Grad(loss, params...); err != nil {
		return nil, err
	}
	xs, ys := mlpData(dt)
	// gorgonia gets copies: ToDense would share the buffers.
	xc, err := ndarray.Copy(xs)
	if err != nil {
		return nil, err
	}
	yc, err := ndarray.Copy(ys)
	if err != nil {
		return nil, err
	}
	xv, err := densetensor.ToDense(xc)
	if err != nil {
		return nil, err
	}
	yv, err := densetensor.ToDense(yc)
	if err != nil {
		return nil, err
	}
	return &gorgoniaMLP{m: G.NewTapeMachine(g, G.BindDualValues(params...)), solver: G.NewAdamSolver(G.WithLearnRate(1e-3)),
		params: params, x: x, y: y, loss: loss, xv: xv, yv: yv}, nil
}

func (p *gorgoniaMLP) step() error {
	if err := G.Let(p.x, p.xv); err != nil {
		return err
	}
	if err := G.Let(p.y, p.yv); err != nil {
		return err
	}
	if err := p.m.RunAll(); err != nil {
		return err
	}
	p.lastLoss = p.loss.Value()
	if err := p.solver.Step(G.NodesToValueGrads(p.params)); err != nil {
		return err
	}
	p.m.Reset()
	return nil
}

// heapListener samples the heap after every op of a step.
type heapListener struct{ h *heapSampler }

func (l heapListener) PreOp(*exec.OpEvent) error  { return nil }
func (l heapListener) PostOp(*exec.OpEvent) error { l.h.sample(); return nil }

func mlpBench(f64 bool, o options) ([]result, error) {
	dt := ndarray.Float32
	if f64 {
		dt = ndarray.Float64
	}
	base := liveHeap()
	tr, b, err := sdgoMLP(dt)
	if err != nil {
		return nil, err
	}
	step := func() error { _, err := tr.Step(b); return err }
	if err := warmUp(3, step); err != nil {
		return nil, err
	}
	// Peak heap of a step: the heap's objects sampled after every op,
	// less what the process held before the model existed.
	hs := newHeapSampler()
	liveHeap()
	hs.sample()
	tr.Session().AddListener(heapListener{hs})
	if err := step(); err != nil {
		return nil, err
	}
	peak := int64(hs.max) - base
	var rows []result
	for _, threads := range o.threads {
		r, err := mlpTimes(dt, threads, o)
		if err != nil {
			return nil, err
		}
		r.peakHeap, r.budget = peak, mlpBudget(dt)
		rows = append(rows, r)
	}
	if o.long > 0 {
		note, err := mlpLongRun(dt, o.long)
		if err != nil {
			return nil, err
		}
		rows[len(rows)-1].note += note
	}
	return rows, nil
}

// mlpTimes times a training step of the MLP in sdgo and its peers, on
// threads cores (GOMAXPROCS for the Go engines, torch's and OpenBLAS's
// thread counts for PyTorch), in alternating rounds.
func mlpTimes(dt ndarray.DType, threads int, o options) (result, error) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(threads))
	tr, b, err := sdgoMLP(dt)
	if err != nil {
		return result{}, err
	}
	step := func() error { _, err := tr.Step(b); return err }
	// Every engine starts from the same parameters: their first losses
	// must agree, or the times compare different computations.
	gm, err := newGorgoniaMLP(dt, tr.Session().Graph())
	if err != nil {
		return result{}, err
	}
	var tp *childPeer
	if torchVersion() != "" {
		arrays, err := mlpArrays(dt, tr.Session().Graph())
		if err != nil {
			return result{}, err
		}
		if tp, err = startTorch("mlp", dt, threads, arrays); err != nil {
			return result{}, err
		}
		defer tp.close()
	}
	var xp *childPeer
	if _, err := gomlxPeerBinary(); err == nil {
		arrays, err := mlpArrays(dt, tr.Session().Graph())
		if err != nil {
			return result{}, err
		}
		if xp, err = startGomlx("mlp", dt, threads, arrays); err != nil {
			return result{}, err
		}
		defer xp.close()
	}
	loss, err := tr.Step(b)
	if err != nil {
		return result{}, err
	}
	if err := gm.step(); err != nil {
		return result{}, err
	}
	if err := sameLoss(dt, loss, gm.lastLoss); err != nil {
		return result{}, err
	}
	for _, p := range []*childPeer{tp, xp} {
		if p != nil {
			if err := closeLoss(dt, p.name, loss, p.firstLoss); err != nil {
				return result{}, err
			}
		}
	}
	if err := warmUp(3, step); err != nil {
		return result{}, err
	}
	allocs, bytes, err := allocsPerStep(o.steps, step)
	if err != nil {
		return result{}, err
	}
	if err := warmUp(2, gm.step); err != nil {
		return result{}, err
	}
	runs := []func() (time.Duration, error){
		func() (time.Duration, error) { return median(1, o.steps, step) },
		func() (time.Duration, error) { return median(1, max(o.steps/4, 2), gm.step) },
	}
	var times []*time.Duration
	r := result{model: "mlp-" + dt.String(), batch: fmt.Sprint(batch), threads: threads, peerName: "gorgonia", allocs: allocs, bytes: bytes}
	// GoMLX's steps take seconds (see bench/gomlx), so it runs a tenth of
	// the steps in a round.
	for _, p := range []struct {
		peer  *childPeer
		t     *time.Duration
		steps int
	}{{tp, &r.torch, o.steps}, {xp, &r.gomlx, max(o.steps/10, 1)}} {
		if p.peer == nil {
			continue
		}
		if _, err := p.peer.round(1); err != nil { // warm-up
			return result{}, err
		}
		runs = append(runs, func() (time.Duration, error) { return p.peer.round(p.steps) })
		times = append(times, p.t)
	}
	// The floor's parts take their rounds with the engines', so that
	// all see the same load.
	floor, gemm, stream, err := newMLPFloor(dt, threads)
	if err != nil {
		return result{}, err
	}
	runs = append(runs, func() (time.Duration, error) { return median(1, o.steps, gemm) },
		func() (time.Duration, error) { return median(1, o.steps, stream) })
	ts, err := interleavedN(o.rounds, runs...)
	if err != nil {
		return result{}, err
	}
	r.sdgo, r.peer = ts[0], ts[1]
	for i, t := range times {
		*t = ts[2+i]
	}
	floor.measured(ts[len(ts)-2], ts[len(ts)-1])
	r.note = floor.String(r.sdgo)
	return r, nil
}

// gemmFloor is what a training step of the MLP cannot go below in sdgo: its
// matrix products, run alone with the same shapes, transpositions and cores
// through the routine the matmul ops call, and Adam's memory traffic at
// the bandwidth a streaming kernel reaches.
type gemmFloor struct {
	threads     int
	flops       float64       // of the products
	gemm        time.Duration // the products, per step
	bytes       float64       // Adam reads p, g, m, v and writes p, m, v
	bandwidth   float64       // bytes per second of kernels.FMA over arrays of the parameters' size
	adamTraffic time.Duration // bytes / bandwidth
}

func (f gemmFloor) total() time.Duration { return f.gemm + f.adamTraffic }

// String shows the floor's computation beside step, sdgo's time per step.
func (f gemmFloor) String(step time.Duration) string {
	return fmt.Sprintf("GEMM floor on %d core(s): %.1f MFLOP of products in %v (%.1f GFLOP/s) + Adam's %.1f MB at %.1f GB/s (%v) = %v; the step is %.2fx the floor\n",
		f.threads, f.flops/1e6, f.gemm.Round(time.Microsecond), f.flops/f.gemm.Seconds()/1e9, f.bytes/1e6, f.bandwidth/1e9,
		f.adamTraffic.Round(time.Microsecond), f.total().Round(time.Microsecond), float64(step)/float64(f.total()))
}

// fmaStream returns a function that runs kernels' FMA over four arrays of
// n elements, split between threads goroutines, as the trainer splits
// Adam's update.
func fmaStream[T kernels.Float](k *kernels.Table[T], n, threads int) func() error {
	d, x, y, z := make([]T, n), make([]T, n), make([]T, n), make([]T, n)
	return func() error {
		var wg sync.WaitGroup
		per := (n + threads - 1) / threads
		for lo := 0; lo < n; lo += per {
			hi := min(lo+per, n)
			wg.Go(func() { k.FMA(d[lo:hi], x[lo:hi], y[lo:hi], z[lo:hi]) })
		}
		wg.Wait()
		return nil
	}
}

// newMLPFloor prepares the floor (see gemmFloor) on threads cores: it
// counts the products' FLOPs and Adam's bytes and returns the two runs to
// time, a step's products and one streaming pass (warmed up), whose times
// per step measured gives the floor. The products are the step's: the
// three layers forward, each weight's gradient Xᵀ·G, and the gradients of
// the two hidden activations G·Wᵀ (the batch's needs none).
func newMLPFloor(dt ndarray.DType, threads int) (f *gemmFloor, gemm, stream func() error, err error) {
	f = &gemmFloor{threads: threads}
	arr := func(s ...int) *ndarray.Array { return ndarray.Must(ndarray.Full(dt, 0.01, s...)) }
	type product struct {
		out, a, b *ndarray.Array
		ta, tb    bool
	}
	var ps []product
	for i, l := range layers {
		x, w, g := arr(batch, l[0]), arr(l[0], l[1]), arr(batch, l[1])
		ps = append(ps, product{arr(batch, l[1]), x, w, false, false}, // forward
			product{arr(l[0], l[1]), x, g, true, false}) // the weight's gradient
		f.flops += 2 * 2 * batch * float64(l[0]*l[1])
		if i > 0 {
			ps = append(ps, product{arr(batch, l[0]), g, w, false, true}) // the input's gradient
			f.flops += 2 * batch * float64(l[0]*l[1])
		}
	}
	gemm = func() error {
		for _, p := range ps {
			if err := ndarray.MatMulInto(p.out, p.a, p.b, p.ta, p.tb); err != nil {
				return err
			}
		}
		return nil
	}
	if err := warmUp(3, gemm); err != nil {
		return nil, nil, nil, err
	}
	params := 0
	for _, l := range layers {
		params += l[0]*l[1] + l[1]
	}
	f.bytes = 7 * float64(params*dt.Size())
	switch dt {
	case ndarray.Float32:
		stream = fmaStream(kernels.F32, params, threads)
	default:
		stream = fmaStream(kernels.F64, params, threads)
	}
	if err := warmUp(3, stream); err != nil {
		return nil, nil, nil, err
	}
	return f, gemm, stream, nil
}

// measured completes the floor from the time per step of its products and
// of one streaming pass.
func (f *gemmFloor) measured(gemm, stream time.Duration) {
	f.gemm = gemm
	f.bandwidth = 4 * f.bytes / 7 / stream.Seconds()
	f.adamTraffic = time.Duration(f.bytes / f.bandwidth * float64(time.Second))
}

// mlpArrays returns the batch and g's initial parameters by the names
// torch_peer.py reads.
func mlpArrays(dt ndarray.DType, g *graph.Graph) (map[string]*ndarray.Array, error) {
	x, y := mlpData(dt)
	m := map[string]*ndarray.Array{"x": x, "y": y}
	for i := range layers {
		for _, n := range []string{fmt.Sprintf("w%d", i), fmt.Sprintf("b%d", i)} {
			v, ok := g.Variable(n)
			if !ok {
				return nil, fmt.Errorf("mlp: sdgo's graph has no %q", n)
			}
			c, err := ndarray.Copy(v.Value())
			if err != nil {
				return nil, err
			}
			m[n] = c
		}
	}
	return m, nil
}

// mlpLongRun checks that the heap does not grow over long steps.
func mlpLongRun(dt ndarray.DType, long int) (string, error) {
	tr, b, err := sdgoMLP(dt)
	if err != nil {
		return "", err
	}
	step := func() error { _, err := tr.Step(b); return err }
	for i := 0; i < 100; i++ {
		if err := step(); err != nil {
			return "", err
		}
	}
	h100 := liveHeap()
	runtime.KeepAlive(tr)
	for i := 100; i < long; i++ {
		if err := step(); err != nil {
			return "", err
		}
	}
	h1000 := liveHeap()
	runtime.KeepAlive(tr) // the heap measured must include the model
	return fmt.Sprintf("live heap after 100 steps %s, after %d steps %s (growth %+.1f KiB)\n", mib(h100), long, mib(h1000), float64(h1000-h100)/1024), nil
}

// sameLoss checks sdgo's loss against gorgonia's on the same parameters and
// batch, to the precision of dt's arithmetic.
func sameLoss(dt ndarray.DType, sdgo float64, v G.Value) error {
	var peer float64
	switch x := v.(type) {
	case *G.F32:
		peer = float64(*x)
	case *G.F64:
		peer = float64(*x)
	default:
		return fmt.Errorf("mlp-%v: gorgonia's loss is %T, not a scalar", dt, v)
	}
	return closeLoss(dt, "gorgonia", sdgo, peer)
}

// closeLoss checks sdgo's first loss against a peer's, to the precision
// of dt's arithmetic.
func closeLoss(dt ndarray.DType, name string, sdgo, peer float64) error {
	tol := 1e-5
	if dt == ndarray.Float64 {
		tol = 1e-10
	}
	if math.IsNaN(sdgo) || math.IsInf(sdgo, 0) || math.Abs(sdgo-peer) > tol*math.Max(1, math.Abs(peer)) {
		return fmt.Errorf("mlp-%v: the first step's loss is %v in sdgo and %v in %s, from the same parameters", dt, sdgo, peer, name)
	}
	return nil
}
