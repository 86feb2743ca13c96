package main

import (
	"fmt"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ndarray/densetensor"
)

// gorgoniaConv is a conv model (conv3x3 or lenet) in gorgonia, built from
// the arrays torch_peer.py reads (conv weights [oC,iC,kH,kW] for conv3x3,
// [kH,kW,iC,oC] for lenet, as sdgo holds them), so that its first loss is
// sdgo's.
type gorgoniaConv struct {
	m        G.VM
	solver   G.Solver // nil: conv3x3 computes gradients and takes no step
	params   G.Nodes
	loss     *G.Node
	lastLoss float64
}

// gorgoniaTensor makes a node of a copy of a (gorgonia's values share the
// buffer ToDense gives them), in the shape given.
func gorgoniaTensor(g *G.ExprGraph, name string, a *ndarray.Array, shape ...int) (*G.Node, error) {
	c, err := ndarray.Copy(a)
	if err != nil {
		return nil, err
	}
	if c, err = ndarray.Reshape(c, shape...); err != nil {
		return nil, err
	}
	d, err := densetensor.ToDense(c)
	if err != nil {
		return nil, err
	}
	return G.NewTensor(g, tensor.Float32, len(shape), G.WithShape(shape...), G.WithName(name), G.WithValue(d)), nil
}

// newGorgoniaConv builds model in gorgonia from arrays.
func newGorgoniaConv(model string, arrays map[string]*ndarray.Array) (*gorgoniaConv, error) {
	g := G.NewGraph()
	var (
		loss   *G.Node
		params G.Nodes
		err    error
	)
	if model == "conv3x3" {
		loss, params, err = gorgoniaConv3x3(g, arrays)
	} else {
		loss, params, err = gorgoniaLenet(g, arrays)
	}
	if err != nil {
		return nil, fmt.Errorf("gorgonia %s: %w", model, err)
	}
	if _, err := G.Grad(loss, params...); err != nil {
		return nil, fmt.Errorf("gorgonia %s: %w", model, err)
	}
	p := &gorgoniaConv{m: G.NewTapeMachine(g, G.BindDualValues(params...)), params: params, loss: loss}
	if model == "lenet" {
		p.solver = G.NewAdamSolver(G.WithLearnRate(1e-3))
	}
	return p, nil
}

func gorgoniaConv3x3(g *G.ExprGraph, arrays map[string]*ndarray.Array) (*G.Node, G.Nodes, error) {
	x, err := gorgoniaTensor(g, "x", arrays["x"], arrays["x"].Shape()...)
	if err != nil {
		return nil, nil, err
	}
	w, err := gorgoniaTensor(g, "w", arrays["w"], arrays["w"].Shape()...)
	if err != nil {
		return nil, nil, err
	}
	s := w.Shape()
	y, err := G.Conv2d(x, w, tensor.Shape{s[2], s[3]}, []int{s[2] / 2, s[3] / 2}, []int{1, 1}, []int{1, 1})
	if err != nil {
		return nil, nil, err
	}
	loss, err := G.Sum(y)
	return loss, G.Nodes{x, w}, err
}

// gorgoniaLenet is bench/conv.go's LeNet-5: the conv layers' bias added
// through a [1,oC,1,1] reshape broadcast over batch and space.
func gorgoniaLenet(g *G.ExprGraph, arrays map[string]*ndarray.Array) (*G.Node, G.Nodes, error) {
	var params G.Nodes
	param := func(name string, shape ...int) (*G.Node, error) {
		a := arrays[name]
		if a.Rank() == 4 { // conv weights: [kH,kW,iC,oC] to [oC,iC,kH,kW]
			v, err := ndarray.Permute(a, 3, 2, 0, 1)
			if err != nil {
				return nil, err
			}
			a = v
		}
		n, err := gorgoniaTensor(g, name, a, shape...)
		if err == nil {
			params = append(params, n)
		}
		return n, err
	}
	n := arrays["x"].Shape()[0]
	x, err := gorgoniaTensor(g, "x", arrays["x"], n, 1, 28, 28)
	if err != nil {
		return nil, nil, err
	}
	y, err := gorgoniaTensor(g, "y", arrays["y"], arrays["y"].Shape()...)
	if err != nil {
		return nil, nil, err
	}
	h := x
	for i, l := range []struct{ iC, oC, pad int }{{1, 6, 2}, {6, 16, 0}} {
		w, err := param(fmt.Sprintf("conv%d_w", i+1), l.oC, l.iC, 5, 5)
		if err != nil {
			return nil, nil, err
		}
		b, err := param(fmt.Sprintf("conv%d_b", i+1), 1, l.oC, 1, 1)
		if err != nil {
			return nil, nil, err
		}
		if h, err = G.Conv2d(h, w, tensor.Shape{5, 5}, []int{l.pad, l.pad}, []int{1, 1}, []int{1, 1}); err != nil {
			return nil, nil, err
		}
		if h, err = G.BroadcastAdd(h, b, nil, []byte{0, 2, 3}); err != nil {
			return nil, nil, err
		}
		if h, err = G.Rectify(h); err != nil {
			return nil, nil, err
		}
		if h, err = G.MaxPool2D(h, tensor.Shape{2, 2}, []int{0, 0}, []int{2, 2}); err != nil {
			return nil, nil, err
		}
	}
	if h, err = G.Reshape(h, tensor.Shape{n, 400}); err != nil {
		return nil, nil, err
	}
	for i, l := range [][2]int{{400, 120}, {120, 84}, {84, 10}} {
		w, err := param(fmt.Sprintf("fc%d_w", i+1), l[0], l[1])
		if err != nil {
			return nil, nil, err
		}
		b, err := param(fmt.Sprintf("fc%d_b", i+1), l[1])
		if err != nil {
			return nil, nil, err
		}
		if h, err = G.Mul(h, w); err != nil {
			return nil, nil, err
		}
		if h, err = G.BroadcastAdd(h, b, nil, []byte{0}); err != nil {
			return nil, nil, err
		}
		if i < 2 {
			if h, err = G.Rectify(h); err != nil {
				return nil, nil, err
			}
		}
	}
	sm, err := G.SoftMax(h)
	if err != nil {
		return nil, nil, err
	}
	logp, err := G.Log(sm)
	if err != nil {
		return nil, nil, err
	}
	prod, err := G.HadamardProd(logp, y)
	if err != nil {
		return nil, nil, err
	}
	rows, err := G.Sum(prod, 1)
	if err != nil {
		return nil, nil, err
	}
	mean, err := G.Mean(rows)
	if err != nil {
		return nil, nil, err
	}
	loss, err := G.Neg(mean)
	return loss, params, err
}

// step runs one step: the forward pass and gradients, and with a solver
// its update.
func (p *gorgoniaConv) step() error {
	if err := p.m.RunAll(); err != nil {
		return err
	}
	v, ok := p.loss.Value().(*G.F32)
	if !ok {
		return fmt.Errorf("gorgonia: the loss is %T, not a float32 scalar", p.loss.Value())
	}
	p.lastLoss = float64(*v)
	if p.solver != nil {
		if err := p.solver.Step(G.NodesToValueGrads(p.params)); err != nil {
			return err
		}
	}
	p.m.Reset()
	return nil
}
