package autodiff

import (
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
	mu sync.Mutex
	m  map[gradKey]*graph.Variable
}

func (c *gradientCache) get(k gradKey) (*graph.Variable, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *gradientCache) put(k gradKey, v *graph.Variable) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k] = v
}

var cacheInit sync.Mutex

func gradCache(g *graph.Graph) *gradientCache {
	cacheInit.Lock()
	defer cacheInit.Unlock()
	if c, ok := g.GetMeta(cacheKey); ok {
		return c.(*gradientCache)
	}
	c := &gradientCache{m: map[gradKey]*graph.Variable{}}
	g.SetMeta(cacheKey, c)
	return c
}
