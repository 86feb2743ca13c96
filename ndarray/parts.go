package ndarray

import (
	"runtime"
	"sync/atomic"

	"github.com/sdgo/sdgo/kernels"
)

// partMin is the fewest elements of a part an op's nest is cut into for
// the cores, when the op takes a few cycles an element (a Go loop, exp):
// below it, handing the part to another core costs about what computing it
// does. fastPartMin is the same for ops the vector kernels do in a
// fraction of a cycle an element (add, relu), which a second core speeds
// up only on arrays larger than the cache the first one has them in.
const (
	partMin     = 1 << 14
	fastPartMin = 1 << 18
)

// partsPerCore is how many parts each core gets at most, so that a core
// that starts late (the helper finishing a product, or the machine busy)
// leaves the others parts to take rather than one half to wait for.
const partsPerCore = 4

// partAlign is what a part's length is a multiple of when the nest is one
// run, in elements: parts then start as aligned as the run does, for the
// vector kernels.
const partAlign = 64

// partPlan returns how many goroutines share nn, the parts they take,
// and the positions of axis 0 in each part (but the last): parts is 1
// when the nest is too small to cut or there is one core. A nest of one
// run is cut into pieces of that run, multiples of partAlign long.
func partPlan(nn *nest, minPart int) (workers, parts, size int) {
	if nn.rank == 0 {
		return 1, 1, 0
	}
	elems := 1
	for i := 0; i < nn.rank; i++ {
		elems *= nn.shape[i]
	}
	// Most ops are too small to cut: they return before GOMAXPROCS, which
	// takes the scheduler's lock.
	if elems < 2*minPart {
		return 1, 1, 0
	}
	w := runtime.GOMAXPROCS(0)
	if w < 2 {
		return 1, 1, 0
	}
	rows, unit := nn.shape[0], 1
	if nn.rank == 1 {
		unit = partAlign
	}
	parts = min(elems/minPart, partsPerCore*w, (rows+unit-1)/unit)
	if parts < 2 {
		return 1, 1, 0
	}
	size = ((rows+parts-1)/parts + unit - 1) / unit * unit
	parts = (rows + size - 1) / size
	return min(w, parts), parts, size
}

// splits reports whether inParts would cut nn: callers that build a closure
// for it ask first, so that an op on one core allocates none.
func splits(nn *nest, minPart int) bool {
	_, parts, _ := partPlan(nn, minPart)
	return parts > 1
}

// inParts calls f on the nest cut along its axis 0 into parts of at least
// minPart elements (partPlan),
// which the calling goroutine and the kernels' warm helpers
// (kernels.Share) take in turn; or once on the whole nest. f must compute
// each element of a part as it would in the whole nest, from elements no
// other part writes, so that the result is the same bits however the
// parts are shared out: elementwise ops, and reductions cut along an axis
// they keep.
//
// nn is taken by value: a pointer handed to f would move the caller's nest,
// which every elementwise op builds, to the heap even when it is not cut.
func inParts(nn nest, minPart int, f func(part *nest)) {
	w, parts, size := partPlan(&nn, minPart)
	if parts <= 1 {
		f(&nn)
		return
	}
	j := &partJob{nn: nn, size: size, parts: parts, f: f}
	kernels.Share(w-1, j.work)
}

// partJob is a nest cut into parts of size positions of its axis 0 and the
// function to call on each; a goroutine takes the next part from next.
type partJob struct {
	next  atomic.Int64
	nn    nest
	size  int
	parts int
	f     func(*nest)
}

func (j *partJob) work() {
	for {
		i := int(j.next.Add(1) - 1)
		if i >= j.parts {
			return
		}
		p := j.nn
		lo := i * j.size
		p.shape[0] = min(j.size, j.nn.shape[0]-lo)
		for o := 0; o < p.k; o++ {
			p.off[o] += lo * p.st[o][0]
		}
		j.f(&p)
	}
}
