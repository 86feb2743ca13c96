package graph

import (
	"fmt"

	"github.com/sdgo/sdgo/ops"
)

// Builder methods of SameDiff's recurrent ops (ops/rnn.go, ops/rnn_cell.go,
// ops/rnn_sru.go, ops/rnn_block.go).

// RNN groups the recurrent-network functions: g.RNN().GRUCell(...).
func (g *Graph) RNN() RNN { return RNN{g} }

// RNN is the namespace of recurrent-network functions (SameDiff's SDRNN).
type RNN struct{ g *Graph }

// GRUWeights are a GRU cell's parameters, in libnd4j's layout: W
// [nIn+nOut, 2·nOut] (reset then update gate columns; the rows of the
// input then those of the previous output), Wc [nIn+nOut, nOut] (cell
// gate), B [2·nOut] and Bc [nOut].
type GRUWeights struct {
	W, Wc, B, Bc *Variable
}

// GRUCellOutputs are a GRU step's outputs, each [batch, nOut]: the reset
// gate R, the update gate U, the cell gate C and the output H.
type GRUCellOutputs struct {
	R, U, C, H *Variable
}

// GRUCell is one GRU step for x [batch, nIn] and the previous output
// hLast [batch, nOut] (op gruCell): r, u = σ([x, hLast]·W + B),
// c = tanh([x, r∘hLast]·Wc + Bc), h = u∘hLast + (1 - u)∘c.
func (r RNN) GRUCell(x, hLast *Variable, w GRUWeights) GRUCellOutputs {
	in := []*Variable{x, hLast, w.W, w.Wc, w.B, w.Bc}
	for _, v := range in {
		if v != nil && v.err != nil {
			return GRUCellOutputs{v, v, v, v}
		}
	}
	outs, err := r.g.Op("gruCell", ops.Args{}, in...)
	if err != nil {
		f := r.g.fail(err)
		return GRUCellOutputs{f, f, f, f}
	}
	return GRUCellOutputs{outs[0], outs[1], outs[2], outs[3]}
}

// LSTMWeights are an LSTM cell's parameters, in libnd4j's layout: W
// [nIn+nOut, 4·nOut] (gate columns input i, block input z, forget f,
// output o; the rows of the input then those of the previous output), the
// peephole weights Wci, Wcf, Wco [nOut] (read only with
// LSTMCellConfig.Peephole, but always given) and B [4·nOut].
type LSTMWeights struct {
	W, Wci, Wcf, Wco, B *Variable
}

// LSTMCellConfig holds lstmBlockCell's options.
type LSTMCellConfig struct {
	// Peephole adds the previous cell state to the input and forget
	// gates (through Wci, Wcf) and the new one to the output gate
	// (through Wco). Default false.
	Peephole bool
	// ForgetBias is added to the forget gate's pre-activation. Default 0.
	ForgetBias float64
	// CellClip clips the cell state to ±CellClip. Default 0: no clipping.
	CellClip float64
}

// LSTMCellOutputs are an LSTM step's outputs, each [batch, nOut]: the
// input gate I, the cell state C, the forget gate F, the output gate O,
// the block input Z, H = tanh(C) and the output Y = O∘H.
type LSTMCellOutputs struct {
	I, C, F, O, Z, H, Y *Variable
}

// LSTMCell is one LSTM step (op lstmBlockCell, SameDiff's SDRNN.lstmCell)
// for xt [batch, nIn], the previous cell state cLast and output yLast
// [batch, nOut].
func (r RNN) LSTMCell(xt, cLast, yLast *Variable, w LSTMWeights, cfg LSTMCellConfig) LSTMCellOutputs {
	in := []*Variable{xt, cLast, yLast, w.W, w.Wci, w.Wcf, w.Wco, w.B}
	all := func(v *Variable) LSTMCellOutputs { return LSTMCellOutputs{v, v, v, v, v, v, v} }
	for _, v := range in {
		if v != nil && v.err != nil {
			return all(v)
		}
	}
	args := ops.Args{I: []int64{b2i(cfg.Peephole)}, F: []float64{cfg.ForgetBias, cfg.CellClip}}
	outs, err := r.g.Op("lstmBlockCell", args, in...)
	if err != nil {
		return all(r.g.fail(err))
	}
	return LSTMCellOutputs{outs[0], outs[1], outs[2], outs[3], outs[4], outs[5], outs[6]}
}

// SRUCell is one SRU step (op sruCell) for xt [batch, inSize] and the
// previous cell state ct1 [batch, inSize], with w [inSize, 3·inSize]
// (column blocks: candidate, forget gate, reset gate) and b [2·inSize]
// (forget then reset biases). It returns the output h and the cell state
// c, both [batch, inSize].
func (r RNN) SRUCell(xt, ct1, w, b *Variable) (h, c *Variable) {
	return r.g.twoOutputs("sruCell", ops.Args{}, xt, ct1, w, b)
}

// GRUSequenceWeights are the parameters of the whole-sequence GRU (op
// gru): Wx [nIn, 3·nOut] and Wh [nOut, 3·nOut] with gate column blocks
// reset, update, cell, and B [3·nOut].
type GRUSequenceWeights struct {
	Wx, Wh, B *Variable
}

// GRU runs a GRU over x [time, batch, nIn] from the initial output hI
// [batch, nOut] and returns every step's output [time, batch, nOut] (op
// gru). Per step: r, u = σ(x·Wx + B + hPrev·Wh) over their blocks,
// c = tanh(x·Wx_c + B_c + r∘(hPrev·Wh_c)), h = u∘hPrev + (1 - u)∘c.
// Its gradient is libnd4j's gru_bp: backpropagation through time in one op.
func (r RNN) GRU(x, hI *Variable, w GRUSequenceWeights) *Variable {
	return r.g.Apply("gru", ops.Args{}, x, hI, w.Wx, w.Wh, w.B)
}

// LSTMBlockFormat is the layout of lstmBlock's input and outputs
// (libnd4j's RnnDataFormat, lstmBlock's int arg 1).
type LSTMBlockFormat int

const (
	// LSTMBlockTNS is [time, batch, size], the default.
	LSTMBlockTNS LSTMBlockFormat = iota
	// LSTMBlockNST is [batch, size, time].
	LSTMBlockNST
	// LSTMBlockNTS is [batch, time, size] (TensorFlow's time_major=false).
	LSTMBlockNTS
)

// LSTMBlockConfig holds lstmBlock's options.
type LSTMBlockConfig struct {
	// LSTMCellConfig holds the step's options: Peephole (default false),
	// ForgetBias (default 0), CellClip (default 0: no clipping).
	LSTMCellConfig
	// DataFormat is the layout of x and of the outputs. Default
	// LSTMBlockTNS.
	DataFormat LSTMBlockFormat
	// MaxTSLength is a scalar: the number of steps run, from 0 to x's
	// length; later steps' outputs are zero. Default nil: every step (x's
	// length along its time axis, read when the graph runs).
	MaxTSLength *Variable
}

// LSTMBlock runs lstmBlockCell's step (see LSTMCell) over the sequence x
// (op lstmBlock, SameDiff's SDRNN.lstmblock) from the initial cell state
// cLast and output yLast [batch, nOut]. x is [time, batch, nIn] or as
// cfg.DataFormat says; each output holds every step's value of that
// output, in x's layout with nOut for nIn. Its gradient is
// backpropagation through time in one op (lstmBlock_bp).
func (r RNN) LSTMBlock(x, cLast, yLast *Variable, w LSTMWeights, cfg LSTMBlockConfig) LSTMCellOutputs {
	all := func(v *Variable) LSTMCellOutputs { return LSTMCellOutputs{v, v, v, v, v, v, v} }
	for _, v := range []*Variable{x, cLast, yLast, w.W, w.Wci, w.Wcf, w.Wco, w.B, cfg.MaxTSLength} {
		if v != nil && v.err != nil {
			return all(v)
		}
	}
	if cfg.DataFormat < LSTMBlockTNS || cfg.DataFormat > LSTMBlockNTS {
		return all(r.g.fail(fmt.Errorf("lstmBlock: data format %d; want LSTMBlockTNS, LSTMBlockNST or LSTMBlockNTS", cfg.DataFormat)))
	}
	steps := cfg.MaxTSLength
	if steps == nil {
		steps = r.g.Apply("size_at", ops.Args{I: []int64{[3]int64{0, 2, 1}[cfg.DataFormat]}}, x)
		if steps.err != nil {
			return all(steps)
		}
	}
	args := ops.Args{I: []int64{b2i(cfg.Peephole), int64(cfg.DataFormat)}, F: []float64{cfg.ForgetBias, cfg.CellClip}}
	outs, err := r.g.Op("lstmBlock", args, steps, x, cLast, yLast, w.W, w.Wci, w.Wcf, w.Wco, w.B)
	if err != nil {
		return all(r.g.fail(err))
	}
	return LSTMCellOutputs{outs[0], outs[1], outs[2], outs[3], outs[4], outs[5], outs[6]}
}

// SRUWeights are the whole-sequence SRU's parameters (SameDiff's
// SRUWeights): W [3K, K] (row blocks: candidate, forget gate, reset gate)
// and B [2K] (forget then reset biases).
type SRUWeights struct {
	W, B *Variable
}

// SRUConfig holds sru's options.
type SRUConfig struct {
	// Mask [batch, K] multiplies x at every step (a dropout mask).
	// Default nil: no mask.
	Mask *Variable
}

// SRU runs the simple recurrent unit over x [batch, K, time] from the
// initial cell state c0 [batch, K] (op sru) and returns every step's
// output h and cell state c, both [batch, K, time]. Per step, with x_t
// masked: z = x_t·Wᵀ, f = σ(z_f + B_f), r = σ(z_r + B_r),
// c_t = f∘c_{t-1} + (1 - f)∘z_c, h_t = r∘tanh(c_t) + (1 - r)∘x_t. Its
// gradient is backpropagation through time in one op (sru_bp).
func (r RNN) SRU(x, c0 *Variable, w SRUWeights, cfg SRUConfig) (h, c *Variable) {
	in := []*Variable{x, w.W, w.B, c0}
	if cfg.Mask != nil {
		in = append(in, cfg.Mask)
	}
	return r.g.twoOutputs("sru", ops.Args{}, in...)
}

// SRUBidirectional runs libnd4j's bidirectional SRU (op sru_bi) over x
// [time, batch, 2K] (time first, unlike SRU) from c0 [batch, 2K], with
// w.W [2K, 6K] and w.B [4K] (forget, then reset biases), and returns every
// step's h and c, both [time, batch, 2K]. Features 0..K-1 run forwards in
// time, K..2K-1 backwards. The gates of feature d are columns 3d (the
// candidate), 3d+1 (forget) and 3d+2 (reset) of x·W. cfg.Mask [batch, 2K]
// multiplies x and, as in libnd4j, tanh(c) in h. Its gradient is one op,
// sru_bi_bp.
func (r RNN) SRUBidirectional(x, c0 *Variable, w SRUWeights, cfg SRUConfig) (h, c *Variable) {
	in := []*Variable{x, w.W, w.B, c0}
	if cfg.Mask != nil {
		in = append(in, cfg.Mask)
	}
	return r.g.twoOutputs("sru_bi", ops.Args{}, in...)
}
