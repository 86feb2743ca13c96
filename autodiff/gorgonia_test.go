package autodiff_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdgo/sdgo/autodiff"
	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ndarray/densetensor"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// A model written twice: once with sdgo's builder, once with gorgonia's.
type twin struct {
	name   string
	params []string // the variables differentiated
	sdgo   func(g *graph.Graph, v map[string]*graph.Variable) *graph.Variable
	gorgo  func(v map[string]*G.Node) (*G.Node, error)
}

func gmust(n *G.Node, err error) *G.Node {
	if err != nil {
		panic(err)
	}
	return n
}

func twins() []twin {
	return []twin{
		{
			"tanh MLP, mean squared error", []string{"w1", "b1", "w2", "b2"},
			func(g *graph.Graph, v map[string]*graph.Variable) *graph.Variable {
				h := g.Math().Tanh(v["x"].MatMul(v["w1"]).Add(v["b1"]))
				d := h.MatMul(v["w2"]).Add(v["b2"]).Sub(v["y"])
				return g.Math().Square(d).Mean()
			},
			func(v map[string]*G.Node) (*G.Node, error) {
				h := gmust(G.Tanh(gmust(G.BroadcastAdd(gmust(G.Mul(v["x"], v["w1"])), v["b1"], nil, []byte{0}))))
				o := gmust(G.BroadcastAdd(gmust(G.Mul(h, v["w2"])), v["b2"], nil, []byte{0}))
				return G.Mean(gmust(G.Square(gmust(G.Sub(o, v["y"])))))
			},
		},
		{
			"sigmoid MLP, softmax cross-entropy", []string{"w1", "b1", "w2", "b2"},
			func(g *graph.Graph, v map[string]*graph.Variable) *graph.Variable {
				h := g.Math().Sigmoid(v["x"].MatMul(v["w1"]).Add(v["b1"]))
				p := g.NN().Softmax(h.MatMul(v["w2"]).Add(v["b2"]), -1)
				return g.Math().Log(p).Mul(v["y"]).Sum(1).Mean().Neg()
			},
			func(v map[string]*G.Node) (*G.Node, error) {
				h := gmust(G.Sigmoid(gmust(G.BroadcastAdd(gmust(G.Mul(v["x"], v["w1"])), v["b1"], nil, []byte{0}))))
				p := gmust(G.SoftMax(gmust(G.BroadcastAdd(gmust(G.Mul(h, v["w2"])), v["b2"], nil, []byte{0}))))
				return G.Neg(gmust(G.Mean(gmust(G.Sum(gmust(G.HadamardProd(gmust(G.Log(p)), v["y"])), 1)))))
			},
		},
		{
			"relu, exp, division and a transpose", []string{"w1", "w2"},
			func(g *graph.Graph, v map[string]*graph.Variable) *graph.Variable {
				h := g.NN().Relu(v["x"].MatMul(v["w1"]))
				e := g.Math().Exp(h.MatMul(v["w2"]).MulScalar(0.1))
				q := e.Div(g.Math().Square(v["y"]).AddScalar(1))
				return q.Transpose().Sum()
			},
			func(v map[string]*G.Node) (*G.Node, error) {
				h := gmust(G.Rectify(gmust(G.Mul(v["x"], v["w1"]))))
				e := gmust(G.Exp(gmust(G.Mul(gmust(G.Mul(h, v["w2"])), G.NewConstant(0.1)))))
				den := gmust(G.Add(gmust(G.Square(v["y"])), G.NewConstant(1.0)))
				q := gmust(G.HadamardDiv(e, den))
				return G.Sum(gmust(G.Transpose(q)))
			},
		},
	}
}

func TestAgainstGorgonia(t *testing.T) {
	rng := rand.New(rand.NewPCG(42, 42))
	shapes := map[string][]int{"x": {8, 5}, "w1": {5, 7}, "b1": {7}, "w2": {7, 4}, "b2": {4}, "y": {8, 4}}
	order := []string{"x", "w1", "b1", "w2", "b2", "y"}
	vals := map[string]*ndarray.Array{}
	for _, n := range order {
		vals[n] = randn(rng, shapes[n]...)
	}
	// Labels for the cross-entropy model: a distribution per row.
	vals["y"], _ = ndarray.Softmax(vals["y"], -1)

	for _, tw := range twins() {
		t.Run(tw.name, func(t *testing.T) {
			g := graph.New()
			sv := map[string]*graph.Variable{}
			for _, n := range order {
				if n == "x" || n == "y" {
					sv[n] = g.Const(n, vals[n])
				} else {
					sv[n] = g.Var(n, vals[n])
				}
			}
			loss := tw.sdgo(g, sv)
			if loss.Err() != nil {
				t.Fatal(loss.Err())
			}
			params := tw.params
			var wrt []*graph.Variable
			for _, p := range params {
				wrt = append(wrt, sv[p])
			}
			grads, err := autodiff.Grad(loss, wrt...)
			if err != nil {
				t.Fatal(err)
			}
			out, err := exec.Output(g, nil, append(names(grads), loss.Name())...)
			if err != nil {
				t.Fatal(err)
			}

			gg := G.NewGraph()
			gv := map[string]*G.Node{}
			for _, n := range order {
				d, err := densetensor.ToDense(ndarray.Must(ndarray.Copy(vals[n])))
				if err != nil {
					t.Fatal(err)
				}
				if len(shapes[n]) == 1 {
					gv[n] = G.NewVector(gg, tensor.Float64, G.WithShape(shapes[n]...), G.WithName(n), G.WithValue(d))
				} else {
					gv[n] = G.NewMatrix(gg, tensor.Float64, G.WithShape(shapes[n]...), G.WithName(n), G.WithValue(d))
				}
			}
			cost, err := tw.gorgo(gv)
			if err != nil {
				t.Fatal(err)
			}
			var gnodes G.Nodes
			for _, p := range params {
				gnodes = append(gnodes, gv[p])
			}
			if _, err := G.Grad(cost, gnodes...); err != nil {
				t.Fatal(err)
			}
			m := G.NewTapeMachine(gg)
			defer m.Close()
			if err := m.RunAll(); err != nil {
				t.Fatal(err)
			}
			want := cost.Value().Data().(float64)
			if got := out[loss.Name()].Float(); !close(got, want) {
				t.Errorf("loss %.15g, gorgonia %.15g", got, want)
			}
			for i, p := range params {
				gval, err := gv[p].Grad()
				if err != nil {
					t.Fatal(err)
				}
				wantG := gval.Data().([]float64)
				gotG := out[grads[i].Name()].Float64s()
				for j := range wantG {
					if !close(gotG[j], wantG[j]) {
						t.Fatalf("d/d%s element %d: %.15g, gorgonia %.15g", p, j, gotG[j], wantG[j])
					}
				}
			}
		})
	}
}

func close(a, b float64) bool {
	return math.Abs(a-b) <= 1e-6*math.Max(math.Abs(a), math.Abs(b)) || math.Abs(a-b) < 1e-12
}
