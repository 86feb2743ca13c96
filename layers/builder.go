package layers

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/weightinit"
)

// Builder adds layers to a graph. It holds the graph, the generator every
// initializer draws from, the dtype of new weights, the name scope and
// whether the layers are built for training. The With... methods and Scope
// return builders that share the graph, the generator and the names in use.
type Builder struct {
	g        *graph.Graph
	shared   *shared
	dt       ndarray.DType
	scope    string
	training bool
}

// shared is what every builder derived from one New shares.
type shared struct {
	mu    sync.Mutex
	rng   *rand.Rand
	count map[string]int // layer names handed out, per base name
}

// New returns a builder of float32 layers for inference (Dropout passes its
// input through, BatchNorm uses its stored statistics) whose initializers
// draw from a generator seeded with seed: the same seed and the same calls
// give the same weights.
func New(g *graph.Graph, seed uint64) *Builder {
	return &Builder{g: g, shared: &shared{rng: weightinit.NewRand(seed), count: map[string]int{}}, dt: ndarray.Float32}
}

// Graph returns the graph the builder adds to.
func (b *Builder) Graph() *graph.Graph { return b.g }

// Err returns the graph's first error: a layer that fails records its
// error there, as the builders do, and returns a variable carrying it.
func (b *Builder) Err() error { return b.g.Err() }

// WithDType returns a builder whose new weights have dtype dt (float32 or
// float64).
func (b *Builder) WithDType(dt ndarray.DType) *Builder {
	c := *b
	c.dt = dt
	return &c
}

// WithTraining returns a builder whose Dropout and BatchNorm layers take
// the training path (masks, batch statistics) when on is true and the
// inference path otherwise.
func (b *Builder) WithTraining(on bool) *Builder {
	c := *b
	c.training = on
	return &c
}

// Training reports whether the builder builds the training path.
func (b *Builder) Training() bool { return b.training }

// Scope returns a builder whose layer names start with name and a slash
// ("block1/conv" for a layer named "conv"), for blocks that repeat.
func (b *Builder) Scope(name string) *Builder {
	c := *b
	c.scope = b.scope + name + "/"
	return &c
}

// layerName returns the scoped name of a layer: name when given, else kind
// with a number from the second one on (dense, dense_1, ...).
func (b *Builder) layerName(kind, name string) string {
	s := b.shared
	s.mu.Lock()
	defer s.mu.Unlock()
	if name == "" {
		base := b.scope + kind
		for {
			n := base
			if k := s.count[base]; k > 0 {
				n = base + "_" + strconv.Itoa(k)
			}
			s.count[base]++
			if !b.taken(n) {
				return n
			}
		}
	}
	return b.scope + name
}

// taken reports whether the graph already has a variable in the scope n.
func (b *Builder) taken(n string) bool {
	for _, v := range b.g.Variables() {
		if strings.HasPrefix(v.Name(), n+"/") {
			return true
		}
	}
	return false
}

// layer is one layer being built: its kind and name, for errors and for its
// variables' names.
type layer struct {
	b    *Builder
	kind string // the layer's type: Dense, Conv2D, ...
	name string // the scoped name
}

func (b *Builder) layer(kind, name string) *layer {
	return &layer{b: b, kind: kind, name: b.layerName(strings.ToLower(kind), name)}
}

// fail records a build error naming the layer and returns a variable
// carrying it.
func (l *layer) fail(format string, a ...any) *graph.Variable {
	return l.b.g.Fail(fmt.Errorf("%w: layers: %s %q: %s", graph.ErrBuild, l.kind, l.name, fmt.Sprintf(format, a...)))
}

// input checks that x exists, carries no error and has one of the ranks
// wanted; layout describes the axes for the error message. On failure it
// returns the variable to hand back.
func (l *layer) input(x *graph.Variable, layout string, ranks ...int) *graph.Variable {
	if x == nil {
		return l.fail("no input")
	}
	if x.Err() != nil {
		return x
	}
	for _, r := range ranks {
		if len(x.Shape()) == r {
			return nil
		}
	}
	want := make([]string, len(ranks))
	for i, r := range ranks {
		want[i] = strconv.Itoa(r)
	}
	return l.fail("input %q has shape %v (rank %d); want rank %s %s", x.Name(), x.Shape(), len(x.Shape()), strings.Join(want, " or "), layout)
}

// known returns axis i's size of x, or fails when it is known only at run
// time (the weights' shapes need it).
func (l *layer) known(x *graph.Variable, i int, what string) (int, *graph.Variable) {
	d := x.Shape()[i]
	if d < 0 {
		return 0, l.fail("input %q has shape %v: the %s (axis %d) must be known when building", x.Name(), x.Shape(), what, i)
	}
	return d, nil
}

// weight adds the VARIABLE name/suffix of the given shape drawn from in
// (def when nil) with the fans f.
func (l *layer) weight(suffix string, in, def weightinit.Initializer, f weightinit.Fans, shape ...int) *graph.Variable {
	if in == nil {
		in = def
	}
	l.b.shared.mu.Lock()
	a, err := weightinit.NewFans(in, l.b.dt, l.b.shared.rng, f, shape...)
	l.b.shared.mu.Unlock()
	if err != nil {
		return l.fail("weight %q: %v", suffix, err)
	}
	return l.b.g.Var(l.name+"/"+suffix, a)
}

// dense adds a weight whose fans are those of a matrix [in, out].
func (l *layer) dense(suffix string, in, def weightinit.Initializer, shape ...int) *graph.Variable {
	return l.weight(suffix, in, def, weightinit.FansOf(shape...), shape...)
}

// bias adds the bias vector name/suffix [n], zeros unless in says.
func (l *layer) bias(suffix string, in weightinit.Initializer, n int) *graph.Variable {
	return l.weight(suffix, in, weightinit.Zero, weightinit.Fans{In: float64(n), Out: float64(n)}, n)
}

// filled adds the VARIABLE or CONSTANT name/suffix [n] filled with v.
func (l *layer) filled(kind graph.VarType, suffix string, v float64, n int) *graph.Variable {
	a, err := weightinit.New(weightinit.Constant(v), l.b.dt, weightinit.NewRand(0), n)
	if err != nil {
		return l.fail("%s: %v", suffix, err)
	}
	if kind == graph.CONSTANT {
		return l.b.g.Const(l.name+"/"+suffix, a)
	}
	return l.b.g.Var(l.name+"/"+suffix, a)
}

// Activation is a function applied to a layer's output, such as a builder
// method value: g.NN().Relu.
type Activation func(*graph.Variable) *graph.Variable

func (a Activation) apply(x *graph.Variable) *graph.Variable {
	if a == nil || x.Err() != nil {
		return x
	}
	return a(x)
}

// firstErr returns the first of vs that carries an error, or nil.
func firstErr(vs ...*graph.Variable) *graph.Variable {
	for _, v := range vs {
		if v != nil && v.Err() != nil {
			return v
		}
	}
	return nil
}

// CopyVariables sets every VARIABLE of dst to the value of src's VARIABLE
// of the same name: the trained weights of a graph built for training
// (WithTraining) go to the same layers built for inference. A variable src
// lacks, or holds with another dtype or shape, is an error naming it;
// nothing is copied then.
func CopyVariables(dst, src *graph.Graph) error {
	vars := dst.VariablesOf(graph.VARIABLE)
	vals := make([]*ndarray.Array, len(vars))
	for i, v := range vars {
		s, ok := src.Variable(v.Name())
		if !ok || s.Type() != graph.VARIABLE {
			return fmt.Errorf("layers: copy variables: the source has no VARIABLE %q", v.Name())
		}
		if s.DType() != v.DType() || !ndarray.SameShape(s.Shape(), v.Shape()) {
			return fmt.Errorf("layers: copy variables: %q is %v%v in the source, %v%v in the destination", v.Name(), s.DType(), s.Shape(), v.DType(), v.Shape())
		}
		vals[i] = s.Value()
	}
	for i, v := range vars {
		if err := v.SetValue(vals[i]); err != nil {
			return fmt.Errorf("layers: copy variables: %w", err)
		}
	}
	return nil
}
