package graph

import "github.com/sdgo/sdgo/ops"

// Builder methods of SameDiff's recurrent ops (ops/rnn_cell.go).

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
