package train

import (
	"runtime"
	"sync/atomic"

	"github.com/sdgo/sdgo/kernels"
	"github.com/sdgo/sdgo/ndarray"
)

// update is one step's change of a parameter, over any part of its
// elements: x holds the parameter, its gradient and the updater's state
// arrays (as many as its StateKeys), all cut to the same elements, and
// scratch updChunk elements the function may overwrite.
type update struct {
	f32 func(x [4][]float32, scratch []float32)
	f64 func(x [4][]float64, scratch []float64)
}

// updChunk is how many elements of each array the fused updaters take at
// a time: a chunk of four arrays and the scratch, in float64, is 20 KiB,
// which stays in the L1 cache from one kernel to the next.
const updChunk = 512

// pieceLen is the most elements of a parameter one goroutine updates
// before it takes the next piece: small enough that the goroutines finish
// close together, large enough that taking a piece costs nothing next to
// updating it. A multiple of updChunk.
const pieceLen = 32 * updChunk

// parallelMin is the fewest elements per goroutine an update pass is
// shared out for: below it, handing out the work costs more than it saves.
const parallelMin = 1 << 16

// updatePass applies one step's update to all the parameters at once.
// Their elements are cut into pieces that the calling goroutine and, on
// more than one core, the kernels' warm helpers (kernels.Parallel) take in
// turn. The update is elementwise, so the pieces are independent and the
// result is the same however they are shared out. Shared over all the
// parameters, the pieces keep every core busy to the end of the pass; and
// the helpers, awake from the step's products, start at once, where a
// goroutine started per parameter waits behind the running one for a core
// (the helpers that poll for the next product hold the other core without
// taking it up).
type updatePass struct {
	x32    [][4][]float32
	x64    [][4][]float64
	pieces []piece
	elems  int
	// s32 and s64 hold a scratch of updChunk elements per goroutine of a
	// pass, kept between steps: a sync.Pool would allocate them again
	// whenever a helper puts one back on another core than it took it
	// from.
	s32 [][]float32
	s64 [][]float64
}

// piece is elements lo to hi of parameter i of x64 (when f64) or x32.
type piece struct {
	f64    bool
	i      int
	lo, hi int
}

// reset empties the pass, keeping its storage.
func (p *updatePass) reset() {
	clear(p.x32)
	clear(p.x64)
	p.x32, p.x64, p.pieces, p.elems = p.x32[:0], p.x64[:0], p.pieces[:0], 0
}

// add takes a parameter and its gradient and state arrays (at most four in
// all), which must be packed and alike, into the pass.
func (p *updatePass) add(arrays ...*ndarray.Array) error {
	return each(func(x [4][]float32) { addParam(p, x) }, func(x [4][]float64) { addParam(p, x) }, arrays...)
}

// addParam takes the elements of a parameter, its gradient and its state
// into the pass.
func addParam[T kernels.Float](p *updatePass, x [4][]T) {
	var f64 bool
	var i int
	switch x := any(x).(type) {
	case [4][]float32:
		i, p.x32 = len(p.x32), append(p.x32, x)
	case [4][]float64:
		f64, i, p.x64 = true, len(p.x64), append(p.x64, x)
	}
	n := len(x[0])
	for lo := 0; lo < n; lo += pieceLen {
		p.pieces = append(p.pieces, piece{f64: f64, i: i, lo: lo, hi: min(lo+pieceLen, n)})
	}
	p.elems += n
}

// run applies u to every parameter added.
func (p *updatePass) run(u update) {
	w := max(min(runtime.GOMAXPROCS(0), p.elems/parallelMin, len(p.pieces)), 1)
	if len(p.x32) > 0 {
		p.s32 = scratches(p.s32, w)
	}
	if len(p.x64) > 0 {
		p.s64 = scratches(p.s64, w)
	}
	// Each pass has its own counters: a helper may call work once more
	// after Parallel has returned, and must then find nothing left rather
	// than take pieces of the next pass while it is being built.
	j := &passJob{pieces: p.pieces, x32: p.x32, x64: p.x64, s32: p.s32, s64: p.s64, u: u}
	kernels.Parallel(w-1, j.work)
}

// scratches returns s with at least w scratch slices.
func scratches[T kernels.Float](s [][]T, w int) [][]T {
	for len(s) < w {
		s = append(s, make([]T, updChunk))
	}
	return s
}

type passJob struct {
	next, workers atomic.Int64
	pieces        []piece
	x32           [][4][]float32
	x64           [][4][]float64
	s32           [][]float32
	s64           [][]float64
	u             update
}

func (j *passJob) work() {
	w := -1 // which scratch is this goroutine's, once it has a piece
	for {
		k := int(j.next.Add(1) - 1)
		if k >= len(j.pieces) {
			return
		}
		if w < 0 {
			// At most as many goroutines as there are scratches get here:
			// one more call of work, after the others, finds no piece.
			w = int(j.workers.Add(1) - 1)
		}
		pc := j.pieces[k]
		if pc.f64 {
			j.u.f64(slicePart(j.x64[pc.i], pc.lo, pc.hi), j.s64[w])
		} else {
			j.u.f32(slicePart(j.x32[pc.i], pc.lo, pc.hi), j.s32[w])
		}
	}
}

// slicePart returns elements lo to hi of each array of x that is there.
func slicePart[T kernels.Float](x [4][]T, lo, hi int) [4][]T {
	var p [4][]T
	for i, a := range x {
		if a != nil {
			p[i] = a[lo:hi]
		}
	}
	return p
}
