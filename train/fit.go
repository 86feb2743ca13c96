package train

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/sdgo/sdgo/autodiff"
	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// Trainer trains one graph with one configuration.
//
// To keep a step free of parameter-sized allocations, Step updates each
// trainable VARIABLE's array in place (the one exception to sdgo's
// immutable values). An array obtained earlier from Variable.Value is that
// same array and changes with training: copy it (ndarray.Copy) to keep a
// snapshot. Outputs of a session run (the variable itself, or a view of it)
// are copies and keep their values. Do not run the graph on other
// goroutines during Step. The variables it uses may be renamed
// (graph.Graph.Rename) between steps: it holds the variables, not their
// names, and the configuration it keeps in the graph names them as they
// are named then.
type Trainer struct {
	g        *graph.Graph
	cfg      *Config
	s        *exec.Session
	features []*graph.Variable
	labels   []*graph.Variable
	losses   []*graph.Variable
	params   []*graph.Variable
	grads    []*graph.Variable
	outputs  []string
	state    [][]*ndarray.Array // per param, per updater state key
	feeds    map[string]*ndarray.Array
	// scratch holds, per param, a private packed copy of its gradient, for
	// gradients that come unpacked or shared (see Step); kept between steps.
	scratch []*ndarray.Array
	// coeffs holds the step's regularization coefficients (see rates).
	coeffs []float64
	// gradBuf and names hold the step's gradients and the parameters'
	// names, kept between steps.
	gradBuf []*ndarray.Array
	names   []string
	// pass and arrays are the step's update of all parameters and its
	// arguments, kept between steps.
	pass   updatePass
	arrays []*ndarray.Array
	// val and stop are what SetValidation and SetEarlyStopping set.
	val  *Validation
	stop *EarlyStopping
}

// History is what Fit returns: the loss of every step and the mean loss of
// every epoch, and with validation data (SetValidation) the validation
// loss of every epoch and its metric's figure, named by Metric.
type History struct {
	Loss      []float64
	EpochLoss []float64
	ValLoss   []float64
	ValMetric []float64
	Metric    string
}

// New prepares to train g: it checks the configuration against the graph,
// builds the gradients of the loss with respect to the trainable variables
// (once), and takes ownership of those variables' arrays (it copies them, so
// arrays the caller still holds are never changed). Updater state the graph
// carries (loaded with it, or left by an earlier trainer) is taken up when
// the graph's configuration names an updater of the same kind (Adam and
// AdamW are one kind, momentum and Nesterovs another); otherwise the state
// starts at zero.
func New(g *graph.Graph, cfg *Config) (*Trainer, error) {
	if cfg == nil {
		// Unlike the options of Save or CheckGradients, a configuration
		// has no defaults: the updater and the feature placeholders are
		// the caller's (or the file's: ConfigOf).
		return nil, fmt.Errorf("train: no configuration (a graph file's is train.ConfigOf(g))")
	}
	if err := cfg.check(); err != nil {
		return nil, err
	}
	t := &Trainer{g: g, cfg: cfg, s: exec.New(g), feeds: map[string]*ndarray.Array{}}
	var err error
	if t.features, err = placeholders(g, "feature", cfg.Features); err != nil {
		return nil, withBuildErr(g, err)
	}
	if t.labels, err = placeholders(g, "label", cfg.Labels); err != nil {
		return nil, withBuildErr(g, err)
	}
	if len(cfg.Losses) > 0 {
		if err := g.SetLoss(cfg.Losses...); err != nil {
			return nil, withBuildErr(g, fmt.Errorf("train: %w", err))
		}
	}
	for _, n := range g.Losses() {
		v, _ := g.Variable(n)
		t.losses = append(t.losses, v)
	}
	if len(t.losses) == 0 {
		return nil, withBuildErr(g, fmt.Errorf("train: no loss variables: name them in the configuration or with Graph.SetLoss"))
	}
	if len(cfg.Trainable) > 0 {
		for _, n := range cfg.Trainable {
			v, ok := g.Variable(n)
			if !ok || v.Type() != graph.VARIABLE {
				return nil, withBuildErr(g, fmt.Errorf("train: trainable %q is not a VARIABLE of the graph", n))
			}
			t.params = append(t.params, v)
		}
	} else {
		for _, v := range g.VariablesOf(graph.VARIABLE) {
			if v.DType().IsFloat() {
				t.params = append(t.params, v)
			}
		}
	}
	if len(t.params) == 0 {
		return nil, fmt.Errorf("train: the graph has no trainable variables")
	}
	if t.grads, err = autodiff.Gradients(g, t.params...); err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	for _, l := range t.losses {
		t.outputs = append(t.outputs, l.Name())
	}
	for _, gv := range t.grads {
		t.outputs = append(t.outputs, gv.Name())
	}
	saved, _ := g.GetMeta(graph.MetaUpdaterState)
	savedState, _ := saved.(map[string]map[string]*ndarray.Array)
	if kind, ok := savedUpdaterKind(g); ok && kind != updaterKind(cfg.Updater) {
		// The state is the updater's the graph's configuration names; the
		// keys do not tell the kinds apart (Adam's second moments and
		// Nesterov's velocity are both "V"), so another kind starts afresh.
		savedState = nil
	}
	t.state = make([][]*ndarray.Array, len(t.params))
	for i, p := range t.params {
		own, err := ndarray.Copy(p.Value())
		if err == nil {
			err = p.SetValue(own)
		}
		if err != nil {
			return nil, fmt.Errorf("train: variable %q: %w", p.Name(), err)
		}
		for _, k := range cfg.Updater.StateKeys() {
			var st *ndarray.Array
			if a := savedState[p.Name()][k]; a != nil && ndarray.SameShape(a.Shape(), own.Shape()) && a.DType() == own.DType() {
				st, err = ndarray.Copy(a)
			} else {
				st, err = ndarray.Zeros(own.DType(), own.Shape()...)
			}
			if err != nil {
				return nil, fmt.Errorf("train: updater state %q of variable %q: %w", k, p.Name(), err)
			}
			t.state[i] = append(t.state[i], st)
		}
	}
	if savedState == nil { // none, or another kind's: none kept
		savedState = map[string]map[string]*ndarray.Array{}
	}
	return t, t.saveMeta(savedState)
}

// withBuildErr adds g's build error, if it has one, to err, which says
// that a named variable does not exist: a chainable call that failed
// (Named included) leaves its variable out of the graph, and the build
// error says why (as exec's "no variable named" does).
func withBuildErr(g *graph.Graph, err error) error {
	if berr := g.Err(); berr != nil && !errors.Is(err, berr) {
		return fmt.Errorf("%w (the graph has a build error: %w)", err, berr)
	}
	return err
}

func placeholders(g *graph.Graph, what string, names []string) ([]*graph.Variable, error) {
	out := make([]*graph.Variable, len(names))
	for i, n := range names {
		v, ok := g.Variable(n)
		if !ok || v.Type() != graph.PLACEHOLDER {
			return nil, fmt.Errorf("train: %s placeholder %q is not a placeholder of the graph", what, n)
		}
		out[i] = v
	}
	return out, nil
}

// Session returns the session the trainer runs the graph with; op-level
// listeners (exec.Listener) can be added to it.
func (t *Trainer) Session() *exec.Session { return t.s }

// Config returns the configuration, whose counters Fit advances.
func (t *Trainer) Config() *Config { return t.cfg }

// saveMeta records the configuration and the updater state in the graph, so
// that saving the graph keeps them. others holds the state kept for
// variables not trained here (nil: what the graph carries now).
func (t *Trainer) saveMeta(others map[string]map[string]*ndarray.Array) error {
	if _, err := json.Marshal(t.cfg); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	t.g.SetMeta(graph.MetaTrainingConfig, liveConfig{t})
	st := map[string]map[string]*ndarray.Array{}
	// The state the graph carries for variables not trained here (its
	// configuration names fewer) is kept for a later trainer: replaced by
	// this trainer's, a save would lose it. Rename keeps its names current.
	if others == nil {
		v, _ := t.g.GetMeta(graph.MetaUpdaterState)
		others, _ = v.(map[string]map[string]*ndarray.Array)
	}
	for name, m := range others {
		st[name] = m
	}
	for i, p := range t.params {
		m := map[string]*ndarray.Array{}
		for j, k := range t.cfg.Updater.StateKeys() {
			m[k] = t.state[i][j]
		}
		st[p.Name()] = m
	}
	t.g.SetMeta(graph.MetaUpdaterState, st)
	return nil
}

// liveConfig is the trainer's configuration in the graph's meta. The
// updater state there is the trainer's own arrays, current after every
// step; the configuration is marshalled when read (a save, ConfigOf), so a
// graph saved between steps (by the caller after Step, or by a listener
// during Fit) carries the counters that go with that state, without a
// marshal in every step. It names the variables the trainer uses by the
// names they have then: a variable renamed since New (graph.Graph.Rename)
// is named by its new name, which a trainer made from it finds.
type liveConfig struct{ t *Trainer }

func (l liveConfig) MarshalJSON() ([]byte, error) {
	t := l.t
	c := *t.cfg
	c.Features, c.Labels = names(c.Features, t.features), names(c.Labels, t.labels)
	c.Losses = names(c.Losses, t.losses)       // New set the graph's losses from them
	c.Trainable = names(c.Trainable, t.params) // and took the parameters from them
	return json.Marshal(&c)
}

// names returns the current names of vs, the variables New found by the
// names listed (an empty list stays as it is: it means the defaults).
func names(listed []string, vs []*graph.Variable) []string {
	if len(listed) == 0 {
		return listed
	}
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Name()
	}
	return out
}

func (t *Trainer) feed(b *Batch) error {
	if err := t.checkBatch(b); err != nil {
		return err
	}
	// By the names the variables have now: one may have been renamed
	// (graph.Graph.Rename) since the last step, and a feed or an output
	// under its old name would name nothing.
	clear(t.feeds)
	for i, v := range t.features {
		t.feeds[v.Name()] = b.Features[i]
	}
	for i, v := range t.labels {
		t.feeds[v.Name()] = b.Labels[i]
	}
	for i, v := range t.losses {
		t.outputs[i] = v.Name()
	}
	for i, v := range t.grads {
		t.outputs[len(t.losses)+i] = v.Name()
	}
	return nil
}

// Step runs one training step on a batch and returns its loss. When the loss
// is NaN or infinite, or a schedule gives a learning rate or regularization
// coefficient that is NaN, infinite or negative, it returns an error and
// changes nothing.
func (t *Trainer) Step(b *Batch) (float64, error) {
	if err := t.feed(b); err != nil {
		return 0, err
	}
	it, ep := t.cfg.IterationCount, t.cfg.EpochCount
	lr, err := t.rates(it, ep)
	if err != nil {
		return 0, err
	}
	out, err := t.s.Exec(exec.Request{Feeds: t.feeds, Outputs: t.outputs, Recyclable: true})
	if err != nil {
		return 0, err
	}
	loss := 0.0
	for _, l := range t.losses {
		a := out[l.Name()]
		for _, v := range a.Float64s() {
			loss += v
		}
	}
	if math.IsNaN(loss) || math.IsInf(loss, 0) {
		// Its gradients are no better: applying them would overwrite the
		// parameters and the updater state trained so far with NaN.
		for _, n := range t.outputs {
			t.s.Recycle(out[n])
		}
		return loss, fmt.Errorf("train: the loss (the sum of %v) is %v; the step was not applied", t.outputs[:len(t.losses)], loss)
	}
	decay := 0.0
	for j, r := range t.cfg.Regularization {
		decay += r.decay(lr, t.coeffs[j])
	}
	changes := t.changesGradients()
	t.gradBuf = t.gradBuf[:0]
	for i := range t.params {
		grad := out[t.grads[i].Name()]
		// The updaters want packed gradients, and clipping or
		// regularization that changes a gradient must not write into a
		// buffer the run shares with another output (add's gradient hands
		// both operands one array) or with a feed: those go through the
		// trainer's own buffer.
		if !grad.IsPacked() || (changes && !t.s.Exclusive(grad)) {
			if grad, err = t.privateGrad(i, grad); err != nil {
				return 0, err
			}
		}
		t.gradBuf = append(t.gradBuf, grad)
	}
	if t.cfg.Clipping.active() {
		t.names = t.names[:0]
		for _, p := range t.params {
			t.names = append(t.names, p.Name())
		}
		if err := t.cfg.Clipping.apply(t.names, t.gradBuf); err != nil {
			return 0, fmt.Errorf("train: gradient normalization %v: %w", t.cfg.Clipping.Mode, err)
		}
	}
	// Every parameter is checked before any changes: an error leaves the
	// step unapplied rather than half applied.
	t.pass.reset()
	for i, p := range t.params {
		t.arrays = append(append(t.arrays[:0], p.Value(), t.gradBuf[i]), t.state[i]...)
		if err := t.pass.add(t.arrays...); err != nil {
			return 0, fmt.Errorf("train: updating %q: %w", p.Name(), err)
		}
	}
	clear(t.arrays)
	// The regularization reads each parameter as it was before the step
	// and writes only its gradient, so it may all come first.
	for i, p := range t.params {
		for j, r := range t.cfg.Regularization {
			if err := r.beforeUpdate(p.Value(), t.gradBuf[i], t.coeffs[j]); err != nil {
				return 0, err
			}
		}
	}
	t.pass.run(t.cfg.Updater.prepare(lr, decay, it))
	t.pass.reset()
	for _, n := range t.outputs {
		t.s.Recycle(out[n])
	}
	t.cfg.IterationCount++
	return loss, nil
}

// rates reads the step's learning rate, and its regularization
// coefficients into t.coeffs, and checks them: New checks the schedules only
// at iteration 0, and a NaN or infinite value later would make the
// parameters NaN or infinite (the step after would only see its loss go
// NaN), a negative one would climb the loss without a word. Zero is
// allowed: a schedule may anneal to it.
func (t *Trainer) rates(it, ep int) (float64, error) {
	lr := t.cfg.Updater.LearningRate(it, ep)
	if !finiteNonNeg(lr) {
		return 0, fmt.Errorf("train: the %s learning rate at iteration %d (epoch %d) is %v, not a number from 0 up; the step was not applied",
			t.cfg.Updater.Name(), it, ep, lr)
	}
	t.coeffs = t.coeffs[:0]
	for _, r := range t.cfg.Regularization {
		c := r.coeff(it, ep)
		if !finiteNonNeg(c) {
			return 0, fmt.Errorf("train: the %s coefficient at iteration %d (epoch %d) is %v, not a number from 0 up; the step was not applied",
				r.Name(), it, ep, c)
		}
		t.coeffs = append(t.coeffs, c)
	}
	return lr, nil
}

// changesGradients reports whether clipping or a regularization changes
// the gradients.
func (t *Trainer) changesGradients() bool {
	if t.cfg.Clipping.active() {
		return true
	}
	for _, r := range t.cfg.Regularization {
		if r.changesGradient() {
			return true
		}
	}
	return false
}

// privateGrad copies parameter i's gradient into a buffer of the trainer's
// own, kept between steps.
func (t *Trainer) privateGrad(i int, grad *ndarray.Array) (*ndarray.Array, error) {
	if t.scratch == nil {
		t.scratch = make([]*ndarray.Array, len(t.params))
	}
	s := t.scratch[i]
	if s == nil || s.DType() != grad.DType() || !ndarray.SameShape(s.Shape(), grad.Shape()) {
		var err error
		if s, err = ndarray.Zeros(grad.DType(), grad.Shape()...); err != nil {
			return nil, err
		}
		t.scratch[i] = s
	}
	return s, ndarray.CopyInto(s, grad)
}

// Fit trains for a number of epochs over data and returns the loss history.
// Listeners see every step and every epoch; an error from one stops training,
// as does a step whose loss is NaN or infinite (see Step). The events count
// epochs and iterations over the whole training (the configuration's
// counters), not from this call: see IterationEvent.
//
// With validation data (SetValidation) every epoch ends with its
// evaluation, before the listeners see the epoch; with early stopping
// (SetEarlyStopping) Fit may end before epochs, and may put back the best
// epoch's variables when it returns.
func (t *Trainer) Fit(data Iterator, epochs int, listeners ...Listener) (*History, error) {
	if isNilIterator(data) {
		return nil, fmt.Errorf("train: Fit of a nil data iterator")
	}
	h := &History{}
	// The epoch count this call trains to, in the events.
	end := t.cfg.EpochCount + epochs
	batches := -1
	if s, ok := data.(Sized); ok {
		batches = s.Batches()
	}
	if err := t.startFit(); err != nil {
		return nil, err
	}
	defer t.saveMeta(nil)
	for e := 0; e < epochs; e++ {
		data.Reset()
		start := time.Now()
		sum, n, examples := 0.0, 0, 0
		for {
			b, ok := data.Next()
			if !ok {
				break
			}
			loss, err := t.Step(b)
			if err != nil {
				return h, fmt.Errorf("train: epoch %d, batch %d: %w", t.cfg.EpochCount, n, err)
			}
			h.Loss = append(h.Loss, loss)
			sum += loss
			examples += examplesOf(b)
			ev := &IterationEvent{Iteration: t.cfg.IterationCount - 1, Epoch: t.cfg.EpochCount, Epochs: end, Batch: n, Batches: batches,
				Loss: loss, Examples: examples, Elapsed: time.Since(start)}
			for _, l := range listeners {
				if err := l.IterationDone(ev); err != nil {
					return h, err
				}
			}
			n++
		}
		if n == 0 {
			return h, fmt.Errorf("train: the data iterator gave no batches")
		}
		mean := sum / float64(n)
		h.EpochLoss = append(h.EpochLoss, mean)
		ev := &EpochEvent{Epoch: t.cfg.EpochCount, Epochs: end, Loss: mean, Iterations: n, Examples: examples, Elapsed: time.Since(start)}
		if err := t.validateEpoch(h, ev); err != nil {
			return h, err
		}
		t.cfg.EpochCount++
		stop, err := t.watch(ev)
		if err != nil {
			return h, err
		}
		for _, l := range listeners {
			if err := l.EpochDone(ev); err != nil {
				return h, err
			}
		}
		if stop {
			break
		}
	}
	return h, t.endFit()
}

// isNilIterator reports a nil iterator, including a nil *ArrayIterator
// (what NewArrayIterator returns with its error, when the error is
// ignored), whose methods would dereference it.
func isNilIterator(data Iterator) bool {
	a, ok := data.(*ArrayIterator)
	return data == nil || ok && a == nil
}

// Evaluation counts a classifier's correct predictions.
type Evaluation struct {
	Correct, Total int
	// Confusion[i][j] counts examples of class i predicted as j.
	Confusion [][]int
}

// Accuracy is the fraction of examples classified correctly.
func (e *Evaluation) Accuracy() float64 {
	if e.Total == 0 {
		return 0
	}
	return float64(e.Correct) / float64(e.Total)
}

// Evaluate runs the graph over data and compares the class the named output
// predicts (its largest element along the last axis) with the first labels
// array (one-hot along the last axis, or integer class indices). It starts
// data over with Rewind when data is a Rewinder (an ArrayIterator is), so
// evaluating on the training iterator does not use up one of its shuffles;
// otherwise with Reset.
func (t *Trainer) Evaluate(data Iterator, output string) (*Evaluation, error) {
	return Evaluate(t.s, data, names(t.cfg.Features, t.features), output) // their names now
}

// Evaluate is Trainer.Evaluate for any session: features names the
// placeholders fed from each batch's features.
func Evaluate(s *exec.Session, data Iterator, features []string, output string) (*Evaluation, error) {
	if isNilIterator(data) {
		return nil, fmt.Errorf("train: Evaluate of a nil data iterator")
	}
	ev := &Evaluation{}
	if r, ok := data.(Rewinder); ok {
		// The order does not change the counts; a Reset would draw the
		// next training epoch's shuffle.
		r.Rewind()
	} else {
		data.Reset()
	}
	feeds := map[string]*ndarray.Array{}
	for {
		b, ok := data.Next()
		if !ok {
			break
		}
		if len(b.Labels) == 0 {
			return nil, fmt.Errorf("train: evaluation needs labels")
		}
		if len(b.Features) < len(features) {
			return nil, fmt.Errorf("train: a batch has %d feature arrays; evaluation feeds %d placeholders %v", len(b.Features), len(features), features)
		}
		for i, n := range features {
			feeds[n] = b.Features[i]
		}
		out, err := s.Output(feeds, output)
		if err != nil {
			return nil, err
		}
		pred, err := ndarray.ArgMax(out[output], -1, false)
		if err != nil {
			return nil, err
		}
		lab := b.Labels[0]
		var truth []int64
		if lab.DType().IsFloat() {
			a, err := ndarray.ArgMax(lab, -1, false)
			if err != nil {
				return nil, err
			}
			truth = a.Int64s()
		} else {
			truth = lab.Int64s()
		}
		p := pred.Int64s()
		if len(p) != len(truth) {
			return nil, fmt.Errorf("train: output %q of shape %v gives %d predictions for %d labels of shape %v",
				output, out[output].Shape(), len(p), len(truth), lab.Shape())
		}
		k := 1
		if s := out[output].Shape(); len(s) > 0 {
			k = s[len(s)-1]
		}
		if ev.Confusion != nil && len(ev.Confusion) != k {
			// The matrix's rows were made k wide for the first batch.
			return nil, fmt.Errorf("train: output %q gives %d classes, %d in earlier batches", output, k, len(ev.Confusion))
		}
		for len(ev.Confusion) < k {
			ev.Confusion = append(ev.Confusion, make([]int, k))
		}
		for i := range p {
			ev.Total++
			if p[i] == truth[i] {
				ev.Correct++
			}
			if truth[i] >= 0 && int(truth[i]) < k {
				ev.Confusion[truth[i]][p[i]]++
			}
		}
	}
	return ev, nil
}
