package autodiff

import (
	"sync"

	"github.com/sdgo/sdgo/graph"
)

// cacheKey is the graph meta key under which built gradients are
// remembered, so that repeated requests reuse them.
const cacheKey = "autodiff.gradients"

type nameCache struct {
	mu sync.Mutex
	m  map[string]string
}

func (c *nameCache) get(k string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *nameCache) put(k, v string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k] = v
}

var cacheInit sync.Mutex

func gradCache(g *graph.Graph) *nameCache {
	cacheInit.Lock()
	defer cacheInit.Unlock()
	if c, ok := g.GetMeta(cacheKey); ok {
		return c.(*nameCache)
	}
	c := &nameCache{m: map[string]string{}}
	g.SetMeta(cacheKey, c)
	return c
}
