package layers

import (
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/weightinit"
)

// RecurrentConfig holds the options of the LSTM and GRU layers.
type RecurrentConfig struct {
	// Units is the size of the output and of the state; required.
	Units int
	// BatchFirst says x is [batch, time, features] and so is the output.
	// Default false: [time, batch, features].
	BatchFirst bool
	// Init draws the input weights name/Wx [features, gates·Units].
	// Default weightinit.Xavier.
	Init weightinit.Initializer
	// RecurrentInit draws the recurrent weights name/Wr
	// [Units, gates·Units]. Default weightinit.Orthogonal{Gain: 1}, which
	// keeps the recurrence from growing or shrinking the state at first.
	RecurrentInit weightinit.Initializer
	// BiasInit draws the biases name/b [gates·Units]. Default zeros.
	BiasInit weightinit.Initializer
}

// LSTMOutputs are an LSTM layer's outputs: H every step's output, laid out
// as x is, and HLast and CLast the last step's output and cell state
// [batch, Units].
type LSTMOutputs struct {
	H, HLast, CLast *graph.Variable
}

// recurrent checks x and adds the weights of a layer of the given gates.
func (b *Builder) recurrent(l *layer, x *graph.Variable, gates int, cfg RecurrentConfig) (wx, wr, bias, bad *graph.Variable) {
	layout := "[time, batch, features]"
	if cfg.BatchFirst {
		layout = "[batch, time, features]"
	}
	if bad := l.input(x, layout, 3); bad != nil {
		return nil, nil, nil, bad
	}
	in, bad := l.known(x, 2, "number of features")
	if bad != nil {
		return nil, nil, nil, bad
	}
	if cfg.Units <= 0 {
		return nil, nil, nil, l.fail("Units is %d; it must be at least 1", cfg.Units)
	}
	u := cfg.Units
	wx = l.dense("Wx", cfg.Init, weightinit.Xavier, in, gates*u)
	wr = l.dense("Wr", cfg.RecurrentInit, weightinit.Orthogonal{Gain: 1}, u, gates*u)
	bias = l.bias("b", cfg.BiasInit, gates*u)
	return wx, wr, bias, firstErr(wx, wr, bias)
}

// LSTM runs a long short-term memory layer over the sequence x from zero
// state (op lstmLayer), with the gates in the column blocks input, forget,
// cell, output of name/Wx, name/Wr and name/b:
// i, f, o = σ(x·Wx + h·Wr + b), g = tanh(x·Wx + h·Wr + b),
// c = f∘c + i∘g, h = o∘tanh(c).
func (b *Builder) LSTM(name string, x *graph.Variable, cfg RecurrentConfig) LSTMOutputs {
	l := b.layer("LSTM", name)
	wx, wr, bias, bad := b.recurrent(l, x, 4, cfg)
	if bad != nil {
		return LSTMOutputs{bad, bad, bad}
	}
	f := graph.LSTMTimeBatch
	if cfg.BatchFirst {
		f = graph.LSTMBatchTime
	}
	o := b.g.RNN().LSTMLayer(x, graph.LSTMLayerWeights{Wx: wx, Wr: wr, B: bias}, graph.LSTMLayerState{},
		graph.LSTMLayerConfig{DataFormat: f, ReturnSequence: true, ReturnLastH: true, ReturnLastC: true})
	return LSTMOutputs{o.H, o.HLast, o.CLast}
}

// GRU runs a gated recurrent unit layer over the sequence x from a zero
// output and returns every step's output, laid out as x is (op gru), with
// the gates in the column blocks reset, update, cell of name/Wx, name/Wr
// and name/b: r, u = σ(x·Wx + h·Wr + b), c = tanh(x·Wx + b + r∘(h·Wr)),
// h = u∘h + (1 - u)∘c (PyTorch's GRU with its hidden cell bias at zero).
func (b *Builder) GRU(name string, x *graph.Variable, cfg RecurrentConfig) *graph.Variable {
	l := b.layer("GRU", name)
	wx, wr, bias, bad := b.recurrent(l, x, 3, cfg)
	if bad != nil {
		return bad
	}
	if cfg.BatchFirst {
		x = x.Permute(1, 0, 2)
	}
	h0 := b.zeroState(x, cfg.Units)
	h := b.g.RNN().GRU(x, h0, graph.GRUSequenceWeights{Wx: wx, Wh: wr, B: bias})
	if cfg.BatchFirst {
		h = h.Permute(1, 0, 2)
	}
	return h
}

// zeroState returns zeros [batch, units] for x [time, batch, features]: a
// constant when the batch is known, else filled to the run's batch.
func (b *Builder) zeroState(x *graph.Variable, units int) *graph.Variable {
	if n := x.Shape()[1]; n >= 0 {
		return b.g.Const("", ndarray.Must(ndarray.Zeros(x.DType(), n, units)))
	}
	batch := b.g.Gather(b.g.ShapeOf(x), b.g.Const("", ndarray.Must(ndarray.FromSlice([]int64{1}, 1))), 0)
	shape := b.g.Concat(0, batch, b.g.Const("", ndarray.Must(ndarray.FromSlice([]int64{int64(units)}, 1))))
	return b.g.Fill(shape, x.DType(), 0)
}
