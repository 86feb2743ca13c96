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
	free []pooled
}

// pooled is a free buffer and, when the run gave it back with one, the
// packed array over all of it last made there (see putArray).
type pooled struct {
	b *ndarray.Buffer
	a *ndarray.Array
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
			e := l[len(l)-1]
			l[len(l)-1] = pooled{}
			c.free = l[:len(l)-1]
			p.bytes -= n * dt.Size()
			p.mu.Unlock()
			if e.a != nil && ndarray.SameShape(e.a.Shape(), shape) {
				return e.a
			}
			a, err := ndarray.PackedOn(e.b, shape)
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
func (p *pool) put(b *ndarray.Buffer) { p.keep(pooled{b: b}) }

// putArray keeps a's buffer for reuse, as put does, with a itself when a
// is what get would make on that buffer for a's shape: a packed array over
// all of it. get then hands a out again for that shape rather than
// allocate its twin, which saves an op of a run its one allocation. Arrays
// are never changed after they are made, so someone still holding a sees
// what it would see through the recycled buffer: a must be given back only
// when nothing reads it any more, as a buffer must.
func (p *pool) putArray(a *ndarray.Array) {
	e := pooled{b: a.Buffer()}
	if wholePacked(a) {
		e.a = a
	}
	p.keep(e)
}

func (p *pool) keep(e pooled) {
	b := e.b
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
	c.free = append(c.free, e)
	p.bytes += sz
}

// wholePacked reports whether a is laid out as ndarray.PackedOn lays out
// an array over its whole buffer: from offset 0, C order, strides those
// PackedOn gives (the axes of size 1 included).
func wholePacked(a *ndarray.Array) bool {
	if a.Offset() != 0 || a.Size() != a.Buffer().Len() {
		return false
	}
	sh, st := a.Shape(), a.Strides()
	s := 1
	for i := len(sh) - 1; i >= 0; i-- {
		if st[i] != s {
			return false
		}
		if sh[i] > 1 {
			s *= sh[i]
		}
	}
	return true
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
