package main

import (
	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// Running independent ops at the same time (Session.Parallel): a graph of 8
// independent branches of elementwise ops on 1e5 elements, and the MLP
// training step, each against the same session run one op at a time. The
// "peer" column is the sequential run here.
func parallelBench(rounds, steps int) ([]result, error) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float32, 100000)
	var ends []*graph.Variable
	for b := 0; b < 8; b++ {
		v := x.MulScalar(float64(b + 1))
		for d := 0; d < 6; d++ {
			v = g.Math().Tanh(v).AddScalar(0.1)
		}
		ends = append(ends, v.Sum())
	}
	out := g.Stack(0, ends...).Sum().Name()
	if err := g.Err(); err != nil {
		return nil, err
	}
	feeds := map[string]*ndarray.Array{"x": ndarray.Must(ndarray.Full(ndarray.Float32, 0.3, 100000))}
	timeWith := func(workers int) (result, error) {
		s := exec.New(g)
		s.Parallel = workers
		step := func() error { _, err := s.Output(feeds, out); return err }
		if err := warmUp(3, step); err != nil {
			return result{}, err
		}
		t, err := median(rounds, steps*5, step)
		return result{sdgo: t}, err
	}
	seq, err := timeWith(1)
	if err != nil {
		return nil, err
	}
	par, err := timeWith(2)
	if err != nil {
		return nil, err
	}
	rows := []result{{model: "8 branches, 2 workers", batch: "1e5 elems", sdgo: par.sdgo, peer: seq.sdgo, peerName: "sdgo, 1 op at a time", allocs: -1}}

	tr, b, err := sdgoMLP(ndarray.Float32)
	if err != nil {
		return nil, err
	}
	step := func() error { _, err := tr.Step(b); return err }
	if err := warmUp(3, step); err != nil {
		return nil, err
	}
	ts, err := median(rounds, steps, step)
	if err != nil {
		return nil, err
	}
	tr.Session().Parallel = 2
	tp, err := median(rounds, steps, step)
	if err != nil {
		return nil, err
	}
	rows = append(rows, result{model: "mlp-float32, 2 workers", batch: "128", sdgo: tp, peer: ts, peerName: "sdgo, 1 op at a time", allocs: -1,
		note: "GEMM already uses every core inside one op; running ops side by side pays only where many small or medium ops are independent\n"})
	return rows, nil
}
