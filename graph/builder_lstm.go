package graph

import (
	"fmt"

	"github.com/sdgo/sdgo/ops"
)

// Builder of SameDiff's lstmLayer (ops/rnn_lstm.go).

// LSTMDataFormat is the layout of lstmLayer's input x and output h
// (libnd4j's dataFormat; SameDiff's LSTMDataFormat).
type LSTMDataFormat int

const (
	// LSTMTimeBatch (TNS): x [time, batch, nIn], h [time, batch, nOut].
	LSTMTimeBatch LSTMDataFormat = 0
	// LSTMBatchTime (NTS): x [batch, time, nIn], h [batch, time, nOut].
	LSTMBatchTime LSTMDataFormat = 1
	// LSTMBatchFeatureTime (NST): x [batch, nIn, time], h [batch, nOut, time].
	LSTMBatchFeatureTime LSTMDataFormat = 2
	// LSTMTimeDirBatch (T2NS): x [time, batch, nIn], h
	// [time, 2, batch, nOut]; only with LSTMBidirectionalExtraDim (ONNX's
	// layout).
	LSTMTimeDirBatch LSTMDataFormat = 3
)

// LSTMDirection is how lstmLayer runs over time (libnd4j's directionMode).
type LSTMDirection int

const (
	// LSTMForward runs from the first step to the last.
	LSTMForward LSTMDirection = 0
	// LSTMBackward runs from the last step to the first (with sequence
	// lengths, over each row's last steps, as libnd4j does).
	LSTMBackward LSTMDirection = 1
	// LSTMBidirectionalSum runs both ways and adds the outputs.
	LSTMBidirectionalSum LSTMDirection = 2
	// LSTMBidirectionalConcat runs both ways and concatenates the
	// outputs along the feature axis (forward first): 2·nOut features.
	LSTMBidirectionalConcat LSTMDirection = 3
	// LSTMBidirectionalExtraDim runs both ways and stacks the outputs on
	// an axis of 2: h [time, 2, batch, nOut] (with LSTMTimeDirBatch or
	// LSTMTimeBatch).
	LSTMBidirectionalExtraDim LSTMDirection = 4
)

// LSTMActKind names one of lstmLayer's activations.
type LSTMActKind int

// The activations, one above libnd4j's codes so that the zero value means
// the default.
const (
	LSTMActDefault      LSTMActKind = iota // the slot's default: sigmoid for the gates, tanh otherwise
	LSTMTanh                               // tanh
	LSTMRelu                               // max(x, 0)
	LSTMSigmoid                            // 1/(1+e^-x)
	LSTMAffine                             // Alpha·x + Beta
	LSTMLeakyRelu                          // x > 0 ? x : Alpha·x
	LSTMThresholdedRelu                    // x > Alpha ? x : 0
	LSTMScaledTanh                         // Alpha·tanh(Beta·x)
	LSTMHardSigmoid                        // min(1, max(0, 0.2x + 0.5))
	LSTMElu                                // x ≥ 0 ? x : Alpha·(e^x - 1)
	LSTMSoftsign                           // x/(1+|x|)
	LSTMSoftplus                           // ln(1+e^x)
)

// LSTMActivation is an activation and its parameters (read only by the
// kinds that take them: Alpha by affine, leaky relu, thresholded relu,
// scaled tanh and elu; Beta by affine and scaled tanh).
type LSTMActivation struct {
	Kind        LSTMActKind
	Alpha, Beta float64
}

// LSTMLayerConfig holds lstmLayer's options.
type LSTMLayerConfig struct {
	// DataFormat is the layout of x and h. Default LSTMTimeBatch.
	DataFormat LSTMDataFormat
	// Direction is how the layer runs over time. Default LSTMForward.
	Direction LSTMDirection
	// GateAct is the activation of the input, forget and output gates.
	// Default sigmoid.
	GateAct LSTMActivation
	// CellAct is the activation of the cell input g. Default tanh.
	CellAct LSTMActivation
	// OutAct is the activation of the cell state in h = o∘OutAct(c).
	// Default tanh.
	OutAct LSTMActivation
	// CellClip clips the cell state to ±CellClip. Default 0: no clipping.
	CellClip float64
	// ReturnSequence asks for h, the output of every step; ReturnLastH
	// for hL, the last step's output; ReturnLastC for cL, the last cell
	// state. Default: when none is set, ReturnSequence alone.
	ReturnSequence, ReturnLastH, ReturnLastC bool
}

// LSTMLayerWeights are lstmLayer's parameters, gate columns in libnd4j's
// order i, f, g, o; in the bidirectional directions each has a leading
// axis of 2 (forward, backward).
type LSTMLayerWeights struct {
	// Wx [nIn, 4·nOut] are the input weights, Wr [nOut, 4·nOut] the
	// recurrent ones; both are required.
	Wx, Wr *Variable
	// B [4·nOut] are the biases. Default nil: none.
	B *Variable
	// Peephole [3·nOut] are the peephole weights of the i, f and o gates.
	// Default nil: no peepholes.
	Peephole *Variable
}

// LSTMLayerState are lstmLayer's optional inputs besides the weights.
type LSTMLayerState struct {
	// H and C [batch, nOut] are the initial output and cell state.
	// Default nil: zeros.
	H, C *Variable
	// SeqLen [batch] (integers) are the rows' sequence lengths, each 0 to
	// the number of steps; h is zero past them. Default nil: every row is
	// the whole sequence.
	SeqLen *Variable
}

// LSTMLayerOutputs are lstmLayer's outputs, nil where not requested: H
// every step's output (shaped as DataFormat and Direction say), HLast and
// CLast the last step's output and cell state ([batch, nOut], or
// [2, batch, nOut] bidirectional; zeros for a sequence of length 0).
type LSTMLayerOutputs struct {
	H, HLast, CLast *Variable
}

func (a LSTMActivation) code(def int64) int64 {
	if a.Kind == LSTMActDefault {
		return def
	}
	return int64(a.Kind) - 1
}

// args is lstmLayer's argument layout: int args dataFormat,
// directionMode, gateAct, cellAct, outAct; bool args hasBiases,
// hasSeqLen, hasInitH, hasInitC, hasPH, retFullSeq, retLastH, retLastC;
// float args cellClip and the activations' α, β.
func (c LSTMLayerConfig) args(w LSTMLayerWeights, s LSTMLayerState) (ops.Args, error) {
	if !c.ReturnSequence && !c.ReturnLastH && !c.ReturnLastC {
		c.ReturnSequence = true
	}
	a := ops.Args{
		I: []int64{int64(c.DataFormat), int64(c.Direction), c.GateAct.code(2), c.CellAct.code(0), c.OutAct.code(0)},
		B: []bool{w.B != nil, s.SeqLen != nil, s.H != nil, s.C != nil, w.Peephole != nil, c.ReturnSequence, c.ReturnLastH, c.ReturnLastC},
		F: []float64{c.CellClip},
	}
	for _, act := range []LSTMActivation{c.GateAct, c.CellAct, c.OutAct} {
		if act.Kind < LSTMActDefault || act.Kind > LSTMSoftplus {
			return a, fmt.Errorf("%w: lstmLayer: activation kind %d is not one of LSTMTanh ... LSTMSoftplus", ErrBuild, act.Kind)
		}
		switch act.Kind {
		case LSTMAffine, LSTMScaledTanh:
			a.F = append(a.F, act.Alpha, act.Beta)
		case LSTMLeakyRelu, LSTMThresholdedRelu, LSTMElu:
			a.F = append(a.F, act.Alpha)
		}
	}
	return a, nil
}

// LSTMLayer runs an LSTM over the sequence x (op lstmLayer, SameDiff's
// SDRNN.lstmLayer): per step i, f = GateAct(x·Wx + h·Wr + B + Wp∘cPrev),
// g = CellAct(x·Wx + h·Wr + B), c = clip(f∘cPrev + i∘g),
// o = GateAct(x·Wx + h·Wr + B + Wp∘c), h = o∘OutAct(c). Its gradient is
// libnd4j's lstmLayer_bp, backpropagation through the whole sequence.
func (r RNN) LSTMLayer(x *Variable, w LSTMLayerWeights, s LSTMLayerState, cfg LSTMLayerConfig) LSTMLayerOutputs {
	all := func(v *Variable) LSTMLayerOutputs { return LSTMLayerOutputs{v, v, v} }
	if x == nil || w.Wx == nil || w.Wr == nil {
		return all(r.g.fail(fmt.Errorf("%w: lstmLayer needs x, Wx and Wr", ErrBuild)))
	}
	in := []*Variable{x, w.Wx, w.Wr}
	for _, v := range []*Variable{w.B, s.SeqLen, s.H, s.C, w.Peephole} {
		if v != nil {
			in = append(in, v)
		}
	}
	for _, v := range in {
		if v.err != nil {
			return all(v)
		}
	}
	args, err := cfg.args(w, s)
	if err != nil {
		return all(r.g.fail(err))
	}
	outs, err := r.g.Op("lstmLayer", args, in...)
	if err != nil {
		return all(r.g.fail(err))
	}
	var o LSTMLayerOutputs
	k := 0
	for i, p := range []**Variable{&o.H, &o.HLast, &o.CLast} {
		if args.B[5+i] {
			*p = outs[k]
			k++
		}
	}
	return o
}
