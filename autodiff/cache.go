package autodiff

import (
	"slices"
	"sync"

	"github.com/sdgo/sdgo/graph"
)

// cacheKey is the graph meta key under which built gradients are
// remembered, so that repeated requests reuse them.
const cacheKey = "autodiff.gradients"

// gradKey identifies a gradient by the variables, not their names (which
// can change, and be reused by other variables).
type gradKey struct {
	losses string // the loss variables' IDs
	wrt    *graph.Variable
}

type gradientCache struct {
	mu     sync.Mutex
	m      map[gradKey]cachedGrad
	builds []build
}

// build is one differentiation: the variables with IDs from, up to to,
// are the ones it added.
type build struct {
	losses, wrt, grads []*graph.Variable
	from, to           int
}

func (c *gradientCache) addBuild(b build) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.builds = append(c.builds, b)
}

// Build is one differentiation Grad, GradSum or Gradients added to a graph:
// the gradients of the sum of Losses with respect to each of Wrt (Grads,
// in the same order), and every variable it added to compute them (the
// outputs of its ops and its constants), in the order they were added.
// Saving a graph for SameDiff (Java) leaves these out, as SameDiff keeps
// its gradient function apart from the graph it saves.
type Build struct {
	Losses, Wrt, Grads []*graph.Variable
	Added              []*graph.Variable
}

// Builds returns the differentiations made on g, in the order they were
// made (none for a graph loaded from a file whose gradient ops were
// saved as ops: they are ordinary ops there).
func Builds(g *graph.Graph) []Build {
	c, ok := g.GetMeta(cacheKey)
	if !ok {
		return nil
	}
	gc := c.(*gradientCache)
	gc.mu.Lock()
	bs := slices.Clone(gc.builds)
	gc.mu.Unlock()
	vars := g.Variables()
	out := make([]Build, len(bs))
	for i, b := range bs {
		out[i] = Build{Losses: slices.Clone(b.losses), Wrt: slices.Clone(b.wrt), Grads: slices.Clone(b.grads)}
		for _, v := range vars {
			if v.ID() >= b.from && v.ID() < b.to {
				out[i].Added = append(out[i].Added, v)
			}
		}
	}
	return out
}

// cachedGrad is a gradient built, with the merges the losses read when it
// was built and their input counts. Ops added to the graph later cannot
// change what the losses depend on, but a back edge added to one of those
// merges (graph.Graph.AddBackEdge, a loop built by hand) does: the gradient
// is then built again.
type cachedGrad struct {
	v      *graph.Variable
	merges []mergeInputs
}

type mergeInputs struct {
	op *graph.Op
	n  int
}

func (c *gradientCache) get(k gradKey) (*graph.Variable, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k]
	if !ok {
		return nil, false
	}
	for _, m := range e.merges {
		if len(m.op.Inputs()) != m.n {
			return nil, false
		}
	}
	return e.v, true
}

func (c *gradientCache) put(k gradKey, e cachedGrad) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k] = e
}

var cacheInit sync.Mutex

func gradCache(g *graph.Graph) *gradientCache {
	cacheInit.Lock()
	defer cacheInit.Unlock()
	if c, ok := g.GetMeta(cacheKey); ok {
		return c.(*gradientCache)
	}
	c := &gradientCache{m: map[gradKey]cachedGrad{}}
	g.SetMeta(cacheKey, c)
	return c
}
