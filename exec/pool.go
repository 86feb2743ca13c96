package exec

import (
	"sync"

	"github.com/sdgo/sdgo/ndarray"
)

// pool keeps released buffers for reuse, by dtype and length. It is shared
// by a session's runs.
type pool struct {
	mu      sync.Mutex
	classes map[poolKey]*sizeClass
	bytes   int
	max     int // bytes kept at most; beyond, released buffers go to the GC
}

// sizeClass is the pool's record of one dtype and length: one map lookup
// per get and per put, which every op of a run makes.
type sizeClass struct {
	free []*ndarray.Buffer
}

// poolKey is a dtype and a length packed in one word: a map keyed by a
// plain integer hashes on the fast path, a padded struct does not, and
// the pool is consulted on every allocation of a run.
type poolKey uint64

func keyOf(dt ndarray.DType, n int) poolKey { return poolKey(uint64(n)<<8 | uint64(dt)) }

func newPool(maxBytes int) *pool {
	return &pool{classes: map[poolKey]*sizeClass{}, max: maxBytes}
}

// get returns a packed array of dtype dt and this shape, on a recycled
// buffer when one fits; its elements are unspecified. A size get was asked
// for has a class from then on, which put keeps buffers for.
func (p *pool) get(dt ndarray.DType, shape []int) *ndarray.Array {
	n := 1
	for _, d := range shape {
		n *= d
	}
	if n > 0 {
		k := keyOf(dt, n)
		p.mu.Lock()
		c := p.classes[k]
		if c == nil {
			c = &sizeClass{}
			p.classes[k] = c
		}
		if l := c.free; len(l) > 0 {
			b := l[len(l)-1]
			l[len(l)-1] = nil
			c.free = l[:len(l)-1]
			p.bytes -= n * dt.Size()
			p.mu.Unlock()
			a, err := ndarray.PackedOn(b, shape)
			if err == nil {
				return a
			}
		} else {
			p.mu.Unlock()
		}
	}
	a, err := ndarray.Zeros(dt, shape...)
	if err != nil {
		panic(err) // ErrTooLarge: callOp turns it into the op's error
	}
	return a
}

// maxPerSize bounds the buffers kept of one dtype and length: more than a
// run ever holds at once would never be asked for, and where an op that
// allocates its output itself makes a size the pool is also asked for,
// its buffers would otherwise pile up, one per run.
const maxPerSize = 32

// put keeps b for reuse, if get was ever asked for its dtype and length.
// Buffers of other sizes (the outputs of ops that allocate them
// themselves, as argmax and pad do) would never be handed out
// again: kept, they only hold memory the GC would otherwise reuse for the
// next such output, and the heap grows by fresh pages, each faulted in
// (the views benchmark's concat of a 1e7 state: 600,000 page faults).
func (p *pool) put(b *ndarray.Buffer) {
	sz := b.Len() * b.DType().Size()
	if sz == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	c := p.classes[keyOf(b.DType(), b.Len())]
	if c == nil || p.bytes+sz > p.max || len(c.free) >= maxPerSize {
		return
	}
	c.free = append(c.free, b)
	p.bytes += sz
}

// drain drops every buffer the pool keeps, for the GC to take
// (ndarray.OnMemoryPressure).
func (p *pool) drain() {
	p.mu.Lock()
	defer p.mu.Unlock()
	// The classes stay: put keeps taking buffers of the sizes asked for.
	for _, c := range p.classes {
		clear(c.free)
		c.free = c.free[:0]
	}
	p.bytes = 0
}

// pooled returns the number of bytes the pool keeps (Session.Pooled).
func (p *pool) pooled() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.bytes
}
